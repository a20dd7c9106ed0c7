"""The teacher's routes: the teacher page that makes sessions, and each session's dashboard and projector view,
their live numbers, the export, closing, deleting, and taking a student out.

Two credentials open them (:mod:`~bleu_teach.classroom.roles`): the server's
teacher token (``admin``: the teacher page and making a session; the printed
link's ``?token=`` is kept as a cookie, then dropped from the address) and a
session's teacher secret (``teacher``: the teacher link ``/class/t/<id>/<secret>``
leaves it as a cookie for ``/class``). The dashboard's numbers are sent as
server-sent events, fed by the change feed (:mod:`~bleu_teach.classroom.feed`);
the export is a CSV whose every cell is safe to open in a spreadsheet
(:func:`~bleu_teach.classroom.guard.csv_cell`).
"""

from __future__ import annotations

import asyncio
import csv
import io
from typing import Any

from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse

from bleu_teach.classroom.bodies import TitleBody
from bleu_teach.classroom.feed import KEEP_ALIVE, SAFETY
from bleu_teach.classroom.guard import csv_cell
from bleu_teach.classroom.handling import RETRY_SECONDS, error, json_body, outage_of
from bleu_teach.classroom.roles import ADMIN, TEACHER, allowed
from bleu_teach.classroom.room import ADMIN_COOKIE, CLASS_PATH, Room
from bleu_teach.classroom.store import Session

#: The talk's deck on the course website (bleu_teach_site's copy of notebooks/slides/bleu_in_10_minutes.ipynb).
DECK_PAGE = "bleu_in_10_minutes.slides.html"


class TeacherRoutes:
    """The teacher page (the server's teacher token) and each session's pages and actions (its teacher secret)."""

    def __init__(self, room: Room) -> None:
        self.room = room

    @allowed(ADMIN)
    async def teach(self, request: Request, _: Any) -> Response:
        token = request.query_params.get("token")
        if token is not None:  # the printed link (the role's check found it right): kept as a cookie, dropped from
            response = RedirectResponse(request.app.url_path_for("teach"), status_code=303)  # the address
            response.set_cookie(
                ADMIN_COOKIE, token, httponly=True, samesite="strict", secure=request.url.scheme == "https"
            )
            return response
        sessions = await run_in_threadpool(self.room.store.sessions)
        return self.room.templates.TemplateResponse(request, "teach.html", {"sessions": sessions})

    @allowed(ADMIN)
    async def create(self, request: Request, _: Any) -> Response:
        try:
            title = TitleBody.of(await json_body(request)).title
            session, secret = await run_in_threadpool(self.room.store.create_session, title, "live")
        except (TypeError, ValueError) as problem:
            return error(str(problem))
        return JSONResponse(
            {
                "id": session.id,
                "code": session.code,
                "title": session.title,
                "teacher_link": str(request.app.url_path_for("enter", session=session.id, secret=secret)),
            }
        )

    @allowed(TEACHER)
    async def enter(self, request: Request, session: Session) -> Response:
        response = RedirectResponse(request.app.url_path_for("dashboard", session=session.id), status_code=303)
        response.set_cookie(
            f"bleu_teach_session_{session.id}",
            request.path_params["secret"],
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path=CLASS_PATH,
        )
        return response

    @allowed(TEACHER)
    async def dashboard(self, request: Request, session: Session) -> Response:
        return self._board(request, session, projector=False)

    @allowed(TEACHER)
    async def projector(self, request: Request, session: Session) -> Response:
        """The dashboard for the projector: the same numbers, no student's name."""
        return self._board(request, session, projector=True)

    @allowed(TEACHER)
    async def join_qr(self, request: Request, session: Session) -> Response:
        """The join address with the session's code as a QR code (SVG, segno), for the projector and the deck's poll
        slide: a phone that reads it opens the join page with the code filled in."""
        import segno

        address = str(request.url_for("join_page").include_query_params(code=session.code))
        out = io.BytesIO()
        segno.make(address, error="m").save(out, kind="svg", scale=8, border=2, title=f"Join at {address}")
        return Response(out.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    def _board(self, request: Request, session: Session, projector: bool) -> Response:
        return self.room.templates.TemplateResponse(
            request,
            "dashboard.html",
            {
                "session": session,
                "projector": projector,
                "join": str(request.url_for("join_page").include_query_params(code=session.code)),
                "poll": str(request.url_for("poll_page")),
                "homework": str(request.url_for("homework_page")),
                # The deck, when the course website is served beside the classroom: its poll slide asks this room.
                "deck": f"/{DECK_PAGE}?session={session.id}"
                if any(getattr(route, "name", None) == "site" for route in request.app.routes)
                else None,
            },
        )

    @allowed(TEACHER)
    async def tally(self, request: Request, session: Session) -> Response:
        names = request.query_params.get("names", "1") != "0"
        return JSONResponse(await run_in_threadpool(self.room.counts_of, session, names))

    @allowed(TEACHER)
    async def events(self, request: Request, session: Session) -> Response:
        """The dashboard's live numbers (server-sent events), fed by the change feed: sent when they change."""
        names = request.query_params.get("names", "1") != "0"
        feed = self.room.feed
        secret = request.cookies.get(f"bleu_teach_session_{session.id}", "")[:200]

        async def stream() -> Any:
            feed.listening(session.id, +1)
            try:
                shown, quiet = None, 0.0
                while True:
                    try:
                        version, text = await feed.text(session.id, names)
                    except LookupError:  # the session was deleted
                        return
                    except (OperationalError, InterfaceError, SQLAlchemyTimeoutError) as problem:
                        outage_of(self.room.store.engine).failed(problem)  # logged once; the stream looks again
                        await asyncio.sleep(RETRY_SECONDS)
                        continue
                    if text != shown:
                        shown, quiet = text, 0.0
                        yield f"data: {text}\n\n"
                    if not await feed.wait(session.id, version, SAFETY):
                        if not await run_in_threadpool(self.room.store.is_teacher, session.id, secret):
                            return  # a new teacher link was made (class link N): the old one's view ends
                        quiet += SAFETY
                        if quiet >= KEEP_ALIVE:
                            quiet = 0.0
                            yield ": still here\n\n"
            finally:
                feed.listening(session.id, -1)

        return StreamingResponse(
            stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        )

    @allowed(TEACHER)
    async def close(self, request: Request, session: Session) -> Response:
        await run_in_threadpool(self.room.store.close_session, session.id)
        return JSONResponse({"closed": True})

    @allowed(TEACHER)
    async def delete(self, request: Request, session: Session) -> Response:
        await run_in_threadpool(self.room.store.delete_session, session.id)
        response = JSONResponse({"deleted": True})
        response.delete_cookie(f"bleu_teach_session_{session.id}", path=CLASS_PATH)
        return response

    @allowed(TEACHER)
    async def remove(self, request: Request, session: Session) -> Response:
        """Take a student out of the session (a fake, a duplicate): out of the counts, kept in the export."""
        if not await run_in_threadpool(self.room.store.remove_student, session.id, request.path_params["student"]):
            return error("student: not in this session (or removed already).", 404)
        return JSONResponse({"removed": True})

    @allowed(TEACHER)
    async def export(self, request: Request, session: Session) -> Response:
        roster = {s.id: s.nickname for s in await run_in_threadpool(self.room.store.roster, session.id)}
        removed = {s.id: s.nickname for s in await run_in_threadpool(self.room.store.roster, session.id, True)}
        answers = await run_in_threadpool(self.room.store.answers, session.id)
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["nickname", "exercise", "answer", "verdict", "mistake", "late", "at", "removed"])
        for answer in answers:
            writer.writerow(
                [
                    csv_cell(cell)
                    for cell in (
                        roster.get(answer.student_id) or removed.get(answer.student_id, ""),
                        answer.exercise,
                        answer.answer,
                        answer.verdict,
                        answer.mistake,
                        "yes" if answer.late else "no",
                        answer.at.isoformat(),
                        "yes" if answer.student_id in removed else "no",
                    )
                ]
            )
        name = f"bleu-teach-session-{session.id}.csv"
        return Response(
            out.getvalue(),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )
