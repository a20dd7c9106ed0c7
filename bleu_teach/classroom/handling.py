"""What every route of the classroom server shares: reading a request's JSON, error responses, and what the server
says when its database cannot be reached.

A request is hostile until read: :func:`json_body` accepts only a JSON object whose nesting, text and numbers
the store can take, so that no request, however odd, reaches the database as something it refuses (a 500).
:class:`Outage` turns a database that is down or a disk that is full into a JSON 503 with ``Retry-After`` for
the client (the pages send again) and one line in the log per incident, not a traceback per request.
"""

from __future__ import annotations

import json
import logging
import time
import weakref
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from starlette.requests import Request
from starlette.responses import JSONResponse

#: How long a client waits before it sends again while the database is unavailable.
RETRY_SECONDS = 5
log = logging.getLogger("bleu_teach.classroom")


def error(message: str, status: int = 400, retry_after: int | None = None) -> JSONResponse:
    """The server's error response: ``{"error": message}``, with ``Retry-After`` where waiting helps."""
    response = JSONResponse({"error": message}, status_code=status)
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    return response


def _not_text(text: str) -> bool:
    return "\x00" in text or any(0xD800 <= ord(character) <= 0xDFFF for character in text)


def _check_text(found: Any) -> None:
    """Every text in a parsed request (the fields' names too) is text the databases take: no NUL (PostgreSQL
    refuses it), no half of a surrogate pair (no encoding writes it). The message names the field."""
    waiting: list[tuple[str, Any]] = [("", found)]
    while waiting:
        name, item = waiting.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if _not_text(key):
                    raise ValueError("A field's name holds characters that are not text; reload the page.")
                waiting.append((f"{name}.{key}" if name else key, value))
        elif isinstance(item, list):
            waiting += [(f"{name}[{k}]", value) for k, value in enumerate(item)]
        elif isinstance(item, str) and _not_text(item):
            raise ValueError(
                f"{name[:40]}: it holds characters that are not text (a NUL, or half of a surrogate "
                "pair); type it again."
            )


async def json_body(request: Request) -> dict[str, Any]:
    """The request's body as a JSON object, or a ``ValueError`` that says what is wrong (answered with a 400)."""
    return json_object(await request.body())


def json_object(body: bytes) -> dict[str, Any]:
    """A request's body, read, as a JSON object (:func:`json_body`, for a route that reads it in a thread)."""
    try:
        found = json.loads(body)
    except RecursionError:
        raise ValueError("The request is nested too deeply to be an answer; reload the page.") from None
    except (ValueError, UnicodeDecodeError):
        raise ValueError("The request is not JSON; reload the page.") from None
    if not isinstance(found, dict):
        raise ValueError("The request is not a JSON object; reload the page.")
    try:
        _check_text(found)
    except RecursionError:  # cannot happen after json.loads, which nests less deeply; said all the same
        raise ValueError("The request is nested too deeply to be an answer; reload the page.") from None
    return found


class Outage:
    """Whether the database is failing now: the first failure of an incident is logged, then nothing until it
    works again, which is logged with how long it took."""

    def __init__(self) -> None:
        self.since: float | None = None

    def failed(self, problem: BaseException) -> None:
        if self.since is None:
            self.since = time.monotonic()
            reason = str(getattr(problem, "orig", None) or problem).splitlines()[0][:200]
            log.error("classroom database unavailable (%s): clients are told to retry in %d s", reason, RETRY_SECONDS)

    def worked(self) -> None:
        if self.since is not None:
            log.warning("classroom database back after %.0f s", time.monotonic() - self.since)
            self.since = None

    def response(self, problem: BaseException) -> JSONResponse:
        self.failed(problem)
        return error(
            "The class's records cannot be reached just now; your page sends again by itself.", 503, RETRY_SECONDS
        )


_OUTAGES: weakref.WeakKeyDictionary[Engine, Outage] = weakref.WeakKeyDictionary()


def outage_of(engine: Engine) -> Outage:
    """The one :class:`Outage` of a database, however many apps use it (it hears of each statement that works)."""
    found = _OUTAGES.get(engine)
    if found is None:
        found = _OUTAGES[engine] = Outage()
        event.listen(engine, "after_cursor_execute", lambda *_: found.worked())
    return found


async def form_body(request: Request) -> dict[str, str]:
    """A form a page posted (``application/x-www-form-urlencoded``: a learning platform's launch, a page's form
    sent without script), as its fields' first values; a ``ValueError`` naming what is wrong otherwise. The body
    is already bounded by the :class:`~bleu_teach.classroom.guard.Guard`."""
    from urllib.parse import parse_qs

    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise ValueError("Send the form as application/x-www-form-urlencoded.")
    try:
        text = (await request.body()).decode("utf-8")
        found = parse_qs(text, keep_blank_values=True, max_num_fields=100, errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise ValueError("The form is not URL-encoded UTF-8 text with at most 100 fields.") from None
    fields = {name: values[0] for name, values in found.items()}
    _check_text(fields)
    return fields
