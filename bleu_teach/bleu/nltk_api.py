"""BLEU, step by step: n-grams, clipping, modified precision, brevity penalty.

The public names and signatures follow ``nltk.translate.bleu_score`` so that
this module is a drop-in replacement, and the numbers are equal to NLTK's
(``==``, not approximately).  Unlike NLTK, bad input raises a ``TypeError`` or
``ValueError`` that says what to do.

This module only checks input and calls the two layers below it: the counts
come from :mod:`bleu_teach.bleu.counting` and the arithmetic from
:mod:`bleu_teach.bleu.arithmetic`, the same code every report uses.

Reference: Papineni, Roukos, Ward and Zhu (2002), "BLEU: a method for
automatic evaluation of machine translation", ACL.  Section numbers below
refer to that paper.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from bleu_teach.bleu import arithmetic, counting
from bleu_teach.bleu.arithmetic import Number, score_counts
from bleu_teach.bleu.count_fraction import CountFraction
from bleu_teach.bleu.counting import (
    Ngram,
    collector_paused,
    order_statistics,
    pooled_counts,
)
from bleu_teach.bleu.smoothing import SmoothingCallable, resolve_smoothing
from bleu_teach.inputs.validation import (
    DEFAULT_WEIGHTS,
    Tokens,
    check_bool,
    check_length,
    check_order,
    check_references,
    check_tokens,
    check_weights,
)

__all__ = [
    "CountFraction",
    "Ngram",
    "ngrams",
    "ngram_counts",
    "max_reference_counts",
    "clipped_counts",
    "modified_precision",
    "plain_precision",
    "closest_ref_length",
    "brevity_penalty",
    "sentence_bleu",
    "corpus_bleu",
    "check_corpus",
]


def ngrams(tokens: Sequence[Hashable], n: int) -> list[Ngram]:
    """All n-grams of ``tokens`` in order, each a tuple of ``n`` tokens.

    >>> ngrams(['the', 'cat', 'sat'], 2)
    [('the', 'cat'), ('cat', 'sat')]
    """
    return counting.ngrams(check_tokens(tokens, "tokens"), check_order(n))


def ngram_counts(tokens: Sequence[Hashable], n: int) -> Counter[Ngram]:
    """How often each n-gram occurs in ``tokens``.

    >>> ngram_counts('the the cat'.split(), 1)
    Counter({('the',): 2, ('cat',): 1})
    """
    return counting.ngram_counts(check_tokens(tokens, "tokens"), check_order(n))


def max_reference_counts(references: Iterable[Sequence[Hashable]], n: int) -> Counter[Ngram]:
    """For every n-gram, its largest count in any single reference.

    This is the "maximum reference count" of Section 2.1: counts are not
    added up across references.

    >>> refs = ['the cat is on the mat'.split(), 'there is a cat on the mat'.split()]
    >>> max_reference_counts(refs, 1)[('the',)]
    2
    """
    return counting.max_reference_counts(check_references(references), check_order(n))


def clipped_counts(
    references: Iterable[Sequence[Hashable]], hypothesis: Sequence[Hashable], n: int
) -> dict[Ngram, int]:
    """Each hypothesis n-gram's count, clipped to its maximum reference count.

    Count_clip = min(Count, Max_Ref_Count) (Papineni et al. 2002, Section 2.1).

    >>> refs = ['the cat is on the mat'.split(), 'there is a cat on the mat'.split()]
    >>> clipped_counts(refs, ['the'] * 7, 1)
    {('the',): 2}
    """
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    n = check_order(n)
    order = order_statistics(refs, hyp, n)
    return {row.ngram: row.clipped_count for row in order.rows}


def modified_precision(
    references: Iterable[Sequence[Hashable]], hypothesis: Sequence[Hashable], n: int
) -> CountFraction:
    """Modified n-gram precision p_n (Papineni et al. 2002, Section 2.1).

    p_n = sum over n-grams of Count_clip / number of n-grams in the hypothesis,
    where Count_clip = min(count in the hypothesis, largest count in any one
    reference); returned exactly, with the two counts as numerator and
    denominator.

    Quirk kept from NLTK: when the hypothesis has no n-grams of order n
    (it is shorter than n), the denominator is 1 instead of 0, so the
    result is 0/1 rather than undefined.

    >>> refs = ['the cat is on the mat'.split(), 'there is a cat on the mat'.split()]
    >>> modified_precision(refs, ['the'] * 7, 1)
    CountFraction(2, 7)
    """
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    n = check_order(n)
    return order_statistics(refs, hyp, n).precision


def plain_precision(references: Iterable[Sequence[Hashable]], hypothesis: Sequence[Hashable], n: int) -> CountFraction:
    """Precision WITHOUT clipping: hypothesis n-grams found in some reference / all.

    Not part of BLEU; it is here to show why BLEU clips (Section 2.1).  It
    reads the same n-gram rows as the clipped precision.

    >>> refs = ['the cat is on the mat'.split(), 'there is a cat on the mat'.split()]
    >>> plain_precision(refs, ['the'] * 7, 1)
    CountFraction(7, 7)
    """
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    n = check_order(n)
    order = order_statistics(refs, hyp, n)
    return CountFraction(sum(row.hyp_count for row in order.rows if row.max_ref_count), order.total)


def closest_ref_length(references: Iterable[Sequence[Hashable]], hyp_len: int) -> int:
    """The reference length closest to the hypothesis length ("r", Section 2.2.2).

    When two references are equally close, the shorter one wins (as in NLTK,
    sacreBLEU and mteval-v13a.pl).

    >>> closest_ref_length([['a'] * 13, ['a'] * 11], 12)
    11
    """
    refs = check_references(references)
    hyp_len = check_length(hyp_len, "hyp_len")
    return counting.closest_ref_length((len(r) for r in refs), hyp_len)


def brevity_penalty(closest_ref_len: int, hyp_len: int) -> Number:
    """BP = 1 if c > r, else exp(1 - r/c) (Papineni et al. 2002, Section 2.2.2).

    ``c`` is the hypothesis length and ``r`` the closest reference length (at
    corpus level, both are sums over the sentences).  An empty hypothesis
    gets 0.  As in NLTK, the two exact cases return the integers 1 and 0.

    >>> brevity_penalty(28, 12)
    0.2635971381157267
    >>> brevity_penalty(12, 13)
    1
    """
    r = check_length(closest_ref_len, "closest_ref_len")
    c = check_length(hyp_len, "hyp_len")
    return arithmetic.brevity_penalty(r, c)


def check_corpus(list_of_references: Any, hypotheses: Any) -> tuple[list[tuple[Tokens, ...]], list[Tokens]]:
    """Check a corpus in NLTK's orientation: one list of references per hypothesis."""
    for name, value in (("list_of_references", list_of_references), ("hypotheses", hypotheses)):
        if value is None:
            raise TypeError(f"{name} is None; pass a list with one entry per sentence.")
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            raise TypeError(f"{name} must be a list with one entry per sentence, not {type(value).__name__}.")
    refs_list = list(list_of_references)
    hyps = list(hypotheses)
    if len(refs_list) != len(hyps):
        raise ValueError(
            f"There {'is' if len(hyps) == 1 else 'are'} {len(hyps)} "
            f"{'hypothesis' if len(hyps) == 1 else 'hypotheses'} but {len(refs_list)} "
            f"{'set' if len(refs_list) == 1 else 'sets'} of references; "
            f"give exactly one list of references per hypothesis."
        )
    if not hyps:
        raise ValueError("The corpus is empty: give at least one hypothesis and its references.")
    checked_hyps = [check_tokens(h, f"hypotheses[{i}]") for i, h in enumerate(hyps)]
    checked_refs = [check_references(r, f"list_of_references[{i}]") for i, r in enumerate(refs_list)]
    return checked_refs, checked_hyps


def corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[Hashable]]],
    hypotheses: Sequence[Sequence[Hashable]],
    weights: Any = DEFAULT_WEIGHTS,
    smoothing_function: SmoothingCallable | str | None = None,
    auto_reweigh: bool = False,
) -> float | list[float]:
    """Corpus-level BLEU: pool the counts of every sentence, then score once.

    BLEU = BP * exp(sum_n w_n log p_n), where each p_n adds up the clipped
    counts and the n-gram counts of all sentences before dividing, and BP uses
    the sums of hypothesis lengths and closest reference lengths (Papineni et
    al. 2002, Section 2.2.2).  This is not the mean of sentence scores.

    ``weights`` is a tuple of weights, or a list of tuples (a list of scores
    comes back; a list holding one tuple returns a single score, as in NLTK),
    or a numpy array read the same way.  ``smoothing_function`` is a
    smoothing method such as ``SmoothingFunction().method1``, or its name
    ("method1", "1").

    Behaviour kept from NLTK, on purpose, so that the numbers are equal:

    * Without smoothing, a zero precision is replaced by the smallest positive
      float with a warning, so the score is a tiny positive number instead of
      0 (``explain`` shows why).  If there is no unigram match at all, the
      score is 0.0 (NLTK returns the integer 0 there).
    * A hypothesis shorter than n adds 0/1 to the order-n counts.
    * The smoothing function sees only the last sentence's references and
      hypothesis; methods 5, 6 and 7 therefore use that sentence alone for
      their extra statistics.
    * ``auto_reweigh`` changes only the default weights, given exactly as the
      tuple (0.25, 0.25, 0.25, 0.25) (not a list, not an array: NLTK compares
      with that tuple, and raises for an array), and only when the corpus has
      fewer than 4 hypothesis tokens.
    * Orders whose smoothed precision is not positive are left out of the sum.

    Refused, unlike NLTK: strings where tokens are expected, empty reference
    lists, different numbers of hypotheses and reference sets, and weights
    that are empty, negative, not finite or do not sum to 1.

    >>> hyp = 'the cat sat on the mat'.split()
    >>> ref = 'the cat sat on the red mat'.split()
    >>> round(corpus_bleu([[ref]], [hyp]), 4)
    0.6732
    """
    group, several, defaults = check_weights(weights)
    func, name = resolve_smoothing(smoothing_function, "smoothing_function")
    auto_reweigh = check_bool(auto_reweigh, "auto_reweigh")  # NLTK would read "no" as true
    with collector_paused():  # checking makes a tuple per sentence; none is seen by the collector
        refs_list, hyps = check_corpus(list_of_references, hypotheses)
        counts = pooled_counts(refs_list, hyps, max(len(w) for w in group))
        last_refs, last_hyp = refs_list[-1], hyps[-1]  # what NLTK's smoothing functions are given
        del refs_list, hyps  # gone before the collector runs again, so that it never walks them
    results = score_counts(counts, group, func, name, auto_reweigh, last_refs, last_hyp, defaults)
    scores = [r.score for r in results]
    return scores if several and len(scores) > 1 else scores[0]


def sentence_bleu(
    references: Sequence[Sequence[Hashable]],
    hypothesis: Sequence[Hashable],
    weights: Any = DEFAULT_WEIGHTS,
    smoothing_function: SmoothingCallable | str | None = None,
    auto_reweigh: bool = False,
) -> float | list[float]:
    """Sentence-level BLEU of one hypothesis against its references.

    The same computation as :func:`corpus_bleu` on a corpus of one sentence,
    with the same deliberate NLTK behaviours (see there).

    >>> refs = ['the cat is on the mat'.split(), 'there is a cat on the mat'.split()]
    >>> sentence_bleu(refs, 'the cat is on the mat'.split())
    1.0
    >>> sentence_bleu(refs, 'the cat sat on the mat'.split(), weights=(0.5, 0.5))
    0.7071067811865476
    """
    group, several, defaults = check_weights(weights)
    func, name = resolve_smoothing(smoothing_function, "smoothing_function")
    auto_reweigh = check_bool(auto_reweigh, "auto_reweigh")  # NLTK would read "no" as true
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    max_n = max(len(w) for w in group)
    counts = pooled_counts([refs], [hyp], max_n)
    results = score_counts(counts, group, func, name, auto_reweigh, refs, hyp, defaults)
    scores = [r.score for r in results]
    return scores if several and len(scores) > 1 else scores[0]
