// bleu_teach_site/static/answers.js: reading the learner's records back from local storage, whatever is there
// (nothing, another page's JSON, text that is not JSON, a storage that is switched off, or none at all), and
// writing them: the answers, the practice records and the widgets' values.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import {
  keepPractice, keepValues, keptPractice, keptValues, practised, readJson, readRecords, remember, stored, writeJson,
} from "../../bleu_teach_site/static/answers.js";
import {
  ANSWERS_KEY as STORE, CLASS_KEY, OUTBOX_KEY, PRACTICE_KEY as PRACTICE, WIDGETS_KEY as WIDGETS,
} from "../../bleu_teach_site/static/names.js";
import { BROKEN_STORAGE, FakeStorage } from "./fakes.mjs";

afterEach(() => {
  delete globalThis.localStorage;
});

test("the keys the pages and the classroom's join page share (names.js, from bleu_teach/web/names.py)", () => {
  assert.deepEqual([STORE, PRACTICE, WIDGETS, CLASS_KEY, OUTBOX_KEY], [
    "bleu-teach-answers", "bleu-teach-practice", "bleu-teach-widgets", "bleu-teach-class",
    "bleu-teach-class-outbox",
  ]);
});

for (const [name, read, key] of [["stored", stored, STORE], ["practised", practised, PRACTICE],
                                 ["keptValues", keptValues, WIDGETS], ["readRecords", () => readRecords("k"), "k"]]) {
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

describe("writeJson", () => {
  test("the value kept as JSON; true", () => {
    globalThis.localStorage = new FakeStorage();
    assert.equal(writeJson("k", { a: [1, "x"] }), true);
    assert.equal(globalThis.localStorage.getItem("k"), '{"a":[1,"x"]}');
  });

  test("false when storage is switched off, or there is none", () => {
    globalThis.localStorage = BROKEN_STORAGE;
    assert.equal(writeJson("k", {}), false);
    delete globalThis.localStorage;
    assert.equal(writeJson("k", {}), false);
  });
});

describe("remember", () => {
  const AT = "2025-01-02T03:04:05.000Z";

  test("the answer's record beside the others kept (live_data.js answerRecord); true", () => {
    globalThis.localStorage = new FakeStorage({ [STORE]: '{"1.1":{"answer":"3","verdict":"correct"}}' });
    assert.equal(remember("1.2", "2/7", "wrong", AT), true);
    assert.deepEqual(JSON.parse(globalThis.localStorage.getItem(STORE)), {
      "1.1": { answer: "3", verdict: "correct" },
      "1.2": { answer: "2/7", verdict: "wrong", solved: false, tries: 1, at: AT },
    });
  });

  test("a later answer counts on from the earlier record: solved stays, the wrong tries add up", () => {
    globalThis.localStorage = new FakeStorage({
      [STORE]: '{"1.2":{"answer":"2/7","verdict":"correct","solved":true,"tries":2}}' });
    remember("1.2", "1/7", "misconception", AT);
    assert.deepEqual(stored()["1.2"], { answer: "1/7", verdict: "misconception", solved: true, tries: 3, at: AT });
  });

  test("false when storage is off (the page says it cannot keep answers)", () => {
    globalThis.localStorage = BROKEN_STORAGE;
    assert.equal(remember("1.2", "2/7", "correct", AT), false);
  });
});

describe("keptPractice and keepPractice", () => {
  const RECORD = { number: 3, streak: null, streakText: "No streak yet." };

  test("a record kept is read back; the others stay", () => {
    globalThis.localStorage = new FakeStorage({ [PRACTICE]: '{"2.1":{"number":1}}' });
    assert.equal(keepPractice("3.1", RECORD), true);
    assert.deepEqual(keptPractice("3.1"), RECORD);
    assert.deepEqual(keptPractice("2.1"), { number: 1 });
  });

  test("{} for an exercise with nothing kept, or a record that is no object", () => {
    globalThis.localStorage = new FakeStorage({ [PRACTICE]: '{"2.1":7,"2.2":null}' });
    assert.deepEqual(keptPractice("3.1"), {});
    assert.deepEqual(keptPractice("2.1"), {});
    assert.deepEqual(keptPractice("2.2"), {});
  });

  test("false when storage is off", () => {
    globalThis.localStorage = BROKEN_STORAGE;
    assert.equal(keepPractice("3.1", RECORD), false);
    assert.deepEqual(keptPractice("3.1"), {});
  });
});

describe("keepValues", () => {
  const KEY = "/03_brevity.html#0:BrevityExplorer";

  test("a widget's values kept under its key, beside the others'", () => {
    globalThis.localStorage = new FakeStorage({ [WIDGETS]: '{"/a.html#0:X":{"n":1}}' });
    keepValues(KEY, { hypothesis: "the cat", max_n: "2" });
    assert.deepEqual(keptValues(), { "/a.html#0:X": { n: 1 }, [KEY]: { hypothesis: "the cat", max_n: "2" } });
  });

  test("null forgets them (the example's values again)", () => {
    globalThis.localStorage = new FakeStorage({ [WIDGETS]: JSON.stringify({ [KEY]: { n: 1 }, other: { n: 2 } }) });
    keepValues(KEY, null);
    assert.deepEqual(keptValues(), { other: { n: 2 } });
  });

  test("storage off: nothing kept, nothing thrown", () => {
    globalThis.localStorage = BROKEN_STORAGE;
    keepValues(KEY, { n: 1 });
    assert.deepEqual(keptValues(), {});
  });
});
