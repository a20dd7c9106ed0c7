"""Segment-level agreement with the experts: how the pairs are grouped, and how ties are counted.

At segment level every (system, segment) pair has a metric score and an MQM
score.  Google's mt-metrics-eval toolkit, used with the WMT metrics tasks'
data, groups them in one of three ways before correlating (its
``average_by``): all pairs at once ("none"), for each segment over the
systems' translations of it ("item"), or for each system over its segments
("system").  :func:`grouped_correlation` computes each, with SciPy's
correlations.

Half of the segments' MQM scores are 0, so many pairs are tied by the
experts.  :func:`pair_counts` counts the pairs of each group by what the
metric and the experts do with them; its ``accuracy_with_ties`` is the
pairwise accuracy of Deutsch et al. (2023, *Ties Matter*), which counts a tie
predicted as a tie as right (mt-metrics-eval's ``acc23``), and
:func:`tie_calibration` chooses the metric's tie threshold that maximises it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from math import sqrt
from typing import Any

from bleu_teach.inputs.optional import needs
from bleu_teach.inputs.validation import preview
from bleu_teach.lessons.metric_tests import check_statistic

__all__ = [
    "GROUPINGS",
    "GroupedCorrelation",
    "PairCounts",
    "TieCalibration",
    "grouped_correlation",
    "pair_counts",
    "tie_calibration",
]

#: How segment-level scores are grouped before correlating (mt-metrics-eval's ``average_by``): all pairs at once,
#: per segment across the systems ("item"), or per system across the segments.
GROUPINGS = ("none", "item", "system")


@dataclass(frozen=True)
class GroupedCorrelation:
    """A segment-level correlation computed within groups and averaged (or over all pairs, ``grouping="none"``).

    ``groups`` is how many groups had a correlation; ``skipped`` how many did
    not (every score in the group equal on one side), left out of the mean.
    """

    metric: str
    statistic: str
    grouping: str
    value: float
    groups: int
    skipped: int


def grouped_correlation(
    table: Any, metric: str = "BLEU", statistic: str = "kendall", grouping: str = "none"
) -> GroupedCorrelation:
    """A segment-level correlation with MQM, with the rows grouped as the WMT metrics tasks group them.

    ``grouping="none"`` correlates all (system, segment) pairs at once;
    ``"item"`` correlates, for each segment, the systems' scores, and
    averages over the segments (how well the metric ranks translations of
    the same sentence); ``"system"`` correlates, for each system, its
    segments, and averages over the systems.  A group whose metric or MQM
    scores are all equal has no correlation and is left out, as
    mt-metrics-eval leaves out NaN (``GroupedCorrelation.skipped``).
    Correlations are ``scipy.stats.pearsonr`` / ``kendalltau`` (tau-b).
    """
    groups = _groups(table, metric, grouping)
    statistic = check_statistic(statistic)
    needs("scipy", "a segment-level correlation (SciPy)")
    from scipy.stats import kendalltau, pearsonr

    found, skipped = [], 0
    for scores, human in groups:
        if len(scores) < 2 or len(set(scores)) == 1 or len(set(human)) == 1:
            skipped += 1
            continue
        result = pearsonr(scores, human) if statistic == "pearson" else kendalltau(scores, human)
        found.append(float(result.statistic))
    if not found:
        raise ValueError("no group has a correlation: every group's scores are all equal on one side.")
    return GroupedCorrelation(metric, statistic, grouping, math.fsum(found) / len(found), len(found), skipped)


@dataclass(frozen=True)
class PairCounts:
    """Every pair of translations of the same segment (``grouping="item"``) or of all rows, by what the two do.

    ``concordant``: metric and experts order the pair the same way;
    ``discordant``: the other way; ``metric_ties``: the metric gives both the
    same score but the experts do not; ``human_ties``: the experts do but the
    metric does not; ``both_ties``: both give a tie.
    """

    metric: str
    grouping: str
    concordant: int
    discordant: int
    metric_ties: int
    human_ties: int
    both_ties: int

    @property
    def pairs(self) -> int:
        return self.concordant + self.discordant + self.metric_ties + self.human_ties + self.both_ties

    @property
    def accuracy_with_ties(self) -> float:
        """Pairwise accuracy that credits a tie predicted as a tie (Deutsch et al., 2023, "acc_eq")."""
        return (self.concordant + self.both_ties) / self.pairs

    @property
    def tau_b(self) -> float:
        """Kendall's tau-b from the same counts: pairs tied on either side add nothing above the line."""
        untied_metric = self.pairs - self.metric_ties - self.both_ties
        untied_human = self.pairs - self.human_ties - self.both_ties
        return (self.concordant - self.discordant) / sqrt(untied_metric * untied_human)

    @property
    def all_tied_accuracy(self) -> float:
        """The accuracy counting ties of a metric that gives every translation the same score (a baseline)."""
        return (self.human_ties + self.both_ties) / self.pairs


def pair_counts(table: Any, metric: str = "BLEU", grouping: str = "item") -> PairCounts:
    """Count, over every pair of rows in the same group, how the metric and the experts order it.

    ``grouping`` as in :func:`grouped_correlation` ("item": pairs of systems'
    translations of one segment; "system"; "none": every pair of rows).  The
    counts are summed over the groups.  For a lower-is-better metric the
    lower score counts as ahead.
    """
    import numpy as np

    distances, human_tie, concordant = _pairs(table, metric, grouping)
    metric_tie = distances == 0
    return PairCounts(
        metric,
        grouping,
        int(np.count_nonzero(concordant)),
        int(np.count_nonzero(~metric_tie & ~human_tie & ~concordant)),
        int(np.count_nonzero(metric_tie & ~human_tie)),
        int(np.count_nonzero(~metric_tie & human_tie)),
        int(np.count_nonzero(metric_tie & human_tie)),
    )


@dataclass(frozen=True)
class TieCalibration:
    """The tie threshold that gives a metric its best accuracy counting ties (Deutsch et al., 2023).

    Two metric scores less than or equal to ``threshold`` apart count as a
    tie; ``accuracy`` is the accuracy counting ties with that threshold, over
    the pairs of :func:`pair_counts` (pooled over the groups); ``at_zero`` is
    the accuracy with threshold 0 (only equal scores tie).
    """

    metric: str
    grouping: str
    threshold: float
    accuracy: float
    at_zero: float
    pairs: int


def tie_calibration(table: Any, metric: str = "BLEU", grouping: str = "item") -> TieCalibration:
    """Choose the tie threshold that maximises the accuracy counting ties, by trying every distance that occurs.

    A pair is right when the metric and the experts order it the same way,
    or when both call it a tie (the metric: two scores at most ``threshold``
    apart).  Every distinct distance between two scores in a group is tried;
    the smallest threshold among the best is returned.  This is tie
    calibration as Deutsch et al. (2023) propose it, on all pairs (no sampling).
    """
    import numpy as np

    distances, human_tie, concordant = _pairs(table, metric, grouping)
    order = np.argsort(distances, kind="stable")
    d, tie, right = distances[order], human_tie[order], concordant[order]
    ties_up_to = np.concatenate([[0], np.cumsum(tie)])  # experts' ties among the k closest pairs
    right_up_to = np.concatenate([[0], np.cumsum(right)])  # concordant pairs among the k closest
    ends = np.concatenate([np.nonzero(np.diff(d))[0] + 1, [len(d)]])  # k after each distinct distance
    correct = ties_up_to[ends] + (right_up_to[-1] - right_up_to[ends])
    best = int(np.argmax(correct))
    zero = int(np.searchsorted(d, 0.0, side="right"))
    at_zero = (ties_up_to[zero] + right_up_to[-1] - right_up_to[zero]) / len(d)
    return TieCalibration(
        metric, grouping, float(d[ends[best] - 1]), float(correct[best] / len(d)), float(at_zero), len(d)
    )


def _groups(table: Any, metric: str, grouping: str) -> list[tuple[list[float], list[float]]]:
    """The metric's scores (negated if lower is better) and the MQM scores of each group of the table's rows."""
    from bleu_teach.lessons.metric_tables import LOWER_IS_BETTER, SegmentTable

    if not isinstance(table, SegmentTable):
        raise TypeError(f"table must come from segment_level, not {type(table).__name__}.")
    if not isinstance(metric, str) or metric not in table.metrics:
        raise ValueError(f"metric must be one of {', '.join(table.metrics)}, not {preview(metric)}.")
    if not isinstance(grouping, str) or grouping not in GROUPINGS:
        raise ValueError(f"grouping must be one of {', '.join(GROUPINGS)}, not {preview(grouping)}.")
    sign = -1.0 if metric in LOWER_IS_BETTER else 1.0
    index = table.metrics.index(metric)
    groups: dict[Any, tuple[list[float], list[float]]] = {}
    for row in table.rows:
        key = None if grouping == "none" else (row.segment if grouping == "item" else row.system)
        scores, human = groups.setdefault(key, ([], []))
        scores.append(sign * row.scores[index])
        human.append(row.mqm)
    return list(groups.values())


def _pairs(table: Any, metric: str, grouping: str) -> tuple[Any, Any, Any]:
    """For every pair of rows in the same group: the metric's distance, whether the experts tie, and whether the
    metric orders it as the experts do (NumPy arrays, one value per pair)."""
    import numpy as np

    distances, human_tie, concordant = [], [], []
    for scores, human in _groups(table, metric, grouping):
        x, y = np.array(scores), np.array(human)
        i, j = np.triu_indices(len(x), k=1)
        dx, dy = x[i] - x[j], y[i] - y[j]
        distances.append(np.abs(dx))
        human_tie.append(dy == 0)
        concordant.append(dx * dy > 0)
    if not sum(len(d) for d in distances):
        raise ValueError("there is no pair of rows in any group.")
    return np.concatenate(distances), np.concatenate(human_tie), np.concatenate(concordant)
