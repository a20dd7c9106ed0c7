"""What each JSON request of the classroom carries, read once into a typed object: a route takes its body with
``Kind.of(await json_body(request))`` and works with named, checked fields; a field that is missing or of the
wrong kind is a ``TypeError``/``ValueError`` naming it (answered with a 400 by the route, the server goes on).

What is bounded here is what the request's shape decides (text, a number, a list, the answer's length); what the
records decide (a nickname's characters, a question's length, a vote's choice among the options) is checked where
they are kept (:func:`~bleu_teach.classroom.schema.bounded`, :mod:`~bleu_teach.classroom.polls`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bleu_teach.classroom.room import text_field
from bleu_teach.classroom.schema import MAX_ANSWER


def _answer_text(body: dict[str, Any]) -> str:
    answer = body.get("answer")
    if not isinstance(answer, str):
        raise TypeError("answer: give the answer as text.")
    if len(answer) > MAX_ANSWER:
        raise ValueError(f"answer: at most {MAX_ANSWER} characters (this one has {len(answer)}); shorten it.")
    return answer


@dataclass(frozen=True)
class JoinBody:
    """``POST /class/api/join``: the session's code and the nickname (or the roster's name) to join under."""

    code: str
    nickname: str

    @classmethod
    def of(cls, body: dict[str, Any]) -> JoinBody:
        code = body.get("code")
        if not isinstance(code, str) or not code.strip():
            raise ValueError("code: type the session's code, as the teacher shows it.")
        return cls(code, text_field(body.get("nickname"), "nickname"))


@dataclass(frozen=True)
class AnswerBody:
    """An answer, live or to a homework: the page's id for it (a resend has the same), the exercise, the text.

    >>> AnswerBody.of({"id": "a1", "exercise": "03.1", "answer": "0.5"})
    AnswerBody(id='a1', exercise='03.1', answer='0.5')
    >>> AnswerBody.of({"id": "a1", "exercise": 3.1, "answer": "0.5"})
    Traceback (most recent call last):
    TypeError: exercise: give the exercise's id as text, e.g. "03.1".
    """

    id: str
    exercise: str
    answer: str

    @classmethod
    def of(cls, body: dict[str, Any]) -> AnswerBody:
        exercise = body.get("exercise")
        if not isinstance(exercise, str):
            raise TypeError('exercise: give the exercise\'s id as text, e.g. "03.1".')
        answer = _answer_text(body)
        return cls(text_field(body.get("id"), "answer id"), exercise, answer)


@dataclass(frozen=True)
class VoteBody:
    """A vote on a poll of the student's session: the poll's number, the page's id for the vote, the choice."""

    poll: int
    id: Any
    choice: Any

    @classmethod
    def of(cls, body: dict[str, Any]) -> VoteBody:
        poll = body.get("poll")
        if not isinstance(poll, int) or isinstance(poll, bool):
            raise TypeError("poll: reload the page.")
        return cls(poll, body.get("id"), body.get("choice"))  # checked against the poll itself (polls.vote)


@dataclass(frozen=True)
class PollBody:
    """A question put to the room: an exercise of the bank by its id, or the presenter's own question and
    options."""

    exercise: str | None
    question: Any
    options: Any

    @classmethod
    def of(cls, body: dict[str, Any]) -> PollBody:
        exercise = body.get("exercise")
        if exercise is not None and exercise != "":  # a lesson's exercise by its id; anything but text is refused
            return cls(text_field(exercise, "exercise"), None, None)
        return cls(None, body.get("question"), body.get("options"))  # bounded by polls.own_question


@dataclass(frozen=True)
class TitleBody:
    """A new live session's title."""

    title: str

    @classmethod
    def of(cls, body: dict[str, Any]) -> TitleBody:
        return cls(text_field(body.get("title"), "title"))


@dataclass(frozen=True)
class NameBody:
    """A roster's name (the teacher lets that student join again)."""

    name: str

    @classmethod
    def of(cls, body: dict[str, Any]) -> NameBody:
        return cls(text_field(body.get("name"), "name"))
