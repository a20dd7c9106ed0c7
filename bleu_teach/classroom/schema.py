"""The classroom database's schema and the records read from it: the tables, and how a moment and a typed text are
kept.

:mod:`bleu_teach.classroom.store` reads and writes these tables; this module is what the tables are
(:mod:`~bleu_teach.classroom.store_migrate` brings any database up to them, with Alembic's revisions).
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.types import TypeDecorator

from bleu_teach.exercises.roster import NAME_CHARACTERS
from bleu_teach.inputs.typed_text import character_problem, draws_nothing

#: Join codes: letters and digits a projector shows and a phone keyboard types without confusion (no 0/O, 1/I/L).
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6  # 31^6, about 8.9e8 codes: with the server's rate limits, not worth guessing
#: Bounds on what a person types (the server refuses longer, with a message).
MAX_TITLE = 120
MAX_NICKNAME = 40
#: A roster's names may be longer than a nickname: as long as the worksheets take them (one limit for both).
MAX_NAME = NAME_CHARACTERS
MAX_ANSWER = 200
MAX_MISTAKE = 120
ANSWER_ID_LENGTH = 36  # a UUID as text
VERDICTS = ("correct", "misconception", "wrong")
#: The mistake named for an answer the checker could not read (not a number, not one of the options): it uses no
#: homework try.
NOT_AN_ANSWER = "not an answer"
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
    "sessions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(CODE_LENGTH), nullable=False, unique=True),
    Column("teacher_digest", String(64), nullable=False),
    Column("title", String(MAX_TITLE), nullable=False),
    Column("kind", String(10), nullable=False),  # "live" (in the room) or "homework"
    Column("created", UtcDateTime(), nullable=False),
    Column("due", UtcDateTime()),
    Column("closed", UtcDateTime()),
    Column("tries", Integer),  # a homework's tries per question (None: DEFAULT_TRIES)
    # A homework's late policy (classroom.grading): "accept", "refuse" or "penalty:N" (N percent off a late answer).
    Column("late", String(12), nullable=False, server_default="accept"),
    Column("projector_digest", String(64)),  # the projector link's token, as a digest (None: no link)
    sqlite_autoincrement=True,  # a deleted session's number is never given again (PostgreSQL: its sequence)
)

students = Table(
    "students",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("nickname", String(MAX_NAME), nullable=False),  # a roster's name; a nickname of its own MAX_NICKNAME
    Column("token_digest", String(64), nullable=False, unique=True),
    Column("joined", UtcDateTime(), nullable=False),
    Column("removed", UtcDateTime()),  # when the teacher removed them: out of the counts, kept in the export
    # The nickname as compared (fold) and as the eye reads it (look_alike), kept so that a join finds a clash with
    # one indexed read: comparing with every name in Python held the writer 4 ms per join at 1,000 students.
    # (Their default is there for the upgrade, which adds them in place: every join writes both.)
    Column("folded", Text, nullable=False, server_default=""),
    Column("alike", Text, nullable=False, server_default=""),
    UniqueConstraint("session_id", "nickname"),
    Index("students_folded", "session_id", "folded"),
    Index("students_alike", "session_id", "alike"),
)

answers = Table(
    "answers",
    metadata,
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

#: Polls: a question put to the room (a bank exercise, a new variant of one, or the presenter's own), round by round.
polls = Table(
    "polls",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("question", Text, nullable=False),  # a variant's, with its sentences, may pass 400 characters
    Column("options", String(2000), nullable=False),  # JSON: [[letter, text], ...]
    Column("exercise", String(16), nullable=False),  # the bank exercise asked, "" for the presenter's own
    Column("round", Integer, nullable=False),  # 1, then 2 after discussion (peer instruction)
    Column("first_round", Integer),  # round 2's round 1
    Column("state", String(10), nullable=False),  # "open", "closed" (votes counted, histogram shown)
    Column("opened", UtcDateTime(), nullable=False),
    Column("answer", String(8), nullable=False, server_default=""),  # a variant's right letter ("": the bank's)
    Column("revealed", Boolean, nullable=False, server_default=false()),  # the teacher shows the right answer
    sqlite_autoincrement=True,  # a poll's number (polls.csv, course.json) is never given again
)

votes = Table(
    "votes",
    metadata,
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
    "roster",
    metadata,
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(MAX_NAME), nullable=False),
    Column("folded", Text, nullable=False),  # the name as compared: case and spaces folded (NFKC may lengthen it)
    Column("identifier", String(200), nullable=False),
    Column("position", Integer, nullable=False),
    Column("student_id", Integer, ForeignKey("students.id", ondelete="SET NULL")),
    Column("reopened", Boolean, nullable=False, default=False),  # the teacher let this name join again
    # The name's matching key (classroom.name_keys): accents, apostrophes, hyphens and the order of the names set
    # aside, for a join whose typed name folds as no roster name does. (Its default is there for the upgrade.)
    Column("matched", Text, nullable=False, server_default=""),
    # The name's personal join link (class links): its token as a digest, None while it has none; ``link_removed``:
    # the teacher took out the student who joined by it, and the link says so rather than letting them in again.
    Column("link_digest", String(64)),
    Column("link_removed", Boolean, nullable=False, server_default=false()),
    # The teacher took out the student who joined as this name, and no one has joined as it since: the dashboard's
    # roster and the gradebook file say "removed" rather than "not yet" (cleared when a student takes the name).
    Column("student_removed", Boolean, nullable=False, server_default=false()),
    PrimaryKeyConstraint("session_id", "folded"),
    Index("roster_matched", "session_id", "matched"),
    Index("roster_link", "link_digest", unique=True),
)

#: The devices a student is in on besides their first (whose token is ``students.token_digest``): each one's token,
#: as a digest, added when their personal link is opened there; a few per student, the oldest forgotten.
devices = Table(
    "devices",
    metadata,
    Column("token_digest", String(64), primary_key=True),
    Column("student_id", Integer, ForeignKey("students.id", ondelete="CASCADE"), nullable=False),
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("added", UtcDateTime(), nullable=False),
    Index("devices_student", "student_id"),
)

#: A homework's extensions: a student (their roster name, or the nickname they joined under) may answer until
#: ``until`` instead of the due time; ``finished``: their final score was queued for the platform (AGS) at that time.
extensions = Table(
    "extensions",
    metadata,
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("folded", Text, nullable=False),  # the name as compared (fold), as students.folded and roster.folded
    Column("name", String(MAX_NAME), nullable=False),
    Column("until", UtcDateTime(), nullable=False),
    Column("finished", Boolean, nullable=False),
    PrimaryKeyConstraint("session_id", "folded"),
)

#: A homework session's variants, drawn on the server when it is made: the students get them in turn. The right
#: answers are computed from these on the server and never sent.
homework_variants = Table(
    "homework_variants",
    metadata,
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("exercise", String(16), nullable=False),
    Column("number", Integer, nullable=False),
    Column("inputs", Text, nullable=False),  # JSON
    Column("question", Text, nullable=False),
    PrimaryKeyConstraint("session_id", "exercise", "number"),
)

#: The rate limits' counters on PostgreSQL, where every worker process counts in the same place: how many events a
#: key (a limit's name and what it counts: an address, a student, a session) had in one window of its limit
#: (``slot``: the window's number since the epoch), and when the counter can be forgotten.
rate_counts = Table(
    "rate_counts",
    metadata,
    Column("key", String(200), nullable=False),
    Column("slot", BigInteger, nullable=False),
    Column("count", Integer, nullable=False),
    Column("expires", Float, nullable=False),  # seconds since the epoch
    PrimaryKeyConstraint("key", "slot"),
)


# --- LTI 1.3: the learning platforms that launch this tool, and what their launches left (classroom.lti) --------

#: A platform as its administrator registered it (class lti add): its issuer and this tool's client id there, and
#: its endpoints.
lti_platforms = Table(
    "lti_platforms",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("issuer", String(255), nullable=False),
    Column("client_id", String(255), nullable=False),
    Column("login_url", String(1000), nullable=False),
    Column("token_url", String(1000), nullable=False),
    Column("jwks_url", String(1000), nullable=False),
    Column("created", UtcDateTime(), nullable=False),
    UniqueConstraint("issuer", "client_id"),
    sqlite_autoincrement=True,  # a removed platform's number (class lti list, remove) is never given again
)

#: The deployments of this tool on a platform that may launch it.
lti_deployments = Table(
    "lti_deployments",
    metadata,
    Column("platform_id", Integer, ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
    Column("deployment_id", String(255), nullable=False),
    PrimaryKeyConstraint("platform_id", "deployment_id"),
)

#: The tool's own RSA keys (a private JWK each): the newest signs; one retired stays published for a while, so
#: that a platform holding an assertion it signed can still check it.
lti_keys = Table(
    "lti_keys",
    metadata,
    Column("kid", String(64), primary_key=True),
    Column("private_jwk", Text, nullable=False),
    Column("created", UtcDateTime(), nullable=False),
    Column("retired", UtcDateTime()),
)

#: Logins waiting for their launch (OIDC third-party login): each state once, with the nonce it gave.
lti_states = Table(
    "lti_states",
    metadata,
    Column("state", String(64), primary_key=True),  # its digest
    Column("nonce", String(64), nullable=False),
    Column("browser", String(64), nullable=False),  # the digest of the cookie the login left in its browser
    Column("platform_id", Integer, ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
    Column("created", UtcDateTime(), nullable=False),
)

#: The nonces of the launches taken (a replayed id_token is refused), kept until their token could not be used.
lti_nonces = Table(
    "lti_nonces",
    metadata,
    Column("platform_id", Integer, ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
    Column("nonce", String(255), nullable=False),
    Column("expires", UtcDateTime(), nullable=False),
    PrimaryKeyConstraint("platform_id", "nonce"),
)

#: A platform's link (a resource link in a course) and the session it opens, with its grade column (AGS).
lti_links = Table(
    "lti_links",
    metadata,
    Column("platform_id", Integer, ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
    Column("resource_link_id", String(255), nullable=False),
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("context_id", String(255), nullable=False),
    Column("line_item_url", String(1000), nullable=False),  # "" until known
    Column("finished", Boolean, nullable=False),  # the homework's final scores were queued at its due time
    PrimaryKeyConstraint("platform_id", "resource_link_id"),
)

#: Sessions a course's teacher chose for their course through deep linking: a link that names one of them (its
#: custom ``session`` parameter) opens it; a link that names any other session is refused.
lti_offers = Table(
    "lti_offers",
    metadata,
    Column("platform_id", Integer, ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
    Column("context_id", String(255), nullable=False),
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    PrimaryKeyConstraint("platform_id", "context_id", "session_id"),
)

#: Who a session's student is on the platform (its stable "sub"): their launches find the same student again.
lti_users = Table(
    "lti_users",
    metadata,
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("platform_id", Integer, ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
    Column("subject", String(255), nullable=False),
    Column("student_id", Integer, ForeignKey("students.id", ondelete="CASCADE"), nullable=False),
    Column("context_id", String(255), nullable=False),  # the course they launched from (its grade column's)
    PrimaryKeyConstraint("session_id", "platform_id", "subject"),
)

#: Scores waiting to be posted to a platform's grade column (AGS 2.0 §3.4), and those posted: an outbox, so that a
#: platform that is down or refuses gets the score later and nothing is lost. ``next_try`` is also how one worker
#: claims a score to send (several workers on PostgreSQL).
lti_scores = Table(
    "lti_scores",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("platform_id", Integer, ForeignKey("lti_platforms.id", ondelete="CASCADE"), nullable=False),
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("line_item_url", String(1000), nullable=False),
    Column("subject", String(255), nullable=False),
    Column("body", Text, nullable=False),  # the score as JSON (AGS 2.0 §3.4.1)
    Column("created", UtcDateTime(), nullable=False),
    Column("next_try", UtcDateTime(), nullable=False),
    Column("tries", Integer, nullable=False),
    Column("sent", UtcDateTime()),
    Column("problem", String(300), nullable=False),  # the last failure, "" when none
    Index("lti_scores_waiting", "sent", "next_try"),
)

#: Teachers let in by a platform's launch: a secret of their own per launch (its digest), which opens the session's
#: dashboard as its teacher link does.
lti_teachers = Table(
    "lti_teachers",
    metadata,
    Column("session_id", Integer, ForeignKey("sessions.id", ondelete="CASCADE"), nullable=False),
    Column("digest", String(64), nullable=False),
    Column("created", UtcDateTime(), nullable=False),
    PrimaryKeyConstraint("session_id", "digest"),
)


def fold(name: str) -> str:
    """A name as names are compared: case, runs of spaces, how an accent is encoded, direction marks and
    zero-width non-joiners (which a phone's keyboard may or may not type) do not matter."""
    return " ".join(unicodedata.normalize("NFKC", name).translate(_UNCOMPARED).split()).casefold()


_UNCOMPARED = dict.fromkeys(map(ord, "\u200e\u200f\u200c"))


@lru_cache(maxsize=8192)
def _prototype(character: str) -> str:
    """What ``character`` reads as, by Unicode's confusables (UTS #39's table, as confusable-homoglyphs lists it):
    a character the table maps to one other (Cyrillic а to a, I and 1 to l, m to rn) is read as that one, until
    one that is read as itself; a character many others map to (a, l, o) is itself."""
    from confusable_homoglyphs import confusables

    seen = {character}
    while True:
        found = confusables.is_confusable(character, greedy=True, preferred_aliases=[]) or []
        targets = [glyph["c"] for item in found for glyph in item["homoglyphs"]]
        if len(targets) != 1 or targets[0] in seen or not targets[0].strip("\u200e\u200f"):
            return character
        character = targets[0].strip("\u200e\u200f")
        seen.add(character)


@lru_cache(maxsize=4096)
def look_alike(name: str) -> str:
    """A nickname as the eye reads it on a dashboard (UTS #39's skeleton, kept to what a room sees): width and
    compatibility forms folded (NFKC: fullwidth and mathematical letters), characters that show nothing dropped,
    every character read as its prototype in Unicode's confusables (:func:`_prototype`), then case folded. Accents
    stay: Zoë is not Zoe, Lê is not Le. Two nicknames that read the same cannot share a session.

    >>> look_alike("alice") == look_alike("\u0430lice") == look_alike("aIice") == look_alike("\uff41lice")
    True
    >>> look_alike("marie") == look_alike("rnarie"), look_alike("\u674e\ufe00\u96f7") == look_alike("\u674e\u96f7")
    (True, True)
    >>> look_alike("Zo\u00eb") == look_alike("Zoe"), look_alike("Иван") == look_alike("Ivan")
    (False, False)
    """
    text = unicodedata.normalize("NFKC", name)
    shown = "".join(c for c in text if not draws_nothing(c))  # direction marks and joiners among them
    read = "".join(_prototype(c) for c in unicodedata.normalize("NFD", " ".join(shown.split())))
    return unicodedata.normalize("NFC", read.casefold())


def digest(secret: str) -> str:
    """The SHA-256 of a secret, as kept in the store."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def now() -> datetime:
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
    late: str = "accept"  # a homework's late policy: "accept", "refuse" or "penalty:N" (classroom.grading)

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


def bounded(value: Any, name: str, most: int, empty: bool = False, one_line: bool = False, person: bool = False) -> str:
    """Text a person typed, checked once for every table: trimmed (``one_line``: every run of spaces, tabs and
    line breaks made one space), at most ``most`` characters, with no control characters (NUL among them, which
    PostgreSQL refuses), no half of a surrogate pair (not text in any encoding) and no direction override
    (:func:`~bleu_teach.inputs.typed_text.character_problem`; ``person=True`` for a person's name, held to its
    rule for invisible characters). A refusal names the rule and the character's code point."""
    if not isinstance(value, str):
        raise TypeError(f"{name}: give text, not {type(value).__name__}.")
    text = " ".join(value.split()) if one_line else value.strip()
    if not text and not empty:
        raise ValueError(f"{name}: it is empty; type one.")
    if len(text) > most:
        raise ValueError(f"{name}: at most {most} characters (this one has {len(text)}); shorten it.")
    problem = character_problem(text, name=person)  # control characters, surrogates, direction overrides
    if problem:
        raise ValueError(f"{name}: it {problem}; type it again without it.")
    return text


def record_id(value: Any, name: str) -> int:
    """A record's number from a request: a whole number from 1 to :data:`MAX_ID` (a larger one names nothing)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ID:
        raise ValueError(f"{name}: reload the page.")
    return value


def session_of(row: Any) -> Session:
    return Session(
        row["id"],
        row["code"],
        row["title"],
        row["kind"],
        row["created"],
        row["due"],
        row["closed"],
        row["tries"] or DEFAULT_TRIES,
        row["late"] or "accept",
    )


def answer_of(row: Any) -> Answer:
    return Answer(
        row["answer_id"],
        row["student_id"],
        row["exercise"],
        row["answer"],
        row["verdict"],
        row["mistake"],
        row["at"],
        bool(row["late"]),
    )
