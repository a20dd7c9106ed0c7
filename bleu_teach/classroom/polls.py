"""Polls: the presenter puts a question to the room, the audience's phones answer, the histogram is revealed.

Peer instruction, as Mazur describes it: a question, a vote, the distribution
shown, discussion, and the same question again. :meth:`Polls.again` opens
round 2 of a closed poll; the presenter's view shows both rounds' histograms
side by side.

A question is a bank exercise with options (its options and its right answer
come from the bank: :func:`question_of`) or the presenter's own (a question and
2 to 6 options, bounded and checked like everything people type). Each
student has one vote per round; voting again while the poll is open changes
it, and a vote sent twice with the same id counts once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from bleu_teach.classroom.schema import ANSWER_ID_LENGTH, bounded, polls, record_id, students, votes
from bleu_teach.classroom.store import Store, Student
from bleu_teach.classroom.store_base import notifies, session_arg, student_arg
from bleu_teach.exercises.bank import exercise, exercises

MAX_QUESTION = 400
MAX_OPTION = 200
LETTERS = "ABCDEF"


@dataclass(frozen=True)
class Poll:
    id: int
    session_id: int
    question: str
    options: tuple[tuple[str, str], ...]  # (letter, text)
    exercise: str
    round: int
    first_round: int | None
    state: str
    opened: datetime

    def public(self) -> dict[str, Any]:
        """What a student's phone is shown (never the right answer)."""
        return {
            "id": self.id,
            "question": self.question,
            "options": [list(option) for option in self.options],
            "round": self.round,
            "open": self.state == "open",
        }


def question_of(exercise_id: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A bank exercise as a poll: its question as a platform shows it, and its options, as plain text (a phone
    shows them as text, line breaks kept)."""
    from bleu_teach.exercises.media import question_text
    from bleu_teach.views.formatting import plain_markdown

    try:
        ex = exercise(exercise_id)
    except (KeyError, ValueError):
        raise ValueError(f"exercise: there is no exercise {str(exercise_id)[:16]!r}.") from None
    if not ex.options:
        raise ValueError(f"exercise: {ex.id} has no options to vote on; choose a question with options.")
    return (
        plain_markdown(question_text(ex, "platform")),
        tuple((o.letter, plain_markdown(o.text)) for o in ex.options),
    )


def pollable() -> list[dict[str, str]]:
    """The bank's questions with options, for the presenter's list."""
    return [{"id": ex.id, "title": ex.title} for ex in exercises() if ex.options]


def own_question(question: Any, options: Any) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The presenter's own question, checked: 2 to 6 options, each bounded."""
    text = bounded(question, "question", MAX_QUESTION, one_line=True)
    if not isinstance(options, list) or not 2 <= len(options) <= len(LETTERS):
        raise ValueError(f"options: give 2 to {len(LETTERS)} options.")
    return text, tuple(
        (LETTERS[k], bounded(option, f"option {LETTERS[k]}", MAX_OPTION, one_line=True))
        for k, option in enumerate(options)
    )


def _poll(row: Any) -> Poll:
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
    )


class Polls:
    """The polls of the sessions in ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @notifies(session_arg)
    def open(
        self,
        session_id: int,
        question: str,
        options: tuple[tuple[str, str], ...],
        exercise_id: str = "",
        first_round: int | None = None,
        round_: int = 1,
    ) -> Poll:
        """Open a poll (closing any other open poll of the session)."""
        with self.store.engine.begin() as connection:
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
                    opened=datetime.now(timezone.utc),
                )
            ).inserted_primary_key
        if key is None:
            raise RuntimeError("The database gave the new poll no number.")
        return self.poll(session_id, int(key[0]))

    def poll(self, session_id: int, poll_id: int) -> Poll:
        with self.store.engine.connect() as connection:
            row = (
                connection.execute(select(polls).where(polls.c.id == poll_id, polls.c.session_id == session_id))
                .mappings()
                .first()
            )
        if row is None:
            raise LookupError(f"No poll {poll_id} in this session.")
        return _poll(row)

    def current(self, session_id: int) -> Poll | None:
        """The session's open poll, or else its latest (closed) one; None before the first."""
        with self.store.engine.connect() as connection:
            row = (
                connection.execute(
                    select(polls).where(polls.c.session_id == session_id).order_by(polls.c.id.desc()).limit(1)
                )
                .mappings()
                .first()
            )
        return None if row is None else _poll(row)

    @notifies(session_arg)
    def close(self, session_id: int, poll_id: int) -> Poll:
        self.poll(session_id, poll_id)
        with self.store.engine.begin() as connection:
            connection.execute(polls.update().where(polls.c.id == poll_id).values(state="closed"))
        return self.poll(session_id, poll_id)

    @notifies(session_arg)
    def again(self, session_id: int, poll_id: int) -> Poll:
        """Round 2 of a poll (after discussion): the same question, votes from scratch."""
        first = self.poll(session_id, poll_id)
        if first.round != 1:
            raise ValueError("This poll is already a second round; ask a new question instead.")
        return self.open(session_id, first.question, first.options, first.exercise, first.id, 2)

    @notifies(student_arg)
    def vote(self, student: Student, poll_id: int, vote_id: Any, choice: Any) -> bool:
        """Record (or change) a student's vote; whether it changed anything. A resend of the same vote counts once."""
        vote_id = bounded(vote_id, "vote id", ANSWER_ID_LENGTH)
        poll_id = record_id(poll_id, "poll")
        poll = self.poll(student.session_id, poll_id)
        if poll.state != "open":
            raise ValueError("This question is closed: your vote was not counted.")
        if choice not in {letter for letter, _ in poll.options}:
            raise ValueError(f"choice: one of {', '.join(letter for letter, _ in poll.options)}.")
        row = {
            "poll_id": poll_id,
            "student_id": student.id,
            "vote_id": vote_id,
            "choice": choice,
            "at": datetime.now(timezone.utc),
        }
        # One statement, whatever else arrives at once: a new vote is inserted, a changed one replaces it, the
        # same vote sent again (its id) changes nothing.
        dialect = postgresql if self.store.postgres else sqlite
        statement = dialect.insert(votes).values(**row)
        statement = statement.on_conflict_do_update(
            index_elements=[votes.c.poll_id, votes.c.student_id],
            set_={
                "vote_id": statement.excluded.vote_id,
                "choice": statement.excluded.choice,
                "at": statement.excluded.at,
            },
            where=votes.c.vote_id != statement.excluded.vote_id,
        ).returning(votes.c.vote_id)
        with self.store.engine.begin() as connection:
            return connection.execute(statement).first() is not None

    def my_vote(self, student: Student, poll_id: int) -> str | None:
        with self.store.engine.connect() as connection:
            return connection.execute(
                select(votes.c.choice).where(votes.c.poll_id == poll_id, votes.c.student_id == student.id)
            ).scalar()

    def counts(self, poll: Poll) -> dict[str, int]:
        """How many chose each option (every option listed, in order)."""
        present = select(students.c.id).where(students.c.removed.is_(None))  # a removed student's vote counts no more
        with self.store.engine.connect() as connection:
            chosen = (
                connection.execute(
                    select(votes.c.choice).where(votes.c.poll_id == poll.id, votes.c.student_id.in_(present))
                )
                .scalars()
                .all()
            )
        return {letter: sum(1 for choice in chosen if choice == letter) for letter, _ in poll.options}

    def view(self, session_id: int) -> dict[str, Any] | None:
        """The presenter's view of the current poll: how many voted, each closed round's split (round 1's beside
        round 2's), and for a bank question its right answer once closed (the page keeps it behind a button)."""
        poll = self.current(session_id)
        if poll is None:
            return None
        rounds = [poll]
        if poll.first_round is not None:
            rounds.insert(0, self.poll(session_id, poll.first_round))
        rounds_shown = []
        for each in rounds:
            counted = self.counts(each)
            is_open = each.state == "open"
            # While a round is open only how many voted is shown: the split would sway the votes still to come.
            rounds_shown.append(
                {
                    "id": each.id,
                    "round": each.round,
                    "open": is_open,
                    "voted": sum(counted.values()),
                    "counts": None if is_open else counted,
                }
            )
        shown = poll.public() | {"exercise": poll.exercise, "rounds": rounds_shown}
        if poll.state != "open" and poll.exercise:
            shown["right"] = str(exercise(poll.exercise).answer)
        return shown
