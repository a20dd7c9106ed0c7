"""Homework on the classroom server: each student's own variants, checked there, no answer sent to the page.

The variants are drawn apart from the paper sheets and the platform quiz that
``exercises worksheet`` made (read back from its worksheets.quiz.json); a
roster decides who may join; the page gets questions and verdicts, never a
right answer; the gradebook CSV has the roster's identifiers. The right answers
the tests expect are computed here from the variants' inputs, by the formula.
"""

from __future__ import annotations

import csv
import io
import json
import math
import subprocess
import sys
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from bleu_teach.classroom.app import create_app  # noqa: E402
from bleu_teach.classroom.homework import Homework, avoided, draw  # noqa: E402
from bleu_teach.classroom.store import Store  # noqa: E402
from bleu_teach.exercises.variants import quiz_variants, worksheets  # noqa: E402

PROJECT = Path(__file__).resolve().parents[1]
WRITE = {"X-Bleu-Teach": "1"}
TOKEN = "token"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(tmp_path / "class.sqlite")
    yield opened
    opened.close()


def _bp(inputs: dict) -> float:
    """The brevity penalty by hand: the closest reference length (the shorter on a tie), exp(1 - r/c) if c <= r."""
    c = inputs["hypothesis_length"]
    r = min(inputs["reference_lengths"], key=lambda length: (abs(length - c), length))
    return 1.0 if c > r else math.exp(1 - r / c)


def test_the_servers_variants_are_never_the_paper_sheets_or_the_quizs() -> None:
    sheets = worksheets(8, seed=5, which=("03.1", "01.1"))
    quiz = quiz_variants(6, sheets, count=8, which=("03.1", "01.1"))
    paper = [ex for sheet in sheets for ex in sheet] + quiz
    server = draw(["03.1", "01.1"], paper, count=15, seed=11)
    assert {ex.id for ex in server} == {"03.1", "01.1"}
    seen = {(ex.id, json.dumps(dict(ex.inputs), sort_keys=True)) for ex in paper}
    for ex in server:
        assert (ex.id, json.dumps(dict(ex.inputs), sort_keys=True)) not in seen
        if ex.id == "03.1":  # the same lengths in another order are the same question
            lengths = (sorted(ex.inputs["reference_lengths"]), ex.inputs["hypothesis_length"])
            assert lengths not in [
                (sorted(p.inputs["reference_lengths"]), p.inputs["hypothesis_length"]) for p in paper if p.id == "03.1"
            ]
        else:  # the same words in any order, against the same references, are the same question
            words = (sorted(ex.inputs["hypothesis"].split()), list(ex.inputs["references"]))
            assert words not in [
                (sorted(p.inputs["hypothesis"].split()), list(p.inputs["references"])) for p in paper if p.id == "01.1"
            ]
    with pytest.raises(ValueError, match="cannot be varied"):
        draw(["03.2"])


def test_the_worksheet_commands_file_is_read_back_whole(tmp_path: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "exercises",
            "worksheet",
            "--students",
            "3",
            "--seed",
            "4",
            "--exercises",
            "03.1,01.1",
            "--no-pdf",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    record = json.loads((tmp_path / "out" / "worksheets.quiz.json").read_text(encoding="utf-8"))
    found = avoided(tmp_path / "out" / "worksheets.quiz.json")
    assert len(found) == len(record["sheets"]) + len(record["variants"]) and len(record["sheets"]) == 6
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(ValueError, match="is not the worksheets.quiz.json"):
        avoided(tmp_path / "bad.json")
    with pytest.raises(ValueError, match="cannot read"):
        avoided(tmp_path / "missing.json")


def _homework(store: Store, due: datetime, tries: int | None = None, late: str = "accept") -> tuple[TestClient, dict]:
    session, secret = store.create_session("Week 4", "homework", due, tries, late)
    store.set_roster(
        session.id,
        [
            ("Zoë Ng", json.dumps({"Email address": "zoe@example.org"})),
            ("=cmd|' /C calc'!A0", json.dumps({"Email address": "x@example.org"})),
            ("Ada Lovelace", json.dumps({"Email address": "ada@example.org"})),
        ],
    )
    Homework(store).save(session, draw(["03.1"], count=3, seed=21))
    teacher = TestClient(create_app(store, TOKEN), base_url="http://class.test")
    teacher.get(f"/class/t/{session.id}/{secret}")
    return teacher, {"id": session.id, "code": session.code}


def _join(store: Store, code: str, name: str):  # noqa: ANN202
    browser = TestClient(create_app(store, TOKEN), base_url="http://class.test")
    return browser, browser.post("/class/api/join", json={"code": code, "nickname": name}, headers=WRITE)


def test_only_the_roster_joins_each_name_once(store: Store) -> None:
    _, made = _homework(store, datetime.now(timezone.utc) + timedelta(days=1))
    _, stranger = _join(store, made["code"], "Someone Else")
    assert stranger.status_code == 400 and "as your teacher's list has it" in stranger.json()["error"]
    _, zoe = _join(store, made["code"], "  zoë   NG ")
    assert zoe.status_code == 200 and zoe.json()["nickname"] == "Zoë Ng" and zoe.json()["kind"] == "homework"
    _, again = _join(store, made["code"], "Zoë Ng")
    assert again.status_code == 400 and "has already joined" in again.json()["error"]


def test_a_student_answers_their_own_questions_and_no_answer_reaches_the_page(store: Store) -> None:
    teacher, made = _homework(store, datetime.now(timezone.utc) + timedelta(days=1))
    zoe, _ = _join(store, made["code"], "Zoë Ng")
    ada, _ = _join(store, made["code"], "Ada Lovelace")
    homework = Homework(store)
    variants = {
        name: homework.assignment(student)[0]
        for name, student in (("Zoë Ng", store.roster(made["id"])[0]), ("Ada Lovelace", store.roster(made["id"])[1]))
    }
    assert variants["Zoë Ng"].inputs != variants["Ada Lovelace"].inputs  # each their own
    shown = zoe.get("/class/api/homework")
    asked = shown.json()["questions"]
    assert [q["exercise"] for q in asked] == ["03.1"] and asked[0]["last"] is None
    right = _bp(dict(variants["Zoë Ng"].inputs))
    assert f"{right:.3f}" not in shown.text and "answer_text" not in shown.text and '"right"' not in shown.text
    wrong = zoe.post(
        "/class/api/homework/answer",
        headers=WRITE,
        json={"id": str(uuid.uuid4()), "exercise": "03.1", "answer": "0.123"},
    )
    assert wrong.json()["verdict"] in ("wrong", "misconception") and f"{right:.3f}" not in wrong.text
    ok = zoe.post(
        "/class/api/homework/answer",
        headers=WRITE,
        json={"id": str(uuid.uuid4()), "exercise": "03.1", "answer": f"{right:.3f}"},
    )
    assert ok.json() == {"stored": True, "verdict": "correct", "mistake": "", "late": False, "tries_left": 8}
    other = ada.post(
        "/class/api/homework/answer",
        headers=WRITE,  # Zoë's right answer is not Ada's
        json={"id": str(uuid.uuid4()), "exercise": "03.1", "answer": f"{right:.3f}"},
    )
    ada_right = _bp(dict(variants["Ada Lovelace"].inputs))
    if f"{ada_right:.3f}" == f"{right:.3f}":  # the same number by chance: right for her too
        assert other.json()["verdict"] == "correct"
    else:
        assert other.json()["verdict"] != "correct"
    lesson = zoe.post(
        "/class/api/answers", headers=WRITE, json={"id": str(uuid.uuid4()), "exercise": "03.1", "answer": "0.5"}
    )
    assert lesson.status_code == 409 and "homework page" in lesson.json()["error"]
    unknown = zoe.post(
        "/class/api/homework/answer", headers=WRITE, json={"id": str(uuid.uuid4()), "exercise": "04.1", "answer": "0.5"}
    )
    assert unknown.status_code == 400 and "not in this homework" in unknown.json()["error"]

    rows = list(csv.reader(io.StringIO(teacher.get(f"/class/api/sessions/{made['id']}/grades.csv").text)))
    assert rows[0] == [
        "Name",
        "Email address",
        "03.1",
        "Week 4",
        "Maximum points",
        "Week 4 (%)",
        "Late",
        "Extended until",
        "03.1 tries (of 10)",
    ]
    assert rows[1] == ["Zoë Ng", "zoe@example.org", "1", "1", "1", "100.0", "no", "", "2"]
    # never joined: blanks, not 0 (the maximum is the homework's); a formula quoted
    assert rows[2] == ["'=cmd|' /C calc'!A0", "x@example.org", "", "", "1", "", "", "", ""]
    assert rows[3][:2] == ["Ada Lovelace", "ada@example.org"]
    for unreadable in ("", "nan", "1e999", "9" * 191):  # after the right answer: nothing to grade, nothing replaced
        sent = zoe.post(
            "/class/api/homework/answer",
            headers=WRITE,
            json={"id": str(uuid.uuid4()), "exercise": "03.1", "answer": unreadable},
        )
        assert sent.status_code in (200, 400), sent.text
        if sent.status_code == 200:
            assert sent.json()["stored"] is False and sent.json()["tries_left"] == 8, (unreadable, sent.text)
    again = list(csv.reader(io.StringIO(teacher.get(f"/class/api/sessions/{made['id']}/grades.csv").text)))
    assert again[1] == ["Zoë Ng", "zoe@example.org", "1", "1", "1", "100.0", "no", "", "2"]


def test_answers_after_the_due_time_are_marked_late(store: Store) -> None:
    _, made = _homework(store, datetime.now(timezone.utc) - timedelta(minutes=1))
    zoe, _ = _join(store, made["code"], "Zoë Ng")
    late = zoe.post(
        "/class/api/homework/answer", headers=WRITE, json={"id": str(uuid.uuid4()), "exercise": "03.1", "answer": "0.5"}
    )
    assert late.json()["late"] is True


def _send(browser: TestClient, exercise: str, answer: str):  # noqa: ANN202
    return browser.post(
        "/class/api/homework/answer",
        headers=WRITE,
        json={"id": str(uuid.uuid4()), "exercise": exercise, "answer": answer},
    )


def _grades(teacher: TestClient, session_id: int) -> list[list[str]]:
    return list(csv.reader(io.StringIO(teacher.get(f"/class/api/sessions/{session_id}/grades.csv").text)))


def _right(store: Store, session_id: int, position: int) -> str:
    """The right answer to 03.1 of the roster's student who joined ``position``-th (from 0), by the formula."""
    variant = Homework(store).assignment(store.roster(session_id)[position])[0]
    return f"{_bp(dict(variant.inputs)):.3f}"


# The row of grades.csv from the exercise's points to the late flag: 03.1, points, maximum, percentage, late.
@pytest.mark.parametrize(
    "late, status, cells",
    [
        ("accept", 200, ["1", "1", "1", "100.0", "yes"]),  # counted in full, marked late
        ("penalty:25", 200, ["0.75", "0.75", "1", "75.0", "yes"]),  # a quarter off
        ("refuse", 409, ["", "", "1", "", ""]),  # not taken: she never started
    ],
)
def test_a_right_answer_after_the_due_time_under_each_late_policy(
    store: Store, late: str, status: int, cells: list[str]
) -> None:
    teacher, made = _homework(store, datetime.now(timezone.utc) - timedelta(minutes=1), late=late)
    zoe, _ = _join(store, made["code"], "Zoë Ng")
    sent = _send(zoe, "03.1", _right(store, made["id"], 0))
    assert sent.status_code == status, sent.text
    if status == 200:
        assert sent.json()["verdict"] == "correct" and sent.json()["late"] is True
    else:
        assert "This homework closed for you at" in sent.json()["error"] and "not taken" in sent.json()["error"]
        unreadable = _send(zoe, "03.1", "<b>1</b>")  # an answer in the wrong form is told the same
        assert unreadable.status_code == 409 and "closed for you" in unreadable.json()["error"]
    shown = zoe.get("/class/api/homework").json()
    assert shown["late"] == late and shown["open"] is (late != "refuse") and shown["extended"] is False
    assert _grades(teacher, made["id"])[1][2:7] == cells


def test_an_extension_lets_one_student_answer_after_the_due_time_while_another_is_refused(store: Store) -> None:
    due = datetime.now(timezone.utc) - timedelta(minutes=5)
    teacher, made = _homework(store, due, late="refuse")
    zoe, _ = _join(store, made["code"], "Zoë Ng")
    ada, _ = _join(store, made["code"], "Ada Lovelace")
    until = datetime.now(timezone.utc).replace(second=0, microsecond=0) + timedelta(days=2)
    assert store.extend(made["id"], "zoe ng", until) == "Zoë Ng"  # the name found as the join finds it
    taken = _send(zoe, "03.1", _right(store, made["id"], 0))
    assert taken.status_code == 200 and taken.json()["verdict"] == "correct" and taken.json()["late"] is False
    refused = _send(ada, "03.1", "0.5")
    assert refused.status_code == 409 and "closed for you" in refused.json()["error"]
    hers, his = zoe.get("/class/api/homework").json(), ada.get("/class/api/homework").json()
    assert (hers["open"], hers["extended"], datetime.fromisoformat(hers["due"])) == (True, True, until)
    assert (his["open"], his["extended"], datetime.fromisoformat(his["due"])) == (False, False, due)
    rows = _grades(teacher, made["id"])
    assert rows[1] == [
        "Zoë Ng",
        "zoe@example.org",
        "1",
        "1",
        "1",
        "100.0",
        "no",
        until.isoformat()[:16] + "+00:00",
        "1",
    ]
    assert rows[3] == ["Ada Lovelace", "ada@example.org", "", "", "1", "", "", "", ""]
    with pytest.raises(ValueError, match="not after the homework's due time"):
        store.extend(made["id"], "Ada Lovelace", due - timedelta(hours=1))
    with pytest.raises(ValueError, match="'Nobody' is not on the roster of homework"):
        store.extend(made["id"], "Nobody", until)
    with pytest.raises(ValueError, match="until: give a time with its time zone"):
        store.extend(made["id"], "Ada Lovelace", datetime(2030, 1, 1, 9))


def test_an_extension_given_after_a_late_answer_makes_it_on_time(store: Store) -> None:
    teacher, made = _homework(store, datetime.now(timezone.utc) - timedelta(minutes=10), late="penalty:50")
    zoe, _ = _join(store, made["code"], "Zoë Ng")
    assert _send(zoe, "03.1", _right(store, made["id"], 0)).json()["late"] is True
    assert _grades(teacher, made["id"])[1][2:8] == ["0.5", "0.5", "1", "50.0", "yes", ""]
    until = datetime(2031, 1, 6, 17, 30, tzinfo=timezone(timedelta(hours=1)))  # 16:30 UTC
    store.extend(made["id"], "Zoë Ng", until)
    assert [answer.late for answer in store.answers(made["id"])] == [False]
    assert _grades(teacher, made["id"])[1][2:8] == ["1", "1", "1", "100.0", "no", "2031-01-06T16:30+00:00"]


def test_the_grades_file_gives_points_with_the_penalty_the_maximum_the_percentage_and_each_questions_tries(
    store: Store,
) -> None:
    due = datetime(2026, 12, 1, 8, 0, tzinfo=timezone.utc)
    session, secret = store.create_session("Week 5", "homework", due, 3, "penalty:20")
    store.set_roster(
        session.id,
        [
            (name, json.dumps({"Email address": mail}))
            for name, mail in (("Ann Lee", "ann@x.org"), ("Bo Li", "bo@x.org"))
        ]
        + [("Cy Ng", json.dumps({"Email address": "cy@x.org"}))],
    )
    Homework(store).save(session, draw(["01.1", "03.1", "04.1"], count=2, seed=21))
    ann, _ = store.join(session, "Ann Lee")
    bo, _ = store.join(session, "Bo Li")  # Cy never joins
    before, after = due - timedelta(hours=1), due + timedelta(hours=1)
    for student, exercise, verdict, at in (
        (ann, "01.1", "wrong", before),
        (ann, "01.1", "correct", before + timedelta(minutes=1)),  # her last answer counts: right, on time
        (ann, "03.1", "correct", after),  # right, late: 0.8 of a point
        (ann, "04.1", "wrong", before),
        (bo, "01.1", "correct", before),
        (bo, "03.1", "correct", before),  # 04.1 not answered: its cell is empty, it counts 0
    ):
        store.record_answer(student, str(uuid.uuid4()), exercise, "0.5", verdict, at=at, max_tries=3)
    teacher = TestClient(create_app(store, TOKEN), base_url="http://class.test")
    teacher.get(f"/class/t/{session.id}/{secret}")
    rows = _grades(teacher, session.id)
    assert rows[0] == [
        "Name",
        "Email address",
        "01.1",
        "03.1",
        "04.1",
        "Week 5",
        "Maximum points",
        "Week 5 (%)",
        "Late",
        "Extended until",
        "01.1 tries (of 3)",
        "03.1 tries (of 3)",
        "04.1 tries (of 3)",
    ]
    # Ann: 1 + 0.8 + 0 = 1.8 of 3, 60.0%; Bo: 2 of 3, 66.7% (66.66..., rounded to one decimal); Cy: blanks
    assert rows[1] == ["Ann Lee", "ann@x.org", "1", "0.8", "0", "1.8", "3", "60.0", "yes", "", "2", "1", "1"]
    assert rows[2] == ["Bo Li", "bo@x.org", "1", "1", "", "2", "3", "66.7", "no", "", "1", "1", "0"]
    assert rows[3] == ["Cy Ng", "cy@x.org", "", "", "", "", "3", "", "", "", "", "", ""]


def test_a_removed_student_reads_removed_on_the_roster_and_in_the_grades_until_someone_joins_as_the_name(
    store: Store,
) -> None:
    teacher, made = _homework(store, datetime.now(timezone.utc) + timedelta(days=1))
    fake, _ = _join(store, made["code"], "Zoë Ng")  # not Zoë: the teacher takes them out
    assert _send(fake, "03.1", "0.5").status_code == 200
    (joined,) = store.roster(made["id"])
    taken_out = teacher.post(f"/class/api/sessions/{made['id']}/students/{joined.id}/remove", headers=WRITE, json={})
    assert taken_out.status_code == 200, taken_out.text

    def roster() -> list[tuple[str, bool, bool]]:
        shown = teacher.get(f"/class/api/sessions/{made['id']}/tally").json()["homework"]["roster"]
        return [(entry["name"], entry["joined"], entry["removed"]) for entry in shown]

    assert roster() == [("Zoë Ng", False, True), ("=cmd|' /C calc'!A0", False, False), ("Ada Lovelace", False, False)]
    rows = _grades(teacher, made["id"])
    assert rows[0][6:] == ["Late", "Extended until", "Removed", "03.1 tries (of 10)"]  # the LMS's columns as they were
    assert rows[1] == ["Zoë Ng", "zoe@example.org", "", "", "1", "", "", "", "yes", ""]  # blank, not 0, and marked
    assert rows[3] == ["Ada Lovelace", "ada@example.org", "", "", "1", "", "", "", "no", ""]
    real, _ = _join(store, made["code"], "Zoë Ng")  # the real Zoë: joined, and the mark goes
    assert _send(real, "03.1", _right(store, made["id"], 0)).json()["verdict"] == "correct"
    assert roster()[0] == ("Zoë Ng", True, False)
    rows = _grades(teacher, made["id"])
    assert "Removed" not in rows[0] and rows[1] == ["Zoë Ng", "zoe@example.org", "1", "1", "1", "100.0", "no", "", "1"]


@pytest.mark.parametrize("late", ["penalty:150", "penalty:0", "sometimes", "penalty"])
def test_a_late_policy_the_server_does_not_know_is_refused_with_its_syntax(late: str) -> None:
    from bleu_teach.classroom.grading import LatePolicy

    with pytest.raises(ValueError, match=f"--late: accept, refuse or penalty:N .*, not '{late}'"):
        LatePolicy.parse(late, "--late")


def test_the_homework_command_refuses_a_bad_late_policy_before_anything_is_made(tmp_path: Path) -> None:
    database = tmp_path / "c.sqlite"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "class",
            "homework",
            "W",
            "--due",
            "2026-12-01T09:00+01:00",
            "--late",
            "penalty:150",
            "--database",
            str(database),
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=120,
    )
    assert run.returncode == 2, run.stderr
    assert "--late: accept, refuse or penalty:N (N: the percent taken off a late answer's points" in run.stderr
    assert "not 'penalty:150'" in run.stderr and "Traceback" not in run.stderr
    assert not database.exists()


def test_the_extend_command_gives_a_roster_name_its_own_due_time(tmp_path: Path) -> None:
    database = str(tmp_path / "c.sqlite")
    store = Store.open(database)
    session, _ = store.create_session("Week 4", "homework", datetime(2026, 12, 1, 8, tzinfo=timezone.utc))
    store.set_roster(session.id, [("Zoë Ng", "{}")])
    store.close()

    def extend(name: str, until: str):  # noqa: ANN202
        return subprocess.run(
            [sys.executable, "-m", "bleu_teach", "class", "extend", str(session.id), name, "--until", until]
            + ["--database", database],
            capture_output=True,
            text=True,
            cwd=PROJECT,
            timeout=120,
        )

    done = extend("zoe ng", "2026-12-03T09:00+01:00")
    assert done.returncode == 0, done.stderr
    assert "Zoë Ng may answer until 2026-12-03T09:00+01:00 (2026-12-03 08:00 UTC)" in done.stdout
    early = extend("Zoë Ng", "2026-12-01T08:30+01:00")  # 07:30 UTC, before the due time
    assert early.returncode == 2 and "--until: 2026-12-01T08:30+01:00 is not after the homework's due" in early.stderr
    unknown = extend("Nobody", "2026-12-03T09:00+01:00")
    assert unknown.returncode == 2 and "name: 'Nobody' is not on the roster of homework" in unknown.stderr
    zoneless = extend("Zoë Ng", "2026-12-03T09:00")
    assert zoneless.returncode == 2 and "--until: give the time zone too" in zoneless.stderr
    store = Store.open(database)
    try:
        (name, until) = store.extensions(session.id)["zoë ng"]
        assert name == "Zoë Ng" and until == datetime(2026, 12, 3, 8, tzinfo=timezone.utc)
    finally:
        store.close()


def test_the_homework_command_draws_and_makes_the_session(tmp_path: Path) -> None:
    (tmp_path / "roster.csv").write_text("First name;Surname;Email address\nZoë;Ng;zoe@example.org\n", encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "class",
            "homework",
            "Week 4",
            "--due",
            "2026-12-01T09:00+01:00",
            "--roster",
            str(tmp_path / "roster.csv"),
            "--exercises",
            "03.1",
            "--variants",
            "4",
            "--late",
            "penalty:20",
            "--database",
            str(tmp_path / "c.sqlite"),
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    assert "variants: 03.1 4" in run.stdout and "only the 1 names of the roster" in run.stdout
    assert "10 tries per question, a late answer's points less 20%)" in run.stdout
    made = Store.open(tmp_path / "c.sqlite")
    assert made.sessions()[-1].late == "penalty:20"
    made.close()
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "class",
            "homework",
            "W",
            "--due",
            "tomorrow",
            "--database",
            str(tmp_path / "c.sqlite"),
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT,
    )
    assert bad.returncode == 2 and "--due: 'tomorrow' is not a time" in bad.stderr


def test_the_teacher_lets_a_student_join_again_from_a_new_device(store: Store) -> None:
    teacher, made = _homework(store, datetime.now(timezone.utc) + timedelta(days=1))
    old_phone, _ = _join(store, made["code"], "Zoë Ng")
    old_phone.post(
        "/class/api/homework/answer", headers=WRITE, json={"id": str(uuid.uuid4()), "exercise": "03.1", "answer": "0.5"}
    )
    _, refused = _join(store, made["code"], "Zoë Ng")  # the new laptop, before the teacher lets her in
    assert refused.status_code == 400 and "can let you join again" in refused.json()["error"]
    assert (
        teacher.post(
            f"/class/api/sessions/{made['id']}/roster/reopen", headers=WRITE, json={"name": "zoë ng"}
        ).status_code
        == 200
    )
    assert (
        teacher.post(
            f"/class/api/sessions/{made['id']}/roster/reopen", headers=WRITE, json={"name": "Nobody"}
        ).status_code
        == 404
    )
    laptop, joined = _join(store, made["code"], "Zoë Ng")
    assert joined.status_code == 200
    shown = laptop.get("/class/api/homework").json()
    assert shown["questions"][0]["last"]["answer"] == "0.5"  # the same student: her answers stay hers
    assert old_phone.get("/class/api/homework").status_code == 401  # the old browser is no longer her
    _, again = _join(store, made["code"], "Zoë Ng")  # once only
    assert again.status_code == 400
    view = teacher.get(f"/class/api/sessions/{made['id']}/tally").json()["homework"]
    assert view["roster"][0] == {"name": "Zoë Ng", "joined": True, "removed": False} and not view["roster"][2]["joined"]


def test_a_lost_teacher_link_is_replaced_from_the_command_line(tmp_path: Path) -> None:
    database = str(tmp_path / "c.sqlite")
    store = Store.open(database)
    session, secret = store.create_session("Week 4")
    store.close()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "class",
            "link",
            str(session.id),
            "--database",
            database,
            "--address",
            "http://10.0.0.5:8000",
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    new = run.stdout.strip().rsplit("/", 1)[1]
    assert f"http://10.0.0.5:8000/class/t/{session.id}/" in run.stdout and new != secret
    store = Store.open(database)
    assert store.is_teacher(session.id, new) and not store.is_teacher(session.id, secret)
    store.close()


def test_each_question_has_its_tries_so_guessing_a_number_among_its_candidates_fails(store: Store) -> None:
    teacher, made = _homework(store, datetime.now(timezone.utc) + timedelta(days=1), tries=3)
    zoe, _ = _join(store, made["code"], "Zoë Ng")
    assert zoe.get("/class/api/homework").json()["questions"][0]["tries_left"] == 3
    ids = [str(uuid.uuid4()) for _ in range(4)]
    replies = [
        zoe.post(
            "/class/api/homework/answer",
            headers=WRITE,
            json={"id": answer_id, "exercise": "03.1", "answer": f"0.{k}11"},
        )
        for k, answer_id in enumerate(ids)
    ]
    assert [r.status_code for r in replies] == [200, 200, 200, 409]
    assert [r.json().get("tries_left") for r in replies[:3]] == [2, 1, 0]
    assert "used the 3 tries" in replies[3].json()["error"]
    again = zoe.post(
        "/class/api/homework/answer",
        headers=WRITE,  # a page sending its last answer again
        json={"id": ids[2], "exercise": "03.1", "answer": "0.211"},
    )
    assert again.status_code == 200 and again.json()["stored"] is False
    rows = list(csv.reader(io.StringIO(teacher.get(f"/class/api/sessions/{made['id']}/grades.csv").text)))
    assert rows[0][-1] == "03.1 tries (of 3)" and rows[1][0] == "Zoë Ng" and rows[1][-1] == "3"


def test_a_roster_with_one_name_twice_is_refused_before_any_homework_is_made(tmp_path: Path) -> None:
    (tmp_path / "roster.csv").write_text("Name\nAnn Lee\nann  lee\n", encoding="utf-8")
    database = str(tmp_path / "c.sqlite")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "class",
            "homework",
            "Week 4",
            "--due",
            "2026-12-01T09:00+01:00",
            "--roster",
            str(tmp_path / "roster.csv"),
            "--exercises",
            "03.1",
            "--variants",
            "2",
            "--database",
            database,
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=600,
    )
    assert run.returncode == 2, run.stderr
    assert "'Ann Lee' (line 2) and 'ann lee' (line 3) are the same name" in run.stderr, run.stderr
    assert "this is a bug" not in run.stderr
    assert not Path(database).exists()  # refused before the records are opened: no half-made homework, no file


def test_an_answer_in_the_wrong_form_uses_no_try(store: Store) -> None:
    _, made = _homework(store, datetime.now(timezone.utc) + timedelta(days=1), tries=2)
    zoe, _ = _join(store, made["code"], "Zoë Ng")

    def send(answer: str):  # noqa: ANN202
        return zoe.post(
            "/class/api/homework/answer",
            headers=WRITE,
            json={"id": str(uuid.uuid4()), "exercise": "03.1", "answer": answer},
        )

    assert send("0.111").json()["tries_left"] == 1
    unreadable = send("<b>1</b>")
    assert unreadable.json()["mistake"] == "not an answer" and unreadable.json()["tries_left"] == 1
    assert send("about 0.9").json()["tries_left"] == 1  # ("92.6%" is read: 0.926, a percentage)
    assert send("0.222").json()["tries_left"] == 0
    assert send("0.333").status_code == 409


# Names a roster may hold: a Persian name written with a zero-width non-joiner, an emoji family (three people
# joined by zero-width joiners), a name that opens with a right-to-left mark, and one of 61 characters (two given
# names and two surnames), longer than a nickname's 40.
LEGITIMATE_NAMES = [
    "مهسا رضایی\u200cپور",
    "Sam \U0001f468\u200d\U0001f469\u200d\U0001f467",
    "\u200fנועה כהן",
    "María de los Ángeles Fernández-Villaverde y Rodríguez Pereira",
]


def test_the_homework_takes_the_roster_the_worksheets_take_and_its_students_join(tmp_path: Path) -> None:
    assert len(LEGITIMATE_NAMES[3]) == 61
    roster = tmp_path / "roster.csv"
    roster.write_text("Name\n" + "\n".join(LEGITIMATE_NAMES) + "\n", encoding="utf-8")
    database = tmp_path / "c.sqlite"
    sheets = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "exercises",
            "worksheet",
            "--roster",
            str(roster),
            "--exercises",
            "03.1",
            "--no-pdf",
            "--seed",
            "3",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=600,
    )
    assert sheets.returncode == 0, sheets.stderr
    key = (tmp_path / "out" / "worksheet-key.md").read_text(encoding="utf-8")
    for k, name in enumerate(LEGITIMATE_NAMES, start=1):  # printed as they are: no joiner or mark as an escape
        assert f"**Name:** {name}\n" in (tmp_path / "out" / "sheets" / f"student-{k:02d}.md").read_text(
            encoding="utf-8"
        )
        assert f"Sheet of student {k:02d}: {name} " in key
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "class",
            "homework",
            "Week 4",
            "--due",
            "2026-12-01T09:00+01:00",
            "--roster",
            str(roster),
            "--exercises",
            "03.1",
            "--variants",
            "2",
            "--database",
            str(database),
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    store = Store.open(database)
    try:
        session = store.sessions()[-1]
        assert [name for name, _, _ in store.roster_names(session.id)] == LEGITIMATE_NAMES
        for typed, kept in (
            ("مهسا رضایی\u200cپور", LEGITIMATE_NAMES[0]),
            ("נועה כהן", LEGITIMATE_NAMES[2]),
            (LEGITIMATE_NAMES[1], LEGITIMATE_NAMES[1]),
            (LEGITIMATE_NAMES[3].upper(), LEGITIMATE_NAMES[3]),
        ):
            _, joined = _join(store, session.code, typed)  # typed on a phone: without the leading mark, say
            assert joined.status_code == 200 and joined.json()["nickname"] == kept, joined.text
    finally:
        store.close()


@pytest.mark.parametrize(
    "name, said",
    [
        ("Eve\u202e1gnp.exe", "line 3 of .* holds U\\+202E RIGHT-TO-LEFT OVERRIDE, a direction control"),
        ("Ann\u2066Lee", "line 3 of .* holds U\\+2066 LEFT-TO-RIGHT ISOLATE, a direction control"),
        ("Ann\x00Lee", "line 3 of .* holds U\\+0000, a control character"),
        ("Ann\x9b31mLee", "line 3 of .* holds U\\+009B, a control character"),
        ("Ann\u200bLee", "line 3 of .* holds U\\+200B ZERO WIDTH SPACE at character 4, an invisible format character"),
        ("\u200dAnn", "line 3 of .* holds U\\+200D ZERO WIDTH JOINER at character 1, a joiner belongs between two"),
        ("Ann\u200f", "line 3 of .* holds U\\+200F RIGHT-TO-LEFT MARK at character 4, a direction mark belongs only"),
        ("A" * 101, "line 3 of .* has 101 characters, more than the 100 a name may have"),
    ],
)
def test_a_bad_name_is_refused_by_both_commands_with_its_line_rule_and_code_point_before_any_drawing(
    tmp_path: Path, name: str, said: str
) -> None:
    import re

    roster = tmp_path / "roster.csv"
    roster.write_bytes(("Name\nZoë Ng\n" + name + "\n").encode("utf-8", "surrogatepass"))
    homework = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "class",
            "homework",
            "Week 4",
            "--due",
            "2026-12-01T09:00+01:00",
            "--roster",
            str(roster),
            "--exercises",
            "03.1",
            "--database",
            str(tmp_path / "c.sqlite"),
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=600,
    )
    sheets = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "exercises",
            "worksheet",
            "--roster",
            str(roster),
            "--no-pdf",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=600,
    )
    for run in (homework, sheets):
        assert run.returncode == 2 and re.search(f"--roster: the name on {said}", run.stderr), run.stderr
        assert "Traceback" not in run.stderr and "drawing" not in run.stderr  # refused before anything is drawn


def _unstuttered(hypothesis: str) -> tuple[str, ...]:
    """A translation without its stutters: every word or pair of words said again at once, said once."""
    tokens = hypothesis.split()
    changed = True
    while changed:
        changed = False
        for n in (2, 1):
            for i in range(len(tokens) - 2 * n + 1):
                if tokens[i : i + n] == tokens[i + n : i + 2 * n]:
                    del tokens[i + n : i + 2 * n]
                    changed = True
                    break
    return tuple(tokens)


def _references(ex) -> set[str]:  # noqa: ANN001
    given = ex.inputs.get("references", [])
    return {r for group in given for r in ([group] if isinstance(group, str) else group)}


def _translations(ex) -> set[tuple[str, ...]]:  # noqa: ANN001
    given = [ex.inputs["hypothesis"]] if "hypothesis" in ex.inputs else list(ex.inputs.get("hypotheses", []))
    return {_unstuttered(h) for h in given}


def test_no_server_question_is_a_near_copy_of_a_sheets_or_the_quizs_nor_of_another_students() -> None:
    """Near-copies by substance: the same translation stuttered another way, or another question of the same
    exercise on one of the same reference sentences. None between the paper sheets and the quiz, none between
    them and the server's homework, and no two server questions of an exercise share a reference."""
    which = ("02.1", "01.1", "07.1", "04.2")
    sheets = worksheets(12, seed=5, which=which)
    paper = [ex for sheet in sheets for ex in sheet]
    quiz = quiz_variants(6, sheets, count=10, which=which)
    server = draw(list(which), paper + quiz, count=15, seed=11)
    assert "04.2" in {ex.id for ex in server}  # (the data hold few sentences that make a good 01.1 or 02.1)
    for shown, earlier in ((quiz, paper), (server, paper + quiz)):
        for ex in shown:
            for other in earlier:
                assert not _translations(ex) & _translations(other), (ex.label, other.label)
                if other.id == ex.id:
                    assert not _references(ex) & _references(other), (ex.label, other.label, ex.inputs)
    for k, ex in enumerate(server):
        for other in server[k + 1 :]:
            if other.id == ex.id:
                assert not _references(ex) & _references(other), (ex.label, ex.inputs, other.inputs)


def test_an_exercise_the_sheets_used_up_is_said_with_how_many_variants_are_left(tmp_path: Path) -> None:
    """02.1's sentences are few (a bigram that a reference holds twice, in sentences of the right length): after a
    class's sheets and quiz, the homework has few or none left. The command says so, with the number it stored."""
    import re

    sheets = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "exercises",
            "worksheet",
            "--students",
            "12",
            "--seed",
            "4",
            "--exercises",
            "02.1,03.1",
            "--no-pdf",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=600,
    )
    assert sheets.returncode == 0, sheets.stderr
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "class",
            "homework",
            "Week 4",
            "--due",
            "2026-12-01T09:00+01:00",
            "--exercises",
            "02.1,03.1",
            "--variants",
            "5",
            "--avoid",
            str(tmp_path / "out" / "worksheets.quiz.json"),
            "--database",
            str(tmp_path / "c.sqlite"),
        ],
        capture_output=True,
        text=True,
        cwd=PROJECT,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    stored = {k: int(v) for k, v in re.findall(r"(\d\d\.\d) (\d+)", run.stdout.split("variants:")[1].split("\n")[0])}
    assert stored.get("03.1") == 5 and "of 03.1" not in run.stderr
    kept = stored.get("02.1", 0)
    assert kept < 5  # the few sentences 02.1 has are on the sheets or in the quiz
    if kept == 0:
        assert "no variant of 02.1 is left" in run.stderr and "leaves it out" in run.stderr, run.stderr
    else:
        assert f"only {kept} variant{'s' if kept > 1 else ''} of 02.1" in run.stderr, run.stderr
