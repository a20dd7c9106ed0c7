"""Arithmetic: the one place where counts become a BLEU score, NLTK's way and sacreBLEU's way.

Both conventions start from the same counts (:mod:`bleu_teach.bleu.counting`:
clipped matches, n-grams, the two lengths) and the same formula,
BLEU = BP * exp(sum of w_n * log p_n), and differ in the steps:

=============================  ======================================  =====================================
step                           NLTK (:func:`score_counts`)             sacreBLEU (:func:`sacrebleu_score_counts`)
=============================  ======================================  =====================================
scale                          0 to 1                                  0 to 100 (precisions in percent)
a hypothesis shorter than n    order n counts as 0/1                   only real n-grams are counted
weights                        any tuple summing to 1                  uniform, 1/N
a zero p_n, no smoothing       the smallest float (2.2e-308), so a     log 0 floored to -9999999999,
                               tiny positive score and a warning       so the score is 0
orders averaged                every weighted order; auto_reweigh      N, or with effective order the
                               (default weights, < 4 tokens only)      orders before the first with no
                                                                       n-grams
smoothing                      Chen and Cherry's methods 0-7           none, floor, add-k, exp (= method 3)
the sum                        math.fsum, orders with p_n > 0          sum() over the orders used
BP                             1 if c > r, 0 if c = 0, else            the same, as floats
                               exp(1 - r/c) (integers 1 and 0 exact)
=============================  ======================================  =====================================

:func:`score_counts` returns a :class:`BleuResult` for each weight tuple
(the brevity penalty, the exact precisions, the precisions as used after
smoothing, the weights in force, each weighted log term or the reason it is
left out, and the score); ``sentence_bleu``, ``corpus_bleu`` and every
report use it, with NLTK's floating-point steps in NLTK's order, so that
the numbers equal NLTK's (``==``):

    BLEU = BP * exp(fsum(w_n * log p_n for the orders with p_n > 0))

:func:`sacrebleu_score_counts` follows sacreBLEU's ``BLEU.compute_bleu``
step for step (Post, 2018, "A Call for Clarity in Reporting BLEU Scores");
:mod:`bleu_teach.bleu.sacrebleu_api` scores raw strings with it.  Nothing
else combines counts into a BLEU score.

Reference: Papineni et al. (2002), Section 2.2.2 (BP, the geometric mean);
Chen and Cherry (2014) for smoothing.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from bleu_teach.bleu.count_fraction import CountFraction
from bleu_teach.bleu.counting import PooledCounts
from bleu_teach.bleu.smoothing import SmoothingCallable
from bleu_teach.inputs.validation import DEFAULT_WEIGHTS, check_orders, preview

__all__ = [
    "DEFAULT_WEIGHTS",
    "Number",
    "BleuResult",
    "brevity_penalty",
    "score_counts",
    "SACREBLEU_SMOOTHING",
    "SACREBLEU_LOG_FLOOR",
    "SacreArithmetic",
    "sacrebleu_score_counts",
]

Number = int | float | Fraction


def brevity_penalty(r: int, c: int) -> Number:
    """BP = 1 if c > r, else exp(1 - r/c); 0 for an empty hypothesis (Section 2.2.2).

    As in NLTK, the two exact cases are the integers 1 and 0.

    >>> brevity_penalty(28, 12), brevity_penalty(12, 13)
    (0.2635971381157267, 1)
    """
    if c > r:
        return 1
    if c == 0:
        return 0
    try:
        ratio = r / c
    except OverflowError:  # r/c beyond any float: exp(1 - r/c) is 0 (NLTK raises OverflowError here)
        return 0.0
    return math.exp(1 - ratio)


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


def _smoothed_values(values: Any, name: str) -> tuple[Any, ...]:
    """What a smoothing function returned, as a tuple of numbers, or a clear error about that function."""
    what = (
        f"The smoothing function {name!r} returned {preview(values)}; a smoothing function must return "
        f"a list with one number per order, as SmoothingFunction().method1 does"
    )
    if isinstance(values, (str, bytes)):
        raise TypeError(what + ".")
    try:
        smoothed = tuple(values)
    except TypeError:
        raise TypeError(what + ".") from None
    for value in smoothed:
        if isinstance(value, bool) or not isinstance(value, (numbers.Real, Decimal)):
            raise TypeError(f"{what}; {preview(value)} is not a number.")
    return smoothed


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
    bp = brevity_penalty(counts.ref_len, counts.hyp_len)
    k = len(counts.matches)
    precisions = tuple(CountFraction(m, t) for m, t in zip(counts.matches, counts.totals))
    results = []
    if counts.matches[0] == 0:
        # No unigram match at all: the score is 0 whatever the weights and smoothing.
        for weight in weight_group:
            padded = tuple(weight) + (0.0,) * (k - len(weight))
            results.append(
                BleuResult(
                    precisions,
                    precisions,
                    padded,
                    (None,) * k,
                    ("no unigram match: nothing is combined",) * k,
                    None,
                    bp,
                    counts.hyp_len,
                    counts.ref_len,
                    0.0,
                    smoothing_name,
                    True,
                    False,
                )
            )
        return results
    smoothed = _smoothed_values(
        smoothing(list(precisions), references=last_references, hypothesis=last_hypothesis, hyp_len=counts.hyp_len),
        smoothing_name,
    )
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
            if in_force and i >= len(smoothed):
                reason = (
                    "the smoothing function returned no value for this order, and NLTK pairs weights with "
                    "values by zip, so the order is left out (as if p_n were 1)"
                )
            terms.append(weight[i] * math.log(p) if not reason else None)
            reasons.append(reason)
        present = [t for t in terms if t is not None]
        score = bp * math.exp(math.fsum(present))
        padded = tuple(weight) + (0.0,) * (k - len(weight))
        results.append(
            BleuResult(
                precisions,
                tuple(smoothed[:k]) + (None,) * (k - len(smoothed)),
                padded,
                tuple(terms),
                tuple(reasons),
                math.fsum(present) if present else None,
                bp,
                counts.hyp_len,
                counts.ref_len,
                score,
                smoothing_name,
                False,
                reweighed,
            )
        )
    return results


# ---------------------------------------------------------------------------
# sacreBLEU's way (BLEU.compute_bleu), beside NLTK's
# ---------------------------------------------------------------------------

#: sacreBLEU's smoothing methods and their default values.
SACREBLEU_SMOOTHING: dict[str, float | None] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}

#: sacreBLEU floors log(0) to this, so that a zero precision makes the score 0.
SACREBLEU_LOG_FLOOR = -9999999999


@dataclass(frozen=True)
class SacreArithmetic:
    """sacreBLEU's numbers for one set of counts, in its own terms.

    ``counts`` and ``totals`` are as sacreBLEU reports them (with add-k's k
    already added for n > 1); ``precisions`` are in percent; ``orders_used``
    is how many precisions the geometric mean averaged (0 when there is no
    unigram match and the score is 0 without any average).
    """

    score: float
    counts: tuple[float, ...]
    totals: tuple[float, ...]
    precisions: tuple[float, ...]
    bp: float
    orders_used: int


def _log_floor(x: float) -> float:
    return SACREBLEU_LOG_FLOOR if x == 0.0 else math.log(x)


def sacrebleu_score_counts(
    matches: Sequence[int],
    ngrams: Sequence[int],
    sys_len: int,
    ref_len: int,
    method: str = "exp",
    value: float | None = None,
    max_order: int = 4,
    effective_order: bool = False,
) -> SacreArithmetic:
    """Counts to a score the way sacreBLEU's ``BLEU.compute_bleu`` does, step for step (0-100 scale).

    ``matches`` and ``ngrams`` are the clipped matches and the real
    hypothesis n-grams of orders 1 to ``max_order`` (summed over a corpus);
    ``method`` and ``value`` are sacreBLEU's smoothing (``none``, ``floor``,
    ``add-k``, ``exp``; ``value`` None takes its default).

    >>> r = sacrebleu_score_counts([5, 3, 1, 0], [6, 5, 4, 3], sys_len=6, ref_len=6)
    >>> round(r.score, 4), r.precisions[3], r.orders_used
    (37.9918, 16.666666666666668, 4)
    """
    max_order = check_orders(max_order, "max_order")
    if not isinstance(method, str) or method not in SACREBLEU_SMOOTHING:
        raise ValueError(f"Unknown smoothing method {preview(method)}; choose one of {', '.join(SACREBLEU_SMOOTHING)}.")
    if len(matches) != max_order or len(ngrams) != max_order:
        raise ValueError(
            f"matches and ngrams need one count per order 1..max_order ({max_order}); got "
            f"{len(matches)} and {len(ngrams)}."
        )
    try:  # counts past a float's range (10**400) would fail inside the arithmetic
        if not all(math.isfinite(float(x)) for x in (*matches, *ngrams, sys_len, ref_len, value or 0)):
            raise OverflowError
    except OverflowError:
        raise ValueError(
            "The counts, lengths and smoothing value must be finite numbers within a float's range."
        ) from None
    if value is None:
        value = SACREBLEU_SMOOTHING[method]
    counts: list[float] = list(matches)
    totals: list[float] = list(ngrams)
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    precisions = [0.0] * max_order
    if not any(counts):
        return SacreArithmetic(0.0, tuple(counts), tuple(totals), tuple(precisions), bp, 0)
    halving = 1.0
    used = max_order
    for n in range(1, max_order + 1):
        if method == "add-k" and n > 1:
            counts[n - 1] += value  # type: ignore[operator]
            totals[n - 1] += value  # type: ignore[operator]
        if totals[n - 1] == 0:
            break
        if effective_order:
            used = n
        if counts[n - 1] == 0:
            if method == "exp":
                halving *= 2
                precisions[n - 1] = 100.0 / (halving * totals[n - 1])
            elif method == "floor":
                precisions[n - 1] = 100.0 * value / totals[n - 1]  # type: ignore[operator]
        else:
            precisions[n - 1] = 100.0 * counts[n - 1] / totals[n - 1]
    score = bp * math.exp(sum([_log_floor(p) for p in precisions[:used]]) / used)
    return SacreArithmetic(score, tuple(counts), tuple(totals), tuple(precisions), bp, used)
