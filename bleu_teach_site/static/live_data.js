// What the live pages work out from data alone: no page, no storage, no network, nothing done on import.
// The lesson pages' modules and explorer.js import it; tests/js/live_data.test.mjs checks it with node --test.

import { EXPLORER_PAGE, EXPLORER_PARAMETERS } from "./names.js";

/**
 * One thing a chart draws (bleu_teach.views.document.Series): points joined by a line, a vertical rule at the x of
 * its one point, or its one point as a star; colour and dash index the palette and matplotlib's line styles; width
 * and size are in points, as matplotlib takes them.
 * @typedef {object} ChartSeries
 * @property {"line" | "rule" | "star"} kind
 * @property {string} label
 * @property {[number, number][]} points
 * @property {number} colour
 * @property {number} dash
 * @property {number} width
 * @property {number} size
 */

/**
 * A chart described once in Python (bleu_teach.views.document.Chart.as_json), which matplotlib draws in the notebook.
 * @typedef {object} ChartDescription
 * @property {string} title
 * @property {string} x_label
 * @property {string} y_label
 * @property {[number, number]} x_range
 * @property {[number, number]} y_range
 * @property {boolean} whole_x ticks on whole numbers only
 * @property {string} legend
 * @property {string} description the chart in words (the canvas's label)
 * @property {ChartSeries[]} series
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
 * A chart's series as Chart.js scatter datasets, in order: a line's points joined (its dots size / 2 in radius), a
 * rule as a line from the bottom of the y range to its top, a star's point as a star (size / 2 in radius).
 * @param {ChartDescription} chart
 * @param {string[]} palette the notebook plot's colours (bleu_teach.ui.plots.PALETTE)
 * @returns {ScatterDataset[]}
 */
export function chartData(chart, palette) {
  return chart.series.map((series) => {
    const colour = palette[series.colour % palette.length];
    const common = { label: series.label, borderColor: colour, backgroundColor: colour };
    if (series.kind === "line") {
      return { ...common, data: series.points.map(([x, y]) => ({ x, y })), borderWidth: series.width,
               borderDash: DASHES[series.dash % DASHES.length], pointRadius: series.size / 2, showLine: true };
    }
    const [[x, y]] = series.points;
    if (series.kind === "rule") {
      const [bottom, top] = chart.y_range;
      return { ...common, data: [{ x, y: bottom }, { x, y: top }], showLine: true, pointRadius: 0,
               borderDash: DASHES[series.dash % DASHES.length], borderWidth: series.width };
    }
    // Chart.js strokes its star without filling it: a thick stroke, as the notebook's star has a black edge.
    return { ...common, data: [{ x, y }], pointStyle: "star", pointRadius: series.size / 2, pointBorderWidth: 4 };
  });
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
