"""chrF's arithmetic: counts -> precisions, recalls, F-scores, averages, score (sacreBLEU's steps).

Popović (2015), "chrF: character n-gram F-score for automatic MT
evaluation", WMT; the float steps follow sacreBLEU's ``CHRF._compute_f_score``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bleu_teach.chrf.counting import ChrfNgramRow, ChrfOrderCounts, check_chrf_orders

__all__ = [
    "EPSILON",
    "CHAR_ORDER",
    "WORD_ORDER",
    "BETA",
    "ChrfSettings",
    "ChrfOrder",
    "ChrfResult",
    "chrf_from_counts",
    "chrf_arithmetic",
]

#: sacreBLEU's stand-in for an undefined precision, recall or F-score (``CHRF._compute_f_score``).
EPSILON = 1e-16
#: sacreBLEU's defaults: chrF2 with character 6-grams and no word n-grams.
CHAR_ORDER = 6
WORD_ORDER = 0
BETA = 2


@dataclass(frozen=True)
class ChrfSettings:
    """The options of one chrF computation (``CHRF(...)``'s, with its defaults)."""

    char_order: int = CHAR_ORDER
    word_order: int = WORD_ORDER
    beta: float = BETA
    lowercase: bool = False
    whitespace: bool = False
    eps_smoothing: bool = False

    def __post_init__(self) -> None:
        check_chrf_orders(self.char_order, self.word_order)

    @property
    def name(self) -> str:
        """sacreBLEU's name for the metric: ``chrF2``, ``chrF2++`` (one "+" per word order)."""
        return f"chrF{self.beta}" + "+" * self.word_order

    @property
    def orders(self) -> int:
        return self.char_order + self.word_order

    @property
    def description(self) -> str:
        """The settings in words, one phrase each."""
        return "; ".join(
            [
                f"character n-grams 1 to {self.char_order}" if self.char_order else "no character n-grams",
                f"word n-grams 1 to {self.word_order}" if self.word_order else "no word n-grams",
                f"beta = {self.beta}",
                "lowercased" if self.lowercase else "case-sensitive",
                "whitespace kept in character n-grams"
                if self.whitespace
                else "whitespace removed before character n-grams",
                "eps_smoothing on (mean of the per-order F over all orders)"
                if self.eps_smoothing
                else "eps_smoothing off (F of the mean P and mean R over the orders with n-grams on both sides)",
            ]
        )


@dataclass(frozen=True)
class ChrfOrder:
    """One order as it enters the score: the counts, then P_n, R_n and F_n as sacreBLEU computes them.

    ``precision`` is matches / hypothesis n-grams, or :data:`EPSILON` when
    ``hyp_total`` is 0 (``precision_is_eps``); ``recall`` likewise with the
    reference.  ``f_score`` is (1 + beta^2) P_n R_n / (beta^2 P_n + R_n), or
    :data:`EPSILON` when that denominator is 0 (``f_is_eps``); it enters the
    score only with ``eps_smoothing``.  ``in_average`` says whether P_n and
    R_n enter the averages (n-grams on both sides).
    """

    counts: ChrfOrderCounts
    precision: float
    recall: float
    f_score: float
    f_is_eps: bool
    in_average: bool

    @property
    def kind(self) -> str:
        return self.counts.kind

    @property
    def n(self) -> int:
        return self.counts.n

    @property
    def label(self) -> str:
        return self.counts.label

    @property
    def matches(self) -> int:
        return self.counts.matches

    @property
    def hyp_total(self) -> int:
        return self.counts.hyp_total

    @property
    def ref_total(self) -> int:
        return self.counts.ref_total

    @property
    def hyp_ngrams(self) -> int:
        return self.counts.hyp_ngrams

    @property
    def rows(self) -> tuple[ChrfNgramRow, ...]:
        return self.counts.rows

    @property
    def precision_is_eps(self) -> bool:
        return self.counts.hyp_total == 0

    @property
    def recall_is_eps(self) -> bool:
        return self.counts.ref_total == 0


@dataclass(frozen=True)
class ChrfResult:
    """Every number between the counts and the score (``CHRF._compute_f_score``, step by step).

    ``avg_precision`` and ``avg_recall`` are the means of P_n and R_n over
    the ``effective_order`` orders with n-grams on both sides (0.0 when there
    is none); without ``eps_smoothing`` the score is their F-beta.
    ``f_sum`` is the sum of the per-order F_n; with ``eps_smoothing`` the
    score is 100 * f_sum / (number of orders).  ``score`` is on the 0-100
    scale.
    """

    orders: tuple[ChrfOrder, ...]
    beta: float
    eps_smoothing: bool
    effective_order: int
    avg_precision: float
    avg_recall: float
    f_sum: float
    score: float

    @property
    def beta_squared(self) -> float:
        return self.beta**2


def chrf_from_counts(counts: Sequence[ChrfOrderCounts], beta: float = BETA, eps_smoothing: bool = False) -> ChrfResult:
    """Combine the counts of every order into chrF (0-100), keeping each step.

    The float steps of sacreBLEU's ``CHRF._compute_f_score``, in its order.
    Without ``eps_smoothing`` (sacreBLEU's default)::

        P = mean of P_n, R = mean of R_n   over the orders with hypothesis AND reference n-grams
        chrF = 100 * (1 + beta^2) * P * R / (beta^2 * P + R)          (0 if P + R = 0)

    With ``eps_smoothing``: chrF = 100 * (sum of F_n over all orders) / number
    of orders, F_n = (1 + beta^2) P_n R_n / (beta^2 P_n + R_n), undefined
    values replaced by 1e-16.

    >>> from bleu_teach.chrf.counting import chrf_ngram_counts, chrf_order_counts
    >>> counts = chrf_order_counts(chrf_ngram_counts("abcd", 2), chrf_ngram_counts("abc", 2), 2)
    >>> r = chrf_from_counts(counts)
    >>> r.avg_precision, r.avg_recall, round(r.score, 4)
    (0.7083333333333333, 1.0, 92.3913)
    """
    values = chrf_arithmetic([(o.matches, o.hyp_total, o.ref_total) for o in counts], beta, eps_smoothing)
    per_order, effective_order, avg_precision, avg_recall, f_sum, score = values
    orders = [
        ChrfOrder(o, precision, recall, f_score, f_is_eps, in_average)
        for o, (precision, recall, f_score, f_is_eps, in_average) in zip(counts, per_order)
    ]
    return ChrfResult(tuple(orders), beta, eps_smoothing, effective_order, avg_precision, avg_recall, f_sum, score)


#: Per order: P_n, R_n, F_n, whether F_n is the stand-in 1e-16, whether the order enters the averages.
OrderValues = tuple[float, float, float, bool, bool]


def chrf_arithmetic(
    counts: Sequence[tuple[int, int, int]], beta: float = BETA, eps_smoothing: bool = False
) -> tuple[list[OrderValues], int, float, float, float, float]:
    """The arithmetic of :func:`chrf_from_counts` on bare counts: the one place chrF's float steps are written.

    ``counts`` holds, per order, (matches, hypothesis n-grams as they enter
    the score, reference n-grams).  Returns the per-order values, the
    effective order, the mean precision and recall, the sum of the F_n and
    the score (0-100): the corpus path scores each reference with it, and
    :func:`chrf_from_counts` keeps every value in its records.

    >>> chrf_arithmetic([(3, 4, 3), (2, 3, 2)])[1:]
    (2, 0.7083333333333333, 1.0, 1.8465909090909092, 92.39130434782608)
    """
    factor = beta**2
    per_order: list[OrderValues] = []
    f_sum = 0.0
    effective_order = 0
    avg_precision, avg_recall = 0.0, 0.0
    for matches, hyp_total, ref_total in counts:
        precision = matches / hyp_total if hyp_total > 0 else EPSILON
        recall = matches / ref_total if ref_total > 0 else EPSILON
        denominator = factor * precision + recall
        f_score = ((1 + factor) * precision * recall / denominator) if denominator > 0 else EPSILON
        f_sum += f_score
        in_average = hyp_total > 0 and ref_total > 0
        if in_average:
            avg_precision += precision
            avg_recall += recall
            effective_order += 1
        per_order.append((precision, recall, f_score, not denominator > 0, in_average))

    if effective_order == 0:
        avg_precision = avg_recall = 0.0
    else:
        avg_precision /= effective_order
        avg_recall /= effective_order

    if eps_smoothing:
        score = 100 * f_sum / len(per_order)
    elif avg_precision + avg_recall:
        score = (1 + factor) * avg_precision * avg_recall
        score /= (factor * avg_precision) + avg_recall
        score = 100 * score
    else:
        score = 0.0
    return per_order, effective_order, avg_precision, avg_recall, f_sum, score
