"""The server's state as the routes of each area see it: the cookies that say who is asking, the text fields the
routes read, and :class:`Room`, what the route classes use of :class:`~bleu_teach.classroom.app.Classroom`.

The routes live in one module per area: the students' beside the server's state
in :mod:`~bleu_teach.classroom.app`, the teacher's in
:mod:`~bleu_teach.classroom.teacher_routes`, the polls' in
:mod:`~bleu_teach.classroom.poll_routes`, the homework's in
:mod:`~bleu_teach.classroom.homework_pages`, the personal join links' in
:mod:`~bleu_teach.classroom.link_routes`, and the course website in
:mod:`~bleu_teach.classroom.site_files`. Each route class holds the state as
``self.room``, which :func:`~bleu_teach.classroom.roles.allowed` asks who is
calling.
"""

from __future__ import annotations

from typing import Any, Protocol

from starlette.requests import Request
from starlette.templating import Jinja2Templates

from bleu_teach.classroom.counts import Latest
from bleu_teach.classroom.feed import Feed
from bleu_teach.classroom.guard import Limiter, SharedLimiter
from bleu_teach.classroom.polls import Polls
from bleu_teach.classroom.store import Session, Store, Student

#: The cookie a student's browser gets when it joins (``<session>.<token>``).
STUDENT_COOKIE = "bleu_teach_student"
#: The cookie the server's teacher token is kept in after the printed link's first visit.
ADMIN_COOKIE = "bleu_teach_teacher"
#: The part of the server that is the classroom's (the rest is the course website): a session's teacher cookie is
#: sent to these paths only.
CLASS_PATH = "/class"
#: Where the routes that answer in JSON are: a request refused there is answered in JSON, a page's with a page.
API_PATH = "/class/api/"


def text_field(value: Any, name: str) -> str:
    """A request's field that must be text, as it is; a ``TypeError`` naming the field otherwise."""
    if value is None:
        raise TypeError(f"{name}: it is missing; give it as text (reload the page if you did not type it).")
    if not isinstance(value, str):
        raise TypeError(f"{name}: give text, not {type(value).__name__}.")
    return value


class Room(Protocol):
    """What the teacher's and the polls' routes use of the server's state (``app.Classroom``)."""

    store: Store
    templates: Jinja2Templates
    polls: Polls
    feed: Feed
    per_student: Limiter | SharedLimiter

    def counts_of(self, session: Session, names: bool, latest: Latest | None = None) -> dict[str, Any]: ...

    async def student(self, request: Request) -> tuple[Session, Student] | None: ...

    async def teaching(self, request: Request) -> Session | None: ...

    async def projecting(self, request: Request) -> Session | None: ...

    def is_admin(self, request: Request) -> bool: ...
