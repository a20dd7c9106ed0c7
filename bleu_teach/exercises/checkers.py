"""Answer checkers for "Check yourself" exercises: they diagnose, not just mark.

Each checker computes the right answer with the core, and the answer each
classic misconception produces on the same question, and returns a
:class:`Feedback` that names the misconception an answer matches.  The
feedback also carries every misconception it offered with its value and the
question's rounding rule, so a test can prove, for every exercise in every
lesson, that the misconceptions give answers distinct from the right one and
from each other (a misconception that gives the right number cannot be
diagnosed, and the exercise needs another example).

Numbers may be typed as decimals or fractions (``0.667``, ``"2/3"``,
``Fraction(2, 3)``, ``"0,667"``); a decimal is right when it rounds to the
right value rounded to the question's number of decimal places, or is at
least as close to the right value as that (an exact fraction is right).
Choice questions take a letter (or an option's own text, such as "the
same").  :class:`Feedback`, :class:`Misconception` and the comparison itself
(:func:`~bleu_teach.exercises.feedback.judge`) are in
:mod:`bleu_teach.exercises.feedback`; the choice checkers are in :mod:`bleu_teach.exercises.choices`.
This module checks the steps of a score (n-gram counts, p_n, BP); the whole
scores (sentence BLEU, corpus BLEU, a segment's MQM score) are checked in
:mod:`bleu_teach.exercises.score_checkers`.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from bleu_teach.bleu.arithmetic import brevity_penalty
from bleu_teach.bleu.counting import closest_ref_length, order_statistics
from bleu_teach.bleu.nltk_api import modified_precision, plain_precision
from bleu_teach.exercises.choices import check_choice, check_higher
from bleu_teach.exercises.feedback import Feedback, Misconception, judge
from bleu_teach.inputs.validation import check_order, check_references, check_tokens

__all__ = [
    "Feedback",
    "Misconception",
    "check_ngram_count",
    "check_modified_precision",
    "check_brevity_penalty",
    "check_choice",
    "check_higher",
]


def check_ngram_count(answer: Any, tokens: Sequence[Hashable], n: int) -> Feedback:
    """Check an answer for the number of n-grams in a token list (k tokens give k - n + 1).

    >>> check_ngram_count(6, "the cat sat on the mat".split(), 2).message[:24]
    'you counted the tokens, '
    """
    hyp = check_tokens(tokens, "tokens")
    n = check_order(n)
    k = len(hyp)
    order = order_statistics((hyp,), hyp, n)
    right = order.ngrams
    mistakes = [
        Misconception(
            "tokens", k, f"you counted the tokens, not the {n}-grams: a sentence of k tokens has k - n + 1 n-grams."
        ),
        Misconception(
            "off_by_one",
            max(0, k - n),
            "off by one: the last n-gram starts at position k - n + 1, so there are k - n + 1 of them.",
        ),
    ]
    if len(order.rows) != right:
        mistakes.append(
            Misconception(
                "distinct",
                len(order.rows),
                f"you counted each distinct {n}-gram once; repeated {n}-grams count every time they occur.",
            )
        )
    return judge(
        answer,
        right,
        f"{k} tokens give {k} - {n} + 1 = {right} {n}-grams (one starting at each position that leaves room "
        f"for {n} tokens)",
        mistakes,
        0,
        hint=f"count the positions where a run of {n} tokens can start",
    )


def check_modified_precision(
    answer: Any,
    references: Sequence[Sequence[Hashable]],
    hypothesis: Sequence[Hashable],
    n: int = 1,
    decimals: int = 3,
) -> Feedback:
    """Check an answer for p_n, recognising the classic mistakes.

    Offered misconceptions: not clipping, or counting each matching n-gram
    once; with two or more references, adding their counts, or clipping
    against one reference alone (each reference); dividing by the number of
    different n-grams, or by a reference's n-gram count (each reference)
    instead of the hypothesis's; ignoring case, where capitals change the answer.

    >>> refs = [['the', 'cat', 'is', 'on', 'the', 'mat']]
    >>> (check_modified_precision("5/5", refs, ['the'] * 5).recognised,
    ...  check_modified_precision("1/5", refs, ['the'] * 5).recognised)
    ('no_clipping', 'clipped_to_one')
    """
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    n = check_order(n)
    p_n = modified_precision(refs, hyp, n)
    clipped, total = p_n.numerator, p_n.denominator
    rows = order_statistics(refs, hyp, n).rows
    mistakes = [
        Misconception(
            "no_clipping",
            float(plain_precision(refs, hyp, n)),
            "you did not clip: each hypothesis n-gram counts at most as often as it appears in a single reference.",
        ),
        Misconception(
            "clipped_to_one",
            sum(min(row.hyp_count, 1) for row in rows if max(row.ref_counts) > 0) / total,
            "you counted each matching n-gram once; clipping limits a repeated n-gram to its largest count in one "
            "reference, which can be more than 1.",
        ),
    ]
    if all(isinstance(t, str) for t in (*hyp, *(t for r in refs for t in r))):
        folded = modified_precision([[str(t).lower() for t in r] for r in refs], [str(t).lower() for t in hyp], n)
        if folded != p_n:  # capital letters change the answer here
            mistakes.append(
                Misconception(
                    "lowercased",
                    float(folded),
                    "you treated capital and small letters as the same; BLEU compares "
                    "tokens exactly, so “The” and “the” are different tokens (unless both sides are lowercased first).",
                )
            )
    if len(refs) > 1:
        summed = sum(min(row.hyp_count, sum(row.ref_counts)) for row in rows)
        mistakes.append(
            Misconception(
                "summed_references",
                summed / total,
                "you added the counts over the references; BLEU clips by the largest count in any ONE reference.",
            )
        )
        # Clipping against one reference only, for each reference (equal answers offered together).
        alone: dict[int, list[int]] = {}
        for k in range(len(refs)):
            alone.setdefault(sum(min(row.hyp_count, row.ref_counts[k]) for row in rows), []).append(k + 1)
        for matched, which in alone.items():
            if matched != clipped:
                mistakes.append(
                    Misconception(
                        "one_reference",
                        matched / total,
                        f"you clipped against reference {' or '.join(map(str, which))} alone; each n-gram's limit is "
                        "its largest count in any of the references, so every reference can add matches.",
                    )
                )
    if all(isinstance(t, str) for t in (*hyp, *(t for r in refs for t in r))):
        characters = [list(" ".join(map(str, r))) for r in refs]
        mistakes.append(
            Misconception(
                "strings",
                float(modified_precision(characters, list(" ".join(map(str, hyp))), n)),
                "that is the precision of the characters: given strings instead of token lists, NLTK counts each "
                "character (spaces too) as a token. Split the sentences into tokens first.",
            )
        )
    if 0 < len(rows) != total:
        mistakes.append(
            Misconception(
                "distinct_denominator",
                clipped / len(rows),
                f"you divided by the number of different {n}-grams (each counted once); modified precision divides "
                f"by the number of {n}-grams in the hypothesis, counting each repeat.",
            )
        )
        mistakes.append(
            Misconception(
                "types",
                sum(1 for row in rows if row.max_ref_count > 0) / len(rows),
                f"you counted each different {n}-gram once, in both the numerator and the denominator (the {n}-gram "
                f"types); modified precision counts every {n}-gram the hypothesis holds, and each repeat that "
                "matches, up to its largest count in one reference.",
            )
        )
    collapsed = [t for i, t in enumerate(hyp) if i == 0 or t != hyp[i - 1]]
    if len(collapsed) != len(hyp) and len(collapsed) >= n:
        mistakes.append(
            Misconception(
                "repeats_removed",
                float(modified_precision(refs, collapsed, n)),
                "you removed the repeated words before counting; BLEU scores the output as the system wrote it: every "
                f"repeat is a {n}-gram in the denominator, and clipping limits how many of them count as matches.",
            )
        )
    # Dividing by a reference's n-gram count: the learner may have used any reference, so offer each one
    # (references with the same count give the same wrong answer, and are offered together).
    by_count: dict[int, list[int]] = {}
    for k, ref in enumerate(refs, 1):
        if len(ref) >= n:
            by_count.setdefault(len(ref) - n + 1, []).append(k)
    for ref_total, which in by_count.items():
        where = "the reference" if len(refs) == 1 else f"reference {' or '.join(map(str, which))}"
        mistakes.append(
            Misconception(
                "reference_denominator",
                clipped / ref_total,
                f"you divided by the number of {n}-grams in {where}; modified precision divides by the number in "
                "the hypothesis: that is what makes it a precision.",
            )
        )
    return judge(
        answer,
        clipped / total,
        f"p_{n} = clipped matches / hypothesis {n}-grams = {clipped}/{total}",
        mistakes,
        decimals,
        hint=f"count each {n}-gram's matches, clipped by its largest count in one "
        f"reference, and divide by the hypothesis's {n}-grams",
        at_most=(1.0, "a precision never is: the clipped matches cannot outnumber the hypothesis's n-grams"),
    )


def _length(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a whole number of tokens, such as 6, not {value!r}.")
    if value < 1:
        raise ValueError(f"{name} must be at least 1 token, not {value!r}.")
    return int(value)


#: The rules a learner may follow instead of BLEU's closest reference length, in the order they are named.
LENGTH_RULES = ("shortest", "longest", "first")


def length_mistakes(
    lens: Sequence[int], r: int, hyp_len: int, score: Callable[[float], float], no_penalty: str = ""
) -> list[Misconception]:
    """The wrong reference lengths a learner may use for BP: every other reference, and the mean length.

    Each length is named by the rules that pick it (the shortest, the
    longest, the first reference).  ``score`` turns the brevity penalty that
    length gives into the answer it leads to (BP itself, or the score with
    that BP).  A length shorter than the hypothesis gives BP = 1, the same
    answer as leaving the penalty out: with ``no_penalty`` (that mistake's
    own message) the two are offered as one misconception, named
    ``no_penalty``, whose message names both.
    """
    found = []
    closest = "BLEU uses the reference length closest to the hypothesis length (on a tie, the shorter)"
    if len(set(lens)) > 1 and min(lens) == r:
        # The shortest reference (mteval's rule before version 13) is the closest here: a learner who uses it gets
        # the right answer for a wrong reason. Offered with the right answer's value, so that a question or variant
        # where the two rules agree is seen to be one that cannot tell them apart.
        found.append(
            Misconception(
                "shortest_reference",
                score(float(brevity_penalty(r, hyp_len))),
                f"you used the shortest reference (r = {r}); {closest}.",
            )
        )
    shorter: list[str] = []  # the lengths below c: each gives BP = 1, the answer without the penalty
    folded: list[str] = []  # their names
    for length in sorted(set(lens) - {r}, key=list(lens).index):
        rules = [rule for rule, pick in zip(LENGTH_RULES, (min(lens), max(lens), lens[0])) if pick == length]
        name = f"{rules[0]}_reference" if rules else "other_reference"
        what = f"the {' and '.join(rules)} reference" if rules else f"a reference of {length} tokens"
        if no_penalty and length < hyp_len:
            shorter.append(f"{what} (r = {length})")
            folded.append(name)
            continue
        found.append(
            Misconception(
                name, score(float(brevity_penalty(length, hyp_len))), f"you used {what} (r = {length}); {closest}."
            )
        )
    mean = sum(lens) / len(lens)
    averaged = (
        f"you used the mean reference length ({mean:g}); BLEU does not average the lengths, it takes the one "
        "closest to the hypothesis length."
    )
    if no_penalty and (shorter or (len(lens) > 1 and mean < hyp_len)):
        # BP = 1 from forgetting the penalty, from each length below c and from a mean below c: one answer, every
        # way to it named once.
        said = [no_penalty]
        if shorter:
            said.append(f"Or you used {' or '.join(shorter)}, shorter than the hypothesis; {closest}.")
        if len(lens) > 1 and mean < hyp_len:
            said.append(f"Or {averaged}")
            folded.append("mean_length")
        found.append(Misconception("no_penalty", score(1.0), " ".join(said), also=tuple(folded)))
    if len(lens) > 1 and not (no_penalty and mean < hyp_len):
        found.append(
            Misconception("mean_length", score(1.0 if hyp_len > mean else math.exp(1 - mean / hyp_len)), averaged)
        )
    return found


def check_brevity_penalty(answer: Any, ref_lens: Sequence[int], hyp_len: int, decimals: int = 3) -> Feedback:
    """Check an answer for BP given the reference lengths and the hypothesis length.

    Offered misconceptions: every reference length other than the closest
    (named by its rule: the shortest, the longest, the first, or another),
    the mean reference length, and, when c <= r, BP = 1 (which a reference
    shorter than the hypothesis gives too) and r and c swapped.

    >>> check_brevity_penalty(1, [8, 2, 12], 6).recognised  # the reference of 2 tokens gives BP = 1 too
    'no_penalty'
    """
    if isinstance(ref_lens, (str, bytes)) or not isinstance(ref_lens, Sequence) or not ref_lens:
        raise ValueError("ref_lens must list at least one reference length, e.g. [8, 6, 12].")
    lens = [_length(r, f"ref_lens[{i}]") for i, r in enumerate(ref_lens)]
    hyp_len = _length(hyp_len, "hyp_len")
    r = closest_ref_length(lens, hyp_len)
    right = float(brevity_penalty(r, hyp_len))
    no_penalty = (
        "the hypothesis is not longer than the closest reference, so the brevity penalty applies (BP < 1)."
        if hyp_len <= r
        else ""
    )
    mistakes = length_mistakes(lens, r, hyp_len, lambda wrong_bp: wrong_bp, no_penalty)
    if no_penalty and not any(m.name == "no_penalty" for m in mistakes):
        mistakes.append(Misconception("no_penalty", 1.0, no_penalty))
    if hyp_len <= r:
        mistakes.append(
            Misconception(
                "swapped",
                math.exp(1 - hyp_len / r),
                "you swapped r and c: BP = exp(1 - r/c), reference length over hypothesis length.",
            )
        )
    if hyp_len < r:
        mistakes.append(
            Misconception(
                "difference",
                math.exp(hyp_len - r),
                "you used the difference of the lengths, exp(-(r - c)); BP = exp(1 - r/c) "
                "uses their ratio, so a token missing from a short sentence costs more than "
                "one missing from a long one.",
            )
        )
    how = "1 because c > r" if hyp_len > r else f"exp(1 - {r}/{hyp_len})"
    return judge(
        answer,
        right,
        f"use the closest reference length r = {r}: BP = {how}",
        mistakes,
        decimals,
        hint="find the reference length closest to the hypothesis length, then BP = 1 if c > r, else exp(1 - r/c)",
        fraction=False,
        times_100="a percentage",
        at_most=(1.0, "BP never is: it is 1 when c > r and exp(1 - r/c), below 1, otherwise"),
    )
