"""A chart described once (bleu_teach.views.document.Chart) and drawn twice: by matplotlib in the notebook and by
Chart.js on the website (static/live_data.js's chartData, run here under node). Both drawings are read back and
compared with each other, series by series: what the learner sees in one is what the other shows."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from matplotlib.colors import to_hex

from bleu_teach.explorers.definitions import EXPLORERS
from bleu_teach.lessons.curves import brevity_penalty_chart
from bleu_teach.ui.plots import PALETTE, plot_brevity_penalty
from bleu_teach.views.document import Chart, Document, Series
from bleu_teach.views.html_writer import write_html
from bleu_teach.views.text_writer import write_text

ROOT = Path(__file__).resolve().parents[1]
LIVE_DATA = ROOT / "bleu_teach_site" / "static" / "live_data.js"
#: matplotlib's line styles as the Chart.js dash patterns the site draws them with.
DASH_OF = {"-": [], "--": [8, 4], ":": [2, 3], "-.": [8, 3, 2, 3]}


def chart_js_datasets(chart: Chart) -> list[dict]:
    """What the website hands Chart.js for this chart: live_data.js's chartData, run by node."""
    script = (
        f"import {{ chartData }} from {json.dumps(LIVE_DATA.as_uri())};"
        f"console.log(JSON.stringify(chartData({json.dumps(chart.as_json())}, {json.dumps(PALETTE)})));"
    )
    done = subprocess.run(
        ["node", "--disable-warning=MODULE_TYPELESS_PACKAGE_JSON", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


@pytest.mark.parametrize(("ref_lens", "hyp_len", "max_len"), [([6], 4, 14), ([6, 9], 4, None), ([4, 6], 5, 8)])
def test_the_notebook_and_the_website_draw_the_same_brevity_penalty_chart(ref_lens, hyp_len, max_len):
    chart = brevity_penalty_chart(ref_lens, hyp_len, max_len)
    figure = plot_brevity_penalty(ref_lens, hyp_len, max_len)
    ax = figure.axes[0]
    drawn = ax.get_lines()
    datasets = chart_js_datasets(chart)
    assert len(drawn) == len(datasets) == len(chart.series) == 1 + len(set(ref_lens)) + 1
    for line, dataset in zip(drawn, datasets):
        assert line.get_label() == dataset["label"]
        assert to_hex(line.get_color()).upper() == dataset["borderColor"].upper()
        if dataset.get("pointStyle") == "star":  # the hypothesis
            assert line.get_marker() == "*" and line.get_linestyle() == "None"
            assert [{"x": x, "y": y} for x, y in zip(line.get_xdata(), line.get_ydata())] == dataset["data"]
            assert line.get_markersize() == 2 * dataset["pointRadius"]
            continue
        assert line.get_linewidth() == dataset["borderWidth"]
        assert DASH_OF[line.get_linestyle()] == dataset["borderDash"]
        if dataset["pointRadius"] == 0:  # a reference length: a vertical line across the chart
            x = line.get_xdata()[0]
            assert list(line.get_xdata()) == [x, x] and list(line.get_ydata()) == [0, 1]  # axes fractions
            assert [d["x"] for d in dataset["data"]] == [x, x]
            assert [d["y"] for d in dataset["data"]] == list(ax.get_ylim())
        else:  # the curve, dot by dot
            assert [{"x": x, "y": y} for x, y in zip(line.get_xdata(), line.get_ydata())] == dataset["data"]
            assert line.get_markersize() == 2 * dataset["pointRadius"]
    assert ax.get_title() == chart.title and (ax.get_xlabel(), ax.get_ylabel()) == (chart.x_label, chart.y_label)
    assert ax.get_xlim() == chart.x_range and ax.get_ylim() == chart.y_range
    assert figure.description == chart.description


def test_the_brevity_penalty_explorer_sends_the_notebook_figure_chart():
    values = {"ref_len": 6, "use_second": True, "second_ref_len": 9, "hyp_len": 4, "max_len": 18}
    view = EXPLORERS["BrevityPenaltyExplorer"].view(values)
    assert view.extra["chart"] == json.loads(json.dumps(brevity_penalty_chart([6, 9], 4, 18).as_json()))
    assert view.extra["chart"]["description"] == plot_brevity_penalty([6, 9], 4, 18).description


def test_a_chart_in_a_document_is_written_as_its_words():
    chart = Chart("T", "x", "y", (0, 1), (0, 1), (Series("line", "s", ((0, 0), (1, 1))),), "A line from 0 to 1 <b>.")
    assert write_text(Document((chart,))).strip() == "A line from 0 to 1 <b>."
    assert "A line from 0 to 1 &lt;b&gt;." in write_html(Document((chart,)))


@pytest.mark.parametrize(
    ("kind", "points", "message"),
    [("bar", ((0, 0),), "kind must be 'line', 'rule' or 'star', not 'bar'"), ("star", (), "a star has one point")],
)
def test_a_series_that_cannot_be_drawn_is_refused_by_name(kind, points, message):
    with pytest.raises(ValueError, match=message):
        Series(kind, "s", points)
