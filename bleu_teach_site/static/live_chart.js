// A live widget's chart: Chart.js (npm registry, vendor/chart.js/) draws the chart Python described once
// (bleu_teach.views.document.Chart, the brevity-penalty explorer's), which matplotlib draws in the notebook: the same
// title, axes, series, legend and Okabe-Ito palette (live_data.js's chartData).  The library is loaded only when a
// widget has a chart to draw.
import { chartData } from "./live_data.js";

/** @typedef {HTMLCanvasElement & { chart?: ChartInstance }} ChartCanvas */

/** @type {Promise<ChartConstructor> | null} */
let chartLibrary = null;

/** @returns {Promise<ChartConstructor>} Chart.js's Chart, once its script has loaded (it sets window.Chart) */
function loadChartLibrary() {
  chartLibrary ??= new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = "vendor/chart.js/dist/chart.umd.min.js";
    script.onload = () => resolve(/** @type {ChartConstructor} */ (window.Chart));
    script.onerror = () => reject(new Error("the chart library did not load"));
    document.head.append(script);
  });
  return chartLibrary;
}

/** matplotlib's legend places as Chart.js's (the legend sits beside the chart, not over it). */
const LEGEND = /** @type {Record<string, string>} */ ({ "lower right": "bottom", "center right": "right", best: "top" });

/**
 * Draw the widget's chart, if it has one and extra has its description (the brevity-penalty explorer).
 * @param {HTMLFormElement} form
 * @param {import("./live_python.js").WidgetExtra} extra
 */
export async function drawChart(form, extra) {
  const canvas = /** @type {ChartCanvas | null} */ (form.querySelector(".live-chart canvas"));
  const chart = extra.chart;
  if (!canvas || !chart) return;
  canvas.setAttribute("aria-label", chart.description);
  const Chart = await loadChartLibrary();
  const narrow = /** @type {HTMLElement} */ (canvas.parentElement).clientWidth < 480;
  const datasets = chartData(chart, JSON.parse(String(canvas.dataset.palette)));
  const [left, right] = chart.x_range;
  const [bottom, top] = chart.y_range;
  if (canvas.chart) {
    canvas.chart.data.datasets = datasets;
    canvas.chart.options.scales.x.max = right;
    canvas.chart.update("none");
    return;
  }
  const label = (/** @type {string} */ text) => ({ display: true, text, font: { size: narrow ? 12 : 15 } });
  canvas.chart = new Chart(canvas, {
    type: "scatter", data: { datasets },
    options: {
      animation: false, responsive: true, maintainAspectRatio: false, // the box's height: see site.css
      plugins: { title: { display: true, text: chart.title, font: { size: narrow ? 14 : 17 } },
                 legend: { position: LEGEND[chart.legend] ?? "bottom",
                           labels: { font: { size: narrow ? 11 : 13 }, usePointStyle: true, boxWidth: narrow ? 8 : 12 } },
                 tooltip: { enabled: true } },
      scales: {
        x: { type: "linear", min: left, max: right,
             ticks: { stepSize: chart.whole_x ? 1 : undefined, includeBounds: false, maxRotation: 0, autoSkipPadding: 6 },
             title: label(chart.x_label) },
        y: { min: bottom, max: top, ticks: { stepSize: 0.2, includeBounds: false }, title: label(chart.y_label) },
      },
    },
  });
}
