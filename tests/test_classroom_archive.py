"""What a teacher takes away of a course: the polls' CSV (each round, each option, its votes) and ``class archive``,
one zip with every session's answers, polls and grades and a JSON of the whole course, made before a delete.

On SQLite and on PostgreSQL (a throwaway cluster, tests/postgres.py), as the store's tests run. The counts below
are worked out by hand from the votes the test casts.
"""

from __future__ import annotations

import csv
import io
import json
import re
import stat
import uuid
import zipfile
from datetime import datetime, timezone
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

from starlette.testclient import TestClient  # noqa: E402

from bleu_teach.classroom.app import create_app  # noqa: E402
from bleu_teach.classroom.store import Store  # noqa: E402
from bleu_teach.ui.cli import main  # noqa: E402

WRITE = {"X-Bleu-Teach": "1"}
TOKEN = "teacher-token-for-archive-tests"
UTC_SECOND = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00")


def _browser(store: Store) -> TestClient:
    return TestClient(create_app(store, TOKEN), base_url="http://class.test")


def _teacher(store: Store) -> tuple[TestClient, dict]:
    browser = _browser(store)
    assert browser.get(f"/class/teach?token={TOKEN}", follow_redirects=False).status_code == 303
    made = browser.post("/class/api/sessions", json={"title": "week 5"}, headers=WRITE).json()
    assert browser.get(made["teacher_link"], follow_redirects=False).status_code == 303
    return browser, made


def _vote(phone: TestClient, poll: int, choice: str) -> None:
    sent = phone.post(
        "/class/api/poll/vote", headers=WRITE, json={"poll": poll, "id": str(uuid.uuid4()), "choice": choice}
    )
    assert sent.status_code == 200, sent.text


def _class_with_polls(store: Store) -> tuple[TestClient, dict, dict[str, TestClient], list[int]]:
    """A live session: four students, a bank question (03.2, right answer E) asked twice, then the presenter's own
    question; Dee, who voted B in round 1, is taken out before the count. The polls' numbers, in order."""
    teacher, made = _teacher(store)
    phones = {}
    for name in ("Ann", "Ben", "Cid", "Dee"):
        phone = _browser(store)
        joined = phone.post("/class/api/join", json={"code": made["code"], "nickname": name}, headers=WRITE)
        assert joined.status_code == 200, joined.text
        phones[name] = phone
    polls = f"/class/api/sessions/{made['id']}/polls"
    first = teacher.post(polls, headers=WRITE, json={"exercise": "03.2"}).json()["poll"]["id"]
    for name, choice in (("Ann", "A"), ("Ben", "E"), ("Cid", "E"), ("Dee", "B")):
        _vote(phones[name], first, choice)
    teacher.post(f"{polls}/{first}/close", headers=WRITE, json={})
    second = teacher.post(f"{polls}/{first}/again", headers=WRITE, json={}).json()["poll"]["id"]
    for name, choice in (("Ann", "E"), ("Ben", "E"), ("Cid", "C")):
        _vote(phones[name], second, choice)
    teacher.post(f"{polls}/{second}/close", headers=WRITE, json={})
    own = teacher.post(
        polls, headers=WRITE, json={"question": '=HYPERLINK("http://evil.example")', "options": ["@SUM(A1)", "two"]}
    ).json()["poll"]["id"]
    for name, choice in (("Ann", "A"), ("Ben", "B"), ("Cid", "A"), ("Dee", "B")):
        _vote(phones[name], own, choice)
    teacher.post(f"{polls}/{own}/close", headers=WRITE, json={})
    dee = next(
        s["id"]
        for s in teacher.get(f"/class/api/sessions/{made['id']}/tally").json()["roster"]
        if s["nickname"] == "Dee"
    )
    assert (
        teacher.post(f"/class/api/sessions/{made['id']}/students/{dee}/remove", headers=WRITE, json={}).status_code
        == 200
    )
    return teacher, made, phones, [first, second, own]


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_the_polls_csv_gives_each_round_and_option_its_votes_and_the_right_answer(store: Store) -> None:
    teacher, made, _, (first, second, own) = _class_with_polls(store)
    response = teacher.get(f"/class/api/sessions/{made['id']}/polls.csv")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    assert f'filename="bleu-teach-polls-{made["id"]}.csv"' in response.headers["content-disposition"]
    rows = _rows(response.text)
    assert rows[0] == ["poll", "round", "question", "option", "option text", "votes", "right answer", "opened (UTC)"]
    assert len(rows) == 1 + 6 + 6 + 2  # 03.2 has options A to F in each round; the own question two
    # (poll, round, option, votes, right): Dee's B of round 1 and B of the own question are not counted.
    assert [(row[0], row[1], row[3], row[5], row[6]) for row in rows[1:]] == [
        (str(first), "1", "A", "1", "no"),
        (str(first), "1", "B", "0", "no"),
        (str(first), "1", "C", "0", "no"),
        (str(first), "1", "D", "0", "no"),
        (str(first), "1", "E", "2", "yes"),
        (str(first), "1", "F", "0", "no"),
        (str(first), "2", "A", "0", "no"),  # round 2 carries round 1's number
        (str(first), "2", "B", "0", "no"),
        (str(first), "2", "C", "1", "no"),
        (str(first), "2", "D", "0", "no"),
        (str(first), "2", "E", "2", "yes"),
        (str(first), "2", "F", "0", "no"),
        (str(own), "1", "A", "2", ""),  # the presenter's own question has no right answer
        (str(own), "1", "B", "1", ""),
    ]
    assert second != first
    assert rows[13][2] == '\'=HYPERLINK("http://evil.example")' and [rows[13][4], rows[14][4]] == ["'@SUM(A1)", "two"]
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows[1:] for cell in row)
    assert all(UTC_SECOND.fullmatch(row[7]) for row in rows[1:])


def test_the_polls_csv_is_the_teachers_only(store: Store) -> None:
    teacher, made, phones, _ = _class_with_polls(store)
    path = f"/class/api/sessions/{made['id']}/polls.csv"
    assert phones["Ann"].get(path).status_code in (401, 403)  # a student
    assert _browser(store).get(path).status_code in (401, 403)  # nobody
    other, _ = _teacher(store)
    assert other.get(path).status_code in (401, 403)  # another session's teacher
    assert "polls.csv" in teacher.get(f"/class/dashboard/{made['id']}").text  # the dashboard links it


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _homework(store: Store) -> int:
    """A homework with one student, Eve, who has an extension and has not answered yet."""
    session, _ = store.create_session("Homework 1", "homework", due=datetime(2031, 1, 5, 9, 0, tzinfo=timezone.utc))
    store.join(session, "Eve")
    store.extend(session.id, "Eve", datetime(2031, 1, 6, 16, 30, tzinfo=timezone.utc))
    return session.id


def test_class_archive_writes_one_zip_of_every_session_readable_by_its_owner_only(
    store: Store, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    teacher, made, phones, (first, _, _) = _class_with_polls(store)
    sent = phones["Ann"].post(
        "/class/api/answers", headers=WRITE, json={"id": str(uuid.uuid4()), "exercise": "03.1", "answer": "=1+1"}
    )
    assert sent.status_code == 200
    homework = _homework(store)
    out = tmp_path / "course.zip"
    code, printed, _ = _cli(capsys, "class", "archive", "--database", where, "--out", str(out))
    assert code == 0 and "2 sessions" in printed
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    live = made["id"]
    with zipfile.ZipFile(out) as zipped:
        assert sorted(zipped.namelist()) == sorted(
            [
                f"session-{live}/answers.csv",
                f"session-{live}/polls.csv",
                f"session-{homework}/answers.csv",
                f"session-{homework}/polls.csv",
                f"session-{homework}/grades.csv",
                "course.json",
                "term.json",
            ]
        )
        answers = _rows(zipped.read(f"session-{live}/answers.csv").decode("utf-8"))
        polls = zipped.read(f"session-{live}/polls.csv").decode("utf-8")
        grades = _rows(zipped.read(f"session-{homework}/grades.csv").decode("utf-8"))
        course = json.loads(zipped.read("course.json"))
    assert answers[1][:3] == ["Ann", "03.1", "'=1+1"] and answers[1][-1] == "no"
    assert polls == teacher.get(f"/class/api/sessions/{live}/polls.csv").text  # the dashboard's download
    assert answers == _rows(teacher.get(f"/class/api/sessions/{live}/export.csv").text)
    assert grades == [
        ["Name", "Homework 1", "Maximum points", "Homework 1 (%)", "Late", "Extended until"],
        ["Eve", "", "0", "", "", "2031-01-06T16:30+00:00"],
    ]
    assert set(course) == {"format", "version", "made", "sessions"}
    assert [s["id"] for s in course["sessions"]] == [live, homework]
    session = course["sessions"][0]
    assert set(session) >= {"title", "kind", "students", "answers", "polls", "roster", "extensions", "due", "late"}
    assert [(s["nickname"], s["removed"] is None) for s in session["students"]] == [
        ("Ann", True),
        ("Ben", True),
        ("Cid", True),
        (session["students"][3]["nickname"], False),  # Dee, taken out: renamed and marked
    ]
    assert len(session["polls"]) == 3 and session["polls"][0]["poll"] == first
    assert [o["votes"] for o in session["polls"][0]["options"]] == [1, 0, 0, 0, 2, 0]
    assert session["polls"][0]["right"] == "E" and session["polls"][2]["right"] == ""
    assert len(session["answers"]) == 1 and session["answers"][0]["answer"] == "=1+1"  # JSON keeps it as typed
    assert course["sessions"][1]["extensions"] == [{"name": "Eve", "until": "2031-01-06T16:30:00+00:00"}]


def test_class_archive_keeps_an_existing_file_unless_forced_and_archives_only_the_sessions_named(
    store: Store, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    homework = _homework(store)
    _teacher(store)
    out = tmp_path / "kept.zip"
    out.write_text("an older archive")
    code, printed, err = _cli(capsys, "class", "archive", str(homework), "--database", where, "--out", str(out))
    assert code == 2 and "exists" in err and "--force" in err and printed == ""
    assert out.read_text() == "an older archive"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".kept")] == []  # nothing half-written left
    code, printed, _ = _cli(
        capsys, "class", "archive", str(homework), "--database", where, "--out", str(out), "--force"
    )
    assert code == 0 and "1 session " in printed
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    with zipfile.ZipFile(out) as zipped:
        assert sorted(zipped.namelist()) == [
            "course.json",
            f"session-{homework}/answers.csv",
            f"session-{homework}/grades.csv",
            f"session-{homework}/polls.csv",
            "term.json",
        ]


def test_class_delete_says_how_to_keep_a_copy_and_with_archive_writes_it_then_deletes(
    store: Store, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, made, _, _ = _class_with_polls(store)
    live = made["id"]
    homework = _homework(store)
    missing = tmp_path / "no such folder" / "week5.zip"
    code, printed, err = _cli(capsys, "class", "delete", str(live), "--database", where, "--archive", str(missing))
    assert code == 2 and "does not exist" in err and "deleted" not in printed
    assert not missing.parent.exists()
    assert store.session(live).title == "week 5"  # a failed archive deletes nothing
    out = tmp_path / "week5.zip"
    code, printed, _ = _cli(capsys, "class", "delete", str(live), "--database", where, "--archive", str(out))
    assert code == 0 and f"Session {live} deleted." in printed
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    with zipfile.ZipFile(out) as zipped:
        course = json.loads(zipped.read("course.json"))
        polls = _rows(zipped.read(f"session-{live}/polls.csv").decode("utf-8"))
    assert [s["id"] for s in course["sessions"]] == [live] and len(polls) == 15
    assert [s.id for s in store.sessions()] == [homework]
    code, printed, err = _cli(capsys, "class", "delete", str(homework), "--database", where)
    assert (
        code == 0 and f"class delete {homework} --archive FILE.zip" in err and f"Session {homework} deleted." in printed
    )
    assert store.sessions() == []


def test_class_delete_says_what_it_deletes_and_whether_an_archive_was_written_before_it_deletes(
    store: Store, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, made, _, _ = _class_with_polls(store)
    live = made["id"]
    homework = _homework(store)
    said_before: list[tuple[str, str]] = []
    delete = Store.delete_session

    def deleting(self: Store, session_id: int) -> None:
        said_before.append(capsys.readouterr())  # what the command said before anything was deleted
        assert self.session(session_id)
        delete(self, session_id)

    monkeypatch.setattr(Store, "delete_session", deleting)
    out = tmp_path / "week5.zip"
    code, after, _ = _cli(capsys, "class", "delete", str(live), "--database", where, "--archive", str(out))
    printed, _ = said_before.pop()
    assert code == 0 and printed.splitlines() == [
        f"Session {live} (“week 5”): its archive is written to {out} (readable by you only).",
        f"Deleting session {live}: its 4 students, 3 poll rounds and 9 votes.",  # Dee, taken out, and her 2 votes
    ]
    assert after == f"Session {live} deleted.\n" and out.is_file()
    code, after, _ = _cli(capsys, "class", "delete", str(homework), "--database", where)
    _, warned = said_before.pop()
    assert code == 0 and warned.splitlines()[-1] == (
        f"warning: no archive of session {homework} (“Homework 1”) is written: deleting it loses its 1 student and "
        f"1 extension for good (class delete {homework} --archive FILE.zip writes its archive first)."
    )
    assert after == f"Session {homework} deleted.\n" and store.sessions() == []


def test_class_delete_names_its_archive_option_when_the_file_is_there_and_never_replaces_it(
    store: Store, where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    homework = _homework(store)
    out = tmp_path / "course.zip"
    out.write_text("last term's archive")
    code, printed, err = _cli(capsys, "class", "delete", str(homework), "--database", where, "--archive", str(out))
    assert code == 2 and printed == ""
    assert err.splitlines()[-1] == (
        f"error: --archive: {str(out)!r} exists; give another name (this command never replaces a file)."
    )  # not --out, which class delete has not, nor --force, which it has not either
    assert out.read_text() == "last term's archive" and store.session(homework).title == "Homework 1"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".course")] == []  # nothing half-written left
