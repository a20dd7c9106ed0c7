"""Matplotlib figures for the lessons, drawn from the core's numbers.

Every figure has labelled axes and a title, fonts large enough for a
projector, the Okabe-Ito colour-blind-safe palette, and markers, line styles
or hatching so that no meaning rests on colour alone.  Functions return a
:class:`LessonFigure`; they never count n-grams themselves.  Each figure
carries a ``description``, its text alternative, written by
:mod:`bleu_teach.views.figure_text` from the same numbers the figure draws; a
notebook stores it as the image's ``alt``.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import textwrap
import warnings
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from bleu_teach.inputs.optional import needs

needs("matplotlib", "The lessons' figures (plots)")
import matplotlib
from cycler import cycler
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator
from matplotlib.typing import RcKeyType

from bleu_teach.bleu.reports import BleuReport
from bleu_teach.lessons.curves import brevity_penalty_chart, length_sweep
from bleu_teach.lessons.metric_tables import mqm_bands
from bleu_teach.metrics import METRICS
from bleu_teach.views import figure_text
from bleu_teach.views.document import Chart
from bleu_teach.views.text_writer import safe

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.confidence_intervals import BootstrapDistribution
    from bleu_teach.lessons.metric_tables import SegmentTable, SystemTable

__all__ = [
    "PALETTE",
    "PNG_DPI",
    "SCREEN_DPI",
    "LessonFigure",
    "png_bytes",
    "plot_precisions",
    "plot_length_sweep",
    "plot_brevity_penalty",
    "draw_chart",
    "chart_svg",
    "plot_scores",
    "plot_bootstrap",
    "lesson_style",
    "plot_system_scatter",
    "plot_segment_bands",
]

#: Okabe and Ito (2008) colour-blind-safe palette.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
LINESTYLES = ["-", "--", ":", "-."]

_RC: dict[RcKeyType, Any] = {
    "font.size": 15,
    "axes.titlesize": 17,
    "axes.labelsize": 15,
    "xtick.labelsize": 13,
    "ytick.labelsize": 13,
    "legend.fontsize": 13,
    "axes.prop_cycle": cycler(color=PALETTE),
    "figure.dpi": 80,
}


#: Figures are saved at this resolution (a projector or a high-density screen needs at least 150 dpi) ...
PNG_DPI = 150
#: ... and shown at the size they would have at this one.
SCREEN_DPI = 80


def png_bytes(fig: Figure) -> bytes:
    """The figure as a PNG at :data:`PNG_DPI`."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=PNG_DPI)
    return buffer.getvalue()


def lesson_style() -> Any:
    """A context manager with the lessons' plot settings."""
    return matplotlib.rc_context(_RC)


class LessonFigure(Figure):
    """A figure that shows itself as a PNG in a notebook, without pyplot.

    Made outside pyplot, so nothing is displayed or kept open behind the
    caller's back: a notebook shows it only when a cell returns it.
    ``description`` is what the figure shows, in words (its text alternative);
    the PNG's metadata carries it as ``alt``, which the site's pages put on
    the image.
    """

    description: str = ""

    def _repr_png_(self) -> tuple[bytes, dict[str, int | str]]:
        # Drawn at 150 dpi so that it stays sharp on a projector, shown at the figure's screen size.
        metadata: dict[str, int | str] = {"width": round(self.get_figwidth() * SCREEN_DPI)}
        if self.description:
            metadata["alt"] = self.description
        return png_bytes(self), metadata


def _new(figsize: tuple[float, float] = (8, 4.8)) -> tuple[LessonFigure, Any]:
    fig = LessonFigure(figsize=figsize, layout="constrained", dpi=_RC["figure.dpi"])
    return fig, fig.add_subplot()


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _styled(func: Callable[_P, _R]) -> Callable[_P, _R]:
    @functools.wraps(func)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        with lesson_style():
            return func(*args, **kwargs)

    return run


def _style_axes(ax: Any, title: str, xlabel: str, ylabel: str) -> None:
    ax.set_title(title, fontsize=_RC["axes.titlesize"])
    ax.set_xlabel(xlabel, fontsize=_RC["axes.labelsize"])
    ax.set_ylabel(ylabel, fontsize=_RC["axes.labelsize"])
    ax.tick_params(labelsize=_RC["xtick.labelsize"])
    ax.grid(True, alpha=0.3)


@_styled
def plot_precisions(report: BleuReport, title: str = "Modified precision by n-gram order") -> LessonFigure:
    """Bars of p_1..p_N from a report, each labelled with its exact fraction."""
    fig, ax = _new()
    labels = [f"$p_{o.n}$" for o in report.orders]
    values = [float(o.precision) for o in report.orders]
    bars = ax.bar(labels, values, color=PALETTE[0], edgecolor="black")
    for bar, order in zip(bars, report.orders):
        ax.annotate(
            f"{order.clipped}/{order.total}",
            (bar.get_x() + bar.get_width() / 2, bar.get_height()),
            ha="center",
            va="bottom",
            fontsize=14,
            xytext=(0, 3),
            textcoords="offset points",
        )
    ax.set_ylim(0, 1.15)
    _style_axes(ax, title, "n-gram order", "modified precision $p_n$")
    fig.description = figure_text.precision_bars(
        title, [(o.n, o.clipped, o.total, value) for o, value in zip(report.orders, values)]
    )
    return fig


@_styled
def plot_length_sweep(
    references: Sequence[Sequence[Hashable]], word: Hashable = "the", max_len: int = 10
) -> LessonFigure:
    """BP, p_1 and BLEU-1 against hypothesis length for ``word`` repeated."""
    rows = length_sweep(references, word, max_len)
    fig, ax = _new()
    xs = [r.hyp_len for r in rows]
    # (legend label, the line's name in words, its short name in words, values)
    series = [
        ("brevity penalty", "The brevity penalty", "the brevity penalty", [r.brevity_penalty for r in rows]),
        ("modified unigram precision $p_1$", "The modified unigram precision p1", "p1", [r.p1 for r in rows]),
        ("BLEU-1 = BP $\\times$ $p_1$", "BLEU-1, BP times p1,", "BLEU-1", [r.bleu for r in rows]),
    ]
    for i, (label, _, _, ys) in enumerate(series):
        ax.plot(
            xs,
            ys,
            marker=MARKERS[i],
            linestyle=LINESTYLES[i],
            color=PALETTE[i],
            label=label,
            linewidth=2.5,
            markersize=9,
        )
    ax.set_xticks(xs)
    ax.set_ylim(-0.02, 1.1)
    title = f"'{word}' repeated 1 to {max_len} times"
    _style_axes(ax, title, "hypothesis length (tokens)", "value")
    ax.legend(loc="center right")
    fig.description = figure_text.length_sweep(title, xs, [(name, short, ys) for _, name, short, ys in series])
    return fig


#: A legend wider than this many characters a line is written on more lines (the figure is 8 inches wide).
_LEGEND_WIDTH = 60
#: At most this many ticks are named on a chart's horizontal axis; of more, one in every few is named.
_MOST_TICKS = 10


def _legend_layout(labels: Sequence[str]) -> tuple[int, float]:
    """A legend outside the plot: its columns (two when every entry is short) and how many inches it adds to the
    figure's height (a line of 13 pt text and its spacing each, and the legend's margins)."""
    columns = 2 if labels and max(len(label) for label in labels) <= _LEGEND_WIDTH // 2 - 4 else 1
    lines = 0
    for start in range(0, len(labels), columns):
        lines += max(label.count("\n") + 1 for label in labels[start : start + columns])
    return columns, 0.3 + lines * _RC["legend.fontsize"] * 1.55 / 72


@_styled
def draw_chart(chart: Chart, ticks: Sequence[tuple[float, str]] = ()) -> LessonFigure:
    """Draw a chart described once (:class:`bleu_teach.views.document.Chart`; the website draws the same description
    with Chart.js), with the lessons' palette and line styles; its description is the figure's text alternative.

    A ``legend`` of matplotlib's ``"outside ..."`` places (``"outside lower center"``) is the figure's, beside the
    plot rather than over it, and the figure grows by the legend's height, so that the plot keeps its size whatever
    the number of lines; a long entry is written on more lines. ``ticks`` (x, label) name the horizontal axis's
    ticks (at most :data:`_MOST_TICKS` named, one in every few when there are more)."""
    outside = chart.legend.startswith("outside ")
    labels = [
        textwrap.fill(s.label, _LEGEND_WIDTH, break_long_words=True) if outside else s.label for s in chart.series
    ]
    columns, extra = _legend_layout([label for label in labels if label]) if outside else (1, 0.0)
    fig, ax = _new((8, 4.8 + extra))
    for series, label in zip(chart.series, labels):
        colour = PALETTE[series.colour % len(PALETTE)]
        style = LINESTYLES[series.dash % len(LINESTYLES)]
        if series.kind == "line":
            xs, ys = [x for x, _ in series.points], [y for _, y in series.points]
            ax.plot(
                xs,
                ys,
                marker="o",
                linestyle=style,
                color=colour,
                linewidth=series.width,
                markersize=series.size,
                label=label,
            )
        elif series.kind == "rule":
            ax.axvline(series.points[0][0], color=colour, linestyle=style, linewidth=series.width, label=label)
        else:
            ((x, y),) = series.points
            ax.plot(
                [x],
                [y],
                marker="*",
                markersize=series.size,
                color=colour,
                markeredgecolor="black",
                linestyle="none",
                label=label,
            )
    ax.set_ylim(*chart.y_range)
    ax.set_xlim(*chart.x_range)
    if ticks:
        every = -(-len(ticks) // _MOST_TICKS)
        named = list(ticks)[::every]
        ax.set_xticks([x for x, _ in named], [label for _, label in named])
    elif chart.whole_x:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    _style_axes(ax, chart.title, chart.x_label, chart.y_label)
    ax.title.set_wrap(True)  # a title wider than the figure goes on two lines, not past its edge
    if outside:
        beside: dict[str, Any] = {"loc": chart.legend, "ncols": columns, "frameon": False}  # loc: any "outside ..."
        fig.legend(**beside)
    else:
        ax.legend(loc=chart.legend)
    fig.description = chart.description
    return fig


#: How :func:`chart_svg` writes a chart. ``svg.fonttype`` "none": the text stays text (``<text>`` elements, the
#: browser's fonts draw it), so that a reader can select, search and zoom it, and a name in any script is drawn by
#: the browser's font fallback, where "path" would draw each glyph from matplotlib's one font (DejaVu Sans: a box
#: for a Chinese name) and keep the words only in a comment. ``svg.hashsalt``: the clip paths' ids from a fixed salt,
#: not a random one, so that the same chart is the same bytes. ``text.parse_math`` off: a ``$`` in a typed name is
#: a dollar, never mathtext.
_SVG_RC: dict[RcKeyType, Any] = {"svg.fonttype": "none", "svg.hashsalt": "bleu-teach", "text.parse_math": False}


def _as_typed(text: str) -> str:
    """Typed text as the SVG draws it: control characters and direction overrides as escapes (the text view's
    :func:`~bleu_teach.views.text_writer.safe`), a line break or tab too (a legend's entry is one line)."""
    return safe(text).replace("\n", "\\n").replace("\t", "\\t")


def chart_svg(chart: Chart, ticks: Sequence[tuple[float, str]] = ()) -> str:
    """The chart drawn by :func:`draw_chart` (its horizontal axis's ticks named by ``ticks``, if any) as an SVG
    document, its every text as typed (no mathtext; control characters shown as escapes; matplotlib's SVG writer
    escapes ``<``, ``>`` and ``&``), the same text for the same chart (no date, a fixed hash salt: :data:`_SVG_RC`).
    Drawn in memory by matplotlib's SVG backend, no pyplot: nothing is shown or kept open."""
    typed = dataclasses.replace(
        chart,
        title=_as_typed(chart.title),
        x_label=_as_typed(chart.x_label),
        y_label=_as_typed(chart.y_label),
        series=tuple(dataclasses.replace(s, label=_as_typed(s.label)) for s in chart.series),
    )
    buffer = io.StringIO()
    with matplotlib.rc_context(_SVG_RC), warnings.catch_warnings():
        # The font only measures the text here: a glyph DejaVu Sans lacks is the browser's to draw.
        warnings.filterwarnings("ignore", r"Glyph \d+ .* missing from font", UserWarning)
        figure = draw_chart(typed, tuple((x, "\n".join(map(_as_typed, label.split("\n")))) for x, label in ticks))
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    return buffer.getvalue()


@_styled
def plot_brevity_penalty(
    ref_lens: Sequence[int], hyp_len: int | None = None, max_len: int | None = None
) -> LessonFigure:
    """BP against hypothesis length for the given reference lengths, marking ``hyp_len``
    (:func:`bleu_teach.lessons.curves.brevity_penalty_chart`, drawn)."""
    return draw_chart(brevity_penalty_chart(ref_lens, hyp_len, max_len))


@_styled
def plot_scores(
    scores: Mapping[str, float | str], title: str, ylabel: str = "sentence BLEU", xlabel: str = "smoothing method"
) -> LessonFigure:
    """Bars of named scores (e.g. one per smoothing method), values written on the bars.

    A value that is a string (a method that cannot apply) is drawn as an empty
    slot labelled "n/a".
    """
    fig, ax = _new((9, 4.8))
    names = list(scores)
    values = [float(v) if not isinstance(v, str) else 0.0 for v in scores.values()]
    # One colour: the bars differ only by what the axis already names.
    bars = ax.bar(names, values, color=PALETTE[0], edgecolor="black")
    for i, (bar, raw) in enumerate(zip(bars, scores.values())):
        label = "n/a" if isinstance(raw, str) else f"{values[i]:.3f}"
        ax.annotate(
            label,
            (bar.get_x() + bar.get_width() / 2, bar.get_height()),
            ha="center",
            va="bottom",
            fontsize=13,
            xytext=(0, 3),
            textcoords="offset points",
        )
    ax.set_ylim(0, max(values + [0.1]) * 1.2)
    ax.tick_params(axis="x", rotation=30)
    _style_axes(ax, title, xlabel, ylabel)
    fig.description = figure_text.score_bars(
        title,
        xlabel,
        ylabel,
        [(name, None if isinstance(raw, str) else value) for name, raw, value in zip(names, scores.values(), values)],
    )
    return fig


@_styled
def plot_bootstrap(dist: BootstrapDistribution, bins: int = 30, title: str | None = None) -> LessonFigure:
    """A histogram of the resampled scores, the score and their mean, and the two 95% intervals.

    ``dist`` is a :class:`bleu_teach.lessons.significance.BootstrapDistribution`.
    One colour for the bars (colour encodes nothing); the score, the mean and
    the two intervals are told apart by line style and labelled in the legend.
    The intervals are drawn as horizontal bars above the histogram, sacreBLEU's
    (mean ± half-width) above the percentile one.
    """
    n = len(dist.scores)
    fig, ax = _new((9, 6.8))
    counts, edges, _ = ax.hist(dist.scores, bins=bins, color="#BBBBBB", edgecolor="black")
    top = float(max(counts))
    ax.axvline(dist.score, color="black", linestyle="-", linewidth=2.5, label=f"BLEU of the test set: {dist.score:.2f}")
    ax.axvline(
        dist.mean, color="black", linestyle="--", linewidth=2, label=f"mean of the resampled scores: {dist.mean:.2f}"
    )
    bars = [
        (
            1.20,
            "-.",
            f"sacreBLEU's interval, mean ± half-width: {dist.sacrebleu_low:.2f} to {dist.sacrebleu_high:.2f}",
            dist.sacrebleu_low,
            dist.sacrebleu_high,
        ),
        (
            1.08,
            ":",
            f"percentile interval, 2.5th to 97.5th: {dist.percentile_low:.2f} to {dist.percentile_high:.2f}",
            dist.percentile_low,
            dist.percentile_high,
        ),
    ]
    for height, style, label, low, high in bars:
        ax.plot([low, high], [top * height] * 2, color="black", linestyle=style, linewidth=3, label=label)
        ax.plot([low, high], [top * height] * 2, color="black", linestyle="none", marker="|", markersize=16)
    ax.set_ylim(0, top * 1.32)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    title = title if title is not None else f"BLEU of {n:,} resampled test sets"
    xlabel, ylabel = "corpus BLEU of a resampled test set (0-100)", "number of resampled test sets"
    _style_axes(ax, title, xlabel, ylabel)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), fontsize=13, ncol=1, frameon=False)
    fig.description = figure_text.bootstrap_histogram(
        title,
        xlabel,
        ylabel,
        dist.scores,
        [float(c) for c in counts],
        [float(e) for e in edges],
        [("BLEU of the test set", dist.score), ("mean of the resampled scores", dist.mean)],
        [
            ("sacreBLEU's interval, mean ± half-width", dist.sacrebleu_low, dist.sacrebleu_high),
            ("the percentile interval, 2.5th to 97.5th", dist.percentile_low, dist.percentile_high),
        ],
    )
    return fig


def _metric_axis(table: SystemTable | SegmentTable, metric: str) -> str:
    against = " and ".join(table.references_used)
    lower = ", lower is better" if metric in METRICS and METRICS[metric].lower_is_better else ""
    return f"{metric} against {against} (0-100{lower})"


@_styled
def plot_system_scatter(table: SystemTable, metric: str = "BLEU", title: str | None = None) -> LessonFigure:
    """Each system's corpus ``metric`` (x) against its MQM system score (y), every point labelled with its name.

    ``table`` comes from :func:`bleu_teach.lessons.agreement.system_level`.  Human
    references scored as systems are drawn as black squares and labelled
    "(human)"; machine systems as blue circles (shape, not colour alone).
    """
    xs, ys = table.column(metric), table.mqm_column()
    fig, ax = _new((9, 6.5))
    for row, x, y in zip(table.rows, xs, ys):
        human = row.is_reference
        ax.plot(
            x,
            y,
            linestyle="none",
            marker="s" if human else "o",
            markersize=9 if human else 7,
            color="black" if human else PALETTE[0],
        )
        ax.annotate(
            f"{row.name} (human)" if human else row.name, (x, y), textcoords="offset points", xytext=(5, 4), fontsize=10
        )
    span = max(xs) - min(xs)
    ax.set_xlim(min(xs) - 0.05 * span, max(xs) + 0.25 * span)
    title = title if title is not None else f"{table.pair}: corpus {metric} against expert MQM, one point per system"
    ylabel = "MQM system score (0 = no error, higher is better)"
    _style_axes(ax, title, _metric_axis(table, metric), ylabel)
    fig.description = figure_text.system_scatter(
        title,
        _metric_axis(table, metric),
        ylabel,
        metric,
        [(row.name, row.is_reference, x, y) for row, x, y in zip(table.rows, xs, ys)],
    )
    return fig


@_styled
def plot_segment_bands(table: SegmentTable, metric: str = "BLEU", title: str | None = None) -> LessonFigure:
    """Box plots of sentence ``metric`` for the segments in each MQM band
    (:func:`bleu_teach.lessons.agreement.mqm_bands`).

    ``table`` comes from :func:`bleu_teach.lessons.agreement.segment_level`.  Boxes
    span the middle half (quartiles), the line is the median, whiskers reach
    1.5 times the box; outliers are not drawn, so that 6,000 points do not
    hide the boxes.
    """
    bands = mqm_bands(table, metric)
    groups = [list(band.scores) for band in bands]
    fig, ax = _new((9, 6))
    drawn = ax.boxplot(
        groups,
        showfliers=False,
        widths=0.6,
        medianprops={"color": "black", "linewidth": 2.5},
        boxprops={"facecolor": "#BBBBBB"},
        patch_artist=True,
    )
    ax.set_xticks(
        range(1, len(bands) + 1),
        [f"{band.label.replace(' (', chr(10) + '(')}\nn = {len(band.scores):,}" for band in bands],
    )
    title = title if title is not None else f"{table.pair}: sentence {metric} by the experts' MQM score"
    xlabel = "segment MQM score (error points, negated)"
    ylabel = f"sentence {metric} against {' and '.join(table.references_used)}"
    _style_axes(ax, title, xlabel, ylabel)
    fig.description = figure_text.segment_bands(
        title,
        xlabel,
        ylabel,
        [(band.label, len(band.scores), _box(drawn, i) if band.scores else None) for i, band in enumerate(bands)],
    )
    return fig


def _box(drawn: dict[str, Any], i: int) -> tuple[float, float, float, float, float]:
    """The i-th box as ``boxplot`` drew it: low whisker, lower quartile, median, upper quartile, high whisker."""
    low, high = drawn["whiskers"][2 * i].get_ydata(), drawn["whiskers"][2 * i + 1].get_ydata()
    # Each whisker runs from its quartile (the box's edge) out to its end.
    return (float(low[1]), float(low[0]), float(drawn["medians"][i].get_ydata()[0]), float(high[0]), float(high[1]))
