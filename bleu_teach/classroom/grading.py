"""A homework's grading rules: its late policy, each student's own due time (an extension's), and each student's
points with a late answer's penalty applied, out of the homework's maximum and as a percentage.

The gradebook file (:mod:`~bleu_teach.classroom.homework_pages`) and the scores sent to a learning platform
(:mod:`~bleu_teach.classroom.store_scores`) both read a student's points from :func:`mark`, so that the two never
disagree. A question is worth one point: its counted answer (the student's last one that the checker could read)
earns it when right, and a right answer after the student's due time earns what the late policy leaves of it.
Points are exact (:class:`~fractions.Fraction`): a penalty is a whole percent, so every total is a whole number of
hundredths, written as such (:func:`points_text`); the percentage is rounded to one decimal place, halves up
(:func:`percentage_text`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction

from bleu_teach.classroom.schema import NOT_AN_ANSWER, Answer, Session

#: How a teacher writes a late policy (``class homework --late``).
LATE_SYNTAX = "accept, refuse or penalty:N (N: the percent taken off a late answer's points, a whole number 1-100)"


@dataclass(frozen=True)
class LatePolicy:
    """What happens to an answer sent after a student's due time: ``accept`` (taken, counted in full, marked
    late), ``refuse`` (not taken: the homework is closed for that student) or ``penalty`` (taken, marked late, a
    right answer worth ``penalty`` percent less).

    >>> LatePolicy.parse("penalty:20").late_share, str(LatePolicy.parse(" Refuse "))
    (Fraction(4, 5), 'refuse')
    """

    rule: str = "accept"
    penalty: int = 0  # percent taken off a late answer's points (rule "penalty")

    @classmethod
    def parse(cls, text: object, name: str = "late") -> LatePolicy:
        """The policy ``text`` names (``accept``, ``refuse`` or ``penalty:N``); a ``ValueError`` naming ``name``
        and the syntax otherwise."""
        if not isinstance(text, str):
            raise ValueError(f"{name}: {LATE_SYNTAX}, not {type(text).__name__}")
        said = text.strip().lower()
        if said in ("accept", "refuse"):
            return cls(said)
        rule, colon, number = said.partition(":")
        number = number.strip().removesuffix("%").strip()
        if rule.strip() == "penalty" and colon and number.isascii() and number.isdigit() and 1 <= int(number) <= 100:
            return cls("penalty", int(number))
        raise ValueError(f"{name}: {LATE_SYNTAX}, not {text[:40]!r}")

    @classmethod
    def of(cls, session: Session) -> LatePolicy:
        """The policy a session keeps (a session made before there were policies accepts late answers)."""
        try:
            return cls.parse(session.late)
        except ValueError:
            return cls()

    def __str__(self) -> str:
        return f"penalty:{self.penalty}" if self.rule == "penalty" else self.rule

    @property
    def late_share(self) -> Fraction:
        """The share of its point a right late answer earns: 1, or 1 - penalty/100."""
        return Fraction(100 - self.penalty, 100) if self.rule == "penalty" else Fraction(1)

    def said(self) -> str:
        """The policy in the teacher's words (the command's output)."""
        if self.rule == "refuse":
            return "answers after the due time refused"
        if self.rule == "penalty":
            return f"a late answer's points less {self.penalty}%"
        return "late answers counted in full, marked late"


def due_for(session: Session, until: datetime | None) -> datetime | None:
    """A student's own due time: their extension's ``until`` if they have one, else the homework's."""
    return until if until is not None else session.due


def past_due(session: Session, until: datetime | None, moment: datetime) -> bool:
    """Whether ``moment`` is after the student's due time (compared in UTC: both carry their zone)."""
    due = due_for(session, until)
    return due is not None and moment > due


def counted(answers: Iterable[Answer]) -> dict[tuple[int, str], Answer]:
    """Each student's counted answer to each question, by (student, exercise): the last of ``answers`` (given
    oldest first) that the checker could read."""
    last: dict[tuple[int, str], Answer] = {}
    for answer in answers:
        if answer.mistake != NOT_AN_ANSWER:
            last[(answer.student_id, answer.exercise)] = answer
    return last


@dataclass(frozen=True)
class Mark:
    """A student's homework as graded: each question's points (None: not answered), their sum, the maximum (one
    point a question) and whether a counted answer was late."""

    per_question: dict[str, Fraction | None]
    points: Fraction
    maximum: int
    late: bool

    @property
    def answered(self) -> int:
        return sum(value is not None for value in self.per_question.values())

    @property
    def started(self) -> bool:
        """Whether the student answered anything (one who never did gets blanks, not 0)."""
        return self.answered > 0


def mark(last: Mapping[str, Answer], questions: Sequence[str], policy: LatePolicy) -> Mark:
    """A student's mark from their counted answer to each of the homework's ``questions`` (``last``, by exercise).

    >>> from datetime import timezone
    >>> at = datetime(2026, 12, 1, 9, tzinfo=timezone.utc)
    >>> right = Answer("a", 1, "03.1", "0.5", "correct", "", at, False)
    >>> late = Answer("b", 1, "04.1", "2", "correct", "", at, True)
    >>> got = mark({"03.1": right, "04.1": late}, ["03.1", "04.1", "07.1"], LatePolicy("penalty", 20))
    >>> points_text(got.points), got.maximum, percentage_text(got.points, got.maximum), got.late
    ('1.8', 3, '60.0', True)
    """
    per_question: dict[str, Fraction | None] = {}
    late = False
    for exercise_id in questions:
        answer = last.get(exercise_id)
        if answer is None:
            per_question[exercise_id] = None
            continue
        late = late or answer.late
        worth = policy.late_share if answer.late else Fraction(1)
        per_question[exercise_id] = worth if answer.verdict == "correct" else Fraction(0)
    points = sum((value for value in per_question.values() if value is not None), Fraction(0))
    return Mark(per_question, points, len(questions), late)


def points_text(value: Fraction) -> str:
    """Points as a spreadsheet reads them: to the hundredth (exact, since a penalty is a whole percent), without
    trailing zeros.

    >>> points_text(Fraction(14, 5)), points_text(Fraction(3)), points_text(Fraction(7, 4))
    ('2.8', '3', '1.75')
    """
    hundredths = math.floor(value * 100 + Fraction(1, 2))
    whole, rest = divmod(hundredths, 100)
    return str(whole) if rest == 0 else f"{whole}.{rest:02d}".rstrip("0")


def percentage_text(points: Fraction, maximum: int) -> str:
    """``points`` out of ``maximum`` in percent, to one decimal place, halves rounded up.

    >>> percentage_text(Fraction(2), 3), percentage_text(Fraction(3), 3), percentage_text(Fraction(1, 8), 1)
    ('66.7', '100.0', '12.5')
    """
    if maximum <= 0:
        return ""
    tenths = math.floor(Fraction(points) * 1000 / maximum + Fraction(1, 2))
    return f"{tenths // 10}.{tenths % 10}"


def score_number(value: Fraction) -> int | float:
    """Points as a JSON number for a platform's score (AGS 2.0 §3.4.1 ``scoreGiven``): whole or to the hundredth.

    >>> score_number(Fraction(14, 5)), score_number(Fraction(2))
    (2.8, 2)
    """
    return int(value) if value.denominator == 1 else float(points_text(value))
