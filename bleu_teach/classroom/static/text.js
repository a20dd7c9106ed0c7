// What the classroom's pages say and draw, worked out from the server's data alone: no page, no network, nothing
// done on import. dashboard.js, homework.js and poll.js import it; tests/js/classroom_text.test.mjs checks it with
// node --test.

/**
 * An exercise's counts on the dashboard (counts.py counts; tries: app.py counts_of, for a homework).
 * @typedef {object} ExerciseCounts
 * @property {string} id
 * @property {string} title
 * @property {number} answered the students who answered it (each one's last answer)
 * @property {{ correct: number, misconception: number, wrong: number }} verdicts
 * @property {{ name: string, count: number }[]} mistakes the named mistakes among the answers
 * @property {number} late the answers after the due time
 * @property {number} [tries] a homework's answers sent to it in all
 */

/**
 * The dashboard's summary line's data (app.py counts_of).
 * @typedef {object} Summary
 * @property {number} students
 * @property {ExerciseCounts[]} exercises
 * @property {boolean} open
 */

/**
 * A bar's width: count's share of total, in per cent of the track (0 when there is no total).
 * @param {number} count
 * @param {number} total
 * @returns {string} a CSS width
 */
export function barWidth(count, total) {
  return `${total ? (100 * count) / total : 0}%`;
}

/**
 * The dashboard's summary: who joined, how many answers are counted, and whether the session is closed.
 * @param {Summary} data
 * @returns {string}
 */
export function summaryText(data) {
  const answered = data.exercises.reduce((sum, ex) => sum + ex.answered, 0);
  return `${data.students} joined; ${answered} answer${answered === 1 ? "" : "s"} counted ` +
    `(each student's last answer to each exercise)${data.open ? "" : "; the session is closed"}.`;
}

/**
 * The line under an exercise's title on the dashboard: how many answered, how many late, and (a homework) the
 * tries sent of those allowed.
 * @param {ExerciseCounts} ex
 * @param {number | undefined} allowed a homework's tries per student
 * @returns {string}
 */
export function exerciseLine(ex, allowed) {
  const tries = ex.tries !== undefined ? ` (${ex.tries} tries sent in all; ${allowed} allowed per student)` : "";
  return `${ex.answered} answered${ex.late ? `, ${ex.late} late` : ""}${tries}`;
}

/** The roster's words for the verdict letters (counts.py LETTER). */
const MARKS = { r: "right", m: "mistake", w: "wrong" };

/**
 * What the dashboard's roster shows for a student's verdict letter on an exercise: "–" when none.
 * @param {string} letter
 * @returns {string}
 */
export function rosterMark(letter) {
  return /** @type {Record<string, string | undefined>} */ (MARKS)[letter] ?? "–";
}

/**
 * A name of a homework's roster on the dashboard (app.py counts_of): who joined as it, whose student the teacher
 * took out (no one has joined as it since), or no one yet.
 * @typedef {object} RosterEntry
 * @property {string} name
 * @property {boolean} joined
 * @property {boolean} [removed]
 */

/**
 * A roster name's line on the dashboard: "Zoë Ng: joined", "removed" or "not yet".
 * @param {RosterEntry} entry
 * @returns {string}
 */
export function rosterEntryText(entry) {
  return `${entry.name}: ${entry.joined ? "joined" : entry.removed ? "removed" : "not yet"}`;
}

/**
 * The line above the roster: how many of its names have joined, and how many were removed.
 * @param {RosterEntry[]} roster
 * @returns {string}
 */
export function rosterSummaryText(roster) {
  const joined = roster.filter((entry) => entry.joined).length;
  const removed = roster.filter((entry) => !entry.joined && entry.removed).length;
  return `${joined} of ${roster.length} on the roster have joined` +
    `${removed ? `; ${removed} removed (no one has joined as ${removed === 1 ? "that name" : "those names"} since)` : ""}.`;
}

/**
 * A homework's tries left, said after the verdict ("" when the server does not say).
 * @param {number | undefined} left
 * @returns {string}
 */
export function triesText(left) {
  if (left === undefined) return "";
  return left > 0 ? ` ${left} ${left === 1 ? "try" : "tries"} left (an answer in the wrong form uses none).`
    : " No tries left: your last answer stands.";
}

/**
 * What a student is told of their homework's late policy (homework_pages.py questions: "accept", "refuse" or
 * "penalty:N"), or, once it is closed for them (refused after their due time, or closed by the teacher), that no
 * answer is taken.
 * @param {string | undefined} policy
 * @param {boolean} open
 * @returns {string}
 */
export function lateText(policy, open) {
  if (!open) return "This homework is closed: no answer is taken now.";
  if (policy === "refuse") return "After your due time, no answer is taken.";
  const penalty = /^penalty:(\d+)$/.exec(policy ?? "");
  if (penalty) return `A right answer after your due time earns ${100 - Number(penalty[1])}% of its point.`;
  return "An answer after your due time still counts, marked late.";
}

/**
 * A homework answer's verdict as the server gives it (never the right answer).
 * @typedef {object} HomeworkVerdict
 * @property {string} verdict "correct", "misconception", "wrong", ...
 * @property {string | null} [mistake] the mistake it looks like, or "not an answer"
 * @property {boolean} [late]
 */

/**
 * What a student is told of a homework answer.
 * @param {HomeworkVerdict} result
 * @returns {string}
 */
export function verdictText(result) {
  const late = result.late ? " (after the due time: marked late)" : "";
  if (result.verdict === "correct") return `Right.${late}`;
  if (result.mistake && result.mistake !== "not an answer") return `Not yet: this looks like ${result.mistake}.${late}`;
  if (result.mistake === "not an answer") return `Not yet: that is not an answer in the form asked.${late}`;
  return `Not yet.${late}`;
}

/**
 * What a student's phone says when the question on it closes: that it closed, and the vote counted if they had
 * voted ("Your vote: B. You can change it ..." becomes "... Your vote: B is counted.").
 * @param {string} said what the page said under the question
 * @returns {string}
 */
export function closedText(said) {
  return said.startsWith("Your vote")
    ? `The question is closed. ${said.split(".")[0]} is counted.` : "The question is closed.";
}
