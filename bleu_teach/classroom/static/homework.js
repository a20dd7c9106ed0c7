// A student's homework: their own questions (drawn on the server), one form each. An answer goes to the server,
// which checks it with this student's variant and says only whether it is right and which mistake it looks like:
// the right answer never comes to this page. Everything from the server is put on the page as text.
import { newId } from "./request.js";
import { element } from "./dom.js";
import { send } from "./send.js";
import { lateText, triesText, verdictText } from "./text.js";

/**
 * One of the student's questions (homework_pages.py questions): its text, how to give the answer, the last answer
 * given and its verdict, and the tries left.
 * @typedef {object} Question
 * @property {string} exercise
 * @property {string} title
 * @property {string} question
 * @property {string} answer how to give the answer (the box's label)
 * @property {(import("./text.js").HomeworkVerdict & { answer: string }) | null} last
 * @property {number} tries_left
 */

const state = /** @type {HTMLElement} */ (document.getElementById("homework-state"));
const box = /** @type {HTMLElement} */ (document.getElementById("questions"));

/**
 * A question's section: its text, the answer box and Check, and the feedback.
 * @param {Question} item
 * @param {number} number
 * @param {boolean} open whether the homework still takes this student's answers
 * @returns {HTMLElement}
 */
function question(item, number, open) {
  const section = element("section", undefined, "homework-question");
  const heading = element("h2", `Question ${number}`);
  heading.id = `q${number}`;
  section.setAttribute("aria-labelledby", heading.id);
  section.append(heading, element("p", item.question, "homework-text"));
  const form = element("form");
  form.noValidate = true;
  const label = element("label", `Your answer (${item.answer})`);
  label.htmlFor = `a${number}`;
  const input = element("input");
  input.id = `a${number}`;
  input.name = "answer";
  input.autocomplete = "off";
  input.spellcheck = false;
  input.maxLength = 200;
  if (item.last) input.value = item.last.answer;
  const button = element("button", "Check");
  button.type = "submit";
  const feedback = element("p", (item.last ? verdictText(item.last) : "") + triesText(item.tries_left),
                           "homework-feedback");
  feedback.setAttribute("aria-live", "polite");
  form.append(label, " ", input, " ", button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const result = /** @type {import("./text.js").HomeworkVerdict & { tries_left: number }} */ (
        await send("/class/api/homework/answer", { id: newId(), exercise: item.exercise, answer: input.value }));
      feedback.textContent = verdictText(result) + triesText(result.tries_left);
      feedback.dataset.verdict = result.verdict;
      if (result.tries_left === 0) usedUp();
    } catch (error) {
      feedback.textContent = `Not taken: ${/** @type {Error} */ (error).message}`;
    }
  });
  // No tries left, or the homework closed for this student: the answer box and Check stay on the page, read-only,
  // with the last answer in it.
  function usedUp() {
    input.readOnly = true;
    button.disabled = true;
  }
  if (item.tries_left === 0 || !open) usedUp();
  section.append(form, feedback);
  return section;
}

async function load() {
  const response = await fetch("/class/api/homework", { credentials: "same-origin" });
  const data = await response.json();
  if (!response.ok) {
    state.textContent = data.error ?? "This homework cannot be shown.";
    return;
  }
  /** @type {HTMLElement} */ (document.getElementById("homework-title")).textContent = `Homework: ${data.title}`;
  /** @type {Intl.DateTimeFormatOptions} */
  const shown = { weekday: "long", year: "numeric", month: "long", day: "numeric", hour: "2-digit", minute: "2-digit",
    timeZoneName: "short" };  // the due time with its zone
  const due = data.due ? ` Due ${new Date(data.due).toLocaleString(undefined, shown)}` +
    `${data.extended ? " (your extension)" : ""}.` : "";
  state.textContent = `${data.nickname}, these questions are yours (other students have other sentences).${due} ` +
    `Check tells you whether an answer is right; each question has ${data.tries} tries. ` +
    lateText(data.late, data.open);
  /** @type {Question[]} */
  const questions = data.questions;
  box.replaceChildren(...questions.map((item, k) => question(item, k + 1, data.open)));
}

load();
