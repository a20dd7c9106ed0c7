// The live explorer page: the BLEU explorer's form, made live by lesson_live.js like every lesson's explorer,
// with its example kept in the address bar (?hyp=...&ref=...&ref=...&n=4&weights=...&smoothing=method1
// &tokenizer=whitespace&lowercase=0), so that a link reopens the same example.
//
// No BLEU here and no second controller: lesson_live.js sends the form's values to bleu_teach on Pyodide and
// shows what it answers.  This file only reads the address into the form and writes the form into the address.

import { setReferences, syncControls } from "./lesson_live.js";

const form = document.querySelector('form[data-widget="BleuExplorer"]');
const note = document.getElementById("link-note");
/** The address's names for the form's controls (the explorer's URLs predate the form). */
const PARAMETERS = { hyp: "hypothesis", n: "max_n", weights: "weights", smoothing: "smoothing",
                     tokenizer: "tokenizer", lowercase: "lowercase" };

function control(name) {
  return form.elements.namedItem(name);
}

/** Set a control from the address; say so if it cannot show that value (a hand-made link). */
function setControl(parameter, name, value, refused) {
  const box = control(name);
  if (box.type === "checkbox") {
    box.checked = value === "1";
    return;
  }
  box.value = value;
  if (box.value !== value) refused.push(`${parameter}=${value.slice(0, 40)}`);
}

function fromAddress() {
  const query = new URLSearchParams(window.location.search);
  if (!query.has("hyp") && !query.has("ref")) return; // the page's own example
  const refused = [];
  for (const [parameter, name] of Object.entries(PARAMETERS)) {
    if (query.has(parameter)) setControl(parameter, name, query.get(parameter), refused);
    else if (name === "weights") control(name).value = "";
  }
  setReferences(form, query.getAll("ref").length ? query.getAll("ref") : [""]);
  syncControls(form);
  // The saved example's number is not this link's: wait for Python's.
  const headline = form.querySelector(".live-headline");
  headline.dataset.value = "";
  headline.textContent = "The score of this link's example appears when Python has started in your browser.";
  form.querySelector(".live-output").replaceChildren();
  if (refused.length) {
    note.textContent = `This link asks for ${refused.join(" and ")}, which the explorer does not offer; ` +
      "it shows the nearest setting it has instead.";
    note.hidden = false;
  }
}

function toAddress() {
  const query = new URLSearchParams();
  query.append("hyp", control("hypothesis").value);
  for (const box of form.querySelectorAll("input.reference")) if (!box.dataset.fresh) query.append("ref", box.value);
  query.append("n", control("max_n").value);
  if (control("weights").value.trim()) query.append("weights", control("weights").value);
  query.append("smoothing", control("smoothing").value);
  query.append("tokenizer", control("tokenizer").value);
  query.append("lowercase", control("lowercase").checked ? "1" : "0");
  history.replaceState(null, "", `${window.location.pathname}?${query}`);
}

fromAddress();
toAddress();
for (const event of ["input", "change"]) form.addEventListener(event, toAddress);
form.addEventListener("click", (event) => { if (event.target.closest("button")) toAddress(); });
document.getElementById("copy-link").addEventListener("click", async () => {
  toAddress();
  const said = document.getElementById("copied");
  try {
    await navigator.clipboard.writeText(window.location.href);
    said.textContent = "Link copied: it opens this example with these settings.";
  } catch {
    said.textContent = `Copy this link: ${window.location.href}`;
  }
});
