"""The store's reads for what a teacher takes away: every poll of a session, in the order it was asked, and
every student who joined it, removed ones too, with when they joined and when they were taken out.

The polls' CSV and ``class archive`` (:mod:`~bleu_teach.classroom.exports`) read the session through these
and through the other parts' methods; nothing here writes.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from bleu_teach.classroom.schema import Student, polls, students
from bleu_teach.classroom.store_base import Records
from bleu_teach.classroom.store_polls import Poll, poll_of


class ArchiveRecords(Records):
    """The archive's reads of :class:`~bleu_teach.classroom.store.Store`."""

    def session_polls(self, session_id: int) -> list[Poll]:
        """Every poll of the session, each round its own, in the order they were opened."""
        with self.reading.connect() as connection:
            rows = (
                connection.execute(select(polls).where(polls.c.session_id == session_id).order_by(polls.c.id))
                .mappings()
                .all()
            )
        return [poll_of(row) for row in rows]

    def joined(self, session_id: int) -> list[tuple[Student, datetime, datetime | None]]:
        """Every student of the session in the order they joined, removed ones too: (the student, when they joined,
        when the teacher removed them or None)."""
        with self.reading.connect() as connection:
            rows = (
                connection.execute(select(students).where(students.c.session_id == session_id).order_by(students.c.id))
                .mappings()
                .all()
            )
        return [(Student(row["id"], row["session_id"], row["nickname"]), row["joined"], row["removed"]) for row in rows]
