"""How any classroom database is brought up to the newest schema (:func:`migrate`): Alembic's revisions in
``classroom/migrations/versions``, run in one transaction, from whatever schema the database has, one made by the
first release (which recorded no revision) too.

:mod:`~bleu_teach.classroom.schema` is what the tables are; this module is how a database comes to hold them, and
:meth:`~bleu_teach.classroom.store.Store.open` calls it before anything else reads the database.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: The revision whose schema the first release made without recording it (no version table).
FIRST_RELEASE = "0001"


#: The table where the database records its schema's revision (a name of its own: a database may hold another
#: application's Alembic table).
VERSION_TABLE = "bleu_teach_schema_version"
#: The classroom's tables, by which a database is known as one.
CLASSROOM_TABLES = {"sessions", "students", "answers"}


def migrate(engine: Engine, create: bool = True) -> None:
    """Bring the database's schema up to the newest revision (``migrations/versions``), in one transaction (on
    SQLite too, where the transaction takes the write lock first: a failed or interrupted upgrade leaves the
    database as it was).

    A new, empty database gets every revision (unless ``create`` is false: then it is refused); a database made
    by the first release (its tables there, no revision recorded) is marked as being at :data:`FIRST_RELEASE`
    (one made before ``roster.reopened`` existed gets that column first) and goes on from there; a database that
    holds tables but not the classroom's is refused, never changed. On PostgreSQL an advisory lock lets one
    process of several starting together do it. ``LookupError`` or ``ValueError`` say what was refused.

    On SQLite the upgrade runs with the foreign keys off (a pragma that a transaction ignores: set before it, set
    back after): a revision that rebuilds a table in batch mode drops the old one, and with them on, the drop would
    first delete every row that refers to it (ON DELETE CASCADE). Such a revision checks the references it keeps
    (``PRAGMA foreign_key_check``), as revision 0011 does.
    """
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        try:
            with connection.begin():
                _upgrade(connection, config, create)
        finally:
            if sqlite:
                _foreign_keys_on(connection)


def _upgrade(connection: Any, config: Any, create: bool) -> None:
    """:func:`migrate`'s one transaction, begun on ``connection``."""
    from alembic import command
    from alembic.util import CommandError
    from sqlalchemy import inspect, text

    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(4242017)"))
    else:
        connection.exec_driver_sql("BEGIN IMMEDIATE")  # DDL inside the transaction; one writer at a time
    found = inspect(connection)
    tables = set(found.get_table_names())
    recorded = VERSION_TABLE in tables and connection.execute(text(f"SELECT count(*) FROM {VERSION_TABLE}")).scalar()
    if not CLASSROOM_TABLES <= tables:
        if tables - {VERSION_TABLE}:
            raise ValueError("it holds other tables than a classroom's: it is another application's database")
        if not create:
            raise LookupError("it holds no classroom yet (class serve, new or homework makes one)")
    config.attributes["connection"] = connection
    try:
        if CLASSROOM_TABLES <= tables and not recorded:  # made by the first release
            if "reopened" not in {c["name"] for c in found.get_columns("roster")}:
                connection.execute(text("ALTER TABLE roster ADD COLUMN reopened BOOLEAN NOT NULL DEFAULT false"))
            _warn_about_due_times(connection)
            command.stamp(config, FIRST_RELEASE)
        command.upgrade(config, "head")
    except CommandError as problem:
        raise ValueError(f"its schema cannot be brought up to date ({str(problem).splitlines()[0][:200]})") from None


def _foreign_keys_on(connection: Any) -> None:
    """SQLite's foreign keys on again on the upgrade's connection; a connection on which they cannot be turned on
    is closed, never handed out by the pool without them (deleting a session would leave its students)."""
    from sqlalchemy.exc import SQLAlchemyError

    try:
        connection.exec_driver_sql("PRAGMA foreign_keys=ON")
        on = connection.exec_driver_sql("PRAGMA foreign_keys").scalar()
        connection.commit()
    except SQLAlchemyError:  # a connection the failed upgrade left unusable
        on = False
    if not on:
        connection.invalidate()


def _warn_about_due_times(connection: Any) -> None:
    """The first release kept a homework's due time on SQLite without its time zone: say which to check."""
    from sqlalchemy import text

    if connection.dialect.name != "sqlite":
        return  # PostgreSQL kept the zone
    rows = connection.execute(text("SELECT id, title, due FROM sessions WHERE due IS NOT NULL")).all()
    for number, title, due in rows:
        logging.getLogger("bleu_teach.classroom").warning(
            "homework %s (%r) is due at %s as an earlier version stored it, without its time zone: it is now read "
            "as UTC; if it was given in another zone, make a new homework or check the late answers.",
            number,
            title,
            due,
        )
