"""Tests of the difference between two correlations with the same experts (bleu_teach.lessons.metric_tests).

Each test statistic is recomputed here another way: Williams' t through the
determinant of the 3x3 correlation matrix in 50-digit decimals and SciPy's t
distribution; the permutation test by trying every swap one at a time with
scipy.stats.pearsonr / kendalltau on scores standardized with the standard
library's statistics module.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections import Counter
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from bleu_teach.lessons.data import wmt21_ted
from bleu_teach.lessons.metric_tables import system_level
from bleu_teach.lessons.metric_tests import (
    compare_correlations,
    correlation_interval,
    permutation_test,
    williams_t,
    williams_test,
)
from bleu_teach.lessons.segment_agreement import grouped_correlation, pair_counts, tie_calibration
from tests.view_checks import check_every_view


def williams_by_determinant(human, first, second):
    """Williams' t and p from the scores, every step in 50-digit decimals (a float converts to a Decimal exactly):
    the three correlations, then :func:`williams_from_correlations`."""
    with localcontext() as context:
        context.prec = 50
        h, a, b = (
            [Decimal(int(v)) if isinstance(v, (int, np.integer)) else Decimal(float(v)) for v in column]
            for column in (human, first, second)
        )
        n = len(h)

        def corr(x, y):
            mx, my = sum(x) / n, sum(y) / n
            sxy = sum((p - mx) * (q - my) for p, q in zip(x, y))
            return sxy / (sum((p - mx) ** 2 for p in x) * sum((q - my) ** 2 for q in y)).sqrt()

        return williams_from_correlations(corr(h, a), corr(h, b), corr(a, b), n)


def williams_from_correlations(r12, r13, r23, n):
    """Williams' t through the determinant of the 3x3 correlation matrix, in 50-digit decimals from the three
    correlations as given (floats convert exactly), so that no floating-point rounding is shared with the code under
    test: where the columns are nearly dependent the determinant is a small difference of numbers near 1, and a
    float formula for it can lose its ninth digit. p from SciPy's t distribution."""
    with localcontext() as context:
        context.prec = 50
        r12, r13, r23 = (Decimal(r) for r in (r12, r13, r23))
        det = 1 - r12**2 - r13**2 - r23**2 + 2 * r12 * r13 * r23
        t = float(
            (r12 - r13)
            * ((n - 1) * (1 + r23)).sqrt()
            / (2 * det * (n - 1) / (n - 3) + ((r12 + r13) / 2) ** 2 * (1 - r23) ** 3).sqrt()
        )
    return t, stats.t.sf(abs(t), n - 3)


def permutation_one_by_one(human, first, second, statistic):
    def z(values):
        mean = Fraction(sum(values), len(values))
        sd = math.sqrt(float(sum((v - mean) ** 2 for v in values) / len(values)))
        return [float(v - mean) / sd for v in values]

    def exact_order(first_values, second_values):
        """Each z-score as a whole number with its exact order among both columns' (Kendall's ties): z's sign times
        z squared is rational and has z's order, where two floating-point quotients of different square roots can
        differ in the last bit though equal (z = 2/7 / sd and 3/7 / (1.5 sd))."""

        def keys(values):
            mean = Fraction(sum(values), len(values))
            variance = sum((v - mean) ** 2 for v in values) / len(values)
            return [(1 if v >= mean else -1) * (v - mean) ** 2 / variance for v in values]

        first_keys, second_keys = keys(first_values), keys(second_values)
        rank = {key: k for k, key in enumerate(sorted(set(first_keys + second_keys)))}
        return [rank[key] for key in first_keys], [rank[key] for key in second_keys]

    def corr(values):
        if statistic == "pearson":
            return stats.pearsonr(values, human).statistic
        return stats.kendalltau(values, human).statistic

    za, zb = (z(first), z(second)) if statistic == "pearson" else exact_order(first, second)
    observed = corr(za) - corr(zb)
    at_least = either_way = 0
    for swaps in itertools.product((False, True), repeat=len(human)):
        a = [y if s else x for x, y, s in zip(za, zb, swaps)]
        b = [x if s else y for x, y, s in zip(za, zb, swaps)]
        with warnings.catch_warnings():  # a swap can make a column (nearly) constant: no correlation, not counted
            warnings.simplefilter("ignore")
            d = corr(a) - corr(b) if len(set(a)) > 1 and len(set(b)) > 1 else math.nan
        at_least += d >= observed - 1e-9 if observed >= 0 else d <= observed + 1e-9
        either_way += abs(d) >= abs(observed) - 1e-9
    return corr(za), corr(zb), at_least, either_way, 2 ** len(human)


scores = st.lists(st.integers(-20, 20), min_size=5, max_size=8)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_williams_equals_the_determinant_formula(data):
    n = data.draw(st.integers(5, 9))
    columns = [data.draw(st.lists(st.integers(-30, 30), min_size=n, max_size=n)) for _ in range(3)]
    if any(len(set(c)) == 1 for c in columns):
        return
    r = np.corrcoef(np.array(columns))
    if abs(r[1, 2]) > 0.999 or abs(r[0, 1]) > 0.999 or abs(r[0, 2]) > 0.999:
        return
    if np.linalg.det(r) < 1e-8:
        # The three columns (all but) linearly dependent: t then moves in its ninth digit when a correlation moves
        # by its last bit, and a float correlation is only the double nearest the true one, so no computation from
        # float correlations holds nine digits there. (Those drawn with a determinant between 1e-8 and 1e-6 hold.)
        return
    result = williams_test(*columns)
    t, p = williams_by_determinant(*columns)
    assert result.t == pytest.approx(t, rel=1e-9, abs=1e-12)
    assert result.p == pytest.approx(p, rel=1e-9, abs=1e-12)
    assert result.r_first == pytest.approx(r[0, 1], abs=1e-12)
    assert result.r_second == pytest.approx(r[0, 2], abs=1e-12)
    assert result.r_between == pytest.approx(r[1, 2], abs=1e-12)


@pytest.mark.parametrize(
    "r12, r13, r23, n",
    [
        (0.999999, -0.999999, -0.999999, 10),  # the sum 1 - r12^2 - r13^2 - r23^2 + 2 r12 r13 r23 gave t 2160.30861
        (0.99999, 0.99998, 0.999995, 12),
        (0.9995, 0.999, 0.9999, 20),
        (0.99, 0.97, 0.985, 8),
        (0.3, -0.2, 0.5, 30),
        (-0.999, -0.998, 0.9995, 15),
    ],
)
def test_williams_t_holds_nine_digits_at_correlations_near_one(r12, r13, r23, n):
    t, _ = williams_from_correlations(r12, r13, r23, n)
    assert float(williams_t(r12, r13, r23, n)) == pytest.approx(t, rel=1e-9)
    assert williams_t(np.array([r12]), np.array([r13]), np.array([r23]), n)[0] == pytest.approx(t, rel=1e-9)


@settings(max_examples=25, deadline=None)
@given(st.data(), st.sampled_from(["pearson", "kendall"]))
def test_permutation_equals_trying_every_swap_one_at_a_time(data, statistic):
    n = data.draw(st.integers(4, 7))
    columns = [data.draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n)) for _ in range(3)]
    if any(len(set(c)) == 1 for c in columns):
        return
    result = permutation_test(*columns, statistic=statistic)
    first, second, at_least, either_way, swaps = permutation_one_by_one(*columns, statistic)
    assert result.exact and result.swaps == swaps
    assert result.first == pytest.approx(first, abs=1e-12)
    assert result.second == pytest.approx(second, abs=1e-12)
    assert result.at_least == at_least and result.at_least_either_way == either_way


def test_a_test_of_a_metric_against_itself_finds_nothing():
    human = [3, 1, 4, 1, 5, 9, 2, 6]
    metric = [2, 7, 1, 8, 2, 8, 1, 8]
    w = williams_test(human, metric, metric)
    assert (w.t, w.p) == (0.0, 0.5)
    p = permutation_test(human, metric, metric)
    assert p.difference == 0 and p.p == 1.0


def test_more_systems_than_the_exact_limit_draw_seeded_swaps():
    rng = np.random.default_rng(1)
    human, a, b = (rng.normal(size=20).tolist() for _ in range(3))
    one = permutation_test(human, a, b, n_samples=2000, seed=7)
    again = permutation_test(human, a, b, n_samples=2000, seed=7)
    assert not one.exact and one.swaps == 2000 and one.seed == 7
    assert one == again
    assert 1 <= one.at_least <= 2000


@pytest.mark.parametrize(
    "bad, message",
    [
        (dict(human=[1, 2, 3], first=[1, 2, 3], second=[3, 2, 1]), "at least 4 systems"),
        (dict(human=[1, 2, 3, 4], first=[1, 2, 3], second=[3, 2, 1, 0]), "one score per system"),
        (dict(human=[1, 1, 1, 1], first=[1, 2, 3, 4], second=[4, 3, 2, 1]), "every human score is the same"),
        (dict(human=[1, 2, 3, float("nan")], first=[1, 2, 3, 4], second=[4, 3, 2, 1]), "finite"),
        (dict(human="1234", first=[1, 2, 3, 4], second=[4, 3, 2, 1]), "list of numbers"),
        (dict(human=[1, 2, 3, "4"], first=[1, 2, 3, 4], second=[4, 3, 2, 1]), "must be a number"),
        (dict(human=[1, 2, 3, 10**400], first=[1, 2, 3, 4], second=[4, 3, 2, 1]), "finite"),
    ],
)
def test_bad_scores_are_refused_by_name(bad, message):
    for test in (williams_test, permutation_test):
        with pytest.raises((TypeError, ValueError), match=message):
            test(**bad)


def test_a_statistic_that_is_not_offered_is_refused():
    with pytest.raises(ValueError, match="'pearson' or 'kendall'"):
        permutation_test([1, 2, 3, 4], [1, 2, 4, 3], [2, 1, 3, 4], statistic="spearman")


@pytest.fixture(scope="module")
def tables():
    ted = wmt21_ted("zh-en")
    return (system_level(ted, metrics=("BLEU", "chrF")), system_level(ted, metrics=("BLEU", "chrF"), reference="both"))


def test_a_second_reference_does_not_significantly_lower_bleus_agreement(tables, tmp_path):
    one, both = tables
    comparison = compare_correlations(one, both, "BLEU")
    human = one.mqm_column()
    assert comparison.pearson.first == pytest.approx(stats.pearsonr(one.column("BLEU"), human).statistic, abs=1e-12)
    assert comparison.pearson.second == pytest.approx(stats.pearsonr(both.column("BLEU"), human).statistic, abs=1e-12)
    assert comparison.kendall.first == pytest.approx(stats.kendalltau(one.column("BLEU"), human).statistic, abs=1e-12)
    assert comparison.pearson.swaps == 2**13 and comparison.pearson.exact
    t, p = williams_by_determinant(human, one.column("BLEU"), both.column("BLEU"))
    assert comparison.williams.p == pytest.approx(p, rel=1e-9)
    assert comparison.williams.p_two_sided == pytest.approx(2 * stats.t.sf(abs(t), 10), rel=1e-9)
    assert not comparison.significant("pearson") and not comparison.significant("kendall")
    text = comparison.to_text()
    assert "no significant difference at 0.05" in text and "all 8,192 swaps" in text
    check_every_view(comparison, tmp_path)


@pytest.mark.slow  # TER over every zh-en system (shared with the other files that need the table)
def test_ter_against_bleu_is_significant_one_sided_only(wmt21_system_table):
    # system_level(wmt21_ted("zh-en")) against its default reference, made once per run (tests/conftest.py; TER takes
    # a second a system): its TER and BLEU columns are those of system_level(..., metrics=("BLEU", "TER")), each
    # metric scored on its own, and the comparison reads only those two columns, the names and the MQM scores.
    with_ter = wmt21_system_table("zh-en").systems_only()
    ter = compare_correlations(with_ter, with_ter, "TER", "BLEU")
    assert ter.williams.p < 0.05 < ter.williams.p_two_sided  # one-sided in the direction observed is not the verdict
    assert not ter.significant("pearson")


def test_tables_of_other_systems_are_refused(tables):
    one, both = tables
    with pytest.raises(ValueError, match="same systems"):
        compare_correlations(one, system_level(wmt21_ted("zh-en"), metrics=("BLEU",), include=("ref-A",)))
    with pytest.raises(ValueError, match="metric must be one of"):
        compare_correlations(one, both, "TER")
    with pytest.raises(TypeError, match="table from system_level"):
        compare_correlations(one, [1, 2, 3])


@pytest.mark.parametrize("statistic", ["pearson", "kendall"])
def test_the_bootstrap_interval_equals_resampling_one_system_set_at_a_time(statistic):
    human = [-2.4, -1.65, -2.64, -1.98, -1.97, -2.49, -2.93, -2.2, -1.9, -1.76, -2.99, -2.05, -2.15]
    metric = [35.2, 42.8, 40.2, 43.8, 42.5, 38.7, 37.0, 38.7, 38.1, 43.7, 41.8, 37.8, 34.5]
    found = correlation_interval(human, metric, statistic, n_samples=400, seed=3)
    draws = np.random.default_rng(3).integers(0, len(human), size=(400, len(human)))
    resampled = []
    for row in draws:
        h, m = [human[i] for i in row], [metric[i] for i in row]
        if len(set(h)) == 1 or len(set(m)) == 1:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = (stats.pearsonr(m, h) if statistic == "pearson" else stats.kendalltau(m, h)).statistic
        resampled.append(value)
    low, high = np.percentile(resampled, [2.5, 97.5])
    assert found.low == pytest.approx(low, abs=1e-12) and found.high == pytest.approx(high, abs=1e-12)
    assert found.undefined == 400 - len(resampled)
    direct = stats.pearsonr(metric, human) if statistic == "pearson" else stats.kendalltau(metric, human)
    assert found.value == pytest.approx(direct.statistic, abs=1e-12)


def test_bad_interval_settings_are_refused_by_name():
    with pytest.raises(ValueError, match="level must be"):
        correlation_interval([1, 2, 3], [3, 1, 2], level=95)
    with pytest.raises(ValueError, match="at least 3 systems"):
        correlation_interval([1, 2], [2, 1])
    with pytest.raises(ValueError, match="no correlation is defined"):
        correlation_interval([1, 2, 3], [5, 5, 5])


@pytest.fixture(scope="module")
def segments(wmt21_segment_table):
    return wmt21_segment_table("zh-en")  # segment_level(wmt21_ted("zh-en")), made once per run (tests/conftest.py)


@pytest.mark.parametrize("grouping", ["none", "item", "system"])
def test_grouped_correlations_equal_a_matrix_of_systems_by_segments(segments, grouping):
    systems = sorted({row.system for row in segments.rows})
    items = sorted({row.segment for row in segments.rows})
    bleu = np.full((len(systems), len(items)), np.nan)
    mqm = np.full_like(bleu, np.nan)
    for row in segments.rows:
        bleu[systems.index(row.system), items.index(row.segment)] = row.scores[segments.metrics.index("BLEU")]
        mqm[systems.index(row.system), items.index(row.segment)] = row.mqm
    if grouping == "none":
        keep = ~np.isnan(mqm)
        expected = [stats.kendalltau(bleu[keep], mqm[keep]).statistic]
    else:
        pairs = (
            [(bleu[:, k], mqm[:, k]) for k in range(len(items))]
            if grouping == "item"
            else [(bleu[k], mqm[k]) for k in range(len(systems))]
        )
        expected = []
        for b, m in pairs:
            keep = ~np.isnan(m)
            if len(set(b[keep])) > 1 and len(set(m[keep])) > 1:
                expected.append(stats.kendalltau(b[keep], m[keep]).statistic)
    found = grouped_correlation(segments, "BLEU", "kendall", grouping)
    assert found.value == pytest.approx(float(np.mean(expected)), abs=1e-12)
    assert found.groups == len(expected)


@pytest.mark.parametrize("grouping", ["item", "system"])
def test_pair_counts_equal_looking_at_every_pair(segments, grouping):
    found = pair_counts(segments, "BLEU", grouping)
    index = segments.metrics.index("BLEU")
    groups = {}
    for row in segments.rows:
        groups.setdefault(row.segment if grouping == "item" else row.system, []).append(row)
    counts = Counter()
    for rows in groups.values():
        for a, b in itertools.combinations(rows, 2):
            dm, dh = a.scores[index] - b.scores[index], a.mqm - b.mqm
            counts[
                "both"
                if dm == dh == 0
                else "metric"
                if dm == 0
                else "human"
                if dh == 0
                else "concordant"
                if dm * dh > 0
                else "discordant"
            ] += 1
    assert (found.concordant, found.discordant, found.metric_ties, found.human_ties, found.both_ties) == (
        counts["concordant"],
        counts["discordant"],
        counts["metric"],
        counts["human"],
        counts["both"],
    )
    if grouping == "system":  # one group per system: tau-b of its pairs is scipy's, averaged over one group each
        one = [r for r in segments.rows if r.system == segments.rows[0].system]
        single = pair_counts(
            type(segments)(
                segments.pair,
                segments.reference,
                segments.references_used,
                segments.metrics,
                tuple(one),
                segments.systems,
                0,
            ),
            "BLEU",
            "none",
        )
        assert single.tau_b == pytest.approx(
            stats.kendalltau([r.scores[index] for r in one], [r.mqm for r in one]).statistic, abs=1e-12
        )


def test_tie_calibration_equals_trying_every_threshold_one_at_a_time(segments):
    rows = tuple(r for r in segments.rows if r.segment < 60)
    small = type(segments)(
        segments.pair, segments.reference, segments.references_used, segments.metrics, rows, segments.systems, 0
    )
    index = small.metrics.index("BLEU")
    pairs = []
    for segment in {r.segment for r in rows}:
        group = [r for r in rows if r.segment == segment]
        for a, b in itertools.combinations(group, 2):
            pairs.append(
                (
                    abs(a.scores[index] - b.scores[index]),
                    a.mqm == b.mqm,
                    (a.scores[index] - b.scores[index]) * (a.mqm - b.mqm) > 0,
                )
            )

    def accuracy(threshold):
        return sum((d <= threshold and tie) or (d > threshold and right) for d, tie, right in pairs) / len(pairs)

    candidates = sorted({d for d, _, _ in pairs})
    best = max(candidates, key=lambda t: (accuracy(t), -t))
    found = tie_calibration(small, "BLEU", "item")
    assert found.pairs == len(pairs)
    assert found.threshold == best and found.accuracy == pytest.approx(accuracy(best), abs=1e-12)
    assert found.at_zero == pytest.approx(accuracy(0.0), abs=1e-12)
    counts = pair_counts(small, "BLEU", "item")
    assert found.at_zero == pytest.approx(counts.accuracy_with_ties, abs=1e-12)
    assert counts.all_tied_accuracy == pytest.approx(accuracy(math.inf), abs=1e-12)


def test_a_tie_between_the_two_metrics_z_scores_is_a_tie_for_kendall():
    """a = -1 and b = 0 have the same z-score exactly (2/7 over a's spread, 3/7 over b's, which is 1.5 times it):
    after a swap Kendall's tau-b must see them tied, as the exact oracle does (a floating-point one missed it)."""
    human, a, b = [0, 0, 0, 0, 0, 0, 1], [0, 0, -1, 2, -3, -3, -4], [0, 2, 3, 3, -3, -4, -4]
    result = permutation_test(human, a, b, statistic="kendall")
    _, _, at_least, either_way, swaps = permutation_one_by_one(human, a, b, "kendall")
    assert (result.at_least, result.at_least_either_way, result.swaps) == (at_least, either_way, swaps) == (20, 40, 128)
