// The projector view, on the room's computer (the projector link) or on the teacher's (their cookie): the question
// asked, its rounds' votes, the right answer once the teacher shows it, the join code with its QR code, and the
// answers on the lesson pages; live (server-sent events), with nothing to press and no student's name. The question
// and its votes are made to fit the first screen (fit). Everything from the server is put on the page as text.
import { pollView, rightText } from "./dashboard_poll.js";
import { element, exerciseSection } from "./dom.js";
import { summaryText } from "./text.js";

/**
 * What the projector's stream sends (teacher_routes.py room_text; the teacher's own projector gets the dashboard's
 * data without names, and shows the same).
 * @typedef {import("./text.js").Summary & {
 *   exercises: import("./text.js").ExerciseCounts[], poll: import("./dashboard_poll.js").Poll | null, tries?: number
 * }} Counts
 */

/** The smallest the question is made to fit the screen, as a share of its size (smaller is not read from the back). */
const SMALLEST = 0.5;

const root = /** @type {HTMLElement} */ (document.getElementById("projector"));
const first = /** @type {HTMLElement} */ (document.getElementById("projector-first"));
const view = /** @type {HTMLElement} */ (document.getElementById("poll-view"));
const summary = /** @type {HTMLElement} */ (document.getElementById("summary"));
const exercises = /** @type {HTMLElement} */ (document.getElementById("exercises"));

/** The question and its votes on the first screen: their text made smaller, step by step, until they fit. */
function fit() {
  let scale = 1;
  first.style.fontSize = "";
  while (first.getBoundingClientRect().bottom + window.scrollY > window.innerHeight && scale > SMALLEST) {
    scale -= 0.05;
    first.style.fontSize = `${scale.toFixed(2)}em`;
  }
}

/**
 * The stream's latest data: the poll (and its right answer once revealed), the summary and each exercise's bars.
 * @param {Counts} data
 */
function show(data) {
  const poll = data.poll;
  if (poll) {
    view.replaceChildren(...pollView(poll));
    if (poll.right && poll.revealed) view.append(element("p", rightText(poll), "poll-right"));
  }
  summary.textContent = summaryText(data);
  exercises.replaceChildren(...data.exercises.map((ex) => exerciseSection(ex, data.tries)));
  fit();
  root.dataset.updated = String(Date.now());
}

/**
 * The link no longer works (the teacher made a new one, or stopped it): nothing of the session is shown, not its
 * title, its votes, nor its join code.
 */
function stopped() {
  window.removeEventListener("resize", fit);
  root.replaceChildren(
    element("p", "This projector link no longer works: ask the teacher for the new one.", "projector-stopped"),
  );
}

const stream = new EventSource(String(root.dataset.events));
stream.addEventListener("message", (event) => show(JSON.parse(event.data)));
stream.addEventListener("stopped", () => {
  stream.close();
  stopped();
});
stream.addEventListener("error", () => {
  if (stream.readyState === EventSource.CLOSED) { // refused: the link was stopped, or the session deleted
    stopped();
    return;
  }
  summary.textContent = "The server cannot be reached just now: these numbers may be old. The page tries again " +
    "by itself.";
});
window.addEventListener("resize", fit);
fit();
