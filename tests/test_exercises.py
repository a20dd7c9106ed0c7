"""Checkers: the right answer passes, each misconception gets its own feedback."""

from __future__ import annotations

from fractions import Fraction

import pytest

import bleu_teach as bt
from bleu_teach.exercises.checkers import (
    Feedback,
    check_brevity_penalty,
    check_choice,
    check_higher,
    check_modified_precision,
    check_ngram_count,
)
from bleu_teach.exercises.score_checkers import check_bleu, check_corpus_bleu
from tests.view_checks import check_every_view

# These tests give the checkers small made-up questions, many of which cannot tell every mistake apart; the
# warning that says so is tested on its own below (test_a_teachers_own_question_...).
pytestmark = pytest.mark.filterwarnings("ignore::bleu_teach.exercises.distinct.IndistinctAnswersWarning")

REFS = [["the", "cat", "is", "on", "the", "mat"], ["there", "is", "a", "cat", "on", "the", "mat"]]


def test_modified_precision_right_and_misconceptions():
    hyp = ["the"] * 7
    assert check_modified_precision("2/7", REFS, hyp).correct is True
    assert check_modified_precision(Fraction(2, 7), REFS, hyp).correct is True
    assert "did not clip" in check_modified_precision(1.0, REFS, hyp).message
    assert check_modified_precision("3/7", REFS, hyp).recognised == "summed_references"
    assert "1-grams in reference 1;" in check_modified_precision("2/6", REFS, hyp).message
    assert "1-grams in reference 2;" in check_modified_precision("2/7", REFS, ["the"] * 8).message
    assert check_modified_precision(None, REFS, hyp).correct is None
    # An answer that matches nothing gets a hint that does not give the answer away.
    hint = check_modified_precision("4/7", REFS, hyp)
    assert hint.verdict == "wrong" and "2/7" not in hint.message and "Hint:" in hint.message


def test_brevity_penalty_right_and_misconceptions():
    right = bt.brevity_penalty(6, 5)
    assert check_brevity_penalty(round(right, 3), [6, 9], 5).correct is True
    assert "longest reference" in check_brevity_penalty(round(bt.brevity_penalty(9, 5), 3), [6, 9], 5).message
    assert "brevity penalty applies" in check_brevity_penalty(1, [6, 9], 5).message
    import math

    assert "swapped r and c" in check_brevity_penalty(math.exp(1 - 5 / 6), [6, 9], 5).message


def test_bleu_right_and_misconceptions():
    hyp = "there is a cat sitting on the mat".split()
    report = bt.explain(REFS, hyp, weights=(0.5, 0.5))
    assert check_bleu(round(report.score, 3), REFS, hyp, (0.5, 0.5)).correct is True
    short = "the cat".split()
    r2 = bt.explain(REFS, short, weights=(0.5, 0.5))
    assert "forgot the brevity penalty" in check_bleu(r2.score / r2.brevity_penalty, REFS, short, (0.5, 0.5)).message
    hyp = "a cat sat on a mat".split()
    report = bt.explain(REFS, hyp, weights=(0.5, 0.5))
    p = [float(o.precision) for o in report.orders]
    arithmetic = float(report.brevity_penalty) * (p[0] + p[1]) / 2
    assert abs(arithmetic - report.score) > 0.01  # the example tells the two means apart
    assert "arithmetic mean" in check_bleu(arithmetic, REFS, hyp, (0.5, 0.5)).message


def test_bad_answer_text():
    with pytest.raises(ValueError, match="fraction such as 2/7"):
        check_modified_precision("two sevenths", REFS, ["the"])


def test_feedback_html_is_escaped():
    html = check_modified_precision("1", [["<b>"]], ["<b>"])._repr_html_()
    assert "<b>" not in html.replace("<b>\u2714 Correct:</b>", "")


@pytest.mark.parametrize(
    "answer, word, symbol",
    [("2/7", "Correct", "\u2714"), (1.0, "Not yet", "\u2718"), (None, "No answer yet", "\u270e")],
)
def test_feedback_is_one_line_of_text_and_a_symbol_and_a_word_elsewhere(answer, word, symbol, tmp_path):
    feedback = check_modified_precision(answer, REFS, ["the"] * 7)
    assert repr(feedback) == str(feedback) == feedback.to_text() == f"{word}: {feedback.message}"
    assert f"<b>{symbol} {word}:</b> " in feedback.to_html()
    assert feedback.to_markdown().startswith(f"**{symbol} {word}:** ")
    check_every_view(feedback, tmp_path)


def test_feedback_user_text_is_escaped_in_every_view():
    feedback = Feedback(False, "the n-gram <b>*A*</b> is not in the reference")
    assert "&lt;b&gt;*A*&lt;/b&gt;" in feedback.to_html() and "<b>*A*" not in feedback.to_html()
    assert "\\<b\\>\\*A\\*" in feedback.to_markdown()
    assert "\\textless{}b\\textgreater{}{*}A{*}" in feedback.to_latex()


def test_ngram_count_right_and_misconceptions():
    tokens = "the cat sat on the mat".split()
    assert check_ngram_count(5, tokens, 2).correct is True
    assert check_ngram_count("5", tokens, 2).correct is True
    assert "counted the tokens" in check_ngram_count(6, tokens, 2).message
    assert "off by one" in check_ngram_count(4, tokens, 2).message
    repeated = "the the the the".split()  # 3 bigrams, all the same one
    assert check_ngram_count(3, repeated, 2).correct is True
    assert "distinct" in check_ngram_count(1, repeated, 2).message
    assert check_ngram_count(7, tokens, 2).message.startswith("that is not it")
    assert check_ngram_count(0, ["a"], 2).correct is True
    with pytest.raises(ValueError):
        check_ngram_count(1, tokens, 0)


def test_rounding_rule_accepts_any_answer_within_it_and_fractions():
    # p_1 = 2/3, a repeating decimal.
    refs = [["a", "b", "x"]]
    feedback = check_modified_precision("2/3", refs, ["a", "b", "c"], decimals=2)
    assert feedback.correct is True and feedback.right == 2 / 3
    assert check_modified_precision(0.67, refs, ["a", "b", "c"], decimals=2).correct is True
    assert check_modified_precision(0.667, refs, ["a", "b", "c"], decimals=3).correct is True
    assert check_modified_precision(0.66, refs, ["a", "b", "c"], decimals=2).correct is False
    assert "rounded to 2 decimal places" in check_modified_precision(0.1, refs, ["a", "b", "c"], decimals=2).message


def test_brevity_penalty_first_reference_is_named_when_it_is_not_the_closest():
    import math

    feedback = check_brevity_penalty(round(math.exp(1 - 8 / 5), 3), [8, 6, 12], 5)
    assert feedback.recognised == "first_reference"
    assert check_brevity_penalty(round(math.exp(1 - 12 / 5), 3), [8, 6, 12], 5).recognised == "longest_reference"
    assert check_brevity_penalty(round(math.exp(1 - 5 / 6), 3), [8, 6, 12], 5).recognised == "swapped"
    assert check_brevity_penalty(round(math.exp(1 - 6 / 5), 3), [8, 6, 12], 5).correct is True


def test_bleu_zero_precision_misconceptions_only_when_a_precision_is_zero():
    refs = [["the", "cat", "is", "on", "the", "mat"]]
    hyp = "the cat sat on a mat".split()  # p_3 = p_4 = 0
    names = {m.name for m in check_bleu(None, refs, hyp).misconceptions}
    assert {"smoothed", "skipped_zero", "arithmetic_mean"} <= names
    smoothed = bt.explain(refs, hyp, smoothing="method1").score
    assert check_bleu(round(smoothed, 3), refs, hyp).recognised == "smoothed"
    full = {m.name for m in check_bleu(None, refs, "the cat is on the mat".split()).misconceptions}
    assert "smoothed" not in full and "no_brevity_penalty" not in full


def test_corpus_bleu_recognises_the_mean_of_sentence_scores():
    refs = [[["the", "cat", "is", "on", "the", "mat"]], [["good", "morning", "everyone"]]]
    hyps = [["the", "cat", "is", "on", "the", "mat"], ["good", "morning", "all"]]
    report = bt.explain_corpus(refs, hyps, smoothing="method1")
    assert check_corpus_bleu(round(report.score, 3), refs, hyps, smoothing="method1").correct is True
    mean = round(report.mean_sentence_score, 3)
    assert check_corpus_bleu(mean, refs, hyps, smoothing="method1").recognised == "mean_of_sentences"


def test_choice_and_prediction_checkers():
    options = {"A": "max", "B": "sum"}
    feedback = {"A": "right: max.", "B": "no: sum double-counts."}
    assert check_choice("a", options, "A", feedback).correct is True
    assert check_choice("B", options, "A", feedback).recognised == "B"
    assert check_choice("B", options, "A", feedback, {"B": "summed"}).recognised == "summed"
    with pytest.raises(TypeError, match="options must map option letters"):
        check_choice("A", None, "A", feedback)
    with pytest.raises(TypeError, match="letters such as"):
        check_choice("A", {1: "max", 2: "sum"}, "A", feedback)
    with pytest.raises(ValueError, match="right must be one of the option letters"):
        check_choice("A", options, "C", feedback)
    assert check_choice(None, options, "A", feedback).correct is None
    with pytest.raises(ValueError, match="Choose one of A, B"):
        check_choice("C", options, "A", feedback)
    with pytest.raises(TypeError, match="letter"):
        check_choice(1, options, "A", feedback)
    refs = [["the", "dog", "is", "chasing", "the", "cat"]]
    a, b = "the cat is chasing the dog".split(), "the cat is chased by the dog".split()
    assert check_higher("A", refs, a, b).correct is True
    assert check_higher("b", refs, a, b).recognised == "B"
    assert check_higher("same", refs, a, b).message != check_higher("b", refs, a, b).message


def test_a_teachers_own_question_that_cannot_tell_mistakes_apart_is_warned_about():
    from bleu_teach.exercises.distinct import IndistinctAnswersWarning

    # A teacher's own variant of lesson 01's question: 1.0 is the right answer, and also what no clipping,
    # summed references and dividing by reference 1's length give.
    refs = [["the", "cat", "sat"], ["a", "cat", "sat", "here"]]
    with pytest.warns(IndistinctAnswersWarning) as caught:
        feedback = check_modified_precision(None, refs, ["the", "cat", "sat"])
    message = str(caught[0].message)
    # The mistakes that give exactly the same number are offered as one, which names each of them.
    said = message[message.index("(right and ") : message.index(")")]
    for name in ("no clipping", "summed references", "reference denominator"):
        assert f" {name} " in f"{said} ".replace("/", " / "), message
    assert feedback.correct is None
    with pytest.warns(IndistinctAnswersWarning, match=r"\(right and shortest reference / mean length\)"):
        check_brevity_penalty(
            None, [9, 7], 8
        )  # c = 8 > r = 7 (the shortest): BP = 1, and the mean length 8 gives 1 too
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_brevity_penalty(None, [12, 5, 9, 15], 8)  # the shipped question tells every mistake apart


def test_a_wrong_number_is_advised_a_fraction_only_where_the_question_offers_one():
    from bleu_teach.exercises import check as check_bank

    for exercise_id, wrong in (("03.1", "0.5"), ("04.1", "0.6"), ("04.2", "0.4"), ("08.1", "-10")):
        message = check_bank(exercise_id, wrong).message
        assert message.startswith("that is not it") and "fraction" not in message, (exercise_id, message)
    assert "or as a fraction" in check_bank("01.1", "0.1").message  # p_1 is a count over a count
    # sacreBLEU prints BP from 0 to 1, so a BP 100 times too large is a percentage, not sacreBLEU's scale.
    bp = check_bank("03.1", "88.2").message
    assert "a percentage" in bp and "sacreBLEU" not in bp
    assert "sacreBLEU's 0-100 scale" in check_bank("04.1", "29.1").message  # 04.1's BLEU is 0.291


def test_an_answer_check_refuses_in_a_notebook_is_one_line_without_a_traceback():
    """``answer = "banana"`` on a numeric question: check's own ValueError (or TypeError) is shown as its one line;
    an error the cell made before calling check, or check called from a function, is shown as IPython shows it."""
    import subprocess
    import sys

    script = """
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
shell.run_cell("from bleu_teach.exercises import check\\nimport math", store_history=True)
for cell in ['answer = "banana"\\ncheck("01.1", answer)', 'answer = [1]\\ncheck("01.1", answer)',
             'check("01.1", math.sqrt(-1))', 'int("x")',
             'def f():\\n    return check("01.1", "banana")\\nanswer = f()']:
    result = shell.run_cell(cell, store_history=True)
    print("raised:", type(result.error_in_exec).__name__, flush=True)
"""
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env={"NO_COLOR": "1", "PATH": ""}
    )
    assert run.stdout.count("raised: ValueError") == 4 and "raised: TypeError" in run.stdout, run.stdout + run.stderr
    assert run.stderr.splitlines()[:2] == [
        "ValueError: Write the answer as a number or a fraction such as 2/7, not 'banana'.",
        "TypeError: Write the answer as a number or a fraction such as 2/7, not [1].",
    ]
    assert "math domain error" in run.stdout and "invalid literal for int()" in run.stdout
    assert run.stdout.count("Traceback") == 3  # sqrt(-1), int("x"), check inside a function: as usual


def test_an_unquoted_letter_in_a_notebook_is_told_to_put_it_in_quotes():
    """In IPython (a notebook's kernel), ``answer = B`` in an exercise cell says what to do; any other NameError is
    shown as IPython shows it.  A fresh process: the shell is a process-wide instance."""
    import subprocess
    import sys

    script = """
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance()
shell.run_cell("from bleu_teach.exercises import check", store_history=True)
for cell in ['answer = B\\ncheck("00.2", answer)', 'answer = same\\ncheck("00.2", answer)', 'x = B',
             'answer = Bee\\ncheck("00.2", answer)', 'def f():\\n    return B\\nanswer = f()\\ncheck("00.2", answer)']:
    result = shell.run_cell(cell, store_history=True)
    print("raised:", type(result.error_in_exec).__name__, flush=True)
"""
    run = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env={"NO_COLOR": "1", "PATH": ""}
    )
    told = 'NameError: B is read as a name. Put the letter in quotes: answer = "B"'
    assert run.stdout.count("raised: NameError") == 5, run.stdout + run.stderr  # the cell still stops
    assert run.stderr.splitlines()[:2] == [
        told,
        'NameError: same is read as a name. Put the option in quotes: answer = "same"',
    ]
    assert "Traceback" in run.stdout and "name 'Bee' is not defined" in run.stdout  # not a letter: as usual
    assert run.stdout.count("Traceback") == 3  # x = B (no check call), Bee, and B inside a function: as usual
