"""What the classroom server does to every request before a route sees it, and the limits it keeps.

Every request is treated as hostile:

* **Bounded bodies**: a request body over :data:`MAX_BODY` bytes is refused
  (413) before any of it is read; a body without a Content-Length is refused
  (411), so the length the server (h11) holds the client to is always known.
* **No cross-site writes**: a request that changes something (POST, PUT,
  PATCH, DELETE) must carry the header ``X-Bleu-Teach: 1`` (a page of another
  site cannot send it without the browser asking this server first, which it
  never allows) and, when the browser says where it comes from, an ``Origin``
  that is this server's own.  Cookies are also ``SameSite=Strict``.
* **Headers**: a Content-Security-Policy that lets pages load only this
  server's own files (the classroom's pages: no inline script either), no
  framing, no sniffing, no referrer.
* **Rate limits** (:class:`Limiter`): joins and answers per address and per
  session, counted in a sliding minute.
"""

from __future__ import annotations

import re
import threading
import time
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from bleu_teach.classroom.paths import PATHS
from bleu_teach.web import names

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The largest request body accepted (an answer is a few hundred bytes; a roster of 500 names fits).
MAX_BODY = 64 * 1024
#: The header every state-changing request carries (the pages' fetch calls add it).
WRITE_HEADER = names.WRITE_HEADER.lower().encode()  # ASGI gives header names in lower case
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}

#: The classroom's own pages: only this server's files, no inline script.
CLASS_POLICY = (
    b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    b"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
#: The course website beside it: its pages carry small inline scripts (MathJax's settings) and run Pyodide, but
#: still load nothing from anywhere else.
SITE_POLICY = (
    b"default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval'; "
    b"style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; "
    b"connect-src 'self'; worker-src 'self' blob:; frame-ancestors 'self'; base-uri 'self'"
)
#: The routes a learning platform's page posts a form to (LTI 1.3's login and launch): from another site, without
#: this server's header; each checks what it is sent (the state it made, the platform's signature).
PLATFORM_FORMS = frozenset({PATHS["lti_login"], PATHS["lti_launch"]})
#: The forms of this server's own pages that post without script (a teacher's deep-linking choice, a personal link's
#: button, which works on a phone whatever its scripts): same origin. Under this server's no-referrer policy a browser
#: sends such a form's Origin as "null" (Chromium does), which is refused: their pages set their own referrer policy,
#: ``<meta name="referrer" content="origin">``, so that the browser names this server.
OWN_FORMS = frozenset({PATHS["lti_deep_link"], PATHS["join_by_link"]})
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
#: Framing: never for the classroom's pages; the course website's only by its own pages (the deck's speaker view
#: shows the slides in frames of the same origin).
CLASS_FRAMING = (b"x-frame-options", b"DENY")
SITE_FRAMING = (b"x-frame-options", b"SAMEORIGIN")


async def _refuse(send: Send, status: int, message: str) -> None:
    body = ('{"error": ' + _json_string(message) + "}").encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"content-security-policy", CLASS_POLICY),
                *SECURITY_HEADERS,
                CLASS_FRAMING,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _json_string(text: str) -> str:
    import json

    return json.dumps(text)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


class Guard:
    """ASGI middleware: body limit, cross-site write check, security headers (see the module's docstring)."""

    def __init__(self, app: App, max_body: int = MAX_BODY) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope["method"]
        if method in UNSAFE:
            problem = self._cross_site(scope)
            if problem:
                await _refuse(send, 403, problem)
                return
        declared = _header(scope, b"content-length")
        if method in UNSAFE and declared is None and _header(scope, b"transfer-encoding") is not None:
            # A body of unknown length: the server reads no more than it has been told.
            await _refuse(send, 411, "Send the request with its length (Content-Length).")
            return
        if declared is not None and (not (declared.isascii() and declared.isdigit()) or int(declared) > self.max_body):
            await _refuse(send, 413, f"The request is larger than {self.max_body // 1024} KB; send less.")
            return

        classroom = scope["path"].startswith("/class")
        policy, framing = (CLASS_POLICY, CLASS_FRAMING) if classroom else (SITE_POLICY, SITE_FRAMING)
        headers = [(b"content-security-policy", policy), *SECURITY_HEADERS, framing]

        async def secured_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                given = message.get("headers", [])
                # A route's own policy stands (a deep-linking page posts its forms to the platform); else ours.
                own_policy = any(bytes(k).lower() == b"content-security-policy" for k, _ in given)
                # (with its own framing rule: a platform shows the deep-linking page in a frame of its page)
                added = [
                    (k, v)
                    for k, v in headers
                    if not (own_policy and k in (b"content-security-policy", b"x-frame-options"))
                ]
                ours = {name for name, _ in added}
                kept = [(k, v) for k, v in given if bytes(k).lower() not in ours]
                message = {**message, "headers": kept + added}
            await send(message)

        await self.app(scope, receive, secured_send)

    @staticmethod
    def _cross_site(scope: Scope) -> str:
        if scope["path"] in PLATFORM_FORMS:
            return ""  # a learning platform's form: it proves itself (a login's state, a signed id_token)
        origin = _header(scope, b"origin")
        host = _header(scope, b"host")
        if scope["path"] in OWN_FORMS:  # a form of this server's own pages, sent without script: same origin only
            if origin is not None and (host is None or origin.split("://", 1)[-1] != host):
                return "This request comes from another site: refused."
            return ""
        if _header(scope, WRITE_HEADER) != names.WRITE_HEADER_VALUE:
            return "This request must come from the classroom's own pages (reload the page)."
        if origin is not None and origin != "null" and host is not None:
            if origin.split("://", 1)[-1] != host:
                return "This request comes from another site: refused."
        return ""


class Limiter:
    """At most ``most`` events per key in any ``window`` seconds (a sliding window, kept in this process: the
    server's one process on SQLite; :class:`SharedLimiter` where several count together)."""

    def __init__(self, most: int, window: float = 60.0) -> None:
        self.most = most
        self.window = window
        self.events: defaultdict[str, deque[float]] = defaultdict(deque)
        self.lock = threading.Lock()  # counted on the event loop and in the server's threads (admitted_now)

    async def admit(self, key: str) -> bool:
        """:meth:`allow`, as the routes ask (a :class:`SharedLimiter` asks the database)."""
        return self.allow(key)

    def full(self, key: str, now: float | None = None) -> bool:
        """Whether ``key`` has used its events for now (nothing is counted)."""
        with self.lock:
            moment = time.monotonic() if now is None else now
            return sum(1 for at in self.events.get(key, ()) if at > moment - self.window) >= self.most

    def allow(self, key: str, now: float | None = None) -> bool:
        """Count an event for ``key``; False (and nothing counted) when it is over the limit."""
        with self.lock:  # the clock read under the lock too: each key's events stay in order
            moment = time.monotonic() if now is None else now
            seen = self.events[key]
            while seen and seen[0] <= moment - self.window:
                seen.popleft()
            if len(seen) >= self.most:
                return False
            seen.append(moment)
            if len(self.events) > 100_000:  # forget keys that went quiet, so the table stays bounded
                for quiet in [k for k, v in self.events.items() if not v or v[-1] <= moment - self.window]:
                    del self.events[quiet]
            return True


def csv_cell(value: object) -> str:
    """A CSV cell a spreadsheet shows as text: one starting like a formula (= + - @, tab, return) gets a quote first,
    so that what a student typed never runs in the teacher's spreadsheet."""
    text = str(value)
    if re.fullmatch(r"[+-]?\d+(\.\d+)?", text):  # a plain number (08.1's -6) is no formula
        return text
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


class SharedLimiter:
    """At most ``most`` events per key in each ``window`` seconds, counted in the database, where every worker
    process of the server counts (PostgreSQL: :meth:`~bleu_teach.classroom.store_limits.LimitRecords.counted`);
    ``name`` keeps the limits' keys apart."""

    def __init__(self, store: Any, name: str, most: int, window: float = 60.0) -> None:
        self.store = store
        self.name = name
        self.most = most
        self.window = window

    async def admit(self, key: str) -> bool:
        """:meth:`allow` in a thread, as the routes ask."""
        from starlette.concurrency import run_in_threadpool

        return await run_in_threadpool(self.allow, key)

    def allow(self, key: str) -> bool:
        """Count an event for ``key``; False (and nothing counted) when it is over the limit."""
        return bool(self.store.counted(*self.event(key)))

    def event(self, key: str) -> tuple[str, int, float]:
        """``key``'s event as the store counts it: (this limit's key, most, window)."""
        return f"{self.name} {key}", self.most, self.window


def admitted_now(*checks: tuple[Limiter | SharedLimiter, str]) -> bool:
    """Whether each limit lets a request's event in (each ``(limiter, key)`` counted in turn until one refuses), in a
    thread of the server's pool, where the route then does its work (one trip to a thread per request): the
    database's limits in one statement, each counter of this process under its lock."""
    shared = [(limiter, key) for limiter, key in checks if isinstance(limiter, SharedLimiter)]
    if checks and len(shared) == len(checks):
        return bool(shared[0][0].store.counted_all([limiter.event(key) for limiter, key in shared]))
    return all(limiter.allow(key) for limiter, key in checks)  # in turn until one refuses
