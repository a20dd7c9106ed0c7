"""Tests of Williams' test from three correlations, its power and the smallest significant gap (lessons.power).

Expected values come another way: Williams' t through the determinant of the
3x3 correlation matrix (numpy.linalg.det) and SciPy's t distribution, and
each simulated experiment tested one at a time with williams_test on its
scores (its correlations from scipy.stats.pearsonr).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from bleu_teach.lessons.metric_tests import williams_test
from bleu_teach.lessons.power import williams_from_correlations, williams_power, williams_smallest_gap
from tests.test_metric_tests import williams_by_determinant  # the test of section 4's oracle: the determinant form


def test_williams_from_correlations_is_williams_on_the_scores():
    human, first, second = [1, 2, 3, 4, 5, 6, 7], [2, 1, 4, 3, 6, 7, 5], [1, 3, 2, 5, 4, 6, 7]
    r = np.corrcoef(np.array([human, first, second]))
    t, p = williams_by_determinant(human, first, second)
    found = williams_from_correlations(r[0, 1], r[0, 2], r[1, 2], 7)
    assert found.t == pytest.approx(t, abs=1e-12) and found.p == pytest.approx(p, abs=1e-12)
    # The same three correlations on more systems: the t of the formula with that n.
    t30 = (
        (r[0, 1] - r[0, 2])
        * math.sqrt(29 * (1 + r[1, 2]))
        / math.sqrt(2 * np.linalg.det(r) * 29 / 27 + ((r[0, 1] + r[0, 2]) / 2) ** 2 * (1 - r[1, 2]) ** 3)
    )
    assert williams_from_correlations(r[0, 1], r[0, 2], r[1, 2], 30).p_two_sided == pytest.approx(
        2 * stats.t.sf(abs(t30), 27), abs=1e-12
    )


def test_the_power_simulation_counts_what_williams_test_finds_on_each_drawn_experiment():
    # The same draws made here (one chunk: standard_normal((samples, n, 3)) times the Cholesky factor), each
    # experiment tested with williams_test on its scores, one at a time.
    r12, r13, r23, n, samples = 0.6, 0.3, 0.8, 15, 300
    found = williams_power(r12, r13, r23, n, n_samples=samples, seed=7)
    c = np.array([[1, r12, r13], [r12, 1, r23], [r13, r23, 1]])
    drawn = np.random.default_rng(7).standard_normal((samples, n, 3)) @ np.linalg.cholesky(c).T
    expected = 0
    for experiment in drawn:
        w = williams_test(list(experiment[:, 0]), list(experiment[:, 1]), list(experiment[:, 2]))
        expected += w.p_two_sided < 0.05 and w.r_first > w.r_second
    assert found.significant == expected and found.samples == samples
    assert 0 < found.power < 1


def test_with_no_true_difference_the_power_is_the_level():
    found = williams_power(0.5, 0.5, 0.7, 13, n_samples=20_000, seed=3)
    assert abs(found.power - 0.05) < 0.01  # 0.05 +- 6 standard errors of 20,000 draws


def test_the_smallest_significant_gap_is_where_the_two_sided_p_crosses_alpha():
    gap = williams_smallest_gap(0.33, 0.95, 13)
    below, above = (williams_from_correlations(0.33 + gap + d, 0.33, 0.95, 13).p_two_sided for d in (1e-6, -1e-6))
    assert below < 0.05 < above
    assert williams_smallest_gap(0.33, 0.95, 200) < gap  # more systems, a smaller gap suffices


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: williams_from_correlations(0.9, 0.1, 0.95, 13), "no three sets of scores"),
        (lambda: williams_from_correlations(1.0, 0.1, 0.5, 13), "r_first"),
        (lambda: williams_from_correlations(0.5, 0.1, 0.5, 3), "n must be"),
        (lambda: williams_power(0.5, 0.1, 0.5, 13, n_samples=10), "n_samples"),
        (lambda: williams_power(0.5, 0.1, 0.5, 5_000), "n must be"),
        (lambda: williams_smallest_gap(0.3, "0.9", 13), "r_between"),
    ],
)
def test_bad_williams_arguments_are_refused_by_name(call, message):
    with pytest.raises(ValueError, match=message):
        call()
