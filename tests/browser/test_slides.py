"""The demo deck: the static export opens from disk with every network request blocked, and the
live Voila deck's widgets respond to typing."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import bleu_teach as bt
from bleu_teach.views.formatting import format_number
from tests.browser.conftest import ARTIFACTS, PROJECT, Lab, _free_port, stop, wait_until_up

from bleu_teach_site import slides as build_slides
from scripts import lab as lab_script

DECK = "bleu_in_10_minutes"
#: Index of the slide on screen (reveal.js is loaded through require.js, so window.Reveal is not set).
CURRENT = "() => [...document.querySelectorAll('.reveal .slides > section')].findIndex(s => s.classList.contains('present'))"


def at_slide(page, index: int) -> None:  # noqa: ANN001
    page.wait_for_function(f"() => ({CURRENT})() === {index}")


def slide_index(page, heading: str) -> int:  # noqa: ANN001
    """The index of the slide whose heading contains ``heading`` (upper case, as the theme shows it)."""
    titles = page.evaluate("() => [...document.querySelectorAll('.reveal .slides > section')]"
                           ".map(s => (s.querySelector('h1, h2') || {textContent: ''}).textContent.toUpperCase())")
    return next(i for i, title in enumerate(titles) if heading in title)


#: Whether the slide on screen fits: nothing to scroll, no button label cut, every score in sight.
FITS = """() => {
  const s = document.querySelector('.reveal .slides > section.present');
  const cut = [...s.querySelectorAll('button')].filter(b => b.offsetParent && b.scrollWidth > b.clientWidth + 1)
      .map(b => b.innerText);
  const hidden = [...s.querySelectorAll('.bleu-teach .score')].filter(e => e.offsetParent)
      .filter(e => e.getBoundingClientRect().bottom > window.innerHeight).length;
  return {overflow: s.scrollHeight - s.clientHeight, cut, hidden,
          title: (s.querySelector('h1, h2') || {textContent: ''}).textContent};
}"""


@pytest.mark.parametrize("width,height", [(1280, 720), (1024, 768)])
def test_every_slide_fits_the_screen(browser, static_deck: Path, width: int, height: int):  # noqa: ANN001
    context = browser.new_context(viewport={"width": width, "height": height})
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith("file://") else route.abort())
    page = context.new_page()
    page.goto(static_deck.as_uri())
    page.wait_for_selector(".reveal.ready")
    page.wait_for_selector(".reveal .jupyter-widgets.widget-vbox", state="attached", timeout=30_000)
    count = page.locator(".reveal .slides > section").count()
    problems = []
    for index in range(count):
        at_slide(page, index)
        page.wait_for_timeout(300)  # layout after MathJax and the widget manager
        fit = page.evaluate(FITS)
        if fit["overflow"] > 0 or fit["cut"] or fit["hidden"]:
            problems.append((index, fit))
        if index == slide_index(page, "THE SCORE"):
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"deck_score_{width}x{height}.png"))
        page.keyboard.press("ArrowRight")
    assert problems == [], problems
    context.close()


@pytest.fixture(scope="module")
def static_deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (build_slides.NODE / "reveal.js").is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but node_modules is missing: `make test` runs `npm ci` first.")
        pytest.skip("The deck's scripts are not installed: run `npm ci` (make test and make slides do).")
    out = tmp_path_factory.mktemp("slides")
    (html,) = build_slides.build(out)
    return html


def test_static_deck_works_from_disk_with_the_network_off(browser, static_deck: Path):  # noqa: ANN001
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    blocked: list[str] = []

    def only_local(route):  # noqa: ANN001, ANN202
        if route.request.url.startswith("file://"):
            return route.continue_()
        blocked.append(route.request.url)
        return route.abort()

    context.route("**/*", only_local)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.goto(static_deck.as_uri())
    page.wait_for_selector(".reveal.ready")  # reveal.js marks the deck ready once it has laid it out
    assert page.locator(".reveal .slides > section").count() >= 6
    at_slide(page, 0)
    # reveal.js styled the page: slides are absolutely positioned, not one long page
    assert page.evaluate("getComputedStyle(document.querySelector('.reveal .slides')).position") == "absolute"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "deck_title.png"))
    clipping, bp_slide = slide_index(page, "CLIP THEM"), slide_index(page, "BREVITY PENALTY")
    for index in range(1, clipping + 1):
        page.keyboard.press("ArrowRight")
        at_slide(page, index)
    # the widgets' saved state is rendered by the local html-manager
    page.wait_for_selector(".reveal .jupyter-widgets.widget-vbox", timeout=30_000)
    slide = page.locator(".reveal .slides > section.present")
    assert slide.locator(".widget-text input").first.input_value() == "the the the the the the the"
    p1 = bt.modified_precision([bt.tokenize("the cat is on the mat"), bt.tokenize("there is a cat on the mat")],
                               bt.tokenize("the the the the the the the"), 1)
    assert f"p1 = {p1.numerator}/{p1.denominator}" in slide.locator(".bleu-teach .score").inner_text()
    page.screenshot(path=str(ARTIFACTS / "deck_clipping.png"))
    for index in range(clipping + 1, bp_slide + 1):
        page.keyboard.press("ArrowRight")
        at_slide(page, index)
    # the brevity-penalty figure is an embedded image that has loaded, and MathJax typeset the formula
    image = page.locator(".reveal .slides section.present img").first
    assert image.evaluate("img => img.complete && img.naturalWidth > 0")
    page.wait_for_selector(".reveal section.present .MathJax_CHTML, .reveal section.present .MathJax", timeout=30_000)
    page.screenshot(path=str(ARTIFACTS / "deck_bp.png"))
    assert blocked == [], f"the deck tried to reach the network: {blocked}"
    assert failed == [] and errors == [], (failed, errors)
    context.close()


@pytest.fixture(scope="module")
def voila_deck(chromium: str):  # noqa: ANN201
    port = _free_port()
    command = lab_script.voila_command(port)
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, cwd=PROJECT)
    deck = Lab(f"http://127.0.0.1:{port}", "", PROJECT, time.perf_counter())
    try:
        wait_until_up(server, lambda: deck.api("/voila/static/", token=False) != 0, "Voila")
        yield deck
    finally:
        stop(server)


def test_live_voila_deck_responds_to_typing(browser, voila_deck: Lab):  # noqa: ANN001
    if not (build_slides.NODE / "reveal.js").is_dir():
        pytest.skip("The deck's scripts are not installed: run `npm ci`.")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    remote: list[str] = []
    context.route("**/*", lambda route: (remote.append(route.request.url), route.abort()) if not route.request.url.startswith(
        voila_deck.url) else route.continue_())
    page = context.new_page()
    page.set_default_timeout(90_000)
    page.goto(f"{voila_deck.url}/")
    page.wait_for_selector(".reveal.ready")
    for index in range(1, slide_index(page, "THE SCORE") + 1):
        page.keyboard.press("ArrowRight")
        at_slide(page, index)
    box = page.locator("section.present .widget-textarea textarea").first
    box.fill("the cat is on the mat")
    refs = [bt.tokenize("the cat is on the mat"), bt.tokenize("there is a cat on the mat")]
    expected = format_number(bt.explain(refs, bt.tokenize("the cat is on the mat"), weights=(0.5, 0.5)).score)
    from playwright.sync_api import expect

    expect(page.locator("section.present .bleu-teach .score")).to_contain_text(f"BLEU = {expected}", timeout=15_000)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "voila_deck.png"))
    reveal_remote = [u for u in remote if "reveal" in u]
    assert reveal_remote == [], f"reveal.js came from the network: {reveal_remote}"
    context.close()
