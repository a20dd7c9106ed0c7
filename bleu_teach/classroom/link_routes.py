"""A student's personal join link (``class links``): the page it opens and the join its one button sends.

The link (``/class/me/<session>/<token>``, printed as a QR code on the student's worksheet) opens a page that says
whose link it is and has one button; a GET never joins, since mail and chat apps open a link to show a preview of
it. The button posts a form (no script needed: any phone), and the student is in, with the same cookie a join by
code and name gives, then goes where a joined student goes: the homework's questions, or the lessons and the
presenter's questions. The same link opened on another device lets the same student in there too
(:meth:`~bleu_teach.classroom.store_links.LinkRecords.join_by_link`).

A token that opens nothing (mistyped, made again since, another session's) gets the same page every time, whatever
the reason, and counts as a wrong guess against its address's limit, as a wrong join code does
(``Classroom.wrong_codes``); so does any other address under ``/class/me/`` (a link cut short, or run on). A closed
session and a student the teacher took out get a page that says so. ``/class/me`` opened (the page after joining,
bookmarked or restored with the browser's tabs) says how to come back: open the link again; it changes nothing.
Every request is bounded as a join is: join requests per address, joins per session and per address and session.
"""

from __future__ import annotations

from typing import Any, Protocol

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.templating import Jinja2Templates

from bleu_teach.classroom.guard import Limiter, SharedLimiter
from bleu_teach.classroom.handling import form_body
from bleu_teach.classroom.roles import ANYONE, allowed
from bleu_teach.classroom.room import STUDENT_COOKIE
from bleu_teach.classroom.store import Session, Store, Student
from bleu_teach.classroom.store_links import LinkRefused, link_token

#: What ``/class/me`` opened again says (the page after joining, bookmarked or restored).
COME_BACK = (
    "You joined from your personal link; to come back, open it again: scan the QR code on your worksheet, or open "
    "the link your teacher gave you."
)
#: What every link that opens nothing is told (never which of the reasons it is).
NO_SUCH_LINK = (
    "This link does not work: it may be mistyped or cut short, or your teacher has made you a new one since. Ask "
    "your teacher for your link."
)


class Room(Protocol):
    """What these routes use of the server's state (``app.Classroom``)."""

    store: Store
    templates: Jinja2Templates
    wrong_codes: Limiter | SharedLimiter
    join_requests: Limiter | SharedLimiter
    joins: Limiter | SharedLimiter
    joins_from: Limiter | SharedLimiter

    async def student(self, request: Request) -> tuple[Session, Student] | None: ...


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _session_number(value: Any) -> int | None:
    """A session's number sent in the form (1 to 9 digits, as in a path), or None."""
    if not isinstance(value, str) or not (value.isascii() and value.isdigit() and 0 < len(value) <= 9):
        return None
    return int(value)


class LinkRoutes:
    def __init__(self, room: Room) -> None:
        self.room = room

    def _page(self, request: Request, status: int = 200, retry: int | None = None, **shown: Any) -> Response:
        response = self.room.templates.TemplateResponse(request, "link.html", shown, status_code=status)
        if retry is not None:
            response.headers["Retry-After"] = str(retry)
        return response

    async def _admitted(self, request: Request) -> Response | None:
        """None when the address may send one more join request; else the page that says to wait."""
        if await self.room.join_requests.admit(_address(request)):
            return None
        message = "Too many join requests from this address: wait a minute, then try again."
        return self._page(request, 429, 60, heading="Wait a minute", message=message)

    async def _wrong(self, request: Request) -> Response:
        """The one answer to a token that opens nothing, counted as a wrong guess of its address."""
        if not await self.room.wrong_codes.admit(_address(request)):
            message = "Too many wrong links or codes from this address: wait a minute, then try again."
            return self._page(request, 429, 60, heading="Wait a minute", message=message)
        return self._page(request, 404, heading="This link does not work", message=NO_SUCH_LINK)

    @allowed(ANYONE)
    async def page(self, request: Request, _: Any) -> Response:
        """What the link is: the session's title, whose link it is, and the button that joins (a GET changes
        nothing)."""
        waiting = await self._admitted(request)
        if waiting is not None:
            return waiting
        number, token = request.path_params["session"], request.path_params["link"]
        linked = await run_in_threadpool(self.room.store.linked, number, token)
        if linked is None:
            return await self._wrong(request)
        title = linked.session.title
        if not linked.session.open:
            message = f"“{title}” is closed: it takes no one in any more. Ask your teacher."
            return self._page(request, 409, heading="This session is closed", title=title, message=message)
        if linked.removed:
            message = f"Your teacher took you out of “{title}”. If that is a mistake, ask them for a new link."
            return self._page(request, 403, heading="You were taken out of this class", title=title, message=message)
        heading = f"Join “{title}” as {linked.name}"  # whose link, to which class: said first
        return self._page(request, heading=heading, name=linked.name, session=number, link=token)

    @allowed(ANYONE)
    async def again(self, request: Request, _: Any) -> Response:
        """``/class/me`` opened again (the page after joining, bookmarked or restored): how to come back, and where
        to go if this browser is still in; nothing changes."""
        shown: dict[str, Any] = {"heading": "Open your personal link again", "message": COME_BACK, "again": True}
        found = await self.room.student(request)
        if found is not None:
            session, student = found
            shown |= {"title": session.title, "name": student.nickname, "homework": session.kind == "homework"}
        return self._page(request, **shown)

    @allowed(ANYONE)
    async def not_a_link(self, request: Request, _: Any) -> Response:
        """Any other address under ``/class/me/`` (a link cut short, or with more after it): what a link that opens
        nothing gets. A link with a slash after it is sent to itself without it, as the server sends any address it
        knows (Starlette's ``redirect_slashes``)."""
        rest = request.path_params["rest"]
        number, _, token = rest.removesuffix("/").partition("/")
        if rest.endswith("/") and _session_number(number) is not None and token and "/" not in token:
            return RedirectResponse(request.url_for("personal_link", session=int(number), link=token).path, 307)
        waiting = await self._admitted(request)
        if waiting is not None:
            return waiting
        return await self._wrong(request)

    @allowed(ANYONE)
    async def join(self, request: Request, _: Any) -> Response:
        """The page's button: the student is in on this browser, as the link's roster name."""
        waiting = await self._admitted(request)
        if waiting is not None:
            return waiting
        try:
            sent = await form_body(request)
        except ValueError as problem:
            return self._page(request, 400, heading="This link does not work", message=str(problem))
        number, token = _session_number(sent.get("session")), link_token(sent.get("link"))
        if number is None or token is None:
            return await self._wrong(request)
        linked = await run_in_threadpool(self.room.store.linked, number, token)
        if linked is None:
            return await self._wrong(request)
        already = await self.room.student(request)
        if already is not None and already[0].id == number and already[1].id == linked.student_id:
            return self._joined(request, already[0], already[1], None)  # in already, on this browser
        address = _address(request)
        if not await self.room.joins.admit(f"c{number}"):
            message = "Too many students joining this session at once: wait a minute, then try again."
            return self._page(request, 429, 60, heading="Wait a minute", message=message)
        if not await self.room.joins_from.admit(f"{address} c{number}"):
            message = (
                "Too many students have joined this session from this address: wait a few minutes, or ask your teacher."
            )
            return self._page(request, 429, 600, heading="Wait a few minutes", message=message)
        try:
            student, device, session = await run_in_threadpool(self.room.store.join_by_link, number, token)
        except LinkRefused:
            return await self._wrong(request)
        except ValueError as problem:
            return self._page(
                request, 409, heading="You could not join", title=linked.session.title, message=str(problem)
            )
        return self._joined(request, session, student, device)

    def _joined(self, request: Request, session: Session, student: Student, device: str | None) -> Response:
        """The page a joined student sees (its script keeps the class in the browser for the lesson pages, and
        opens a homework's questions), with the student's cookie for a new ``device``."""
        homework = session.kind == "homework"
        response = self._page(
            request,
            heading=f"You are in “{session.title}”",
            title=session.title,
            name=student.nickname,
            joined=True,
            homework=homework,
        )
        if device is not None:
            response.set_cookie(
                STUDENT_COOKIE,
                f"{session.id}.{device}",
                httponly=True,
                samesite="strict",
                secure=request.url.scheme == "https",
                max_age=60 * 60 * 24 * 30,
            )
        return response
