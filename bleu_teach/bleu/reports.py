"""BLEU reports: the whole story of a score, as objects that describe themselves once.

:func:`bleu_teach.bleu.explain.explain` returns a :class:`BleuReport` for one
sentence and :func:`~bleu_teach.bleu.explain.explain_corpus` a
:class:`CorpusReport` for a corpus.  A report is the computation, not a
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

import numbers

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bleu_teach.bleu.arithmetic import BleuResult, Number
from bleu_teach.bleu.counting import CountFraction, Ngram, NgramRow, PooledCounts, SentenceStatistics
from bleu_teach.inputs.validation import Tokens, whole_number_text
from bleu_teach.views.document import (
    Block,
    Details,
    Document,
    Heading,
    Inline,
    Label,
    Lines,
    notes,
    Paragraph,
    Score,
    Section,
    Strong,
    Table as TableBlock,
    Tokens as TokenRun,
)
from bleu_teach.views.html_writer import write_html
from bleu_teach.views.formatting import format_number, plural, shortened
from bleu_teach.views.tables import Table
from bleu_teach.views.viewable import View, Viewable

__all__ = [
    "NgramRow",
    "OrderReport",
    "LengthReport",
    "BleuReport",
    "SentenceRow",
    "CorpusReport",
    "HypothesisComparison",
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
            return (f"p_{n} = 0/1: the hypothesis has no {n}-grams (0/0 is undefined); "
                    f"NLTK counts it as one {n}-gram with no match")
        return (f"p_{n} = {self.clipped}/{self.total} = {float(self.precision):.4f} "
                f"(clipped matches / hypothesis {n}-grams)")


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
        return (f"hypothesis length c = {self.hyp_len}; reference lengths {', '.join(map(str, self.ref_lens))}",
                f"closest reference length r = {self.closest_ref_len} ({self.reason})",
                bp_line(self.hyp_len, self.closest_ref_len, self.brevity_penalty))


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


def _token_run(tokens: Sequence[Hashable], marks: Sequence[bool] = ()) -> tuple[Inline, ...]:
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
        what = (f"each has p_n = {first.clipped}/{first.total}, used as {format_number(first.smoothed)}, weight "
                f"{format_number(first.weight)} and w_n * log p_n = {_log_text(first)}")
    else:
        what = "each order's numbers are in the report's data (to_dict())"
    return (tuple(orders[:MAX_ORDERS_SHOWN]),
            f"Orders {first.n} to {hidden[-1].n} ({len(hidden):,} orders) are not listed: {what}.")


def _combine_table(orders: Sequence[OrderReport]) -> TableBlock:
    shown, rest = _shown(orders)
    rows = tuple((f"p_{o.n}", format_number(o.weight), f"{o.clipped}/{o.total}", format_number(o.smoothed),
                  _log_text(o)) for o in shown)
    return TableBlock(_COMBINE_HEADER, rows, label_column=True, caption=rest)


def _combine_section(title: str, smoothing: str, orders: Sequence[OrderReport], log_sum: float | None) -> Section:
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
        return (f"BP * exp(sum of log terms) = {format_number(self.length.brevity_penalty)} * "
                f"exp({format_number(self.log_sum)})")

    def _hypothesis(self, legend: str) -> Paragraph:
        marks = self.matched_positions(1) if self.orders else ()
        return Paragraph((Strong("Hypothesis"), f" ({plural(len(self.hypothesis), 'token')}{legend}): ",
                          *_token_run(self.hypothesis, marks)))

    def _references(self) -> tuple[Paragraph, ...]:
        return tuple(Paragraph((Strong(f"Reference {i}"), f" ({plural(len(ref), 'token')}): ", *_token_run(ref)))
                     for i, ref in enumerate(self.references, start=1))

    def _ngram_table(self, order: OrderReport) -> TableBlock:
        header = ("n-gram", "hyp", *[f"ref{i}" for i in range(1, len(self.references) + 1)], "max ref", "clipped")
        rows = tuple((shortened(row.text), str(row.hyp_count), *map(str, row.ref_counts), str(row.max_ref_count),
                      str(row.clipped_count)) for row in order.rows[:MAX_ROWS_SHOWN])
        rest = (f"The first {MAX_ROWS_SHOWN} of {len(order.rows):,} different {order.n}-grams; p_{order.n} "
                "below counts them all." if len(order.rows) > MAX_ROWS_SHOWN else "")
        return TableBlock(header, rows, caption=rest)

    def _steps(self) -> list[Block]:
        shown, rest = _shown(self.orders)
        steps: list[Block] = [
            Section((Label(f"{o.n}-grams: modified precision p_{o.n}"),),
                    ((self._ngram_table(o),) if o.rows else ()) + (Paragraph((Label(o.precision_line),)),))
            for o in shown]
        if rest:
            steps.append(Paragraph((Label(rest),)))
        steps.append(Section(("Brevity penalty",), (Lines(tuple((line,) for line in self.length.lines)),)))
        steps.append(_combine_section("Combining", self.smoothing, self.orders, self.log_sum))
        return steps

    def _score(self) -> tuple[Score, Paragraph]:
        """The score, then how it was made and its exact value."""
        return (Score((f"BLEU = {format_number(self.score)}",), self.score),
                Paragraph((f"({self.how}; exact value {self.score!r})",)))

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
                ("as counted", *[f"{o.clipped}/{o.total}" for o in shown],
                 f"c = {length.hyp_len}, r = {length.closest_ref_len}"),
                ("used", *[format_number(o.smoothed) for o in shown], format_number(length.brevity_penalty)),
                ("weight", *[format_number(o.weight) for o in shown], ""),
            )
            folded = (*self._references(), *self._steps(), *notes(self.notes))
            headline = Score((f"BLEU = {format_number(self.score)} = {self.how}",), self.score)
            return Document((headline, TableBlock(header, rows, caption=rest),
                             self._hypothesis("; matched unigrams marked \u2713"),
                             Details(("Every step: the references, the n-gram tables, the lengths, the sum",), folded)),
                            styles=("compact",))
        return Document((Heading("BLEU, step by step"), self._hypothesis("; matched unigrams marked \u2713"),
                         *self._references(), *self._steps(), *self._score(), *notes(self.notes)))

    def clipping_document(self, n: int, compact: bool = False) -> Document:
        """Order ``n`` alone: the hypothesis with the tokens of its clipped n-gram matches ticked, the table, p_n.

        ``compact=True`` gives the conclusion first: p_n, then the table it is counted from, then the hypothesis
        with its matches ticked (for slides: the number a room looks for is never the last line).
        """
        order = self.order(n)
        table = (self._ngram_table(order),) if order.rows else ()
        score = Score((Label(order.precision_line),), float(order.precision))
        if compact:
            ticked = Paragraph((Strong("Hypothesis"), f" (\u2713 = inside a clipped {n}-gram match): ",
                                *_token_run(self.hypothesis, order.marks)))
            return Document((score, *table, ticked), styles=("compact",))
        hypothesis = Paragraph((Strong("Hypothesis"), f" (tokens inside a clipped {n}-gram match marked \u2713): ",
                                *_token_run(self.hypothesis, order.marks)))
        return Document((hypothesis, *table, score))

    def clipping(self, n: int) -> View:
        """Order ``n`` alone, to show: :meth:`clipping_document` with the order's numbers as its data."""
        return View(self.clipping_document(n), self.order(n))

    def to_html(self, compact: bool = False) -> str:
        """An HTML fragment (all user text escaped); ``compact=True`` folds the steps away."""
        return write_html(self.to_document(compact=compact))

    def __str__(self) -> str:
        return self.to_text()


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


_CORPUS_KEY = ("m_n = clipped n-gram matches, t_n = hypothesis n-grams as counted "
               "(* = the sentence has no n-grams of that order; NLTK counts it as 0/1)")


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
            (str(s.index + 1), str(s.hyp_len), str(s.closest_ref_len),
             *[f"{m}/{t}" + ("*" if g == 0 else "")
               for m, t, g in list(zip(s.clipped, s.totals, s.ngrams or s.totals))[:k]],
             format_number(s.brevity_penalty),
             format_number(s.sentence_score) if s.sentence_score is not None else "cannot score alone")
            for s in self.sentences[:MAX_ROWS_SHOWN]]
        rows.append(("corpus (pooled)", str(self.hyp_len), str(self.ref_len),
                     *[f"{m}/{t}" for m, t in list(zip(self.clipped, self.totals))[:k]],
                     format_number(self.brevity_penalty), format_number(self.score)))
        left_out = []
        if len(self.sentences) > MAX_ROWS_SHOWN:
            left_out.append(f"the first {MAX_ROWS_SHOWN} of {len(self.sentences):,} sentences are listed")
        if len(self.weights) > k:
            left_out.append(f"orders 1 to {k} of {len(self.weights):,} are shown")
        caption = ("; ".join(left_out) + ": the pooled row and the score count them all, and the report's data "
                   "(to_dict()) keeps every number.") if left_out else ""
        return TableBlock(header, tuple(rows), caption=caption[0].upper() + caption[1:] if caption else "")

    def to_document(self) -> Document:
        """Each sentence's counts, the pooled counts and BP, the combination, the score and the mean it is not."""
        mean = ("mean of sentence BLEU = " + format_number(self.mean_sentence_score)
                if self.mean_sentence_score is not None else "no mean of sentence BLEU (see the notes)")
        pooled = Lines((
            (Label("pooled: p_n = sum of m_n / sum of t_n = "
                   + ", ".join(f"{m}/{t}" for m, t in list(zip(self.clipped, self.totals))[:MAX_ORDERS_SHOWN])
                   + (f", ... ({len(self.clipped) - MAX_ORDERS_SHOWN:,} more orders)"
                      if len(self.clipped) > MAX_ORDERS_SHOWN else "")),),
            (bp_line(self.hyp_len, self.ref_len, self.brevity_penalty, empty="empty hypotheses"),),
        ))
        combine = ((_combine_section("Combining the pooled precisions", self.smoothing, self.orders, self.log_sum),)
                   if self.orders else ())
        score = Score((f"corpus BLEU = {format_number(self.score)}",), self.score)
        how = Paragraph((f"(exact value {self.score!r}); {mean}",))
        return Document((Heading("Corpus BLEU, step by step"), Paragraph((Label(_CORPUS_KEY),)), self._table(),
                         pooled, *combine, score, how, *notes(self.notes)))

    def __str__(self) -> str:
        return self.to_text()


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
        return f"{self.winner} scores higher: {format_number(high.score)} against {format_number(low.score)} for {loser}."

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
            rows.append((f"p_{oa.n}", f"{oa.clipped}/{oa.total}", f"{ob.clipped}/{ob.total}",
                         ", ".join(join(map(str, g)) for g in more_a) or "-",
                         ", ".join(join(map(str, g)) for g in more_b) or "-"))
        rows.append(("BP", format_number(float(self.a.brevity_penalty)), format_number(float(self.b.brevity_penalty)),
                     "", ""))
        rows.append(("BLEU", format_number(self.a.score), format_number(self.b.score), "", ""))
        hypotheses = tuple(Paragraph((Strong(label), " (matched unigrams marked \u2713): ",
                                      *_token_run(r.hypothesis, r.matched_positions(1))))
                           for label, r in ((la, self.a), (lb, self.b)))
        references = tuple(Paragraph((Strong(f"Reference {i}"), ": ", *_token_run(ref)))
                           for i, ref in enumerate(self.a.references, start=1))
        header = ("", la, lb, f"matched more in {la}", f"matched more in {lb}")
        if compact:
            return Document((Score((self.verdict,), None), *hypotheses,
                             TableBlock(header, tuple(rows[:-1]), label_column=True)), styles=("compact",))
        return Document((*hypotheses, *references, TableBlock(header, tuple(rows), label_column=True),
                         Score((self.verdict,), None)))

    def compact(self) -> View:
        """The comparison conclusion first, to show on a slide: :meth:`to_document` with ``compact=True``."""
        return View(self.to_document(compact=True), self)


def precision_table(reports: Mapping[str, BleuReport]) -> Table:
    """p_1..p_N of several reports side by side, as exact fractions and decimals."""
    names = list(reports)
    k = max(len(r.orders) for r in reports.values())
    rows: list[list[Any]] = []
    for i in range(k):
        row: list[Any] = [f"p_{i + 1}"]
        for name in names:
            orders = reports[name].orders
            row.append(f"{orders[i].clipped}/{orders[i].total} = {float(orders[i].precision):.4f}"
                       if i < len(orders) else "-")
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
    return Table(["", "as counted", *names], rows, label_column=True,
                 caption="p_n used by each smoothing method (* = a precision with matches that the method changed)")
