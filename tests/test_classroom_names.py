"""A homework's roster names as students type them: the matching key (classroom.name_keys) and the join that uses it.

What a lecturer's trial found refused is taken: an accent left off, a phone's curly apostrophe, a hyphen or not,
given and family name in either order, a Chinese name typed family name first without a space where the platform
exported "First name Last name". Names the key would merge are never merged: the join takes them only as listed,
the import names them, and a refusal names no one else on the list. Every expected key below is written by hand.
The store's tests run on SQLite and PostgreSQL; the join page's and the command's on SQLite.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from bleu_teach.classroom.name_keys import alike_names, name_key  # noqa: E402
from bleu_teach.classroom.schema import roster  # noqa: E402
from bleu_teach.classroom.store import Store  # noqa: E402
from tests.postgres import cluster, fresh_database  # noqa: E402

PROJECT = Path(__file__).resolve().parents[1]
WRITE = {"X-Bleu-Teach": "1"}


@pytest.mark.parametrize(
    "typed, key",
    [
        ("Zoë", "zoe"),
        ("Zoe", "zoe"),
        ("ZOË", "zoe"),
        ("O'Neill", "oneill"),
        ("O’Neill", "oneill"),  # a phone's curly apostrophe
        ("O‘Neill", "oneill"),
        ("Oʼneill", "oneill"),  # the modifier letter apostrophe
        ("O`Neill", "oneill"),
        ("O´Neill", "oneill"),  # an acute accent typed for an apostrophe (NFKC would make it a space and an accent)
        ("ONeill", "oneill"),
        ("Lǐ Léi", "lei li"),
        ("Li Lei", "lei li"),
        ("Lei Li", "lei li"),
        ("Anna Smith", "anna smith"),
        ("Smith Anna", "anna smith"),
        ("Smith, Anna", "anna smith"),
        ("  smith   ANNA ", "anna smith"),
        ("Jean-Luc Picard", "jean luc picard"),
        ("Picard Jean Luc", "jean luc picard"),
        ("Jean–Luc Picard", "jean luc picard"),  # an en dash
        ("Nguyễn Văn An", "an nguyen van"),
        ("Łukasz Żółć", "lukasz zolc"),
        ("İlker Işık", "ilker isik"),
        ("雷 李", "李 雷"),
        ("李雷", "李 雷"),
        ("李 雷", "李 雷"),
        ("李雷雷", "李 雷 雷"),
        ("민준 김", "김 민 준"),
        ("김민준", "김 민 준"),
        ("ジョン・スミス", "ジ ス ス ミ ョ ン"),  # the middle dot between the names is a space
        ("Ann O’Neill (2)", "(2) ann oneill"),
        ("'", "'"),  # nothing but an apostrophe: its fold
    ],
)
def test_a_names_matching_key(typed: str, key: str) -> None:
    assert name_key(typed) == key


@pytest.mark.parametrize(
    "one, other",
    [
        ("Anna Smith", "Anna Smit"),
        ("李雷", "李雷雷"),
        ("Ann Smith", "Anne Smith"),
        ("がく", "かく"),  # a kana's voicing mark is a letter of its own
        ("राम", "रम"),  # so is a Devanagari vowel sign
        ("O Neill", "ONeill"),  # a space is not an apostrophe
    ],
)
def test_names_that_stay_apart(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


def test_the_names_a_key_would_merge_are_found_in_groups_in_the_rosters_order() -> None:
    names = ["Anna Smith", "Zoë Li", "Ada Lovelace", "Smith Anna", "Zoe Li", "Li Zoë", "Anna Smit"]
    assert alike_names(names) == [["Anna Smith", "Smith Anna"], ["Zoë Li", "Zoe Li", "Li Zoë"]]
    assert alike_names(["雷 李", "李雷雷", "Lǐ Léi"]) == []


# --- the store, on both databases ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def postgres_base() -> Iterator[str]:
    with cluster() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    if request.param == "sqlite":
        where = str(tmp_path / "classroom.sqlite")
    else:
        where = fresh_database(request.getfixturevalue("postgres_base"))
    opened = Store.open(where)
    yield opened
    opened.close()


ROSTER = [
    "雷 李",
    "Siobhán O'Neill",
    "Lǐ Léi",
    "Jean-Luc Picard",
    "Anna Smith",
    "Smith Anna",
    "Zoë Li",
    "Zoe Li",
]


def _homework(store: Store) -> tuple[object, list[list[str]]]:
    session, _ = store.create_session("Week 6", "homework", datetime.now(timezone.utc) + timedelta(days=1))
    alike = store.set_roster(session.id, [(name, "{}") for name in ROSTER])
    return session, alike


def test_the_roster_keeps_each_names_key_and_says_which_names_it_would_merge(store: Store) -> None:
    session, alike = _homework(store)
    assert alike == [["Anna Smith", "Smith Anna"], ["Zoë Li", "Zoe Li"]]
    with store.engine.connect() as connection:
        kept = connection.execute(
            roster.select().where(roster.c.session_id == session.id).order_by(roster.c.position)
        ).mappings()
        assert [(row["name"], row["matched"]) for row in kept] == [
            ("雷 李", "李 雷"),
            ("Siobhán O'Neill", "oneill siobhan"),
            ("Lǐ Léi", "lei li"),
            ("Jean-Luc Picard", "jean luc picard"),
            ("Anna Smith", "anna smith"),
            ("Smith Anna", "anna smith"),
            ("Zoë Li", "li zoe"),
            ("Zoe Li", "li zoe"),
        ]


@pytest.mark.parametrize(
    "typed, joined",
    [
        ("李雷", "雷 李"),  # family name first, no space: the platform's "First name Last name" export
        ("李 雷", "雷 李"),
        ("Siobhan O’Neill", "Siobhán O'Neill"),  # no accent, a phone's apostrophe
        ("ONeill Siobhan", "Siobhán O'Neill"),
        ("Li Lei", "Lǐ Léi"),
        ("lei li", "Lǐ Léi"),
        ("Picard Jean Luc", "Jean-Luc Picard"),
        ("雷 李", "雷 李"),  # as listed, of course
        ("SMITH  anna", "Smith Anna"),  # a name the key would merge, typed as listed (case and spaces aside)
        ("anna smith", "Anna Smith"),
        ("Zoë Li", "Zoë Li"),
        ("zoe li", "Zoe Li"),
    ],
)
def test_a_roster_name_is_found_as_students_type_it(store: Store, typed: str, joined: str) -> None:
    session, _ = _homework(store)
    assert store.join(session, typed)[0].nickname == joined


@pytest.mark.parametrize(
    "typed, said",
    [
        ("Anna Smit", "(accents, apostrophes and the order of your names may differ)"),  # on no one's list
        ("李雷雷", "(accents, apostrophes and the order of your names may differ)"),
        ("Siobhan O Neill", "(accents, apostrophes and the order of your names may differ)"),
        ("Anna-Smith", "exactly as your teacher's list has it"),  # Anna Smith's key and Smith Anna's
        ("Li Zoe", "exactly as your teacher's list has it"),  # Zoë Li's and Zoe Li's
        ("Li Zoë", "exactly as your teacher's list has it"),
    ],
)
def test_a_name_on_no_list_or_written_like_two_is_refused_naming_no_one(store: Store, typed: str, said: str) -> None:
    session, _ = _homework(store)
    with pytest.raises(ValueError, match="as your teacher's list has it") as refused:
        store.join(session, typed)
    assert said in str(refused.value)
    assert not any(name in str(refused.value) for name in ROSTER)
    assert store.roster(session.id) == []


def test_a_refusal_names_the_kind_of_session_the_roster_is_for(store: Store) -> None:
    homework, _ = _homework(store)
    live, _ = store.create_session("Week 6 in the room", "live")  # class new --roster: a live session's roster
    store.set_roster(live.id, [(name, "{}") for name in ROSTER])
    for session, this in ((homework, "for this homework,"), (live, "for this class,")):
        for typed in ("Anna Smit", "Li Zoe"):  # on no one's list; written like two names of it
            with pytest.raises(ValueError) as refused:
                store.join(session, typed)
            said = str(refused.value)
            assert said.startswith(f"nickname: {this} type your name") and "as your teacher's list has it" in said
            assert ("homework" in said) == (session is homework)


def test_a_name_found_by_its_key_is_taken_once_and_let_in_again_by_its_key(store: Store) -> None:
    session, _ = _homework(store)
    li, _ = store.join(session, "李雷")
    with pytest.raises(ValueError, match="'雷 李' has already joined"):
        store.join(session, "李 雷")
    assert store.reopen(session.id, "李雷")  # the teacher types it as the student did
    again, _ = store.join(session, "雷李")
    assert again.id == li.id and again.nickname == "雷 李"
    assert not store.reopen(session.id, "Li Zoe")  # written like two names: neither is let in
    assert not store.reopen(session.id, "Nobody")
    assert [(name, student) for name, _, student in store.roster_names(session.id)][0] == ("雷 李", li.id)


def test_a_live_session_keeps_its_nicknames_apart_as_before(store: Store) -> None:
    session, _ = store.create_session("live")
    assert store.join(session, "Anna Smith")[0].nickname == "Anna Smith"
    assert store.join(session, "Smith Anna")[0].nickname == "Smith Anna"  # no roster: no key


# --- the join page and the command, on SQLite ----------------------------------------------------------------------


def test_the_join_page_takes_a_name_as_typed_on_a_phone(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from bleu_teach.classroom.app import create_app

    opened = Store.open(tmp_path / "class.sqlite")
    try:
        session, _ = _homework(opened)

        def join(name: str):  # noqa: ANN202
            browser = TestClient(create_app(opened, "token"), base_url="http://class.test")
            return browser.post("/class/api/join", json={"code": session.code, "nickname": name}, headers=WRITE)

        found = join("Siobhan O’Neill")
        assert found.status_code == 200 and found.json()["nickname"] == "Siobhán O'Neill", found.text
        assert join("李雷").json()["nickname"] == "雷 李"
        unknown = join("Nobody Here")
        assert unknown.status_code == 400 and "ask your teacher how the list spells it" in unknown.json()["error"]
        alike = join("Smith-Anna")
        assert alike.status_code == 400 and "exactly as your teacher's list has it" in alike.json()["error"]
        assert not any(name in unknown.text + alike.text for name in ROSTER)
        assert join("Smith Anna").json()["nickname"] == "Smith Anna"
    finally:
        opened.close()


def test_the_homework_command_names_each_group_of_names_written_alike(tmp_path: Path) -> None:
    (tmp_path / "roster.csv").write_text(
        "Name\nAnna Smith\nZoë Li\n雷 李\nSmith Anna\nZoe Li\nLi Zoe\nAda Lovelace\n", encoding="utf-8"
    )
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "class",
            "homework",
            "Week 6",
            "--due",
            "2026-12-01T09:00+01:00",
            "--roster",
            str(tmp_path / "roster.csv"),
            "--exercises",
            "03.1",
            "--variants",
            "2",
            "--database",
            str(tmp_path / "c.sqlite"),
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    notes = [line for line in run.stderr.splitlines() if "on the roster differ only" in line]
    assert notes == [
        "note: 'Anna Smith' and 'Smith Anna' on the roster differ only in accents, apostrophes, hyphens or the order "
        "of the names: these students must type their name as the roster has it (only its case and spaces may "
        "differ)",
        "note: 'Zoë Li', 'Zoe Li' and 'Li Zoe' on the roster differ only in accents, apostrophes, hyphens or the "
        "order of the names: these students must type their name as the roster has it (only its case and spaces may "
        "differ)",
    ]
    assert "only the 7 names of the roster" in run.stdout
    opened = Store.open(tmp_path / "c.sqlite")
    try:
        session = opened.sessions()[-1]
        assert opened.join(session, "李雷")[0].nickname == "雷 李"
        with pytest.raises(ValueError, match="exactly as your teacher's list has it"):
            opened.join(session, "Li Zoë")
    finally:
        opened.close()
