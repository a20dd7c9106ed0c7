"""Personal join links, end to end: the store keeps them (SQLite and PostgreSQL, as the store's tests run), a student
opens theirs and is in on any device, the teacher makes the file with ``class links`` and prints each link as a QR
code on its student's worksheet.

What is checked, each against values worked out by hand: a link is kept as a digest only and made again ends the old
one; a GET shows whose link it is and joins no one; the button joins as the roster's name, then as the same student
on each new device (five in all, the oldest forgotten, the first one too), two devices at once making one student; a
token has no look-alike characters and is read whatever its case and hyphens, an older link exactly; a link made
again, of another session or of a removed student opens nothing, the same refusal every time and counted against the
address's limit, as does any other address under the links'; odd tokens get a 4xx, never a 500; the command's file
is its owner's alone, never written over unless forced, and all or nothing with the links it holds; made again, the
links leave the devices in unless everyone is put out; the sheets print each student's own link, in a monospace
font, and its QR code, the key never.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import html
import io
import os
import re
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest

pytest.importorskip("starlette")
sqlalchemy = pytest.importorskip("sqlalchemy")

from starlette.testclient import TestClient  # noqa: E402

from bleu_teach.classroom.app import Limits, create_app  # noqa: E402
from bleu_teach.classroom.room import STUDENT_COOKIE  # noqa: E402
from bleu_teach.classroom.schema import devices, roster, students  # noqa: E402
from bleu_teach.classroom.store import Store  # noqa: E402
from bleu_teach.classroom.store_links import LinkRefused  # noqa: E402
from bleu_teach.classroom.store_students import DEVICES  # noqa: E402
from bleu_teach.ui.cli import main  # noqa: E402

WRITE = {"X-Bleu-Teach": "1"}
TOKEN = "teacher-token-for-link-tests"
ZOE, LI = "Zoë Ng", "Li Lei"
#: A new link's token: 25 symbols of lower-case Crockford base 32 (no i, l, o, u), in five groups of five.
LINK_TOKEN = r"[0-9a-hjkmnp-tv-z]{5}(?:-[0-9a-hjkmnp-tv-z]{5}){4}"
#: What every link that opens nothing is told (link_routes.NO_SUCH_LINK), as a student reads it.
NO_SUCH_LINK = "This link does not work"


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(tmp_path / "class.sqlite")
    yield opened
    opened.close()


def _rows(store: Store, table: sqlalchemy.Table) -> list[dict]:
    with store.engine.connect() as connection:
        return [dict(row) for row in connection.execute(table.select()).mappings()]


def _class(store: Store, kind: str = "live", title: str = "Week 3") -> int:
    """A session whose roster is Zoë Ng (with her e-mail address) and Li Lei."""
    due = datetime(2031, 1, 5, 9, 0, tzinfo=timezone.utc) if kind == "homework" else None
    session, _ = store.create_session(title, kind, due)
    store.set_roster(session.id, [(ZOE, '{"Email address": "zoe@example.org"}'), (LI, "{}")])
    return session.id


def _links(store: Store, session_id: int) -> dict[str, str]:
    return {link.name: link.token for link in store.issue_links(session_id)}


# --- the store -------------------------------------------------------------------------------------------------


def test_a_link_is_kept_as_a_digest_and_making_it_again_ends_the_old_one(store: Store) -> None:
    session_id = _class(store)
    made = store.issue_links(session_id)
    assert [(link.name, link.identifier) for link in made] == [
        (ZOE, '{"Email address": "zoe@example.org"}'),
        (LI, "{}"),
    ]
    assert all(re.fullmatch(LINK_TOKEN, link.token) for link in made)
    kept = {row["name"]: row["link_digest"] for row in _rows(store, roster)}  # the digest of its 25 symbols
    assert kept == {link.name: hashlib.sha256(link.token.replace("-", "").encode()).hexdigest() for link in made}
    everything = repr(_rows(store, roster))
    assert not any(link.token.replace("-", "")[:10] in everything for link in made)  # the token itself is nowhere
    zoe, li = made[0].token, made[1].token
    found = store.linked(session_id, zoe)
    assert found is not None and (found.name, found.student_id, found.removed) == (ZOE, None, False)
    again = _links(store, session_id)
    assert store.linked(session_id, zoe) is None and store.linked(session_id, li) is None  # both made again
    assert store.linked(session_id, again[LI]).name == LI  # type: ignore[union-attr]
    (one,) = store.issue_links(session_id, "zoe ng")  # one name, found as a join finds it
    assert one.name == ZOE and store.linked(session_id, again[ZOE]) is None
    assert store.linked(session_id, one.token).name == ZOE  # type: ignore[union-attr]
    assert store.linked(session_id, again[LI]).name == LI  # type: ignore[union-attr]  # the others' stay


def test_a_links_token_has_no_look_alikes_and_is_read_whatever_its_case_and_hyphens(store: Store) -> None:
    session_id = _class(store)
    made = {link.name: link.token for link in store.issue_links(session_id)}
    token = made[ZOE]
    symbols = token.replace("-", "")
    assert re.fullmatch(LINK_TOKEN, token) and not set(symbols) & set("ilou")  # 25 symbols of 32: 125 bits
    typed = [
        token.upper(),  # the case does not matter
        symbols,  # nor the hyphens
        "-".join(symbols[k : k + 3] for k in range(0, 25, 3)),  # wherever they are
        symbols.upper().replace("0", "O").replace("1", "I"),  # a letter typed for the digit it looks like
        symbols.replace("1", "l"),
    ]
    assert [store.linked(session_id, each).name for each in typed] == [ZOE] * 5  # type: ignore[union-attr]
    first, last = ("0" if symbols[0] != "0" else "2"), ("0" if symbols[-1] != "0" else "2")
    for wrong in (token[:-1], first + token[1:], token[:-1] + last, token + "0"):  # one symbol short, wrong, more
        assert store.linked(session_id, wrong) is None, wrong
    zoe, _, _ = store.join_by_link(session_id, token.upper())  # the join reads it as the page does
    assert zoe.nickname == ZOE
    # A link made before (32 characters of secrets.token_urlsafe, its digest kept as printed) still opens, exactly.
    old = "Ab-_" + "x" * 24 + "Q0o1"
    with store.engine.begin() as connection:
        connection.execute(
            roster.update().where(roster.c.name == LI).values(link_digest=hashlib.sha256(old.encode()).hexdigest())
        )
    assert store.linked(session_id, old).name == LI  # type: ignore[union-attr]
    assert store.linked(session_id, old.swapcase()) is None and store.linked(session_id, old.lower()) is None
    li, _, _ = store.join_by_link(session_id, old)
    assert li.nickname == LI


def test_a_link_joins_as_its_name_then_as_the_same_student_on_each_new_device(store: Store) -> None:
    session_id = _class(store)
    token = _links(store, session_id)[ZOE]
    first, phone, session = store.join_by_link(session_id, token)
    assert (first.nickname, session.id) == (ZOE, session_id)
    assert [(name, student) for name, _, student in store.roster_names(session_id)] == [(ZOE, first.id), (LI, None)]
    second, laptop, _ = store.join_by_link(session_id, token)
    assert second == first and laptop != phone
    assert store.student(session_id, phone) == first and store.student(session_id, laptop) == first
    assert store.student_and_session(session_id, laptop) == (first, store.session(session_id))
    assert len(_rows(store, students)) == 1 and len(_rows(store, devices)) == 1
    # Seven more devices, nine in all: the newest 5 are in; the phone, the laptop and 2 more are forgotten.
    later = [store.join_by_link(session_id, token)[1] for _ in range(7)]
    kept = [store.student(session_id, device) is not None for device in [phone, laptop, *later]]
    assert kept == [False] * 4 + [True] * 5
    assert len(_rows(store, devices)) == 4


def test_a_student_is_in_on_five_devices_and_the_oldest_is_forgotten_even_the_first(store: Store) -> None:
    session_id = _class(store)
    token = _links(store, session_id)[ZOE]
    zoe, first, _ = store.join_by_link(session_id, token)
    others = [store.join_by_link(session_id, token)[1] for _ in range(4)]
    assert [store.student(session_id, device) for device in [first, *others]] == [zoe] * DEVICES  # five in all
    sixth = store.join_by_link(session_id, token)[1]  # the oldest is the first device: it is the one forgotten
    assert [store.student(session_id, d) == zoe for d in [first, *others, sixth]] == [False] + [True] * 5
    seventh = store.join_by_link(session_id, token)[1]  # then the oldest of the others
    assert [store.student(session_id, d) == zoe for d in [first, *others, sixth, seventh]] == [False] * 2 + [True] * 5
    assert len(_rows(store, devices)) == DEVICES - 1 and len(_rows(store, students)) == 1


def test_a_student_put_out_by_a_new_link_is_in_again_on_five_devices(store: Store) -> None:
    session_id = _class(store)
    token = _links(store, session_id)[LI]
    li, phone, _ = store.join_by_link(session_id, token)
    (new,) = store.issue_links(session_id, LI)  # a lost sheet: out on every device, the first one's slot too
    assert store.student(session_id, phone) is None
    again = [store.join_by_link(session_id, new.token)[1] for _ in range(6)]
    assert [store.student(session_id, device) == li for device in again] == [False] + [True] * 5
    assert store.student(session_id, phone) is None


def test_two_devices_opening_a_link_at_once_make_one_student(store: Store) -> None:
    session_id = _class(store)
    token = _links(store, session_id)[LI]
    start = threading.Barrier(6)
    joined: list[tuple[int, str]] = []
    failed: list[BaseException] = []

    def open_link() -> None:
        start.wait()
        try:
            student, device, _ = store.join_by_link(session_id, token)
            joined.append((student.id, device))
        except BaseException as problem:  # noqa: BLE001 (reported below)
            failed.append(problem)

    threads = [threading.Thread(target=open_link) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == []
    assert len(_rows(store, students)) == 1 and len({student for student, _ in joined}) == 1
    # the first device and the newest 4 others are in: 5 of the 6
    assert sum(store.student(session_id, device) is not None for _, device in joined) == 5


def test_a_typed_name_does_not_take_a_linked_one_unless_the_teacher_lets_it_in_again(store: Store) -> None:
    session_id = _class(store)
    token = _links(store, session_id)[ZOE]
    with pytest.raises(ValueError, match="joins with their personal link"):
        store.join(store.session(session_id), "Zoe Ng")
    zoe, _, _ = store.join_by_link(session_id, token)
    with pytest.raises(ValueError, match="joins with their personal link"):
        store.join(store.session(session_id), ZOE)
    assert store.reopen(session_id, ZOE)  # the teacher lets the name in again: typed, it is the same student
    again, typed = store.join(store.session(session_id), ZOE)
    assert again == zoe and store.student(session_id, typed) == zoe


def test_a_removed_student_is_out_on_every_device_and_their_link_says_so(store: Store) -> None:
    session_id = _class(store)
    token = _links(store, session_id)[ZOE]
    zoe, phone, _ = store.join_by_link(session_id, token)
    _, laptop, _ = store.join_by_link(session_id, token)
    assert store.remove_student(session_id, zoe.id)
    assert store.student(session_id, phone) is None and store.student(session_id, laptop) is None
    assert _rows(store, devices) == []
    found = store.linked(session_id, token)
    assert found is not None and found.removed and found.student_id is None
    with pytest.raises(ValueError, match="took the student who joined by this link out"):
        store.join_by_link(session_id, token)
    (new,) = store.issue_links(session_id, ZOE)  # the teacher makes the real Zoë a new link: a new student
    real, _, _ = store.join_by_link(session_id, new.token)
    assert real.id != zoe.id and real.nickname == ZOE
    with pytest.raises(LinkRefused):
        store.join_by_link(session_id, token)


def test_a_lost_sheets_new_link_puts_the_student_out_everywhere_and_back_in_with_their_answers(store: Store) -> None:
    session_id = _class(store)
    token = _links(store, session_id)[LI]
    li, phone, _ = store.join_by_link(session_id, token)
    _, found_sheet, _ = store.join_by_link(session_id, token)  # whoever found the sheet
    store.record_answer(li, "a-1", "03.2", "E", "correct")
    (new,) = store.issue_links(session_id, LI)
    assert store.student(session_id, phone) is None and store.student(session_id, found_sheet) is None
    back, device, _ = store.join_by_link(session_id, new.token)
    assert back == li and store.student(session_id, device) == li
    assert [a.answer_id for a in store.answers(session_id, li.id)] == ["a-1"]
    with pytest.raises(LinkRefused):
        store.join_by_link(session_id, token)


def test_another_sessions_token_opens_nothing_and_a_closed_session_takes_no_one(store: Store) -> None:
    first = _class(store, title="Week 3")
    other = _class(store, title="Week 4")
    token = _links(store, first)[ZOE]
    assert store.linked(other, token) is None
    with pytest.raises(LinkRefused):
        store.join_by_link(other, token)
    for odd in ("", "x" * 65, "é" * 32, "a\x00b", None, 3):
        assert store.linked(first, odd) is None  # type: ignore[arg-type]
    store.close_session(first)
    with pytest.raises(ValueError, match="closed"):
        store.join_by_link(first, token)
    assert _rows(store, students) == []


def test_links_need_a_roster_and_a_name_on_it(store: Store) -> None:
    session, _ = store.create_session("No roster")
    with pytest.raises(ValueError, match="has no roster.*--roster"):
        store.issue_links(session.id)
    with pytest.raises(LookupError):
        store.issue_links(session.id + 100)
    session_id = _class(store)
    with pytest.raises(ValueError, match="not on the roster"):
        store.issue_links(session_id, "Ann")


def test_a_deleted_session_leaves_no_device(store: Store) -> None:
    session_id = _class(store)
    token = _links(store, session_id)[ZOE]
    store.join_by_link(session_id, token)
    store.join_by_link(session_id, token)
    store.delete_session(session_id)
    assert _rows(store, devices) == [] and _rows(store, students) == [] and _rows(store, roster) == []


# --- the routes ------------------------------------------------------------------------------------------------


def _browser(store: Store, limits: Limits | None = None) -> TestClient:
    app = create_app(store, TOKEN, limits=limits or Limits())
    return TestClient(app, base_url="http://class.test", raise_server_exceptions=False)


def _page(reply: object) -> str:
    """A page's text as a student reads it (entities undone, runs of white space one space)."""
    return " ".join(html.unescape(reply.text).split())  # type: ignore[attr-defined]


def _join(browser: TestClient, session_id: int, token: str) -> object:
    return browser.post("/class/me", data={"session": str(session_id), "link": token})


def test_opening_a_link_shows_whose_it_is_and_joins_no_one(sqlite_store: Store) -> None:
    session_id = _class(sqlite_store, title="Week 3: <b>BLEU</b>")
    token = _links(sqlite_store, session_id)[ZOE]
    browser = _browser(sqlite_store)
    for _ in range(3):  # a chat app's preview, the student, a reload
        reply = browser.get(f"/class/me/{session_id}/{token}")
        assert reply.status_code == 200
    shown = _page(reply)
    assert "<h1>Join “Week 3: <b>BLEU</b>” as Zoë Ng</h1>" in shown  # whose link, to which session
    assert "<title>Join “Week 3: <b>BLEU</b>” as Zoë Ng · bleu-teach class</title>" in shown
    assert "&lt;b&gt;BLEU&lt;/b&gt;" in reply.text and "<b>" not in reply.text  # the title escaped
    assert "This link is Zoë Ng's." in shown and '<button type="submit">Join as Zoë Ng</button>' in shown
    assert '<form method="post" action="/class/me">' in reply.text
    assert STUDENT_COOKIE not in reply.headers.get("set-cookie", "")
    assert _rows(sqlite_store, students) == [] and browser.get("/class/api/me").status_code == 401


def test_the_button_joins_and_each_device_is_the_same_student_who_can_answer(sqlite_store: Store) -> None:
    session_id = _class(sqlite_store)
    token = _links(sqlite_store, session_id)[ZOE]
    phone, laptop = _browser(sqlite_store), _browser(sqlite_store)
    joined = _join(phone, session_id, token)
    assert joined.status_code == 200  # type: ignore[attr-defined]
    cookie = joined.headers["set-cookie"]  # type: ignore[attr-defined]
    assert cookie.startswith(f"{STUDENT_COOKIE}={session_id}.") and "HttpOnly" in cookie and "SameSite=strict" in cookie
    shown = _page(joined)
    assert "<h1>You are in “Week 3”</h1>" in shown and "You joined as Zoë Ng." in shown
    assert 'href="/class/poll"' in shown and 'href="/index.html"' in shown
    assert 'data-session="Week 3" data-nickname="Zoë Ng"' in shown and "linked.js" in shown  # kept for the lessons
    assert _join(laptop, session_id, token).status_code == 200  # type: ignore[attr-defined]
    for device, answer_id in ((phone, "p-1"), (laptop, "l-1")):
        assert device.get("/class/api/me").json()["nickname"] == ZOE
        sent = device.post(
            "/class/api/answers", headers=WRITE, json={"id": answer_id, "exercise": "03.2", "answer": "E"}
        )
        assert sent.status_code == 200, sent.text
    (student,) = _rows(sqlite_store, students)
    assert sorted((a.answer_id, a.student_id) for a in sqlite_store.answers(session_id)) == [
        ("l-1", student["id"]),
        ("p-1", student["id"]),
    ]
    assert _join(phone, session_id, token).status_code == 200  # type: ignore[attr-defined]  # the same browser again
    assert len(_rows(sqlite_store, devices)) == 1  # the laptop's: the phone was in already


def test_a_homeworks_link_leads_to_its_questions(sqlite_store: Store) -> None:
    session_id = _class(sqlite_store, "homework", "Homework 2")
    token = _links(sqlite_store, session_id)[LI]
    browser = _browser(sqlite_store)
    shown = _page(_join(browser, session_id, token))
    assert 'data-next="/class/homework"' in shown and '<a href="/class/homework">Open your questions</a>' in shown
    assert browser.get("/class/api/me").json() == {
        "nickname": LI,
        "session": "Homework 2",
        "kind": "homework",
        "open": True,
        "answers": 0,
    }


def test_a_link_made_again_or_of_another_session_gets_the_same_refusal(sqlite_store: Store) -> None:
    session_id = _class(sqlite_store)
    other = _class(sqlite_store, title="Week 4")
    old = _links(sqlite_store, session_id)[ZOE]
    new = _links(sqlite_store, session_id)[ZOE]
    browser = _browser(sqlite_store)
    refusals = [
        browser.get(f"/class/me/{session_id}/{old}"),
        browser.get(f"/class/me/{other}/{new}"),
        browser.get(f"/class/me/{session_id}/{'A' * 32}"),
        _join(browser, session_id, old),
        _join(browser, other, new),
    ]
    assert [reply.status_code for reply in refusals] == [404] * 5  # type: ignore[attr-defined]
    assert len({_page(reply) for reply in refusals}) == 1 and NO_SUCH_LINK in _page(refusals[0])
    assert _rows(sqlite_store, students) == []
    assert _join(browser, session_id, new).status_code == 200  # type: ignore[attr-defined]


def test_a_removed_student_is_out_on_every_device_and_a_closed_session_says_so(sqlite_store: Store) -> None:
    session_id = _class(sqlite_store)
    links = _links(sqlite_store, session_id)
    phone, laptop = _browser(sqlite_store), _browser(sqlite_store)
    _join(phone, session_id, links[ZOE])
    _join(laptop, session_id, links[ZOE])
    (zoe,) = _rows(sqlite_store, students)
    assert sqlite_store.remove_student(session_id, zoe["id"])
    assert phone.get("/class/api/me").status_code == 401 and laptop.get("/class/api/me").status_code == 401
    page = phone.get(f"/class/me/{session_id}/{links[ZOE]}")
    assert page.status_code == 403 and "Your teacher took you out of “Week 3”" in _page(page)
    assert _join(phone, session_id, links[ZOE]).status_code == 409  # type: ignore[attr-defined]
    sqlite_store.close_session(session_id)
    closed = _browser(sqlite_store).get(f"/class/me/{session_id}/{links[LI]}")
    assert closed.status_code == 409 and "“Week 3” is closed" in _page(closed)
    joined = _join(_browser(sqlite_store), session_id, links[LI])
    assert joined.status_code == 409 and "is closed" in _page(joined)  # type: ignore[attr-defined]


def test_wrong_links_count_against_the_addresss_limit_and_never_lock_a_right_one_out(sqlite_store: Store) -> None:
    session_id = _class(sqlite_store)
    token = _links(sqlite_store, session_id)[ZOE]
    browser = _browser(sqlite_store, Limits(joins_per_address=3))
    wrong = [
        browser.get(f"/class/me/{session_id}/{'B' * 32}").status_code,
        _join(browser, session_id, "C" * 32).status_code,  # type: ignore[attr-defined]
        browser.get(f"/class/me/{session_id}/{'é'}").status_code,
        browser.get(f"/class/me/{session_id}/{'D' * 32}").status_code,
    ]
    assert wrong == [404, 404, 404, 429]
    limited = _join(browser, session_id, "E" * 32)
    assert limited.status_code == 429 and limited.headers["retry-after"] == "60"  # type: ignore[attr-defined]
    assert browser.get(f"/class/me/{session_id}/{token}").status_code == 200
    assert _join(browser, session_id, token).status_code == 200  # type: ignore[attr-defined]


def test_odd_tokens_and_forms_get_a_4xx_never_a_500(sqlite_store: Store) -> None:
    session_id = _class(sqlite_store)
    browser = _browser(sqlite_store)
    for token in ("A" * 10_000, "%C3%A9%C3%A9", "%00", "a%00b", "%20", "%F0%9F%98%80", "%FF"):
        reply = browser.get(f"/class/me/{session_id}/{token}")
        assert 400 <= reply.status_code < 500, (token[:20], reply.status_code)
    up = browser.get(f"/class/me/{session_id}/..")  # the browser goes up to /class/me: how to come back
    assert up.status_code == 200 and "Open your personal link again" in up.text
    for path in (f"/class/me/9999999999/{'A' * 32}", "/class/me/x/y", f"/class/me/{session_id}/"):
        assert 400 <= browser.get(path).status_code < 500, path
    forms = [
        {"session": str(session_id), "link": "A" * 10_000},
        {"session": str(session_id), "link": "a\x00b"},
        {"session": str(session_id), "link": "éé"},
        {"session": "²", "link": "A" * 32},
        {"session": "9" * 12, "link": "A" * 32},
        {"session": str(session_id)},
        {},
    ]
    for form in forms:
        reply = browser.post("/class/me", data=form)
        assert 400 <= reply.status_code < 500, (str(form)[:40], reply.status_code)
    for body, kind in ((b'{"link": "x"}', "application/json"), (b"\xff\xfe", "application/x-www-form-urlencoded")):
        reply = browser.post("/class/me", content=body, headers={"content-type": kind})
        assert 400 <= reply.status_code < 500, (body, reply.status_code)
    assert browser.post("/class/me", content=b"x" * 70_000).status_code == 413
    assert _rows(sqlite_store, students) == []


def test_an_address_under_the_links_that_opens_nothing_gets_the_page_a_wrong_link_gets(sqlite_store: Store) -> None:
    session_id = _class(sqlite_store)
    token = _links(sqlite_store, session_id)[ZOE]
    browser = _browser(sqlite_store)
    wrong = browser.get(f"/class/me/{session_id}/{'A' * 32}")
    assert wrong.status_code == 404 and NO_SUCH_LINK in _page(wrong)
    for path in (
        "/class/me/",
        f"/class/me/{session_id}/",  # cut short
        f"/class/me/{session_id}",
        f"/class/me/{session_id}/{token}/extra",  # run on
        f"/class/me/{session_id}/{token}/extra/",
        "/class/me/x/y",
    ):
        reply = browser.get(path)
        assert (reply.status_code, _page(reply)) == (404, _page(wrong)), path
    moved = browser.get(f"/class/me/{session_id}/{token}/", follow_redirects=False)
    assert (moved.status_code, moved.headers["location"]) == (307, f"/class/me/{session_id}/{token}")
    assert browser.get(f"/class/me/{session_id}/{token}/").status_code == 200  # a slash after the link: the link


def test_the_page_after_joining_opened_again_says_how_to_come_back_and_changes_nothing(sqlite_store: Store) -> None:
    session_id = _class(sqlite_store)
    token = _links(sqlite_store, session_id)[ZOE]
    browser = _browser(sqlite_store)
    again = browser.get("/class/me")  # a bookmark, in a browser that is not in
    shown = _page(again)
    assert again.status_code == 200 and "<h1>Open your personal link again</h1>" in shown
    assert "You joined from your personal link; to come back, open it again" in shown and 'href="/class"' in shown
    assert _join(browser, session_id, token).status_code == 200  # type: ignore[attr-defined]
    before = (_rows(sqlite_store, students), _rows(sqlite_store, devices), _rows(sqlite_store, roster))
    again = browser.get("/class/me")  # the page after joining, restored with the browser's tabs
    shown = _page(again)
    assert again.status_code == 200 and "to come back, open it again" in shown
    assert "This browser is still in “Week 3” as Zoë Ng" in shown and 'href="/class/poll"' in shown
    assert "<form" not in again.text and "linked.js" not in again.text and "set-cookie" not in again.headers
    assert (_rows(sqlite_store, students), _rows(sqlite_store, devices), _rows(sqlite_store, roster)) == before


def test_the_buttons_form_is_refused_from_another_site(sqlite_store: Store) -> None:
    session_id = _class(sqlite_store)
    token = _links(sqlite_store, session_id)[ZOE]
    browser = _browser(sqlite_store)
    form = {"session": str(session_id), "link": token}
    assert browser.post("/class/me", data=form, headers={"origin": "http://evil.test"}).status_code == 403
    assert browser.post("/class/me", data=form, headers={"origin": "null"}).status_code == 403
    assert _rows(sqlite_store, students) == []
    assert browser.post("/class/me", data=form, headers={"origin": "http://class.test"}).status_code == 200
    page = browser.get(f"/class/me/{session_id}/{token}")
    assert '<meta name="referrer" content="origin">' in page.text  # so that the browser sends its own origin


# --- the command -----------------------------------------------------------------------------------------------


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _roster_file(folder: Path) -> Path:
    made = folder / "class.csv"
    made.write_text("Name,Email address\nZoë Ng,zoe@example.org\nLi Lei,\n", encoding="utf-8")
    return made


def _new_session(capsys: pytest.CaptureFixture[str], database: Path, roster_file: Path | None) -> int:
    code, out, err = _cli(
        capsys,
        "class",
        "new",
        "Week 3",
        "--database",
        str(database),
        *(["--roster", str(roster_file)] * bool(roster_file)),
    )
    assert code == 0, err
    return int(re.match(r"Session (\d+):", out).group(1))  # type: ignore[union-attr]


def _class_with_links(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, int, Path]:
    """A live session with the roster, its links written by ``class links`` to links.csv: the database, the
    session's number and the file."""
    database = tmp_path / "class.sqlite"
    number = _new_session(capsys, database, _roster_file(tmp_path))
    out = tmp_path / "links.csv"
    assert _cli(capsys, "class", "links", str(number), "--out", str(out), "--database", str(database))[0] == 0
    return database, number, out


def _tokens(path: Path) -> dict[str, str]:
    return {row["Name"]: row["link"].rsplit("/", 1)[1] for row in csv.DictReader(io.StringIO(path.read_text()))}


def test_class_links_writes_each_name_its_identifiers_and_its_link_for_the_owner_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "class.sqlite"
    number = _new_session(capsys, database, _roster_file(tmp_path))
    out = tmp_path / "links.csv"
    address = "https://class.example.org"
    code, printed, err = _cli(
        capsys, "class", "links", str(number), "--out", str(out), "--database", str(database), "--address", address
    )
    assert code == 0, err
    assert "2 personal links" in printed and "Earlier links to this session no longer work" in printed
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert [row[:2] for row in rows] == [["Name", "Email address"], ["Zoë Ng", "zoe@example.org"], ["Li Lei", ""]]
    assert rows[0][2] == "link"
    for row in rows[1:]:
        assert re.fullmatch(rf"https://class\.example\.org/class/me/{number}/{LINK_TOKEN}", row[2]), row[2]
    first = _tokens(out)
    store = Store.open(database)
    try:
        assert {name: store.linked(number, token).name for name, token in first.items()} == {  # type: ignore[union-attr]
            ZOE: ZOE,
            LI: LI,
        }
    finally:
        store.close()
    out.write_text("kept")  # never written over, and then no link is made again
    code, _, err = _cli(capsys, "class", "links", str(number), "--out", str(out), "--database", str(database))
    assert code == 2 and "exists" in err and "--force" in err and out.read_text() == "kept"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".links")] == []
    code, _, err = _cli(
        capsys, "class", "links", str(number), "--out", str(out), "--database", str(database), "--force"
    )
    assert code == 0 and "this computer's own" in err  # the default address: only this computer opens the links
    second = _tokens(out)
    store = Store.open(database)
    try:
        assert all(store.linked(number, token) is None for token in first.values())  # the earlier links stopped
        assert all(store.linked(number, token) is not None for token in second.values())
    finally:
        store.close()


def test_class_links_name_makes_that_one_link_again_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database, number, out = _class_with_links(tmp_path, capsys)
    before = _tokens(out)
    code, printed, err = _cli(
        capsys,
        "class",
        "links",
        str(number),
        "--name",
        "li lei",
        "--database",
        str(database),
        "--address",
        "http://10.0.0.5:8000",
    )
    assert code == 0, err
    link = re.search(rf"http://10\.0\.0\.5:8000/class/me/{number}/({LINK_TOKEN})", printed)
    assert link is not None and printed.startswith("Li Lei's new link")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["class.csv", "class.sqlite", "links.csv"]
    store = Store.open(database)
    try:
        assert store.linked(number, link.group(1)).name == LI  # type: ignore[union-attr]
        assert store.linked(number, before[LI]) is None
        assert store.linked(number, before[ZOE]).name == ZOE  # type: ignore[union-attr]  # the others keep working
    finally:
        store.close()
    code, _, err = _cli(
        capsys,
        "class",
        "links",
        str(number),
        "--name",
        LI,
        "--out",
        str(tmp_path / "x.csv"),
        "--database",
        str(database),
    )
    assert code == 2 and "leave --out out" in err and not (tmp_path / "x.csv").exists()
    code, _, err = _cli(capsys, "class", "links", str(number), "--name", "Ann", "--database", str(database))
    assert code == 2 and "not on the roster" in err
    code, _, err = _cli(
        capsys, "class", "links", str(number), "--name", LI, "--everyone-out", "--database", str(database)
    )
    assert code == 2 and "leave --everyone-out out" in err


def test_class_links_that_cannot_write_its_file_makes_no_link_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    database, number, out = _class_with_links(tmp_path, capsys)
    printed_before = _tokens(out)
    shut = tmp_path / "shut"
    shut.mkdir(mode=0o500)  # a folder that takes no file (root writes anywhere: /proc takes no file even from root)
    for place in ([] if os.geteuid() == 0 else [shut / "links.csv"]) + [Path("/proc/links.csv")]:
        code, printed, err = _cli(
            capsys, "class", "links", str(number), "--out", str(place), "--database", str(database)
        )
        assert code == 2 and printed == "" and "could not be written" in err, err
        assert "no link was made again: the earlier links still work" in err and not place.exists()
    store = Store.open(database)
    try:
        assert {name: store.linked(number, token).name for name, token in printed_before.items()} == {  # type: ignore[union-attr]
            ZOE: ZOE,
            LI: LI,
        }
    finally:
        store.close()
    # Written, then not kept (the database fails at its commit): the file goes too, and the old links stay.
    real = Store.issue_links

    def failing(self: Store, *args: object, **kwargs: object) -> object:
        begin = self._begin

        @contextlib.contextmanager
        def commit_fails() -> Iterator[object]:
            with begin() as connection:
                yield connection
                raise sqlalchemy.exc.OperationalError("COMMIT", {}, OSError(28, "No space left on device"))

        self._begin = commit_fails  # type: ignore[method-assign]
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "issue_links", failing)
    again = tmp_path / "again.csv"
    code, printed, err = _cli(capsys, "class", "links", str(number), "--out", str(again), "--database", str(database))
    assert code == 2 and "No space left on device" in err and "no link was made again" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["class.csv", "class.sqlite", "links.csv", "shut"]
    monkeypatch.undo()
    store = Store.open(database)
    try:
        assert all(store.linked(number, token) is not None for token in printed_before.values())
    finally:
        store.close()


def test_class_links_made_again_leaves_the_devices_in_and_says_so_unless_everyone_is_put_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database, number, out = _class_with_links(tmp_path, capsys)
    store = Store.open(database)
    try:
        zoe, phone, _ = store.join_by_link(number, _tokens(out)[ZOE])
    finally:
        store.close()
    code, printed, err = _cli(
        capsys, "class", "links", str(number), "--out", str(out), "--force", "--database", str(database)
    )
    assert code == 0, err
    assert "the devices students already joined on stay in" in printed and "--everyone-out" in printed
    store = Store.open(database)
    try:
        assert store.student(number, phone) == zoe  # the old link no longer works, but her phone is still in
    finally:
        store.close()
    code, printed, err = _cli(
        capsys,
        "class",
        "links",
        str(number),
        "--out",
        str(out),
        "--force",
        "--everyone-out",
        "--database",
        str(database),
    )
    assert code == 0 and "every student is out on every device" in printed, err
    store = Store.open(database)
    try:
        assert store.student(number, phone) is None  # out, until she opens her new link: the same student
        back, device, _ = store.join_by_link(number, _tokens(out)[ZOE])
        assert back == zoe and store.student(number, device) == zoe
    finally:
        store.close()


def test_class_links_of_a_session_without_a_roster_says_to_give_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "class.sqlite"
    number = _new_session(capsys, database, None)
    out = tmp_path / "links.csv"
    code, printed, err = _cli(capsys, "class", "links", str(number), "--out", str(out), "--database", str(database))
    assert code == 2 and "has no roster" in err and "--roster CSV" in err and printed == "" and not out.exists()
    code, _, err = _cli(capsys, "class", "links", str(number), "--database", str(database))
    assert code == 2 and "--out: give the CSV file" in err
    code, _, err = _cli(capsys, "class", "links", "99", "--out", str(out), "--database", str(database))
    assert code == 2 and "No session 99" in err


def test_class_new_reads_its_roster_as_homework_does_before_making_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    twice = tmp_path / "twice.csv"
    twice.write_text("name\nZoë Ng\nZOË  NG\n", encoding="utf-8")
    database = tmp_path / "class.sqlite"
    code, _, err = _cli(capsys, "class", "new", "Week 3", "--roster", str(twice), "--database", str(database))
    assert code == 2 and "'Zoë Ng' (line 2) and 'ZOË NG' (line 3) are the same name to the join page" in err
    assert not database.exists()  # refused before the records were opened
    code, printed, err = _cli(
        capsys, "class", "new", "Week 3", "--roster", str(_roster_file(tmp_path)), "--database", str(database)
    )
    assert code == 0 and "only the 2 names of the roster" in printed
    store = Store.open(database)
    try:
        assert [(name, identifier) for name, identifier, _ in store.roster_names(1)] == [
            (ZOE, '{"Email address": "zoe@example.org"}'),
            (LI, '{"Email address": ""}'),
        ]
    finally:
        store.close()


# --- the worksheets --------------------------------------------------------------------------------------------

#: Two students' links, as class links writes them (tokens made up here).
LINKS = {
    ZOE: "https://class.example.org/class/me/7/Zz9_zoe-Token-0123456789abcdefXY",
    LI: "https://class.example.org/class/me/7/Li8-li_Token-0123456789abcdefXYZ",
}


def _links_file(folder: Path) -> Path:
    made = folder / "links.csv"
    made.write_text(
        "Name,Email address,link\n" + "".join(f"{name},,{link}\n" for name, link in LINKS.items()), encoding="utf-8"
    )
    return made


def _worksheet(folder: Path, roster_file: Path, *more: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bleu_teach", "exercises", "worksheet", "--roster", str(roster_file)]
        + ["--exercises", "01.1", "--seed", "3", "--out", str(folder / "out"), *more],
        capture_output=True,
        text=True,
        timeout=600,
    )


def test_a_roster_without_links_makes_the_sheets_it_made_and_one_with_them_makes_them_private(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    run = _worksheet(plain, _roster_file(plain), "--no-pdf")
    assert run.returncode == 0, run.stderr
    sheet = (plain / "out" / "sheets" / "student-01.md").read_text(encoding="utf-8")
    assert "QR code" not in sheet and "class/me" not in sheet and "**Name:** Zoë Ng" in sheet
    assert stat.S_IMODE((plain / "out" / "sheets" / "student-01.md").stat().st_mode) & 0o044  # others may read it
    linked = tmp_path / "linked"
    linked.mkdir()
    run = _worksheet(linked, _links_file(linked), "--no-pdf")
    assert run.returncode == 0, run.stderr
    for number, link in enumerate(LINKS.values(), start=1):
        path = linked / "out" / "sheets" / f"student-{number:02d}.md"
        text = path.read_text(encoding="utf-8").replace("\\_", "_")  # Markdown escapes the underscores
        assert f"**QR code: your personal link to join the class:** {link}" in text, text[:400]
        assert all(other not in text for other in LINKS.values() if other != link)
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    key = (linked / "out" / "worksheet-key.md").read_text(encoding="utf-8")
    assert "class/me" not in key and ZOE in key
    for quiz in ("worksheets.moodle.xml", "worksheets.gift.txt", "worksheets.quiz.json"):
        assert "class/me" not in (linked / "out" / quiz).read_text(encoding="utf-8"), quiz


def test_a_link_column_with_a_missing_or_odd_link_is_refused_with_its_line(tmp_path: Path) -> None:
    for cell, said in (("", "line 3"), ("ftp://class.example.org/x", "line 3"), ("https://a b", "line 3")):
        roster_file = tmp_path / "links.csv"
        roster_file.write_text(f"Name,link\nZoë Ng,{LINKS[ZOE]}\nLi Lei,{cell}\n", encoding="utf-8")
        run = _worksheet(tmp_path, roster_file, "--no-pdf")
        assert run.returncode == 2 and said in run.stderr and "link" in run.stderr, (cell, run.stderr)


def test_a_printed_link_is_written_in_a_monospace_font_under_its_qr_code() -> None:
    from bleu_teach.views.document import Document, QrCode
    from bleu_teach.views.html_writer import write_html_page

    page = write_html_page(Document((QrCode(LINKS[ZOE], ("000", "010", "000"), "QR code: your link"),)), "Sheet")
    assert f"<p><code>{LINKS[ZOE]}</code></p>" in page  # a student who types it tells 0 from O and 1 from l
    assert '.qr-code code{font-family:"DejaVu Sans Mono"' in page


def _figures(node: object, found: list) -> list:
    """The /Figure elements of a PDF's structure tree, depth first."""
    node = node.get_object()  # type: ignore[attr-defined]
    if isinstance(node, dict):
        if node.get("/S") == "/Figure":
            found.append(node)
        kids = node.get("/K")
        for kid in kids if isinstance(kids, list) else [kids] if kids is not None else []:
            if hasattr(kid, "get_object"):
                _figures(kid, found)
    return found


@pytest.mark.slow
def test_each_printed_sheet_holds_its_students_link_and_a_qr_code_of_it_and_the_key_none(tmp_path: Path) -> None:
    from tests.view_checks import needs_weasyprint

    needs_weasyprint()
    segno = pytest.importorskip("segno")
    pypdf = pytest.importorskip("pypdf")
    image = pytest.importorskip("PIL.Image")
    run = _worksheet(tmp_path, _links_file(tmp_path))
    assert run.returncode == 0, run.stderr
    out = tmp_path / "out"

    def text(path: Path) -> str:
        printed = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True)
        return re.sub(r"\s+", "", printed.stdout)

    for number, link in enumerate(LINKS.values(), start=1):
        sheet = out / "sheets" / f"student-{number:02d}.pdf"
        assert stat.S_IMODE(sheet.stat().st_mode) == 0o600
        printed = text(sheet)
        assert link in printed and all(other not in printed for other in LINKS.values() if other != link)
        reader = pypdf.PdfReader(sheet)
        (figure,) = _figures(reader.trailer["/Root"]["/StructTreeRoot"], [])
        assert figure["/Alt"] == "QR code: your personal link to join the class"
        # The code printed is the link's: read back from the page drawn at 4 pixels a CSS pixel (384 dpi), each
        # module at its centre, against the modules of the link's code (45 across: version 5, the quiet zone of 4).
        left, top, right, _ = (float(value) for value in figure["/A"]["/BBox"])
        subprocess.run(
            ["pdftoppm", "-r", "384", "-gray", "-png", "-f", "1", "-l", "1", str(sheet), str(tmp_path / "page")]
        )
        drawn = image.open(next(tmp_path.glob("page*.png"))).convert("L")
        cell = (right - left) * 4 / 45
        modules = [
            "".join(
                "1"
                if drawn.getpixel((int(4 * left + (i + 0.5) * cell), int(4 * top + (j + 0.5) * cell))) < 128
                else "0"
                for i in range(45)
            )
            for j in range(45)
        ]
        for page in tmp_path.glob("page*.png"):
            page.unlink()
        assert modules[4][4:11] == modules[10][4:11] == "1111111" and modules[5][4:11] == "1000001"  # a finder
        expected = [
            "".join("1" if dark else "0" for dark in row) for row in segno.make(link, error="m").matrix_iter(border=4)
        ]
        assert modules == expected
    key = text(out / "worksheet-key.pdf")
    assert "class/me" not in key and "ZoëNg" in key
