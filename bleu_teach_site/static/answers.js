// The learner's checked answers, kept in this browser's local storage (nothing is sent anywhere): the lesson pages
// write them (lesson_live.js) and the index reads them (progress.js).

export const STORE = "bleu-teach-answers";

/** Every kept answer by exercise id: { answer, verdict, solved, at }; {} when there are none or storage is off. */
export function stored() {
  try {
    const found = JSON.parse(localStorage.getItem(STORE) ?? "{}");
    return found && typeof found === "object" ? found : {};
  } catch {
    return {};
  }
}
