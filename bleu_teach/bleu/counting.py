"""Counting: the one place where bleu_teach counts n-grams.

Everything BLEU needs from the text, and everything a report shows about it, comes from here: for each n-gram
order, the clipped matches and the number of hypothesis n-grams exactly as they enter the score, and (when a
report asks for them) the n-gram rows behind those counts and which hypothesis tokens they match; the lengths,
the closest reference length and why it was chosen.

Two paths, one set of rules:

* :func:`sentence_statistics` keeps the rows (a report needs them);
* :func:`count_matches` and :func:`pooled_counts` keep only the numbers (``corpus_bleu`` needs speed). The test
  suite holds the two equal.

Reference: Papineni, Roukos, Ward and Zhu (2002), "BLEU: a method for automatic evaluation of machine
translation", ACL, Sections 2.1 (modified precision, clipping) and 2.2.2 (brevity penalty, closest reference
length).

Quirk kept from NLTK, on purpose: a hypothesis shorter than n has no n-grams, and NLTK counts that order as 0/1
(no match out of one n-gram) rather than leaving it undefined. :attr:`OrderCounts.total` is that denominator as
it enters the score; :attr:`OrderCounts.ngrams` is the real number of n-grams (0);
:attr:`OrderCounts.counted_as_one` says which rule applied.
"""

from __future__ import annotations

import gc
import itertools
import os
import threading
from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import compress, repeat, starmap
from numbers import Integral
from operator import lt, ne
from typing import Any, NamedTuple

from bleu_teach.bleu.count_fraction import CountFraction
from bleu_teach.inputs.validation import whole_number_text

__all__ = [
    "MAX_COUNTED_ORDERS",
    "check_counted_orders",
    "Ngram",
    "Tokens",
    "NgramRow",
    "OrderCounts",
    "Lengths",
    "SentenceStatistics",
    "PooledCounts",
    "ngrams",
    "ngram_counts",
    "count_matches",
    "MAX_COUNTING_WORK",
    "counting_work",
    "check_counting_work",
    "closest_ref_length",
    "max_reference_counts",
    "sentence_statistics",
    "pooled_counts",
    "pool",
    "collector_paused",
]

Ngram = tuple[Hashable, ...]
Tokens = tuple[Hashable, ...]


# ---------------------------------------------------------------------------
# Counting n-grams (inputs are already checked tuples of hashable tokens)
# ---------------------------------------------------------------------------


def ngrams(tokens: Sequence[Hashable], n: int) -> list[Ngram]:
    """The n-grams of ``tokens`` in order (zip over shifted slices, at C speed); none when n > len(tokens)."""
    if len(tokens) < n:
        return []
    return list(zip(*(tokens[i:] for i in range(n))))


def ngram_counts(tokens: Sequence[Hashable], n: int) -> Counter[Ngram]:
    """How often each n-gram of order ``n`` occurs in ``tokens``."""
    if len(tokens) < n:
        return Counter()
    return Counter(zip(*(tokens[i:] for i in range(n))))


#: The most n-gram tokens counting one sentence may build (the hypothesis and its references, over every
#: order asked for): about a second's work.  Counting order n of a sentence of L tokens builds L - n + 1
#: n-grams of n tokens each, so orders up to L cost about L**3 / 6: a few thousand tokens with as many
#: orders would run for minutes.  Real sentences with the usual 4 orders stay far below.
MAX_COUNTING_WORK = 20_000_000


def _work(length: int, low: int, high: int) -> int:
    # sum of n * (length - n + 1) for n = low..high (0 past the length), in closed form
    high = min(high, length)
    if high < low:
        return 0

    def upto(m: int) -> int:
        return (length + 1) * m * (m + 1) // 2 - m * (m + 1) * (2 * m + 1) // 6

    return upto(high) - upto(low - 1)


#: The most orders the counting keeps a list for. NLTK's functions take any order (one per weight), and so do
#: theirs here; the package's own functions take at most ``inputs.validation.MAX_ORDERS``.
MAX_COUNTED_ORDERS = 100_000


def check_counted_orders(max_n: Any, allow_none: bool = False) -> int:
    """How many orders to count: a whole number from 1 (0 with ``allow_none``) to :data:`MAX_COUNTED_ORDERS`."""
    if isinstance(max_n, bool) or not isinstance(max_n, Integral):
        raise TypeError(f"The number of orders must be a whole number such as 4, not {type(max_n).__name__}.")
    count = int(max_n)
    if not (0 if allow_none else 1) <= count <= MAX_COUNTED_ORDERS:
        raise ValueError(
            f"The number of orders must be a whole number from 1 to {MAX_COUNTED_ORDERS:,}; got "
            f"{whole_number_text(count)}."
        )
    return count


def counting_work(lengths: Iterable[int], max_n: int, low: int = 1) -> int:
    """The n-gram tokens that counting orders ``low``..``max_n`` builds for token lists of these lengths.

    >>> counting_work([6, 7], 4)  # a 6-token hypothesis, a 7-token reference, the usual 4 orders
    90
    """
    max_n = check_counted_orders(max_n, allow_none=True)
    return sum(_work(length, low, max_n) for length in lengths)


def check_counting_work(references: Sequence[Tokens], hypothesis: Tokens, max_n: int, single: bool = False) -> None:
    """Refuse (``ValueError``) a sentence whose counting would build more than :data:`MAX_COUNTING_WORK` n-gram tokens.

    ``single`` means that only order ``max_n`` is counted (one order, as
    :func:`order_statistics` does); otherwise orders 1..``max_n``.  The message
    says how many orders a sentence of that length can have.
    """
    if (len(hypothesis) + sum(map(len, references))) * max_n * (max_n + 1) <= 2 * MAX_COUNTING_WORK:
        return  # a bound on the work below (each of L tokens starts at most one n-gram of each order)
    lengths = [len(hypothesis), *(len(r) for r in references)]
    low = max_n if single else 1
    work = counting_work(lengths, max_n, low)
    if work <= MAX_COUNTING_WORK:
        return
    longest = max(lengths)
    what = f"order n = {max_n:,}" if single else f"orders 1 to {max_n:,}"
    if single:
        advice = "choose a lower order, or a shorter sentence"
    else:
        top = 1
        while top < max_n and counting_work(lengths, top + 1) <= MAX_COUNTING_WORK:
            top += 1
        advice = f"for these sentences use at most {top:,} orders, or shorter sentences"
    raise ValueError(
        f"Counting {what} for a sentence of up to {longest:,} tokens would build {work:,} n-gram tokens, more "
        f"than the {MAX_COUNTING_WORK:,} (about a second's work) counted for one sentence; {advice}."
    )


def count_matches(references: Sequence[Tokens], hypothesis: Tokens, max_n: int) -> list[int]:
    """Clipped matches of orders 1..``max_n`` for one sentence (the lean path).

    Count_clip = min(Count, Max_Ref_Count), the maximum taken over the references one at a time, never their
    sum (Papineni et al. 2002, 2.1).

    Order by order: most hypothesis n-grams occur once, and an n-gram that occurs once is clipped to 1 if some
    reference has it and to 0 otherwise. So the matches start as the hypothesis's distinct n-grams less those no
    reference has: the references' n-grams, laid end to end with a gap between them that no n-gram crosses, taken
    away from the set of the hypothesis's in place. Only an n-gram that occurs more than once in the hypothesis
    and is found in a reference has its counts compared, one reference at a time. Order 1 compares the tokens
    themselves (no 1-tuples are made), and an order without a match ends the counting: an (n+1)-gram found in a
    reference has its first n tokens found there too.

    >>> # "the" 3 times (the second reference has it 3 times) and "cat"; "the the" twice (the second has it twice),
    >>> # "the cat" once (the first has it)
    >>> count_matches((("the", "cat", "the", "mat"), ("a", "the", "the", "the")), ("the",) * 3 + ("cat",), 2)
    [4, 3]
    """
    if (len(hypothesis) + sum(map(len, references))) * max_n * (max_n + 1) > 2 * MAX_COUNTING_WORK:
        check_counting_work(references, hypothesis, max_n)  # (the bound it starts from, without a call)
    matched = [0] * max_n
    length = len(hypothesis)
    top = min(max_n, length)  # no hypothesis n-gram of a longer order exists
    if top == 0:
        return matched
    if len(references) == 1:
        joined: Sequence[Any] = references[0]
    else:  # the references one after another, a gap between them: no n-gram spans two of them
        joined = list(references[0])
        for ref in references[1:]:
            joined.append(_GAP)
            joined += ref
    missing: set[Any] = set(hypothesis)  # the distinct tokens, then (the references' taken away) those not found
    distinct = len(missing)
    missing.difference_update(joined)  # in place: a new set for the difference took a tenth of the time
    found = distinct - len(missing)
    if found and distinct < length:  # some token occurs more than once: credit its other occurrences
        tokens = Counter(hypothesis)
        for token in compress(tokens, map((1).__lt__, tokens.values())):
            if token not in missing:
                count = tokens[token]
                most = max([ref.count(token) for ref in references])
                found += (count if count < most else most) - 1
    matched[0] = found
    hyp_shifted = [hypothesis]  # hyp_shifted[i] is the hypothesis from token i on: zip(*its first n) is order n
    ref_shifted = [joined]
    for n in range(2, top + 1):
        if not found:
            break
        hyp_shifted.append(hypothesis[n - 1 :])
        ref_shifted.append(joined[n - 1 :])
        missing = set(zip(*hyp_shifted))
        distinct = len(missing)
        missing.difference_update(zip(*ref_shifted))
        found = distinct - len(missing)
        if found and distinct <= length - n:  # fewer distinct n-grams than n-grams: some occur again
            counts = Counter(zip(*hyp_shifted))
            repeated = [gram for gram in compress(counts, map((1).__lt__, counts.values())) if gram not in missing]
            if repeated:
                in_refs = [ngram_counts(ref, n) for ref in references]
                for gram in repeated:
                    count = counts[gram]
                    most = max([ref_counts[gram] for ref_counts in in_refs])
                    found += (count if count < most else most) - 1
        matched[n - 1] = found
    return matched


#: What stands between two references laid end to end: equal to no token, so no n-gram across it is found.
_GAP = object()


def max_reference_counts(references: Sequence[Tokens], n: int) -> Counter[Ngram]:
    """For every n-gram of order ``n``, its largest count in any single reference."""
    best: Counter[Ngram] = Counter()
    for ref in references:
        best |= ngram_counts(ref, n)
    return best


def closest_ref_length(ref_lens: Iterable[int], hyp_len: int) -> int:
    """The reference length closest to ``hyp_len``; a tie goes to the shorter one.

    The rule of NLTK, sacreBLEU and NIST's mteval-v13a.pl.

    >>> closest_ref_length([13, 11], 12)
    11
    """
    return min(ref_lens, key=lambda r: (abs(r - hyp_len), r))


# ---------------------------------------------------------------------------
# What a report shows
# ---------------------------------------------------------------------------


class NgramRow(NamedTuple):
    """One distinct hypothesis n-gram: its counts and how it is clipped.

    A named tuple rather than a dataclass: a report on a long sentence makes thousands of rows, and a frozen
    dataclass's ``__init__`` (one ``object.__setattr__`` per field) took a quarter of ``explain``'s time.
    """

    ngram: Ngram
    hyp_count: int
    ref_counts: tuple[int, ...]
    max_ref_count: int
    clipped_count: int

    @property
    def text(self) -> str:
        return " ".join(str(t) for t in self.ngram)


@dataclass(frozen=True)
class OrderCounts:
    """The counts of one order n, exactly as they enter the score.

    ``matches``/``total`` is the modified precision p_n.  ``ngrams`` is the
    number of n-grams in the hypothesis; ``total`` equals it, except that
    NLTK counts a hypothesis with no n-grams of this order as one n-gram
    (0/1), and then ``counted_as_one`` is true.  ``rows`` and ``marks``
    (for each hypothesis token, whether it lies in a clipped match) are
    empty on the lean path.
    """

    n: int
    matches: int
    ngrams: int
    rows: tuple[NgramRow, ...] = ()
    marks: tuple[bool, ...] = ()

    @property
    def total(self) -> int:
        return self.ngrams if self.ngrams > 0 else 1

    @property
    def counted_as_one(self) -> bool:
        return self.ngrams == 0

    @property
    def precision(self) -> CountFraction:
        """p_n = matches / total, exact, with the counts kept."""
        return CountFraction(self.matches, self.total)


@dataclass(frozen=True)
class Lengths:
    """The hypothesis length c, the reference lengths and the chosen r."""

    hyp_len: int
    ref_lens: tuple[int, ...]
    closest_ref_len: int

    @property
    def tied(self) -> tuple[int, ...]:
        """The distinct reference lengths equally close to c (more than one means a tie)."""
        distance = abs(self.closest_ref_len - self.hyp_len)
        return tuple(sorted({r for r in self.ref_lens if abs(r - self.hyp_len) == distance}))

    @property
    def tie(self) -> bool:
        return len(self.tied) > 1

    @property
    def reason(self) -> str:
        """Why r is what it is, in words."""
        if len(self.ref_lens) == 1:
            return "the only reference"
        if self.tie:
            return (
                f"lengths {' and '.join(map(str, self.tied))} are equally close to {self.hyp_len}; "
                f"the tie goes to the shorter"
            )
        return f"closest to the hypothesis length {self.hyp_len}, difference {abs(self.closest_ref_len - self.hyp_len)}"


@dataclass(frozen=True)
class SentenceStatistics:
    """Everything counted for one hypothesis and its references."""

    hypothesis: Tokens
    references: tuple[Tokens, ...]
    orders: tuple[OrderCounts, ...]
    length: Lengths

    @property
    def matches(self) -> tuple[int, ...]:
        return tuple(o.matches for o in self.orders)

    @property
    def totals(self) -> tuple[int, ...]:
        """Denominators as they enter the score (NLTK's 0/1 rule applied)."""
        return tuple(o.total for o in self.orders)

    @property
    def ngrams(self) -> tuple[int, ...]:
        return tuple(o.ngrams for o in self.orders)


#: Up to this many credited places of n-grams clipped below their count, :func:`_marks` finds them one by one.
_FEW_PLACES = 32


def _marks(sequence: list[Ngram], n: int, counts: Counter[Ngram], clipped: dict[Ngram, int]) -> tuple[bool, ...]:
    # For each hypothesis token, whether it lies in a clipped match.  ``sequence`` is the hypothesis's n-grams
    # in order.  Matches are credited left to right, up to each n-gram's clipped count: an n-gram whose every
    # occurrence is credited marks all its places; one clipped below its count, only its first places.
    partial = list(compress(clipped, map(ne, clipped.values(), map(counts.__getitem__, clipped))))
    if sum(map(clipped.__getitem__, partial)) > _FEW_PLACES:  # many places to find: number each n-gram's places
        numbering = dict(zip(counts, starmap(itertools.count, repeat((), len(counts)))))
        ranks = map(next, map(numbering.__getitem__, sequence))  # 0, 1, 2, ... for each n-gram's places in turn
        starts = list(map(lt, ranks, map(clipped.get, sequence, repeat(0))))
    else:  # every place of a wholly credited n-gram, then the few credited places of the others one by one
        whole = clipped.keys() - partial
        starts = list(map(whole.__contains__, sequence))
        for gram in partial:
            place = -1
            for _ in range(clipped[gram]):
                place = sequence.index(gram, place + 1)
                starts[place] = True
    if n == 1:
        return tuple(starts)
    # token k is marked if a credited n-gram starts at one of k-n+1 .. k
    return tuple(map(any, zip(*([False] * shift + starts + [False] * (n - 1 - shift) for shift in range(n)))))


def _order(references: Sequence[Tokens], hypothesis: Tokens, n: int) -> OrderCounts:
    if n > len(hypothesis):  # no n-grams, nothing to count in the references either
        return OrderCounts(n, 0, 0, (), (False,) * len(hypothesis))
    sequence = list(zip(*(hypothesis[i:] for i in range(n))))
    counts = Counter(sequence)
    grams = list(counts)  # the distinct hypothesis n-grams, in order of first appearance
    hyp_counts = list(counts.values())
    # Column by column: each reference's count of every hypothesis n-gram, then the largest, then the clip.
    # A reference's n-grams that the hypothesis lacks are skipped before they are counted.
    ref_counts = list(
        zip(
            *[
                map(Counter(filter(counts.__contains__, zip(*(ref[i:] for i in range(n))))).get, grams, repeat(0))
                for ref in references
            ]
        )
    )
    most = list(map(max, ref_counts))
    clip = list(map(min, hyp_counts, most))
    table = tuple(map(NgramRow, grams, hyp_counts, ref_counts, most, clip))
    clipped = dict(compress(zip(grams, clip), clip))
    return OrderCounts(n, sum(clip), len(sequence), table, _marks(sequence, n, counts, clipped))


def sentence_statistics(
    references: Sequence[Tokens], hypothesis: Tokens, max_n: int, rows: bool = True
) -> SentenceStatistics:
    """Count one sentence: per order the clipped matches, totals and (with ``rows``) the n-gram table.

    Inputs are checked tuples of tokens (see :mod:`bleu_teach.bleu.nltk_api` for the
    checked public functions).

    >>> stats = sentence_statistics((('the', 'cat', 'sat'),), ('the', 'the', 'cat'), 2)
    >>> [(o.matches, o.total) for o in stats.orders], stats.orders[0].marks
    ([(2, 3), (1, 2)], (True, False, True))
    """
    max_n = check_counted_orders(max_n)
    ref_lens = tuple(len(r) for r in references)
    length = Lengths(len(hypothesis), ref_lens, closest_ref_length(ref_lens, len(hypothesis)))
    if rows:
        check_counting_work(references, hypothesis, max_n)
        with collector_paused():  # a long sentence's rows are thousands of tuples that the report keeps
            orders = tuple(_order(references, hypothesis, n) for n in range(1, max_n + 1))
    else:
        matched = count_matches(references, hypothesis, max_n)
        orders = tuple(OrderCounts(n, matched[n - 1], max(0, len(hypothesis) - n + 1)) for n in range(1, max_n + 1))
    return SentenceStatistics(tuple(hypothesis), tuple(references), orders, length)


def order_statistics(references: Sequence[Tokens], hypothesis: Tokens, n: int) -> OrderCounts:
    """Count one order n of one sentence, with its n-gram table: the work of that order alone.

    >>> order = order_statistics((('the', 'cat', 'sat'),), ('the', 'the', 'cat'), 2)
    >>> order.matches, order.total, order.ngrams
    (1, 2, 2)
    """
    check_counting_work(references, hypothesis, n, single=True)
    return _order(references, hypothesis, n)


@dataclass(frozen=True)
class PooledCounts:
    """Counts added up over a corpus: what corpus BLEU is computed from.

    ``totals`` are the denominators as they enter the score (each sentence
    adds 1 for an order it has no n-grams of, NLTK's rule); ``ngrams`` are
    the real n-gram counts.
    """

    matches: tuple[int, ...]
    totals: tuple[int, ...]
    ngrams: tuple[int, ...]
    hyp_len: int
    ref_len: int


#: How many pauses of the cycle collector are running (in any thread), and whether it ran before the first began.
#: The collector is switched for the whole process, so the pauses are counted under a lock: it runs again when
#: the last one ends, not when the first does.
_pause_lock = threading.Lock()
_pauses = 0
_collector_was_on = False
#: Counts the forks: a pause begun before a fork and ending in the child was counted out at the fork.
_forks = 0


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while counting makes many objects (when it runs; as it was after).

    A corpus's counting makes hundreds of thousands of tuples, sets and lists
    (and a long sentence's report keeps thousands of rows); each few hundred
    that are kept start a collection.  None of them is part of a reference
    cycle, so the collector finds nothing to free; but in a process that holds
    many objects (a notebook, sacreBLEU's tokenizer caches) its full passes
    took a fifth of ``corpus_score``'s time.  Cycles made elsewhere meanwhile
    are collected after.

    The collector is one for the whole process: pauses in several threads
    (the classroom server scores in worker threads) are counted, and it runs
    again when the last one ends, if it ran before the first began (so code
    that switches it off in another thread meanwhile finds it on again after).
    A child process forked during a pause has it running.
    """
    global _pauses, _collector_was_on
    with _pause_lock:
        forks = _forks
        if _pauses == 0:
            _collector_was_on = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pause_lock:
            if forks == _forks:
                _pauses -= 1
                if _pauses == 0 and _collector_was_on:
                    gc.enable()


def _after_fork_in_child() -> None:
    # The child has only the thread that forked: the pauses running at the fork are over in it.
    global _pause_lock, _pauses, _forks
    _pause_lock = threading.Lock()  # another thread may have held it at the fork
    if _pauses and _collector_was_on:
        gc.enable()
    _pauses = 0
    _forks += 1


if hasattr(os, "register_at_fork"):  # not on every platform (WebAssembly has no fork)
    os.register_at_fork(after_in_child=_after_fork_in_child)


def pooled_counts(
    list_of_references: Sequence[Sequence[Tokens]], hypotheses: Sequence[Tokens], max_n: int
) -> PooledCounts:
    """Add up matches, n-gram counts and lengths over a corpus (the lean path).

    The public corpus functions call it with the cycle collector paused (:func:`collector_paused`), around their
    checking of the input too.
    """
    max_n = check_counted_orders(max_n)
    per_sentence = list(map(count_matches, list_of_references, hypotheses, repeat(max_n)))
    hyp_lengths = list(map(len, hypotheses[: len(per_sentence)]))
    ref_length = sum(map(_reference_length, list_of_references, hyp_lengths))
    matches = [sum(column) for column in zip(*per_sentence)] if per_sentence else [0] * max_n
    ngrams = [0] * max_n
    totals = [0] * max_n
    for hyp_len, sentences in Counter(hyp_lengths).items():  # by length: each length's n-grams once
        for i in range(min(hyp_len, max_n)):
            ngrams[i] += (hyp_len - i) * sentences
            totals[i] += (hyp_len - i) * sentences
        for i in range(hyp_len, max_n):
            totals[i] += sentences  # an order the sentence has no n-grams of counts as 0/1 (NLTK's rule)
    return PooledCounts(tuple(matches), tuple(totals), tuple(ngrams), sum(hyp_lengths), ref_length)


def _reference_length(references: Sequence[Tokens], hyp_len: int) -> int:
    # The reference length r that one sentence adds to the corpus's.
    return len(references[0]) if len(references) == 1 else closest_ref_length(list(map(len, references)), hyp_len)


def pool(sentences: Sequence[SentenceStatistics]) -> PooledCounts:
    """Add up already counted sentences (the same sums as :func:`pooled_counts`)."""
    k = len(sentences[0].orders) if sentences else 0
    return PooledCounts(
        matches=tuple(sum(s.orders[i].matches for s in sentences) for i in range(k)),
        totals=tuple(sum(s.orders[i].total for s in sentences) for i in range(k)),
        ngrams=tuple(sum(s.orders[i].ngrams for s in sentences) for i in range(k)),
        hyp_len=sum(s.length.hyp_len for s in sentences),
        ref_len=sum(s.length.closest_ref_len for s in sentences),
    )
