// The live widgets of a page (the explorers' forms bleu_teach_site/live.py writes): each change drawn by Python
// (bleu_teach.web.page.widget, through live_python.js: one call at a time per form, the latest values last), the
// learner's values kept in this browser (a reload shows them again; Back to the example forgets them), and the
// page's links to the live explorer made from them.  Until Python has started a change is marked as waiting.
import { keepValues, keptValues } from "./answers.js";
import { drawChart } from "./live_chart.js";
import { explorerHref } from "./live_data.js";
import {
  addReference, applyValues, controlOf, refreshReferenceButtons, refreshSteps, removeReference, stateOf, syncControls,
} from "./live_form.js";
import { ready, started } from "./live_python.js";

/** @typedef {import("./live_form.js").WidgetForm} WidgetForm */
/** @typedef {import("./live_python.js").WidgetResult} WidgetResult */
/** @type {WidgetForm[]} */
let widgets = []; // the page's widget forms, in its order (startWidgets)
// The explorer page keeps its example in the address bar instead (explorer.js).
const KEEPS_VALUES = !document.querySelector('meta[name="bleu-teach-max-link"]');

/**
 * Show what Python answered for the form's values.
 * @param {WidgetForm} form
 * @param {WidgetResult} result
 */
function showWidget(form, result) {
  delete form.dataset.waiting;
  updateLinks(form, result.links ?? []);
  const headline = /** @type {HTMLElement} */ (form.querySelector(".live-headline"));
  const output = /** @type {HTMLElement} */ (form.querySelector(".live-output"));
  // The report's folded steps stay open or closed as the learner left them.
  const open = [...output.querySelectorAll("details")].map((details) => details.open);
  output.innerHTML = result.html; // bleu_teach's HTML (views.html_writer): typed text arrives escaped
  output.querySelectorAll("details").forEach((details, k) => { if (open[k]) details.open = true; });
  if (result.message) {
    headline.dataset.value = "";
    headline.textContent = `No number: ${result.message}`; // announced, as the number would be
  } else {
    headline.dataset.value = String(result.value); // null (no number) is written "null", as before
    headline.innerHTML = result.headline; // bleu_teach's HTML too
  }
  // The view may bound a control (the number of pairs shown), say something beside it, or move its value
  // (a rank past the end of a shorter list moves to its last pair, as in the notebook).
  for (const [name, top] of Object.entries(result.extra.limits ?? {})) {
    const control = /** @type {HTMLInputElement | null} */ (controlOf(form, name)); // a number box or a slider
    if (control) control.max = String(top);
  }
  for (const [name, text] of Object.entries(result.extra.notes ?? {})) {
    const note = form.querySelector(`[data-note="${name}"]`);
    if (note) note.textContent = text;
  }
  for (const [name, value] of Object.entries(result.extra.values ?? {})) {
    const control = controlOf(form, name);
    if (!control || control.value === String(value)) {
      if (control) delete control.dataset.pending;
    } else if (control === document.activeElement) {
      // Not while the learner types into it (the next keys would land after the moved value): when they leave it.
      control.dataset.pending = String(value);
      if (!control.dataset.waits) {
        control.dataset.waits = "1";
        control.addEventListener("blur", () => {
          if (control.dataset.pending !== undefined) control.value = control.dataset.pending;
          delete control.dataset.pending;
        });
      }
    } else {
      control.value = String(value);
    }
  }
  refreshSteps(form); // the view may have moved the number or its top
  drawChart(form, result.extra).catch(() => {});
}

/**
 * Show what Python answers for the form's values: one call at a time per form, and the latest values last.
 * @param {WidgetForm} form
 * @param {boolean} [force] draw even if the values are those shown
 */
async function render(form, force = false) {
  if (form.rendering) {
    form.again = true; // asked again while Python works: the values then are drawn next
    return;
  }
  form.rendering = true;
  try {
    do {
      form.again = false;
      const state = JSON.stringify(stateOf(form));
      if (state === form.shownState && !force) break; // a change event after the input event: nothing new
      force = false;
      /** @type {WidgetResult} */
      const result = JSON.parse(await started().widget(form.dataset.widget, state));
      if (form.again && JSON.stringify(stateOf(form)) !== state) continue; // already old: draw the newer values
      form.shownState = state;
      showWidget(form, result);
    } while (form.again);
  } catch (error) {
    const status = /** @type {HTMLElement} */ (form.querySelector(".live-status"));
    status.textContent = `Python stopped answering (${/** @type {Error} */ (error).message}): reload the page.`;
    status.classList.add("message");
  } finally {
    form.rendering = false;
  }
}

/**
 * @param {WidgetForm} form
 * @returns {string} where its values are kept: the page, the form's place on it, its explorer
 */
function keyOf(form) {
  return `${window.location.pathname}#${widgets.indexOf(form)}:${form.dataset.widget}`;
}

/**
 * Keep the form's values in this browser, or forget them when they are the example's again (not on the explorer
 * page, which keeps its example in the address bar instead: explorer.js).
 * @param {WidgetForm} form
 */
function keepValuesOf(form) {
  if (!KEEPS_VALUES) return;
  const state = JSON.stringify(stateOf(form));
  keepValues(keyOf(form), state === form.exampleState ? null : JSON.parse(state));
}

/**
 * Until Python has started, the number shown is the saved example's: say that the learner's values wait.
 * @param {WidgetForm} form
 * @param {string} text
 */
function markWaiting(form, text) {
  form.dataset.waiting = "1";
  const headline = /** @type {HTMLElement} */ (form.querySelector(".live-headline"));
  headline.dataset.value = "";
  headline.textContent = text;
}

/** @param {WidgetForm} form */
function changed(form) {
  syncControls(form);
  keepValuesOf(form);
  if (!ready()) {
    if (!form.dataset.waiting) markWaiting(form, "Your change is scored as soon as Python has started (see above).");
    return;
  }
  if (form.scheduled) return;
  form.scheduled = true;
  setTimeout(() => { // one render for a burst of events
    form.scheduled = false;
    render(form);
  }, 0);
}

/** @param {WidgetForm} form */
function backToExample(form) {
  applyValues(form, JSON.parse(form.exampleState));
  changed(form);
}

/**
 * The page's "Open this example in the live explorer" links after this form: made from its current values.
 * @param {WidgetForm} form
 * @param {import("./live_data.js").ExplorerExample[]} links
 */
function updateLinks(form, links) {
  const anchors = /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll("a.live-explorer-link"));
  const after = [...anchors].filter((link) =>
    form.compareDocumentPosition(link) & Node.DOCUMENT_POSITION_FOLLOWING &&
    widgets.filter((other) => other.compareDocumentPosition(link) & Node.DOCUMENT_POSITION_FOLLOWING).at(-1) === form);
  after.forEach((link, k) => {
    const example = links[k];
    if (!example) return;
    link.href = explorerHref(example);
  });
}

/**
 * Make these widgets live: their controls answer the learner, and the values kept from last time are shown
 * again (marked as waiting for Python); each shows its saved example's chart meanwhile.
 * @param {WidgetForm[]} forms the page's widget forms, in the page's order
 */
export function startWidgets(forms) {
  widgets = forms;
  for (const form of widgets) {
    form.addEventListener("input", (event) => {
      delete /** @type {HTMLElement} */ (event.target).dataset.fresh;
      changed(form);
    });
    form.addEventListener("change", (event) => {
      // A control that changes the list another one counts in (a metric, a system) puts that one back to its start.
      for (const name of (/** @type {HTMLElement} */ (event.target).dataset?.resets ?? "").split(" ").filter(Boolean)) {
        const control = /** @type {HTMLInputElement | null} */ (controlOf(form, name)); // a number box (data-default)
        if (control) control.value = control.dataset.default ?? control.defaultValue;
      }
      changed(form);
    });
    form.addEventListener("submit", (event) => event.preventDefault());
    form.addEventListener("click", (event) => {
      const action = /** @type {Element} */ (event.target).closest("button")?.dataset.action;
      if (action === "add-reference") addReference(form); // scored once something is typed into the new box
      else if (action === "remove-reference") {
        removeReference(form);
        changed(form);
      } else if (action === "reset") backToExample(form);
      else if (action === "step") { // Previous / Next beside a number (lesson 08's rank)
        const button = /** @type {HTMLButtonElement} */ (/** @type {Element} */ (event.target).closest("button"));
        const control = /** @type {HTMLInputElement | null} */ (controlOf(form, String(button.dataset.control)));
        if (control) {
          if (Number(button.dataset.step) > 0) control.stepUp();
          else control.stepDown();
          changed(form);
        }
      }
    });
    refreshReferenceButtons(form);
    syncControls(form);
    form.exampleState = JSON.stringify(stateOf(form));
    const kept = KEEPS_VALUES ? keptValues()[keyOf(form)] : undefined;
    if (kept && typeof kept === "object" && JSON.stringify(kept) !== form.exampleState) {
      applyValues(form, kept);
      markWaiting(form, "Your values from last time: their numbers appear when Python has started.");
    }
    const extra = JSON.parse(/** @type {HTMLElement} */ (form.querySelector(".live-output")).dataset.extra || "{}");
    drawChart(form, extra).catch(() => {});
  }
}

/**
 * Python has started: draw every widget with its values (promises of the renders).
 * @returns {Promise<void>[]}
 */
export function renderAll() {
  return widgets.map((form) => render(form, true));
}
