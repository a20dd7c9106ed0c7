"""Answer checkers for whole scores: sentence BLEU, corpus BLEU and a segment's MQM score.

Like the checkers of the steps in :mod:`bleu_teach.exercises.checkers`
(n-gram counts, p_n, BP), each computes the right answer with the core and
the answer each classic misconception gives on the same question, and
returns a :class:`~bleu_teach.exercises.feedback.Feedback` that names the
misconception an answer matches.  :func:`check_bleu` offers the wrong
reference lengths that :func:`~bleu_teach.exercises.checkers.check_brevity_penalty`
offers (:func:`~bleu_teach.exercises.checkers.length_mistakes`), carried
through to the score, besides the arithmetic mean of the precisions, the
smoothing mistakes (NLTK's methods, Chen and Cherry 2014) and sacreBLEU's
``sentence_bleu`` (Post 2018) where it gives another number;
:func:`check_corpus_bleu` the mean of the sentence scores, which corpus BLEU
is not (Papineni et al. 2002 pool the counts first); :func:`check_mqm_score`
the errors weighed otherwise than MQM weighs them (Freitag et al., 2021a).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import Any, cast

from bleu_teach.bleu.arithmetic import sacrebleu_score_counts, score_counts
from bleu_teach.bleu.counting import PooledCounts
from bleu_teach.bleu.explain import explain, explain_corpus
from bleu_teach.bleu.nltk_api import check_corpus, corpus_bleu, sentence_bleu
from bleu_teach.bleu.smoothing import quietly, resolve_smoothing
from bleu_teach.exercises.checkers import length_mistakes
from bleu_teach.exercises.feedback import Feedback, Misconception, judge
from bleu_teach.inputs.tokenizers import tokenize
from bleu_teach.inputs.validation import DEFAULT_WEIGHTS, check_weight_tuple
from bleu_teach.lessons.data import ErrorSpan

__all__ = ["check_bleu", "check_corpus_bleu", "check_mqm_score"]


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
        mistakes.extend(
            length_mistakes(
                report.length.ref_lens, r, c, lambda wrong_bp: right / bp * wrong_bp, forgot if bp < 1 else ""
            )
        )
        if c < r:
            mistakes.append(
                Misconception(
                    "swapped",
                    right / bp * math.exp(1 - c / r),
                    "you swapped r and c in the brevity penalty: BP = exp(1 - r/c), "
                    "reference length over hypothesis length.",
                )
            )
            mistakes.append(
                Misconception(
                    "difference",
                    right / bp * math.exp(c - r),
                    "you used the difference of the lengths in the brevity penalty, "
                    "exp(-(r - c)); BP = exp(1 - r/c) uses their ratio.",
                )
            )
    if 0 < bp < 1 and not any(m.name == "no_penalty" for m in mistakes):
        mistakes.append(Misconception("no_brevity_penalty", right / bp, forgot))
    mistakes = [replace(m, name="no_brevity_penalty") if m.name == "no_penalty" else m for m in mistakes]
    tokens = [*report.hypothesis, *(t for ref in report.references for t in ref)]
    if all(isinstance(t, str) for t in tokens) and report.length.hyp_len:
        characters = sentence_bleu(
            [list(" ".join(map(str, r))) for r in report.references],
            list(" ".join(map(str, report.hypothesis))),
            weight,
            smoothing_function=quietly(resolve_smoothing(smoothing)[0]),
        )
        mistakes.append(
            Misconception(
                "strings",
                float(cast(float, characters)),
                "that is the score of the characters: given strings instead of token lists, "
                "NLTK counts each character (spaces too) as a token. Split the sentences "
                "into tokens first.",
            )
        )
    mistakes.append(
        Misconception(
            "arithmetic_mean",
            bp * math.fsum(w * p for w, p in zip(report.weights, used)),
            "you took the arithmetic mean of the precisions; BLEU uses the geometric mean (a weighted mean of logs).",
        )
    )
    if zero and report.smoothing == "method0" and not report.orders[0].is_zero:
        smoothed = explain(references, hypothesis, weights=weight, smoothing="method1").score
        mistakes.append(
            Misconception(
                "smoothed",
                float(smoothed),
                "that is the smoothed score (method1); this question asks for BLEU without smoothing.",
            )
        )
        kept = [o for o in report.orders if not o.is_zero and o.weight > 0]
        logs = math.fsum(o.weight * math.log(float(o.precision)) for o in kept)
        mistakes.append(
            Misconception(
                "skipped_zero",
                bp * math.exp(logs),
                "you left the zero precision out of the geometric mean; that treats it as p_n = 1, "
                "the best possible value. Without smoothing, every p_n stays in the mean with "
                "its weight, zero or not.",
            )
        )
        mistakes.append(
            Misconception(
                "renormalised",
                bp * math.exp(logs / math.fsum(o.weight for o in kept)),
                "you dropped the zero precision and shared its weight among the others; that "
                "scores a lower-order BLEU instead. Without smoothing, every p_n stays in the "
                "mean with its weight, zero or not.",
            )
        )
    if zero and report.smoothing != "method0":
        unsmoothed = explain(references, hypothesis, weights=weight).score
        mistakes.append(
            Misconception(
                "unsmoothed",
                float(unsmoothed),
                "that is the score without smoothing; this question asks for "
                f"{report.smoothing}, which gives the zero precision a small value.",
            )
        )
    if len(report.references) > 1:  # clipped by the sum of the references' counts, not the largest
        mistakes.append(
            Misconception(
                "summed_references",
                _summed_references_score(report, smoothing),
                "you added each n-gram's counts over the references before clipping; BLEU "
                "clips by the largest count in any ONE reference.",
            )
        )
    if len(report.references) > 1:  # the closest length picks r for BP, not the reference to count against
        closest = next(ref for ref in report.references if len(ref) == report.length.closest_ref_len)
        alone = explain([closest], hypothesis, weights=weight, smoothing=smoothing).score
        mistakes.append(
            Misconception(
                "closest_reference_alone",
                float(alone),
                "you scored against the reference closest in length alone; that reference "
                "only gives r for the brevity penalty, and the n-grams are counted against "
                "every reference.",
            )
        )
    if zero and report.smoothing == "method1":
        as_epsilon = [0.1 if o.is_zero else float(o.precision) for o in report.orders]
        mistakes.append(
            Misconception(
                "epsilon_as_precision",
                bp * math.exp(math.fsum(w * math.log(p) for w, p in zip(report.weights, as_epsilon) if w > 0)),
                "you used ε = 0.1 as the precision; method 1 adds ε to the zero match "
                "count, so p_n = 0.1 divided by the number of n-grams.",
            )
        )
    mistakes.extend(_sacrebleu_sentence(report, tokens, right))
    return judge(
        answer,
        right,
        "BLEU = BP x exp(sum of w_n log p_n), the weighted geometric mean of the precisions times BP",
        mistakes,
        decimals,
        hint="work out p_1 to p_N, their weighted geometric mean, and the brevity penalty, then multiply",
        fraction=False,
        at_most=(1.0, "on the 0-1 scale BLEU never is: BP is at most 1 and so is every precision"),
    )


def _summed_references_score(report: Any, smoothing: Any) -> float:
    """The score with each n-gram clipped by the sum of its counts over the references (a mistake), all else kept."""
    summed = tuple(sum(min(row.hyp_count, sum(row.ref_counts)) for row in o.rows) for o in report.orders)
    counts = PooledCounts(
        summed,
        tuple(o.total for o in report.orders),
        tuple(o.ngrams for o in report.orders),
        report.length.hyp_len,
        report.length.closest_ref_len,
    )
    func, name = resolve_smoothing(smoothing)
    return float(
        score_counts(counts, [report.weights], quietly(func), name, False, report.references, report.hypothesis)[
            0
        ].score
    )


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
        tokenize(" ".join(sentence), "13a") != list(sentence) for sentence in (report.hypothesis, *report.references)
    ):
        return []
    sacre = sacrebleu_score_counts(
        [o.clipped for o in report.orders],
        [o.ngrams for o in report.orders],
        report.length.hyp_len,
        report.length.closest_ref_len,
        "exp",
        max_order=len(report.orders),
        effective_order=True,
    ).score
    if abs(sacre / 100 - right) < 1e-9:
        return []
    what = (
        "sacreBLEU's sentence_bleu: its default smoothing is exp (a zero match count becomes 1/2, then 1/4, "
        "... of an n-gram) and it uses effective order, where this question asks for "
        f"NLTK's {report.smoothing}"
    )
    return [
        Misconception("sacrebleu_sentence", sacre / 100, f"that is {what}."),
        Misconception(
            "sacrebleu_sentence_100", sacre, f"that is {what}, and on sacreBLEU's 0-100 scale.", fewer_decimals=2
        ),
    ]


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
        mistakes.append(
            Misconception(
                "mean_of_sentences",
                report.mean_sentence_score,
                "that is the mean of the sentence scores; corpus BLEU adds up the counts and "
                "lengths of all sentences first, then combines them once.",
            )
        )
    bp = float(report.brevity_penalty)
    if 0 < bp < 1:
        mistakes.append(
            Misconception(
                "no_brevity_penalty",
                right / bp,
                "you forgot the brevity penalty: the corpus's c and r are sums over the sentences, and here c < r.",
            )
        )
        c, r = report.hyp_len, report.ref_len
        mistakes.append(
            Misconception(
                "swapped",
                right / bp * math.exp(1 - c / r),
                "you swapped r and c in the brevity penalty, which gave a BP above 1: "
                "BP = exp(1 - r/c), reference length over hypothesis length, is never above 1.",
            )
        )
    return judge(
        answer,
        right,
        "pool m_n, t_n, c and r over the corpus, then BP x exp(sum of w_n log p_n)",
        mistakes,
        decimals,
        hint="add up the matches, the n-gram counts and the lengths over the sentences first, then combine once",
        fraction=False,
        at_most=(1.0, "on the 0-1 scale BLEU never is: BP is at most 1 and so is every precision"),
    )


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
    if (
        isinstance(errors, (str, bytes))
        or not isinstance(errors, Sequence)
        or not all(isinstance(e, ErrorSpan) for e in errors)
    ):
        raise TypeError("errors must be a list of ErrorSpan, e.g. wmt21_ted('zh-en').errors[system][segment].")
    points = math.fsum(e.weight for e in errors)
    right = -points
    punctuation = [e for e in errors if e.category == "Fluency/Punctuation" and e.severity == "Minor"]
    mistakes = [
        Misconception(
            "positive_sign",
            points,
            "MQM scores are negated error points: more errors give a lower (more negative) score.",
        )
    ]
    if punctuation:
        mistakes.append(
            Misconception(
                "punctuation_as_minor",
                right - 0.9 * len(punctuation),
                "a minor punctuation error costs 0.1 point, not 1 (Freitag et al., 2021a).",
            )
        )
        mistakes.append(
            Misconception(
                "punctuation_left_out",
                right + 0.1 * len(punctuation),
                "a minor punctuation error still costs 0.1 point: leave none out.",
            )
        )
    major_punctuation = [e for e in errors if e.category == "Fluency/Punctuation" and e.severity == "Major"]
    if major_punctuation:
        mistakes.append(
            Misconception(
                "major_punctuation_as_minor",
                right + 4.9 * len(major_punctuation),
                "only a minor punctuation error costs 0.1 point; a major one (it changes "
                "the meaning or breaks the sentence) costs 5, like any major error.",
            )
        )
    mistakes.append(
        Misconception(
            "counted_errors",
            -float(len(errors)),
            "errors are weighed by severity (major 5, minor 1), not just counted.",
        )
    )
    minor = [
        e
        for e in errors
        if e.severity == "Minor" and e.category != "Fluency/Punctuation" and e.category.lower() != "non-translation"
    ]
    if minor:
        mistakes.append(
            Misconception(
                "minor_as_punctuation",
                right + 0.9 * len(minor),
                "only a minor punctuation error costs 0.1 point; any other minor error costs 1.",
            )
        )
        mistakes.append(
            Misconception(
                "minor_left_out",
                right + len(minor),
                "every error counts, the minor ones too: each minor error costs 1 point.",
            )
        )
    weights = " + ".join(f"{e.weight:g}" for e in errors) or "0"
    return judge(
        answer,
        right,
        f"add the weights and negate: -({weights}) = {right:g}",
        mistakes,
        decimals,
        hint="weigh each error by its severity (and category), add the weights, and negate the sum",
        fraction=False,
        at_most=(0.0, "an MQM score never is: it is minus the error points, so 0 (no error found) is the best"),
    )
