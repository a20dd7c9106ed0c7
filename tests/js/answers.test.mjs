// bleu_teach_site/static/answers.js: reading the learner's records back from local storage, whatever is there
// (nothing, another page's JSON, text that is not JSON, a storage that is switched off, or none at all).
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import {
  CLASS, OUTBOX, practised, PRACTICE, readJson, stored, STORE, WIDGETS,
} from "../../bleu_teach_site/static/answers.js";
import { BROKEN_STORAGE, FakeStorage } from "./fakes.mjs";

afterEach(() => {
  delete globalThis.localStorage;
});

test("the keys the pages and the classroom's join page share", () => {
  assert.deepEqual([STORE, PRACTICE, WIDGETS, CLASS, OUTBOX], [
    "bleu-teach-answers", "bleu-teach-practice", "bleu-teach-widgets", "bleu-teach-class",
    "bleu-teach-class-outbox",
  ]);
});

for (const [name, read, key] of [["stored", stored, STORE], ["practised", practised, PRACTICE]]) {
  describe(name, () => {
    test("the records kept, by exercise id", () => {
      globalThis.localStorage = new FakeStorage({ [key]: '{"1.2":{"answer":"2/7","verdict":"correct"}}' });
      assert.deepEqual(read(), { "1.2": { answer: "2/7", verdict: "correct" } });
    });

    test("{} when nothing is kept", () => {
      globalThis.localStorage = new FakeStorage();
      assert.deepEqual(read(), {});
    });

    test("{} for JSON that is no record of records: a list, null, a number", () => {
      for (const text of ["[1,2]", "null", "7"]) {
        globalThis.localStorage = new FakeStorage({ [key]: text });
        assert.deepEqual(read(), {}, text);
      }
    });

    test("{} for text that is not JSON", () => {
      globalThis.localStorage = new FakeStorage({ [key]: "{not json" });
      assert.deepEqual(read(), {});
    });

    test("{} when storage is switched off, or there is none", () => {
      globalThis.localStorage = BROKEN_STORAGE;
      assert.deepEqual(read(), {});
      delete globalThis.localStorage;
      assert.deepEqual(read(), {});
    });
  });
}

describe("readJson", () => {
  test("the JSON kept under the key", () => {
    globalThis.localStorage = new FakeStorage({ k: '{"session":"Week 3","nickname":"ana"}' });
    assert.deepEqual(readJson("k", null), { session: "Week 3", nickname: "ana" });
  });

  test("the fallback for nothing kept, for null, and for text that is not JSON", () => {
    globalThis.localStorage = new FakeStorage({ nothing: "null", bad: "{" });
    assert.deepEqual(readJson("missing", []), []);
    assert.equal(readJson("nothing", "fallback"), "fallback");
    assert.equal(readJson("bad", "fallback"), "fallback");
  });

  test("false and 0 are values, not nothing", () => {
    globalThis.localStorage = new FakeStorage({ no: "false", zero: "0" });
    assert.equal(readJson("no", "fallback"), false);
    assert.equal(readJson("zero", "fallback"), 0);
  });

  test("the fallback when storage is switched off", () => {
    globalThis.localStorage = BROKEN_STORAGE;
    assert.equal(readJson("k", "fallback"), "fallback");
  });
});
