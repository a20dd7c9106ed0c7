"""Practice until mastery (bleu_teach.exercises.practice): another question like each numeric exercise, and streaks.

Each practice question's answer is recomputed with NLTK (or the formula) by the bank's tests' oracle, and every
misconception it offers must be told apart, as for the lessons' own questions.
"""

from __future__ import annotations

import pytest

from bleu_teach.exercises import Exercise, check, exercise
from bleu_teach.exercises.practice import MASTERED_AFTER, MAX_NUMBER, PRACTISED, SKILLS, Streak, another, question_view
from tests.test_exercise_bank import as_float, assert_tells_its_misconceptions_apart, nltk_value, tolerance


@pytest.mark.parametrize("exercise_id", PRACTISED)
def test_each_numeric_exercise_gives_another_one_like_it(exercise_id: str):
    lesson = exercise(exercise_id)
    seen = set()
    for number in (1, 2, 3):
        question = another(exercise_id, number)
        assert (question.id, question.kind, question.decimals) == (lesson.id, lesson.kind, lesson.decimals)
        assert question.student is None and question.inputs != lesson.inputs
        assert abs(as_float(question.answer) - nltk_value(question)) <= tolerance(question)
        assert question.check(question.answer_text).verdict == "correct"
        assert_tells_its_misconceptions_apart(question)
        assert another(exercise_id, number) == question  # the same number, the same question
        seen.add(repr(sorted(question.inputs.items())))
    assert len(seen) >= 2  # a learner who asks again gets another question
    assert exercise_id in SKILLS


def test_a_wrong_practice_answer_is_named_as_in_the_lesson():
    question = another("03.1", 4)
    mistake = question.check(None).misconceptions[0]
    feedback = question.check(round(float(mistake.value), 3))
    assert feedback.verdict == "misconception" and feedback.recognised == mistake.name
    assert check("03.1", None).misconceptions  # the lesson's own question is untouched


@pytest.mark.parametrize(
    "exercise_id, number, error, words",
    [
        ("00.1", 1, ValueError, "numeric exercises"),
        ("99.9", 1, ValueError, "numeric exercises"),
        (3.1, 1, ValueError, "numeric exercises"),
        ("03.1", 0, ValueError, "from 1 to"),
        ("03.1", 10**10, ValueError, "from 1 to"),
        ("03.1", "huge", ValueError, "5001 digits"),
        ("03.1", True, TypeError, "whole number"),
        ("03.1", "2", TypeError, "whole number"),
        ("03.1", 2.0, TypeError, "whole number"),
    ],
)
def test_bad_requests_are_refused_by_name(exercise_id, number, error, words):
    number = -(10**5000) if number == "huge" else number  # built here: a test id cannot print it
    with pytest.raises(error, match=words):
        another(exercise_id, number)


def test_three_right_in_a_row_master_a_skill_and_a_wrong_answer_ends_the_run():
    streak = Streak("03.1")
    assert "3 more in a row" in streak.message()
    for verdict, run in (("correct", 1), ("misconception", 0), ("correct", 1), ("unanswered", 1), ("correct", 2)):
        streak = streak.after(verdict)
        assert streak.in_a_row == run and not streak.mastered
    streak = streak.after(another("03.1", 1).check(another("03.1", 1).answer_text))
    assert streak.in_a_row == MASTERED_AFTER and streak.mastered and "mastered" in streak.message()
    streak = streak.after("wrong")
    assert streak.in_a_row == 0 and streak.best == MASTERED_AFTER and streak.mastered  # mastery stays
    with pytest.raises(ValueError, match="verdict"):
        streak.after("right")


def test_only_the_first_answer_to_each_practice_question_counts():
    streak = Streak("03.1")
    streak = streak.after("misconception", 1).after("correct", 1)  # put right after its diagnosis: feedback only
    assert (streak.in_a_row, streak.last) == (0, 1)
    streak = streak.after("correct", 2).after("correct", 2).after("correct", 2)
    assert (streak.in_a_row, streak.best, streak.last) == (1, 1, 2)
    streak = streak.after("unanswered", 3)  # an empty box is not an answer: question 3 still counts when answered
    assert streak.last == 2 and streak.after("correct", 3).in_a_row == 2
    for bad in (0, -1, True, "3", 1.0, MAX_NUMBER + 1):
        with pytest.raises(ValueError, match="question must be"):
            streak.after("correct", bad)


@pytest.mark.parametrize(
    "kept",
    [
        None,
        "x",
        [],
        {},
        {"in_a_row": 1},
        {"in_a_row": "1", "best": 1, "last": 1},
        {"in_a_row": -1, "best": 1, "last": 1},
        {"in_a_row": True, "best": 1, "last": 1},
        {"in_a_row": 1, "best": 10**12, "last": 1},
    ],
)
def test_a_kept_streak_that_is_not_one_starts_afresh(kept):
    assert Streak.restore("03.1", kept) == Streak("03.1")


def test_a_kept_streak_is_read_back_as_it_was_kept():
    streak = Streak("03.1").after("correct", 4).after("correct", 5)
    kept = streak.to_dict()
    assert kept == {"in_a_row": 2, "best": 2, "last": 5, "mastered": False, "skill": SKILLS["03.1"]}
    assert Streak.restore("03.1", kept) == streak
    assert Streak.restore("03.1", {"in_a_row": 9, "best": 3, "last": 1}).in_a_row == 3  # never above the best
    with pytest.raises(ValueError, match="numeric exercises"):
        Streak.restore("00.1", kept)


def test_the_question_view_asks_without_the_lesson_and_holds_no_answer():
    view = question_view("08.1", 2)
    text = view.to_text()
    question = another("08.1", 2)
    assert text.startswith("Practice 2, like question 1 (an MQM score).")  # the lesson calls it question 1
    assert "The errors, from WMT21's expert ratings" in text and "press Check" in text  # the context, the page's words
    assert "table below" not in text  # the lesson's own words ("the table below lists them") are the lesson's
    assert view.data == {"id": "08.1", "number": 2, "inputs": dict(question.inputs)}
    assert "answer" not in view.to_json()


# ---------------------------------------------------------------------------
# The page's Python (bleu_teach.web.page) and the notebook's widget: the same questions, checks and streaks
# ---------------------------------------------------------------------------


def test_the_page_draws_the_question_after_the_one_it_kept():
    import json

    from bleu_teach.web import page

    def ask(previous, streak=None):  # noqa: ANN001, ANN202
        return json.loads(page.practice_json("03.1", json.dumps({"previous": previous, "streak": streak})))

    assert ask(None)["number"] == 1
    assert ask(4, {"in_a_row": 2, "best": 2, "last": 4})["number"] == 5
    for kept in (-3, 1.5, "4", True, {}, [], MAX_NUMBER):  # a hand-edited store, or the last question: start at 1
        assert ask(kept)["number"] == 1, kept
    for text in ("not json", "[]", "4"):
        assert json.loads(page.practice_json("03.1", text))["number"] == 1, text
    refused = json.loads(page.practice_json("99.9", "{}"))
    assert refused["number"] is None and "No practice like exercise" in refused["message"]
    shown = ask(None)
    assert shown["html"] == question_view("03.1", 1).to_html() and shown["label"] == "a number from 0 to 1"


def test_asking_for_another_before_answering_ends_the_run():
    import json

    from bleu_teach.web import page

    answered = {"in_a_row": 2, "best": 2, "last": 4}
    after = json.loads(page.practice_json("03.1", json.dumps({"previous": 4, "streak": answered})))
    assert after["streak"]["in_a_row"] == 2 and "2 right in a row" in after["streak_text"]  # 4 was answered
    skipped = json.loads(page.practice_json("03.1", json.dumps({"previous": 5, "streak": answered})))
    assert skipped["number"] == 6 and skipped["streak"] | {} == {
        "in_a_row": 0,
        "best": 2,
        "last": 5,
        "mastered": False,
        "skill": SKILLS["03.1"],
    }
    assert Streak("03.1").after("skipped", 1).in_a_row == 0


def test_a_page_reloaded_before_its_question_was_answered_asks_the_same_one_with_the_streak_as_it_was():
    import json

    from bleu_teach.web import page

    answered = {"in_a_row": 2, "best": 2, "last": 4}
    fifth = json.loads(page.practice_json("03.1", json.dumps({"previous": 4, "streak": answered})))
    again = json.loads(page.practice_json("03.1", json.dumps({"previous": 5, "streak": answered, "again": True})))
    assert again["number"] == 5 and again["html"] == fifth["html"]  # the same question, not the sixth
    assert again["streak"]["in_a_row"] == 2 and again["streak_text"] == fifth["streak_text"]  # no skip counted
    # "again" must be true itself (a hand-edited store's "yes" is the next question, as before)
    other = json.loads(page.practice_json("03.1", json.dumps({"previous": 5, "streak": answered, "again": "yes"})))
    assert other["number"] == 6 and other["streak"]["in_a_row"] == 0


@pytest.mark.parametrize("exercise_id", PRACTISED)
def test_no_practice_question_is_one_of_the_19_before_it_in_substance(exercise_id: str):
    """Not the same inputs, nor the same question with its words moved (a clipping question's references and the
    hypothesis's words in any order; a brevity penalty's lengths in any order)."""

    def same(ex: Exercise) -> str:
        given = ex.inputs
        if ex.kind == "modified_precision":
            return repr((given["references"], sorted(given["hypothesis"].split()), given["n"]))
        if ex.kind == "brevity_penalty":
            return repr((sorted(given["reference_lengths"]), given["hypothesis_length"]))
        return repr(sorted(given.items()))

    keys = [same(another(exercise_id, n)) for n in range(1, 61)]
    assert not [n + 1 for n in range(60) if keys[n] in keys[max(0, n - 19) : n]]


def test_a_practice_question_says_that_capital_letters_count():
    assert "capital letters count" in another("01.1", 1).question and "capital" in question_view("02.1", 3).to_text()


def test_the_page_checks_a_practice_answer_and_keeps_the_streak():
    import json

    from bleu_teach.web import page

    question = another("03.1", 7)
    mistake = question.check(None).misconceptions[0]
    sent = {"number": 7, "answer": f"{float(mistake.value):.3f}", "streak": {"in_a_row": 2, "best": 2, "last": 6}}
    result = json.loads(page.practice_check_json("03.1", json.dumps(sent)))
    assert result["verdict"] == "misconception" and result["html"] == question.check(sent["answer"]).to_html()
    assert result["streak"] == {"in_a_row": 0, "best": 2, "last": 7, "mastered": False, "skill": SKILLS["03.1"]}
    sent |= {"answer": f"“{question.answer_text}”", "streak": {"in_a_row": 2, "best": 2, "last": 6}}
    result = json.loads(page.practice_check_json("03.1", json.dumps(sent)))
    assert result["verdict"] == "correct" and result["streak"]["mastered"] and "mastered" in result["streak_text"]
    for text in (
        "[]",
        "nonsense",
        json.dumps({"number": "7", "answer": "0.5"}),
        json.dumps({"number": 0, "answer": "0.5"}),
    ):
        result = json.loads(page.practice_check_json("03.1", text))
        assert result["verdict"] == "" and result["streak"] is None and "Another one" in result["html"], text
    empty = json.loads(page.practice_check_json("03.1", json.dumps({"number": 7, "answer": " "})))
    assert empty["verdict"] == "" and empty["streak"]["in_a_row"] == 0 and "Type your answer" in empty["html"]


def test_the_notebook_widget_asks_checks_and_keeps_a_streak_as_the_page_does():
    pytest.importorskip("ipywidgets")
    from bleu_teach.ui.practice_widget import Practice

    widget = Practice("03.1")
    assert repr(widget) == "Practice('03.1', number=1)" and "Practice 1, like question 1" in widget.question.value
    widget.answer.value = f"{float(another('03.1', 1).check(None).misconceptions[0].value):.3f}"
    assert widget.check() == "misconception" and "0 right in a row" in widget.streak_line.value
    for number in (2, 3, 4):
        widget.another()
        assert widget.number == number and widget.answer.value == "" and widget.feedback.value == ""
        widget.answer.value = another("03.1", number).answer_text
        assert widget.check() == "correct"
    assert widget.streak_line.value.startswith("The brevity penalty: mastered (3 right in a row)")
    widget.answer.value = ""
    assert widget.check() == "" and "Type your answer" in widget.feedback.value
    widget.another_button.click()  # question 4 was answered: the run goes on
    assert widget.number == 5 and "3 in a row now" in widget.streak_line.value
    widget.another()  # question 5 was not: skipping it ends the run (mastery stays)
    assert widget.number == 6 and "0 in a row now" in widget.streak_line.value
    last = Practice("03.1", MAX_NUMBER)
    last.another()
    assert last.number == 1  # after the last question, the first again (as on the page)
    with pytest.raises(TypeError, match="Practice: exercise_id must be a string"):
        Practice(None)
    with pytest.raises(ValueError, match="Practice: exercise_id"):
        Practice("00.1")
    with pytest.raises(TypeError, match="Practice: number"):
        Practice("03.1", "2")
    with pytest.raises(ValueError, match="Practice: number"):
        Practice("03.1", 0)
