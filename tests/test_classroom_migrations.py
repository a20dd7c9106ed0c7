"""A teacher's database outlives the release that made it: the current Store upgrades it, and the class goes on.

The database is made by the store of release 9d3fdb5 (``tests/fixtures/store_9d3fdb5.py``, that release's file
unchanged), with a live session, a homework with its roster and due time, students, answers and a poll, on SQLite
and on PostgreSQL; then the current :class:`~bleu_teach.classroom.store.Store` opens it, finds every record, and a
student joins, answers and votes. A database made before ``roster.reopened`` existed (which made ``join`` fail
with "no such column") is upgraded too, the roster's names kept before their matching key existed get it, and a
homework made before late policies keeps taking late answers, and a roster kept before personal links gets them.
"""

from __future__ import annotations

import importlib.util
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from types import ModuleType

import pytest

sqlalchemy = pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

from sqlalchemy import create_engine, inspect, text  # noqa: E402

from bleu_teach.classroom.name_keys import name_key  # noqa: E402
from bleu_teach.classroom.polls import Polls  # noqa: E402
from bleu_teach.classroom.schema import database_url  # noqa: E402
from bleu_teach.classroom.store import Store  # noqa: E402
from bleu_teach.classroom.store_migrate import VERSION_TABLE  # noqa: E402
from tests.postgres import fresh_database  # noqa: E402

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "store_9d3fdb5.py"


def release_store() -> ModuleType:
    """The release's store module, loaded under a name of its own (its tables in a MetaData of their own)."""
    spec = importlib.util.spec_from_file_location("store_9d3fdb5", FIXTURE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["store_9d3fdb5"] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "made-by-the-release.sqlite")
    return fresh_database(request.getfixturevalue("postgres_base"))


def made_by_the_release(where: str) -> dict:
    """A class as the release kept it: a live session with two students' answers and a poll, and a homework."""
    release = release_store()
    old = release.Store.open(where)
    live, live_secret = old.create_session("week 3")
    ann, _ = old.join(live, "Ann")
    bob, _ = old.join(live, "Bob")
    old.record_answer(ann, "a-1", "03.2", "E", "correct")
    old.record_answer(bob, "b-1", "03.2", "A", "misconception", "you used the longest reference")
    due = datetime(2026, 12, 1, 8, 0, tzinfo=timezone.utc)  # given in UTC: the release kept that one right
    homework, _ = old.create_session("week 4", "homework", due)
    old.set_roster(homework.id, [("Li Lei", '{"Email address": "li@example.org"}'), ("Ann Smith", "{}")])
    with old.engine.begin() as connection:
        poll = connection.execute(
            release.polls.insert().values(
                session_id=live.id,
                question="Which?",
                options='[["A", "one"], ["B", "two"]]',
                exercise="",
                round=1,
                first_round=None,
                state="open",
                opened=datetime.now(timezone.utc),
            )
        ).inserted_primary_key[0]
    old.close()
    return {"live": live.id, "secret": live_secret, "homework": homework.id, "poll": poll, "due": due}


def test_a_database_of_the_last_release_is_upgraded_and_the_class_goes_on(where: str) -> None:
    made = made_by_the_release(where)
    store = Store.open(where)
    try:
        with store.engine.connect() as connection:
            assert connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar() is not None
        assert [s.title for s in store.sessions()] == ["week 3", "week 4"]
        assert store.is_teacher(made["live"], made["secret"])  # the teacher's link still opens the dashboard
        kept = store.answers(made["live"])
        assert [(a.answer_id, a.verdict, a.mistake) for a in kept] == [
            ("a-1", "correct", ""),
            ("b-1", "misconception", "you used the longest reference"),
        ]
        assert all(a.at.tzinfo is not None for a in kept)
        assert store.session(made["homework"]).due == made["due"]
        assert [name for name, _, _ in store.roster_names(made["homework"])] == ["Li Lei", "Ann Smith"]
        # the class goes on: a new student joins, answers, votes; a roster name joins the homework
        live = store.session(made["live"])
        cy, _ = store.join(live, "Cy")
        # the names kept before the upgrade are compared as new ones are: folded, and as the eye reads them
        with pytest.raises(ValueError, match="already called “Ann”"):
            store.join(live, "ANN")
        with pytest.raises(ValueError, match="reads like “Bob”"):
            store.join(live, "B\u043eb")  # a Cyrillic o
        answer, stored = store.record_answer(cy, "c-1", "03.2", "E", "correct")
        assert stored and not answer.late
        polls = Polls(store)
        assert polls.vote(cy, made["poll"], "v-1", "B") is True
        assert polls.counts(polls.poll(live.id, made["poll"])) == {"A": 0, "B": 1}
        li, li_token = store.join(store.session(made["homework"]), "li lei")
        assert li.nickname == "Li Lei"
        # the roster's names kept before the upgrade have their matching key, as the live rule makes it: a name typed
        # with its names in the other order is found
        with store.engine.connect() as connection:
            kept = connection.execute(text("SELECT name, matched FROM roster ORDER BY position")).all()
        assert [tuple(row) for row in kept] == [("Li Lei", "lei li"), ("Ann Smith", "ann smith")]
        assert all(matched == name_key(name) for name, matched in kept)
        assert store.join(store.session(made["homework"]), "Smith Ann")[0].nickname == "Ann Smith"
        late, _ = store.record_answer(li, "l-1", "01.1", "0.5", "wrong", at=made["due"] + timedelta(minutes=30))
        assert late.late
        # a homework made before late policies takes late answers, as it did; its students can be given more time
        assert store.session(made["homework"]).late == "accept"
        assert store.extend(made["homework"], "Li Lei", made["due"] + timedelta(hours=1)) == "Li Lei"
        assert [a.late for a in store.answers(made["homework"])] == [False]
        # personal links (revision 0010) on the roster kept before the upgrade: Ann Smith, who joined above by her
        # typed name, opens her link on a second device and is the same student there; Li Lei's first device stays in
        indexes = {index["name"]: index for index in inspect(store.engine).get_indexes("roster")}
        assert indexes["roster_link"]["column_names"] == ["link_digest"] and indexes["roster_link"]["unique"]
        links = {link.name: link.token for link in store.issue_links(made["homework"])}
        assert sorted(links) == ["Ann Smith", "Li Lei"]
        ann, device, _ = store.join_by_link(made["homework"], links["Ann Smith"])
        assert ann.nickname == "Ann Smith" and store.student(made["homework"], device) == ann
        assert store.student(made["homework"], li_token) == li
    finally:
        store.close()
    again = Store.open(where)  # opening an up-to-date database changes nothing
    assert len(again.answers(made["live"])) == 3
    again.close()


def kept_rows(where: str, columns: dict[str, list[str]] | None = None) -> dict[str, tuple[list[str], list[tuple]]]:
    """Each classroom table's columns and rows, read without the store (``columns``: these tables' columns only)."""
    engine = create_engine(database_url(where))
    try:
        with engine.connect() as connection:
            if columns is None:
                found = inspect(connection)
                tables = sorted(set(found.get_table_names()) - {VERSION_TABLE})
                columns = {table: [c["name"] for c in found.get_columns(table)] for table in tables}
            return {
                table: (names, sorted(map(tuple, connection.execute(text(f"SELECT {', '.join(names)} FROM {table}")))))
                for table, names in columns.items()
            }
    finally:
        engine.dispose()


def foreign_keys(engine: sqlalchemy.Engine) -> dict[str, set[tuple]]:
    """Each table's foreign keys: its columns, the table and columns they refer to, what a delete there does."""
    found = inspect(engine)
    return {
        table: {
            (
                tuple(k["constrained_columns"]),
                k["referred_table"],
                tuple(k["referred_columns"]),
                k["options"]["ondelete"],
            )
            for k in found.get_foreign_keys(table)
        }
        for table in found.get_table_names()
    }


def test_after_the_upgrade_a_deleted_sessions_number_is_never_given_again_and_every_row_is_kept(where: str) -> None:
    """The trial's class delete 3, class delete 2, class new gave Session 2 again on SQLite: revision 0011 rebuilds
    sessions, polls and lti_platforms as AUTOINCREMENT there, every row and every reference to them kept."""
    from bleu_teach.classroom.schema import metadata

    made = made_by_the_release(where)  # sessions 1 and 2, students, answers, a poll, a roster
    release = release_store()
    old = release.Store.open(where)
    third, _ = old.create_session("week 5")
    cy, _ = old.join(third, "Cy")
    old.record_answer(cy, "c-1", "03.2", "E", "correct")
    moment = datetime.now(timezone.utc)
    with old.engine.begin() as connection:
        poll = connection.execute(
            release.polls.insert().values(
                session_id=third.id,
                question="Which?",
                options='[["A", "one"]]',
                exercise="",
                round=1,
                state="closed",
                opened=moment,
            )
        ).inserted_primary_key[0]
        connection.execute(
            release.votes.insert().values(poll_id=poll, student_id=cy.id, vote_id="v-1", choice="A", at=moment)
        )
    old.close()
    before = kept_rows(where)
    assert third.id == 3 and poll == made["poll"] + 1
    assert {table: len(rows) for table, (_, rows) in before.items()} == {
        "answers": 3,
        "homework_variants": 0,
        "polls": 2,
        "roster": 2,
        "sessions": 3,
        "students": 3,
        "votes": 1,
    }
    store = Store.open(where)
    try:
        # every row kept, as it was (the columns later revisions added aside)
        assert kept_rows(where, {table: names for table, (names, _) in before.items()}) == before
        # every foreign key the code declares is there, sessions' and polls' referrers among them
        declared = {
            table.name: {
                (
                    tuple(c.name for c in k.columns),
                    k.referred_table.name,
                    tuple(e.column.name for e in k.elements),
                    k.ondelete,
                )
                for k in table.foreign_key_constraints
            }
            for table in metadata.sorted_tables
        }
        assert {t: keys for t, keys in foreign_keys(store.engine).items() if t != VERSION_TABLE} == declared
        assert (("session_id",), "sessions", ("id",), "CASCADE") in declared["students"]
        if not store.postgres:
            with store.engine.connect() as connection:
                assert connection.exec_driver_sql("PRAGMA foreign_key_check").all() == []  # no reference broken
                assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1  # on again after the upgrade
        # class delete 3, class delete 2, class new: Session 4; a poll's number is not given again either. Session 3
        # is deleted by SQL alone: the database's own cascade still reaches its student, answer, poll and vote.
        with store.engine.begin() as connection:
            connection.execute(text("DELETE FROM sessions WHERE id = 3"))
        store.delete_session(2)
        after = kept_rows(where, {table: ["count(*)"] for table in ("students", "answers", "polls", "votes", "roster")})
        assert {table: rows[0][0] for table, (_, rows) in after.items()} == {
            "students": 2,
            "answers": 2,
            "polls": 1,
            "votes": 0,
            "roster": 0,
        }
        assert store.create_session("No roster")[0].id == 4
        assert store.open_poll(4, "Which?", (("A", "one"),)) == poll + 1
    finally:
        store.close()


def test_revision_0011_is_refused_with_sqlites_foreign_keys_on_and_undone_by_its_downgrade(tmp_path: Path) -> None:
    """With the foreign keys on, dropping the old sessions table would first delete every row that refers to it:
    the revision refuses rather than lose the class (Store.open runs it with them off)."""
    from alembic import command
    from alembic.config import Config

    from bleu_teach.classroom.store_migrate import MIGRATIONS

    where = tmp_path / "release.sqlite"
    made_by_the_release(str(where))
    Store.open(where).close()
    # The rows as revision 0011 has them (a later revision's column set aside: the downgrade below drops it).
    columns = {table: names for table, (names, _) in kept_rows(str(where)).items()}
    columns["roster"] = [name for name in columns["roster"] if name != "student_removed"]
    before = kept_rows(str(where), columns)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = create_engine(f"sqlite:///{where}")  # SQLite's foreign keys are off unless turned on

    def sessions_table() -> str:
        with engine.connect() as connection:
            return str(connection.exec_driver_sql("SELECT sql FROM sqlite_master WHERE name = 'sessions'").scalar())

    try:
        assert "AUTOINCREMENT" in sessions_table()
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0010")
        assert "AUTOINCREMENT" not in sessions_table() and kept_rows(str(where), columns) == before
        with engine.connect() as connection:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()
            config.attributes["connection"] = connection
            with pytest.raises(RuntimeError, match="with SQLite's foreign keys off"), connection.begin():
                command.upgrade(config, "head")
        assert "AUTOINCREMENT" not in sessions_table() and kept_rows(str(where), columns) == before
    finally:
        engine.dispose()
    Store.open(where).close()  # the store turns them off for the upgrade
    assert "AUTOINCREMENT" in sessions_table() and kept_rows(str(where), columns) == before


def test_revision_0012_marks_the_roster_names_whose_student_was_taken_out_before_it(tmp_path: Path) -> None:
    from alembic import command
    from alembic.config import Config

    from bleu_teach.classroom.store_migrate import MIGRATIONS

    where = tmp_path / "release.sqlite"
    made = made_by_the_release(str(where))
    store = Store.open(where)
    try:
        li, _ = store.join(store.session(made["homework"]), "Li Lei")
        assert store.remove_student(made["homework"], li.id)
        store.join(store.session(made["homework"]), "Ann Smith")
    finally:
        store.close()
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = create_engine(f"sqlite:///{where}")
    try:
        with engine.begin() as connection:  # as the database was before the revision: its link says it, no more
            config.attributes["connection"] = connection
            command.downgrade(config, "0011")
    finally:
        engine.dispose()
    store = Store.open(where)
    try:
        assert store.roster_removed(made["homework"]) == {"Li Lei"}  # Ann Smith joined: not removed
    finally:
        store.close()


def test_a_database_made_before_the_roster_could_let_a_student_in_again_is_upgraded(tmp_path: Path) -> None:
    where = tmp_path / "older.sqlite"
    made = made_by_the_release(str(where))
    engine = create_engine(f"sqlite:///{where}")
    with engine.begin() as connection:  # as a database made before the column existed
        connection.execute(text("ALTER TABLE roster DROP COLUMN reopened"))
    engine.dispose()
    store = Store.open(where)
    try:
        columns = {c["name"] for c in inspect(store.engine).get_columns("roster")}
        assert "reopened" in columns
        student, _ = store.join(store.session(made["homework"]), "Ann Smith")  # used to fail: no such column
        assert student.nickname == "Ann Smith"
        assert store.reopen(made["homework"], "Ann Smith")
    finally:
        store.close()


def test_a_new_database_is_made_by_the_revisions_and_matches_the_tables_the_code_uses(tmp_path: Path) -> None:
    from bleu_teach.classroom.schema import metadata

    store = Store.open(tmp_path / "new.sqlite")
    try:
        found = inspect(store.engine)
        for table in metadata.sorted_tables:
            assert {c["name"] for c in found.get_columns(table.name)} == {c.name for c in table.columns}, table.name
    finally:
        store.close()


def test_a_failed_upgrade_leaves_the_database_as_it_was_and_the_next_start_upgrades_it(
    tmp_path: Path, monkeypatch
) -> None:
    where = tmp_path / "release.sqlite"
    made = made_by_the_release(str(where))
    from alembic import command

    upgrade = command.upgrade

    def broken(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise RuntimeError("the machine lost power mid-upgrade")

    monkeypatch.setattr(command, "upgrade", broken)
    with pytest.raises(RuntimeError):
        Store.open(where)
    tables = set(inspect(create_engine(f"sqlite:///{where}")).get_table_names())
    assert VERSION_TABLE not in tables  # nothing recorded: the stamp went with the failed transaction
    monkeypatch.setattr(command, "upgrade", upgrade)
    store = Store.open(where)
    assert [s.title for s in store.sessions()] == ["week 3", "week 4"] and len(store.answers(made["live"])) == 2
    store.close()


def test_another_applications_database_is_refused_and_never_changed(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite"
    engine = create_engine(f"sqlite:///{other}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)"))
        connection.execute(text("INSERT INTO alembic_version VALUES ('a1b2c3')"))
        connection.execute(text("CREATE TABLE invoices (id INTEGER PRIMARY KEY)"))
    engine.dispose()
    before = other.read_bytes()
    for create in (True, False):
        with pytest.raises(ValueError, match="another application's database"):
            Store.open(other, create=create)
    assert other.read_bytes() == before


def test_first_release_due_times_kept_without_their_zone_are_named_for_the_teacher_to_check(
    tmp_path: Path, caplog
) -> None:
    import logging

    where = tmp_path / "release.sqlite"
    made = made_by_the_release(str(where))
    caplog.set_level(logging.WARNING, logger="bleu_teach.classroom")
    Store.open(where).close()
    said = [r.getMessage() for r in caplog.records if r.name == "bleu_teach.classroom"]
    assert len(said) == 1 and f"homework {made['homework']} ('week 4')" in said[0] and "time zone" in said[0]
