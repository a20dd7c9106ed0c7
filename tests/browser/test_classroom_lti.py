"""An LTI 1.3 launch in Chromium: the platform of ``tests/lti_platform.py`` (built from the IMS specifications) runs
as a server of its own, the classroom server as its users start it (``class serve``). A student follows the
course's link, is let into the homework under the platform's name without typing anything, answers on the
homework page, and the score reaches the platform's grade column; the teacher's launch opens the dashboard."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("joserfc")

import httpx  # noqa: E402
import uvicorn  # noqa: E402

from bleu_teach.classroom.homework import Homework, draw  # noqa: E402
from bleu_teach.classroom.store import Store  # noqa: E402
from tests.browser.conftest import _free_port  # noqa: E402
from tests.classroom_server import Server  # noqa: E402
from tests.lti_platform import CLIENT_ID, DEPLOYMENT, INSTRUCTOR, LEARNER, Platform  # noqa: E402


class RunningPlatform:
    """The platform's app under uvicorn in a thread, on 127.0.0.1."""

    def __init__(self, platform: Platform, port: int) -> None:
        self.platform = platform
        self.server = uvicorn.Server(uvicorn.Config(platform.app(), host="127.0.0.1", port=port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> RunningPlatform:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.server.started, "the platform did not start"
        return self

    def __exit__(self, *_: Any) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[Server, Platform, int]]:
    database = str(tmp_path / "class.sqlite")
    server = Server(database, tmp_path)
    port = _free_port()
    issuer = f"http://127.0.0.1:{port}"
    platform = Platform(
        tool_keys=lambda: httpx.get(f"{server.url}/class/lti/jwks", timeout=10).json(),
        redirect_uri=f"{server.url}/class/lti/launch",
        issuer=issuer,
    )
    platform.add_user("t-1", "Ada Teacher", INSTRUCTOR)
    platform.add_user("s-1", "Ann O’Neill", LEARNER)
    store = Store.open(database)
    registered = store.add_platform(
        issuer, CLIENT_ID, f"{issuer}/auth", f"{issuer}/token", f"{issuer}/jwks", [DEPLOYMENT]
    )
    homework, _ = store.create_session("Homework 3", "homework", datetime.now(timezone.utc) + timedelta(days=7))
    Homework(store).save(homework, draw(["03.1"], count=2, seed=5))
    store.offer(registered, "course-7", homework.id)
    store.close()
    with RunningPlatform(platform, port):
        server.start()
        try:
            yield server, platform, homework.id
        finally:
            server.stop()


def test_a_student_follows_the_course_link_answers_and_the_score_reaches_the_platform(
    browser: Any, world: tuple[Server, Platform, int]
) -> None:
    server, platform, homework = world
    issuer = platform.issuer
    teacher = browser.new_context(viewport={"width": 1280, "height": 720})
    desk = teacher.new_page()
    desk.goto(f"{issuer}/course/link?user=t-1&session={homework}&link=hw-3")
    desk.wait_for_url(f"{server.url}/class/dashboard/{homework}", timeout=30_000)
    assert desk.get_by_role("heading", level=1).inner_text().startswith("Homework 3")
    (column,) = platform.line_items.values()  # the teacher's launch made the grade column: one question, one point
    assert column["scoreMaximum"] == 1 and column["resourceLinkId"] == "hw-3"

    student = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    phone = student.new_page()
    problems: list[str] = []
    phone.on("pageerror", lambda error: problems.append(str(error)))
    phone.goto(f"{issuer}/course/link?user=s-1&session={homework}&link=hw-3")
    phone.wait_for_url(f"{server.url}/class/homework", timeout=30_000)
    phone.get_by_text("Ann O’Neill, these questions are yours").wait_for(timeout=30_000)
    box = phone.get_by_label("Your answer", exact=False)
    box.fill("0.001")
    box.press("Enter")
    phone.get_by_text("Not yet", exact=False).first.wait_for()
    deadline = time.monotonic() + 30
    while not platform.scores and time.monotonic() < deadline:
        time.sleep(0.2)
    assert platform.scores, f"no score reached the platform; it refused: {platform.refused}"
    item, score = platform.scores[-1]
    assert item == column["id"] and score["userId"] == "s-1"
    assert score["scoreGiven"] == 0 and score["scoreMaximum"] == 1 and score["gradingProgress"] == "FullyGraded"
    assert problems == [] and platform.refused == []
    teacher.close()
    student.close()


def test_a_teacher_chooses_a_session_they_teach_for_a_course_link_by_pasting_its_teacher_link(
    browser: Any, world: tuple[Server, Platform, int]
) -> None:
    """The course editor's "select content" opens the tool's choices; the teacher pastes the teacher link of a
    session not offered to the course yet and sends it from the keyboard (a form of the tool's own page, posted
    without script, which Chromium sends with the page's origin), then sends the choice back to the platform,
    which takes the tool's signed answer."""
    server, platform, _ = world
    store = Store.open(server.database)
    chosen, secret = store.create_session("Week 9 quiz", "homework", datetime.now(timezone.utc) + timedelta(days=3))
    store.close()
    teacher = browser.new_context(viewport={"width": 1280, "height": 720})
    desk = teacher.new_page()
    problems: list[str] = []
    desk.on("pageerror", lambda error: problems.append(str(error)))
    origins: list[str | None] = []
    desk.on(
        "request",
        lambda request: (
            origins.append(request.headers.get("origin"))
            if request.method == "POST" and request.url == f"{server.url}/class/lti/deep-link"
            else None
        ),
    )
    desk.goto(f"{platform.issuer}/course/link?user=t-1&select=1")
    desk.get_by_role("heading", name="Choose what this link opens").wait_for(timeout=30_000)
    pasted = desk.get_by_label("Or a session you already teach here: paste its teacher link")
    pasted.focus()
    desk.keyboard.type(f"{server.url}/class/t/{chosen.id}/{secret}")
    desk.keyboard.press("Enter")
    desk.get_by_text("Week 9 quiz: send it to the course page.").wait_for()
    assert origins == [server.url]  # the page's own origin, never "null"
    desk.get_by_role("button", name="Week 9 quiz").click()
    desk.wait_for_url(f"{platform.issuer}/deep-link-return")
    assert platform.refused == [] and len(platform.deep_link_returns) == 1
    (item,) = platform.deep_link_returns[0]["https://purl.imsglobal.org/spec/lti-dl/claim/content_items"]
    assert item["title"] == "Week 9 quiz" and item["custom"] == {"session": str(chosen.id)}
    assert problems == []
    teacher.close()
