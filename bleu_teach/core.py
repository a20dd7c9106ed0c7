"""BLEU, step by step: n-grams, clipping, modified precision, brevity penalty.

The public names and signatures follow ``nltk.translate.bleu_score`` so that
this module is a drop-in replacement, and the numbers are equal to NLTK's
(``==``, not approximately).  Unlike NLTK, bad input raises a ``TypeError`` or
``ValueError`` that says what to do.

Reference: Papineni, Roukos, Ward and Zhu (2002), "BLEU: a method for
automatic evaluation of machine translation", ACL.  Section numbers below
refer to that paper.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from itertools import chain
from fractions import Fraction
from typing import Any, Union

from bleu_teach._checks import (
    DEFAULT_WEIGHTS,
    Tokens,
    check_length,
    check_order,
    check_references,
    check_tokens,
    check_weights,
)

Ngram = tuple[Hashable, ...]
Number = Union[int, float, Fraction]
SmoothingCallable = Callable[..., list[Any]]

__all__ = [
    "CountFraction",
    "ngrams",
    "ngram_counts",
    "max_reference_counts",
    "clipped_counts",
    "modified_precision",
    "plain_precision",
    "closest_ref_length",
    "closest_reference_length",
    "brevity_penalty",
    "sentence_bleu",
    "corpus_bleu",
]


class CountFraction(Fraction):
    """An exact fraction that remembers the counts it was made from.

    ``numerator`` is the clipped n-gram count and ``denominator`` the number of
    n-grams in the hypothesis, unreduced: 2/4 stays 2/4.  NLTK's smoothing
    methods read those counts (method 1 adds epsilon to a zero numerator and
    divides by the original denominator), so keeping them is needed for
    parity.  Comparison, hashing and arithmetic use the fraction's value.

    >>> p = CountFraction(2, 4)
    >>> p.numerator, p.denominator, p == Fraction(1, 2)
    (2, 4, True)
    """

    __slots__ = ("_count", "_total")

    def __new__(cls, count: int, total: int) -> "CountFraction":
        self = super().__new__(cls, count, total)
        self._count = count
        self._total = total
        return self

    @property
    def numerator(self) -> int:  # type: ignore[override]
        return self._count

    @property
    def denominator(self) -> int:  # type: ignore[override]
        return self._total

    def as_fraction(self) -> Fraction:
        """The same value as a plain, reduced :class:`fractions.Fraction`."""
        return Fraction(self._count, self._total)

    def __eq__(self, other: object) -> bool:
        return self.as_fraction() == other

    def __hash__(self) -> int:
        return hash(self.as_fraction())

    def __repr__(self) -> str:
        return f"CountFraction({self._count}, {self._total})"

    def __str__(self) -> str:
        return f"{self._count}/{self._total}"

    def __reduce__(self) -> tuple[Any, tuple[int, int]]:
        return (CountFraction, (self._count, self._total))


def ngrams(tokens: Sequence[Hashable], n: int) -> list[Ngram]:
    """All n-grams of ``tokens`` in order, each a tuple of ``n`` tokens.

    >>> ngrams(['the', 'cat', 'sat'], 2)
    [('the', 'cat'), ('cat', 'sat')]
    """
    tokens = check_tokens(tokens, "tokens")
    n = check_order(n)
    return list(zip(*(tokens[i:] for i in range(n))))


def _all_counts(tokens: Tokens, max_n: int) -> Counter[Ngram]:
    # Every n-gram of orders 1..max_n in one Counter; keys of different
    # orders differ in length, so they never collide.
    return Counter(chain.from_iterable(zip(*(tokens[i:] for i in range(n))) for n in range(1, max_n + 1)))


def _sentence_counts(refs: tuple[Tokens, ...], hyp: Tokens, max_n: int) -> list[int]:
    """Clipped match counts of orders 1..max_n for one sentence."""
    hyp_counts = _all_counts(hyp, max_n)
    matched = [0] * max_n
    if len(refs) == 1:
        ref_counts = _all_counts(refs[0], max_n)
        for g in hyp_counts.keys() & ref_counts.keys():
            c, m = hyp_counts[g], ref_counts[g]
            matched[len(g) - 1] += c if c < m else m
        return matched
    best: dict[Ngram, int] = {}
    best_get = best.get
    hyp_keys = hyp_counts.keys()
    for ref in refs:
        ref_counts = _all_counts(ref, max_n)
        for g in hyp_keys & ref_counts.keys():
            c = ref_counts[g]
            if c > best_get(g, 0):
                best[g] = c
    for g, m in best.items():
        c = hyp_counts[g]
        matched[len(g) - 1] += c if c < m else m
    return matched


def _count(tokens: Tokens, n: int) -> Counter[Ngram]:
    # zip over shifted slices: n-grams in order, counted at C speed.
    if len(tokens) < n:
        return Counter()
    return Counter(zip(*(tokens[i:] for i in range(n))))


def ngram_counts(tokens: Sequence[Hashable], n: int) -> Counter[Ngram]:
    """How often each n-gram occurs in ``tokens``.

    >>> ngram_counts('the the cat'.split(), 1)
    Counter({('the',): 2, ('cat',): 1})
    """
    return _count(check_tokens(tokens, "tokens"), check_order(n))


def max_reference_counts(
    references: Iterable[Sequence[Hashable]], n: int
) -> Counter[Ngram]:
    """For every n-gram, its largest count in any single reference.

    This is the "maximum reference count" of Section 2.1: counts are not
    added up across references.

    >>> refs = ['the cat is on the mat'.split(), 'there is a cat on the mat'.split()]
    >>> max_reference_counts(refs, 1)[('the',)]
    2
    """
    refs = check_references(references)
    n = check_order(n)
    best: Counter[Ngram] = Counter()
    for ref in refs:
        best |= _count(ref, n)
    return best


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
    counts = _count(hyp, n)
    best = _max_counts_for(refs, counts, n)
    return {g: min(c, best.get(g, 0)) for g, c in counts.items()}


def _max_counts_for(
    refs: tuple[Tokens, ...], counts: Counter[Ngram], n: int
) -> dict[Ngram, int]:
    """Max reference count of each hypothesis n-gram that occurs in some reference."""
    best: dict[Ngram, int] = {}
    if not counts:
        return best
    for ref in refs:
        ref_counts = _count(ref, n)
        # Only n-grams in both matter; the key intersection runs at C speed.
        for g in counts.keys() & ref_counts.keys():
            c = ref_counts[g]
            if c > best.get(g, 0):
                best[g] = c
    return best


def _precision_counts(refs: tuple[Tokens, ...], hyp: Tokens, n: int) -> tuple[int, int]:
    """(clipped matches, hypothesis n-grams) for one order."""
    counts = _count(hyp, n)
    best = _max_counts_for(refs, counts, n)
    matched = 0
    for g, m in best.items():
        c = counts[g]
        matched += c if c < m else m
    return matched, max(0, len(hyp) - n + 1)


def modified_precision(
    references: Iterable[Sequence[Hashable]], hypothesis: Sequence[Hashable], n: int
) -> CountFraction:
    """Modified n-gram precision p_n (Papineni et al. 2002, Section 2.1).

    p_n = sum of clipped counts / number of n-grams in the hypothesis,
    returned exactly, with the two counts as numerator and denominator.

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
    matched, total = _precision_counts(refs, hyp, n)
    return CountFraction(matched, max(1, total))


def plain_precision(
    references: Iterable[Sequence[Hashable]], hypothesis: Sequence[Hashable], n: int
) -> CountFraction:
    """Precision WITHOUT clipping: hypothesis n-grams found in some reference / all.

    Not part of BLEU; it is here to show why BLEU clips (Section 2.1).

    >>> refs = ['the cat is on the mat'.split(), 'there is a cat on the mat'.split()]
    >>> plain_precision(refs, ['the'] * 7, 1)
    CountFraction(7, 7)
    """
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    n = check_order(n)
    counts = _count(hyp, n)
    seen: set[Ngram] = set()
    for ref in refs:
        seen |= counts.keys() & _count(ref, n).keys()
    return CountFraction(sum(counts[g] for g in seen), max(1, sum(counts.values())))


def _closest(ref_lens: Iterable[int], hyp_len: int) -> int:
    # Closest in absolute difference; a tie goes to the shorter reference.
    return min(ref_lens, key=lambda r: (abs(r - hyp_len), r))


def closest_ref_length(references: Iterable[Sequence[Hashable]], hyp_len: int) -> int:
    """The reference length closest to the hypothesis length ("r", Section 2.2.2).

    When two references are equally close, the shorter one wins (as in NLTK,
    sacreBLEU and mteval-v13a.pl).

    >>> closest_ref_length([['a'] * 13, ['a'] * 11], 12)
    11
    """
    refs = check_references(references)
    hyp_len = check_length(hyp_len, "hyp_len")
    return _closest((len(r) for r in refs), hyp_len)


#: A name that reads the way a learner says it.
closest_reference_length = closest_ref_length


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
    return _bp(r, c)


def _bp(r: int, c: int) -> Number:
    if c > r:
        return 1
    if c == 0:
        return 0
    return math.exp(1 - r / c)


# ---------------------------------------------------------------------------
# Turning counts into a score
# ---------------------------------------------------------------------------


def _default_smoothing() -> SmoothingCallable:
    from bleu_teach.smoothing import SmoothingFunction

    return SmoothingFunction().method0


def _combine(
    numerators: list[int],
    denominators: list[int],
    hyp_lengths: int,
    ref_lengths: int,
    weight_group: list[Any],
    smoothing_function: SmoothingCallable | None,
    auto_reweigh: bool,
    last_references: tuple[Tokens, ...],
    last_hypothesis: Tokens,
) -> tuple[list[float], list[Any], list[list[float | None]], list[tuple[Any, ...]], Number]:
    """Counts -> scores, with the same floating-point steps as NLTK.

    Returns the scores, the (smoothed) precisions, for each weight tuple the
    weighted log term of each order (None where a zero precision is skipped),
    the weights actually used, and the brevity penalty.
    """
    bp = _bp(ref_lengths, hyp_lengths)
    p_n: list[Any] = [CountFraction(a, b) for a, b in zip(numerators, denominators)]
    if numerators[0] == 0:
        # No unigram matches at all: the score is 0 whatever the smoothing.
        return [0.0] * len(weight_group), p_n, [[] for _ in weight_group], list(weight_group), bp
    smooth = smoothing_function or _default_smoothing()
    p_n = smooth(p_n, references=last_references, hypothesis=last_hypothesis, hyp_len=hyp_lengths)
    scores: list[float] = []
    all_terms: list[list[float | None]] = []
    used: list[tuple[Any, ...]] = []
    for weight in weight_group:
        if auto_reweigh and hyp_lengths < 4 and weight == DEFAULT_WEIGHTS:
            weight = (1 / hyp_lengths,) * hyp_lengths
        terms: list[float | None] = []
        for w, p in zip(weight, p_n):
            # NLTK leaves out orders whose (smoothed) precision is not positive.
            terms.append(w * math.log(p) if p > 0 else None)
        score = bp * math.exp(math.fsum(t for t in terms if t is not None))
        scores.append(score)
        all_terms.append(terms)
        used.append(tuple(weight))
    return scores, p_n, all_terms, used, bp


def _corpus_counts(
    list_of_references: Sequence[tuple[Tokens, ...]],
    hypotheses: Sequence[Tokens],
    max_n: int,
) -> tuple[list[int], list[int], int, int]:
    numerators = [0] * max_n
    denominators = [0] * max_n
    hyp_lengths = ref_lengths = 0
    for refs, hyp in zip(list_of_references, hypotheses):
        hyp_len = len(hyp)
        matched = _sentence_counts(refs, hyp, max_n)
        for n in range(1, max_n + 1):
            numerators[n - 1] += matched[n - 1]
            total = hyp_len - n + 1
            denominators[n - 1] += total if total > 0 else 1
        hyp_lengths += hyp_len
        ref_lengths += _closest((len(r) for r in refs), hyp_len)
    return numerators, denominators, hyp_lengths, ref_lengths


def _check_corpus(list_of_references: Any, hypotheses: Any) -> tuple[list[tuple[Tokens, ...]], list[Tokens]]:
    for name, value in (("list_of_references", list_of_references), ("hypotheses", hypotheses)):
        if value is None:
            raise TypeError(f"{name} is None; pass a list with one entry per sentence.")
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            raise TypeError(
                f"{name} must be a list with one entry per sentence, not "
                f"{type(value).__name__}."
            )
    refs_list = list(list_of_references)
    hyps = list(hypotheses)
    if len(refs_list) != len(hyps):
        raise ValueError(
            f"There are {len(hyps)} hypotheses but {len(refs_list)} sets of "
            f"references; give exactly one list of references per hypothesis."
        )
    if not hyps:
        raise ValueError("The corpus is empty: give at least one hypothesis and its references.")
    checked_hyps = [check_tokens(h, f"hypotheses[{i}]") for i, h in enumerate(hyps)]
    checked_refs = [check_references(r, f"list_of_references[{i}]") for i, r in enumerate(refs_list)]
    return checked_refs, checked_hyps


def corpus_bleu(
    list_of_references: Sequence[Sequence[Sequence[Hashable]]],
    hypotheses: Sequence[Sequence[Hashable]],
    weights: Sequence[float] | Sequence[Sequence[float]] = DEFAULT_WEIGHTS,
    smoothing_function: SmoothingCallable | None = None,
    auto_reweigh: bool = False,
) -> float | list[float]:
    """Corpus-level BLEU: pool the counts of every sentence, then score once.

    BLEU = BP * exp(sum_n w_n log p_n), where each p_n adds up the clipped
    counts and the n-gram counts of all sentences before dividing, and BP uses
    the sums of hypothesis lengths and closest reference lengths (Papineni et
    al. 2002, Section 2.2.2).  This is not the mean of sentence scores.

    A list of weight tuples returns a list of scores (a list holding one
    tuple returns a single score, as in NLTK).

    Behaviour kept from NLTK, on purpose, so that the numbers are equal:

    * Without smoothing, a zero precision is replaced by the smallest positive
      float with a warning, so the score is a tiny positive number instead of
      0 (``explain`` shows why).  If there is no unigram match at all, the
      score is 0.0 (NLTK returns the integer 0 there).
    * The smoothing function sees only the last sentence's references and
      hypothesis; methods 5, 6 and 7 therefore use that sentence alone for
      their extra statistics.
    * ``auto_reweigh`` changes only the default weights, given exactly as the
      tuple (0.25, 0.25, 0.25, 0.25), and only when the corpus has fewer than
      4 hypothesis tokens.
    * Orders whose smoothed precision is not positive are left out of the sum.

    Refused, unlike NLTK: strings where tokens are expected, empty reference
    lists, different numbers of hypotheses and reference sets, and weights
    that are empty, negative, not finite or do not sum to 1.

    >>> hyp = 'the cat sat on the mat'.split()
    >>> ref = 'the cat sat on the red mat'.split()
    >>> round(corpus_bleu([[ref]], [hyp]), 4)
    0.6732
    """
    group, several = check_weights(weights)
    refs_list, hyps = _check_corpus(list_of_references, hypotheses)
    max_n = max(len(w) for w in group)
    nums, dens, hyp_lengths, ref_lengths = _corpus_counts(refs_list, hyps, max_n)
    scores, *_ = _combine(
        nums, dens, hyp_lengths, ref_lengths, group, smoothing_function,
        auto_reweigh, refs_list[-1], hyps[-1],
    )
    return scores if several and len(scores) > 1 else scores[0]


def sentence_bleu(
    references: Sequence[Sequence[Hashable]],
    hypothesis: Sequence[Hashable],
    weights: Sequence[float] | Sequence[Sequence[float]] = DEFAULT_WEIGHTS,
    smoothing_function: SmoothingCallable | None = None,
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
    group, several = check_weights(weights)
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    max_n = max(len(w) for w in group)
    nums, dens, hyp_len, ref_len = _corpus_counts([refs], [hyp], max_n)
    scores, *_ = _combine(nums, dens, hyp_len, ref_len, group, smoothing_function, auto_reweigh, refs, hyp)
    return scores if several and len(scores) > 1 else scores[0]
