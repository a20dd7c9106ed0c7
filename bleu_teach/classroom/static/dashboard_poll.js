// The dashboard's poll: the current question, each round's votes (round 2 beside round 1), and the presenter's
// buttons to ask, close, ask again and show the right answer. Everything typed is put on the page as text.
import { bar, element } from "./dom.js";
import { send } from "./send.js";

/**
 * A round of the current poll: how many voted, and each option's votes once it is closed (polls.py view).
 * @typedef {{ id: number, round: number, open: boolean, voted: number, counts: Record<string, number> | null }} Round
 */
/**
 * The current poll as the presenter sees it (polls.py view): a bank question's right answer once closed.
 * @typedef {object} Poll
 * @property {number} id
 * @property {string} question
 * @property {[string, string][]} options (letter, text)
 * @property {number} round
 * @property {boolean} open
 * @property {string} exercise
 * @property {Round[]} rounds
 * @property {string} [right]
 */
/** @type {Poll | null} */
let poll = null; // the current poll, as the server last sent it
let rightShown = false;

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
  if (closeButton) {
    closeButton.disabled = !isOpen;
    againButton.disabled = isOpen || current.round !== 1;
    rightButton.disabled = isOpen || !current.right;
  }
  view.replaceChildren(...pollView(current));
  if (current.right && rightShown) {
    const answer = element("p", `The right answer: ${current.right}`, "poll-right");
    answer.id = "poll-answer";
    view.append(answer);
  }
}

/**
 * Ask, close or repeat a poll, and say whether it was done.
 * @param {string} path
 * @param {object} body
 */
async function pollAction(path, body) {
  const said = /** @type {HTMLElement} */ (document.getElementById("ask-status"));
  try {
    await send(path, body);
    said.textContent = "Done.";
  } catch (error) {
    said.textContent = `Not done: ${/** @type {Error} */ (error).message}`;
  }
}

/**
 * The presenter's poll form and buttons (none on the projector): ask a bank question or one typed, close the round,
 * ask again, show or hide the right answer.
 * @param {string | undefined} session
 */
export function startPolls(session) {
  const ask = document.getElementById("ask");
  if (!ask) return;
  fetch(`/class/api/sessions/${session}/polls/questions`, { credentials: "same-origin" })
    .then((response) => response.json()).then((/** @type {{ questions: { id: string, title: string }[] }} */ data) => {
      const menu = /** @type {HTMLSelectElement} */ (document.getElementById("ask-exercise"));
      for (const question of data.questions) {
        const option = element("option", `${question.id} ${question.title}`);
        option.value = question.id;
        menu.append(option);
      }
    });
  ask.addEventListener("submit", (event) => {
    event.preventDefault();
    rightShown = false;
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
  /** @type {HTMLButtonElement} */ (document.getElementById("poll-again")).addEventListener("click", () => {
    rightShown = false;
    pollAction(`/class/api/sessions/${session}/polls/${lastRound().id}/again`, {});
  });
  /** @type {HTMLButtonElement} */ (document.getElementById("poll-right")).addEventListener("click", (event) => {
    const button = /** @type {HTMLButtonElement} */ (event.target);
    rightShown = !rightShown;
    button.setAttribute("aria-expanded", String(rightShown));
    button.textContent = rightShown ? "Hide the right answer" : "Show the right answer";
    showPoll(poll);
  });
}

/** @returns {Round} the current poll's last round (a poll is shown: see above) */
function lastRound() {
  return /** @type {Round} */ (/** @type {Poll} */ (poll).rounds.at(-1));
}

