// The teacher page: create a session; its code and its teacher link are shown once.
import { send } from "./send.js";

const form = /** @type {HTMLFormElement} */ (document.getElementById("create"));
const said = /** @type {HTMLElement} */ (document.getElementById("created"));
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const title = /** @type {HTMLInputElement} */ (form.elements.namedItem("title")).value;
    const made = /** @type {{ title: string, code: string, teacher_link: string }} */ (
      await send("/class/api/sessions", { title }));
    said.replaceChildren();
    const line = document.createElement("p");
    line.textContent = `Created “${made.title}”: students join with the code ${made.code}. Your teacher link ` +
      "(keep it; it is shown only now): ";
    const link = document.createElement("a");
    link.href = made.teacher_link;
    link.textContent = new URL(made.teacher_link, window.location.href).href;
    line.append(link);
    said.append(line);
  } catch (error) {
    said.textContent = `Not created: ${/** @type {Error} */ (error).message}`;
  }
});
