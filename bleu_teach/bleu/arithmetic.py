"""Arithmetic: the one place where counts become a BLEU score.

:func:`score_counts` takes the counts from :mod:`bleu_teach.bleu.counting`
(clipped matches, totals, the two lengths) and returns a
:class:`BleuResult` for each weight tuple: the brevity penalty, the exact
precisions, the precisions as used after smoothing, the weights in force,
each weighted log term (or the reason it is left out) and the score.
``sentence_bleu``, ``corpus_bleu`` and every report use it; nothing else
combines counts into a score.

The floating-point steps are NLTK's, in NLTK's order, so that the numbers
are equal to NLTK's (``==``):

    BLEU = BP * exp(fsum(w_n * log p_n for the orders with p_n > 0))

Reference: Papineni et al. (2002), Section 2.2.2 (BP, the geometric mean);
Chen and Cherry (2014) for smoothing.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Union

from bleu_teach.inputs.validation import DEFAULT_WEIGHTS
from bleu_teach.bleu.smoothing import SmoothingCallable
from bleu_teach.bleu.counting import CountFraction, PooledCounts

__all__ = ["DEFAULT_WEIGHTS", "Number", "BleuResult", "brevity_penalty_value", "score_counts"]

Number = Union[int, float, Fraction]


def brevity_penalty_value(r: int, c: int) -> Number:
    """BP = 1 if c > r, else exp(1 - r/c); 0 for an empty hypothesis (Section 2.2.2).

    As in NLTK, the two exact cases are the integers 1 and 0.

    >>> brevity_penalty_value(28, 12), brevity_penalty_value(12, 13)
    (0.2635971381157267, 1)
    """
    if c > r:
        return 1
    if c == 0:
        return 0
    return math.exp(1 - r / c)


@dataclass(frozen=True)
class BleuResult:
    """A BLEU score and every number it was computed from.

    One entry per counted order in ``precisions``, ``smoothed``,
    ``weights`` and ``log_terms`` (the weights in force are padded with 0.0
    for orders that a shorter weight tuple does not use).  ``log_terms[i]``
    is ``w_n * log p_n`` as added into the sum, or None when the order is
    left out; ``left_out`` says why for each order ("" when it is in).
    """

    precisions: tuple[CountFraction, ...]
    smoothed: tuple[Any, ...]
    weights: tuple[float, ...]
    log_terms: tuple[float | None, ...]
    left_out: tuple[str, ...]
    log_sum: float | None
    brevity_penalty: Number
    hyp_len: int
    ref_len: int
    score: float
    smoothing: str
    no_unigram_match: bool
    reweighed: bool


def _left_out_reason(weight_in_force: bool, smoothed: Any) -> str:
    if not weight_in_force:
        return "no weight for this order"
    if not smoothed > 0:
        return "its precision is 0 even after smoothing, and NLTK leaves such orders out (as if p_n were 1)"
    return ""


def score_counts(
    counts: PooledCounts,
    weight_group: Sequence[Sequence[float]],
    smoothing: SmoothingCallable,
    smoothing_name: str,
    auto_reweigh: bool,
    last_references: Sequence[Sequence[Hashable]],
    last_hypothesis: Sequence[Hashable],
    default_tuples: Sequence[bool] | None = None,
) -> list[BleuResult]:
    """Counts -> one :class:`BleuResult` per weight tuple, with NLTK's arithmetic.

    ``counts`` must hold at least as many orders as the longest weight
    tuple.  The smoothing function is called once, as NLTK calls it: with
    the pooled precisions, the last sentence's references and hypothesis
    (methods 5 to 7 read them) and the pooled hypothesis length.
    ``auto_reweigh`` replaces the default weights, given exactly as the
    tuple (0.25, 0.25, 0.25, 0.25), by 1/c for each of the c orders when the
    hypothesis length c is below 4 (NLTK's rule); ``default_tuples`` says,
    for each weight tuple, whether it was given that way (by default:
    whether it equals that tuple).

    >>> from bleu_teach.bleu.smoothing import get_smoothing
    >>> counts = PooledCounts((5, 3), (6, 5), (6, 5), 6, 6)
    >>> result = score_counts(counts, [(0.5, 0.5)], get_smoothing(0), "method0", False, (), ())[0]
    >>> result.precisions, round(result.score, 4)
    ((CountFraction(5, 6), CountFraction(3, 5)), 0.7071)
    """
    bp = brevity_penalty_value(counts.ref_len, counts.hyp_len)
    k = len(counts.matches)
    precisions = tuple(CountFraction(m, t) for m, t in zip(counts.matches, counts.totals))
    results = []
    if counts.matches[0] == 0:
        # No unigram match at all: the score is 0 whatever the weights and smoothing.
        for weight in weight_group:
            padded = tuple(weight) + (0.0,) * (k - len(weight))
            results.append(BleuResult(
                precisions, precisions, padded, (None,) * k,
                ("no unigram match: nothing is combined",) * k,
                None, bp, counts.hyp_len, counts.ref_len, 0.0, smoothing_name, True, False))
        return results
    smoothed = tuple(smoothing(list(precisions), references=last_references, hypothesis=last_hypothesis,
                               hyp_len=counts.hyp_len))
    flags = list(default_tuples) if default_tuples is not None else [tuple(w) == DEFAULT_WEIGHTS for w in weight_group]
    for weight, given_as_default in zip(weight_group, flags):
        reweighed = False
        if auto_reweigh and counts.hyp_len < 4 and given_as_default:
            weight = (1 / counts.hyp_len,) * counts.hyp_len
            reweighed = True
        terms: list[float | None] = []
        reasons = []
        for i in range(k):
            in_force = i < len(weight)
            p = smoothed[i] if i < len(smoothed) else 0
            reason = _left_out_reason(in_force, p)
            terms.append(weight[i] * math.log(p) if not reason else None)
            reasons.append(reason)
        present = [t for t in terms if t is not None]
        score = bp * math.exp(math.fsum(present))
        padded = tuple(weight) + (0.0,) * (k - len(weight))
        results.append(BleuResult(
            precisions, smoothed, padded, tuple(terms), tuple(reasons),
            math.fsum(present) if present else None, bp, counts.hyp_len, counts.ref_len, score,
            smoothing_name, False, reweighed))
    return results
