"""The class over a term (``class term``): who is the same student across sessions, the numbers per named mistake
and per student, and the view in its four formats.

The course is ``tests/fixtures/term_course.py``'s four weeks (and its three weeks of names typed otherwise), on
SQLite and on PostgreSQL (a throwaway cluster,
tests/postgres.py). Every expected number below is worked out by hand from that file's description of the weeks,
never by the code under test; the exercises that can show each mistake are the bank's own lists
(``bleu_teach/exercises/bank.toml``, read by hand: 01.1, 02.1 and 07.1 are clipped precisions, which name "no
clipping" and "strings"; 03.1, a brevity penalty, names "no penalty" and "first reference"; 04.1, a BLEU score,
names "strings" and "first reference").
"""

from __future__ import annotations

import json
import re
import stat
import zipfile
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from bleu_teach.classroom.people import ALIKE, TWO_NAMES, TWO_USERS, Apart, match_people  # noqa: E402
from bleu_teach.classroom.schema import Answer, Session  # noqa: E402
from bleu_teach.classroom.store import Store  # noqa: E402
from bleu_teach.classroom.store_term import TermRows, TermStudent  # noqa: E402
from bleu_teach.classroom.term import DEFINITIONS, term_report  # noqa: E402
from bleu_teach.ui.cli import main  # noqa: E402
from bleu_teach.ui.plots import draw_chart  # noqa: E402
from bleu_teach.ui.term_command import term_page  # noqa: E402
from tests.classroom_stores import opened_store  # noqa: E402
from tests.fixtures.term_course import make_term_course, make_typed_names_course  # noqa: E402

LABELS = [
    "Week 1 live (2026-10-05)",
    "Week 2 homework (2026-10-12)",
    "Week 3 live (2026-10-19)",
    "Week 4 homework (2026-10-26)",
]
#: Per mistake: its name, the exercises that can show it, per week (made, answered), persists, improved.
MISTAKES = [
    ("no clipping", ("01.1", "02.1", "07.1"), ((1, 2), (1, 3), (1, 2), (1, 1)), 1, 1),
    ("no penalty", ("03.1",), ((0, 1), (1, 2), (1, 2), (1, 2)), 1, 1),
    ("first reference", ("03.1", "04.1"), ((0, 1), (0, 2), (1, 2), (0, 4)), 0, 0),
    ("strings", ("01.1", "02.1", "04.1", "07.1"), ((0, 2), (1, 3), (0, 2), (1, 3)), 1, 0),
]
#: Per student (by name): the rule that matched them, per week (right, answered, mistakes) or None, what persists
#: with them and what they improved on.
STUDENTS = [
    (
        "Anna Smith",
        "roster name, nickname",  # her roster name in weeks 2 and 4, her nickname in weeks 1 and 3
        [(1, 1, ()), (1, 2, ("no clipping",)), (0, 1, ("no clipping",)), (0, 1, ("no clipping",))],
        ("no clipping",),
        (),
    ),
    ("Ben Okafor", "roster name", [None, (1, 2, ("no penalty",)), None, (1, 1, ())], (), ("no penalty",)),
    ("Dana Lee", "platform user", [(1, 1, ()), None, (0, 1, ("first reference",)), None], (), ()),
    ("Dana Lee", "one session only", [None, None, None, (1, 1, ())], (), ()),
    ("Farid Haddad", "nickname", [None, None, (0, 1, ("no penalty",)), (0, 1, ("no penalty",))], ("no penalty",), ()),
    ("Kit", "nickname", [(0, 1, ("no clipping",)), None, (1, 1, ()), None], (), ("no clipping",)),
    ("Lefevre Zoe", "roster name", [None, (0, 1, ("strings",)), None, (0, 1, ("strings",))], ("strings",), ()),
]
#: The students' table as the text view writes it: the M numbers are the mistakes' order above.
STUDENT_CELLS = [
    ["Anna Smith", "roster name, nickname", "1/1", "1/2 M1", "0/1 M1", "0/1 M1", "M1"],
    ["Ben Okafor", "roster name", "-", "1/2 M2", "-", "1/1", "M2"],
    ["Dana Lee", "platform user", "1/1", "-", "0/1 M3", "-"],
    ["Dana Lee", "one session only", "-", "-", "-", "1/1"],
    ["Farid Haddad", "nickname", "-", "-", "0/1 M2", "0/1 M2", "M2"],
    ["Kit", "nickname", "0/1 M1", "-", "1/1", "-", "M1"],
    ["Lefevre Zoe", "roster name", "-", "0/1 M4", "-", "0/1 M4", "M4"],
]


@pytest.fixture
def course(tmp_path: Path) -> Iterator[tuple[str, dict[int, int]]]:
    """The four weeks in a SQLite file: its path and the sessions' numbers by week (for the command's tests)."""
    path = str(tmp_path / "course.sqlite")
    for opened in opened_store(path):
        weeks = make_term_course(opened)
    yield path, weeks


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# --- the store's read, on both databases ---------------------------------------------------------------------------


def test_the_store_reads_the_sessions_in_time_order_their_students_not_removed_and_their_answers(store: Store) -> None:
    weeks = make_term_course(store)
    assert weeks == {3: 1, 1: 2, 2: 3, 4: 4}  # week 3 was made first
    rows = store.term_rows()
    assert [s.id for s in rows.sessions] == [2, 3, 1, 4]  # by when they were made, not by their numbers
    assert [f"{s.title} ({s.created:%Y-%m-%d})" for s in rows.sessions] == LABELS
    assert len(rows.students) == 15 and len(rows.answers) == 19  # the removed "Ben Okafor" and his answer left out
    assert sorted(s.nickname for s in rows.students if s.session_id == weeks[3]) == [
        "Anna Smith",
        "Dana Lee",
        "Farid Haddad",
        "Kit",
    ]
    listed = sorted((s.session_id, s.roster_name) for s in rows.students if s.roster_name)
    assert listed == [
        (3, "Anna Smith"),
        (3, "Ben Okafor"),
        (3, "Zoë Lefèvre"),
        (4, "Anna Smith"),
        (4, "Ben Okafor"),
        (4, "Farid Haddad"),
        (4, "Lefevre Zoe"),
    ]
    users = sorted((s.session_id, s.platform_user[1]) for s in rows.students if s.platform_user)
    assert users == [(1, "dana-1"), (2, "dana-1"), (4, "dana-2")]
    assert rows.rosters == (  # every name of the rosters, joined or not, in the roster's order
        (3, "Anna Smith"),
        (3, "Ben Okafor"),
        (3, "Zoë Lefèvre"),
        (4, "Anna Smith"),
        (4, "Ben Okafor"),
        (4, "Lefevre Zoe"),
        (4, "Farid Haddad"),
    )
    some = store.term_rows([weeks[4], weeks[2], weeks[4]])  # named in any order, once or twice: still in time order
    assert [s.id for s in some.sessions] == [weeks[2], weeks[4]] and len(some.students) == 8
    for missing in ([99], [weeks[1], 0], [2**40]):
        with pytest.raises(LookupError, match=f"No session {missing[-1]}"):
            store.term_rows(missing)


def test_the_term_of_the_four_weeks_has_the_numbers_worked_out_by_hand(store: Store) -> None:
    make_term_course(store)
    report = term_report(store.term_rows())
    found = [(m.name, m.exercises, m.sessions, m.persists, m.improved) for m in report.mistakes]
    assert found == MISTAKES
    assert [m.number for m in report.mistakes] == [1, 2, 3, 4]
    students = [
        (
            s.name,
            s.matched_by,
            [None if t is None else (t.right, t.answered, t.mistakes) for t in s.sessions],
            s.persists,
            s.improved,
        )
        for s in report.students
    ]
    assert students == STUDENTS
    # Anna counts under two rules: roster name (Ben, Zoë, Anna) and nickname (Anna, Farid, Kit)
    assert dict(report.matched) == {"platform user": 1, "roster name": 3, "nickname": 3, "one session only": 1}
    # two platform users of one name: never one person
    assert report.apart == (Apart("nickname", ("Dana Lee",), "two platform users have it"),)
    kit = report.students[5].sessions
    assert kit[0] is not None and kit[0].nickname == "Kit"


def test_an_empty_database_has_no_term(store: Store) -> None:
    report = term_report(store.term_rows())
    assert report.sessions == () and report.students == () and report.mistakes == ()
    assert "No sessions to read" in report.to_text()
    assert json.loads(report.to_json())["sessions"] == []


# --- who is one person ---------------------------------------------------------------------------------------------


def _student(number: int, session: int, nickname: str, listed: str = "", user: str | None = None) -> TermStudent:
    return TermStudent(number, session, nickname, listed, None if user is None else (1, user))


def test_two_roster_names_of_one_session_are_two_people_and_a_name_written_like_both_joins_neither() -> None:
    rows = [
        _student(1, 10, "Anna Smith", "Anna Smith"),
        _student(2, 11, "Anna Smith", "Anna Smith"),  # week 11's roster lists both, as two students
        _student(3, 11, "Smith Anna", "Smith Anna"),
        _student(4, 12, "Smith Anna", "Smith Anna"),
        _student(5, 13, "Anna Smíth", "Anna Smíth"),  # the key of both: it could be either
    ]
    matching = match_people(rows, [10, 11, 12, 13])
    assert sorted(sorted(s.id for s in p.students) for p in matching.people) == [[1, 2], [3, 4], [5]]
    # their key is not used: each is matched as listed, and the name written otherwise is said to match neither
    assert matching.apart == (Apart("roster name", ("Anna Smith", "Smith Anna", "Anna Smíth"), ALIKE),)
    assert [p.matched_by for p in matching.people] == ["roster name", "one session only", "roster name"]


def test_two_platform_users_are_never_one_person_whatever_their_names() -> None:
    rows = [
        _student(1, 10, "Sam Lee", "Sam Lee", "sam-1"),
        _student(2, 11, "Sam Lee", "Sam Lee", "sam-2"),
        _student(3, 12, "sam lee"),  # a nickname like both: it may be either, so it joins neither
        _student(4, 13, "Sam Lee", "", "sam-1"),  # the first again, by the platform, whatever the name
    ]
    matching = match_people(rows, [10, 11, 12, 13])
    assert sorted(sorted(s.id for s in p.students) for p in matching.people) == [[1, 4], [2], [3]]
    assert [p.matched_by for p in matching.people if len(p.students) == 2] == ["platform user"]


def test_one_platform_user_under_two_roster_names_is_left_apart() -> None:
    rows = [_student(1, 10, "Ann Lee", "Ann Lee", "u-1"), _student(2, 11, "Anna Lee", "Anna Lee", "u-1")]
    matching = match_people(rows, [10, 11])
    assert len(matching.people) == 2 and matching.apart == (Apart("platform user", ("Ann Lee", "Anna Lee"), TWO_NAMES),)


def _people(rows: list[TermStudent], order: list[int], rosters: tuple[tuple[int, str], ...] = ()) -> list[tuple]:
    return [(p.name, [s.id for s in p.students], p.matched_by) for p in match_people(rows, order, rosters).people]


def test_a_nickname_is_found_as_a_roster_name_by_the_join_pages_rule_but_two_nicknames_only_as_they_fold() -> None:
    rows = [
        _student(1, 10, "雷 李", "雷 李"),  # a homework's roster
        _student(2, 10, "Siobhán O’Neill", "Siobhán O’Neill"),
        _student(3, 10, "Jean-Luc Dupont", "Jean-Luc Dupont"),
        _student(4, 11, "李雷"),  # a live session without one: the trial's nicknames
        _student(5, 11, "Siobhan O'Neill"),
        _student(6, 11, "jean luc dupont"),
        _student(7, 12, "Zoe"),  # two nicknames with no roster name between them: as they fold only
        _student(8, 13, "Zoë"),
        _student(9, 12, "kit  moreau"),
        _student(10, 13, "Kit Moreau"),
    ]
    assert _people(rows, [10, 11, 12, 13]) == [
        ("Jean-Luc Dupont", [3, 6], "nickname"),
        ("Kit Moreau", [9, 10], "nickname"),
        ("Siobhán O’Neill", [2, 5], "nickname"),
        ("Zoe", [7], "one session only"),
        ("Zoë", [8], "one session only"),
        ("雷 李", [1, 4], "nickname"),
    ]


def test_a_nickname_found_by_the_key_never_joins_two_platform_users_two_of_a_session_or_names_written_alike() -> None:
    two_users = [
        _student(1, 10, "Siobhán O’Neill", "Siobhán O’Neill", "u-1"),
        _student(2, 11, "Siobhán O’Neill", "Siobhán O’Neill", "u-2"),
        _student(3, 12, "Siobhan O'Neill"),
    ]
    matching = match_people(two_users, [10, 11, 12])
    assert len(matching.people) == 3
    assert Apart("nickname", ("Siobhán O’Neill", "Siobhan O'Neill"), TWO_USERS) in matching.apart
    one_session = [
        _student(1, 10, "Jean-Luc Dupont", "Jean-Luc Dupont"),
        _student(2, 11, "jean luc dupont"),
        _student(3, 11, "Dupont Jean Luc"),  # the same key, in the same session: it could be either
    ]
    matching = match_people(one_session, [10, 11])
    assert len(matching.people) == 3
    assert matching.apart == (
        Apart(
            "nickname", ("Jean-Luc Dupont", "jean luc dupont", "Dupont Jean Luc"), "two students of one session have it"
        ),
    )
    # the roster lists Anna Smith and Smith Anna; only Anna Smith joined: "smith, anna" could be either
    alike = [_student(1, 10, "Anna Smith", "Anna Smith"), _student(2, 11, "smith, anna")]
    assert _people(alike, [10, 11]) == [  # without the roster's other name, the key finds her
        ("Anna Smith", [1, 2], "nickname")
    ]
    listed = ((10, "Anna Smith"), (10, "Smith Anna"))
    matching = match_people(alike, [10, 11], listed)
    assert len(matching.people) == 2
    assert matching.apart == (Apart("roster name", ("Anna Smith", "Smith Anna", "smith, anna"), ALIKE),)


def test_a_name_matched_as_listed_is_not_said_to_be_left_apart() -> None:
    """The trial's note named Zoë Lefèvre as matched by nobody while her row was matched across her three sessions:
    her roster also listed a Zoe Lefevre, so their shared key was left apart, and the note named the key's first
    student. Now the key is set aside from the start and said only when it would have found someone."""
    rows = [
        _student(1, 10, "Zoë Lefèvre", "Zoë Lefèvre"),
        _student(2, 10, "Zoe Lefevre", "Zoe Lefevre"),
        _student(3, 11, "Zoë Lefèvre", "Zoë Lefèvre"),
        _student(4, 12, "Zoë Lefèvre"),
    ]
    matching = match_people(rows, [10, 11, 12])
    assert _people(rows, [10, 11, 12]) == [
        ("Zoe Lefevre", [2], "one session only"),
        ("Zoë Lefèvre", [1, 3, 4], "roster name, nickname"),
    ]
    assert matching.apart == ()
    report = term_report(
        TermRows(
            tuple(_session(k, f"s{k}", k) for k in (10, 11, 12)), tuple(rows), (_answer("1", 1, "03.1", "correct"),)
        )
    )
    assert "left apart" not in report.to_text() and "may be two people" not in report.to_text()
    rows.append(_student(5, 13, "Lefevre Zoe"))  # a third spelling, which only the key would find: it finds neither
    matching = match_people(rows, [10, 11, 12, 13])
    assert len(matching.people) == 3
    assert matching.apart == (Apart("roster name", ("Zoë Lefèvre", "Zoe Lefevre", "Lefevre Zoe"), ALIKE),)


def test_the_trials_three_names_typed_otherwise_in_a_live_session_are_the_rosters_students(store: Store) -> None:
    weeks = make_typed_names_course(store)
    report = term_report(store.term_rows())
    students = [
        (
            s.name,
            s.matched_by,
            [None if t is None else (t.nickname, t.right, t.answered, t.mistakes) for t in s.sessions],
            s.persists,
            s.improved,
        )
        for s in report.students
    ]
    assert students == [
        (
            "Jean-Luc Dupont",
            "roster name, nickname",
            [
                ("Jean-Luc Dupont", 0, 1, ("no clipping",)),
                ("Jean-Luc Dupont", 1, 1, ()),
                ("jean luc dupont", 0, 1, ("no clipping",)),
            ],
            ("no clipping",),  # made again in week 3: it persists, he did not improve
            (),
        ),
        (
            "Siobhán O’Neill",
            "roster name, nickname",
            [
                ("Siobhán O’Neill", 0, 1, ("no penalty",)),
                ("Siobhán O’Neill", 1, 1, ()),
                ("Siobhan O'Neill", 0, 1, ("no penalty",)),
            ],
            ("no penalty",),
            (),
        ),
        (
            "雷 李",
            "roster name, nickname",
            [("雷 李", 1, 1, ()), ("雷 李", 0, 1, ("no penalty",)), ("李雷", 1, 1, ())],
            (),
            ("no penalty",),
        ),
    ]
    assert [(m.number, m.name, m.exercises, m.sessions, m.persists, m.improved) for m in report.mistakes] == [
        (1, "no penalty", ("03.1",), ((1, 2), (1, 2), (1, 2)), 1, 1),
        (2, "no clipping", ("01.1", "02.1"), ((1, 1), (0, 1), (1, 1)), 1, 0),
    ]
    assert dict(report.matched) == {"platform user": 0, "roster name": 3, "nickname": 3, "one session only": 0}
    assert report.apart == ()
    # a roster session and the session without roster alone: the same three people
    two = term_report(store.term_rows([weeks[1], weeks[3]]))
    assert [(s.name, s.matched_by, s.persists, s.improved) for s in two.students] == [
        ("Jean-Luc Dupont", "nickname", ("no clipping",), ()),
        ("Siobhán O’Neill", "nickname", ("no penalty",), ()),
        ("雷 李", "nickname", (), ()),
    ]


# --- the numbers, from rows made by hand ---------------------------------------------------------------------------

DAY = datetime(2026, 1, 5, 9, 0, tzinfo=timezone.utc)


def _session(number: int, title: str, days: int) -> Session:
    return Session(number, f"CODE{number:02d}", title, "live", DAY + timedelta(days=days), None, None)


def _answer(key: str, student: int, exercise: str, verdict: str, mistake: str = "", minutes: int = 0) -> Answer:
    return Answer(key, student, exercise, "1", verdict, mistake, DAY + timedelta(minutes=minutes), False)


def test_a_mistake_fixed_then_made_again_persists_and_a_relapse_is_no_improvement() -> None:
    sessions = (_session(1, "a", 0), _session(2, "b", 7), _session(3, "c", 14))
    rows = TermRows(
        sessions,
        tuple(_student(k, k, "Ada") for k in (1, 2, 3)),
        (
            _answer("1", 1, "03.1", "misconception", "no penalty"),
            _answer("2", 2, "03.1", "correct"),
            _answer("3", 3, "03.1", "misconception", "no penalty"),
        ),
    )
    (line,) = term_report(rows).mistakes
    assert (line.sessions, line.persists, line.improved) == (((1, 1), (0, 1), (1, 1)), 1, 0)


def test_an_exercise_the_bank_does_not_have_can_show_the_mistakes_judged_on_it() -> None:
    sessions = (_session(1, "a", 0), _session(2, "b", 7))
    rows = TermRows(
        sessions,
        (_student(1, 1, "Ada"), _student(2, 2, "Ada")),
        (_answer("1", 1, "99.9", "misconception", "halved"), _answer("2", 2, "99.9", "correct")),
    )
    report = term_report(rows)
    assert [(m.name, m.exercises, m.sessions, m.improved) for m in report.mistakes] == [
        ("halved", ("99.9",), ((1, 1), (0, 1)), 1)
    ]
    nothing = term_report(rows, known=lambda _: frozenset())  # the bank's lists are not needed for what was seen
    assert nothing.mistakes == report.mistakes


def test_every_typed_name_is_escaped_in_every_format() -> None:
    script, colour = "<script>alert(1)</script>", "Red\x1b[31m"
    rows = TermRows(
        (_session(1, script, 0), _session(2, colour, 7)),
        (_student(1, 1, script), _student(2, 2, colour, colour)),
        (
            _answer("1", 1, "03.1", "misconception", f"{script} {colour}"),
            _answer("2", 2, "03.1", "misconception", f"{script} {colour}"),
        ),
    )
    report = term_report(rows)
    text, markdown, page = report.to_text(), report.to_markdown(), report.to_html()
    for shown in (text, page):
        assert "\x1b" not in shown and "Red\\x1b[31m" in shown
    assert "\x1b" not in markdown and "Red\\\\x1b\\[31m" in markdown  # the escape shown, Markdown's [ escaped
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "<script>" not in markdown and "\\<script\\>" in markdown
    assert json.loads(report.to_json())["students"][1]["name"] == colour  # JSON keeps the name as typed, escaped


# --- the command ---------------------------------------------------------------------------------------------------


def test_class_term_shows_the_four_weeks_as_text(course: tuple[str, dict[int, int]], capsys) -> None:
    path, _ = course
    code, out, err = _cli(capsys, "class", "term", "--database", path)
    assert code == 0, err
    assert f"records: {path}" in err
    lines = out.splitlines()
    assert lines[0] == "The class over the term"
    assert lines[2].startswith("4 sessions, from 2026-10-05 to 2026-10-26, 7 students. 6 were found in more than")
    assert "(LTI) for 1, their roster name" in lines[2] and "1 was in one session only." in lines[2]
    assert "M1, M2, ... are this view's own numbers" in lines[5]  # the table's caption
    assert " ".join(LABELS) in " ".join(lines[6].split())  # the sessions head the columns, oldest first
    shares = {line.split()[0]: line.split()[-6:] for line in lines[7:11]}  # made/answered each week, persists, improved
    assert shares == {
        "M1": ["1/2", "1/3", "1/2", "1/1", "1", "1"],
        "M2": ["0/1", "1/2", "1/2", "1/2", "1", "1"],
        "M3": ["0/1", "0/2", "1/2", "0/4", "0", "0"],
        "M4": ["0/2", "1/3", "0/2", "1/3", "1", "0"],
    }
    assert lines[7].split()[:6] == ["M1", "no", "clipping", "01.1,", "02.1,", "07.1"]
    start = lines.index("Students") + 3
    cells = [line.split("  ") for line in lines[start : start + 7]]
    assert [[c.strip() for c in row if c.strip()] for row in cells] == STUDENT_CELLS
    assert "  - “Dana Lee” (nickname): two platform users have it" in lines


def test_class_term_in_markdown_html_and_json(course: tuple[str, dict[int, int]], capsys) -> None:
    path, weeks = course
    code, markdown, _ = _cli(capsys, "class", "term", "--database", path, "--format", "markdown")
    assert code == 0
    assert "| M2 no penalty | 03.1 | 0/1 | 1/2 | 1/2 | 1/2 | 1 | 1 |" in markdown
    assert "| Ben Okafor | roster name | - | 1/2 M2 | - | 1/1 |   | M2 |" in markdown
    code, page, _ = _cli(capsys, "class", "term", "--database", path, "--format", "html")
    assert code == 0 and page.startswith("<!DOCTYPE html>") and "<title>The class over the term</title>" in page
    assert '<th scope="row" class="gram">M3 first reference</th><td>03.1, 04.1</td><td>0/1</td>' in page
    code, text, _ = _cli(capsys, "class", "term", str(weeks[4]), str(weeks[2]), "--database", path, "--format", "json")
    assert code == 0
    data = json.loads(text)
    assert [s["label"] for s in data["sessions"]] == [LABELS[1], LABELS[3]]
    assert data["students_count"] == 5 and data["definitions"] == DEFINITIONS  # Anna, Ben, Zoë, Farid, Dana
    assert data["matched"] == {"platform user": 0, "roster name": 3, "nickname": 0, "one session only": 2}
    anna = next(s for s in data["students"] if s["name"] == "Anna Smith")
    assert anna == {
        "name": "Anna Smith",
        "matched_by": "roster name",
        "sessions": [
            {"session": weeks[2], "nickname": "Anna Smith", "answered": 2, "right": 1, "mistakes": ["no clipping"]},
            {"session": weeks[4], "nickname": "Anna Smith", "answered": 1, "right": 0, "mistakes": ["no clipping"]},
        ],
        "persists": ["no clipping"],
        "improved": [],
    }
    clipping = next(m for m in data["mistakes"] if m["name"] == "no clipping")
    assert [(s["made"], s["answered"]) for s in clipping["sessions"]] == [(1, 3), (1, 1)]
    assert [s["points"] for s in data["chart"]["series"] if s["label"].endswith("no clipping")] == [
        [[1.0, 100 / 3], [2.0, 100.0]]
    ]


class _Tags(HTMLParser):
    """The start tags of a page as a browser's parser finds them (a tag written as text is no tag)."""

    def __init__(self, page: str) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.feed(page)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)


def _drawn(page: str) -> tuple[str, list[str], list[str]]:
    """The page's one SVG, its texts (as written: escaped) and the styles of its data lines (the paths clipped to
    the axes, less the grid's)."""
    assert page.count("<svg") == 1 and page.count("</svg>") == 1
    svg = page[page.index("<svg") : page.index("</svg>") + len("</svg>")]
    texts = re.findall(r"<text\b[^>]*>([^<]*)</text>", svg)
    lines = [
        style
        for style in re.findall(r'<path\b[^>]*\bclip-path="url\(#\w+\)"[^>]*\bstyle="([^"]*)"', svg)
        if "#b0b0b0" not in style
    ]
    return svg, texts, lines


def test_class_term_in_html_draws_the_chart_with_its_words_as_caption(
    course: tuple[str, dict[int, int]], tmp_path: Path, capsys
) -> None:
    path, _ = course
    first, second = tmp_path / "term.html", tmp_path / "again.html"
    for out in (first, second):
        code, _, err = _cli(capsys, "class", "term", "--database", path, "--format", "html", "--out", str(out))
        assert code == 0, err
    page = first.read_text(encoding="utf-8")
    assert first.read_bytes() == second.read_bytes()  # the same file twice: no date, no random ids
    svg, texts, lines = _drawn(page)
    assert "<dc:date>" not in svg and "<?xml" not in page and "<!DOCTYPE svg" not in page
    # one line per named mistake, in the palette's order, each through its four sessions
    assert [t for t in texts if t.startswith("M")] == [
        "M1 no clipping",
        "M2 no penalty",
        "M3 first reference",
        "M4 strings",
    ]
    assert [re.findall(r"stroke: (#\w+)", style) for style in lines] == [  # the palette's first four, in order
        ["#0072b2"],
        ["#e69f00"],
        ["#009e73"],
        ["#d55e00"],
    ]
    drawn = re.findall(r'<path d="([^"]*)"[^>]*\bclip-path', svg)  # each line from its first session to its 4th
    assert [d.count("L") for d in drawn if d.count("L") > 1] == [3, 3, 3, 3]
    # the title, wrapped to the figure's width, just before the legend
    assert " ".join(texts[-6:-4]) == "Share of the students who made each mistake, session by session"
    # the image named by the chart's title; the words, once, as the figure's caption
    assert svg.startswith(
        '<svg role="img" aria-label="Share of the students who made each mistake, session by session"'
    )
    assert page.count("Line chart titled") == 1
    caption = page[page.index("<figcaption>") : page.index("</figcaption>")]
    assert caption.startswith(
        "<figcaption><p>Line chart titled &quot;Share of the students who made each mistake, session by session"
        "&quot;. Horizontal axis: session, 1 to 4 (1 is Week 1 live (2026-10-05); 2 is Week 2 homework"
    )
    assert "M1 no clipping falls from 50 in Week 1 live (2026-10-05) to 33 in Week 2 homework" in caption
    assert page.index("</table>") < page.index("<figure") < page.index("</figure>") < page.index("<h2>Students</h2>")
    tags = _Tags(page).tags
    assert tags.count("figure") == tags.count("figcaption") == tags.count("svg") == 1
    assert not {"script", "img", "link", "iframe"} & set(tags)  # nothing that runs, nothing from the network
    # the other views say the chart in words, as before
    for form in ("text", "markdown"):
        code, shown, _ = _cli(capsys, "class", "term", "--database", path, "--format", form)
        assert code == 0 and "<svg" not in shown and shown.count("Line chart titled") == 1


def test_the_term_page_draws_typed_names_as_text_and_runs_nothing() -> None:
    script = "<script>alert(1)</script>"
    rows = TermRows(
        (_session(1, script, 0), _session(2, "Week $2$\x1b[31m", 7)),
        (_student(1, 1, script), _student(2, 2, "Ada")),
        (
            _answer("1", 1, "03.1", "misconception", f"{script} $5 or $6 \x1b[31m\u202e"),
            _answer("2", 2, "03.1", "correct"),
        ),
    )
    page = term_page(term_report(rows))
    assert "<script" not in page.lower() and "\x1b" not in page and "\u202e" not in page
    assert "script" not in _Tags(page).tags
    _, texts, lines = _drawn(page)
    assert texts[-1] == "M1 &lt;script&gt;alert(1)&lt;/script&gt; $5 or $6 \\x1b[31m\\u202e"  # dollars, not mathtext
    assert len(lines) == 1
    caption = page[page.index("<figcaption>") : page.index("</figcaption>")]
    assert "1 is &lt;script&gt;alert(1)&lt;/script&gt; (2026-01-05); 2 is Week $2$\\x1b[31m (2026-01-12)" in caption
    assert page == term_page(term_report(rows))
    nothing = TermRows(rows.sessions, rows.students, (_answer("1", 1, "03.1", "correct"),))
    plain = term_page(term_report(nothing))  # no named mistake: no chart to draw
    assert "<svg" not in plain and "No named mistake was made in these sessions." in plain


def _many_mistakes() -> TermRows:
    """Two sessions a week apart. In the first, Ada answers exercises E01 to E21 each with its own named mistake
    ("mistake 01" to "mistake 21"), and Bo answers E15 to E21 with theirs; in the second, Ada answers E01 right.
    So mistakes 15 to 21 were made by two students (M1 to M7, by name), the others by one (M8 "mistake 01" to M21
    "mistake 14")."""
    answers = [_answer(f"a{k}", 1, f"E{k:02d}", "misconception", f"mistake {k:02d}", k) for k in range(1, 22)]
    answers += [_answer(f"b{k}", 2, f"E{k:02d}", "misconception", f"mistake {k:02d}", k) for k in range(15, 22)]
    answers.append(_answer("c", 3, "E01", "correct", minutes=60 * 24 * 7))
    students = (_student(1, 1, "Ada"), _student(2, 1, "Bo"), _student(3, 2, "Ada"))
    return TermRows((_session(1, "Week 1", 0), _session(2, "Week 2", 7)), students, tuple(answers))


def test_the_chart_of_21_mistakes_draws_the_8_most_made_with_its_legend_beside_the_plot() -> None:
    report = term_report(_many_mistakes(), known=lambda _: frozenset())
    shown = [f"M{k} mistake {n:02d}" for k, n in enumerate([15, 16, 17, 18, 19, 20, 21, 1], start=1)]
    assert [f"M{m.number} {m.name}" for m in report.mistakes][:8] == shown and len(report.mistakes) == 21
    chart = report.chart()
    assert chart is not None
    assert [series.label for series in chart.series] == shown  # the 8 most made, not the first 8 by name
    assert chart.title == "The 8 mistakes most students made (of 21): the share who made each, session by session"
    assert "Drawn: M1 to M8, the 8 mistakes most students made; the table lists all 21." in chart.description
    assert chart.y_label == "% of students who could make it"
    assert report.chart_ticks() == ((1.0, "1\n5 Jan"), (2.0, "2\n12 Jan"))
    figure = draw_chart(chart, report.chart_ticks())
    figure.draw_without_rendering()
    (legend,) = figure.legends
    (axes,) = figure.axes
    assert [text.get_text() for text in legend.get_texts()] == shown
    box, plot, whole = legend.get_window_extent(), axes.get_window_extent(), figure.bbox
    assert box.y1 <= plot.y0 and not box.overlaps(plot)  # below the plot, not over its lines
    assert box.y1 <= axes.xaxis.label.get_window_extent().y0  # and below the axis's label
    assert whole.x0 <= box.x0 and box.x1 <= whole.x1 and whole.y0 <= box.y0  # within the figure
    assert plot.height >= 200  # the plot keeps its size: the figure grew by the legend's
    assert axes.yaxis.label.get_window_extent().x0 >= whole.x0  # the vertical axis's label not cut off
    assert axes.title.get_window_extent().y1 <= whole.y1 and axes.title.get_window_extent().y0 >= plot.y1
    assert [t.get_text() for t in axes.get_xticklabels()] == ["1\n5 Jan", "2\n12 Jan"]
    page = term_page(report)
    _, texts, lines = _drawn(page)
    assert [t for t in texts if t.startswith("M")] == shown and len(lines) == 8
    caption = page[page.index("<figcaption>") : page.index("</figcaption>")]
    assert "Drawn: M1 to M8, the 8 mistakes most students made; the table lists all 21." in caption
    assert '<th scope="row" class="gram">M21 mistake 14</th>' in page  # the table keeps every mistake


def test_the_term_page_fits_a_phone_its_tables_scrolling_in_their_own_boxes(course: tuple[str, dict[int, int]]) -> None:
    path, _ = course
    for opened in opened_store(path):
        page = term_page(term_report(opened.term_rows()))
    head = page[: page.index("</head>")]
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in head
    assert ".table-box{max-width:100%;overflow-x:auto}" in head
    boxes = re.findall(r'<div class="table-box"[^>]*>', page)
    assert boxes == [
        '<div class="table-box" role="region" tabindex="0" aria-labelledby="table-1">',
        '<div class="table-box" role="region" tabindex="0" aria-labelledby="table-2">',
    ]
    assert '<p id="table-1"><b>Each session: students who made the mistake' in page
    assert '<p id="table-2"><b>Each session: right / answered' in page
    assert 'style="display:block;width:100%;max-width:48em;height:auto"' in page  # the drawing scales


def test_class_term_writes_a_file_for_its_owner_only_and_never_over_one(
    course: tuple[str, dict[int, int]], tmp_path: Path, capsys
) -> None:
    path, _ = course
    out = tmp_path / "term.md"
    code, printed, _ = _cli(capsys, "class", "term", "--database", path, "--format", "markdown", "--out", str(out))
    assert code == 0 and "written to" in printed and "| Kit |" not in printed
    assert stat.S_IMODE(out.stat().st_mode) == 0o600 and "| Kit | nickname |" in out.read_text(encoding="utf-8")
    code, _, err = _cli(capsys, "class", "term", "--database", path, "--out", str(out))
    assert code == 2 and "exists" in err and "--force" in err
    assert "| Kit |" in out.read_text(encoding="utf-8")  # kept
    code, _, _ = _cli(capsys, "class", "term", "--database", path, "--out", str(out), "--force")
    assert code == 0 and out.read_text(encoding="utf-8").startswith("The class over the term\n")
    code, _, err = _cli(capsys, "class", "term", "--database", path, "--force")
    assert code == 2 and "--force goes with --out" in err


def test_class_term_names_a_session_that_does_not_exist(course: tuple[str, dict[int, int]], capsys) -> None:
    path, weeks = course
    code, out, err = _cli(capsys, "class", "term", str(weeks[1]), "99", "--database", path)
    assert code == 2 and out == ""
    assert "error: No session 99. (class list shows the sessions)" in err


def test_class_term_only_reads_an_empty_database_and_never_makes_one(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "nothing-here.sqlite"
    code, out, err = _cli(capsys, "class", "term", "--database", str(missing))
    assert code == 2 and out == "" and "no classroom database at" in err
    assert not missing.exists() and list(tmp_path.iterdir()) == []
    empty = tmp_path / "empty.sqlite"
    Store.open(empty).close()
    code, out, _ = _cli(capsys, "class", "term", "--database", str(empty))
    assert code == 0 and out.startswith("The class over the term\n\nNo sessions to read")
    code, out, _ = _cli(capsys, "class", "term", "--database", str(empty), "--format", "json")
    assert code == 0 and json.loads(out)["sessions"] == [] and json.loads(out)["chart"] is None


def test_class_archive_holds_the_term_as_json(course: tuple[str, dict[int, int]], tmp_path: Path, capsys) -> None:
    path, weeks = course
    out = tmp_path / "course.zip"
    code, _, err = _cli(capsys, "class", "archive", str(weeks[2]), str(weeks[4]), "--database", path, "--out", str(out))
    assert code == 0, err
    with zipfile.ZipFile(out) as zipped:
        archived = json.loads(zipped.read("term.json"))
    _, shown, _ = _cli(capsys, "class", "term", str(weeks[2]), str(weeks[4]), "--database", path, "--format", "json")
    assert archived == json.loads(shown)
