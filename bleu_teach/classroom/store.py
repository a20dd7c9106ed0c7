"""The classroom's records: sessions, students and their answers, in SQLite (one file) or PostgreSQL.

Written with SQLAlchemy Core, so that the same statements run on both. SQLite
is the default (a file made on first use, in WAL mode with ``synchronous=FULL``:
an answer is on disk before it is acknowledged, so killing the server loses
none); PostgreSQL is for a department server or several workers behind a proxy.

What the store promises:

* **No answer counted twice.** Each answer carries the id its page gave it
  (a UUID); storing the same id again for the same student stores nothing and
  answers what was stored the first time (:meth:`Store.record_answer`).
* **No secret kept in clear.** The teacher's secret, the projector link's
  token, each student's token (each device's) and each personal link's token
  are kept as SHA-256 digests (the teacher's and the projector's compared in
  constant time).
* **Nothing kept after a session is deleted**: its students and answers go
  with it (:meth:`Store.delete_session`).

The store is one class made of parts, one module each: this one opens the
database, keeps the sessions and carries the notices of what changed,
:mod:`~bleu_teach.classroom.store_students` the students and the roster,
:mod:`~bleu_teach.classroom.store_links` the roster's personal links,
:mod:`~bleu_teach.classroom.store_answers` the answers,
:mod:`~bleu_teach.classroom.store_polls` the polls and their votes,
:mod:`~bleu_teach.classroom.store_homework` the homework variants and
extensions (:mod:`~bleu_teach.classroom.store_base` is what they share). Every SQL
statement of the classroom is in these modules: the rest of it calls their
methods (``tests/test_classroom_structure.py`` holds it so).
"""

from __future__ import annotations

import contextlib
import hmac
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, delete, event, select, text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DatabaseError, IntegrityError

from bleu_teach.classroom.grading import LatePolicy
from bleu_teach.classroom.schema import (
    CODE_ALPHABET,
    CODE_LENGTH,
    MAX_TITLE,
    MAX_TRIES,
    Answer,
    Session,
    Student,
    answers,
    bounded,
    database_url,
    devices,
    digest,
    extensions,
    fold,
    homework_variants,
    lti_links,
    lti_offers,
    lti_teachers,
    lti_users,
    now,
    polls,
    roster,
    session_of,
    sessions,
    students,
    votes,
)
from bleu_teach.classroom.store_answers import AnswerRecords, PastDue, TriesUsed
from bleu_teach.classroom.store_archive import ArchiveRecords
from bleu_teach.classroom.store_base import notifies, ping_when_idle, session_arg
from bleu_teach.classroom.store_homework import HomeworkRecords
from bleu_teach.classroom.store_limits import LimitRecords
from bleu_teach.classroom.store_links import LinkRecords
from bleu_teach.classroom.store_lti import LtiRecords
from bleu_teach.classroom.store_migrate import CLASSROOM_TABLES, migrate
from bleu_teach.classroom.store_polls import Poll, PollRecords
from bleu_teach.classroom.store_scores import ScoreRecords
from bleu_teach.classroom.store_students import StudentRecords
from bleu_teach.classroom.store_term import TermRecords


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers (the dashboard) never wait for a writer
    cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged answer is on disk
    cursor.execute("PRAGMA foreign_keys=ON")  # deleting a session deletes its students and answers
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA secure_delete=ON")  # what is deleted is overwritten, not left readable in the file
    cursor.close()


#: A projector link's token: letters and digits a teacher can type on the room's computer (the join codes'), 20 of
#: them (31^20, about 99 bits: never guessed); a longer one is refused unread.
PROJECTOR_ALPHABET = CODE_ALPHABET
PROJECTOR_LENGTH = 20
MAX_PROJECTOR_TOKEN = 64

#: The PostgreSQL channel the writes notify (classroom.feed listens to it).
CHANGES_CHANNEL = "bleu_teach_changes"


def _check_sqlite_file(path: Path) -> None:
    """Refuse, before the store's settings (WAL) touch it, a SQLite file that is damaged or holds another
    application's tables: it is read through a read-only connection."""
    import sqlite3

    try:
        with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as reader:
            tables = {row[0] for row in reader.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as problem:
        raise ValueError(
            f"database: {str(path)!r} cannot be used as the classroom's database ({problem}); if it is "
            "a classroom database, it is damaged: restore a copy, or give another --database."
        ) from None
    if tables and not CLASSROOM_TABLES <= tables:
        raise ValueError(
            f"database: {str(path)!r} cannot be used as the classroom's database: it holds other tables "
            "than a classroom's: it is another application's database."
        )


#: The threads each server process runs its database work on (the app sets anyio's limiter, which Starlette's
#: ``run_in_threadpool`` uses, to this; Starlette's default is 40), and the connections kept for them. Every trip
#: to a thread waits for the interpreter's lock behind the threads running then: under 1,000 students on PostgreSQL
#: with two workers (benchmarks/bench_classroom.py, the same code but for the threads, one run each with the server's
#: trips to a thread timed), 40 threads gave answer p95 3.2 s, 16 gave 1.35 s and 8 gave 1.27 s; 16 keeps room for
#: a slow database statement or a file being served.
THREADS = 16


class Coalescer:
    """Calls ``send(session_id)`` at most once every ``spacing`` seconds per session: the first change of a burst at
    once, the rest of it in one call when the spacing has passed. At 1,000 students on PostgreSQL a NOTIFY per
    answer made its own transaction, whose commit every other notifying commit waits for (PostgreSQL serialises
    them): the answers' commits queued behind the notices. The change feed counts at most every 0.25 s, so a
    session told ten times a second loses nothing."""

    def __init__(self, send: Callable[[int], None], spacing: float = 0.1) -> None:
        self.send = send
        self.spacing = spacing
        self.lock = threading.Lock()
        self.last: dict[int, float] = {}
        self.pending: set[int] = set()

    def tell(self, session_id: int) -> None:
        with self.lock:
            if session_id in self.pending:
                return
            moment = time.monotonic()
            wait = self.last.get(session_id, moment - self.spacing) + self.spacing - moment
            if wait > 0:
                self.pending.add(session_id)
                timer = threading.Timer(wait, self._later, (session_id,))
                timer.daemon = True
                timer.start()
                return
            self.last[session_id] = moment
            if len(self.last) > 10_000:  # sessions long quiet are forgotten
                self.last = {k: v for k, v in self.last.items() if v > moment - 60}
        self.send(session_id)

    def _later(self, session_id: int) -> None:
        with self.lock:
            self.pending.discard(session_id)
            self.last[session_id] = time.monotonic()
        self.send(session_id)


class Store(
    StudentRecords,
    LinkRecords,
    AnswerRecords,
    PollRecords,
    HomeworkRecords,
    LimitRecords,
    LtiRecords,
    ScoreRecords,
    ArchiveRecords,
    TermRecords,
):
    """The classroom's database: :meth:`open` it with a SQLite path or a PostgreSQL URL. Its sessions are here; its
    students and roster are :class:`~bleu_teach.classroom.store_students.StudentRecords`, the roster's personal
    links :class:`~bleu_teach.classroom.store_links.LinkRecords`, its answers
    :class:`~bleu_teach.classroom.store_answers.AnswerRecords`, its polls
    :class:`~bleu_teach.classroom.store_polls.PollRecords`, its homework variants and extensions
    :class:`~bleu_teach.classroom.store_homework.HomeworkRecords`, its rate-limit counters (PostgreSQL)
    :class:`~bleu_teach.classroom.store_limits.LimitRecords`, the learning platforms that launch it (LTI 1.3)
    :class:`~bleu_teach.classroom.store_lti.LtiRecords` and their grades
    :class:`~bleu_teach.classroom.store_scores.ScoreRecords`; what a teacher takes away
    :class:`~bleu_teach.classroom.store_archive.ArchiveRecords`, and the term's rows
    :class:`~bleu_teach.classroom.store_term.TermRecords`."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
        # Reads in autocommit (Records.reading) where each statement sees its own snapshot anyway: READ COMMITTED,
        # PostgreSQL's default (a database set to REPEATABLE READ keeps one snapshot per read, in a transaction).
        committed = self.postgres and engine.dialect.default_isolation_level == "READ COMMITTED"
        self.reading = engine.execution_options(isolation_level="AUTOCOMMIT") if committed else engine
        #: The notices this process sends (PostgreSQL), a burst of one session's writes told once.
        self.notices_out = Coalescer(self._notify)
        self.notifying = threading.Lock()  # a notice being sent, which closing waits for
        self.closed = False
        self.writing = threading.RLock()  # SQLite's writers take turns here (Records._begin)
        self.waiting = []  # and the writes waiting for a group commit queue here (Records._write)
        self.queue_lock = threading.Lock()
        self.leading = False
        #: Called with a session's number after each write of it (the change feed, in this process).
        self.listeners: list[Callable[[int], None]] = []
        database = engine.url.database
        #: The SQLite file (None on PostgreSQL).
        self.path = Path(database) if not self.postgres and database else None

    @classmethod
    def open(cls, where: str | Path, create: bool = True) -> Store:
        """Open the database at ``where``; a SQLite file is made on first use (readable by its owner alone: it holds
        the roster's e-mail addresses), unless ``create`` is false (a command that only reads makes nothing).

        A file that is empty, damaged or not a classroom database is refused with one line that names it.
        """
        url = database_url(where)
        if url.startswith("sqlite"):
            path = Path(url.removeprefix("sqlite:///"))
            if path.is_dir():
                raise ValueError(f"database: {str(path)!r} is a folder; give a file's path.")
            if not path.exists():
                if not create:
                    raise LookupError(
                        f"database: there is no classroom database at {str(path)!r} yet "
                        "(class serve, new or homework makes it)."
                    )
                if not path.parent.is_dir():
                    raise ValueError(f"database: the folder {str(path.parent)!r} does not exist; create it first.")
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
                made = True
            else:
                made = False
                if path.stat().st_size == 0:
                    raise ValueError(
                        f"database: {str(path)!r} is an empty file, not a classroom database; move it "
                        "away or give another --database."
                    )
                _check_sqlite_file(path)  # read only: nothing is changed in a file that is not a classroom's
            # A connection for each thread that may use one at once (THREADS): with SQLAlchemy's default of 5
            # (+10 made and closed again as needed), a class's burst (1,000 phones voting) made the threads wait for
            # connections and open and close them, each with its pragmas: seconds per answer.
            engine = create_engine(url, pool_size=THREADS, max_overflow=10)
            event.listen(engine, "connect", _sqlite_pragmas)
            if made:  # the file is new and empty: SQLite writes its header now
                path.chmod(0o600)
        else:
            # A connection for each thread that may use one at once (THREADS), so that few are opened and closed
            # again under load.
            engine = create_engine(url, pool_size=THREADS, max_overflow=10, pool_use_lifo=True)
            ping_when_idle(engine)
        try:
            migrate(engine, create)
        except (LookupError, ValueError) as problem:
            engine.dispose()
            shown = engine.url.render_as_string(hide_password=True).removeprefix("sqlite:///")
            kind = LookupError if isinstance(problem, LookupError) else ValueError
            raise kind(f"database: {shown!r} cannot be used as the classroom's database: {problem}.") from None
        except DatabaseError as problem:
            engine.dispose()
            shown = engine.url.render_as_string(hide_password=True)
            reason = str(getattr(problem, "orig", problem)).splitlines()[0][:200]
            raise ValueError(
                f"database: {shown.removeprefix('sqlite:///')!r} cannot be used as the classroom's "
                f"database ({reason}); if it is a classroom database, it is damaged: restore a "
                "copy, or give another --database."
            ) from None
        return cls(engine)

    def close(self) -> None:
        """Close the database; a SQLite file is left whole on its own (its write-ahead log merged into it), so that
        copying the one file copies every answer."""
        if not self.postgres:
            with self.engine.connect() as connection:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        self.notices_out.send = lambda _: None  # a notice still waiting goes nowhere once closed
        with self.notifying:  # a notice being sent now finishes first; none is sent after (no connection left open)
            self.closed = True
        self._close_counters()
        self.engine.dispose()

    def url(self, hide_password: bool = True) -> str:
        """The database's URL (a SQLite file's is ``sqlite:///`` and its path), its password hidden unless asked."""
        return str(self.engine.url.render_as_string(hide_password=hide_password))

    def changed(self, session_id: int) -> None:
        """Say that a session's records changed: on PostgreSQL a NOTIFY that every worker's change feed hears (its
        own too); on SQLite (one process) to this process's listeners."""
        if self.postgres:
            self.notices_out.tell(int(session_id))
            return
        for listener in list(self.listeners):
            listener(session_id)

    def _notify(self, session_id: int) -> None:
        """One NOTIFY, on the counters' connections: committed at once, without waiting for the disk (a notice
        lost in a crash costs a dashboard one of its 5 s looks, nothing more)."""
        with self.notifying:
            if self.closed:
                return
            try:
                with self._counters().connect() as connection:
                    connection.execute(
                        text("SELECT pg_notify(:channel, :session)"),
                        {"channel": CHANGES_CHANNEL, "session": str(session_id)},
                    )
            except DatabaseError:  # the write is stored; the dashboards' 5 s look finds it without the notice
                pass

    def notices(self, stop: threading.Event) -> Iterator[int]:
        """On PostgreSQL: the sessions that every worker's writes changed (:meth:`changed`), as their notices
        arrive, heard on a ``LISTEN`` connection of its own, until ``stop`` is set (looked at every second); a
        failure of the connection is raised."""
        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(f"LISTEN {CHANGES_CHANNEL}")
            while not stop.is_set():
                for notice in connection.notifies(timeout=1.0):
                    if notice.payload.isdigit():
                        yield int(notice.payload)

    # --- sessions ---------------------------------------------------------------------------------------------

    def create_session(
        self,
        title: str,
        kind: str = "live",
        due: datetime | None = None,
        tries: int | None = None,
        late: str = "accept",
    ) -> tuple[Session, str]:
        """A new session and its teacher's secret (shown once: only its digest is kept). ``tries``: a homework's
        tries per question (default :data:`DEFAULT_TRIES`); ``late``: its late policy
        (:class:`~bleu_teach.classroom.grading.LatePolicy`: accept, refuse or penalty:N)."""
        title = bounded(title, "title", MAX_TITLE)
        policy = LatePolicy.parse(late)
        if tries is not None and (isinstance(tries, bool) or not isinstance(tries, int) or not 1 <= tries <= MAX_TRIES):
            raise ValueError(f"tries: a whole number from 1 to {MAX_TRIES}, not {str(tries)[:20]!r}.")
        if kind not in ("live", "homework"):
            raise ValueError(f"kind: 'live' or 'homework', not {str(kind)[:20]!r}.")
        if due is not None and due.tzinfo is None:
            raise ValueError("due: give a time with its time zone (for example 2026-12-01T09:00+01:00).")
        secret = secrets.token_urlsafe(24)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            row = {
                "code": code,
                "teacher_digest": digest(secret),
                "title": title,
                "kind": kind,
                "created": now(),
                "due": due,
                "closed": None,
                "tries": tries,
                "late": str(policy),
            }
            try:
                with self._begin() as connection:
                    session_id = connection.execute(sessions.insert().values(**row)).inserted_primary_key[0]
            except IntegrityError:
                continue  # that code is taken: draw another
            return self.session(session_id), secret
        raise RuntimeError("No free join code after 20 draws: delete old sessions.")

    def session(self, session_id: int) -> Session:
        with self.reading.connect() as connection:
            row = connection.execute(select(sessions).where(sessions.c.id == session_id)).mappings().first()
        if row is None:
            raise LookupError(f"No session {session_id}.")
        return session_of(row)

    def session_by_code(self, code: str) -> Session | None:
        """The session a join code opens, or None (codes are read without case or spaces)."""
        code = "".join(character for character in str(code)[:40] if character.isalnum()).upper()[: CODE_LENGTH + 1]
        with self.reading.connect() as connection:
            row = connection.execute(select(sessions).where(sessions.c.code == code)).mappings().first()
        return None if row is None else session_of(row)

    def sessions(self) -> list[Session]:
        with self.reading.connect() as connection:
            rows = connection.execute(select(sessions).order_by(sessions.c.id)).mappings().all()
        return [session_of(row) for row in rows]

    def is_teacher(self, session_id: int, secret: str) -> bool:
        """Whether ``secret`` is this session's teacher's (compared in constant time)."""
        with self.reading.connect() as connection:
            kept = connection.execute(select(sessions.c.teacher_digest).where(sessions.c.id == session_id)).scalar()
        if kept is not None and hmac.compare_digest(kept, digest(str(secret))):
            return True
        return kept is not None and self.is_launched_teacher(session_id, secret)  # let in by a platform's launch

    @notifies(session_arg)
    def close_session(self, session_id: int) -> None:
        with self._begin() as connection:
            connection.execute(
                sessions.update().where(sessions.c.id == session_id, sessions.c.closed.is_(None)).values(closed=now())
            )

    @notifies(session_arg)
    def delete_session(self, session_id: int) -> None:
        """Forget the session, its students, their answers, its polls and their votes."""
        with self._begin() as connection:
            asked = select(polls.c.id).where(polls.c.session_id == session_id)
            connection.execute(delete(votes).where(votes.c.poll_id.in_(asked)))
            connection.execute(delete(polls).where(polls.c.session_id == session_id))
            connection.execute(delete(roster).where(roster.c.session_id == session_id))
            connection.execute(delete(homework_variants).where(homework_variants.c.session_id == session_id))
            connection.execute(delete(extensions).where(extensions.c.session_id == session_id))
            for table in (lti_teachers, lti_users, lti_offers, lti_links):
                connection.execute(delete(table).where(table.c.session_id == session_id))
            connection.execute(delete(answers).where(answers.c.session_id == session_id))
            connection.execute(delete(devices).where(devices.c.session_id == session_id))
            connection.execute(delete(students).where(students.c.session_id == session_id))
            connection.execute(delete(sessions).where(sessions.c.id == session_id))
        if not self.postgres:  # the log still holds the pages as they were before: merge it and empty it
            with self.engine.connect() as connection:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    # --- the projector link ------------------------------------------------------------------------------------

    @notifies(session_arg)
    def new_projector_token(self, session_id: int) -> str:
        """A new projector link's token for the session (shown once: only its digest is kept); the old link, and
        every projector still open on it, stops at once (the change is told, and each projector's stream looks)."""
        self.session(session_id)
        token = "".join(secrets.choice(PROJECTOR_ALPHABET) for _ in range(PROJECTOR_LENGTH))
        with self._begin() as connection:
            connection.execute(
                sessions.update().where(sessions.c.id == session_id).values(projector_digest=digest(token))
            )
        return token

    @notifies(session_arg)
    def stop_projector(self, session_id: int) -> None:
        """The session's projector link stops working (no new one is made)."""
        with self._begin() as connection:
            connection.execute(sessions.update().where(sessions.c.id == session_id).values(projector_digest=None))

    def is_projector(self, session_id: int, token: str) -> bool:
        """Whether ``token`` is the session's projector link's (compared in constant time); False for a session with
        no link, or none at all."""
        if not isinstance(token, str) or not 0 < len(token) <= MAX_PROJECTOR_TOKEN:
            return False
        with self.reading.connect() as connection:
            kept = connection.execute(select(sessions.c.projector_digest).where(sessions.c.id == session_id)).scalar()
        # Made of the join code's capitals and digits: a link typed by hand in small letters is the same link.
        return hmac.compare_digest(kept or "", digest(token.upper()))

    def has_projector(self, session_id: int) -> bool:
        """Whether the session has a projector link that works."""
        with self.reading.connect() as connection:
            kept = connection.execute(select(sessions.c.projector_digest).where(sessions.c.id == session_id)).scalar()
        return kept is not None

    def new_teacher_secret(self, session_id: int) -> str:
        """A new teacher secret for the session (the old link stops working): for a teacher link that was lost."""
        self.session(session_id)
        secret = secrets.token_urlsafe(24)
        with self._begin() as connection:
            connection.execute(
                sessions.update().where(sessions.c.id == session_id).values(teacher_digest=digest(secret))
            )
            connection.execute(delete(lti_teachers).where(lti_teachers.c.session_id == session_id))  # launches too
        return secret


__all__ = [
    "Answer",
    "PastDue",
    "Poll",
    "Session",
    "Store",
    "Student",
    "TriesUsed",
    "database_url",
    "digest",
    "fold",
]
