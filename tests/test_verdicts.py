"""Every named rule, on every numeric exercise and practice variant: never accepted, and never named as another.

For each question (the lessons' own and the first practice variants of each), the rules a learner may follow
instead of BLEU's are computed here from their definitions, with NLTK, sacreBLEU and plain arithmetic (never with
the checkers): not clipping, clipping by the sum of the references' counts, clipping against one reference, the
n-gram types, the repeats removed first, the wrong denominators, the shortest, longest, first or mean reference
length, the difference of the lengths in BP, r and c swapped, no BP, the arithmetic mean, no smoothing, the
closest reference alone, and so on.  Each rule's answer, written as a learner writes it (to the question's
places, to a few more, as sacreBLEU prints it), must not be accepted as right; when the checker names a mistake
it must be this rule's; and where the checker offers the rule by name, the answer to the question's places must be
named.  A rule that gives the right answer (the closest reference is also the shortest, no n-gram is clipped by
one reference and not by the sum) fails: the question cannot tell the rule from BLEU's.
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from collections.abc import Callable

import pytest
import sacrebleu
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, modified_precision, sentence_bleu

from bleu_teach.exercises import Exercise, exercise, exercises
from bleu_teach.exercises.practice import PRACTISED, another
from bleu_teach.lessons.data import wmt21_ted

NUMERIC = [ex for ex in exercises() if ex.decimals is not None]
PRACTICE = [(exercise_id, number) for exercise_id in PRACTISED for number in range(1, 21)]
MQM = {"Major": 5.0, "Minor": 1.0}


def words(text: str) -> list[str]:
    return text.split()


def grams(tokens: list[str], n: int) -> Counter:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def closest(lengths: list[int], c: int) -> int:
    return min(lengths, key=lambda r: (abs(r - c), r))


def bp(r: float, c: int) -> float:
    return 1.0 if c > r else math.exp(1 - r / c)


def quiet(function: Callable[..., float], *args, **kwargs) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(function(*args, **kwargs))


# ---------------------------------------------------------------------------
# The rules, by definition: (the checker's names that may name it, its answer, places fewer than the question's)
# ---------------------------------------------------------------------------

Rule = tuple[frozenset[str], float, int]


def precision_rules(refs: list[list[str]], hyp: list[str], n: int) -> dict[str, Rule]:
    counts, ref_counts = grams(hyp, n), [grams(r, n) for r in refs]
    total = sum(counts.values())
    clipped = sum(min(c, max(rc[g] for rc in ref_counts)) for g, c in counts.items())
    rules: dict[str, Rule] = {
        "no clipping": (
            frozenset({"no_clipping"}),
            sum(c for g, c in counts.items() if any(rc[g] for rc in ref_counts)) / total,
            0,
        ),
        "each match once": (
            frozenset({"clipped_to_one"}),
            sum(1 for g in counts if any(rc[g] for rc in ref_counts)) / total,
            0,
        ),
        "n-gram types": (
            frozenset({"types"}),
            sum(1 for g in counts if any(rc[g] for rc in ref_counts)) / len(counts),
            0,
        ),
        "characters": (
            frozenset({"strings"}),
            quiet(modified_precision, [" ".join(r) for r in refs], " ".join(hyp), n),
            0,
        ),
    }
    if len(counts) != total:
        rules["distinct denominator"] = (frozenset({"distinct_denominator"}), clipped / len(counts), 0)
    for k, ref in enumerate(refs, 1):
        if len(ref) >= n:
            rules[f"reference {k}'s denominator"] = (
                frozenset({"reference_denominator"}),
                clipped / (len(ref) - n + 1),
                0,
            )
    if len(refs) > 1:
        rules["summed references"] = (
            frozenset({"summed_references"}),
            sum(min(c, sum(rc[g] for rc in ref_counts)) for g, c in counts.items()) / total,
            0,
        )
        for k, rc in enumerate(ref_counts, 1):
            rules[f"reference {k} alone"] = (
                frozenset({"one_reference"}),
                sum(min(c, rc[g]) for g, c in counts.items()) / total,
                0,
            )
    collapsed = [t for i, t in enumerate(hyp) if i == 0 or t != hyp[i - 1]]
    if collapsed != hyp:
        rules["repeats removed"] = (frozenset({"repeats_removed"}), quiet(modified_precision, refs, collapsed, n), 0)
    return rules


def length_rules(lengths: list[int], c: int, scale: float, no_penalty: str) -> dict[str, Rule]:
    """The reference-length rules; ``scale`` turns a BP into the answer (1 for BP, the rest of the score for BLEU)."""
    r = closest(lengths, c)
    shorter = frozenset({no_penalty})  # a length below c gives BP = 1: the checker names forgetting BP and it
    rules: dict[str, Rule] = {}
    picks = (("shortest", min(lengths)), ("longest", max(lengths)), ("first", lengths[0]))
    for name, length in (*picks, ("mean", sum(lengths) / len(lengths))):
        if len(set(lengths)) > 1 and (name == "shortest" or length != r):
            # A length two rules pick (the first reference is the longest) is named by either.
            names = frozenset(
                {f"{other}_reference" for other, pick in picks if pick == length}
                | ({"mean_length"} if name == "mean" else set())
            )
            rules[f"the {name} reference length"] = (
                names | (shorter if length < c else frozenset()),
                scale * bp(length, c),
                0,
            )
    if c <= r:
        rules["no brevity penalty"] = (shorter, scale, 0)
        rules["r and c swapped"] = (frozenset({"swapped"}), scale * math.exp(1 - c / r), 0)
    return rules


def bleu_rules(ex: Exercise) -> dict[str, Rule]:
    refs, hyp = [words(r) for r in ex.inputs["references"]], words(ex.inputs["hypothesis"])
    smoothing = SmoothingFunction().method1 if ex.inputs.get("smoothing") == "method1" else None
    right = quiet(sentence_bleu, refs, hyp, smoothing_function=smoothing)
    c, r = len(hyp), closest([len(x) for x in refs], len(hyp))
    rules = length_rules([len(x) for x in refs], c, right / bp(r, c), "no_brevity_penalty")
    if c < r:
        rules["the difference of the lengths"] = (frozenset({"difference"}), right / bp(r, c) * math.exp(c - r), 0)
    precisions = []
    for n in range(1, 5):
        counts, ref_counts = grams(hyp, n), [grams(x, n) for x in refs]
        matched = sum(min(k, max(rc[g] for rc in ref_counts)) for g, k in counts.items())
        precisions.append(
            (
                matched,
                max(1, sum(counts.values())),
                sum(min(k, sum(rc[g] for rc in ref_counts)) for g, k in counts.items()),
            )
        )

    def geometric(values: list[float]) -> float:
        return bp(r, c) * math.exp(sum(0.25 * math.log(v) for v in values))

    method1 = [(m or 0.1) / t for m, t, _ in precisions]  # NLTK's method 1: epsilon 0.1 for a zero count
    rules["arithmetic mean"] = (frozenset({"arithmetic_mean"}), bp(r, c) * sum(0.25 * p for p in method1), 0)
    rules["epsilon as the precision"] = (
        frozenset({"epsilon_as_precision"}),
        geometric([0.1 if m == 0 else m / t for m, t, _ in precisions]),
        0,
    )
    rules["no smoothing"] = (frozenset({"unsmoothed"}), quiet(sentence_bleu, refs, hyp), 0)
    rules["characters"] = (
        frozenset({"strings"}),
        quiet(sentence_bleu, [" ".join(x) for x in refs], " ".join(hyp), smoothing_function=smoothing),
        0,
    )
    if len(refs) > 1:
        rules["summed references"] = (
            frozenset({"summed_references"}),
            geometric([(s or 0.1) / t for _, t, s in precisions]),
            0,
        )
        alone = next(x for x in refs if len(x) == r)
        rules["the closest reference alone"] = (
            frozenset({"closest_reference_alone"}),
            quiet(sentence_bleu, [alone], hyp, smoothing_function=smoothing),
            0,
        )
    sacre = sacrebleu.sentence_bleu(ex.inputs["hypothesis"], list(ex.inputs["references"])).score  # its defaults
    if abs(sacre / 100 - right) > 1e-9:
        rules["sacreBLEU's sentence_bleu"] = (frozenset({"sacrebleu_sentence"}), sacre / 100, 0)
        rules["sacreBLEU's sentence_bleu, 0-100"] = (
            frozenset({"sacrebleu_sentence_100", "sacrebleu_sentence"}),
            sacre,
            2,
        )
    return rules


def corpus_rules(ex: Exercise) -> dict[str, Rule]:
    refs = [[words(r) for r in group] for group in ex.inputs["references"]]
    hyps = [words(h) for h in ex.inputs["hypotheses"]]
    weights = tuple(ex.inputs["weights"])
    right = quiet(corpus_bleu, refs, hyps, weights)
    c = sum(len(h) for h in hyps)
    r = sum(closest([len(x) for x in group], len(h)) for group, h in zip(refs, hyps))
    rules: dict[str, Rule] = {
        "mean of the sentence scores": (
            frozenset({"mean_of_sentences"}),
            sum(quiet(sentence_bleu, g, h, weights) for g, h in zip(refs, hyps)) / len(hyps),
            0,
        )
    }
    if c < r:
        rules["no brevity penalty"] = (frozenset({"no_brevity_penalty"}), right / bp(r, c), 0)
        rules["r and c swapped"] = (frozenset({"swapped"}), right / bp(r, c) * math.exp(1 - c / r), 0)
    return rules


def mqm_rules(ex: Exercise) -> dict[str, Rule]:
    errors = wmt21_ted(ex.inputs["pair"]).errors[ex.inputs["system"]][ex.inputs["segment"]]
    minor_punctuation = [e for e in errors if e.category == "Fluency/Punctuation" and e.severity == "Minor"]
    points = sum(0.1 if e in minor_punctuation else MQM[e.severity] for e in errors)
    rules: dict[str, Rule] = {
        "no minus sign": (frozenset({"positive_sign"}), points, 0),
        "errors counted": (frozenset({"counted_errors"}), -float(len(errors)), 0),
    }
    if minor_punctuation:
        rules["minor punctuation as minor"] = (
            frozenset({"punctuation_as_minor"}),
            -sum(MQM[e.severity] for e in errors),
            0,
        )
    return rules


def brevity_rules(ex: Exercise) -> dict[str, Rule]:
    lengths, c = list(ex.inputs["reference_lengths"]), ex.inputs["hypothesis_length"]
    rules = length_rules(lengths, c, 1.0, "no_penalty")
    r = closest(lengths, c)
    if c < r:
        rules["the difference of the lengths"] = (frozenset({"difference"}), math.exp(-(r - c)), 0)
    return rules


def right_answer(ex: Exercise) -> float:
    given = ex.inputs
    if ex.kind == "modified_precision":
        return quiet(
            modified_precision, [words(r) for r in given["references"]], words(given["hypothesis"]), given["n"]
        )
    if ex.kind == "brevity_penalty":
        return bp(closest(given["reference_lengths"], given["hypothesis_length"]), given["hypothesis_length"])
    if ex.kind == "bleu":
        smoothing = SmoothingFunction().method1 if given.get("smoothing") == "method1" else None
        return quiet(
            sentence_bleu,
            [words(r) for r in given["references"]],
            words(given["hypothesis"]),
            smoothing_function=smoothing,
        )
    if ex.kind == "corpus_bleu":
        return quiet(
            corpus_bleu,
            [[words(r) for r in g] for g in given["references"]],
            [words(h) for h in given["hypotheses"]],
            tuple(given["weights"]),
        )
    errors = wmt21_ted(given["pair"]).errors[given["system"]][given["segment"]]
    return -sum(
        0.1 if e.category == "Fluency/Punctuation" and e.severity == "Minor" else MQM[e.severity] for e in errors
    )


def rules(ex: Exercise) -> dict[str, Rule]:
    if ex.kind == "modified_precision":
        return precision_rules(
            [words(r) for r in ex.inputs["references"]], words(ex.inputs["hypothesis"]), ex.inputs["n"]
        )
    return {"brevity_penalty": brevity_rules, "bleu": bleu_rules, "corpus_bleu": corpus_rules, "mqm_score": mqm_rules}[
        ex.kind
    ](ex)


def written(value: float, places: int) -> list[str]:
    """The ways a learner who has ``value`` writes it: to the question's places and to a few more."""
    return list(dict.fromkeys(f"{value:.{k}f}" for k in range(max(places, 0), places + 4)))


def assert_every_rule_is_told(ex: Exercise) -> None:
    right = right_answer(ex)
    offered = ex.check(None).misconceptions
    names = {name for m in offered for name in (m.name, *m.also)}
    for rule, (expected, value, fewer) in rules(ex).items():
        places = ex.decimals - fewer
        for answer in written(value, places):
            feedback = ex.check(answer)
            assert feedback.correct is False, (
                f"{ex.label}: {rule} ({value}) written {answer} is accepted (right: {right})"
            )
            if feedback.recognised is not None:
                told = next(m for m in offered if m.name == feedback.recognised)
                assert expected & {told.name, *told.also}, (
                    f"{ex.label}: {rule} ({value}) written {answer} is named {feedback.recognised}: {feedback.message}"
                )
            elif answer == written(value, places)[0] and expected & names and fewer == 0:
                pytest.fail(
                    f"{ex.label}: {rule} ({value}) written {answer} is offered but not named: {feedback.message}"
                )


@pytest.mark.parametrize("ex", NUMERIC, ids=lambda ex: ex.id)
def test_no_rule_is_accepted_or_named_wrongly_in_the_lessons(ex: Exercise):
    assert_every_rule_is_told(ex)


@pytest.mark.parametrize(("exercise_id", "number"), PRACTICE, ids=lambda v: str(v))
def test_no_rule_is_accepted_or_named_wrongly_in_practice(exercise_id: str, number: int):
    assert_every_rule_is_told(another(exercise_id, number))


def test_the_oracle_sees_the_rules_the_issue_names():
    """The rules are not vacuous: on questions made to fit them, the oracle finds what each rule gives."""
    # 04.1 before this check: adding the references' counts gave the right answer (nothing clipped differently).
    old = {
        "references": [
            "there is a cat that is on a mat",
            "the cat is sitting on the mat",
            "the cat sits there",
            "on the mat there is a cat that sits quite still",
        ],
        "hypothesis": "the cat is on the mat",
        "smoothing": "method1",
    }
    from dataclasses import replace

    found = bleu_rules(replace(exercise("04.1"), inputs=old))
    assert found["summed references"][1] == pytest.approx(right_answer(replace(exercise("04.1"), inputs=old)))
    # 03.1 with a longest reference of 16: exp(-(r - c)) = exp(-1) is what the longest reference gives too.
    assert brevity_rules(
        replace(exercise("03.1"), inputs={"reference_lengths": [12, 5, 9, 16], "hypothesis_length": 8})
    )["the difference of the lengths"][1] == pytest.approx(bp(16, 8))
    # 07.1 with the reference of six tokens: the repeats removed give 5/6, which is 5 over the reference's length.
    six = precision_rules([words("the cat is on the mat")], words("the cat sat on on on the mat"), 1)
    assert six["repeats removed"][1] == pytest.approx(5 / 6) == six["reference 1's denominator"][1]


def test_a_traceback_is_never_the_answer_to_a_percentage_a_ratio_or_a_marked_letter():
    # A percentage is the 0-100 scale, as the tally counts it: the answer times 100, not a number from 0 to 1.
    for exercise_id, percent in (("01.1", "76.9%"), ("02.1", "61,5 %"), ("01.1", "\uff17\uff16\uff0e\uff19\uff05")):
        feedback = exercise(exercise_id).check(percent)
        assert feedback.correct is False and "times 100" in feedback.message, (percent, feedback.message)
    assert exercise("07.1").check("87.5%").recognised == "no_clipping"  # 7/8, and "not times 100"
    assert "not times 100" in exercise("07.1").check("87.5%").message
    assert exercise("01.1").check("10:13").verdict == "correct"  # a ratio is the fraction
    assert exercise("01.1").check("\u06f0\u066b\u06f7\u06f6\u06f9").verdict == "correct"  # 0.769 in Persian digits
    assert exercise("00.1").check("red is the couch").verdict == "correct"  # the option's own text, unmarked
    for letter in ("(B)", "B.", "B)", " b) ", "[B]"):
        assert exercise("00.1").check(letter).verdict == "correct", letter
    assert exercise("05.1").check("(same)").recognised is not None
    with pytest.raises(ValueError, match="Choose one of A, B, C;"):
        exercise("00.1").check("(D)")
    with pytest.raises(ValueError, match='Choose one of A, B, "the same";'):  # as the prediction shows it
        exercise("05.1").check("C")


def test_a_tiny_misconception_times_100_is_not_named_for_a_small_answer():
    """04.1's unsmoothed score is about 1e-78: 100 times it is still 0.000, so 0.029 is a slip, not that mistake."""
    ex = exercise("04.1")
    unsmoothed = next(m for m in ex.check(None).misconceptions if m.name == "unsmoothed")
    assert 0 < float(unsmoothed.value) < 1e-70
    for answer in ("0.01", "0.049", "0.014", "0.029", "0.03"):
        assert ex.check(answer).recognised != "unsmoothed", answer
    assert ex.check("0").recognised == "unsmoothed" and ex.check("0.000").recognised == "unsmoothed"


def test_a_first_wrong_try_gets_a_hint_that_does_not_give_the_answer_away():
    for exercise_id in ("00.1", "00.2", "05.1", "09.3"):
        ex = exercise(exercise_id)
        wrong = [o.letter for o in ex.options if o.letter != ex.answer]
        assert ex.hinted
        for letter in wrong:
            hint, full = ex.check(letter, attempt=1).message, ex.check(letter, attempt=2).message
            assert hint != full
            right = next(o for o in ex.options if o.letter == ex.answer).text
            for number in ("0.3398", "0.4889", "0.8", "0.6"):
                assert number not in hint, (exercise_id, letter, hint)
            assert "red is the couch" not in hint, (exercise_id, letter, hint)
            assert right not in hint or len(right) < 3, (exercise_id, letter, hint)


def test_a_rule_whose_longer_rounding_fits_the_answer_makes_the_question_indistinct():
    """Practice 04.2 #17 once accepted 0.3785 for an answer of 0.37898: a rule gave 0.378457, which is 0.378 to
    three places (another answer) but 0.3785 to four, and 0.3785 rounds to the answer."""
    from bleu_teach.exercises.distinct import coinciding

    assert round(0.378457, 3) != round(0.37898, 3) and round(0.3785, 3) == round(0.37898, 3)
    assert coinciding([("right", 0.37898), ("rule", 0.378457)], 3) == [("right", "rule")]
    assert coinciding([("right", 0.37898), ("rule", 0.3779)], 3) == []


def test_an_answer_cut_short_that_is_also_a_mistakes_value_is_told_both():
    """01.1's answer is 10/13 = 0.769; cut to one place it is 0.7, which is also exactly the precision of the
    characters (35/50): the learner hears both, and 0.700 (three places, as asked) is that mistake alone."""
    ex = exercise("01.1")
    hyp, refs = ex.inputs["hypothesis"], ex.inputs["references"]
    assert quiet(modified_precision, refs, hyp, 1) == pytest.approx(0.7) and int(10 / 13 * 10) / 10 == 0.7
    both = ex.check("0.7")
    assert "give 3 decimal places" in both.message and "characters" in both.message and both.correct is False
    assert ex.check("0.700").recognised == "strings" and "decimal places" not in ex.check("0.700").message
    assert ex.check("0.70").recognised == "strings"  # two places: 0.76 would be the answer cut short


def test_a_percentage_computed_in_python_is_read_as_one():
    """0.57 * 100 is 56.99999999999999 in floating point: still the answer times 100, not a number above 1."""
    for exercise_id, times_100 in (("04.2", 0.57 * 100), ("04.1", 0.2906 * 100)):
        message = exercise(exercise_id).check(times_100).message
        assert "times 100" in message and "above 1" not in message, message
