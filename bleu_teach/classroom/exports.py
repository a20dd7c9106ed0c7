"""What a teacher takes away of a session, as text: its answers (the dashboard's export), its polls round by round
and option by option, the whole course as one JSON document and the class over its sessions (``term.json``), the
members of ``class archive``'s zip.

Every CSV cell goes through :func:`~bleu_teach.classroom.guard.csv_cell`: what a student or the presenter typed
never runs as a formula in a spreadsheet. A poll's votes are counted as the dashboard counts them
(:meth:`~bleu_teach.classroom.polls.Polls.counts`: a removed student's vote counts no more), and its right
answer is the polls' own (:func:`~bleu_teach.classroom.polls.right_answer`). A homework's grades are the
gradebook file of its route (:func:`~bleu_teach.classroom.homework_pages.grades_text`), not a second copy of it.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime, timezone
from typing import Any

from bleu_teach.classroom.guard import csv_cell
from bleu_teach.classroom.homework_pages import grades_text
from bleu_teach.classroom.polls import Polls, right_answer
from bleu_teach.classroom.store import Session, Store
from bleu_teach.classroom.store_polls import Poll
from bleu_teach.classroom.term import term_report

#: The polls file's columns: one row per round of a poll and per option.
POLL_COLUMNS = ("poll", "round", "question", "option", "option text", "votes", "right answer", "opened (UTC)")
#: What ``course.json`` says it is, and the version of its shape.
COURSE_FORMAT = "bleu-teach course archive"
COURSE_VERSION = 1


def utc_text(moment: datetime | None) -> str:
    """A moment in UTC as ISO 8601 to the second ("" for none)."""
    if moment is None:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).isoformat(timespec="seconds")


def _csv(header: tuple[str, ...] | list[str], rows: list[list[Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    for row in rows:
        writer.writerow([csv_cell(cell) for cell in row])
    return out.getvalue()


def answers_csv(store: Store, session: Session) -> str:
    """The session's answers, one row each, as the dashboard's export gives them: a removed student's kept and
    marked."""
    roster = {s.id: s.nickname for s in store.roster(session.id)}
    removed = {s.id: s.nickname for s in store.roster(session.id, True)}
    rows = [
        [
            roster.get(answer.student_id) or removed.get(answer.student_id, ""),
            answer.exercise,
            answer.answer,
            answer.verdict,
            answer.mistake,
            "yes" if answer.late else "no",
            answer.at.isoformat(),
            "yes" if answer.student_id in removed else "no",
        ]
        for answer in store.answers(session.id)
    ]
    return _csv(["nickname", "exercise", "answer", "verdict", "mistake", "late", "at", "removed"], rows)


def right_of(poll: Poll) -> str:
    """The poll's right letter ("" for the presenter's own question, or a bank question the bank no longer has)."""
    try:
        return right_answer(poll)
    except (KeyError, ValueError):
        return ""


def poll_number(poll: Poll) -> int:
    """The number both rounds of a poll share: its first round's."""
    return poll.first_round if poll.first_round is not None else poll.id


def polls_csv(store: Store, session: Session) -> str:
    """The session's polls: a row per round and option, with its votes, whether it is the right answer ("yes" or
    "no"; blank for the presenter's own question) and when the round was opened."""
    counter = Polls(store)
    rows = []
    for poll in store.session_polls(session.id):
        votes = counter.counts(poll)
        right = right_of(poll)
        for letter, text in poll.options:
            rows.append(
                [
                    poll_number(poll),
                    poll.round,
                    poll.question,
                    letter,
                    text,
                    votes.get(letter, 0),
                    ("yes" if letter == right else "no") if right else "",
                    utc_text(poll.opened),
                ]
            )
    return _csv(POLL_COLUMNS, rows)


def session_data(store: Store, session: Session) -> dict[str, Any]:
    """One session as ``course.json`` holds it: its settings, students, answers, polls (votes per option), roster
    and extensions (no secret: the teacher's, the projector link's and the students' tokens stay in the database)."""
    joined = store.joined(session.id)
    names = {student.id: student.nickname for student, _, _ in joined}
    counter = Polls(store)
    polls = []
    for poll in store.session_polls(session.id):
        votes = counter.counts(poll)
        polls.append(
            {
                "poll": poll_number(poll),
                "round": poll.round,
                "question": poll.question,
                "exercise": poll.exercise,
                "state": poll.state,
                "opened": utc_text(poll.opened),
                "right": right_of(poll),
                "revealed": poll.revealed,
                "options": [
                    {"letter": letter, "text": text, "votes": votes.get(letter, 0)} for letter, text in poll.options
                ],
            }
        )
    return {
        "id": session.id,
        "title": session.title,
        "kind": session.kind,
        "code": session.code,
        "created": utc_text(session.created),
        "due": utc_text(session.due) or None,
        "closed": utc_text(session.closed) or None,
        "tries": session.tries,
        "late": session.late,
        "students": [
            {"nickname": student.nickname, "joined": utc_text(at), "removed": utc_text(removed) or None}
            for student, at, removed in joined
        ],
        "answers": [
            {
                "nickname": names.get(answer.student_id, ""),
                "exercise": answer.exercise,
                "answer": answer.answer,
                "verdict": answer.verdict,
                "mistake": answer.mistake,
                "late": answer.late,
                "at": utc_text(answer.at),
            }
            for answer in store.answers(session.id)
        ],
        "polls": polls,
        "roster": [
            {"name": name, "identifiers": json.loads(identifiers or "{}"), "joined": student_id is not None}
            for name, identifiers, student_id in store.roster_names(session.id)
        ],
        "extensions": [
            {"name": name, "until": utc_text(until)} for name, until in sorted(store.extensions(session.id).values())
        ],
    }


def archive_members(store: Store, sessions: list[Session]) -> list[tuple[str, str]]:
    """The files of a course's archive, (name, text): per session its answers and its polls (and a homework's
    grades) in a folder ``session-N``, then ``course.json`` with every session and ``term.json``, the class over
    these sessions (:func:`~bleu_teach.classroom.term.term_report`: what ``class term --format json`` prints)."""
    members: list[tuple[str, str]] = []
    for session in sessions:
        folder = f"session-{session.id}"
        members.append((f"{folder}/answers.csv", answers_csv(store, session)))
        members.append((f"{folder}/polls.csv", polls_csv(store, session)))
        if session.kind == "homework":
            members.append((f"{folder}/grades.csv", grades_text(store, session)))
    course = {
        "format": COURSE_FORMAT,
        "version": COURSE_VERSION,
        "made": utc_text(datetime.now(timezone.utc)),
        "sessions": [session_data(store, session) for session in sessions],
    }
    members.append(("course.json", json.dumps(course, ensure_ascii=False, indent=1) + "\n"))
    term = term_report(store.term_rows([session.id for session in sessions]))  # no sessions: an empty database
    members.append(("term.json", term.to_json(indent=1) + "\n"))
    return members
