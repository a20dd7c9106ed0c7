// The join page: a code and a nickname; the server keeps the student's token as a cookie.
import { send } from "./send.js";

const form = document.getElementById("join");
const said = document.getElementById("joined");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  said.textContent = "Joining…";
  try {
    const joined = await send("/class/api/join", { code: form.elements.code.value, nickname: form.elements.nickname.value });
    said.textContent = `You have joined “${joined.session}” as ${joined.nickname}. Open the lessons: your answers ` +
      "are sent to the class as well as checked.";
    const link = document.createElement("a");
    link.href = "/index.html";
    link.textContent = "Go to the lessons";
    said.append(" ", link);
  } catch (error) {
    said.textContent = `Not joined: ${error.message}`;
  }
});
