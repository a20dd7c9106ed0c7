"""DELIBERATELY WRONG BLEU code: the mistakes found in tutorials and in the wild.

Every function in this module is wrong on purpose, so that lesson 07 can
show each mistake next to the right computation on the same example.  Do
not use them to score anything.  Each docstring says what the mistake is,
when it changes the number and what the correct call is.

The correct counterparts are the core's :func:`~bleu_teach.sentence_bleu`,
:func:`~bleu_teach.corpus_bleu`, :func:`~bleu_teach.modified_precision` and
:func:`~bleu_teach.brevity_penalty`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from bleu_teach.bleu.counting import order_statistics
from bleu_teach.bleu.nltk_api import (
    brevity_penalty,
    closest_ref_length,
    corpus_bleu,
    modified_precision,
    sentence_bleu,
)
from bleu_teach.bleu.smoothing import SmoothingFunction
from bleu_teach.inputs.validation import (
    DEFAULT_WEIGHTS,
    check_length,
    check_order,
    check_references,
    check_tokens,
    check_weight_tuple,
)
from bleu_teach.views.formatting import format_number
from bleu_teach.views.tables import Table

__all__ = [
    "MISTAKES",
    "Mistake",
    "bleu_on_strings",
    "bleu_skipping_zero_precisions",
    "inverted_brevity_penalty",
    "bleu_with_inverted_brevity_penalty",
    "precision_over_reference_ngrams",
    "precision_summing_references",
    "mean_sentence_bleu",
    "unsmoothed_short_sentence_bleu",
    "demonstrate",
    "mistakes_table",
]


def _quiet_bleu(
    references: Sequence[Sequence[Hashable]],
    hypothesis: Sequence[Hashable],
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., list[float]] | None = None,
) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the zero-precision warning is part of what these examples show
        return _one(sentence_bleu(references, hypothesis, weights, smoothing_function))


def _one(score: float | list[float]) -> float:
    if isinstance(score, list):
        raise TypeError("These examples take one weight tuple, such as (0.25, 0.25, 0.25, 0.25).")
    return float(score)


def bleu_on_strings(references: Sequence[str], hypothesis: str, weights: Sequence[float] = DEFAULT_WEIGHTS) -> float:
    """WRONG: pass strings where token lists belong; every character becomes a "word".

    NLTK's ``sentence_bleu`` accepts strings silently and iterates over their
    characters, so it returns a character n-gram score that looks plausible.
    This function reproduces that number (bleu_teach's own ``sentence_bleu``
    refuses strings).  Right: tokenize first, ``sentence_bleu([ref.split()],
    hyp.split())``.

    >>> from nltk.translate.bleu_score import sentence_bleu as nltk_bleu
    >>> refs, hyp = ["the cat sat"], "the cat sat down"
    >>> bleu_on_strings(refs, hyp, (0.5, 0.5)) == nltk_bleu(refs, hyp, (0.5, 0.5))
    True
    """
    if (
        isinstance(references, str)
        or not isinstance(references, Sequence)
        or not all(isinstance(r, str) for r in references)
    ):
        raise TypeError(
            f"references must be a list of reference strings (this mistake takes strings), not "
            f"{type(references).__name__}."
        )
    if not isinstance(hypothesis, str):
        raise TypeError(f"hypothesis must be one string (this mistake takes strings), not {type(hypothesis).__name__}.")
    return _quiet_bleu([list(r) for r in references], list(hypothesis), weights)


def bleu_skipping_zero_precisions(
    references: Sequence[Sequence[Hashable]], hypothesis: Sequence[Hashable], weights: Sequence[float] = DEFAULT_WEIGHTS
) -> float:
    """WRONG: leave zero precisions out of the geometric mean ("log 0 crashes, so skip it").

    A zero precision should make the unsmoothed score zero (or, with
    smoothing, small).  Skipping its log term instead treats it as if it
    were p_n = 1, the best possible value.  Same number as the right one
    when no precision is zero.  Right: ``sentence_bleu`` with a smoothing
    function if sentence-level scores are needed.

    p_1 = 4/6, p_2 = 1/5, p_3 = p_4 = 0 and BP = 1 below; skipping the zeros
    gives (4/6 * 1/5) ** (1/4) instead of 0:

    >>> refs = [["the", "cat", "is", "on", "the", "mat"]]
    >>> bleu_skipping_zero_precisions(refs, ["the", "cat", "sat", "on", "a", "mat"]) == (4/6 * 1/5) ** 0.25
    True
    """
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    weight = check_weight_tuple(weights)
    total = 0.0
    for n, w in enumerate(weight, start=1):
        p_n = modified_precision(refs, hyp, n)
        if p_n.numerator > 0:
            total += w * math.log(p_n.numerator / p_n.denominator)
    return float(brevity_penalty(closest_ref_length(refs, len(hyp)), len(hyp))) * math.exp(total)


def inverted_brevity_penalty(closest_ref_len: int, hyp_len: int) -> float:
    """WRONG: the brevity penalty with its condition turned round.

    Right (Papineni et al. 2002, Section 2.2.2): BP = 1 if c > r, else
    exp(1 - r/c).  Inverted: BP = 1 if c < r, else exp(1 - r/c).  Short
    hypotheses then go unpunished and long ones get a bonus above 1.  Same
    number as the right one only when c = r.

    >>> inverted_brevity_penalty(10, 5), round(inverted_brevity_penalty(10, 20), 4)
    (1.0, 1.6487)
    """
    r = check_length(closest_ref_len, "closest_ref_len")
    c = check_length(hyp_len, "hyp_len")
    if c == 0:
        raise ValueError("hyp_len must be positive for this example.")
    return 1.0 if c < r else math.exp(1 - r / c)


def bleu_with_inverted_brevity_penalty(
    references: Sequence[Sequence[Hashable]],
    hypothesis: Sequence[Hashable],
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., list[float]] | None = None,
) -> float:
    """WRONG: sentence BLEU computed with :func:`inverted_brevity_penalty`.

    >>> refs = [["the", "cat", "is", "on", "the", "mat"]]
    >>> bleu_with_inverted_brevity_penalty(refs, ["the", "cat"], (1.0,))
    1.0
    """
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    right = _quiet_bleu(refs, hyp, weights, smoothing_function)
    r = closest_ref_length(refs, len(hyp))
    right_bp = float(brevity_penalty(r, len(hyp)))
    if right == 0.0 or right_bp == 0.0:
        return right
    wrong_bp = inverted_brevity_penalty(r, len(hyp))
    return right / right_bp * wrong_bp


def precision_over_reference_ngrams(
    references: Sequence[Sequence[Hashable]], hypothesis: Sequence[Hashable], n: int = 1
) -> Fraction:
    """WRONG: divide the clipped matches by the number of n-grams in the (first) reference.

    That is a recall, not a precision: every extra matched word raises it
    and an unmatched one costs nothing, so it can only grow as the
    hypothesis gets longer.  Same number as the right one only when the
    hypothesis and the reference have the same length (or nothing
    matches).  Right:
    ``modified_precision(references, hypothesis, n)``, which divides by the
    hypothesis's n-gram count.

    >>> precision_over_reference_ngrams([["a", "b"]], ["a", "b", "a", "b"], 1)
    Fraction(1, 1)
    """
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    n = check_order(n)
    clipped = modified_precision(refs, hyp, n).numerator
    ref_total = max(0, len(refs[0]) - n + 1)
    if ref_total == 0:
        raise ValueError(f"The first reference has no {n}-grams; this example needs at least {n} tokens in it.")
    return Fraction(clipped, ref_total)


def precision_summing_references(
    references: Sequence[Sequence[Hashable]], hypothesis: Sequence[Hashable], n: int = 1
) -> Fraction:
    """WRONG: clip each n-gram count by its count SUMMED over the references.

    Right (Section 2.1): clip by the MAXIMUM count in any single reference.
    With several references the sum lets "the the the" collect a match from
    every reference that has one "the".  Same number as the right one with
    one reference.

    >>> refs = [["the", "cat"], ["the", "dog"]]
    >>> precision_summing_references(refs, ["the", "the"], 1)
    Fraction(1, 1)
    """
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    n = check_order(n)
    rows = order_statistics(refs, hyp, n).rows
    clipped = sum(min(row.hyp_count, sum(row.ref_counts)) for row in rows)
    total = sum(row.hyp_count for row in rows)
    if total == 0:
        raise ValueError(f"The hypothesis has no {n}-grams; give it at least {n} tokens.")
    return Fraction(clipped, total)


def mean_sentence_bleu(
    list_of_references: Sequence[Sequence[Sequence[Hashable]]],
    hypotheses: Sequence[Sequence[Hashable]],
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing_function: Callable[..., list[float]] | None = None,
) -> float:
    """WRONG: average the sentence BLEU scores and call it corpus BLEU.

    Corpus BLEU (Section 2.1.1) adds up clipped counts, n-gram counts and
    lengths over the whole corpus and combines them once.  The mean of
    sentence scores weighs a two-word sentence like a forty-word one, and
    every short sentence's zero precision drags it down.  Same number as the
    right one for a one-sentence corpus.  Right: ``corpus_bleu``.

    >>> refs = [[["a", "b", "c"]], [["d", "e", "f"]]]
    >>> round(mean_sentence_bleu(refs, [["a", "b", "c"], ["d", "x", "f"]], (0.5, 0.5)), 4)
    0.5
    """
    if len(list_of_references) != len(hypotheses):
        raise ValueError("Give one list of references per hypothesis.")
    if not hypotheses:
        raise ValueError("The corpus is empty; give at least one hypothesis.")
    scores = [_quiet_bleu(refs, hyp, weights, smoothing_function) for refs, hyp in zip(list_of_references, hypotheses)]
    return math.fsum(scores) / len(scores)


def unsmoothed_short_sentence_bleu(references: Sequence[Sequence[Hashable]], hypothesis: Sequence[Hashable]) -> float:
    """WRONG (as a habit): sentence BLEU-4 without smoothing on a sentence shorter than four tokens.

    A hypothesis of three tokens has no 4-gram, so p_4 is 0/0, undefined;
    NLTK counts it as 0/1, a zero precision, and the score is (almost) zero
    even for a perfect translation: NLTK returns a tiny number such as 1e-77
    and a warning that is easy to miss.  Right: smooth
    (``SmoothingFunction().method1`` or ``method4``), leave out the orders
    the sentence is too short for (effective order: sacreBLEU's
    ``sentence_bleu`` does it by default, NLTK's ``auto_reweigh=True`` for
    the default weights), or report corpus BLEU; and say which.

    >>> unsmoothed_short_sentence_bleu([["thank", "you", "!"]], ["thank", "you", "!"]) < 1e-10
    True
    """
    return _quiet_bleu(references, hypothesis)


@dataclass(frozen=True)
class Mistake:
    """One documented mistake, with an example input and its wrong and right numbers."""

    name: str
    what: str
    fix: str
    example: str
    wrong: float
    right: float


def _examples() -> list[Mistake]:
    smooth = SmoothingFunction()
    cat_refs = [["the", "cat", "is", "on", "the", "mat"], ["there", "is", "a", "cat", "on", "the", "mat"]]
    the7 = ["the"] * 7
    short_hyp = ["the", "cat", "sat", "on", "a", "mat"]
    long_hyp = "the cat is on the mat and it is asleep on the mat".split()
    string_refs, string_hyp = ["the cat is on the mat"], "the mat is on the cat"
    corpus_refs = [[["the", "cat", "is", "on", "the", "mat"]], [["good", "morning", "everyone"]]]
    corpus_hyps = [["the", "cat", "is", "on", "the", "mat"], ["good", "morning", "all"]]
    thanks = ["thank", "you", "!"]

    return [
        Mistake(
            "bleu_on_strings",
            "strings passed instead of token lists (characters scored)",
            "tokenize first: sentence_bleu([ref.split()], hyp.split())",
            f"ref {string_refs[0]!r}, hyp {string_hyp!r}, BLEU-4",
            bleu_on_strings(string_refs, string_hyp),
            _quiet_bleu([string_refs[0].split()], string_hyp.split()),
        ),
        Mistake(
            "bleu_skipping_zero_precisions",
            "zero precisions left out of the geometric mean",
            "keep every order; smooth if a sentence-level score is needed",
            "ref 'the cat is on the mat' (+1 ref), hyp 'the cat sat on a mat', BLEU-4 (right: method1)",
            bleu_skipping_zero_precisions(cat_refs, short_hyp),
            _quiet_bleu(cat_refs, short_hyp, smoothing_function=smooth.method1),
        ),
        Mistake(
            "bleu_with_inverted_brevity_penalty",
            "BP condition inverted: no penalty when short, a bonus above 1 when long",
            "BP = 1 if c > r else exp(1 - r/c)",
            "2 refs (6 and 7 tokens), a 13-token hyp, BLEU-4 (both: method1)",
            bleu_with_inverted_brevity_penalty(cat_refs, long_hyp, smoothing_function=smooth.method1),
            _quiet_bleu(cat_refs, long_hyp, smoothing_function=smooth.method1),
        ),
        Mistake(
            "precision_over_reference_ngrams",
            "divided by the reference's n-gram count (a recall)",
            "divide by the hypothesis's n-gram count: modified_precision",
            "2 refs, a 13-token hyp, p_1",
            float(precision_over_reference_ngrams(cat_refs, long_hyp, 1)),
            float(modified_precision(cat_refs, long_hyp, 1)),
        ),
        Mistake(
            "precision_summing_references",
            "reference counts summed instead of the maximum",
            "clip by the largest count in any one reference",
            "2 refs, hyp 'the the the the the the the', p_1",
            float(precision_summing_references(cat_refs, the7, 1)),
            float(modified_precision(cat_refs, the7, 1)),
        ),
        Mistake(
            "mean_sentence_bleu",
            "mean of sentence BLEU reported as corpus BLEU",
            "corpus_bleu pools the counts of all sentences",
            "2 sentences (a perfect 6-token one, a 3-token one), BLEU-4 (both: method1)",
            mean_sentence_bleu(corpus_refs, corpus_hyps, smoothing_function=smooth.method1),
            _one(corpus_bleu(corpus_refs, corpus_hyps, smoothing_function=smooth.method1)),
        ),
        Mistake(
            "unsmoothed_short_sentence_bleu",
            "BLEU-4 without smoothing on a 3-token sentence",
            "smooth (e.g. method4), use effective order, or score the corpus; say which",
            "ref = hyp = 'thank you !', BLEU-4 (right here: method4; effective order is another)",
            unsmoothed_short_sentence_bleu([thanks], thanks),
            _quiet_bleu([thanks], thanks, smoothing_function=smooth.method4),
        ),
    ]


#: Names of the mistakes, in the order lesson 07 shows them.
MISTAKES: tuple[str, ...] = tuple(m.name for m in _examples())


def demonstrate(name: str) -> Mistake:
    """The worked example of one mistake, with both numbers computed now.

    Seven "the" against two references holding two and one "the":

    >>> m = demonstrate("precision_summing_references")
    >>> m.wrong == 3 / 7, m.right == 2 / 7
    (True, True)
    """
    for mistake in _examples():
        if mistake.name == name:
            return mistake
    raise ValueError(f"Unknown mistake {name!r}; choose one of {', '.join(MISTAKES)}.")


def mistakes_table(names: Sequence[str] | None = None) -> Table:
    """Wrong against right for each mistake, on its example."""
    chosen = list(MISTAKES if names is None else names)
    rows = []
    for name in chosen:
        m = demonstrate(name)
        rows.append([m.name, m.what, m.example, format_number(m.wrong), format_number(m.right), m.fix])
    return Table(["function", "the mistake", "example", "wrong", "right", "the fix"], rows)
