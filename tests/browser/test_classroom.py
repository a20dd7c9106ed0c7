"""The classroom server in Chromium: a teacher and students as they would use it, the site served beside it.

The server is ``python -m bleu_teach class serve --site <the built site>`` on
127.0.0.1 (SQLite). A teacher opens the printed link, creates a session from
the keyboard and opens its dashboard; students join on a 390 px phone and
answer on the lesson pages (Pyodide checks, the page sends); the dashboard
changes without a reload; a student offline keeps the answer and sends it when
back. axe-core finds no WCAG 2.1 A/AA violation on the classroom's pages, and
no request leaves the server.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("uvicorn")

from tests.browser.conftest import PROJECT, Site, only_to  # noqa: E402
from tests.classroom_server import TOKEN, Server  # noqa: E402

AXE_RUN = """async () => {
    const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
    const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
    return result.violations.map((v) => ({id: v.id, nodes: v.nodes.map((n) => n.target.join(' '))}));
}"""
READY = "() => document.documentElement.dataset.pythonReady === '1'"
#: Whether the dashboard's section for an exercise shows these counts (right, named mistake, other wrong).
COUNTS = """([id, expected]) => {
  const section = [...document.querySelectorAll('.exercise')]
    .find((s) => s.querySelector('h3').textContent.startsWith(id));
  if (!section) return false;
  const shown = [...section.querySelectorAll('.bar-count')].slice(0, 3).map((e) => e.textContent);
  return JSON.stringify(shown) === JSON.stringify(expected);
}"""


@pytest.fixture(scope="module")
def classroom(site: Site, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("classroom")
    running = Server(str(folder / "class.sqlite"), folder, site.root)
    running.start()
    yield running
    running.stop()


def _context(browser, server: Server, **options):  # noqa: ANN001, ANN003, ANN202
    """A browser context that lets through only the classroom server's requests, and counts the others."""
    found = only_to(browser, server.url, **options)
    found.context.blocked = found.blocked
    return found.context


def _axe(browser, url: str, cookies: list) -> list:  # noqa: ANN001
    """axe-core on a page (injected: the pages' policy allows only the server's scripts, so this context bypasses
    it for axe alone)."""
    context = browser.new_context(bypass_csp=True)
    context.add_cookies(cookies)
    page = context.new_page()
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.add_script_tag(content=(PROJECT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8"))
    found = page.evaluate(AXE_RUN)
    context.close()
    return found


def _new_session(browser, classroom: Server, title: str, problems: list[str] | None = None):  # noqa: ANN001, ANN202
    """A teacher's 1280 x 720 browser: the teacher page, a new session, its dashboard; (context, page, join code).
    Page errors from the start go into ``problems``."""
    teacher = _context(browser, classroom, viewport={"width": 1280, "height": 720})
    desk = teacher.new_page()
    if problems is not None:
        desk.on("pageerror", lambda error: problems.append(str(error)))
    desk.goto(f"{classroom.url}/class/teach?token={TOKEN}")
    desk.get_by_label("New session's title").fill(title)
    desk.get_by_role("button", name="Create the session").click()
    desk.locator("#created a").click()
    desk.wait_for_url(f"{classroom.url}/class/dashboard/*")
    return teacher, desk, desk.locator(".code").inner_text()


def _audience(browser, classroom: Server, code: str, problems: list[str], phones: int = 3) -> list:  # noqa: ANN001
    """Phones (each its own browser, so its own cookie) that joined with ``code`` and wait on the poll page;
    (context, page) each. Page errors go into ``problems``."""
    audience = []
    for k in range(phones):
        context = _context(browser, classroom, viewport={"width": 390, "height": 844}, is_mobile=True)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto(f"{classroom.url}/class?code={code}")
        page.get_by_label("Nickname").fill(f"phone {k}")
        page.get_by_role("button", name="Join").click()
        page.get_by_role("link", name="answer the presenter's questions").click()
        page.get_by_text("No question is open").wait_for()
        audience.append((context, page))
    return audience


def test_a_class_joins_answers_on_the_lesson_pages_and_the_dashboard_follows(
    browser,
    classroom: Server,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    teacher = _context(browser, classroom, viewport={"width": 1280, "height": 900})
    desk = teacher.new_page()
    problems: list[str] = []
    desk.on("pageerror", lambda error: problems.append(str(error)))
    desk.goto(f"{classroom.url}/class/teach?token={TOKEN}")
    assert desk.url == f"{classroom.url}/class/teach"  # the token left the address bar
    desk.get_by_label("New session's title").focus()
    desk.keyboard.type("Week 3 <b>MT</b>")
    desk.keyboard.press("Enter")
    link = desk.locator("#created a")
    link.wait_for()
    said = desk.locator("#created").inner_text()
    code = said.split("the code ")[1].split(".")[0]
    link.click()
    desk.wait_for_url(f"{classroom.url}/class/dashboard/*")
    assert desk.locator("h1").inner_text() == "Week 3 <b>MT</b>"  # typed text shown as text
    assert desk.locator(".code").inner_text() == code

    phone = _context(browser, classroom, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    student = phone.new_page()
    student.on("pageerror", lambda error: problems.append(str(error)))
    student.goto(f"{classroom.url}/class?code={code}")
    assert student.get_by_label("Session code").input_value() == code
    student.get_by_label("Nickname").fill("<img src=x onerror=alert(1)>")
    student.get_by_role("button", name="Join").click()
    student.locator("#joined").get_by_text("You have joined").wait_for()

    student.goto(f"{classroom.url}/03_brevity_penalty.html")  # the site, through the server: Python still starts
    student.wait_for_function(READY, timeout=90_000)
    form = student.locator("form[data-exercise='03.2']")
    form.locator("input[value='A']").check()  # the longest reference: a named mistake
    form.get_by_role("button", name="Check").click()
    form.locator(".live-class").wait_for()
    assert form.locator(".live-class").inner_text() == "Sent to your class (Week 3 <b>MT</b>)."

    desk.get_by_text("the longest reference").wait_for(timeout=5_000)  # no reload: the stream brought it
    roster = desk.locator("#roster").inner_text()
    assert "<img src=x onerror=alert(1)>" in roster and desk.locator("#roster img").count() == 0

    laptops = []
    for name, choice in (("Bea", "A"), ("Cy", "E")):  # two more students, each in a browser of their own
        laptop = _context(browser, classroom, viewport={"width": 1280, "height": 800})
        page = laptop.new_page()
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto(f"{classroom.url}/class?code={code}")
        page.get_by_label("Nickname").fill(name)
        page.get_by_role("button", name="Join").click()
        page.get_by_role("link", name="Go to the lessons").wait_for()
        page.goto(f"{classroom.url}/03_brevity_penalty.html")
        page.wait_for_function(READY, timeout=90_000)
        exercise = page.locator("form[data-exercise='03.2']")
        exercise.locator(f"input[value='{choice}']").check()
        exercise.get_by_role("button", name="Check").click()
        exercise.locator(".live-class").wait_for()
        laptops.append(laptop)
    desk.locator("#summary").get_by_text("3 joined").wait_for()
    desk.wait_for_function(COUNTS, arg=["03.2", ["1", "2", "0"]])  # right (Cy), named mistake (first, Bea), other
    for laptop in laptops:
        assert laptop.blocked == []
        laptop.close()

    phone.set_offline(True)  # the phone loses the connection: the answer waits in the browser
    form.locator("input[value='E']").check()
    form.get_by_role("button", name="Check").click()
    form.get_by_text("Not sent to your class yet").wait_for()  # the new feedback's note, not the earlier one
    phone.set_offline(False)
    student.evaluate("() => window.dispatchEvent(new Event('online'))")
    student.wait_for_function("() => JSON.parse(localStorage.getItem('bleu-teach-class-outbox') || '[]').length === 0")
    desk.wait_for_function(COUNTS, arg=["03.2", ["2", "1", "0"]])  # the first student's resent answer: now right

    cookies = teacher.cookies()
    for path in (
        "/class",
        "/class/teach",
        desk.url.removeprefix(classroom.url),
        desk.url.removeprefix(classroom.url).replace("dashboard", "projector"),
    ):
        assert _axe(browser, classroom.url + path, cookies) == [], path
    desk.screenshot(path=str(tmp_path / "dashboard.png"), full_page=True)
    assert problems == [] and teacher.blocked == [] and phone.blocked == []
    teacher.close()
    phone.close()


def test_the_presenter_polls_the_phones_and_shows_both_rounds(
    browser,
    classroom: Server,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    problems: list[str] = []
    teacher, desk, code = _new_session(browser, classroom, "Meetup demo", problems)

    phones = _context(browser, classroom, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    audience = _audience(browser, classroom, code, problems)

    desk.get_by_label("A question from the lessons").select_option("03.2")
    desk.get_by_role("button", name="Ask the room").click()
    for (_, page), choice in zip(audience, "AAE", strict=True):
        page.locator("#poll-options").wait_for()
        page.get_by_label(f"{choice}:", exact=False).check()
        page.get_by_role("button", name="Vote").click()
        page.get_by_text(f"Your vote: {choice}.").wait_for()
    desk.get_by_text("Round 1: 3 voted so far (open)").wait_for()
    assert desk.locator(".poll-round .bar-row").count() == 0  # no split while the vote is open
    desk.get_by_role("button", name="Close the question and show the votes").click()
    desk.get_by_text("Round 1: 3 voted", exact=True).wait_for()
    assert desk.locator(".poll-round").first.locator(".bar-row").nth(0).inner_text().split() == ["A", "2"]
    desk.get_by_role("button", name="Ask it again (round 2)").click()
    for _, page in audience:
        page.get_by_text("The same question again").wait_for()
        page.get_by_label("E:", exact=False).check()
        page.get_by_role("button", name="Vote").click()
        page.get_by_text("Your vote: E.").wait_for()
    desk.get_by_role("button", name="Close the question and show the votes").click()
    desk.get_by_text("Round 2: 3 voted", exact=True).wait_for()
    audience[0][1].get_by_text("The question is closed. Your vote: E is counted.").wait_for()
    rounds = desk.locator(".poll-round")
    assert rounds.count() == 2  # side by side
    assert rounds.nth(1).locator(".bar-row").nth(4).inner_text().split() == ["E", "3"]
    desk.get_by_role("button", name="Show the right answer").click()
    assert desk.locator("#poll-answer").inner_text() == "The right answer: E"

    projector = teacher.new_page()
    projector.goto(desk.url.replace("dashboard", "projector"))
    projector.get_by_text("Round 2: 3 voted", exact=True).wait_for()
    assert projector.get_by_role("button").count() == 0 and "phone 0" not in projector.inner_text("body")
    desk.screenshot(path=str(tmp_path / "poll.png"), full_page=True)
    audience[0][1].screenshot(path=str(tmp_path / "phone.png"))
    cookies = teacher.cookies()
    assert _axe(browser, desk.url, cookies) == []
    assert _axe(browser, f"{classroom.url}/class/poll", audience[0][0].cookies()) == []
    assert problems == [] and teacher.blocked == [] and all(context.blocked == [] for context, _ in audience)
    for context, _ in audience:
        context.close()
    phones.close()
    teacher.close()


#: Where each of these is on the page: (selector, left, top, right, bottom), one row per element found.
BOXES = """(selectors) => selectors.flatMap((selector) => [...document.querySelectorAll(selector)].map((e) => {
  const box = e.getBoundingClientRect();
  return [selector, box.left, box.top, box.right, box.bottom];
}))"""
#: What the projector must show on its first screen: the question, the join code, its QR code, the votes' bars.
FIRST_SCREEN = [".poll-question", ".projector-join .code", ".projector-join .join-qr", ".poll-round .bar-row"]


def _on_first_screen(page, selectors: list[str]) -> list:  # noqa: ANN001
    """The elements of ``selectors`` not wholly inside the viewport without scrolling (and any selector not found)."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    found = page.evaluate(BOXES, selectors)
    missing = [selector for selector in selectors if not any(row[0] == selector for row in found)]
    outside = [row for row in found if row[1] < 0 or row[2] < 0 or row[3] > width or row[4] > height]
    return missing + outside + ([] if page.evaluate("scrollY") == 0 else ["scrolled"])


def test_the_projector_link_shows_the_question_the_code_and_the_votes_on_the_first_screen(
    browser,
    classroom: Server,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    """The teacher makes a projector link on the dashboard and asks a long question (a new variant of 02.1: its
    sentences) in two rounds; the link opens in browsers with no cookie at all, at 1280 x 720 and 1024 x 768: the
    question, the join code, its QR code and both rounds' bars are on the first screen, and the right answer joins
    them there once the teacher shows it on the dashboard."""
    problems: list[str] = []
    teacher, desk, code = _new_session(browser, classroom, "Projector room", problems)
    desk.get_by_role("button", name="New projector link").click()
    address = desk.get_by_label("The new projector link")
    address.wait_for()
    link = address.input_value()
    assert link.startswith(f"{classroom.url}/class/projector/") and desk.evaluate("document.activeElement.id") == (
        "projector-address"
    )
    audience = _audience(browser, classroom, code, problems)
    desk.get_by_label("A question from the lessons").select_option("02.1")
    desk.get_by_role("button", name="Ask the room").click()
    desk.get_by_text("A new variant of 02.1").wait_for()

    def vote(choices: str, wording: str) -> None:
        for (_, page), choice in zip(audience, choices, strict=True):
            page.get_by_text(wording).wait_for()
            page.get_by_label(f"{choice}:", exact=False).check()
            page.get_by_role("button", name="Vote").click()
            page.get_by_text(f"Your vote: {choice}.").wait_for()

    vote("ABB", "modified bigram precision")
    desk.get_by_role("button", name="Close the question and show the votes").click()
    desk.get_by_text("Round 1: 3 voted", exact=True).wait_for()
    desk.get_by_role("button", name="Ask it again (round 2)").click()
    vote("BBC", "The same question again")
    desk.get_by_role("button", name="Close the question and show the votes").click()
    desk.get_by_text("Round 2: 3 voted", exact=True).wait_for()

    rooms = []
    for width, height in ((1280, 720), (1024, 768)):
        room = _context(browser, classroom, viewport={"width": width, "height": height})
        screen = room.new_page()
        screen.on("pageerror", lambda error: problems.append(str(error)))
        screen.goto(link)
        screen.get_by_text("Round 2: 3 voted", exact=True).wait_for()
        qr = screen.locator(".projector-join .join-qr")
        screen.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=qr.element_handle())
        assert screen.locator(".projector-join .code").inner_text() == code
        options = screen.locator(".poll-options li").count()
        assert options >= 3 and screen.locator(".poll-round .bar-row").count() == 2 * options  # both rounds
        assert screen.locator(".poll-right").count() == 0  # not shown yet
        assert _on_first_screen(screen, FIRST_SCREEN) == [], (width, height)
        text = screen.inner_text("body")
        assert all(f"phone {k}" not in text for k in range(3)) and screen.get_by_role("button").count() == 0
        assert room.cookies() == []
        rooms.append((room, screen))

    desk.get_by_role("button", name="Show the right answer").click()
    right = desk.locator("#poll-answer").inner_text()
    assert right.startswith("The right answer: ")
    for room, screen in rooms:
        screen.locator(".poll-right").wait_for()
        assert screen.locator(".poll-right").inner_text() == right
        assert _on_first_screen(screen, [*FIRST_SCREEN, ".poll-right"]) == [], screen.viewport_size
        screen.screenshot(path=str(tmp_path / f"projector_{screen.viewport_size['width']}.png"))
        assert room.blocked == []
    assert _axe(browser, link, []) == []

    desk.get_by_role("button", name="Stop the projector link").click()  # the room's screen stops at once
    for room, screen in rooms:
        screen.get_by_text("This projector link no longer works").wait_for(timeout=5_000)
        assert screen.locator(".poll-round").count() == 0
        shown = screen.locator("main").inner_text()  # nothing of the session: its title, votes or join code
        assert code not in shown and "lesson pages" not in shown and screen.locator(".join-qr").count() == 0
        room.close()
    assert problems == [] and teacher.blocked == [] and all(context.blocked == [] for context, _ in audience)
    for context, _ in audience:
        context.close()
    teacher.close()


def _poll_slide_index() -> int:
    """The deck's poll slide, counted in its notebook (0 is the title slide)."""
    cells = json.loads((PROJECT / "notebooks" / "slides" / "bleu_in_10_minutes.ipynb").read_text(encoding="utf-8"))
    slides = [c for c in cells["cells"] if c["metadata"].get("slideshow", {}).get("slide_type") == "slide"]
    return next(k for k, c in enumerate(slides) if "deck-poll" in "".join(c["source"]))


def test_the_deck_polls_the_room_from_its_slide_with_the_keyboard(
    browser,
    classroom: Server,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    """The presenter opens the deck from the dashboard; on the poll slide the join code and a QR code that decodes
    to the join address, then A, C, R and E: three phones vote in two rounds, and the slide's bars are the votes; a key
    out of order is said on the slide, and a second A is asked before it puts the rounds away."""
    import io

    import zxingcpp
    from PIL import Image

    problems: list[str] = []
    teacher, desk, code = _new_session(browser, classroom, "Deck poll", problems)
    deck_link = desk.get_by_role("link", name="Present the deck")
    deck = teacher.new_page()
    deck.on("pageerror", lambda error: problems.append(str(error)))
    deck.goto(f"{classroom.url}{deck_link.get_attribute('href')}#/{_poll_slide_index()}")
    slide = deck.locator(".reveal .slides section.present .deck-poll")
    slide.locator(".deck-poll-code").wait_for()
    assert slide.locator(".deck-poll-code").inner_text() == code
    qr = slide.locator(".deck-poll-join img")
    deck.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=qr.element_handle())
    decoded = [found.text for found in zxingcpp.read_barcodes(Image.open(io.BytesIO(qr.screenshot())))]
    assert decoded == [f"{classroom.url}/class?code={code}"]
    slide.get_by_text("Press A to ask the room").wait_for()
    status = slide.locator(".deck-poll-status")
    deck.keyboard.press("c")  # out of order: said, nothing done
    assert status.inner_text() == "Nothing is asked yet: A asks this slide's question."

    audience = _audience(browser, classroom, code, problems)

    def vote(choices: str, wording: str) -> None:
        for (_, page), choice in zip(audience, choices, strict=True):
            page.get_by_text(wording).wait_for()
            page.get_by_label(f"{choice}:", exact=False).check()
            page.get_by_role("button", name="Vote").click()
            page.get_by_text(f"Your vote: {choice}.").wait_for()

    def bars(round_: int) -> dict[str, int]:
        rows = slide.locator(".poll-round").nth(round_).locator(".bar-row")
        return {row.split()[0]: int(row.split()[-1]) for row in rows.all_inner_texts()}

    deck.keyboard.press("a")  # ask: exercise 03.2, the slide's question
    slide.get_by_text("Round 1: 0 voted so far (open)").wait_for()
    assert status.inner_text().startswith("Asked: the phones can vote now.")
    deck.keyboard.press("e")  # the right answer while the votes are open: not yet
    assert status.inner_text().startswith("The votes are not closed yet")
    assert "Which reference length" in slide.locator(".poll-question").inner_text()
    vote("AEE", "Which reference length")
    slide.get_by_text("Round 1: 3 voted so far (open)").wait_for()
    assert slide.locator(".bar-row").count() == 0  # no split while the vote is open
    deck.keyboard.press("c")  # close: the votes
    slide.get_by_text("Round 1: 3 voted", exact=True).wait_for()
    assert bars(0) == {"A": 1, "B": 0, "C": 0, "D": 0, "E": 2, "F": 0}
    deck.keyboard.press("r")  # again: round 2 beside round 1
    slide.get_by_text("Round 2: 0 voted so far (open)").wait_for()
    vote("EEE", "The same question again")
    deck.keyboard.press("c")
    slide.get_by_text("Round 2: 3 voted", exact=True).wait_for()
    assert slide.locator(".poll-round").count() == 2
    assert bars(0) == {"A": 1, "B": 0, "C": 0, "D": 0, "E": 2, "F": 0}
    assert bars(1) == {"A": 0, "B": 0, "C": 0, "D": 0, "E": 3, "F": 0}
    assert slide.locator(".poll-right").count() == 0
    deck.keyboard.press("a")  # a new question would put the rounds away: asked first
    assert status.inner_text().startswith("Press A again to ask this question anew")
    assert slide.locator(".poll-round").count() == 2
    deck.keyboard.press("e")  # the right answer, on the slide
    assert slide.locator(".poll-right").inner_text() == "The right answer: E"
    below = deck.evaluate(  # nothing of the question, its rounds and the answer below the screen's edge
        "() => [...document.querySelectorAll('.reveal section.present .deck-poll *')]"
        ".filter(e => e.getBoundingClientRect().bottom > innerHeight).map(e => e.className + ': ' + e.textContent)"
    )
    assert below == []
    deck.screenshot(path=str(tmp_path / "deck_poll.png"))
    with deck.expect_popup() as opened:  # the speaker view, from the classroom server: its frames show the slides
        deck.keyboard.press("s")
    speaker = opened.value
    speaker.wait_for_selector("#current-slide iframe", state="attached", timeout=15_000)
    frame = speaker.frame_locator("#current-slide iframe")
    frame.locator(".reveal.ready").wait_for(state="attached", timeout=30_000)  # refused before (frame-ancestors)
    assert "**R** asks it again" not in speaker.locator(".speaker-controls-notes").inner_text()  # Markdown drawn
    assert "R asks it again" in speaker.locator(".speaker-controls-notes").inner_text()
    speaker.close()
    index = _poll_slide_index()
    deck.keyboard.press("PageDown")  # the clicker still moves on
    deck.wait_for_function(f"() => Reveal.getIndices().h === {index + 1}")
    assert problems == [] and teacher.blocked == [] and all(context.blocked == [] for context, _ in audience)
    for context, _ in audience:
        context.close()
    teacher.close()


def test_homework_on_a_phone_from_the_keyboard_gets_verdicts_and_never_an_answer(
    browser,
    classroom: Server,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    import json
    import math
    from datetime import datetime, timedelta, timezone

    from bleu_teach.classroom.homework import Homework, draw
    from bleu_teach.classroom.store import Store

    store = Store.open(classroom.database)  # the teacher's command, on the server's database
    session, _ = store.create_session("Week 4", "homework", datetime.now(timezone.utc) + timedelta(days=2))
    store.set_roster(session.id, [("Zoë Ng", json.dumps({"Email address": "zoe@example.org"}))])
    Homework(store).save(session, draw(["03.1"], count=2, seed=5))
    phone = _context(browser, classroom, viewport={"width": 390, "height": 844}, is_mobile=True)
    page = phone.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(f"{classroom.url}/class?code={session.code}")
    page.get_by_label("Nickname").fill("zoë ng")
    page.keyboard.press("Enter")
    page.get_by_role("link", name="Open your questions").click()
    page.get_by_role("heading", name="Question 1").wait_for()
    student = store.roster(session.id)[0]
    inputs = dict(Homework(store).assignment(student)[0].inputs)
    c = inputs["hypothesis_length"]
    r = min(inputs["reference_lengths"], key=lambda length: (abs(length - c), length))
    right = f"{1.0 if c > r else math.exp(1 - r / c):.3f}"
    store.close()
    assert right not in page.content()  # the page has the question, not the answer
    page.keyboard.press("Tab")  # keyboard only: the first stop after the text is the answer box
    while page.evaluate("document.activeElement.id") != "a1":
        page.keyboard.press("Tab")
    page.keyboard.type("0.001")
    page.keyboard.press("Enter")
    feedback = page.locator(".homework-feedback")
    feedback.get_by_text("Not yet").wait_for()
    assert feedback.get_attribute("aria-live") == "polite" and right not in feedback.inner_text()
    page.keyboard.press("Control+A")
    page.keyboard.type(right)
    page.keyboard.press("Enter")
    feedback.get_by_text("Right.").wait_for()
    page.screenshot(path=str(tmp_path / "homework.png"), full_page=True)
    assert _axe(browser, f"{classroom.url}/class/homework", phone.cookies()) == []
    assert problems == [] and phone.blocked == []
    phone.close()


def test_remove_keeps_the_keyboards_focus_while_answers_arrive_and_enter_removes(browser, classroom: Server) -> None:  # noqa: ANN001
    import uuid

    import httpx

    problems: list[str] = []
    teacher, desk, code = _new_session(browser, classroom, "Remove by keyboard", problems)
    students = []
    for name in ("Ann", "Fake"):
        student = httpx.Client(base_url=classroom.url, timeout=30)
        assert (
            student.post(
                "/class/api/join", headers={"X-Bleu-Teach": "1"}, json={"code": code, "nickname": name}
            ).status_code
            == 200
        )
        students.append(student)

    def answer(student: httpx.Client, exercise: str) -> None:
        reply = student.post(
            "/class/api/answers",
            headers={"X-Bleu-Teach": "1"},
            json={"id": str(uuid.uuid4()), "exercise": exercise, "answer": "E"},
        )
        assert reply.status_code == 200

    answer(students[1], "03.2")
    remove = desk.get_by_role("button", name="Remove Fake from the session")
    remove.wait_for()
    remove.focus()
    for exercise in ("03.2", "09.1", "03.1"):  # the table is drawn again meanwhile
        answer(students[0], exercise)
        desk.wait_for_timeout(2500)
        assert desk.evaluate("document.activeElement.getAttribute('aria-label')") == "Remove Fake from the session"
    desk.once("dialog", lambda dialog: dialog.accept())
    desk.keyboard.press("Enter")
    desk.get_by_text("Fake was removed").wait_for()
    desk.get_by_role("button", name="Remove Fake from the session").wait_for(state="detached")
    assert problems == []
    for student in students:
        student.close()
    teacher.close()


def _command(classroom: Server, *args: str) -> str:
    """A teacher's command on the server's database, typed as a teacher types it (``python -m bleu_teach class ...``
    in the folder the server runs in); what it printed."""
    done = subprocess.run(
        [sys.executable, "-m", "bleu_teach", "class", *args, "--database", classroom.database],
        cwd=classroom.folder,
        capture_output=True,
        text=True,
        timeout=300,
        env=os.environ | {"PYTHONPATH": str(PROJECT)},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def _made(classroom: Server, printed: str) -> tuple[int, str]:
    """The session a ``class new`` or ``class homework`` made (its number) and the teacher link it printed."""
    number = re.search(r"^(?:Session|Homework) (\d+):", printed, re.MULTILINE)
    link = re.search(r"your teacher link \(.*?\): (\S+)", printed)
    assert number is not None and link is not None, printed
    assert link[1].startswith(f"{classroom.url}/class/t/{number[1]}/")
    return int(number[1]), link[1]


def _personal_links(classroom: Server, session: int, roster: Path) -> dict[str, str]:
    """``class links SESSION --out FILE.csv`` beside the roster: each name's link, as the file has it."""
    out = roster.with_name(roster.stem + "-links.csv")
    printed = _command(classroom, "links", str(session), "--out", str(out), "--address", classroom.url)
    assert f"personal links to session {session}" in printed
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    return {row["Name"]: row["link"] for row in rows}


def _roster(classroom: Server, name: str) -> Path:
    """A class's roster, as a teacher exports it from Moodle (names and e-mail addresses)."""
    made = classroom.folder / name
    made.write_text("Name,Email address\nZoë Ng,zoe@example.org\nLi Lei,li@example.org\n", "utf-8")
    return made


def _press_by_keyboard(page, name: str) -> int:  # noqa: ANN001
    """Tab from the top of the page to the button called ``name``, then Enter: how many Tabs it took."""
    for tabs in range(1, 11):
        page.keyboard.press("Tab")
        focused = page.evaluate("() => [document.activeElement.tagName, document.activeElement.textContent.trim()]")
        if focused == ["BUTTON", name]:
            page.keyboard.press("Enter")
            return tabs
    raise AssertionError(f"Tab never reached the button {name!r}")


def _main_text(page) -> str:  # noqa: ANN001
    return " ".join(page.locator("main").inner_text().split())


def test_a_homeworks_personal_link_lets_its_student_in_on_two_devices_until_it_is_made_again(
    browser,
    classroom: Server,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    """The teacher makes a homework with a roster and its links on the command line; a student opens their link on a
    phone (the page names them and the homework, axe finds nothing), joins from the keyboard, lands on their
    questions and answers one; their laptop opens the same link and is the same student; the link made again with
    --name is refused as any wrong link is, and both devices are out until the new one is opened."""
    roster = _roster(classroom, "homework-roster.csv")
    printed = _command(
        classroom,
        "homework",
        "Week 5 <i>homework</i>",
        "--due",
        "2031-01-06T09:00+00:00",
        "--roster",
        str(roster),
        "--exercises",
        "03.1",
        "--variants",
        "2",
        "--address",
        classroom.url,
    )
    session, teacher_link = _made(classroom, printed)
    links = _personal_links(classroom, session, roster)
    assert set(links) == {"Zoë Ng", "Li Lei"}
    zoe = links["Zoë Ng"]
    assert zoe.startswith(f"{classroom.url}/class/me/{session}/")

    problems: list[str] = []
    phone = _context(browser, classroom, viewport={"width": 390, "height": 844}, is_mobile=True)
    page = phone.new_page()
    page.on("pageerror", lambda error: problems.append(str(error)))
    sent: list[dict[str, str]] = []
    page.on("request", lambda request: sent.append(request.headers) if request.method == "POST" else None)
    page.goto(zoe)
    heading = page.get_by_role("heading", level=1).inner_text()
    assert "Zoë Ng" in heading and "Week 5 <i>homework</i>" in heading, heading
    assert page.locator("main i").count() == 0  # the title typed is shown as text
    assert _axe(browser, zoe, []) == []
    page.screenshot(path=str(tmp_path / "personal_link.png"), full_page=True)
    assert _press_by_keyboard(page, "Join as Zoë Ng") <= 2  # the page's link to the site, then the button
    page.wait_for_url(f"{classroom.url}/class/homework")
    assert sent and sent[0].get("origin") == classroom.url  # the browser said where the form came from
    page.get_by_text("Zoë Ng, these questions are yours").wait_for()
    assert page.locator("#homework-title").inner_text() == "Homework: Week 5 <i>homework</i>"
    while page.evaluate("document.activeElement.id") != "a1":  # keyboard only: on to the answer box
        page.keyboard.press("Tab")
    page.keyboard.type("0.001")
    page.keyboard.press("Enter")
    feedback = page.locator(".homework-feedback")
    feedback.get_by_text("Not yet").wait_for()
    page.screenshot(path=str(tmp_path / "linked_homework.png"), full_page=True)

    laptop = _context(browser, classroom, viewport={"width": 1280, "height": 800})
    second = laptop.new_page()
    second.on("pageerror", lambda error: problems.append(str(error)))
    second.goto(zoe)
    second.get_by_role("button", name="Join as Zoë Ng").click()
    second.get_by_text("Zoë Ng, these questions are yours").wait_for()
    assert second.get_by_label("Your answer", exact=False).input_value() == "0.001"  # her answer from the phone

    teacher = _context(browser, classroom, viewport={"width": 1280, "height": 800})
    desk = teacher.new_page()
    desk.on("pageerror", lambda error: problems.append(str(error)))
    desk.goto(teacher_link)
    desk.wait_for_url(f"{classroom.url}/class/dashboard/{session}")
    desk.locator("#summary").get_by_text("1 joined").wait_for()
    grades = teacher.request.get(f"{classroom.url}/class/api/sessions/{session}/grades.csv")
    assert grades.status == 200
    rows = {row[0]: row for row in csv.reader(io.StringIO(grades.text()))}
    assert rows["Zoë Ng"][-1] == "1" and rows["Li Lei"][-1] == ""  # one try, hers; Li has not started

    wrong = phone.new_page()  # any link that opens nothing, for the refusal's words
    wrong.goto(f"{classroom.url}/class/me/{session}/{'A' * 32}")
    refusal = _main_text(wrong)
    wrong.close()
    printed = _command(classroom, "links", str(session), "--name", "Zoë Ng", "--address", classroom.url)
    new = re.search(r"new link to session \d+ \(.*?\): (\S+)", printed)
    assert new is not None and new[1] != zoe, printed
    for device in (page, second):
        device.goto(zoe)
        assert _main_text(device) == refusal and "This link does not work" in refusal
        assert device.get_by_role("button").count() == 0
        device.goto(f"{classroom.url}/class/homework")  # out on both devices
        device.locator("#homework-state").get_by_text("You are not in a session in this browser").wait_for()
    page.goto(new[1])
    _press_by_keyboard(page, "Join as Zoë Ng")
    page.get_by_text("Zoë Ng, these questions are yours").wait_for()
    assert page.get_by_label("Your answer", exact=False).input_value() == "0.001"  # the same student, her answer kept
    desk.locator("#summary").get_by_text("1 joined").wait_for()

    page.goto(f"{classroom.url}/class/me")  # the page after joining, bookmarked: how to come back, nothing changed
    said = _main_text(page)
    assert "to come back, open it again" in said and "This browser is still in “Week 5 <i>homework</i>”" in said, said
    page.get_by_role("link", name="open your questions").click()
    page.get_by_text("Zoë Ng, these questions are yours").wait_for()
    assert _axe(browser, f"{classroom.url}/class/me", []) == []
    cut = phone.new_page()  # her link cut short, or run on: the page every wrong link gets, not a bare Not Found
    for address in (new[1].rsplit("/", 1)[0], new[1] + "/extra"):
        assert cut.goto(address).status == 404 and _main_text(cut) == refusal, address
    cut.close()

    roster = desk.locator("#homework-roster")  # the teacher takes her out (say she was not Zoë): "removed"
    roster.get_by_text("Zoë Ng: joined").wait_for()
    desk.once("dialog", lambda dialog: dialog.accept())
    desk.get_by_role("button", name="Remove Zoë Ng from the session").click()
    roster.get_by_text("Zoë Ng: removed").wait_for()
    assert "1 removed" in roster.inner_text() and "Li Lei: not yet" in roster.inner_text()
    grades = teacher.request.get(f"{classroom.url}/class/api/sessions/{session}/grades.csv")
    rows = list(csv.reader(io.StringIO(grades.text())))
    removed = rows[0].index("Removed")
    assert {row[0]: row[removed] for row in rows[1:]} == {"Zoë Ng": "yes", "Li Lei": "no"}
    assert problems == [] and phone.blocked == [] and laptop.blocked == [] and teacher.blocked == []
    for context in (phone, laptop, teacher):
        context.close()


def test_a_live_sessions_personal_link_lets_its_student_answer_on_the_lesson_pages(
    browser,
    classroom: Server,  # noqa: ANN001
    tmp_path: Path,
) -> None:
    """A live session made with a roster (class new --roster) and its links: a student joins by theirs from the
    keyboard, is told where to go, and an answer checked on a lesson page of the site reaches the dashboard."""
    roster = _roster(classroom, "live-roster.csv")
    session, teacher_link = _made(
        classroom, _command(classroom, "new", "Week 6", "--roster", str(roster), "--address", classroom.url)
    )
    li = _personal_links(classroom, session, roster)["Li Lei"]
    problems: list[str] = []
    teacher = _context(browser, classroom, viewport={"width": 1280, "height": 900})
    desk = teacher.new_page()
    desk.on("pageerror", lambda error: problems.append(str(error)))
    desk.goto(teacher_link)
    desk.wait_for_url(f"{classroom.url}/class/dashboard/{session}")

    phone = _context(browser, classroom, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = phone.new_page()
    page.on("pageerror", lambda error: problems.append(str(error)))
    address, token = li.rsplit("/", 1)
    assert re.fullmatch(r"[0-9a-hjkmnp-tv-z]{5}(-[0-9a-hjkmnp-tv-z]{5}){4}", token)  # no i, l, o or u to misread
    page.goto(f"{address}/{token.upper().replace('-', '')}")  # typed from the sheet, in capitals, no hyphens
    heading = page.get_by_role("heading", level=1).inner_text()
    assert "Li Lei" in heading and "Week 6" in heading, heading
    _press_by_keyboard(page, "Join as Li Lei")
    page.get_by_role("link", name="Go to the lessons").wait_for()
    said = _main_text(page)
    assert "You are in" in said and "Li Lei" in said and "Week 6" in said, said
    kept = page.wait_for_function("() => localStorage.getItem('bleu-teach-class')").json_value()  # linked.js ran
    assert json.loads(kept) == {"session": "Week 6", "nickname": "Li Lei"}
    page.screenshot(path=str(tmp_path / "linked_live.png"), full_page=True)
    desk.locator("#summary").get_by_text("1 joined").wait_for()

    page.get_by_role("link", name="Go to the lessons").click()
    page.wait_for_url(f"{classroom.url}/index.html")
    page.goto(f"{classroom.url}/03_brevity_penalty.html")
    page.wait_for_function(READY, timeout=90_000)
    form = page.locator("form[data-exercise='03.2']")
    form.locator("input[value='E']").check()
    form.get_by_role("button", name="Check").click()
    form.locator(".live-class").wait_for()
    assert form.locator(".live-class").inner_text() == "Sent to your class (Week 6)."
    desk.wait_for_function(COUNTS, arg=["03.2", ["1", "0", "0"]])
    assert "Li Lei" in desk.locator("#roster").inner_text()
    assert problems == [] and phone.blocked == [] and teacher.blocked == []
    phone.close()
    teacher.close()
