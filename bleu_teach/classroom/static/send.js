// One way to write to the classroom server and read its answer: request.js's write (JSON, with the header the
// server asks of its own pages), the answer read as JSON.
import { write } from "./request.js";

/**
 * Send body (as JSON) to path; resolves to the server's JSON answer, rejects with its error's words.
 * @param {string} path
 * @param {object} [body] nothing for a request without a body (DELETE)
 * @param {string} [method]
 * @returns {Promise<unknown>} the answer: the caller knows the shape its path answers with
 */
export async function send(path, body, method = "POST") {
  const response = await write(path, body, method);
  /** @type {{ error?: string }} */
  let answer = {};
  try { answer = await response.json(); } catch { /* no JSON body */ }
  if (!response.ok) throw new Error(answer.error ?? `the server answered ${response.status}`);
  return answer;
}
