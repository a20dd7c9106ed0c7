"""Do BLEU, chrF and TER agree with expert judgements? Metric-human correlation on WMT21 TED.

A metric is trusted as far as it ranks translations the way people do.  The
WMT metrics task measures this by correlating a metric's scores with human
scores (Freitag et al., 2021, "Results of the WMT21 Metrics Shared Task",
section 3): over systems (one corpus score and one human score per system)
and over segments (one pair per system and sentence).

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
- :func:`correlations` gives, per metric, Pearson's r and Kendall's tau (tau-b,
  which corrects for ties) between the metric and MQM, with their p-values,
  from ``scipy.stats.pearsonr`` and ``scipy.stats.kendalltau``;
  :func:`pairwise_accuracy` counts the pairs of systems a metric orders as the experts do.
- :func:`disagreements` ranks the (system, segment) pairs by how far the
  metric and the experts place them apart; :func:`disagreement_document`
  shows one beside its segment's errors (the explorer's view);
  :func:`mqm_bands` groups the sentence scores by MQM band.

**TER is an error rate (lower is better), MQM is higher-is-better.**  So that
"higher correlation = better agreement" holds for every metric,
:func:`correlations` correlates **minus TER** with MQM; this flips the sign of
r and tau and changes nothing else (``Correlation.negated`` says so).

What the experts said (a segment's errors, MQM system scores, the bands) is
:mod:`bleu_teach.lessons.mqm`.  Each result describes itself once
(``to_document()``); every view is written from that.  scipy and sacreBLEU
are imported inside the functions that need them, so ``import bleu_teach``
stays light.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Optional, Union

from bleu_teach.inputs.optional import needs
from bleu_teach.metrics import METRICS as REGISTERED
from bleu_teach.lessons.mqm import MQM_BANDS, MqmBand, MqmSegment, check_data, default_reference, mqm_system_score
from bleu_teach.views.document import Block, Document, Heading, Paragraph, Section, Strong, Table as TableBlock
from bleu_teach.views.viewable import Viewable, plain_data

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.data import Wmt21Ted

__all__ = ["METRICS", "LOWER_IS_BETTER", "SEGMENT_METRICS", "SystemRow", "SystemTable", "SegmentRow", "SegmentTable",
           "Correlation", "Correlations", "Disagreement", "system_level", "segment_level", "correlations",
           "disagreements", "disagreement_document", "PairwiseAccuracy", "pairwise_accuracy", "mqm_bands"]

#: The metrics :func:`system_level` can compute, in the order shown: every registered metric.
METRICS: tuple[str, ...] = tuple(REGISTERED)

#: Metrics where a lower score means a better translation (their sign is flipped before correlating): the
#: registry's ``direction``.
LOWER_IS_BETTER: frozenset[str] = frozenset(name for name, m in REGISTERED.items() if m.lower_is_better)

#: The metrics :func:`segment_level` computes per sentence: those the suite explains, so that a disagreement
#: can be shown step by step.
SEGMENT_METRICS: tuple[str, ...] = tuple(name for name, m in REGISTERED.items() if m.segment_view is not None)

BOTH = "both"


def _against(pair: str, references: Sequence[str]) -> str:
    return f"{pair}, against {' and '.join(references)}"


def _metric_label(metric: str) -> str:
    return f"{metric} (lower is better)" if metric in LOWER_IS_BETTER else metric


def _p_value(p: float) -> str:
    return "< 0.0001" if p < 0.0001 else f"{p:.4f}"


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

    def systems_only(self) -> "SystemTable":
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
        rows = tuple((f"{row.name} (human reference)" if row.is_reference else row.name,
                      *[f"{s:.2f}" for s in row.scores], f"{row.mqm:.3f}") for row in self.rows)
        return Document((
            Heading(f"System-level scores, {_against(self.pair, self.references_used)} ({self.segments} segments)"),
            Paragraph(("MQM = mean of the per-segment MQM scores (negated error points: 0 = no error, "
                       "higher is better)",)),
            TableBlock(header, rows)))


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
        """The first ``max_rows`` (system, segment) rows (sentence scores to 2 decimals, MQM to 1), then how many more."""
        rows = [(row.system, str(row.segment), *[f"{s:.2f}" for s in row.scores], f"{row.mqm:.1f}")
                for row in self.rows[:max_rows]]
        hidden = len(self.rows) - max_rows
        if hidden > 0:
            rows.append((f"... {hidden} more", "", *["" for _ in self.metrics], ""))
        blocks: list[Block] = [Heading(f"Segment-level scores, {_against(self.pair, self.references_used)}: "
                                       f"{len(self.rows)} (system, segment) pairs from {len(self.systems)} systems")]
        if self.unrated:
            blocks.append(Paragraph((f"{self.unrated} pairs without an MQM score left out",)))
        header = ("system", "segment", *[f"sentence {m}" for m in self.metrics], "MQM")
        return Document((*blocks, TableBlock(header, tuple(rows))))

    def to_dict(self, max_rows: Optional[int] = None) -> dict[str, Any]:
        """The table's settings and counts, and its rows: all of them, or the first ``max_rows``."""
        shown = self.rows if max_rows is None else self.rows[:max_rows]
        return {"type": "SegmentTable", "pair": self.pair, "reference": self.reference,
                "references_used": list(self.references_used), "metrics": list(self.metrics),
                "systems": list(self.systems), "unrated": self.unrated, "pairs": len(self.rows),
                "rows": plain_data(shown)}


@dataclass(frozen=True)
class Correlation:
    """Agreement of one metric with MQM: Pearson's r and Kendall's tau-b, with their two-sided p-values.

    ``negated`` is True for a lower-is-better metric (TER): the correlation is
    that of minus the metric with MQM, so that higher always means better agreement.
    """

    metric: str
    pearson: float
    pearson_p: float
    kendall: float
    kendall_p: float
    n: int
    negated: bool


@dataclass(frozen=True, repr=False)
class Correlations(Viewable):
    """Each metric's correlation with MQM over the rows of one table (see :func:`correlations`)."""

    pair: str
    level: str
    reference: str
    rows: tuple[Correlation, ...]
    included: tuple[str, ...]

    def __getitem__(self, metric: str) -> Correlation:
        for row in self.rows:
            if row.metric == metric:
                return row
        raise KeyError(f"no correlation for {metric!r}; the metrics are {', '.join(r.metric for r in self.rows)}")

    def to_document(self) -> Document:
        """One row per metric: Pearson r and Kendall tau-b with MQM (4 decimals), their p-values, and n."""
        against = "both references" if self.reference == BOTH else self.reference
        notes = []
        if self.included:
            notes.append(f"rows include the human reference{'s' if len(self.included) > 1 else ''} "
                         f"{', '.join(self.included)} scored as a system")
        if any(c.negated for c in self.rows):
            notes.append("TER is lower-is-better, so minus TER is correlated: higher always means better agreement")
        rows = tuple((f"-{c.metric} (negated)" if c.negated else c.metric, f"{c.pearson:.4f}", _p_value(c.pearson_p),
                      f"{c.kendall:.4f}", _p_value(c.kendall_p), str(c.n)) for c in self.rows)
        title = f"{self.level.capitalize()}-level correlation with MQM, {self.pair}, against {against}"
        return Document((Heading(title),
                         *[Paragraph((note,)) for note in notes],
                         TableBlock(("metric", "Pearson r", "p-value", "Kendall tau-b", "p-value", "n"), rows)))


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
        return Document((Paragraph((Strong(
            f"{self.system}, segment {self.segment}: sentence {self.metric} {self.score:.2f} (percentile "
            f"{self.metric_percentile:.1f}), MQM {self.mqm:g} (percentile {self.mqm_percentile:.1f}), "
            f"gap {self.gap:+.1f}"),)),))


# ---------------------------------------------------------------------------
# Checking arguments
# ---------------------------------------------------------------------------


def _metric_index(metrics: Sequence[str], metric: str) -> int:
    if metric not in metrics:
        raise ValueError(f"no metric {metric!r} in this table; it has {', '.join(metrics)}")
    return list(metrics).index(metric)


def _check_reference(data: "Wmt21Ted", reference: Any) -> tuple[str, ...]:
    """The names of the references each segment is scored against."""
    if not isinstance(reference, str):
        raise TypeError(f"reference must be a string: one of {', '.join(_reference_choices(data))}; "
                        f"got {type(reference).__name__}")
    if reference == BOTH:
        if len(data.references) < 2:
            raise ValueError(f"{data.pair} has only one reference ({', '.join(data.references)}), "
                             f"so reference='both' is not possible; choose {', '.join(data.references)}")
        return tuple(data.references)
    if reference not in data.references:
        raise ValueError(f"no reference {reference!r} in {data.pair}; "
                         f"choose reference= one of {', '.join(_reference_choices(data))}")
    return (reference,)


def _reference_choices(data: "Wmt21Ted") -> list[str]:
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


def _check_include(data: "Wmt21Ted", include: Any, used: tuple[str, ...]) -> tuple[str, ...]:
    if isinstance(include, str):
        raise TypeError(f"include must be a list of names, e.g. ({include!r},), not one string")
    try:
        names = tuple(include)
    except TypeError:
        raise TypeError(f"include must be a list of reference names, e.g. ('ref-A',), not {type(include).__name__}") from None
    for name in names:
        if name in used:
            others = [r for r in data.references if r != name]
            instead = (f"To include it, score against {others[0]!r} alone (reference={others[0]!r})" if others
                       else f"{data.pair} has no other reference to score against; leave it out of include")
            raise ValueError(f"{name!r} is one of the references being scored against ({', '.join(used)}); "
                             f"scoring a translation against itself is meaningless. {instead}")
        if name in data.systems:
            raise ValueError(f"{name!r} is already a system row; include is for references scored as systems")
        if name not in data.references:
            raise ValueError(f"no reference {name!r} in {data.pair} to include; "
                             f"choose from {', '.join(data.references)}")
    if len(set(names)) != len(names):
        raise ValueError(f"include names a reference twice: {', '.join(names)}")
    return names


def _texts(data: "Wmt21Ted", name: str) -> list[str]:
    return data.systems[name] if name in data.systems else data.references[name]


def _segment_references(data: "Wmt21Ted", used: tuple[str, ...]) -> list[list[Optional[str]]]:
    """References per hypothesis: ``refs[i]`` lists segment i's reference strings."""
    return [[data.references[name][i] for name in used] for i in range(len(data.sources))]


# ---------------------------------------------------------------------------
# System level, segment level, correlations
# ---------------------------------------------------------------------------


def system_level(
    data: "Wmt21Ted",
    metrics: Sequence[str] = METRICS,
    reference: Optional[str] = None,
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


def segment_level(data: "Wmt21Ted", reference: Optional[str] = None) -> SegmentTable:
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


def correlations(table: Union[SystemTable, SegmentTable]) -> Correlations:
    """Per metric, Pearson's r and Kendall's tau-b between the metric and MQM over the table's rows.

    ``scipy.stats.pearsonr`` and ``scipy.stats.kendalltau`` (tau-b, its
    default: ties in either ranking are corrected for), two-sided p-values.
    For a lower-is-better metric (TER) the correlation is computed with
    **minus** the metric, so that for every metric higher means the metric
    agrees better with the experts (``Correlation.negated``).

    >>> from bleu_teach.lessons.data import wmt21_ted
    >>> c = correlations(system_level(wmt21_ted("zh-en"), metrics=("BLEU",)))
    >>> c["BLEU"].n, round(c["BLEU"].pearson, 4)
    (13, 0.3315)
    """
    if not isinstance(table, (SystemTable, SegmentTable)):
        raise TypeError(f"table must come from system_level or segment_level, not {type(table).__name__}")
    needs("scipy", "Correlating with the experts (SciPy)")
    from scipy.stats import kendalltau, pearsonr

    human = table.mqm_column()
    if len(human) < 3:
        raise ValueError(f"a correlation needs at least 3 rows; this table has {len(human)}")
    if len(set(human)) == 1:
        raise ValueError("every row has the same MQM score, so no correlation is defined")
    rows = []
    for metric in table.metrics:
        negated = metric in LOWER_IS_BETTER
        values = [-v if negated else v for v in table.column(metric)]
        if len(set(values)) == 1:
            raise ValueError(f"every row has the same {metric} score, so no correlation is defined")
        r = pearsonr(values, human)
        tau = kendalltau(values, human)
        rows.append(Correlation(metric, float(r.statistic), float(r.pvalue), float(tau.statistic),
                                float(tau.pvalue), len(values), negated))
    included = tuple(row.name for row in table.rows if row.is_reference) if isinstance(table, SystemTable) else ()
    return Correlations(table.pair, table.level, table.reference, tuple(rows), included)


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
    found = [Disagreement(row.system, row.segment, metric, score, mqm, float((mr - 0.5) / n * 100),
                          float((hr - 0.5) / n * 100))
             for row, score, mqm, mr, hr in zip(table.rows, scores, human, metric_ranks, mqm_ranks)]
    order = {name: i for i, name in enumerate(table.systems)}
    return tuple(sorted(found, key=lambda d: (-d.gap, order[d.system], d.segment)))


def disagreement_document(disagreement: Disagreement, segment: MqmSegment, how: str = "") -> Document:
    """The explorer's view of one disagreement: the gap, the segment with its errors, a heading for the metric's report.

    ``segment`` is the same translation (:func:`~bleu_teach.lessons.mqm.mqm_segment`); ``how`` says
    how the metric's report, which the caller shows after this document, was made.
    """
    if not isinstance(disagreement, Disagreement) or not isinstance(segment, MqmSegment):
        raise TypeError("disagreement_document takes one of disagreements(...) and its mqm_segment(...), not "
                        f"{type(disagreement).__name__} and {type(segment).__name__}")
    if (disagreement.system, disagreement.segment) != (segment.name, segment.segment):
        raise ValueError(f"the disagreement is about {disagreement.system}'s segment {disagreement.segment}, "
                         f"the segment shown is {segment.name}'s segment {segment.segment}")
    report = Section((f"Sentence {disagreement.metric}",), (Paragraph((how,)),) if how else ())
    return Document((*disagreement.to_document().blocks, *segment.to_document().blocks, report), styles=("mqm",))


@dataclass(frozen=True)
class PairwiseAccuracy:
    """How many pairs of systems a metric orders the way the experts do (see :func:`pairwise_accuracy`)."""

    metric: str
    agree: int
    disagree: int
    tied: int

    @property
    def pairs(self) -> int:
        return self.agree + self.disagree + self.tied

    @property
    def accuracy(self) -> float:
        """The share of all pairs ordered as the experts order them (ties count as wrong)."""
        if not self.pairs:
            raise ValueError("there is no pair of systems, so pairwise accuracy is not defined")
        return self.agree / self.pairs


def pairwise_accuracy(table: SystemTable, metric: str = "BLEU") -> PairwiseAccuracy:
    """Over every pair of rows, does the metric put the same one ahead as MQM? (Kocmi et al., 2021)

    "To Ship or Not to Ship" ranks metrics by this pairwise accuracy.  A
    pair is *tied* when the metric or MQM gives both the same score.  For a
    lower-is-better metric (TER) the lower score counts as ahead.

    >>> from bleu_teach.lessons.data import wmt21_ted
    >>> pairwise_accuracy(system_level(wmt21_ted("zh-en"), metrics=("BLEU",)))
    PairwiseAccuracy(metric='BLEU', agree=48, disagree=30, tied=0)
    """
    if not isinstance(table, SystemTable):
        raise TypeError(f"table must come from system_level, not {type(table).__name__}")
    if len(table.rows) < 2:
        raise ValueError(f"pairwise accuracy compares pairs of systems; this table has {len(table.rows)} row")
    sign = -1.0 if metric in LOWER_IS_BETTER else 1.0
    scores = [sign * v for v in table.column(metric)]
    human = table.mqm_column()
    agree = disagree = tied = 0
    for i in range(len(scores)):
        for j in range(i + 1, len(scores)):
            product = (scores[i] - scores[j]) * (human[i] - human[j])
            if product > 0:
                agree += 1
            elif product < 0:
                disagree += 1
            else:
                tied += 1
    return PairwiseAccuracy(metric, agree, disagree, tied)


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
    return tuple(MqmBand(label, low, high, tuple(s for s, m in zip(scores, human) if low <= m < high))
                 for label, low, high in MQM_BANDS)
