// The teacher's dashboard and the projector view: the class's answers per exercise, live (server-sent events).
// Everything a student typed (nicknames) is put on the page as text, never as HTML.
import { send } from "./send.js";
import { barWidth, exerciseLine, rosterMark, summaryText } from "./text.js";

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
/**
 * A homework's roster: who has joined (app.py counts_of).
 * @typedef {{ due: string | null, roster: { name: string, joined: boolean }[] }} Homework
 */
/** @typedef {{ id: number, nickname: string, verdicts: string }} Student a roster row: a letter per exercise */
/**
 * What the dashboard's feed sends (app.py counts_of): the answers' counts, the poll, and the roster (not in a
 * quick update, nor on the projector).
 * @typedef {import("./text.js").Summary & {
 *   exercises: import("./text.js").ExerciseCounts[], code: string, poll: Poll | null, tries?: number,
 *   homework?: Homework, roster?: Student[]
 * }} Counts
 */

const root = /** @type {HTMLElement} */ (document.getElementById("dashboard"));
const session = root.dataset.session;
const names = root.dataset.names === "1";
/** @type {[keyof import("./text.js").ExerciseCounts["verdicts"], string][]} the verdicts' bars, in order */
const VERDICTS = [["correct", "right"], ["misconception", "a named mistake"], ["wrong", "another wrong answer"]];

/**
 * A new element, with its text and its class if given.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [text]
 * @param {string} [className]
 * @returns {HTMLElementTagNameMap[K]}
 */
function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

/**
 * A labelled bar: count of total, and the count.
 * @param {string} label
 * @param {number} count
 * @param {number} total
 * @param {string} className
 * @returns {HTMLElement}
 */
function bar(label, count, total, className) {
  const row = element("div", undefined, "bar-row");
  row.append(element("span", label, "bar-label"));
  const track = element("span", undefined, "bar-track");
  const fill = element("span", undefined, `bar-fill ${className}`);
  fill.style.width = barWidth(count, total);
  track.append(fill);
  row.append(track, element("span", `${count}`, "bar-count"));
  return row;
}

/** @type {Poll | null} */
let poll = null; // the current poll, as the server last sent it
let rightShown = false;

/**
 * The current poll, its rounds' votes, and the presenter's buttons for it (none on the projector).
 * @param {Poll | null} current
 */
function showPoll(current) {
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
  view.replaceChildren(element("p", current.question, "poll-question"));
  const list = element("ul", undefined, "poll-options");
  for (const [letter, text] of current.options) list.append(element("li", `${letter}: ${text}`));
  view.append(list);
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
  view.append(rounds);
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

const ask = document.getElementById("ask");
if (ask) {
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

/**
 * A homework's roster: who has joined, and "Let join again" for a student on a new device (their answers stay).
 * @param {Homework | undefined} homework
 */
function showHomework(homework) {
  const box = document.getElementById("homework-roster");
  if (!box || !homework) return;
  if (!homework.roster.length) {
    box.replaceChildren(element("p", "No roster: anyone with the code can join, under any nickname."));
    return;
  }
  const joined = homework.roster.filter((entry) => entry.joined).length;
  const list = element("ul", undefined, "homework-roster");
  for (const entry of homework.roster) {
    const item = element("li", `${entry.name}: ${entry.joined ? "joined" : "not yet"}`);
    if (entry.joined) {
      const again = element("button", "Let join again");
      again.type = "button";
      again.setAttribute("aria-label", `Let ${entry.name} join again`);
      again.addEventListener("click", async () => {
        const status = /** @type {HTMLElement} */ (document.getElementById("homework-status"));
        try {
          await send(`/class/api/sessions/${session}/roster/reopen`, { name: entry.name });
          status.textContent = `${entry.name} can join once more (on a new device); the answers stay theirs.`;
        } catch (error) {
          status.textContent = `Not done: ${/** @type {Error} */ (error).message}`;
        }
      });
      item.append(" ", again);
    }
    list.append(item);
  }
  box.replaceChildren(element("p", `${joined} of ${homework.roster.length} on the roster have joined.`), list);
}

/**
 * A student the teacher takes out (a fake, a duplicate): asked first; their answers leave the counts, the export
 * keeps them, marked.
 * @param {Student} student
 * @returns {HTMLTableCellElement}
 */
function removeCell(student) {
  const cell = element("td");
  const button = element("button", "Remove");
  button.type = "button";
  button.setAttribute("aria-label", `Remove ${student.nickname} from the session`);
  button.dataset.student = String(student.id);
  button.addEventListener("click", async () => {
    const status = /** @type {HTMLElement} */ (document.getElementById("session-status"));
    if (!window.confirm(`Remove ${student.nickname}? Their answers leave the counts (the export keeps them).`)) return;
    try {
      await send(`/class/api/sessions/${session}/students/${student.id}/remove`, {});
      status.textContent = `${student.nickname} was removed; the counts no longer include their answers.`;
    } catch (error) {
      status.textContent = `Not removed: ${/** @type {Error} */ (error).message}`;
    }
  });
  cell.append(button);
  return cell;
}

/**
 * The feed's latest counts: the poll, the roster, each exercise's bars, and the students' table.
 * @param {Counts} data
 */
function show(data) {
  showPoll(data.poll);
  showHomework(data.homework);
  /** @type {HTMLElement} */ (document.getElementById("summary")).textContent = summaryText(data);
  const box = /** @type {HTMLElement} */ (document.getElementById("exercises"));
  box.replaceChildren();
  for (const ex of data.exercises) {
    const section = element("section", undefined, "exercise");
    section.append(element("h3", `${ex.id} ${ex.title}`));
    section.append(element("p", exerciseLine(ex, data.tries)));
    for (const [verdict, label] of VERDICTS) section.append(bar(label, ex.verdicts[verdict], ex.answered, verdict));
    if (ex.mistakes.length) {
      section.append(element("h4", "The mistakes named"));
      for (const mistake of ex.mistakes) section.append(bar(mistake.name, mistake.count, ex.answered, "misconception"));
    }
    box.append(section);
  }
  if (!names) return;
  if (data.roster === undefined) return;  // a quick update: the roster comes with the next full one (every 2 s)
  const roster = /** @type {HTMLElement} */ (document.getElementById("roster"));
  // The table is drawn again: a Remove button that had the keyboard's focus gets it back on its new row.
  const focused = roster.contains(document.activeElement)
    ? /** @type {HTMLElement} */ (document.activeElement).dataset.student : undefined;
  roster.replaceChildren();
  if (!data.roster.length) {
    roster.append(element("p", "No one has joined yet."));
    return;
  }
  const ids = data.exercises.map((ex) => ex.id);
  const table = element("table");
  const head = element("tr");
  head.append(element("th", "Nickname"), ...ids.map((id) => element("th", id)), element("th", "Remove"));
  for (const cell of head.children) /** @type {HTMLTableCellElement} */ (cell).scope = "col";
  table.append(element("thead"));
  /** @type {HTMLTableSectionElement} */ (table.tHead).append(head);
  const body = element("tbody");
  for (const student of data.roster) {
    const row = element("tr");
    const who = element("th", student.nickname);
    who.scope = "row";
    row.append(who, ...ids.map((_, k) => element("td", rosterMark(student.verdicts[k]))));
    row.append(removeCell(student));
    body.append(row);
  }
  table.append(body);
  roster.append(table);
  if (focused !== undefined) {
    const button = /** @type {HTMLButtonElement | null} */ (
      roster.querySelector(`button[data-student="${CSS.escape(focused)}"]`));
    button?.focus();
  }
}

const query = names ? "" : "?names=0";
const stream = new EventSource(`/class/api/sessions/${session}/events${query}`);
stream.addEventListener("message", (event) => {
  show(JSON.parse(event.data));
  root.dataset.updated = String(Date.now());
});
// The browser reconnects by itself; meanwhile the page says the numbers may be old.
stream.addEventListener("error", () => {
  /** @type {HTMLElement} */ (document.getElementById("summary")).textContent = "The server cannot be reached just " +
    "now: these numbers may be old. The page tries again by itself.";
});

document.getElementById("close-session")?.addEventListener("click", async (event) => {
  const status = /** @type {HTMLElement} */ (document.getElementById("session-status"));
  try {
    await send(`/class/api/sessions/${session}/close`, {});
    /** @type {HTMLButtonElement} */ (event.target).disabled = true;
    status.textContent = "Closed: no more answers are accepted.";
  } catch (error) {
    status.textContent = `Not closed: ${/** @type {Error} */ (error).message}`;
  }
});

// Deleting asks first (nothing of the session is kept afterwards).
const deleteButton = document.getElementById("delete-session");
if (deleteButton) {
  const ask = /** @type {HTMLElement} */ (document.getElementById("delete-ask"));
  deleteButton.addEventListener("click", () => {
    ask.hidden = false;
    /** @type {HTMLButtonElement} */ (document.getElementById("delete-confirm")).focus();
  });
  /** @type {HTMLButtonElement} */ (document.getElementById("delete-cancel")).addEventListener("click", () => {
    ask.hidden = true;
    deleteButton.focus();
  });
  /** @type {HTMLButtonElement} */ (document.getElementById("delete-confirm")).addEventListener("click", async () => {
    const status = /** @type {HTMLElement} */ (document.getElementById("session-status"));
    try {
      await send(`/class/api/sessions/${session}`, undefined, "DELETE");
      stream.close();
      window.location.assign("/class/teach");
    } catch (error) {
      status.textContent = `Not deleted: ${/** @type {Error} */ (error).message}`;
    }
  });
}
