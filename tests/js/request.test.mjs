// bleu_teach/classroom/static/request.js (the site's request.js is its copy: tests/test_shared_names.py): how a
// page writes to the classroom server, and the ids of answers and votes, with fetch and the random bytes stood
// in for. The ids' bytes are fixed, so each id is worked out by hand.
import assert from "node:assert/strict";
import { afterEach, describe, mock, test } from "node:test";

import { newId, write } from "../../bleu_teach/classroom/static/request.js";
import { fakeFetch } from "./fakes.mjs";

/** crypto.getRandomValues filling every byte with fill(index). */
function randomBytes(fill) {
  mock.method(globalThis.crypto, "getRandomValues", (bytes) => {
    bytes.forEach((_, k) => { bytes[k] = fill(k); });
    return bytes;
  });
}

afterEach(() => {
  mock.restoreAll();
  delete globalThis.fetch;
});

describe("newId", () => {
  test("a version 4 UUID: 16 bytes in hex, the version nibble 4, the variant bits 10", () => {
    randomBytes(() => 0x00);
    assert.equal(newId(), "00000000-0000-4000-8000-000000000000");
    randomBytes(() => 0xff);
    assert.equal(newId(), "ffffffff-ffff-4fff-bfff-ffffffffffff"); // byte 6: 0x4f, byte 8: 0xbf
    randomBytes((k) => k);
    assert.equal(newId(), "00010203-0405-4607-8809-0a0b0c0d0e0f"); // byte 6: 0x46, byte 8: 0x88
    randomBytes((k) => 0xa0 + k);
    assert.equal(newId(), "a0a1a2a3-a4a5-46a7-a8a9-aaabacadaeaf"); // byte 6: 0xa6 -> 0x46, byte 8: 0xa8 stays
  });

  test("random bytes from the browser: 36 characters in the UUID's shape, the server's longest id", () => {
    const id = newId();
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(id.length, 36); // bleu_teach.classroom.schema.ANSWER_ID_LENGTH
  });
});

describe("write", () => {
  test("a POST of the body as JSON, with the write header and the cookie; resolves to the response", async () => {
    const { fetch, calls } = fakeFetch({ status: 201, body: {} });
    globalThis.fetch = fetch;
    const response = await write("/class/api/answers", { id: "a", exercise: "1.2", answer: "2/7" });
    assert.equal(response.status, 201);
    assert.deepEqual(calls, [{
      url: "/class/api/answers",
      options: {
        method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json", "X-Bleu-Teach": "1" },
        body: '{"id":"a","exercise":"1.2","answer":"2/7"}',
      },
    }]);
  });

  test("another method, and no body when none is given", async () => {
    const { fetch, calls } = fakeFetch({ status: 204 });
    globalThis.fetch = fetch;
    await write("/class/api/sessions/4", undefined, "DELETE");
    assert.deepEqual(calls[0].options, {
      method: "DELETE", credentials: "same-origin", headers: { "Content-Type": "application/json", "X-Bleu-Teach": "1" },
      body: undefined,
    });
  });

  test("a refusal is a response, not an error: the caller reads its status", async () => {
    globalThis.fetch = fakeFetch({ status: 409, body: { error: "closed" } }).fetch;
    assert.equal((await write("/class/api/answers", {})).status, 409);
  });

  test("offline: rejects, as fetch does", async () => {
    globalThis.fetch = fakeFetch(new TypeError("Failed to fetch")).fetch;
    await assert.rejects(write("/class/api/answers", {}), TypeError);
  });
});
