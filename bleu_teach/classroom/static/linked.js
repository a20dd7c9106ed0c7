// The page a personal link's join answers with: this browser is in. Kept as the join page keeps it (CLASS_KEY),
// so that the lesson pages send each checked answer to the session; then a homework's questions are opened.
import { CLASS_KEY, OUTBOX_KEY } from "./names.js";

const joined = /** @type {HTMLElement} */ (document.getElementById("joined"));
try {
  const kept = { session: joined.dataset.session || "", nickname: joined.dataset.nickname || "" };
  localStorage.setItem(CLASS_KEY, JSON.stringify(kept));
  localStorage.removeItem(OUTBOX_KEY); // answers of an earlier session are not this one's
} catch { /* storage off: the lesson pages cannot know this browser joined */ }
if (joined.dataset.next) location.replace(joined.dataset.next);
