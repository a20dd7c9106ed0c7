"""How many systems a comparison of two metrics needs: Williams' test from three correlations, and its power.

Lesson 09's comparisons of two metrics over 13 systems all end "not
significant".  That is a statement about 13 systems, not about metric
comparisons: with the same three correlations (each metric's with the
experts, and the two metrics' with each other) on more systems, Williams'
test (:mod:`bleu_teach.lessons.metric_tests`) gives smaller p-values, and a
larger true difference is found more often.

- :func:`williams_from_correlations`: the test from the three correlations
  and a number of systems (what it would say if other systems gave the same
  correlations).
- :func:`williams_power`: how often the two-sided test finds a true
  difference, by simulation (normal scores with the given correlations).
- :func:`williams_smallest_gap`: how far apart the two correlations must be
  for the test on ``n`` systems to be significant.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import sqrt
from typing import Any

from bleu_teach.inputs.optional import needs
from bleu_teach.inputs.validation import check_level, preview
from bleu_teach.lessons.metric_tests import MAX_ITEMS, WilliamsTest, williams_t
from bleu_teach.lessons.resampling import check_samples, check_seed

__all__ = [
    "MAX_POWER_SYSTEMS",
    "WilliamsPower",
    "williams_from_correlations",
    "williams_power",
    "williams_smallest_gap",
]


def _check_correlation(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not -1 < value < 1:
        raise ValueError(f"{what} must be a correlation strictly between -1 and 1, not {preview(value)}.")
    return float(value)


def _check_three_correlations(r_first: Any, r_second: Any, r_between: Any, n: Any, most: int) -> int:
    r12 = _check_correlation(r_first, "r_first")
    r13 = _check_correlation(r_second, "r_second")
    r23 = _check_correlation(r_between, "r_between")
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"n must be a whole number of systems, not {preview(n)}.")
    if not 4 <= n <= most:
        raise ValueError(f"n must be from 4 to {most:,} systems; got {n:,}.")
    if 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23 <= 0:
        raise ValueError(
            f"no three sets of scores have these correlations (r_first {r12:g}, r_second {r13:g}, "
            f"r_between {r23:g}): with r_between {r23:g}, r_first must lie within "
            f"{r13 * r23:g} \u00b1 {sqrt((1 - r13**2) * (1 - r23**2)):g}."
        )
    return n


def williams_from_correlations(r_first: float, r_second: float, r_between: float, n: int) -> WilliamsTest:
    """Williams' test from the three correlations and the number of systems, without the scores.

    What the test would say if another ``n`` systems gave the same three
    correlations: :func:`williams_test` on the scores is this on their
    correlations.

    >>> from bleu_teach.lessons.metric_tests import williams_test
    >>> w = williams_test([1, 2, 3, 4, 5, 6], [1, 2, 3, 5, 4, 6], [2, 1, 4, 3, 6, 5])
    >>> williams_from_correlations(w.r_first, w.r_second, w.r_between, 6) == w
    True
    >>> round(williams_from_correlations(w.r_first, w.r_second, w.r_between, 60).p, 5)
    4e-05
    """
    n = _check_three_correlations(r_first, r_second, r_between, n, MAX_ITEMS)
    needs("scipy", "Williams' test (SciPy)")
    from scipy.stats import t as t_distribution

    t = float(williams_t(r_first, r_second, r_between, n))
    return WilliamsTest(
        float(r_first), float(r_second), float(r_between), n, t, float(t_distribution.sf(abs(t), n - 3))
    )


#: The most systems a power simulation draws (each sample draws three scores for each).
MAX_POWER_SYSTEMS = 1_000


@dataclass(frozen=True)
class WilliamsPower:
    """How often Williams' test finds a true difference between two correlations: a simulation.

    ``power`` is the share of the ``samples`` simulated experiments, each on
    ``n`` systems whose human, first and second scores are drawn from a
    normal distribution with the given correlations, in which the two-sided
    test at ``alpha`` is significant with the first correlation ahead when
    it truly is (behind when it is behind; either way when they are equal,
    when ``power`` is the test's false alarm rate, about ``alpha``).
    """

    r_first: float
    r_second: float
    r_between: float
    n: int
    alpha: float
    significant: int
    samples: int
    seed: int

    @property
    def power(self) -> float:
        return self.significant / self.samples


def williams_power(
    r_first: float,
    r_second: float,
    r_between: float,
    n: int,
    alpha: float = 0.05,
    n_samples: int = 100_000,
    seed: int = 12345,
) -> WilliamsPower:
    """The power of Williams' two-sided test on ``n`` systems, if the true correlations are the three given.

    Draws ``n_samples`` experiments of ``n`` systems each: the human, first
    and second metric scores of each system from a standard normal
    distribution with correlations ``r_first`` (first with human),
    ``r_second`` (second with human) and ``r_between`` (the two metrics),
    NumPy's generator seeded with ``seed``, ``standard_normal((samples, n,
    3))`` times the Cholesky factor, in chunks; then runs Williams' test on
    each experiment's sample correlations.  Normal scores are an assumption:
    real system scores need not be.

    >>> williams_power(0.4, 0.4, 0.9, 13, n_samples=2000).significant  # no true difference: about 5% of 2,000
    114
    """
    n = _check_three_correlations(r_first, r_second, r_between, n, MAX_POWER_SYSTEMS)
    alpha = check_level(alpha)
    if isinstance(n_samples, int) and not isinstance(n_samples, bool) and n_samples < 100:
        raise ValueError(f"n_samples must be at least 100 simulated experiments; got {n_samples}.")
    n_samples = check_samples(n_samples, 100)
    seed = check_seed(seed)
    needs("scipy", "a power simulation (SciPy)")
    import numpy as np
    from scipy.stats import t as t_distribution

    correlation = np.array([[1.0, r_first, r_second], [r_first, 1.0, r_between], [r_second, r_between, 1.0]])
    factor = np.linalg.cholesky(correlation)
    generator = np.random.default_rng(seed)
    direction = (r_first > r_second) - (r_first < r_second)
    significant = 0
    chunk = max(1, 3_000_000 // (3 * n))
    for start in range(0, n_samples, chunk):
        drawn = generator.standard_normal((min(chunk, n_samples - start), n, 3)) @ factor.T
        h, a, b = (column - column.mean(axis=1, keepdims=True) for column in np.moveaxis(drawn, 2, 0))
        hh, aa, bb = (h * h).sum(axis=1), (a * a).sum(axis=1), (b * b).sum(axis=1)
        t = williams_t(
            (a * h).sum(axis=1) / np.sqrt(aa * hh),
            (b * h).sum(axis=1) / np.sqrt(bb * hh),
            (a * b).sum(axis=1) / np.sqrt(aa * bb),
            n,
        )
        found = 2 * t_distribution.sf(np.abs(t), n - 3) < alpha
        if direction:
            found &= np.sign(t) == direction
        significant += int(np.count_nonzero(found))
    return WilliamsPower(float(r_first), float(r_second), float(r_between), n, alpha, significant, n_samples, seed)


def williams_smallest_gap(r_second: float, r_between: float, n: int, alpha: float = 0.05) -> float | None:
    """How far above ``r_second`` the first correlation must be for Williams' two-sided test to be significant.

    The smallest ``r_first - r_second`` at which the test on ``n`` systems,
    with the two metrics correlated ``r_between`` with each other, gives a
    two-sided p below ``alpha`` (``scipy.optimize.brentq``); ``None`` if no
    correlation that three sets of scores can have is enough.

    >>> round(williams_smallest_gap(0.3315, 0.9792, 13), 3)
    0.108
    """
    r13 = _check_correlation(r_second, "r_second")
    r23 = _check_correlation(r_between, "r_between")
    alpha = check_level(alpha)
    if isinstance(n, bool) or not isinstance(n, int) or not 4 <= n <= MAX_ITEMS:
        raise ValueError(f"n must be a whole number of systems from 4 to {MAX_ITEMS:,}, not {preview(n)}.")
    needs("scipy", "Williams' test (SciPy)")
    from scipy.optimize import brentq
    from scipy.stats import t as t_distribution

    highest = r13 * r23 + sqrt((1 - r13**2) * (1 - r23**2))  # the largest r_first three sets of scores allow

    def above_alpha(r12: float) -> float:
        return float(2 * t_distribution.sf(abs(float(williams_t(r12, r13, r23, n))), n - 3)) - alpha

    top = min(highest, 1.0) - 1e-9
    if top <= r13 or above_alpha(top) >= 0:
        return None
    return float(brentq(above_alpha, r13, top, xtol=1e-12)) - r13
