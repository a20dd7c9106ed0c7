"""Practice until mastery (bleu_teach.exercises.practice): another question like each numeric exercise, and streaks.

Each practice question's answer is recomputed with NLTK (or the formula) by the bank's tests' oracle, and every
misconception it offers must be told apart, as for the lessons' own questions.
"""

from __future__ import annotations

import pytest

from bleu_teach.exercises import check, exercise
from bleu_teach.exercises.practice import MASTERED_AFTER, PRACTISED, SKILLS, Streak, another
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


@pytest.mark.parametrize("exercise_id, number, error, words", [
    ("00.1", 1, ValueError, "numeric exercises"),
    ("99.9", 1, ValueError, "numeric exercises"),
    (3.1, 1, ValueError, "numeric exercises"),
    ("03.1", 0, ValueError, "from 1 to"),
    ("03.1", 10 ** 10, ValueError, "from 1 to"),
    ("03.1", "huge", ValueError, "5001 digits"),
    ("03.1", True, TypeError, "whole number"),
    ("03.1", "2", TypeError, "whole number"),
    ("03.1", 2.0, TypeError, "whole number"),
])
def test_bad_requests_are_refused_by_name(exercise_id, number, error, words):
    number = -10 ** 5000 if number == "huge" else number  # built here: a test id cannot print it
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
