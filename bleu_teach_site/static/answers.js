// What the site's pages keep in this browser's local storage (nothing is sent anywhere): the learner's checked
// answers, practice records and widget values, which the lesson pages write (lesson_live.js and its modules) and
// the index reads (progress.js); and the one way to read and write what is kept (classroom.js too). The keys are
// names.js's (bleu_teach/web/names.py).

import { answerRecord } from "./live_data.js";
import { ANSWERS_KEY, PRACTICE_KEY, WIDGETS_KEY } from "./names.js";

/**
 * An exercise's kept record as read back: what the lesson pages write (live_data.js answerRecord: answer,
 * verdict, solved, tries, at), or what an earlier version of the page wrote (no solved, no tries).
 * @typedef {object} StoredAnswer
 * @property {unknown} [answer]
 * @property {string} [verdict]
 * @property {boolean} [solved]
 * @property {number} [tries]
 * @property {string} [at]
 */

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
 * An exercise's kept practice: the question last drawn, the streak and its sentence, all of it as the page's
 * Python returned it.
 * @typedef {object} PracticeRecord
 * @property {number | null} [number]
 * @property {boolean} [pending] the question number was shown and not yet answered (a reload shows it again)
 * @property {Streak | null} [streak]
 * @property {string} [streakText]
 */

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

/**
 * The records kept under key, by id (a JSON object); {} when there are none, what is kept is no object, or
 * storage is off.
 * @param {string} key
 * @returns {Record<string, any>}
 */
export function readRecords(key) {
  const found = readJson(key, {});
  return typeof found === "object" && !Array.isArray(found) ? found : {};
}

/**
 * Keep value under key, as JSON.
 * @param {string} key
 * @param {unknown} value
 * @returns {boolean} whether it could be kept (not when storage is off or full: the page then forgets it)
 */
export function writeJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

/**
 * Every kept answer by exercise id: { answer, verdict, solved, tries, at }; {} when there are none or storage is
 * off.
 * @returns {Record<string, StoredAnswer>}
 */
export function stored() {
  return readRecords(ANSWERS_KEY);
}

/**
 * Keep the last answer (to show it again) and whether the exercise was ever answered right (the progress).
 * @param {string} id
 * @param {string} answer
 * @param {string} verdict
 * @param {string} at when it was checked (ISO 8601)
 * @returns {boolean} whether it could be kept
 */
export function remember(id, answer, verdict, at) {
  const all = stored();
  all[id] = answerRecord(all[id], answer, verdict, at);
  return writeJson(ANSWERS_KEY, all);
}

/**
 * Every kept practice record by exercise id; {} when there are none or storage is off.
 * @returns {Record<string, PracticeRecord>}
 */
export function practised() {
  return readRecords(PRACTICE_KEY);
}

/**
 * @param {string} id
 * @returns {PracticeRecord} what was kept of this exercise's practice ({} if nothing)
 */
export function keptPractice(id) {
  const kept = practised()[id];
  return kept && typeof kept === "object" ? kept : {};
}

/**
 * @param {string} id
 * @param {PracticeRecord} record
 * @returns {boolean} whether it could be kept (if not, the streak is forgotten with the page)
 */
export function keepPractice(id, record) {
  const all = practised();
  all[id] = record;
  return writeJson(PRACTICE_KEY, all);
}

/**
 * What the learner last set in each widget, by page and widget ("page#index:explorer"); {} when none.
 * @returns {Record<string, unknown>}
 */
export function keptValues() {
  return readRecords(WIDGETS_KEY);
}

/**
 * Keep a widget's values under its key, or forget them (null: its values are the saved example's again).
 * @param {string} key
 * @param {unknown} values
 */
export function keepValues(key, values) {
  const all = keptValues();
  if (values === null) delete all[key];
  else all[key] = values;
  writeJson(WIDGETS_KEY, all);
}
