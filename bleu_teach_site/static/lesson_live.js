// A lesson page's live widgets and exercises (the forms bleu_teach_site/live.py writes into the page): this file
// starts them and Python.
//
// No BLEU here: every number and every verdict comes from Python, bleu_teach itself running on Pyodide in a
// worker (python.js; bleu_teach.web.page: the explorers' declared views and the exercise bank's check).  Until
// Python has started, the widgets show the saved example the build wrote in (or the learner's last values, marked
// as waiting), and a Check waits for it; the page itself never waits.  Typed text reaches the page only as form
// values and textContent; the HTML shown is bleu_teach.views.html_writer's, which escapes it.  Answers and the
// widgets' values are kept in this browser's local storage (answers.js; nothing is sent anywhere, but to a class
// this browser joined: classroom.js); the index page reads the answers.
//
// The parts, one module each: live_form.js (a widget form's controls), live_widgets.js (the widgets drawn by
// Python, their values kept, the links to the live explorer), live_chart.js (the brevity-penalty chart),
// live_exercises.js (Check, and the class), live_practice.js (practice questions and streaks), live_python.js
// (bleu_teach.web.page's functions once Python has started).

import { exercisesFailed, exercisesReady, startExercises } from "./live_exercises.js";
import { practiceFailed, practiceReady, startPractice } from "./live_practice.js";
import { connect } from "./live_python.js";
import { renderAll, startWidgets } from "./live_widgets.js";
import { pageArchives, startFailure, startPython } from "./python.js";

const widgets = /** @type {import("./live_form.js").WidgetForm[]} */ (
  [...document.querySelectorAll("form[data-widget]")]);
const exercises = /** @type {import("./live_exercises.js").ExerciseForm[]} */ (
  [...document.querySelectorAll("form[data-exercise]")]);
const practices = /** @type {import("./live_practice.js").PracticeSection[]} */ (
  [...document.querySelectorAll("section[data-practice]")]);
const root = document.documentElement;

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

// --- Python, started in its worker at once, only on a page with something live ----------------------------------

async function begin() {
  root.dataset.pythonStartMs = String(Math.round(performance.now()));
  statuses("Starting Python in your browser: the saved example is shown until then.");
  try {
    const { call, version } = await startPython(pageArchives(), progressed);
    connect(call);
    statuses(`Live: bleu-teach on Python ${version}, running in your browser.`);
    root.dataset.pythonReadyMs = String(Math.round(performance.now()));
    const drawn = [...renderAll(), ...exercisesReady()]; // widgets drawn, earlier and waiting answers checked
    practiceReady();
    await Promise.all(drawn);
    root.dataset.pythonCheckedMs = String(Math.round(performance.now())); // widgets drawn, earlier answers checked
    root.dataset.pythonReady = "1";
  } catch (error) {
    const failure = /** @type {Error} */ (error); // a worker that could not start, or Python that could not
    const served = window.location.protocol !== "file:";
    statuses(startFailure(failure, String(window.location.pathname.split("/").pop()), served), true);
    exercisesFailed(startFailure(failure, "", served));
    practiceFailed(startFailure(failure, "", served));
    root.dataset.pythonReady = "failed";
  }
}

startWidgets(widgets);
startExercises(exercises);
startPractice(practices);
// The worker does the work, so Python starts at once: the page stays free for the learner meanwhile.
if (widgets.length || exercises.length || practices.length) begin();
