// The index page's record of the learner's exercises: read from this browser's local storage, where the lesson
// pages keep each checked answer (lesson_live.js).  Nothing is sent anywhere; "Clear my answers" forgets them.

import { practised, stored } from "./answers.js";
import { ANSWERS_KEY, PRACTICE_KEY, WIDGETS_KEY } from "./names.js";

/** @typedef {HTMLLIElement & { dataset: DOMStringMap & { exercises: string } }} LessonItem a lesson on the index */

/** Each lesson's exercises right and skills mastered, and the summary above them. */
function show() {
  const answers = stored();
  const practice = practised();
  let mastered = 0;
  let done = 0;
  let lessons = 0;
  for (const item of /** @type {NodeListOf<LessonItem>} */ (document.querySelectorAll("li[data-exercises]"))) {
    const ids = item.dataset.exercises.split(" ").filter(Boolean);
    // right once answered right, even if a later try was wrong (lesson_live.js keeps "solved")
    const right = ids.filter((id) => answers[id]?.solved || answers[id]?.verdict === "correct").length;
    const tried = ids.filter((id) => answers[id]).length;
    const progress = /** @type {HTMLElement} */ (item.querySelector(".progress"));
    // practice: the skills whose streak reached mastery (the page's Python said so; lesson_live.js kept it)
    const skills = ids.filter((id) => practice[id]?.streak?.mastered === true)
      .map((id) => String(/** @type {import("./answers.js").Streak} */ (practice[id].streak).skill ?? id));
    mastered += skills.length;
    progress.hidden = tried === 0 && skills.length === 0;
    progress.textContent = (tried ? `· exercises: ${right} of ${ids.length} right` +
      (tried > right ? `, ${tried - right} still to get right` : "") : "") +
      (skills.length ? ` · mastered in practice: ${skills.join(", ")}` : "");
    done += right;
    if (ids.length && right === ids.length) lessons += 1;
  }
  const summary = /** @type {HTMLElement} */ (document.getElementById("progress-summary"));
  const any = Object.keys(answers).length > 0;
  const total = document.querySelectorAll("li[data-exercises]").length;
  const all = [.../** @type {NodeListOf<LessonItem>} */ (document.querySelectorAll("li[data-exercises]"))]
    .reduce((sum, item) => sum + item.dataset.exercises.split(" ").filter(Boolean).length, 0);
  summary.textContent = (!any ? (mastered ? "no exercise answered yet" : "no answers yet")
    : `${done} of ${all} exercises right` + (lessons ? `; every exercise right in ${lessons} of ${total} lessons` : "")) +
    (mastered ? `; ${mastered} ${mastered === 1 ? "skill" : "skills"} mastered in practice` : "");
}

// Clearing asks first, and can be undone until the page is left: the cleared values are kept in memory only.
const clear = /** @type {HTMLButtonElement} */ (document.getElementById("clear-progress"));
const ask = /** @type {HTMLElement} */ (document.getElementById("clear-ask"));
const undo = /** @type {HTMLButtonElement} */ (document.getElementById("clear-undo"));
const status = /** @type {HTMLElement} */ (document.getElementById("progress-status"));
/** @type {{ answers: string | null, practice: string | null, widgets: string | null } | null} */
let cleared = null;

clear.addEventListener("click", () => {
  ask.hidden = false;
  undo.hidden = true;
  status.textContent = "";
  /** @type {HTMLButtonElement} */ (document.getElementById("clear-confirm")).focus();
});
ask.addEventListener("keydown", (event) => { // Esc keeps them, as "Keep them" does
  if (event.key === "Escape") /** @type {HTMLButtonElement} */ (document.getElementById("clear-cancel")).click();
});
/** @type {HTMLButtonElement} */ (document.getElementById("clear-cancel")).addEventListener("click", () => {
  ask.hidden = true;
  status.textContent = "Nothing was cleared.";
  clear.focus();
});
/** @type {HTMLButtonElement} */ (document.getElementById("clear-confirm")).addEventListener("click", () => {
  ask.hidden = true;
  try {
    cleared = { answers: localStorage.getItem(ANSWERS_KEY), practice: localStorage.getItem(PRACTICE_KEY),
                widgets: localStorage.getItem(WIDGETS_KEY) };
    localStorage.removeItem(ANSWERS_KEY);
    localStorage.removeItem(PRACTICE_KEY);
    localStorage.removeItem(WIDGETS_KEY);
    status.textContent = "Your answers, practice streaks and widget values are cleared from this browser. Undo brings them back.";
    undo.hidden = false;
    undo.focus();
  } catch {
    cleared = null;
    status.textContent = "This browser does not let the page clear its storage.";
    clear.focus();
  }
  show();
});
undo.addEventListener("click", () => {
  try {
    if (cleared?.answers != null) localStorage.setItem(ANSWERS_KEY, cleared.answers);
    if (cleared?.practice != null) localStorage.setItem(PRACTICE_KEY, cleared.practice);
    if (cleared?.widgets != null) localStorage.setItem(WIDGETS_KEY, cleared.widgets);
    status.textContent = "Your answers, practice streaks and widget values are back.";
  } catch {
    status.textContent = "This browser does not let the page write its storage.";
  }
  cleared = null;
  undo.hidden = true;
  clear.focus();
  show();
});
window.addEventListener("storage", show);
show();
