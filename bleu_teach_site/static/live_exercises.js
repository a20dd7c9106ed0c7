// A lesson page's exercises (the question forms bleu_teach_site/live.py writes): an answer checked by Python
// (bleu_teach.web.page.check_json: the exercise bank's check, through live_python.js), its feedback shown, the
// answer kept in this browser (answers.js) and, in a browser that joined a class, sent to it (classroom.js).  An
// answer kept from last time is shown again with its feedback once Python has started; one checked before then
// waits for it.
import { remember, stored } from "./answers.js";
import { sendToClass } from "./classroom.js";
import { ready, started } from "./live_python.js";

/** @typedef {HTMLFormElement & { dataset: DOMStringMap & { exercise: string } }} ExerciseForm */

/** @type {Set<ExerciseForm>} */
const waiting = new Set(); // exercises checked before Python was ready
/** @type {Set<ExerciseForm>} */
const restored = new Set(); // exercises whose earlier answer is shown again

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
  /** @type {import("./live_python.js").CheckResult} */
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
    if (!quietly && !remember(form.dataset.exercise, answer, result.verdict, new Date().toISOString())) {
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

/**
 * Make these exercises live: an answer kept from last time is shown again, and Check checks (or waits for Python).
 * @param {ExerciseForm[]} forms
 */
export function startExercises(forms) {
  for (const form of forms) {
    const earlier = stored()[form.dataset.exercise];
    if (earlier && typeof earlier.answer === "string") {
      setAnswer(form, earlier.answer);
      restored.add(form); // its feedback is shown again when Python is ready
    }
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (ready()) {
        check(form);
        return;
      }
      waiting.add(form);
      /** @type {HTMLElement} */ (form.querySelector(".live-feedback")).textContent = "Python is still starting in " +
        "your browser: your answer is checked as soon as it is ready.";
    });
  }
}

/**
 * Python has started: check the earlier answers shown again (quietly) and the answers that waited for it.
 * @returns {Promise<void>[]} the checks
 */
export function exercisesReady() {
  const checks = [];
  for (const form of restored) if (!waiting.has(form)) checks.push(check(form, true));
  for (const form of waiting) checks.push(check(form));
  waiting.clear();
  return checks;
}

/**
 * Python could not start: say so where an answer waits for it.
 * @param {string} text
 */
export function exercisesFailed(text) {
  for (const form of waiting) {
    /** @type {HTMLElement} */ (form.querySelector(".live-feedback")).textContent = text;
  }
}
