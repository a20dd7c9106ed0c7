"""The class over a term (``class term``): who is the same student across sessions, the numbers per named mistake
and per student, and the view in its four formats.

The course is ``tests/fixtures/term_course.py``'s four weeks, on SQLite and on PostgreSQL (a throwaway cluster,
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
import time
import zipfile
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from bleu_teach.classroom.people import match_people  # noqa: E402
from bleu_teach.classroom.schema import Answer, Session  # noqa: E402
from bleu_teach.classroom.store import Store  # noqa: E402
from bleu_teach.classroom.store_term import TermRows, TermStudent  # noqa: E402
from bleu_teach.classroom.term import DEFINITIONS, term_report  # noqa: E402
from bleu_teach.ui.cli import main  # noqa: E402
from bleu_teach.ui.term_command import term_page  # noqa: E402
from tests.fixtures.term_course import make_term_course  # noqa: E402
from tests.postgres import cluster, fresh_database  # noqa: E402

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
        "nickname",
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
    ["Anna Smith", "nickname", "1/1", "1/2 M1", "0/1 M1", "0/1 M1", "M1"],
    ["Ben Okafor", "roster name", "-", "1/2 M2", "-", "1/1", "M2"],
    ["Dana Lee", "platform user", "1/1", "-", "0/1 M3", "-"],
    ["Dana Lee", "one session only", "-", "-", "-", "1/1"],
    ["Farid Haddad", "nickname", "-", "-", "0/1 M2", "0/1 M2", "M2"],
    ["Kit", "nickname", "0/1 M1", "-", "1/1", "-", "M1"],
    ["Lefevre Zoe", "roster name", "-", "0/1 M4", "-", "0/1 M4", "M4"],
]


@pytest.fixture(scope="module")
def postgres_base() -> Iterator[str]:
    with cluster() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "classroom.sqlite")
    return fresh_database(request.getfixturevalue("postgres_base"))


def _opened(where: str) -> Iterator[Store]:
    opened = Store.open(where)
    yield opened
    while opened.notices_out.pending:  # a change told late (PostgreSQL's NOTIFY, coalesced) is sent before closing
        time.sleep(0.01)
    opened.close()


@pytest.fixture
def store(where: str) -> Iterator[Store]:
    yield from _opened(where)


@pytest.fixture
def course(tmp_path: Path) -> Iterator[tuple[str, dict[int, int]]]:
    """The four weeks in a SQLite file: its path and the sessions' numbers by week (for the command's tests)."""
    path = str(tmp_path / "course.sqlite")
    for opened in _opened(path):
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
    assert dict(report.matched) == {"platform user": 1, "roster name": 2, "nickname": 3, "one session only": 1}
    assert report.apart == (("nickname", "Dana Lee"),)  # two platform users of one name: never one person
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
    assert ("roster name", "Anna Smith") in matching.apart


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
    assert len(matching.people) == 2 and matching.apart == (("platform user", "Ann Lee"),)


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
    assert lines[2].startswith("4 sessions, from 2026-10-05 to 2026-10-26, 7 students. The same student")
    assert "for 1, their roster name" in lines[2] and "1 was in one session only." in lines[2]
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
    assert "  - “Dana Lee” (nickname)" in lines


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
