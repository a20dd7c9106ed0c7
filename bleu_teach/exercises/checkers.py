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
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Hashable, Sequence
from dataclasses import replace
from typing import Any, cast

from bleu_teach.inputs.validation import (
    DEFAULT_WEIGHTS,
    check_order,
    check_references,
    check_tokens,
    check_weight_tuple,
)
from bleu_teach.inputs.tokenizers import tokenize
from bleu_teach.lessons.data import ErrorSpan
from bleu_teach.exercises.choices import check_choice, check_higher
from bleu_teach.exercises.feedback import Feedback, Misconception, judge
from bleu_teach.bleu.nltk_api import check_corpus, corpus_bleu, modified_precision, plain_precision, sentence_bleu
from bleu_teach.bleu.smoothing import quietly, resolve_smoothing
from bleu_teach.bleu.explain import explain, explain_corpus
from bleu_teach.bleu.arithmetic import brevity_penalty, sacrebleu_score_counts, score_counts
from bleu_teach.bleu.counting import PooledCounts, closest_ref_length, order_statistics

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
    return judge(
        answer, right,
        f"{k} tokens give {k} - {n} + 1 = {right} {n}-grams (one starting at each position that leaves room for {n} tokens)",
        mistakes, 0, hint=f"count the positions where a run of {n} tokens can start",
    )


def check_modified_precision(
    answer: Any, references: Sequence[Sequence[Hashable]], hypothesis: Sequence[Hashable], n: int = 1,
    decimals: int = 3,
) -> Feedback:
    """Check an answer for p_n, recognising the classic mistakes.

    Offered misconceptions: not clipping, or counting each matching n-gram
    once; with two or more references, adding their counts, or clipping
    against one reference alone (each reference); dividing by the number of
    different n-grams, or by a reference's n-gram count (each reference)
    instead of the hypothesis's; ignoring case, where capitals change the answer.

    >>> refs = [['the', 'cat', 'is', 'on', 'the', 'mat']]
    >>> check_modified_precision("5/5", refs, ['the'] * 5).recognised, check_modified_precision("1/5", refs, ['the'] * 5).recognised
    ('no_clipping', 'clipped_to_one')
    """
    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    n = check_order(n)
    p_n = modified_precision(refs, hyp, n)
    clipped, total = p_n.numerator, p_n.denominator
    rows = order_statistics(refs, hyp, n).rows
    mistakes = [Misconception(
        "no_clipping", float(plain_precision(refs, hyp, n)),
        "you did not clip: each hypothesis n-gram counts at most as often as it appears in a single reference."),
        Misconception(
        "clipped_to_one", sum(min(row.hyp_count, 1) for row in rows if max(row.ref_counts) > 0) / total,
        "you counted each matching n-gram once; clipping limits a repeated n-gram to its largest count in one "
        "reference, which can be more than 1.")]
    if all(isinstance(t, str) for t in (*hyp, *(t for r in refs for t in r))):
        folded = modified_precision([[str(t).lower() for t in r] for r in refs], [str(t).lower() for t in hyp], n)
        if folded != p_n:  # capital letters change the answer here
            mistakes.append(Misconception(
                "lowercased", float(folded), "you treated capital and small letters as the same; BLEU compares "
                "tokens exactly, so “The” and “the” are different tokens (unless both sides are lowercased first)."))
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
            f"you divided by the number of different {n}-grams (each counted once); modified precision divides "
            f"by the number of {n}-grams in the hypothesis, counting each repeat."))
        mistakes.append(Misconception(
            "types", sum(1 for row in rows if row.max_ref_count > 0) / len(rows),
            f"you counted each different {n}-gram once, in both the numerator and the denominator (the {n}-gram types); modified "
            f"precision counts every {n}-gram the hypothesis holds, and each repeat that matches, up to its "
            "largest count in one reference."))
    collapsed = [t for i, t in enumerate(hyp) if i == 0 or t != hyp[i - 1]]
    if len(collapsed) != len(hyp) and len(collapsed) >= n:
        mistakes.append(Misconception(
            "repeats_removed", float(modified_precision(refs, collapsed, n)),
            "you removed the repeated words before counting; BLEU scores the output as the system wrote it: every "
            f"repeat is a {n}-gram in the denominator, and clipping limits how many of them count as matches."))
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
    return judge(answer, clipped / total, f"p_{n} = clipped matches / hypothesis {n}-grams = {clipped}/{total}",
                  mistakes, decimals, hint=f"count each {n}-gram's matches, clipped by its largest count in one "
                                           f"reference, and divide by the hypothesis's {n}-grams",
                  at_most=(1.0, "a precision never is: the clipped matches cannot outnumber the hypothesis's n-grams"))


def _length(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a whole number of tokens, such as 6, not {value!r}.")
    if value < 1:
        raise ValueError(f"{name} must be at least 1 token, not {value!r}.")
    return int(value)


#: The rules a learner may follow instead of BLEU's closest reference length, in the order they are named.
LENGTH_RULES = ("shortest", "longest", "first")


def _length_mistakes(lens: Sequence[int], r: int, hyp_len: int,
                     score: Callable[[float], float], no_penalty: str = "") -> list[Misconception]:
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
        found.append(Misconception("shortest_reference", score(float(brevity_penalty(r, hyp_len))),
                                   f"you used the shortest reference (r = {r}); {closest}."))
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
        found.append(Misconception(name, score(float(brevity_penalty(length, hyp_len))),
                                   f"you used {what} (r = {length}); {closest}."))
    mean = sum(lens) / len(lens)
    averaged = (f"you used the mean reference length ({mean:g}); BLEU does not average the lengths, it takes the one "
                "closest to the hypothesis length.")
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
        found.append(Misconception("mean_length", score(1.0 if hyp_len > mean else math.exp(1 - mean / hyp_len)),
                                   averaged))
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
    no_penalty = ("the hypothesis is not longer than the closest reference, so the brevity penalty applies (BP < 1)."
                  if hyp_len <= r else "")
    mistakes = _length_mistakes(lens, r, hyp_len, lambda wrong_bp: wrong_bp, no_penalty)
    if no_penalty and not any(m.name == "no_penalty" for m in mistakes):
        mistakes.append(Misconception("no_penalty", 1.0, no_penalty))
    if hyp_len <= r:
        mistakes.append(Misconception("swapped", math.exp(1 - hyp_len / r),
                                      "you swapped r and c: BP = exp(1 - r/c), reference length over hypothesis length."))
    if hyp_len < r:
        mistakes.append(Misconception("difference", math.exp(hyp_len - r),
                                      "you used the difference of the lengths, exp(-(r - c)); BP = exp(1 - r/c) "
                                      "uses their ratio, so a token missing from a short sentence costs more than "
                                      "one missing from a long one."))
    how = "1 because c > r" if hyp_len > r else f"exp(1 - {r}/{hyp_len})"
    return judge(answer, right, f"use the closest reference length r = {r}: BP = {how}", mistakes, decimals,
                  hint="find the reference length closest to the hypothesis length, then BP = 1 if c > r, "
                       "else exp(1 - r/c)", fraction=False, times_100="a percentage",
                  at_most=(1.0, "BP never is: it is 1 when c > r and exp(1 - r/c), below 1, otherwise"))


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
    instead of the geometric mean; with several references, scoring against
    the one closest in length alone; without smoothing and with a zero
    precision, the smoothed score (method1), and leaving the zero out of the
    geometric mean with the other weights kept or renormalised; with
    smoothing and a zero precision, the unsmoothed score, and with method 1,
    ε itself taken as the precision.
    """
    weight = check_weight_tuple(weights)
    report = explain(references, hypothesis, weights=weight, smoothing=smoothing)
    right = float(report.score)
    bp = float(report.brevity_penalty)
    used = [float(o.smoothed) for o in report.orders]
    mistakes = []
    forgot = "you forgot the brevity penalty: multiply by BP."
    zero = [o for o in report.orders if o.is_zero and o.weight > 0]
    if bp > 0 and not (zero and report.smoothing == "method0"):  # an (almost) 0 score is (almost) 0 with any r
        c, r = report.length.hyp_len, report.length.closest_ref_len
        mistakes.extend(_length_mistakes(report.length.ref_lens, r, c, lambda wrong_bp: right / bp * wrong_bp,
                                         forgot if bp < 1 else ""))
        if c < r:
            mistakes.append(Misconception("swapped", right / bp * math.exp(1 - c / r),
                                          "you swapped r and c in the brevity penalty: BP = exp(1 - r/c), "
                                          "reference length over hypothesis length."))
            mistakes.append(Misconception("difference", right / bp * math.exp(c - r),
                                          "you used the difference of the lengths in the brevity penalty, "
                                          "exp(-(r - c)); BP = exp(1 - r/c) uses their ratio."))
    if 0 < bp < 1 and not any(m.name == "no_penalty" for m in mistakes):
        mistakes.append(Misconception("no_brevity_penalty", right / bp, forgot))
    mistakes = [replace(m, name="no_brevity_penalty") if m.name == "no_penalty" else m for m in mistakes]
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
    if len(report.references) > 1:  # clipped by the sum of the references' counts, not the largest
        mistakes.append(Misconception("summed_references", _summed_references_score(report, smoothing),
                                      "you added each n-gram's counts over the references before clipping; BLEU "
                                      "clips by the largest count in any ONE reference."))
    if len(report.references) > 1:  # the closest length picks r for BP, not the reference to count against
        closest = next(ref for ref in report.references if len(ref) == report.length.closest_ref_len)
        alone = explain([closest], hypothesis, weights=weight, smoothing=smoothing).score
        mistakes.append(Misconception("closest_reference_alone", float(alone),
                                      "you scored against the reference closest in length alone; that reference "
                                      "only gives r for the brevity penalty, and the n-grams are counted against "
                                      "every reference."))
    if zero and report.smoothing == "method1":
        as_epsilon = [0.1 if o.is_zero else float(o.precision) for o in report.orders]
        mistakes.append(Misconception("epsilon_as_precision", bp * math.exp(math.fsum(
            w * math.log(p) for w, p in zip(report.weights, as_epsilon) if w > 0)),
                                      "you used ε = 0.1 as the precision; method 1 adds ε to the zero match "
                                      "count, so p_n = 0.1 divided by the number of n-grams."))
    mistakes.extend(_sacrebleu_sentence(report, tokens, right))
    return judge(answer, right,
                  "BLEU = BP x exp(sum of w_n log p_n), the weighted geometric mean of the precisions times BP",
                  mistakes, decimals,
                  hint="work out p_1 to p_N, their weighted geometric mean, and the brevity penalty, then multiply",
                  fraction=False, at_most=(1.0, "on the 0-1 scale BLEU never is: BP is at most 1 and so is "
                                                "every precision"))


def _summed_references_score(report: Any, smoothing: Any) -> float:
    """The score with each n-gram clipped by the sum of its counts over the references (a mistake), all else kept."""
    summed = tuple(sum(min(row.hyp_count, sum(row.ref_counts)) for row in o.rows) for o in report.orders)
    counts = PooledCounts(summed, tuple(o.total for o in report.orders), tuple(o.ngrams for o in report.orders),
                          report.length.hyp_len, report.length.closest_ref_len)
    func, name = resolve_smoothing(smoothing)
    return float(score_counts(counts, [report.weights], quietly(func), name, False, report.references,
                              report.hypothesis)[0].score)


def _sacrebleu_sentence(report: Any, tokens: Sequence[Hashable], right: float) -> list[Misconception]:
    """sacreBLEU's ``sentence_bleu`` of the same sentences (exp smoothing, effective order), where it differs.

    Offered for uniform weights (sacreBLEU has no others), on sentences that
    its 13a tokenizer, its default, leaves as they are (so that sacreBLEU given
    the sentences counts these very tokens), when a zero precision makes the
    smoothing matter.
    """
    if len(set(report.weights)) != 1 or not any(o.is_zero for o in report.orders):
        return []
    if not all(isinstance(t, str) for t in tokens) or any(
            tokenize(" ".join(sentence), "13a") != list(sentence) for sentence in (report.hypothesis, *report.references)):
        return []
    sacre = sacrebleu_score_counts([o.clipped for o in report.orders], [o.ngrams for o in report.orders],
                                   report.length.hyp_len, report.length.closest_ref_len, "exp",
                                   max_order=len(report.orders), effective_order=True).score
    if abs(sacre / 100 - right) < 1e-9:
        return []
    what = ("sacreBLEU's sentence_bleu: its default smoothing is exp (a zero match count becomes 1/2, then 1/4, "
            "... of an n-gram) and it uses effective order, where this question asks for "
            f"NLTK's {report.smoothing}")
    return [Misconception("sacrebleu_sentence", sacre / 100, f"that is {what}."),
            Misconception("sacrebleu_sentence_100", sacre, f"that is {what}, and on sacreBLEU's 0-100 scale.",
                          fewer_decimals=2)]


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
        c, r = report.hyp_len, report.ref_len
        mistakes.append(Misconception("swapped", right / bp * math.exp(1 - c / r),
                                      "you swapped r and c in the brevity penalty, which gave a BP above 1: "
                                      "BP = exp(1 - r/c), reference length over hypothesis length, is never above 1."))
    return judge(answer, right, "pool m_n, t_n, c and r over the corpus, then BP x exp(sum of w_n log p_n)",
                  mistakes, decimals,
                  hint="add up the matches, the n-gram counts and the lengths over the sentences first, then combine once",
                  fraction=False, at_most=(1.0, "on the 0-1 scale BLEU never is: BP is at most 1 and so is "
                                                "every precision"))


def check_mqm_score(answer: Any, errors: Sequence[ErrorSpan], decimals: int = 1) -> Feedback:
    """Check a segment's MQM score worked out from its error list (one rater).

    The right answer is minus the sum of the errors' weights
    (:attr:`bleu_teach.lessons.data.ErrorSpan.weight`: non-translation 25, major 5,
    minor 1, minor punctuation 0.1).  Offered misconceptions: the sum without
    its minus sign, a minor punctuation error weighed as a full minor error,
    a major punctuation error weighed as a minor one (0.1), every error
    counted as one point, and another minor error weighed 0.1 or left out.

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
    major_punctuation = [e for e in errors if e.category == "Fluency/Punctuation" and e.severity == "Major"]
    if major_punctuation:
        mistakes.append(Misconception("major_punctuation_as_minor", right + 4.9 * len(major_punctuation),
                                      "only a minor punctuation error costs 0.1 point; a major one (it changes "
                                      "the meaning or breaks the sentence) costs 5, like any major error."))
    mistakes.append(Misconception("counted_errors", -float(len(errors)),
                                  "errors are weighed by severity (major 5, minor 1), not just counted."))
    minor = [e for e in errors if e.severity == "Minor" and e.category != "Fluency/Punctuation"
             and e.category.lower() != "non-translation"]
    if minor:
        mistakes.append(Misconception("minor_as_punctuation", right + 0.9 * len(minor),
                                      "only a minor punctuation error costs 0.1 point; any other minor error "
                                      "costs 1."))
        mistakes.append(Misconception("minor_left_out", right + len(minor),
                                      "every error counts, the minor ones too: each minor error costs 1 point."))
    weights = " + ".join(f"{e.weight:g}" for e in errors) or "0"
    return judge(answer, right, f"add the weights and negate: -({weights}) = {right:g}", mistakes, decimals,
                  hint="weigh each error by its severity (and category), add the weights, and negate the sum",
                  fraction=False, at_most=(0.0, "an MQM score never is: it is minus the error points, so 0 "
                                                "(no error found) is the best"))
