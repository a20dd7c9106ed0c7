"""A notebook's link to a classroom session: ``bleu_teach.join(address, code)`` sends each checked answer there.

After joining, every ``check(...)`` in the lessons also sends the answer to
the session (the server checks it again and counts it on the teacher's
dashboard), so one dashboard covers the website and JupyterLab. On a
JupyterHub, the hub can set ``BLEU_TEACH_CLASS`` (the join address with its
code, ``http://host:8000/class?code=ABC123``) and ``BLEU_TEACH_NICKNAME``
(else the hub's user name) for everyone: the first check then joins.

An answer that cannot be sent (the network is down) is kept and sent with the
next one; each carries an id, so the server counts it once. Standard library
only (urllib), so a notebook needs nothing more installed.
"""

from __future__ import annotations

import getpass
import json
import os
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid
from dataclasses import dataclass, field
from http.cookiejar import CookieJar
from typing import Any

from bleu_teach.classroom.paths import PATHS
from bleu_teach.exercises.feedback import Feedback
from bleu_teach.exercises.listeners import listen
from bleu_teach.web import names

#: The environment variables a hub may set: the join address with its code, and the nickname.
CLASS_VARIABLE = "BLEU_TEACH_CLASS"
NICKNAME_VARIABLE = "BLEU_TEACH_NICKNAME"
TIMEOUT = 5.0
MAX_WAITING = 500


@dataclass
class ClassLink:
    """A joined session: where it is, who joined, and the answers not yet acknowledged."""

    address: str
    session: str
    nickname: str
    opener: urllib.request.OpenerDirector
    waiting: list[dict[str, str]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    stop: Any = None

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.address}{path}",
            data=json.dumps(body).encode("utf-8"),
            headers={"Content-Type": "application/json", names.WRITE_HEADER: names.WRITE_HEADER_VALUE},
            method="POST",
        )
        with self.opener.open(request, timeout=TIMEOUT) as response:
            return dict(json.loads(response.read().decode("utf-8")))

    def send(self, exercise_id: str, answer: Any, feedback: Feedback) -> str:
        """Queue the answer and send what waits; a sentence for the learner."""
        if feedback.verdict not in ("correct", "misconception", "wrong"):
            return ""
        with self.lock:
            if len(self.waiting) < MAX_WAITING:
                self.waiting.append({"id": str(uuid.uuid4()), "exercise": exercise_id, "answer": str(answer)[:200]})
            while self.waiting:
                try:
                    self._post(PATHS["answer"], self.waiting[0])
                except urllib.error.HTTPError as refused:
                    if refused.code in (401, 409):  # the session is over, or closed
                        self.waiting.clear()
                        return "Not sent: your class's session is closed or over."
                    if refused.code == 400:  # this one will never be taken: drop it, send the rest
                        self.waiting.pop(0)
                        continue
                    return f"Not sent to your class yet ({len(self.waiting)} waiting): sent with your next answer."
                except (urllib.error.URLError, OSError, ValueError):
                    return f"Not sent to your class yet ({len(self.waiting)} waiting): sent with your next answer."
                self.waiting.pop(0)
        return f"Sent to your class ({self.session})."


_joined: ClassLink | None = None


def _address(given: str) -> tuple[str, str | None]:
    """The server's address (scheme and host) and the code, if the address carries one (``?code=``)."""
    if not isinstance(given, str) or not given.startswith(("http://", "https://")):
        raise ValueError(
            f"address: the classroom server's address, such as http://192.168.1.20:8000 (got {str(given)[:60]!r})."
        )
    parts = urllib.parse.urlsplit(given)
    code = urllib.parse.parse_qs(parts.query).get("code", [None])[0]
    return f"{parts.scheme}://{parts.netloc}", code


def join(address: str, code: str | None = None, nickname: str | None = None) -> ClassLink:
    """Join a classroom session from this notebook: every ``check(...)`` then sends its answer there too.

    ``address`` is the server's (the join address with ``?code=`` will do, the code then being optional);
    ``nickname`` defaults to ``BLEU_TEACH_NICKNAME``, the hub's user name, or the login name.
    """
    global _joined
    base, found = _address(address)
    code = code or found
    if not code:
        raise ValueError("code: give the session's code, as the teacher shows it.")
    nickname = nickname or os.environ.get(NICKNAME_VARIABLE) or os.environ.get("JUPYTERHUB_USER") or getpass.getuser()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    link = ClassLink(base, "", nickname, opener)
    try:
        joined = link._post(PATHS["join"], {"code": code, "nickname": nickname})  # noqa: SLF001 (its own)
    except urllib.error.HTTPError as refused:
        try:
            message = json.loads(refused.read().decode("utf-8")).get("error", "")
        except (ValueError, OSError):
            message = ""
        raise ValueError(f"Not joined: {message or f'the server answered {refused.code}'}") from None
    except (urllib.error.URLError, OSError) as problem:
        raise ValueError(f"Not joined: the server at {base} cannot be reached ({problem}).") from None
    link.session, link.nickname = str(joined.get("session", "")), str(joined.get("nickname", nickname))
    if _joined is not None and _joined.stop is not None:
        _joined.stop()
    link.stop = listen(lambda exercise_id, answer, feedback: _say(link.send(exercise_id, answer, feedback)))
    _joined = link
    print(f"Joined {link.session!r} as {link.nickname}: your checked answers go to the class too.")
    return link


def _say(sentence: str) -> None:
    if sentence:
        print(sentence)


def join_from_environment() -> None:
    """If the hub set ``BLEU_TEACH_CLASS``, join at the first check (not before: nothing is sent on import)."""
    given = os.environ.get(CLASS_VARIABLE)
    if not given:
        return
    stop: Any = None

    def first(exercise_id: str, answer: Any, feedback: Feedback) -> None:
        if stop is not None:
            stop()
        try:
            link = join(given)
        except ValueError as problem:
            print(f"{problem} (from {CLASS_VARIABLE})")
            return
        _say(link.send(exercise_id, answer, feedback))

    stop = listen(first)
