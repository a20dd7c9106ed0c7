"""The homework's routes: the student's page and answers, and the teacher's gradebook export.

The student's page asks ``/class/api/homework`` for their questions (text and
how to answer, never the answers) and sends each answer to
``/class/api/homework/answer``, which checks it with their own variant and
answers with the verdict and the named mistake only. The teacher's
``grades.csv`` has a row per student (per roster name, with the platform's
identifiers the roster gave) and a column per exercise (1 for a right last
answer, 0 for a wrong one, empty for none), the total and the late answers, in
the form Moodle's and Canvas's gradebook imports read (TEACHERS_GUIDE.md).
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
from bleu_teach.classroom.guard import Limiter, SharedLimiter, csv_cell
from bleu_teach.classroom.handling import error, json_body
from bleu_teach.classroom.homework import Homework
from bleu_teach.classroom.roles import ANYONE, STUDENT, TEACHER, Refused, allowed
from bleu_teach.classroom.schema import NOT_AN_ANSWER
from bleu_teach.classroom.store import Session, Store, Student
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
                "open": session.open,
                "due": session.due.isoformat() if session.due else None,
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
        except TriesUsed as problem:
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

    def _grades(self, session: Session) -> str:
        store = self.room.store
        people = store.roster(session.id)
        listed = store.roster_names(session.id)
        exercises = sorted(self.homework.counts(session.id))
        last: dict[tuple[int, str], Any] = {}
        late: dict[int, int] = {}
        tries: dict[tuple[int, str], int] = {}
        for answer in store.answers(session.id):
            last[(answer.student_id, answer.exercise)] = answer
            late[answer.student_id] = late.get(answer.student_id, 0) + answer.late
            if answer.mistake != NOT_AN_ANSWER:  # an answer in the wrong form uses no try
                tries[(answer.student_id, answer.exercise)] = tries.get((answer.student_id, answer.exercise), 0) + 1
        rows: list[tuple[str, dict[str, str], int | None]] = []
        if listed:  # every name on the roster, joined or not, in the roster's order
            rows = [(name, json.loads(identifiers or "{}"), student_id) for name, identifiers, student_id in listed]
        else:
            rows = [(student.nickname, {}, student.id) for student in people]
        identifier_columns = list(dict.fromkeys(key for _, identifiers, _ in rows for key in identifiers))
        out = io.StringIO()
        writer = csv.writer(out)
        name_column = "Student" if "ID" in identifier_columns else "Name"  # Canvas's gradebook heads it so
        writer.writerow(
            [
                name_column,
                *identifier_columns,
                *exercises,
                f"{session.title} (total, out of {len(exercises)})",
                "Late answers",
                *(f"{exercise_id} tries (of {session.tries})" for exercise_id in exercises),
            ]
        )
        for name, identifiers, student_id in rows:
            marks = []
            for exercise_id in exercises:
                given = last.get((student_id, exercise_id)) if student_id is not None else None
                marks.append("" if given is None else "1" if given.verdict == "correct" else "0")
            total = sum(mark == "1" for mark in marks)
            used = [
                tries.get((student_id, exercise_id), 0) if student_id is not None else 0 for exercise_id in exercises
            ]
            writer.writerow(
                [
                    csv_cell(cell)
                    for cell in (
                        name,
                        *(identifiers.get(c, "") for c in identifier_columns),
                        *marks,
                        total,
                        late.get(student_id or -1, 0),
                        *used,
                    )
                ]
            )
        return out.getvalue()

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
        text = await run_in_threadpool(self._grades, session)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%d")
        return Response(
            text,
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="bleu-teach-grades-{session.id}-{stamp}.csv"'},
        )
