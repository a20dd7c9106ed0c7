"""Answer checkers for "Check yourself" exercises.

Each checker computes the right answer with the core, and also the answers
that the classic misconceptions produce, so that a wrong answer gets feedback
about the likely mistake rather than just "wrong".  Answers may be fractions
(``Fraction(2, 7)`` or the string ``"2/7"``) or decimals (compared to 3
decimal places).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from bleu_teach.checks import check_order, check_references, check_tokens
from bleu_teach.core import modified_precision, plain_precision
from bleu_teach.render import feedback_html, feedback_text
from bleu_teach.scoring import brevity_penalty_value
from bleu_teach.statistics import closest_length, sentence_statistics
from bleu_teach.explain import explain

__all__ = ["Feedback", "check_ngram_count", "check_modified_precision", "check_brevity_penalty", "check_bleu"]

TOLERANCE = 5e-4  # answers are typed to 3 decimal places


@dataclass(frozen=True, repr=False)
class Feedback:
    """The verdict on one answer, shown as text or HTML."""

    correct: bool | None
    message: str

    def __str__(self) -> str:
        return feedback_text(self.correct, self.message)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        return feedback_html(self.correct, self.message)


def _as_number(answer: Any) -> float:
    if isinstance(answer, str):
        text = answer.strip()
        try:
            return float(Fraction(text))
        except (ValueError, ZeroDivisionError):
            raise ValueError(f"Write the answer as a number or a fraction such as 2/7, not {answer!r}.") from None
    if isinstance(answer, bool) or not isinstance(answer, (int, float, Fraction)):
        raise TypeError(f"Write the answer as a number or a fraction such as 2/7, not {answer!r}.")
    return float(answer)


def _same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=0.0, abs_tol=TOLERANCE)


def _judge(answer: Any, right: float, explanation: str, mistakes: Sequence[tuple[float, str]]) -> Feedback:
    if answer is None or answer is Ellipsis:
        return Feedback(None, "replace None with your answer and run the cell again.")
    value = _as_number(answer)
    if _same(value, right):
        return Feedback(True, explanation)
    for wrong, why in mistakes:
        if not _same(wrong, right) and _same(value, wrong):
            return Feedback(False, why)
    return Feedback(False, f"that is not it. Hint: {explanation.split(':')[0]}.")


def check_ngram_count(answer: Any, tokens: Sequence[Hashable], n: int) -> Feedback:
    """Check an answer for the number of n-grams in a token list (k tokens give k - n + 1).

    >>> check_ngram_count(6, "the cat sat on the mat".split(), 2).message[:24]
    'you counted the tokens, '
    """
    hyp = check_tokens(tokens, "tokens")
    n = check_order(n)
    k = len(hyp)
    right = max(0, k - n + 1)
    distinct = len(sentence_statistics((hyp,), hyp, n).orders[n - 1].rows)
    return _judge(
        answer,
        right,
        f"{k} tokens give {k} - {n} + 1 = {right} {n}-grams (one starting at each position that leaves room for {n} tokens)",
        [
            (k, f"you counted the tokens, not the {n}-grams: a sentence of k tokens has k - n + 1 n-grams."),
            (max(0, k - n), "off by one: the last n-gram starts at position k - n + 1, so there are k - n + 1 of them."),
            (distinct, f"you counted each distinct {n}-gram once; repeated {n}-grams count every time they occur."),
        ],
    )


def check_modified_precision(
    answer: Any, references: Sequence[Sequence[Hashable]], hypothesis: Sequence[Hashable], n: int = 1
) -> Feedback:
    """Check an answer for p_n, spotting the classic mistakes.

    >>> refs = [['the', 'cat', 'is', 'on', 'the', 'mat'], ['there', 'is', 'a', 'cat', 'on', 'the', 'mat']]
    >>> check_modified_precision("7/7", refs, ['the'] * 7).message[:17]
    'you did not clip:'
    """
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    n = check_order(n)
    p_n = modified_precision(refs, hyp, n)
    clipped, total = p_n.numerator, p_n.denominator
    unclipped = plain_precision(refs, hyp, n).numerator
    # The deliberately wrong variants: counts added over references, and the
    # first reference's n-gram count as the denominator.
    rows = sentence_statistics(refs, hyp, n).orders[n - 1].rows
    summed = sum(min(row.hyp_count, sum(row.ref_counts)) for row in rows)
    ref_total = max(1, len(refs[0]) - n + 1)
    right = clipped / total
    return _judge(
        answer,
        right,
        f"p_{n} = clipped matches / hypothesis {n}-grams = {clipped}/{total}",
        [
            (unclipped / total, "you did not clip: each hypothesis n-gram counts at most as often as it appears in a single reference."),
            (summed / total, "you added the counts over the references; BLEU takes the maximum over the references, not the sum."),
            (clipped / ref_total, "you divided by the reference's n-gram count; modified precision divides by the hypothesis's."),
        ],
    )


def check_brevity_penalty(answer: Any, ref_lens: Sequence[int], hyp_len: int) -> Feedback:
    """Check an answer for BP given reference lengths and the hypothesis length.

    >>> check_brevity_penalty(1, [6, 9], 5).correct
    False
    """
    lens = list(ref_lens)
    if not lens:
        raise ValueError("ref_lens must list at least one reference length.")
    r = closest_length(lens, hyp_len)
    right = float(brevity_penalty_value(r, hyp_len))
    longest = float(brevity_penalty_value(max(lens), hyp_len))
    inverted = math.exp(1 - hyp_len / r) if hyp_len and r else right
    return _judge(
        answer,
        right,
        f"use the closest reference length r = {r}: BP = {'1 because c > r' if hyp_len > r else f'exp(1 - {r}/{hyp_len})'}",
        [
            (longest, "you used the longest reference; BLEU uses the reference length closest to the hypothesis length."),
            (1.0, "the hypothesis is not longer than the closest reference, so the brevity penalty applies (BP < 1)."),
            (inverted, "you swapped r and c: BP = exp(1 - r/c), reference length over hypothesis length."),
        ],
    )


def check_bleu(
    answer: Any,
    references: Sequence[Sequence[Hashable]],
    hypothesis: Sequence[Hashable],
    weights: Sequence[float] = (0.25, 0.25, 0.25, 0.25),
) -> Feedback:
    """Check an answer for sentence BLEU (no smoothing)."""
    report = explain(references, hypothesis, weights=weights, smoothing="method1")
    plain = explain(references, hypothesis, weights=weights)
    right = float(plain.score)
    precisions = [float(o.precision) for o in plain.orders]
    no_bp = right / float(plain.brevity_penalty) if plain.brevity_penalty else right
    arithmetic = float(plain.brevity_penalty) * sum(w * p for w, p in zip(plain.weights, precisions))
    return _judge(
        answer,
        right,
        "BLEU = BP x exp(sum of w_n log p_n), the weighted geometric mean of the precisions times BP",
        [
            (no_bp, "you forgot the brevity penalty: multiply by BP."),
            (arithmetic, "you took the arithmetic mean of the precisions; BLEU uses the geometric mean (a mean of logs)."),
            (float(report.score), "that is the smoothed score (method1); this exercise asks for BLEU without smoothing."),
        ],
    )
