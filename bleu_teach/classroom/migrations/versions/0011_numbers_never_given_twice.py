"""Numbers never given twice: a session's, a poll's and a learning platform's.

On SQLite a table's number was the highest one still kept plus one: once the newest session was deleted (class
delete), the next one was given its number again, and the archives (``session-N``, course.json), a lecturer's
notes, class term and the platforms' links then named two sessions by it; a poll's number (polls.csv, course.json)
and a platform's (class lti list and remove, the deep-linking ticket) came back the same way. SQLite keeps the
highest number it ever gave only for a table declared AUTOINCREMENT: this revision rebuilds these three tables so
(batch mode: a new table, every row copied with its number, the old one dropped and the new one named as it was).
The rows that refer to them (students, answers, votes, the roster, the LTI tables) refer to the same numbers and
are not touched; ``PRAGMA foreign_key_check`` must find no reference the rebuild broke, or the upgrade is undone.
The store runs the upgrade with SQLite's foreign keys off (:func:`~bleu_teach.classroom.store_migrate.migrate`):
with them on, dropping the old table would first delete every row that refers to it (ON DELETE CASCADE).

PostgreSQL's sequences never give a number twice: nothing changes there.

A number given and deleted before this revision, above the highest one still kept, was recorded nowhere: it may
be given once more; from the upgrade on, none is.

Students' numbers are left as they were: a person sees one only with its session's number beside it (the route
that takes a student out, a removed student's "(removed N)" in that session's export), and a session's number is
no longer given twice. The LTI scores' outbox numbers are the server's own and leave it in no link or file.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

from typing import Any

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

#: The tables whose numbers a person sees or a link carries.
NUMBERED = ("sessions", "polls", "lti_platforms")


def _broken(bind: Any) -> set[tuple[str, int, str]]:
    """The references SQLite finds broken: (table, row, the table it refers to)."""
    return {(row[0], row[1], row[2]) for row in bind.exec_driver_sql("PRAGMA foreign_key_check").all()}


def _rebuild(autoincrement: bool) -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        return  # PostgreSQL: a sequence gives each number once
    if bind.exec_driver_sql("PRAGMA foreign_keys").scalar():
        raise RuntimeError(
            "revision 0011 rebuilds the sessions table: run it with SQLite's foreign keys off (PRAGMA "
            "foreign_keys=OFF before the transaction, as Store.open does), or dropping the old table would delete "
            "every student, answer and poll of every session"
        )
    before = _broken(bind)
    for name in NUMBERED:
        with op.batch_alter_table(name, recreate="always", table_kwargs={"sqlite_autoincrement": autoincrement}):
            pass
    broken = sorted(_broken(bind) - before)
    if broken:
        raise RuntimeError(f"revision 0011 would leave rows referring to nothing: {broken[:5]}")


def upgrade() -> None:
    _rebuild(autoincrement=True)


def downgrade() -> None:
    _rebuild(autoincrement=False)
