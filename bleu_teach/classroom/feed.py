"""The dashboards' change feed: a session's numbers are counted once per change, and every open dashboard of it is
fed from that one count.

Before, each dashboard's stream read the database every half second on the threads that store answers, so 500
open dashboards slowed every answer down. Now a write says which session changed once it is committed
(:meth:`Store.changed`: on PostgreSQL a ``NOTIFY``, which every worker process hears through one ``LISTEN``
connection; on SQLite, one process, directly), and :class:`Feed` wakes the streams of that session: the first one
awake reads what is new (:class:`~bleu_teach.classroom.counts.Latest`, kept once per session) and counts, at most
:data:`EVERY` seconds apart (with every student's row at most every :data:`ROSTER_EVERY` seconds), and the others
take the same text. A stream with nothing new says it is still there every :data:`KEEP_ALIVE` seconds, looks
again every :data:`SAFETY` seconds in case a notice was lost, and every :data:`REREAD` seconds the session's
answers are read whole again (one stored late, after newer ones, is then counted).
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bleu_teach.classroom.counts import Latest
from bleu_teach.classroom.store import Store

#: The least time between two counts of one session (a burst of answers is counted once), and between two that
#: carry the roster (every student's row: the largest part of a big class's text).
EVERY = 0.25
ROSTER_EVERY = 2.0
#: How often a session's answers are read whole again (an answer stored late, after newer ones, is then counted).
REREAD = 60.0
KEEP_ALIVE = 15.0
SAFETY = 5.0
log = logging.getLogger("bleu_teach.classroom")


@dataclass
class _Session:
    latest: Latest
    version: int = 1  # changes heard; a count made at version v is current until the next change
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    counted: dict[bool, tuple[int, str]] = field(default_factory=dict)  # names -> (version, text)
    last_count: float = 0.0
    last_roster: float = 0.0
    roster_due: bool = False
    last_reread: float = field(default_factory=time.monotonic)
    listeners: int = 0


class Feed:
    """The change feed of one process. ``count(session_id, names, latest, roster)`` makes a dashboard's JSON text
    (run in a thread: it reads the database); ``roster``: with every student's row (only with ``names``)."""

    def __init__(self, count: Callable[[int, bool, Latest, bool], str]) -> None:
        self.count = count
        self.sessions: dict[int, _Session] = {}
        self.loop: asyncio.AbstractEventLoop | None = None

    def changed(self, session_id: int) -> None:
        """A write of this session was stored (called from any thread)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._wake(session_id)
        else:
            loop.call_soon_threadsafe(self._wake, session_id)

    def _wake(self, session_id: int) -> None:
        found = self.sessions.get(session_id)
        if found is None:
            return
        found.version += 1
        found.changed.set()
        found.changed = asyncio.Event()  # the next change wakes the next wait

    def _roster_due(self, session_id: int) -> None:
        found = self.sessions.get(session_id)
        if found is not None:
            found.roster_due = False
            self._wake(session_id)

    def _session(self, session_id: int) -> _Session:
        self.loop = asyncio.get_running_loop()
        found = self.sessions.get(session_id)
        if found is None:
            found = self.sessions[session_id] = _Session(Latest(session_id))
        return found

    async def text(self, session_id: int, names: bool) -> tuple[int, str]:
        """The session's dashboard text as of now, counted at most once per change (and per :data:`EVERY`)."""
        from starlette.concurrency import run_in_threadpool

        found = self._session(session_id)
        wanted = found.version  # the text must show every change heard before this call
        async with found.lock:
            kept = found.counted.get(names)
            if kept is not None and kept[0] >= wanted and time.monotonic() - found.last_count < SAFETY:
                # Counted since the caller asked (by another stream while this one waited for the lock), and
                # recently (a lost notice is made up for). Without this, while a class answers, every waiting
                # stream counted again in turn: the 50th dashboard's text was 50 counts old.
                return kept
            wait = found.last_count + EVERY - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            version = found.version
            moment = time.monotonic()
            if moment - found.last_reread > REREAD:
                found.latest, found.last_reread = Latest(session_id), moment
            roster = names and moment - found.last_roster >= ROSTER_EVERY
            text = await run_in_threadpool(self.count, session_id, names, found.latest, roster)
            found.last_count = time.monotonic()
            if roster:
                found.last_roster = found.last_count
            elif names and not found.roster_due:  # the rows follow: a count carries them when their time comes
                found.roster_due = True
                delay = found.last_roster + ROSTER_EVERY - time.monotonic()
                asyncio.get_running_loop().call_later(max(0.0, delay), self._roster_due, session_id)
            found.counted[names] = (version, text)
            return version, text

    async def wait(self, session_id: int, version: int, timeout: float) -> bool:
        """Wait until the session changes past ``version`` (True) or ``timeout`` passes (False)."""
        found = self._session(session_id)
        if found.version > version:
            return True
        try:
            await asyncio.wait_for(found.changed.wait(), timeout)
        except asyncio.TimeoutError:
            return False
        return True

    def listening(self, session_id: int, delta: int) -> None:
        """Count a stream in (+1) or out (-1); a session nobody watches is forgotten."""
        found = self._session(session_id)
        found.listeners += delta
        if found.listeners <= 0:
            self.sessions.pop(session_id, None)


class Listener:
    """On PostgreSQL: one connection per process that ``LISTEN``s for the writes of every worker
    (:meth:`Store.notices`) and feeds them to the process's :class:`Feed` (a thread of its own; reconnects after a
    failure)."""

    def __init__(self, store: Store, feed: Feed) -> None:
        self.store = store
        self.feed = feed
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="bleu-teach-listen", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        while not self.stop.is_set():
            try:
                for session_id in self.store.notices(self.stop):
                    self.feed.changed(session_id)
            except Exception as problem:  # noqa: BLE001  # the database went away: try again shortly
                log.warning(
                    "classroom change feed: %s; listening again in 2 s",
                    str(problem).splitlines()[0][:200] if str(problem) else type(problem).__name__,
                )
                self.stop.wait(2.0)
