// A lesson page's live widgets and exercises (the forms bleu_teach_site/live.py writes into the page).
//
// No BLEU here: every number and every verdict comes from Python, bleu_teach itself running on Pyodide in a
// worker (python.js; bleu_teach.web.page: the explorers' declared views and the exercise bank's check).  Until
// Python has started, the widgets show the saved example the build wrote in (or the learner's last values, marked
// as waiting), and a Check waits for it; the page itself never waits.  Typed text reaches the page only as form
// values and textContent; the HTML shown is bleu_teach.views.html_writer's, which escapes it.  Answers and the
// widgets' values are kept in this browser's local storage (nothing is sent anywhere); the index page reads the
// answers.

import { PRACTICE, practised, stored, STORE, WIDGETS } from "./answers.js";
import { sendToClass } from "./classroom.js";
import { answerRecord, chartData, explorerHref } from "./live_data.js";
import { pageArchives, startFailure, startPython } from "./python.js";

/**
 * A live widget's form (live.py widget_html: its explorer's name and saved values in data-widget and data-state),
 * with what this file keeps on it: the example's state (set for each form as the page starts, below), the state
 * drawn last, and whether a render is running, asked again or scheduled.
 * @typedef {HTMLFormElement & {
 *   dataset: DOMStringMap & { widget: string, state: string },
 *   exampleState: string, shownState?: string, rendering?: boolean, again?: boolean, scheduled?: boolean
 * }} WidgetForm
 */
/** @typedef {HTMLFormElement & { dataset: DOMStringMap & { exercise: string } }} ExerciseForm */
/** @typedef {HTMLElement & { dataset: DOMStringMap & { practice: string } }} PracticeSection */
/** A widget's control: the form template's inputs (text, number, range, tick box, hidden), menus and text areas. */
/** @typedef {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} Control */
/** @typedef {HTMLCanvasElement & { chart?: ChartInstance }} ChartCanvas */

/**
 * What bleu_teach.web.page.widget answers: the report's HTML, the headline (the number and its HTML) or the
 * message that replaces it, extra (the chart's points, the controls' limits, notes and moved values), and the
 * examples for the page's links to the live explorer.
 * @typedef {object} WidgetResult
 * @property {string} html
 * @property {string | null} value
 * @property {string} headline
 * @property {string | null} message
 * @property {WidgetExtra} extra
 * @property {import("./live_data.js").ExplorerExample[]} [links]
 */
/**
 * @typedef {Partial<import("./live_data.js").CurveExtra> & {
 *   limits?: Record<string, number>, notes?: Record<string, string>, values?: Record<string, unknown>
 * }} WidgetExtra
 */
/** @typedef {{ verdict: string, html: string }} CheckResult what check_json answers */
/**
 * What practice_json and practice_check_json answer.
 * @typedef {object} PracticeResult
 * @property {string} html
 * @property {number | null} [number] the question drawn (practice_json), or null when none can be
 * @property {string} [verdict]
 * @property {import("./answers.js").Streak | null} streak
 * @property {string} streak_text
 */
/**
 * bleu_teach.web.page's JSON functions, called in the worker (promises of their JSON answers).
 * @typedef {object} PythonCalls
 * @property {(kind: string, state: string) => Promise<string>} widget
 * @property {(id: string, answer: string, attempt: number) => Promise<string>} check
 * @property {(id: string, sent: string) => Promise<string>} practice
 * @property {(id: string, sent: string) => Promise<string>} practiceCheck
 */

const widgets = /** @type {WidgetForm[]} */ ([...document.querySelectorAll("form[data-widget]")]);
const exercises = /** @type {ExerciseForm[]} */ ([...document.querySelectorAll("form[data-exercise]")]);
const practices = /** @type {PracticeSection[]} */ ([...document.querySelectorAll("section[data-practice]")]);
const root = document.documentElement;
/** @type {PythonCalls | null} */
let python = null; // { widget, check, practice, practiceCheck }: bleu_teach.web.page's JSON functions (promises)
/** @type {Set<ExerciseForm>} */
const waiting = new Set(); // exercises checked before Python was ready
/** @type {Set<ExerciseForm>} */
const restored = new Set(); // exercises whose earlier answer is shown again
/** @type {Set<PracticeSection>} */
const asking = new Set(); // practice blocks whose Another one was pressed before Python was ready

/**
 * Python's functions, once it has started: what is called only then (a render, a check, a question) uses this.
 * @returns {PythonCalls}
 */
function started() {
  return /** @type {PythonCalls} */ (python);
}

// --- the learner's answers, in local storage ------------------------------------------------------------------

/**
 * Keep the last answer (to show it again) and whether the exercise was ever answered right (the progress).
 * @param {string} id
 * @param {string} answer
 * @param {string} verdict
 * @returns {boolean} whether it could be kept
 */
function remember(id, answer, verdict) {
  try {
    const all = stored();
    all[id] = answerRecord(all[id], answer, verdict, new Date().toISOString());
    localStorage.setItem(STORE, JSON.stringify(all));
    return true;
  } catch {
    return false; // storage switched off: the page still works, it only forgets
  }
}

// --- widgets ----------------------------------------------------------------------------------------------------

/**
 * A form's control by its name (null if it has none).
 * @param {HTMLFormElement} form
 * @param {string} name
 * @returns {Control | null}
 */
function controlOf(form, name) {
  return /** @type {Control | null} */ (form.elements.namedItem(name));
}

/**
 * The form's values as bleu_teach.web.page.widget takes them, by the saved example's names.
 * @param {WidgetForm} form
 * @returns {Record<string, unknown>}
 */
function stateOf(form) {
  const saved = JSON.parse(form.dataset.state);
  /** @type {Record<string, unknown>} */
  const state = {};
  for (const [key, value] of Object.entries(saved)) {
    const control = controlOf(form, key);
    if (key === "references") {
      // A box just added and not typed into yet is left out, so that adding one is no error.
      state.references = [.../** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input.reference"))]
        .filter((box) => !box.dataset.fresh).map((box) => box.value);
    }
    else if (!control) state[key] = value;
    else if (control.type === "checkbox") state[key] = /** @type {HTMLInputElement} */ (control).checked;
    else if (typeof value === "boolean") state[key] = control.value === "1";
    // A number box hides text it cannot read (1e999, 1.5) and reports "": Python says what is wrong instead.
    else if (control.validity?.badInput) state[key] = { unreadable: true };
    else state[key] = control.value;
  }
  return state;
}

/**
 * @param {HTMLFormElement} form
 * @returns {HTMLElement[]} the rows of its reference boxes
 */
function referenceRows(form) {
  return [.../** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll(".live-references .live-row"))];
}

/**
 * The form's button for this action.
 * @param {HTMLFormElement} form
 * @param {string} action
 * @returns {HTMLButtonElement}
 */
function actionButton(form, action) {
  return /** @type {HTMLButtonElement} */ (form.querySelector(`[data-action="${action}"]`));
}

/** @param {HTMLFormElement} form */
function refreshReferenceButtons(form) {
  const box = /** @type {HTMLElement | null} */ (form.querySelector(".live-references"));
  if (!box) return;
  const count = referenceRows(form).length;
  actionButton(form, "add-reference").disabled = count >= Number(box.dataset.max);
  actionButton(form, "remove-reference").disabled = count <= 1;
}

/**
 * A new reference box: empty, and left out of the state until typed into (``fresh``), or holding ``text``.
 * @param {HTMLFormElement} form
 * @param {string | null} [text]
 */
function addReference(form, text = null) {
  const rows = referenceRows(form);
  const box = /** @type {HTMLElement} */ (form.querySelector(".live-references"));
  if (rows.length >= Number(box.dataset.max)) return;
  const row = /** @type {HTMLElement} */ (rows[0].cloneNode(true));
  const number = rows.length + 1;
  const input = /** @type {HTMLInputElement} */ (row.querySelector("input"));
  const label = /** @type {HTMLLabelElement} */ (row.querySelector("label"));
  input.id = input.id.replace(/-\d+$/, `-${number}`);
  input.name = `reference-${number}`;
  input.value = text ?? "";
  if (text === null) input.dataset.fresh = "1";
  else delete input.dataset.fresh;
  label.htmlFor = input.id;
  label.textContent = `Reference ${number}`;
  box.append(row);
  refreshReferenceButtons(form);
  if (text === null) input.focus();
}

/**
 * Put these texts in the reference boxes, one box each (the explorer page's address bar sets them).
 * @param {HTMLFormElement} form
 * @param {string[]} texts
 */
export function setReferences(form, texts) {
  const most = Number(/** @type {HTMLElement} */ (form.querySelector(".live-references")).dataset.max);
  for (const row of referenceRows(form).slice(1)) row.remove(); // one box left, then one per text
  const first = /** @type {HTMLInputElement} */ (referenceRows(form)[0].querySelector("input"));
  first.value = texts[0] ?? "";
  delete first.dataset.fresh;
  for (const text of texts.slice(1, most)) addReference(form, text);
  refreshReferenceButtons(form);
}

/** @param {HTMLFormElement} form */
function removeReference(form) {
  const rows = referenceRows(form);
  const remove = actionButton(form, "remove-reference");
  const focused = document.activeElement === remove; // a button that disables itself drops the focus
  if (rows.length > 1) /** @type {HTMLElement} */ (rows.at(-1)).remove();
  refreshReferenceButtons(form);
  if (remove.disabled && focused) actionButton(form, "add-reference").focus();
}

/**
 * Previous / Next (lesson 08's rank) cannot go past the number's ends: disabled there (the focus stays in the form).
 * @param {HTMLFormElement} form
 */
function refreshSteps(form) {
  const buttons = /** @type {NodeListOf<HTMLButtonElement>} */ (form.querySelectorAll('button[data-action="step"]'));
  for (const button of buttons) {
    const control = /** @type {HTMLInputElement | null} */ (controlOf(form, String(button.dataset.control))); // number
    if (!control) continue;
    const value = Number(control.value);
    const end = Number(button.dataset.step) > 0 ? Number(control.max || Infinity) : Number(control.min || 1);
    const stuck = Number(button.dataset.step) > 0 ? value >= end : value <= end;
    if (stuck && document.activeElement === button) control.focus();
    button.disabled = stuck;
  }
}

/**
 * Show each slider's value beside it, and enable what a tick enables.
 * @param {HTMLFormElement} form
 */
export function syncControls(form) {
  refreshSteps(form);
  for (const range of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll('input[type="range"]'))) {
    const shown = form.querySelector(`output[for="${range.id}"]`);
    if (shown) shown.textContent = range.value;
  }
  // A control the declaration enables by a tick (the second reference's length by "Use a second reference").
  for (const control of /** @type {NodeListOf<Control>} */ (form.querySelectorAll("[data-enabled-by]"))) {
    const tick = /** @type {HTMLInputElement | null} */ (controlOf(form, String(control.dataset.enabledBy)));
    if (tick) control.disabled = !tick.checked;
  }
}

// The brevity-penalty chart: Chart.js (npm registry, vendor/chart.js/) draws the points bleu_teach computed,
// with the notebook plot's title, axes, legend and Okabe-Ito palette (bleu_teach.ui.plots): live_data.js's
// chartData.
/** @type {Promise<ChartConstructor> | null} */
let chartLibrary = null;

/** @returns {Promise<ChartConstructor>} Chart.js's Chart, once its script has loaded (it sets window.Chart) */
function loadChartLibrary() {
  chartLibrary ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = "vendor/chart.js/dist/chart.umd.min.js";
    script.onload = () => resolve(/** @type {ChartConstructor} */ (window.Chart));
    script.onerror = () => reject(new Error("the chart library did not load"));
    document.head.append(script);
  });
  return chartLibrary;
}

/**
 * Draw the widget's chart, if it has one and extra has its points (the brevity-penalty explorer).
 * @param {HTMLFormElement} form
 * @param {WidgetExtra} extra
 */
async function drawChart(form, extra) {
  const canvas = /** @type {ChartCanvas | null} */ (form.querySelector(".live-chart canvas"));
  if (!canvas || !extra.curve) return;
  const curve = /** @type {import("./live_data.js").CurveExtra} */ (extra); // the points come with the rest
  canvas.setAttribute("aria-label", curve.description);
  const Chart = await loadChartLibrary();
  const narrow = /** @type {HTMLElement} */ (canvas.parentElement).clientWidth < 480;
  const { datasets, top } = chartData(curve, JSON.parse(String(canvas.dataset.palette)));
  if (canvas.chart) {
    canvas.chart.data.datasets = datasets;
    canvas.chart.options.scales.x.max = top + 0.5;
    canvas.chart.update("none");
    return;
  }
  canvas.chart = new Chart(canvas, {
    type: "scatter", data: { datasets },
    options: {
      animation: false, responsive: true, maintainAspectRatio: false, // the box's height: see site.css
      plugins: { title: { display: true, text: curve.title, font: { size: narrow ? 14 : 17 } },
                 legend: { position: "bottom", labels: { font: { size: narrow ? 11 : 13 }, usePointStyle: true,
                                                         boxWidth: narrow ? 8 : 12 } },
                 tooltip: { enabled: true } },
      scales: {
        x: { type: "linear", min: 0, max: top + 0.5,
             ticks: { stepSize: 1, includeBounds: false, maxRotation: 0, autoSkipPadding: 6 },
             title: { display: true, text: "hypothesis length c (tokens)", font: { size: narrow ? 12 : 15 } } },
        y: { min: -0.02, max: 1.1, ticks: { stepSize: 0.2, includeBounds: false }, title: { display: true, text: "brevity penalty", font: { size: narrow ? 12 : 15 } } },
      },
    },
  });
}

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

// --- the learner's values, kept in this browser (a reload shows them again; Back to the example forgets them) ---

const KEEPS_VALUES = !document.querySelector('meta[name="bleu-teach-max-link"]'); // the explorer page keeps its
// example in the address bar instead (explorer.js)

/** @returns {Record<string, unknown>} every widget's kept values, by keyOf; {} when none or storage is off */
function keptValues() {
  try {
    const found = JSON.parse(localStorage.getItem(WIDGETS) ?? "{}");
    return found && typeof found === "object" && !Array.isArray(found) ? found : {};
  } catch {
    return {};
  }
}

/**
 * @param {WidgetForm} form
 * @returns {string} where its values are kept: the page, the form's place on it, its explorer
 */
function keyOf(form) {
  return `${window.location.pathname}#${widgets.indexOf(form)}:${form.dataset.widget}`;
}

/** @param {WidgetForm} form */
function keepValues(form) {
  if (!KEEPS_VALUES) return;
  try {
    const all = keptValues();
    const state = JSON.stringify(stateOf(form));
    if (state === form.exampleState) delete all[keyOf(form)];
    else all[keyOf(form)] = JSON.parse(state);
    localStorage.setItem(WIDGETS, JSON.stringify(all));
  } catch { /* storage full or off: the values are forgotten with the page */ }
}

/**
 * Put these values (a state as stateOf makes it) into the form's controls.
 * @param {HTMLFormElement} form
 * @param {object} state
 */
function applyValues(form, state) {
  for (const [key, value] of Object.entries(state)) {
    const control = controlOf(form, key);
    if (key === "references" && Array.isArray(value) && value.length) setReferences(form, value.map(String));
    else if (!control || control.type === "hidden" || (value !== null && typeof value === "object")) continue;
    else if (control.type === "checkbox") /** @type {HTMLInputElement} */ (control).checked = Boolean(value);
    else if (typeof value === "boolean") control.value = value ? "1" : "";
    else control.value = String(value);
  }
  syncControls(form);
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
  keepValues(form);
  if (python === null) {
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

// --- exercises --------------------------------------------------------------------------------------------------

/**
 * The exercise's answer control: radio buttons for a choice (a RadioNodeList), else a text box.
 * @param {ExerciseForm} form
 * @returns {RadioNodeList | HTMLInputElement | null}
 */
function answerControl(form) {
  return /** @type {RadioNodeList | HTMLInputElement | null} */ (form.elements.namedItem("answer"));
}

/**
 * @param {ExerciseForm} form
 * @returns {string}
 */
function answerOf(form) {
  const control = answerControl(form);
  return control ? control.value : "";
}

/**
 * @param {ExerciseForm} form
 * @param {string} answer
 */
function setAnswer(form, answer) {
  const control = answerControl(form);
  if (control instanceof RadioNodeList) {
    for (const radio of /** @type {Iterable<HTMLInputElement>} */ (control)) radio.checked = radio.value === answer;
  } else if (control) {
    control.value = answer;
  }
}

/**
 * Check the answer with Python and show the feedback (quietly: an earlier answer shown again, not kept again).
 * @param {ExerciseForm} form
 * @param {boolean} [quietly]
 */
async function check(form, quietly = false) {
  const feedback = /** @type {HTMLElement} */ (form.querySelector(".live-feedback"));
  const answer = answerOf(form);
  /** @type {CheckResult} */
  let result;
  try {
    const tries = Number(stored()[form.dataset.exercise]?.tries ?? 0); // wrong tries so far (a hint comes first)
    result = JSON.parse(await started().check(form.dataset.exercise, JSON.stringify(answer),
                                              quietly ? Math.max(1, tries) : tries + 1));
  } catch (error) {
    feedback.textContent = `Python stopped answering (${/** @type {Error} */ (error).message}): reload the page.`;
    return;
  }
  feedback.setAttribute("aria-live", quietly ? "off" : "polite"); // an earlier answer shown again is not news
  feedback.innerHTML = result.html; // bleu_teach's HTML (views.html_writer)
  if (result.verdict) {
    feedback.dataset.verdict = result.verdict;
    if (!quietly && !remember(form.dataset.exercise, answer, result.verdict)) {
      const note = document.createElement("p");
      note.className = "live-note";
      note.textContent = "This browser does not let the page keep your answers (its local storage is off), " +
        "so they are forgotten when you leave the page.";
      feedback.append(note);
    }
    if (!quietly) {
      sendToClass(form.dataset.exercise, answer).then((said) => {
        if (!said) return;
        const note = document.createElement("p");
        note.className = "live-note live-class";
        note.textContent = said;
        feedback.append(note);
      });
    }
  } else {
    delete feedback.dataset.verdict;
  }
  if (quietly) setTimeout(() => feedback.setAttribute("aria-live", "polite"), 0);
}

for (const form of exercises) {
  const earlier = stored()[form.dataset.exercise];
  if (earlier && typeof earlier.answer === "string") {
    setAnswer(form, earlier.answer);
    restored.add(form); // its feedback is shown again when Python is ready
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (python !== null) {
      check(form);
      return;
    }
    waiting.add(form);
    /** @type {HTMLElement} */ (form.querySelector(".live-feedback")).textContent = "Python is still starting in " +
      "your browser: your answer is checked as soon as it is ready.";
  });
}

// --- practice: another question like a numeric exercise, and the skill's streak ---------------------------------
// The question, the verdict and the streak all come from Python (bleu_teach.web.page.practice_json and
// practice_check_json); the page keeps only what Python returned, so that the index can show what is mastered.

/**
 * @param {string} id
 * @returns {import("./answers.js").PracticeRecord} what was kept of this exercise's practice ({} if nothing)
 */
function keptPractice(id) {
  const kept = practised()[id];
  return kept && typeof kept === "object" ? kept : {};
}

/**
 * @param {string} id
 * @param {import("./answers.js").PracticeRecord} record
 * @returns {boolean} whether it could be kept
 */
function keepPractice(id, record) {
  try {
    const all = practised();
    all[id] = record;
    localStorage.setItem(PRACTICE, JSON.stringify(all));
    return true;
  } catch {
    return false; // storage switched off: practice still works, the streak is forgotten with the page
  }
}

/**
 * A practice block's parts (bleu_teach_site/live.py).
 * @param {PracticeSection} section
 */
function practiceParts(section) {
  const form = /** @type {HTMLFormElement} */ (section.querySelector("form"));
  return { form, box: /** @type {HTMLInputElement} */ (form.elements.namedItem("answer")),
           check: /** @type {HTMLButtonElement} */ (form.querySelector('button[type="submit"]')),
           question: /** @type {HTMLElement} */ (section.querySelector(".live-practice-question")),
           feedback: /** @type {HTMLElement} */ (section.querySelector(".live-feedback")),
           streak: /** @type {HTMLElement} */ (section.querySelector(".live-practice-streak")) };
}

/**
 * Draw the next practice question ("Drawing" shows while Python works in its worker).
 * @param {PracticeSection} section
 */
function another(section) {
  const parts = practiceParts(section);
  if (python === null) {
    asking.add(section);
    parts.question.textContent = "Python is still starting in your browser: your question is drawn as soon as it " +
      "is ready.";
    return;
  }
  parts.question.textContent = "Drawing a new question…";
  ask(section);
}

/** @param {PracticeSection} section */
async function ask(section) {
  const id = section.dataset.practice;
  const parts = practiceParts(section);
  const kept = keptPractice(id);
  const sent = { previous: kept.number ?? null, streak: kept.streak ?? null };
  /** @type {PracticeResult} */
  let result;
  try {
    result = JSON.parse(await started().practice(id, JSON.stringify(sent)));
  } catch (error) {
    parts.question.textContent = `Python stopped answering (${/** @type {Error} */ (error).message}): reload the page.`;
    return;
  }
  parts.question.innerHTML = result.html; // bleu_teach's HTML (views.html_writer)
  parts.feedback.textContent = "";
  delete parts.feedback.dataset.verdict;
  const asked = result.number !== null;
  parts.box.disabled = parts.check.disabled = !asked;
  if (!asked) return;
  section.dataset.number = String(result.number);
  parts.streak.textContent = result.streak_text; // a question skipped ends the run (Python says so)
  keepPractice(id, { ...kept, number: result.number, streak: result.streak, streakText: result.streak_text });
  parts.box.value = "";
  parts.box.focus();
}

/** @param {PracticeSection} section */
async function checkPractice(section) {
  const id = section.dataset.practice;
  const parts = practiceParts(section);
  const kept = keptPractice(id);
  const sent = { number: Number(section.dataset.number), answer: parts.box.value, streak: kept.streak ?? null };
  /** @type {PracticeResult} */
  let result;
  try {
    result = JSON.parse(await started().practiceCheck(id, JSON.stringify(sent)));
  } catch (error) {
    parts.feedback.textContent = `Python stopped answering (${/** @type {Error} */ (error).message}): reload the page.`;
    return;
  }
  parts.feedback.innerHTML = result.html; // bleu_teach's HTML (views.html_writer)
  if (result.verdict) parts.feedback.dataset.verdict = result.verdict;
  else delete parts.feedback.dataset.verdict;
  if (result.streak) {
    parts.streak.textContent = result.streak_text;
    keepPractice(id, { ...kept, streak: result.streak, streakText: result.streak_text });
  }
}

for (const section of practices) {
  const kept = keptPractice(section.dataset.practice);
  if (typeof kept.streakText === "string") practiceParts(section).streak.textContent = kept.streakText;
  /** @type {HTMLElement} */ (section.querySelector('[data-action="another"]'))
    .addEventListener("click", () => another(section));
  /** @type {HTMLFormElement} */ (section.querySelector("form")).addEventListener("submit", (event) => {
    event.preventDefault();
    if (python !== null && section.dataset.number) checkPractice(section);
  });
}

// --- Python, started in its worker at once, only on a page with something live ----------------------------------

/**
 * Say this in every widget's status line.
 * @param {string} text
 * @param {boolean} [failed]
 */
function statuses(text, failed = false) {
  for (const form of widgets) {
    const status = /** @type {HTMLElement} */ (form.querySelector(".live-status"));
    status.textContent = text;
    status.classList.toggle("message", failed);
  }
}

/**
 * @param {number} step
 * @param {number} steps
 * @param {string} text
 */
function progressed(step, steps, text) {
  statuses(`Starting Python in your browser (step ${step} of ${steps}: ${text}); the page works meanwhile, and ` +
           "the numbers follow your changes once it has started.");
  root.dataset.pythonStep = String(step);
}

async function begin() {
  root.dataset.pythonStartMs = String(Math.round(performance.now()));
  statuses("Starting Python in your browser: the saved example is shown until then.");
  try {
    const { call, version } = await startPython(pageArchives(), progressed);
    python = { widget: (...args) => call("widget_json", ...args), check: (...args) => call("check_json", ...args),
               practice: (...args) => call("practice_json", ...args),
               practiceCheck: (...args) => call("practice_check_json", ...args) };
    statuses(`Live: bleu-teach on Python ${version}, running in your browser.`);
    root.dataset.pythonReadyMs = String(Math.round(performance.now()));
    const drawn = [...widgets.map((form) => render(form, true))];
    for (const form of restored) if (!waiting.has(form)) drawn.push(check(form, true));
    for (const form of waiting) drawn.push(check(form));
    waiting.clear();
    for (const section of asking) another(section);
    asking.clear();
    await Promise.all(drawn);
    root.dataset.pythonCheckedMs = String(Math.round(performance.now())); // widgets drawn, earlier answers checked
    root.dataset.pythonReady = "1";
  } catch (error) {
    const failure = /** @type {Error} */ (error); // a worker that could not start, or Python that could not
    statuses(startFailure(failure, String(window.location.pathname.split("/").pop())), true);
    for (const form of waiting) {
      /** @type {HTMLElement} */ (form.querySelector(".live-feedback")).textContent = startFailure(failure, "");
    }
    for (const section of asking) practiceParts(section).question.textContent = startFailure(failure, "");
    root.dataset.pythonReady = "failed";
  }
}

// The worker does the work, so Python starts at once: the page stays free for the learner meanwhile.
if (widgets.length || exercises.length || practices.length) begin();
