// A live widget's brevity-penalty chart: Chart.js (npm registry, vendor/chart.js/) draws the points bleu_teach
// computed, with the notebook plot's title, axes, legend and Okabe-Ito palette (bleu_teach.ui.plots): live_data.js's
// chartData.  The library is loaded only when a widget has a chart to draw.
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

/**
 * Draw the widget's chart, if it has one and extra has its points (the brevity-penalty explorer).
 * @param {HTMLFormElement} form
 * @param {import("./live_python.js").WidgetExtra} extra
 */
export async function drawChart(form, extra) {
  const canvas = /** @type {ChartCanvas | null} */ (form.querySelector(".live-chart canvas"));
  if (!canvas || !extra.curve) return;
  const curve = /** @type {import("./live_data.js").CurveExtra} */ (extra); // the points come with the rest
  canvas.setAttribute("aria-label", curve.description);
  const Chart = await loadChartLibrary();
  const narrow = /** @type {HTMLElement} */ (canvas.parentElement).clientWidth < 480;
  const { datasets, top } = chartData(curve, JSON.parse(String(canvas.dataset.palette)));
  if (canvas.chart) {
    canvas.chart.data.datasets = datasets;
    canvas.chart.options.scales.x.max = top + 0.5;
    canvas.chart.update("none");
    return;
  }
  canvas.chart = new Chart(canvas, {
    type: "scatter", data: { datasets },
    options: {
      animation: false, responsive: true, maintainAspectRatio: false, // the box's height: see site.css
      plugins: { title: { display: true, text: curve.title, font: { size: narrow ? 14 : 17 } },
                 legend: { position: "bottom", labels: { font: { size: narrow ? 11 : 13 }, usePointStyle: true,
                                                         boxWidth: narrow ? 8 : 12 } },
                 tooltip: { enabled: true } },
      scales: {
        x: { type: "linear", min: 0, max: top + 0.5,
             ticks: { stepSize: 1, includeBounds: false, maxRotation: 0, autoSkipPadding: 6 },
             title: { display: true, text: "hypothesis length c (tokens)", font: { size: narrow ? 12 : 15 } } },
        y: { min: -0.02, max: 1.1, ticks: { stepSize: 0.2, includeBounds: false }, title: { display: true, text: "brevity penalty", font: { size: narrow ? 12 : 15 } } },
      },
    },
  });
}
