"""Reports that carry the whole story of a BLEU score.

``explain`` returns a :class:`BleuReport` for one sentence and
``explain_corpus`` a :class:`CorpusReport` for a corpus.  They keep every
intermediate number (the n-gram table with clipping, each exact precision,
the lengths and the chosen reference length, the brevity penalty, the
weighted log terms, the smoothing) and their ``score`` equals
:func:`bleu_teach.sentence_bleu` / :func:`bleu_teach.corpus_bleu` exactly,
because they are computed by the same code.

A report prints as plain text (``print(report)``) and shows as an HTML table
in a notebook.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from bleu_teach._checks import DEFAULT_WEIGHTS, Tokens, check_references, check_tokens, check_weight_tuple
from bleu_teach.core import (
    CountFraction,
    Ngram,
    SmoothingCallable,
    _bp,
    _check_corpus,
    _closest,
    _combine,
    _corpus_counts,
    _count,
)
from bleu_teach.smoothing import ZeroPrecisionWarning, get_smoothing

__all__ = [
    "NgramRow",
    "OrderReport",
    "LengthReport",
    "BleuReport",
    "SentenceRow",
    "CorpusReport",
    "HypothesisComparison",
    "explain",
    "explain_corpus",
    "compare_hypotheses",
]


@dataclass(frozen=True)
class NgramRow:
    """One distinct n-gram of the hypothesis and how it is clipped."""

    ngram: Ngram
    hyp_count: int
    ref_counts: tuple[int, ...]
    max_ref_count: int
    clipped_count: int

    @property
    def text(self) -> str:
        return " ".join(str(t) for t in self.ngram)


@dataclass(frozen=True)
class OrderReport:
    """Everything about one n-gram order n."""

    n: int
    rows: tuple[NgramRow, ...]
    clipped: int
    total: int
    precision: CountFraction
    weight: float
    smoothed: Any
    log_term: float | None

    @property
    def is_zero(self) -> bool:
        return self.clipped == 0


@dataclass(frozen=True)
class LengthReport:
    """Lengths and the brevity penalty (Papineni et al. 2002, Section 2.2.2)."""

    hyp_len: int
    ref_lens: tuple[int, ...]
    closest_ref_len: int
    reason: str
    brevity_penalty: float

    @property
    def tie(self) -> bool:
        distance = abs(self.closest_ref_len - self.hyp_len)
        return len({r for r in self.ref_lens if abs(r - self.hyp_len) == distance}) > 1


@dataclass(frozen=True, repr=False)
class BleuReport:
    """The step-by-step story of one sentence-level BLEU score."""

    hypothesis: Tokens
    references: tuple[Tokens, ...]
    weights: tuple[float, ...]
    smoothing: str
    orders: tuple[OrderReport, ...]
    length: LengthReport
    log_sum: float | None
    score: float
    notes: tuple[str, ...]

    @property
    def precisions(self) -> tuple[CountFraction, ...]:
        return tuple(o.precision for o in self.orders)

    @property
    def brevity_penalty(self) -> float:
        return self.length.brevity_penalty

    def matched_positions(self, n: int = 1) -> tuple[bool, ...]:
        """For each hypothesis token, whether it lies in a clipped n-gram match.

        Matches are credited left to right, up to each n-gram's clipped count.
        """
        order = next((o for o in self.orders if o.n == n), None)
        if order is None:
            raise ValueError(f"This report has orders 1 to {len(self.orders)}; n={n} is not among them.")
        budget = {row.ngram: row.clipped_count for row in order.rows}
        marks = [False] * len(self.hypothesis)
        for start in range(len(self.hypothesis) - n + 1):
            gram = tuple(self.hypothesis[start : start + n])
            if budget.get(gram, 0) > 0:
                budget[gram] -= 1
                for k in range(start, start + n):
                    marks[k] = True
        return tuple(marks)

    def to_text(self) -> str:
        from bleu_teach.render import report_text

        return report_text(self)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        from bleu_teach.render import report_html

        return report_html(self)


@dataclass(frozen=True)
class SentenceRow:
    """One sentence's statistics inside a corpus report."""

    index: int
    hyp_len: int
    closest_ref_len: int
    clipped: tuple[int, ...]
    totals: tuple[int, ...]
    brevity_penalty: float
    sentence_score: float


@dataclass(frozen=True, repr=False)
class CorpusReport:
    """Per-sentence statistics and the pooled ones behind a corpus BLEU score."""

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
    brevity_penalty: float
    score: float
    mean_sentence_score: float
    notes: tuple[str, ...]

    def to_text(self) -> str:
        from bleu_teach.render import corpus_text

        return corpus_text(self)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        from bleu_teach.render import corpus_html

        return corpus_html(self)


def _resolve_smoothing(smoothing: Any) -> tuple[SmoothingCallable, str]:
    if smoothing is None or isinstance(smoothing, str):
        func = get_smoothing(smoothing)
        return func, func.__name__
    if callable(smoothing):
        return smoothing, getattr(smoothing, "__name__", type(smoothing).__name__)
    raise TypeError(
        f"smoothing must be a method name such as 'method1' or a function like "
        f"SmoothingFunction().method1, not {smoothing!r}."
    )


def _quiet(func: SmoothingCallable) -> SmoothingCallable:
    """Run a smoothing method without the zero-precision warning: reports say it in words."""

    def run(*args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ZeroPrecisionWarning)
            return func(*args, **kwargs)

    return run


def _length_reason(hyp_len: int, ref_lens: tuple[int, ...], closest: int) -> str:
    if len(ref_lens) == 1:
        return "the only reference"
    distance = abs(closest - hyp_len)
    tied = sorted({r for r in ref_lens if abs(r - hyp_len) == distance})
    if len(tied) > 1:
        return f"lengths {' and '.join(map(str, tied))} are equally close to {hyp_len}; the tie goes to the shorter"
    return f"closest to the hypothesis length {hyp_len}, difference {distance}"


def _notes(orders: list[OrderReport], smoothing_name: str, hyp_len: int, bp: float, score: float) -> list[str]:
    notes = []
    zero = [o.n for o in orders if o.is_zero]
    if hyp_len == 0:
        notes.append("The hypothesis is empty, so the score is 0.")
    elif orders and orders[0].is_zero:
        notes.append("No unigram of the hypothesis appears in any reference, so the score is 0.")
    elif zero and smoothing_name == "method0":
        notes.append(
            f"No match for n = {', '.join(map(str, zero))}: without smoothing, log 0 is undefined. "
            f"NLTK (and bleu_teach, to stay equal) uses the smallest positive float instead, "
            f"so the score is {score:.3g} rather than exactly 0. Try a smoothing method."
        )
    if bp < 1 and hyp_len > 0:
        notes.append("The hypothesis is shorter than the closest reference, so the brevity penalty lowers the score.")
    return notes


def explain(
    references: Sequence[Sequence[Hashable]],
    hypothesis: Sequence[Hashable],
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing: str | SmoothingCallable | None = None,
    auto_reweigh: bool = False,
) -> BleuReport:
    """Compute sentence BLEU and keep every step.

    ``smoothing`` is a method name ("method0" to "method7") or a smoothing
    function such as ``SmoothingFunction().method1``.

    >>> refs = ['the cat is on the mat'.split(), 'there is a cat on the mat'.split()]
    >>> report = explain(refs, ['the'] * 7, weights=(1.0,))
    >>> report.orders[0].precision, report.orders[0].rows[0].max_ref_count
    (CountFraction(2, 7), 2)
    """
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    weight = check_weight_tuple(weights)
    func, name = _resolve_smoothing(smoothing)
    max_n = len(weight)
    nums, dens, hyp_len, ref_len = _corpus_counts([refs], [hyp], max_n)
    scores, smoothed, terms, used, bp = _combine(
        nums, dens, hyp_len, ref_len, [weights], _quiet(func), auto_reweigh, refs, hyp
    )
    used_weight = used[0]
    log_terms = terms[0]
    orders = []
    for n in range(1, max_n + 1):
        counts = _count(hyp, n)
        per_ref = [_count(r, n) for r in refs]
        rows = []
        for gram, c in counts.items():
            ref_counts = tuple(rc.get(gram, 0) for rc in per_ref)
            best = max(ref_counts)
            rows.append(NgramRow(gram, c, ref_counts, best, min(c, best)))
        i = n - 1
        orders.append(
            OrderReport(
                n=n,
                rows=tuple(rows),
                clipped=nums[i],
                total=max(0, hyp_len - n + 1),
                precision=CountFraction(nums[i], dens[i]),
                weight=used_weight[i] if i < len(used_weight) else 0.0,
                smoothed=smoothed[i] if i < len(smoothed) else None,
                log_term=log_terms[i] if i < len(log_terms) else None,
            )
        )
    ref_lens = tuple(len(r) for r in refs)
    closest = _closest(ref_lens, hyp_len)
    length = LengthReport(hyp_len, ref_lens, closest, _length_reason(hyp_len, ref_lens, closest), bp)
    present = [t for t in log_terms if t is not None]
    log_sum = math.fsum(present) if present else None
    score = scores[0]
    return BleuReport(
        hypothesis=hyp,
        references=refs,
        weights=tuple(used_weight),
        smoothing=name,
        orders=tuple(orders),
        length=length,
        log_sum=log_sum,
        score=score,
        notes=tuple(_notes(orders, name, hyp_len, bp, score)),
    )


def explain_corpus(
    list_of_references: Sequence[Sequence[Sequence[Hashable]]],
    hypotheses: Sequence[Sequence[Hashable]],
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing: str | SmoothingCallable | None = None,
    auto_reweigh: bool = False,
) -> CorpusReport:
    """Corpus BLEU with each sentence's counts and the pooled counts.

    ``mean_sentence_score`` is the average of the sentence scores, shown to
    make the point that corpus BLEU is not that average.
    """
    weight = check_weight_tuple(weights)
    refs_list, hyps = _check_corpus(list_of_references, hypotheses)
    func, name = _resolve_smoothing(smoothing)
    quiet = _quiet(func)
    max_n = len(weight)
    rows = []
    for index, (refs, hyp) in enumerate(zip(refs_list, hyps)):
        nums, dens, h, r = _corpus_counts([refs], [hyp], max_n)
        (sentence_score,), *_ = _combine(nums, dens, h, r, [weights], quiet, auto_reweigh, refs, hyp)
        totals = tuple(max(0, h - n + 1) for n in range(1, max_n + 1))
        rows.append(SentenceRow(index, h, r, tuple(nums), totals, _bp(r, h), sentence_score))
    nums, dens, hyp_len, ref_len = _corpus_counts(refs_list, hyps, max_n)
    scores, smoothed, terms, used, bp = _combine(
        nums, dens, hyp_len, ref_len, [weights], quiet, auto_reweigh, refs_list[-1], hyps[-1]
    )
    notes = []
    if name in ("method5", "method6", "method7"):
        notes.append(
            f"{name} reads extra statistics from the last sentence only (as NLTK does), "
            f"not from the whole corpus."
        )
    mean = math.fsum(row.sentence_score for row in rows) / len(rows)
    return CorpusReport(
        sentences=tuple(rows),
        weights=tuple(used[0]),
        smoothing=name,
        clipped=tuple(nums),
        totals=tuple(sum(row.totals[i] for row in rows) for i in range(max_n)),
        precisions=tuple(CountFraction(a, b) for a, b in zip(nums, dens)),
        smoothed=tuple(smoothed),
        log_terms=tuple(terms[0]) + (None,) * (max_n - len(terms[0])),
        hyp_len=hyp_len,
        ref_len=ref_len,
        brevity_penalty=_bp(ref_len, hyp_len),
        score=scores[0],
        mean_sentence_score=mean,
        notes=tuple(notes),
    )



@dataclass(frozen=True, repr=False)
class HypothesisComparison:
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
        if not 1 <= n <= len(self.a.orders):
            raise ValueError(f"n must be between 1 and {len(self.a.orders)}; got {n}.")
        got_a = {row.ngram: row.clipped_count for row in self.a.orders[n - 1].rows}
        got_b = {row.ngram: row.clipped_count for row in self.b.orders[n - 1].rows}
        more_a = tuple(g for g, c in got_a.items() for _ in range(c - got_b.get(g, 0)))
        more_b = tuple(g for g, c in got_b.items() for _ in range(c - got_a.get(g, 0)))
        return more_a, more_b

    def to_text(self) -> str:
        from bleu_teach.render import comparison_text

        return comparison_text(self)

    def __repr__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        from bleu_teach.render import comparison_html

        return comparison_html(self)


def compare_hypotheses(
    references: Sequence[Sequence[Hashable]],
    hypothesis_a: Sequence[Hashable],
    hypothesis_b: Sequence[Hashable],
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing: str | SmoothingCallable | None = None,
    labels: tuple[str, str] = ("A", "B"),
) -> HypothesisComparison:
    """Score two hypotheses against the same references and say which n-grams decide it.

    >>> refs = [["the", "dog", "is", "chasing", "the", "cat"]]
    >>> duel = compare_hypotheses(refs, "the cat is chasing the dog".split(),
    ...                           "the cat is chased by the dog".split(), weights=(0.5, 0.5))
    >>> duel.winner, duel.deciding(2)[0]
    ('A', (('is', 'chasing'), ('chasing', 'the')))
    """
    if (not isinstance(labels, tuple) or len(labels) != 2 or not all(isinstance(x, str) for x in labels)
            or labels[0] == labels[1]):
        raise ValueError("labels must be two different strings, e.g. ('A', 'B').")
    return HypothesisComparison(
        explain(references, hypothesis_a, weights, smoothing),
        explain(references, hypothesis_b, weights, smoothing),
        labels,
    )
