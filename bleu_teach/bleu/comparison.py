"""Two hypotheses side by side: which one BLEU scores higher, and the n-grams that decide it.

:func:`~bleu_teach.bleu.explain.compare_hypotheses` returns a
:class:`HypothesisComparison` of two
:class:`~bleu_teach.bleu.reports.BleuReport` objects, scored against the same
references with the same settings: both hypotheses with their matched
unigrams ticked, p_n, BP and BLEU side by side, and for each order the
n-grams that earn a clipped match in one hypothesis more often than in the
other.  Every number is one the two reports hold; nothing is counted again.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

from bleu_teach.bleu.counting import Ngram
from bleu_teach.bleu.reports import BleuReport, token_run
from bleu_teach.inputs.validation import whole_number_text
from bleu_teach.views.document import Document, Paragraph, Score, Strong
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.formatting import format_number
from bleu_teach.views.viewable import View, Viewable

__all__ = ["HypothesisComparison"]


@dataclass(frozen=True, repr=False)
class HypothesisComparison(Viewable):
    """Two hypotheses scored against the same references with the same settings."""

    a: BleuReport
    b: BleuReport
    labels: tuple[str, str] = ("A", "B")

    @property
    def winner(self) -> str | None:
        """The label of the higher-scoring hypothesis, or None for a tie."""
        if self.a.score == self.b.score:
            return None
        return self.labels[0] if self.a.score > self.b.score else self.labels[1]

    def deciding(self, n: int) -> tuple[tuple[Ngram, ...], tuple[Ngram, ...]]:
        """The n-grams that earn a clipped match in one hypothesis more often than in the other.

        Returns ``(more_in_a, more_in_b)``; an n-gram appears once per extra match.
        """
        if isinstance(n, bool) or not isinstance(n, numbers.Integral):
            raise TypeError(f"n must be a whole number from 1 to {len(self.a.orders)}, not {n!r}.")
        if not 1 <= n <= len(self.a.orders):
            raise ValueError(f"n must be between 1 and {len(self.a.orders)}; got {whole_number_text(n)}.")
        got_a = {row.ngram: row.clipped_count for row in self.a.orders[n - 1].rows}
        got_b = {row.ngram: row.clipped_count for row in self.b.orders[n - 1].rows}
        more_a = tuple(g for g, c in got_a.items() for _ in range(c - got_b.get(g, 0)))
        more_b = tuple(g for g, c in got_b.items() for _ in range(c - got_a.get(g, 0)))
        return more_a, more_b

    @property
    def verdict(self) -> str:
        """Which hypothesis scores higher, with both scores."""
        la, lb = self.labels
        if self.winner is None:
            return f"{la} and {lb} score the same ({format_number(self.a.score)})."
        high, low = (self.a, self.b) if self.winner == la else (self.b, self.a)
        loser = lb if self.winner == la else la
        return (
            f"{self.winner} scores higher: {format_number(high.score)} against {format_number(low.score)} for {loser}."
        )

    def to_document(self, compact: bool = False) -> Document:
        """Both hypotheses (matched unigrams ticked), the references, p_n side by side with the n-grams that decide.

        ``compact=True`` gives the conclusion first (the verdict with both scores), then the hypotheses and the
        table without its BLEU row, which the verdict states; no references (for a slide that names them).
        """
        la, lb = self.labels
        join = " ".join
        rows = []
        for oa, ob in zip(self.a.orders, self.b.orders):
            more_a, more_b = self.deciding(oa.n)
            rows.append(
                (
                    f"p_{oa.n}",
                    f"{oa.clipped}/{oa.total}",
                    f"{ob.clipped}/{ob.total}",
                    ", ".join(join(map(str, g)) for g in more_a) or "-",
                    ", ".join(join(map(str, g)) for g in more_b) or "-",
                )
            )
        rows.append(
            ("BP", format_number(float(self.a.brevity_penalty)), format_number(float(self.b.brevity_penalty)), "", "")
        )
        rows.append(("BLEU", format_number(self.a.score), format_number(self.b.score), "", ""))
        hypotheses = tuple(
            Paragraph(
                (
                    Strong(label),
                    " (matched unigrams marked \u2713): ",
                    *token_run(r.hypothesis, r.matched_positions(1)),
                )
            )
            for label, r in ((la, self.a), (lb, self.b))
        )
        references = tuple(
            Paragraph((Strong(f"Reference {i}"), ": ", *token_run(ref)))
            for i, ref in enumerate(self.a.references, start=1)
        )
        header = ("", la, lb, f"matched more in {la}", f"matched more in {lb}")
        if compact:
            return Document(
                (Score((self.verdict,), None), *hypotheses, TableBlock(header, tuple(rows[:-1]), label_column=True)),
                styles=("compact",),
            )
        return Document(
            (*hypotheses, *references, TableBlock(header, tuple(rows), label_column=True), Score((self.verdict,), None))
        )

    def compact(self) -> View:
        """The comparison conclusion first, to show on a slide: :meth:`to_document` with ``compact=True``."""
        return View(self.to_document(compact=True), self)
