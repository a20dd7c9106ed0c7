"""The classroom server's settings in one place: each with its default, the environment variables that set them,
and where the records are when no database is named.

:meth:`Settings.from_environment` reads the environment (``BLEU_TEACH_DATABASE``, ``BLEU_TEACH_TEACHER_TOKEN``,
``BLEU_TEACH_SITE``); :meth:`Settings.environment` writes the same variables for the workers ``class serve
--workers N`` starts, each of which makes its app from them (:func:`~bleu_teach.classroom.app.from_environment`).
The command line (:mod:`~bleu_teach.ui.classroom_command`) takes its defaults from here (the address and port to
listen on, the workers, the database), and the app its rate limits (:class:`Limits`).

Standard library only (platformdirs is imported when the default database's place is asked for): the command
line reads it before it knows whether the classroom's libraries are installed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The environment variable that may name the database (a file's path or a postgresql:// URL).
DATABASE_VARIABLE = "BLEU_TEACH_DATABASE"
#: The environment variable that may hold the teacher token (so that a service manager can set it).
TOKEN_VARIABLE = "BLEU_TEACH_TEACHER_TOKEN"
#: The environment variable that names the course website served beside the classroom (for the workers).
SITE_VARIABLE = "BLEU_TEACH_SITE"
#: The file earlier versions kept the records in, in whatever folder a command ran from.
OLD_DEFAULT_DATABASE = "bleu-teach-class.sqlite"


def default_database() -> str:
    """Where the records are when neither --database nor $BLEU_TEACH_DATABASE names them: one file per user in the
    user's data folder (platformdirs: ~/.local/share/bleu-teach/class.sqlite on Linux), whatever folder a command
    runs from."""
    from platformdirs import user_data_path

    return str(user_data_path("bleu-teach") / "class.sqlite")


@dataclass(frozen=True)
class Limits:
    """Requests per minute (joins from one address to one session: per 10 minutes). Wrong join codes are counted
    per address (guessing a code is slow) and never stop a right one; joins with a right code per session, and all
    join requests per address, are bounded high enough for a class of several hundred behind one address (a
    school's network)."""

    joins_per_address: int = 120  # wrong codes: a room's typos fit; guessing one of 31^6 codes takes months
    join_requests_per_address: int = 1200
    joins_per_session: int = 1200
    joins_per_address_per_session: int = 1000  # in 10 minutes: a lecture hall behind one address, not a script's crowd
    answers_per_student: int = 120
    answers_per_address: int = 2000  # a classroom behind one NAT address
    answers_per_session: int = 20000


@dataclass(frozen=True)
class Settings:
    """The classroom server's settings; each field's default is the server's."""

    #: The database: a SQLite file's path or a postgresql:// URL ($BLEU_TEACH_DATABASE); None: :func:`default_database`.
    database: str | None = None
    #: The server's teacher token ($BLEU_TEACH_TEACHER_TOKEN); None: a new one at each start.
    teacher_token: str | None = None
    #: The built course website served beside the classroom ($BLEU_TEACH_SITE for the workers; --site).
    site: Path | None = None
    #: The address to listen on: this computer only (0.0.0.0 for a classroom network).
    host: str = "127.0.0.1"
    port: int = 8000
    #: Worker processes; more than 1 needs PostgreSQL.
    workers: int = 1
    limits: Limits = field(default_factory=Limits)
    #: uvicorn's: the connections served at once, the seconds a stop waits for them, the seconds an idle one is kept.
    limit_concurrency: int = 4000
    timeout_graceful_shutdown: int = 2
    timeout_keep_alive: int = 30

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """The settings the environment gives (``os.environ`` unless told), every other one its default; a variable
        that is set but empty counts as not set."""
        environ = os.environ if environ is None else environ
        site = environ.get(SITE_VARIABLE)
        return cls(
            database=environ.get(DATABASE_VARIABLE) or None,
            teacher_token=environ.get(TOKEN_VARIABLE) or None,
            site=Path(site) if site else None,
        )

    def environment(self) -> dict[str, str]:
        """The environment variables that give these settings back to :meth:`from_environment` (the workers'): those
        of the settings that are set."""
        found = {DATABASE_VARIABLE: self.database, TOKEN_VARIABLE: self.teacher_token}
        found[SITE_VARIABLE] = str(self.site) if self.site else None
        return {name: value for name, value in found.items() if value}

    def database_or_default(self) -> str:
        """Where the records are: the database named, else :func:`default_database`."""
        return self.database or default_database()

    @property
    def address(self) -> str:
        """The server's address as a link names it when it is not told (``http://127.0.0.1:8000``)."""
        return f"http://{self.host}:{self.port}"

    def uvicorn(self) -> dict[str, Any]:
        """uvicorn's settings for the server (``uvicorn.run``'s keyword arguments, the app aside)."""
        return {
            "host": self.host,
            "port": self.port,
            "log_level": "warning",
            "access_log": False,
            "limit_concurrency": self.limit_concurrency,
            "timeout_graceful_shutdown": self.timeout_graceful_shutdown,
            "timeout_keep_alive": self.timeout_keep_alive,
        }


#: The defaults (what the command line's options default to).
DEFAULTS = Settings()
