"""Metric scores beside the experts' on WMT21 TED: the system-level and segment-level tables.

A metric is trusted as far as it ranks translations the way people do.  The
WMT metrics task measures this by correlating a metric's scores with human
scores (Freitag et al., 2021, "Results of the WMT21 Metrics Shared Task",
section 3): over systems (one corpus score and one human score per system)
and over segments (one pair per system and sentence).  This module scores
the data of :func:`~bleu_teach.lessons.data.wmt21_ted` and builds the two tables:

- :func:`system_level` scores each system's whole output with corpus BLEU
  (:func:`bleu_teach.bleu.sacrebleu_api.corpus_score`, sacreBLEU's 13a tokenizer), corpus
  chrF (:func:`bleu_teach.chrf.explain.chrf_score`) and TER (sacreBLEU's
  ``TER().corpus_score``, called directly) against a chosen reference, and
  gives each its MQM system score: **the mean of its per-segment MQM scores**
  (negated error points, 0 = no error, higher is better), over the segments
  that were rated.
- :func:`segment_level` scores each (system, segment) pair with sentence BLEU
  (:func:`bleu_teach.bleu.sacrebleu_api.sentence_score`, sacreBLEU's ``sentence_bleu``,
  effective order on) and sentence chrF, beside the segment's MQM score.
- :func:`mqm_bands` groups the sentence scores by MQM band.

**TER is an error rate (lower is better), MQM is higher-is-better**
(:data:`LOWER_IS_BETTER`).  What the experts said (a segment's errors, MQM
system scores, the bands) is :mod:`bleu_teach.lessons.mqm`; correlating the
tables with MQM is :mod:`bleu_teach.lessons.agreement`, and the pairs where a
sentence score and the experts part most are :mod:`bleu_teach.lessons.disagreement`.
Each table describes itself once (``to_document()``); every view is written
from that.  sacreBLEU is imported by the metrics' registry
(:mod:`bleu_teach.metrics`) only when a score is computed, so
``import bleu_teach`` stays light.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bleu_teach.lessons.mqm import MQM_BANDS, MqmBand, check_data, default_reference, mqm_system_score
from bleu_teach.metrics import METRICS as REGISTERED
from bleu_teach.views.document import Block, Document, Heading, Paragraph
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.viewable import Viewable, plain_data

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.data import Wmt21Ted

__all__ = [
    "METRICS",
    "LOWER_IS_BETTER",
    "SEGMENT_METRICS",
    "BOTH",
    "SystemRow",
    "SystemTable",
    "SegmentRow",
    "SegmentTable",
    "system_level",
    "segment_level",
    "mqm_bands",
]

#: The metrics :func:`system_level` can compute, in the order shown: every registered metric.
METRICS: tuple[str, ...] = tuple(REGISTERED)

#: Metrics where a lower score means a better translation (their sign is flipped before correlating): the
#: registry's ``direction``.
LOWER_IS_BETTER: frozenset[str] = frozenset(name for name, m in REGISTERED.items() if m.lower_is_better)

#: The metrics :func:`segment_level` computes per sentence: those the suite explains, so that a disagreement
#: can be shown step by step.
SEGMENT_METRICS: tuple[str, ...] = tuple(name for name, m in REGISTERED.items() if m.segment_view is not None)

#: ``reference=`` for scoring each segment against all of its pair's references at once.
BOTH = "both"


def _against(pair: str, references: Sequence[str]) -> str:
    return f"{pair}, against {' and '.join(references)}"


def _metric_label(metric: str) -> str:
    return f"{metric} (lower is better)" if metric in LOWER_IS_BETTER else metric


@dataclass(frozen=True)
class SystemRow:
    """One system (or a reference scored as if it were one): its corpus scores and its MQM system score.

    ``scores`` is aligned with the table's ``metrics`` (0-100 scale; TER
    lower is better).  ``mqm`` is the mean of the per-segment MQM scores over
    the ``rated`` segments that have one.
    """

    name: str
    is_reference: bool
    scores: tuple[float, ...]
    mqm: float
    rated: int


@dataclass(frozen=True, repr=False)
class SystemTable(Viewable):
    """System-level scores of one language pair against one reference (or ``"both"``): see :func:`system_level`."""

    pair: str
    reference: str
    references_used: tuple[str, ...]
    metrics: tuple[str, ...]
    rows: tuple[SystemRow, ...]
    segments: int

    level = "system"

    def column(self, metric: str) -> list[float]:
        """One metric's scores, a value per row, in row order."""
        return [row.scores[_metric_index(self.metrics, metric)] for row in self.rows]

    def mqm_column(self) -> list[float]:
        """The MQM system scores, a value per row, in row order."""
        return [row.mqm for row in self.rows]

    def systems_only(self) -> SystemTable:
        """The same table without the human references scored as systems (the machine systems' rows only)."""
        return replace(self, rows=tuple(row for row in self.rows if not row.is_reference))

    def score(self, name: str, metric: str) -> float:
        """The score of system (or included reference) ``name`` under ``metric``."""
        for row in self.rows:
            if row.name == name:
                return row.scores[_metric_index(self.metrics, metric)]
        raise ValueError(f"no row {name!r}; the rows are {', '.join(r.name for r in self.rows)}")

    def to_document(self) -> Document:
        """One row per system (references scored as systems marked): corpus scores to 2 decimals, MQM to 3."""
        header = ("system", *[_metric_label(m) for m in self.metrics], "MQM (mean per segment)")
        rows = tuple(
            (
                f"{row.name} (human reference)" if row.is_reference else row.name,
                *[f"{s:.2f}" for s in row.scores],
                f"{row.mqm:.3f}",
            )
            for row in self.rows
        )
        return Document(
            (
                Heading(f"System-level scores, {_against(self.pair, self.references_used)} ({self.segments} segments)"),
                Paragraph(
                    ("MQM = mean of the per-segment MQM scores (negated error points: 0 = no error, higher is better)",)
                ),
                TableBlock(header, rows),
            )
        )


@dataclass(frozen=True)
class SegmentRow:
    """One (system, segment) pair: sentence BLEU and chrF against the reference, and the segment's MQM score."""

    system: str
    segment: int
    scores: tuple[float, ...]
    mqm: float


@dataclass(frozen=True, repr=False)
class SegmentTable(Viewable):
    """Segment-level scores of every system against one reference: see :func:`segment_level`.

    ``unrated`` counts the (system, segment) pairs left out because they have no MQM score.
    """

    pair: str
    reference: str
    references_used: tuple[str, ...]
    metrics: tuple[str, ...]
    rows: tuple[SegmentRow, ...]
    systems: tuple[str, ...]
    unrated: int

    level = "segment"

    def column(self, metric: str) -> list[float]:
        """One metric's sentence scores, a value per (system, segment) row."""
        return [row.scores[_metric_index(self.metrics, metric)] for row in self.rows]

    def mqm_column(self) -> list[float]:
        """The segment MQM scores, a value per (system, segment) row."""
        return [row.mqm for row in self.rows]

    def to_document(self, max_rows: int = 10) -> Document:
        """The first ``max_rows`` (system, segment) rows (sentence scores to 2 decimals, MQM to 1), then how many
        more."""
        rows = [
            (row.system, str(row.segment), *[f"{s:.2f}" for s in row.scores], f"{row.mqm:.1f}")
            for row in self.rows[:max_rows]
        ]
        hidden = len(self.rows) - max_rows
        if hidden > 0:
            rows.append((f"... {hidden} more", "", *["" for _ in self.metrics], ""))
        blocks: list[Block] = [
            Heading(
                f"Segment-level scores, {_against(self.pair, self.references_used)}: "
                f"{len(self.rows)} (system, segment) pairs from {len(self.systems)} systems"
            )
        ]
        if self.unrated:
            blocks.append(Paragraph((f"{self.unrated} pairs without an MQM score left out",)))
        header = ("system", "segment", *[f"sentence {m}" for m in self.metrics], "MQM")
        return Document((*blocks, TableBlock(header, tuple(rows))))

    def to_dict(self, max_rows: int | None = None) -> dict[str, Any]:
        """The table's settings and counts, and its rows: all of them, or the first ``max_rows``."""
        shown = self.rows if max_rows is None else self.rows[:max_rows]
        return {
            "type": "SegmentTable",
            "pair": self.pair,
            "reference": self.reference,
            "references_used": list(self.references_used),
            "metrics": list(self.metrics),
            "systems": list(self.systems),
            "unrated": self.unrated,
            "pairs": len(self.rows),
            "rows": plain_data(shown),
        }


# ---------------------------------------------------------------------------
# Checking arguments
# ---------------------------------------------------------------------------


def _metric_index(metrics: Sequence[str], metric: str) -> int:
    if metric not in metrics:
        raise ValueError(f"no metric {metric!r} in this table; it has {', '.join(metrics)}")
    return list(metrics).index(metric)


def _check_reference(data: Wmt21Ted, reference: Any) -> tuple[str, ...]:
    """The names of the references each segment is scored against."""
    if not isinstance(reference, str):
        raise TypeError(
            f"reference must be a string: one of {', '.join(_reference_choices(data))}; got {type(reference).__name__}"
        )
    if reference == BOTH:
        if len(data.references) < 2:
            raise ValueError(
                f"{data.pair} has only one reference ({', '.join(data.references)}), "
                f"so reference='both' is not possible; choose {', '.join(data.references)}"
            )
        return tuple(data.references)
    if reference not in data.references:
        raise ValueError(
            f"no reference {reference!r} in {data.pair}; choose reference= one of {', '.join(_reference_choices(data))}"
        )
    return (reference,)


def _reference_choices(data: Wmt21Ted) -> list[str]:
    return list(data.references) + ([BOTH] if len(data.references) > 1 else [])


def _check_metrics(metrics: Any, allowed: Sequence[str]) -> tuple[str, ...]:
    if isinstance(metrics, str):
        raise TypeError(f"metrics must be a list of metric names, e.g. ({metrics!r},), not one string")
    try:
        chosen = tuple(metrics)
    except TypeError:
        raise TypeError(f"metrics must be a list of metric names from {', '.join(allowed)}") from None
    if not chosen:
        raise ValueError(f"metrics is empty; choose from {', '.join(allowed)}")
    for metric in chosen:
        if metric not in allowed:
            raise ValueError(f"unknown metric {metric!r}; choose from {', '.join(allowed)} (names are case-sensitive)")
    if len(set(chosen)) != len(chosen):
        raise ValueError(f"metrics names a metric twice: {', '.join(chosen)}")
    return chosen


def _check_include(data: Wmt21Ted, include: Any, used: tuple[str, ...]) -> tuple[str, ...]:
    if isinstance(include, str):
        raise TypeError(f"include must be a list of names, e.g. ({include!r},), not one string")
    try:
        names = tuple(include)
    except TypeError:
        raise TypeError(
            f"include must be a list of reference names, e.g. ('ref-A',), not {type(include).__name__}"
        ) from None
    for name in names:
        if name in used:
            others = [r for r in data.references if r != name]
            instead = (
                f"To include it, score against {others[0]!r} alone (reference={others[0]!r})"
                if others
                else f"{data.pair} has no other reference to score against; leave it out of include"
            )
            raise ValueError(
                f"{name!r} is one of the references being scored against ({', '.join(used)}); "
                f"scoring a translation against itself is meaningless. {instead}"
            )
        if name in data.systems:
            raise ValueError(f"{name!r} is already a system row; include is for references scored as systems")
        if name not in data.references:
            raise ValueError(
                f"no reference {name!r} in {data.pair} to include; choose from {', '.join(data.references)}"
            )
    if len(set(names)) != len(names):
        raise ValueError(f"include names a reference twice: {', '.join(names)}")
    return names


def _texts(data: Wmt21Ted, name: str) -> list[str]:
    return data.systems[name] if name in data.systems else data.references[name]


def _segment_references(data: Wmt21Ted, used: tuple[str, ...]) -> list[list[str | None]]:
    """References per hypothesis: ``refs[i]`` lists segment i's reference strings."""
    return [[data.references[name][i] for name in used] for i in range(len(data.sources))]


# ---------------------------------------------------------------------------
# System level, segment level, MQM bands
# ---------------------------------------------------------------------------


def system_level(
    data: Wmt21Ted,
    metrics: Sequence[str] = METRICS,
    reference: str | None = None,
    include: Sequence[str] = (),
) -> SystemTable:
    """Corpus BLEU, chrF and TER of every system, and its MQM system score, against one reference.

    ``reference`` is ``"ref-A"``, ``"ref-B"`` or ``"both"`` (two references
    per segment); ``None`` (the default) means :func:`default_reference`:
    ref-B for zh-en, ref-A for en-de.  ``include`` adds references scored as if they were systems
    (e.g. ``("ref-A",)`` against ref-B: how would a human translation fare?);
    the reference scored against cannot be one of them (``ValueError``).

    - BLEU: :func:`bleu_teach.bleu.sacrebleu_api.corpus_score` (sacreBLEU's BLEU, 13a tokenizer, exp smoothing).
    - chrF: :func:`bleu_teach.chrf.explain.chrf_score` (sacreBLEU's chrF: character 6-grams, beta 2).
    - TER: ``sacrebleu.metrics.TER().corpus_score`` (edits per reference word, x100; lower is better).
      By far the slowest of the three: sacreBLEU's TER searches for block shifts, about a second per
      system on WMT21 TED, where BLEU and chrF take a fraction of that; leave it out with
      ``metrics=("BLEU", "chrF")`` when you do not need it.
    - MQM: the mean of the system's per-segment MQM scores over the rated segments
      (:func:`mqm_system_score`); 0 = no error, higher is better.

    >>> from bleu_teach.lessons.data import wmt21_ted
    >>> table = system_level(wmt21_ted("zh-en"), metrics=("BLEU",))
    >>> len(table.rows), round(table.score("Facebook-AI", "BLEU"), 2)
    (13, 40.23)
    """
    check_data(data)
    chosen = _check_metrics(metrics, METRICS)
    reference = reference if reference is not None else default_reference(data)
    used = _check_reference(data, reference)
    extra = _check_include(data, include, used)
    refs = _segment_references(data, used)
    rows = []
    for name in [*data.systems, *extra]:
        hyps = _texts(data, name)
        scores = [REGISTERED[metric].corpus_score(hyps, refs) for metric in chosen]
        mqm, rated = mqm_system_score(data.mqm[name])
        rows.append(SystemRow(name, name in data.references, tuple(scores), mqm, rated))
    return SystemTable(data.pair, reference, used, chosen, tuple(rows), len(data.sources))


def segment_level(data: Wmt21Ted, reference: str | None = None) -> SegmentTable:
    """Sentence BLEU and sentence chrF of every (system, segment) pair, beside the segment's MQM score.

    Sentence BLEU is :func:`bleu_teach.bleu.sacrebleu_api.sentence_score` (sacreBLEU's
    ``sentence_bleu``: 13a, exp smoothing, effective order on); sentence chrF
    is :func:`bleu_teach.chrf.explain.chrf_score` on the one segment (sacreBLEU's
    ``sentence_chrf``).  Pairs without an MQM score are left out
    (``unrated`` counts them).  Human references are not rows here.
    """
    check_data(data)
    reference = reference if reference is not None else default_reference(data)
    used = _check_reference(data, reference)
    refs = _segment_references(data, used)
    rows = []
    unrated = 0
    for name, hyps in data.systems.items():
        for i, (hyp, seg_refs) in enumerate(zip(hyps, refs)):
            mqm = data.mqm[name][i]
            if mqm is None:
                unrated += 1
                continue
            scores = tuple(REGISTERED[metric].sentence_score(hyp, seg_refs) for metric in SEGMENT_METRICS)
            rows.append(SegmentRow(name, i, scores, mqm))
    return SegmentTable(data.pair, reference, used, SEGMENT_METRICS, tuple(rows), tuple(data.systems), unrated)


def mqm_bands(table: SegmentTable, metric: str = "BLEU") -> tuple[MqmBand, ...]:
    """Split the table's sentence ``metric`` scores by the pair's MQM band (:data:`MQM_BANDS`); every pair lands in one.

    >>> from bleu_teach.lessons.data import wmt21_ted
    >>> bands = mqm_bands(segment_level(wmt21_ted("zh-en")))
    >>> [len(b.scores) for b in bands]
    [3738, 884, 1456, 582, 217]
    """
    if not isinstance(table, SegmentTable):
        raise TypeError(f"table must come from segment_level, not {type(table).__name__}")
    scores, human = table.column(metric), table.mqm_column()
    return tuple(
        MqmBand(label, low, high, tuple(s for s, m in zip(scores, human) if low <= m < high))
        for label, low, high in MQM_BANDS
    )
