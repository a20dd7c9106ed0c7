"""Series of numbers for the lessons' tables and plots.

Each function sweeps one thing (the hypothesis length, the smoothing
method, ...) and returns plain rows computed by the core; the plots in
:mod:`bleu_teach.ui.plots` only draw these rows.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from bleu_teach.bleu.arithmetic import Number, brevity_penalty
from bleu_teach.bleu.count_fraction import CountFraction
from bleu_teach.bleu.counting import closest_ref_length, pool, sentence_statistics
from bleu_teach.bleu.explain import explain
from bleu_teach.bleu.nltk_api import check_corpus
from bleu_teach.bleu.smoothing import SMOOTHING_METHODS
from bleu_teach.inputs.validation import (
    check_length,
    check_orders,
    check_references,
    check_tokens,
    check_weight_tuple,
)
from bleu_teach.views.document import Chart, Series
from bleu_teach.views.figure_text import brevity_penalty_curve

__all__ = [
    "LengthRow",
    "length_sweep",
    "bp_curve",
    "brevity_penalty_chart",
    "BP_TITLE",
    "smoothing_comparison",
    "PrecisionRow",
    "corpus_precisions",
    "MAX_SWEEP_LENGTH",
    "MAX_CURVE_LENGTH",
    "MAX_PRECISIONS",
]

#: The longest hypothesis a length sweep scores (each length is a full report: a plot's worth of points).
MAX_SWEEP_LENGTH = 1_000
#: The longest hypothesis length a BP curve goes to (one point per length).
MAX_CURVE_LENGTH = 100_000
#: The most precisions corpus_precisions lists (sentences times orders).
MAX_PRECISIONS = 100_000


def _at_most(value: int, limit: int, name: str, what: str) -> int:
    if value > limit:
        raise ValueError(f"{name} is at most {limit:,} ({what}); got {value:,}.")
    return value


@dataclass(frozen=True)
class LengthRow:
    """One hypothesis length in a sweep."""

    hyp_len: int
    closest_ref_len: int
    brevity_penalty: float
    p1: float
    bleu: float


def length_sweep(
    references: Sequence[Sequence[Hashable]], word: Hashable = "the", max_len: int = 10
) -> list[LengthRow]:
    """BP, modified unigram precision and BLEU-1 for ``word`` repeated 1..max_len times.

    >>> rows = length_sweep([['the', 'cat', 'is', 'on', 'the', 'mat']], 'the', 3)
    >>> [(r.hyp_len, round(r.p1, 3), round(r.brevity_penalty, 3)) for r in rows]
    [(1, 1.0, 0.007), (2, 1.0, 0.135), (3, 0.667, 0.368)]
    """
    refs = check_references(references)
    max_len = _at_most(check_length(max_len, "max_len"), MAX_SWEEP_LENGTH, "max_len", "each length is scored in full")
    if max_len < 1:
        raise ValueError("max_len must be at least 1.")
    rows = []
    for length in range(1, max_len + 1):
        report = explain(refs, [word] * length, weights=(1.0,))
        rows.append(
            LengthRow(
                hyp_len=length,
                closest_ref_len=report.length.closest_ref_len,
                brevity_penalty=float(report.brevity_penalty),
                p1=float(report.orders[0].precision),
                bleu=float(report.score),
            )
        )
    return rows


def bp_curve(ref_lens: Sequence[int], max_len: int) -> list[tuple[int, int, Number]]:
    """(hypothesis length c, closest reference length r, BP) for c = 0..max_len.

    >>> bp_curve([4], 5)[3:]
    [(3, 4, 0.7165313105737893), (4, 4, 1.0), (5, 4, 1)]
    """
    if isinstance(ref_lens, (str, bytes)) or not isinstance(ref_lens, Sequence) or not ref_lens:
        raise ValueError("ref_lens must be a non-empty list of reference lengths, e.g. [6, 7].")
    lens = [check_length(r, "reference length") for r in ref_lens]
    max_len = _at_most(check_length(max_len, "max_len"), MAX_CURVE_LENGTH, "max_len", "one point per length")
    out = []
    for c in range(0, max_len + 1):
        r = closest_ref_length(lens, c)
        out.append((c, r, brevity_penalty(r, c)))
    return out


#: The brevity-penalty chart's title, in the notebook and on the website.
BP_TITLE = "Brevity penalty against hypothesis length"


def brevity_penalty_chart(ref_lens: Sequence[int], hyp_len: int | None = None, max_len: int | None = None) -> Chart:
    """The brevity-penalty chart, described once: BP against the hypothesis length c for c = 1 to ``max_len`` (by
    default twice the longest reference, and past ``hyp_len``), a vertical line at each reference length (the one
    BLEU uses for ``hyp_len`` thicker, and named), and ``hyp_len`` marked with a star.

    >>> chart = brevity_penalty_chart([4, 6], hyp_len=5, max_len=8)
    >>> for series in chart.series[1:]:
    ...     print(series.kind, series.label, series.width)
    rule chosen reference length r = 4 5
    rule reference length 6 2
    star your hypothesis: c = 5, BP = 1.000 2.0
    """
    lens = list(ref_lens) if isinstance(ref_lens, Sequence) and not isinstance(ref_lens, (str, bytes)) else []
    top = max_len if max_len is not None else max(max(lens or [1]) * 2, (hyp_len or 0) + 1, 2)
    points = bp_curve(ref_lens, top)
    if hyp_len is not None and not any(c == hyp_len for c, _, _ in points):
        raise ValueError(
            f"hyp_len: {hyp_len} is beyond the curve's last length {top}; give max_len at least {hyp_len}."
        )
    drawn = [(c, float(bp)) for c, _, bp in points if c > 0]
    series = [Series("line", "BP = exp(1 - r/c) if c <= r, else 1", tuple(drawn), colour=0, width=2.5, size=6)]
    # The reference length BLEU uses for the hypothesis (the closest; of two as close, the shorter) is drawn
    # thicker and named in the legend, so the tie rule is seen, not only read.
    chosen = None if hyp_len is None else next(r for c, r, _ in points if c == hyp_len)
    for i, r in enumerate(sorted(set(lens))):
        label = f"chosen reference length r = {r}" if r == chosen else f"reference length {r}"
        series.append(Series("rule", label, ((r, 0.0),), colour=i + 1, dash=(i + 1) % 4, width=5 if r == chosen else 2))
    marked = None
    if hyp_len is not None:
        marked = (hyp_len, next(bp for c, bp in drawn if c == hyp_len))
        label = f"your hypothesis: c = {hyp_len}, BP = {marked[1]:.3f}"
        series.append(Series("star", label, (marked,), colour=3, size=24))
    xs, ys = [c for c, _ in drawn], [bp for _, bp in drawn]
    return Chart(
        title=BP_TITLE,
        x_label="hypothesis length c (tokens)",
        y_label="brevity penalty",
        x_range=(0, top + 0.5),
        y_range=(-0.02, 1.1),
        series=tuple(series),
        description=brevity_penalty_curve(BP_TITLE, xs, ys, lens, marked, chosen),
        whole_x=True,
        legend="lower right",
    )


def smoothing_comparison(
    references: Sequence[Sequence[Hashable]],
    hypothesis: Sequence[Hashable],
    weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
) -> dict[str, float | str]:
    """Sentence BLEU under each smoothing method (or the reason a method cannot apply)."""
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    weights = check_weight_tuple(weights)  # weights no method can use are refused, not reported eight times
    out: dict[str, Any] = {}
    for name in SMOOTHING_METHODS:
        try:
            out[name] = float(explain(refs, hyp, weights=weights, smoothing=name).score)
        except ValueError as problem:
            out[name] = str(problem)
    return out


@dataclass(frozen=True)
class PrecisionRow:
    """The modified precisions p_1..p_N of one sentence, or of a whole corpus."""

    label: str
    precisions: tuple[CountFraction, ...]


def corpus_precisions(
    list_of_references: Sequence[Sequence[Sequence[Hashable]]],
    hypotheses: Sequence[Sequence[Hashable]],
    max_n: int = 4,
) -> list[PrecisionRow]:
    """p_1..p_max_n of each sentence, then of the corpus (Papineni et al. 2002, Section 2.1).

    The corpus row adds up the clipped counts of every sentence and divides
    by the sum of their n-gram counts: it is not the mean of the sentence
    rows.  The counts are the ones ``corpus_bleu`` uses (NLTK's 0/1 rule for
    a sentence shorter than n included).  Precisions only: no brevity
    penalty, no score.

    >>> rows = corpus_precisions([[['the', 'cat', 'is', 'on', 'the', 'mat']], [['a', 'dog', 'slept']]],
    ...                          [['the', 'cat'], ['a', 'dog', 'slept', 'in', 'the', 'sun', 'all', 'day']], max_n=2)
    >>> [(row.label, [str(p) for p in row.precisions]) for row in rows]
    [('sentence 1', ['2/2', '1/1']), ('sentence 2', ['3/8', '2/7']), ('corpus', ['5/10', '3/8'])]
    """
    refs_list, hyps = check_corpus(list_of_references, hypotheses)
    max_n = check_orders(max_n, "max_n")
    if len(hyps) * max_n > MAX_PRECISIONS:
        raise ValueError(
            f"{len(hyps):,} sentences times max_n = {max_n:,} is {len(hyps) * max_n:,} precisions, more "
            f"than the {MAX_PRECISIONS:,} listed here; use fewer orders or sentences."
        )
    sentences = [sentence_statistics(refs, hyp, max_n, rows=False) for refs, hyp in zip(refs_list, hyps)]
    rows = [
        PrecisionRow(f"sentence {i}", tuple(o.precision for o in s.orders)) for i, s in enumerate(sentences, start=1)
    ]
    pooled = pool(sentences)
    rows.append(PrecisionRow("corpus", tuple(CountFraction(m, t) for m, t in zip(pooled.matches, pooled.totals))))
    return rows
