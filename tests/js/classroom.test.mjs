// bleu_teach_site/static/classroom.js: a joined student's answers sent to the classroom server. The requests'
// bodies and what the learner is told for each answer of the server, with local storage and fetch stood in for
// (tests/js/fakes.mjs). The ids' bytes are fixed (request.js newId: tests/js/request.test.mjs).
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, mock, test } from "node:test";

import { flush, joinedClass, sendToClass } from "../../bleu_teach_site/static/classroom.js";
import { CLASS_KEY as CLASS, OUTBOX_KEY as OUTBOX } from "../../bleu_teach_site/static/names.js";
import { FakeStorage, fakeFetch } from "./fakes.mjs";

const JOINED = JSON.stringify({ session: "Week 3", nickname: "ana" });
const ZERO_ID = "00000000-0000-4000-8000-000000000000";

/** crypto.getRandomValues filling every byte with fill(index). */
function randomBytes(fill) {
  mock.method(globalThis.crypto, "getRandomValues", (bytes) => {
    bytes.forEach((_, k) => { bytes[k] = fill(k); });
    return bytes;
  });
}

afterEach(() => {
  mock.restoreAll();
  delete globalThis.localStorage;
  delete globalThis.fetch;
});

describe("joinedClass", () => {
  test("the class the join page kept", () => {
    globalThis.localStorage = new FakeStorage({ [CLASS]: JOINED });
    assert.deepEqual(joinedClass(), { session: "Week 3", nickname: "ana" });
  });

  test("null when none was joined, or what is kept has no session's name", () => {
    globalThis.localStorage = new FakeStorage();
    assert.equal(joinedClass(), null);
    globalThis.localStorage = new FakeStorage({ [CLASS]: '{"session": 3}' });
    assert.equal(joinedClass(), null);
  });
});

describe("sendToClass", () => {
  beforeEach(() => randomBytes(() => 0x00));

  test("not joined: nothing is sent, nothing is said", async () => {
    globalThis.localStorage = new FakeStorage();
    const { fetch, calls } = fakeFetch();
    globalThis.fetch = fetch;
    assert.equal(await sendToClass("1.2", "2/7"), "");
    assert.deepEqual(calls, []);
    assert.equal(globalThis.localStorage.getItem(OUTBOX), null);
  });

  test("sent: one POST of the answer with its id, the class named, the outbox emptied", async () => {
    globalThis.localStorage = new FakeStorage({ [CLASS]: JOINED });
    const { fetch, calls } = fakeFetch({ status: 200, body: { stored: true } });
    globalThis.fetch = fetch;
    assert.equal(await sendToClass("1.2", "2/7"), "Sent to your class (Week 3).");
    assert.deepEqual(calls, [{
      url: "/class/api/answers",
      options: {
        method: "POST", headers: { "Content-Type": "application/json", "X-Bleu-Teach": "1" },
        credentials: "same-origin", body: `{"id":"${ZERO_ID}","exercise":"1.2","answer":"2/7"}`,
      },
    }]);
    assert.equal(globalThis.localStorage.getItem(OUTBOX), "[]");
  });

  test("offline: kept in the outbox, and the learner told it waits", async () => {
    globalThis.localStorage = new FakeStorage({ [CLASS]: JOINED });
    globalThis.fetch = fakeFetch(new TypeError("Failed to fetch")).fetch;
    assert.equal(await sendToClass("1.2", "2/7"),
                 "Not sent to your class yet: it is kept in this browser and sent when the connection is back.");
    assert.deepEqual(JSON.parse(globalThis.localStorage.getItem(OUTBOX)),
                     [{ id: ZERO_ID, exercise: "1.2", answer: "2/7" }]);
  });

  test("a busy or failing server (429, 503): kept, waiting", async () => {
    for (const status of [429, 503]) {
      globalThis.localStorage = new FakeStorage({ [CLASS]: JOINED });
      globalThis.fetch = fakeFetch({ status, body: { error: "later" } }).fetch;
      assert.match(await sendToClass("1.2", "2/7"), /^Not sent to your class yet/, String(status));
      assert.equal(JSON.parse(globalThis.localStorage.getItem(OUTBOX)).length, 1, String(status));
    }
  });

  test("401: the session is over; the class and the outbox are forgotten", async () => {
    globalThis.localStorage = new FakeStorage({ [CLASS]: JOINED });
    globalThis.fetch = fakeFetch({ status: 401, body: { error: "who?" } }).fetch;
    assert.equal(await sendToClass("1.2", "2/7"), "Your class's session is over: answers are no longer sent.");
    assert.equal(globalThis.localStorage.getItem(CLASS), null);
    assert.equal(globalThis.localStorage.getItem(OUTBOX), "[]");
  });

  test("409: the session is closed, the answer dropped; 400: refused, dropped", async () => {
    for (const [status, said] of [[409, "Your class's session is closed: this answer was not sent."],
                                  [400, "The class did not take this answer."]]) {
      globalThis.localStorage = new FakeStorage({ [CLASS]: JOINED });
      globalThis.fetch = fakeFetch({ status, body: { error: "no" } }).fetch;
      assert.equal(await sendToClass("1.2", "2/7"), said);
      assert.equal(globalThis.localStorage.getItem(OUTBOX), "[]");
    }
  });
});

describe("flush", () => {
  test("what waits goes oldest first; the outcome is the last one's", async () => {
    const waiting = [{ id: "a", exercise: "1.1", answer: "x" }, { id: "b", exercise: "1.2", answer: "y" }];
    globalThis.localStorage = new FakeStorage({ [CLASS]: JOINED, [OUTBOX]: JSON.stringify(waiting) });
    const { fetch, calls } = fakeFetch({ status: 200, body: {} }, { status: 409, body: {} });
    globalThis.fetch = fetch;
    assert.equal(await flush(), "closed");
    assert.deepEqual(calls.map((call) => JSON.parse(call.options.body).id), ["a", "b"]);
    assert.equal(globalThis.localStorage.getItem(OUTBOX), "[]");
  });

  test("an outbox that is not a list counts as empty: nothing to send", async () => {
    globalThis.localStorage = new FakeStorage({ [OUTBOX]: '{"id": "a"}' });
    const { fetch, calls } = fakeFetch();
    globalThis.fetch = fetch;
    assert.equal(await flush(), "sent");
    assert.deepEqual(calls, []);
  });
});
