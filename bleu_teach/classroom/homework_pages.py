"""The homework's routes: the student's page and answers, and the teacher's gradebook export.

The student's page asks ``/class/api/homework`` for their questions (text and
how to answer, never the answers), their own due time and whether the homework
is still open for them, and sends each answer to
``/class/api/homework/answer``, which checks it with their own variant and
answers with the verdict and the named mistake only. The teacher's
``grades.csv`` has a row per student (per roster name, with the platform's
identifiers the roster gave) and, graded by :mod:`~bleu_teach.classroom.grading`,
a column per exercise (its points: 1 for a right last answer, less a late
one's penalty, 0 for a wrong one, empty for none), the points, the maximum, the
percentage, whether a counted answer was late, the student's extension and the
tries used per question, in the form Moodle's and Canvas's gradebook imports
read (TEACHERS_GUIDE.md). A student who never answered gets empty cells, not 0;
a roster name whose student the teacher took out (no one having joined as it
since) gets them too, and ``yes`` in a ``Removed`` column, there only when a
row needs it (an import leaves it unmatched, as the late flag).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from typing import Any, Protocol

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.templating import Jinja2Templates

from bleu_teach.classroom.bodies import AnswerBody, NameBody
from bleu_teach.classroom.grading import LatePolicy, counted, due_for, mark, past_due, percentage_text, points_text
from bleu_teach.classroom.guard import Limiter, SharedLimiter, csv_cell
from bleu_teach.classroom.handling import error, json_body
from bleu_teach.classroom.homework import Homework
from bleu_teach.classroom.roles import ANYONE, STUDENT, TEACHER, Refused, allowed
from bleu_teach.classroom.schema import NOT_AN_ANSWER, now
from bleu_teach.classroom.store import PastDue, Session, Store, Student, fold
from bleu_teach.classroom.store_answers import TriesUsed


class Room(Protocol):
    """What these routes use of the server's state (``app.Classroom``)."""

    store: Store
    templates: Jinja2Templates
    per_student: Limiter | SharedLimiter

    async def student(self, request: Request) -> tuple[Session, Student] | None: ...

    async def teaching(self, request: Request) -> Session | None: ...

    def is_admin(self, request: Request) -> bool: ...


class HomeworkRoutes:
    """``graded(session_id, student_id)``: called once a student's answer is stored (their score for the learning
    platform that launched them is queued: LTI's grades)."""

    def __init__(self, room: Room, graded: Callable[[int, int], Awaitable[None]] | None = None) -> None:
        self.room = room
        self.homework = Homework(room.store)
        self.graded = graded

    @staticmethod
    def _homework(found: tuple[Session, Student]) -> tuple[Session, Student]:
        if found[0].kind != "homework":
            raise Refused("Your session is not a homework: answer on the lesson pages.", 409)
        return found

    @allowed(ANYONE)
    async def page(self, request: Request, _: Any) -> Response:
        return self.room.templates.TemplateResponse(request, "homework.html", {})

    @allowed(STUDENT)
    async def questions(self, request: Request, found: tuple[Session, Student]) -> Response:
        session, student = self._homework(found)
        asked = await run_in_threadpool(self.homework.questions, student)
        given = await run_in_threadpool(self.room.store.answers, session.id, student.id)
        until = await run_in_threadpool(self.room.store.extension, student)
        due = due_for(session, until)
        policy = LatePolicy.of(session)
        closed = policy.rule == "refuse" and past_due(session, until, now())  # closed for this student
        last = {
            answer.exercise: {
                "answer": answer.answer,
                "verdict": answer.verdict,
                "mistake": answer.mistake,
                "late": answer.late,
            }
            for answer in given
        }
        used: dict[str, int] = {}
        for answer in given:
            if answer.mistake != NOT_AN_ANSWER:  # an answer in the wrong form uses no try
                used[answer.exercise] = used.get(answer.exercise, 0) + 1
        return JSONResponse(
            {
                "title": session.title,
                "nickname": student.nickname,
                "open": session.open and not closed,
                "due": due.isoformat() if due else None,
                "extended": until is not None,
                "late": str(policy),
                "tries": session.tries,
                "questions": [
                    question
                    | {
                        "last": last.get(question["exercise"]),
                        "tries_left": session.tries - used.get(question["exercise"], 0),
                    }
                    for question in asked
                ],
            }
        )

    @allowed(STUDENT)
    async def answer(self, request: Request, found: tuple[Session, Student]) -> Response:
        session, student = self._homework(found)
        if not await self.room.per_student.admit(f"s{student.id}"):
            return error("Too many answers in a minute: wait a little, then send again.", 429, 60)
        if not session.open:
            return error("This homework is closed: your answer was not taken.", 409)
        try:
            sent = AnswerBody.of(await json_body(request))
            answer_id, exercise_id, answer = sent.id, sent.exercise, sent.answer
            store = self.room.store
            judged = await run_in_threadpool(self.homework.judge, student, exercise_id, answer)
            if judged.mistake == NOT_AN_ANSWER:  # no number, no letter: nothing to grade, and nothing replaced
                if LatePolicy.of(session).rule == "refuse":  # closed for them: said before the form is
                    until = await run_in_threadpool(store.extension, student)
                    due = due_for(session, until)
                    if due is not None and past_due(session, until, now()):
                        raise PastDue(due)
                used = await run_in_threadpool(store.tries, student, exercise_id)
                return JSONResponse(
                    {
                        "stored": False,
                        "verdict": judged.verdict,
                        "mistake": judged.mistake,
                        "late": False,
                        "tries_left": max(0, session.tries - used),
                    }
                )
            # A verdict per try would let a script find a number among its candidates: the tries are counted, in
            # the same step as the answer is stored.
            kept, stored = await run_in_threadpool(
                store.record_answer,
                student,
                answer_id,
                exercise_id,
                answer,
                judged.verdict,
                judged.mistake,
                None,
                session,
                session.tries,
            )
            used = await run_in_threadpool(store.tries, student, exercise_id)
            if stored and self.graded is not None:
                await self.graded(session.id, student.id)
        except (TriesUsed, PastDue) as problem:
            return error(str(problem), 409)
        except (TypeError, ValueError) as problem:
            return error(str(problem))
        return JSONResponse(
            {
                "stored": stored,
                "verdict": kept.verdict,
                "mistake": kept.mistake,
                "late": kept.late,
                "tries_left": max(0, session.tries - used),
            }
        )

    @allowed(TEACHER)
    async def reopen(self, request: Request, session: Session) -> Response:
        """Let a roster name join again (a new device, lost cookies): the teacher's button on the dashboard."""
        try:
            name = NameBody.of(await json_body(request)).name
        except (TypeError, ValueError) as problem:
            return error(str(problem))
        if not await run_in_threadpool(self.room.store.reopen, session.id, name):
            return error("name: not on this homework's roster.", 404)
        return JSONResponse({"reopened": name})

    @allowed(TEACHER)
    async def grades(self, request: Request, session: Session) -> Response:
        text = await run_in_threadpool(grades_text, self.room.store, session)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d")
        return Response(
            text,
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="bleu-teach-grades-{session.id}-{stamp}.csv"'},
        )


def grades_text(store: Store, session: Session) -> str:
    """A homework's gradebook file (its route's, and ``class archive``'s): a row per roster name (or per student,
    without a roster), graded as the platform's scores are (:func:`~bleu_teach.classroom.grading.mark`)."""
    listed = store.roster_names(session.id)
    exercises = sorted(Homework(store).counts(session.id))
    policy = LatePolicy.of(session)
    given = store.answers(session.id)
    last: dict[int, dict[str, Any]] = {}  # each student's counted answer to each question
    for (who, exercise_id), answer in counted(given).items():
        last.setdefault(who, {})[exercise_id] = answer
    tries: dict[tuple[int, str], int] = {}
    for answer in given:
        if answer.mistake != NOT_AN_ANSWER:  # an answer in the wrong form uses no try
            tries[(answer.student_id, answer.exercise)] = tries.get((answer.student_id, answer.exercise), 0) + 1
    extended = store.extensions(session.id)
    rows: list[tuple[str, dict[str, str], int | None]] = []
    if listed:  # every name on the roster, joined or not, in the roster's order
        rows = [(name, json.loads(identifiers or "{}"), student_id) for name, identifiers, student_id in listed]
    else:
        rows = [(student.nickname, {}, student.id) for student in store.roster(session.id)]
    identifier_columns = list(dict.fromkeys(key for _, identifiers, _ in rows for key in identifiers))
    taken_out = store.roster_removed(session.id) if listed else set()  # their student removed, no one since
    removed = {name for name, _, student_id in rows if student_id is None and name in taken_out}
    out = io.StringIO()
    writer = csv.writer(out)
    name_column = "Student" if "ID" in identifier_columns else "Name"  # Canvas's gradebook heads it so
    writer.writerow(
        [
            csv_cell(cell)
            for cell in (
                name_column,
                *identifier_columns,
                *exercises,
                session.title,  # the points: a Canvas assignment of the homework's name takes them
                "Maximum points",
                f"{session.title} (%)",
                "Late",
                "Extended until",
                *(["Removed"] if removed else []),
                *(f"{exercise_id} tries (of {session.tries})" for exercise_id in exercises),
            )
        ]
    )
    for name, identifiers, student_id in rows:
        got = mark(last.get(student_id or 0, {}), exercises, policy)
        until = extended.get(fold(name), ("", None))[1]
        extension = until.isoformat(timespec="minutes") if until else ""
        mark_removed = ["yes" if name in removed else "no"] if removed else []
        cells: list[Any]
        if got.started:
            cells = [
                *("" if value is None else points_text(value) for value in got.per_question.values()),
                points_text(got.points),
                got.maximum,
                percentage_text(got.points, got.maximum),
                "yes" if got.late else "no",
                extension,
                *mark_removed,
                *(tries.get((student_id or 0, exercise_id), 0) for exercise_id in exercises),
            ]
        else:  # never started: blanks, not 0 (an import must not write a 0 over an extension)
            blank = [""] * len(exercises)
            cells = [*blank, "", got.maximum, "", "", extension, *mark_removed, *blank]
        writer.writerow(
            [csv_cell(cell) for cell in (name, *(identifiers.get(c, "") for c in identifier_columns), *cells)]
        )
    return out.getvalue()
