"""The store's read for the class over a term (:mod:`~bleu_teach.classroom.term`): the sessions asked for, in the
order they were made, their students (removed ones left out) with the roster name and the platform user each
joined as, their answers, and every name of their rosters (to know which names one key would merge).

What is read is rows, not conclusions: who is the same person in two sessions
(:mod:`~bleu_teach.classroom.people`) and what the numbers are (:mod:`~bleu_teach.classroom.term`) are worked
out from them without the database. Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select

from bleu_teach.classroom.schema import (
    MAX_ID,
    Answer,
    Session,
    answer_of,
    answers,
    lti_users,
    roster,
    session_of,
    sessions,
    students,
)
from bleu_teach.classroom.store_base import Records


@dataclass(frozen=True)
class TermStudent:
    """A student of one session, with what tells them apart across sessions."""

    id: int
    session_id: int
    nickname: str  # as they joined (a roster's name when they joined from one)
    roster_name: str  # the roster's name they joined as, "" when none
    platform_user: tuple[int, str] | None  # (platform, the platform's user id) of an LTI launch, None when none


@dataclass(frozen=True)
class TermRows:
    """Sessions in the order they were made (their ``created``, then their number), their students who were not
    removed, those students' answers, oldest first, and every name of the sessions' rosters, joined or not, as
    (session, name) in the roster's order."""

    sessions: tuple[Session, ...]
    students: tuple[TermStudent, ...]
    answers: tuple[Answer, ...]
    rosters: tuple[tuple[int, str], ...] = ()


class TermRecords(Records):
    """The term's read of :class:`~bleu_teach.classroom.store.Store`."""

    def term_rows(self, session_ids: Sequence[int] = ()) -> TermRows:
        """The rows of the sessions numbered ``session_ids`` (every session when none is given). A number that
        names no session is a ``LookupError`` that names it."""
        wanted = list(dict.fromkeys(session_ids))
        for number in wanted:  # a number no column can hold names nothing (PostgreSQL would refuse the query)
            if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_ID:
                raise LookupError(f"No session {str(number)[:20]}.")
        query = select(sessions).order_by(sessions.c.created, sessions.c.id)
        if wanted:
            query = query.where(sessions.c.id.in_(wanted))
        with self.reading.connect() as connection:
            found = tuple(session_of(row) for row in connection.execute(query).mappings().all())
            missing = [number for number in wanted if number not in {session.id for session in found}]
            if missing:
                raise LookupError(f"No session {missing[0]}.")
            ids = [session.id for session in found]
            if not ids:
                return TermRows((), (), ())
            people = connection.execute(
                select(students.c.id, students.c.session_id, students.c.nickname)
                .where(students.c.session_id.in_(ids), students.c.removed.is_(None))
                .order_by(students.c.id)
            ).all()
            listed = connection.execute(
                select(roster.c.session_id, roster.c.name, roster.c.student_id)
                .where(roster.c.session_id.in_(ids))
                .order_by(roster.c.session_id, roster.c.position)
            ).all()
            launched = connection.execute(
                select(lti_users.c.student_id, lti_users.c.platform_id, lti_users.c.subject)
                .where(lti_users.c.session_id.in_(ids))
                .order_by(lti_users.c.platform_id, lti_users.c.subject)
            ).all()
            given = (
                connection.execute(
                    select(answers).where(answers.c.session_id.in_(ids)).order_by(answers.c.at, answers.c.answer_id)
                )
                .mappings()
                .all()
            )
        names = {row.student_id: row.name for row in listed if row.student_id is not None}
        users: dict[int, tuple[int, str]] = {}
        for row in launched:  # a student is one platform user (a second launch finds the same student)
            users.setdefault(row.student_id, (int(row.platform_id), row.subject))
        kept = tuple(
            TermStudent(row.id, row.session_id, row.nickname, names.get(row.id, ""), users.get(row.id))
            for row in people
        )
        present = {student.id for student in kept}  # a removed student's answers are left out with them
        rosters = tuple((int(row.session_id), row.name) for row in listed)
        return TermRows(found, kept, tuple(answer_of(row) for row in given if row["student_id"] in present), rosters)
