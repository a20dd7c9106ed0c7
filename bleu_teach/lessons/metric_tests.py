"""Is one correlation with the experts really higher than another? Tests over the same systems.

Two correlations with the same human scores, over the same systems, are not
independent: both share the human scores, and two metrics (or one metric
against two references) usually agree with each other. Comparing their
p-values, or their confidence intervals one by one, ignores that. Two tests
that do not:

- **Williams' test** (Williams, 1959), for two Pearson correlations that share
  one variable, the test the WMT metrics tasks used for system-level Pearson
  (Graham and Baldwin, 2014, *Testing for Significance of Increased
  Correlation with Human Judgment*, EMNLP). With r12 and r13 the two metrics'
  correlations with the human scores, r23 their correlation with each other
  and n systems::

      K = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23
      t = (r12 - r13) sqrt((n - 1)(1 + r23))
          / sqrt(2 K (n - 1)/(n - 3) + ((r12 + r13)/2)^2 (1 - r23)^3)

  with n - 3 degrees of freedom; the p-value is one-sided (is the higher
  correlation higher?), as at WMT.
- **A paired permutation test** over systems (Deutsch et al., 2021, *A
  Statistical Analysis of Summarization Evaluation Metrics using Resampling
  Methods*, TACL: "PERM-BOTH"). Each metric's scores are standardized (minus
  their mean, divided by their standard deviation), then each system's two
  standardized scores are swapped or not, as a coin decides. If the two
  metrics were equally good, every swap would be as likely as the real
  assignment. The p-value is the share of swaps whose difference of
  correlations is at least the observed one (ties count: a swap that merely
  exchanges the two metrics everywhere, or changes nothing, always does).
  With at most :data:`EXACT_UP_TO` systems every one of the 2^n swaps is
  tried (an exact test, no seed); with more, :data:`SAMPLES` seeded random ones.
  It works for Pearson's r and for Kendall's tau-b alike.

:func:`compare_correlations` runs both on two columns of system tables
(:func:`bleu_teach.lessons.agreement.system_level`), for instance BLEU against
one reference and BLEU against two, or BLEU and chrF.  Pearson's r and
Kendall's tau-b are ``scipy.stats.pearsonr`` and ``scipy.stats.kendalltau``
for the observed values; the permutations use the same formulas on whole
arrays at once (the tests check them against SciPy).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import isfinite, sqrt
from typing import TYPE_CHECKING, Any

from bleu_teach.inputs.optional import needs
from bleu_teach.inputs.validation import check_level, preview
from bleu_teach.lessons.resampling import check_samples, check_seed
from bleu_teach.views.document import Document, Heading, Paragraph, Table as TableBlock
from bleu_teach.views.viewable import Viewable

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.agreement import SystemTable

__all__ = ["EXACT_UP_TO", "SAMPLES", "MAX_ITEMS", "WilliamsTest", "PermutationTest", "CorrelationComparison",
           "williams_test", "permutation_test", "compare_correlations"]

#: Up to this many systems the permutation test tries every swap (2^16 = 65,536 of them).
EXACT_UP_TO = 16
#: Random swaps drawn when there are more systems than :data:`EXACT_UP_TO`.
SAMPLES = 10_000
#: The most systems (or items) a test takes.
MAX_ITEMS = 10_000

_STATISTICS = ("pearson", "kendall")
#: Two differences closer than this count as equal (the same correlation reached by another sum order).
_TIE = 1e-12


def _check_scores(values: Any, what: str) -> list[float]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence):
        raise TypeError(f"{what} must be a list of numbers, one per system, not {preview(values)}.")
    if len(values) > MAX_ITEMS:
        raise ValueError(f"{what} has {len(values):,} values; a test takes at most {MAX_ITEMS:,}.")
    out = []
    for i, v in enumerate(values):
        if isinstance(v, bool) or not isinstance(v, (int, float)) and not hasattr(v, "__float__"):
            raise TypeError(f"{what}[{i}] must be a number, not {preview(v)}.")
        try:
            f = float(v)
        except (OverflowError, ValueError, TypeError):
            f = float("nan")
        if not isfinite(f):
            raise ValueError(f"{what}[{i}] must be a finite number, not {preview(v)}.")
        out.append(f)
    return out


def _check_three(human: Any, first: Any, second: Any) -> tuple[list[float], list[float], list[float]]:
    h = _check_scores(human, "human")
    a = _check_scores(first, "first")
    b = _check_scores(second, "second")
    if not len(h) == len(a) == len(b):
        raise ValueError(f"human, first and second must have one score per system each; they have "
                         f"{len(h)}, {len(a)} and {len(b)}.")
    if len(h) < 4:
        raise ValueError(f"comparing two correlations needs at least 4 systems; there are {len(h)}.")
    for name, values in (("human", h), ("first", a), ("second", b)):
        if len(set(values)) == 1:
            raise ValueError(f"every {name} score is the same, so no correlation is defined.")
    return h, a, b


def _check_statistic(statistic: Any) -> str:
    if not isinstance(statistic, str) or statistic not in _STATISTICS:
        raise ValueError(f"statistic must be 'pearson' or 'kendall', not {preview(statistic)}.")
    return statistic


@dataclass(frozen=True)
class WilliamsTest:
    """Williams' test of r(first, human) against r(second, human): the three correlations, t, and its p-value.

    ``p`` is one-sided, for "the higher of the two correlations is higher",
    with ``n - 3`` degrees of freedom.
    """

    r_first: float
    r_second: float
    r_between: float
    n: int
    t: float
    p: float


def williams_test(human: Sequence[float], first: Sequence[float], second: Sequence[float]) -> WilliamsTest:
    """Williams' test for the difference between two Pearson correlations with the same human scores.

    >>> w = williams_test([1, 2, 3, 4, 5, 6], [1, 2, 3, 5, 4, 6], [2, 1, 4, 3, 6, 5])
    >>> round(w.r_first, 4), round(w.r_second, 4), round(w.t, 3), round(w.p, 4)
    (0.9429, 0.8286, 1.06, 0.1834)
    """
    h, a, b = _check_three(human, first, second)
    needs("scipy", "Williams' test (SciPy)")
    from scipy.stats import pearsonr, t as t_distribution

    r12 = float(pearsonr(a, h).statistic)
    r13 = float(pearsonr(b, h).statistic)
    r23 = float(pearsonr(a, b).statistic)
    n = len(h)
    k = 1 - r12 ** 2 - r13 ** 2 - r23 ** 2 + 2 * r12 * r13 * r23
    numerator = (r12 - r13) * sqrt((n - 1) * (1 + r23))
    denominator = sqrt(max(0.0, 2 * k * (n - 1) / (n - 3) + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3))
    if denominator == 0:
        # The two metrics are perfectly correlated and agree equally with the experts: no difference to test.
        return WilliamsTest(r12, r13, r23, n, 0.0, 0.5)
    t = numerator / denominator
    return WilliamsTest(r12, r13, r23, n, t, float(t_distribution.sf(abs(t), n - 3)))


def _correlations(statistic: str, human: Any, rows: Any) -> Any:
    """Pearson's r or Kendall's tau-b of each row of ``rows`` (a 2-D array) with ``human``, all at once."""
    import numpy as np

    if statistic == "pearson":
        x = rows - rows.mean(axis=1, keepdims=True)
        y = human - human.mean()
        return (x @ y) / np.sqrt((x * x).sum(axis=1) * (y @ y))
    i, j = np.triu_indices(len(human), k=1)
    sign_h = np.sign(human[i] - human[j])
    sign_m = np.sign(rows[:, i] - rows[:, j])
    pairs = len(i)
    tied_h = pairs - np.count_nonzero(sign_h)
    tied_m = pairs - np.count_nonzero(sign_m, axis=1)
    return (sign_m @ sign_h) / np.sqrt((pairs - tied_h) * (pairs - tied_m))


@dataclass(frozen=True)
class PermutationTest:
    """The paired permutation test of one statistic: both correlations, and how many swaps reached the difference.

    ``difference`` is ``first - second``; ``at_least`` counts the swaps whose
    difference is at least as large in the same direction (one-sided), out of
    ``swaps`` (every one of 2^n when ``exact``).  ``p = at_least / swaps``.
    """

    statistic: str
    first: float
    second: float
    at_least: int
    swaps: int
    exact: bool
    seed: int | None

    @property
    def difference(self) -> float:
        return self.first - self.second

    @property
    def p(self) -> float:
        return self.at_least / self.swaps


def permutation_test(human: Sequence[float], first: Sequence[float], second: Sequence[float],
                     statistic: str = "pearson", n_samples: int = SAMPLES, seed: int = 12345) -> PermutationTest:
    """The paired permutation test (PERM-BOTH) of two correlations with the same human scores, over systems.

    Exact (all 2^n swaps, ``n_samples`` and ``seed`` unused) for at most
    :data:`EXACT_UP_TO` systems; otherwise ``n_samples`` random swaps from
    NumPy's generator seeded with ``seed``, the real assignment counted as one
    of them.

    >>> p = permutation_test([1, 2, 3, 4, 5, 6], [1, 2, 3, 5, 4, 6], [2, 1, 4, 3, 6, 5])
    >>> round(p.first, 4), round(p.second, 4), p.at_least, p.swaps
    (0.9429, 0.8286, 3, 64)
    """
    h, a, b = _check_three(human, first, second)
    statistic = _check_statistic(statistic)
    needs("scipy", "the permutation test (SciPy)")
    import numpy as np
    from scipy.stats import zscore

    n = len(h)
    za, zb = zscore(np.array(a)), zscore(np.array(b))
    exact = n <= EXACT_UP_TO
    if exact:
        codes = np.arange(2 ** n)[:, None]
        swapped = ((codes >> np.arange(n)) & 1).astype(bool)   # row 0: nothing swapped, the real assignment
        used_seed = None
    else:
        n_samples = check_samples(n_samples, 100)
        used_seed = check_seed(seed)
        drawn = np.random.default_rng(used_seed).integers(0, 2, size=(n_samples - 1, n)).astype(bool)
        swapped = np.vstack([np.zeros((1, n), dtype=bool), drawn])
    as_first = np.where(swapped, zb, za)
    as_second = np.where(swapped, za, zb)
    human_array = np.array(h)
    differences = _correlations(statistic, human_array, as_first) - _correlations(statistic, human_array, as_second)
    observed = differences[0]
    if observed >= 0:
        at_least = int(np.count_nonzero(differences >= observed - _TIE))
    else:
        at_least = int(np.count_nonzero(differences <= observed + _TIE))
    return PermutationTest(statistic, float(_correlations(statistic, human_array, za[None, :])[0]),
                           float(_correlations(statistic, human_array, zb[None, :])[0]), at_least,
                           len(differences), exact, used_seed)


def _p(p: float) -> str:
    return "< 0.0001" if p < 0.0001 else f"{p:.4f}"


@dataclass(frozen=True, repr=False)
class CorrelationComparison(Viewable):
    """Two correlations with the same experts over the same systems, and the tests of their difference.

    ``first`` and ``second`` name the two columns (a metric, and the reference
    it was scored against).  ``williams`` is for Pearson's r; ``pearson`` and
    ``kendall`` are the permutation tests of each statistic.
    """

    first: str
    second: str
    systems: tuple[str, ...]
    williams: WilliamsTest
    pearson: PermutationTest
    kendall: PermutationTest
    alpha: float

    def significant(self, statistic: str) -> bool:
        """True if the difference in ``statistic`` is significant at ``alpha`` by every test that applies to it."""
        statistic = _check_statistic(statistic)
        if statistic == "kendall":
            return self.kendall.p < self.alpha
        return self.pearson.p < self.alpha and self.williams.p < self.alpha

    def to_document(self) -> Document:
        """The two correlations, their difference and each test's one-sided p-value, then a plain verdict."""
        swaps = (f"all {self.pearson.swaps:,} swaps" if self.pearson.exact
                 else f"{self.pearson.swaps:,} random swaps, seed {self.pearson.seed}")
        rows = (("Pearson r", f"{self.pearson.first:.4f}", f"{self.pearson.second:.4f}",
                 f"{self.pearson.difference:+.4f}", _p(self.williams.p),
                 f"{_p(self.pearson.p)} ({self.pearson.at_least:,} of {self.pearson.swaps:,})"),
                ("Kendall tau-b", f"{self.kendall.first:.4f}", f"{self.kendall.second:.4f}",
                 f"{self.kendall.difference:+.4f}", "(Pearson only)",
                 f"{_p(self.kendall.p)} ({self.kendall.at_least:,} of {self.kendall.swaps:,})"))
        verdicts = []
        for label, statistic in (("Pearson's r", "pearson"), ("Kendall's tau", "kendall")):
            verdicts.append(f"{label}: " + ("the difference is significant" if self.significant(statistic)
                                            else "no significant difference") + f" at {self.alpha:g}")
        return Document((
            Heading(f"{self.first} and {self.second}: is the difference in agreement with the experts real? "
                    f"{len(self.systems)} systems"),
            TableBlock(("correlation with MQM", self.first, self.second, "difference",
                        "Williams p", f"permutation p ({swaps})"), rows),
            Paragraph(("Both p-values are one-sided, in the direction of the observed difference: how likely a "
                       "difference at least this large in this direction would be if the two agreed equally well.",)),
            Paragraph(("; ".join(verdicts) + ".",))))


def _column(table: Any, metric: Any, what: str) -> list[float]:
    from bleu_teach.lessons.agreement import LOWER_IS_BETTER, SystemTable

    if not isinstance(table, SystemTable):
        raise TypeError(f"{what} must be a table from system_level, not {type(table).__name__}.")
    if not isinstance(metric, str) or metric not in table.metrics:
        raise ValueError(f"{what}'s metric must be one of {', '.join(table.metrics)}, not {preview(metric)}.")
    return [-v if metric in LOWER_IS_BETTER else v for v in table.column(metric)]


def _label(table: "SystemTable", metric: str) -> str:
    against = "both references" if table.reference == "both" else table.reference
    return f"{metric} against {against}"


def compare_correlations(first: "SystemTable", second: "SystemTable", metric: str = "BLEU",
                         second_metric: str | None = None, alpha: float = 0.05) -> CorrelationComparison:
    """Is ``metric`` in ``first`` closer to the experts than ``second_metric`` (default: the same) in ``second``?

    Both tables must hold the same systems in the same order with the same
    MQM scores (for instance two :func:`~bleu_teach.lessons.agreement.system_level`
    tables of one language pair against different references, or one table
    twice with two metrics).  A lower-is-better metric (TER) is negated, as in
    :func:`~bleu_teach.lessons.agreement.correlations`.

    >>> from bleu_teach.lessons.agreement import system_level
    >>> from bleu_teach.lessons.data import wmt21_ted
    >>> ted = wmt21_ted("zh-en")
    >>> c = compare_correlations(system_level(ted, metrics=("BLEU",)), system_level(ted, metrics=("BLEU",),
    ...                          reference="both"))
    >>> round(c.pearson.first, 4), round(c.pearson.second, 4), c.significant("pearson")
    (0.3315, 0.1852, False)
    """
    second_metric = metric if second_metric is None else second_metric
    a = _column(first, metric, "first")
    b = _column(second, second_metric, "second")
    alpha = check_level(alpha)
    names = tuple(row.name for row in first.rows)
    if names != tuple(row.name for row in second.rows):
        raise ValueError("first and second must hold the same systems in the same order (use systems_only() on both, "
                         "or the same include=).")
    human = first.mqm_column()
    if human != second.mqm_column():
        raise ValueError("first and second must have the same MQM scores: tables of the same language pair.")
    return CorrelationComparison(_label(first, metric), _label(second, second_metric), names,
                                 williams_test(human, a, b), permutation_test(human, a, b, "pearson"),
                                 permutation_test(human, a, b, "kendall"), alpha)
