// Sending a joined student's answers to the classroom server, from the lesson pages (lesson_live.js).
//
// Only when this browser joined a session on the server that serves the site (its join page sets CLASS_KEY): on a
// static copy of the site nothing is sent anywhere.  Each answer gets an id here and waits in the outbox (local
// storage) until the server acknowledges it; the server keeps each id once, so sending again after a lost
// connection, a reload or a closed tab counts nothing twice.

import { readJson, writeJson } from "./answers.js";
import { CLASS_KEY, OUTBOX_KEY } from "./names.js";
import { newId, write } from "./request.js";

/** @typedef {"sent" | "waiting" | "closed" | "left" | "refused"} Outcome what became of an answer sent */
/** @typedef {{ id: string, exercise: string, answer: string }} OutboxItem an answer waiting for the server */
/** @type {Promise<Outcome> | null} */
let sending = null;

/**
 * The class joined in this browser ({ session, nickname }), or null.
 * @returns {{ session: string, nickname: string } | null}
 */
export function joinedClass() {
  const joined = readJson(CLASS_KEY, null);
  return joined && typeof joined.session === "string" ? joined : null;
}

/** @returns {OutboxItem[]} what waits to be sent, oldest first */
function outbox() {
  const kept = readJson(OUTBOX_KEY, []);
  return Array.isArray(kept) ? kept : [];
}

/** @param {OutboxItem[]} list */
function keep(list) {
  writeJson(OUTBOX_KEY, list); // storage off: sent once, not kept
}

/**
 * Send what waits in the outbox, oldest first; resolves to what became of the last one asked about.
 * @returns {Promise<Outcome>}
 */
export async function flush() {
  if (sending) return sending;
  sending = (async () => {
    /** @type {Outcome} */
    let said = "sent";
    for (const item of outbox()) {
      let response;
      try {
        response = await write("/class/api/answers", item);
      } catch {
        return "waiting"; // offline: kept, sent when the connection is back
      }
      if (response.status === 429 || response.status >= 500) return "waiting";
      if (response.status === 401) { // the session was deleted, or this browser's cookie is gone
        try { localStorage.removeItem(CLASS_KEY); } catch { /* nothing kept */ }
        keep([]);
        return "left";
      }
      said = response.status === 409 ? "closed" : response.ok ? "sent" : "refused";
      keep(outbox().filter((waiting) => waiting.id !== item.id));
    }
    return said;
  })();
  try {
    return await sending;
  } finally {
    sending = null;
  }
}

/**
 * Queue a checked answer for the class and send it; resolves to a sentence for the learner (or "" if not joined).
 * @param {string} exercise
 * @param {string} answer
 * @returns {Promise<string>}
 */
export async function sendToClass(exercise, answer) {
  const joined = joinedClass();
  if (!joined) return "";
  keep([...outbox(), { id: newId(), exercise, answer }]);
  const result = await flush();
  return {
    sent: `Sent to your class (${joined.session}).`,
    waiting: "Not sent to your class yet: it is kept in this browser and sent when the connection is back.",
    closed: "Your class's session is closed: this answer was not sent.",
    left: "Your class's session is over: answers are no longer sent.",
    refused: "The class did not take this answer.",
  }[result];
}

if (joinedClass()) {
  window.addEventListener("online", () => flush());
  if (outbox().length) flush();
  setInterval(() => { if (outbox().length) flush(); }, 15_000);
}
