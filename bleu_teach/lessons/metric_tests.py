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

      K = 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23    (the determinant of their correlation matrix)
      t = (r12 - r13) sqrt((n - 1)(1 + r23))
          / sqrt(2 K (n - 1)/(n - 3) + ((r12 + r13)/2)^2 (1 - r23)^3)

  with n - 3 degrees of freedom; ``p`` is one-sided in the direction
  observed (the convention of mt-metrics-eval's ``WilliamsTest``), and
  ``p_two_sided`` twice it.
- **A paired permutation test** over systems (Deutsch et al., 2021, *A
  Statistical Analysis of Summarization Evaluation Metrics using Resampling
  Methods*, TACL): the variant that swaps whole systems (their code's
  ``permute_systems``; their PERM-BOTH swaps each system's score on each
  input separately, and needs scores per input). Each metric's scores are standardized (minus
  their mean, divided by their standard deviation), then each system's two
  standardized scores are swapped or not, as a coin decides. If the two
  metrics were equally good, every swap would be as likely as the real
  assignment. The one-sided p-value is the share of swaps whose difference
  of correlations is at least the observed one in the same direction (ties
  count: the swap that changes nothing always does); the two-sided one, at
  least as far from 0 either way.

With no difference at all, a one-sided test at 0.05 taken in the direction
the data came out rejects one time in ten, so :meth:`CorrelationComparison.significant`
uses the two-sided values; a one-sided test fits only a direction chosen
before looking.
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
from math import isfinite
from typing import TYPE_CHECKING, Any

from bleu_teach.inputs.optional import needs
from bleu_teach.inputs.validation import check_level, preview
from bleu_teach.lessons.resampling import check_samples, check_seed
from bleu_teach.views.document import Document, Heading, Paragraph
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.viewable import Viewable

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.metric_tables import SystemTable

__all__ = [
    "EXACT_UP_TO",
    "SAMPLES",
    "MAX_ITEMS",
    "WilliamsTest",
    "PermutationTest",
    "CorrelationComparison",
    "CorrelationInterval",
    "check_statistic",
    "williams_test",
    "williams_t",
    "permutation_test",
    "compare_correlations",
    "correlation_interval",
    "rowwise_correlation",
]

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
        raise ValueError(
            f"human, first and second must have one score per system each; they have {len(h)}, {len(a)} and {len(b)}."
        )
    if len(h) < 4:
        raise ValueError(f"comparing two correlations needs at least 4 systems; there are {len(h)}.")
    for name, values in (("human", h), ("first", a), ("second", b)):
        if len(set(values)) == 1:
            raise ValueError(f"every {name} score is the same, so no correlation is defined.")
    return h, a, b


def check_statistic(statistic: Any) -> str:
    """``statistic`` if it is "pearson" or "kendall" (the correlations these tests compare)."""
    if not isinstance(statistic, str) or statistic not in _STATISTICS:
        raise ValueError(f"statistic must be 'pearson' or 'kendall', not {preview(statistic)}.")
    return statistic


@dataclass(frozen=True)
class WilliamsTest:
    """Williams' test of r(first, human) against r(second, human): the three correlations, t, and its p-value.

    ``p`` is one-sided, for "the higher of the two correlations is higher",
    with ``n - 3`` degrees of freedom; ``p_two_sided`` (twice it) asks
    whether they differ in either direction.
    """

    r_first: float
    r_second: float
    r_between: float
    n: int
    t: float
    p: float

    @property
    def p_two_sided(self) -> float:
        return min(1.0, 2 * self.p)


def williams_test(human: Sequence[float], first: Sequence[float], second: Sequence[float]) -> WilliamsTest:
    """Williams' test for the difference between two Pearson correlations with the same human scores.

    >>> w = williams_test([1, 2, 3, 4, 5, 6], [1, 2, 3, 5, 4, 6], [2, 1, 4, 3, 6, 5])
    >>> round(w.r_first, 4), round(w.r_second, 4), round(w.t, 3), round(w.p, 4)
    (0.9429, 0.8286, 1.06, 0.1834)
    """
    h, a, b = _check_three(human, first, second)
    needs("scipy", "Williams' test (SciPy)")
    from scipy.stats import pearsonr

    return _williams(
        float(pearsonr(a, h).statistic), float(pearsonr(b, h).statistic), float(pearsonr(a, b).statistic), len(h)
    )


def _williams(r12: float, r13: float, r23: float, n: int) -> WilliamsTest:
    from scipy.stats import t as t_distribution

    # t is 0 where the two metrics are perfectly correlated and agree equally with the experts: p is then 0.5.
    t = float(williams_t(r12, r13, r23, n))
    return WilliamsTest(r12, r13, r23, n, t, float(t_distribution.sf(abs(t), n - 3)))


def williams_t(r_first: Any, r_second: Any, r_between: Any, n: int) -> Any:
    """Williams' t from the three correlations and n (the formula above); numbers, or NumPy arrays of them.

    Where the denominator is 0 (the two metrics perfectly correlated, and so
    equally close to the experts) t is 0: there is no difference to test.

    >>> [round(float(t), 3) for t in williams_t([0.9, 0.5], [0.8, 0.5], [0.7, 0.7], 10)]
    [0.887, 0.0]
    """
    import numpy as np

    r12, r13, r23 = (
        np.asarray(r_first, dtype=float),
        np.asarray(r_second, dtype=float),
        np.asarray(r_between, dtype=float),
    )
    # K written as (1 - r12)(1 + r12)(1 - r13)(1 + r13) - (r23 - r12 r13)^2, the same number: 1 - r is exact for r
    # near 1, where the sum above of terms near 1 lost digits (at correlations of 0.999999, t's fourth).
    k = (1 - r12) * (1 + r12) * (1 - r13) * (1 + r13) - (r23 - r12 * r13) ** 2
    numerator = (r12 - r13) * np.sqrt((n - 1) * (1 + r23))
    denominator = np.sqrt(np.maximum(0.0, 2 * k * (n - 1) / (n - 3) + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator == 0, 0.0, numerator / np.where(denominator == 0, 1.0, denominator))


def _correlations(statistic: str, human: Any, rows: Any) -> Any:
    """Pearson's r or Kendall's tau-b of each row of ``rows`` (a 2-D array) with ``human``, all at once; NaN for a
    row whose values are all equal (no comparison counts it)."""
    import numpy as np

    return rowwise_correlation(statistic, rows, np.broadcast_to(human, rows.shape))


@dataclass(frozen=True)
class PermutationTest:
    """The paired permutation test of one statistic: both correlations, and how many swaps reached the difference.

    ``difference`` is ``first - second``; ``at_least`` counts the swaps whose
    difference is at least as large in the same direction (one-sided), out of
    ``swaps`` (every one of 2^n when ``exact``).  ``p = at_least / swaps``;
    ``at_least_either_way`` counts those at least as far from 0 in either
    direction (two-sided, ``p_two_sided``).
    """

    statistic: str
    first: float
    second: float
    at_least: int
    swaps: int
    exact: bool
    seed: int | None
    at_least_either_way: int = 0

    @property
    def difference(self) -> float:
        return self.first - self.second

    @property
    def p(self) -> float:
        return self.at_least / self.swaps

    @property
    def p_two_sided(self) -> float:
        return self.at_least_either_way / self.swaps


def permutation_test(
    human: Sequence[float],
    first: Sequence[float],
    second: Sequence[float],
    statistic: str = "pearson",
    n_samples: int = SAMPLES,
    seed: int = 12345,
) -> PermutationTest:
    """The paired permutation test of two correlations with the same human scores, swapping whole systems.

    Exact (all 2^n swaps, ``n_samples`` and ``seed`` unused) for at most
    :data:`EXACT_UP_TO` systems; otherwise ``n_samples`` random swaps from
    NumPy's generator seeded with ``seed``, the real assignment counted as one
    of them.

    >>> p = permutation_test([1, 2, 3, 4, 5, 6], [1, 2, 3, 5, 4, 6], [2, 1, 4, 3, 6, 5])
    >>> round(p.first, 4), round(p.second, 4), p.at_least, p.swaps
    (0.9429, 0.8286, 3, 64)
    """
    h, a, b = _check_three(human, first, second)
    statistic = check_statistic(statistic)
    needs("scipy", "the permutation test (SciPy)")
    import numpy as np
    from scipy.stats import zscore

    n = len(h)
    # Rounded to 12 decimals: z-scores equal in exact arithmetic (equal scores of two metrics with the same mean
    # and spread) stay equal after floating point, so that Kendall's tau-b sees their tie.
    za, zb = np.round(zscore(np.array(a)), 12), np.round(zscore(np.array(b)), 12)
    exact = n <= EXACT_UP_TO
    if exact:
        codes = np.arange(2**n)[:, None]
        swapped = ((codes >> np.arange(n)) & 1).astype(bool)  # row 0: nothing swapped, the real assignment
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
    either_way = int(np.count_nonzero(np.abs(differences) >= abs(observed) - _TIE))
    return PermutationTest(
        statistic,
        float(_correlations(statistic, human_array, za[None, :])[0]),
        float(_correlations(statistic, human_array, zb[None, :])[0]),
        at_least,
        len(differences),
        exact,
        used_seed,
        either_way,
    )


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
        """True if the difference in ``statistic`` is significant at ``alpha``, two-sided, by every test that applies.

        Two-sided, because the one-sided p-values here are taken in the
        direction the data came out: with no difference at all, a one-sided
        test at 0.05 in the observed direction rejects one time in ten.
        """
        statistic = check_statistic(statistic)
        if statistic == "kendall":
            return self.kendall.p_two_sided < self.alpha
        return self.pearson.p_two_sided < self.alpha and self.williams.p_two_sided < self.alpha

    def to_document(self) -> Document:
        """The two correlations, their difference and each test's one- and two-sided p-values, then a plain verdict
        (two-sided)."""
        swaps = (
            f"all {self.pearson.swaps:,} swaps"
            if self.pearson.exact
            else f"{self.pearson.swaps:,} random swaps, seed {self.pearson.seed}"
        )
        rows = (
            (
                "Pearson r",
                f"{self.pearson.first:.4f}",
                f"{self.pearson.second:.4f}",
                f"{self.pearson.difference:+.4f}",
                f"{_p(self.williams.p)} / {_p(self.williams.p_two_sided)}",
                f"{_p(self.pearson.p)} / {_p(self.pearson.p_two_sided)}",
            ),
            (
                "Kendall tau-b",
                f"{self.kendall.first:.4f}",
                f"{self.kendall.second:.4f}",
                f"{self.kendall.difference:+.4f}",
                "(Pearson only)",
                f"{_p(self.kendall.p)} / {_p(self.kendall.p_two_sided)}",
            ),
        )
        verdicts = []
        for label, statistic in (("Pearson's r", "pearson"), ("Kendall's tau", "kendall")):
            verdicts.append(
                f"{label}: "
                + ("the difference is significant" if self.significant(statistic) else "no significant difference")
                + f" at {self.alpha:g}"
            )
        return Document(
            (
                Heading(
                    f"{self.first} and {self.second}: is the difference in agreement with the experts real? "
                    f"{len(self.systems)} systems"
                ),
                TableBlock(
                    (
                        "correlation with MQM",
                        self.first,
                        self.second,
                        "difference",
                        "Williams p (one-sided / two-sided)",
                        f"permutation p (one-sided / two-sided, {swaps})",
                    ),
                    rows,
                ),
                Paragraph(
                    (
                        "Two-sided: how likely a difference at least this large, in either direction, would be if the "
                        "two agreed equally well with the experts; the verdict uses it. One-sided: in the direction "
                        'observed; it answers "is the first really higher?" only if that direction was chosen before '
                        "looking (a new metric against BLEU, say): chosen after looking, it is in effect a test at "
                        "twice its level.",
                    )
                ),
                Paragraph(("; ".join(verdicts) + ".",)),
            )
        )


def _column(table: Any, metric: Any, what: str) -> list[float]:
    from bleu_teach.lessons.metric_tables import LOWER_IS_BETTER, SystemTable

    if not isinstance(table, SystemTable):
        raise TypeError(f"{what} must be a table from system_level, not {type(table).__name__}.")
    if not isinstance(metric, str) or metric not in table.metrics:
        raise ValueError(f"{what}'s metric must be one of {', '.join(table.metrics)}, not {preview(metric)}.")
    return [-v if metric in LOWER_IS_BETTER else v for v in table.column(metric)]


def _label(table: SystemTable, metric: str) -> str:
    against = "both references" if table.reference == "both" else table.reference
    return f"{metric} against {against}"


def compare_correlations(
    first: SystemTable,
    second: SystemTable,
    metric: str = "BLEU",
    second_metric: str | None = None,
    alpha: float = 0.05,
) -> CorrelationComparison:
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
        raise ValueError(
            "first and second must hold the same systems in the same order (use systems_only() on both, "
            "or the same include=)."
        )
    human = first.mqm_column()
    if human != second.mqm_column():
        raise ValueError("first and second must have the same MQM scores: tables of the same language pair.")
    return CorrelationComparison(
        _label(first, metric),
        _label(second, second_metric),
        names,
        williams_test(human, a, b),
        permutation_test(human, a, b, "pearson"),
        permutation_test(human, a, b, "kendall"),
        alpha,
    )


@dataclass(frozen=True)
class CorrelationInterval:
    """A correlation over systems and its bootstrap interval (resampling the systems).

    ``low`` and ``high`` are the percentiles of the resampled correlations
    that leave ``(1 - level) / 2`` out on each side; ``undefined`` counts the
    resamples with no correlation (every drawn system scored the same), which
    are left out.
    """

    statistic: str
    value: float
    low: float
    high: float
    level: float
    samples: int
    undefined: int
    seed: int


def rowwise_correlation(statistic: str, x: Any, y: Any) -> Any:
    """Pearson's r or Kendall's tau-b of each row of ``x`` with the same row of ``y`` (2-D arrays); NaN if undefined.

    The formulas of ``scipy.stats.pearsonr`` and ``scipy.stats.kendalltau``
    (tau-b) on whole arrays at once, for resampling; the tests check them
    against SciPy.

    >>> import numpy as np
    >>> [round(float(v), 4) for v in rowwise_correlation("kendall", np.array([[1, 2, 3, 4], [1, 1, 1, 1]]),
    ...                                                     np.array([[1, 3, 2, 4], [1, 2, 3, 4]]))]
    [0.6667, nan]
    """
    import numpy as np

    constant = (np.ptp(x, axis=1) == 0) | (np.ptp(y, axis=1) == 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        if statistic == "pearson":
            dx = x - x.mean(axis=1, keepdims=True)
            dy = y - y.mean(axis=1, keepdims=True)
            found = (dx * dy).sum(axis=1) / np.sqrt((dx * dx).sum(axis=1) * (dy * dy).sum(axis=1))
        else:
            i, j = np.triu_indices(x.shape[1], k=1)
            sx, sy = np.sign(x[:, i] - x[:, j]), np.sign(y[:, i] - y[:, j])
            pairs = len(i)
            found = (sx * sy).sum(axis=1) / np.sqrt((pairs - (sx == 0).sum(axis=1)) * (pairs - (sy == 0).sum(axis=1)))
    return np.where(constant, np.nan, found)


def correlation_interval(
    human: Sequence[float],
    metric: Sequence[float],
    statistic: str = "pearson",
    n_samples: int = 1000,
    seed: int = 12345,
    level: float = 0.95,
) -> CorrelationInterval:
    """A bootstrap interval for a system-level correlation: the systems resampled with replacement.

    Each resample draws as many systems as there are, with replacement, and
    correlates their metric and human scores (Deutsch et al., 2021, resample
    the systems this way; their experiments' code labels it Boot-System); the
    interval runs between the resampled correlations' percentiles (NumPy's
    ``percentile``, linear).  It says how much the correlation depends on
    which systems happened to take part.

    >>> c = correlation_interval([1, 2, 3, 4, 5, 6, 7, 8], [2, 1, 4, 3, 6, 5, 8, 7], n_samples=200)
    >>> round(c.value, 4), c.low < c.value < c.high, c.samples
    (0.9048, True, 200)
    """
    h = _check_scores(human, "human")
    m = _check_scores(metric, "metric")
    if len(h) != len(m):
        raise ValueError(f"human and metric must have one score per system each; they have {len(h)} and {len(m)}.")
    if len(h) < 3:
        raise ValueError(f"a correlation needs at least 3 systems; there are {len(h)}.")
    statistic = check_statistic(statistic)
    n_samples = check_samples(n_samples, 100)
    seed = check_seed(seed)
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0.5 <= level < 1:
        raise ValueError(f"level must be a number from 0.5 to 1 (0.95 for a 95% interval), not {preview(level)}.")
    needs("numpy", "a bootstrap interval (NumPy)")
    import numpy as np

    hs, ms = np.array(h), np.array(m)
    value = float(rowwise_correlation(statistic, ms[None, :], hs[None, :])[0])
    if value != value:
        raise ValueError("every system has the same score on one side, so no correlation is defined.")
    drawn = np.random.default_rng(seed).integers(0, len(h), size=(n_samples, len(h)))
    found = rowwise_correlation(statistic, ms[drawn], hs[drawn])
    valid = found[~np.isnan(found)]
    low, high = np.percentile(valid, [50 * (1 - level), 50 * (1 + level)])
    return CorrelationInterval(
        statistic, value, float(low), float(high), float(level), n_samples, int(n_samples - len(valid)), seed
    )
