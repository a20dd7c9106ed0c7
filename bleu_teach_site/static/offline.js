// Opened from disk, a browser runs neither the pages' module scripts nor Pyodide: say so where it matters, and
// disable what nothing would answer.  A classic script (module scripts do not run from disk), shared by the
// lesson pages and the explorer page.
if (location.protocol === "file:") addEventListener("DOMContentLoaded", () => {
  const how = "The live parts need the site served over http(s), not opened from disk: for example, run " +
    "python -m http.server --bind 127.0.0.1 inside the site's folder and open http://127.0.0.1:8000/ in the browser.";
  // On a slide the room reads it: one short line (make slides prints how to serve the deck, and so does the README).
  const said = document.querySelector(".reveal") ?
    "The saved example: typing needs the deck served over http, not opened from disk." : "The saved example. " + how;
  for (const status of document.querySelectorAll(".live-status")) status.textContent = said;
  for (const control of document.querySelectorAll(
    ".live-widget input, .live-widget select, .live-widget textarea, .live-widget button, #copy-link")) {
    /** @type {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | HTMLButtonElement} */ (control)
      .disabled = true;
  }
  for (const form of document.querySelectorAll("form[data-exercise]")) {
    for (const control of form.querySelectorAll("input, button")) {
      /** @type {HTMLInputElement | HTMLButtonElement} */ (control).disabled = true;
    }
    /** @type {HTMLElement} */ (form.querySelector(".live-feedback")).textContent = how;
  }
});

// Served, a module script whose file or one of whose imports cannot be loaded never runs, so it cannot say so
// itself: the browser fires "error" at its script element, and this says so where the live parts are, instead of
// leaving the saved example waiting for Python forever.
if (location.protocol !== "file:") addEventListener("error", (event) => {
  const script = event.target;
  if (!(script instanceof HTMLScriptElement) || script.type !== "module") return;
  const name = script.src.split("/").pop();
  const message = `The live part could not start: ${name}, or a file it imports, could not be loaded from this ` +
    "site. What is shown is the saved example; reload the page, and if this stays, the site is missing a file.";
  const say = () => {
    for (const status of document.querySelectorAll(".live-status")) {
      status.textContent = message;
    }
    for (const feedback of document.querySelectorAll("form[data-exercise] .live-feedback")) {
      feedback.textContent = message;
    }
  };
  if (document.readyState === "loading") addEventListener("DOMContentLoaded", say);
  else say();
}, true);
