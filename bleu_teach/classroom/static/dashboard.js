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

function show(data) {
  const answered = data.exercises.reduce((sum, ex) => sum + ex.answered, 0);
  document.getElementById("summary").textContent = `${data.students} joined; ${answered} answer${answered === 1 ? "" : "s"} counted ` +
    `(each student's last answer to each exercise)${data.open ? "" : "; the session is closed"}.`;
  const box = document.getElementById("exercises");
  box.replaceChildren();
  for (const ex of data.exercises) {
    const section = element("section", undefined, "exercise");
    section.append(element("h2", `${ex.id} ${ex.title}`));
    section.append(element("p", `${ex.answered} answered${ex.late ? `, ${ex.late} late` : ""}`));
    for (const [verdict, label] of VERDICTS) section.append(bar(label, ex.verdicts[verdict], ex.answered, verdict));
    if (ex.mistakes.length) {
      section.append(element("h3", "The mistakes named"));
      for (const mistake of ex.mistakes) section.append(bar(mistake.name, mistake.count, ex.answered, "misconception"));
    }
    box.append(section);
  }
  if (!names) return;
  const roster = document.getElementById("roster");
  roster.replaceChildren();
  if (!data.roster.length) {
    roster.append(element("p", "No one has joined yet."));
    return;
  }
  const ids = data.exercises.map((ex) => ex.id);
  const table = element("table");
  const head = element("tr");
  head.append(element("th", "Nickname"), ...ids.map((id) => element("th", id)));
  for (const cell of head.children) cell.scope = "col";
  table.append(element("thead"));
  table.tHead.append(head);
  const body = element("tbody");
  for (const student of data.roster) {
    const row = element("tr");
    const who = element("th", student.nickname);
    who.scope = "row";
    row.append(who, ...ids.map((id) => element("td", { correct: "right", misconception: "mistake", wrong: "wrong" }[student.verdicts[id]] ?? "–")));
    body.append(row);
  }
  table.append(body);
  roster.append(table);
}

const query = names ? "" : "?names=0";
const stream = new EventSource(`/class/api/sessions/${session}/events${query}`);
stream.addEventListener("message", (event) => {
  show(JSON.parse(event.data));
  root.dataset.updated = String(Date.now());
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
