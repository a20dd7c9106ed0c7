"""The exercise bank: every stored answer is right, every exercise diagnoses, and no learner file holds an answer.

The right answers are recomputed here with NLTK and plain arithmetic, and
each misconception's answer from its definition (on every reference it
could be applied to), not taken from the checkers.  Then, for every numeric
exercise, the right answer and the misconceptions' answers must be pairwise
distinct after the question's rounding, or the checker could not tell them
apart; and a learner who makes each mistake must be told which one it is.
"""

from __future__ import annotations

import json
import math
import re
import sys
import warnings
from collections import Counter
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest
import sacrebleu
from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu, modified_precision, sentence_bleu

from bleu_teach.exercises import Exercise, check, exercise, exercises
from bleu_teach.lessons.data import wmt21_ted

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT / "scripts"))
import solutions  # noqa: E402

BANK = exercises()
NUMERIC = [ex for ex in BANK if ex.decimals is not None]
CHOICE = [ex for ex in BANK if ex.options]
LESSONS = solutions.lessons()
MQM_WEIGHTS = {"Major": 5.0, "Minor": 1.0}


def tokens(text: str) -> list[str]:
    return text.split()


def as_float(answer: str | float) -> float:
    return float(Fraction(answer)) if isinstance(answer, str) else float(answer)


def tolerance(ex: Exercise) -> float:
    return 0.5 * 10.0**-ex.decimals + 1e-12


def ngrams(words: list[str], n: int) -> Counter:
    return Counter(tuple(words[i : i + n]) for i in range(len(words) - n + 1))


def bp(r: float, c: int) -> float:
    return 1.0 if c > r else math.exp(1 - r / c)


def closest(lengths: list[int], c: int) -> int:
    return min(lengths, key=lambda r: (abs(r - c), r))


def nltk_value(ex: Exercise) -> float:
    """The right answer, from NLTK (BLEU and p_n) or the formula (BP, MQM)."""
    given = ex.inputs
    smoothing = SmoothingFunction().method1 if given.get("smoothing") == "method1" else None
    weights = tuple(given.get("weights", (0.25,) * 4))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if ex.kind == "modified_precision":
            return float(
                modified_precision([tokens(r) for r in given["references"]], tokens(given["hypothesis"]), given["n"])
            )
        if ex.kind == "bleu":
            return sentence_bleu(
                [tokens(r) for r in given["references"]],
                tokens(given["hypothesis"]),
                weights,
                smoothing_function=smoothing,
            )
        if ex.kind == "corpus_bleu":
            return corpus_bleu(
                [[tokens(r) for r in refs] for refs in given["references"]],
                [tokens(h) for h in given["hypotheses"]],
                weights,
                smoothing_function=smoothing,
            )
    if ex.kind == "brevity_penalty":
        return bp(closest(given["reference_lengths"], given["hypothesis_length"]), given["hypothesis_length"])
    if ex.kind == "mqm_score":
        errors = wmt21_ted(given["pair"]).errors[given["system"]][given["segment"]]
        return -sum(
            0.1 if e.category == "Fluency/Punctuation" and e.severity == "Minor" else MQM_WEIGHTS[e.severity]
            for e in errors
        )
    raise AssertionError(ex.kind)


def mistakes_by_definition(ex: Exercise) -> dict[str, list[float]]:
    """Each misconception's answers, computed from its definition, on every reference it applies to."""
    given = ex.inputs
    if ex.kind == "modified_precision":
        refs, hyp, n = [tokens(r) for r in given["references"]], tokens(given["hypothesis"]), given["n"]
        counts, ref_counts = ngrams(hyp, n), [ngrams(r, n) for r in refs]
        clipped = sum(min(c, max(rc[g] for rc in ref_counts)) for g, c in counts.items())
        total = sum(counts.values())
        found = {
            "no_clipping": [sum(c for g, c in counts.items() if any(rc[g] for rc in ref_counts)) / total],
            "reference_denominator": [clipped / (len(r) - n + 1) for r in refs if len(r) >= n],
        }
        if len(counts) != total:
            found["distinct_denominator"] = [clipped / len(counts)]
        with warnings.catch_warnings():  # NLTK given strings counts characters: the "strings" mistake
            warnings.simplefilter("ignore")
            found["strings"] = [float(modified_precision(list(given["references"]), given["hypothesis"], n))]
        if len(refs) > 1:
            found["summed_references"] = [
                sum(min(c, sum(rc[g] for rc in ref_counts)) for g, c in counts.items()) / total
            ]
            alone = [sum(min(c, rc[g]) for g, c in counts.items()) for rc in ref_counts]
            found["one_reference"] = [m / total for m in alone if m != clipped]
        return found
    if ex.kind == "brevity_penalty":
        lengths, c = given["reference_lengths"], given["hypothesis_length"]
        r = closest(lengths, c)
        found = {
            "other_reference": [bp(length, c) for length in lengths if length != r],
            "mean_length": [bp(sum(lengths) / len(lengths), c)],
        }
        if c <= r:
            found |= {"no_penalty": [1.0], "swapped": [math.exp(1 - c / r)]}
        return found
    if ex.kind == "mqm_score":
        errors = wmt21_ted(given["pair"]).errors[given["system"]][given["segment"]]
        found = {"positive_sign": [-nltk_value(ex)], "counted_errors": [-float(len(errors))]}
        punctuation = [e for e in errors if e.category == "Fluency/Punctuation" and e.severity == "Minor"]
        if punctuation:
            found["punctuation_as_minor"] = [-float(sum(MQM_WEIGHTS[e.severity] for e in errors))]
            found["punctuation_left_out"] = [nltk_value(ex) + 0.1 * len(punctuation)]
        if any(e.category == "Fluency/Punctuation" and e.severity == "Major" for e in errors):
            found["major_punctuation_as_minor"] = [
                -sum(0.1 if e.category == "Fluency/Punctuation" else MQM_WEIGHTS[e.severity] for e in errors)
            ]
        return found
    return {}  # BLEU's mistakes are checked by name below


def test_the_bank_covers_every_lesson_and_ids_follow_lesson_order():
    assert [ex.id for ex in BANK] == sorted((ex.id for ex in BANK), key=lambda i: (i[:2], int(i[3:])))
    for lesson in LESSONS:
        own = exercises(lesson.name[:2])
        assert len(own) >= 2, f"{lesson.name}: at least two exercises"
        assert any(ex.options for ex in own), f"{lesson.name}: at least one prediction or 'why' question"
        assert [ex.number for ex in own] == list(range(1, len(own) + 1))


@pytest.mark.parametrize("ex", NUMERIC, ids=lambda ex: ex.id)
def test_the_stored_answer_is_right_by_nltk_and_the_checker_agrees(ex: Exercise):
    right = nltk_value(ex)
    assert abs(as_float(ex.answer) - right) <= tolerance(ex), (ex.id, ex.answer, right)
    feedback = check(ex.id, ex.answer)
    assert feedback.correct is True and feedback.verdict == "correct"
    assert abs(float(feedback.right) - right) < 1e-12


@pytest.mark.parametrize("ex", NUMERIC, ids=lambda ex: ex.id)
def test_every_numeric_exercise_tells_its_misconceptions_apart(ex: Exercise):
    assert_tells_its_misconceptions_apart(ex)


def assert_tells_its_misconceptions_apart(ex: Exercise) -> None:
    """Every misconception (by definition, on every reference) is offered, and all answers differ after rounding.

    Used for the bank's questions and for every worksheet variant (tests/test_worksheets.py).
    """
    offered = ex.check(None).misconceptions
    values = [("right answer", nltk_value(ex))] + [(m.name, float(m.value)) for m in offered]
    for name, defined in mistakes_by_definition(ex).items():
        for value in defined:  # every misconception on every reference it applies to is offered
            assert any(abs(value - v) < 1e-12 for _, v in values[1:]), (ex.id, name, value)
            values.append((f"{name} (by definition)", value))
    for i, (name_a, a) in enumerate(values):
        for name_b, b in values[i + 1 :]:
            if abs(a - b) < 1e-12 and "by definition" in name_a + name_b:
                continue  # the same misconception, once from the checker and once from its definition
            # A learner who makes mistake a types a rounded: that answer must not also fit b.
            assert abs(round(a, ex.decimals) - b) > tolerance(ex), (
                f"{ex.id}: {name_a} ({a}) and {name_b} ({b}) give the same answer to {ex.decimals} decimals"
            )
    for m in offered:
        feedback = ex.check(round(float(m.value), ex.decimals))
        assert feedback.verdict == "misconception" and feedback.recognised == m.name, (ex.label, m.name)
        # The mistake's own message; where the rounded float shows fewer places than asked (0.700 is 0.7) and that is
        # also the right value cut short, both are said (tests/test_verdicts.py).
        assert feedback.message == m.message or (m.message in feedback.message and "decimal place" in feedback.message)


def test_bleu_exercises_offer_the_mistakes_a_learner_makes():
    names = {ex.id: {m.name for m in check(ex.id, None).misconceptions} for ex in NUMERIC if "bleu" in ex.kind}
    assert {
        "no_brevity_penalty",
        "arithmetic_mean",
        "unsmoothed",
        "longest_reference",
        "first_reference",
        "mean_length",
        "swapped",
        "sacrebleu_sentence",
        "sacrebleu_sentence_100",
    } <= names["04.1"]
    ex = exercise("04.1")
    by_name = {m.name: float(m.value) for m in check("04.1", None).misconceptions}
    refs, hyp = [tokens(r) for r in ex.inputs["references"]], tokens(ex.inputs["hypothesis"])
    lengths, c = [len(r) for r in refs], len(hyp)
    assert (lengths, c) == ([9, 7, 4, 11], 6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        right = sentence_bleu(refs, hyp, smoothing_function=SmoothingFunction().method1)
    assert by_name["longest_reference"] == pytest.approx(right / bp(7, c) * bp(11, c))
    assert by_name["first_reference"] == pytest.approx(right / bp(7, c) * bp(9, c))
    assert by_name["mean_length"] == pytest.approx(right / bp(7, c) * bp(31 / 4, c))
    assert by_name["swapped"] == pytest.approx(right / bp(7, c) * math.exp(1 - c / 7))
    # The shortest reference (4 < c) gives BP = 1, the same answer as forgetting BP: one misconception names both.
    assert by_name["no_brevity_penalty"] == pytest.approx(right / bp(7, c))
    assert "shortest reference (r = 4)" in check("04.1", round(right / bp(7, c), 3)).message
    sacre = sacrebleu.sentence_bleu(ex.inputs["hypothesis"], list(ex.inputs["references"])).score
    assert by_name["sacrebleu_sentence_100"] == pytest.approx(sacre, abs=1e-9)
    assert by_name["sacrebleu_sentence"] == pytest.approx(sacre / 100, abs=1e-11)
    assert "exp" in check("04.1", round(sacre, 1)).message and "0-100" in check("04.1", round(sacre, 1)).message
    assert {"mean_of_sentences", "no_brevity_penalty", "swapped"} <= names["04.2"]
    swapped = {m.name: float(m.value) for m in check("04.2", None).misconceptions}["swapped"]
    assert swapped == pytest.approx(8 / 9 * math.exp(1 - 9 / 13)) and swapped > 1
    assert "above 1" in check("04.2", "1.5").message


def assert_needs_every_reference(ex: Exercise) -> None:
    """Clipping against any one reference alone gives another answer than clipping against all of them."""
    refs, hyp, n = [tokens(r) for r in ex.inputs["references"]], tokens(ex.inputs["hypothesis"]), ex.inputs["n"]
    right = nltk_value(ex)
    for k, ref in enumerate(refs, 1):
        alone = float(modified_precision([ref], hyp, n))
        assert abs(round(alone, ex.decimals) - right) > tolerance(ex), f"{ex.label}: reference {k} alone suffices"


@pytest.mark.parametrize(
    "ex",
    [ex for ex in NUMERIC if ex.kind == "modified_precision" and len(ex.inputs["references"]) > 1],
    ids=lambda ex: ex.id,
)
def test_a_question_with_two_references_needs_both(ex: Exercise):
    assert_needs_every_reference(ex)


LENGTH_RULES = ("closest", "shortest", "first", "longest", "mean")


@pytest.mark.parametrize("ex", [ex for ex in NUMERIC if ex.kind in ("brevity_penalty", "bleu")], ids=lambda ex: ex.id)
def test_only_the_closest_reference_gives_the_right_answer(ex: Exercise):
    """The closest, the shortest, the first, the longest reference and the mean length: five different answers."""
    if ex.kind == "brevity_penalty":
        lengths, c = ex.inputs["reference_lengths"], ex.inputs["hypothesis_length"]
        scale = 1.0
    else:
        lengths, c = [len(tokens(r)) for r in ex.inputs["references"]], len(tokens(ex.inputs["hypothesis"]))
        scale = nltk_value(ex) / bp(closest(lengths, c), c)
    answers = {rule: round(scale * bp(REFERENCE_RULES[rule](lengths, c), c), ex.decimals) for rule in LENGTH_RULES}
    assert len(set(answers.values())) == len(answers), answers
    feedback = check(ex.id, None)
    for rule, answer in answers.items():
        verdict = check(ex.id, answer)
        assert (verdict.verdict == "correct") == (rule == "closest"), (rule, answer)
        if rule in ("first", "longest"):
            assert f"the {rule}" in verdict.message
    assert feedback.right is not None


def test_the_magnitude_and_zero_questions_have_nltks_answers():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        moved = exercise("05.2")
        value = sentence_bleu([tokens("after the meeting she went home")], tokens("she went home after the meeting"))
        assert 0 < value < 1e-70 and round(math.log10(value)) == -77
        right = {o.letter: o.text for o in moved.options}[moved.answer]
        assert "1e-77" in right and f"{value:.1e}" == "9.7e-78"
        texts = {o.letter: o.text for o in moved.options}
        method1 = sentence_bleu(
            [tokens("after the meeting she went home")],
            tokens("she went home after the meeting"),
            smoothing_function=SmoothingFunction().method1,
        )
        assert f"{method1:.2f}" in texts["D"] and f"{(4 / 5 * 2 / 4) ** 0.25:.2f}" in texts["E"]
        zero = exercise("07.2")
        reference = [tokens("the cat is on the mat")]
        for option in zero.options:
            hypothesis = re.search(r"\*([^*]+)\*", option.text).group(1)
            score = sentence_bleu(reference, tokens(hypothesis))
            assert (score == 0) == (option.letter == zero.answer), (option.letter, score)
            if score:  # the feedback says how small it is, as NLTK computes it
                assert f"{score:.1e}" in option.feedback, (option.letter, score)


@pytest.mark.parametrize("ex", CHOICE, ids=lambda ex: ex.id)
def test_every_wrong_option_names_its_misconception_and_gets_its_own_feedback(ex: Exercise):
    letters = [o.letter for o in ex.options]
    assert len(set(letters)) == len(letters) >= 2 and ex.answer in letters
    assert len({o.feedback for o in ex.options}) == len(ex.options), f"{ex.id}: two options share their feedback"
    for option in ex.options:
        assert (option.misconception is None) == (option.letter == ex.answer), (ex.id, option.letter)
        feedback = check(ex.id, option.letter.lower(), attempt=2)  # from the second try on, the full feedback
        assert feedback.message.startswith(option.feedback)
        first = check(ex.id, option.letter.lower(), attempt=1)
        assert first.verdict == feedback.verdict and first.message == (option.hint or feedback.message)
        assert not re.match(r"(yes|no|not quite)\b", feedback.message, re.I), "the verdict word is said once"
        if option.letter == ex.answer:
            assert feedback.verdict == "correct"
        else:
            assert feedback.verdict == "misconception" and feedback.recognised == option.misconception


REFERENCE_RULES = {
    "closest": lambda lengths, c: closest(lengths, c),
    "longest": lambda lengths, c: max(lengths),
    "shortest": lambda lengths, c: min(lengths),
    "first": lambda lengths, c: lengths[0],
    "mean": lambda lengths, c: sum(lengths) / len(lengths),
    "tie_to_longer": lambda lengths, c: min(lengths, key=lambda r: (abs(r - c), -r)),
}


@pytest.mark.parametrize("ex", [ex for ex in BANK if ex.kind == "reference_length"], ids=lambda ex: ex.id)
def test_each_reference_length_option_is_its_rule_and_the_rules_differ(ex: Exercise):
    lengths, c = ex.inputs["reference_lengths"], ex.inputs["hypothesis_length"]
    values = []
    for option in ex.options:
        value = REFERENCE_RULES[option.rule](lengths, c)
        assert float(option.text.split(",")[0]) == value, (option.letter, option.rule, value)
        values.append(value)
        assert (option.rule == "closest") == (option.letter == ex.answer)
    assert len(set(values)) == len(values), "two rules give the same length: the question cannot tell them apart"


@pytest.mark.parametrize("ex", [ex for ex in BANK if ex.kind == "higher"], ids=lambda ex: ex.id)
def test_predictions_store_the_answer_nltk_gives(ex: Exercise):
    refs = [tokens(r) for r in ex.inputs["references"]]
    a, b = (
        sentence_bleu(refs, tokens(h), smoothing_function=SmoothingFunction().method1) for h in ex.inputs["hypotheses"]
    )
    assert ex.answer == ("SAME" if a == b else "A" if a > b else "B")
    assert f"A scores {a:.4f}" in check(ex.id, "same", attempt=2).message  # the scores: after a first wrong try


def test_near_misses_are_told_what_is_off_without_the_answer():
    # 02.1: p_2 = 8/13 = 0.615385 (rounded 0.615; 61.5 is it times 100, 0.62 too few decimals, 0.616 a slip)
    assert math.isclose(8 / 13, 0.615385, abs_tol=1e-6)
    percent, slip, short = check("02.1", 61.5), check("02.1", 0.616), check("02.1", "0.62")
    assert "times 100" in percent.message and percent.verdict == "wrong"
    assert "round the full value to 3 decimal places" in slip.message and "0.615" not in slip.message
    assert "or give the exact fraction" in slip.message  # 02.1's p_2 = 8/13 has one
    # Too few decimals is said as such ("0.62" for a question asking for three), the value not given away.
    assert short.message.startswith("close, but give 3 decimal places, not 2") and "0.615" not in short.message
    assert check("02.1", 0.62).message == short.message and check("03.1", "0.88").message.startswith(
        "close, but give 3 decimal places, not 2"
    )
    # 04.1: BLEU = 0.290593, which cut off (not rounded) is 0.290.
    cut = check("04.1", "0.290")
    assert "do not cut off" in cut.message and "0.291" not in cut.message and "fraction" not in cut.message
    # 03.1: BP = exp(-1/8) = 0.882497; 0.8825 rounded again to 0.883 is a slip of rounding, not a cut-off.
    assert math.isclose(math.exp(-1 / 8), 0.882497, abs_tol=1e-6)
    assert "do not round a value that is already rounded" in check("03.1", 0.883).message
    assert "fraction" not in check("03.1", 0.883).message  # exp(1 - 9/8) has no exact fraction to offer
    # 07.1: 5/8 = 0.625, rounded half up to two places as at school, or half to even: too few decimals either way.
    assert check("07.1", 0.63).message == check("07.1", 0.62).message
    assert check("07.1", 0.63).message.startswith("close, but give 3 decimal places, not 2")


def test_lesson_00_q2_tells_word_order_from_a_tie():
    a, same = check("00.2", "A"), check("00.2", "same")
    assert a.message != same.message and "word order" in a.recognised


def test_look_up_refuses_unknown_ids_clearly():
    with pytest.raises(ValueError, match="There is no exercise '3.2'; the ids are 00.1"):
        exercise("3.2")
    with pytest.raises(TypeError, match="exercise_id must be a string"):
        check(3.2, "A")
    with pytest.raises(ValueError, match="lesson must be"):
        exercises("3")


# --- the lessons: the bank's questions, two-line cells, and no answer anywhere in a learner's file ---


def _exercise_cells(nb: nbformat.NotebookNode) -> list[tuple[int, nbformat.NotebookNode]]:
    return [
        (i, c) for i, c in enumerate(nb.cells) if c.cell_type == "code" and "exercise" in c.metadata.get("tags", [])
    ]


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_each_exercise_cell_is_two_lines_under_its_question(lesson: Path):
    nb = nbformat.read(lesson, as_version=4)
    cells = _exercise_cells(nb)
    own = exercises(lesson.name[:2])
    assert len(cells) == len(own), f"{lesson.name}: the lesson and the bank list different exercises"
    for (i, cell), ex in zip(cells, own):
        assert cell.source == ex.cell()
        above = next(c for c in reversed(nb.cells[:i]) if c.cell_type == "markdown")
        assert above.source.rstrip().endswith(ex.markdown()), f"{lesson.name}: {ex.id}'s question differs from the bank"
        shown = "".join(out.get("data", {}).get("text/plain", "") for out in cell.outputs)
        assert shown.startswith("No answer yet"), f"{lesson.name} {ex.id}: {shown!r}"


def _learner_files() -> list[Path]:
    return LESSONS + sorted((PROJECT / "notebooks" / "slides").glob("*.ipynb"))


@pytest.mark.parametrize("path", _learner_files(), ids=lambda p: p.stem)
def test_no_learner_notebook_holds_an_answer_or_a_feedback_text(path: Path):
    text = path.read_text(encoding="utf-8")
    assert '"solution"' not in text, f"{path.name}: a worked answer in the cell metadata"
    nb = json.loads(text)
    flat = json.dumps(nb, ensure_ascii=False)
    for ex in BANK:
        secrets = [ex.working] + [o.feedback for o in ex.options]
        secrets += [m.message for m in check(ex.id, None).misconceptions if isinstance(m.message, str)]
        for secret in secrets:
            assert json.dumps(secret, ensure_ascii=False)[1:-1] not in flat, f"{path.name} shows {ex.id}'s {secret!r}"


def test_every_exercise_has_its_own_anchor_in_its_lesson():
    """Per-question links (#ex-03-2) for teachers: one anchor per exercise, unique, in the lesson's question cell."""
    anchors = [ex.anchor for lesson in LESSONS for ex in exercises(lesson.name[:2])]
    assert len(anchors) == len(set(anchors)) == len(exercises())  # every exercise of the bank, each in its lesson
    assert exercise("03.2").anchor == "ex-03-2"
    for lesson in LESSONS:
        text = "".join(c.source for c in nbformat.read(lesson, as_version=4).cells if c.cell_type == "markdown")
        found = re.findall(r'<a id="(ex-[^"]+)"></a>', text)
        assert found == [ex.anchor for ex in exercises(lesson.name[:2])], lesson.name


def test_the_shipped_practice_segments_are_sacrebleus_13a_tokens_of_the_data():
    """segments_13a.json.gz (scripts/practice_segments.py) equals sacreBLEU's 13a tokenizing the shipped WMT21 zh-en
    texts now, text by text, and the drawers read it in the data's order."""
    import gzip
    import json
    from importlib.resources import files

    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    from bleu_teach.exercises import drawers
    from bleu_teach.lessons.data import wmt21_ted

    shipped = json.loads(gzip.decompress(files("bleu_teach.exercises").joinpath(drawers.SEGMENTS_FILE).read_bytes()))
    ted = wmt21_ted("zh-en")
    sacre = Tokenizer13a()
    assert list(shipped["systems"]) == list(ted.systems) and list(shipped["references"]) == ["ref-A", "ref-B"]
    for laid, texts in [
        *((shipped["references"][name], ted.references[name]) for name in ("ref-A", "ref-B")),
        *((shipped["systems"][name], ted.systems[name]) for name in ted.systems),
    ]:
        assert [tokens.split() for tokens in laid] == [sacre(text).split() for text in texts]
    expected = tuple(
        (tuple(sacre(hyp).split()), tuple(sacre(a).split()), tuple(sacre(b).split()))
        for hyps in ted.systems.values()
        for hyp, a, b in zip(hyps, ted.references["ref-A"], ted.references["ref-B"])
    )
    assert drawers._tokenized() == expected
