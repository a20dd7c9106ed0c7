// The talk deck's poll slide, when the classroom server serves the deck (opened from a session's dashboard, with
// ?session=<id>): the join code and its QR code, the slide's question and its options, the voters while it is
// open, each round's votes once closed (round 2 beside round 1), and the right answer when the presenter shows it.
// The presenter works it from the keyboard on the slide: A asks the slide's question, C closes it, R asks it again
// (round 2), E shows or hides the right answer (none of them is one of reveal.js's keys); every other key, PageDown
// included, is the deck's. Every step, and every key pressed out of order, is said on the slide's status line (a
// live region). Everything from the server is put on the slide as text.
import { pollView } from "./dashboard_poll.js";
import { element } from "./dom.js";
import { send } from "./send.js";

/** @typedef {import("./dashboard_poll.js").Poll} Poll */
/** @typedef {import("./dashboard_poll.js").Round} Round */

/** The keys, as the speaker notes name them. */
const KEYS = { a: "ask", c: "close", r: "again", e: "right" };
/** A second A within this many milliseconds asks the question anew, putting the shown rounds away. */
const CONFIRM_MS = 5000;
/** After the server did not answer, it is asked again this often. */
const RETRY_MS = 3000;

/**
 * What the server says of this session for this browser: a reason it cannot be shown, or null when it can.
 * @param {string} base
 * @returns {Promise<string | null>}
 */
async function unavailable(base) {
  try {
    const response = await fetch(`${base}/tally?names=0`, { credentials: "same-origin" });
    if (response.ok) return null;
    if (response.status === 401 || response.status === 403) {
      return "This browser is not this session's teacher: open the session's teacher link in it, then reload.";
    }
    if (response.status === 404) return "There is no such session (deleted?): open the deck from a dashboard.";
    return `The classroom server answered ${response.status}; it is asked again by itself.`;
  } catch {
    return "The classroom server does not answer; it is asked again by itself.";
  }
}

/**
 * Make the slide's box (class deck-poll, data-exercise: the bank question it asks) live for this session.
 * @param {HTMLElement} box
 * @param {string} session
 */
function start(box, session) {
  const exercise = String(box.dataset.exercise);
  const status = element("p", "Connecting to the classroom…", "deck-poll-status");
  status.setAttribute("role", "status");
  const join = element("div", undefined, "deck-poll-join");
  const view = element("div", undefined, "deck-poll-view");
  box.replaceChildren(join, view, status);
  const base = `/class/api/sessions/${session}`;
  /** @type {Poll | null} */
  let poll = null; // the slide's question, as the server last sent it (another question is not the slide's)
  let other = false; // another question (from the dashboard) is the session's current one
  let open = true; // the session takes answers
  let rightShown = false;
  let askedAt = 0; // when A was pressed while rounds were shown (a second A within CONFIRM_MS asks anew)
  /** @type {EventSource | null} */
  let stream = null;

  /** @param {string} text */
  const say = (text) => { status.textContent = text; };

  /** @param {string} code */
  function showJoin(code) {
    if (join.dataset.code === code) return;
    join.dataset.code = code;
    const address = `${location.origin}/class`;
    const qr = element("img");
    qr.src = `${base}/join.svg`;
    qr.alt = `QR code: join at ${address} with the code ${code}`;
    join.replaceChildren(element("p", `Join at ${address}`), element("p", code, "deck-poll-code"), qr);
  }

  function draw() {
    if (!poll) {
      view.replaceChildren(element("p", other
        ? "Another question is open (from the dashboard). Press A to ask this slide's instead."
        : "Press A to ask the room this question."));
      return;
    }
    view.replaceChildren(...pollView(poll));
    if (rightShown && poll.right) view.append(element("p", `The right answer: ${poll.right}`, "poll-right"));
  }

  /** @returns {Round | undefined} */
  const last = () => poll?.rounds.at(-1);

  /**
   * @param {string} path
   * @param {object} body
   * @param {string} done what the status line says once the server has done it
   */
  async function act(path, body, done) {
    try {
      await send(path, body);
      say(done);
    } catch (error) {
      say(`Not done: ${/** @type {Error} */ (error).message}`);
    }
  }

  async function listen() {
    const problem = await unavailable(base);
    if (problem) {
      say(problem);
      if (problem.startsWith("There is no such session")) {
        join.replaceChildren();
        view.replaceChildren();
        return; // deleted: nothing more to ask for
      }
      setTimeout(listen, RETRY_MS);
      return;
    }
    stream = new EventSource(`${base}/events?names=0`);
    stream.addEventListener("message", (event) => {
      const data = /** @type {{ code: string, open: boolean, poll: Poll | null }} */ (JSON.parse(event.data));
      if (status.textContent.startsWith("Connecting") || status.textContent.startsWith("The classroom")) say("");
      showJoin(data.code);
      open = data.open;
      other = data.poll !== null && data.poll.exercise !== exercise;
      poll = other ? null : data.poll;
      if (!open) say("This session is closed: it takes no more answers or votes.");
      draw();
    });
    stream.addEventListener("error", () => {
      if (stream?.readyState === EventSource.CLOSED) { // an answer that was not the stream: ask why, then again
        stream = null;
        listen();
      }
    });
  }
  listen();

  document.addEventListener("keydown", (event) => {
    const action = KEYS[/** @type {keyof typeof KEYS} */ (event.key.toLowerCase())];
    const target = /** @type {HTMLElement} */ (event.target);
    if (!action || event.ctrlKey || event.metaKey || event.altKey || !box.closest("section.present")) return;
    if (target.closest("input, textarea, select, [contenteditable]")) return;
    event.preventDefault();
    event.stopPropagation(); // the slide's, not reveal.js's
    const round = last();
    if (!open) {
      say("This session is closed: open a new one on the teacher page to ask the room.");
    } else if (action === "ask") {
      if (poll && Date.now() - askedAt > CONFIRM_MS) {
        askedAt = Date.now();
        say("Press A again to ask this question anew: the rounds shown now are put away (the export keeps them).");
        return;
      }
      askedAt = 0;
      rightShown = false;
      act(`${base}/polls`, { exercise }, "Asked: the phones can vote now. C closes the question.");
    } else if (!round) {
      say("Nothing is asked yet: A asks this slide's question.");
    } else if (action === "close") {
      if (round.open) act(`${base}/polls/${round.id}/close`, {}, `Round ${round.round} closed: the votes are shown.`);
      else say(`Round ${round.round} is closed already. ${round.round === 1 ? "R asks it again." : ""}`);
    } else if (action === "again") {
      if (round.open) say("The question is still open: C closes it first.");
      else if (round.round !== 1) say("Both rounds are done: A asks the question anew.");
      else act(`${base}/polls/${round.id}/again`, {}, "Round 2 asked: the phones vote again. C closes it.");
      rightShown = false;
    } else if (action === "right") {
      if (round.open) {
        say("The votes are not closed yet: C closes them, then E shows the right answer.");
      } else {
        rightShown = !rightShown;
        say(rightShown && poll?.right ? `The right answer: ${poll.right}.` : "The right answer is hidden.");
        draw();
      }
    }
  }, true);
}

const given = new URLSearchParams(location.search).get("session") ?? "";
for (const box of document.querySelectorAll(".deck-poll")) {
  if (/^[0-9]{1,9}$/.test(given)) start(/** @type {HTMLElement} */ (box), given);
  else /** @type {HTMLElement} */ (box.querySelector(".deck-poll-status") ?? box).textContent =
    "The deck's address names no session (?session= a number): open it from the session's dashboard.";
}
