// The talk deck's poll slide, when the classroom server serves the deck (opened from a session's dashboard, with
// ?session=<id>): the join code and its QR code, the question and its options, the voters while it is open, each
// round's votes once closed (round 2 beside round 1), and the right answer when the presenter shows it. The
// presenter works it from the keyboard on the slide: A asks the slide's question, C closes it, G asks it again, V
// shows or hides the right answer; every other key (PageDown included) is the deck's. Everything from the server is
// put on the slide as text.
import { bar, element } from "./dom.js";
import { send } from "./send.js";

/** @typedef {import("./dashboard_poll.js").Poll} Poll */
/** @typedef {import("./dashboard_poll.js").Round} Round */

/** The keys, as the speaker notes name them. */
const KEYS = { a: "ask", c: "close", g: "again", v: "right" };

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
  let poll = null;
  let rightShown = false;

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
      view.replaceChildren(element("p", "Press A to ask the room this question."));
      return;
    }
    const rounds = element("div", undefined, "poll-rounds");
    for (const round of poll.rounds) {
      const column = element("div", undefined, "poll-round");
      column.append(element("p", `Round ${round.round}: ${round.voted} voted${round.open ? " so far (open)" : ""}`,
                            "poll-round-title"));
      if (round.counts) {
        for (const [letter] of poll.options) column.append(bar(letter, round.counts[letter], round.voted, "poll"));
      }
      rounds.append(column);
    }
    const options = element("ul", undefined, "poll-options");
    for (const [letter, text] of poll.options) options.append(element("li", `${letter}: ${text}`));
    view.replaceChildren(element("p", poll.question, "poll-question"), options, rounds);
    if (rightShown && poll.right) view.append(element("p", `The right answer: ${poll.right}`, "poll-right"));
  }

  /** @returns {Round | undefined} */
  const last = () => poll?.rounds.at(-1);

  /**
   * @param {string} path
   * @param {object} body
   */
  async function act(path, body) {
    try {
      await send(path, body);
      status.textContent = "";
    } catch (error) {
      status.textContent = `Not done: ${/** @type {Error} */ (error).message}`;
    }
  }

  const stream = new EventSource(`${base}/events?names=0`);
  stream.addEventListener("message", (event) => {
    const data = /** @type {{ code: string, poll: Poll | null }} */ (JSON.parse(event.data));
    showJoin(data.code);
    poll = data.poll;
    status.textContent = "";
    draw();
  });
  stream.addEventListener("error", () => {
    status.textContent = "The classroom server does not answer for this session: is it running, and was its " +
      "teacher link opened in this browser? The deck tries again by itself.";
  });

  document.addEventListener("keydown", (event) => {
    const action = KEYS[/** @type {keyof typeof KEYS} */ (event.key.toLowerCase())];
    const target = /** @type {HTMLElement} */ (event.target);
    if (!action || event.ctrlKey || event.metaKey || event.altKey || !box.closest("section.present")) return;
    if (target.closest("input, textarea, select, [contenteditable]")) return;
    event.preventDefault();
    event.stopPropagation(); // the deck's, not reveal.js's
    const round = last();
    if (action === "ask") {
      rightShown = false;
      act(`${base}/polls`, { exercise });
    } else if (action === "close" && round?.open) {
      act(`${base}/polls/${round.id}/close`, {});
    } else if (action === "again" && round && !round.open && round.round === 1) {
      rightShown = false;
      act(`${base}/polls/${round.id}/again`, {});
    } else if (action === "right" && round && !round.open) {
      rightShown = !rightShown;
      draw();
    }
  }, true);
}

const session = new URLSearchParams(location.search).get("session") ?? "";
if (/^[0-9]{1,9}$/.test(session)) {
  for (const box of document.querySelectorAll(".deck-poll")) start(/** @type {HTMLElement} */ (box), session);
}
