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
import { pageArchives, startFailure, startPython } from "./python.js";

const widgets = [...document.querySelectorAll("form[data-widget]")];
const exercises = [...document.querySelectorAll("form[data-exercise]")];
const practices = [...document.querySelectorAll("section[data-practice]")];
const root = document.documentElement;
let python = null; // { widget, check, practice, practiceCheck }: bleu_teach.web.page's JSON functions (promises)
const waiting = new Set(); // exercises checked before Python was ready
const restored = new Set(); // exercises whose earlier answer is shown again
const asking = new Set(); // practice blocks whose Another one was pressed before Python was ready

// --- the learner's answers, in local storage ------------------------------------------------------------------

/** Keep the last answer (to show it again) and whether the exercise was ever answered right (the progress). */
function remember(id, answer, verdict) {
  try {
    const all = stored();
    const solved = Boolean(all[id]?.solved || all[id]?.verdict === "correct") || verdict === "correct";
    const tries = Number(all[id]?.tries ?? 0) + (verdict && verdict !== "correct" ? 1 : 0);
    all[id] = { answer, verdict, solved, tries, at: new Date().toISOString() };
    localStorage.setItem(STORE, JSON.stringify(all));
    return true;
  } catch {
    return false; // storage switched off: the page still works, it only forgets
  }
}

// --- widgets ----------------------------------------------------------------------------------------------------

function stateOf(form) {
  const saved = JSON.parse(form.dataset.state);
  const state = {};
  for (const [key, value] of Object.entries(saved)) {
    const control = form.elements.namedItem(key);
    if (key === "references") {
      // A box just added and not typed into yet is left out, so that adding one is no error.
      state.references = [...form.querySelectorAll("input.reference")].filter((box) => !box.dataset.fresh)
        .map((box) => box.value);
    }
    else if (!control) state[key] = value;
    else if (control.type === "checkbox") state[key] = control.checked;
    else if (typeof value === "boolean") state[key] = control.value === "1";
    // A number box hides text it cannot read (1e999, 1.5) and reports "": Python says what is wrong instead.
    else if (control.validity?.badInput) state[key] = { unreadable: true };
    else state[key] = control.value;
  }
  return state;
}

function referenceRows(form) {
  return [...form.querySelectorAll(".live-references .live-row")];
}

function refreshReferenceButtons(form) {
  const box = form.querySelector(".live-references");
  if (!box) return;
  const count = referenceRows(form).length;
  form.querySelector('[data-action="add-reference"]').disabled = count >= Number(box.dataset.max);
  form.querySelector('[data-action="remove-reference"]').disabled = count <= 1;
}

/** A new reference box: empty, and left out of the state until typed into (``fresh``), or holding ``text``. */
function addReference(form, text = null) {
  const rows = referenceRows(form);
  const box = form.querySelector(".live-references");
  if (rows.length >= Number(box.dataset.max)) return;
  const row = rows[0].cloneNode(true);
  const number = rows.length + 1;
  const input = row.querySelector("input");
  const label = row.querySelector("label");
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

/** Put these texts in the reference boxes, one box each (the explorer page's address bar sets them). */
export function setReferences(form, texts) {
  const most = Number(form.querySelector(".live-references").dataset.max);
  for (const row of referenceRows(form).slice(1)) row.remove(); // one box left, then one per text
  const first = referenceRows(form)[0].querySelector("input");
  first.value = texts[0] ?? "";
  delete first.dataset.fresh;
  for (const text of texts.slice(1, most)) addReference(form, text);
  refreshReferenceButtons(form);
}

function removeReference(form) {
  const rows = referenceRows(form);
  const remove = form.querySelector('[data-action="remove-reference"]');
  const focused = document.activeElement === remove; // a button that disables itself drops the focus
  if (rows.length > 1) rows.at(-1).remove();
  refreshReferenceButtons(form);
  if (remove.disabled && focused) form.querySelector('[data-action="add-reference"]').focus();
}

/** Previous / Next (lesson 08's rank) cannot go past the number's ends: disabled there (the focus stays in the form). */
function refreshSteps(form) {
  for (const button of form.querySelectorAll('button[data-action="step"]')) {
    const control = form.elements.namedItem(button.dataset.control);
    if (!control) continue;
    const value = Number(control.value);
    const end = Number(button.dataset.step) > 0 ? Number(control.max || Infinity) : Number(control.min || 1);
    const stuck = Number(button.dataset.step) > 0 ? value >= end : value <= end;
    if (stuck && document.activeElement === button) control.focus();
    button.disabled = stuck;
  }
}

export function syncControls(form) {
  refreshSteps(form);
  for (const range of form.querySelectorAll('input[type="range"]')) {
    const shown = form.querySelector(`output[for="${range.id}"]`);
    if (shown) shown.textContent = range.value;
  }
  // A control the declaration enables by a tick (the second reference's length by "Use a second reference").
  for (const control of form.querySelectorAll("[data-enabled-by]")) {
    const tick = form.elements.namedItem(control.dataset.enabledBy);
    if (tick) control.disabled = !tick.checked;
  }
}

// The brevity-penalty chart: Chart.js (npm registry, vendor/chart.js/) draws the points bleu_teach computed,
// with the notebook plot's title, axes, legend and Okabe-Ito palette (bleu_teach.ui.plots).
const DASHES = [[], [8, 4], [2, 3], [8, 3, 2, 3]]; // matplotlib's "-", "--", ":", "-."
let chartLibrary = null;

function loadChartLibrary() {
  chartLibrary ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = "vendor/chart.js/dist/chart.umd.min.js";
    script.onload = () => resolve(window.Chart);
    script.onerror = () => reject(new Error("the chart library did not load"));
    document.head.append(script);
  });
  return chartLibrary;
}

function chartData(extra, palette) {
  const top = extra.curve.at(-1)[0];
  const datasets = [{
    label: "BP = exp(1 - r/c) if c <= r, else 1", data: extra.curve.map(([x, y]) => ({ x, y })),
    borderColor: palette[0], backgroundColor: palette[0], borderWidth: 2.5, pointRadius: 3, showLine: true,
  }];
  extra.references.forEach((r, i) => {
    const chosen = r === extra.chosen; // the length the brevity penalty uses: drawn thick, and said so
    datasets.push({
      label: chosen ? `chosen reference length r = ${r}` : `reference length ${r}`,
      data: [{ x: r, y: -0.02 }, { x: r, y: 1.1 }], showLine: true, pointRadius: 0,
      borderColor: palette[(i + 1) % palette.length], backgroundColor: palette[(i + 1) % palette.length],
      borderDash: DASHES[(i + 1) % 4], borderWidth: chosen ? 5 : 2,
    });
  });
  const [c, bp] = extra.point;
  datasets.push({
    label: `your hypothesis: c = ${c}, BP = ${bp.toFixed(3)}`, data: [{ x: c, y: bp }], pointStyle: "star",
    pointRadius: 14, pointBorderWidth: 4, borderColor: palette[3], backgroundColor: palette[3],
  });
  return { datasets, top };
}

async function drawChart(form, extra) {
  const canvas = form.querySelector(".live-chart canvas");
  if (!canvas || !extra.curve) return;
  canvas.setAttribute("aria-label", extra.description);
  const Chart = await loadChartLibrary();
  const narrow = canvas.parentElement.clientWidth < 480;
  const { datasets, top } = chartData(extra, JSON.parse(canvas.dataset.palette));
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
      plugins: { title: { display: true, text: extra.title, font: { size: narrow ? 14 : 17 } },
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

function showWidget(form, result) {
  delete form.dataset.waiting;
  updateLinks(form, result.links ?? []);
  const headline = form.querySelector(".live-headline");
  const output = form.querySelector(".live-output");
  // The report's folded steps stay open or closed as the learner left them.
  const open = [...output.querySelectorAll("details")].map((details) => details.open);
  output.innerHTML = result.html; // bleu_teach's HTML (views.html_writer): typed text arrives escaped
  output.querySelectorAll("details").forEach((details, k) => { if (open[k]) details.open = true; });
  if (result.message) {
    headline.dataset.value = "";
    headline.textContent = `No number: ${result.message}`; // announced, as the number would be
  } else {
    headline.dataset.value = result.value;
    headline.innerHTML = result.headline; // bleu_teach's HTML too
  }
  // The view may bound a control (the number of pairs shown), say something beside it, or move its value
  // (a rank past the end of a shorter list moves to its last pair, as in the notebook).
  for (const [name, top] of Object.entries(result.extra.limits ?? {})) {
    const control = form.elements.namedItem(name);
    if (control) control.max = String(top);
  }
  for (const [name, text] of Object.entries(result.extra.notes ?? {})) {
    const note = form.querySelector(`[data-note="${name}"]`);
    if (note) note.textContent = text;
  }
  for (const [name, value] of Object.entries(result.extra.values ?? {})) {
    const control = form.elements.namedItem(name);
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

/** Show what Python answers for the form's values: one call at a time per form, and the latest values last. */
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
      const result = JSON.parse(await python.widget(form.dataset.widget, state));
      if (form.again && JSON.stringify(stateOf(form)) !== state) continue; // already old: draw the newer values
      form.shownState = state;
      showWidget(form, result);
    } while (form.again);
  } catch (error) {
    const status = form.querySelector(".live-status");
    status.textContent = `Python stopped answering (${error.message}): reload the page.`;
    status.classList.add("message");
  } finally {
    form.rendering = false;
  }
}

// --- the learner's values, kept in this browser (a reload shows them again; Back to the example forgets them) ---

const KEEPS_VALUES = !document.querySelector('meta[name="bleu-teach-max-link"]'); // the explorer page keeps its
// example in the address bar instead (explorer.js)

function keptValues() {
  try {
    const found = JSON.parse(localStorage.getItem(WIDGETS) ?? "{}");
    return found && typeof found === "object" && !Array.isArray(found) ? found : {};
  } catch {
    return {};
  }
}

function keyOf(form) {
  return `${window.location.pathname}#${widgets.indexOf(form)}:${form.dataset.widget}`;
}

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

/** Put these values (a state as stateOf makes it) into the form's controls. */
function applyValues(form, state) {
  for (const [key, value] of Object.entries(state)) {
    const control = form.elements.namedItem(key);
    if (key === "references" && Array.isArray(value) && value.length) setReferences(form, value.map(String));
    else if (!control || control.type === "hidden" || (value !== null && typeof value === "object")) continue;
    else if (control.type === "checkbox") control.checked = Boolean(value);
    else if (typeof value === "boolean") control.value = value ? "1" : "";
    else control.value = String(value);
  }
  syncControls(form);
}

/** Until Python has started, the number shown is the saved example's: say that the learner's values wait. */
function markWaiting(form, text) {
  form.dataset.waiting = "1";
  const headline = form.querySelector(".live-headline");
  headline.dataset.value = "";
  headline.textContent = text;
}

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

function backToExample(form) {
  applyValues(form, JSON.parse(form.exampleState));
  changed(form);
}

/** The page's "Open this example in the live explorer" links after this form: made from its current values. */
function updateLinks(form, links) {
  const after = [...document.querySelectorAll("a.live-explorer-link")].filter((link) =>
    form.compareDocumentPosition(link) & Node.DOCUMENT_POSITION_FOLLOWING &&
    widgets.filter((other) => other.compareDocumentPosition(link) & Node.DOCUMENT_POSITION_FOLLOWING).at(-1) === form);
  after.forEach((link, k) => {
    const example = links[k];
    if (!example) return;
    const query = new URLSearchParams([["hyp", example.hypothesis], ...example.references.map((r) => ["ref", r]),
                                       ["n", String(example.max_n)]]);
    if (example.weights.trim()) query.append("weights", example.weights.trim());
    query.append("smoothing", example.smoothing);
    query.append("tokenizer", example.tokenizer);
    query.append("lowercase", example.lowercase ? "1" : "0");
    link.href = `explorer.html?${query}`;
  });
}

for (const form of widgets) {
  form.addEventListener("input", (event) => {
    delete event.target.dataset.fresh;
    changed(form);
  });
  form.addEventListener("change", (event) => {
    // A control that changes the list another one counts in (a metric, a system) puts that one back to its start.
    for (const name of (event.target.dataset?.resets ?? "").split(" ").filter(Boolean)) {
      const control = form.elements.namedItem(name);
      if (control) control.value = control.dataset.default ?? control.defaultValue;
    }
    changed(form);
  });
  form.addEventListener("submit", (event) => event.preventDefault());
  form.addEventListener("click", (event) => {
    const action = event.target.closest("button")?.dataset.action;
    if (action === "add-reference") addReference(form); // scored once something is typed into the new box
    else if (action === "remove-reference") {
      removeReference(form);
      changed(form);
    } else if (action === "reset") backToExample(form);
    else if (action === "step") { // Previous / Next beside a number (lesson 08's rank)
      const button = event.target.closest("button");
      const control = form.elements.namedItem(button.dataset.control);
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
  const extra = JSON.parse(form.querySelector(".live-output").dataset.extra || "{}");
  drawChart(form, extra).catch(() => {});
}

// --- exercises --------------------------------------------------------------------------------------------------

function answerOf(form) {
  const control = form.elements.namedItem("answer");
  return control ? control.value : "";
}

function setAnswer(form, answer) {
  const control = form.elements.namedItem("answer");
  if (control instanceof RadioNodeList) {
    for (const radio of control) radio.checked = radio.value === answer;
  } else if (control) {
    control.value = answer;
  }
}

async function check(form, quietly = false) {
  const feedback = form.querySelector(".live-feedback");
  const answer = answerOf(form);
  let result;
  try {
    const tries = Number(stored()[form.dataset.exercise]?.tries ?? 0); // wrong tries so far (a hint comes first)
    result = JSON.parse(await python.check(form.dataset.exercise, JSON.stringify(answer),
                                           quietly ? Math.max(1, tries) : tries + 1));
  } catch (error) {
    feedback.textContent = `Python stopped answering (${error.message}): reload the page.`;
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
    form.querySelector(".live-feedback").textContent = "Python is still starting in your browser: your answer " +
      "is checked as soon as it is ready.";
  });
}

// --- practice: another question like a numeric exercise, and the skill's streak ---------------------------------
// The question, the verdict and the streak all come from Python (bleu_teach.web.page.practice_json and
// practice_check_json); the page keeps only what Python returned, so that the index can show what is mastered.

function keptPractice(id) {
  const kept = practised()[id];
  return kept && typeof kept === "object" ? kept : {};
}

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

function practiceParts(section) {
  const form = section.querySelector("form");
  return { form, box: form.elements.namedItem("answer"), check: form.querySelector('button[type="submit"]'),
           question: section.querySelector(".live-practice-question"),
           feedback: section.querySelector(".live-feedback"), streak: section.querySelector(".live-practice-streak") };
}

/** Draw the next practice question ("Drawing" shows while Python works in its worker). */
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

async function ask(section) {
  const id = section.dataset.practice;
  const parts = practiceParts(section);
  const kept = keptPractice(id);
  const sent = { previous: kept.number ?? null, streak: kept.streak ?? null };
  let result;
  try {
    result = JSON.parse(await python.practice(id, JSON.stringify(sent)));
  } catch (error) {
    parts.question.textContent = `Python stopped answering (${error.message}): reload the page.`;
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

async function checkPractice(section) {
  const id = section.dataset.practice;
  const parts = practiceParts(section);
  const kept = keptPractice(id);
  const sent = { number: Number(section.dataset.number), answer: parts.box.value, streak: kept.streak ?? null };
  let result;
  try {
    result = JSON.parse(await python.practiceCheck(id, JSON.stringify(sent)));
  } catch (error) {
    parts.feedback.textContent = `Python stopped answering (${error.message}): reload the page.`;
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
  section.querySelector('[data-action="another"]').addEventListener("click", () => another(section));
  section.querySelector("form").addEventListener("submit", (event) => {
    event.preventDefault();
    if (python !== null && section.dataset.number) checkPractice(section);
  });
}

// --- Python, started in its worker at once, only on a page with something live ----------------------------------

function statuses(text, failed = false) {
  for (const form of widgets) {
    const status = form.querySelector(".live-status");
    status.textContent = text;
    status.classList.toggle("message", failed);
  }
}

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
    statuses(startFailure(error, window.location.pathname.split("/").pop()), true);
    for (const form of waiting) form.querySelector(".live-feedback").textContent = startFailure(error, "");
    for (const section of asking) practiceParts(section).question.textContent = startFailure(error, "");
    root.dataset.pythonReady = "failed";
  }
}

// The worker does the work, so Python starts at once: the page stays free for the learner meanwhile.
if (widgets.length || exercises.length || practices.length) begin();
