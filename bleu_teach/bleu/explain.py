"""Explaining a BLEU score: count once, score once, keep every step in a report.

:func:`explain` (one sentence), :func:`explain_corpus` (a corpus) and
:func:`compare_hypotheses` (two hypotheses against the same references)
count with :mod:`bleu_teach.bleu.counting` and score with
:mod:`bleu_teach.bleu.arithmetic`, the very functions ``sentence_bleu`` and
``corpus_bleu`` use, and return the reports of :mod:`bleu_teach.bleu.reports`,
:mod:`bleu_teach.bleu.corpus_report` and :mod:`bleu_teach.bleu.comparison` with the notes a learner needs for
these numbers.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

from bleu_teach.bleu.arithmetic import BleuResult, Number, score_counts
from bleu_teach.bleu.comparison import HypothesisComparison
from bleu_teach.bleu.corpus_report import CorpusReport, SentenceRow
from bleu_teach.bleu.counting import OrderCounts, PooledCounts, SentenceStatistics, pool, sentence_statistics
from bleu_teach.bleu.nltk_api import check_corpus
from bleu_teach.bleu.reports import BleuReport, LengthReport, OrderReport
from bleu_teach.bleu.smoothing import SmoothingCallable, quietly, resolve_smoothing
from bleu_teach.inputs.tokenizers import tokenize
from bleu_teach.inputs.validation import (
    DEFAULT_WEIGHTS,
    check_bool,
    check_orders,
    check_references,
    check_tokens,
    check_weight_tuple,
    is_default_tuple,
)
from bleu_teach.views.formatting import number_ranges

__all__ = ["explain", "explain_corpus", "compare_hypotheses", "explain_strings", "explain_corpus_strings"]


def _orders(result: BleuResult, ngrams: Sequence[int], detail: Sequence[OrderCounts] = ()) -> tuple[OrderReport, ...]:
    """Order by order, the numbers the score was made from: the counts are the result's own precisions.

    ``ngrams`` are the real n-gram counts (for the 0/1 rule); ``detail`` adds the
    n-gram rows and matched tokens of a single sentence.
    """
    return tuple(
        OrderReport(
            n=i + 1,
            rows=detail[i].rows if detail else (),
            clipped=p.numerator,
            total=p.denominator,
            precision=p,
            weight=result.weights[i],
            smoothed=result.smoothed[i],
            log_term=result.log_terms[i],
            ngrams=ngrams[i],
            left_out=result.left_out[i],
            marks=detail[i].marks if detail else (),
        )
        for i, p in enumerate(result.precisions)
    )


def _short(value: Any) -> str:
    """A precision for a note: a fraction as a/b with its decimal, a float to 4 significant digits."""
    if hasattr(value, "numerator") and not isinstance(value, float):
        return f"{value.numerator}/{value.denominator} = {float(value):.4g}"
    return f"{float(value):.4g}"


def _orders_text(orders: Sequence[int]) -> str:
    return number_ranges(orders)


def _notes(orders: Sequence[OrderReport], result: BleuResult, hyp_len: int, corpus: bool) -> list[str]:
    """What a learner should know about this score, each sentence true for these numbers."""
    notes: list[str] = []
    what = "hypotheses" if corpus else "hypothesis"
    if hyp_len == 0:
        notes.append(f"The {what} {'are' if corpus else 'is'} empty, so the score is 0.")
        return notes
    if result.no_unigram_match:
        notes.append(
            f"No unigram of the {what} appears in any reference, so the score is 0 "
            f"(whatever the weights and smoothing)."
        )
        return notes
    short = [o.n for o in orders if o.counted_as_one]
    if short and not corpus:
        notes.append(
            f"The hypothesis has {hyp_len} token{'s' if hyp_len != 1 else ''}, so it has no n-grams for "
            f"n = {_orders_text(short)}: p_n would be 0/0, undefined. NLTK (and bleu_teach, to stay equal) "
            f"counts each such order as 0/1, one n-gram with no match."
        )
    if result.reweighed:
        notes.append(
            f"auto_reweigh: the hypothesis has only {hyp_len} token{'s' if hyp_len != 1 else ''}, so the default "
            f"weights were replaced by 1/{hyp_len} for each of the orders 1 to {hyp_len}; higher orders get no weight."
        )
    zero = [o for o in orders if o.is_zero]
    weighted_zero = [o.n for o in zero if o.weight > 0 and o.log_term is not None]
    unweighted_zero = [o.n for o in zero if not (o.weight > 0)]
    if weighted_zero and result.smoothing == "method0":
        notes.append(
            f"No match for n = {_orders_text(weighted_zero)}: without smoothing, log 0 is undefined. NLTK (and "
            f"bleu_teach, to stay equal) uses the smallest positive float (about 2.2e-308) instead, so the score is "
            f"{result.score:.3g} rather than exactly 0. Try a smoothing method."
        )
    elif weighted_zero:
        values = ", ".join(f"p_{o.n} = {_short(o.smoothed)}" for o in orders if o.n in weighted_zero)
        notes.append(
            f"No match for n = {_orders_text(weighted_zero)}: smoothing ({result.smoothing}) used {values} "
            f"instead of 0."
        )
    above_one = [o for o in orders if o.weight > 0 and o.log_term is not None and o.smoothed > 1]
    if above_one:
        notes.append(
            f"After smoothing, {', '.join(f'p_{o.n} = {_short(o.smoothed)}' for o in above_one)} "
            f"{'is' if len(above_one) == 1 else 'are'} above 1: "
            f"{result.smoothing} averages or interpolates neighbouring orders, so a smoothed value is not a "
            f"share of matched n-grams any more."
        )
    if unweighted_zero:
        one = len(unweighted_zero) == 1
        notes.append(
            f"No match for n = {_orders_text(unweighted_zero)}, but {'that order has' if one else 'those orders have'} "
            f"weight 0, so {'it does' if one else 'they do'} not change the score."
        )
    unreturned = [o.n for o in orders if o.weight > 0 and o.smoothed is None]
    if unreturned:
        notes.append(
            f"The smoothing function returned no value for n = {_orders_text(unreturned)}; NLTK pairs the weights "
            f"with the values it returned, so those orders are left out of the sum (as if p_n were 1)."
        )
    skipped = [o.n for o in orders if o.weight > 0 and o.log_term is None and o.smoothed is not None]
    if skipped:
        notes.append(
            f"p_n is still 0 after smoothing for n = {_orders_text(skipped)}; NLTK leaves such orders out of the "
            f"sum, which treats them as if p_n were 1."
        )
    changed = [
        o.n for o in orders if o.weight > 0 and not o.is_zero and o.smoothed is not None and o.smoothed != o.precision
    ]
    if changed:
        notes.append(
            f"{result.smoothing} also changed p_n for n = {_orders_text(changed)}, where there were matches: "
            f"smoothing is not only for zeros."
        )
    if result.brevity_penalty < 1:
        notes.append(
            f"The {what} {'are' if corpus else 'is'} shorter than the closest reference "
            f"length{' (summed over the corpus)' if corpus else ''}, so the brevity penalty lowers the score."
        )
    return notes


def _one_weight_tuple(weights: Any) -> tuple[float, ...]:
    if isinstance(weights, list) and weights and isinstance(weights[0], (list, tuple)):
        raise TypeError(
            "A report explains one score, so it takes one tuple of weights such as (0.25, 0.25, 0.25, 0.25); "
            "for several weight tuples, make one report per tuple."
        )
    return check_weight_tuple(weights)


def _length_report(statistics: SentenceStatistics, bp: Number) -> LengthReport:
    length = statistics.length
    return LengthReport(length.hyp_len, length.ref_lens, length.closest_ref_len, length.reason, bp, length.tied)


def explain(
    references: Sequence[Sequence[Hashable]],
    hypothesis: Sequence[Hashable],
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing: str | SmoothingCallable | None = None,
    auto_reweigh: bool = False,
) -> BleuReport:
    """Compute sentence BLEU and keep every step.

    ``smoothing`` is a method name ("method0" to "method7", or just the
    number) or a smoothing function such as ``SmoothingFunction().method1``.
    The score is ``sentence_bleu``'s, computed by the same code.

    >>> refs = ['the cat is on the mat'.split(), 'there is a cat on the mat'.split()]
    >>> report = explain(refs, ['the'] * 7, weights=(1.0,))
    >>> report.orders[0].precision, report.orders[0].rows[0].max_ref_count
    (CountFraction(2, 7), 2)
    """
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    auto_reweigh = check_bool(auto_reweigh, "auto_reweigh")
    weight = _one_weight_tuple(weights)
    func, name = resolve_smoothing(smoothing)
    statistics = sentence_statistics(refs, hyp, len(weight))
    counts = pool([statistics])
    result = score_counts(counts, [weight], quietly(func), name, auto_reweigh, refs, hyp, [is_default_tuple(weights)])[
        0
    ]
    orders = _orders(result, statistics.ngrams, statistics.orders)
    return BleuReport(
        hypothesis=hyp,
        references=refs,
        weights=result.weights,
        smoothing=name,
        orders=orders,
        length=_length_report(statistics, result.brevity_penalty),
        log_sum=result.log_sum,
        score=result.score,
        notes=tuple(_notes(orders, result, len(hyp), corpus=False)),
        statistics=statistics,
        result=result,
    )


def _corpus_notes(rows: Sequence[SentenceRow], counts: PooledCounts, name: str) -> list[str]:
    notes = []
    k = len(counts.totals)
    extra = [
        (n, counts.totals[n - 1] - counts.ngrams[n - 1])
        for n in range(1, k + 1)
        if counts.totals[n - 1] != counts.ngrams[n - 1]
    ]
    if extra:
        parts = "; ".join(
            f"t_{n} = {counts.totals[n - 1]} for {counts.ngrams[n - 1]} real {n}-grams "
            f"({e} sentence{'s' if e != 1 else ''} shorter than {n} tokens)"
            for n, e in extra
        )
        notes.append(
            f"A hypothesis shorter than n tokens has no n-grams, and NLTK counts it as 0/1 (one n-gram, no match), "
            f"so it adds 1 to the pooled total: {parts}. The score uses these totals. sacreBLEU counts only "
            f"the real n-grams, so its score differs here (bleu_teach.corpus_score gives sacreBLEU's)."
        )
    failed = [row for row in rows if row.sentence_score is None]
    if failed:
        which = ", ".join(str(row.index + 1) for row in failed)
        notes.append(
            f"{name} cannot score sentence{'s' if len(failed) > 1 else ''} {which} on "
            f"{'their' if len(failed) > 1 else 'its'} own, so there is no mean of sentence scores. "
            f"The corpus score pools the counts first and does not need "
            f"{'them' if len(failed) > 1 else 'it'}. Why: {failed[0].problem}"
        )
    if name in ("method5", "method6", "method7"):
        notes.append(
            f"{name} reads extra statistics from the last sentence only (as NLTK does), not from the whole corpus."
        )
    return notes


#: The most per-sentence counts (sentences times orders) a corpus report keeps: 125,000 sentences at BLEU-4.
MAX_CORPUS_CELLS = 500_000


def explain_corpus(
    list_of_references: Sequence[Sequence[Sequence[Hashable]]],
    hypotheses: Sequence[Sequence[Hashable]],
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing: str | SmoothingCallable | None = None,
    auto_reweigh: bool = False,
) -> CorpusReport:
    """Corpus BLEU with each sentence's counts and the pooled counts the score used.

    The score is ``corpus_bleu``'s, computed by the same code from the same
    counts.  ``mean_sentence_score`` is the average of the sentence scores,
    shown to make the point that corpus BLEU is not that average (None when
    some sentence cannot be scored on its own).
    """
    weight = _one_weight_tuple(weights)
    refs_list, hyps = check_corpus(list_of_references, hypotheses)
    auto_reweigh = check_bool(auto_reweigh, "auto_reweigh")
    func, name = resolve_smoothing(smoothing)
    quiet = quietly(func)
    max_n = len(weight)
    if len(hyps) * max_n > MAX_CORPUS_CELLS:
        raise ValueError(
            f"A step-by-step corpus report keeps every sentence's counts: {len(hyps):,} sentences times {max_n:,} "
            f"orders is {len(hyps) * max_n:,} counts, more than the {MAX_CORPUS_CELLS:,} it keeps. For the score "
            f"alone use corpus_bleu (or sacreBLEU), or use fewer orders or sentences."
        )
    sentences = [sentence_statistics(refs, hyp, max_n, rows=False) for refs, hyp in zip(refs_list, hyps)]
    rows = []
    for index, (stats, refs, hyp) in enumerate(zip(sentences, refs_list, hyps)):
        problem = None
        sentence_result: BleuResult | None
        try:
            sentence_result = score_counts(
                pool([stats]), [weight], quiet, name, auto_reweigh, refs, hyp, [is_default_tuple(weights)]
            )[0]
        except ValueError as error:  # e.g. method6 on a sentence without a trigram match
            sentence_result, problem = None, str(error)
        rows.append(
            SentenceRow(
                index=index,
                hyp_len=stats.length.hyp_len,
                closest_ref_len=stats.length.closest_ref_len,
                clipped=stats.matches,
                totals=stats.totals,
                brevity_penalty=sentence_result.brevity_penalty if sentence_result else math.nan,
                sentence_score=sentence_result.score if sentence_result else None,
                ngrams=stats.ngrams,
                problem=problem,
            )
        )
    counts = pool(sentences)
    result = score_counts(
        counts, [weight], quiet, name, auto_reweigh, refs_list[-1], hyps[-1], [is_default_tuple(weights)]
    )[0]
    scored = [row.sentence_score for row in rows if row.sentence_score is not None]
    mean = math.fsum(scored) / len(rows) if len(scored) == len(rows) else None
    orders = _orders(result, counts.ngrams)
    notes = _corpus_notes(rows, counts, name) + _notes(orders, result, counts.hyp_len, corpus=True)
    return CorpusReport(
        sentences=tuple(rows),
        weights=result.weights,
        smoothing=name,
        clipped=counts.matches,
        totals=counts.totals,
        precisions=result.precisions,
        smoothed=result.smoothed,
        log_terms=result.log_terms,
        hyp_len=counts.hyp_len,
        ref_len=counts.ref_len,
        brevity_penalty=result.brevity_penalty,
        score=result.score,
        mean_sentence_score=mean,
        notes=tuple(notes),
        ngrams=counts.ngrams,
        counts=counts,
        result=result,
        orders=orders,
    )


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
    if (
        not isinstance(labels, tuple)
        or len(labels) != 2
        or not all(isinstance(x, str) for x in labels)
        or labels[0] == labels[1]
    ):
        raise ValueError("labels must be two different strings, e.g. ('A', 'B').")
    reports = []
    for name, hypothesis in (("hypothesis_a", hypothesis_a), ("hypothesis_b", hypothesis_b)):
        try:
            reports.append(explain(references, hypothesis, weights, smoothing))
        except (TypeError, ValueError) as problem:  # say which of the two hypotheses it is
            raise type(problem)(str(problem).replace("hypothesis", name, 1)) from None
    return HypothesisComparison(reports[0], reports[1], labels)


def _tokens_of(text: str, what: str, tokenizer: str, lowercase: bool) -> list[str]:
    if not isinstance(text, str):
        raise TypeError(f"{what} must be text (a string), not {type(text).__name__}.")
    tokens = tokenize(text, tokenizer, lowercase=lowercase)
    if not tokens and what != "the hypothesis":
        raise ValueError(f"{what} is empty (no tokens); every reference needs at least one word.")
    return tokens


def _uniform(max_n: Any) -> tuple[float, ...]:
    order = check_orders(max_n, "max_n", "1 = unigrams only, 4 = BLEU-4")
    return (1 / order,) * order


def explain_strings(
    hypothesis: str,
    references: Sequence[str],
    tokenizer: str = "whitespace",
    lowercase: bool = False,
    max_n: int = 4,
    smoothing: str | SmoothingCallable | None = None,
) -> BleuReport:
    """:func:`explain` on raw text: tokenized with ``tokenizer``, uniform weights over orders 1 to ``max_n``.

    >>> explain_strings("the cat sat", ["the cat sat down"], max_n=2).score == explain(
    ...     [["the", "cat", "sat", "down"]], ["the", "cat", "sat"], weights=(0.5, 0.5)).score
    True
    """
    weights = _uniform(max_n)
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError("references must be a list of reference texts, e.g. ['the cat sat on the mat'].")
    hyp = _tokens_of(hypothesis, "the hypothesis", tokenizer, lowercase)
    refs = [_tokens_of(text, f"reference {i}", tokenizer, lowercase) for i, text in enumerate(references, start=1)]
    return explain(refs, hyp, weights=weights, smoothing=smoothing)


def explain_corpus_strings(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    tokenizer: str = "whitespace",
    lowercase: bool = False,
    max_n: int = 4,
    smoothing: str | SmoothingCallable | None = None,
) -> CorpusReport:
    """:func:`explain_corpus` on raw text; ``references[i]`` lists the reference texts of ``hypotheses[i]``."""
    weights = _uniform(max_n)
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise TypeError("hypotheses must be a list of texts, one per segment.")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError("references must be a list with one list of reference texts per hypothesis.")
    for i, group in enumerate(references):
        if isinstance(group, str):  # would be read as one reference per character
            raise TypeError(
                f"references[{i}] is a string; wrap it in a list: [[ref] for ref in refs] gives one "
                f"reference per hypothesis."
            )
    hyps = [_tokens_of(h, "the hypothesis", tokenizer, lowercase) for h in hypotheses]
    refs = [
        [
            _tokens_of(text, f"reference {k} of segment {i}", tokenizer, lowercase)
            for k, text in enumerate(group, start=1)
        ]
        for i, group in enumerate(references, start=1)
    ]
    return explain_corpus(refs, hyps, weights=weights, smoothing=smoothing)
