// The learner's checked answers, kept in this browser's local storage (nothing is sent anywhere): the lesson pages
// write them (lesson_live.js) and the index reads them (progress.js).

export const STORE = "bleu-teach-answers";

/** Every kept answer by exercise id: { answer, verdict, solved, at }; {} when there are none or storage is off. */
export function stored() {
  try {
    const found = JSON.parse(localStorage.getItem(STORE) ?? "{}");
    return found && typeof found === "object" && !Array.isArray(found) ? found : {};
  } catch {
    return {};
  }
}

// The practice questions' records by exercise id: { number, streak: { in_a_row, best, last, mastered, skill },
// streakText }, all of it as the page's Python returned it (lesson_live.js writes it, the index reads it).
export const PRACTICE = "bleu-teach-practice";

/** Every kept practice record by exercise id; {} when there are none or storage is off. */
export function practised() {
  try {
    const found = JSON.parse(localStorage.getItem(PRACTICE) ?? "{}");
    return found && typeof found === "object" && !Array.isArray(found) ? found : {};
  } catch {
    return {};
  }
}
