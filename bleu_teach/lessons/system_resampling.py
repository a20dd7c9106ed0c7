"""System-level agreement when the test set is a sample too: resampling segments, and soft pairwise accuracy.

A system's corpus score is computed from its segments' sufficient
statistics (:mod:`bleu_teach.metrics`: numbers that add up over a test set),
and its MQM score is the mean of its segments' MQM scores.  The segments
are a sample of the sentences a metric will meet, as the systems are a
sample of the systems; :func:`segment_statistics` keeps each system's
statistics per segment, so that both can be resampled without scoring a
sentence again.

- :func:`difference_interval`: a bootstrap interval for the difference
  between two metrics' system-level correlations with the experts,
  resampling the systems, the segments, or both (Deutsch, Dror and Roth,
  2021, *A Statistical Analysis of Summarization Evaluation Metrics using
  Resampling Methods*, TACL; the table script of their experiments,
  CogComp/stat-analysis-experiments, labels the three Boot-System,
  Boot-Inputs and Boot-Both).  A
  resample of segments draws as many segments as the test set has, with
  replacement, sums each system's statistics over the drawn segments (a
  segment drawn twice counts twice), scores the sums, and averages the MQM
  scores of the drawn segments.
- :func:`soft_pairwise_accuracy`: Thompson, Mathur, Deutsch and Khayrallah
  (2024), *Improving Statistical Significance in Human Evaluation of
  Automatic Metrics via Soft Pairwise Accuracy*, the system-level measure of
  the WMT24 metrics task.  For every pair of systems (i, j), a one-sided
  paired permutation test over the segments gives the p-value of "i is
  better than j", once from the experts' scores (``p_human``) and once from
  the metric's (``p_metric``); SPA is the mean over the pairs of
  ``1 - |p_human - p_metric|``.  Each permutation swaps each segment between
  the two systems or not, as a coin decides; the p-value is the share of
  permutations whose difference is at least the observed one (mt-metrics-eval's
  ``pce.compute_pairwise_p_values``, by the paper's first author, which uses
  the same coins for every pair).  There the system score is the sum of
  segment scores (for one set of segments, the same p-values as their
  mean); a corpus metric here swaps each segment's statistics and scores the
  sums, as sacreBLEU's paired approximate randomization does, so that the
  metric's p-values are about the system scores it really gives.

Scoring the resampled sums is done on NumPy arrays, for BLEU, chrF and TER
with the arithmetic of :mod:`bleu_teach.metrics` (the tests compare every
value with :meth:`~bleu_teach.metrics.Metric.score_statistics`); a sum
where that arithmetic takes a special branch (no match of some order, an
empty side) is scored by the registry itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bleu_teach.inputs.optional import needs
from bleu_teach.inputs.validation import preview
from bleu_teach.lessons.metric_tables import LOWER_IS_BETTER, SystemRow, SystemTable
from bleu_teach.lessons.metric_tests import check_statistic, rowwise_correlation
from bleu_teach.lessons.mqm import check_data, default_reference, mqm_system_score
from bleu_teach.lessons.resampling import check_samples, check_seed
from bleu_teach.metrics import METRICS

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.data import Wmt21Ted

__all__ = [
    "RESAMPLE",
    "SegmentStatistics",
    "DifferenceInterval",
    "SoftPairwiseAccuracy",
    "segment_statistics",
    "difference_interval",
    "soft_pairwise_accuracy",
    "scores_of_sums",
]

#: What :func:`difference_interval` can resample.
RESAMPLE = ("systems", "segments", "both")
#: Resamples (or permutations) scored at once: bounds the memory a call takes.
_CHUNK = 5_000
#: A permuted difference this close to the observed one counts as reaching it (the same sums added in another order),
#: and a resampled difference of correlations this close to 0 counts as 0 (two correlations equal in exact arithmetic,
#: such as both 1 where a resample drew two systems, part in their last bits).
_TIE = 1e-9


@dataclass(frozen=True, eq=False)
class SegmentStatistics:
    """Every system's sufficient statistics per segment for each metric, and its MQM score per segment.

    ``statistics[metric]`` is a NumPy array of shape (systems, segments,
    numbers per segment) holding :meth:`~bleu_teach.metrics.Metric.segment_statistics`;
    ``mqm`` has shape (systems, segments), NaN where a segment is unrated.
    """

    pair: str
    reference: str
    references_used: tuple[str, ...]
    metrics: tuple[str, ...]
    systems: tuple[str, ...]
    statistics: dict[str, Any]
    mqm: Any

    @property
    def segments(self) -> int:
        return int(self.mqm.shape[1])

    def system_table(self) -> SystemTable:
        """The system-level table these statistics sum to: :func:`~bleu_teach.lessons.agreement.system_level`'s.

        Each corpus score is :meth:`~bleu_teach.metrics.Metric.score_statistics` of the system's
        rows, each MQM score :func:`~bleu_teach.lessons.mqm.mqm_system_score`, as there.
        """
        rows = []
        for i, name in enumerate(self.systems):
            scores = tuple(METRICS[m].score_statistics(self.statistics[m][i].tolist()) for m in self.metrics)
            mqm, rated = mqm_system_score([None if v != v else float(v) for v in self.mqm[i]])
            rows.append(SystemRow(name, False, scores, mqm, rated))
        return SystemTable(self.pair, self.reference, self.references_used, self.metrics, tuple(rows), self.segments)


def segment_statistics(
    data: Wmt21Ted, reference: str | None = None, metrics: tuple[str, ...] = tuple(METRICS)
) -> SegmentStatistics:
    """Count each system's segments once, for every metric: the statistics a corpus score sums.

    ``reference`` as in :func:`~bleu_teach.lessons.agreement.system_level`
    (``None``: ref-B for zh-en, ref-A for en-de; ``"both"``: every
    reference).  ``system_table()`` gives the same table as ``system_level``;
    TER takes most of the time (about a second per system on WMT21 TED).
    """
    check_data(data)
    needs("numpy", "resampling segments (NumPy)")
    import numpy as np

    reference = default_reference(data) if reference is None else reference
    if not isinstance(reference, str):
        raise TypeError(f"reference must be a reference's name, such as 'ref-A', not {preview(reference)}.")
    if reference == "both" and len(data.references) > 1:
        used = tuple(data.references)
    elif reference in data.references:
        used = (reference,)
    else:
        choices = list(data.references) + (["both"] if len(data.references) > 1 else [])
        raise ValueError(f"reference must be one of {', '.join(choices)} for {data.pair}, not {preview(reference)}.")
    if isinstance(metrics, str) or not isinstance(metrics, (tuple, list)) or not metrics:
        raise TypeError(f"metrics must be a list of metric names from {', '.join(METRICS)}, not {preview(metrics)}.")
    for metric in metrics:
        if metric not in METRICS:
            raise ValueError(f"metrics holds {preview(metric)}; choose from {', '.join(METRICS)}.")
    refs = [[data.references[name][i] for name in used] for i in range(len(data.sources))]
    statistics = {
        m: np.array([METRICS[m].segment_statistics(data.systems[s], refs) for s in data.systems], dtype=float)
        for m in metrics
    }
    mqm = np.array([[np.nan if v is None else float(v) for v in data.mqm[s]] for s in data.systems])
    return SegmentStatistics(data.pair, reference, used, tuple(metrics), tuple(data.systems), statistics, mqm)


def scores_of_sums(metric: str, sums: Any) -> Any:
    """The metric's scores (0-100) of summed statistics, one per row of ``sums`` (a NumPy array, last axis the numbers).

    The corpus arithmetic of :mod:`bleu_teach.metrics` on whole arrays:
    BLEU (sacreBLEU's: exp smoothing, 4-grams) as ``BP * exp(mean log p_n)``,
    chrF as the F-score (beta 2) of the mean precision and mean recall over
    the six character orders, TER as 100 * edits / reference words.  A row
    where that arithmetic branches (a zero match count, an empty side) is
    scored by :meth:`~bleu_teach.metrics.Metric.from_statistics` itself.

    >>> import numpy as np
    >>> rows = np.array(METRICS["BLEU"].segment_statistics(["the cat sat on the mat"], [["the cat sat on a mat"]]))
    >>> round(float(scores_of_sums("BLEU", rows)[0]), 4), round(METRICS["BLEU"].score_statistics(rows.tolist()), 4)
    (53.7285, 53.7285)
    """
    import numpy as np

    sums = np.asarray(sums, dtype=float)
    flat = sums.reshape(-1, sums.shape[-1])
    with np.errstate(divide="ignore", invalid="ignore"):
        if metric == "BLEU" and flat.shape[1] == 10:
            hyp, ref, matches, totals = flat[:, 0], flat[:, 1], flat[:, 2:6], flat[:, 6:10]
            regular = (matches > 0).all(axis=1) & (hyp > 0)
            bp = np.where(hyp < ref, np.exp(1 - ref / hyp), 1.0)
            found = bp * np.exp(np.log(100.0 * matches / totals).sum(axis=1) / 4)
        elif metric == "chrF" and flat.shape[1] % 4 == 0:
            orders = flat.reshape(len(flat), -1, 4)
            matches, hyp_total, ref_total = orders[:, :, 0], orders[:, :, 1], orders[:, :, 2]
            regular = (hyp_total > 0).all(axis=1) & (ref_total > 0).all(axis=1) & (matches > 0).any(axis=1)
            precision = (matches / hyp_total).mean(axis=1)
            recall = (matches / ref_total).mean(axis=1)
            found = 100 * 5 * precision * recall / (4 * precision + recall)
        elif metric == "TER" and flat.shape[1] == 2:
            regular = flat[:, 1] > 0
            found = 100 * flat[:, 0] / flat[:, 1]
        else:
            regular = np.zeros(len(flat), dtype=bool)
            found = np.zeros(len(flat))
    for k in np.nonzero(~regular)[0]:
        found[k] = METRICS[metric].from_statistics(flat[k].tolist(), False)
    return found.reshape(sums.shape[:-1])


def _system_scores(stats: SegmentStatistics, metric: str, counts: Any) -> Any:
    """Each system's score (negated if lower is better) from its statistics weighted by ``counts`` (resamples x
    segments), or from all segments once when ``counts`` is None: shape (resamples, systems)."""

    values = stats.statistics[metric]
    systems, segments, width = values.shape
    if counts is None:
        sums = values.sum(axis=1)[None]
    else:
        sums = (counts @ values.transpose(1, 0, 2).reshape(segments, systems * width)).reshape(-1, systems, width)
    sign = -1.0 if metric in LOWER_IS_BETTER else 1.0
    return sign * scores_of_sums(metric, sums)


def _mqm_scores(stats: SegmentStatistics, counts: Any) -> Any:
    """Each system's mean MQM over the (drawn) rated segments: shape (resamples, systems)."""
    import numpy as np

    rated = ~np.isnan(stats.mqm)
    values = np.where(rated, stats.mqm, 0.0)
    if counts is None:
        return (values.sum(axis=1) / rated.sum(axis=1))[None]
    with np.errstate(divide="ignore", invalid="ignore"):
        return (counts @ values.T) / (counts @ rated.T.astype(float))


def _check_stats(stats: Any, **metrics: Any) -> SegmentStatistics:
    if not isinstance(stats, SegmentStatistics):
        raise TypeError(f"stats must come from segment_statistics, not {type(stats).__name__}.")
    for name, metric in metrics.items():
        if not isinstance(metric, str) or metric not in stats.metrics:
            raise ValueError(f"{name} must be one of {', '.join(stats.metrics)}, not {preview(metric)}.")
    return stats


@dataclass(frozen=True)
class DifferenceInterval:
    """r(first) - r(second) with the experts, and its bootstrap interval, resampling ``resample``.

    ``low`` and ``high`` are the percentiles of the resampled differences
    that leave ``(1 - level) / 2`` out on each side (NumPy's ``percentile``,
    linear); ``undefined`` counts resamples with no correlation (every drawn
    system scored the same on one side), left out; ``at_most_zero`` counts
    the other resamples whose difference is 0 or below (first not ahead; a
    difference within 1e-9 of 0 is a tie, as where both correlations are 1).
    """

    first: str
    second: str
    statistic: str
    resample: str
    value: float
    low: float
    high: float
    level: float
    samples: int
    undefined: int
    seed: int
    at_most_zero: int = 0

    @property
    def share_at_most_zero(self) -> float:
        """The share of the resamples with a correlation in which first was not ahead of second."""
        return self.at_most_zero / (self.samples - self.undefined)


def difference_interval(
    stats: SegmentStatistics,
    first: str,
    second: str,
    statistic: str = "pearson",
    resample: str = "both",
    n_samples: int = 50_000,
    seed: int = 12345,
    level: float = 0.95,
) -> DifferenceInterval:
    """A bootstrap interval for the difference between two metrics' system-level correlations with MQM.

    ``resample``: ``"systems"`` draws as many systems as there are, with
    replacement, and keeps every segment (the test set fixed);
    ``"segments"`` draws the segments and keeps the systems (the systems
    fixed); ``"both"`` draws both.  Both correlations are computed on the
    same resample each time, so the interval is that of the difference.
    NumPy's generator seeded with ``seed`` draws, for each chunk of resamples,
    first the segments (``integers(0, segments, (chunk, segments))``) when
    they are resampled, then the systems (``integers(0, systems, (chunk,
    systems))``) when they are.  A lower-is-better metric (TER) is negated.
    """
    stats = _check_stats(stats, first=first, second=second)
    statistic = check_statistic(statistic)
    if not isinstance(resample, str) or resample not in RESAMPLE:
        raise ValueError(f"resample must be one of {', '.join(RESAMPLE)}, not {preview(resample)}.")
    n_samples = check_samples(n_samples, 100)
    seed = check_seed(seed)
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0.5 <= level < 1:
        raise ValueError(f"level must be a number from 0.5 to 1 (0.95 for a 95% interval), not {preview(level)}.")
    needs("numpy", "a bootstrap interval (NumPy)")
    import numpy as np

    human = _mqm_scores(stats, None)
    a, b = _system_scores(stats, first, None), _system_scores(stats, second, None)
    value = float(rowwise_correlation(statistic, a, human)[0] - rowwise_correlation(statistic, b, human)[0])
    generator = np.random.default_rng(seed)
    systems, segments = stats.mqm.shape
    found = []
    for start in range(0, n_samples, _CHUNK):
        size = min(_CHUNK, n_samples - start)
        counts = None
        if resample != "systems":
            drawn = generator.integers(0, segments, size=(size, segments))
            counts = (
                np.bincount((np.arange(size)[:, None] * segments + drawn).ravel(), minlength=size * segments)
                .reshape(size, segments)
                .astype(float)
            )
        h = np.broadcast_to(_mqm_scores(stats, counts), (size, systems))
        x = np.broadcast_to(_system_scores(stats, first, counts), (size, systems))
        y = np.broadcast_to(_system_scores(stats, second, counts), (size, systems))
        if resample != "segments":
            rows = generator.integers(0, systems, size=(size, systems))
            h, x, y = (np.take_along_axis(v, rows, axis=1) for v in (h, x, y))
        found.append(rowwise_correlation(statistic, x, h) - rowwise_correlation(statistic, y, h))
    differences = np.concatenate(found)
    valid = differences[~np.isnan(differences)]
    low, high = np.percentile(valid, [50 * (1 - level), 50 * (1 + level)])
    return DifferenceInterval(
        first,
        second,
        statistic,
        resample,
        value,
        float(low),
        float(high),
        float(level),
        n_samples,
        int(n_samples - len(valid)),
        seed,
        int(np.count_nonzero(valid <= _TIE)),
    )


@dataclass(frozen=True)
class SoftPairwiseAccuracy:
    """Soft pairwise accuracy of one metric: the p-values of every pair of systems, by the experts and by the metric.

    ``pairs`` lists (i, j) with i < j, indices into ``systems``;
    ``p_human[k]`` and ``p_metric[k]`` are the one-sided p-values of "system
    i is better than system j" for pair k.
    """

    metric: str
    systems: tuple[str, ...]
    pairs: tuple[tuple[int, int], ...]
    p_human: tuple[float, ...]
    p_metric: tuple[float, ...]
    permutations: int
    seed: int

    @property
    def value(self) -> float:
        """1 minus the mean over the pairs of |p_human - p_metric|."""
        return 1 - sum(abs(h - m) for h, m in zip(self.p_human, self.p_metric)) / len(self.pairs)


def soft_pairwise_accuracy(
    stats: SegmentStatistics, metric: str, n_permutations: int = 10_000, seed: int = 12345
) -> SoftPairwiseAccuracy:
    """Soft pairwise accuracy (Thompson et al., 2024) of ``metric`` over the systems of ``stats``.

    For each pair of systems (i, j), i before j in ``stats.systems``, the
    p-value of "i is better than j" is the share of the ``n_permutations``
    permutations whose difference (i's score minus j's) is at least the
    observed one.  A permutation gives each segment to i or to j by a coin
    (NumPy's generator seeded with ``seed``: ``integers(0, 2, (chunk,
    segments))`` per chunk, the same coins for every pair and for both
    sides): the experts' side averages the MQM scores the permuted system
    got; the metric's side sums the statistics it got and scores them.  TER
    is negated, so that higher is better on both sides.  Every segment must
    be rated for every system.

    >>> from bleu_teach.lessons.data import wmt21_ted
    >>> spa = soft_pairwise_accuracy(segment_statistics(wmt21_ted("zh-en"), metrics=("BLEU",)), "BLEU", 1000)
    >>> len(spa.pairs), round(spa.value, 3)
    (78, 0.636)
    """
    stats = _check_stats(stats, metric=metric)
    if isinstance(n_permutations, int) and not isinstance(n_permutations, bool) and n_permutations < 100:
        raise ValueError(f"n_permutations must be at least 100; got {n_permutations}.")
    n_permutations = check_samples(n_permutations, 100)
    seed = check_seed(seed)
    needs("numpy", "soft pairwise accuracy (NumPy)")
    import numpy as np

    if np.isnan(stats.mqm).any():
        raise ValueError(
            "soft pairwise accuracy swaps segments between systems, so every segment must be rated for "
            "every system; these statistics have unrated segments."
        )
    values = stats.statistics[metric]
    systems, segments, width = values.shape
    sign = -1.0 if metric in LOWER_IS_BETTER else 1.0
    totals = values.sum(axis=1)
    observed = sign * scores_of_sums(metric, totals)
    human = stats.mqm
    human_observed = human.mean(axis=1)
    pairs = tuple((i, j) for i in range(systems) for j in range(i + 1, systems))
    at_least_human = np.zeros(len(pairs), dtype=np.int64)
    at_least_metric = np.zeros(len(pairs), dtype=np.int64)
    generator = np.random.default_rng(seed)
    flat = values.transpose(1, 0, 2).reshape(segments, systems * width)
    for start in range(0, n_permutations, _CHUNK):
        size = min(_CHUNK, n_permutations - start)
        coins = generator.integers(0, 2, size=(size, segments)).astype(float)  # 1: the segment stays with i
        kept = (coins @ flat).reshape(size, systems, width)  # sum of each system's kept segments
        kept_human = coins @ human.T
        for k, (i, j) in enumerate(pairs):
            first = kept[:, i] - kept[:, j] + totals[j]  # i's kept segments, j's for the others
            second = totals[i] + totals[j] - first
            difference = sign * (scores_of_sums(metric, first) - scores_of_sums(metric, second))
            at_least_metric[k] += np.count_nonzero(difference >= observed[i] - observed[j] - _TIE)
            first_human = (kept_human[:, i] - kept_human[:, j] + human[j].sum()) / segments
            second_human = (human[i].sum() + human[j].sum()) / segments - first_human
            at_least_human[k] += np.count_nonzero(
                first_human - second_human >= human_observed[i] - human_observed[j] - _TIE
            )
    return SoftPairwiseAccuracy(
        metric,
        stats.systems,
        pairs,
        tuple(float(c) / n_permutations for c in at_least_human),
        tuple(float(c) / n_permutations for c in at_least_metric),
        n_permutations,
        seed,
    )
