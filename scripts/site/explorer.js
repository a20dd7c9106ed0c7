// The live explorer: the page's controls and address bar, wired to bleu_teach running on Pyodide.
//
// No BLEU here: every number comes from Python (explorer_page.py calls bleu_teach.ui.typed_input.explain_text).
// Typed text only ever reaches the page through textContent and form values; the report's HTML is
// bleu_teach.views.html_writer's, which escapes every piece of typed text.  The address bar holds the state
// (?hyp=...&ref=...&ref=...&n=4&weights=...&smoothing=method1&tokenizer=whitespace&lowercase=0),
// updated as the learner types, so that a link reopens the same example.

import { startFailure, startPython } from "./python.js";

const form = document.getElementById("explorer");
const $ = (id) => document.getElementById(id);
const MAX_REFERENCES = Number(form.dataset.maxReferences);
const DEFAULTS = JSON.parse(form.dataset.default);
const DEBOUNCE_MS = 60;

let scoreJson = null; // Python's explorer_page.score_json, once Pyodide is up
let timer = null;

function referenceBoxes() {
  return [...document.querySelectorAll("#references input.reference")];
}

function addReference(text = "") {
  const boxes = referenceBoxes();
  if (boxes.length >= MAX_REFERENCES) return;
  const row = document.createElement("div");
  row.className = "reference-row";
  const label = document.createElement("label");
  const input = document.createElement("input");
  input.type = "text";
  input.className = "reference";
  input.spellcheck = false;
  input.id = `reference-${boxes.length + 1}`;
  input.value = text;
  label.htmlFor = input.id;
  label.textContent = `Reference ${boxes.length + 1}`;
  row.append(label, input);
  $("references").append(row);
  refreshButtons();
}

function removeReference() {
  const rows = document.querySelectorAll("#references .reference-row");
  if (rows.length > 1) rows[rows.length - 1].remove();
  refreshButtons();
}

function refreshButtons() {
  const count = referenceBoxes().length;
  $("add-reference").disabled = count >= MAX_REFERENCES;
  $("remove-reference").disabled = count <= 1;
}

function selectValue(select, value) {
  // A value the page does not offer (say, from a hand-made link) is kept, so that Python can say what is wrong.
  if (![...select.options].some((option) => option.value === value)) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = `${value} (not available here)`;
    select.append(option);
  }
  select.value = value;
}

/** The controls' state, as sent to Python and kept in the address bar. */
function currentState() {
  return {
    hypothesis: $("hypothesis").value,
    references: referenceBoxes().map((box) => box.value),
    tokenizer: $("tokenizer").value,
    lowercase: $("lowercase").checked,
    max_n: $("max-n").value,
    weights: $("weights").value,
    smoothing: $("smoothing").value,
  };
}

function stateFromAddress() {
  const query = new URLSearchParams(window.location.search);
  if (!query.has("hyp") && !query.has("ref")) return DEFAULTS;
  const refs = query.getAll("ref");
  return {
    hypothesis: query.get("hyp") ?? "",
    references: refs.length ? refs.slice(0, MAX_REFERENCES) : [""],
    tokenizer: query.get("tokenizer") ?? DEFAULTS.tokenizer,
    lowercase: query.get("lowercase") === "1",
    max_n: query.get("n") ?? DEFAULTS.max_n,
    weights: query.get("weights") ?? "",
    smoothing: query.get("smoothing") ?? DEFAULTS.smoothing,
  };
}

function showState(state) {
  $("hypothesis").value = state.hypothesis;
  document.querySelectorAll("#references .reference-row").forEach((row) => row.remove());
  for (const text of state.references) addReference(text);
  selectValue($("tokenizer"), state.tokenizer);
  $("lowercase").checked = state.lowercase;
  $("max-n").value = state.max_n;
  $("weights").value = state.weights;
  selectValue($("smoothing"), state.smoothing);
}

function writeAddress(state) {
  const query = new URLSearchParams();
  query.append("hyp", state.hypothesis);
  for (const ref of state.references) query.append("ref", ref);
  query.append("n", state.max_n);
  if (state.weights.trim()) query.append("weights", state.weights);
  query.append("smoothing", state.smoothing);
  query.append("tokenizer", state.tokenizer);
  query.append("lowercase", state.lowercase ? "1" : "0");
  history.replaceState(null, "", `${window.location.pathname}?${query}`);
}

function showResult(result) {
  const score = $("score");
  const message = $("message");
  if (result.message) {
    message.textContent = result.message;
    message.hidden = false;
    score.textContent = "BLEU = (no score: see the message above)";
    score.removeAttribute("data-score");
    $("report").replaceChildren();
    return;
  }
  message.hidden = true;
  message.textContent = "";
  score.textContent = result.shown;
  score.dataset.score = result.score;
  $("report").innerHTML = result.html; // bleu_teach's HTML (views.html_writer): typed text arrives escaped
  if (!document.documentElement.dataset.firstScoreMs) {
    document.documentElement.dataset.firstScoreMs = String(Math.round(performance.now()));
  }
}

function update() {
  clearTimeout(timer);
  timer = null;
  const state = currentState();
  writeAddress(state);
  if (scoreJson === null) return; // scored as soon as Python is ready
  showResult(JSON.parse(scoreJson(JSON.stringify(state))));
}

function soon() {
  writeAddress(currentState());
  clearTimeout(timer);
  timer = setTimeout(update, DEBOUNCE_MS);
}

showState(stateFromAddress());
form.addEventListener("input", soon);
form.addEventListener("change", soon);
$("add-reference").addEventListener("click", () => { addReference(); referenceBoxes().at(-1).focus(); soon(); });
$("remove-reference").addEventListener("click", () => { removeReference(); soon(); });
$("copy-link").addEventListener("click", async () => {
  writeAddress(currentState());
  try {
    await navigator.clipboard.writeText(window.location.href);
    $("status").textContent = "Link copied: it opens this example with these settings.";
  } catch {
    $("status").textContent = `Copy this link: ${window.location.href}`;
  }
});
writeAddress(currentState());

startPython([form.dataset.pythonZip]).then(
  ({ pyodide, version }) => {
    scoreJson = pyodide.pyimport("explorer_page").score_json;
    $("status").textContent = `Ready: bleu-teach on Python ${version}, running in your browser.`;
    document.documentElement.dataset.pythonReady = "1";
    update();
  },
  (error) => {
    $("status").textContent = startFailure(error, "explorer.html");
    $("status").classList.add("message");
  },
);
