"""The store's homework variants: those drawn for a homework session, kept in one transaction, counted, and read
back in the order the students get them in turn.

Which variant a student gets and how an answer is judged are the rules of
:mod:`~bleu_teach.classroom.homework`; this module keeps the variants (their
inputs as JSON) and says each student's place in their session.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import delete, func, select

from bleu_teach.classroom.schema import Student, homework_variants, students
from bleu_teach.classroom.store_base import Records

#: A variant as kept: (exercise id, its inputs, its question).
Variant = tuple[str, dict[str, Any], str]


class HomeworkRecords(Records):
    """The homework variants' methods of :class:`~bleu_teach.classroom.store.Store`."""

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
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(homework_variants.c.exercise, func.count())
                .where(homework_variants.c.session_id == session_id)
                .group_by(homework_variants.c.exercise)
            ).all()
        return {row[0]: int(row[1]) for row in rows}

    def variants(self, session_id: int) -> list[Variant]:
        """The session's variants, by exercise and then in the order they were kept."""
        with self.engine.connect() as connection:
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
        with self.engine.connect() as connection:
            return int(
                connection.execute(
                    select(func.count())
                    .select_from(students)
                    .where(students.c.session_id == student.session_id, students.c.id < student.id)
                ).scalar()
                or 0
            )
