"""Who may call each of the classroom server's routes: one declaration per route, one check per role.

Every handler is declared with :func:`allowed` and the role it needs; the check runs before the handler, which
receives who is calling (the student and their session, or the session taught), and a caller without that role
is refused (:class:`Refused`: 401 with a message, or the "teacher's link needed" page for a page). No route can be
added without saying who may call it: ``tests/test_classroom_roles.py`` reads the route table and calls every
route as every role.

* ``anyone``: no credential (the join page, joining, the poll and homework pages that then ask who is there);
* ``student``: the cookie a student's browser got when it joined (its session must still hold the student);
* ``teacher``: the teacher of the session in the path: the session's teacher secret, from the teacher link
  (``/class/t/<id>/<secret>``) or the cookie that link leaves;
* ``projector``: the room's screen: the token of the session's projector link, in the path (no cookie); it reads
  what the projector shows and nothing else, and the teacher can replace or stop it at any moment (a refusal says
  nothing of whether the session exists: 403 for every link that does not work);
* ``admin``: the server's teacher token (printed at start; ``/class/teach?token=...``, then a cookie), which
  makes sessions.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from starlette.requests import Request
from starlette.responses import Response

from bleu_teach.classroom.store import Session, Student

ANYONE, STUDENT, TEACHER, PROJECTOR, ADMIN = "anyone", "student", "teacher", "projector", "admin"
ROLES = (ANYONE, STUDENT, TEACHER, PROJECTOR, ADMIN)

#: What each role is told when it is missing.
MISSING = {
    # (never joined here, or put out: taken out, or their personal link made again)
    STUDENT: "You are not in a session in this browser: join with its code, or open your personal link if your "
    "teacher gave you one.",
    TEACHER: "Open this session with its teacher link.",
    PROJECTOR: "This projector link does not work (any more): ask the teacher for the session's projector link.",
    ADMIN: "Open the teacher page with the link the server printed.",
}


class Refused(Exception):
    """The caller lacks the role a route needs (or what they asked is not theirs): answered by the app's handler."""

    def __init__(self, message: str, status: int = 401) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class Room(Protocol):
    """What the checks use of the server's state (``app.Classroom``)."""

    async def student(self, request: Request) -> tuple[Session, Student] | None: ...

    async def teaching(self, request: Request) -> Session | None: ...

    async def projecting(self, request: Request) -> Session | None: ...

    def is_admin(self, request: Request) -> bool: ...


async def identify(room: Room, role: str, request: Request) -> Any:
    """Who is calling, in ``role``: (session, student), the session taught, or None; :class:`Refused` otherwise."""
    if role == ANYONE:
        return None
    found: Any
    if role == STUDENT:
        found = await room.student(request)
    elif role == TEACHER:
        found = await room.teaching(request)
    elif role == PROJECTOR:
        found = await room.projecting(request)
    elif role == ADMIN:
        found = True if room.is_admin(request) else None
    else:
        raise ValueError(f"unknown role {role!r}")
    if found is None:
        raise Refused(MISSING[role], 403 if role == PROJECTOR else 401)
    return None if role == ADMIN else found


Handler = TypeVar("Handler", bound=Callable[..., Awaitable[Response]])


def allowed(role: str) -> Callable[[Handler], Handler]:
    """Declare that only ``role`` may call the decorated handler, ``handler(self, request, who)``; the check is
    made before it (``self.room``, or ``self``, is the server's state)."""
    if role not in ROLES:
        raise ValueError(f"unknown role {role!r}; one of {', '.join(ROLES)}")

    def declare(handler: Handler) -> Handler:
        @functools.wraps(handler)
        async def endpoint(self: Any, request: Request) -> Response:
            who = await identify(getattr(self, "room", self), role, request)
            return await handler(self, request, who)

        endpoint.role = role  # type: ignore[attr-defined]  # read by the route table's test
        return endpoint  # type: ignore[return-value]

    return declare


def role_of(endpoint: Any) -> str | None:
    """The role a route's endpoint was declared with (None if it was not declared)."""
    return getattr(endpoint, "role", None)
