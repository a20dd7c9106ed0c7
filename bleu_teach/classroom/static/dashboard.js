// The teacher's dashboard: the class's answers per exercise, live (server-sent events), the students, the polls
// and the projector link. Everything a student typed (nicknames) is put on the page as text, never as HTML.
import { showPoll, startPolls } from "./dashboard_poll.js";
import { element, exerciseSection } from "./dom.js";
import { startProjectorLink } from "./projector_link.js";
import { send } from "./send.js";
import { rosterEntryText, rosterMark, rosterSummaryText, summaryText } from "./text.js";

/**
 * A homework's roster: who has joined, and whose student the teacher removed (app.py counts_of).
 * @typedef {{ due: string | null, roster: import("./text.js").RosterEntry[] }} Homework
 */
/** @typedef {{ id: number, nickname: string, verdicts: string }} Student a roster row: a letter per exercise */
/**
 * What the dashboard's feed sends (app.py counts_of): the answers' counts, the poll, and the roster (not in a
 * quick update, nor on the projector: projector.js).
 * @typedef {import("./text.js").Summary & {
 *   exercises: import("./text.js").ExerciseCounts[], code: string, poll: import("./dashboard_poll.js").Poll | null, tries?: number,
 *   homework?: Homework, roster?: Student[]
 * }} Counts
 */

const root = /** @type {HTMLElement} */ (document.getElementById("dashboard"));
const session = root.dataset.session;

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
  const list = element("ul", undefined, "homework-roster");
  for (const entry of homework.roster) {
    const item = element("li", rosterEntryText(entry));
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
  box.replaceChildren(element("p", rosterSummaryText(homework.roster)), list);
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
  box.replaceChildren(...data.exercises.map((ex) => exerciseSection(ex, data.tries)));
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

startPolls(session);
startProjectorLink();

const stream = new EventSource(`/class/api/sessions/${session}/events`);
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
