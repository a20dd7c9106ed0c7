"""The store's homework variants and extensions: the variants drawn for a homework session, kept in one
transaction, counted, and read back in the order the students get them in turn; and the extensions a teacher gives
a student (``class extend``), which move that student's due time.

Which variant a student gets and how an answer is judged are the rules of
:mod:`~bleu_teach.classroom.homework`, and what a due time means for an answer those of
:mod:`~bleu_teach.classroom.grading`; this module keeps the variants (their inputs as JSON) and the extensions,
and says each student's place in their session.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, func, select

from bleu_teach.classroom.schema import (
    MAX_NAME,
    Session,
    Student,
    answers,
    extensions,
    fold,
    homework_variants,
    roster,
    students,
)
from bleu_teach.classroom.store_base import Records, notifies, session_arg
from bleu_teach.classroom.store_students import listed_as

#: A variant as kept: (exercise id, its inputs, its question).
Variant = tuple[str, dict[str, Any], str]


class HomeworkRecords(Records):
    """The homework variants' and extensions' methods of :class:`~bleu_teach.classroom.store.Store`."""

    if TYPE_CHECKING:

        def session(self, session_id: int) -> Session: ...  # the store's: store.Store.session

    def save_variants(self, session_id: int, variants: Sequence[tuple[str, Mapping[str, Any], str]]) -> None:
        """Keep the session's variants (those it had before are replaced), numbered from 1 per exercise in the order
        given; all or none."""
        numbers: dict[str, int] = {}
        with self._begin() as connection:
            connection.execute(delete(homework_variants).where(homework_variants.c.session_id == session_id))
            for exercise_id, inputs, question in variants:
                numbers[exercise_id] = numbers.get(exercise_id, 0) + 1
                connection.execute(
                    homework_variants.insert().values(
                        session_id=session_id,
                        exercise=exercise_id,
                        number=numbers[exercise_id],
                        inputs=json.dumps(dict(inputs)),
                        question=question,
                    )
                )

    def variant_counts(self, session_id: int) -> dict[str, int]:
        """How many variants each exercise of the session has."""
        with self.reading.connect() as connection:
            rows = connection.execute(
                select(homework_variants.c.exercise, func.count())
                .where(homework_variants.c.session_id == session_id)
                .group_by(homework_variants.c.exercise)
            ).all()
        return {row[0]: int(row[1]) for row in rows}

    def variants(self, session_id: int) -> list[Variant]:
        """The session's variants, by exercise and then in the order they were kept."""
        with self.reading.connect() as connection:
            rows = (
                connection.execute(
                    select(homework_variants)
                    .where(homework_variants.c.session_id == session_id)
                    .order_by(homework_variants.c.exercise, homework_variants.c.number)
                )
                .mappings()
                .all()
            )
        return [(row["exercise"], json.loads(row["inputs"]), row["question"]) for row in rows]

    def joined_before(self, student: Student) -> int:
        """How many students joined the student's session before them (removed ones too): 0 for the first."""
        with self.reading.connect() as connection:
            return int(
                connection.execute(
                    select(func.count())
                    .select_from(students)
                    .where(students.c.session_id == student.session_id, students.c.id < student.id)
                ).scalar()
                or 0
            )

    # --- extensions: a student's own due time ------------------------------------------------------------------

    @notifies(session_arg)
    def extend(self, session_id: int, name: str, until: datetime) -> str:
        """Let the student named ``name`` (a roster name, found as a join finds it, or the nickname a student
        joined under) answer until ``until`` instead of the homework's due time; an extension they had is
        replaced. Their answers' late marks are made again against the new time. The name as kept; a
        ``ValueError`` that says what was refused (``LookupError``: there is no such session)."""
        session = self.session(session_id)
        if session.kind != "homework" or session.due is None:
            raise ValueError(f"session {session_id} is not a homework: only a homework has a due time to extend.")
        if not isinstance(until, datetime) or until.tzinfo is None or until.utcoffset() is None:
            raise ValueError("until: give a time with its time zone (for example 2026-12-03T09:00+01:00).")
        if until <= session.due:
            raise ValueError(
                f"until: {until.isoformat(timespec='minutes')} is not after the homework's due time "
                f"({session.due.isoformat(timespec='minutes')}); an extension gives more time."
            )
        typed = str(name)[:MAX_NAME]
        with self._begin() as connection:
            listed = connection.execute(
                select(func.count()).select_from(roster).where(roster.c.session_id == session_id)
            ).scalar()
            if listed:
                named, _ = listed_as(connection, session_id, typed)
                kept = None if named is None else str(named.name)
            else:
                kept = connection.execute(
                    select(students.c.nickname).where(
                        students.c.session_id == session_id,
                        students.c.folded == fold(typed),
                        students.c.removed.is_(None),
                    )
                ).scalar()
            if kept is None:
                where = "on the roster of" if listed else "the name of a student who joined"
                raise ValueError(f"name: {typed[:60]!r} is not {where} homework {session_id}.")
            folded = fold(kept)
            connection.execute(
                delete(extensions).where(extensions.c.session_id == session_id, extensions.c.folded == folded)
            )
            connection.execute(
                extensions.insert().values(session_id=session_id, folded=folded, name=kept, until=until, finished=False)
            )
            joined = select(students.c.id).where(
                students.c.session_id == session_id, students.c.folded == folded, students.c.removed.is_(None)
            )
            for late in (True, False):  # the student's answers, late or not against their new due time
                moment = answers.c.at > until if late else answers.c.at <= until
                connection.execute(
                    answers.update()
                    .where(answers.c.session_id == session_id, answers.c.student_id.in_(joined), moment)
                    .values(late=late)
                )
        return kept

    def extension(self, student: Student) -> datetime | None:
        """The time the student may answer until, if the teacher gave them an extension."""
        with self.reading.connect() as connection:
            found = connection.execute(
                select(extensions.c.until).where(
                    extensions.c.session_id == student.session_id, extensions.c.folded == fold(student.nickname)
                )
            ).scalar()
        return found

    def extensions(self, session_id: int) -> dict[str, tuple[str, datetime]]:
        """The session's extensions: by the name as compared (fold), the name and the time."""
        with self.reading.connect() as connection:
            rows = connection.execute(
                select(extensions.c.folded, extensions.c.name, extensions.c.until).where(
                    extensions.c.session_id == session_id
                )
            ).all()
        return {row.folded: (row.name, row.until) for row in rows}
