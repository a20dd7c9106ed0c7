"""Two metrics against the experts over the systems a learner keeps: lesson 09's explorer.

:func:`system_scores` keeps what the explorer needs from a system-level
table (:func:`bleu_teach.lessons.agreement.system_level`, machine systems
only): each system's corpus scores and its MQM score.  :func:`compare_two`
sets two metrics side by side on those systems, optionally leaving out one
of them (by the experts' rank: 1 is the system they rate best), and counts
every pair of systems: ordered as the experts order it by one metric, by the
other, by both, or by neither (:class:`~bleu_teach.lessons.segment_agreement.PairCounts`, grouping
"none").  From the same counts come pairwise accuracy (Kocmi et al., 2021)
and Kendall's tau-b; Pearson's r is
:func:`statistics.correlation`.  A lower-is-better metric (TER) is negated
first, as :func:`~bleu_teach.lessons.agreement.correlations` does, so that
higher always means closer to the experts.

It shows how much one system moves a comparison on 13 systems; it is not a
test (lesson 09's section 4 tests the difference).  Standard library only:
the site runs it in the browser, where SciPy is not.

Scoring 13 systems with TER takes a minute or two (its search for shifted
blocks), too long for building the website: :func:`shipped_scores` reads
the scores that ``scripts/system_scores.py`` computed with
:func:`system_scores` (``system_scores.json`` beside this module), and a
test recomputes them.

>>> duel = compare_two(shipped_scores()["zh-en"], "TER", "BLEU")
>>> duel.a.agree, duel.b.agree, duel.pairs, round(duel.b.pearson, 4)
(52, 48, 78, 0.3315)
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from importlib.resources import files
from typing import Any

from bleu_teach.inputs.validation import preview
from bleu_teach.lessons.segment_agreement import PairCounts
from bleu_teach.metrics import METRICS as REGISTERED
from bleu_teach.views.document import Block, Document, Heading, Paragraph
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.viewable import Viewable

__all__ = [
    "METRICS",
    "REFERENCE_USED",
    "SCORES_FILE",
    "SystemScores",
    "system_scores",
    "shipped_scores",
    "MetricSide",
    "TwoMetrics",
    "compare_two",
    "ordinal",
]

#: The metrics lesson 09 compares (every registered metric), and those of them where lower is better.
METRICS: tuple[str, ...] = tuple(REGISTERED)
LOWER_IS_BETTER = frozenset(name for name, metric in REGISTERED.items() if metric.direction == "lower")
#: The reference each language pair is scored against in lessons 08 and 09 (the one the experts did not rate worst).
REFERENCE_USED = {"zh-en": "ref-B", "en-de": "ref-A"}
#: The system scores of both pairs, as scripts/system_scores.py wrote them.
SCORES_FILE = "system_scores.json"


@dataclass(frozen=True)
class SystemScores:
    """One language pair's systems: their corpus scores per metric (0-100) and their MQM scores, best first."""

    pair: str
    reference: str
    systems: tuple[str, ...]
    scores: dict[str, tuple[float, ...]]
    mqm: tuple[float, ...]

    def to_json(self) -> str:
        return json.dumps(
            {
                "pair": self.pair,
                "reference": self.reference,
                "systems": list(self.systems),
                "scores": {m: list(v) for m, v in self.scores.items()},
                "mqm": list(self.mqm),
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> SystemScores:
        found = json.loads(text)
        return cls(
            found["pair"],
            found["reference"],
            tuple(found["systems"]),
            {m: tuple(v) for m, v in found["scores"].items()},
            tuple(found["mqm"]),
        )


def system_scores(table: Any) -> SystemScores:
    """What :func:`compare_two` needs from a system-level table (machine systems only), ordered by MQM, best first."""
    rows = getattr(table, "rows", None)
    if rows is None or getattr(table, "level", None) != "system":
        raise TypeError(f"table must come from system_level(...).systems_only(), not {preview(table)}.")
    if any(row.is_reference for row in rows):
        raise ValueError("table holds human references scored as systems: use system_level(...).systems_only().")
    missing = [m for m in METRICS if m not in table.metrics]
    if missing:
        raise ValueError(f"table must score {', '.join(METRICS)}; it has no {', '.join(missing)}.")
    ordered = sorted(rows, key=lambda row: -row.mqm)
    return SystemScores(
        table.pair,
        table.reference,
        tuple(row.name for row in ordered),
        {m: tuple(float(row.scores[table.metrics.index(m)]) for row in ordered) for m in METRICS},
        tuple(float(row.mqm) for row in ordered),
    )


def shipped_scores() -> dict[str, SystemScores]:
    """Both pairs' system scores (against :data:`REFERENCE_USED`) as the package ships them, by pair."""
    text = files("bleu_teach.lessons").joinpath(SCORES_FILE).read_text(encoding="utf-8")
    found = {pair: SystemScores.from_json(json.dumps(scores)) for pair, scores in json.loads(text).items()}
    missing = sorted({m for scores in found.values() for m in METRICS if m not in scores.scores})
    if missing:  # a metric registered since the file was written
        raise ValueError(
            f"{SCORES_FILE} has no scores of {', '.join(missing)}: write it again with python scripts/system_scores.py."
        )
    return found


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st']
    """
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True)
class MetricSide:
    """One metric over the kept systems: its pairs counted against the experts (every pair, no grouping), and
    Pearson's r."""

    counts: PairCounts
    pearson: float

    @property
    def metric(self) -> str:
        return self.counts.metric

    @property
    def agree(self) -> int:
        """The pairs ordered as the experts order them."""
        return self.counts.concordant

    @property
    def tied(self) -> int:
        """The pairs the metric ties (counted wrong by pairwise accuracy)."""
        return self.counts.metric_ties + self.counts.both_ties

    @property
    def pairs(self) -> int:
        return self.counts.pairs

    @property
    def accuracy(self) -> float:
        """Pairwise accuracy: the share of pairs ordered as the experts order them (a tie counts as wrong)."""
        return self.agree / self.pairs

    @property
    def kendall(self) -> float:
        return self.counts.tau_b


@dataclass(frozen=True, repr=False)
class TwoMetrics(Viewable):
    """Two metrics side by side over the kept systems (see :func:`compare_two`)."""

    pair: str
    reference: str
    systems: tuple[str, ...]
    left_out: str | None
    left_out_rank: int
    a: MetricSide
    b: MetricSide
    #: The pairs the two metrics order differently: (better by the experts, worse by the experts, the metric that
    #: orders the pair as they do, the other metric if it ties the pair rather than reversing it, else "").
    split: tuple[tuple[str, str, str, str], ...]

    @property
    def pairs(self) -> int:
        return self.a.pairs

    @property
    def accuracy_difference(self) -> float:
        """Metric A's pairwise accuracy minus metric B's."""
        return self.a.accuracy - self.b.accuracy

    def to_document(self) -> Document:
        a, b = self.a, self.b
        kept = (
            f"{len(self.systems)} systems, without {self.left_out} (the experts' {ordinal(self.left_out_rank)})"
            if self.left_out
            else f"all {len(self.systems)} systems"
        )
        rows = tuple(
            (
                f"-{s.metric} (negated)" if s.metric in LOWER_IS_BETTER else s.metric,
                f"{s.pearson:.4f}",
                f"{s.kendall:.4f}",
                f"{s.agree} of {s.pairs}",
                str(s.tied),
                f"{s.accuracy:.3f}",
            )
            for s in (a, b)
        )
        more = a.agree - b.agree
        if more == 0:
            verdict = f"{a.metric} and {b.metric} order as many pairs the experts' way ({a.agree} of {self.pairs})."
        else:
            ahead, behind = (a, b) if more > 0 else (b, a)
            verdict = (
                f"{ahead.metric} orders {abs(more)} more of the {self.pairs} pairs the experts' way than "
                f"{behind.metric} ({ahead.agree} against {behind.agree})."
            )
        blocks: list[Block] = [
            Heading(f"{a.metric} against {b.metric}, {self.pair}, {kept}, against {self.reference}"),
            TableBlock(
                (
                    "metric",
                    "Pearson r",
                    "Kendall tau-b",
                    "pairs ordered as the experts do",
                    "pairs the metric ties (counted wrong)",
                    "pairwise accuracy",
                ),
                rows,
            ),
            Paragraph((verdict + " A difference over a few systems is not yet a finding: section 4 tests it.",)),
        ]
        if self.split:
            blocks.append(
                TableBlock(
                    ("the experts prefer", "to", "ordered so by"),
                    tuple(
                        (better, worse, who + (f" ({tied} ties them)" if tied else ""))
                        for better, worse, who, tied in self.split
                    ),
                    caption=f"The {len(self.split)} pairs {a.metric} and {b.metric} order differently",
                )
            )
        elif a.metric == b.metric:
            blocks.append(Paragraph((f"Metric A and metric B are both {a.metric}: choose two different metrics.",)))
        else:
            blocks.append(Paragraph((f"{a.metric} and {b.metric} order every pair the same way.",)))
        return Document(tuple(blocks))


def _oriented(scores: SystemScores, metric: str, kept: list[int]) -> list[float]:
    sign = -1.0 if metric in LOWER_IS_BETTER else 1.0
    return [sign * scores.scores[metric][i] for i in kept]


def _side(metric: str, values: list[float], human: list[float]) -> MetricSide:
    concordant = discordant = metric_ties = human_ties = both = 0
    for i in range(len(values)):
        for j in range(i + 1, len(values)):
            product = (values[i] - values[j]) * (human[i] - human[j])
            if product > 0:
                concordant += 1
            elif product < 0:
                discordant += 1
            elif values[i] == values[j] and human[i] == human[j]:
                both += 1
            elif values[i] == values[j]:
                metric_ties += 1
            else:
                human_ties += 1
    counts = PairCounts(metric, "none", concordant, discordant, metric_ties, human_ties, both)
    return MetricSide(counts, statistics.correlation(values, human))


def compare_two(scores: SystemScores, metric_a: str, metric_b: str, leave_out: int = 0) -> TwoMetrics:
    """``metric_a`` beside ``metric_b`` over ``scores``' systems, without the one the experts rank ``leave_out``
    (1: their best; 0: keep every system).

    A pair tied by the experts counts as ordered the other way (pairwise accuracy has no tie for the experts to
    be right about); the WMT21 TED systems have none.
    """
    if not isinstance(scores, SystemScores):
        raise TypeError(f"scores must come from system_scores(table), not {preview(scores)}.")
    for name, metric in (("metric_a", metric_a), ("metric_b", metric_b)):
        if metric not in scores.scores:
            raise ValueError(f"{name} must be one of {', '.join(scores.scores)}, not {preview(metric)}.")
    count = len(scores.systems)
    if isinstance(leave_out, bool) or not isinstance(leave_out, int) or not 0 <= leave_out <= count:
        raise ValueError(
            f"leave_out must be a whole number from 0 (keep every system) to {count} (the experts' "
            f"last), not {preview(leave_out)}."
        )
    kept = [i for i in range(count) if i != leave_out - 1]
    if len(kept) < 3:
        raise ValueError(f"a correlation needs at least 3 systems; {len(kept)} are kept.")
    human = [scores.mqm[i] for i in kept]
    values_a, values_b = _oriented(scores, metric_a, kept), _oriented(scores, metric_b, kept)
    split = []
    for i in range(len(kept)):
        for j in range(i + 1, len(kept)):
            if human[i] == human[j]:
                continue
            better, worse = (i, j) if human[i] > human[j] else (j, i)
            right_a = values_a[better] > values_a[worse]
            right_b = values_b[better] > values_b[worse]
            if right_a != right_b:
                wrong, values = (metric_b, values_b) if right_a else (metric_a, values_a)
                split.append(
                    (
                        scores.systems[kept[better]],
                        scores.systems[kept[worse]],
                        metric_a if right_a else metric_b,
                        wrong if values[better] == values[worse] else "",
                    )
                )
    return TwoMetrics(
        scores.pair,
        scores.reference,
        tuple(scores.systems[i] for i in kept),
        scores.systems[leave_out - 1] if leave_out else None,
        leave_out,
        _side(metric_a, values_a, human),
        _side(metric_b, values_b, human),
        tuple(split),
    )
