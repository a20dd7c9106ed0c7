"""The classroom server's routes, in process (Starlette's TestClient): who may do what, bounds, escaping.

The server is tested as a hostile client would use it: without the header its
pages send, from another origin, with bodies too large, with another student's
or no teacher's secret, and with text meant to run as HTML or as a spreadsheet
formula. The real server, killed mid-class, is in tests/test_classroom_server.py.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from bleu_teach.classroom.app import Limits, create_app  # noqa: E402
from bleu_teach.classroom.room import ADMIN_COOKIE, STUDENT_COOKIE  # noqa: E402
from bleu_teach.classroom.store import Store  # noqa: E402

WRITE = {"X-Bleu-Teach": "1"}
TOKEN = "teacher-token-for-tests"
#: The server's own limits (a frozen dataclass: one instance serves every client).
LIMITS = Limits()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(tmp_path / "class.sqlite")
    yield opened
    opened.close()


@pytest.fixture
def site(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "index.html").write_text("<!DOCTYPE html><title>course</title><h1>The course</h1>")
    (folder / "answer_key.md").write_text("03.1: 0.882")
    return folder


def client(store: Store, site: Path | None = None, limits: Limits = LIMITS) -> TestClient:
    return TestClient(create_app(store, TOKEN, site, limits), base_url="http://class.test")


def teacher_of(store: Store, title: str = "week 3") -> tuple[TestClient, dict]:
    """A teacher's browser: the teacher page opened with the token, a session created there, its link visited."""
    browser = client(store)
    assert browser.get(f"/class/teach?token={TOKEN}", follow_redirects=False).status_code == 303
    made = browser.post("/class/api/sessions", json={"title": title}, headers=WRITE).json()
    assert browser.get(made["teacher_link"], follow_redirects=False).status_code == 303
    return browser, made


def student_of(store: Store, code: str, nickname: str) -> TestClient:
    browser = client(store)
    joined = browser.post("/class/api/join", json={"code": code, "nickname": nickname}, headers=WRITE)
    assert joined.status_code == 200, joined.text
    return browser


def send(browser: TestClient, exercise: str, answer: str, answer_id: str | None = None):  # noqa: ANN201
    return browser.post(
        "/class/api/answers",
        headers=WRITE,
        json={"id": answer_id or str(uuid.uuid4()), "exercise": exercise, "answer": answer},
    )


def test_a_class_joins_answers_and_the_teacher_sees_each_named_mistake(store: Store) -> None:
    teacher, made = teacher_of(store)
    ann, bob, cy = (student_of(store, made["code"].lower(), name) for name in ("Ann", "Bob", "Cy"))
    assert send(ann, "03.2", "E").json()["verdict"] == "correct"  # the bank's answer (E: the closest length)
    assert send(bob, "03.2", "A").json()["verdict"] == "misconception"  # A: the longest reference
    assert send(cy, "03.2", "A").json()["verdict"] == "misconception"
    assert send(cy, "03.1", "0.5").json()["verdict"] == "wrong"
    assert send(ann, "03.1", "=1+1").json()["verdict"] == "wrong"  # not an answer: a wrong one, not a named mistake
    counted = teacher.get(f"/class/api/sessions/{made['id']}/tally").json()
    by_id = {ex["id"]: ex for ex in counted["exercises"]}
    assert by_id["03.2"]["answered"] == 3
    assert by_id["03.2"]["verdicts"] == {"correct": 1, "misconception": 2, "wrong": 0}
    assert by_id["03.2"]["mistakes"] == [{"name": "the longest reference", "count": 2}]
    assert by_id["03.1"]["verdicts"] == {"correct": 0, "misconception": 0, "wrong": 2}
    assert by_id["03.1"]["mistakes"] == []
    assert [s["nickname"] for s in counted["roster"]] == ["Ann", "Bob", "Cy"]
    projector = teacher.get(f"/class/api/sessions/{made['id']}/tally?names=0").json()
    assert "roster" not in projector and "Ann" not in str(projector)
    send(bob, "03.2", "E")  # Bob's second thought: his last answer is the one counted
    counted = teacher.get(f"/class/api/sessions/{made['id']}/tally").json()
    assert [ex["id"] for ex in counted["exercises"]] == ["03.1", "03.2"]  # in the course's order
    assert counted["exercises"][1]["verdicts"] == {"correct": 2, "misconception": 1, "wrong": 0}


def test_an_answer_sent_again_is_counted_once(store: Store) -> None:
    teacher, made = teacher_of(store)
    ann = student_of(store, made["code"], "Ann")
    answer_id = str(uuid.uuid4())
    first = send(ann, "01.1", "10/13", answer_id).json()
    again = send(ann, "01.1", "10/13", answer_id).json()
    assert first["stored"] is True and again["stored"] is False and again["verdict"] == first["verdict"] == "correct"
    assert len(store.answers(made["id"])) == 1


def test_the_server_judges_for_itself(store: Store) -> None:
    _, made = teacher_of(store)
    ann = student_of(store, made["code"], "Ann")
    reply = ann.post(
        "/class/api/answers",
        headers=WRITE,
        json={"id": str(uuid.uuid4()), "exercise": "03.1", "answer": "0.5", "verdict": "correct"},
    )
    assert reply.json()["verdict"] == "wrong"  # what the page claims is not read
    assert send(ann, "99.9", "1").status_code == 400 and "no exercise" in send(ann, "99.9", "1").json()["error"]
    assert send(ann, "03.1", "x" * 201).status_code == 400
    refused = ann.post("/class/api/answers", headers=WRITE, json={"id": 7, "exercise": "03.1", "answer": "1"})
    assert refused.status_code == 400 and "answer id" in refused.json()["error"]


def test_cookies_are_http_only_and_same_site_strict(store: Store) -> None:
    _, made = teacher_of(store)
    browser = client(store)
    reply = browser.post("/class/api/join", json={"code": made["code"], "nickname": "Ann"}, headers=WRITE)
    cookie = reply.headers["set-cookie"].lower()
    assert cookie.startswith(STUDENT_COOKIE) and "httponly" in cookie and "samesite=strict" in cookie
    admin = client(store).get(f"/class/teach?token={TOKEN}", follow_redirects=False).headers["set-cookie"].lower()
    assert admin.startswith(ADMIN_COOKIE) and "httponly" in admin and "samesite=strict" in admin


def test_writes_need_the_pages_header_and_the_servers_own_origin(store: Store) -> None:
    _, made = teacher_of(store)
    browser = client(store)
    body = {"code": made["code"], "nickname": "Ann"}
    assert browser.post("/class/api/join", json=body).status_code == 403  # a plain cross-site form post
    evil = browser.post("/class/api/join", json=body, headers=WRITE | {"Origin": "http://evil.example"})
    assert evil.status_code == 403 and "another site" in evil.json()["error"]
    own = browser.post("/class/api/join", json=body, headers=WRITE | {"Origin": "http://class.test"})
    assert own.status_code == 200


def test_bodies_and_typed_text_are_bounded(store: Store) -> None:
    _, made = teacher_of(store)
    browser = client(store)
    huge = browser.post("/class/api/join", content=b"{" + b" " * 70_000 + b"}", headers=WRITE)
    assert huge.status_code == 413
    long_name = browser.post("/class/api/join", json={"code": made["code"], "nickname": "n" * 41}, headers=WRITE)
    assert long_name.status_code == 400 and "nickname: at most 40" in long_name.json()["error"]
    not_json = browser.post("/class/api/join", content=b"code=1", headers=WRITE)
    assert not_json.status_code == 400 and "not JSON" in not_json.json()["error"]
    wrong_code = browser.post("/class/api/join", json={"code": "ZZZZZ1", "nickname": "Ann"}, headers=WRITE)
    assert wrong_code.status_code == 404


def test_joining_and_answering_are_rate_limited(store: Store) -> None:
    _, made = teacher_of(store)
    browser = client(store, limits=Limits(joins_per_address=3, answers_per_student=5))
    statuses = [
        browser.post("/class/api/join", json={"code": "NOPE22", "nickname": f"n{k}"}, headers=WRITE).status_code
        for k in range(4)
    ]
    assert statuses == [404, 404, 404, 429]  # guessing codes is slowed down
    room = client(store, limits=Limits(joins_per_address=3))  # a class behind one address joins whole
    joined = [
        room.post("/class/api/join", json={"code": made["code"], "nickname": f"student {k}"}, headers=WRITE).status_code
        for k in range(60)
    ]
    assert joined == [200] * 60
    student = client(store, limits=Limits(answers_per_student=5))
    student.post("/class/api/join", json={"code": made["code"], "nickname": "Ann"}, headers=WRITE)
    answered = [send(student, "03.1", "0.882") for _ in range(6)]
    assert [reply.status_code for reply in answered] == [200] * 5 + [429]
    assert answered[-1].headers["Retry-After"] == "60"
    # What is not an answer counts against the limit too: a flood of junk is slowed down like one of answers.
    junk = client(store, limits=Limits(answers_per_student=3))
    junk.post("/class/api/join", json={"code": made["code"], "nickname": "Junk"}, headers=WRITE)
    flooded = [junk.post("/class/api/answers", content=b"{not json", headers=WRITE).status_code for _ in range(5)]
    assert flooded == [400] * 3 + [429] * 2


def test_one_scripts_wrong_codes_never_lock_the_room_out_and_one_address_cannot_crowd_a_session(store: Store) -> None:
    _, made = teacher_of(store)
    room = client(store, limits=Limits(joins_per_address=120, joins_per_address_per_session=40))
    guesses = [
        room.post("/class/api/join", json={"code": f"ZZZ{k:03d}", "nickname": "x"}, headers=WRITE) for k in range(130)
    ]
    assert [g.status_code for g in guesses[-10:]] == [429] * 10 and guesses[-1].headers["Retry-After"] == "60"
    # the same address (the school's), the right code: the class still joins
    joined = [
        room.post("/class/api/join", json={"code": made["code"], "nickname": f"student {k}"}, headers=WRITE)
        for k in range(41)
    ]
    assert [j.status_code for j in joined[:40]] == [200] * 40
    assert joined[40].status_code == 429 and joined[40].headers["Retry-After"] == "600"
    assert "from this address" in joined[40].json()["error"]
    _, second = teacher_of(store, "another class")  # another session from the same address is another count
    assert (
        room.post("/class/api/join", json={"code": second["code"], "nickname": "Ann"}, headers=WRITE).status_code == 200
    )


def test_teacher_pages_need_their_secret_and_a_student_sees_only_their_own(store: Store) -> None:
    _, made = teacher_of(store)
    _, other = teacher_of(store, "another class")
    ann = student_of(store, made["code"], "Ann")
    send(ann, "03.1", "0.882")
    number = made["id"]
    for path in (
        f"/class/api/sessions/{number}/tally",
        f"/class/api/sessions/{number}/export.csv",
        f"/class/dashboard/{number}",
    ):
        assert ann.get(path).status_code == 401, path  # a student's cookie opens no teacher page
        assert client(store).get(path).status_code == 401, path
    other_teacher, _ = teacher_of(store, "a third")
    assert other_teacher.get(f"/class/api/sessions/{number}/tally").status_code == 401  # another session's
    assert client(store).get(f"/class/t/{number}/not-the-secret").status_code == 401
    assert ann.post(f"/class/api/sessions/{number}/close", headers=WRITE, json={}).status_code == 401
    assert client(store).post("/class/api/sessions", headers=WRITE, json={"title": "x"}).status_code == 401
    me = ann.get("/class/api/me").json()
    assert me == {"nickname": "Ann", "session": "week 3", "kind": "live", "open": True, "answers": 1}
    assert other["id"] != number


def test_a_closed_session_takes_no_answer_and_a_deleted_one_leaves_nothing(store: Store) -> None:
    teacher, made = teacher_of(store)
    ann = student_of(store, made["code"], "Ann")
    send(ann, "03.1", "0.882")
    assert teacher.post(f"/class/api/sessions/{made['id']}/close", headers=WRITE, json={}).status_code == 200
    closed = send(ann, "03.1", "0.5")
    assert closed.status_code == 409 and "closed" in closed.json()["error"]
    late = client(store).post("/class/api/join", json={"code": made["code"], "nickname": "Bob"}, headers=WRITE)
    assert late.status_code == 400 and "closed" in late.json()["error"]
    assert teacher.delete(f"/class/api/sessions/{made['id']}", headers=WRITE).status_code == 200
    assert store.sessions() == [] and store.answers(made["id"]) == []


def test_what_students_typed_is_escaped_in_pages_and_neutralised_in_the_export(store: Store) -> None:
    teacher, made = teacher_of(store, "<img src=x onerror=alert(1)>")
    page = teacher.get(f"/class/dashboard/{made['id']}").text
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    for nickname in ('=HYPERLINK("http://evil.example")', "+1+1", "-2+3", "@SUM(A1)", "<b>Bo</b>"):
        send(student_of(store, made["code"], nickname), "03.1", "=1+1")
    rows = list(csv.reader(io.StringIO(teacher.get(f"/class/api/sessions/{made['id']}/export.csv").text)))
    assert rows[0] == ["nickname", "exercise", "answer", "verdict", "mistake", "late", "at", "removed"]
    nicknames = [row[0] for row in rows[1:]]
    assert nicknames == ['\'=HYPERLINK("http://evil.example")', "'+1+1", "'-2+3", "'@SUM(A1)", "<b>Bo</b>"]
    assert {row[2] for row in rows[1:]} == {"'=1+1"}
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows[1:] for cell in row)
    send(student_of(store, made["code"], "Dee"), "08.1", "-6")  # a plain negative number stays a number
    rows = list(csv.reader(io.StringIO(teacher.get(f"/class/api/sessions/{made['id']}/export.csv").text)))
    assert rows[-1][:4] == ["Dee", "08.1", "-6", "correct"]


def test_the_course_is_served_beside_it_but_never_an_answer_key(store: Store, site: Path) -> None:
    browser = client(store, site)
    page = browser.get("/")
    assert page.status_code == 200 and "The course" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert browser.get("/answer_key.md").status_code == 404
    assert browser.get("/class").status_code == 200
    policy = browser.get("/class").headers["content-security-policy"]
    assert "script-src 'self';" in policy and "unsafe-inline" not in policy.split("style-src")[0]
    assert browser.get("/class").headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in policy
    # The website's pages are framed by its own pages only (the deck's speaker view), never by another site.
    assert page.headers["x-frame-options"] == "SAMEORIGIN"
    assert "frame-ancestors 'self'" in page.headers["content-security-policy"]


def test_a_poll_is_asked_voted_on_closed_and_asked_again_beside_the_first_round(store: Store) -> None:
    teacher, made = teacher_of(store)
    number = made["id"]
    phones = [student_of(store, made["code"], f"phone {k}") for k in range(5)]
    assert phones[0].get("/class/api/poll").json()["poll"] is None  # nothing asked yet
    assert (
        phones[0].post(f"/class/api/sessions/{number}/polls", headers=WRITE, json={"exercise": "03.2"}).status_code
        == 401
    )  # a student cannot ask
    opened = teacher.post(f"/class/api/sessions/{number}/polls", headers=WRITE, json={"exercise": "03.2"}).json()
    poll = opened["poll"]
    shown = phones[0].get("/class/api/poll").json()
    assert shown["poll"]["question"] == poll["question"] and [o[0] for o in shown["poll"]["options"]] == list("ABCDEF")
    assert "right" not in json.dumps(shown) and set(shown) == {"poll", "mine", "session"}  # never the answer
    for phone, choice in zip(phones, "AABCC", strict=True):
        assert (
            phone.post(
                "/class/api/poll/vote",
                headers=WRITE,
                json={"poll": poll["id"], "id": str(uuid.uuid4()), "choice": choice},
            ).status_code
            == 200
        )
    assert phones[3].get("/class/api/poll").json()["mine"] == "C"  # the phone shows the student's own vote
    vote_id = str(uuid.uuid4())  # phone 4 changes its mind (C to A), and its page sends that twice
    sent = [
        phones[4]
        .post("/class/api/poll/vote", headers=WRITE, json={"poll": poll["id"], "id": vote_id, "choice": "A"})
        .json()
        for _ in range(2)
    ]
    assert sent == [{"counted": True, "changed": True}, {"counted": True, "changed": False}]
    assert phones[4].get("/class/api/poll").json()["mine"] == "A"
    bad = phones[0].post(
        "/class/api/poll/vote", headers=WRITE, json={"poll": poll["id"], "id": str(uuid.uuid4()), "choice": "Z"}
    )
    assert bad.status_code == 400 and "choice: one of A, B, C, D, E, F" in bad.json()["error"]
    view = teacher.get(f"/class/api/sessions/{number}/tally").json()  # the dashboard's data holds the poll too
    assert view["poll"]["rounds"] == [{"id": poll["id"], "round": 1, "open": True, "voted": 5, "counts": None}]
    teacher.post(f"/class/api/sessions/{number}/polls/{poll['id']}/close", headers=WRITE, json={})
    late = phones[0].post(
        "/class/api/poll/vote", headers=WRITE, json={"poll": poll["id"], "id": str(uuid.uuid4()), "choice": "B"}
    )
    assert late.status_code == 400 and "closed" in late.json()["error"]
    view = teacher.get(f"/class/api/sessions/{number}/tally").json()["poll"]
    assert view["rounds"][0]["counts"] == {"A": 3, "B": 1, "C": 1, "D": 0, "E": 0, "F": 0} and view["right"] == "E"
    second = teacher.post(f"/class/api/sessions/{number}/polls/{poll['id']}/again", headers=WRITE, json={}).json()
    for phone in phones:
        phone.post(
            "/class/api/poll/vote",
            headers=WRITE,
            json={"poll": second["poll"]["id"], "id": str(uuid.uuid4()), "choice": "D"},
        )
    teacher.post(f"/class/api/sessions/{number}/polls/{second['poll']['id']}/close", headers=WRITE, json={})
    view = teacher.get(f"/class/api/sessions/{number}/tally").json()["poll"]
    assert [r["round"] for r in view["rounds"]] == [1, 2]  # side by side
    assert view["rounds"][1]["counts"] == {"A": 0, "B": 0, "C": 0, "D": 5, "E": 0, "F": 0}
    again = teacher.post(f"/class/api/sessions/{number}/polls/{second['poll']['id']}/again", headers=WRITE, json={})
    assert again.status_code == 400 and "already a second round" in again.json()["error"]


def test_the_presenters_own_question_is_bounded(store: Store) -> None:
    teacher, made = teacher_of(store)
    path = f"/class/api/sessions/{made['id']}/polls"
    for body, message in (
        ({"question": "Which is higher?", "options": ["only one"]}, "2 to 6 options"),
        ({"question": "Which?", "options": list("ABCDEFG")}, "2 to 6 options"),
        ({"question": "", "options": ["a", "b"]}, "question: it is empty"),
        ({"question": "q" * 401, "options": ["a", "b"]}, "question: at most 400"),
        ({"question": "Which?", "options": ["a", "  "]}, "option B: it is empty"),
        ({"exercise": "99.9"}, "there is no exercise"),
    ):
        refused = teacher.post(path, headers=WRITE, json=body)
        assert refused.status_code == 400 and message in refused.json()["error"], (body, refused.text)
    asked = teacher.post(path, headers=WRITE, json={"question": "BLEU of <b>A</b> vs B?", "options": ["A", "B"]})
    assert asked.json()["poll"]["options"] == [["A", "A"], ["B", "B"]]
    page = client(store).get("/class/poll")
    assert page.status_code == 200 and "<b>A</b>" not in page.text  # the question reaches the page as text only


def test_forged_cookies_open_nothing(store: Store) -> None:
    teacher, made = teacher_of(store)
    number = made["id"]
    ann = student_of(store, made["code"], "Ann")
    send(ann, "03.1", "0.882")
    forger = client(store)
    forger.cookies.set(f"bleu_teach_session_{number}", "a-guessed-secret", domain="class.test", path="/class")
    forger.cookies.set(ADMIN_COOKIE, "a-guessed-token", domain="class.test")
    forger.cookies.set(STUDENT_COOKIE, f"{number}.a-guessed-token", domain="class.test")
    for path in (
        f"/class/api/sessions/{number}/tally",
        f"/class/api/sessions/{number}/export.csv",
        f"/class/api/sessions/{number}/events",
        f"/class/dashboard/{number}",
        "/class/teach",
        "/class/api/me",
        "/class/api/poll",
    ):
        assert forger.get(path).status_code == 401, path
    assert forger.post("/class/api/sessions", headers=WRITE, json={"title": "x"}).status_code == 401
    assert send(forger, "03.1", "0.5").status_code == 401
    # Another student's cookie with this session's number: still only that student, never Ann.
    bob = student_of(store, made["code"], "Bob")
    me = bob.get("/class/api/me").json()
    assert me["nickname"] == "Bob" and me["answers"] == 0
    assert teacher.get(f"/class/api/sessions/{number}/tally").status_code == 200  # the real teacher still can


# ---------------------------------------------------------------------------
# No request makes a 500 (each of these did), and the database is never served
# ---------------------------------------------------------------------------


def _no_server_errors(store: Store) -> TestClient:
    return TestClient(create_app(store, TOKEN), base_url="http://class.test", raise_server_exceptions=False)


def test_odd_requests_get_a_4xx_naming_the_problem_and_the_server_goes_on(store: Store) -> None:
    teacher, made = teacher_of(store)
    session = made["id"]
    ann = student_of(store, made["code"], "Ann")
    poll = teacher.post(
        f"/class/api/sessions/{session}/polls", headers=WRITE, json={"question": "Which?", "options": ["one", "two"]}
    ).json()["poll"]
    deep = "[" * 30_000 + "]" * 30_000  # 60 KB, under the size limit
    assert len(deep) < 64 * 1024
    writes = [
        (ann, "/class/api/join"),
        (ann, "/class/api/answers"),
        (ann, "/class/api/poll/vote"),
        (ann, "/class/api/homework/answer"),
        (teacher, "/class/api/sessions"),
        (teacher, f"/class/api/sessions/{session}/polls"),
        (teacher, f"/class/api/sessions/{session}/roster/reopen"),
    ]
    for browser, path in writes:
        reply = browser.post(path, content=deep, headers=WRITE | {"Content-Type": "application/json"})
        assert 400 <= reply.status_code < 500, (path, reply.status_code, reply.text)
        assert "error" in reply.json(), path
    for body, said in (
        ({"poll": 10**30, "id": "v1", "choice": "A"}, "poll"),
        ({"poll": poll["id"], "id": "v\u0000", "choice": "A"}, "id: it holds"),
        ({"poll": poll["id"], "id": "\ud800", "choice": "A"}, "id: it holds characters that are not text"),
    ):
        reply = ann.post(
            "/class/api/poll/vote", headers=WRITE | {"Content-Type": "application/json"}, content=json.dumps(body)
        )
        assert reply.status_code == 400 and said in reply.json()["error"], (body, reply.text)
    reply = ann.post(
        "/class/api/answers",
        headers=WRITE | {"Content-Type": "application/json"},
        content=json.dumps({"id": "a1", "exercise": "03.1", "answer": "0.5\ud800"}),
    )
    assert reply.status_code == 400 and reply.json()["error"].startswith(
        "answer: it holds characters that are not text"
    )
    reply = teacher.post(
        f"/class/api/sessions/{session}/polls",
        headers=WRITE,
        json={"question": "Which\u0000?", "options": ["one", "two"]},
    )
    assert reply.status_code == 400 and "question" in reply.json()["error"]
    for path in (
        f"/class/api/sessions/{10**30}/tally",
        f"/class/dashboard/{10**30}",
        f"/class/api/sessions/{session}/polls/{10**30}/close",
    ):
        reply = teacher.post(path, headers=WRITE) if path.endswith("close") else teacher.get(path)
        assert reply.status_code == 404, (path, reply.status_code)
    odd = _no_server_errors(store)
    cookie = {"Cookie": f"{STUDENT_COOKIE}=\u00b2.token".encode("latin-1")}  # "²": a digit to str.isdigit, not to int()
    assert odd.get("/class/api/me", headers=cookie).status_code == 401
    assert (
        odd.post(
            "/class/api/answers", headers=WRITE | cookie, json={"id": "x", "exercise": "03.1", "answer": "1"}
        ).status_code
        == 401
    )
    length = {"Content-Length": "\u00b2".encode("latin-1")}
    assert odd.post("/class/api/answers", headers=WRITE | length, content=b"1").status_code == 413
    assert send(ann, "03.2", "E").json()["verdict"] == "correct"  # and the class goes on


def test_a_database_that_fails_gets_a_503_to_retry_and_one_line_in_the_log(store: Store, caplog) -> None:
    import logging

    from sqlalchemy import event

    teacher, made = teacher_of(store)
    ann = student_of(store, made["code"], "Ann")
    down = {"now": True}

    def fail(*_: object) -> None:
        if down["now"]:
            raise sqlalchemy_operational("disk I/O error")

    from sqlalchemy.exc import OperationalError as sqlalchemy_error

    def sqlalchemy_operational(message: str) -> Exception:
        return sqlalchemy_error("SELECT", {}, Exception(message))

    event.listen(store.engine, "before_cursor_execute", fail)
    caplog.set_level(logging.WARNING, logger="bleu_teach.classroom")
    replies = [send(ann, "03.2", "E") for _ in range(20)]
    assert {r.status_code for r in replies} == {503}
    assert all(r.headers["Retry-After"] == "5" and "sends again" in r.json()["error"] for r in replies)
    assert teacher.get(f"/class/api/sessions/{made['id']}/tally").status_code == 503
    down["now"] = False
    assert send(ann, "03.2", "E").json()["verdict"] == "correct"
    lines = [r.getMessage() for r in caplog.records if r.name == "bleu_teach.classroom"]
    assert len(lines) == 2 and "unavailable (disk I/O error)" in lines[0] and "back after" in lines[1], lines
    assert not any(r.exc_info for r in caplog.records)


def test_database_files_are_never_served_and_a_site_holding_the_database_is_refused(tmp_path: Path, site: Path) -> None:
    for name in (
        "bleu-teach-class.sqlite",
        "bleu-teach-class.sqlite-wal",
        "bleu-teach-class.sqlite-shm",
        "x.db",
        "old.sqlite-journal",
        "other.sqlite3",
    ):
        (site / name).write_bytes(b"SQLite format 3\x00 roster e-mails")
    outside = Store.open(tmp_path / "elsewhere.sqlite")
    browser = client(outside, site)
    assert browser.get("/").status_code == 200
    for name in (
        "bleu-teach-class.sqlite",
        "bleu-teach-class.sqlite-wal",
        "bleu-teach-class.sqlite-shm",
        "x.db",
        "old.sqlite-journal",
        "other.sqlite3",
        "BLEU-TEACH-CLASS.SQLITE",
    ):
        assert browser.get(f"/{name}").status_code == 404, name
    outside.close()
    inside = Store.open(site / "class.sqlite")
    with pytest.raises(ValueError, match="lies inside the site folder"):
        create_app(inside, TOKEN, site)
    with pytest.raises(ValueError, match="lies inside the site folder"):
        create_app(inside, TOKEN, site / ".." / site.name)
    inside.close()


def test_without_a_site_the_address_itself_says_where_to_join_and_where_the_lessons_are(store: Store) -> None:
    page = client(store).get("/")
    assert page.status_code == 200
    assert 'href="/class"' in page.text and "--site" in page.text and "make class" in page.text


def test_the_teacher_removes_a_fake_student_whose_answers_leave_the_counts_and_stay_in_the_export(store: Store) -> None:
    teacher, made = teacher_of(store)
    ann = student_of(store, made["code"], "Ann")
    fake = student_of(store, made["code"], "alice")
    send(ann, "03.2", "E")
    send(fake, "03.2", "A")
    before = teacher.get(f"/class/api/sessions/{made['id']}/tally").json()
    assert before["students"] == 2 and before["exercises"][0]["answered"] == 2
    fake_id = next(s["id"] for s in before["roster"] if s["nickname"] == "alice")
    assert (
        ann.post(f"/class/api/sessions/{made['id']}/students/{fake_id}/remove", headers=WRITE, json={}).status_code
        == 401
    )  # a student cannot
    removed = teacher.post(f"/class/api/sessions/{made['id']}/students/{fake_id}/remove", headers=WRITE, json={})
    assert removed.status_code == 200
    assert (
        teacher.post(f"/class/api/sessions/{made['id']}/students/{fake_id}/remove", headers=WRITE, json={}).status_code
        == 404
    )  # once
    after = teacher.get(f"/class/api/sessions/{made['id']}/tally").json()
    assert after["students"] == 1 and after["exercises"][0]["answered"] == 1
    assert after["exercises"][0]["verdicts"] == {"correct": 1, "misconception": 0, "wrong": 0}
    assert [s["nickname"] for s in after["roster"]] == ["Ann"]
    assert send(fake, "03.2", "A").status_code == 401  # the fake's browser is out
    assert student_of(store, made["code"], "alice")  # and the name is free for the real alice
    rows = list(csv.reader(io.StringIO(teacher.get(f"/class/api/sessions/{made['id']}/export.csv").text)))
    kept = [row for row in rows[1:] if row[-1] == "yes"]
    assert len(kept) == 1 and kept[0][0].startswith("alice (removed") and kept[0][2] == "A"


def test_the_printed_link_of_a_new_start_works_in_a_browser_that_kept_the_last_starts_cookie(store: Store) -> None:
    browser = client(store)
    browser.cookies.set(ADMIN_COOKIE, "the-token-of-the-last-start")
    entered = browser.get(f"/class/teach?token={TOKEN}", follow_redirects=False)
    assert entered.status_code == 303
    assert browser.get("/class/teach").status_code == 200  # the cookie now holds this start's token
    typo = browser.get("/class/teach?token=mistyped", follow_redirects=False)
    assert typo.status_code == 401 and "set-cookie" not in typo.headers  # a mistyped link replaces nothing
    assert browser.get("/class/teach").status_code == 200
    stranger = client(store)
    assert (
        stranger.post(f"/class/api/sessions?token={TOKEN}", headers=WRITE, json={"title": "x"}).status_code == 401
    )  # the token in an address opens only the page


def test_a_closed_session_takes_no_vote_and_asks_no_question(store: Store) -> None:
    teacher, made = teacher_of(store)
    number = made["id"]
    phone = student_of(store, made["code"], "phone")
    poll = teacher.post(f"/class/api/sessions/{number}/polls", headers=WRITE, json={"exercise": "03.2"}).json()["poll"]
    assert teacher.post(f"/class/api/sessions/{number}/polls/{poll['id']}/close", headers=WRITE, json={}).is_success
    assert teacher.post(f"/class/api/sessions/{number}/close", headers=WRITE, json={}).is_success
    vote = phone.post(
        "/class/api/poll/vote", headers=WRITE, json={"poll": poll["id"], "id": str(uuid.uuid4()), "choice": "E"}
    )
    assert vote.status_code == 409 and "closed: your vote was not counted" in vote.json()["error"]
    for path in (f"/class/api/sessions/{number}/polls", f"/class/api/sessions/{number}/polls/{poll['id']}/again"):
        asked = teacher.post(path, headers=WRITE, json={"exercise": "03.2"})
        assert asked.status_code == 409 and "closed: it asks no more questions" in asked.json()["error"], path


def test_a_nickname_that_reads_like_anothers_or_shows_nothing_is_refused(store: Store) -> None:
    """The issue's look-alikes of "alice" and those a hostile class found next, each joined beside the first name:
    refused with a message naming the rule (and the odd character); real names that differ by an accent, or are
    written in another script, still join (UTS #39 keeps accents: Zoë is not Zoe)."""
    teacher, made = teacher_of(store)
    for first in ("alice", "Bill", "marie", "李雷", "Ann ❤"):
        student_of(store, made["code"], first)
    refused = {
        "\u0430lice": "reads like “alice”, who is already in this session (U+0430 CYRILLIC SMALL LETTER A",
        "a1ice": "reads like “alice”",
        "aIice": "reads like “alice”",
        "BiII": "reads like “Bill”",
        "\u0251lice": "reads like “alice”",
        "al\u0131ce": "reads like “alice”",
        "rnarie": "reads like “marie”",
        "\uff41\uff4c\uff49\uff43\uff45": "already called “alice”",  # fullwidth
        "ALICE": "already called “alice”",
        "李\ufe00雷": "reads like “李雷”",
        "Ann ❤\ufe0f": "reads like “Ann ❤”",
        "ali\u200dce": "U+200D ZERO WIDTH JOINER at character 4, a joiner belongs between two visible characters",
        "alice\u3164": "U+3164 HANGUL FILLER at character 6, which shows nothing",
        "alice\u115f": "U+115F HANGUL CHOSEONG FILLER",
        "alice\u2800": "U+2800 BRAILLE PATTERN BLANK",
        "alice\u034f": "U+034F COMBINING GRAPHEME JOINER",
        "alice\ufe0f": "U+FE0F VARIATION SELECTOR-16",
        "alice\ue000": "U+E000 at character 6, a private-use character",
        "alice\u0378": "U+0378 at character 6, no character Unicode has assigned",
    }
    for nickname, said in refused.items():
        reply = client(store).post("/class/api/join", json={"code": made["code"], "nickname": nickname}, headers=WRITE)
        assert reply.status_code == 400 and said in reply.json()["error"], (nickname, reply.text)
    joined = ["Alicia", "Иван", "Ivan", "雷李", "\u2764\ufe0f Ann", "Zoë", "Zoe", "Lê", "Le", "Müller", "Muller"]
    joined += ["Nguyễn Văn Anh", "Nguyễn Văn Ánh", "alice\u0301", "\u200fسارا", "प्रिया", "O’Neill", "葛\U000e0100"]
    for nickname in joined:
        student_of(store, made["code"], nickname)
    names = [row["nickname"] for row in teacher.get(f"/class/api/sessions/{made['id']}/tally").json()["roster"]]
    expected = ["alice", "Bill", "marie", "李雷", "Ann ❤", *joined]
    assert sorted(names) == sorted(unicodedata.normalize("NFC", name) for name in expected)


def test_a_wrong_kind_of_field_is_named_in_plain_words(store: Store) -> None:
    """A list for a vote's choice, a number for a poll's exercise, a missing nickname: each a 400 naming the field,
    never Python's words ("unhashable type", "NoneType")."""
    teacher, made = teacher_of(store)
    phone = student_of(store, made["code"], "Ann")
    missing = client(store).post("/class/api/join", json={"code": made["code"]}, headers=WRITE)
    assert missing.status_code == 400 and missing.json()["error"].startswith("nickname: it is missing"), missing.text
    for exercise in (0, False, [], 5):
        asked = teacher.post(f"/class/api/sessions/{made['id']}/polls", headers=WRITE, json={"exercise": exercise})
        assert asked.status_code == 400 and asked.json()["error"].startswith("exercise: give text"), asked.text
    poll = teacher.post(f"/class/api/sessions/{made['id']}/polls", headers=WRITE, json={"exercise": "03.2"}).json()
    for choice in (["A"], {"a": 1}, 1, None):
        vote = phone.post(
            "/class/api/poll/vote", headers=WRITE, json={"poll": poll["poll"]["id"], "id": "v1", "choice": choice}
        )
        assert vote.status_code == 400 and vote.json()["error"].startswith("choice: one of A, B"), vote.text
