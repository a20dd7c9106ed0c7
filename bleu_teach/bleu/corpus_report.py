"""The corpus BLEU report: every sentence's counts, pooled into the one score ``corpus_bleu`` gives.

:func:`~bleu_teach.bleu.explain.explain_corpus` returns a :class:`CorpusReport`:
a :class:`SentenceRow` for each sentence, then the counts and lengths pooled
over the corpus and combined once, as Papineni et al. (2002) define corpus
BLEU (the clipped matches and the n-grams are added up over the sentences
before p_n is taken, and c and r are the summed lengths); the mean of the
sentence scores is shown beside it as the number corpus BLEU is not.  Like
:class:`~bleu_teach.bleu.reports.BleuReport`, whose combining step it
shares, it holds the counts (:mod:`bleu_teach.bleu.counting`) and the result
(:mod:`bleu_teach.bleu.arithmetic`) the score was computed from, and lays
them out once in ``to_document()``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bleu_teach.bleu.arithmetic import BleuResult, Number
from bleu_teach.bleu.count_fraction import CountFraction
from bleu_teach.bleu.counting import PooledCounts
from bleu_teach.bleu.reports import MAX_ORDERS_SHOWN, MAX_ROWS_SHOWN, OrderReport, bp_line, combine_section
from bleu_teach.views.document import Document, Heading, Label, Lines, Paragraph, Score, notes
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.formatting import format_number
from bleu_teach.views.viewable import Viewable

__all__ = ["SentenceRow", "CorpusReport"]


@dataclass(frozen=True)
class SentenceRow:
    """One sentence's statistics inside a corpus report.

    ``totals`` are the denominators this sentence adds to the pooled counts
    (1 for an order it has no n-grams of); ``ngrams`` the real n-gram counts.
    ``sentence_score`` is None when the smoothing method cannot score this
    sentence alone (``problem`` says why); the corpus score does not need it.
    """

    index: int
    hyp_len: int
    closest_ref_len: int
    clipped: tuple[int, ...]
    totals: tuple[int, ...]
    brevity_penalty: Number
    sentence_score: float | None
    ngrams: tuple[int, ...] = ()
    problem: str | None = None


_CORPUS_KEY = (
    "m_n = clipped n-gram matches, t_n = hypothesis n-grams as counted "
    "(* = the sentence has no n-grams of that order; NLTK counts it as 0/1)"
)


@dataclass(frozen=True, repr=False)
class CorpusReport(Viewable):
    """Per-sentence statistics and the pooled ones behind a corpus BLEU score.

    ``clipped``/``totals`` are the pooled counts exactly as the score used
    them (``ngrams`` the real pooled n-gram counts); ``counts`` and
    ``result`` are the objects the score was computed from.
    """

    sentences: tuple[SentenceRow, ...]
    weights: tuple[float, ...]
    smoothing: str
    clipped: tuple[int, ...]
    totals: tuple[int, ...]
    precisions: tuple[CountFraction, ...]
    smoothed: tuple[Any, ...]
    log_terms: tuple[float | None, ...]
    hyp_len: int
    ref_len: int
    brevity_penalty: Number
    score: float
    mean_sentence_score: float | None
    notes: tuple[str, ...]
    ngrams: tuple[int, ...] = ()
    counts: PooledCounts | None = field(default=None, compare=False, repr=False)
    result: BleuResult | None = field(default=None, compare=False, repr=False)
    orders: tuple[OrderReport, ...] = ()

    @property
    def log_sum(self) -> float | None:
        return self.result.log_sum if self.result is not None else None

    def _table(self) -> TableBlock:
        k = min(len(self.weights), MAX_ORDERS_SHOWN)
        header = ("sentence", "c", "r", *[f"m_{n}/t_{n}" for n in range(1, k + 1)], "BP", "sentence BLEU")
        rows = [
            (
                str(s.index + 1),
                str(s.hyp_len),
                str(s.closest_ref_len),
                *[
                    f"{m}/{t}" + ("*" if g == 0 else "")
                    for m, t, g in list(zip(s.clipped, s.totals, s.ngrams or s.totals))[:k]
                ],
                format_number(s.brevity_penalty),
                format_number(s.sentence_score) if s.sentence_score is not None else "cannot score alone",
            )
            for s in self.sentences[:MAX_ROWS_SHOWN]
        ]
        rows.append(
            (
                "corpus (pooled)",
                str(self.hyp_len),
                str(self.ref_len),
                *[f"{m}/{t}" for m, t in list(zip(self.clipped, self.totals))[:k]],
                format_number(self.brevity_penalty),
                format_number(self.score),
            )
        )
        left_out = []
        if len(self.sentences) > MAX_ROWS_SHOWN:
            left_out.append(f"the first {MAX_ROWS_SHOWN} of {len(self.sentences):,} sentences are listed")
        if len(self.weights) > k:
            left_out.append(f"orders 1 to {k} of {len(self.weights):,} are shown")
        caption = (
            (
                "; ".join(left_out) + ": the pooled row and the score count them all, and the report's data "
                "(to_dict()) keeps every number."
            )
            if left_out
            else ""
        )
        return TableBlock(header, tuple(rows), caption=caption[0].upper() + caption[1:] if caption else "")

    def to_document(self) -> Document:
        """Each sentence's counts, the pooled counts and BP, the combination, the score and the mean it is not."""
        mean = (
            "mean of sentence BLEU = " + format_number(self.mean_sentence_score)
            if self.mean_sentence_score is not None
            else "no mean of sentence BLEU (see the notes)"
        )
        pooled = Lines(
            (
                (
                    Label(
                        "pooled: p_n = sum of m_n / sum of t_n = "
                        + ", ".join(f"{m}/{t}" for m, t in list(zip(self.clipped, self.totals))[:MAX_ORDERS_SHOWN])
                        + (
                            f", ... ({len(self.clipped) - MAX_ORDERS_SHOWN:,} more orders)"
                            if len(self.clipped) > MAX_ORDERS_SHOWN
                            else ""
                        )
                    ),
                ),
                (bp_line(self.hyp_len, self.ref_len, self.brevity_penalty, empty="empty hypotheses"),),
            )
        )
        combine = (
            (combine_section("Combining the pooled precisions", self.smoothing, self.orders, self.log_sum),)
            if self.orders
            else ()
        )
        score = Score((f"corpus BLEU = {format_number(self.score)}",), self.score)
        how = Paragraph((f"(exact value {self.score!r}); {mean}",))
        return Document(
            (
                Heading("Corpus BLEU, step by step"),
                Paragraph((Label(_CORPUS_KEY),)),
                self._table(),
                pooled,
                *combine,
                score,
                how,
                *notes(self.notes),
            )
        )

    def __str__(self) -> str:
        return self.to_text()
