// The live explorer page: the BLEU explorer's form, made live by lesson_live.js like every lesson's explorer,
// with its example kept in the address bar (?hyp=...&ref=...&ref=...&n=4&weights=...&smoothing=method1
// &tokenizer=whitespace&lowercase=0), so that a link reopens the same example.
//
// No BLEU here and no second controller: lesson_live.js sends the form's values to bleu_teach on Pyodide and
// shows what it answers.  This file only reads the address into the form and writes the form into the address
// (live_data.js explorerQuery, as the lesson pages' links; the parameters' names are names.js's).
//
// A link past MAX_LINK characters is never made (servers refuse long request lines: Python's http.server at
// 64 KB, many others at 8 KB): the address then drops its query, and the example lives on in this tab's session
// storage, from which a reload restores it; it is shared as a downloaded text file instead.

// The page's live form first (lesson_live.js keeps the form's own example before the address changes it).
import "./lesson_live.js";
import { exampleText, explorerQuery } from "./live_data.js";
import { setReferences, syncControls } from "./live_form.js";
// The address's names for the form's controls, by the control's name (the explorer's URLs predate the form).
import { EXPLORER_KEY, EXPLORER_PARAMETERS as PARAMETERS } from "./names.js";

/** @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Control one of the form's controls */

const form = /** @type {HTMLFormElement} */ (document.querySelector('form[data-widget="BleuExplorer"]'));
const MAX_LINK = Number(
  /** @type {HTMLMetaElement} */ (document.querySelector('meta[name="bleu-teach-max-link"]')).content);
const note = /** @type {HTMLElement} */ (document.getElementById("link-note"));

/**
 * The form's control of this name (the explorer's form has every name asked for here).
 * @param {string} name
 * @returns {Control}
 */
function control(name) {
  return /** @type {Control} */ (form.elements.namedItem(name));
}

/**
 * Set a control from the address; say so if it cannot show that value (a hand-made link).
 * @param {string} parameter the address's name for it
 * @param {string} name the control's
 * @param {string} value
 * @param {string[]} said what the note above the form says, added to
 */
function setControl(parameter, name, value, said) {
  const box = control(name);
  if (box.type === "checkbox") {
    const on = ["1", "true", "on", "yes"].includes(value.toLowerCase());
    if (!on && !["0", "false", "off", "no", ""].includes(value.toLowerCase())) {
      said.push(`${parameter}=${value.slice(0, 40)}, which is not 0 or 1 (it is read as 0)`);
    }
    /** @type {HTMLInputElement} */ (box).checked = on;
    return;
  }
  if (box.tagName === "SELECT") {
    const same = [.../** @type {HTMLSelectElement} */ (box).options]
      .find((option) => option.value.toLowerCase() === value.trim().toLowerCase());
    if (same) {
      box.value = same.value;
      return;
    }
    // Kept as it is, so that bleu_teach says what is wrong with it (the message below the form).
    const option = document.createElement("option");
    option.value = value;
    option.textContent = `${value.slice(0, 40)} (not available here)`;
    box.append(option);
    box.value = value;
    said.push(`${parameter}=${value.slice(0, 40)}, which this explorer does not offer (see the message below)`);
    return;
  }
  box.value = value;
  if (box.value !== value) {
    const number = Number(value);
    const which = value.trim() !== "" && Number.isFinite(number) ? "the nearest it has" : "its usual value";
    said.push(`${parameter}=${value.slice(0, 40)}, which the explorer does not offer, so it shows ` +
              `${parameter}=${box.value}, ${which}`);
  }
}

/** Put the example in the address (or the one this tab kept) into the form, and say what it could not show. */
function fromAddress() {
  let query = new URLSearchParams(window.location.search);
  if (!query.has(PARAMETERS.hypothesis) && !query.has(PARAMETERS.references)) {
    // No example in the address: the one this tab kept (a reload of a long example), or the page's own.
    let kept = null;
    try { kept = sessionStorage.getItem(EXPLORER_KEY); } catch { /* storage switched off */ }
    if (!kept) return;
    query = new URLSearchParams(kept);
  }
  /** @type {string[]} */
  const said = [];
  control("hypothesis").value = query.get(PARAMETERS.hypothesis) ?? "";
  for (const [name, parameter] of Object.entries(PARAMETERS)) {
    if (name === "hypothesis" || name === "references") continue;
    if (query.has(parameter)) setControl(parameter, name, /** @type {string} */ (query.get(parameter)), said);
    else if (name === "weights") control(name).value = "";
  }
  const references = query.getAll(PARAMETERS.references);
  const most = Number(/** @type {HTMLElement} */ (form.querySelector(".live-references")).dataset.max);
  if (references.length > most) {
    said.push(`${references.length} references, and the explorer takes at most ${most}: it shows the first ${most}`);
  }
  setReferences(form, references.length ? references : [""]);
  syncControls(form);
  // The saved example's number is not this link's: wait for Python's.
  const headline = /** @type {HTMLElement} */ (form.querySelector(".live-headline"));
  headline.dataset.value = "";
  headline.textContent = "The score of this link's example appears when Python has started in your browser.";
  /** @type {HTMLElement} */ (form.querySelector(".live-output")).replaceChildren();
  if (said.length) {
    note.textContent = `This link asks for ${said.join("; and ")}.`;
    note.hidden = false;
    form.addEventListener("input", () => { note.hidden = true; }, { once: true }); // the learner took over
  }
}

/** @returns {URLSearchParams} the form's example as the address's query (a box just added and empty left out) */
function exampleQuery() {
  const boxes = /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input.reference"));
  return explorerQuery({
    hypothesis: control("hypothesis").value,
    references: [...boxes].filter((box) => !box.dataset.fresh).map((box) => box.value),
    max_n: control("max_n").value, weights: control("weights").value, smoothing: control("smoothing").value,
    tokenizer: control("tokenizer").value, lowercase: /** @type {HTMLInputElement} */ (control("lowercase")).checked,
  });
}

/**
 * Whether the example fits in a link (it is then in the address bar); it is kept in this tab either way.
 * @returns {boolean}
 */
function toAddress() {
  const query = exampleQuery();
  try {
    sessionStorage.setItem(EXPLORER_KEY, String(query));
  } catch { /* storage full or off: the address still has it */ }
  const link = `${window.location.origin}${window.location.pathname}?${query}`;
  const fits = link.length <= MAX_LINK;
  history.replaceState(null, "", fits ? `${window.location.pathname}?${query}` : window.location.pathname);
  let tooLong = document.getElementById("too-long");
  if (!fits) {
    if (!tooLong) {
      tooLong = document.createElement("p");
      tooLong.id = "too-long";
      tooLong.className = "message";
      tooLong.setAttribute("role", "status");
      note.after(tooLong); // above the form, near the box being typed into
    }
    tooLong.textContent = `This example is too long for a link (${link.length.toLocaleString("en")} characters; ` +
      `many web servers refuse links past ${MAX_LINK.toLocaleString("en")}), so the address bar no longer holds ` +
      "it. This tab keeps it (a reload restores it); to share it, download it as text.";
  } else if (tooLong) {
    tooLong.remove();
  }
  return fits;
}

fromAddress();
toAddress();
for (const event of ["input", "change"]) form.addEventListener(event, toAddress);
form.addEventListener("click", (event) => {
  if (/** @type {Element} */ (event.target).closest("button")) toAddress();
});
/** @type {HTMLElement} */ (document.getElementById("copy-link")).addEventListener("click", async () => {
  const said = /** @type {HTMLElement} */ (document.getElementById("copied"));
  if (!toAddress()) {
    said.textContent = "There is no link to copy: this example is too long for one. Download it as text instead.";
    return;
  }
  try {
    await navigator.clipboard.writeText(window.location.href);
    said.textContent = "Link copied: it opens this example with these settings.";
  } catch {
    said.textContent = `Copy this link: ${window.location.href}`;
  }
});
/** @type {HTMLElement} */ (document.getElementById("download-example")).addEventListener("click", () => {
  // The example as plain text: what was typed and every setting, for sharing an example too long for a link.
  const file = new Blob([exampleText(exampleQuery())], { type: "text/plain;charset=utf-8" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(file);
  link.download = "bleu-example.txt";
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  /** @type {HTMLElement} */ (document.getElementById("copied")).textContent =
    "Downloaded bleu-example.txt: the example and its settings.";
});
