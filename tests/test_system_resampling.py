"""Tests of resampling segments and of soft pairwise accuracy (bleu_teach.lessons.system_resampling).

Every expected value is computed here another way, one resample or one
permutation at a time: each system's rows of statistics summed with Python
and scored by the metric registry's own ``score_statistics`` (BLEU and chrF
checked against sacreBLEU elsewhere), correlations by scipy.stats, MQM means
by the statistics module, and the draws made again from the documented seed.
"""

from __future__ import annotations

import itertools
import statistics

import numpy as np
import pytest
from scipy import stats as scipy_stats

from bleu_teach.lessons.data import wmt21_ted
from bleu_teach.lessons.metric_tables import system_level
from bleu_teach.lessons.system_resampling import (
    SegmentStatistics,
    difference_interval,
    scores_of_sums,
    segment_statistics,
    soft_pairwise_accuracy,
)
from bleu_teach.metrics import METRICS
from tests.conftest import computed_once

#: Every test here reads the statistics of every zh-en system's every segment (TER's included): make test's tier.
pytestmark = pytest.mark.slow

SIGN = {"BLEU": 1.0, "chrF": 1.0, "TER": -1.0}


@pytest.fixture(scope="module")
def zhen(tmp_path_factory):
    """Every zh-en segment's statistics against ref-B (TER's take a second a system): computed once per run, also
    when make check's workers share this module's tests."""
    return computed_once(
        tmp_path_factory,
        "wmt21-segment-statistics-zh-en-ref-B",
        lambda: segment_statistics(wmt21_ted("zh-en"), reference="ref-B", metrics=("BLEU", "chrF", "TER")),
    )


def small(stats, systems=5, segments=40):
    """The first systems and segments of the real statistics: a test set small enough to loop over."""
    return SegmentStatistics(
        stats.pair,
        stats.reference,
        stats.references_used,
        stats.metrics,
        stats.systems[:systems],
        {m: v[:systems, :segments] for m, v in stats.statistics.items()},
        stats.mqm[:systems, :segments],
    )


def test_the_system_table_is_system_levels(zhen):
    table = zhen.system_table()
    expected = system_level(wmt21_ted("zh-en"), metrics=("BLEU", "chrF"), reference="ref-B")
    assert [r.name for r in table.rows] == [r.name for r in expected.rows]
    assert table.mqm_column() == expected.mqm_column()
    for metric in ("BLEU", "chrF"):
        assert table.column(metric) == expected.column(metric)
    # TER beside sacreBLEU's own corpus TER, for two systems.
    data = wmt21_ted("zh-en")
    for k, name in enumerate(list(data.systems)[:2]):
        oracle = METRICS["TER"].oracle().corpus_score(data.systems[name], [data.references["ref-B"]]).score
        assert table.column("TER")[k] == pytest.approx(oracle, abs=1e-9)


@pytest.mark.parametrize("metric", ["BLEU", "chrF", "TER"])
def test_scores_of_resampled_sums_equal_the_registrys(zhen, metric):
    values = zhen.statistics[metric]
    generator = np.random.default_rng(5)
    sums = []
    for _ in range(30):
        system = generator.integers(0, values.shape[0])
        drawn = generator.integers(0, values.shape[1], size=generator.integers(1, 40))
        sums.append(values[system, drawn].sum(axis=0))
    sums.append(values[0, :1].sum(axis=0) * 0)  # every count 0: the registry's special branch
    found = scores_of_sums(metric, np.array(sums))
    for row, score in zip(sums, found):
        assert score == pytest.approx(METRICS[metric].score_statistics([row.tolist()]), abs=1e-9)


def one_resample(stats, first, second, segments, systems):
    """r(first) - r(second) with MQM on one resample, every sum made with Python and scored by the registry."""
    columns = {m: [] for m in (first, second)}
    human = []
    for i in systems:
        for m in columns:
            rows = [stats.statistics[m][i, s].tolist() for s in segments]
            columns[m].append(SIGN[m] * METRICS[m].score_statistics(rows))
        human.append(statistics.fmean(stats.mqm[i, s] for s in segments))
    return (
        scipy_stats.pearsonr(columns[first], human).statistic - scipy_stats.pearsonr(columns[second], human).statistic
    )


@pytest.mark.parametrize("resample", ["systems", "segments", "both"])
def test_the_difference_interval_equals_resampling_one_at_a_time(zhen, resample):
    stats = small(zhen, systems=6, segments=30)
    found = difference_interval(stats, "TER", "BLEU", resample=resample, n_samples=100, seed=11)
    generator = np.random.default_rng(11)  # the documented draws: segments first, then systems, one chunk
    segments = generator.integers(0, 30, size=(100, 30)) if resample != "systems" else [range(30)] * 100
    systems = generator.integers(0, 6, size=(100, 6)) if resample != "segments" else [range(6)] * 100
    differences = [one_resample(stats, "TER", "BLEU", list(g), list(y)) for g, y in zip(segments, systems)]
    differences = [d for d in differences if d == d]
    low, high = np.percentile(differences, [2.5, 97.5])
    assert found.value == pytest.approx(one_resample(stats, "TER", "BLEU", range(30), range(6)), abs=1e-12)
    assert (found.low, found.high) == (pytest.approx(low, abs=1e-9), pytest.approx(high, abs=1e-9))
    assert found.undefined == 100 - len(differences)
    # a resample that drew two systems has both correlations 1 (or -1): a difference of 0 that floats compute as
    # 0, -1e-16 or 2e-16, a tie either way
    assert found.at_most_zero == sum(d <= 1e-9 for d in differences)
    assert found.share_at_most_zero == found.at_most_zero / len(differences)


def test_resampling_segments_of_one_metric_against_itself_gives_zero(zhen):
    found = difference_interval(small(zhen), "BLEU", "BLEU", resample="both", n_samples=200)
    assert (found.value, found.low, found.high) == (0.0, 0.0, 0.0)
    assert found.share_at_most_zero == 1.0  # every difference is 0: the first is never ahead


def spa_one_permutation_at_a_time(stats, metric, n_permutations, seed):
    coins = np.random.default_rng(seed).integers(0, 2, size=(n_permutations, stats.mqm.shape[1]))
    values, human = stats.statistics[metric], stats.mqm
    segments = range(human.shape[1])

    def metric_score(system_rows):
        return SIGN[metric] * METRICS[metric].score_statistics(system_rows)

    total = 0.0
    pairs = list(itertools.combinations(range(human.shape[0]), 2))
    for i, j in pairs:
        observed_m = metric_score(values[i].tolist()) - metric_score(values[j].tolist())
        observed_h = statistics.fmean(human[i]) - statistics.fmean(human[j])
        reach_m = reach_h = 0
        for coin in coins:
            to_i = [(i if c else j, s) for c, s in zip(coin, segments)]
            to_j = [(j if c else i, s) for c, s in zip(coin, segments)]
            d_m = metric_score([values[a, s].tolist() for a, s in to_i]) - metric_score(
                [values[a, s].tolist() for a, s in to_j]
            )
            d_h = statistics.fmean(human[a, s] for a, s in to_i) - statistics.fmean(human[a, s] for a, s in to_j)
            reach_m += d_m >= observed_m - 1e-9
            reach_h += d_h >= observed_h - 1e-9
        total += abs(reach_h - reach_m) / n_permutations
    return 1 - total / len(pairs)


@pytest.mark.parametrize("metric", ["BLEU", "TER"])
def test_soft_pairwise_accuracy_equals_permuting_one_segment_at_a_time(zhen, metric):
    stats = small(zhen, systems=4, segments=25)
    found = soft_pairwise_accuracy(stats, metric, n_permutations=200, seed=9)
    assert found.value == pytest.approx(spa_one_permutation_at_a_time(stats, metric, 200, 9), abs=1e-12)
    assert len(found.pairs) == 6


def made_up(human, edits):
    """Two systems whose TER is 100 x (the mean of ``edits``) per reference word (one word per segment)."""
    ter = np.stack([np.stack([np.array(e, dtype=float), np.ones(len(e))], axis=1) for e in edits])
    return SegmentStatistics(
        "xx-yy", "ref-A", ("ref-A",), ("TER",), ("A", "B"), {"TER": ter}, np.array(human, dtype=float)
    )


def test_a_metric_that_orders_every_permutation_as_the_experts_has_spa_1():
    # Thompson's worked example (mt-metrics-eval, pce.py): A beats B by 0.6 on each of 5 segments, so only the
    # permutation that swaps nothing reaches the observed difference: p = 1/32.
    human = [[0.8, 0.9, 0.7, 1.0, 0.6], [0.2, 0.3, 0.1, 0.4, 0.0]]
    edits = [[1 - v for v in row] for row in human]  # minus TER is 100 x (human - 1): the same order everywhere
    found = soft_pairwise_accuracy(made_up(human, edits), "TER", n_permutations=100_000, seed=2)
    assert found.value == 1.0
    assert abs(found.p_human[0] - 1 / 32) < 0.003  # 5.5 standard errors of 100,000 permutations
    reversed_metric = soft_pairwise_accuracy(made_up(human, human), "TER", n_permutations=100_000, seed=2)
    assert abs(reversed_metric.p_metric[0] - 1) < 0.003 and abs(reversed_metric.value - 1 / 32) < 0.006


def test_bad_arguments_are_refused_by_name(zhen):
    with pytest.raises(TypeError, match="stats must come from segment_statistics"):
        difference_interval(system_level(wmt21_ted("zh-en"), metrics=("BLEU",)), "BLEU", "BLEU")
    with pytest.raises(ValueError, match="first must be one of"):
        difference_interval(zhen, "COMET", "BLEU")
    with pytest.raises(ValueError, match="resample must be one of"):
        difference_interval(zhen, "TER", "BLEU", resample="inputs")
    with pytest.raises(ValueError, match="metric must be one of"):
        soft_pairwise_accuracy(zhen, "bleu")
    with pytest.raises(ValueError, match="n_permutations must be at least 100"):
        soft_pairwise_accuracy(zhen, "BLEU", n_permutations=10)
    unrated = made_up([[0.0, np.nan], [1.0, 2.0]], [[0.0, 1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match="every segment must be rated"):
        soft_pairwise_accuracy(unrated, "TER")
    with pytest.raises(ValueError, match="reference must be one of"):
        segment_statistics(wmt21_ted("en-de"), reference="ref-B")
    with pytest.raises(TypeError, match="data must be"):
        segment_statistics("zh-en")
