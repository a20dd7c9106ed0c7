// What the live pages work out from data alone: no page, no storage, no network, nothing done on import.
// The lesson pages' modules and explorer.js import it; tests/js/live_data.test.mjs checks it with node --test.

import { EXPLORER_PAGE, EXPLORER_PARAMETERS } from "./names.js";

/**
 * The brevity-penalty explorer's chart, as Python sends it in the widget's extra (bleu_teach.explorers.views
 * brevity_view).
 * @typedef {object} CurveExtra
 * @property {[number, number][]} curve the (c, BP) points, c = 1 to the longest length shown
 * @property {number[]} references the distinct reference lengths, sorted
 * @property {number} chosen r, the reference length the brevity penalty uses
 * @property {[number, number]} point c and BP of the hypothesis
 * @property {string} title the notebook plot's title
 * @property {string} description the chart in words (the canvas's label)
 */

/**
 * One scatter dataset for Chart.js, as chartData makes it.
 * @typedef {object} ScatterDataset
 * @property {string} label
 * @property {{ x: number, y: number }[]} data
 * @property {string} borderColor
 * @property {string} backgroundColor
 * @property {number} [borderWidth]
 * @property {number} pointRadius
 * @property {number} [pointBorderWidth]
 * @property {boolean} [showLine]
 * @property {number[]} [borderDash]
 * @property {string} [pointStyle]
 */

/** matplotlib's line styles "-", "--", ":", "-." as Chart.js dash patterns. */
export const DASHES = [[], [8, 4], [2, 3], [8, 3, 2, 3]];

/**
 * The brevity-penalty chart's datasets: the curve, a vertical line at each reference length (the chosen one thick),
 * and the hypothesis as a star; top is the curve's last length (the x axis ends half a length after it).
 * @param {CurveExtra} extra
 * @param {string[]} palette the notebook plot's colours (bleu_teach.ui.plots.PALETTE)
 * @returns {{ datasets: ScatterDataset[], top: number }}
 */
export function chartData(extra, palette) {
  const top = /** @type {[number, number]} */ (extra.curve.at(-1))[0]; // the curve has a point for c = 1 at least
  /** @type {ScatterDataset[]} */
  const datasets = [{
    label: "BP = exp(1 - r/c) if c <= r, else 1", data: extra.curve.map(([x, y]) => ({ x, y })),
    borderColor: palette[0], backgroundColor: palette[0], borderWidth: 2.5, pointRadius: 3, showLine: true,
  }];
  extra.references.forEach((r, i) => {
    const chosen = r === extra.chosen; // the length the brevity penalty uses: drawn thick, and said so
    datasets.push({
      label: chosen ? `chosen reference length r = ${r}` : `reference length ${r}`,
      data: [{ x: r, y: -0.02 }, { x: r, y: 1.1 }], showLine: true, pointRadius: 0,
      borderColor: palette[(i + 1) % palette.length], backgroundColor: palette[(i + 1) % palette.length],
      borderDash: DASHES[(i + 1) % 4], borderWidth: chosen ? 5 : 2,
    });
  });
  const [c, bp] = extra.point;
  datasets.push({
    label: `your hypothesis: c = ${c}, BP = ${bp.toFixed(3)}`, data: [{ x: c, y: bp }], pointStyle: "star",
    pointRadius: 14, pointBorderWidth: 4, borderColor: palette[3], backgroundColor: palette[3],
  });
  return { datasets, top };
}

/**
 * An exercise's kept record (local storage, answers.js), as the lesson pages write it.
 * @typedef {object} AnswerRecord
 * @property {string} answer the last answer checked
 * @property {string} verdict its verdict ("correct", "misconception", "wrong", ...)
 * @property {boolean} solved whether any answer to it was ever right
 * @property {number} tries the wrong answers so far
 * @property {string} at when the last answer was checked (ISO 8601)
 */

/**
 * The record kept after a checked answer: the last answer and its verdict, right once answered right (even if a
 * later try is wrong), and the wrong tries counted.
 * @param {{ solved?: unknown, verdict?: unknown, tries?: unknown } | undefined} earlier the record kept before, if any
 * @param {string} answer
 * @param {string} verdict
 * @param {string} at
 * @returns {AnswerRecord}
 */
export function answerRecord(earlier, answer, verdict, at) {
  const solved = Boolean(earlier?.solved || earlier?.verdict === "correct") || verdict === "correct";
  const tries = Number(earlier?.tries ?? 0) + (verdict && verdict !== "correct" ? 1 : 0);
  return { answer, verdict, solved, tries, at };
}

/**
 * An example for the live explorer page, as Python sends it for a page's "Open this example in the live explorer"
 * links (bleu_teach.web.page: the explorer's links), or as explorer.js reads it from the explorer's form.
 * @typedef {object} ExplorerExample
 * @property {string} hypothesis
 * @property {string[]} references
 * @property {number | string} max_n a number from Python; the form's text on the explorer page
 * @property {string} weights "" (or only spaces) for uniform weights
 * @property {string} smoothing
 * @property {string} tokenizer
 * @property {boolean} lowercase
 */

/**
 * The live explorer's address's query for an example: hyp, ref (once per reference), n, weights (trimmed; left
 * out when blank: uniform weights), smoothing, tokenizer, lowercase (1 or 0), by names.js's EXPLORER_PARAMETERS.
 * The lesson pages' links and the explorer page's own address are made here; bleu_teach_site.lessons.Preset.query
 * makes the build's links the same way (tests/fixtures/explorer_links.json holds both to the same examples).
 * @param {ExplorerExample} example
 * @returns {URLSearchParams}
 */
export function explorerQuery(example) {
  const names = EXPLORER_PARAMETERS;
  const query = new URLSearchParams([[names.hypothesis, example.hypothesis],
                                     ...example.references.map((r) => [names.references, r]),
                                     [names.max_n, String(example.max_n)]]);
  const weights = example.weights.trim();
  if (weights) query.append(names.weights, weights);
  query.append(names.smoothing, example.smoothing);
  query.append(names.tokenizer, example.tokenizer);
  query.append(names.lowercase, example.lowercase ? "1" : "0");
  return query;
}

/**
 * The live explorer's address for an example (explorer.js reads it into the form).
 * @param {ExplorerExample} example
 * @returns {string}
 */
export function explorerHref(example) {
  return `${EXPLORER_PAGE}?${explorerQuery(example)}`;
}

/**
 * The explorer's example as plain text, from its address's query: what was typed and every setting, for sharing
 * an example too long for a link.
 * @param {URLSearchParams} query
 * @returns {string}
 */
export function exampleText(query) {
  const names = EXPLORER_PARAMETERS;
  const lines = [`Hypothesis: ${query.get(names.hypothesis)}`];
  query.getAll(names.references).forEach((reference, k) => lines.push(`Reference ${k + 1}: ${reference}`));
  lines.push(`Max n: ${query.get(names.max_n)}`, `Weights: ${query.get(names.weights) ?? "uniform"}`,
             `Smoothing: ${query.get(names.smoothing)}`, `Tokenizer: ${query.get(names.tokenizer)}`,
             `Lowercase: ${query.get(names.lowercase) === "1" ? "yes" : "no"}`);
  return `${lines.join("\n")}\n`;
}
