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


@dataclass
class Tally:
    """One exercise's last answers, counted: how many, per verdict and per named mistake, and how many were late.
    Kept up to date answer by answer (:meth:`add`), so that a dashboard's count does not go through every answer
    of the session again (at 1,000 students, 26,000 answers four times a second)."""

    answered: int = 0
    verdicts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(("correct", "misconception", "wrong"), 0))
    mistakes: dict[str, int] = field(default_factory=dict)
    late: int = 0

    def add(self, answer: Answer, sign: int = 1) -> None:
        """Count ``answer`` in (``sign`` 1) or out (-1)."""
        self.answered += sign
        self.verdicts[answer.verdict] = self.verdicts.get(answer.verdict, 0) + sign
        if answer.mistake and answer.verdict == "misconception":
            left = self.mistakes.get(answer.mistake, 0) + sign
            if left:
                self.mistakes[answer.mistake] = left
            else:
                del self.mistakes[answer.mistake]
        self.late += sign * bool(answer.late)

    def less(self, answers: Iterable[Answer]) -> Tally:
        """A copy without ``answers`` (those of students the teacher removed)."""
        kept = Tally(self.answered, dict(self.verdicts), dict(self.mistakes), self.late)
        for answer in answers:
            kept.add(answer, -1)
        return kept


def counts(latest: Latest | Iterable[Answer], roster: Iterable[Student], names: bool) -> dict[str, Any]:
    """The dashboard's numbers, as JSON: ``exercises`` (in the course's order, those answered) and, with
    ``names``, each student's verdict per exercise, one letter per exercise in the order of ``exercises``
    (:data:`LETTER`; the projector's view has no names). ``latest``: each student's last answer per exercise, kept
    counted (:class:`Latest`) or as read. Only the students in ``roster`` count: the answers of one the teacher
    removed are left out. A question's mistakes come most made first, those made as often by name."""
    if not isinstance(latest, Latest):
        given = latest
        latest = Latest(0)
        for answer in given:
            latest.put(answer)
    people = list(roster)
    present = {student.id for student in people}  # a student the teacher removed counts no more
    gone: dict[str, list[Answer]] = {}
    for student_id, theirs in latest.by_student.items():
        if student_id not in present:
            for exercise_id, answer in theirs.items():
                gone.setdefault(exercise_id, []).append(answer)
    shown = []
    order = []
    for ex in exercises():
        tally = latest.tallies.get(ex.id)
        if tally is not None and ex.id in gone:
            tally = tally.less(gone[ex.id])
        if tally is None or not tally.answered:
            continue
        order.append(ex.id)
        shown.append(
            {
                "id": ex.id,
                "title": ex.title,
                "answered": tally.answered,
                "verdicts": {
                    verdict: tally.verdicts.get(verdict, 0) for verdict in ("correct", "misconception", "wrong")
                },
                "mistakes": [
                    {"name": name, "count": count}
                    for name, count in sorted(tally.mistakes.items(), key=lambda item: (-item[1], item[0]))
                ],
                "late": tally.late,
            }
        )
    result: dict[str, Any] = {"exercises": shown, "students": len(people)}
    if names:
        result["roster"] = [
            {
                "id": student.id,
                "nickname": student.nickname,
                "verdicts": "".join(
                    LETTER[answer.verdict if answer is not None else ""]
                    for answer in map(latest.by_student.get(student.id, {}).get, order)
                ),
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
    by_student: dict[int, dict[str, Answer]] = field(default_factory=dict)  # the same answers, by student
    tallies: dict[str, Tally] = field(default_factory=dict)  # and counted per exercise
    students: list[Student] = field(default_factory=list)  # the students present (present)
    roster_read: tuple[int, int] | None = None  # the roster's changes when they were read

    def put(self, answer: Answer) -> None:
        """``answer`` is its student's last to its exercise now: kept, and counted instead of the one before."""
        key = (answer.student_id, answer.exercise)
        tally = self.tallies.get(answer.exercise)
        if tally is None:
            tally = self.tallies[answer.exercise] = Tally()
        kept = self.latest.get(key)
        if kept is not None:
            tally.add(kept, -1)
        tally.add(answer)
        self.latest[key] = answer
        self.by_student.setdefault(answer.student_id, {})[answer.exercise] = answer

    def present(self, store: Store) -> list[Student]:
        """The session's students the teacher has not removed (the store's ``roster``), read again only when one
        has joined or been removed since the last read: students are never deleted and a removal is never undone,
        so the two counts of ``store.roster_changes`` say when. (At 1,000 students, reading the roster at each of
        the change feed's counts was a third of a count's time.)"""
        changes = store.roster_changes(self.session_id)
        if changes != self.roster_read:
            self.students = store.roster(self.session_id)
            self.roster_read = changes
        return self.students

    def update(self, store: Store) -> bool:
        """Read what is new; whether anything was."""
        found = (
            store.answers(self.session_id)
            if self.newest is None
            else store.answers_unseen(self.session_id, self.newest - self.margin, self.seen)
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
                self.put(answer)
            if self.newest is None or answer.at > self.newest:
                self.newest = answer.at
        return changed
