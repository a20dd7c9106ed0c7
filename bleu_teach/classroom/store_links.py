"""The store's personal join links: a link per roster name, which lets its student in on any device without typing
a name or a code.

A link's token is kept as its SHA-256 digest only (``roster.link_digest``), as a student's token is; making a
name's link again (:meth:`LinkRecords.issue_links`) makes the old one stop working. Opening a link joins as its
roster name when the name has not joined (:meth:`LinkRecords.join_by_link`, under the same rules as a join by a
typed name: an open session, a name no one else in the session has), and otherwise lets the same student in on
one more device: a token of its own, so that the devices already in stay in. A student is in on at most
:data:`~bleu_teach.classroom.store_students.DEVICES` devices, the oldest forgotten, so that a link that leaked
cannot grow the table. A student the teacher removes is out on every device, and their link says so
(``roster.link_removed``) until the teacher makes a new one.

A link is printed on a sheet, and a student may type it: its token is 25 symbols of Crockford's base 32 in lower
case (:data:`LINK_ALPHABET`: digits and letters, none that reads like another, 125 random bits), in five groups
of five joined by hyphens (``7kq2m-...``). Reading one (:func:`link_digests`), case and hyphens do not matter, and
o, i and l are read as 0, 1 and 1, as Crockford's decoding reads them; the digest kept is that of the 25 symbols
alone. A link made before (32 characters of ``secrets.token_urlsafe``, kept as the digest of exactly what was
printed) is still read exactly as it was printed.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from bleu_teach.classroom.schema import (
    MAX_NAME,
    Session,
    Student,
    devices,
    digest,
    fold,
    roster,
    session_of,
    sessions,
    students,
)
from bleu_teach.classroom.store_base import Records, notifies, session_arg
from bleu_teach.classroom.store_students import add_device, add_student, listed_as, named_by, out_token

#: The longest link token read (those made are 29 characters, 32 before); a longer one names no link and is not
#: looked up.
MAX_LINK_TOKEN = 64
#: The characters of a link's token as typed (this version's in either case, and ``secrets.token_urlsafe``'s of the
#: links made before): anything else names no link.
TOKEN_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
#: The symbols of a link's token: Crockford's base 32, in lower case (no i, l, o or u).
LINK_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
#: A token's symbols (5 bits each), and how many are printed together between hyphens.
LINK_SYMBOLS = 25
LINK_GROUP = 5
#: How a typed token's characters are read (Crockford's decoding: a letter typed for the digit it looks like).
_READ_AS = str.maketrans({"o": "0", "i": "1", "l": "1", "-": None})


def new_link_token() -> str:
    """A new link's token: :data:`LINK_SYMBOLS` random symbols of :data:`LINK_ALPHABET`, in groups of
    :data:`LINK_GROUP` joined by hyphens.

    >>> import re
    >>> bool(re.fullmatch(r"[0-9a-hjkmnp-tv-z]{5}(-[0-9a-hjkmnp-tv-z]{5}){4}", new_link_token()))
    True
    """
    symbols = "".join(secrets.choice(LINK_ALPHABET) for _ in range(LINK_SYMBOLS))
    return "-".join(symbols[k : k + LINK_GROUP] for k in range(0, LINK_SYMBOLS, LINK_GROUP))


def _symbols(token: str) -> str | None:
    """A typed token's symbols as they are kept (lower case, no hyphens, o, i and l read as 0, 1 and 1), or None
    when it is not :data:`LINK_SYMBOLS` of them.

    >>> _symbols("7KQ2M-ABCDE-FGHJK-MNPQR-STVWX"), _symbols("7kq2mabcdefghjkmnpqrstvwx")
    ('7kq2mabcdefghjkmnpqrstvwx', '7kq2mabcdefghjkmnpqrstvwx')
    >>> _symbols("Oo1Il-abcde-fghjk-mnpqr-stvwx"), _symbols("abc")
    ('00111abcdefghjkmnpqrstvwx', None)
    """
    read = token.lower().translate(_READ_AS)
    if len(read) != LINK_SYMBOLS or not set(read) <= set(LINK_ALPHABET):
        return None
    return read


def link_digests(token: str) -> tuple[str, ...]:
    """The digests a typed token may be kept as: that of its symbols (a link of this version, read whatever its case
    and hyphens), and that of the token exactly as typed (a link made before, case and all)."""
    symbols = _symbols(token)
    exact = digest(token)
    return (exact,) if symbols is None else (digest(symbols), exact)


@dataclass(frozen=True)
class Link:
    """A roster name's new personal link: the name, its platform identifiers (JSON, as the roster keeps them) and
    the link's token (shown once: only its digest is kept)."""

    name: str
    identifier: str
    token: str


@dataclass(frozen=True)
class Linked:
    """What a personal link opens: its session and roster name, the student who joined as that name (None until
    one has), and whether the teacher took out the student who joined by it (the link then lets no one in)."""

    session: Session
    name: str
    student_id: int | None
    removed: bool


class LinkRefused(LookupError):
    """A token that opens no link of the session: wrong, made again since, or another session's (which of these is
    never said)."""


def link_token(token: Any) -> str | None:
    """``token`` if it could be a link's token (text of at most :data:`MAX_LINK_TOKEN` of its characters), else
    None: nothing else is looked up.

    >>> link_token("Ab-_9"), link_token("A" * 65), link_token("é"), link_token(None)
    ('Ab-_9', None, None, None)
    """
    if not isinstance(token, str) or not 0 < len(token) <= MAX_LINK_TOKEN or not set(token) <= TOKEN_CHARACTERS:
        return None
    return token


def _linked_row(connection: Any, session_id: int, token: str, lock: bool = False) -> Any:
    """The roster row (name, folded, student_id, link_removed) whose link ``token`` is, in the session, with the
    session's columns; None for any other token. ``lock``: the row is locked until the transaction ends
    (PostgreSQL; on SQLite the store's writer holds the database), so that two devices opening the link at once
    join one after the other."""
    query = (
        select(roster.c.name, roster.c.folded, roster.c.student_id, roster.c.link_removed, *sessions.c)
        .select_from(roster)
        .join(sessions, sessions.c.id == roster.c.session_id)
        .where(roster.c.session_id == session_id, roster.c.link_digest.in_(link_digests(token)))
    )
    if lock:
        query = query.with_for_update(of=roster)
    return connection.execute(query).mappings().first()


class LinkRecords(Records):
    """The personal links' methods of :class:`~bleu_teach.classroom.store.Store`."""

    def issue_links(
        self,
        session_id: int,
        name: str | None = None,
        everyone_out: bool = False,
        before_commit: Callable[[list[Link]], None] | None = None,
    ) -> list[Link]:
        """A new personal link for each name of the session's roster, in the roster's order (or, with ``name``, for
        that name alone, found as a join finds it: :func:`~bleu_teach.classroom.store_students.listed_as`). Each
        name's earlier link stops working; the devices its student joined on stay in, unless:

        for one name (a student who lost their sheet, whoever found it), and for every name with ``everyone_out``
        (a links file that leaked), the student is also out on every device they joined on: the new link lets them
        in again as the same student, with their answers.

        ``before_commit(links)`` is called with the new links before they are committed (the teacher's file is
        written then): if it raises, nothing changes and every earlier link still works. ``LookupError`` for a
        session that does not exist; ``ValueError`` for a session without a roster or a name not on it."""
        with self._begin() as connection:
            if connection.execute(select(sessions.c.id).where(sessions.c.id == session_id)).scalar() is None:
                raise LookupError(f"No session {session_id}.")
            rows = connection.execute(
                select(roster.c.name, roster.c.folded, roster.c.identifier, roster.c.student_id)
                .where(roster.c.session_id == session_id)
                .order_by(roster.c.position)
            ).all()
            if not rows:
                raise ValueError(
                    f"session {session_id} has no roster: personal links are made for a roster's names; make the "
                    "session with its roster (class new TITLE --roster CSV, or class homework ... --roster CSV)."
                )
            if name is not None:
                named, alike = listed_as(connection, session_id, str(name)[:MAX_NAME])
                if named is None:
                    raise ValueError(
                        f"name: {str(name)[:60]!r} is written like several names of the roster; give it exactly as the "
                        "roster has it."
                        if alike
                        else f"name: {str(name)[:60]!r} is not on the roster of session {session_id}; give it as the "
                        "roster has it."
                    )
                rows = [row for row in rows if row.folded == named.folded]
            out = name is not None or everyone_out
            links = []
            for row in rows:
                token = new_link_token()
                connection.execute(
                    roster.update()
                    .where(roster.c.session_id == session_id, roster.c.folded == row.folded)
                    .values(link_digest=digest(_symbols(token) or token), link_removed=False)
                )
                links.append(Link(row.name, row.identifier, token))
                if out and row.student_id is not None:  # every device it joined on is out
                    connection.execute(
                        students.update().where(students.c.id == row.student_id).values(token_digest=out_token())
                    )
                    connection.execute(delete(devices).where(devices.c.student_id == row.student_id))
            if before_commit is not None:
                before_commit(links)
        return links

    def linked(self, session_id: int, token: str) -> Linked | None:
        """What the personal link ``token`` opens in the session, or None for a token that opens none there (one
        that could not be a link's is not looked up)."""
        token_or_none = link_token(token)
        if token_or_none is None:
            return None
        with self.reading.connect() as connection:
            row = _linked_row(connection, session_id, token_or_none)
        if row is None:
            return None
        return Linked(session_of(row), row["name"], row["student_id"], bool(row["link_removed"]))

    @notifies(session_arg)
    def join_by_link(self, session_id: int, token: str) -> tuple[Student, str, Session]:
        """Join the session by the personal link ``token``: as its roster name if the name has not joined (as
        :meth:`~bleu_teach.classroom.store_students.StudentRecords.join` joins a listed name), else as the same
        student on one more device. The student, the device's new token (kept by its browser; only its digest
        here) and the session.

        In one transaction, the link's roster row locked first: two devices opening the link at once make one
        student, on two devices. :class:`LinkRefused` for a token that opens no link of the session; ``ValueError``
        for a closed session, a link whose student the teacher took out, or a name someone else joined under."""
        checked = link_token(token)
        if checked is None:
            raise LinkRefused("no such link")
        device = secrets.token_urlsafe(24)  # kept in a cookie, never typed

        def write(connection: Any) -> tuple[Student, str, Session]:
            row = _linked_row(connection, session_id, checked, lock=True)
            if row is None:
                raise LinkRefused("no such link")
            session = session_of(row)
            if not session.open:
                raise ValueError(f"“{session.title}” is closed: it takes no one in any more; ask your teacher.")
            if row["link_removed"]:
                raise ValueError(
                    f"Your teacher took the student who joined by this link out of “{session.title}”; ask your "
                    "teacher for a new link."
                )
            name, joined = row["name"], row["student_id"]
            if joined is None:  # the name's first device: its student is made, as a join by the name makes it
                same = named_by(connection, session_id, students.c.folded, fold(name))
                if same is not None:
                    raise ValueError(
                        f"Someone in “{session.title}” already joined under the name “{same}”; tell your teacher."
                    )
                student_id = add_student(connection, session_id, name, device)
                claimed = connection.execute(
                    roster.update()
                    .where(
                        roster.c.session_id == session_id,
                        roster.c.folded == row["folded"],
                        roster.c.student_id.is_(None),
                    )
                    .values(student_id=student_id, student_removed=False)
                ).rowcount
                if claimed != 1:  # cannot happen while the row is locked; never two students of one name
                    raise ValueError(f"{name!r} joined at this same moment; open your link again.")
                return Student(student_id, session_id, name), device, session
            nickname = connection.execute(
                select(students.c.nickname).where(students.c.id == joined, students.c.removed.is_(None))
            ).scalar()
            if nickname is None:  # a removed student frees the row (link_removed): not reached
                raise LinkRefused("no such link")
            add_device(connection, joined, session_id, device)
            return Student(joined, session_id, str(nickname)), device, session

        try:
            return self._write(write, alone=True)  # alone on PostgreSQL: it locks the link's row
        except IntegrityError:  # a typed join took the name at this same moment (PostgreSQL's unique nickname)
            raise ValueError("Someone joined under this name at this same moment; tell your teacher.") from None
