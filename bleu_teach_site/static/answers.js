// The learner's checked answers, kept in this browser's local storage (nothing is sent anywhere): the lesson pages
// write them (lesson_live.js) and the index reads them (progress.js).

export const STORE = "bleu-teach-answers";

/**
 * An exercise's kept record as read back: what lesson_live.js writes (live_data.js answerRecord: answer, verdict,
 * solved, tries, at), or what an earlier version of the page wrote (no solved, no tries).
 * @typedef {object} StoredAnswer
 * @property {unknown} [answer]
 * @property {string} [verdict]
 * @property {boolean} [solved]
 * @property {number} [tries]
 * @property {string} [at]
 */

/**
 * Every kept answer by exercise id: { answer, verdict, solved, at }; {} when there are none or storage is off.
 * @returns {Record<string, StoredAnswer>}
 */
export function stored() {
  try {
    const found = JSON.parse(localStorage.getItem(STORE) ?? "{}");
    return found && typeof found === "object" && !Array.isArray(found) ? found : {};
  } catch {
    return {};
  }
}

// The practice questions' records by exercise id: { number, streak: { in_a_row, best, last, mastered, skill },
// streakText }, all of it as the page's Python returned it (lesson_live.js writes it, the index reads it).
export const PRACTICE = "bleu-teach-practice";

/**
 * A practice streak, as Python returns it (bleu_teach.exercises.practice: Streak.to_dict).
 * @typedef {object} Streak
 * @property {number} in_a_row
 * @property {number} best
 * @property {number} last the practice question whose first answer counted last (0: none yet)
 * @property {boolean} mastered
 * @property {string} skill
 */

/**
 * An exercise's kept practice: the question last drawn, the streak and its sentence.
 * @typedef {object} PracticeRecord
 * @property {number | null} [number]
 * @property {Streak | null} [streak]
 * @property {string} [streakText]
 */

/**
 * Every kept practice record by exercise id; {} when there are none or storage is off.
 * @returns {Record<string, PracticeRecord>}
 */
export function practised() {
  try {
    const found = JSON.parse(localStorage.getItem(PRACTICE) ?? "{}");
    return found && typeof found === "object" && !Array.isArray(found) ? found : {};
  } catch {
    return {};
  }
}

// What the learner last set in each widget, by page and widget: { [page#index:widget]: the form's values }
// (lesson_live.js writes and reads it; "Clear my answers" on the index clears it with the answers).
export const WIDGETS = "bleu-teach-widgets";

// The class this browser has joined on a classroom server (python -m bleu_teach class serve): { session,
// nickname }, set by the server's join page; the lesson pages then send each checked answer to it as well.
export const CLASS = "bleu-teach-class";
// Answers checked but not yet acknowledged by the classroom server: [{ id, exercise, answer }], sent again until
// they are (the server keeps each id once).
export const OUTBOX = "bleu-teach-class-outbox";

/**
 * What local storage keeps under key, read as JSON; fallback when there is nothing there, it is not JSON, or
 * storage is off.
 * @param {string} key
 * @param {unknown} fallback
 * @returns {any} any JSON value (as JSON.parse gives it), or fallback: the caller checks what it is
 */
export function readJson(key, fallback) {
  try {
    const found = JSON.parse(localStorage.getItem(key) ?? "null");
    return found ?? fallback;
  } catch {
    return fallback;
  }
}
