// A copy of bleu_teach/classroom/static/request.js, written by scripts/shared_names.py: do not edit. Edit
// that file, then run python scripts/shared_names.py (tests/test_shared_names.py fails while this copy differs).
// How a page writes to the classroom server, for the server's own pages (send.js, homework.js, poll.js) and the
// lesson pages (the site's classroom.js, which imports the site's copy of this file): JSON, with the header the
// server asks of a write (bleu_teach.classroom.guard refuses one without it), and an id for each answer or vote.
import { WRITE_HEADER, WRITE_HEADER_VALUE } from "./names.js";

/**
 * Send body (as JSON) to path on this server, with its cookie and the write header; resolves to the response
 * (rejects only when the server cannot be reached).
 * @param {string} path
 * @param {unknown} [body] nothing for a request without a body (DELETE)
 * @param {string} [method]
 * @returns {Promise<Response>}
 */
export function write(path, body, method = "POST") {
  return fetch(path, {
    method, credentials: "same-origin",
    headers: { "Content-Type": "application/json", [WRITE_HEADER]: WRITE_HEADER_VALUE },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/**
 * An id for an answer or a vote, which the server keeps once (an answer sent again after a lost connection counts
 * once): a version 4 UUID, as the notebooks' client sends (uuid.uuid4). The server takes any text of at most 36
 * characters (schema.ANSWER_ID_LENGTH); crypto.randomUUID needs https, and a classroom network may be plain http.
 * @returns {string}
 */
export function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
