// bleu_teach/classroom/static/send.js: the classroom pages' one way to write to the server (the request it
// builds, and what it makes of the answer), with fetch stood in for (tests/js/fakes.mjs).
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { send } from "../../bleu_teach/classroom/static/send.js";
import { fakeFetch } from "./fakes.mjs";

const HEADERS = { "Content-Type": "application/json", "X-Bleu-Teach": "1" };

afterEach(() => {
  delete globalThis.fetch;
});

test("a POST of the body as JSON, with the server's header and the cookie; resolves to the answer", async () => {
  const { fetch, calls } = fakeFetch({ status: 200, body: { session: "Week 3", nickname: "ana", kind: "class" } });
  globalThis.fetch = fetch;
  assert.deepEqual(await send("/class/api/join", { code: "K7Q2", nickname: "ana" }),
                   { session: "Week 3", nickname: "ana", kind: "class" });
  assert.deepEqual(calls, [{
    url: "/class/api/join",
    options: {
      method: "POST", credentials: "same-origin", headers: HEADERS, body: '{"code":"K7Q2","nickname":"ana"}',
    },
  }]);
});

test("another method, and no body when none is given", async () => {
  const { fetch, calls } = fakeFetch({ status: 200, body: {} });
  globalThis.fetch = fetch;
  await send("/class/api/sessions/4", undefined, "DELETE");
  assert.deepEqual(calls[0].options, { method: "DELETE", credentials: "same-origin", headers: HEADERS, body: undefined });
});

test("an answer with no JSON body: {}", async () => {
  globalThis.fetch = fakeFetch({ status: 204 }).fetch;
  assert.deepEqual(await send("/class/api/sessions/4/close", {}), {});
});

test("a refusal rejects with the server's words", async () => {
  globalThis.fetch = fakeFetch({ status: 404, body: { error: "There is no session with this code." } }).fetch;
  await assert.rejects(send("/class/api/join", { code: "XXXX", nickname: "ana" }),
                       { message: "There is no session with this code." });
});

test("a refusal with no words: the status", async () => {
  globalThis.fetch = fakeFetch({ status: 502 }).fetch;
  await assert.rejects(send("/class/api/poll/vote", {}), { message: "the server answered 502" });
});
