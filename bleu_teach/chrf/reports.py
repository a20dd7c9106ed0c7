"""chrF reports: one sentence (:class:`ChrfReport`) and a corpus (:class:`ChrfCorpusScore`), every step kept.

:func:`bleu_teach.chrf.explain.explain_chrf` and
:func:`~bleu_teach.chrf.explain.chrf_score` make them; each describes
itself once (``to_document()``) and every view is written from that.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from bleu_teach.chrf.arithmetic import ChrfOrder, ChrfResult, ChrfSettings, chrf_arithmetic
from bleu_teach.chrf.counting import ChrfNgramRow, ChrfOrderCounts, order_kinds
from bleu_teach.views.document import (
    Block,
    Details,
    Document,
    Heading,
    Inline,
    Label,
    Lines,
    Paragraph,
    Score,
    Section,
    Strong,
    notes,
)
from bleu_teach.views.document import (
    Table as TableBlock,
)
from bleu_teach.views.formatting import MAX_TEXT_CHARS_SHOWN, format_number, shortened, visible
from bleu_teach.views.text_writer import write_text
from bleu_teach.views.viewable import Viewable

__all__ = ["ChrfCandidate", "ChrfReport", "ChrfSegment", "ChrfCorpusScore"]


def _title(name: str, what: str) -> str:
    return f"{name} ({what}), step by step, as sacreBLEU computes it"


_NGRAM_HEADER = ("n-gram", "hyp", "ref", "matched")


def _ngram_rows(rows: Sequence[ChrfNgramRow]) -> tuple[tuple[str, ...], ...]:
    """One row per distinct n-gram (hypothesis ones first, then those only in the reference)."""
    return tuple((visible(shortened(r.ngram)), str(r.hyp_count), str(r.ref_count), str(r.matched)) for r in rows)


def _value(value: float, is_eps: bool) -> str:
    return "1e-16 (eps)" if is_eps else format_number(value)


def _order_table(result: ChrfResult) -> TableBlock:
    """One row per order: matched, hypothesis and reference totals, P_n, R_n, F_n, whether it is averaged."""
    rows = []
    for o in result.orders:
        hyp = str(o.hyp_total) + (f" (of {o.hyp_ngrams})" if o.counts.hyp_left_out else "")
        rows.append(
            (
                o.label,
                str(o.matches),
                hyp,
                str(o.ref_total),
                _value(o.precision, o.precision_is_eps),
                _value(o.recall, o.recall_is_eps),
                _value(o.f_score, o.f_is_eps),
                "yes" if o.in_average else "no",
            )
        )
    return TableBlock(
        ("order", "matched", "hyp", "ref", "P_n", "R_n", f"F{result.beta}_n", "in the averages"), tuple(rows)
    )


def _order_line(o: ChrfOrder, beta: float) -> str:
    """P_n, R_n and F_n of one order, with the counts they come from."""
    if o.precision_is_eps:
        p = "P_n = 1e-16 (eps): " + (
            f"the reference has no {o.label}, so the hypothesis's {o.hyp_ngrams} count as 0"
            if o.counts.hyp_left_out
            else f"the hypothesis has no {o.label}"
        )
    else:
        p = f"P_n = {o.matches}/{o.hyp_total} = {format_number(o.precision)}"
    r = (
        f"R_n = 1e-16 (eps): the reference has no {o.label}"
        if o.recall_is_eps
        else f"R_n = {o.matches}/{o.ref_total} = {format_number(o.recall)}"
    )
    f = f"F{beta}_n = " + ("1e-16 (eps: P_n and R_n are both 0)" if o.f_is_eps else format_number(o.f_score))
    return f"{p}; {r}; {f}"


def _score_lines(result: ChrfResult, name: str) -> list[str]:
    """How the orders become the score, one step a line; the last line is the score."""
    k, total = result.effective_order, len(result.orders)
    b2 = f"{result.beta_squared:g}"
    if result.eps_smoothing:
        return [
            f"eps_smoothing: mean of F{result.beta}_n over all {total} orders",
            f"sum of F{result.beta}_n = {format_number(result.f_sum)}",
            f"{name} = 100 * {format_number(result.f_sum)} / {total} = {result.score:.4f}",
        ]
    if k == 0:
        return ["no order has n-grams in both the hypothesis and the reference: P = R = 0", f"{name} = 0"]
    lines = [
        f"P = mean of P_n = {format_number(result.avg_precision)}, R = mean of R_n = "
        f"{format_number(result.avg_recall)} (over the {k} of {total} orders with n-grams on both sides)"
    ]
    if not result.avg_precision + result.avg_recall:
        return lines + [f"P + R = 0 (no match at any order), so {name} = 0"]
    return lines + [f"{name} = 100 * (1 + {b2}) * P * R / ({b2} * P + R) = {result.score:.4f}"]


def _text_lines(report: ChrfReport) -> tuple[tuple[Inline, ...], ...]:
    """The texts compared, and what their n-grams read."""
    settings = report.settings

    def block(label: str, text: str, compared: str, characters: str, words: Sequence[str]) -> list[tuple[Inline, ...]]:
        lines: list[tuple[Inline, ...]] = [
            (Strong(label), ": ", visible(shortened(text, MAX_TEXT_CHARS_SHOWN), keep_spaces=True))
        ]
        if settings.lowercase:
            lines.append(
                (Strong("  lowercased"), ": ", visible(shortened(compared, MAX_TEXT_CHARS_SHOWN), keep_spaces=True))
            )
        if settings.char_order:
            lines.append(
                (
                    Strong(f"  characters ({len(characters)})"),
                    ": ",
                    visible(shortened(characters, MAX_TEXT_CHARS_SHOWN)),
                )
            )
        if settings.word_order:
            lines.append((Strong(f"  words ({len(words)})"), ": ", " | ".join(words)))
        return lines

    lines = block("Hypothesis", report.hypothesis, report.compared, report.characters, report.words)
    for c in report.candidates:
        lines += block(f"Reference {c.index + 1}", c.reference, c.compared, c.characters, c.words)
    return tuple(lines)


def _order_key(label: str) -> str:
    kind, rest = label.split(" ", 1)
    return f"{kind[0]}{rest.split('-')[0]}"


_SEGMENT_KEY = (
    "c3 = character 3-grams, w1 = word 1-grams, and so on, as matched/hypothesis/reference "
    "n-grams against the reference kept"
)


@dataclass(frozen=True)
class ChrfCandidate:
    """The hypothesis scored against one reference.

    ``index`` is the reference's position in the list given (0-based;
    ``None`` entries keep their places); ``compared`` the text after
    lowercasing (if on); ``characters`` what the character n-grams read;
    ``words`` what the word n-grams read (chrF++ only).
    """

    index: int
    reference: str
    compared: str
    characters: str
    words: tuple[str, ...]
    result: ChrfResult

    @property
    def score(self) -> float:
        return self.result.score


@dataclass(frozen=True, repr=False)
class ChrfReport(Viewable):
    """chrF of one hypothesis, with every intermediate number (``explain_chrf``).

    ``candidates`` holds the hypothesis scored against each reference
    (``None`` references skipped, as sacreBLEU does); ``chosen`` is the
    position in ``candidates`` of the one kept and ``reason`` says why;
    ``result`` (its :class:`ChrfResult`) is what the score was computed
    from.  ``compared`` is the hypothesis after lowercasing (if on),
    ``characters`` what its character n-grams read and ``words`` its chrF++
    words.  Prints as text (``print(report)``, :meth:`to_text`); shows as
    HTML in a notebook.
    """

    hypothesis: str
    references: tuple[str | None, ...]
    settings: ChrfSettings
    compared: str
    characters: str
    words: tuple[str, ...]
    candidates: tuple[ChrfCandidate, ...]
    chosen: int
    reason: str
    notes: tuple[str, ...]

    @property
    def best(self) -> ChrfCandidate:
        """The reference kept (the best-scoring one)."""
        return self.candidates[self.chosen]

    @property
    def result(self) -> ChrfResult:
        return self.best.result

    @property
    def orders(self) -> tuple[ChrfOrder, ...]:
        return self.result.orders

    @property
    def score(self) -> float:
        """chrF on sacreBLEU's 0-100 scale."""
        return self.result.score

    @property
    def name(self) -> str:
        return self.settings.name

    def to_document(self, ngram_tables: bool = True) -> Document:
        """Settings, the texts as compared, the reference kept, each order's n-grams, every order, the score.

        ``ngram_tables=False`` leaves out the per-order n-gram tables.
        """
        result = self.result
        kept = self.best.index + 1
        blocks: list[Block] = [
            Heading(_title(self.name, "one sentence")),
            Paragraph((f"Settings: {self.settings.description}",)),
            Lines(_text_lines(self)),
            Paragraph((f"Reference used: {kept} ({self.reason})",)),
        ]
        if len(self.candidates) > 1:
            blocks.append(
                TableBlock(
                    ("reference", "text", self.name, ""),
                    tuple(
                        (
                            str(c.index + 1),
                            visible(shortened(c.reference, MAX_TEXT_CHARS_SHOWN), keep_spaces=True),
                            f"{c.score:.4f}",
                            "kept" if i == self.chosen else "",
                        )
                        for i, c in enumerate(self.candidates)
                    ),
                )
            )
        if ngram_tables:
            for o in result.orders:
                table: Block = (
                    TableBlock(_NGRAM_HEADER, _ngram_rows(o.rows)) if o.rows else Paragraph(("(none on either side)",))
                )
                blocks.append(
                    Details(
                        (f"{o.label} (hypothesis against reference {kept}): ", Label(_order_line(o, result.beta))),
                        (table,),
                    )
                )
        blocks.append(Section((f"Every order (against reference {kept})",), (_order_table(result),)))
        *steps, score = _score_lines(result, self.name)
        blocks += [
            Lines(tuple((Label(s),) for s in steps)),
            Score((Label(score),), self.score),
            Paragraph((f"(exact value {self.score!r})",)),
            *notes(self.notes),
        ]
        return Document(tuple(blocks))

    def to_text(self, ngram_tables: bool = True) -> str:
        """The report as plain text (``ngram_tables=False`` leaves out the n-gram tables)."""
        return write_text(self.to_document(ngram_tables=ngram_tables))


@dataclass(frozen=True, repr=False)
class ChrfSegment:
    """One segment of a corpus: the reference kept for it, its own chrF and its counts against that reference.

    ``chosen`` is the kept reference's position in the segment's list of
    references (0-based; ``None`` entries keep their places).  ``counted``
    holds, per order, the four numbers of :class:`ChrfOrderCounts` (matches,
    hypothesis n-grams as they enter the score, reference n-grams,
    hypothesis n-grams) that the corpus sums; ``counts`` (those numbers as
    records) and ``score`` (the segment's own chrF, by
    :func:`~bleu_teach.chrf.arithmetic.chrf_arithmetic`, which also compared
    the references where there were several) are made from them each time
    they are read, so a corpus of many segments makes neither unless asked.
    """

    index: int
    chosen: int
    n_references: int
    counted: tuple[tuple[int, int, int, int], ...] = field(repr=False)
    settings: ChrfSettings = field(repr=False)
    #: JSON shows ``counts`` (and ``score``), not the fields they are made from; so does ``__repr__`` below.
    _records_made_when_read: ClassVar[tuple[str, ...]] = ("counts",)

    @property
    def score(self) -> float:
        """The segment's own chrF (0-100) against the kept reference."""
        counts = [order[:3] for order in self.counted]
        return chrf_arithmetic(counts, self.settings.beta, self.settings.eps_smoothing)[-1]

    @property
    def counts(self) -> tuple[ChrfOrderCounts, ...]:
        """Per order, the counts against the kept reference (no n-gram table: the corpus path keeps none)."""
        kinds = order_kinds(self.settings.char_order, self.settings.word_order)
        return tuple(ChrfOrderCounts(kind, n, *order) for (kind, n), order in zip(kinds, self.counted))

    def __repr__(self) -> str:
        return (
            f"ChrfSegment(index={self.index!r}, chosen={self.chosen!r}, n_references={self.n_references!r}, "
            f"score={self.score!r}, counts={self.counts!r})"
        )


@dataclass(frozen=True, repr=False)
class ChrfCorpusScore(Viewable):
    """Corpus chrF: the segments, their summed counts and the arithmetic on the sums (``chrf_score``).

    ``totals`` are the per-order counts summed over ``segments``;
    ``result`` the :class:`ChrfResult` computed from them; ``score`` is on
    sacreBLEU's 0-100 scale.  ``mean_segment_score`` is shown for contrast
    (it is not corpus chrF).
    """

    settings: ChrfSettings
    segments: tuple[ChrfSegment, ...]
    totals: tuple[ChrfOrderCounts, ...]
    result: ChrfResult
    notes: tuple[str, ...]

    @property
    def score(self) -> float:
        return self.result.score

    @property
    def orders(self) -> tuple[ChrfOrder, ...]:
        return self.result.orders

    @property
    def name(self) -> str:
        return self.settings.name

    @property
    def mean_segment_score(self) -> float:
        return math.fsum(s.score for s in self.segments) / len(self.segments)

    def to_document(self, max_segments: int = 20) -> Document:
        """The segments (the first ``max_segments``), the summed counts, every order, the score and the mean it is
        not."""
        rows = [
            (
                str(s.index + 1),
                f"{s.chosen + 1} of {s.n_references}",
                f"{s.score:.4f}",
                *[f"{o.matches}/{o.hyp_total}/{o.ref_total}" for o in s.counts],
            )
            for s in self.segments[:max_segments]
        ]
        hidden = len(self.segments) - max_segments
        if hidden > 0:
            rows.append((f"... {hidden} more", "", "", *["" for _ in self.totals]))
        rows.append(
            (
                "corpus (summed)",
                "",
                f"{self.score:.4f}",
                *[f"{o.matches}/{o.hyp_total}/{o.ref_total}" for o in self.totals],
            )
        )
        header = ("segment", "reference kept", self.name, *[_order_key(o.label) for o in self.totals])
        *steps, score = _score_lines(self.result, self.name)
        return Document(
            (
                Heading(_title(self.name, "a corpus")),
                Paragraph((f"Settings: {self.settings.description}",)),
                Paragraph((_SEGMENT_KEY,)),
                TableBlock(header, tuple(rows)),
                Section(("Every order (summed over the corpus)",), (_order_table(self.result),)),
                Lines(tuple((Label(s),) for s in steps)),
                Score((Label(score),), self.score),
                Paragraph(
                    (
                        f"(exact value {self.score!r}); for contrast, the mean of the segment scores is "
                        f"{self.mean_segment_score:.4f}",
                    )
                ),
                *notes(self.notes),
            )
        )
