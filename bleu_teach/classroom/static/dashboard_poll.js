// The dashboard's poll: the current question, each round's votes (round 2 beside round 1), and the presenter's
// buttons to ask, close, ask again and show the right answer (on the projector too: the server keeps whether it is
// shown). Everything typed is put on the page as text.
import { bar, element } from "./dom.js";
import { send } from "./send.js";

/**
 * A round of the current poll: how many voted, and each option's votes once it is closed (polls.py view).
 * @typedef {{ id: number, round: number, open: boolean, voted: number, counts: Record<string, number> | null }} Round
 */
/**
 * The current poll as the presenter sees it (polls.py view): a bank question's (or a variant's) right answer once
 * closed, and whether the presenter shows it (revealed); the projector link gets the right answer only then.
 * @typedef {object} Poll
 * @property {number} id
 * @property {string} question
 * @property {[string, string][]} options (letter, text)
 * @property {number} round
 * @property {boolean} open
 * @property {string} exercise
 * @property {Round[]} rounds
 * @property {string} [right]
 * @property {boolean} [revealed]
 * @property {boolean} [variant] a new variant of a lesson's question (its options are numbers)
 */
/** @type {Poll | null} */
let poll = null; // the current poll, as the server last sent it

/**
 * A poll as the dashboard and the deck's poll slide show it: its question, its options, and each round (round 2
 * beside round 1) with its voters, and its bars once closed.
 * @param {Poll} current
 * @returns {HTMLElement[]}
 */
export function pollView(current) {
  const list = element("ul", undefined, "poll-options");
  for (const [letter, text] of current.options) list.append(element("li", `${letter}: ${text}`));
  const rounds = element("div", undefined, "poll-rounds");
  for (const round of current.rounds) {
    const box = element("div", undefined, "poll-round");
    box.append(element("p", `Round ${round.round}: ${round.voted} voted${round.open ? " so far (open)" : ""}`,
                       "poll-round-title"));
    if (round.counts) {
      for (const [letter] of current.options) box.append(bar(letter, round.counts[letter], round.voted, "poll"));
    }
    rounds.append(box);
  }
  return [element("p", current.question, "poll-question"), list, rounds];
}

/**
 * The right answer as the dashboard and the projector say it: its letter, and a variant's number beside it.
 * @param {Poll} current
 * @returns {string}
 */
export function rightText(current) {
  const option = current.options.find(([letter]) => letter === current.right);
  return `The right answer: ${current.right}${current.variant && option ? ` (${option[1]})` : ""}`;
}

/**
 * The current poll, its rounds' votes, and the presenter's buttons for it (none on the projector).
 * @param {Poll | null} current
 */
export function showPoll(current) {
  poll = current;
  const view = /** @type {HTMLElement} */ (document.getElementById("poll-view"));
  const closeButton = /** @type {HTMLButtonElement | null} */ (document.getElementById("poll-close"));
  const againButton = /** @type {HTMLButtonElement} */ (document.getElementById("poll-again")); // with poll-close
  const rightButton = /** @type {HTMLButtonElement} */ (document.getElementById("poll-right"));
  if (!current) return;
  const isOpen = /** @type {Round} */ (current.rounds.at(-1)).open;
  const shown = Boolean(current.right && current.revealed);
  if (closeButton) {
    closeButton.disabled = !isOpen;
    againButton.disabled = isOpen || current.round !== 1;
    rightButton.disabled = isOpen || !current.right;
    rightButton.setAttribute("aria-expanded", String(shown));
    rightButton.textContent = shown ? "Hide the right answer" : "Show the right answer";
  }
  view.replaceChildren(...pollView(current));
  if (shown) {
    const answer = element("p", rightText(current), "poll-right");
    answer.id = "poll-answer";
    view.append(answer);
  }
}

/**
 * Ask, close, repeat a poll or show its right answer, and say whether it was done (and what the server adds: a
 * lesson's question asked with new numbers, or one the lesson page answers).
 * @param {string} path
 * @param {object} body
 * @returns {Promise<boolean>} whether it was done
 */
async function pollAction(path, body) {
  const said = /** @type {HTMLElement} */ (document.getElementById("ask-status"));
  try {
    const answer = /** @type {{ note?: string }} */ (await send(path, body));
    said.textContent = answer.note ? `Done. ${answer.note}` : "Done.";
    return true;
  } catch (error) {
    said.textContent = `Not done: ${/** @type {Error} */ (error).message}`;
    return false;
  }
}

/**
 * The presenter's poll form and buttons: ask a lesson's question (a numeric one with new numbers) or one typed,
 * close the round, ask again, show or hide the right answer (on the projector too).
 * @param {string | undefined} session
 */
export function startPolls(session) {
  const ask = document.getElementById("ask");
  if (!ask) return;
  fetch(`/class/api/sessions/${session}/polls/questions`, { credentials: "same-origin" })
    .then((response) => response.json()).then((
      /** @type {{ questions: { id: string, title: string, varied: boolean }[] }} */ data) => {
      const menu = /** @type {HTMLSelectElement} */ (document.getElementById("ask-exercise"));
      for (const question of data.questions) {
        const how = question.varied ? "new numbers" : "the lesson page's own";
        const option = element("option", `${question.id} ${question.title} (${how})`);
        option.value = question.id;
        menu.append(option);
      }
    });
  ask.addEventListener("submit", (event) => {
    event.preventDefault();
    const exercise = /** @type {HTMLSelectElement} */ (document.getElementById("ask-exercise")).value;
    const body = exercise ? { exercise } : {
      question: /** @type {HTMLInputElement} */ (document.getElementById("ask-question")).value,
      options: /** @type {HTMLTextAreaElement} */ (document.getElementById("ask-options")).value.split("\n")
        .map((line) => line.trim()).filter(Boolean),
    };
    pollAction(`/class/api/sessions/${session}/polls`, body);
  });
  // These buttons are enabled only once a poll is shown (showPoll): poll is set when they are pressed.
  /** @type {HTMLButtonElement} */ (document.getElementById("poll-close")).addEventListener("click", () =>
    pollAction(`/class/api/sessions/${session}/polls/${lastRound().id}/close`, {}));
  /** @type {HTMLButtonElement} */ (document.getElementById("poll-again")).addEventListener("click", () =>
    pollAction(`/class/api/sessions/${session}/polls/${lastRound().id}/again`, {}));
  // Shown or hidden on the server, so the projector follows; the dashboard shows it as soon as the server has it.
  /** @type {HTMLButtonElement} */ (document.getElementById("poll-right")).addEventListener("click", async () => {
    const current = /** @type {Poll} */ (poll);
    const reveal = !current.revealed;
    const done = await pollAction(
      `/class/api/sessions/${session}/polls/${lastRound().id}/${reveal ? "reveal" : "hide"}`, {});
    if (done && poll === current) showPoll({ ...current, revealed: reveal });
  });
}

/** @returns {Round} the current poll's last round (a poll is shown: see above) */
function lastRound() {
  return /** @type {Round} */ (/** @type {Poll} */ (poll).rounds.at(-1));
}

