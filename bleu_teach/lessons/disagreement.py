"""Where a sentence metric and the experts part: the (system, segment) pairs they rank furthest apart.

Over every (system, segment) pair of a segment-level table
(:func:`~bleu_teach.lessons.metric_tables.segment_level`: sentence BLEU and
chrF beside the segment's MQM score, Freitag et al., 2021),
:func:`disagreements` ranks the pairs by how far the metric and the experts
place them apart: each score becomes a percentile over the table's pairs
(``scipy.stats.rankdata``'s average ranks), and :class:`Disagreement`'s
``gap`` is the metric's percentile minus MQM's.  :func:`disagreement_document`
shows one beside its segment's errors (:func:`~bleu_teach.lessons.mqm.mqm_segment`):
lesson 08's explorer.

Each result describes itself once (``to_document()``); every view is written
from that.  scipy is imported inside the function that needs it, so
``import bleu_teach`` stays light.
"""

from __future__ import annotations

from dataclasses import dataclass

from bleu_teach.inputs.optional import needs
from bleu_teach.lessons.metric_tables import SegmentTable
from bleu_teach.lessons.mqm import MqmSegment
from bleu_teach.views.document import Document, Paragraph, Section, Strong
from bleu_teach.views.viewable import Viewable

__all__ = ["Disagreement", "disagreements", "disagreement_document"]


@dataclass(frozen=True, repr=False)
class Disagreement(Viewable):
    """One (system, segment) pair placed in two rankings: the metric's and the experts'.

    Each *percentile* is the share (0-100) of the table's pairs that score
    below this one, ties counted half (mid-rank: ``(rank - 0.5) / n * 100``
    with ``scipy.stats.rankdata``'s average ranks).  ``gap`` is the metric's
    percentile minus MQM's: large and positive when the metric rates the
    translation far better than the experts did (the metric is *too kind*),
    large and negative when it rates it far worse (*too harsh*).

    >>> Disagreement("sys", 0, "BLEU", 80.0, -10.0, metric_percentile=95.0, mqm_percentile=5.0)
    sys, segment 0: sentence BLEU 80.00 (percentile 95.0), MQM -10 (percentile 5.0), gap +90.0
    """

    system: str
    segment: int
    metric: str
    score: float
    mqm: float
    metric_percentile: float
    mqm_percentile: float

    @property
    def gap(self) -> float:
        return self.metric_percentile - self.mqm_percentile

    def to_document(self) -> Document:
        """One line: the metric's and the experts' scores and percentiles, and the gap between them."""
        return Document(
            (
                Paragraph(
                    (
                        Strong(
                            f"{self.system}, segment {self.segment}: sentence {self.metric} {self.score:.2f} "
                            f"(percentile {self.metric_percentile:.1f}), MQM {self.mqm:g} "
                            f"(percentile {self.mqm_percentile:.1f}), gap {self.gap:+.1f}"
                        ),
                    )
                ),
            )
        )


def disagreements(table: SegmentTable, metric: str = "BLEU") -> tuple[Disagreement, ...]:
    """Every (system, segment) pair of ``table``, the metric's largest over-rating first.

    The metric's scores and the MQM scores are each turned into percentiles
    over all the table's pairs (see :class:`Disagreement`), so that a sentence
    BLEU of 0-100 and an MQM score of -25-0 can be compared; the pairs are
    sorted by ``gap``, largest first (then by system and segment).  The last
    pairs are those the metric rates far *below* the experts.
    """
    if not isinstance(table, SegmentTable):
        raise TypeError(f"table must come from segment_level, not {type(table).__name__}")
    if metric not in table.metrics:
        raise ValueError(f"no {metric!r} column; choose one of {', '.join(table.metrics)}")
    if not table.rows:
        raise ValueError("the table has no rated (system, segment) pairs")
    needs("scipy", "Correlating with the experts (SciPy)")
    from scipy.stats import rankdata

    scores = table.column(metric)
    human = table.mqm_column()
    n = len(scores)
    metric_ranks = rankdata(scores, method="average")
    mqm_ranks = rankdata(human, method="average")
    found = [
        Disagreement(
            row.system, row.segment, metric, score, mqm, float((mr - 0.5) / n * 100), float((hr - 0.5) / n * 100)
        )
        for row, score, mqm, mr, hr in zip(table.rows, scores, human, metric_ranks, mqm_ranks)
    ]
    order = {name: i for i, name in enumerate(table.systems)}
    return tuple(sorted(found, key=lambda d: (-d.gap, order[d.system], d.segment)))


def disagreement_document(disagreement: Disagreement, segment: MqmSegment, how: str = "") -> Document:
    """The explorer's view of one disagreement: the gap, the segment with its errors, a heading for the metric's report.

    ``segment`` is the same translation (:func:`~bleu_teach.lessons.mqm.mqm_segment`); ``how`` says
    how the metric's report, which the caller shows after this document, was made.
    """
    if not isinstance(disagreement, Disagreement) or not isinstance(segment, MqmSegment):
        raise TypeError(
            "disagreement_document takes one of disagreements(...) and its mqm_segment(...), not "
            f"{type(disagreement).__name__} and {type(segment).__name__}"
        )
    if (disagreement.system, disagreement.segment) != (segment.name, segment.segment):
        raise ValueError(
            f"the disagreement is about {disagreement.system}'s segment {disagreement.segment}, "
            f"the segment shown is {segment.name}'s segment {segment.segment}"
        )
    report = Section((f"Sentence {disagreement.metric}",), (Paragraph((how,)),) if how else ())
    return Document((*disagreement.to_document().blocks, *segment.to_document().blocks, report), styles=("mqm",))
