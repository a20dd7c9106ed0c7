"""LTI 1.3: the classroom server as a tool that a learning platform launches, tested against the platform in
``tests/lti_platform.py`` (built from the IMS specifications): the login and launch, a student's and a teacher's
launch, deep linking, the tool's keys and its client assertion, and every launch the specifications say a tool
must refuse."""

from __future__ import annotations

import csv
import html
import io
import json
import os
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("joserfc")

import httpx  # noqa: E402
from joserfc.jwk import RSAKey  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from bleu_teach.classroom.app import create_app  # noqa: E402
from bleu_teach.classroom.homework import Homework, draw  # noqa: E402
from bleu_teach.classroom.lti import LaunchRefused  # noqa: E402
from bleu_teach.classroom.lti import Platform as Registered
from bleu_teach.classroom.lti_services import PlatformClient, ScoreSender  # noqa: E402
from bleu_teach.classroom.room import STUDENT_COOKIE  # noqa: E402
from bleu_teach.classroom.schema import devices, extensions, lti_scores, lti_teachers, sessions, students  # noqa: E402
from bleu_teach.classroom.store import Store  # noqa: E402
from bleu_teach.classroom.store_students import DEVICES, MORE_DEVICES  # noqa: E402
from bleu_teach.web.names import WRITE_HEADER, WRITE_HEADER_VALUE  # noqa: E402
from tests.lti_platform import (  # noqa: E402
    CLIENT_ID,
    DEPLOYMENT,
    INSTRUCTOR,
    ISSUER,
    LEARNER,
    LTI,
    Platform,
    form_fields,
)
from tests.own_loop import run_alone  # noqa: E402
from tests.postgres import cluster, fresh_database  # noqa: E402

TOOL = "https://testserver"  # https: the login leaves its browser-binding cookie (Secure, SameSite=None)
WRITE = {WRITE_HEADER: WRITE_HEADER_VALUE}


class World:
    """The tool (its app, a browser per person) and the platform, registered with each other."""

    def __init__(self, folder: Path) -> None:
        self.store = Store.open(folder / "class.sqlite")
        self.platform = Platform(tool_keys=self._tool_keys, redirect_uri=f"{TOOL}/class/lti/launch")
        self.client = PlatformClient(httpx.ASGITransport(app=self.platform.app()))
        self.app = create_app(self.store, "the-admin-token", platforms=self.client)
        self.registered = self.store.add_platform(
            ISSUER, CLIENT_ID, f"{ISSUER}/auth", f"{ISSUER}/token", f"{ISSUER}/jwks", [DEPLOYMENT]
        )
        self.teacher = self.platform.add_user("t-1", "Ada Teacher", INSTRUCTOR)
        self.ann = self.platform.add_user("s-1", "Ann O’Neill", LEARNER)
        self.li = self.platform.add_user("s-2", "李 雷", LEARNER)

    def _tool_keys(self) -> Any:
        return (
            TestClient(self.app, base_url=TOOL).get("/class/lti/jwks").json()
        )  # read as the platform reads it: from its URL

    def browser(self) -> TestClient:
        return TestClient(self.app, base_url=TOOL)

    def launch(self, browser: TestClient, user: Any, **claims: Any) -> Any:
        """The whole flow as a browser walks it: the platform's login link, the tool's redirect to the platform's
        authentication endpoint, and the platform's form posted back to the tool."""
        started = browser.get(
            "/class/lti/login", params=self.platform.login_for(user, **claims), follow_redirects=False
        )
        assert started.status_code == 302, started.text
        answered = run_alone(_platform_get(self.platform, started.headers["location"]))
        assert answered.status_code == 200, answered.text
        action, fields = form_fields(answered.text)
        assert action == f"{TOOL}/class/lti/launch"
        return browser.post("/class/lti/launch", data=fields)


async def _platform_get(platform: Platform, url: str) -> httpx.Response:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=platform.app()), base_url=ISSUER) as client:
        return await client.get(url)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    made = World(tmp_path)
    yield made
    made.store.close()


def test_the_tool_publishes_its_public_key_and_never_its_private_parts(world: World) -> None:
    keys = world.browser().get("/class/lti/jwks").json()["keys"]
    assert len(keys) == 1 and keys[0]["kty"] == "RSA" and keys[0]["alg"] == "RS256" and keys[0]["use"] == "sig"
    assert not {"d", "p", "q", "dp", "dq", "qi"} & set(keys[0])
    again = world.browser().get("/class/lti/jwks").json()["keys"]
    assert again == keys  # made at the first start, then kept


def test_a_rotated_key_signs_from_then_on_and_the_old_one_stays_published(world: World) -> None:
    first = world.store.signing_key()
    second = world.store.rotate_key()
    published = [key["kid"] for key in world.browser().get("/class/lti/jwks").json()["keys"]]
    assert published == [second.kid, first.kid] and world.store.signing_key().kid == second.kid


def test_a_teachers_launch_opens_a_new_live_session_and_its_dashboard(world: World) -> None:
    browser = world.browser()
    page = world.launch(browser, world.teacher)
    assert page.status_code == 200 and "Opening the dashboard" in page.text
    session = world.store.sessions()[-1]
    assert session.title == "Week 3: BLEU" and session.kind == "live"
    assert f'url=/class/dashboard/{session.id}"' in page.text  # the page's own navigation (SameSite=Strict)
    assert browser.get(f"/class/dashboard/{session.id}").status_code == 200
    assert browser.get(f"/class/api/sessions/{session.id}/tally").status_code == 200
    # a browser without the launch's cookie is not let in
    assert world.browser().get(f"/class/dashboard/{session.id}").status_code == 401


def test_a_students_launch_puts_them_in_the_session_under_their_platform_name_every_time(world: World) -> None:
    world.launch(world.browser(), world.teacher)
    session = world.store.sessions()[-1]
    phone = world.browser()
    page = world.launch(phone, world.ann)
    assert page.status_code == 200 and "as Ann O’Neill" in page.text
    me = phone.get("/class/api/me").json()
    assert me["nickname"] == "Ann O’Neill" and me["session"] == session.title
    sent = phone.post("/class/api/answers", json={"id": "a-1", "exercise": "03.2", "answer": "E"}, headers=WRITE).json()
    assert sent["stored"] is True
    laptop = world.browser()  # another device, the next week: the same student, their answers still theirs
    world.launch(laptop, world.ann)
    assert laptop.get("/class/api/me").json() == me | {"answers": 1}
    chinese = world.browser()
    world.launch(chinese, world.li)
    assert chinese.get("/class/api/me").json()["nickname"] == "李 雷"
    # a student's cookie opens no dashboard
    assert phone.get(f"/class/dashboard/{session.id}").status_code == 401


def test_a_students_second_device_launches_in_beside_the_first_which_stays_in(world: World) -> None:
    """Each launch of the same platform user is one more device of the same student: the phone is not logged out
    by the laptop's launch, and both answer as that one student."""
    world.launch(world.browser(), world.teacher)
    session = world.store.sessions()[-1]
    phone, laptop = world.browser(), world.browser()
    world.launch(phone, world.ann)
    world.launch(laptop, world.ann)
    for device, answer_id in ((phone, "p-1"), (laptop, "l-1")):
        assert device.get("/class/api/me").json()["nickname"] == "Ann O’Neill"
        sent = device.post(
            "/class/api/answers", json={"id": answer_id, "exercise": "03.2", "answer": "E"}, headers=WRITE
        )
        assert sent.status_code == 200 and sent.json()["stored"] is True
    (ann,) = world.store.roster(session.id)
    assert sorted((a.answer_id, a.student_id) for a in world.store.answers(session.id)) == [
        ("l-1", ann.id),
        ("p-1", ann.id),
    ]
    assert world.store.remove_student(session.id, ann.id)  # taken out: out on every device
    assert phone.get("/class/api/me").status_code == 401 and laptop.get("/class/api/me").status_code == 401


@pytest.fixture(scope="module")
def postgres_base() -> Iterator[str]:
    with cluster() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A store on SQLite and on PostgreSQL (a throwaway cluster, tests/postgres.py), for the launches' records."""
    where = str(tmp_path / "class.sqlite") if request.param == "sqlite" else None
    opened = Store.open(where or fresh_database(request.getfixturevalue("postgres_base")))
    yield opened
    while opened.notices_out.pending:  # a change told late (PostgreSQL's NOTIFY, coalesced) is sent before closing
        time.sleep(0.01)
    opened.close()


def test_launches_of_one_user_are_one_student_on_the_newest_five_devices(any_store: Store) -> None:
    store = any_store
    platform = store.add_platform(
        ISSUER, CLIENT_ID, f"{ISSUER}/auth", f"{ISSUER}/token", f"{ISSUER}/jwks", [DEPLOYMENT]
    )
    session, _ = store.create_session("Week 3")
    first, phone = store.launched_student(session, platform, "s-1", "Ann O’Neill", "course-7")
    second, laptop = store.launched_student(session, platform, "s-1", "Ann O’Neill", "course-7")
    assert second == first and laptop != phone
    assert store.student(session.id, phone) == first and store.student(session.id, laptop) == first
    later = [store.launched_student(session, platform, "s-1", "Ann O’Neill", "course-7")[1] for _ in range(7)]
    kept = [store.student(session.id, device) is not None for device in [phone, laptop, *later]]
    assert kept == [False] * (9 - DEVICES) + [True] * DEVICES  # the newest five: the first one too is forgotten
    # Six launches at once (a lecture hall's Wi-Fi resending): one student, the table still bounded.
    other, _ = store.launched_student(session, platform, "s-2", "李 雷", "course-7")
    start = threading.Barrier(6)
    made: list[tuple[int, str]] = []
    failed: list[BaseException] = []

    def launch() -> None:
        start.wait()
        try:
            student, token = store.launched_student(session, platform, "s-2", "李 雷", "course-7")
            made.append((student.id, token))
        except BaseException as problem:  # noqa: BLE001 (reported below)
            failed.append(problem)

    threads = [threading.Thread(target=launch) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == [] and {student for student, _ in made} == {other.id}
    with store.engine.connect() as connection:
        rows = connection.execute(devices.select()).mappings().all()
        assert len(connection.execute(students.select()).all()) == 2
    assert sorted(row["student_id"] for row in rows) == [first.id] * MORE_DEVICES + [other.id] * MORE_DEVICES
    assert sum(store.student(session.id, token) is not None for _, token in made) == DEVICES  # of 7: the first out


def test_a_student_who_launches_before_the_teacher_has_opened_the_link_is_told_so(world: World) -> None:
    page = world.launch(world.browser(), world.ann)
    assert page.status_code == 400 and "not open yet" in page.text
    assert world.store.sessions() == []


def test_a_student_whose_launch_claims_the_instructor_role_elsewhere_is_still_a_student(world: World) -> None:
    world.launch(world.browser(), world.teacher)
    session = world.store.sessions()[-1]
    phone = world.browser()
    page = world.launch(phone, world.ann, extra={LTI + "custom": {"role": "Instructor", "roles": INSTRUCTOR}})
    assert page.status_code == 200 and "Opening the dashboard" not in page.text
    assert phone.get(f"/class/dashboard/{session.id}").status_code == 401


def _refused(world: World, **claims: Any) -> str:
    world.launch(world.browser(), world.teacher)  # the link is open: only the launch's own fault refuses it
    page = world.launch(world.browser(), world.ann, **claims)
    assert page.status_code in (400, 403), page.text
    assert "The launch was refused" in page.text
    return html.unescape(page.text)


@pytest.mark.parametrize(
    ("claims", "said"),
    [
        ({"extra": {"exp": int(time.time()) - 120}}, "it has expired"),
        ({"extra": {"aud": "another-tool"}}, "meant for another tool"),
        ({"extra": {"aud": [CLIENT_ID, "another-tool"]}}, "several audiences"),
        ({"extra": {"iss": "https://other-lms.example.org"}}, "issued by another platform"),
        ({"extra": {LTI + "deployment_id": "deployment-9"}}, "not registered"),
        ({"extra": {LTI + "version": "1.1"}}, "not 1.3.0"),
        ({"extra": {LTI + "message_type": "LtiSubmissionReviewRequest"}}, "resource-link and deep-linking"),
        ({"extra": {LTI + "roles": ["http://purl.imsglobal.org/vocab/lis/v2/membership#Mentor"]}}, "neither"),
        ({"without": [LTI + "roles"]}, "roles claim"),
        ({"without": ["nonce"]}, "nonce"),
        ({"extra": {"iat": int(time.time()) + 3600}}, "issued in the future"),
        ({"extra": {"iat": int(time.time()) - 3600}}, "issued too long ago"),
        ({"extra": {"azp": "another-tool"}}, "azp"),
        ({"without": [LTI + "context"]}, "outside a course"),
        ({"extra": {LTI + "context": {"title": "no id"}}}, "outside a course"),
        (
            {
                "extra": {
                    "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice": {
                        "context_memberships_url": "https://attacker.example.net/members"
                    }
                }
            },
            "not on the platform's host",
        ),
        (
            {
                "extra": {
                    "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {"lineitem": "https://x.example.net/s"}
                }
            },
            "not on the platform's host",
        ),
    ],
)
def test_a_launch_the_specifications_forbid_is_refused_with_what_was_wrong(
    world: World, claims: dict[str, Any], said: str
) -> None:
    assert said in _refused(world, **claims)


def test_an_unsigned_token_is_refused(world: World) -> None:
    def unsigned(claims: dict[str, Any]) -> str:
        import base64
        import json

        part = lambda value: base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()  # noqa: E731
        return f"{part({'alg': 'none', 'typ': 'JWT'})}.{part(claims)}."

    assert "signed with 'none'" in _refused(world, token=unsigned)


def test_a_token_signed_with_a_key_the_platform_does_not_publish_is_refused(world: World) -> None:
    stranger = RSAKey.generate_key(2048, {"kid": "not-the-platforms", "alg": "RS256"})
    assert "a key ('not-the-platforms')" in _refused(world, key=stranger)
    impostor = RSAKey.generate_key(2048, {"kid": "platform-key-1", "alg": "RS256"})  # the platform's key id
    assert "signature is not the platform's" in _refused(world, key=impostor)


def test_a_replayed_launch_is_refused_whether_its_state_or_a_new_login_comes_with_it(world: World) -> None:
    world.launch(world.browser(), world.teacher)
    browser = world.browser()
    started = browser.get("/class/lti/login", params=world.platform.login_for(world.ann), follow_redirects=False)
    _, fields = form_fields(run_alone(_platform_get(world.platform, started.headers["location"])).text)
    assert browser.post("/class/lti/launch", data=fields).status_code == 200
    again = world.browser().post("/class/lti/launch", data=fields)  # the same form posted again
    assert again.status_code == 400 and "used already" in again.text
    # a new login's state with the old token: its nonce is not the new login's
    fresh = world.browser()
    started = fresh.get("/class/lti/login", params=world.platform.login_for(world.ann), follow_redirects=False)
    _, new_fields = form_fields(run_alone(_platform_get(world.platform, started.headers["location"])).text)
    replay = fresh.post("/class/lti/launch", data={"id_token": fields["id_token"], "state": new_fields["state"]})
    assert replay.status_code == 400 and "nonce" in replay.text


def test_a_login_from_an_unknown_platform_or_for_another_tool_is_refused(world: World) -> None:
    params = world.platform.login_for(world.ann)
    unknown = world.browser().get("/class/lti/login", params=params | {"iss": "https://unknown.example.org"})
    assert unknown.status_code == 400 and "not registered with this tool" in unknown.text
    elsewhere = world.browser().get(
        "/class/lti/login", params=params | {"target_link_uri": "https://evil.example.org/launch"}
    )
    assert elsewhere.status_code == 400 and "another tool" in elsewhere.text
    deployment = world.browser().get("/class/lti/login", params=params | {"lti_deployment_id": "other"})
    assert deployment.status_code == 400 and "not registered" in deployment.text


def test_the_platforms_form_posts_are_let_in_and_the_tools_own_form_only_from_its_own_pages(world: World) -> None:
    launched = world.launch(world.browser(), world.teacher)  # no header of the server's: a platform's form
    assert launched.status_code == 200 and "Opening the dashboard" in launched.text
    foreign = world.browser().post(
        "/class/lti/deep-link", data={"ticket": "x", "teacher_link": "y"}, headers={"Origin": "https://evil.example"}
    )
    assert foreign.status_code == 403
    headerless = world.browser().post("/class/api/answers", json={})
    assert headerless.status_code == 403  # every other write still needs the pages' header


def test_the_choice_pages_own_form_is_sent_with_the_origin_a_browser_gives_it(world: World) -> None:
    """The deep-linking page's form to this server (a teacher link pasted) posts without script, like a personal
    link's button: from a page whose policy is the server's no-referrer, Chromium sends ``Origin: null``, which the
    guard refuses. The page says to send its origin instead, as the link's page does; null is still refused."""
    homework, secret = world.store.create_session("Homework 1", "homework")
    teacher = world.browser()
    page = world.launch(teacher, world.teacher, **_deep_linking_claims())
    assert page.status_code == 200 and page.headers["referrer-policy"] == "no-referrer"
    assert '<meta name="referrer" content="origin">' in page.text  # the document's policy: its form sends the origin
    _, fields = form_fields(_ticket_form(page.text))
    sent = {"ticket": fields["ticket"], "teacher_link": f"{TOOL}/class/t/{homework.id}/{secret}"}
    as_if_no_referrer = teacher.post("/class/lti/deep-link", data=sent, headers={"Origin": "null"})
    assert as_if_no_referrer.status_code == 403  # what the page without its meta tag got, in Chromium
    chromium = teacher.post(  # what Chromium sends from the page: its origin, and the origin alone as the referrer
        "/class/lti/deep-link",
        data=sent,
        headers={"Origin": TOOL, "Referer": f"{TOOL}/", "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert chromium.status_code == 200 and "Homework 1: send it to the course page." in html.unescape(chromium.text)


def _deep_linking_claims() -> dict[str, Any]:
    return {
        "extra": {
            LTI + "message_type": "LtiDeepLinkingRequest",
            "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": {
                "deep_link_return_url": f"{ISSUER}/deep-link-return",
                "accept_types": ["ltiResourceLink", "link"],
                "accept_presentation_document_targets": ["window"],
                "data": "platform-data-42",
            },
        },
        "without": [LTI + "resource_link"],
    }


def test_a_teacher_chooses_a_session_for_a_link_and_the_platform_accepts_the_tools_signed_answer(
    world: World,
) -> None:
    homework, secret = world.store.create_session("Homework 1", "homework")
    teacher = world.browser()
    page = world.launch(teacher, world.teacher, **_deep_linking_claims())
    assert page.status_code == 200 and "A new live session" in page.text
    assert f"form-action 'self' {ISSUER}" in page.headers["content-security-policy"]
    # Moodle's and Canvas's content selection show this page in a frame of their own page
    assert f"frame-ancestors 'self' {ISSUER};" in page.headers["content-security-policy"]
    assert "x-frame-options" not in page.headers
    # the homework is not offered yet: the teacher pastes its teacher link
    _, fields = form_fields(_ticket_form(page.text))
    chosen = teacher.post(
        "/class/lti/deep-link",
        data={"ticket": fields["ticket"], "teacher_link": f"{TOOL}/class/t/{homework.id}/{secret}"},
        headers={"Origin": TOOL},
    )
    assert chosen.status_code == 200, chosen.text
    action, answer = form_fields(chosen.text)
    assert action == f"{ISSUER}/deep-link-return"
    accepted = run_alone(_platform_post(world.platform, action, answer))
    assert accepted.status_code == 200, world.platform.refused
    item = world.platform.deep_link_returns[-1]["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"][0]
    assert item["custom"] == {"session": str(homework.id)}
    # the platform's link to it now opens the homework for a student
    phone = world.browser()
    page = world.launch(phone, world.ann, extra={LTI + "custom": item["custom"], LTI + "resource_link": {"id": "hw-1"}})
    assert "Opening your homework" in page.text and phone.get("/class/api/me").json()["session"] == "Homework 1"


def test_a_link_that_names_a_session_not_chosen_for_the_course_is_refused(world: World) -> None:
    other, _ = world.store.create_session("Someone else's class")
    browser = world.browser()
    page = world.launch(browser, world.teacher, extra={LTI + "custom": {"session": str(other.id)}})
    assert page.status_code == 400 and "not chosen for this course" in page.text
    assert browser.get(f"/class/dashboard/{other.id}").status_code == 401


def test_a_wrong_teacher_link_or_an_old_choice_page_chooses_nothing(world: World) -> None:
    homework, _ = world.store.create_session("Homework 1", "homework")
    page = world.launch(world.browser(), world.teacher, **_deep_linking_claims())
    _, fields = form_fields(_ticket_form(page.text))
    wrong = world.browser().post(
        "/class/lti/deep-link",
        data={"ticket": fields["ticket"], "teacher_link": f"{TOOL}/class/t/{homework.id}/not-the-secret-at-all"},
        headers={"Origin": TOOL},
    )
    assert wrong.status_code == 400 and "paste the whole teacher link" in wrong.text
    forged = world.browser().post(
        "/class/lti/deep-link", data={"ticket": "a.b.c", "teacher_link": "x"}, headers={"Origin": TOOL}
    )
    assert forged.status_code == 400 and "ticket" in forged.text


def _ticket_form(page: str) -> str:
    start = page.index('<form method="post" action="/class/lti/deep-link">')
    return page[start:]


async def _platform_post(platform: Platform, url: str, data: dict[str, str]) -> httpx.Response:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=platform.app()), base_url=ISSUER) as client:
        return await client.post(url, data=data)


def test_the_course_members_are_read_page_by_page_with_a_token_the_tool_asked_for_with_its_signed_assertion(
    world: World,
) -> None:
    key = world.store.signing_key()
    members = run_alone(world.client.members(world.registered, f"{ISSUER}/courses/7/members", key))
    assert [(m.subject, m.name, m.learner) for m in members] == [
        ("t-1", "Ada Teacher", False),
        ("s-1", "Ann O’Neill", True),
        ("s-2", "李 雷", True),
    ]
    assert world.platform.refused == []
    assert len(world.platform.used_jti) == 1  # one token, kept for the next pages
    with pytest.raises(Exception, match="not on the platform's host"):
        run_alone(world.client.members(world.registered, "https://attacker.example.net/members", key))


def test_a_platform_registered_with_an_address_that_is_not_https_is_refused(world: World) -> None:
    with pytest.raises(ValueError, match="login_url: an https:// address"):
        world.store.add_platform(ISSUER, "x", "http://lms.example.edu/auth", f"{ISSUER}/t", f"{ISSUER}/k", ["d"])
    with pytest.raises(ValueError, match="deployment"):
        world.store.add_platform(ISSUER, "x", f"{ISSUER}/a", f"{ISSUER}/t", f"{ISSUER}/k", [])
    assert isinstance(world.registered, Registered) and world.registered.deployments == (DEPLOYMENT,)
    assert issubclass(LaunchRefused, ValueError)


def _homework_link(world: World, due: datetime | None = None, late: str = "accept") -> tuple[Any, str]:
    """A homework of two questions, chosen for the course and opened once by its teacher through a link."""
    homework, _ = world.store.create_session(
        "Homework 2", "homework", due or datetime.now(timezone.utc) + timedelta(days=7), late=late
    )
    Homework(world.store).save(homework, draw(["02.1", "03.1"], count=2, seed=21))
    world.store.offer(world.registered, "course-7", homework.id)
    opened = world.launch(
        world.browser(),
        world.teacher,
        extra={LTI + "custom": {"session": str(homework.id)}, LTI + "resource_link": {"id": "hw-link"}},
    )
    assert opened.status_code == 200, opened.text
    return homework, "hw-link"


def _answer(world: World, browser: Any, right: bool) -> None:
    found = world.store.student_and_session(*_cookie(browser))
    assert found is not None
    student = found[0]
    variant = Homework(world.store).assignment(student)[0]  # 02.1, the first in the course's order
    answer = f"{float(variant.answer):.3f}" if right else "0.001"
    sent = browser.post(
        "/class/api/homework/answer",
        headers=WRITE,
        json={"id": str(uuid.uuid4()), "exercise": variant.id, "answer": answer},
    )
    assert sent.status_code == 200 and sent.json()["verdict"] == ("correct" if right else "wrong"), sent.text


def _cookie(browser: Any) -> tuple[int, str]:
    number, _, token = browser.cookies[STUDENT_COOKIE].strip('"').partition(".")
    return int(number), token


def test_a_homework_score_reaches_the_platforms_grade_column_and_waits_out_an_outage(world: World) -> None:
    homework, link = _homework_link(world)
    # the tool made the link's grade column through the platform's line items service: two questions, two points
    (column,) = world.platform.line_items.values()
    assert column["scoreMaximum"] == 2 and column["resourceLinkId"] == link and column["label"] == "Homework 2"
    assert world.store.line_item_of(world.registered, link) == column["id"]
    sender = ScoreSender(world.store, world.client)
    phone = world.browser()
    assert "Opening your homework" in world.launch(phone, world.ann, extra=_link_claims(homework, link)).text
    assert run_alone(sender.send_due()) == 0  # nothing answered: the column stays blank
    _answer(world, phone, right=False)
    assert run_alone(sender.send_due()) == 1
    ((_, first),) = world.platform.scores
    assert first["userId"] == "s-1" and first["scoreGiven"] == 0 and first["scoreMaximum"] == 2
    assert first["activityProgress"] == "InProgress" and first["gradingProgress"] == "FullyGraded"
    # the platform is down: the score waits in the outbox, tried again later, never lost
    world.platform.down = 1
    _answer(world, phone, right=True)
    assert run_alone(sender.send_due()) == 0
    waiting = [row for row in world.store.scores(homework.id) if row.sent is None]
    assert len(waiting) == 1 and waiting[0].tries == 1 and "503" in waiting[0].problem
    assert run_alone(sender.send_due()) == 0  # not before its time
    _later(world, waiting[0].id)
    assert run_alone(sender.send_due()) == 1
    assert world.platform.scores[-1][1]["scoreGiven"] == 1 and world.platform.refused == []


def test_at_the_due_time_the_final_scores_are_posted_once_as_completed(world: World) -> None:
    homework, link = _homework_link(world)
    sender = ScoreSender(world.store, world.client)
    phone = world.browser()
    world.launch(phone, world.ann, extra=_link_claims(homework, link))
    world.launch(world.browser(), world.li, extra=_link_claims(homework, link))  # never answers: stays blank
    _answer(world, phone, right=True)
    run_alone(sender.send_due())
    with world.store.engine.begin() as connection:
        connection.execute(
            sessions.update()
            .where(sessions.c.id == homework.id)
            .values(due=datetime.now(timezone.utc) - timedelta(minutes=1))
        )
    assert run_alone(sender.send_due()) == 1 and run_alone(sender.send_due()) == 0
    final = world.platform.scores[-1][1]
    assert final["userId"] == "s-1" and final["scoreGiven"] == 1 and final["activityProgress"] == "Completed"
    assert {score["userId"] for _, score in world.platform.scores} == {"s-1"}


def _due_now(world: World, homework: Any, minutes: int = 1) -> None:
    """The homework's due time is now a few minutes past."""
    with world.store.engine.begin() as connection:
        connection.execute(
            sessions.update()
            .where(sessions.c.id == homework.id)
            .values(due=datetime.now(timezone.utc) - timedelta(minutes=minutes))
        )


def test_a_late_answers_penalty_is_in_the_score_sent_and_in_the_grades_file_alike(world: World) -> None:
    homework, link = _homework_link(world, late="penalty:30")
    sender = ScoreSender(world.store, world.client)
    phone = world.browser()
    world.launch(phone, world.ann, extra=_link_claims(homework, link))
    _due_now(world, homework)
    _answer(world, phone, right=True)  # 02.1 right, after the due time: 0.7 of its point
    assert run_alone(sender.send_due()) == 1  # the final score replaced the one queued when she answered
    ((_, score),) = world.platform.scores
    assert score | {"timestamp": ""} == {
        "userId": "s-1",
        "scoreGiven": 0.7,
        "scoreMaximum": 2,
        "activityProgress": "Completed",
        "gradingProgress": "FullyGraded",
        "timestamp": "",
    }
    assert world.platform.refused == []
    teacher = world.browser()
    world.launch(teacher, world.teacher, extra=_link_claims(homework, link))
    rows = list(csv.reader(io.StringIO(teacher.get(f"/class/api/sessions/{homework.id}/grades.csv").text)))
    assert rows[0][3:8] == ["02.1", "03.1", "Homework 2", "Maximum points", "Homework 2 (%)"]
    assert rows[1][:9] == ["Ann O’Neill", "s-1@example.edu", "s-1", "0.7", "", "0.7", "2", "35.0", "yes"]
    assert rows[2][3:9] == ["", "", "", "2", "", ""]  # 李 雷 never started: blanks, and no score was sent


def test_a_student_with_an_extension_gets_their_final_score_when_it_ends_not_at_the_due_time(world: World) -> None:
    homework, link = _homework_link(world)
    sender = ScoreSender(world.store, world.client)
    ann, li = world.browser(), world.browser()
    world.launch(ann, world.ann, extra=_link_claims(homework, link))
    world.launch(li, world.li, extra=_link_claims(homework, link))
    _answer(world, ann, right=True)
    _answer(world, li, right=False)
    assert run_alone(sender.send_due()) == 2  # each one's score so far
    world.store.extend(homework.id, "李 雷", datetime.now(timezone.utc) + timedelta(days=8))  # after the due time
    _due_now(world, homework)
    assert run_alone(sender.send_due()) == 1  # Ann's final score; Li's waits for the end of his extension
    assert [(s["userId"], s["activityProgress"]) for _, s in world.platform.scores[2:]] == [("s-1", "Completed")]
    _answer(world, li, right=True)  # after the due time, within his extension: not late, counted in full
    assert run_alone(sender.send_due()) == 1
    assert world.platform.scores[-1][1] | {"timestamp": ""} == {
        "userId": "s-2",
        "scoreGiven": 1,
        "scoreMaximum": 2,
        "activityProgress": "InProgress",
        "gradingProgress": "FullyGraded",
        "timestamp": "",
    }
    with world.store.engine.begin() as connection:  # time passes: his extension ends
        connection.execute(extensions.update().values(until=datetime.now(timezone.utc) - timedelta(seconds=1)))
    assert run_alone(sender.send_due()) == 1 and run_alone(sender.send_due()) == 0  # once
    final = world.platform.scores[-1][1]
    assert (final["userId"], final["scoreGiven"], final["activityProgress"]) == ("s-2", 1, "Completed")
    assert world.platform.refused == []


def _link_claims(homework: Any, link: str) -> dict[str, Any]:
    return {LTI + "custom": {"session": str(homework.id)}, LTI + "resource_link": {"id": link}}


def _later(world: World, score_id: int) -> None:
    """Time passes for one queued score: its next try is now."""
    with world.store.engine.begin() as connection:
        connection.execute(
            lti_scores.update().where(lti_scores.c.id == score_id).values(next_try=datetime.now(timezone.utc))
        )


def _cli(*args: str, cwd: Path) -> Any:
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "bleu_teach", "class", "lti", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )


def test_the_commands_print_what_to_enter_register_a_platform_and_rotate_the_key(tmp_path: Path) -> None:
    setup = _cli("setup", "--address", "https://class.cs.example.edu", cwd=tmp_path)
    assert setup.returncode == 0, setup.stderr
    assert "Initiate login URL:       https://class.cs.example.edu/class/lti/login" in setup.stdout
    canvas = json.loads(setup.stdout[setup.stdout.index("{") : setup.stdout.rindex("}") + 1])
    assert canvas["oidc_initiation_url"] == "https://class.cs.example.edu/class/lti/login"
    assert canvas["target_link_uri"] == canvas["extensions"][0]["settings"]["placements"][0]["target_link_uri"]
    assert canvas["public_jwk_url"] == "https://class.cs.example.edu/class/lti/jwks"
    assert list(tmp_path.iterdir()) == []  # it opened no database
    refused = _cli("setup", "--address", "http://class.cs.example.edu", cwd=tmp_path)
    assert refused.returncode == 2 and "--address: the server's https address" in refused.stderr
    database = str(tmp_path / "class.sqlite")
    moodle = "https://moodle.example.edu"
    added = _cli(
        "add",
        "--database",
        database,
        "--issuer",
        moodle,
        "--client-id",
        "Xy12",
        "--login-url",
        f"{moodle}/mod/lti/auth.php",
        "--token-url",
        f"{moodle}/mod/lti/token.php",
        "--jwks-url",
        f"{moodle}/mod/lti/certs.php",
        "--deployment",
        "3",
        cwd=tmp_path,
    )
    assert added.returncode == 0 and "Platform 1: https://moodle.example.edu (client id Xy12" in added.stdout
    listed = _cli("list", "--database", database, cwd=tmp_path)
    assert listed.stdout.split() == ["1", moodle, "client", "id", "Xy12", "deployments", "3"]
    store = Store.open(database)
    before = store.signing_key().kid
    store.close()
    rotated = _cli("rotate-key", "--database", database, cwd=tmp_path)
    assert rotated.returncode == 0 and before not in rotated.stdout
    store = Store.open(database)
    assert [key.kid for key in store.published_keys()][1] == before
    store.close()
    missing = _cli("remove", "9", "--database", database, cwd=tmp_path)
    assert missing.returncode == 2 and "there is no platform 9" in missing.stderr
    assert _cli("remove", "1", "--database", database, cwd=tmp_path).returncode == 0
    assert _cli("list", "--database", database, cwd=tmp_path).stdout == ""


def test_a_teachers_launch_fills_the_homeworks_roster_from_the_course_and_the_gradebook_lists_everyone(
    world: World,
) -> None:
    world.platform.add_user("s-3", "Ann O’Neill", LEARNER)  # two learners of one name
    homework, link = _homework_link(world)
    names = world.store.roster_names(homework.id)
    assert [name for name, _, _ in names] == ["Ann O’Neill", "李 雷", "Ann O’Neill (2)"]  # learners only
    assert json.loads(names[0][1]) == {"Email address": "s-1@example.edu", "LMS user id": "s-1"}
    phone = world.browser()
    world.launch(phone, world.ann, extra=_link_claims(homework, link))
    assert phone.get("/class/api/me").json()["nickname"] == "Ann O’Neill"
    second = world.browser()
    world.launch(second, world.platform.users["s-3"], extra=_link_claims(homework, link))
    assert second.get("/class/api/me").json()["nickname"] == "Ann O’Neill (2)"
    _answer(world, phone, right=True)
    teacher = world.browser()
    world.launch(teacher, world.teacher, extra=_link_claims(homework, link))
    grades = teacher.get(f"/class/api/sessions/{homework.id}/grades.csv").text.splitlines()
    rows = {line.split(",")[0]: line.split(",") for line in grades[1:]}
    assert set(rows) == {"Ann O’Neill", "李 雷", "Ann O’Neill (2)"}
    assert rows["Ann O’Neill"][3] == "1" and rows["李 雷"][3] == ""  # the one who never started: blank
    # the roster is filled once: a later launch leaves it as it is
    assert world.store.roster_names(homework.id)[0][2] is not None


def test_a_course_whose_names_one_key_would_merge_fills_the_roster_and_those_names_join_only_as_listed(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Names from the platform are not checked as a teacher's file is: two learners whose names differ only in the
    order of the names and the apostrophe still make the roster (the log says how many such groups, naming no
    one); on the join page each is then taken only as listed, while a name no other shares is found as students
    type it."""
    import logging

    caplog.set_level(logging.INFO, logger="bleu_teach.classroom")
    world.platform.add_user("s-4", "O'Neill Ann", LEARNER)
    homework, _ = _homework_link(world)
    assert [name for name, _, _ in world.store.roster_names(homework.id)] == ["Ann O’Neill", "李 雷", "O'Neill Ann"]
    said = [r.getMessage() for r in caplog.records if "differ only in" in r.getMessage()]
    assert (
        len(said) == 1 and said[0].startswith("LTI: 1 group(s) of the roster of Homework 2") and "Neill" not in said[0]
    )

    def join(name: str) -> Any:
        return world.browser().post("/class/api/join", json={"code": homework.code, "nickname": name}, headers=WRITE)

    refused = join("Ann ONeill")
    assert refused.status_code == 400 and "exactly as your teacher's list has it" in refused.json()["error"]
    assert "Neill" not in refused.json()["error"]
    assert join("李雷").json()["nickname"] == "李 雷"
    assert join("o'neill ann").json()["nickname"] == "O'Neill Ann"


def test_a_launch_form_sent_on_to_another_browser_is_refused(world: World) -> None:
    """Login CSRF: a student's own launch form, posted from a victim's browser, would sign the victim in as the
    student; the launch must come back to the browser its login started in."""
    world.launch(world.browser(), world.teacher)
    attacker = world.browser()
    started = attacker.get("/class/lti/login", params=world.platform.login_for(world.ann), follow_redirects=False)
    _, fields = form_fields(run_alone(_platform_get(world.platform, started.headers["location"])).text)
    victim = world.browser()
    page = victim.post("/class/lti/launch", data=fields, headers={"Origin": "https://evil.example"})
    assert page.status_code == 400 and "another browser than its login" in html.unescape(page.text)
    assert victim.get("/class/api/me").status_code == 401


def test_a_teachers_launch_opens_the_dashboard_for_hours_not_for_ever_and_a_new_teacher_link_ends_it(
    world: World,
) -> None:
    browser = world.browser()
    world.launch(browser, world.teacher)
    session = world.store.sessions()[-1]
    assert browser.get(f"/class/dashboard/{session.id}").status_code == 200
    world.store.new_teacher_secret(session.id)  # the teacher made a new link: every other way in ends
    assert browser.get(f"/class/dashboard/{session.id}").status_code == 401
    world.launch(browser, world.teacher)
    assert browser.get(f"/class/dashboard/{session.id}").status_code == 200
    with world.store.engine.begin() as connection:  # thirteen hours later
        connection.execute(lti_teachers.update().values(created=datetime.now(timezone.utc) - timedelta(hours=13)))
    assert browser.get(f"/class/dashboard/{session.id}").status_code == 401


def test_a_nonce_is_taken_once_even_in_a_token_a_platform_signed_twice(world: World) -> None:
    expires = datetime.now(timezone.utc) + timedelta(minutes=10)
    world.store.use_nonce(world.registered, "n-1", expires)
    with pytest.raises(LaunchRefused, match="used already"):
        world.store.use_nonce(world.registered, "n-1", expires)


def test_only_a_teacher_asks_for_a_choice_and_only_to_the_platforms_own_return_address(world: World) -> None:
    learner = world.launch(world.browser(), world.ann, **_deep_linking_claims())
    assert learner.status_code == 403 and "Only the course's teachers" in html.unescape(learner.text)
    claims = _deep_linking_claims()
    settings = claims["extra"]["https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings"]
    settings["deep_link_return_url"] = "https://attacker.example.net/collect"
    elsewhere = world.launch(world.browser(), world.teacher, **claims)
    assert elsewhere.status_code == 400 and "not on the platform's host" in html.unescape(elsewhere.text)
    settings["deep_link_return_url"] = f"{ISSUER}/deep-link-return"
    settings["accept_types"] = ["link"]  # the platform takes plain links here: no session is offered
    page = world.launch(world.browser(), world.teacher, **claims)
    assert page.status_code == 200 and "A new live session" not in page.text


def test_a_score_the_platform_refuses_is_kept_with_its_reason_and_not_sent_again(world: World) -> None:
    homework, link = _homework_link(world)
    sender = ScoreSender(world.store, world.client)
    phone = world.browser()
    world.launch(phone, world.ann, extra=_link_claims(homework, link))
    del world.platform.users["s-1"]  # the platform no longer has the student: it refuses their score
    _answer(world, phone, right=True)
    assert run_alone(sender.send_due()) == 0
    (row,) = world.store.scores(homework.id)
    assert row.sent is not None and row.problem.startswith("refused: ") and "400" in row.problem
    _later(world, row.id)
    assert run_alone(sender.send_due()) == 0 and world.platform.scores == []
