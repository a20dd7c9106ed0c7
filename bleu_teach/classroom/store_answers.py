"""The store's answers: each kept once, counted against a homework's tries, read back whole, per student or since
a moment.

Each answer carries the id its page gave it (a UUID); storing the same id
again for the same student stores nothing and answers what was stored the
first time (:meth:`AnswerRecords.record_answer`). An answer after the
session's due time (a homework student's own, with their extension) is kept,
marked late, unless the homework refuses late answers (:class:`PastDue`); one
past a homework question's tries is refused (:class:`TriesUsed`), counted and
stored in one statement.
"""

from __future__ import annotations

from collections.abc import Container, Iterator
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, literal, select, tuple_
from sqlalchemy.dialects import postgresql, sqlite

from bleu_teach.classroom.grading import LatePolicy, due_for
from bleu_teach.classroom.schema import (
    ANSWER_ID_LENGTH,
    MAX_ANSWER,
    MAX_MISTAKE,
    NOT_AN_ANSWER,
    VERDICTS,
    Answer,
    Session,
    Student,
    answer_of,
    answers,
    bounded,
    now,
    students,
)
from bleu_teach.classroom.store_base import Inserted, Records, notifies, student_arg

#: At most this many new answers are asked for by their keys; more (a first read) are read with the time's alone.
UNSEEN_BY_KEY = 500


class TriesUsed(ValueError):
    """A homework answer past the question's tries: refused, nothing stored."""

    def __init__(self, tries: int) -> None:
        super().__init__(f"You have used the {tries} tries of this question: your last answer stands.")
        self.tries = tries


class PastDue(ValueError):
    """A homework answer after the student's due time (their extension's, if they have one) to a homework that
    refuses late answers: nothing stored."""

    def __init__(self, due: datetime) -> None:
        super().__init__(
            f"This homework closed for you at {due.astimezone(timezone.utc):%Y-%m-%d %H:%M} UTC (your due time): "
            "your answer was not taken."
        )
        self.due = due


class AnswerRecords(Records):
    """The answers' methods of :class:`~bleu_teach.classroom.store.Store`."""

    if TYPE_CHECKING:

        def session(self, session_id: int) -> Session: ...  # the store's: store.Store.session

        def extension(self, student: Student) -> datetime | None: ...  # store_homework's

    def due_of(self, student: Student, session: Session) -> datetime | None:
        """The student's own due time: their extension's if they have one (a homework's), else the session's."""
        return due_for(session, self.extension(student)) if session.kind == "homework" else session.due

    def tries(self, student: Student, exercise: str) -> int:
        """How many tries the student has used on an exercise: answers stored (each once, whatever was sent again)
        that the checker could read (one in the wrong form uses none)."""
        with self.reading.connect() as connection:
            return int(
                connection.execute(
                    select(func.count())
                    .select_from(answers)
                    .where(
                        answers.c.session_id == student.session_id,
                        answers.c.student_id == student.id,
                        answers.c.exercise == exercise,
                        answers.c.mistake != NOT_AN_ANSWER,
                    )
                ).scalar()
                or 0
            )

    def answers_per_exercise(self, session_id: int) -> dict[str, int]:
        """How many answers (tries, each stored once) the session's present students sent to each exercise."""
        query = (
            select(answers.c.exercise, func.count())
            .join(students, students.c.id == answers.c.student_id)
            .where(answers.c.session_id == session_id, students.c.removed.is_(None))
            .group_by(answers.c.exercise)
        )
        with self.reading.connect() as connection:
            return {exercise: int(count) for exercise, count in connection.execute(query).all()}

    @notifies(student_arg)
    def record_answer(
        self,
        student: Student,
        answer_id: str,
        exercise: str,
        answer: str,
        verdict: str,
        mistake: str = "",
        at: datetime | None = None,
        session: Session | None = None,
        max_tries: int | None = None,
    ) -> tuple[Answer, bool]:
        """Keep an answer once: (what is stored, whether this call stored it). The same ``answer_id`` sent again
        (a page that lost its connection sends again) stores nothing and answers the first one. ``session`` is
        the student's, if the caller has it (its due time, or the student's extension's, marks late answers; a
        homework that refuses late answers refuses one, :class:`PastDue`, unless it was stored before). With
        ``max_tries``, a new answer to an exercise the student has answered that often already is refused
        (:class:`TriesUsed`): counted and stored in one step, so answers sent at once cannot get past the count."""
        answer_id = bounded(answer_id, "answer id", ANSWER_ID_LENGTH)
        answer = bounded(answer, "answer", MAX_ANSWER, empty=True)
        if verdict not in VERDICTS:
            raise ValueError(f"verdict: one of {', '.join(VERDICTS)}, not {str(verdict)[:20]!r}.")
        if session is None or session.id != student.session_id:
            session = self.session(student.session_id)
        moment = at or now()
        due = self.due_of(student, session)
        late = due is not None and moment > due
        refused = late and LatePolicy.of(session).rule == "refuse"
        row = {
            "session_id": student.session_id,
            "student_id": student.id,
            "answer_id": answer_id,
            "exercise": str(exercise)[:16],
            "answer": answer,
            "verdict": verdict,
            "mistake": str(mistake)[:MAX_MISTAKE],
            "at": moment,
            "late": late,
        }
        dialect = postgresql if self.postgres else sqlite
        if max_tries is None:
            statement = dialect.insert(answers).values(**row)
        else:  # one statement: insert only while the count is below the tries (atomic on SQLite's one writer)
            used = (
                select(func.count())
                .select_from(answers)
                .where(
                    answers.c.session_id == student.session_id,
                    answers.c.student_id == student.id,
                    answers.c.exercise == row["exercise"],
                    answers.c.mistake != NOT_AN_ANSWER,
                )
                .scalar_subquery()
            )
            values = select(*(literal(value, answers.c[name].type).label(name) for name, value in row.items()))
            statement = dialect.insert(answers).from_select(list(row), values.where(used < max_tries))
        statement = statement.on_conflict_do_nothing().returning(answers.c.answer_id)

        def write(connection: Any) -> tuple[Answer, bool]:
            if max_tries is not None and self.postgres:  # one of the student's answers at a time: then count
                connection.execute(select(students.c.id).where(students.c.id == student.id).with_for_update())
            if not refused and connection.execute(statement).first() is not None:
                return answer_of(row), True
            return kept_one(connection)

        def inserted(connection: Any, stored: bool) -> tuple[Answer, bool]:
            return (answer_of(row), True) if stored else kept_one(connection)

        def kept_one(connection: Any) -> tuple[Answer, bool]:
            kept = (
                connection.execute(
                    select(answers).where(  # it was there already: answer the first one
                        answers.c.session_id == student.session_id,
                        answers.c.student_id == student.id,
                        answers.c.answer_id == answer_id,
                    )
                )
                .mappings()
                .first()
            )
            if kept is None and refused:
                raise PastDue(due or moment)
            if kept is None:
                raise TriesUsed(max_tries or 0)
            return answer_of(kept), False

        # Committed with the answers that arrived meanwhile (a group commit), a live session's inserted with theirs in
        # one statement; a homework's answer, which locks its student's row to count the tries (PostgreSQL), alone.
        if refused and max_tries is None:
            # Nothing to write: the answer stored before, or PastDue; read outside the group commit, where a write that
            # raises makes the whole group run again write by write.
            with self.reading.connect() as connection:
                return kept_one(connection)
        if max_tries is not None or refused:
            return self._write(write, alone=max_tries is not None)
        return self._write(write, row=Inserted(answers, row, ("session_id", "student_id", "answer_id"), inserted))

    def answers_since(self, session_id: int, since: datetime) -> list[Answer]:
        """The session's answers made at or after ``since``, oldest first (the dashboard reads only what is new)."""
        query = select(answers).where(answers.c.session_id == session_id, answers.c.at >= since)
        with self.reading.connect() as connection:
            rows = connection.execute(query.order_by(answers.c.at, answers.c.answer_id)).mappings().all()
        return [answer_of(row) for row in rows]

    def answers_unseen(self, session_id: int, since: datetime, seen: Container[tuple[int, str]]) -> list[Answer]:
        """The session's answers made at or after ``since`` whose (student, answer id) is not in ``seen``, oldest
        first: :meth:`answers_since` less what the caller has, with only the keys read of the answers it has (a
        dashboard reads again the last seconds' answers four times a second; at 1,000 students, a thousand rows
        each time, nearly all seen)."""
        keys = select(answers.c.student_id, answers.c.answer_id).where(
            answers.c.session_id == session_id, answers.c.at >= since
        )
        with self.reading.connect() as connection:
            new = [(row[0], row[1]) for row in connection.execute(keys) if (row[0], row[1]) not in seen]
            if not new:
                return []
            query = select(answers).where(answers.c.session_id == session_id, answers.c.at >= since)
            if len(new) <= UNSEEN_BY_KEY:
                query = query.where(tuple_(answers.c.student_id, answers.c.answer_id).in_(new))
            rows = connection.execute(query.order_by(answers.c.at, answers.c.answer_id)).mappings().all()
        return [answer_of(row) for row in rows if (row["student_id"], row["answer_id"]) not in seen]

    def answers(self, session_id: int, student_id: int | None = None) -> list[Answer]:
        """The session's answers (or one student's), oldest first."""
        query = select(answers).where(answers.c.session_id == session_id)
        if student_id is not None:
            query = query.where(answers.c.student_id == student_id)
        with self.reading.connect() as connection:
            rows = connection.execute(query.order_by(answers.c.at, answers.c.answer_id)).mappings().all()
        return [answer_of(row) for row in rows]

    def answer_count(self, session_id: int) -> int:
        with self.reading.connect() as connection:
            return int(
                connection.execute(
                    select(func.count()).select_from(answers).where(answers.c.session_id == session_id)
                ).scalar()
                or 0
            )

    def latest(self, session_id: int) -> Iterator[Answer]:
        """Each student's last answer to each exercise (what the dashboard counts)."""
        last: dict[tuple[int, str], Answer] = {}
        for answer in self.answers(session_id):
            last[(answer.student_id, answer.exercise)] = answer
        return iter(last.values())
