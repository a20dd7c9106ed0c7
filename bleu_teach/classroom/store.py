"""The classroom's records: sessions, students and their answers, in SQLite (one file) or PostgreSQL.

Written with SQLAlchemy Core, so that the same statements run on both. SQLite
is the default (a file made on first use, in WAL mode with ``synchronous=FULL``:
an answer is on disk before it is acknowledged, so killing the server loses
none); PostgreSQL is for a department server or several workers behind a proxy.

What the store promises:

* **No answer counted twice.** Each answer carries the id its page gave it
  (a UUID); storing the same id again for the same student stores nothing and
  answers what was stored the first time (:meth:`Store.record_answer`).
* **No secret kept in clear.** The teacher's secret and each student's token
  are kept as SHA-256 digests and compared in constant time.
* **Nothing kept after a session is deleted**: its students and answers go
  with it (:meth:`Store.delete_session`).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import unicodedata
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from sqlalchemy import (Boolean, Column, DateTime, ForeignKey, Integer, MetaData, PrimaryKeyConstraint, String,
                        Table, Text, UniqueConstraint, create_engine, delete, event, func, select)
from sqlalchemy.types import TypeDecorator
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DatabaseError, IntegrityError

#: Join codes: letters and digits a projector shows and a phone keyboard types without confusion (no 0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6  # 31^6, about 8.9e8 codes: with the server's rate limits, not worth guessing
#: Bounds on what a person types (the server refuses longer, with a message).
MAX_TITLE = 120
MAX_NICKNAME = 40
MAX_ANSWER = 200
MAX_MISTAKE = 120
ANSWER_ID_LENGTH = 36  # a UUID as text
VERDICTS = ("correct", "misconception", "wrong")
#: A homework's tries per question unless its teacher sets another number: enough to correct a slip and learn from
#: the mistake named, too few to find a number by trying the candidates.
DEFAULT_TRIES = 10
MAX_TRIES = 100

#: The largest record number (a session, a student, a poll) the server reads from a request: what a 32-bit
#: integer column holds on both databases. A larger number names nothing.
MAX_ID = 2**31 - 1


class UtcDateTime(TypeDecorator[datetime]):
    """A moment, stored in UTC on both databases and read back with its zone (UTC).

    SQLite keeps no time zone: a time given as 09:00+01:00 was stored as 09:00 and read back as 09:00 UTC, an hour
    late. Every moment is turned into UTC before it is stored; a time without a zone is refused.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if not isinstance(value, datetime) or value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"a time must carry its time zone, not {value!r}")
        moment = value.astimezone(timezone.utc)
        return moment.replace(tzinfo=None) if dialect.name == "sqlite" else moment

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=timezone.utc) if value.tzinfo is None else value.astimezone(timezone.utc)


metadata = MetaData()

sessions = Table(
    "sessions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(CODE_LENGTH), nullable=False, unique=True),
    Column("teacher_digest", String(64), nullable=False),
    Column("title", String(MAX_TITLE), nullable=False),
    Column("kind", String(10), nullable=False),  # "live" (in the room) or "homework"
    Column("created", UtcDateTime(), nullable=False),
    Column("due", UtcDateTime()),
    Column("closed", UtcDateTime()),
    Column("tries", Integer),  # a homework's tries per question (None: DEFAULT_TRIES)
)

students = Table(
    "students", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("nickname", String(MAX_NICKNAME), nullable=False),
    Column("token_digest", String(64), nullable=False, unique=True),
    Column("joined", UtcDateTime(), nullable=False),
    Column("removed", UtcDateTime()),  # when the teacher removed them: out of the counts, kept in the export
    UniqueConstraint("session_id", "nickname"),
)

answers = Table(
    "answers", metadata,
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("student_id", Integer, ForeignKey("students.id", ondelete="CASCADE"), nullable=False),
    Column("answer_id", String(ANSWER_ID_LENGTH), nullable=False),
    Column("exercise", String(16), nullable=False),
    Column("answer", String(MAX_ANSWER), nullable=False),
    Column("verdict", String(16), nullable=False),
    Column("mistake", String(MAX_MISTAKE), nullable=False),  # the named misconception, "" when none
    Column("at", UtcDateTime(), nullable=False),
    Column("late", Boolean, nullable=False),
    PrimaryKeyConstraint("session_id", "student_id", "answer_id"),
)

#: Polls: a question put to the room (a bank exercise with options, or the presenter's own), round by round.
polls = Table(
    "polls", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("question", String(400), nullable=False),
    Column("options", String(2000), nullable=False),  # JSON: [[letter, text], ...]
    Column("exercise", String(16), nullable=False),  # the bank exercise asked, "" for the presenter's own
    Column("round", Integer, nullable=False),  # 1, then 2 after discussion (peer instruction)
    Column("first_round", Integer),  # round 2's round 1
    Column("state", String(10), nullable=False),  # "open", "closed" (votes counted, histogram shown)
    Column("opened", UtcDateTime(), nullable=False),
)

votes = Table(
    "votes", metadata,
    Column("poll_id", Integer, ForeignKey("polls.id", ondelete="CASCADE"), nullable=False),
    Column("student_id", Integer, ForeignKey("students.id", ondelete="CASCADE"), nullable=False),
    Column("vote_id", String(ANSWER_ID_LENGTH), nullable=False),
    Column("choice", String(8), nullable=False),
    Column("at", UtcDateTime(), nullable=False),
    PrimaryKeyConstraint("poll_id", "student_id"),  # one vote per student per round (the last one counts)
)

#: A homework session's roster: the names that may join (each once), with the learning platform's identifier for
#: the gradebook (an e-mail address for Moodle, a login ID for Canvas), if the roster gave one.
roster = Table(
    "roster", metadata,
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(MAX_NICKNAME), nullable=False),
    Column("folded", String(MAX_NICKNAME), nullable=False),  # the name as compared: case and spaces folded
    Column("identifier", String(200), nullable=False),
    Column("position", Integer, nullable=False),
    Column("student_id", Integer, ForeignKey("students.id", ondelete="SET NULL")),
    Column("reopened", Boolean, nullable=False, default=False),  # the teacher let this name join again
    PrimaryKeyConstraint("session_id", "folded"),
)

#: A homework session's variants, drawn on the server when it is made: the students get them in turn. The right
#: answers are computed from these on the server and never sent.
homework_variants = Table(
    "homework_variants", metadata,
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("exercise", String(16), nullable=False),
    Column("number", Integer, nullable=False),
    Column("inputs", Text, nullable=False),  # JSON
    Column("question", Text, nullable=False),
    PrimaryKeyConstraint("session_id", "exercise", "number"),
)


def fold(name: str) -> str:
    """A name as names are compared: case, runs of spaces and how an accent is encoded do not matter."""
    return " ".join(unicodedata.normalize("NFKC", name).split()).casefold()


def digest(secret: str) -> str:
    """The SHA-256 of a secret, as kept in the store."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(timezone.utc)



@dataclass(frozen=True)
class Session:
    id: int
    code: str
    title: str
    kind: str
    created: datetime
    due: datetime | None
    closed: datetime | None
    tries: int = DEFAULT_TRIES

    @property
    def open(self) -> bool:
        return self.closed is None


@dataclass(frozen=True)
class Student:
    id: int
    session_id: int
    nickname: str


@dataclass(frozen=True)
class Answer:
    answer_id: str
    student_id: int
    exercise: str
    answer: str
    verdict: str
    mistake: str
    at: datetime
    late: bool


def database_url(where: str | Path) -> str:
    """A SQLAlchemy URL for ``where``: a PostgreSQL URL as given, anything else a SQLite file's path."""
    text = str(where)
    if text.startswith(("postgresql://", "postgresql+psycopg://", "postgres://")):
        return "postgresql+psycopg://" + text.split("://", 1)[1]
    if "://" in text:
        raise ValueError(f"database: give a SQLite file's path or a postgresql:// URL, not {text[:60]!r}.")
    return f"sqlite:///{Path(text).expanduser().resolve()}"


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers (the dashboard) never wait for a writer
    cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged answer is on disk
    cursor.execute("PRAGMA foreign_keys=ON")  # deleting a session deletes its students and answers
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA secure_delete=ON")  # what is deleted is overwritten, not left readable in the file
    cursor.close()


MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: The revision whose schema the first release made without recording it (no alembic_version table).
FIRST_RELEASE = "0001"


def migrate(engine: Engine) -> None:
    """Bring the database's schema up to the newest revision (``migrations/versions``), in one transaction.

    A new database gets every revision; a database made by the first release (its tables there, no record of a
    revision) is marked as being at :data:`FIRST_RELEASE` (one made before ``roster.reopened`` existed gets that
    column first) and goes on from there. On PostgreSQL an advisory lock lets one process of several starting
    together do it.
    """
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect, text

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(4242017)"))
        found = inspect(connection)
        tables = set(found.get_table_names())
        config.attributes["connection"] = connection
        if "sessions" in tables and "alembic_version" not in tables:
            if "roster" in tables and "reopened" not in {c["name"] for c in found.get_columns("roster")}:
                connection.execute(text("ALTER TABLE roster ADD COLUMN reopened BOOLEAN NOT NULL DEFAULT false"))
            command.stamp(config, FIRST_RELEASE)
        command.upgrade(config, "head")


class Store:
    """The classroom's database: :meth:`open` it with a SQLite path or a PostgreSQL URL."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
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
                    raise LookupError(f"database: there is no classroom database at {str(path)!r} yet "
                                      "(class serve, new or homework makes it).")
                if not path.parent.is_dir():
                    raise ValueError(f"database: the folder {str(path.parent)!r} does not exist; create it first.")
                os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
                made = True
            else:
                made = False
                if path.stat().st_size == 0:
                    raise ValueError(f"database: {str(path)!r} is an empty file, not a classroom database; move it "
                                     "away or give another --database.")
            engine = create_engine(url)
            event.listen(engine, "connect", _sqlite_pragmas)
            if made:  # the file is new and empty: SQLite writes its header now
                path.chmod(0o600)
        else:
            engine = create_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)
        try:
            migrate(engine)
        except DatabaseError as problem:
            engine.dispose()
            shown = engine.url.render_as_string(hide_password=True)
            reason = str(getattr(problem, "orig", problem)).splitlines()[0][:200]
            raise ValueError(f"database: {shown.removeprefix('sqlite:///')!r} cannot be used as the classroom's "
                             f"database ({reason}); if it is a classroom database, it is damaged: restore a "
                             "copy, or give another --database.") from None
        return cls(engine)

    def close(self) -> None:
        """Close the database; a SQLite file is left whole on its own (its write-ahead log merged into it), so that
        copying the one file copies every answer."""
        if not self.postgres:
            with self.engine.connect() as connection:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        self.engine.dispose()

    def _begin(self) -> Any:
        return self.engine.begin()

    # --- sessions ---------------------------------------------------------------------------------------------

    def create_session(self, title: str, kind: str = "live", due: datetime | None = None,
                       tries: int | None = None) -> tuple[Session, str]:
        """A new session and its teacher's secret (shown once: only its digest is kept). ``tries``: a homework's
        tries per question (default :data:`DEFAULT_TRIES`)."""
        title = bounded(title, "title", MAX_TITLE)
        if tries is not None and (isinstance(tries, bool) or not isinstance(tries, int) or not 1 <= tries <= MAX_TRIES):
            raise ValueError(f"tries: a whole number from 1 to {MAX_TRIES}, not {str(tries)[:20]!r}.")
        if kind not in ("live", "homework"):
            raise ValueError(f"kind: 'live' or 'homework', not {str(kind)[:20]!r}.")
        if due is not None and due.tzinfo is None:
            raise ValueError("due: give a time with its time zone (for example 2026-12-01T09:00+01:00).")
        secret = secrets.token_urlsafe(24)
        for _ in range(20):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            row = {"code": code, "teacher_digest": digest(secret), "title": title, "kind": kind, "created": _now(),
                   "due": due, "closed": None, "tries": tries}
            try:
                with self._begin() as connection:
                    session_id = connection.execute(sessions.insert().values(**row)).inserted_primary_key[0]
            except IntegrityError:
                continue  # that code is taken: draw another
            return self.session(session_id), secret
        raise RuntimeError("No free join code after 20 draws: delete old sessions.")

    def session(self, session_id: int) -> Session:
        with self.engine.connect() as connection:
            row = connection.execute(select(sessions).where(sessions.c.id == session_id)).mappings().first()
        if row is None:
            raise LookupError(f"No session {session_id}.")
        return _session(row)

    def session_by_code(self, code: str) -> Session | None:
        """The session a join code opens, or None (codes are read without case or spaces)."""
        code = "".join(character for character in str(code)[:40] if character.isalnum()).upper()[:CODE_LENGTH + 1]
        with self.engine.connect() as connection:
            row = connection.execute(select(sessions).where(sessions.c.code == code)).mappings().first()
        return None if row is None else _session(row)

    def sessions(self) -> list[Session]:
        with self.engine.connect() as connection:
            rows = connection.execute(select(sessions).order_by(sessions.c.id)).mappings().all()
        return [_session(row) for row in rows]

    def is_teacher(self, session_id: int, secret: str) -> bool:
        """Whether ``secret`` is this session's teacher's (compared in constant time)."""
        with self.engine.connect() as connection:
            kept = connection.execute(select(sessions.c.teacher_digest).where(sessions.c.id == session_id)).scalar()
        return kept is not None and hmac.compare_digest(kept, digest(str(secret)))

    def close_session(self, session_id: int) -> None:
        with self._begin() as connection:
            connection.execute(sessions.update().where(sessions.c.id == session_id, sessions.c.closed.is_(None))
                               .values(closed=_now()))

    def delete_session(self, session_id: int) -> None:
        """Forget the session, its students, their answers, its polls and their votes."""
        with self._begin() as connection:
            asked = select(polls.c.id).where(polls.c.session_id == session_id)
            connection.execute(delete(votes).where(votes.c.poll_id.in_(asked)))
            connection.execute(delete(polls).where(polls.c.session_id == session_id))
            connection.execute(delete(roster).where(roster.c.session_id == session_id))
            connection.execute(delete(homework_variants).where(homework_variants.c.session_id == session_id))
            connection.execute(delete(answers).where(answers.c.session_id == session_id))
            connection.execute(delete(students).where(students.c.session_id == session_id))
            connection.execute(delete(sessions).where(sessions.c.id == session_id))
        if not self.postgres:  # the log still holds the pages as they were before: merge it and empty it
            with self.engine.connect() as connection:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")

    # --- students ---------------------------------------------------------------------------------------------

    def join(self, session: Session, nickname: str) -> tuple[Student, str]:
        """A new student in an open session, and their token (kept by their browser; only its digest here)."""
        nickname = unicodedata.normalize("NFC", bounded(nickname, "nickname", MAX_NICKNAME))
        if any(unicodedata.category(character) == "Cf" for character in nickname):
            raise ValueError("nickname: it holds invisible characters; type it again.")
        if not session.open:
            raise ValueError("This session is closed: ask your teacher for a new code.")
        token = secrets.token_urlsafe(24)
        try:
            with self._begin() as connection:
                named = connection.execute(select(roster.c.name, roster.c.student_id, roster.c.reopened).where(
                    roster.c.session_id == session.id, roster.c.folded == fold(nickname))).first()
                listed = connection.execute(select(func.count()).select_from(roster)
                                            .where(roster.c.session_id == session.id)).scalar()
                if listed and named is None:
                    raise ValueError("nickname: for this homework, type your name as your teacher's list has it.")
                if named is not None and named.student_id is not None and named.reopened:
                    # Let in again by the teacher (a new device, a lost cookie): the same student, a new token.
                    connection.execute(students.update().where(students.c.id == named.student_id)
                                       .values(token_digest=digest(token)))
                    connection.execute(roster.update().where(roster.c.session_id == session.id,
                                                             roster.c.folded == fold(nickname)).values(reopened=False))
                    return Student(named.student_id, session.id, named.name), token
                if named is not None and named.student_id is not None:
                    raise ValueError(f"{named.name!r} has already joined; if that was not you, tell your teacher "
                                     "(who can let you join again).")
                if named is not None:
                    nickname = named.name
                taken = connection.execute(select(students.c.nickname).where(
                    students.c.session_id == session.id)).scalars().all()
                if any(fold(other) == fold(nickname) for other in taken):
                    raise IntegrityError("nickname", {}, Exception("taken"))  # told below, as a duplicate
                student_id = connection.execute(students.insert().values(
                    session_id=session.id, nickname=nickname, token_digest=digest(token),
                    joined=_now())).inserted_primary_key[0]
                if named is not None:
                    claimed = connection.execute(roster.update().where(
                        roster.c.session_id == session.id, roster.c.folded == fold(nickname),
                        roster.c.student_id.is_(None)).values(student_id=student_id)).rowcount
                    if claimed != 1:  # someone claimed the name meanwhile: undo this join
                        raise ValueError(f"{named.name!r} has already joined; if that was not you, tell your "
                                         "teacher.")
        except IntegrityError:
            raise ValueError(f"Someone in this session is already called {nickname!r}: choose another nickname.") \
                from None
        return Student(student_id, session.id, nickname), token

    def set_roster(self, session_id: int, names: list[tuple[str, str]]) -> None:
        """The names (with their platform identifiers) that may join this session, each once."""
        with self._begin() as connection:
            connection.execute(delete(roster).where(roster.c.session_id == session_id))
            for position, (name, identifier) in enumerate(names):
                connection.execute(roster.insert().values(
                    session_id=session_id, name=bounded(name, "name", MAX_NICKNAME), folded=fold(name),
                    identifier=identifier[:200], position=position))

    def reopen(self, session_id: int, name: str) -> bool:
        """Let a roster name that has joined join once more (its answers stay its own); whether the name is there.
        The browser that joined before stops being that student at the next join."""
        with self._begin() as connection:
            return bool(connection.execute(roster.update().where(
                roster.c.session_id == session_id, roster.c.folded == fold(str(name)[:MAX_NICKNAME]))
                .values(reopened=True)).rowcount)

    def new_teacher_secret(self, session_id: int) -> str:
        """A new teacher secret for the session (the old link stops working): for a teacher link that was lost."""
        self.session(session_id)
        secret = secrets.token_urlsafe(24)
        with self._begin() as connection:
            connection.execute(sessions.update().where(sessions.c.id == session_id)
                               .values(teacher_digest=digest(secret)))
        return secret

    def roster_names(self, session_id: int) -> list[tuple[str, str, int | None]]:
        """The session's roster: (name, identifier, the student who joined as it or None), in the roster's order."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(roster.c.name, roster.c.identifier, roster.c.student_id)
                                      .where(roster.c.session_id == session_id).order_by(roster.c.position)).all()
        return [(row.name, row.identifier, row.student_id) for row in rows]

    def student(self, session_id: int, token: str) -> Student | None:
        """The student whose token this is, in this session; None for any other token."""
        with self.engine.connect() as connection:
            row = connection.execute(select(students).where(students.c.token_digest == digest(str(token)),
                                                            students.c.session_id == session_id,
                                                            students.c.removed.is_(None))).mappings().first()
        return None if row is None else Student(row["id"], row["session_id"], row["nickname"])

    def roster(self, session_id: int, removed: bool = False) -> list[Student]:
        """The session's students in the order they joined; with ``removed``, only those the teacher removed."""
        chosen = students.c.removed.is_not(None) if removed else students.c.removed.is_(None)
        with self.engine.connect() as connection:
            rows = connection.execute(select(students).where(students.c.session_id == session_id, chosen)
                                      .order_by(students.c.id)).mappings().all()
        return [Student(row["id"], row["session_id"], row["nickname"]) for row in rows]

    def remove_student(self, session_id: int, student_id: int) -> bool:
        """Take a student out of the class (a fake or a duplicate): their browser is out, their answers leave the
        counts and stay in the export, marked. Whether there was such a student to remove."""
        student_id = record_id(student_id, "student")
        with self._begin() as connection:
            nickname = connection.execute(select(students.c.nickname).where(
                students.c.session_id == session_id, students.c.id == student_id,
                students.c.removed.is_(None))).scalar()
            if nickname is None:
                return False
            # The name is free again (the student a fake pretended to be can join under it); the export keeps it.
            renamed = f"{nickname[:MAX_NICKNAME - 20]} (removed {student_id})"[:MAX_NICKNAME]
            connection.execute(students.update().where(students.c.id == student_id)
                               .values(removed=_now(), nickname=renamed))
            connection.execute(roster.update().where(roster.c.session_id == session_id,
                                                     roster.c.student_id == student_id).values(student_id=None))
        return True

    def tries(self, student: Student, exercise: str) -> int:
        """How many answers the student has sent to an exercise (each stored once, whatever was sent again)."""
        with self.engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(answers).where(
                answers.c.session_id == student.session_id, answers.c.student_id == student.id,
                answers.c.exercise == exercise)).scalar() or 0)

    def answers_per_exercise(self, session_id: int) -> dict[str, int]:
        """How many answers (tries, each stored once) the session's present students sent to each exercise."""
        query = (select(answers.c.exercise, func.count()).join(students, students.c.id == answers.c.student_id)
                 .where(answers.c.session_id == session_id, students.c.removed.is_(None))
                 .group_by(answers.c.exercise))
        with self.engine.connect() as connection:
            return {exercise: int(count) for exercise, count in connection.execute(query).all()}

    def has_answer(self, student: Student, answer_id: str) -> bool:
        """Whether an answer with this id is stored already (a page sending it again)."""
        with self.engine.connect() as connection:
            return connection.execute(select(answers.c.answer_id).where(
                answers.c.session_id == student.session_id, answers.c.student_id == student.id,
                answers.c.answer_id == str(answer_id)[:ANSWER_ID_LENGTH])).first() is not None

    # --- answers ----------------------------------------------------------------------------------------------

    def record_answer(self, student: Student, answer_id: str, exercise: str, answer: str, verdict: str,
                      mistake: str = "", at: datetime | None = None,
                      session: Session | None = None) -> tuple[Answer, bool]:
        """Keep an answer once: (what is stored, whether this call stored it). The same ``answer_id`` sent again
        (a page that lost its connection sends again) stores nothing and answers the first one. ``session`` is
        the student's, if the caller has it (its due time marks late answers)."""
        answer_id = bounded(answer_id, "answer id", ANSWER_ID_LENGTH)
        answer = bounded(answer, "answer", MAX_ANSWER, empty=True)
        if verdict not in VERDICTS:
            raise ValueError(f"verdict: one of {', '.join(VERDICTS)}, not {str(verdict)[:20]!r}.")
        if session is None or session.id != student.session_id:
            session = self.session(student.session_id)
        moment = at or _now()
        row = {"session_id": student.session_id, "student_id": student.id, "answer_id": answer_id,
               "exercise": str(exercise)[:16], "answer": answer, "verdict": verdict,
               "mistake": str(mistake)[:MAX_MISTAKE], "at": moment,
               "late": session.due is not None and moment > session.due}
        dialect = postgresql if self.postgres else sqlite
        statement = dialect.insert(answers).values(**row).on_conflict_do_nothing().returning(answers.c.answer_id)
        with self._begin() as connection:
            if connection.execute(statement).first() is not None:
                return _answer(row), True
            kept = connection.execute(select(answers).where(  # it was there already: answer the first one
                answers.c.session_id == student.session_id, answers.c.student_id == student.id,
                answers.c.answer_id == answer_id)).mappings().one()
        return _answer(kept), False

    def answers_since(self, session_id: int, since: datetime) -> list[Answer]:
        """The session's answers made at or after ``since``, oldest first (the dashboard reads only what is new)."""
        query = select(answers).where(answers.c.session_id == session_id, answers.c.at >= since)
        with self.engine.connect() as connection:
            rows = connection.execute(query.order_by(answers.c.at, answers.c.answer_id)).mappings().all()
        return [_answer(row) for row in rows]

    def student_and_session(self, session_id: int, token: str) -> tuple[Student, Session] | None:
        """The student whose token this is and their session, in one query; None for any other token."""
        query = select(students.c.id.label("student_id"), students.c.nickname, *sessions.c).join(
            sessions, sessions.c.id == students.c.session_id).where(
            students.c.token_digest == digest(str(token)), students.c.session_id == session_id,
            students.c.removed.is_(None))
        with self.engine.connect() as connection:
            row = connection.execute(query).mappings().first()
        if row is None:
            return None
        return Student(row["student_id"], session_id, row["nickname"]), _session(row)

    def answers(self, session_id: int, student_id: int | None = None) -> list[Answer]:
        """The session's answers (or one student's), oldest first."""
        query = select(answers).where(answers.c.session_id == session_id)
        if student_id is not None:
            query = query.where(answers.c.student_id == student_id)
        with self.engine.connect() as connection:
            rows = connection.execute(query.order_by(answers.c.at, answers.c.answer_id)).mappings().all()
        return [_answer(row) for row in rows]

    def answer_count(self, session_id: int) -> int:
        with self.engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(answers)
                                          .where(answers.c.session_id == session_id)).scalar() or 0)

    def latest(self, session_id: int) -> Iterator[Answer]:
        """Each student's last answer to each exercise (what the dashboard counts)."""
        last: dict[tuple[int, str], Answer] = {}
        for answer in self.answers(session_id):
            last[(answer.student_id, answer.exercise)] = answer
        return iter(last.values())


def bounded(value: Any, name: str, most: int, empty: bool = False, one_line: bool = False) -> str:
    """Text a person typed, checked once for every table: trimmed (``one_line``: every run of spaces, tabs and
    line breaks made one space), at most ``most`` characters, with no control characters (NUL among them, which
    PostgreSQL refuses) and no half of a surrogate pair (not text in any encoding)."""
    if not isinstance(value, str):
        raise TypeError(f"{name}: give text, not {type(value).__name__}.")
    text = " ".join(value.split()) if one_line else value.strip()
    if not text and not empty:
        raise ValueError(f"{name}: it is empty; type one.")
    if len(text) > most:
        raise ValueError(f"{name}: at most {most} characters (this one has {len(text)}); shorten it.")
    if any(ord(character) < 32 or ord(character) == 127 for character in text):
        raise ValueError(f"{name}: it holds control characters; type it again.")
    if any(0xD800 <= ord(character) <= 0xDFFF for character in text):
        raise ValueError(f"{name}: it holds characters that are not text; type it again.")
    return text


def record_id(value: Any, name: str) -> int:
    """A record's number from a request: a whole number from 1 to :data:`MAX_ID` (a larger one names nothing)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ID:
        raise ValueError(f"{name}: reload the page.")
    return value


def _session(row: Any) -> Session:
    return Session(row["id"], row["code"], row["title"], row["kind"], row["created"], row["due"], row["closed"],
                   row["tries"] or DEFAULT_TRIES)


def _answer(row: Any) -> Answer:
    return Answer(row["answer_id"], row["student_id"], row["exercise"], row["answer"], row["verdict"],
                  row["mistake"], row["at"], bool(row["late"]))


__all__ = ["Answer", "MAX_ID", "Session", "Store", "Student", "UtcDateTime", "bounded", "database_url", "digest",
           "fold", "record_id"]
