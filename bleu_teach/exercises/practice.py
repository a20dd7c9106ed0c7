"""Practice until mastery: another question like a numeric exercise, as often as the learner likes, and a streak.

:func:`another` gives the n-th practice question like a numeric exercise of
the bank (:data:`PRACTISED`): a variant from the worksheets' engine
(:mod:`bleu_teach.exercises.variants`), with new sentences, references or
lengths from the WMT21 data, checked like every variant (the right answer
and each misconception's answer differ after rounding), so that
``question.check(answer)`` names the same misconceptions as the lesson's
question.  Its random stream is its own, seeded by the exercise and the
number: the same number always gives the same question (a learner can come
back to it), and the stream is never a worksheet's (those are seeded by
the teacher's seed and the exercise).  The answer is computed where it is
checked, from the question's inputs; nothing stores it.

:class:`Streak` counts a learner's right answers in a row on one skill;
:data:`MASTERED_AFTER` in a row marks the skill as mastered.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from bleu_teach.exercises.bank import Exercise
from bleu_teach.exercises.feedback import Feedback
from bleu_teach.exercises.variants import VARIED, draw_any
from bleu_teach.inputs.validation import preview, whole_number_text

__all__ = ["PRACTISED", "SKILLS", "MASTERED_AFTER", "MAX_NUMBER", "another", "Streak"]

#: The exercises that can give another one like them: every numeric exercise with variants.
PRACTISED: tuple[str, ...] = VARIED
#: What each one practises, as the index's progress names it.
SKILLS: dict[str, str] = {
    "01.1": "clipping against two references",
    "02.1": "modified bigram precision",
    "03.1": "the brevity penalty",
    "04.1": "sentence BLEU with smoothing",
    "04.2": "corpus BLEU",
    "07.1": "clipping a stutter",
    "08.1": "an MQM score",
}
#: Right answers in a row that mark a skill as mastered.
MASTERED_AFTER = 3
#: The highest practice number (a bound on what a page or a link can ask for).
MAX_NUMBER = 10 ** 9


def another(exercise_id: Any, number: Any = 1) -> Exercise:
    """The ``number``-th practice question like exercise ``exercise_id`` (``number`` from 1).

    >>> q = another("03.1", 1)
    >>> q.id, q.kind, q.student, q.check(q.answer_text).verdict
    ('03.1', 'brevity_penalty', None, 'correct')
    >>> another("03.1", 1).inputs == q.inputs != another("03.1", 2).inputs
    True
    """
    if not isinstance(exercise_id, str) or exercise_id not in PRACTISED:
        raise ValueError(f"exercise_id must be one of the numeric exercises {', '.join(PRACTISED)}, "
                         f"not {preview(exercise_id)}.")
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError(f"number must be a whole number from 1 (the first practice question), not {preview(number)}.")
    if not 1 <= number <= MAX_NUMBER:
        raise ValueError(f"number must be from 1 to {MAX_NUMBER:,}; got {whole_number_text(number)}.")
    question = draw_any(exercise_id, random.Random(f"practice/{exercise_id}/{number}"))
    return replace(question, title=f"{question.title}: practice {number}")


@dataclass(frozen=True)
class Streak:
    """A learner's run of right answers on one skill: now, and the best so far.

    >>> s = Streak("03.1")
    >>> for verdict in ("correct", "correct", "wrong", "correct", "correct", "correct"):
    ...     s = s.after(verdict)
    >>> s.in_a_row, s.best, s.mastered
    (3, 3, True)
    """

    exercise_id: str
    in_a_row: int = 0
    best: int = 0

    @property
    def mastered(self) -> bool:
        """True once :data:`MASTERED_AFTER` answers in a row were right (it stays mastered)."""
        return self.best >= MASTERED_AFTER

    @property
    def skill(self) -> str:
        return SKILLS.get(self.exercise_id, self.exercise_id)

    def after(self, result: Feedback | str) -> "Streak":
        """The streak after one more answer: a :class:`Feedback`, or its verdict (``"correct"``, ...).

        An unanswered check (``None``) leaves the streak as it was; any wrong answer ends the run.
        """
        verdict = result.verdict if isinstance(result, Feedback) else result
        if verdict not in ("correct", "misconception", "wrong", "unanswered"):
            raise ValueError(f"result must be a Feedback or a verdict ('correct', 'misconception', 'wrong' or "
                             f"'unanswered'), not {preview(result)}.")
        if verdict == "unanswered":
            return self
        run = self.in_a_row + 1 if verdict == "correct" else 0
        return replace(self, in_a_row=run, best=max(self.best, run))

    def message(self) -> str:
        """One line for the learner: the run, and how far mastery is (or that it is reached)."""
        if self.mastered:
            return f"{self.skill}: mastered ({self.best} right in a row); {self.in_a_row} in a row now."
        left = MASTERED_AFTER - self.in_a_row
        return (f"{self.skill}: {self.in_a_row} right in a row; {left} more in a row to master it.")
