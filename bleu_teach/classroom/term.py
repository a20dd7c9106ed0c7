"""The class over a term: per named mistake and per student, session by session, which mistakes persist and who
improved (``class term``, and ``term.json`` in ``class archive``'s zip).

The numbers are worked out here from the rows one store read gives
(:meth:`~bleu_teach.classroom.store_term.TermRecords.term_rows`), with no database: each student's last answer to
each exercise counts, as on the dashboard (:mod:`~bleu_teach.classroom.counts`); the same student across sessions
is found by :func:`~bleu_teach.classroom.people.match_people`; which exercises can show a mistake is the exercise
bank's to say (:func:`bank_mistakes`). :class:`TermReport` is a view like every report of the package: text,
Markdown, HTML and JSON from one document, every typed name escaped by the writers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bleu_teach.classroom.people import ALONE, NICKNAME, PLATFORM, ROSTER, Apart, match_people, matched_counts
from bleu_teach.classroom.schema import Answer, Session
from bleu_teach.classroom.store_term import TermRows
from bleu_teach.exercises.bank import exercise
from bleu_teach.views.document import Block, Chart, Document, Heading, Notes, Paragraph, Section, Series, Strong, Table
from bleu_teach.views.figure_text import series_text
from bleu_teach.views.viewable import Viewable

__all__ = [
    "CHARTED",
    "DEFINITIONS",
    "TITLE",
    "MistakeLine",
    "StudentLine",
    "TermReport",
    "Tried",
    "bank_mistakes",
    "term_report",
]

TITLE = "The class over the term"
#: The measures, in the words the view says them (one paragraph, and the JSON's ``definitions``).
DEFINITIONS = (
    "Each student's last answer to each exercise in a session counts, as on the dashboard; removed students are "
    "left out. An exercise can show a mistake when the exercise bank's checker names that mistake for it (or an "
    "answer to it in these sessions was judged as that mistake). A mistake's cell is made/answered: of the students "
    "who answered an exercise that can show it in that session, how many made it on at least one. For a student "
    "and a mistake, take the last session in which they answered such an exercise: the mistake persists when they "
    "made it there and in an earlier session; they improved when they made it in an earlier session and there "
    "answered such an exercise right and made the mistake on none. A student's cell is right/answered (of the "
    "exercises they answered in the session, how many were right), then the mistakes they made there."
)
#: How each rule of :mod:`~bleu_teach.classroom.people` is said.
_RULE_WORDS = {
    PLATFORM: "their learning platform's user (LTI)",
    ROSTER: "their roster name (accents, apostrophes, hyphens and the order of the names aside)",
    NICKNAME: "their nickname (case and spaces aside; taken as a roster name by the join page's rule)",
}
#: The chart draws this many mistakes at most, those most students made (the table lists them all).
CHARTED = 8
#: The months as the chart's axis writes a session's day (not the locale's: the same page everywhere).
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@lru_cache(maxsize=256)
def bank_mistakes(exercise_id: str) -> frozenset[str]:
    """The named mistakes the exercise bank's checker knows for an exercise, as answers store them (words, not
    underscores; those that give the same number on the lesson's own values each named); none for an exercise the
    bank does not have.

    >>> sorted(bank_mistakes("03.1"))[:3], bank_mistakes("99.9")
    (['difference', 'first reference', 'longest reference'], frozenset())
    """
    try:
        ex = exercise(exercise_id)
    except (KeyError, ValueError):
        return frozenset()
    offered = ex.check(None).misconceptions
    return frozenset(name.replace("_", " ") for m in offered for name in (m.name, *m.also))


@dataclass(frozen=True)
class Tried:
    """One student's session: the nickname they had there, the exercises they answered and got right (their last
    answers), and the named mistakes of those answers."""

    nickname: str
    answered: int
    right: int
    mistakes: tuple[str, ...]


@dataclass(frozen=True)
class MistakeLine:
    """A named mistake over the sessions: its number in the view (M1, M2...), the exercises that can show it, per
    session (made, answered), and how many students it persists with and how many improved."""

    number: int
    name: str
    exercises: tuple[str, ...]
    sessions: tuple[tuple[int, int], ...]
    persists: int
    improved: int


@dataclass(frozen=True)
class StudentLine:
    """A student over the sessions: their name, the rules that matched them ("roster name, nickname"; "one session
    only"), their session in each column (None where they were not there), and the mistakes that persist with them
    and those they improved on."""

    name: str
    matched_by: str
    sessions: tuple[Tried | None, ...]
    persists: tuple[str, ...]
    improved: tuple[str, ...]


def session_label(session: Session) -> str:
    """A session as the view heads its column: its title and the day it was made (UTC)."""
    return f"{session.title} ({session.created:%Y-%m-%d})"


def session_tick(number: int, session: Session) -> str:
    """A session as the chart's axis writes it: its place in the view and the day it was made (UTC), on two lines.

    >>> from datetime import datetime, timezone
    >>> session_tick(2, Session(7, "CODE", "Week 2", "live", datetime(2026, 10, 5, tzinfo=timezone.utc), None, None))
    '2\\n5 Oct'
    """
    return f"{number}\n{session.created.day} {_MONTHS[session.created.month - 1]}"


@dataclass(frozen=True, repr=False)
class TermReport(Viewable):
    """The class over the sessions, oldest first: the named mistakes (most students first), the students (by name),
    how many students each rule matched (a student matched by two rules counts under each), and the names left apart
    as maybe two people's, with why (:class:`~bleu_teach.classroom.people.Apart`)."""

    sessions: tuple[Session, ...]
    mistakes: tuple[MistakeLine, ...]
    students: tuple[StudentLine, ...]
    matched: tuple[tuple[str, int], ...]
    apart: tuple[Apart, ...]

    def chart(self) -> Chart | None:
        """Each mistake's share over the sessions, in percent of the students who answered an exercise that can
        show it (a session where nobody did has no point), for the :data:`CHARTED` mistakes most students made
        (the title and the words say so when there are more); None when no mistake was named. Its legend goes
        below the plot (``"outside lower center"``), where any number of lines leaves the plot its size."""
        if not self.mistakes:
            return None
        labels = [session_label(s) for s in self.sessions]
        drawn = self.mistakes[:CHARTED]
        if len(drawn) < len(self.mistakes):
            title = (
                f"The {len(drawn)} mistakes most students made (of {len(self.mistakes)}): the share who made each, "
                "session by session"
            )
            which = (
                f"Drawn: M1 to M{len(drawn)}, the {len(drawn)} mistakes most students made; the table lists all "
                f"{len(self.mistakes)}"
            )
        else:
            title, which = "Share of the students who made each mistake, session by session", ""
        series, told = [], []

        def at(k: object) -> str:
            return labels[k - 1] if isinstance(k, int) else str(k)

        for line in drawn:
            points = tuple(
                (float(k + 1), 100 * made / answered) for k, (made, answered) in enumerate(line.sessions) if answered
            )
            name = f"M{line.number} {line.name}"
            series.append(Series("line", name, points, colour=(line.number - 1) % 8, dash=(line.number - 1) % 4))
            told.append(series_text(name, [int(x) for x, _ in points], [y for _, y in points], at, 0, "in"))
        sessions = "; ".join(f"{k} is {label}" for k, label in enumerate(labels, start=1))
        description = " ".join(
            part if part.endswith(".") else part + "."
            for part in (
                f'Line chart titled "{title}"',
                f"Horizontal axis: session, 1 to {len(labels)} ({sessions})",
                "Vertical axis: percent of the students who answered an exercise that can show the mistake, 0 to 100",
                f"{len(series)} line{'s' if len(series) != 1 else ''}, one per mistake",
                which,
                *told,
            )
            if part
        )
        return Chart(
            title,
            "session (its number and the day it was made)",
            "% of students who could make it",
            (0.5, len(labels) + 0.5),
            (-2.0, 102.0),
            tuple(series),
            description,
            whole_x=True,
            legend="outside lower center",
        )

    def chart_ticks(self) -> tuple[tuple[float, str], ...]:
        """The chart's sessions as its horizontal axis names them (:func:`session_tick`), at their x."""
        return tuple((float(k), session_tick(k, s)) for k, s in enumerate(self.sessions, start=1))

    def _matched_text(self) -> str:
        counts = dict(self.matched)
        found = [f"{_RULE_WORDS[rule]} for {counts[rule]}" for rule in _RULE_WORDS if counts.get(rule)]
        alone = counts.get(ALONE, 0)
        again = len(self.students) - alone
        said = (
            f"{again} {'was' if again == 1 else 'were'} found in more than one session, by {_listed(found)}"
            + (" (a student found by two rules counts under each)" if len(found) > 1 else "")
            if found
            else ""
        )
        if alone:
            told = f"{alone} {'was' if alone == 1 else 'were'} in one session only"
            said = f"{said}; {told}" if said else told[:1].upper() + told[1:]
        return (said or "Nobody has joined these sessions yet") + "."

    def to_document(self) -> Document:
        blocks: list[Block] = [Heading(TITLE)]
        if not self.sessions:
            blocks.append(Paragraph(("No sessions to read: the database holds none yet (class list shows them).",)))
            return Document(tuple(blocks))
        first, last = self.sessions[0].created, self.sessions[-1].created
        count = len(self.sessions)
        blocks.append(
            Paragraph(
                (
                    f"{count} session{'s' if count != 1 else ''}, from {first:%Y-%m-%d} to {last:%Y-%m-%d}, "
                    f"{len(self.students)} student{'s' if len(self.students) != 1 else ''}. {self._matched_text()}",
                )
            )
        )
        labels = tuple(session_label(s) for s in self.sessions)
        if self.mistakes:
            rows = tuple(
                (
                    f"M{line.number} {line.name}",
                    ", ".join(line.exercises),
                    *(f"{made}/{answered}" if answered else "-" for made, answered in line.sessions),
                    str(line.persists),
                    str(line.improved),
                )
                for line in self.mistakes
            )
            header = ("Mistake", "Can show in", *labels, "Persists", "Improved")
            caption = (
                "Each session: students who made the mistake / students who answered an exercise that can show it. "
                "M1, M2, ... are this view's own numbers, the mistake most students made first: another choice of "
                "sessions may number them otherwise"
            )
            chart = self.chart()
            assert chart is not None  # there are mistakes
            blocks.append(
                Section(("Named mistakes, session by session",), (Table(header, rows, caption=caption), chart))
            )
        else:
            blocks.append(Paragraph(("No named mistake was made in these sessions.",)))
        numbers = {line.name: f"M{line.number}" for line in self.mistakes}
        rows = tuple(
            (
                student.name,
                student.matched_by,
                *(_tried_cell(tried, numbers) for tried in student.sessions),
                ", ".join(numbers[name] for name in student.persists),
                ", ".join(numbers[name] for name in student.improved),
            )
            for student in self.students
        )
        header = ("Student", "Matched by", *labels, "Persists", "Improved")
        caption = "Each session: right / answered, then the mistakes made there; - where the student was not there"
        blocks.append(Section(("Students",), (Table(header, rows, caption=caption),)))
        blocks.append(Paragraph((Strong("How to read it:"), " ", DEFINITIONS)))
        if self.apart:
            blocks.append(
                Notes(
                    tuple((f"{', '.join(f'“{name}”' for name in a.names)} ({a.rule}): {a.why}",) for a in self.apart),
                    "Names that may be two people's, not used by the rule in brackets (a more trusted rule may still "
                    "have matched their students)",
                )
            )
        return Document(tuple(blocks))

    def to_dict(self) -> dict[str, Any]:
        """The term as JSON-ready data: the sessions, the rules' counts, the mistakes and the students (names, not
        the view's M numbers), the chart and the definitions."""
        chart = self.chart()
        ids = [s.id for s in self.sessions]
        return {
            "type": "TermReport",
            "sessions": [
                {
                    "id": s.id,
                    "title": s.title,
                    "kind": s.kind,
                    "created": s.created.isoformat(timespec="seconds"),
                    "label": session_label(s),
                }
                for s in self.sessions
            ],
            "students_count": len(self.students),
            "matched": dict(self.matched),
            "apart": [{"rule": a.rule, "names": list(a.names), "why": a.why} for a in self.apart],
            "mistakes": [
                {
                    "number": line.number,
                    "name": line.name,
                    "exercises": list(line.exercises),
                    "sessions": [
                        {"session": ids[k], "made": made, "answered": answered}
                        for k, (made, answered) in enumerate(line.sessions)
                    ],
                    "persists": line.persists,
                    "improved": line.improved,
                }
                for line in self.mistakes
            ],
            "students": [
                {
                    "name": student.name,
                    "matched_by": student.matched_by,
                    "sessions": [
                        {
                            "session": ids[k],
                            "nickname": tried.nickname,
                            "answered": tried.answered,
                            "right": tried.right,
                            "mistakes": list(tried.mistakes),
                        }
                        for k, tried in enumerate(student.sessions)
                        if tried is not None
                    ],
                    "persists": list(student.persists),
                    "improved": list(student.improved),
                }
                for student in self.students
            ],
            "chart": None if chart is None else chart.as_json(),
            "definitions": DEFINITIONS,
        }


def _tried_cell(tried: Tried | None, numbers: dict[str, str]) -> str:
    if tried is None:
        return "-"
    made = " ".join(numbers[name] for name in tried.mistakes)
    return f"{tried.right}/{tried.answered}" + (f" {made}" if made else "")


def _listed(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _made(given: dict[str, Answer], mistake: str) -> bool:
    return any(a.verdict == "misconception" and a.mistake == mistake for a in given.values())


def _state(given: dict[str, Answer], mistake: str, shown: set[str]) -> str | None:
    """What a student's last answers in a session say of ``mistake``, which the exercises ``shown`` can show: None
    (they answered none of them), "made", "right" (one of them right, the mistake on none) or "other"."""
    if not shown & set(given):
        return None
    if _made(given, mistake):
        return "made"
    return "right" if any(a.verdict == "correct" for ex, a in given.items() if ex in shown) else "other"


def term_report(rows: TermRows, known: Callable[[str], frozenset[str]] = bank_mistakes) -> TermReport:
    """The term of ``rows``; ``known(exercise_id)`` is the mistakes an exercise can show (the bank's, unless a test
    says otherwise)."""
    order = [s.id for s in rows.sessions]
    column = {number: k for k, number in enumerate(order)}
    matching = match_people(rows.students, order, rows.rosters)
    latest: dict[int, dict[str, Answer]] = {}
    for answer in rows.answers:  # the last answer per student and exercise, as counts.Latest keeps it
        mine = latest.setdefault(answer.student_id, {})
        kept = mine.get(answer.exercise)
        if kept is None or (answer.at, answer.answer_id) >= (kept.at, kept.answer_id):
            mine[answer.exercise] = answer
    can_show: dict[str, set[str]] = {}
    for exercise_id in sorted({a.exercise for a in rows.answers}):
        for name in known(exercise_id):
            can_show.setdefault(name, set()).add(exercise_id)
    for answer in rows.answers:  # a homework's variant may name a mistake the lesson's own numbers do not
        if answer.verdict == "misconception" and answer.mistake:
            can_show.setdefault(answer.mistake, set()).add(answer.exercise)
    grid: list[list[tuple[str, dict[str, Answer]] | None]] = []  # per person, per session: nickname, last answers
    for person in matching.people:
        cells: list[tuple[str, dict[str, Answer]] | None] = [None] * len(order)
        for student in person.students:
            cells[column[student.session_id]] = (student.nickname, latest.get(student.id, {}))
        grid.append(cells)
    states: dict[str, list[list[str | None]]] = {}  # per mistake, per person, per session: made, right, other, None
    for name, shown in can_show.items():
        states[name] = [[None if cell is None else _state(cell[1], name, shown) for cell in cells] for cells in grid]
    made_by = {name: sum("made" in person for person in per) for name, per in states.items()}
    named = sorted((name for name, count in made_by.items() if count), key=lambda name: (-made_by[name], name))
    persists: dict[str, list[bool]] = {}
    improved: dict[str, list[bool]] = {}
    for name in named:
        persists[name], improved[name] = [], []
        for path in states[name]:
            seen = [k for k, state in enumerate(path) if state is not None]
            before = bool(seen) and "made" in path[: seen[-1]]
            persists[name].append(before and path[seen[-1]] == "made")
            improved[name].append(before and path[seen[-1]] == "right")
    mistakes = tuple(
        MistakeLine(
            k,
            name,
            tuple(sorted(can_show[name])),
            tuple(
                (sum(path[c] == "made" for path in states[name]), sum(path[c] is not None for path in states[name]))
                for c in range(len(order))
            ),
            sum(persists[name]),
            sum(improved[name]),
        )
        for k, name in enumerate(named, start=1)
    )
    students = tuple(
        StudentLine(
            person.name,
            person.matched_by,
            tuple(
                None
                if cell is None
                else Tried(
                    cell[0],
                    len(cell[1]),
                    sum(a.verdict == "correct" for a in cell[1].values()),
                    tuple(name for name in named if _made(cell[1], name)),
                )
                for cell in grid[p]
            ),
            tuple(name for name in named if persists[name][p]),
            tuple(name for name in named if improved[name][p]),
        )
        for p, person in enumerate(matching.people)
    )
    return TermReport(rows.sessions, mistakes, students, tuple(matched_counts(matching).items()), matching.apart)
