"""Polls: the presenter puts a question to the room, the audience's phones answer, the histogram is revealed.

Peer instruction, as Mazur describes it: a question, a vote, the distribution
shown, discussion, and the same question again. :meth:`Polls.again` opens
round 2 of a closed poll; the presenter's view shows both rounds' histograms
side by side.

A question is a lesson's exercise or the presenter's own (a question and 2
to 6 options, bounded and checked like everything people type). A lesson's
numeric exercise is asked as a new variant of it, drawn by the variants
engine as a homework's are (:func:`variant_question`): new sentences or
lengths, its right answer and three named mistakes' answers as the options, so
that the lesson page, which answers the lesson's own numbers, does not answer
the poll. A choice question's options cannot be varied (:func:`question_of`:
the bank's options and right answer): it is asked as the lesson page asks it,
and the presenter is told to ask it before the class opens that page
(:data:`CHOICE_NOTE`). Each student has one vote per round; voting again while
the poll is open changes it, and a vote sent twice with the same id counts
once. The right answer is shown when the presenter says so
(:meth:`Polls.reveal`), on the projector too (:func:`for_the_room`). This
module holds these rules; the polls and votes are kept by the store
(:mod:`~bleu_teach.classroom.store_polls`).
"""

from __future__ import annotations

import math
import secrets
from typing import Any

from bleu_teach.classroom.schema import ANSWER_ID_LENGTH, bounded, record_id
from bleu_teach.classroom.store import Store, Student
from bleu_teach.classroom.store_polls import Poll
from bleu_teach.exercises.bank import Exercise, exercise, exercises
from bleu_teach.exercises.variants import VARIED, quiz_variants

MAX_QUESTION = 400
MAX_OPTION = 200
LETTERS = "ABCDEF"
#: How many polls' option letters a process keeps (:meth:`Polls.letters`).
POLLS_KEPT = 256
#: A variant is asked with its right answer and this many named mistakes' answers as the options.
VARIANT_MISTAKES = 3
#: What the presenter is told when a poll asks a choice question: its options are the lesson page's own.
CHOICE_NOTE = (
    "This question's options cannot be varied: it is the lesson page's own question, and a student who has "
    "checked it there knows the answer. Ask it before the class opens the lesson page."
)
#: What the presenter is told when a poll asks a numeric question: a new variant of it.
VARIANT_NOTE = "A new variant of {id}: its numbers are not the lesson page's, so the page does not answer it."


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


def fresh_seed() -> int:
    """The seed of a poll's variant: drawn anew for each poll, kept nowhere."""
    return secrets.randbelow(10**18)


def _value_text(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}"


def variant_question(exercise_id: str, seed: int) -> tuple[str, tuple[tuple[str, str], ...], str]:
    """A new variant of a lesson's numeric exercise as a poll: its question (with what a reader needs without the
    lesson), its options (the right answer and the first :data:`VARIANT_MISTAKES` named mistakes whose answers
    are on the question's scale and differ from the others once rounded, in increasing order) and the right
    option's letter. The variants engine draws it from ``seed`` as a platform quiz's variant is drawn: never the
    lesson's own numbers, and every mistake's answer apart from the right one once rounded."""
    from bleu_teach.views.formatting import plain_markdown

    drawn = quiz_variants(seed, [], 1, [exercise_id])
    if not drawn:
        raise ValueError(f"exercise: no new variant of {exercise_id} could be drawn; ask another question.")
    variant: Exercise = drawn[0]
    feedback = variant.check(None)
    decimals = feedback.decimals or 0
    bounded_scale = variant.answer_format.scale is not None  # a precision, a BP or a BLEU score: from 0 to 1
    right = _value_text(float(feedback.right or 0), decimals)
    values = {right: float(feedback.right or 0)}
    for mistake in feedback.misconceptions:
        if len(values) > VARIANT_MISTAKES:
            break
        value = float(mistake.value)
        text = _value_text(value, decimals)
        if math.isfinite(value) and not (bounded_scale and not 0 <= value <= 1) and text not in values:
            values[text] = value
    order = sorted(values, key=lambda text: values[text])
    options = tuple((LETTERS[k], text) for k, text in enumerate(order))
    context = variant.stand_alone_context()
    places = "a whole number" if decimals == 0 else f"{decimals} decimal place{'s' if decimals != 1 else ''}"
    question = plain_markdown(f"{context}\n\n{variant.question}" if context else variant.question)
    return f"{question} Each option is rounded to {places}.", options, LETTERS[order.index(right)]


def pollable() -> list[dict[str, Any]]:
    """The lessons' questions a poll can ask, for the presenter's list: ``varied`` for a numeric one (asked as a new
    variant), not for a choice question (asked as its lesson page asks it)."""
    return [
        {"id": ex.id, "title": ex.title, "varied": ex.id in VARIED}
        for ex in exercises()
        if ex.options or ex.id in VARIED
    ]


def for_the_room(shown: dict[str, Any] | None) -> dict[str, Any] | None:
    """The current poll as the projector link shows it (:meth:`Polls.view`): the right answer only once the
    presenter has revealed it."""
    if shown is None or shown.get("revealed"):
        return shown
    return {key: value for key, value in shown.items() if key != "right"}


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
        self._letters: dict[tuple[int, int], tuple[str, ...]] = {}

    def open(
        self,
        session_id: int,
        question: str,
        options: tuple[tuple[str, str], ...],
        exercise_id: str = "",
        first_round: int | None = None,
        round_: int = 1,
        answer: str = "",
    ) -> Poll:
        """Open a poll (closing any other open poll of the session); ``answer``: a variant's right letter."""
        poll_id = self.store.open_poll(session_id, question, options, exercise_id, first_round, round_, answer)
        # On SQLite a deleted session's numbers may come back (its one process opens every poll, so forgetting the
        # kept letters here is enough); PostgreSQL never gives a number twice.
        self._letters.clear()
        return self.poll(session_id, poll_id)

    def ask_exercise(self, session_id: int, exercise_id: str, seed: int | None = None) -> tuple[Poll, str]:
        """Open a poll on a lesson's question, and what the presenter is told of it: a numeric one as a new variant
        (from ``seed``, or one drawn now), a choice question as its lesson page asks it (:data:`CHOICE_NOTE`)."""
        if isinstance(exercise_id, str) and exercise_id.strip() in VARIED:
            exercise_id = exercise_id.strip()
            question, options, right = variant_question(exercise_id, fresh_seed() if seed is None else seed)
            poll = self.open(session_id, question, options, exercise_id, answer=right)
            return poll, VARIANT_NOTE.format(id=exercise_id)
        question, options = question_of(exercise_id)
        return self.open(session_id, question, options, exercise(exercise_id).id), CHOICE_NOTE

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
        return self.open(session_id, first.question, first.options, first.exercise, first.id, 2, first.answer)

    def reveal(self, session_id: int, poll_id: int, shown: bool) -> Poll:
        """Show the right answer of a closed round (or hide it again): on the dashboard and on the projector."""
        poll = self.poll(session_id, poll_id)
        if poll.state == "open":
            raise ValueError("The votes are still open: close the question first, then show the right answer.")
        if not right_answer(poll):
            raise ValueError("This is your own question: it has no right answer to show.")
        self.store.reveal_poll(session_id, poll_id, shown)
        return self.poll(session_id, poll_id)

    def vote(self, student: Student, poll_id: int, vote_id: Any, choice: Any) -> bool:
        """Record (or change) a student's vote; whether it changed anything. A resend of the same vote counts once.

        A poll's options never change, so they are read once per poll (:meth:`letters`); whether it is open is
        part of the vote's own statement, and the poll is read again only when that wrote nothing."""
        vote_id = bounded(vote_id, "vote id", ANSWER_ID_LENGTH)
        poll_id = record_id(poll_id, "poll")
        letters = self.letters(student.session_id, poll_id)
        if not isinstance(choice, str) or choice not in letters:
            raise ValueError(f"choice: one of {', '.join(letters)}.")
        if self.store.record_vote(student, poll_id, vote_id, choice):
            return True
        if self.poll(student.session_id, poll_id).state != "open":
            raise ValueError("This question is closed: your vote was not counted.")
        return False  # the same vote sent again

    def letters(self, session_id: int, poll_id: int) -> tuple[str, ...]:
        """The letters of a poll's options (a ``LookupError`` if the session has no such poll), kept for the last
        :data:`POLLS_KEPT` polls asked of this process: a room's votes read them at once."""
        key = (session_id, poll_id)
        found = self._letters.get(key)
        if found is None:
            found = tuple(letter for letter, _ in self.poll(session_id, poll_id).options)
            if len(self._letters) >= POLLS_KEPT:
                self._letters.clear()
            self._letters[key] = found
        return found

    def current_for(self, student: Student) -> tuple[Poll | None, str | None]:
        """What a student's phone shows: the session's current poll (:meth:`current`) and their vote on it."""
        return self.store.latest_poll_and_vote(student)

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
        shown = public(poll) | {
            "exercise": poll.exercise,
            "rounds": rounds_shown,
            "revealed": poll.revealed,
            "variant": bool(poll.answer),
        }
        if poll.state != "open" and right_answer(poll):
            shown["right"] = right_answer(poll)
        return shown


def right_answer(poll: Poll) -> str:
    """A poll's right letter: a variant's own, a bank question's from the bank; "" for the presenter's own."""
    if poll.answer:
        return poll.answer
    return str(exercise(poll.exercise).answer) if poll.exercise else ""
