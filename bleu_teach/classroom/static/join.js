// The join page: a code and a nickname; the server keeps the student's token as a cookie.
import { CLASS_KEY, OUTBOX_KEY } from "./names.js";
import { send } from "./send.js";

const form = /** @type {HTMLFormElement} */ (document.getElementById("join"));
const said = /** @type {HTMLElement} */ (document.getElementById("joined"));
/** @type {(name: string) => string} the value of the form's box of this name */
const typed = (name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name)).value;
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  said.textContent = "Joining…";
  try {
    const joined = /** @type {{ session: string, nickname: string, kind: string }} */ (
      await send("/class/api/join", { code: typed("code"), nickname: typed("nickname") }));
    try { // the lesson pages read this (the site's classroom.js) and send each checked answer to the session
      localStorage.setItem(CLASS_KEY, JSON.stringify({ session: joined.session, nickname: joined.nickname }));
      localStorage.removeItem(OUTBOX_KEY); // answers of an earlier session are not this one's
    } catch { /* storage off: the lesson pages cannot know this browser joined */ }
    said.textContent = `You have joined “${joined.session}” as ${joined.nickname}. Open the lessons: your answers ` +
      "are sent to the class as well as checked.";
    if (joined.kind === "homework") {
      said.textContent = `You have joined the homework “${joined.session}” as ${joined.nickname}. `;
      const homework = document.createElement("a");
      homework.href = "/class/homework";
      homework.textContent = "Open your questions";
      said.append(homework);
      return;
    }
    const link = document.createElement("a");
    link.href = "/index.html";
    link.textContent = "Go to the lessons";
    const poll = document.createElement("a");
    poll.href = "/class/poll";
    poll.textContent = "answer the presenter's questions";
    said.append(" ", link, " or ", poll, ".");
  } catch (error) {
    said.textContent = `Not joined: ${/** @type {Error} */ (error).message}`;
  }
});
