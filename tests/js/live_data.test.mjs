// bleu_teach_site/static/live_data.js: what the lesson pages and the explorer page work out from data alone (the
// brevity-penalty chart's datasets, an answer's kept record, the explorer's links, an example as text). Every
// expected value is worked out by hand from the inputs.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { readFileSync } from "node:fs";

import {
  answerRecord, chartData, DASHES, exampleText, explorerHref, explorerQuery,
} from "../../bleu_teach_site/static/live_data.js";

/** The examples and their links, worked out by hand; tests/test_shared_names.py holds the build's links to them. */
const LINKS = JSON.parse(readFileSync(new URL("../fixtures/explorer_links.json", import.meta.url), "utf8")).examples;

const PALETTE = ["#000000", "#E69F00", "#56B4E9", "#009E73"];

describe("chartData", () => {
  /** @param {object} series */
  const chart = (...series) => ({
    title: "Brevity penalty", x_label: "c", y_label: "BP", x_range: [0, 3.5], y_range: [-0.02, 1.1], whole_x: true,
    legend: "lower right", description: "a curve", series,
  });
  const line = { kind: "line", label: "the curve", points: [[1, 0.1], [2, 0.5], [3, 1]], colour: 0, dash: 0,
                 width: 2.5, size: 6 };

  test("a line: its points as x, y, joined, dots half its size in radius, in its palette colour", () => {
    assert.deepEqual(chartData(chart(line), PALETTE), [{
      label: "the curve", data: [{ x: 1, y: 0.1 }, { x: 2, y: 0.5 }, { x: 3, y: 1 }], borderColor: "#000000",
      backgroundColor: "#000000", borderWidth: 2.5, borderDash: [], pointRadius: 3, showLine: true,
    }]);
  });

  test("a rule: a line at its x from the bottom of the y range to its top, in its width and dash", () => {
    const rules = [
      { kind: "rule", label: "reference length 2", points: [[2, 0]], colour: 1, dash: 1, width: 2, size: 0 },
      { kind: "rule", label: "chosen r = 3", points: [[3, 0]], colour: 2, dash: 2, width: 5, size: 0 },
    ];
    assert.deepEqual(chartData(chart(...rules), PALETTE), [
      { label: "reference length 2", data: [{ x: 2, y: -0.02 }, { x: 2, y: 1.1 }], showLine: true, pointRadius: 0,
        borderColor: "#E69F00", backgroundColor: "#E69F00", borderDash: [8, 4], borderWidth: 2 },
      { label: "chosen r = 3", data: [{ x: 3, y: -0.02 }, { x: 3, y: 1.1 }], showLine: true, pointRadius: 0,
        borderColor: "#56B4E9", backgroundColor: "#56B4E9", borderDash: [2, 3], borderWidth: 5 },
    ]);
  });

  test("a star: its one point, a star half its size in radius, stroked thick", () => {
    const star = { kind: "star", label: "c = 1", points: [[1, 0.36787944117144233]], colour: 3, dash: 0, width: 2,
                   size: 24 };
    assert.deepEqual(chartData(chart(star), PALETTE), [{
      label: "c = 1", data: [{ x: 1, y: 0.36787944117144233 }], pointStyle: "star", pointRadius: 12,
      pointBorderWidth: 4, borderColor: "#009E73", backgroundColor: "#009E73",
    }]);
  });

  test("the series in order, colours and dashes going round the palette and the four line styles", () => {
    const many = [4, 5, 6, 7].map((colour) => ({ ...line, colour, dash: colour }));
    const datasets = chartData(chart(line, ...many), PALETTE);
    assert.equal(datasets.length, 5);
    assert.deepEqual(datasets.map((d) => d.borderColor), ["#000000", "#000000", "#E69F00", "#56B4E9", "#009E73"]);
    assert.deepEqual(datasets.map((d) => d.borderDash), [[], [], [8, 4], [2, 3], [8, 3, 2, 3]]);
  });

  test("DASHES are matplotlib's -, --, : and -. as Chart.js dash patterns", () => {
    assert.deepEqual(DASHES, [[], [8, 4], [2, 3], [8, 3, 2, 3]]);
  });
});

describe("answerRecord", () => {
  const AT = "2025-01-02T03:04:05.000Z";

  test("a first right answer: solved, no wrong tries", () => {
    assert.deepEqual(answerRecord(undefined, "2/7", "correct", AT),
                     { answer: "2/7", verdict: "correct", solved: true, tries: 0, at: AT });
  });

  test("a first wrong answer: one try, not solved", () => {
    assert.deepEqual(answerRecord(undefined, "3/7", "wrong", AT),
                     { answer: "3/7", verdict: "wrong", solved: false, tries: 1, at: AT });
  });

  test("right once stays right; each wrong answer after it is still counted", () => {
    const record = answerRecord({ solved: true, verdict: "correct", tries: 2 }, "1/7", "misconception", AT);
    assert.equal(record.solved, true);
    assert.equal(record.tries, 3);
    assert.equal(record.verdict, "misconception");
  });

  test("an earlier page's record (a right verdict, no solved, no tries) counts as solved", () => {
    assert.deepEqual(answerRecord({ verdict: "correct" }, "x", "wrong", AT),
                     { answer: "x", verdict: "wrong", solved: true, tries: 1, at: AT });
  });

  test("tries kept as text are read as a number; no verdict counts no try", () => {
    assert.equal(answerRecord({ tries: "2" }, "x", "wrong", AT).tries, 3);
    assert.equal(answerRecord({ tries: 2 }, "x", "", AT).tries, 2);
    assert.equal(answerRecord({ tries: 2 }, "x", "", AT).solved, false);
  });
});

describe("explorerHref", () => {
  const example = {
    hypothesis: "the cat sat", references: ["the cat sat on the mat", "a cat sat"], max_n: 4, weights: "",
    smoothing: "method1", tokenizer: "13a", lowercase: false,
  };

  test("hyp, each ref, n, then smoothing, tokenizer and lowercase (0 or 1); no weights when uniform", () => {
    assert.equal(explorerHref(example), "explorer.html?hyp=the+cat+sat&ref=the+cat+sat+on+the+mat&ref=a+cat+sat" +
      "&n=4&smoothing=method1&tokenizer=13a&lowercase=0");
  });

  test("weights trimmed, after n; lowercase 1", () => {
    assert.equal(explorerHref({ ...example, references: ["x"], weights: " 0.5 0.5 ", lowercase: true }),
                 "explorer.html?hyp=the+cat+sat&ref=x&n=4&weights=0.5+0.5&smoothing=method1&tokenizer=13a&lowercase=1");
  });

  test("typed text is escaped for the address: & = ? / and é", () => {
    assert.equal(explorerHref({ ...example, hypothesis: "a&b=c?/é", references: [] }),
                 "explorer.html?hyp=a%26b%3Dc%3F%2F%C3%A9&n=4&smoothing=method1&tokenizer=13a&lowercase=0");
  });

  for (const { example: shared, href } of LINKS) {
    test(`the build's link too (tests/fixtures/explorer_links.json): ${href.slice(0, 40)}`, () => {
      assert.equal(explorerHref(shared), href);
    });
  }
});

describe("explorerQuery", () => {
  const example = {
    hypothesis: "the cat", references: ["a cat", ""], max_n: "3", weights: "\t0.5, 0.3, 0.2 ", smoothing: "method0",
    tokenizer: "none", lowercase: false,
  };

  test("the parameters in order, an empty reference kept, the form's text for n, the weights trimmed", () => {
    assert.deepEqual([...explorerQuery(example)], [
      ["hyp", "the cat"], ["ref", "a cat"], ["ref", ""], ["n", "3"], ["weights", "0.5, 0.3, 0.2"],
      ["smoothing", "method0"], ["tokenizer", "none"], ["lowercase", "0"],
    ]);
  });

  test("blank weights (only spaces, a tab, a line break) are left out: uniform", () => {
    const query = explorerQuery({ ...example, weights: " \t\n " });
    assert.equal(query.has("weights"), false);
    assert.equal(String(query), "hyp=the+cat&ref=a+cat&ref=&n=3&smoothing=method0&tokenizer=none&lowercase=0");
  });

  test("exampleText reads back what explorerQuery writes", () => {
    assert.equal(exampleText(explorerQuery({ ...example, lowercase: true })),
                 "Hypothesis: the cat\nReference 1: a cat\nReference 2: \nMax n: 3\nWeights: 0.5, 0.3, 0.2\n" +
                 "Smoothing: method0\nTokenizer: none\nLowercase: yes\n");
  });
});

describe("exampleText", () => {
  test("every line of the example, uniform weights when none, Lowercase yes for 1", () => {
    const query = new URLSearchParams(
      "hyp=the+cat&ref=a+cat&ref=the+dog&n=4&smoothing=method1&tokenizer=13a&lowercase=1");
    assert.equal(exampleText(query), "Hypothesis: the cat\nReference 1: a cat\nReference 2: the dog\nMax n: 4\n" +
      "Weights: uniform\nSmoothing: method1\nTokenizer: 13a\nLowercase: yes\n");
  });

  test("the weights as given; Lowercase no for 0; no reference line without a reference", () => {
    const query = new URLSearchParams("hyp=x&n=2&weights=0.25+0.75&smoothing=method0&tokenizer=none&lowercase=0");
    assert.equal(exampleText(query), "Hypothesis: x\nMax n: 2\nWeights: 0.25 0.75\nSmoothing: method0\n" +
      "Tokenizer: none\nLowercase: no\n");
  });
});
