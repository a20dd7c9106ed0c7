// A lesson page's practice blocks (bleu_teach_site/live.py): another question like a numeric exercise, and the
// skill's streak.  The question, the verdict and the streak all come from Python (bleu_teach.web.page.practice_json
// and practice_check_json, through live_python.js); the page keeps only what Python returned (answers.js), so that
// the index can show what is mastered.  Another one pressed before Python has started waits for it.
import { keepPractice, keptPractice } from "./answers.js";
import { ready, started } from "./live_python.js";

/** @typedef {HTMLElement & { dataset: DOMStringMap & { practice: string } }} PracticeSection */

/** @type {Set<PracticeSection>} */
const asking = new Set(); // practice blocks whose Another one was pressed before Python was ready
/** @type {Set<PracticeSection>} */
const restoring = new Set(); // practice blocks whose question was left unanswered: shown again once Python is ready

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
  if (!ready()) {
    asking.add(section);
    parts.question.textContent = "Python is still starting in your browser: your question is drawn as soon as it " +
      "is ready.";
    return;
  }
  parts.question.textContent = "Drawing a new question…";
  ask(section);
}

/**
 * Ask for the next question, or (again) the kept one that was left unanswered, with the streak as it was.
 * @param {PracticeSection} section
 * @param {boolean} [again]
 */
async function ask(section, again = false) {
  const id = section.dataset.practice;
  const parts = practiceParts(section);
  const kept = keptPractice(id);
  const sent = { previous: kept.number ?? null, streak: kept.streak ?? null, again };
  /** @type {import("./live_python.js").PracticeResult} */
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
  keepPractice(id, { ...kept, number: result.number, pending: true, streak: result.streak,
                     streakText: result.streak_text });
  parts.box.value = "";
  if (!again) parts.box.focus(); // a question shown again on loading the page leaves the focus where it is
}

/** @param {PracticeSection} section */
async function checkPractice(section) {
  const id = section.dataset.practice;
  const parts = practiceParts(section);
  const kept = keptPractice(id);
  const sent = { number: Number(section.dataset.number), answer: parts.box.value, streak: kept.streak ?? null };
  /** @type {import("./live_python.js").PracticeResult} */
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
    keepPractice(id, { ...kept, pending: false, streak: result.streak, streakText: result.streak_text });
  }
}

/**
 * Make these practice blocks live: the streak kept from last time is shown, Another one draws a question.
 * @param {PracticeSection[]} sections
 */
export function startPractice(sections) {
  for (const section of sections) {
    const kept = keptPractice(section.dataset.practice);
    if (typeof kept.streakText === "string") practiceParts(section).streak.textContent = kept.streakText;
    if (kept.pending === true && typeof kept.number === "number") { // left unanswered: the same question again
      practiceParts(section).question.textContent = "Your unanswered question comes back as soon as Python is ready.";
      if (ready()) ask(section, true);
      else restoring.add(section);
    }
    /** @type {HTMLElement} */ (section.querySelector('[data-action="another"]'))
      .addEventListener("click", () => another(section));
    /** @type {HTMLFormElement} */ (section.querySelector("form")).addEventListener("submit", (event) => {
      event.preventDefault();
      if (ready() && section.dataset.number) checkPractice(section);
    });
  }
}

/** Python has started: draw the questions asked for meanwhile. */
export function practiceReady() {
  for (const section of restoring) if (!asking.has(section)) ask(section, true);
  restoring.clear();
  for (const section of asking) another(section);
  asking.clear();
}

/**
 * Python could not start: say so where a question was asked for.
 * @param {string} text
 */
export function practiceFailed(text) {
  for (const section of [...asking, ...restoring]) practiceParts(section).question.textContent = text;
}
