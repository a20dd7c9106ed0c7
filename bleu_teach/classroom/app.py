"""The classroom server: a Starlette (ASGI) application over the :mod:`~bleu_teach.classroom.store`.

Students join a session with its code and a nickname, and the answers their
pages check are sent here too; the server checks each one again with the
exercise bank (:func:`~bleu_teach.classroom.counts.judge`) and keeps it once.
The teacher's dashboard shows per exercise how many answered and the split by
verdict and by named mistake, updated live (server-sent events); the projector
view shows the same without names. The course website is served beside it, so
that a class needs one address.

Who may do what:

* the **server's teacher token** (printed when the server starts; a cookie
  after the first visit of ``/class/teach?token=...``) opens the teacher page,
  which creates sessions;
* a **session's teacher secret** (in the teacher link, ``/class/t/<id>/<secret>``,
  a cookie after the first visit) opens that session's dashboard, projector
  view, export, closing and deletion;
* a **session's projector link** (``/class/projector/<id>/<token>``, made on
  the dashboard, which can replace or stop it at once) opens the projector
  view alone, for the room's computer: no teacher secret, no name, nothing
  writable;
* a **student's token** (a cookie set when they join) sends that student's
  answers and reads only their own.

Secrets are compared in constant time; cookies are HttpOnly and
SameSite=Strict; :class:`~bleu_teach.classroom.guard.Guard` bounds bodies,
refuses cross-site writes and sets the security headers.

This module holds the server's state (:class:`Classroom`), the students'
routes and the route table (:func:`create_app`), each route under its name
(:data:`~bleu_teach.classroom.paths.PATHS`: links are made from the names,
never spelled out); the other
areas' routes are each in their own module
(:mod:`~bleu_teach.classroom.room` lists them), the server's settings in
:mod:`~bleu_teach.classroom.settings`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio.to_thread
from sqlalchemy.exc import DataError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as SQLAlchemyTimeoutError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.convertors import Convertor, register_url_convertor
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from bleu_teach.classroom.bodies import AnswerBody, JoinBody
from bleu_teach.classroom.counts import Latest, counts, judge
from bleu_teach.classroom.feed import Feed, Listener
from bleu_teach.classroom.guard import Guard, Limiter, SharedLimiter, admitted_now
from bleu_teach.classroom.handling import error, json_object, outage_of
from bleu_teach.classroom.homework_pages import HomeworkRoutes
from bleu_teach.classroom.link_routes import LinkRoutes
from bleu_teach.classroom.lti_routes import LtiRoutes
from bleu_teach.classroom.lti_services import PlatformClient, ScoreSender
from bleu_teach.classroom.paths import PATHS
from bleu_teach.classroom.poll_routes import PollRoutes
from bleu_teach.classroom.polls import Polls
from bleu_teach.classroom.roles import ANYONE, STUDENT, Refused, allowed
from bleu_teach.classroom.room import ADMIN_COOKIE, API_PATH, STUDENT_COOKIE
from bleu_teach.classroom.settings import DATABASE_VARIABLE, DEFAULTS, TOKEN_VARIABLE, Limits, Settings
from bleu_teach.classroom.site_files import SiteFiles, check_site
from bleu_teach.classroom.store import THREADS, Session, Store, Student, digest
from bleu_teach.classroom.teacher_routes import TeacherRoutes

HERE = Path(__file__).resolve().parent


def _address(request: Request) -> str:
    return request.client.host if request.client else "unknown"


class Classroom:
    """The server's state: the store, the teacher token's digest, the rate limits, the templates, the polls and the
    change feed; who is asking, the students' routes, and what the dashboards show (the other areas' routes hold
    it as their ``room``: :class:`~bleu_teach.classroom.room.Room`)."""

    def __init__(
        self, store: Store, teacher_token: str, limits: Limits = DEFAULTS.limits, shared_limits: bool = False
    ) -> None:
        self.store = store
        self.teacher_digest = digest(teacher_token)

        # Several worker processes (PostgreSQL) count the limits where all of them see the counts, the database;
        # one process (SQLite, or PostgreSQL with one worker) counts them itself, exactly and at no cost.
        if shared_limits and not store.postgres:
            raise ValueError("shared_limits: the limits are shared through PostgreSQL; SQLite has one process.")

        def limiter(name: str, most: int, window: float = 60.0) -> Limiter | SharedLimiter:
            return SharedLimiter(store, name, most, window) if shared_limits else Limiter(most, window)

        self.wrong_codes = limiter("wrong codes", limits.joins_per_address)
        self.join_requests = limiter("join requests", limits.join_requests_per_address)
        self.joins = limiter("joins", limits.joins_per_session)
        self.joins_from = limiter("joins from", limits.joins_per_address_per_session, window=600.0)
        self.per_student = limiter("answers of", limits.answers_per_student)
        self.per_address = limiter("answers from", limits.answers_per_address)
        self.per_session = limiter("answers to", limits.answers_per_session)
        self.templates = Jinja2Templates(directory=str(HERE / "templates"))
        self.polls = Polls(store)
        self.feed = Feed(self.count_text)

    # --- who is asking -------------------------------------------------------------------------------------

    def is_admin(self, request: Request) -> bool:
        """The server's teacher token: its cookie; on ``GET /class/teach`` alone, the printed link's ``?token=``
        decides when it is there (the link of a new start works in a browser that kept the last start's cookie,
        and a mistyped token never replaces a good cookie)."""
        teach = request.method == "GET" and request.url.path == request.app.url_path_for("teach")
        token = request.query_params.get("token") if teach else None
        kept = token if token is not None else request.cookies.get(ADMIN_COOKIE, "")
        return hmac.compare_digest(digest(kept[:200]), self.teacher_digest)

    async def student(self, request: Request) -> tuple[Session, Student] | None:
        kept = request.cookies.get(STUDENT_COOKIE, "")
        number, _, token = kept.partition(".")
        if not (number.isascii() and number.isdigit() and len(number) <= 9) or not token or len(token) > 100:
            return None  # "²" is a digit to str.isdigit, not to int()
        found = await run_in_threadpool(self.store.student_and_session, int(number), token)
        if found is None:
            return None
        student, session = found
        return session, student

    async def projecting(self, request: Request) -> Session | None:
        """The session in the path, if the path carries its projector link's token (no cookie is read)."""
        number, token = request.path_params["session"], request.path_params.get("token", "")
        if not await run_in_threadpool(self.store.is_projector, number, token):
            return None
        try:
            return await run_in_threadpool(self.store.session, number)
        except LookupError:  # deleted between the two reads
            return None

    async def teaching(self, request: Request) -> Session | None:
        """The session in the path, if the request carries its teacher's secret (the link's, or its cookie)."""
        number = request.path_params["session"]
        secret = request.path_params.get("secret") or request.cookies.get(f"bleu_teach_session_{number}", "")
        if not secret or not await run_in_threadpool(self.store.is_teacher, number, secret[:200]):
            return None
        try:
            return await run_in_threadpool(self.store.session, number)
        except LookupError:  # deleted between the two reads
            return None

    @allowed(ANYONE)
    async def home(self, request: Request, _: Any) -> Response:
        """``/`` when no website is served beside the classroom: where to join, and where the lessons are."""
        return self.templates.TemplateResponse(request, "home.html", {})

    # --- students --------------------------------------------------------------------------------------------

    @allowed(ANYONE)
    async def join_page(self, request: Request, _: Any) -> Response:
        return self.templates.TemplateResponse(request, "join.html", {"code": request.query_params.get("code", "")[:8]})

    @allowed(ANYONE)
    async def join(self, request: Request, _: Any) -> Response:
        # In one trip to a thread, as an answer (a class joins at once: each of a join's six trips waited its turn).
        secure = request.url.scheme == "https"
        return await run_in_threadpool(self.take_join, await request.body(), _address(request), secure)

    def take_join(self, raw: bytes, address: str, secure: bool) -> Response:
        """A join, in a thread: its limits counted, the code looked up, the student let in with a cookie."""
        if not admitted_now((self.join_requests, address)):
            return error("Too many join requests from this address: wait a minute, then try again.", 429, 60)
        try:
            sent = JoinBody.of(json_object(raw))
            session = self.store.session_by_code(sent.code)
            if session is None:  # only wrong codes are limited: one script's guesses never lock the room out
                if not admitted_now((self.wrong_codes, address)):
                    return error("Too many wrong codes from this address: wait a minute, then try again.", 429, 60)
                return error("code: no session has that code; check it with your teacher.", 404)
            if not admitted_now((self.joins, f"c{session.id}")):
                return error("Too many students joining this session at once: wait a minute, then try again.", 429, 60)
            if not admitted_now((self.joins_from, f"{address} c{session.id}")):
                return error(
                    "Too many students have joined this session from this address: wait a few minutes, "
                    "or ask your teacher.",
                    429,
                    600,
                )
            student, token = self.store.join(session, sent.nickname)
        except (TypeError, ValueError) as problem:
            return error(str(problem))
        response = JSONResponse({"nickname": student.nickname, "session": session.title, "kind": session.kind})
        response.set_cookie(
            STUDENT_COOKIE,
            f"{session.id}.{token}",
            httponly=True,
            samesite="strict",
            secure=secure,
            max_age=60 * 60 * 24 * 30,
        )
        return response

    @allowed(STUDENT)
    async def me(self, request: Request, found: tuple[Session, Student]) -> Response:
        session, student = found
        answers = await run_in_threadpool(self.store.answers, session.id, student.id)
        return JSONResponse(
            {
                "nickname": student.nickname,
                "session": session.title,
                "kind": session.kind,
                "open": session.open,
                "answers": len(answers),
            }
        )

    @allowed(STUDENT)
    async def answer(self, request: Request, found: tuple[Session, Student]) -> Response:
        session, student = found
        # The limits counted and the answer read, judged and stored in one trip to a thread: under 1,000 students
        # each trip waited its turn for a thread, and an answer's three trips were most of its time.
        return await run_in_threadpool(self.take_answer, session, student, await request.body(), _address(request))

    def take_answer(self, session: Session, student: Student, raw: bytes, address: str) -> Response:
        """An answer sent to a live session, in a thread: its limits counted, then read, judged and stored once."""
        limits = (self.per_student, f"s{student.id}"), (self.per_address, address), (self.per_session, f"c{session.id}")
        if not admitted_now(*limits):
            return error("Too many answers in a minute: wait a little, then send again.", 429, 60)
        try:
            sent = AnswerBody.of(json_object(raw))
            if not session.open:
                return error("This session is closed: your answer was checked but not sent.", 409)
            if session.kind == "homework":
                return error("This session is a homework: answer its questions on the homework page.", 409)
            judged = judge(sent.exercise, sent.answer)
            kept, stored = self.store.record_answer(
                student, sent.id, sent.exercise, sent.answer, judged.verdict, judged.mistake, None, session
            )
        except (TypeError, ValueError) as problem:
            return error(str(problem))
        return JSONResponse({"id": kept.answer_id, "stored": stored, "verdict": kept.verdict, "late": kept.late})

    # --- what the dashboards show ----------------------------------------------------------------------------

    def counts_of(self, session: Session, names: bool, latest: Latest | None = None) -> dict[str, Any]:
        """The dashboard's data: the answers' counts (``latest``'s, else read whole), the session, the poll."""
        answers = latest if latest is not None else self.store.latest(session.id)
        present = self.store.roster(session.id) if latest is None else latest.present(self.store)
        found = counts(answers, present, names) | {
            "open": session.open,
            "code": session.code,
            "poll": self.polls.view(session.id),
        }
        if session.kind == "homework":  # the tries sent per exercise, of the tries each student has per question
            sent = self.store.answers_per_exercise(session.id)
            for shown in found["exercises"]:
                shown["tries"] = sent.get(shown["id"], 0)
            found["tries"] = session.tries
        if session.kind == "homework" and names:  # who on the roster has joined (the teacher can let in again)
            removed = self.store.roster_removed(session.id)  # and whose student the teacher took out
            found["homework"] = {
                "due": session.due.isoformat() if session.due else None,
                "roster": [
                    {"name": name, "joined": student is not None, "removed": student is None and name in removed}
                    for name, _, student in self.store.roster_names(session.id)
                ],
            }
        return found

    def count_text(self, session_id: int, names: bool, latest: Latest, roster: bool = True) -> str:
        """A dashboard's JSON text for the change feed: what is new read into ``latest``, then counted; without
        ``roster``, the students' rows are left out (the page keeps the last ones)."""
        latest.update(self.store)
        # Without the rows (the students' and a homework's roster), none is made: the page keeps the last ones. At
        # 1,000 students making them and dropping them was a third of a count's time.
        return json.dumps(self.counts_of(self.store.session(session_id), names and roster, latest))


class _RecordNumber(Convertor[int]):
    """A record's number in a path: 1 to 9 digits (a larger number names nothing: 404, never a database error)."""

    regex = "[0-9]{1,9}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        return str(int(value))


register_url_convertor("id", _RecordNumber())


def _route(name: str, endpoint: Any, method: str) -> Route:
    return Route(PATHS[name], endpoint, methods=[method], name=name)


def url_path(name: str, **params: Any) -> str:
    """The path of the route named ``name`` (:data:`~bleu_teach.classroom.paths.PATHS`), for a link made outside a
    request (the command line's): ``url_path("enter", session=3, secret=...)`` is ``/class/t/3/...``."""
    return str(Route(PATHS[name], _answers_nothing, name=name).url_path_for(name, **params))


async def _answers_nothing(request: Request) -> Response:
    """The endpoint of :func:`url_path`'s routes, which only make paths (the app's table has the handlers)."""
    raise LookupError("a route made for its path alone answers no request")


def create_app(
    store: Store,
    teacher_token: str,
    site: Path | None = None,
    limits: Limits = DEFAULTS.limits,
    shared_limits: bool = False,
    platforms: PlatformClient | None = None,
) -> Guard:
    """The classroom server as an ASGI application (wrapped in its :class:`Guard`); ``limits``: the rate limits
    (:class:`~bleu_teach.classroom.settings.Limits`), counted in this process, or with ``shared_limits`` (one of
    several workers on PostgreSQL) in the database, where every worker counts; ``platforms``: the client that asks
    the LTI platforms over HTTP (the tests give one that reaches the platform they run)."""
    room = Classroom(store, teacher_token, limits, shared_limits)
    teacher = TeacherRoutes(room)
    asking = PollRoutes(room)
    client = platforms or PlatformClient()
    sender = ScoreSender(store, client)
    homework = HomeworkRoutes(room, graded=sender.graded)
    links = LinkRoutes(room)
    lti = LtiRoutes(store, room.templates, client, site)
    routes: list[BaseRoute] = [
        _route("join_page", room.join_page, "GET"),
        _route("join", room.join, "POST"),
        _route("personal_link", links.page, "GET"),
        _route("join_by_link", links.join, "POST"),
        _route("joined_by_link", links.again, "GET"),
        _route("not_a_link", links.not_a_link, "GET"),  # after personal_link: what it does not match
        _route("me", room.me, "GET"),
        _route("answer", room.answer, "POST"),
        _route("teach", teacher.teach, "GET"),
        _route("create", teacher.create, "POST"),
        _route("enter", teacher.enter, "GET"),
        _route("dashboard", teacher.dashboard, "GET"),
        _route("projector", teacher.projector, "GET"),
        _route("room_projector", teacher.room_projector, "GET"),
        _route("room_events", teacher.room_events, "GET"),
        _route("room_join_qr", teacher.room_join_qr, "GET"),
        _route("new_projector_link", teacher.new_projector_link, "POST"),
        _route("stop_projector_link", teacher.stop_projector_link, "DELETE"),
        _route("join_qr", teacher.join_qr, "GET"),
        _route("tally", teacher.tally, "GET"),
        _route("events", teacher.events, "GET"),
        _route("close", teacher.close, "POST"),
        _route("delete", teacher.delete, "DELETE"),
        _route("export", teacher.export, "GET"),
        _route("polls_export", teacher.polls_export, "GET"),
        _route("remove", teacher.remove, "POST"),
        _route("poll_page", asking.page, "GET"),
        _route("poll", asking.current, "GET"),
        _route("vote", asking.vote, "POST"),
        _route("open_poll", asking.open, "POST"),
        _route("poll_questions", asking.questions, "GET"),
        _route("change_poll", asking.change, "POST"),
        _route("homework_page", homework.page, "GET"),
        _route("homework", homework.questions, "GET"),
        _route("homework_answer", homework.answer, "POST"),
        _route("grades", homework.grades, "GET"),
        _route("reopen", homework.reopen, "POST"),
        _route("lti_jwks", lti.jwks, "GET"),
        _route("lti_login", lti.login, "GET"),
        _route("lti_login_form", lti.login, "POST"),
        _route("lti_launch", lti.launch, "POST"),
        _route("lti_deep_link", lti.deep_link, "POST"),
        Mount("/class/static", app=StaticFiles(directory=str(HERE / "static")), name="class-static"),
    ]
    if site is not None:
        check_site(store, site)
        routes.append(Mount("/", app=SiteFiles(directory=str(site), html=True), name="site"))
    else:
        routes.append(_route("home", room.home, "GET"))
    outage = outage_of(store.engine)

    async def unavailable(request: Request, problem: Exception) -> Response:
        return outage.response(problem)

    async def out_of_range(request: Request, problem: Exception) -> Response:
        return error("A value in the request is out of range; reload the page.")

    async def conflict(request: Request, problem: Exception) -> Response:  # two requests at once wrote the same row
        return error("Another request changed this at the same moment; send it again.", 409, 1)

    async def refused(request: Request, problem: Exception) -> Response:
        assert isinstance(problem, Refused)
        if request.url.path.startswith(API_PATH):
            return error(problem.message, problem.status)
        if problem.status != 401:  # a page refused for another reason (a projector link that no longer works)
            shown = {"message": problem.message}
            return room.templates.TemplateResponse(request, "refused.html", shown, status_code=problem.status)
        return room.templates.TemplateResponse(request, "locked.html", {}, status_code=401)  # a page: say so

    handlers: dict[Any, Any] = {
        OperationalError: unavailable,
        InterfaceError: unavailable,
        SQLAlchemyTimeoutError: unavailable,
        DataError: out_of_range,
        Refused: refused,
        IntegrityError: conflict,
    }
    if not store.postgres:  # SQLite: one process, whose writes feed the dashboards directly
        store.listeners.append(room.feed.changed)

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        """On PostgreSQL, this process hears every worker's writes through one LISTEN connection; every process
        sends the scores queued for the learning platforms."""
        room.feed.loop = asyncio.get_running_loop()
        anyio.to_thread.current_default_thread_limiter().total_tokens = THREADS
        listener = Listener(store, room.feed) if store.postgres else None
        if listener is not None:
            listener.start()
        sender.start()  # the scores queued for the learning platforms (LTI), sent from this process too
        try:
            yield
        finally:
            await sender.stop()
            if listener is not None:
                listener.close()

    return Guard(Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan))


def from_environment() -> Guard:
    """The app as each of several uvicorn workers makes it (``class serve --workers N``, PostgreSQL only), from the
    settings ``class serve`` put in the environment (:meth:`~bleu_teach.classroom.settings.Settings.environment`)."""
    settings = Settings.from_environment()
    if not settings.database or not settings.teacher_token:
        raise RuntimeError(f"{DATABASE_VARIABLE} and {TOKEN_VARIABLE} must be set (class serve sets them).")
    store = Store.open(settings.database)
    return create_app(store, settings.teacher_token, settings.site, settings.limits, shared_limits=store.postgres)
