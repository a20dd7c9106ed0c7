"""Text alternatives for the lessons' figures: what each one shows, in words, from the numbers it draws.

:mod:`bleu_teach.ui.plots` hands each writer the values it has just plotted
(bar heights and their labels, the points of each line, the histogram's
counts, the box plot's statistics as drawn) and keeps the text as the
figure's ``description``.  A notebook stores it as the image's ``alt``
metadata and the static site writes it into the ``<img>`` (WCAG 2.1, success
criterion 1.1.1: a text alternative that says what the figure shows).

Each text names the kind of chart, its title and its axes, then the data, short
enough to be listened to: a few bars are read out one by one; a long series
is told by where it starts and ends, where it turns, and where it crosses
another.  Numbers are written as the figure writes them (or, where it writes
none, as the lesson's tables do), so that what a listener hears is what a
reader sees.  Plain text: no markup, no TeX.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = [
    "number",
    "ordinal",
    "series_text",
    "crossings",
    "precision_bars",
    "length_sweep",
    "brevity_penalty_curve",
    "score_bars",
    "bootstrap_histogram",
    "system_scatter",
    "segment_bands",
    "MAX_TURNS",
]

#: A series with more rises, falls and flat stretches than this is told by its extremes instead.
MAX_TURNS = 4


def number(value: float, decimals: int) -> str:
    """``value`` to ``decimals`` places, never "-0.000".

    >>> number(0.30326532985631666, 4), number(-0.0001, 3), number(-2.4052, 3)
    ('0.3033', '0.000', '-2.405')
    """
    text = f"{value:.{decimals}f}"
    return text.lstrip("-") if float(text) == 0 else text


def ordinal(rank: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st.

    >>> [ordinal(k) for k in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def _title(kind: str, title: str) -> str:
    return f'{kind} titled "{title}".'


def _axes(x: str, y: str) -> str:
    return f"Horizontal axis: {x}. Vertical axis: {y}."


def _direction(before: float, after: float) -> int:
    return (after > before) - (after < before)


def series_text(
    name: str,
    xs: Sequence[object],
    ys: Sequence[float],
    at: Callable[[object], str],
    decimals: int,
    preposition: str = "at",
    max_turns: int = MAX_TURNS,
) -> str:
    """One line of a chart in words: where it starts, each rise, fall or flat stretch, where it ends.

    The directions are read from the values as written (``decimals``), so that
    a difference too small to show is no turn.  A series with more than
    ``max_turns`` stretches (:data:`MAX_TURNS`) is told by its ends and its extremes.  ``at`` names
    a point (``preposition`` goes before it: "0.50 at c = 1").

    >>> series_text("BP", [1, 2, 3, 4], [0.5, 1.0, 1.0, 1.0], lambda x: f"c = {x}", 2)
    'BP rises from 0.50 at c = 1 to 1.00 at c = 2, then stays at 1.00 to c = 4'
    """
    if len(xs) != len(ys) or not ys:
        raise ValueError(f"a series needs as many x as y values, at least one; got {len(xs)} and {len(ys)}")
    shown = [number(y, decimals) for y in ys]
    values = [float(s) for s in shown]

    def place(i: int) -> str:
        return f"{preposition} {at(xs[i])}"

    if len(values) == 1:
        return f"{name} is {shown[0]} {place(0)}"
    stretches: list[list[int]] = []  # [direction, first index, last index]
    for i in range(1, len(values)):
        direction = _direction(values[i - 1], values[i])
        if stretches and stretches[-1][0] == direction:
            stretches[-1][2] = i
        else:
            stretches.append([direction, i - 1, i])
    if len(stretches) > max_turns:
        low, high = values.index(min(values)), values.index(max(values))
        return (
            f"{name} goes up and down, from {shown[0]} {place(0)} to {shown[-1]} {place(-1)}: "
            f"lowest {shown[low]} {place(low)}, highest {shown[high]} {place(high)}"
        )
    parts = []
    for k, (direction, first, last) in enumerate(stretches):
        if direction == 0:
            start = f" from {at(xs[first])}" if k == 0 else ""
            parts.append(f"stays at {shown[last]}{start} to {at(xs[last])}")
        else:
            start = f" from {shown[first]} {place(first)}" if k == 0 else ""
            parts.append(f"{'rises' if direction > 0 else 'falls'}{start} to {shown[last]} {place(last)}")
    return f"{name} " + ", then ".join(parts)


def crossings(
    a: tuple[str, Sequence[float]],
    b: tuple[str, Sequence[float]],
    xs: Sequence[object],
    at: Callable[[object], str],
    decimals: int,
) -> list[str]:
    """Where line ``a`` overtakes line ``b`` or falls below it (each a (name, values) pair), compared as written.

    >>> crossings(("BP", [0.1, 0.4, 0.8]), ("p1", [1.0, 0.5, 0.3]), [1, 2, 3], lambda x: f"c = {x}", 2)
    ['BP overtakes p1 between c = 2 and c = 3']
    """
    (a_name, a_values), (b_name, b_values) = a, b
    found = []
    last: tuple[int, int] | None = None  # (index, sign) of the last point where the lines differ
    for i, (y_a, y_b) in enumerate(zip(a_values, b_values)):
        sign = _direction(float(number(y_b, decimals)), float(number(y_a, decimals)))
        if sign == 0:
            continue
        if last is not None and last[1] != sign:
            j = last[0]
            if i == j + 1:
                where = f"between {at(xs[j])} and {at(xs[i])}"
            elif i == j + 2:
                where = f"at {at(xs[j + 1])}"
            else:
                where = f"from {at(xs[j + 1])} to {at(xs[i - 1])}"
            ahead, behind = (a_name, b_name) if sign > 0 else (b_name, a_name)
            found.append(f"{ahead} overtakes {behind} {where}")
        last = (i, sign)
    return found


def _sentences(parts: Sequence[str]) -> str:
    """The non-empty parts as sentences (each written with its capital), a full stop added where missing."""
    return " ".join(p if p.endswith(".") else p + "." for p in parts if p)


def _times(k: int) -> str:
    return {1: "once", 2: "twice"}.get(k, f"{k} times")


# ---------------------------------------------------------------------------
# One writer per plot in bleu_teach.ui.plots
# ---------------------------------------------------------------------------


def precision_bars(title: str, bars: Sequence[tuple[int, int, int, float]]) -> str:
    """``plot_precisions``: each bar is (n, clipped, total, height); the fraction is the bar's label.

    >>> print(precision_bars("Precisions", [(1, 2, 3, 2 / 3), (2, 0, 2, 0.0)]))  # doctest: +NORMALIZE_WHITESPACE
    Bar chart titled "Precisions". Horizontal axis: n-gram order, 1 to 2. Vertical axis: modified precision,
    0 to 1. Each bar is labelled with its fraction, clipped matches over n-grams: p1 = 2/3 (0.6667);
    p2 = 0/2 (0.0000). It falls from 0.6667 for p1 to 0.0000 for p2.
    """
    heights = [height for _, _, _, height in bars]
    values = "; ".join(f"p{n} = {clipped}/{total} ({number(height, 4)})" for n, clipped, total, height in bars)
    trend = series_text("It", [n for n, _, _, _ in bars], heights, lambda n: f"p{n}", 4, "for")
    return _sentences(
        [
            _title("Bar chart", title),
            _axes(f"n-gram order, {bars[0][0]} to {bars[-1][0]}", "modified precision, 0 to 1"),
            f"Each bar is labelled with its fraction, clipped matches over n-grams: {values}",
            trend if len(bars) > 1 else "",
        ]
    )


def length_sweep(title: str, xs: Sequence[int], lines: Sequence[tuple[str, str, Sequence[float]]]) -> str:
    """``plot_length_sweep``: ``lines`` are (name, short name, values), one value per hypothesis length in ``xs``."""
    at: Callable[[object], str] = lambda x: f"length {x}"  # noqa: E731
    told = [series_text(name, xs, ys, at, 4) for name, _, ys in lines]
    crossed = [
        text
        for i, (_, a, ya) in enumerate(lines)
        for _, b, yb in lines[i + 1 :]
        for text in crossings((a, ya), (b, yb), xs, at, 4)
    ]
    return _sentences(
        [
            _title("Line chart", title),
            _axes(f"hypothesis length in tokens, {xs[0]} to {xs[-1]}", "value, 0 to 1"),
            f"{len(lines)} lines, one point per length",
            *told,
            f"The lines cross {_times(len(crossed))}: {'; '.join(crossed)}" if crossed else "",
        ]
    )


def brevity_penalty_curve(
    title: str,
    xs: Sequence[int],
    ys: Sequence[float],
    ref_lens: Sequence[int],
    hypothesis: tuple[int, float] | None,
    chosen: int | None = None,
) -> str:
    """``plot_brevity_penalty``: the curve's points, the reference lengths marked (``chosen``, the one BLEU uses
    for the hypothesis, drawn thicker), the hypothesis marked (c, BP)."""
    at: Callable[[object], str] = lambda x: f"c = {x}"  # noqa: E731
    refs = sorted(set(ref_lens))
    # With several references r is the length closest to c, so the curve dips below 1 again before each longer
    # reference: every stretch is told (two per reference, and the flat end).
    curve = (
        "The curve, BP = exp(1 - r/c) if c is at most r and 1 above,"
        if len(refs) == 1
        else "The curve, BP = exp(1 - r/c) if c is at most r and 1 above, r being the reference length closest to c,"
    )
    marked = (
        f"A vertical line marks the reference length {refs[0]}"
        if len(refs) == 1
        else f"Vertical lines mark the reference lengths {', '.join(map(str, refs[:-1]))} and {refs[-1]}"
    )
    if chosen is not None and len(refs) > 1 and hypothesis is not None:
        c = hypothesis[0]
        tied = [r for r in refs if r != chosen and abs(r - c) == abs(chosen - c)]
        why = f"{chosen} and {tied[0]} are both {abs(chosen - c)} away: the shorter" if tied else "the closest"
        marked += f"; the thicker one, r = {chosen}, is the length BLEU uses for c = {c} ({why})"
    star = (
        ""
        if hypothesis is None
        else (f"A star marks your hypothesis: c = {hypothesis[0]}, BP = {number(hypothesis[1], 3)}")
    )
    return _sentences(
        [
            _title("Line chart", title),
            _axes(f"hypothesis length c in tokens, {xs[0]} to {xs[-1]}", "brevity penalty, 0 to 1"),
            series_text(curve, xs, ys, at, 3, max_turns=2 * len(refs) + 1),
            marked,
            star,
        ]
    )


def score_bars(title: str, xlabel: str, ylabel: str, bars: Sequence[tuple[str, float | None]]) -> str:
    """``plot_scores``: (name, height) per bar, ``None`` for a slot labelled "n/a"; values as written on the bars."""
    read = "; ".join(
        f"{name} {'n/a (no bar: NLTK gives this method no score here)' if value is None else number(value, 3)}"
        for name, value in bars
    )
    drawn = [(value, name) for name, value in bars if value is not None]
    extremes = ""
    if len(drawn) > 1:
        (low, low_name), (high, high_name) = min(drawn, key=lambda d: d[0]), max(drawn, key=lambda d: d[0])
        extremes = f"Highest: {high_name}, {number(high, 3)}; lowest: {low_name}, {number(low, 3)}"
    return _sentences(
        [
            _title("Bar chart", title),
            _axes(xlabel, ylabel),
            f"{len(bars)} bars, each with its value written on it: {read}",
            extremes,
        ]
    )


def bootstrap_histogram(
    title: str,
    xlabel: str,
    ylabel: str,
    scores: Sequence[float],
    counts: Sequence[float],
    edges: Sequence[float],
    marks: Sequence[tuple[str, float]],
    intervals: Sequence[tuple[str, float, float]],
) -> str:
    """``plot_bootstrap``: the resampled scores, the histogram's bar heights and edges, the vertical lines
    (``marks``: label, value) and the interval bars (label, low, high), to 2 decimals as in its legend."""
    tallest = max(counts)
    peaks = [i for i, c in enumerate(counts) if c == tallest]
    spans = " and ".join(f"{number(edges[i], 2)} to {number(edges[i + 1], 2)}" for i in peaks)
    return _sentences(
        [
            _title("Histogram", title),
            _axes(xlabel, ylabel),
            f"{len(scores):,} resampled scores in {len(counts)} bars of equal width, from {number(min(scores), 2)} to "
            f"{number(max(scores), 2)}; the tallest bar{'s' if len(peaks) > 1 else ''}, {int(tallest):,} test sets"
            f"{' each' if len(peaks) > 1 else ''}, span{'' if len(peaks) > 1 else 's'} {spans}",
            "Vertical lines mark " + " and ".join(f"the {label} ({number(value, 2)})" for label, value in marks),
            "Horizontal bars above the histogram mark the 95% intervals: "
            + "; ".join(f"{label}, {number(low, 2)} to {number(high, 2)}" for label, low, high in intervals),
        ]
    )


def system_scatter(
    title: str, xlabel: str, ylabel: str, metric: str, points: Sequence[tuple[str, bool, float, float]]
) -> str:
    """``plot_system_scatter``: (name, is a human reference, metric score x, MQM score y) per point.

    The extremes on each axis, named, and where the best of each axis ranks on the other.
    """

    def name(point: tuple[str, bool, float, float]) -> str:
        return f"the human reference {point[0]}" if point[1] else point[0]

    n = len(points)
    humans = [p[0] for p in points if p[1]]
    machines = n - len(humans)
    if humans:
        several = len(humans) > 1
        who = (
            f"{n} points, each labelled with its name: {machines} machine system{'s' if machines != 1 else ''} as "
            f"circles and the human reference{'s' if several else ''} {' and '.join(humans)}, scored as "
            f"{'systems' if several else 'a system'}, as {'squares' if several else 'a square'}"
        )
    else:
        who = f"{n} points, one per machine system, each labelled with its name"
    low_x, high_x = min(points, key=lambda p: p[2]), max(points, key=lambda p: p[2])
    low_y, high_y = min(points, key=lambda p: p[3]), max(points, key=lambda p: p[3])

    def rank(value: float, axis: Callable[[tuple[str, bool, float, float]], float]) -> str:
        return ordinal(1 + sum(axis(other) > value for other in points))

    return _sentences(
        [
            _title("Scatter plot", title),
            _axes(xlabel, ylabel),
            who,
            f"{metric} runs from {number(low_x[2], 2)} ({name(low_x)}) to {number(high_x[2], 2)} ({name(high_x)}); "
            f"MQM from {number(low_y[3], 3)} ({name(low_y)}) to {number(high_y[3], 3)} ({name(high_y)})",
            f"The highest {metric}, {name(high_x)}, ranks {rank(high_x[3], lambda p: p[3])} of {n} by MQM; "
            f"the best MQM, {name(high_y)}, ranks {rank(high_y[2], lambda p: p[2])} of {n} by {metric}"
            if n > 1
            else "",
        ]
    )


def segment_bands(
    title: str,
    xlabel: str,
    ylabel: str,
    bands: Sequence[tuple[str, int, tuple[float, float, float, float, float] | None]],
) -> str:
    """``plot_segment_bands``: (label, pairs, box) per band, the box as drawn (low whisker, lower quartile,
    median, upper quartile, high whisker) or ``None`` for an empty band; 1 decimal, as the lesson's table."""
    read = []
    for label, count, box in bands:
        if box is None:
            read.append(f"{label}: no pairs")
            continue
        low, q1, median, q3, high = (number(v, 1) for v in box)
        read.append(
            f"{label}, {count:,} pair{'s' if count != 1 else ''}: median {median}, middle half "
            f"{q1} to {q3}, whiskers {low} to {high}"
        )
    drawn = [(label, box[2]) for label, _, box in bands if box is not None]
    medians = (
        ""
        if len(drawn) < 2
        else series_text(
            "The median", [label for label, _ in drawn], [m for _, m in drawn], lambda label: f"band {label}", 1, "in"
        )
    )
    return _sentences(
        [
            _title("Box plot", title),
            _axes(f"{xlabel}, in {len(bands)} bands", ylabel),
            "Each box spans the middle half of the scores of the (system, segment) pairs in a band, a line marks the "
            "median, whiskers reach at most 1.5 box-lengths beyond the box, and single far points are not drawn",
            "; ".join(read),
            medians,
        ]
    )
