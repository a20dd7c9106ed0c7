"""The store's polls and votes: a poll opened (the session's other open poll closed in the same transaction),
read back, closed, its right answer shown or hidden, and each student's vote kept once per round.

What a round is, what a phone is shown and when a vote is taken are the
rules of :mod:`~bleu_teach.classroom.polls`; this module keeps what they
decide. A vote is stored in one statement whatever else arrives at once: a
new vote is inserted, a changed one replaces it, the same vote sent again
(its id) changes nothing (:meth:`PollRecords.record_vote`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import cache
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.dialects import postgresql, sqlite

from bleu_teach.classroom.schema import Student, now, polls, students, votes
from bleu_teach.classroom.store_base import Records, notifies, session_arg, student_arg


@dataclass(frozen=True)
class Poll:
    """A question put to the room, one round of it: its options as (letter, text), the bank exercise it asks
    ("" for the presenter's own), round 1 or 2 (``first_round``: round 2's round 1), "open" or "closed"; for a new
    variant of a lesson's question its right letter (``answer``; "" when the bank's question gives it), and whether
    the teacher shows the right answer (``revealed``)."""

    id: int
    session_id: int
    question: str
    options: tuple[tuple[str, str], ...]  # (letter, text)
    exercise: str
    round: int
    first_round: int | None
    state: str
    opened: datetime
    answer: str = ""
    revealed: bool = False


def poll_of(row: Any) -> Poll:
    opened = row["opened"] if row["opened"].tzinfo else row["opened"].replace(tzinfo=timezone.utc)
    return Poll(
        row["id"],
        row["session_id"],
        row["question"],
        tuple((letter, text) for letter, text in json.loads(row["options"])),
        row["exercise"],
        row["round"],
        row["first_round"],
        row["state"],
        opened,
        row["answer"] or "",
        bool(row["revealed"]),
    )


class PollRecords(Records):
    """The polls' and votes' methods of :class:`~bleu_teach.classroom.store.Store`."""

    @notifies(session_arg)
    def open_poll(
        self,
        session_id: int,
        question: str,
        options: tuple[tuple[str, str], ...],
        exercise_id: str = "",
        first_round: int | None = None,
        round_: int = 1,
        answer: str = "",
    ) -> int:
        """Open a poll, closing the session's other open poll in the same transaction; the new poll's number
        (``answer``: a variant's right letter)."""
        with self._begin() as connection:
            connection.execute(
                polls.update().where(polls.c.session_id == session_id, polls.c.state == "open").values(state="closed")
            )
            key = connection.execute(
                polls.insert().values(
                    session_id=session_id,
                    question=question,
                    options=json.dumps(options),
                    exercise=exercise_id,
                    round=round_,
                    first_round=first_round,
                    state="open",
                    opened=now(),
                    answer=answer,
                    revealed=False,
                )
            ).inserted_primary_key
        if key is None:
            raise RuntimeError("The database gave the new poll no number.")
        return int(key[0])

    def poll(self, session_id: int, poll_id: int) -> Poll:
        """The session's poll of that number; a ``LookupError`` if the session has none."""
        with self.reading.connect() as connection:
            row = (
                connection.execute(select(polls).where(polls.c.id == poll_id, polls.c.session_id == session_id))
                .mappings()
                .first()
            )
        if row is None:
            raise LookupError(f"No poll {poll_id} in this session.")
        return poll_of(row)

    def latest_poll(self, session_id: int) -> Poll | None:
        """The session's newest poll (the open one, if one is), or None before the first."""
        with self.reading.connect() as connection:
            row = (
                connection.execute(
                    select(polls).where(polls.c.session_id == session_id).order_by(polls.c.id.desc()).limit(1)
                )
                .mappings()
                .first()
            )
        return None if row is None else poll_of(row)

    @notifies(session_arg)
    def close_poll(self, session_id: int, poll_id: int) -> None:
        """Close a poll (the caller has read it in this session)."""
        with self._begin() as connection:
            connection.execute(polls.update().where(polls.c.id == poll_id).values(state="closed"))

    @notifies(session_arg)
    def reveal_poll(self, session_id: int, poll_id: int, shown: bool) -> None:
        """Show (or hide again) a poll's right answer, on the dashboard and the projector (the caller has read it in
        this session)."""
        with self._begin() as connection:
            connection.execute(polls.update().where(polls.c.id == poll_id).values(revealed=shown))

    def latest_poll_and_vote(self, student: Student) -> tuple[Poll | None, str | None]:
        """The student's session's newest poll (as :meth:`latest_poll`) and the student's vote on it (its letter, or
        None), in one query: what a phone asks for every few seconds."""
        with self.reading.connect() as connection:
            given = {"student": student.id, "session": student.session_id}
            row = connection.execute(_NEWEST_POLL, given).mappings().first()
        return (None, None) if row is None else (poll_of(row), row["mine"])

    @notifies(student_arg, none_is_no_change=True)
    def record_vote(self, student: Student, poll_id: int, vote_id: str, choice: str) -> bool | None:
        """Keep (or change) the student's vote on the poll in one statement, only while the poll is open in the
        student's session: whether it changed anything (the same ``vote_id`` sent again changes nothing), or None
        when nothing was written (the poll is not open then, or the vote was this one already: the caller reads the
        poll to tell which)."""
        statement = _voting(self.postgres)
        given = {
            "poll_id": poll_id,
            "student_id": student.id,
            "vote_id": vote_id,
            "choice": choice,
            "at": now(),
            "session": student.session_id,
        }
        return self._write(
            lambda connection: True if connection.execute(statement, given).first() is not None else None
        )

    def choices(self, poll_id: int) -> list[str]:
        """The letters the poll's voters chose, one per voter; a removed student's vote counts no more."""
        present = select(students.c.id).where(students.c.removed.is_(None))
        with self.reading.connect() as connection:
            return list(
                connection.execute(
                    select(votes.c.choice).where(votes.c.poll_id == poll_id, votes.c.student_id.in_(present))
                )
                .scalars()
                .all()
            )


# The statements a room's phones make at once (a poll's question read, a vote): made once, their values bind
# parameters (SQLAlchemy builds a new statement's cache key at each use; a statement made once keeps it).
_NEWEST_POLL = (
    select(polls, votes.c.choice.label("mine"))
    .outerjoin(votes, (votes.c.poll_id == polls.c.id) & (votes.c.student_id == bindparam("student")))
    .where(polls.c.session_id == bindparam("session"))
    .order_by(polls.c.id.desc())
    .limit(1)
)


@cache
def _voting(postgres: bool) -> Any:
    """A vote kept (or changed) only while its poll is open in the student's session (record_vote)."""
    names = ("poll_id", "student_id", "vote_id", "choice", "at")
    asked = (
        select(polls.c.id)
        .where(polls.c.id == bindparam("poll_id"), polls.c.session_id == bindparam("session"), polls.c.state == "open")
        .exists()
    )
    values = select(*(bindparam(name, type_=votes.c[name].type).label(name) for name in names)).where(asked)
    statement = (postgresql if postgres else sqlite).insert(votes).from_select(list(names), values)
    return statement.on_conflict_do_update(
        index_elements=[votes.c.poll_id, votes.c.student_id],
        set_={"vote_id": statement.excluded.vote_id, "choice": statement.excluded.choice, "at": statement.excluded.at},
        where=votes.c.vote_id != statement.excluded.vote_id,
    ).returning(votes.c.vote_id)
