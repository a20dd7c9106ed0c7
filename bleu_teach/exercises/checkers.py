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
same").
"""

from __future__ import annotations

import math
from decimal import Decimal
import numbers
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from bleu_teach.inputs.validation import (
    DEFAULT_WEIGHTS,
    check_order,
    check_references,
    check_tokens,
    check_weight_tuple,
    preview,
    typed_number,
)
from bleu_teach.lessons.data import ErrorSpan
from bleu_teach.exercises.distinct import fits, warn_if_coinciding
from bleu_teach.bleu.nltk_api import check_corpus, corpus_bleu, modified_precision, plain_precision, sentence_bleu
from bleu_teach.bleu.smoothing import quietly, resolve_smoothing
from bleu_teach.bleu.explain import explain, explain_corpus
from bleu_teach.bleu.arithmetic import brevity_penalty
from bleu_teach.bleu.counting import closest_ref_length, order_statistics
from bleu_teach.views.document import Document, Label, Paragraph, Strong
from bleu_teach.views.text_writer import write_text
from bleu_teach.views.viewable import Viewable

__all__ = [
    "Feedback",
    "Misconception",
    "check_ngram_count",
    "check_modified_precision",
    "check_brevity_penalty",
    "check_bleu",
    "check_corpus_bleu",
    "check_choice",
    "check_higher",
    "check_mqm_score",
]


@dataclass(frozen=True)
class Misconception:
    """A classic mistake, the answer it produces on this question, and what to say about it."""

    name: str
    value: float | str
    message: str


#: The verdict's word, and the symbol shown beside it (a symbol and a word, never colour alone).
_VERDICTS: dict[bool | None, tuple[str, str]] = {True: ("Correct", "\u2714"), False: ("Not yet", "\u2718"),
                                                  None: ("No answer yet", "\u270e")}


@dataclass(frozen=True, repr=False)
class Feedback(Viewable):
    """The verdict on one answer, shown as text, HTML, Markdown or LaTeX.

    ``right`` is the right answer, ``decimals`` the rounding the question
    asks for (None for a choice), ``misconceptions`` every mistake the
    checker offered for this question, and ``recognised`` the name of the
    one the answer matched, if any.  The text view is one line,
    ``Correct: ...``, ``Not yet: ...`` or ``No answer yet: ...``; the
    other views put a symbol before the word.

    >>> print(Feedback(True, "2 of the 7 tokens are matched."))
    Correct: 2 of the 7 tokens are matched.
    """

    correct: bool | None
    message: str
    right: float | str | None = None
    decimals: int | None = None
    misconceptions: tuple[Misconception, ...] = ()
    recognised: str | None = None

    @property
    def verdict(self) -> str:
        """``"correct"``, ``"misconception"`` (a wrong answer the checker could name), ``"wrong"`` or ``"unanswered"``."""
        if self.correct is None:
            return "unanswered"
        if self.correct:
            return "correct"
        return "misconception" if self.recognised is not None else "wrong"

    @property
    def tolerance(self) -> float:
        """How far a numeric answer may be from the right value: half a unit in the last decimal asked for."""
        return 0.5 * 10.0 ** -(self.decimals if self.decimals is not None else 0) + 1e-12

    def to_document(self, symbol: bool = True) -> Document:
        """The verdict in one paragraph: (a symbol and) the word in bold, then the message.

        ``symbol=False`` leaves the symbol out (the one-line text view).
        """
        word, mark = _VERDICTS[self.correct]
        return Document((Paragraph((Strong(f"{mark} {word}:" if symbol else f"{word}:"), " ", Label(self.message))),))

    def to_text(self) -> str:
        """One line of plain text: ``Correct: ...``, ``Not yet: ...`` or ``No answer yet: ...``."""
        return write_text(self.to_document(symbol=False))


def _as_number(answer: Any) -> float:
    if isinstance(answer, str):
        return typed_number(answer, "the answer as a number or a fraction such as 2/7")  # bounded: "1e30000000" is refused before any arithmetic
    if isinstance(answer, bool) or not isinstance(answer, (numbers.Real, Decimal)):
        raise TypeError(f"Write the answer as a number or a fraction such as 2/7, not {preview(answer)}.")
    try:
        value = float(answer)
    except (OverflowError, ValueError, ArithmeticError):  # too large for a float; Decimal('sNaN')
        raise ValueError(f"Write the answer as a finite number, not {preview(answer)}.") from None
    if not math.isfinite(value):
        raise ValueError(f"Write the answer as a finite number, not {preview(answer)}.")
    return value


def _rounding(decimals: int, fraction: bool = True) -> str:
    return f"rounded to {decimals} decimal place{'s' if decimals != 1 else ''}{', or as a fraction' if fraction else ''}"


def _judge(answer: Any, right: float, explanation: str, mistakes: Sequence[Misconception], decimals: int,
           hint: str, fraction: bool = True, times_100: str = "a percentage, or sacreBLEU's 0-100 scale") -> Feedback:
    """Compare a numeric answer with the right value, then with each misconception's value.

    ``explanation`` (which holds the right answer) is shown only to a right
    answer; an answer that matches nothing gets the ``hint``, which does not.
    ``fraction=False`` for an answer with no exact fraction to offer (a brevity
    penalty, a BLEU score, an MQM score): the rounding advice then leaves it out.
    ``times_100`` says where an answer 100 times too large comes from (sacreBLEU prints BP from 0 to 1).
    """
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 10:
        raise ValueError(f"decimals must be a whole number from 0 to 10, not {decimals!r}.")
    offered = tuple(mistakes)
    warn_if_coinciding([("right", right), *((m.name, float(m.value)) for m in offered)], decimals)
    base = Feedback(None, "", right, decimals, offered)
    if answer is None or answer is Ellipsis:
        return _with(base, None, "replace None with your answer and run the cell again.")
    value = _as_number(answer)
    if fits(value, right, decimals):
        return _with(base, True, explanation)
    for mistake in offered:
        if fits(value, float(mistake.value), decimals):
            return _with(base, False, mistake.message, mistake.name)
    if 0 < right <= 1 and round(right, decimals) > 0 and fits(value, 100 * right, max(decimals - 2, 0)):
        return _with(base, False, f"that is the answer times 100 ({times_100}); give it as a number from 0 to 1.")
    # Rounded too early, cut off, or rounded half up or half to even: the learner had the right value.
    shorter = {f(right * 10**k) / 10**k for k in range(max(0, decimals - 2), decimals)
               for f in (round, math.trunc, _half_up)}
    if decimals > 0 and (abs(value - right) < 10.0 ** -decimals or any(abs(value - v) < 1e-9 for v in shorter)):
        return _with(base, False, f"close: round the full value to {decimals} decimal place"
                                  f"{'s' if decimals != 1 else ''} in one step (round, do not cut off the last "
                                  "digits, and do not round a value that is already rounded)"
                                  f"{', or give the exact fraction' if fraction else ''}.")
    return _with(base, False, f"that is not it ({_rounding(decimals, fraction)}). Hint: {hint}.")


def _half_up(x: float) -> int:
    """``x`` rounded to a whole number with halves up, as taught at school (``round`` takes them to even)."""
    return math.floor(x + 0.5)


def _with(base: Feedback, correct: bool | None, message: str, recognised: str | None = None) -> Feedback:
    return Feedback(correct, message, base.right, base.decimals, base.misconceptions, recognised)


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
        Misconception("tokens", k, f"you counted the tokens, not the {n}-grams: a sentence of k tokens has k - n + 1 n-grams."),
        Misconception("off_by_one", max(0, k - n),
                      "off by one: the last n-gram starts at position k - n + 1, so there are k - n + 1 of them."),
    ]
    if len(order.rows) != right:
        mistakes.append(Misconception("distinct", len(order.rows),
                                      f"you counted each distinct {n}-gram once; repeated {n}-grams count every time they occur."))
    return _judge(
        answer, right,
        f"{k} tokens give {k} - {n} + 1 = {right} {n}-grams (one starting at each position that leaves room for {n} tokens)",
        mistakes, 0, hint=f"count the positions where a run of {n} tokens can start",
    )


def check_modified_precision(
    answer: Any, references: Sequence[Sequence[Hashable]], hypothesis: Sequence[Hashable], n: int = 1,
    decimals: int = 3,
) -> Feedback:
    """Check an answer for p_n, recognising the classic mistakes.

    Offered misconceptions: not clipping; with two or more references,
    adding their counts, or clipping against one reference alone (each
    reference); dividing by the number of different n-grams, or by a
    reference's n-gram count (each reference) instead of the hypothesis's.

    >>> refs = [['the', 'cat', 'is', 'on', 'the', 'mat'], ['there', 'is', 'a', 'cat', 'on', 'the', 'mat']]
    >>> check_modified_precision("5/5", refs, ['the'] * 5).recognised
    'no_clipping'
    """
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    n = check_order(n)
    p_n = modified_precision(refs, hyp, n)
    clipped, total = p_n.numerator, p_n.denominator
    rows = order_statistics(refs, hyp, n).rows
    mistakes = [Misconception(
        "no_clipping", float(plain_precision(refs, hyp, n)),
        "you did not clip: each hypothesis n-gram counts at most as often as it appears in a single reference.")]
    if len(refs) > 1:
        summed = sum(min(row.hyp_count, sum(row.ref_counts)) for row in rows)
        mistakes.append(Misconception(
            "summed_references", summed / total,
            "you added the counts over the references; BLEU clips by the largest count in any ONE reference."))
        # Clipping against one reference only, for each reference (equal answers offered together).
        alone: dict[int, list[int]] = {}
        for k in range(len(refs)):
            alone.setdefault(sum(min(row.hyp_count, row.ref_counts[k]) for row in rows), []).append(k + 1)
        for matched, which in alone.items():
            if matched != clipped:
                mistakes.append(Misconception(
                    "one_reference", matched / total,
                    f"you clipped against reference {' or '.join(map(str, which))} alone; each n-gram's limit is "
                    "its largest count in any of the references, so every reference can add matches."))
    if all(isinstance(t, str) for t in (*hyp, *(t for r in refs for t in r))):
        characters = [list(" ".join(map(str, r))) for r in refs]
        mistakes.append(Misconception(
            "strings", float(modified_precision(characters, list(" ".join(map(str, hyp))), n)),
            "that is the precision of the characters: given strings instead of token lists, NLTK counts each "
            "character (spaces too) as a token. Split the sentences into tokens first."))
    if 0 < len(rows) != total:
        mistakes.append(Misconception(
            "distinct_denominator", clipped / len(rows),
            f"you divided by the number of different {n}-grams (the rows of the table); modified precision divides "
            f"by the number of {n}-grams in the hypothesis, counting each repeat."))
    # Dividing by a reference's n-gram count: the learner may have used any reference, so offer each one
    # (references with the same count give the same wrong answer, and are offered together).
    by_count: dict[int, list[int]] = {}
    for k, ref in enumerate(refs, 1):
        if len(ref) >= n:
            by_count.setdefault(len(ref) - n + 1, []).append(k)
    for ref_total, which in by_count.items():
        where = "the reference" if len(refs) == 1 else f"reference {' or '.join(map(str, which))}"
        mistakes.append(Misconception(
            "reference_denominator", clipped / ref_total,
            f"you divided by the number of {n}-grams in {where}; modified precision divides by the number in "
            "the hypothesis: that is what makes it a precision."))
    return _judge(answer, clipped / total, f"p_{n} = clipped matches / hypothesis {n}-grams = {clipped}/{total}",
                  mistakes, decimals, hint=f"count each {n}-gram's matches, clipped by its largest count in one "
                                           f"reference, and divide by the hypothesis's {n}-grams")


def _length(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a whole number of tokens, such as 6, not {value!r}.")
    if value < 1:
        raise ValueError(f"{name} must be at least 1 token, not {value!r}.")
    return int(value)


def _length_mistakes(lens: Sequence[int], r: int, hyp_len: int,
                     score: Callable[[float], float]) -> list[Misconception]:
    """The wrong reference lengths a learner may use for BP: every other reference, and the mean length.

    ``score`` turns the brevity penalty that length gives into the answer
    it leads to (BP itself, or the score with that BP).
    """
    found = []
    for length in sorted(set(lens) - {r}, key=list(lens).index):
        if length == max(lens):
            name, what = "longest_reference", "the longest reference"
        elif length == lens[0]:
            name, what = "first_reference", "the first reference"
        else:
            name, what = "other_reference", f"a reference of {length} tokens"
        found.append(Misconception(name, score(float(brevity_penalty(length, hyp_len))),
                                   f"you used {what} (r = {length}); BLEU uses the reference length closest to the "
                                   "hypothesis length (on a tie, the shorter)."))
    if len(lens) > 1:
        mean = sum(lens) / len(lens)
        found.append(Misconception("mean_length", score(1.0 if hyp_len > mean else math.exp(1 - mean / hyp_len)),
                                   f"you used the mean reference length ({mean:g}); BLEU does not average the "
                                   "lengths, it takes the one closest to the hypothesis length."))
    return found


def check_brevity_penalty(answer: Any, ref_lens: Sequence[int], hyp_len: int, decimals: int = 3) -> Feedback:
    """Check an answer for BP given the reference lengths and the hypothesis length.

    Offered misconceptions: every reference length other than the closest
    (the longest, the first, or another), the mean reference length, and,
    when c <= r, BP = 1 and r and c swapped.

    >>> check_brevity_penalty(1, [8, 6, 12], 5).recognised
    'no_penalty'
    """
    if isinstance(ref_lens, (str, bytes)) or not isinstance(ref_lens, Sequence) or not ref_lens:
        raise ValueError("ref_lens must list at least one reference length, e.g. [8, 6, 12].")
    lens = [_length(r, f"ref_lens[{i}]") for i, r in enumerate(ref_lens)]
    hyp_len = _length(hyp_len, "hyp_len")
    r = closest_ref_length(lens, hyp_len)
    right = float(brevity_penalty(r, hyp_len))
    mistakes = _length_mistakes(lens, r, hyp_len, lambda wrong_bp: wrong_bp)
    if hyp_len <= r:
        mistakes.append(Misconception("no_penalty", 1.0,
                                      "the hypothesis is not longer than the closest reference, so the brevity penalty applies (BP < 1)."))
        mistakes.append(Misconception("swapped", math.exp(1 - hyp_len / r),
                                      "you swapped r and c: BP = exp(1 - r/c), reference length over hypothesis length."))
    how = "1 because c > r" if hyp_len > r else f"exp(1 - {r}/{hyp_len})"
    return _judge(answer, right, f"use the closest reference length r = {r}: BP = {how}", mistakes, decimals,
                  hint="find the reference length closest to the hypothesis length, then BP = 1 if c > r, "
                       "else exp(1 - r/c)", fraction=False, times_100="a percentage")


def check_bleu(
    answer: Any,
    references: Sequence[Sequence[Hashable]],
    hypothesis: Sequence[Hashable],
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing: str | None = None,
    decimals: int = 3,
) -> Feedback:
    """Check an answer for sentence BLEU with the given weights (and smoothing, if any).

    Offered misconceptions: forgetting BP (when BP < 1), the arithmetic
    instead of the geometric mean; without smoothing and with a zero
    precision, the smoothed score (method1), and leaving the zero out of the
    geometric mean with the other weights kept or renormalised; with
    smoothing and a zero precision, the unsmoothed score.
    """
    weight = check_weight_tuple(weights)
    report = explain(references, hypothesis, weights=weight, smoothing=smoothing)
    right = float(report.score)
    bp = float(report.brevity_penalty)
    used = [float(o.smoothed) for o in report.orders]
    mistakes = []
    if 0 < bp < 1:
        mistakes.append(Misconception("no_brevity_penalty", right / bp, "you forgot the brevity penalty: multiply by BP."))
    zero = [o for o in report.orders if o.is_zero and o.weight > 0]
    if bp > 0 and not (zero and report.smoothing == "method0"):  # an (almost) 0 score is (almost) 0 with any r
        c, r = report.length.hyp_len, report.length.closest_ref_len
        mistakes.extend(_length_mistakes(report.length.ref_lens, r, c, lambda wrong_bp: right / bp * wrong_bp))
        if c < r:
            mistakes.append(Misconception("swapped", right / bp * math.exp(1 - c / r),
                                          "you swapped r and c in the brevity penalty: BP = exp(1 - r/c), "
                                          "reference length over hypothesis length."))
    tokens = [*report.hypothesis, *(t for ref in report.references for t in ref)]
    if all(isinstance(t, str) for t in tokens) and report.length.hyp_len:
        characters = sentence_bleu([list(" ".join(map(str, r))) for r in report.references],
                                   list(" ".join(map(str, report.hypothesis))), weight,
                                   smoothing_function=quietly(resolve_smoothing(smoothing)[0]))
        mistakes.append(Misconception("strings", float(cast(float, characters)),
                                      "that is the score of the characters: given strings instead of token lists, "
                                      "NLTK counts each character (spaces too) as a token. Split the sentences "
                                      "into tokens first."))
    mistakes.append(Misconception(
        "arithmetic_mean", bp * math.fsum(w * p for w, p in zip(report.weights, used)),
        "you took the arithmetic mean of the precisions; BLEU uses the geometric mean (a weighted mean of logs)."))
    if zero and report.smoothing == "method0" and not report.orders[0].is_zero:
        smoothed = explain(references, hypothesis, weights=weight, smoothing="method1").score
        mistakes.append(Misconception("smoothed", float(smoothed),
                                      "that is the smoothed score (method1); this question asks for BLEU without smoothing."))
        kept = [o for o in report.orders if not o.is_zero and o.weight > 0]
        logs = math.fsum(o.weight * math.log(float(o.precision)) for o in kept)
        mistakes.append(Misconception("skipped_zero", bp * math.exp(logs),
                                      "you left the zero precision out of the geometric mean; that treats it as p_n = 1, "
                                      "the best possible value. Without smoothing, every p_n stays in the mean with "
                                      "its weight, zero or not."))
        mistakes.append(Misconception("renormalised", bp * math.exp(logs / math.fsum(o.weight for o in kept)),
                                      "you dropped the zero precision and shared its weight among the others; that "
                                      "scores a lower-order BLEU instead. Without smoothing, every p_n stays in the "
                                      "mean with its weight, zero or not."))
    if zero and report.smoothing != "method0":
        unsmoothed = explain(references, hypothesis, weights=weight).score
        mistakes.append(Misconception("unsmoothed", float(unsmoothed),
                                      "that is the score without smoothing; this question asks for "
                                      f"{report.smoothing}, which gives the zero precision a small value."))
    return _judge(answer, right,
                  "BLEU = BP x exp(sum of w_n log p_n), the weighted geometric mean of the precisions times BP",
                  mistakes, decimals,
                  hint="work out p_1 to p_N, their weighted geometric mean, and the brevity penalty, then multiply",
                  fraction=False)


def check_corpus_bleu(
    answer: Any,
    list_of_references: Sequence[Sequence[Sequence[Hashable]]],
    hypotheses: Sequence[Sequence[Hashable]],
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing: str | None = None,
    decimals: int = 3,
) -> Feedback:
    """Check an answer for corpus BLEU, recognising the mean of sentence scores and a forgotten BP."""
    weight = check_weight_tuple(weights)
    refs_list, hyps = check_corpus(list_of_references, hypotheses)
    report = explain_corpus(refs_list, hyps, weights=weight, smoothing=smoothing)
    right = float(cast(float, corpus_bleu(refs_list, hyps, weight, smoothing)))  # one weight tuple: one float
    mistakes = []
    if report.mean_sentence_score is not None:
        mistakes.append(Misconception("mean_of_sentences", report.mean_sentence_score,
                                      "that is the mean of the sentence scores; corpus BLEU adds up the counts and "
                                      "lengths of all sentences first, then combines them once."))
    bp = float(report.brevity_penalty)
    if 0 < bp < 1:
        mistakes.append(Misconception("no_brevity_penalty", right / bp,
                                      "you forgot the brevity penalty: the corpus's c and r are sums over the "
                                      "sentences, and here c < r."))
    return _judge(answer, right, "pool m_n, t_n, c and r over the corpus, then BP x exp(sum of w_n log p_n)",
                  mistakes, decimals,
                  hint="add up the matches, the n-gram counts and the lengths over the sentences first, then combine once",
                  fraction=False)


def _letter(answer: Any, options: Mapping[str, str]) -> str:
    if not isinstance(answer, str):
        raise TypeError(f"Answer with the letter of your choice as a string, e.g. \"A\", not {preview(answer)}.")
    letter = answer.strip().upper()
    by_text = {text.strip().upper(): key for key, text in options.items()}
    letter = by_text.get(letter, letter) if letter not in options else letter  # "the same" for SAME
    if letter not in options:
        raise ValueError(f"Choose one of {', '.join(options)}; {preview(answer)} is not among them.")
    return letter


def _letters(mapping: Any, name: str) -> dict[str, str]:
    """A mapping from option letters to text, with the letters in upper case."""
    if not isinstance(mapping, Mapping):
        raise TypeError(f"{name} must map option letters to text, e.g. {{\"A\": \"...\", \"B\": \"...\"}}, "
                        f"not {type(mapping).__name__}.")
    out: dict[str, str] = {}
    for key, value in mapping.items():
        if not isinstance(key, str) or not key.strip():
            raise TypeError(f"{name} must use letters such as \"A\" as keys, not {key!r}.")
        if not isinstance(value, str):
            raise TypeError(f"{name}[{key!r}] must be text, not {type(value).__name__}.")
        if key.strip().upper() in out:
            raise ValueError(f"{name} names the option {key.strip().upper()!r} twice.")
        out[key.strip().upper()] = value
    return out


def check_choice(
    answer: Any,
    options: Mapping[str, str],
    right: str,
    feedback: Mapping[str, str],
    misconceptions: Mapping[str, str] | None = None,
) -> Feedback:
    """Check a multiple-choice answer; each wrong option names the misconception behind it.

    ``options`` maps letters to the choices, ``right`` is the right letter,
    ``feedback`` gives, for every letter, why it is right or wrong, and
    ``misconceptions`` (optional) names, for each wrong letter, the
    misconception it stands for (the letter itself when not given).

    >>> options = {"A": "the maximum over the references", "B": "the sum over the references"}
    >>> check_choice("b", options, "A", {"A": "one reference at a time.", "B": "that double-counts."},
    ...              {"B": "summed references"}).recognised
    'summed references'
    """
    letters = _letters(options, "options")
    said = _letters(feedback, "feedback")
    names = _letters(misconceptions or {}, "misconceptions")
    if not isinstance(right, str) or right.strip().upper() not in letters:
        raise ValueError(f"right must be one of the option letters ({', '.join(letters)}), not {right!r}.")
    right = right.strip().upper()
    if len(letters) < 2 or set(said) != set(letters) or not set(names) <= set(letters) - {right}:
        raise ValueError("check_choice needs two or more options, feedback for every letter, and misconception "
                         "names only for wrong letters.")
    mistakes = tuple(Misconception(names.get(k, k), k, said[k]) for k in letters if k != right)
    base = Feedback(None, "", right, None, mistakes)
    if answer is None or answer is Ellipsis:
        return _with(base, None, "replace None with the letter of your answer, e.g. \"A\", and run the cell again.")
    letter = _letter(answer, letters)
    if letter == right:
        return _with(base, True, said[right])
    return _with(base, False, said[letter], names.get(letter, letter))


def check_higher(
    answer: Any,
    references: Sequence[Sequence[Hashable]],
    hypothesis_a: Sequence[Hashable],
    hypothesis_b: Sequence[Hashable],
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing: str | None = "method1",
    feedback: Mapping[str, str] | None = None,
    misconceptions: Mapping[str, str] | None = None,
) -> Feedback:
    """A prediction: which hypothesis gets the higher BLEU, "A", "B" or "same"?  The right answer is computed.

    ``feedback`` and ``misconceptions`` (optional, keyed "A", "B" and
    "SAME") say why each answer is right or wrong; every message ends with
    the two scores and their precisions, computed here.

    >>> refs = [["the", "dog", "chases", "the", "cat"]]
    >>> check_higher("same", refs, "the cat chases the dog".split(), "the dog chases the cat".split()).recognised
    'SAME'
    """
    weight = check_weight_tuple(weights)
    a = explain(references, hypothesis_a, weights=weight, smoothing=smoothing)
    b = explain(references, hypothesis_b, weights=weight, smoothing=smoothing)
    right = "SAME" if a.score == b.score else ("A" if a.score > b.score else "B")

    scores = f"A scores {a.score:.4f}; B scores {b.score:.4f}."
    generic = {
        "A": "A shares more (or longer) n-grams with the references.",
        "B": "B shares more (or longer) n-grams with the references.",
        "SAME": "the two share equally many n-grams of each order with the references.",
    }
    wrong = {
        "A": "A shares fewer (or shorter) n-grams with the references: BLEU counts shared n-grams, not meaning.",
        "B": "B shares fewer (or shorter) n-grams with the references: BLEU counts shared n-grams, not meaning.",
        "SAME": "the two do not share the same n-grams with the references, so their scores differ: BLEU counts "
                "shared n-grams, not meaning.",
    }
    if right == "SAME":
        wrong["A"] = wrong["B"] = ("the two share equally many n-grams of each order with the references, so they "
                                   "score the same: BLEU counts shared n-grams, not meaning.")
    said = _letters(feedback, "feedback") if feedback is not None else {
        k: (generic[k] if k == right else wrong[k]) for k in generic}
    if set(said) != set(generic):
        raise ValueError("feedback must have a message for each of \"A\", \"B\" and \"SAME\".")
    return check_choice(answer, {"A": "A", "B": "B", "SAME": "the same"}, right,
                        {k: f"{v} {scores}" for k, v in said.items()}, misconceptions)


def check_mqm_score(answer: Any, errors: Sequence[ErrorSpan], decimals: int = 1) -> Feedback:
    """Check a segment's MQM score worked out from its error list (one rater).

    The right answer is minus the sum of the errors' weights
    (:attr:`bleu_teach.lessons.data.ErrorSpan.weight`: non-translation 25, major 5,
    minor 1, minor punctuation 0.1).  Offered misconceptions: the sum without
    its minus sign, a minor punctuation error weighed as a full minor error,
    and every error counted as one point.

    >>> spans = [ErrorSpan("r", "Accuracy/Mistranslation", "Major", 0, 3, "cat", "target"),
    ...          ErrorSpan("r", "Fluency/Punctuation", "Minor", 3, 4, ",", "target")]
    >>> check_mqm_score(-5.1, spans).correct, check_mqm_score(-6, spans).recognised
    (True, 'punctuation_as_minor')
    """
    if isinstance(errors, (str, bytes)) or not isinstance(errors, Sequence) or \
            not all(isinstance(e, ErrorSpan) for e in errors):
        raise TypeError("errors must be a list of ErrorSpan, e.g. wmt21_ted('zh-en').errors[system][segment].")
    points = math.fsum(e.weight for e in errors)
    right = -points
    punctuation = [e for e in errors if e.category == "Fluency/Punctuation" and e.severity == "Minor"]
    mistakes = [Misconception("positive_sign", points,
                              "MQM scores are negated error points: more errors give a lower (more negative) score.")]
    if punctuation:
        mistakes.append(Misconception("punctuation_as_minor", right - 0.9 * len(punctuation),
                                      "a minor punctuation error costs 0.1 point, not 1 (Freitag et al., 2021a)."))
        mistakes.append(Misconception("punctuation_left_out", right + 0.1 * len(punctuation),
                                      "a minor punctuation error still costs 0.1 point: leave none out."))
    mistakes.append(Misconception("counted_errors", -float(len(errors)),
                                  "errors are weighed by severity (major 5, minor 1), not just counted."))
    weights = " + ".join(f"{e.weight:g}" for e in errors) or "0"
    return _judge(answer, right, f"add the weights and negate: -({weights}) = {right:g}", mistakes, decimals,
                  hint="weigh each error by its severity (and category), add the weights, and negate the sum",
                  fraction=False)
