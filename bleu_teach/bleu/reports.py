"""BLEU reports: the whole story of a score, as objects that describe themselves once.

:func:`bleu_teach.bleu.explain.explain` returns a :class:`BleuReport` for one
sentence and :func:`~bleu_teach.bleu.explain.explain_corpus` a
:class:`~bleu_teach.bleu.corpus_report.CorpusReport` for a corpus
(:mod:`bleu_teach.bleu.corpus_report`; two sentence reports side by side are
a :class:`~bleu_teach.bleu.comparison.HypothesisComparison`, in
:mod:`bleu_teach.bleu.comparison`).  A report is the computation, not a
retelling of it: it holds the statistics the score was counted from
(:mod:`bleu_teach.bleu.counting`) and the scoring result
(:mod:`bleu_teach.bleu.arithmetic`) that ``sentence_bleu`` and
``corpus_bleu`` return their score from, and nothing it shows is counted or
computed again.

Each report's ``to_document()`` lays out what it shows; every view (text,
HTML, Markdown, LaTeX) is written from that one document by
:mod:`bleu_teach.views`, and ``to_dict()`` gives its numbers as data.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bleu_teach.bleu.arithmetic import BleuResult, Number
from bleu_teach.bleu.count_fraction import CountFraction
from bleu_teach.bleu.counting import NgramRow, SentenceStatistics
from bleu_teach.inputs.validation import Tokens
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
from bleu_teach.views.document import (
    Tokens as TokenRun,
)
from bleu_teach.views.formatting import format_number, plural, shortened
from bleu_teach.views.html_writer import write_html
from bleu_teach.views.tables import Table
from bleu_teach.views.viewable import View, Viewable

__all__ = [
    "NgramRow",
    "OrderReport",
    "LengthReport",
    "BleuReport",
    "precision_table",
    "smoothing_table",
    "bp_line",
]


@dataclass(frozen=True)
class OrderReport:
    """Everything about one n-gram order n: its counts and how they entered the score.

    ``clipped``/``total`` is p_n exactly as the score used it; ``ngrams`` is
    the real number of hypothesis n-grams (``total`` is 1 when it is 0,
    NLTK's rule).  ``smoothed`` is p_n after smoothing, ``weight`` the
    weight in force and ``log_term`` the term added to the sum (None when
    the order is left out; ``left_out`` says why).
    """

    n: int
    rows: tuple[NgramRow, ...]
    clipped: int
    total: int
    precision: CountFraction
    weight: float
    smoothed: Any
    log_term: float | None
    ngrams: int = 0
    left_out: str = ""
    marks: tuple[bool, ...] = ()

    @property
    def is_zero(self) -> bool:
        return self.clipped == 0

    @property
    def counted_as_one(self) -> bool:
        """True when the hypothesis has no n-grams of this order and NLTK counts it as 0/1."""
        return self.ngrams == 0

    @property
    def precision_line(self) -> str:
        """p_n as counted, in words: ``p_2 = 3/5 = 0.6000 (clipped matches / hypothesis 2-grams)``."""
        n = self.n
        if self.counted_as_one:
            return (
                f"p_{n} = 0/1: the hypothesis has no {n}-grams (0/0 is undefined); "
                f"NLTK counts it as one {n}-gram with no match"
            )
        return (
            f"p_{n} = {self.clipped}/{self.total} = {float(self.precision):.4f} "
            f"(clipped matches / hypothesis {n}-grams)"
        )


@dataclass(frozen=True)
class LengthReport:
    """Lengths and the brevity penalty (Papineni et al. 2002, Section 2.2.2)."""

    hyp_len: int
    ref_lens: tuple[int, ...]
    closest_ref_len: int
    reason: str
    brevity_penalty: Number
    tied: tuple[int, ...] = ()

    @property
    def tie(self) -> bool:
        return len(self.tied) > 1

    @property
    def lines(self) -> tuple[str, str, str]:
        """c and the reference lengths, the r chosen and why, and the rule that gives BP."""
        return (
            f"hypothesis length c = {self.hyp_len}; reference lengths {', '.join(map(str, self.ref_lens))}",
            f"closest reference length r = {self.closest_ref_len} ({self.reason})",
            bp_line(self.hyp_len, self.closest_ref_len, self.brevity_penalty),
        )


def bp_line(c: int, r: int, bp: Any, empty: str = "empty hypothesis") -> str:
    """The brevity-penalty rule that applies to c and r, with its value.

    >>> bp_line(5, 6, 0.8187307530779818)
    'c = 5 <= r = 6, so BP = exp(1 - r/c) = exp(1 - 6/5) = 0.8187'
    """
    if c == 0:
        return f"BP = 0 ({empty})"
    if c > r:
        return f"c = {c} > r = {r}, so BP = 1"
    return f"c = {c} <= r = {r}, so BP = exp(1 - r/c) = exp(1 - {r}/{c}) = {format_number(bp)}"


def _strings(tokens: Sequence[Hashable]) -> tuple[str, ...]:
    return tuple(shortened(str(t)) for t in tokens)


#: A view shows at most this many tokens of one sentence, then says how many it leaves out.
MAX_TOKENS_SHOWN = 1000


def token_run(tokens: Sequence[Hashable], marks: Sequence[bool] = ()) -> tuple[Inline, ...]:
    """The tokens to show (ticked where ``marks`` says), and a note of any left out."""
    if len(tokens) <= MAX_TOKENS_SHOWN:
        return (TokenRun(_strings(tokens), tuple(marks)),)
    shown = TokenRun(_strings(tokens[:MAX_TOKENS_SHOWN]), tuple(marks[:MAX_TOKENS_SHOWN]))
    return (shown, f" … and {len(tokens) - MAX_TOKENS_SHOWN:,} more tokens, not shown (all are counted)")


_COMBINE_HEADER = ("order", "weight w_n", "p_n as counted", "p_n used", "w_n * log p_n")

#: A view lists at most this many orders, and this many n-gram rows per order; it says what it leaves out,
#: and the report's data (``to_dict()``) keeps every number.
MAX_ORDERS_SHOWN = 12
MAX_ROWS_SHOWN = 200


def _log_text(o: OrderReport) -> str:
    return format_number(o.log_term) if o.log_term is not None else f"left out: {o.left_out}"


def _shown(orders: Sequence[OrderReport]) -> tuple[tuple[OrderReport, ...], str]:
    """The orders a view lists, and a sentence about the ones it does not (empty when all are listed)."""
    if len(orders) <= MAX_ORDERS_SHOWN:
        return tuple(orders), ""
    hidden = orders[MAX_ORDERS_SHOWN:]
    first = hidden[0]
    if len({(o.clipped, o.total, o.smoothed, o.weight, o.log_term, o.left_out) for o in hidden}) == 1:
        what = (
            f"each has p_n = {first.clipped}/{first.total}, used as {format_number(first.smoothed)}, weight "
            f"{format_number(first.weight)} and w_n * log p_n = {_log_text(first)}"
        )
    else:
        what = "each order's numbers are in the report's data (to_dict())"
    return (
        tuple(orders[:MAX_ORDERS_SHOWN]),
        f"Orders {first.n} to {hidden[-1].n} ({len(hidden):,} orders) are not listed: {what}.",
    )


def _combine_table(orders: Sequence[OrderReport]) -> TableBlock:
    shown, rest = _shown(orders)
    rows = tuple(
        (f"p_{o.n}", format_number(o.weight), f"{o.clipped}/{o.total}", format_number(o.smoothed), _log_text(o))
        for o in shown
    )
    return TableBlock(_COMBINE_HEADER, rows, label_column=True, caption=rest)


def combine_section(title: str, smoothing: str, orders: Sequence[OrderReport], log_sum: float | None) -> Section:
    blocks: list[Block] = [_combine_table(orders)]
    if log_sum is not None:
        blocks.append(Paragraph((f"sum of log terms = {format_number(log_sum)}",)))
    return Section((f"{title} (smoothing: ", smoothing, ")"), tuple(blocks))


@dataclass(frozen=True, repr=False)
class BleuReport(Viewable):
    """The step-by-step story of one sentence-level BLEU score.

    ``statistics`` and ``result`` are the objects the score was computed
    from; ``orders`` and ``length`` lay them out order by order.
    """

    hypothesis: Tokens
    references: tuple[Tokens, ...]
    weights: tuple[float, ...]
    smoothing: str
    orders: tuple[OrderReport, ...]
    length: LengthReport
    log_sum: float | None
    score: float
    notes: tuple[str, ...]
    statistics: SentenceStatistics | None = field(default=None, compare=False, repr=False)
    result: BleuResult | None = field(default=None, compare=False, repr=False)

    @property
    def precisions(self) -> tuple[CountFraction, ...]:
        return tuple(o.precision for o in self.orders)

    @property
    def brevity_penalty(self) -> Number:
        return self.length.brevity_penalty

    def matched_positions(self, n: int = 1) -> tuple[bool, ...]:
        """For each hypothesis token, whether it lies in a clipped n-gram match.

        Matches are credited left to right, up to each n-gram's clipped count
        (worked out when the n-grams were counted).
        """
        order = self.order(n)
        return order.marks

    def order(self, n: int) -> OrderReport:
        """The report of order ``n`` (1 to the number of weights)."""
        found = next((o for o in self.orders if o.n == n), None)
        if found is None:
            raise ValueError(f"This report has orders 1 to {len(self.orders)}; n={n} is not among them.")
        return found

    @property
    def how(self) -> str:
        """How the score was made from the steps above it, in one line."""
        if self.log_sum is None:
            return "no unigram matches, so nothing is combined" if self.length.hyp_len else "an empty hypothesis"
        return (
            f"BP * exp(sum of log terms) = {format_number(self.length.brevity_penalty)} * "
            f"exp({format_number(self.log_sum)})"
        )

    def _hypothesis(self, legend: str) -> Paragraph:
        marks = self.matched_positions(1) if self.orders else ()
        return Paragraph(
            (
                Strong("Hypothesis"),
                f" ({plural(len(self.hypothesis), 'token')}{legend}): ",
                *token_run(self.hypothesis, marks),
            )
        )

    def _references(self) -> tuple[Paragraph, ...]:
        return tuple(
            Paragraph((Strong(f"Reference {i}"), f" ({plural(len(ref), 'token')}): ", *token_run(ref)))
            for i, ref in enumerate(self.references, start=1)
        )

    def _ngram_table(self, order: OrderReport) -> TableBlock:
        header = ("n-gram", "hyp", *[f"ref{i}" for i in range(1, len(self.references) + 1)], "max ref", "clipped")
        rows = tuple(
            (
                shortened(row.text),
                str(row.hyp_count),
                *map(str, row.ref_counts),
                str(row.max_ref_count),
                str(row.clipped_count),
            )
            for row in order.rows[:MAX_ROWS_SHOWN]
        )
        rest = (
            f"The first {MAX_ROWS_SHOWN} of {len(order.rows):,} different {order.n}-grams; p_{order.n} "
            "below counts them all."
            if len(order.rows) > MAX_ROWS_SHOWN
            else ""
        )
        return TableBlock(header, rows, caption=rest)

    def _steps(self) -> list[Block]:
        shown, rest = _shown(self.orders)
        steps: list[Block] = [
            Section(
                (Label(f"{o.n}-grams: modified precision p_{o.n}"),),
                ((self._ngram_table(o),) if o.rows else ()) + (Paragraph((Label(o.precision_line),)),),
            )
            for o in shown
        ]
        if rest:
            steps.append(Paragraph((Label(rest),)))
        steps.append(Section(("Brevity penalty",), (Lines(tuple((line,) for line in self.length.lines)),)))
        steps.append(combine_section("Combining", self.smoothing, self.orders, self.log_sum))
        return steps

    def _score(self) -> tuple[Score, Paragraph]:
        """The score, then how it was made and its exact value."""
        return (
            Score((f"BLEU = {format_number(self.score)}",), self.score),
            Paragraph((f"({self.how}; exact value {self.score!r})",)),
        )

    def to_document(self, compact: bool = False) -> Document:
        """Hypothesis (matched unigrams ticked), references, each order's clipping table, BP, the sum, the score.

        ``compact=True`` puts the score, the precisions and BP first and folds
        the rest away (for slides and small screens).
        """
        if compact:
            shown, rest = _shown(self.orders)
            header = ("", *[f"p_{o.n}" for o in shown], "BP")
            length = self.length
            rows = (
                (
                    "as counted",
                    *[f"{o.clipped}/{o.total}" for o in shown],
                    f"c = {length.hyp_len}, r = {length.closest_ref_len}",
                ),
                ("used", *[format_number(o.smoothed) for o in shown], format_number(length.brevity_penalty)),
                ("weight", *[format_number(o.weight) for o in shown], ""),
            )
            folded = (*self._references(), *self._steps(), *notes(self.notes))
            headline = Score((f"BLEU = {format_number(self.score)} = {self.how}",), self.score)
            return Document(
                (
                    headline,
                    TableBlock(header, rows, caption=rest),
                    self._hypothesis("; matched unigrams marked \u2713"),
                    Details(("Every step: the references, the n-gram tables, the lengths, the sum",), folded),
                ),
                styles=("compact",),
            )
        return Document(
            (
                Heading("BLEU, step by step"),
                self._hypothesis("; matched unigrams marked \u2713"),
                *self._references(),
                *self._steps(),
                *self._score(),
                *notes(self.notes),
            )
        )

    def clipping_document(self, n: int, compact: bool = False) -> Document:
        """Order ``n`` alone: the hypothesis with the tokens of its clipped n-gram matches ticked, the table, p_n.

        ``compact=True`` gives the conclusion first: p_n, then the table it is counted from, then the hypothesis
        with its matches ticked (for slides: the number a room looks for is never the last line).
        """
        order = self.order(n)
        table = (self._ngram_table(order),) if order.rows else ()
        score = Score((Label(order.precision_line),), float(order.precision))
        if compact:
            ticked = Paragraph(
                (
                    Strong("Hypothesis"),
                    f" (\u2713 = inside a clipped {n}-gram match): ",
                    *token_run(self.hypothesis, order.marks),
                )
            )
            return Document((score, *table, ticked), styles=("compact",))
        hypothesis = Paragraph(
            (
                Strong("Hypothesis"),
                f" (tokens inside a clipped {n}-gram match marked \u2713): ",
                *token_run(self.hypothesis, order.marks),
            )
        )
        return Document((hypothesis, *table, score))

    def clipping(self, n: int) -> View:
        """Order ``n`` alone, to show: :meth:`clipping_document` with the order's numbers as its data."""
        return View(self.clipping_document(n), self.order(n))

    def to_html(self, compact: bool = False) -> str:
        """An HTML fragment (all user text escaped); ``compact=True`` folds the steps away."""
        return write_html(self.to_document(compact=compact))

    def __str__(self) -> str:
        return self.to_text()


def precision_table(reports: Mapping[str, BleuReport]) -> Table:
    """p_1..p_N of several reports side by side, as exact fractions and decimals."""
    names = list(reports)
    k = max(len(r.orders) for r in reports.values())
    rows: list[list[Any]] = []
    for i in range(k):
        row: list[Any] = [f"p_{i + 1}"]
        for name in names:
            orders = reports[name].orders
            row.append(
                f"{orders[i].clipped}/{orders[i].total} = {float(orders[i].precision):.4f}" if i < len(orders) else "-"
            )
        rows.append(row)
    rows.append(["BP", *[float(reports[n].brevity_penalty) for n in names]])
    rows.append(["BLEU", *[reports[n].score for n in names]])
    return Table(["", *names], rows, label_column=True)


def smoothing_table(reports: Mapping[str, BleuReport]) -> Table:
    """p_n as counted, then as each report's smoothing used it; * marks a precision WITH matches that changed.

    The reports are of the same hypothesis and references under different
    smoothing methods (the first one's counts head the table).
    """
    names = list(reports)
    first = reports[names[0]]
    rows: list[list[Any]] = []
    for i, order in enumerate(first.orders):
        row: list[Any] = [f"p_{order.n}", f"{order.clipped}/{order.total}"]
        for name in names:
            o = reports[name].orders[i]
            changed = not o.is_zero and o.smoothed is not None and o.smoothed != o.precision
            row.append(format_number(None if o.smoothed is None else float(o.smoothed)) + (" *" if changed else ""))
        rows.append(row)
    rows.append(["BP", "", *[float(reports[n].brevity_penalty) for n in names]])
    rows.append(["BLEU", "", *[reports[n].score for n in names]])
    return Table(
        ["", "as counted", *names],
        rows,
        label_column=True,
        caption="p_n used by each smoothing method (* = a precision with matches that the method changed)",
    )
