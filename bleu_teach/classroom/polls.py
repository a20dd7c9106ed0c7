"""Polls: the presenter puts a question to the room, the audience's phones answer, the histogram is revealed.

Peer instruction, as Mazur describes it: a question, a vote, the distribution
shown, discussion, and the same question again. :meth:`Polls.again` opens
round 2 of a closed poll; the presenter's view shows both rounds' histograms
side by side.

A question is a bank exercise with options (its options and its right answer
come from the bank: :func:`question_of`) or the presenter's own (a question and
2 to 6 options, bounded and checked like everything people type). Each
student has one vote per round; voting again while the poll is open changes
it, and a vote sent twice with the same id counts once. This module holds
these rules; the polls and votes are kept by the store
(:mod:`~bleu_teach.classroom.store_polls`).
"""

from __future__ import annotations

from typing import Any

from bleu_teach.classroom.schema import ANSWER_ID_LENGTH, bounded, record_id
from bleu_teach.classroom.store import Store, Student
from bleu_teach.classroom.store_polls import Poll
from bleu_teach.exercises.bank import exercise, exercises

MAX_QUESTION = 400
MAX_OPTION = 200
LETTERS = "ABCDEF"


def public(poll: Poll) -> dict[str, Any]:
    """What a student's phone is shown of a poll (never the right answer)."""
    return {
        "id": poll.id,
        "question": poll.question,
        "options": [list(option) for option in poll.options],
        "round": poll.round,
        "open": poll.state == "open",
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


class Polls:
    """The polls of the sessions in ``store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

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
        poll_id = self.store.open_poll(session_id, question, options, exercise_id, first_round, round_)
        return self.poll(session_id, poll_id)

    def poll(self, session_id: int, poll_id: int) -> Poll:
        return self.store.poll(session_id, poll_id)

    def current(self, session_id: int) -> Poll | None:
        """The session's open poll, or else its latest (closed) one; None before the first."""
        return self.store.latest_poll(session_id)

    def close(self, session_id: int, poll_id: int) -> Poll:
        self.poll(session_id, poll_id)
        self.store.close_poll(session_id, poll_id)
        return self.poll(session_id, poll_id)

    def again(self, session_id: int, poll_id: int) -> Poll:
        """Round 2 of a poll (after discussion): the same question, votes from scratch."""
        first = self.poll(session_id, poll_id)
        if first.round != 1:
            raise ValueError("This poll is already a second round; ask a new question instead.")
        return self.open(session_id, first.question, first.options, first.exercise, first.id, 2)

    def vote(self, student: Student, poll_id: int, vote_id: Any, choice: Any) -> bool:
        """Record (or change) a student's vote; whether it changed anything. A resend of the same vote counts once."""
        vote_id = bounded(vote_id, "vote id", ANSWER_ID_LENGTH)
        poll_id = record_id(poll_id, "poll")
        poll = self.poll(student.session_id, poll_id)
        if poll.state != "open":
            raise ValueError("This question is closed: your vote was not counted.")
        if not isinstance(choice, str) or choice not in {letter for letter, _ in poll.options}:
            raise ValueError(f"choice: one of {', '.join(letter for letter, _ in poll.options)}.")
        return self.store.record_vote(student, poll_id, vote_id, choice)

    def my_vote(self, student: Student, poll_id: int) -> str | None:
        return self.store.vote_of(student, poll_id)

    def counts(self, poll: Poll) -> dict[str, int]:
        """How many chose each option (every option listed, in order)."""
        chosen = self.store.choices(poll.id)
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
        shown = public(poll) | {"exercise": poll.exercise, "rounds": rounds_shown}
        if poll.state != "open" and poll.exercise:
            shown["right"] = str(exercise(poll.exercise).answer)
        return shown
