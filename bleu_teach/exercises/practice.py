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

:func:`question_view` is the question as every medium shows it (the
notebook's practice widget, the lesson page): what a reader needs without
the lesson, the question, and how to answer, with the inputs as its data and
never the answer.

:class:`Streak` counts a learner's right answers in a row on one skill, the
first answer to each practice question only (an answer tried again after
its diagnosis is feedback, not a new success); :data:`MASTERED_AFTER` in a
row marks the skill as mastered.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from bleu_teach.exercises.bank import Exercise, exercises
from bleu_teach.exercises.feedback import Feedback
from bleu_teach.exercises.media import question_text
from bleu_teach.exercises.variants import VARIED, dealt
from bleu_teach.inputs.validation import preview, whole_number_text
from bleu_teach.views.document import Document, Label, Paragraph, Strong
from bleu_teach.views.formatting import plain_markdown
from bleu_teach.views.viewable import View

__all__ = ["PRACTISED", "SKILLS", "MASTERED_AFTER", "MAX_NUMBER", "another", "question_view", "Streak"]

#: The exercises that can give another one like them: every numeric exercise with variants.
PRACTISED: tuple[str, ...] = VARIED
#: What each one practises, as the index's progress names it (each record's ``skill`` in bank.toml).
SKILLS: dict[str, str] = {ex.id: ex.skill for ex in exercises() if ex.id in PRACTISED}
#: Right answers in a row that mark a skill as mastered.
MASTERED_AFTER = 3
#: The highest practice number (a bound on what a page or a link can ask for).
MAX_NUMBER = 10**9


def another(exercise_id: Any, number: Any = 1) -> Exercise:
    """The ``number``-th practice question like exercise ``exercise_id`` (``number`` from 1).

    >>> q = another("03.1", 1)
    >>> q.id, q.kind, q.student, q.check(q.answer_text).verdict
    ('03.1', 'brevity_penalty', None, 'correct')
    >>> another("03.1", 1).inputs == q.inputs != another("03.1", 2).inputs
    True
    """
    if not isinstance(exercise_id, str) or exercise_id not in PRACTISED:
        raise ValueError(
            f"exercise_id must be one of the numeric exercises {', '.join(PRACTISED)}, not {preview(exercise_id)}."
        )
    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError(f"number must be a whole number from 1 (the first practice question), not {preview(number)}.")
    if not 1 <= number <= MAX_NUMBER:
        raise ValueError(f"number must be from 1 to {MAX_NUMBER:,}; got {whole_number_text(number)}.")
    question = dealt(exercise_id, number, f"practice/{exercise_id}")  # none the same within DEAL_WINDOW numbers
    return replace(question, title=f"{question.title}: practice {number}")


def question_view(exercise_id: Any, number: Any = 1) -> View:
    """The ``number``-th practice question like ``exercise_id``, as the notebook's widget and the page show it.

    Its data is what the question asks about (the inputs), never its answer.

    >>> print(question_view("03.1", 1).to_text().splitlines()[0])
    Practice 1, like question 1 (the brevity penalty).
    """
    question = another(exercise_id, number)
    parts = question_text(question, "practice").split("\n\n")
    blocks = [Paragraph((Strong(f"Practice {number}, like question {question.number} ({SKILLS[question.id]})."),))]
    blocks += [Paragraph((Label(plain_markdown(part)),)) for part in parts]
    return View(Document(tuple(blocks)), {"id": question.id, "number": number, "inputs": dict(question.inputs)})


@dataclass(frozen=True)
class Streak:
    """A learner's run of right answers on one skill: now, the best so far, and the last question counted.

    Only the first answer to each practice question counts (``question``, its number): an answer tried again on
    the same question, after its diagnosis, leaves the streak as it was.

    >>> s = Streak("03.1")
    >>> for number, verdict in enumerate(("correct", "correct", "wrong", "correct", "correct", "correct"), 1):
    ...     s = s.after(verdict, number)
    >>> s.in_a_row, s.best, s.mastered, s.after("wrong", 6) == s
    (3, 3, True, True)
    """

    exercise_id: str
    in_a_row: int = 0
    best: int = 0
    #: The practice question whose first answer counted last (0: none yet).
    last: int = 0

    @classmethod
    def restore(cls, exercise_id: Any, kept: Any) -> Streak:
        """A streak as a page kept it (``{"in_a_row": 2, "best": 2, "last": 5}``), read with care: anything
        that is not such a record (a hand-edited store, an older page's) starts a new streak."""
        if not isinstance(exercise_id, str) or exercise_id not in PRACTISED:
            raise ValueError(
                f"exercise_id must be one of the numeric exercises {', '.join(PRACTISED)}, not {preview(exercise_id)}."
            )
        values = [kept.get(key) if isinstance(kept, dict) else None for key in ("in_a_row", "best", "last")]
        counts = [v for v in values if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_NUMBER]
        if len(counts) != 3:
            return cls(exercise_id)
        in_a_row, best, last = counts
        return cls(exercise_id, min(in_a_row, best), best, last)

    def to_dict(self) -> dict[str, Any]:
        """What a page keeps (:meth:`restore` reads it back), with whether the skill is mastered."""
        return {
            "in_a_row": self.in_a_row,
            "best": self.best,
            "last": self.last,
            "mastered": self.mastered,
            "skill": self.skill,
        }

    @property
    def mastered(self) -> bool:
        """True once :data:`MASTERED_AFTER` answers in a row were right (it stays mastered)."""
        return self.best >= MASTERED_AFTER

    @property
    def skill(self) -> str:
        return SKILLS.get(self.exercise_id, self.exercise_id)

    @property
    def _named(self) -> str:  # the skill at the start of a sentence
        return self.skill[:1].upper() + self.skill[1:]

    def after(self, result: Feedback | str, question: int | None = None) -> Streak:
        """The streak after one more answer (a :class:`Feedback`, or its verdict: ``"correct"``, ...) to practice
        question number ``question``.

        An unanswered check leaves the streak as it was, and so does a second answer to the question counted
        last; any other wrong answer ends the run, and so does ``"skipped"`` (another question asked for before
        this one was answered: otherwise a learner could skip the hard ones and keep the run).
        """
        verdict = result.verdict if isinstance(result, Feedback) else result
        if verdict not in ("correct", "misconception", "wrong", "unanswered", "skipped"):
            raise ValueError(
                f"result must be a Feedback or a verdict ('correct', 'misconception', 'wrong', "
                f"'unanswered' or 'skipped'), not {preview(result)}."
            )
        if question is not None and (
            isinstance(question, bool) or not isinstance(question, int) or not 1 <= question <= MAX_NUMBER
        ):
            raise ValueError(
                f"question must be a practice question's number from 1 to {MAX_NUMBER:,}, not {preview(question)}."
            )
        if verdict == "unanswered" or (question is not None and question == self.last):
            return self
        run = self.in_a_row + 1 if verdict == "correct" else 0
        return replace(self, in_a_row=run, best=max(self.best, run), last=question or self.last)

    def message(self) -> str:
        """One line for the learner: the run, and how far mastery is (or that it is reached)."""
        if self.mastered:
            return f"{self._named}: mastered ({self.best} right in a row); {self.in_a_row} in a row now."
        left = MASTERED_AFTER - self.in_a_row
        return (
            f"{self._named}: {self.in_a_row} right in a row; {left} more in a row to master it "
            "(the first answer to each question counts)."
        )
