"""Counting for chrF and chrF++: character and word n-grams (Popović 2015, 2017).

The rules are sacreBLEU's (``sacrebleu/metrics/helpers.py`` and
``CHRF._remove_punctuation`` / ``CHRF._get_match_statistics``), so that
:mod:`bleu_teach.chrf.reports` gives its numbers.  Character n-grams are
substrings of Python strings (code points, not grapheme clusters); word
n-grams are the words joined by one space, as sacreBLEU keys them.
"""

from __future__ import annotations

import numbers
from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import compress
from typing import Any, NamedTuple

from bleu_teach.bleu.counting import MAX_COUNTING_WORK, counting_work
from bleu_teach.inputs.validation import MAX_ORDERS, preview, whole_number_text

__all__ = [
    "CHRF_PUNCTUATION",
    "check_chrf_orders",
    "ChrfNgramRow",
    "ChrfOrderCounts",
    "chrf_characters",
    "char_ngram_counts",
    "chrf_words",
    "word_ngram_counts",
    "chrf_ngram_counts",
    "chrf_order_counts",
    "chrf_sums",
    "order_kinds",
    "ChrfProfile",
]

#: The characters sacreBLEU's chrF++ splits off the start or end of a word (``string.punctuation``).
CHRF_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def chrf_characters(text: str, whitespace: bool = False) -> str:
    """The string whose character n-grams chrF counts.

    With ``whitespace=False`` (chrF's and sacreBLEU's default) every run of
    whitespace is removed (``"".join(text.split())``, so Unicode spaces too);
    with ``whitespace=True`` the text is kept as it is.

    >>> chrf_characters("the cat  sat\\n")
    'thecatsat'
    """
    return text if whitespace else "".join(text.split())


def char_ngram_counts(text: str, n: int, whitespace: bool = False) -> Counter[str]:
    """How often each character n-gram of order ``n`` occurs in ``text`` (whitespace removed first unless kept).

    >>> char_ngram_counts("a bab", 2)
    Counter({'ab': 2, 'ba': 1})
    """
    line = chrf_characters(text, whitespace)
    return Counter(line[i : i + n] for i in range(len(line) - n + 1))


def chrf_words(text: str) -> tuple[str, ...]:
    """The words chrF++ counts: split on whitespace, one punctuation mark split off each word.

    sacreBLEU's ``CHRF._remove_punctuation``, adapted from Popović's
    ``chrF++.py``: a word of one character stays whole; otherwise, if its
    LAST character is punctuation, that character becomes a word of its own;
    else, if its FIRST character is, that one does.  Only one character is
    ever split off, so ``"(hi)"`` gives ``"(hi"`` and ``")"`` and ``"end..."``
    gives ``"end.."`` and ``"."`` (sacreBLEU's issue #124).

    >>> chrf_words("(hi) there, 'you' end...")
    ('(hi', ')', 'there', ',', "'you", "'", 'end..', '.')
    """
    words: list[str] = []
    for w in text.split():
        if len(w) == 1:
            words.append(w)
        elif w[-1] in CHRF_PUNCTUATION:
            words += [w[:-1], w[-1]]
        elif w[0] in CHRF_PUNCTUATION:
            words += [w[0], w[1:]]
        else:
            words.append(w)
    return tuple(words)


def word_ngram_counts(words: Sequence[str], n: int) -> Counter[str]:
    """How often each word n-gram of order ``n`` occurs, keyed as sacreBLEU keys it (words joined by a space).

    >>> word_ngram_counts(("the", "cat", "the", "cat"), 2)
    Counter({'the cat': 2, 'cat the': 1})
    """
    return Counter(" ".join(words[i : i + n]) for i in range(len(words) - n + 1))


def _check_work(characters: int, char_order: int) -> None:
    # The same bound as BLEU's counting (MAX_COUNTING_WORK), on characters: orders up to a long text's length
    # would otherwise run for minutes.
    if characters * char_order * (char_order + 1) <= 2 * MAX_COUNTING_WORK:
        return  # a bound on the work (each character starts at most one n-gram of each order): a sentence
    work = counting_work([characters], char_order)
    if work <= MAX_COUNTING_WORK:
        return
    top = 1
    while top < char_order and counting_work([characters], top + 1) <= MAX_COUNTING_WORK:
        top += 1
    raise ValueError(
        f"Counting character orders 1 to {char_order:,} in a text of {characters:,} characters would build "
        f"{work:,} characters of n-grams, more than the {MAX_COUNTING_WORK:,} (about a second's work) counted for "
        f"one text; for a text this long use char_order of at most {top:,} (chrF uses 6), or a shorter text."
    )


def check_chrf_orders(char_order: Any, word_order: Any) -> None:
    """chrF's orders: whole numbers of at least 0, together from 1 to :data:`MAX_ORDERS` (the package's one limit)."""
    for name, value in (("char_order", char_order), ("word_order", word_order)):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(
                f"{name} must be a whole number (chrF uses char_order=6, word_order=0; chrF++ "
                f"word_order=2), not {preview(value)}."
            )
        if value < 0:
            raise ValueError(f"{name} must be 0 or more; got {whole_number_text(int(value))}.")
    char_order, word_order = int(char_order), int(word_order)  # NumPy integers would wrap when added
    if char_order + word_order > MAX_ORDERS:
        raise ValueError(
            f"char_order + word_order must be at most {MAX_ORDERS:,} (chrF uses 6 and 0, chrF++ 6 and 2; "
            f"every order is counted and averaged); got {whole_number_text(int(char_order + word_order))}."
        )
    if char_order + word_order == 0:
        raise ValueError(
            "char_order and word_order are both 0, so there is nothing to count; "
            "chrF uses char_order=6 (and chrF++ adds word_order=2)."
        )


def chrf_ngram_counts(
    text: str, char_order: int, word_order: int = 0, whitespace: bool = False
) -> tuple[Counter[str], ...]:
    """Every n-gram count chrF needs from one text, in sacreBLEU's order.

    Character orders 1..``char_order`` first, then (chrF++) word orders
    1..``word_order``.  ``text`` is already lowercased if the metric
    lowercases.

    >>> [sum(c.values()) for c in chrf_ngram_counts("the cat", 3, 2)]
    [6, 5, 4, 2, 1]
    """
    check_chrf_orders(char_order, word_order)
    line = chrf_characters(text, whitespace)
    _check_work(len(line), char_order)
    counts = [Counter(line[i : i + n] for i in range(len(line) - n + 1)) for n in range(1, char_order + 1)]
    if word_order > 0:
        words = chrf_words(text)
        counts += [word_ngram_counts(words, n) for n in range(1, word_order + 1)]
    return tuple(counts)


class ChrfProfile:
    """The n-grams of one hypothesis, order by order, counted as the corpus path compares them (no rows kept).

    The same counts as :func:`chrf_ngram_counts`, in the same orders
    (characters 1..``char_order``, then words 1..``word_order``), with other
    keys: a character n-gram of order 2 and up is a tuple of characters and
    a word n-gram a tuple of words, which name the same n-grams as
    sacreBLEU's strings (words hold no whitespace, so joining them with a
    space loses nothing), and are quicker to make.  ``lengths`` are the
    numbers of n-grams of each order.  :meth:`match` compares a reference
    text with them.

    >>> ChrfProfile("abcd", 4).match("abc")
    [(3, 4, 3), (2, 3, 2), (1, 2, 1), (0, 1, 0)]
    """

    __slots__ = ("counts", "lengths", "char_order", "word_order", "whitespace")

    def __init__(
        self, text: str, char_order: int, word_order: int = 0, whitespace: bool = False, checked: bool = False
    ) -> None:
        if not checked:  # chrf_score checks the orders once for the whole corpus
            check_chrf_orders(char_order, word_order)
        self.char_order, self.word_order, self.whitespace = char_order, word_order, whitespace
        line = chrf_characters(text, whitespace)
        _check_work(len(line), char_order)
        self.counts = [Counter(stream) for stream in _streams(line, char_order)]
        self.lengths = [max(len(line) - n + 1, 0) for n in range(1, char_order + 1)]
        if word_order > 0:
            words = chrf_words(text)
            self.counts += [Counter(stream) for stream in _streams(words, word_order)]
            self.lengths += [max(len(words) - n + 1, 0) for n in range(1, word_order + 1)]

    def match(self, reference: str) -> list[tuple[int, int, int]]:
        """Per order: (matched n-grams, hypothesis n-grams, reference n-grams) against one reference text.

        ``reference`` must be prepared as this profile's text was (the
        caller lowercases both if the metric lowercases).  matched = the sum
        over n-grams of min(count here, count in the reference).  The
        reference's n-grams are made one at a time and looked up here, and
        only those found here are counted: an n-gram the hypothesis lacks
        adds nothing, so the reference is never counted whole.  Where the
        hypothesis repeats none of this order, each n-gram found adds 1 and
        the sum is the number of distinct ones found (collected in a set);
        otherwise those found are counted, each adds 1, and only one found
        more than once is looked up here to add min(count there, count
        here) - 1 more.
        """
        if not isinstance(reference, str):
            raise TypeError(
                f"ChrfProfile.match takes the reference's text (a str), not {type(reference).__name__}; "
                "the hypothesis is the profile."
            )
        line = chrf_characters(reference, self.whitespace)
        _check_work(len(line), self.char_order)
        chars = self.char_order
        out = _matched(self.counts[:chars], self.lengths[:chars], line, chars)
        if self.word_order > 0:
            out += _matched(self.counts[chars:], self.lengths[chars:], chrf_words(reference), self.word_order)
        return out


def _streams(items: Sequence[Any], orders: int) -> list[Iterable[Any]]:
    # Orders 1..orders, each as a stream of its n-grams: order 1 the items themselves, order n >= 2 the tuples of n
    # items in a row (made by zip as they are consumed); an order longer than the items has none.
    if orders == 0:
        return []
    shifted = [items[i:] for i in range(min(orders, len(items)))]
    return [items] + [zip(*shifted[:n]) if n <= len(items) else () for n in range(2, orders + 1)]


def _matched(
    counts: Sequence[Counter[Any]], lengths: Sequence[int], items: Sequence[Any], orders: int
) -> list[tuple[int, int, int]]:
    # ChrfProfile.match for one kind (characters or words): the hypothesis's counts against the reference's items.
    out = []
    for n, (mine, hyp_len, stream) in enumerate(zip(counts, lengths, _streams(items, orders)), start=1):
        if len(mine) == hyp_len:  # the hypothesis repeats none of them (or has none): each one found adds 1
            matched = len(mine.keys() & stream) if mine else 0  # the distinct ones found, a set made in one pass
        else:  # the reference's n-grams that the hypothesis has, counted
            found = Counter(filter(mine.__contains__, stream))
            # each adds 1, and one found more than once min(count there, count here) - 1 more
            twice = list(compress(found, map((1).__lt__, found.values())))
            matched = len(found)
            if twice:
                matched += sum(map(min, map(found.__getitem__, twice), map(mine.__getitem__, twice))) - len(twice)
        out.append((matched, hyp_len, max(len(items) - n + 1, 0)))
    return out


class ChrfNgramRow(NamedTuple):
    """One distinct n-gram of the hypothesis or the reference, and how much of it matches.

    ``matched = min(hyp_count, ref_count)``: it counts toward precision
    (out of the hypothesis n-grams) and toward recall (out of the
    reference n-grams).
    """

    ngram: str
    hyp_count: int
    ref_count: int
    matched: int


class ChrfOrderCounts(NamedTuple):
    """The counts of one chrF order against one reference (or summed over a corpus).

    ``kind`` is ``"char"`` or ``"word"``.  ``matches`` is the sum over
    n-grams of min(hypothesis count, reference count); ``ref_total`` the
    number of reference n-grams; ``hyp_total`` the number of hypothesis
    n-grams AS THEY ENTER THE SCORE, and ``hyp_ngrams`` the real number.

    Quirk kept from sacreBLEU (``CHRF._get_match_statistics``): when the
    reference has no n-grams of this order, the hypothesis's n-grams are
    reported as 0 (``hyp_total == 0`` while ``hyp_ngrams > 0``), so they are
    neither matched nor counted against the precision, in the sentence and
    in every corpus sum.  ``hyp_left_out`` is how many were dropped that way.
    ``rows`` (the table behind the counts) is empty on the lean path and in
    corpus sums.
    """

    kind: str
    n: int
    matches: int
    hyp_total: int
    ref_total: int
    hyp_ngrams: int
    rows: tuple[ChrfNgramRow, ...] = ()

    @property
    def hyp_left_out(self) -> int:
        """Hypothesis n-grams sacreBLEU does not count because the reference had none of this order."""
        return self.hyp_ngrams - self.hyp_total

    @property
    def label(self) -> str:
        """``"char 3-grams"``, ``"word 1-grams"``."""
        return f"{self.kind} {self.n}-grams"


def _chrf_rows(hyp: Counter[str], ref: Counter[str]) -> tuple[ChrfNgramRow, ...]:
    # Hypothesis n-grams in order of first appearance, then those only in the reference.
    rows = [ChrfNgramRow(g, c, ref.get(g, 0), min(c, ref.get(g, 0))) for g, c in hyp.items()]
    rows += [ChrfNgramRow(g, 0, c, 0) for g, c in ref.items() if g not in hyp]
    return tuple(rows)


def chrf_order_counts(
    hypothesis: Sequence[Counter[str]], reference: Sequence[Counter[str]], char_order: int, rows: bool = False
) -> tuple[ChrfOrderCounts, ...]:
    """Match the n-gram counts of a hypothesis and ONE reference, order by order.

    Both sequences come from :func:`chrf_ngram_counts` with the same orders;
    the first ``char_order`` are character orders, the rest word orders.
    With ``rows`` each order keeps its n-gram table (for a report).

    >>> h = chrf_ngram_counts("abcd", 4)
    >>> [(o.matches, o.hyp_total, o.ref_total, o.hyp_ngrams)
    ...  for o in chrf_order_counts(h, chrf_ngram_counts("abc", 4), 4)]
    [(3, 4, 3, 4), (2, 3, 2, 3), (1, 2, 1, 2), (0, 0, 0, 1)]
    """
    if (
        len(hypothesis) != len(reference)
        or isinstance(char_order, bool)
        or not isinstance(char_order, numbers.Integral)
        or not 0 <= char_order <= len(hypothesis)
    ):
        raise ValueError(
            "chrf_order_counts needs the hypothesis's and the reference's counts from chrf_ngram_counts "
            "with the same orders, and char_order at most their number."
        )
    out = []
    for i, (hyp, ref) in enumerate(zip(hypothesis, reference)):
        hyp_ngrams = matches = 0
        for g, c in hyp.items():
            hyp_ngrams += c
            m = ref.get(g)
            if m:
                matches += c if c < m else m
        ref_total = sum(ref.values())
        kind, n = ("char", i + 1) if i < char_order else ("word", i + 1 - char_order)
        out.append(
            ChrfOrderCounts(
                kind,
                n,
                matches,
                hyp_ngrams if ref_total else 0,
                ref_total,
                hyp_ngrams,
                _chrf_rows(hyp, ref) if rows else (),
            )
        )
    return tuple(out)


def chrf_sums(
    kinds: Sequence[tuple[str, int]], segments: Iterable[Sequence[tuple[int, int, int, int]]]
) -> tuple[ChrfOrderCounts, ...]:
    """Add up the counts of already matched segments, order by order (what corpus chrF is computed from).

    Each segment gives, per order, (matches, hyp_total, ref_total,
    hyp_ngrams) against the reference chosen for it; the sums keep each
    segment's ``hyp_total`` (sacreBLEU's quirk above applies per segment,
    before summing).  ``kinds`` names the orders (:func:`order_kinds`); a
    segment counted with other orders is refused.

    >>> chrf_sums([("char", 1)], [[(2, 3, 4, 3)], [(1, 1, 2, 1)]])
    (ChrfOrderCounts(kind='char', n=1, matches=3, hyp_total=4, ref_total=6, hyp_ngrams=4, rows=()),)
    """
    segments = list(segments)
    if any(len(segment) != len(kinds) for segment in segments):
        raise ValueError(f"chrf_sums needs every segment's counts for the same {len(kinds)} orders as kinds.")
    sums = []
    for (kind, n), column in zip(kinds, zip(*segments)):  # order by order, a column of the segments
        matches, hyp_total, ref_total, hyp_ngrams = map(sum, zip(*column))
        sums.append(ChrfOrderCounts(kind, n, matches, hyp_total, ref_total, hyp_ngrams))
    return tuple(sums)


def order_kinds(char_order: int, word_order: int) -> list[tuple[str, int]]:
    """chrF's orders in sacreBLEU's order, each as (kind, n): characters 1..``char_order``, then words.

    >>> order_kinds(2, 1)
    [('char', 1), ('char', 2), ('word', 1)]
    """
    return [("char", n) for n in range(1, char_order + 1)] + [("word", n) for n in range(1, word_order + 1)]
