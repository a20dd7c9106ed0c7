"""Do BLEU, chrF and TER agree with expert judgements? Metric-human correlation on WMT21 TED.

A metric is trusted as far as it ranks translations the way people do.  The
WMT metrics task measures this by correlating a metric's scores with human
scores (Freitag et al., 2021, "Results of the WMT21 Metrics Shared Task",
section 3): over systems and over segments, the two tables of
:mod:`bleu_teach.lessons.metric_tables` (:func:`system_level`, :func:`segment_level`).

- :func:`correlations` gives, per metric, Pearson's r and Kendall's tau (tau-b,
  which corrects for ties) between the metric and MQM, with their p-values,
  from ``scipy.stats.pearsonr`` and ``scipy.stats.kendalltau``;
  :func:`pairwise_accuracy` counts the pairs of systems a metric orders as the experts do
  (Kocmi et al., 2021).

**TER is an error rate (lower is better), MQM is higher-is-better.**  So that
"higher correlation = better agreement" holds for every metric,
:func:`correlations` correlates **minus TER** with MQM; this flips the sign of
r and tau and changes nothing else (``Correlation.negated`` says so).

The rest of the lesson is imported here too, so that lessons 08 and 09 find
it in one module: the tables and :func:`mqm_bands`
(:mod:`bleu_teach.lessons.metric_tables`), and the (system, segment) pairs a
metric and the experts place far apart (:mod:`bleu_teach.lessons.disagreement`).
What the experts said (a segment's errors, MQM system scores, the bands) is
:mod:`bleu_teach.lessons.mqm`.  Each result describes itself once
(``to_document()``); every view is written from that.  scipy is imported
inside the function that needs it, so ``import bleu_teach`` stays light.
"""

from __future__ import annotations

from dataclasses import dataclass

from bleu_teach.inputs.optional import needs
from bleu_teach.lessons.disagreement import Disagreement, disagreement_document, disagreements
from bleu_teach.lessons.metric_tables import (
    BOTH,
    LOWER_IS_BETTER,
    METRICS,
    SEGMENT_METRICS,
    SegmentRow,
    SegmentTable,
    SystemRow,
    SystemTable,
    mqm_bands,
    segment_level,
    system_level,
)
from bleu_teach.views.document import Document, Heading, Paragraph
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.viewable import Viewable

#: With the names of metric_tables and disagreement that lessons 08 and 09 import from here.
__all__ = [
    "METRICS",
    "LOWER_IS_BETTER",
    "SEGMENT_METRICS",
    "SystemRow",
    "SystemTable",
    "SegmentRow",
    "SegmentTable",
    "Correlation",
    "Correlations",
    "Disagreement",
    "system_level",
    "segment_level",
    "correlations",
    "disagreements",
    "disagreement_document",
    "PairwiseAccuracy",
    "pairwise_accuracy",
    "mqm_bands",
]


def _p_value(p: float) -> str:
    return "< 0.0001" if p < 0.0001 else f"{p:.4f}"


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
            notes.append(
                f"rows include the human reference{'s' if len(self.included) > 1 else ''} "
                f"{', '.join(self.included)} scored as a system"
            )
        if any(c.negated for c in self.rows):
            notes.append("TER is lower-is-better, so minus TER is correlated: higher always means better agreement")
        rows = tuple(
            (
                f"-{c.metric} (negated)" if c.negated else c.metric,
                f"{c.pearson:.4f}",
                _p_value(c.pearson_p),
                f"{c.kendall:.4f}",
                _p_value(c.kendall_p),
                str(c.n),
            )
            for c in self.rows
        )
        title = f"{self.level.capitalize()}-level correlation with MQM, {self.pair}, against {against}"
        return Document(
            (
                Heading(title),
                *[Paragraph((note,)) for note in notes],
                TableBlock(("metric", "Pearson r", "p-value", "Kendall tau-b", "p-value", "n"), rows),
            )
        )


# ---------------------------------------------------------------------------
# Correlations and pairwise accuracy
# ---------------------------------------------------------------------------


def correlations(table: SystemTable | SegmentTable) -> Correlations:
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
        rows.append(
            Correlation(
                metric,
                float(r.statistic),
                float(r.pvalue),
                float(tau.statistic),
                float(tau.pvalue),
                len(values),
                negated,
            )
        )
    included = tuple(row.name for row in table.rows if row.is_reference) if isinstance(table, SystemTable) else ()
    return Correlations(table.pair, table.level, table.reference, tuple(rows), included)


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
