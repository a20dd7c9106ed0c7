// A student's phone during a poll: the open question, one vote (changeable until the presenter closes it).
// The page asks every two seconds whether a question is open; the question and the options are put on the page
// as text.
import { newId } from "./request.js";
import { send } from "./send.js";
import { closedText } from "./text.js";

/**
 * What the server says of the open question (poll_routes.py): the poll as a phone may see it (polls.py public),
 * or null when none is open, and this student's vote.
 * @typedef {object} PollState
 * @property {{ id: number, question: string, options: [string, string][], round: number, open: boolean } | null} poll
 * @property {string | null} [mine] the option this student voted for
 * @property {string} session the session's title
 */

const state = /** @type {HTMLElement} */ (document.getElementById("poll-state"));
const form = /** @type {HTMLFormElement} */ (document.getElementById("vote"));
const question = /** @type {HTMLElement} */ (document.getElementById("poll-question"));
const options = /** @type {HTMLElement} */ (document.getElementById("poll-options"));
const voted = /** @type {HTMLElement} */ (document.getElementById("voted"));
/** @type {{ id: number } | null} */
let shown = null; // the poll on the page: { id, round }

/** @param {PollState} data */
function show(data) {
  const poll = data.poll;
  if (!poll) {
    if (shown) { // the question just closed
      voted.textContent = closedText(voted.textContent);
    }
    shown = null;
    form.hidden = true;
    state.textContent = `No question is open in “${data.session}” just now: this page shows the next one as soon ` +
      "as the presenter asks it.";
    return;
  }
  if (shown && shown.id === poll.id) return; // the same question: keep what the student is choosing
  shown = { id: poll.id };
  state.textContent = poll.round > 1 ? "The same question again, after your discussion: vote again." : "";
  question.textContent = poll.question;
  options.replaceChildren();
  for (const [letter, text] of poll.options) {
    const row = document.createElement("div");
    row.className = "choice";
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "choice";
    input.value = letter;
    input.id = `choice-${letter}`;
    input.checked = data.mine === letter;
    const label = document.createElement("label");
    label.htmlFor = input.id;
    label.textContent = `${letter}: ${text}`;
    row.append(input, label);
    options.append(row);
  }
  voted.textContent = data.mine ? `Your vote: ${data.mine}. You can change it until the question closes.` : "";
  form.hidden = false;
}

async function look() {
  try {
    const response = await fetch("/class/api/poll", { credentials: "same-origin" });
    const data = await response.json();
    if (response.status === 401) {
      state.textContent = "Join the session first (the link below), then come back to this page.";
      form.hidden = true;
      return;
    }
    show(data);
  } catch {
    state.textContent = "The classroom server cannot be reached just now; this page tries again.";
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const choice = /** @type {RadioNodeList | HTMLInputElement | null} */ (form.elements.namedItem("choice"))?.value;
  if (!choice) {
    voted.textContent = "Choose one of the options first.";
    return;
  }
  try {
    await send("/class/api/poll/vote", { poll: /** @type {{ id: number }} */ (shown).id, id: newId(), choice });
    voted.textContent = `Your vote: ${choice}. You can change it until the question closes.`;
  } catch (error) {
    voted.textContent = `Not counted: ${/** @type {Error} */ (error).message}`;
  }
});

look();
setInterval(look, 2000);
