"""What the teacher's dashboard shows: per exercise, how many answered, and the split by verdict and by mistake.

An answer is judged on the server with the exercise bank's own checker
(:func:`judge`): a page may say what it likes, the session counts what the
checker says. Each student's last answer to an exercise is the one counted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from bleu_teach.classroom.schema import NOT_AN_ANSWER  # the mistake named for an unreadable answer
from bleu_teach.classroom.store import Answer, Store, Student
from bleu_teach.exercises.bank import exercise, exercises
from bleu_teach.exercises.feedback import Feedback
from bleu_teach.web.page import typed

#: A student's verdict on each exercise, one letter each in the roster (500 students' rows stay small): right,
#: a named mistake, wrong, or "-" for not answered.
LETTER = {"correct": "r", "misconception": "m", "wrong": "w", "": "-"}


@dataclass(frozen=True)
class Judged:
    verdict: str  # "correct", "misconception" or "wrong"
    mistake: str  # the named misconception, in words; "" when there is none


@lru_cache(maxsize=4096)
def judge(exercise_id: str, answer: str) -> Judged:
    """The bank's verdict on ``answer`` (the text a student typed or the letter chosen), without hints or state.

    Kept for the last 4,096 (exercise, answer) pairs: a class types the same few answers to a question, and each
    verdict works out every named mistake of the question (milliseconds), the same every time."""
    try:
        ex = exercise(exercise_id)
    except (KeyError, ValueError):
        raise ValueError(f"exercise: there is no exercise {str(exercise_id)[:16]!r}; reload the page.") from None
    return verdict_of(ex.check, answer)


def verdict_of(check: Callable[[Any], Feedback], answer: str) -> Judged:
    """What ``check`` (an exercise's or a variant's) says of ``answer`` as typed: the verdict and the mistake named."""
    try:
        feedback = check(typed(answer))
    except (TypeError, ValueError):
        return Judged("wrong", NOT_AN_ANSWER)
    if feedback.verdict == "unanswered":
        raise ValueError("answer: it is empty; type or choose one.")
    return Judged(feedback.verdict, (feedback.recognised or "").replace("_", " "))


def _tally(values: Iterable[str]) -> dict[str, int]:
    """How many times each value comes, in the order first seen (the dashboard's bars; not n-grams)."""
    found: dict[str, int] = {}
    for value in values:
        found[value] = found.get(value, 0) + 1
    return found


def counts(latest: Iterable[Answer], roster: Iterable[Student], names: bool) -> dict[str, Any]:
    """The dashboard's numbers, as JSON: ``exercises`` (in the course's order, those answered) and, with
    ``names``, each student's verdict per exercise, one letter per exercise in the order of ``exercises``
    (:data:`LETTER`; the projector's view has no names). Only the students in ``roster`` count: the answers of one
    the teacher removed are left out."""
    people = list(roster)
    present = {student.id for student in people}  # a student the teacher removed counts no more
    per_exercise: dict[str, list[Answer]] = {}
    for answer in latest:
        if answer.student_id in present:
            per_exercise.setdefault(answer.exercise, []).append(answer)
    shown = []
    for ex in exercises():
        given = per_exercise.get(ex.id)
        if not given:
            continue
        verdicts = _tally(answer.verdict for answer in given)
        mistakes = _tally(answer.mistake for answer in given if answer.mistake and answer.verdict == "misconception")
        shown.append(
            {
                "id": ex.id,
                "title": ex.title,
                "answered": len(given),
                "verdicts": {verdict: verdicts.get(verdict, 0) for verdict in ("correct", "misconception", "wrong")},
                "mistakes": [
                    {"name": name, "count": count}
                    for name, count in sorted(mistakes.items(), key=lambda item: -item[1])
                ],
                "late": sum(answer.late for answer in given),
            }
        )
    result: dict[str, Any] = {"exercises": shown, "students": len(people)}
    if names:
        by_student: dict[int, dict[str, str]] = {}
        for ex_answers in per_exercise.values():
            for answer in ex_answers:
                by_student.setdefault(answer.student_id, {})[answer.exercise] = answer.verdict
        order = [ex.id for ex in exercises() if ex.id in per_exercise]  # the order of "exercises" above
        result["roster"] = [
            {
                "id": student.id,
                "nickname": student.nickname,
                "verdicts": "".join(LETTER[by_student.get(student.id, {}).get(ex_id, "")] for ex_id in order),
            }
            for student in people
        ]
    return result


@dataclass
class Latest:
    """Each student's last answer per exercise in one session, kept up to date by reading only what is new.

    :meth:`update` reads the answers made since the newest one seen, less a
    margin (answers stored by another worker a little out of order, or with a
    clock a little behind), and skips those it has seen.
    """

    session_id: int
    margin: timedelta = timedelta(seconds=10)
    latest: dict[tuple[int, str], Answer] = field(default_factory=dict)
    seen: set[tuple[int, str]] = field(default_factory=set)
    newest: datetime | None = None

    def update(self, store: Store) -> bool:
        """Read what is new; whether anything was."""
        found = (
            store.answers(self.session_id)
            if self.newest is None
            else store.answers_since(self.session_id, self.newest - self.margin)
        )
        changed = False
        for answer in found:
            key = (answer.student_id, answer.answer_id)
            if key in self.seen:
                continue
            self.seen.add(key)
            changed = True
            kept = self.latest.get((answer.student_id, answer.exercise))
            if kept is None or (answer.at, answer.answer_id) >= (kept.at, kept.answer_id):
                self.latest[(answer.student_id, answer.exercise)] = answer
            if self.newest is None or answer.at > self.newest:
                self.newest = answer.at
        return changed
