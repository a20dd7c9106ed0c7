// bleu_teach.web.page's functions as a lesson page's live parts call them, and what they answer, once Python has
// started in its worker (lesson_live.js starts it, python.js talks to the worker): until then ready() is false,
// and what needs Python (a render, a check, a question) waits for it.
import { PAGE_FUNCTIONS } from "./names.js";

/**
 * bleu_teach.web.page's JSON functions, called in the worker (promises of their JSON answers); their names are
 * names.js's PAGE_FUNCTIONS.
 * @typedef {object} PythonCalls
 * @property {(kind: string, state: string) => Promise<string>} widget
 * @property {(id: string, answer: string, attempt: number) => Promise<string>} check
 * @property {(id: string, sent: string) => Promise<string>} practice
 * @property {(id: string, sent: string) => Promise<string>} practiceCheck
 */

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
 * @typedef {{
 *   chart?: import("./live_data.js").ChartDescription, limits?: Record<string, number>,
 *   notes?: Record<string, string>, values?: Record<string, unknown>
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

/** @type {PythonCalls | null} */
let python = null;

/**
 * Python has started: call bleu_teach.web.page's functions through call from now on.
 * @param {import("./python.js").PythonCall} call
 */
export function connect(call) {
  python = { widget: (...args) => call(PAGE_FUNCTIONS.widget, ...args),
             check: (...args) => call(PAGE_FUNCTIONS.check, ...args),
             practice: (...args) => call(PAGE_FUNCTIONS.practice, ...args),
             practiceCheck: (...args) => call(PAGE_FUNCTIONS.practice_check, ...args) };
}

/** @returns {boolean} whether Python has started */
export function ready() {
  return python !== null;
}

/**
 * Python's functions, once it has started: what is called only then (a render, a check, a question) uses this.
 * @returns {PythonCalls}
 */
export function started() {
  return /** @type {PythonCalls} */ (python);
}
