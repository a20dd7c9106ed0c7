"""The projector link, in process: the room's computer opens the projector view with it and no teacher cookie, sees
no student's name and can change nothing; a new link, or the link stopped, ends the old one at once (its page and
its open stream); a wrong or old link is refused alike whether or not its session exists. The right answer reaches
the projector only once the teacher reveals it. A poll on a lesson's numeric question asks a new variant of it,
hand-checked here; a choice question is asked as the lesson page asks it, and the teacher is told so.
"""

from __future__ import annotations

import json
import re
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient  # noqa: E402

from bleu_teach.classroom import polls as polls_module  # noqa: E402
from bleu_teach.classroom.app import create_app  # noqa: E402
from bleu_teach.classroom.polls import Polls  # noqa: E402
from bleu_teach.classroom.store import Store, digest  # noqa: E402
from tests.postgres import cluster, fresh_database  # noqa: E402

WRITE = {"X-Bleu-Teach": "1"}
TOKEN = "teacher-token-for-projector-tests"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(tmp_path / "class.sqlite")
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def postgres_base() -> Iterator[str]:
    with cluster() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def either(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """The store on SQLite and on PostgreSQL (a database of its own in the module's cluster)."""
    if request.param == "sqlite":
        where = str(tmp_path / "class.sqlite")
    else:
        where = fresh_database(request.getfixturevalue("postgres_base"))
    opened = Store.open(where)
    yield opened
    opened.close()


def client(store: Store) -> TestClient:
    return TestClient(create_app(store, TOKEN), base_url="http://class.test")


def teacher_of(store: Store, title: str = "week 5") -> tuple[TestClient, dict]:
    browser = client(store)
    assert browser.get(f"/class/teach?token={TOKEN}", follow_redirects=False).status_code == 303
    made = browser.post("/class/api/sessions", json={"title": title}, headers=WRITE).json()
    assert browser.get(made["teacher_link"], follow_redirects=False).status_code == 303
    return browser, made


def student_of(store: Store, code: str, nickname: str) -> TestClient:
    browser = client(store)
    assert browser.post("/class/api/join", json={"code": code, "nickname": nickname}, headers=WRITE).status_code == 200
    return browser


def new_link(teacher: TestClient, session: int) -> str:
    """A new projector link, as the dashboard's button makes it: its path."""
    made = teacher.post(f"/class/api/sessions/{session}/projector-link", headers=WRITE, json={})
    assert made.status_code == 200, made.text
    return str(made.json()["link"]).removeprefix("http://class.test")


def stream_path(link: str) -> str:
    return link.replace("/class/projector/", "/class/api/projector/") + "/events"


def first_data(browser: TestClient, path: str) -> dict:
    """The first data a server-sent stream sends (then the stream is closed)."""
    with browser.stream("GET", path) as reply:
        assert reply.status_code == 200, reply.read()
        for line in reply.iter_lines():
            if line.startswith("data: "):
                return dict(json.loads(line[6:]))
    raise AssertionError("the stream ended before sending anything")


class Listening:
    """A server-sent stream read in a thread: each (event, data) it sends, and when it ended."""

    def __init__(self, browser: TestClient, path: str) -> None:
        self.events: list[tuple[str, str]] = []
        self.ended: float | None = None
        self.first = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(browser, path), daemon=True)
        self.thread.start()

    def _read(self, browser: TestClient, path: str) -> None:
        with browser.stream("GET", path) as reply:
            name = "message"
            for line in reply.iter_lines():
                if line.startswith("event: "):
                    name = line.removeprefix("event: ")
                elif line.startswith("data: "):
                    self.events.append((name, line.removeprefix("data: ")))
                    name = "message"
                    self.first.set()
        self.ended = time.monotonic()
        self.first.set()


def vote(phone: TestClient, poll: int, choice: str) -> None:
    sent = phone.post(
        "/class/api/poll/vote", headers=WRITE, json={"poll": poll, "id": str(uuid.uuid4()), "choice": choice}
    )
    assert sent.status_code == 200, sent.text


def test_the_projector_link_opens_the_projector_without_a_teacher_cookie_and_shows_no_name(store: Store) -> None:
    teacher, made = teacher_of(store)
    number = made["id"]
    ann = student_of(store, made["code"], "Ann Lee")
    bea = student_of(store, made["code"], "<b>Bea</b>")
    for phone, answer in ((ann, "0.882"), (bea, "0.607")):
        sent = phone.post(
            "/class/api/answers", headers=WRITE, json={"id": str(uuid.uuid4()), "exercise": "03.1", "answer": answer}
        )
        assert sent.status_code == 200
    poll = teacher.post(f"/class/api/sessions/{number}/polls", headers=WRITE, json={"exercise": "03.2"}).json()["poll"]
    vote(ann, poll["id"], "E")
    vote(bea, poll["id"], "A")
    assert "There is no projector link yet" in teacher.get(f"/class/dashboard/{number}").text

    link = new_link(teacher, number)
    assert re.fullmatch(rf"/class/projector/{number}/[A-Z2-9]{{20}}", link), link  # typed on the room's computer
    assert "A projector link works now" in teacher.get(f"/class/dashboard/{number}").text
    secret = made["teacher_link"].rsplit("/", 1)[1]
    assert secret not in link
    room = client(store)  # the room's computer: a browser with no cookie at all
    page = room.get(link)
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    assert made["code"] in page.text and made["title"] in page.text
    for absent in ("Ann Lee", "Bea", secret, "<button", "<form", "<input", "Remove", "export.csv"):
        assert absent not in page.text, absent
    qr = room.get(link.replace("/class/projector/", "/class/api/projector/") + "/join.svg")
    assert qr.status_code == 200 and qr.headers["content-type"] == "image/svg+xml"
    shown = first_data(room, stream_path(link))
    assert set(shown) <= {"students", "exercises", "open", "code", "poll", "tries"}
    assert "Ann" not in json.dumps(shown) and "Bea" not in json.dumps(shown)
    assert shown["students"] == 2 and shown["code"] == made["code"]
    assert [(ex["id"], ex["verdicts"]) for ex in shown["exercises"]] == [
        ("03.1", {"correct": 1, "misconception": 1, "wrong": 0})
    ]
    assert shown["poll"]["rounds"][0]["voted"] == 2 and shown["poll"]["rounds"][0]["counts"] is None  # open
    assert room.cookies == {}  # nothing was left in the room's browser


def test_the_projector_link_refuses_every_write(store: Store) -> None:
    teacher, made = teacher_of(store)
    number = made["id"]
    ann = student_of(store, made["code"], "Ann")
    poll = teacher.post(f"/class/api/sessions/{number}/polls", headers=WRITE, json={"exercise": "03.2"}).json()["poll"]
    link = new_link(teacher, number)
    token = link.rsplit("/", 1)[1]
    student = store.roster(number)[0].id
    room = client(store)
    holding = client(store)  # the token where a teacher's secret goes: its cookie
    holding.cookies.set(f"bleu_teach_session_{number}", token, domain="class.test", path="/class")
    writes = [
        ("POST", f"/class/api/sessions/{number}/close"),
        ("DELETE", f"/class/api/sessions/{number}"),
        ("POST", f"/class/api/sessions/{number}/students/{student}/remove"),
        ("POST", f"/class/api/sessions/{number}/polls"),
        ("POST", f"/class/api/sessions/{number}/polls/{poll['id']}/close"),
        ("POST", f"/class/api/sessions/{number}/polls/{poll['id']}/reveal"),
        ("POST", f"/class/api/sessions/{number}/projector-link"),
        ("DELETE", f"/class/api/sessions/{number}/projector-link"),
    ]
    for browser in (room, holding):
        for method, path in writes:
            reply = browser.request(method, path, headers=WRITE, json={"exercise": "03.1"})
            assert reply.status_code == 401, (method, path, reply.status_code)
        for path in (f"/class/api/sessions/{number}/tally", f"/class/dashboard/{number}"):
            assert browser.get(path).status_code == 401, path
    assert room.get(f"/class/t/{number}/{token}", follow_redirects=False).status_code == 401  # not a teacher link
    for path in (link, stream_path(link), link.replace("/class/projector/", "/class/api/projector/") + "/join.svg"):
        for method in ("POST", "PUT", "DELETE"):
            assert room.request(method, path, headers=WRITE, json={}).status_code == 405, (method, path)
    kept = store.session(number)
    assert kept.open and store.latest_poll(number).state == "open" and store.is_projector(number, token)
    assert [s.nickname for s in store.roster(number)] == ["Ann"] and ann.get("/class/api/me").status_code == 200


def test_a_new_link_or_the_link_stopped_ends_the_old_one_at_once_its_page_and_its_open_stream(store: Store) -> None:
    teacher, made = teacher_of(store)
    number = made["id"]
    old = new_link(teacher, number)
    room = client(store)
    open_stream = Listening(room, stream_path(old))
    assert open_stream.first.wait(10) and open_stream.events[0][0] == "message"
    asked = time.monotonic()
    new = new_link(teacher, number)
    open_stream.thread.join(10)
    assert open_stream.ended is not None, "the old link's stream went on"
    assert open_stream.ended - asked < 2.0  # at once: the new link is a change of the session, which wakes it
    assert open_stream.events[-1] == ("stopped", "stopped")
    assert new != old
    assert room.get(old).status_code == 403 and room.get(stream_path(old)).status_code == 403
    assert room.get(new).status_code == 200

    second = Listening(room, stream_path(new))
    assert second.first.wait(10)
    asked = time.monotonic()
    stopped = teacher.delete(f"/class/api/sessions/{number}/projector-link", headers=WRITE)
    assert stopped.status_code == 200 and stopped.json() == {"stopped": True}
    second.thread.join(10)
    assert second.ended is not None and second.ended - asked < 2.0
    assert room.get(new).status_code == 403 and room.get(stream_path(new)).status_code == 403
    assert "There is no projector link yet" in teacher.get(f"/class/dashboard/{number}").text
    assert not store.has_projector(number)


def test_a_wrong_or_old_link_is_refused_alike_whether_or_not_its_session_exists(store: Store) -> None:
    teacher, made = teacher_of(store)
    number = made["id"]
    _, other = teacher_of(store, "another class")
    old = new_link(teacher, number).rsplit("/", 1)[1]
    token = new_link(teacher, number).rsplit("/", 1)[1]
    others = new_link(teacher_of(store, "a third")[0], other["id"] + 1).rsplit("/", 1)[1]
    room = client(store)
    tried = [
        (number, old),  # replaced
        (number, "A" * 20),  # never made
        (number, others),  # another session's
        (number, token[:-1] + ("B" if token[-1] != "B" else "C")),  # one character off
        (number, "A" * 5000),  # too long to read
        (999_999, token),  # no such session
        (other["id"], "A" * 20),  # a session with no projector link
    ]
    assert room.get(f"/class/projector/{number}/{token.lower()}").status_code == 200  # typed by hand in small letters
    pages, streams = set(), set()
    for session, guess in tried:
        page = room.get(f"/class/projector/{session}/{guess}")
        stream = room.get(f"/class/api/projector/{session}/{guess}/events")
        qr = room.get(f"/class/api/projector/{session}/{guess}/join.svg")
        assert (page.status_code, stream.status_code, qr.status_code) == (403, 403, 403), (session, guess[:30])
        pages.add(page.text)
        streams.add(stream.text)
        assert stream.text == qr.text
    assert len(pages) == 1 and len(streams) == 1  # the same words, whichever it was
    assert "does not work" in pages.pop() and "does not work" in json.loads(streams.pop())["error"]
    assert teacher.delete(f"/class/api/sessions/{number}", headers=WRITE).status_code == 200
    gone = room.get(f"/class/projector/{number}/{token}")  # the session deleted: its link too, in the same words
    assert gone.status_code == 403 and "does not work" in gone.text


def test_the_right_answer_reaches_the_projector_only_once_the_teacher_reveals_it(store: Store) -> None:
    teacher, made = teacher_of(store)
    number = made["id"]
    phones = [student_of(store, made["code"], name) for name in ("Ann", "Bo", "Cy")]
    poll = teacher.post(f"/class/api/sessions/{number}/polls", headers=WRITE, json={"exercise": "03.2"}).json()["poll"]
    for phone, choice in zip(phones, "AEE", strict=True):
        vote(phone, poll["id"], choice)
    link = new_link(teacher, number)
    room = client(store)
    base = f"/class/api/sessions/{number}/polls/{poll['id']}"
    early = teacher.post(f"{base}/reveal", headers=WRITE, json={})
    assert early.status_code == 400 and "close the question first" in early.json()["error"]
    assert teacher.post(f"{base}/close", headers=WRITE, json={}).status_code == 200
    shown = first_data(room, stream_path(link))["poll"]
    assert shown["rounds"][0]["counts"] == {"A": 1, "B": 0, "C": 0, "D": 0, "E": 2, "F": 0}
    assert "right" not in shown and shown["revealed"] is False  # the votes, not the answer
    dashboard = teacher.get(f"/class/api/sessions/{number}/tally").json()["poll"]
    assert dashboard["right"] == "E" and dashboard["revealed"] is False  # the teacher sees it, behind a button
    assert teacher.post(f"{base}/reveal", headers=WRITE, json={}).status_code == 200
    shown = first_data(room, stream_path(link))["poll"]
    assert shown["right"] == "E" and shown["revealed"] is True
    assert teacher.post(f"{base}/hide", headers=WRITE, json={}).status_code == 200
    assert "right" not in first_data(room, stream_path(link))["poll"]
    second = teacher.post(f"{base}/again", headers=WRITE, json={}).json()["poll"]  # round 2: hidden again
    assert teacher.post(f"/class/api/sessions/{number}/polls/{second['id']}/close", headers=WRITE, json={}).is_success
    assert "right" not in first_data(room, stream_path(link))["poll"]
    own = teacher.post(
        f"/class/api/sessions/{number}/polls", headers=WRITE, json={"question": "Tea?", "options": ["yes", "no"]}
    ).json()["poll"]
    assert teacher.post(f"/class/api/sessions/{number}/polls/{own['id']}/close", headers=WRITE, json={}).is_success
    refused = teacher.post(f"/class/api/sessions/{number}/polls/{own['id']}/reveal", headers=WRITE, json={})
    assert refused.status_code == 400 and "no right answer" in refused.json()["error"]


def test_a_poll_on_a_numeric_lesson_question_asks_a_new_variant_of_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Exercise 03.1 on the lesson page: references of 12, 5, 9 and 15 tokens, a hypothesis of 8, BP 0.882. The
    poll's variant (seed 42), worked by hand: references of 7, 14, 9 and 13 tokens, a hypothesis of 12; the closest
    reference is 13 (1 away), longer than the hypothesis, so BP = exp(1 - 13/12) = exp(-1/12) = 0.920. The other
    options are named mistakes' answers: the difference as the exponent, exp(-(13 - 12)) = 0.368; the longest
    reference, exp(1 - 14/12) = exp(-1/6) = 0.846; no penalty (the first reference, 7, is shorter), 1.000."""
    monkeypatch.setattr(polls_module, "fresh_seed", lambda: 42)
    teacher, made = teacher_of(store)
    number = made["id"]
    phone = student_of(store, made["code"], "Ann")
    asked = teacher.post(f"/class/api/sessions/{number}/polls", headers=WRITE, json={"exercise": "03.1"}).json()
    assert asked["note"].startswith("A new variant of 03.1: its numbers are not the lesson page's")
    question = phone.get("/class/api/poll").json()["poll"]
    assert question["question"] == (
        "References of 7, 14, 9 and 13 tokens; a hypothesis of 12 tokens. What is BP? "
        "Each option is rounded to 3 decimal places."
    )
    assert question["options"] == [["A", "0.368"], ["B", "0.846"], ["C", "0.920"], ["D", "1.000"]]
    assert "0.882" not in json.dumps(question) and "right" not in question  # not the lesson's; no answer to a phone
    vote(phone, question["id"], "C")
    assert teacher.post(f"/class/api/sessions/{number}/polls/{question['id']}/close", headers=WRITE, json={}).is_success
    shown = teacher.get(f"/class/api/sessions/{number}/tally").json()["poll"]
    assert (shown["right"], shown["variant"], shown["rounds"][0]["counts"]["C"]) == ("C", True, 1)
    again = teacher.post(f"/class/api/sessions/{number}/polls/{question['id']}/again", headers=WRITE, json={})
    assert again.json()["poll"]["options"] == question["options"]  # round 2: the same variant
    second = again.json()["poll"]["id"]
    assert teacher.post(f"/class/api/sessions/{number}/polls/{second}/close", headers=WRITE, json={}).is_success
    assert teacher.get(f"/class/api/sessions/{number}/tally").json()["poll"]["right"] == "C"

    choice = teacher.post(f"/class/api/sessions/{number}/polls", headers=WRITE, json={"exercise": "03.2"}).json()
    assert "cannot be varied" in choice["note"] and "before the class opens the lesson page" in choice["note"]
    listed = {
        q["id"]: q["varied"] for q in teacher.get(f"/class/api/sessions/{number}/polls/questions").json()["questions"]
    }
    assert (listed["03.1"], listed["04.1"], listed["08.1"], listed["03.2"], listed["00.1"]) == (
        True,
        True,
        True,
        False,
        False,
    )


def test_the_store_keeps_the_projector_link_as_a_digest_and_a_variant_poll_whole(either: Store) -> None:
    """On SQLite and on PostgreSQL: the link's token is kept only as its digest, replaced and stopped; a variant's
    question longer than a typed one may be (an MQM question with its errors and the rule), its right letter and
    whether it is shown are kept."""
    session, secret = either.create_session("week 5")
    heard: list[int] = []
    either.changed = heard.append  # type: ignore[method-assign]  # what the store tells, on either database
    assert not either.has_projector(session.id) and not either.is_projector(session.id, "")
    token = either.new_projector_token(session.id)
    assert heard == [session.id]  # a change of the session: an open projector's stream looks again
    assert either.is_projector(session.id, token) and either.has_projector(session.id)
    assert not either.is_projector(session.id, secret) and not either.is_teacher(session.id, token)
    assert not either.is_projector(session.id + 1, token) and not either.is_projector(session.id, token + "A")
    assert not either.is_projector(session.id, token * 4)  # longer than a token: not even read
    kept = {row["projector_digest"] for row in _sessions(either)}
    assert kept == {digest(token)} and token not in str(_sessions(either))
    again = either.new_projector_token(session.id)
    assert not either.is_projector(session.id, token) and either.is_projector(session.id, again)
    either.stop_projector(session.id)
    assert not either.is_projector(session.id, again) and not either.has_projector(session.id)
    with pytest.raises(LookupError):
        either.new_projector_token(session.id + 100)

    polls = Polls(either)
    poll, note = polls.ask_exercise(session.id, "08.1", seed=3)
    assert len(poll.question) > 400 and note.startswith("A new variant of 08.1")
    assert polls.poll(session.id, poll.id) == poll and poll.answer in "ABCD" and poll.revealed is False
    polls.close(session.id, poll.id)
    assert polls.reveal(session.id, poll.id, True).revealed is True
    assert polls.view(session.id)["right"] == poll.answer
    assert polls.reveal(session.id, poll.id, False).revealed is False


def _sessions(store: Store) -> list[dict]:
    import sqlalchemy

    from bleu_teach.classroom.schema import sessions

    with store.engine.connect() as connection:
        return [dict(row) for row in connection.execute(sqlalchemy.select(sessions)).mappings()]
