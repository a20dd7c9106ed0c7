"""Every route of the classroom server says who may call it, and every other caller is refused.

The routes are read from the app's own route table (nothing listed by hand), so a route added without a role
fails here. Each route is then called as each role: anyone (no cookie), a student of the session (their join
cookie), the session's teacher (the teacher link's cookie), the room's projector (no cookie: the projector link's
token in the path), the server's admin (the teacher token's cookie), and the teacher of another session. The role
a route declares gets through (anything but 401/403); every other gets 401 or 403. A credential carried in the path
(the teacher link, the projector link) is the right one for its own role only: every other caller holds a wrong one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.routing import Mount, Route  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from bleu_teach.classroom.app import create_app  # noqa: E402
from bleu_teach.classroom.roles import ADMIN, ANYONE, PROJECTOR, ROLES, STUDENT, TEACHER, role_of  # noqa: E402
from bleu_teach.classroom.store import Store  # noqa: E402

WRITE = {"X-Bleu-Teach": "1"}
TOKEN = "teacher-token-for-role-tests"
#: Mounted apps serve files (the classroom's scripts, the course site): no one's data, open to anyone.
OPEN_MOUNTS = {"/class/static", ""}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(tmp_path / "class.sqlite")
    yield opened
    opened.close()


def _browser(store: Store) -> TestClient:
    return TestClient(create_app(store, TOKEN), base_url="http://class.test", raise_server_exceptions=True)


def test_every_route_declares_one_of_the_roles(store: Store) -> None:
    app = create_app(store, TOKEN).app
    undeclared, mounts = [], []
    for route in app.routes:
        if isinstance(route, Mount):
            mounts.append(route.path)
        elif isinstance(route, Route):
            if role_of(route.endpoint) not in ROLES:
                undeclared.append(route.path)
    assert undeclared == []
    assert set(mounts) <= OPEN_MOUNTS


def test_each_route_lets_in_its_role_and_refuses_every_other(store: Store) -> None:
    admin = _browser(store)
    assert admin.get(f"/class/teach?token={TOKEN}", follow_redirects=False).status_code == 303
    made = admin.post("/class/api/sessions", headers=WRITE, json={"title": "week 3"}).json()
    other_made = admin.post("/class/api/sessions", headers=WRITE, json={"title": "another"}).json()
    teacher, other_teacher = _browser(store), _browser(store)
    assert teacher.get(made["teacher_link"], follow_redirects=False).status_code == 303
    assert other_teacher.get(other_made["teacher_link"], follow_redirects=False).status_code == 303
    student = _browser(store)
    assert (
        student.post("/class/api/join", headers=WRITE, json={"code": made["code"], "nickname": "Ann"}).status_code
        == 200
    )
    poll = teacher.post(
        f"/class/api/sessions/{made['id']}/polls", headers=WRITE, json={"question": "Which?", "options": ["one", "two"]}
    ).json()["poll"]["id"]
    student_id = teacher.get(f"/class/api/sessions/{made['id']}/tally").json()["roster"][0]["id"]
    secret = made["teacher_link"].rsplit("/", 1)[1]
    link = teacher.post(f"/class/api/sessions/{made['id']}/projector-link", headers=WRITE, json={}).json()["link"]
    token = link.rsplit("/", 1)[1]
    room = _browser(store)  # the room's computer: no cookie, the projector link's token alone
    store.set_roster(made["id"], [("Bea Ruiz", "{}")])  # a personal link (anyone holding it may open its page)
    personal = store.issue_links(made["id"])[0].token
    callers = {
        ANYONE: lambda: _browser(store),
        STUDENT: lambda: student,
        TEACHER: lambda: teacher,
        PROJECTOR: lambda: room,
        ADMIN: lambda: admin,
        "another session's teacher": lambda: other_teacher,
    }
    values = {
        "session": made["id"],
        "poll": poll,
        "student": student_id,
        "action": "close",
        "secret": secret,
        "token": token,
        "link": personal,
        "rest": f"{made['id']}/{personal}/more",
    }
    app = create_app(store, TOKEN).app
    # What ends the projector link, the student's or the session's part comes last.
    last = {"new_projector_link": 1, "stop_projector_link": 1, "remove": 1, "close": 2, "delete": 3}
    routes = sorted((r for r in app.routes if isinstance(r, Route)), key=lambda r: last.get(r.name, 0))
    checked = 0
    for route in routes:
        declared = role_of(route.endpoint)
        path = route.path
        for name, value in values.items():
            for kind in ("id", "str", "path"):
                path = path.replace(f"{{{name}:{kind}}}", str(value))
        assert "{" not in path, path
        for method in sorted(route.methods or {"GET"}):
            if method == "HEAD":
                continue
            for caller_role, caller in callers.items():
                browser = caller()
                if route.name in ("events", "room_events") and caller_role == declared:
                    continue  # a live stream that never ends: tested in test_classroom_server, test_classroom_projector
                if route.name == "enter" and caller_role != TEACHER:
                    # the teacher link itself is the teacher's credential: anyone else holds a wrong one
                    path = path.rsplit("/", 1)[0] + "/not-the-secret"
                if declared == PROJECTOR and caller_role != PROJECTOR:  # so is the projector link's token
                    path = path.replace(f"/{token}", "/NOTTHETOKEN")
                reply = (
                    browser.request(method, path, headers=WRITE, json={}, follow_redirects=False)
                    if method != "GET"
                    else browser.request(method, path, follow_redirects=False)
                )
                refused = reply.status_code in (401, 403)
                should_pass = declared == ANYONE or caller_role == declared
                assert refused != should_pass, (
                    method,
                    route.path,
                    declared,
                    caller_role,
                    reply.status_code,
                    reply.text[:200],
                )
                if route.name == "enter":
                    path = path.rsplit("/", 1)[0] + "/" + secret
                path = path.replace("/NOTTHETOKEN", f"/{token}")
                checked += 1
            if method == "DELETE":  # the session is gone after its teacher deletes it: nothing more to call
                break
    assert checked >= 6 * 30  # every role against every route
