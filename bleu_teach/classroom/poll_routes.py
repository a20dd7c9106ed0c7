"""The polls' routes: the presenter opens a question, closes it, asks it again and shows its right answer; a
student's phone shows the question asked now and votes.

The polls themselves (rounds, votes, the split hidden while a round is open)
are :mod:`~bleu_teach.classroom.polls`; these routes check who is calling
(:func:`~bleu_teach.classroom.roles.allowed`: a student of the session votes,
its teacher asks), bound a student's votes per minute, and answer in JSON, a
student's phone never shown the right answer (:func:`~bleu_teach.classroom.polls.public`).
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from bleu_teach.classroom.bodies import PollBody, VoteBody
from bleu_teach.classroom.guard import admitted_now
from bleu_teach.classroom.handling import error, json_body, json_object
from bleu_teach.classroom.polls import own_question, pollable, public
from bleu_teach.classroom.roles import ANYONE, STUDENT, TEACHER, allowed
from bleu_teach.classroom.room import Room
from bleu_teach.classroom.store import Session, Student


class PollRoutes:
    """The polls' routes: the presenter opens, closes, asks again and reveals; a student's phone shows and votes."""

    def __init__(self, room: Room) -> None:
        self.room = room

    @allowed(ANYONE)
    async def page(self, request: Request, _: Any) -> Response:
        return self.room.templates.TemplateResponse(request, "poll.html", {})

    @allowed(STUDENT)
    async def current(self, request: Request, found: tuple[Session, Student]) -> Response:
        session, student = found
        poll, mine = await run_in_threadpool(self.room.polls.current_for, student)
        if poll is None or poll.state != "open":
            return JSONResponse({"poll": None, "session": session.title})
        return JSONResponse({"poll": public(poll), "mine": mine, "session": session.title})

    @allowed(STUDENT)
    async def vote(self, request: Request, found: tuple[Session, Student]) -> Response:
        session, student = found
        # Counted against the limit, read and kept in one trip to a thread (a room votes at once: each trip waits).
        return await run_in_threadpool(self.take_vote, session, student, await request.body())

    def take_vote(self, session: Session, student: Student, raw: bytes) -> Response:
        """A vote, in a thread: counted against the student's limit, then read and kept (or changed)."""
        if not admitted_now((self.room.per_student, f"s{student.id}")):
            return error("Too many votes in a minute: wait a little.", 429, 60)
        if not session.open:
            return error("This session is closed: your vote was not counted.", 409)
        try:
            sent = VoteBody.of(json_object(raw))
            changed = self.room.polls.vote(student, sent.poll, sent.id, sent.choice)
        except (TypeError, ValueError) as problem:
            return error(str(problem))
        except LookupError:
            return error("That question is not asked in your session; reload the page.", 404)
        return JSONResponse({"counted": True, "changed": changed})

    @allowed(TEACHER)
    async def open(self, request: Request, session: Session) -> Response:
        if not session.open:
            return error("This session is closed: it asks no more questions.", 409)
        try:
            asked = PollBody.of(await json_body(request))
            if asked.exercise is not None:  # a numeric one as a new variant; a choice question said to be the page's
                poll, note = await run_in_threadpool(self.room.polls.ask_exercise, session.id, asked.exercise)
            else:
                question, options = own_question(asked.question, asked.options)
                poll, note = await run_in_threadpool(self.room.polls.open, session.id, question, options), ""
        except (TypeError, ValueError) as problem:
            return error(str(problem))
        return JSONResponse({"poll": public(poll), "note": note})

    @allowed(TEACHER)
    async def change(self, request: Request, session: Session) -> Response:
        poll_id, action = request.path_params["poll"], request.path_params["action"]
        try:
            if action == "close":
                poll = await run_in_threadpool(self.room.polls.close, session.id, poll_id)
            elif action == "again":
                if not session.open:
                    return error("This session is closed: it asks no more questions.", 409)
                poll = await run_in_threadpool(self.room.polls.again, session.id, poll_id)
            elif action in ("reveal", "hide"):  # the right answer, on the dashboard and the projector
                poll = await run_in_threadpool(self.room.polls.reveal, session.id, poll_id, action == "reveal")
            else:
                return error("Only close, again, reveal or hide.", 404)
        except LookupError:
            return error("No such poll in this session.", 404)
        except ValueError as problem:
            return error(str(problem))
        return JSONResponse({"poll": public(poll)})

    @allowed(TEACHER)
    async def questions(self, request: Request, _: Session) -> Response:
        return JSONResponse({"questions": pollable()})
