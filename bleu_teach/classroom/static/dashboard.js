// The teacher's dashboard and the projector view: the class's answers per exercise, live (server-sent events).
// Everything a student typed (nicknames) is put on the page as text, never as HTML.
import { send } from "./send.js";

const root = document.getElementById("dashboard");
const session = root.dataset.session;
const names = root.dataset.names === "1";
const VERDICTS = [["correct", "right"], ["misconception", "a named mistake"], ["wrong", "another wrong answer"]];

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

function bar(label, count, total, className) {
  const row = element("div", undefined, "bar-row");
  row.append(element("span", label, "bar-label"));
  const track = element("span", undefined, "bar-track");
  const fill = element("span", undefined, `bar-fill ${className}`);
  fill.style.width = `${total ? (100 * count) / total : 0}%`;
  track.append(fill);
  row.append(track, element("span", `${count}`, "bar-count"));
  return row;
}

let poll = null; // the current poll, as the server last sent it
let rightShown = false;

function showPoll(current) {
  poll = current;
  const view = document.getElementById("poll-view");
  const closeButton = document.getElementById("poll-close");
  const againButton = document.getElementById("poll-again");
  const rightButton = document.getElementById("poll-right");
  if (!current) return;
  const isOpen = current.rounds.at(-1).open;
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

async function pollAction(path, body) {
  const said = document.getElementById("ask-status");
  try {
    await send(path, body);
    said.textContent = "Done.";
  } catch (error) {
    said.textContent = `Not done: ${error.message}`;
  }
}

const ask = document.getElementById("ask");
if (ask) {
  fetch(`/class/api/sessions/${session}/polls/questions`, { credentials: "same-origin" })
    .then((response) => response.json()).then((data) => {
      const menu = document.getElementById("ask-exercise");
      for (const question of data.questions) {
        const option = element("option", `${question.id} ${question.title}`);
        option.value = question.id;
        menu.append(option);
      }
    });
  ask.addEventListener("submit", (event) => {
    event.preventDefault();
    rightShown = false;
    const exercise = document.getElementById("ask-exercise").value;
    const body = exercise ? { exercise } : {
      question: document.getElementById("ask-question").value,
      options: document.getElementById("ask-options").value.split("\n").map((line) => line.trim()).filter(Boolean),
    };
    pollAction(`/class/api/sessions/${session}/polls`, body);
  });
  document.getElementById("poll-close").addEventListener("click", () =>
    pollAction(`/class/api/sessions/${session}/polls/${poll.rounds.at(-1).id}/close`, {}));
  document.getElementById("poll-again").addEventListener("click", () => {
    rightShown = false;
    pollAction(`/class/api/sessions/${session}/polls/${poll.rounds.at(-1).id}/again`, {});
  });
  document.getElementById("poll-right").addEventListener("click", (event) => {
    rightShown = !rightShown;
    event.target.setAttribute("aria-expanded", String(rightShown));
    event.target.textContent = rightShown ? "Hide the right answer" : "Show the right answer";
    showPoll(poll);
  });
}

/** A homework's roster: who has joined, and "Let join again" for a student on a new device (their answers stay). */
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
        const status = document.getElementById("homework-status");
        try {
          await send(`/class/api/sessions/${session}/roster/reopen`, { name: entry.name });
          status.textContent = `${entry.name} can join once more (on a new device); the answers stay theirs.`;
        } catch (error) {
          status.textContent = `Not done: ${error.message}`;
        }
      });
      item.append(" ", again);
    }
    list.append(item);
  }
  box.replaceChildren(element("p", `${joined} of ${homework.roster.length} on the roster have joined.`), list);
}

/** A student the teacher takes out (a fake, a duplicate): asked first; their answers leave the counts, the export
 * keeps them, marked. */
function removeCell(student) {
  const cell = element("td");
  const button = element("button", "Remove");
  button.type = "button";
  button.setAttribute("aria-label", `Remove ${student.nickname} from the session`);
  button.dataset.student = String(student.id);
  button.addEventListener("click", async () => {
    const status = document.getElementById("session-status");
    if (!window.confirm(`Remove ${student.nickname}? Their answers leave the counts (the export keeps them).`)) return;
    try {
      await send(`/class/api/sessions/${session}/students/${student.id}/remove`, {});
      status.textContent = `${student.nickname} was removed; the counts no longer include their answers.`;
    } catch (error) {
      status.textContent = `Not removed: ${error.message}`;
    }
  });
  cell.append(button);
  return cell;
}

function show(data) {
  showPoll(data.poll);
  showHomework(data.homework);
  const answered = data.exercises.reduce((sum, ex) => sum + ex.answered, 0);
  document.getElementById("summary").textContent = `${data.students} joined; ${answered} answer${answered === 1 ? "" : "s"} counted ` +
    `(each student's last answer to each exercise)${data.open ? "" : "; the session is closed"}.`;
  const box = document.getElementById("exercises");
  box.replaceChildren();
  for (const ex of data.exercises) {
    const section = element("section", undefined, "exercise");
    section.append(element("h3", `${ex.id} ${ex.title}`));
    const tries = ex.tries !== undefined ? ` (${ex.tries} tries sent in all; ${data.tries} allowed per student)` : "";
    section.append(element("p", `${ex.answered} answered${ex.late ? `, ${ex.late} late` : ""}${tries}`));
    for (const [verdict, label] of VERDICTS) section.append(bar(label, ex.verdicts[verdict], ex.answered, verdict));
    if (ex.mistakes.length) {
      section.append(element("h4", "The mistakes named"));
      for (const mistake of ex.mistakes) section.append(bar(mistake.name, mistake.count, ex.answered, "misconception"));
    }
    box.append(section);
  }
  if (!names) return;
  if (data.roster === undefined) return;  // a quick update: the roster comes with the next full one (every 2 s)
  const roster = document.getElementById("roster");
  // The table is drawn again: a Remove button that had the keyboard's focus gets it back on its new row.
  const focused = roster.contains(document.activeElement) ? document.activeElement.dataset.student : undefined;
  roster.replaceChildren();
  if (!data.roster.length) {
    roster.append(element("p", "No one has joined yet."));
    return;
  }
  const ids = data.exercises.map((ex) => ex.id);
  const table = element("table");
  const head = element("tr");
  head.append(element("th", "Nickname"), ...ids.map((id) => element("th", id)), element("th", "Remove"));
  for (const cell of head.children) cell.scope = "col";
  table.append(element("thead"));
  table.tHead.append(head);
  const body = element("tbody");
  for (const student of data.roster) {
    const row = element("tr");
    const who = element("th", student.nickname);
    who.scope = "row";
    row.append(who, ...ids.map((_, k) => element("td", { r: "right", m: "mistake", w: "wrong" }[student.verdicts[k]] ?? "–")));
    row.append(removeCell(student));
    body.append(row);
  }
  table.append(body);
  roster.append(table);
  if (focused !== undefined) roster.querySelector(`button[data-student="${CSS.escape(focused)}"]`)?.focus();
}

const query = names ? "" : "?names=0";
const stream = new EventSource(`/class/api/sessions/${session}/events${query}`);
stream.addEventListener("message", (event) => {
  show(JSON.parse(event.data));
  root.dataset.updated = String(Date.now());
});
// The browser reconnects by itself; meanwhile the page says the numbers may be old.
stream.addEventListener("error", () => {
  document.getElementById("summary").textContent = "The server cannot be reached just now: these numbers may be " +
    "old. The page tries again by itself.";
});

document.getElementById("close-session")?.addEventListener("click", async (event) => {
  const status = document.getElementById("session-status");
  try {
    await send(`/class/api/sessions/${session}/close`, {});
    event.target.disabled = true;
    status.textContent = "Closed: no more answers are accepted.";
  } catch (error) {
    status.textContent = `Not closed: ${error.message}`;
  }
});

// Deleting asks first (nothing of the session is kept afterwards).
const deleteButton = document.getElementById("delete-session");
if (deleteButton) {
  const ask = document.getElementById("delete-ask");
  deleteButton.addEventListener("click", () => {
    ask.hidden = false;
    document.getElementById("delete-confirm").focus();
  });
  document.getElementById("delete-cancel").addEventListener("click", () => {
    ask.hidden = true;
    deleteButton.focus();
  });
  document.getElementById("delete-confirm").addEventListener("click", async () => {
    const status = document.getElementById("session-status");
    try {
      await send(`/class/api/sessions/${session}`, undefined, "DELETE");
      stream.close();
      window.location.assign("/class/teach");
    } catch (error) {
      status.textContent = `Not deleted: ${error.message}`;
    }
  });
}
