"""The teacher's routes: the teacher page that makes sessions, and each session's dashboard and projector view,
their live numbers, the projector link, the exports (answers and polls), closing, deleting, and taking a student out.

Three credentials open them (:mod:`~bleu_teach.classroom.roles`): the server's
teacher token (``admin``: the teacher page and making a session; the printed
link's ``?token=`` is kept as a cookie, then dropped from the address), a
session's teacher secret (``teacher``: the teacher link ``/class/t/<id>/<secret>``
leaves it as a cookie for ``/class``), and a session's projector link
(``projector``: ``/class/projector/<id>/<token>``, for the room's computer,
which then never holds the teacher's link; the teacher makes a new one or
stops it on the dashboard, and a projector open on the old one stops at
once). The projector link reads only what the projector shows: the question,
the join code, the counts and the votes, no student's name, the right answer
only once the teacher has revealed it (:func:`room_text`). The numbers are sent
as server-sent events, fed by the change feed
(:mod:`~bleu_teach.classroom.feed`); the exports, the answers and the polls, are
CSV files whose every cell is safe to open in a spreadsheet
(:mod:`~bleu_teach.classroom.exports`).
"""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response, StreamingResponse

from bleu_teach.classroom.bodies import TitleBody
from bleu_teach.classroom.exports import answers_csv, polls_csv
from bleu_teach.classroom.feed import KEEP_ALIVE, SAFETY
from bleu_teach.classroom.handling import RETRY_SECONDS, error, json_body, outage_of
from bleu_teach.classroom.polls import for_the_room
from bleu_teach.classroom.roles import ADMIN, PROJECTOR, TEACHER, allowed
from bleu_teach.classroom.room import ADMIN_COOKIE, CLASS_PATH, Room
from bleu_teach.classroom.store import Session

#: The talk's deck on the course website (bleu_teach_site's copy of notebooks/slides/bleu_in_10_minutes.ipynb).
DECK_PAGE = "bleu_in_10_minutes.slides.html"
#: What the projector link's stream sends of the dashboard's data (counts_of without names): nothing else, whatever
#: the dashboard's data comes to hold.
ROOM_KEYS = ("students", "exercises", "open", "code", "poll", "tries")


def room_text(text: str) -> str:
    """The dashboard's JSON text without names (the change feed's) as the projector link shows it: the keys of
    :data:`ROOM_KEYS`, the poll's right answer only once revealed (:func:`~bleu_teach.classroom.polls.for_the_room`)."""
    data = json.loads(text)
    shown = {key: data[key] for key in ROOM_KEYS if key in data}
    shown["poll"] = for_the_room(data.get("poll"))
    return json.dumps(shown)


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
        return await self._board(request, session)

    @allowed(TEACHER)
    async def projector(self, request: Request, session: Session) -> Response:
        """The projector view on the teacher's own computer (their cookie): the same as the projector link's."""
        url = request.app.url_path_for
        return self._projector(
            request, session, f"{url('events', session=session.id)}?names=0", url("join_qr", session=session.id)
        )

    @allowed(PROJECTOR)
    async def room_projector(self, request: Request, session: Session) -> Response:
        """The projector link's page, for the room's computer: what the projector shows, nothing more."""
        url, token = request.app.url_path_for, request.path_params["token"]
        return self._projector(
            request,
            session,
            url("room_events", session=session.id, token=token),
            url("room_join_qr", session=session.id, token=token),
        )

    def _projector(self, request: Request, session: Session, events: str, qr: str) -> Response:
        response = self.room.templates.TemplateResponse(
            request,
            "projector.html",
            {
                "session": session,
                "projector": True,
                "join_page": str(request.url_for("join_page")),
                "events": events,
                "qr": qr,
            },
        )
        response.headers["Cache-Control"] = "no-store"
        return response

    @allowed(TEACHER)
    async def join_qr(self, request: Request, session: Session) -> Response:
        """The join address with the session's code as a QR code (SVG, segno), for the projector and the deck's poll
        slide: a phone that reads it opens the join page with the code filled in."""
        return _join_qr(request, session)

    @allowed(PROJECTOR)
    async def room_join_qr(self, request: Request, session: Session) -> Response:
        """The join QR code, for the projector link's page."""
        return _join_qr(request, session)

    @allowed(TEACHER)
    async def new_projector_link(self, request: Request, session: Session) -> Response:
        """A new projector link (shown this once: only its token's digest is kept); the old one stops at once."""
        token = await run_in_threadpool(self.room.store.new_projector_token, session.id)
        return JSONResponse(
            {"link": str(request.url_for("room_projector", session=session.id, token=token))},
            headers={"Cache-Control": "no-store"},
        )

    @allowed(TEACHER)
    async def stop_projector_link(self, request: Request, session: Session) -> Response:
        """The projector link stops at once, and no new one is made."""
        await run_in_threadpool(self.room.store.stop_projector, session.id)
        return JSONResponse({"stopped": True})

    async def _board(self, request: Request, session: Session) -> Response:
        return self.room.templates.TemplateResponse(
            request,
            "dashboard.html",
            {
                "session": session,
                "projector_link": await run_in_threadpool(self.room.store.has_projector, session.id),
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
        """The dashboard's live numbers (server-sent events), fed by the change feed: sent when they change. The
        teacher's secret is looked at again whenever the session has been quiet for a while: a new teacher link
        (class link N) ends the old one's view."""
        names = request.query_params.get("names", "1") != "0"
        secret = request.cookies.get(f"bleu_teach_session_{session.id}", "")[:200]
        return self._stream(session.id, names, lambda: self.room.store.is_teacher(session.id, secret), False)

    @allowed(PROJECTOR)
    async def room_events(self, request: Request, session: Session) -> Response:
        """The projector link's live numbers: no names, the right answer only once revealed (:func:`room_text`). The
        link is looked at again after every change of the session: a new link, or the link stopped (each one a
        change), ends the stream at once."""
        token = request.path_params["token"]
        return self._stream(
            session.id, False, lambda: self.room.store.is_projector(session.id, token), True, shown_as=room_text
        )

    def _stream(
        self,
        session_id: int,
        names: bool,
        still_allowed: Callable[[], bool],
        after_each_change: bool,
        shown_as: Callable[[str], str] = str,
    ) -> Response:
        """A session's live numbers as server-sent events, sent when they change, while ``still_allowed()`` (looked
        at after a quiet while, and ``after_each_change`` too); ``shown_as``: what of the feed's text is sent."""
        feed = self.room.feed

        async def stream() -> Any:
            feed.listening(session_id, +1)
            try:
                shown, quiet = None, 0.0
                while True:
                    try:
                        version, text = await feed.text(session_id, names)
                    except LookupError:  # the session was deleted
                        return
                    except (OperationalError, InterfaceError, SQLAlchemyTimeoutError) as problem:
                        outage_of(self.room.store.engine).failed(problem)  # logged once; the stream looks again
                        await asyncio.sleep(RETRY_SECONDS)
                        continue
                    text = shown_as(text)
                    if text != shown:
                        shown, quiet = text, 0.0
                        yield f"data: {text}\n\n"
                    changed = await feed.wait(session_id, version, SAFETY)
                    if after_each_change or not changed:
                        try:
                            allowed_now = await run_in_threadpool(still_allowed)
                        except (OperationalError, InterfaceError, SQLAlchemyTimeoutError) as problem:
                            outage_of(self.room.store.engine).failed(problem)  # as above: looked at again
                            await asyncio.sleep(RETRY_SECONDS)
                            continue
                        if not allowed_now:  # the credential was replaced or stopped: the page is told, and
                            yield "event: stopped\ndata: stopped\n\n"  # this view ends
                            return
                    if not changed:
                        quiet += SAFETY
                        if quiet >= KEEP_ALIVE:
                            quiet = 0.0
                            yield ": still here\n\n"
            finally:
                feed.listening(session_id, -1)

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
        """The session's answers (CSV): a row per answer, a removed student's kept and marked."""
        text = await run_in_threadpool(answers_csv, self.room.store, session)
        return _download(text, f"bleu-teach-session-{session.id}.csv")

    @allowed(TEACHER)
    async def polls_export(self, request: Request, session: Session) -> Response:
        """The session's polls (CSV): a row per round and option, its votes and whether it is the right answer."""
        text = await run_in_threadpool(polls_csv, self.room.store, session)
        return _download(text, f"bleu-teach-polls-{session.id}.csv")


def _download(text: str, name: str) -> Response:
    """A CSV file to download under ``name``."""
    return Response(
        text,
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def _join_qr(request: Request, session: Session) -> Response:
    """The join address with the session's code as a QR code (SVG, segno)."""
    import segno

    address = str(request.url_for("join_page").include_query_params(code=session.code))
    out = io.BytesIO()
    segno.make(address, error="m").save(out, kind="svg", scale=8, border=2, title=f"Join at {address}")
    return Response(out.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "no-store"})
