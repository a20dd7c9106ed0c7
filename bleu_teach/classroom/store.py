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

import contextlib
import functools
import hmac
import os
import re
import secrets
import unicodedata
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import create_engine, delete, event, func, literal, select, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DatabaseError, IntegrityError

from bleu_teach.classroom.schema import (ANSWER_ID_LENGTH, CLASSROOM_TABLES, CODE_ALPHABET, NOT_AN_ANSWER, CODE_LENGTH, DEFAULT_TRIES, MAX_ANSWER,
                                         MAX_MISTAKE, MAX_NAME, MAX_NICKNAME, MAX_TITLE, MAX_TRIES, VERDICTS, Answer, Session, Student,
                                         answer_of, answers, bounded, database_url, digest, fold, now, session_of,
                                         homework_variants, migrate, polls, record_id, roster, sessions, students,
                                         votes)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")  # readers (the dashboard) never wait for a writer
    cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged answer is on disk
    cursor.execute("PRAGMA foreign_keys=ON")  # deleting a session deletes its students and answers
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA secure_delete=ON")  # what is deleted is overwritten, not left readable in the file
    cursor.close()



#: How a removed student's nickname ends in the records (no student may join under such a name).
REMOVED_NAME = re.compile(r"\(removed \d+\)$")


class TriesUsed(ValueError):
    """A homework answer past the question's tries: refused, nothing stored."""

    def __init__(self, tries: int) -> None:
        super().__init__(f"You have used the {tries} tries of this question: your last answer stands.")
        self.tries = tries


#: The PostgreSQL channel the writes notify (classroom.feed listens to it).
CHANGES_CHANNEL = "bleu_teach_changes"
Method = TypeVar("Method", bound=Callable[..., Any])


def notifies(session_of: Callable[..., int]) -> Callable[[Method], Method]:
    """Mark a method that writes: once it has returned (its transaction committed), the session
    ``session_of(*args)`` has changed (:meth:`Store.changed`; ``self`` is the store, or holds it as ``store``)."""

    def wrap(method: Method) -> Method:
        @functools.wraps(method)
        def written(self: Any, *args: Any, **kwargs: Any) -> Any:
            result = method(self, *args, **kwargs)
            getattr(self, "store", self).changed(session_of(*args, **kwargs))
            return result

        return written  # type: ignore[return-value]

    return wrap


def session_arg(session_id: int, *_: Any, **__: Any) -> int:
    return session_id


def session_of_arg(session: Session, *_: Any, **__: Any) -> int:
    return session.id


def student_arg(student: Student, *_: Any, **__: Any) -> int:
    return student.session_id


def _check_sqlite_file(path: Path) -> None:
    """Refuse, before the store's settings (WAL) touch it, a SQLite file that is damaged or holds another
    application's tables: it is read through a read-only connection."""
    import sqlite3

    try:
        with contextlib.closing(sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)) as reader:
            tables = {row[0] for row in reader.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError as problem:
        raise ValueError(f"database: {str(path)!r} cannot be used as the classroom's database ({problem}); if it is "
                         "a classroom database, it is damaged: restore a copy, or give another --database.") from None
    if tables and not CLASSROOM_TABLES <= tables:
        raise ValueError(f"database: {str(path)!r} cannot be used as the classroom's database: it holds other tables "
                         "than a classroom's: it is another application's database.")


class Store:
    """The classroom's database: :meth:`open` it with a SQLite path or a PostgreSQL URL."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"
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
                _check_sqlite_file(path)  # read only: nothing is changed in a file that is not a classroom's
            engine = create_engine(url)
            event.listen(engine, "connect", _sqlite_pragmas)
            if made:  # the file is new and empty: SQLite writes its header now
                path.chmod(0o600)
        else:
            engine = create_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)
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

    def changed(self, session_id: int) -> None:
        """Say that a session's records changed: on PostgreSQL a NOTIFY that every worker's change feed hears (its
        own too); on SQLite (one process) to this process's listeners."""
        if self.postgres:
            try:
                with self.engine.connect() as connection:
                    connection.execute(text("SELECT pg_notify(:channel, :session)"),
                                       {"channel": CHANGES_CHANNEL, "session": str(int(session_id))})
                    connection.commit()
            except DatabaseError:  # the write is stored; the dashboards' 5 s look finds it without the notice
                pass
            return
        for listener in list(self.listeners):
            listener(session_id)

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
            row = {"code": code, "teacher_digest": digest(secret), "title": title, "kind": kind, "created": now(),
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
        return session_of(row)

    def session_by_code(self, code: str) -> Session | None:
        """The session a join code opens, or None (codes are read without case or spaces)."""
        code = "".join(character for character in str(code)[:40] if character.isalnum()).upper()[:CODE_LENGTH + 1]
        with self.engine.connect() as connection:
            row = connection.execute(select(sessions).where(sessions.c.code == code)).mappings().first()
        return None if row is None else session_of(row)

    def sessions(self) -> list[Session]:
        with self.engine.connect() as connection:
            rows = connection.execute(select(sessions).order_by(sessions.c.id)).mappings().all()
        return [session_of(row) for row in rows]

    def is_teacher(self, session_id: int, secret: str) -> bool:
        """Whether ``secret`` is this session's teacher's (compared in constant time)."""
        with self.engine.connect() as connection:
            kept = connection.execute(select(sessions.c.teacher_digest).where(sessions.c.id == session_id)).scalar()
        return kept is not None and hmac.compare_digest(kept, digest(str(secret)))

    @notifies(session_arg)
    def close_session(self, session_id: int) -> None:
        with self._begin() as connection:
            connection.execute(sessions.update().where(sessions.c.id == session_id, sessions.c.closed.is_(None))
                               .values(closed=now()))

    @notifies(session_arg)
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

    @notifies(session_of_arg)
    def join(self, session: Session, nickname: str) -> tuple[Student, str]:
        """A new student in an open session, and their token (kept by their browser; only its digest here)."""
        nickname = unicodedata.normalize("NFC", bounded(nickname, "nickname", MAX_NAME, person=True))
        if REMOVED_NAME.search(nickname):
            raise ValueError("nickname: names ending in \"(removed N)\" are kept for students the teacher removed; "
                             "choose another.")
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
                if not listed and len(nickname) > MAX_NICKNAME:  # a roster's name may be longer (MAX_NAME)
                    raise ValueError(f"nickname: at most {MAX_NICKNAME} characters (this one has {len(nickname)}); "
                                     "shorten it.")
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
                    joined=now())).inserted_primary_key[0]
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

    @notifies(session_arg)
    def set_roster(self, session_id: int, names: list[tuple[str, str]]) -> None:
        """The names (with their platform identifiers) that may join this session, each once."""
        with self._begin() as connection:
            connection.execute(delete(roster).where(roster.c.session_id == session_id))
            for position, (name, identifier) in enumerate(names):
                if len(identifier) > 200:  # cut, it would no longer be the platform's identifiers (JSON)
                    raise ValueError(f"roster: the identifiers of {name[:40]!r} are {len(identifier)} characters "
                                     "long, more than the 200 kept; shorten the roster's identifier columns.")
                connection.execute(roster.insert().values(
                    session_id=session_id, name=bounded(name, "name", MAX_NAME, person=True), folded=fold(name),
                    identifier=identifier, position=position))

    @notifies(session_arg)
    def reopen(self, session_id: int, name: str) -> bool:
        """Let a roster name that has joined join once more (its answers stay its own); whether the name is there.
        The browser that joined before stops being that student at the next join."""
        with self._begin() as connection:
            return bool(connection.execute(roster.update().where(
                roster.c.session_id == session_id, roster.c.folded == fold(str(name)[:MAX_NAME]))
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

    @notifies(session_arg)
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
            renamed = f"{nickname[:MAX_NICKNAME - 22]} (removed {student_id})"  # fits: an id has at most 10 digits
            connection.execute(students.update().where(students.c.id == student_id)
                               .values(removed=now(), nickname=renamed))
            connection.execute(roster.update().where(roster.c.session_id == session_id,
                                                     roster.c.student_id == student_id)
                               .values(student_id=None, reopened=False))
        return True

    def tries(self, student: Student, exercise: str) -> int:
        """How many tries the student has used on an exercise: answers stored (each once, whatever was sent again)
        that the checker could read (one in the wrong form uses none)."""
        with self.engine.connect() as connection:
            return int(connection.execute(select(func.count()).select_from(answers).where(
                answers.c.session_id == student.session_id, answers.c.student_id == student.id,
                answers.c.exercise == exercise, answers.c.mistake != NOT_AN_ANSWER)).scalar() or 0)

    def answers_per_exercise(self, session_id: int) -> dict[str, int]:
        """How many answers (tries, each stored once) the session's present students sent to each exercise."""
        query = (select(answers.c.exercise, func.count()).join(students, students.c.id == answers.c.student_id)
                 .where(answers.c.session_id == session_id, students.c.removed.is_(None))
                 .group_by(answers.c.exercise))
        with self.engine.connect() as connection:
            return {exercise: int(count) for exercise, count in connection.execute(query).all()}

    @notifies(student_arg)
    def record_answer(self, student: Student, answer_id: str, exercise: str, answer: str, verdict: str,
                      mistake: str = "", at: datetime | None = None, session: Session | None = None,
                      max_tries: int | None = None) -> tuple[Answer, bool]:
        """Keep an answer once: (what is stored, whether this call stored it). The same ``answer_id`` sent again
        (a page that lost its connection sends again) stores nothing and answers the first one. ``session`` is
        the student's, if the caller has it (its due time marks late answers). With ``max_tries``, a new answer
        to an exercise the student has answered that often already is refused (:class:`TriesUsed`): counted and
        stored in one step, so answers sent at once cannot get past the count."""
        answer_id = bounded(answer_id, "answer id", ANSWER_ID_LENGTH)
        answer = bounded(answer, "answer", MAX_ANSWER, empty=True)
        if verdict not in VERDICTS:
            raise ValueError(f"verdict: one of {', '.join(VERDICTS)}, not {str(verdict)[:20]!r}.")
        if session is None or session.id != student.session_id:
            session = self.session(student.session_id)
        moment = at or now()
        row = {"session_id": student.session_id, "student_id": student.id, "answer_id": answer_id,
               "exercise": str(exercise)[:16], "answer": answer, "verdict": verdict,
               "mistake": str(mistake)[:MAX_MISTAKE], "at": moment,
               "late": session.due is not None and moment > session.due}
        dialect = postgresql if self.postgres else sqlite
        if max_tries is None:
            statement = dialect.insert(answers).values(**row)
        else:  # one statement: insert only while the count is below the tries (atomic on SQLite's one writer)
            used = (select(func.count()).select_from(answers)
                    .where(answers.c.session_id == student.session_id, answers.c.student_id == student.id,
                           answers.c.exercise == row["exercise"], answers.c.mistake != NOT_AN_ANSWER)
                    .scalar_subquery())
            values = select(*(literal(value, answers.c[name].type).label(name) for name, value in row.items()))
            statement = dialect.insert(answers).from_select(list(row), values.where(used < max_tries))
        statement = statement.on_conflict_do_nothing().returning(answers.c.answer_id)
        with self._begin() as connection:
            if max_tries is not None and self.postgres:  # one of the student's answers at a time: then count
                connection.execute(select(students.c.id).where(students.c.id == student.id).with_for_update())
            if connection.execute(statement).first() is not None:
                return answer_of(row), True
            kept = connection.execute(select(answers).where(  # it was there already: answer the first one
                answers.c.session_id == student.session_id, answers.c.student_id == student.id,
                answers.c.answer_id == answer_id)).mappings().first()
            if kept is None:
                raise TriesUsed(max_tries or 0)
        return answer_of(kept), False

    def answers_since(self, session_id: int, since: datetime) -> list[Answer]:
        """The session's answers made at or after ``since``, oldest first (the dashboard reads only what is new)."""
        query = select(answers).where(answers.c.session_id == session_id, answers.c.at >= since)
        with self.engine.connect() as connection:
            rows = connection.execute(query.order_by(answers.c.at, answers.c.answer_id)).mappings().all()
        return [answer_of(row) for row in rows]

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
        return Student(row["student_id"], session_id, row["nickname"]), session_of(row)

    def answers(self, session_id: int, student_id: int | None = None) -> list[Answer]:
        """The session's answers (or one student's), oldest first."""
        query = select(answers).where(answers.c.session_id == session_id)
        if student_id is not None:
            query = query.where(answers.c.student_id == student_id)
        with self.engine.connect() as connection:
            rows = connection.execute(query.order_by(answers.c.at, answers.c.answer_id)).mappings().all()
        return [answer_of(row) for row in rows]

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


__all__ = ["Answer", "Session", "Store", "Student", "TriesUsed", "database_url", "digest", "fold"]
