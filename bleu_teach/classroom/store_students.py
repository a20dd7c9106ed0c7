"""The store's students and roster: joining a session, the roster a session is joined from, a student's token
read back, and a student taken out of the class.

A student's token is kept as its SHA-256 digest only (their browser keeps the
token). A nickname is unique in its session, read without case or how an accent
is encoded (:func:`~bleu_teach.classroom.schema.fold`), and a nickname of one's
own may not read like another on the dashboard either
(:func:`~bleu_teach.classroom.schema.look_alike`: Cyrillic а for a, an accent
left off); a session with a roster (a homework's, or a live session's made
with ``class new --roster``) is joined only under a name of the roster, each
name once, unless the teacher lets it in again
(:meth:`StudentRecords.reopen`). A roster name is found by its fold, or
else by its matching key
(:func:`~bleu_teach.classroom.name_keys.name_key`: an accent left off, another
apostrophe, the names in another order) when no other roster name of the
session has that key. A student the teacher removes keeps their answers in the
export, renamed so that the name is free again.

A roster name with a personal link (:mod:`~bleu_teach.classroom.store_links`)
joins by its link, not by its name typed, unless the teacher lets it in again.
A student may be in on several devices (by a personal link, or a platform's
launch: :func:`add_device`), :data:`DEVICES` at most, the oldest forgotten:
the oldest one's token is kept in ``students``, the others' in ``devices``,
which is read only for a token that ``students`` does not hold (every
answer's lookup stays one indexed read). A student who is let in again on a
new device, or put out on every device, keeps no other device.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from typing import Any

from sqlalchemy import bindparam, delete, func, select
from sqlalchemy.exc import IntegrityError

from bleu_teach.classroom.name_keys import alike_names, name_key
from bleu_teach.classroom.schema import (
    MAX_NAME,
    MAX_NICKNAME,
    Session,
    Student,
    bounded,
    devices,
    digest,
    fold,
    look_alike,
    now,
    record_id,
    roster,
    session_of,
    sessions,
    students,
)
from bleu_teach.classroom.store_base import Records, notifies, session_arg, session_of_arg
from bleu_teach.inputs.typed_text import code_point


def named_by(connection: Any, session_id: int, column: Any, value: str) -> str | None:
    """The nickname of a student of the session whose ``column`` (``students.c.folded`` or ``.alike``) is
    ``value`` (one indexed read), or None."""
    found = connection.execute(
        select(students.c.nickname).where(students.c.session_id == session_id, column == value).limit(1)
    ).scalar()
    return None if found is None else str(found)


def add_student(connection: Any, session_id: int, nickname: str, token: str) -> int:
    """A new student row (its name as compared and as read kept beside it, its token as a digest); its number."""
    return int(
        connection.execute(
            students.insert().values(
                session_id=session_id,
                nickname=nickname,
                folded=fold(nickname),
                alike=look_alike(nickname),
                token_digest=digest(token),
                joined=now(),
            )
        ).inserted_primary_key[0]
    )


#: The devices a student is in on at most, all told: a newer one (by a personal link or a platform's launch) makes the
#: oldest forgotten, whichever it is, so that a link that leaked cannot grow the table.
DEVICES = 5
#: Of them, those kept in ``devices``: all but the one in ``students.token_digest``.
MORE_DEVICES = DEVICES - 1
#: How a first device's slot no one holds begins (``students.token_digest``; a digest is 64 hexadecimal digits).
_OUT = "out-"


def out_token() -> str:
    """What ``students.token_digest`` holds once the student's first device is put out: no token's digest (a digest
    is hexadecimal, this is not: :func:`add_device` sees the slot is free), unique as the column must be."""
    return _OUT + secrets.token_hex(30)


def add_device(connection: Any, student_id: int, session_id: int, token: str) -> None:
    """One more device of the student (its token's digest); they stay in on the newest :data:`DEVICES`, and the
    oldest is forgotten, in whichever slot it is.

    The first slot (``students.token_digest``) always holds the oldest device in: it is set when a student is made,
    let in again (:meth:`StudentRecords.join` after ``reopen``) or put out (:func:`out_token`), each time with no
    other device left, and every other device came later. So forgetting the oldest is moving the oldest of the
    others (``devices``, by ``added``) into the first slot; and a first slot no one holds (a lost sheet's new link)
    is filled first, the same way, so that a student put out is in again on :data:`DEVICES` devices."""
    mine = digest(token)
    first = connection.execute(select(students.c.token_digest).where(students.c.id == student_id)).scalar()
    others = connection.execute(
        select(devices.c.token_digest)
        .where(devices.c.student_id == student_id)
        .order_by(devices.c.added, devices.c.token_digest)
    ).all()
    if str(first).startswith(_OUT) or len(others) >= MORE_DEVICES:  # the first slot is free, or it goes
        if not others:  # nothing older than this device: it is the first
            connection.execute(students.update().where(students.c.id == student_id).values(token_digest=mine))
            return
        oldest = others[0].token_digest
        connection.execute(delete(devices).where(devices.c.token_digest == oldest))
        connection.execute(students.update().where(students.c.id == student_id).values(token_digest=oldest))
        others = others[1:]
    connection.execute(
        devices.insert().values(token_digest=mine, student_id=student_id, session_id=session_id, added=now())
    )
    forgotten = [row.token_digest for row in others[: max(0, len(others) + 1 - MORE_DEVICES)]]
    if forgotten:  # more than the table keeps (never, but for rows an earlier version left)
        connection.execute(delete(devices).where(devices.c.token_digest.in_(forgotten)))


def listed_as(connection: Any, session_id: int, typed: str) -> tuple[Any, bool]:
    """The session's roster row (its name, folded, student_id and reopened) that the typed name ``typed`` names,
    or None; and whether ``typed`` was written like several roster names (then it names none of them).

    The row whose name folds as ``typed`` does (:func:`~bleu_teach.classroom.schema.fold`); else the row whose
    matching key (:func:`~bleu_teach.classroom.name_keys.name_key`) is ``typed``'s, if it is the only one of the
    session with that key: names that share a key are matched only as listed."""
    columns = (roster.c.name, roster.c.folded, roster.c.student_id, roster.c.reopened, roster.c.link_digest)
    exact = connection.execute(
        select(*columns).where(roster.c.session_id == session_id, roster.c.folded == fold(typed))
    ).first()
    if exact is not None:
        return exact, False
    alike = connection.execute(
        select(*columns).where(roster.c.session_id == session_id, roster.c.matched == name_key(typed)).limit(2)
    ).all()
    return (alike[0], False) if len(alike) == 1 else (None, len(alike) > 1)


#: How a removed student's nickname ends in the records (no student may join under such a name).
REMOVED_NAME = re.compile(r"\(removed \d+\)$")


def _differences(name: str, other: str) -> str:
    """The characters that make two look-alike names different, said by their code points (at most three)."""
    odd = [c for c in dict.fromkeys(name + other) if (c in name) != (c in other) and not c.isspace()]
    named = [code_point(c) for c in odd if not (c.isascii() and c.isalnum())] or [code_point(c) for c in odd]
    return f" ({', '.join(named[:3])} read as another character)" if named else ""


class StudentRecords(Records):
    """The students' and the roster's methods of :class:`~bleu_teach.classroom.store.Store`."""

    @notifies(session_of_arg)
    def join(self, session: Session, nickname: str) -> tuple[Student, str]:
        """A new student in an open session, and their token (kept by their browser; only its digest here)."""
        nickname = unicodedata.normalize("NFC", bounded(nickname, "nickname", MAX_NAME, person=True))
        if REMOVED_NAME.search(nickname):
            raise ValueError(
                'nickname: names ending in "(removed N)" are kept for students the teacher removed; choose another.'
            )
        if not session.open:
            raise ValueError("This session is closed: ask your teacher for a new code.")
        token = secrets.token_urlsafe(24)

        def write(connection: Any) -> tuple[Student, str]:
            nonlocal nickname
            listed = connection.execute(
                select(func.count()).select_from(roster).where(roster.c.session_id == session.id)
            ).scalar()
            named, alike = listed_as(connection, session.id, nickname) if listed else (None, False)
            this = "this homework" if session.kind == "homework" else "this class"  # a live session's roster too
            if listed and named is None and alike:  # written like two names of the list: neither is guessed
                raise ValueError(
                    f"nickname: for {this}, type your name exactly as your teacher's list has it: its accents, its "
                    "apostrophes and its names in the list's order."
                )
            if listed and named is None:  # the names of the list are not said to someone who is not on it
                raise ValueError(
                    f"nickname: for {this}, type your name as your teacher's list has it (accents, apostrophes and "
                    "the order of your names may differ); if it is still not found, ask your teacher how the list "
                    "spells it."
                )
            if not listed and len(nickname) > MAX_NICKNAME:  # a roster's name may be longer (MAX_NAME)
                raise ValueError(
                    f"nickname: at most {MAX_NICKNAME} characters (this one has {len(nickname)}); shorten it."
                )
            if named is not None and named.link_digest is not None and not named.reopened:
                # The link is the name's: a classmate who types the name does not become its student.
                raise ValueError(
                    f"{named.name!r} joins with their personal link (on their worksheet, or from the teacher); if it "
                    "is lost, ask your teacher for a new one."
                )
            if named is not None and named.student_id is not None and named.reopened:
                # Let in again by the teacher (a new device, a lost cookie): the same student, a new token; the
                # devices it was in on before are out.
                connection.execute(
                    students.update().where(students.c.id == named.student_id).values(token_digest=digest(token))
                )
                connection.execute(delete(devices).where(devices.c.student_id == named.student_id))
                connection.execute(
                    roster.update()
                    .where(roster.c.session_id == session.id, roster.c.folded == named.folded)
                    .values(reopened=False)
                )
                return Student(named.student_id, session.id, named.name), token
            if named is not None and named.student_id is not None:
                raise ValueError(
                    f"{named.name!r} has already joined; if that was not you, tell your teacher "
                    "(who can let you join again)."
                )
            if named is not None:
                nickname = named.name
            same = named_by(connection, session.id, students.c.folded, fold(nickname))
            if same is not None:
                raise ValueError(
                    f"Someone in this session is already called “{same}” (a name is the same whatever its "
                    "case, width or invisible marks): choose another nickname."
                )
            if not listed:  # a nickname of one's own: none that reads like another's on the dashboard
                other = named_by(connection, session.id, students.c.alike, look_alike(nickname))
                if other is not None:
                    raise ValueError(
                        f"nickname: “{nickname}” reads like “{other}”, who is already in this session"
                        f"{_differences(nickname, other)}: choose another nickname."
                    )
            student_id = add_student(connection, session.id, nickname, token)
            if named is not None:
                claimed = connection.execute(
                    roster.update()
                    .where(
                        roster.c.session_id == session.id,
                        roster.c.folded == named.folded,
                        roster.c.student_id.is_(None),
                    )
                    .values(student_id=student_id, student_removed=False)
                ).rowcount
                if claimed != 1:  # someone claimed the name meanwhile: undo this join
                    raise ValueError(f"{named.name!r} has already joined; if that was not you, tell your teacher.")
            return Student(student_id, session.id, nickname), token

        try:
            return self._write(write)  # committed with the joins that arrived meanwhile
        except IntegrityError:
            raise ValueError(
                f"Someone in this session is already called “{nickname}”: choose another nickname."
            ) from None

    @notifies(session_arg)
    def set_roster(self, session_id: int, names: list[tuple[str, str]]) -> list[list[str]]:
        """The names (with their platform identifiers) that may join this session, each once; the groups of names
        written alike (:func:`~bleu_teach.classroom.name_keys.alike_names`), whose students are found only by their
        name as listed (the caller says so to the teacher)."""
        kept = []
        with self._begin() as connection:
            connection.execute(delete(roster).where(roster.c.session_id == session_id))
            for position, (name, identifier) in enumerate(names):
                if len(identifier) > 200:  # cut, it would no longer be the platform's identifiers (JSON)
                    raise ValueError(
                        f"roster: the identifiers of {name[:40]!r} are {len(identifier)} characters "
                        "long, more than the 200 kept; shorten the roster's identifier columns."
                    )
                kept.append(bounded(name, "name", MAX_NAME, person=True))
                connection.execute(
                    roster.insert().values(
                        session_id=session_id,
                        name=kept[-1],
                        folded=fold(name),
                        matched=name_key(name),
                        identifier=identifier,
                        position=position,
                    )
                )
        return alike_names(kept)

    @notifies(session_arg)
    def reopen(self, session_id: int, name: str) -> bool:
        """Let a roster name that has joined join once more (its answers stay its own); whether the name is there
        (found as a join finds it, :func:`listed_as`). The browser that joined before stops being that student at
        the next join."""
        with self._begin() as connection:
            named, _ = listed_as(connection, session_id, str(name)[:MAX_NAME])
            if named is None:
                return False
            return bool(
                connection.execute(
                    roster.update()
                    .where(roster.c.session_id == session_id, roster.c.folded == named.folded)
                    .values(reopened=True)
                ).rowcount
            )

    def roster_names(self, session_id: int) -> list[tuple[str, str, int | None]]:
        """The session's roster: (name, identifier, the student who joined as it or None), in the roster's order."""
        with self.reading.connect() as connection:
            rows = connection.execute(
                select(roster.c.name, roster.c.identifier, roster.c.student_id)
                .where(roster.c.session_id == session_id)
                .order_by(roster.c.position)
            ).all()
        return [(row.name, row.identifier, row.student_id) for row in rows]

    def roster_removed(self, session_id: int) -> set[str]:
        """The session's roster names whose student the teacher took out, no one having joined as them since."""
        with self.reading.connect() as connection:
            return set(
                connection.execute(
                    select(roster.c.name).where(roster.c.session_id == session_id, roster.c.student_removed)
                ).scalars()
            )

    def student(self, session_id: int, token: str) -> Student | None:
        """The student whose token this is (of any of their devices), in this session; None for any other token."""
        found = self.student_and_session(session_id, token)
        return None if found is None else found[0]

    def roster(self, session_id: int, removed: bool = False) -> list[Student]:
        """The session's students in the order they joined; with ``removed``, only those the teacher removed."""
        chosen = students.c.removed.is_not(None) if removed else students.c.removed.is_(None)
        with self.reading.connect() as connection:
            rows = (
                connection.execute(
                    select(students).where(students.c.session_id == session_id, chosen).order_by(students.c.id)
                )
                .mappings()
                .all()
            )
        return [Student(row["id"], row["session_id"], row["nickname"]) for row in rows]

    def roster_changes(self, session_id: int) -> tuple[int, int]:
        """How many students have joined the session and how many of them were removed: one changes whenever
        :meth:`roster` would (students are never deleted but with their session, a removal is never undone)."""
        with self.reading.connect() as connection:
            row = connection.execute(_ROSTER_CHANGES, {"session": session_id}).one()
        return int(row[0]), int(row[1])

    @notifies(session_arg)
    def remove_student(self, session_id: int, student_id: int) -> bool:
        """Take a student out of the class (a fake or a duplicate): they are out on every device, the personal link
        they joined by (if any) lets no one in again until the teacher makes a new one, and their answers leave the
        counts and stay in the export, marked. Whether there was such a student to remove."""
        student_id = record_id(student_id, "student")
        with self._begin() as connection:
            nickname = connection.execute(
                select(students.c.nickname).where(
                    students.c.session_id == session_id, students.c.id == student_id, students.c.removed.is_(None)
                )
            ).scalar()
            if nickname is None:
                return False
            connection.execute(delete(devices).where(devices.c.student_id == student_id))  # out on every device
            # The name is free again (the student a fake pretended to be can join under it); the export keeps it.
            renamed = f"{nickname[: MAX_NICKNAME - 22]} (removed {student_id})"  # fits: an id has at most 10 digits
            connection.execute(
                students.update()
                .where(students.c.id == student_id)
                .values(removed=now(), nickname=renamed, folded=fold(renamed), alike=look_alike(renamed))
            )
            connection.execute(
                roster.update()
                .where(roster.c.session_id == session_id, roster.c.student_id == student_id)
                # Its link lets no one in again; the roster says "removed" until someone joins as the name.
                .values(student_id=None, reopened=False, link_removed=True, student_removed=True)
            )
        return True

    def student_and_session(self, session_id: int, token: str) -> tuple[Student, Session] | None:
        """The student whose token this is and their session, in one query (two for a token of a device other
        than their first, ``devices``); None for any other token, and for a student the teacher removed."""
        given = {"digest": digest(str(token)), "session": session_id}
        with self.reading.connect() as connection:
            row = (
                connection.execute(_BY_FIRST_DEVICE, given).mappings().first()
                or connection.execute(_BY_OTHER_DEVICE, given).mappings().first()
            )
        if row is None:
            return None
        return Student(row["student_id"], session_id, row["nickname"]), session_of(row)


# The queries of student_and_session, which every request of a student makes: made once, with their parameters as
# bind parameters (made at each call, they were a fifth of a worker's time under 1,000 students: SQLAlchemy builds
# a new statement's cache key at each use, a statement made once keeps it).
_STUDENT_COLUMNS = (students.c.id.label("student_id"), students.c.nickname, *sessions.c)
_BY_FIRST_DEVICE = (
    select(*_STUDENT_COLUMNS)
    .join(sessions, sessions.c.id == students.c.session_id)
    .where(
        students.c.token_digest == bindparam("digest"),
        students.c.session_id == bindparam("session"),
        students.c.removed.is_(None),
    )
)
_BY_OTHER_DEVICE = (
    select(*_STUDENT_COLUMNS)
    .select_from(devices)
    .join(students, students.c.id == devices.c.student_id)
    .join(sessions, sessions.c.id == students.c.session_id)
    .where(
        devices.c.token_digest == bindparam("digest"),
        students.c.session_id == bindparam("session"),
        students.c.removed.is_(None),
    )
)
_ROSTER_CHANGES = select(func.count(), func.count(students.c.removed)).where(
    students.c.session_id == bindparam("session")
)
