"""The demo deck in Chromium, every request that leaves the deck blocked and counted: the static export from disk
(`make slides`), the site's copy over http (`make site`) and the live Voila deck (`make deck`).

Each slide lies inside the screen at 1024 x 768, 1280 x 720 and 1920 x 1080, on first load, on reload and when
opened by its address (#/N), with nothing cut off or in a box that must be scrolled; its text is at least 24 px and
its formulas' glyphs at least 18 px on a 1024 x 768 projector; the site's copy computes in the browser; the
clicker's keys, Esc, slide numbers, speaker notes with minute marks and the closing slide's QR code.
"""

from __future__ import annotations

import io
import json
import math
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

import bleu_teach as bt
from bleu_teach.views.formatting import format_number
from bleu_teach_site import slides as build_slides
from scripts import lab as lab_script
from tests.browser.conftest import ARTIFACTS, PROJECT, Lab, Site, _free_port, stop, wait_until_up

DECK = "bleu_in_10_minutes"
#: The deck's slides, counted in its notebook.
SLIDE_COUNT = sum(
    1
    for cell in json.loads((PROJECT / "notebooks" / "slides" / f"{DECK}.ipynb").read_text(encoding="utf-8"))["cells"]
    if cell["metadata"].get("slideshow", {}).get("slide_type") == "slide"
)
SIZES = [(1024, 768), (1280, 720), (1920, 1080)]
#: The address the test deck is built with (not the default), so that the closing slide shows what it was given.
COURSE_URL = "https://bleu-teach.example.org/course/?from=deck"
#: The slides and the slide on screen (reveal.js puts each slide in a section of its own inside a stack).
SLIDES = ".reveal .slides > section"
PRESENT = ".reveal .slides section.present:not(.stack)"
CURRENT = (
    "() => [...document.querySelectorAll('.reveal .slides > section')].findIndex(s => s.classList.contains('present'))"
)


def at_slide(page: Any, index: int) -> None:
    page.wait_for_function(f"() => ({CURRENT})() === {index}")


def current(page: Any) -> int:
    return page.evaluate(CURRENT)


def slide_index(page: Any, heading: str) -> int:
    """The index of the slide whose heading contains ``heading`` (upper case, as the theme shows it)."""
    titles = page.evaluate(
        f"() => [...document.querySelectorAll('{SLIDES}')]"
        ".map(s => (s.querySelector('h1, h2') || {textContent: ''}).textContent.toUpperCase())"
    )
    return next(i for i, title in enumerate(titles) if heading in title)


#: Where the slide on screen lies, and what in it does not fit: the slide's box against the window, the slide's own
#: scroll height (nothing may lie below it), every box whose content does not fit in it (cut off, or scrolling: nobody
#: scrolls a projector), with how much is hidden in screen px, a text box whose text is longer than the box, and every
#: element holding a long string (table cells, code, the address) that is wider than its box. Elements hidden by a
#: clip (MathJax's copy of each formula for screen readers) or folded in a closed <details> are not shown: left out.
FITS = """() => {
  const slides = document.querySelector('.reveal .slides');
  const scale = slides.getBoundingClientRect().width / slides.offsetWidth;
  const s = document.querySelector('.reveal .slides section.present:not(.stack)');
  const box = s.getBoundingClientRect();
  const shown = e => e.offsetParent !== null && getComputedStyle(e).clip === 'auto'
      && !e.closest('details:not([open]) > :not(summary)');
  const boxed = v => ['auto', 'scroll', 'hidden', 'clip'].includes(v);
  const hidden = [...s.querySelectorAll('*')].filter(shown).map(e => {
    const style = getComputedStyle(e), text = e.matches('input, textarea');
    const x = text || boxed(style.overflowX) ? e.scrollWidth - e.clientWidth : 0;
    const y = text || boxed(style.overflowY) ? e.scrollHeight - e.clientHeight : 0;
    return [e.tagName + '.' + e.className + ': ' + (e.value || e.textContent).trim().slice(0, 40),
            Math.round(x * scale), Math.round(y * scale)];
  }).filter(([, x, y]) => x > 1 || y > 1);
  const wide = [...s.querySelectorAll('td, th, code, pre, p, li, label, button, figcaption, .course-url')]
      .filter(e => shown(e) && e.scrollWidth > e.clientWidth + 1)
      .map(e => e.tagName + ': ' + e.textContent.slice(0, 40));
  return {top: box.top, bottom: box.bottom, left: box.left, right: box.right, height: innerHeight, width: innerWidth,
          overflow: Math.round((s.scrollHeight - s.clientHeight) * scale), hidden, wide,
          title: (s.querySelector('h1, h2') || {textContent: ''}).textContent};
}"""

#: Settled: web fonts loaded, MathJax 2 done typesetting the slide on screen (the static decks: deck.js has it set
#: the slide again once shown, which may start after this is asked, so its glyphs are waited for), two frames drawn.
#: A slide with no mathematics (no formula, no glyph, no TeX delimiter left in its text once MathJax's queue, its
#: first typesetting of the page included, has run) has nothing MathJax could still draw (deck.js sets again only a
#: slide with formulas): it is not watched for 100 ms.
SETTLED = """async () => {
  await document.fonts.ready;
  const frame = () => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  const hub = window.MathJax && window.MathJax.Hub;
  if (hub) {
    const s = document.querySelector('.reveal .slides section.present:not(.stack)');
    const formulas = () => s.querySelectorAll('script[type^="math/tex"]').length;
    const drawn = () => s.querySelectorAll('.MathJax_CHTML .mjx-char').length;
    const tex = () => /\\$|\\\\[([]|\\\\begin\\{/.test(s.textContent);
    for (let tries = 0; tries < 100; tries++) {
      await new Promise(done => hub.Queue(done));
      await frame();
      if (!formulas() && !drawn() && !tex()) break;
      const before = drawn();
      await new Promise(done => setTimeout(done, 100));
      await new Promise(done => hub.Queue(done));
      if ((!formulas() || before > 0) && drawn() === before) break;
    }
  }
  await frame();
  return true;
}"""


def fit_problems(page: Any, where: str) -> list[Any]:
    page.evaluate(SETTLED)
    fit = page.evaluate(FITS)
    inside = fit["top"] >= 0 and fit["left"] >= 0 and fit["bottom"] <= fit["height"] and fit["right"] <= fit["width"]
    if inside and fit["overflow"] <= 1 and not fit["hidden"] and not fit["wide"]:
        return []
    return [(where, fit)]


def only_local(context: Any, allowed: str) -> list[str]:
    """Let through only requests starting with ``allowed``; return the list the others are counted in."""
    blocked: list[str] = []

    def route(route: Any) -> None:
        if route.request.url.startswith(allowed):
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", route)
    return blocked


@pytest.fixture(scope="module")
def static_deck(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    """The deck as `make slides` writes it (build/slides/), built with the test's course address."""
    if not (build_slides.NODE / "reveal.js").is_dir():
        import os

        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but node_modules is missing: `make test` runs `npm ci` first.")
        pytest.skip("The deck's scripts are not installed: run `npm ci` (make test and make slides do).")
    out = tmp_path_factory.mktemp("slides")
    (html,) = build_slides.build(out, wheel, course_url=COURSE_URL)
    return html


def the_score_slide_computes_what_the_formula_gives(page: Any, url: str) -> None:
    """Open the deck at ``url`` on its score slide, wait for Python, type a hypothesis, check the live score."""
    page.goto(f"{url}/{DECK}.slides.html")
    page.wait_for_selector(".reveal.ready")
    page.goto(f"{url}/{DECK}.slides.html#/{slide_index(page, 'THE SCORE')}")
    page.wait_for_function("document.documentElement.dataset.pythonReady === '1'")
    form = page.locator(f"{PRESENT} form[data-widget]")
    headline = form.locator("[data-value]")
    saved = headline.get_attribute("data-value")
    form.locator("[name=hypothesis]").fill("the cat on the mat")
    page.wait_for_function(
        "v => document.querySelector('.reveal section.present:not(.stack) [data-value]').dataset.value !== v", arg=saved
    )
    # BLEU-2 of "the cat on the mat" against "the cat is on the mat" / "there is a cat on the mat", by hand: every
    # unigram (5/5) and bigram (the cat, cat on, on the, the mat: 4/4) matches, c = 5, the closest reference has 6
    # tokens, so BLEU = BP = exp(1 - 6/5).
    assert float(headline.get_attribute("data-value")) == pytest.approx(math.exp(1 - 6 / 5), rel=1e-12)
    assert "Live" in form.locator(".live-status").inner_text()


def served(folder: Path):  # noqa: ANN201
    """``folder`` served by `python -m http.server` on 127.0.0.1, as the deck's guide says: (server, address)."""
    import sys
    import urllib.request

    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(folder), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"

    def up() -> bool:
        try:
            with urllib.request.urlopen(f"{url}/{DECK}.slides.html", timeout=10) as response:
                return response.status == 200
        except OSError:
            return False

    wait_until_up(server, up, "http.server")
    return server, url


def test_the_make_slides_deck_served_over_http_goes_live(browser, static_deck: Path):
    """`make slides` then `python -m http.server -d build/slides`: the live slides compute what is typed."""
    server, url = served(static_deck.parent)
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        context.set_default_timeout(60_000)
        blocked = only_local(context, url + "/")
        page = context.new_page()
        errors: list[str] = []
        missing: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
        the_score_slide_computes_what_the_formula_gives(page, url)
        assert (blocked, errors, missing) == ([], [], [])
        context.close()
    finally:
        stop(server)


def test_a_deck_missing_a_script_says_its_live_part_could_not_start(browser, static_deck: Path, tmp_path: Path):
    """A file the live part imports is missing (the deck once shipped without classroom.js): the slide says so."""
    import shutil

    folder = tmp_path / "deck"
    shutil.copytree(static_deck.parent, folder)
    (folder / "classroom.js").unlink()
    server, url = served(folder)
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 720})
        blocked = only_local(context, url + "/")
        page = context.new_page()
        page.goto(f"{url}/{DECK}.slides.html")
        page.wait_for_selector(".reveal.ready")
        page.goto(f"{url}/{DECK}.slides.html#/{slide_index(page, 'THE SCORE')}")
        status = page.locator(f"{PRESENT} form[data-widget] .live-status")
        page.wait_for_function(
            "s => document.querySelector(s).textContent.includes('could not start')",
            arg=f"{PRESENT} form[data-widget] .live-status",
        )
        text = status.inner_text()
        assert "The live part could not start: lesson_live.js" in text and "saved example" in text, text
        assert blocked == []
        context.close()
    finally:
        stop(server)


def test_the_deck_and_the_site_copy_every_script_their_pages_import():
    """One list of static files, followed from the pages' scripts: each import of each copied script is copied."""
    for files in (
        build_slides.DECK_STATIC,
        build_slides.static_files("site.css", "offline.js", "explorer.js", "lesson_live.js", "progress.js"),
    ):
        for name in files:
            if name.endswith(".js"):
                text = (build_slides.STATIC / name).read_text(encoding="utf-8")
                imported = re.findall(r"""(?:from|import)\s*\(?\s*["']\./([\w-]+\.js)["']""", text)
                assert set(imported) <= set(files), (name, imported, files)
    assert {"classroom.js", "python_worker.js"} <= set(build_slides.DECK_STATIC)


# ---------------------------------------------------------------------------
# The static deck, from disk
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("width,height", SIZES)
def test_every_slide_lies_inside_the_screen_on_first_load_reload_and_deep_link(
    browser, static_deck: Path, width: int, height: int
):
    context = browser.new_context(viewport={"width": width, "height": height})
    blocked = only_local(context, "file://")
    page = context.new_page()
    page.goto(static_deck.as_uri())
    page.wait_for_selector(".reveal.ready")
    count = page.locator(SLIDES).count()
    assert count == SLIDE_COUNT
    problems: list[Any] = []
    for index in range(count):  # first load, then the clicker's key from slide to slide
        at_slide(page, index)
        problems += fit_problems(page, f"first load, slide {index}")
        page.keyboard.press("PageDown")
    for index in range(count):  # the address of each slide, opened in a new page, then reloaded
        deep = context.new_page()
        deep.goto(f"{static_deck.as_uri()}#/{index}")
        deep.wait_for_selector(".reveal.ready")
        at_slide(deep, index)
        problems += fit_problems(deep, f"deep link #/{index}")
        deep.reload()
        deep.wait_for_selector(".reveal.ready")
        at_slide(deep, index)
        problems += fit_problems(deep, f"reload #/{index}")
        if width == 1024 or index in (slide_index(deep, "CLIP THEM"), slide_index(deep, "THE SCORE")):
            # every slide on a 4:3 projector, to look at; the live slides at every size
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            deep.screenshot(path=str(ARTIFACTS / f"deck_{index}_{width}x{height}.png"))
        deep.close()
    assert problems == [], problems
    assert blocked == [], f"{len(blocked)} requests left the deck: {blocked}"
    context.close()


#: The rendered size (CSS px on the screen, after reveal.js's scaling) of each piece of text on the slide smaller
#: than 24 px: body text, table cells, the live forms' labels, controls, status and output. Left out: sub- and
#: superscripts, MathJax's glyphs, empty controls, and the site copy's link into the live explorer (for readers of
#: the site, not for the room). MathJax's glyphs (MathJax 2's in the static decks, MathJax 3's in the Voila deck),
#: the limits of a sum included, are measured apart: each is drawn at 18 px or more.
SMALL_TEXT = """() => {
  const slides = document.querySelector('.reveal .slides');
  const scale = slides.getBoundingClientRect().width / slides.offsetWidth;
  const s = document.querySelector('.reveal .slides section.present:not(.stack)');
  const texts = [...s.querySelectorAll('p, li, td, th, label, textarea, select, button, summary, figcaption, output,'
      + ' input:not([type=range]):not([type=hidden]):not([type=checkbox]), .live-status, .live-headline, .course-url a,'
      + ' .widget-label, .widget-html-content, .jupyter-widgets input, .jupyter-widgets textarea')]
    .filter(e => e.offsetParent !== null
      && !e.closest('sub, sup, .MathJax, .MathJax_CHTML, mjx-container, .live-explorer')
      && ((e.value ?? '') !== '' || e.textContent.trim() !== ''));
  const glyphs = [...s.querySelectorAll('.mjx-char, mjx-c')].filter(e => e.getBoundingClientRect().width > 0);
  const named = (e) => e.tagName + '.' + e.className + ': ' + (e.value || e.textContent).slice(0, 30);
  return {count: texts.length, small: texts.map(e => [named(e), parseFloat(getComputedStyle(e).fontSize) * scale])
                                          .filter(([, px]) => px < 24),
          glyphs: glyphs.length,
          smallGlyphs: glyphs.map(e => ['formula: ' + (e.textContent || getComputedStyle(e, '::before').content),
                                        parseFloat(getComputedStyle(e).fontSize) * scale]).filter(([, px]) => px < 18)};
}"""


def test_text_is_at_least_24_px_on_a_1024_by_768_projector(browser, static_deck: Path):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    blocked = only_local(context, "file://")
    page = context.new_page()
    page.goto(static_deck.as_uri())
    page.wait_for_selector(".reveal.ready")
    small, checked, glyphs = [], 0, 0
    for index in range(page.locator(SLIDES).count()):
        at_slide(page, index)
        page.evaluate(SETTLED)
        found = page.evaluate(SMALL_TEXT)
        checked += found["count"]
        glyphs += found["glyphs"]
        small += [(index, *item) for item in found["small"] + found["smallGlyphs"]]
        page.keyboard.press("PageDown")
    assert checked > 100  # the check saw the slides' text, the forms' labels and controls, the tables
    assert glyphs > 40  # and the three formulas' glyphs
    assert small == [], small
    assert blocked == []
    context.close()


def test_from_disk_each_form_shows_its_saved_example_and_says_how_to_serve_the_deck(browser, static_deck: Path):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    blocked = only_local(context, "file://")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    failed: list[str] = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.goto(static_deck.as_uri())
    page.wait_for_selector(".reveal.ready")
    # reveal.js styled the page: slides are absolutely positioned, not one long page
    assert page.evaluate("getComputedStyle(document.querySelector('.reveal .slides')).position") == "absolute"
    page.goto(f"{static_deck.as_uri()}#/{slide_index(page, 'CLIP THEM')}")
    form = page.locator(f"{PRESENT} form[data-widget='ClippingExplorer']")
    assert form.locator("[name=hypothesis]").input_value() == "the the the the the the the"
    # The saved example's clipped precision, worked by hand: "the" occurs twice in reference 1, once in reference 2,
    # so 2 of the 7 tokens count.
    assert float(form.locator("[data-value]").get_attribute("data-value")) == 2 / 7
    # The conclusion first: the headline is p_1 as counted (the report below it is the table it comes from).
    assert "p1 = 2/7" in form.locator(".live-headline").inner_text().replace("\n", " ").replace("p 1", "p1")
    status = form.locator(".live-status").inner_text()
    assert "served over http" in status and "not opened from disk" in status, status
    assert form.locator("input, textarea, button").evaluate_all("cs => cs.every(c => c.disabled)")
    page.goto(f"{static_deck.as_uri()}#/{slide_index(page, 'BREVITY PENALTY')}")
    image = page.locator(f"{PRESENT} img").first
    assert image.evaluate("img => img.complete && img.naturalWidth > 0")
    page.wait_for_selector(f"{PRESENT} .MathJax_CHTML, {PRESENT} .MathJax", timeout=30_000)
    assert blocked == [], f"the deck tried to reach the network: {blocked}"
    assert failed == [] and errors == [], (failed, errors)
    context.close()


def test_slide_numbers_and_speaker_notes_with_minute_marks(browser, static_deck: Path):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    only_local(context, "file://")
    page = context.new_page()
    page.goto(f"{static_deck.as_uri()}#/3")
    page.wait_for_selector(".reveal.ready")
    number = page.locator(".reveal .slide-number")
    assert number.is_visible()
    assert re.fullmatch(rf"\s*4\s*/\s*{SLIDE_COUNT}\s*", number.inner_text()), number.inner_text()
    notes = page.eval_on_selector_all(
        SLIDES, "ss => ss.map(s => (s.querySelector('aside.notes') || {}).textContent || '')"
    )
    assert len(notes) == SLIDE_COUNT and all(n.strip() for n in notes), notes
    # Each slide's notes start with its minutes; together they cover the ten minutes without a gap.
    marks = [re.search(r"(\d+):(\d\d)\s*–\s*(\d+):(\d\d)", n) for n in notes]
    assert all(marks), notes
    spans = [(int(m[1]) * 60 + int(m[2]), int(m[3]) * 60 + int(m[4])) for m in marks if m]
    assert spans[0][0] == 0 and spans[-1][1] == 600
    assert all(a[1] == b[0] and a[0] < a[1] for a, b in zip(spans, spans[1:])), spans
    # reveal.js's notes plugin (a local copy) is loaded: S opens the speaker view
    assert page.evaluate("Reveal.hasPlugin('notes')")
    with page.expect_popup() as opened:
        page.keyboard.press("s")
    speaker = opened.value
    speaker.wait_for_selector("#current-slide", state="attached", timeout=15_000)
    speaker.close()
    context.close()


def test_the_closing_slide_shows_the_course_address_and_a_qr_code_that_decodes_to_it(browser, static_deck: Path):
    """The QR code is read back from the screen with zxing-cpp (an independent decoder), not regenerated."""
    import zxingcpp
    from PIL import Image

    context = browser.new_context(viewport={"width": 1280, "height": 720})
    only_local(context, "file://")
    page = context.new_page()
    page.goto(f"{static_deck.as_uri()}#/{SLIDE_COUNT - 1}")
    page.wait_for_selector(".reveal.ready")
    slide = page.locator(PRESENT)
    assert slide.locator(".course-url a").inner_text() == COURSE_URL
    assert slide.locator(".course-url a").get_attribute("href") == COURSE_URL
    assert COURSE_URL in slide.locator(".course-qr figcaption").inner_text()
    assert slide.locator(".course-qr [role=img]").get_attribute("aria-label") == f"QR code of {COURSE_URL}"
    picture = Image.open(io.BytesIO(slide.locator(".course-qr svg").screenshot()))
    decoded = [result.text for result in zxingcpp.read_barcodes(picture)]
    assert decoded == [COURSE_URL]
    context.close()


def test_a_course_address_that_is_not_an_http_address_is_refused():
    with pytest.raises(ValueError, match="course_url"):
        build_slides.checked_course_url("ftp://example.org/")
    with pytest.raises(ValueError, match="course_url"):
        build_slides.checked_course_url("https:// spaces.example/")
    with pytest.raises(TypeError, match="course_url"):
        build_slides.checked_course_url(None)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# The site's copy, over http: live
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site_copy(browser: Any, site: Site) -> Any:
    """One browser context for the tests of the site's copy, which lets through only the site's requests (and counts
    the others): each test opens its own page in it, at its own size, and loads the deck afresh. Shared because a
    context's first start of Python compiles Pyodide (about 3 s), and its later pages start it in half a second, as
    on a reload (the first test here starts it cold)."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.set_default_timeout(60_000)
    blocked = only_local(context, site.url + "/")
    yield context, site.url, blocked
    context.close()


def site_deck(site_copy: Any, width: int = 1280, height: int = 720) -> tuple[Any, list[str]]:
    """A new page of the site copy's context at ``width`` x ``height``, and the list of the requests blocked from now
    on (the test closes the page when done). What the earlier tests' pages kept in the site's local storage (the
    live forms keep what was typed in them) is cleared first: each test starts as in a context of its own."""
    context, url, blocked = site_copy
    clean = context.new_page()
    clean.goto(f"{url}/deck.css")  # a file of the site's with no script: its origin's storage, untouched by it
    clean.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
    clean.close()
    blocked.clear()  # what is counted from now on is this test's
    page = context.new_page()
    page.set_viewport_size({"width": width, "height": height})
    return page, blocked


@pytest.mark.parametrize("width,height", SIZES)
def test_the_site_copys_slides_fit_once_python_has_answered(site_copy: Any, site: Site, width: int, height: int):
    page, blocked = site_deck(site_copy, width, height)
    url = f"{site.url}/{DECK}.slides.html"
    page.goto(url)
    page.wait_for_selector(".reveal.ready")
    page.wait_for_function("document.documentElement.dataset.pythonReady === '1'")
    problems: list[Any] = []
    for index in range(page.locator(SLIDES).count()):  # every slide, live, with the clicker's key
        at_slide(page, index)
        problems += fit_problems(page, f"slide {index}")
        page.keyboard.press("PageDown")
    live = [slide_index(page, "CLIP THEM"), slide_index(page, "THE SCORE")]
    for index in live:
        page.goto(f"{url}#/{index}")
        page.reload()
        page.wait_for_selector(".reveal.ready")
        page.wait_for_function("document.documentElement.dataset.pythonReady === '1'")
        at_slide(page, index)
        problems += fit_problems(page, f"#/{index} live")
    assert problems == [], problems
    assert blocked == []
    page.close()


def test_the_site_copys_widget_computes_what_the_formula_gives(site_copy: Any, site: Site):
    page, blocked = site_deck(site_copy)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    the_score_slide_computes_what_the_formula_gives(page, site.url)
    assert blocked == [] and errors == [], (blocked, errors)
    page.close()


def test_clicker_keys_change_slide_unless_a_control_is_being_edited_and_esc_leaves_a_control(
    site_copy: Any, site: Site
):
    page, blocked = site_deck(site_copy)
    page.goto(f"{site.url}/{DECK}.slides.html")
    page.wait_for_selector(".reveal.ready")
    clip = slide_index(page, "CLIP THEM")
    url = f"{site.url}/{DECK}.slides.html#/{clip}"

    def open_clip_slide() -> None:
        page.goto(url)
        page.reload()
        page.wait_for_selector(".reveal.ready")
        at_slide(page, clip)

    focused = "() => document.activeElement === document.body ? 'body' : document.activeElement.name"
    # A text box: typing and the caret keys edit it; Right at the end of the text and PageDown change slide.
    open_clip_slide()
    box = page.locator(f"{PRESENT} [name=hypothesis]")
    box.click()
    page.keyboard.press("End")
    page.keyboard.type(" cat")
    page.keyboard.press("Space")
    assert box.input_value() == "the the the the the the the cat "
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    assert current(page) == clip and page.evaluate(focused) == "hypothesis"  # the caret moved, the slide stayed
    page.keyboard.press("ArrowRight")  # at the end of the text: the next slide, and the box is left
    at_slide(page, clip + 1)
    assert page.evaluate(focused) == "body"
    page.keyboard.press("ArrowLeft")
    at_slide(page, clip)
    box.click()
    page.keyboard.press("Home")
    page.keyboard.press("PageDown")  # a clicker: wherever the caret is
    at_slide(page, clip + 1)
    page.keyboard.press("PageUp")
    at_slide(page, clip)
    # A slider focused with the keyboard (Tab) keeps the arrow keys; PageDown still changes slide.
    open_clip_slide()
    slider = page.locator(f"{PRESENT} input[type=range]")
    page.locator(f"{PRESENT} [name=hypothesis]").click()
    for _ in range(12):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.type") == "range":
            break
    assert page.evaluate("() => document.activeElement.type") == "range"
    before = int(slider.input_value())
    page.keyboard.press("ArrowRight")
    assert int(slider.input_value()) == before + 1 and current(page) == clip
    page.keyboard.press("PageDown")
    at_slide(page, clip + 1)
    # A slider focused by a click: the arrow keys change slide, as a clicker expects, and leave the slider as it was.
    open_clip_slide()
    slider.click()
    clicked = slider.input_value()
    page.keyboard.press("ArrowRight")
    at_slide(page, clip + 1)
    page.keyboard.press("ArrowLeft")
    at_slide(page, clip)
    assert slider.input_value() == clicked
    # Esc leaves a control and does nothing else; the next key changes slide. With no control focused, Esc is
    # reveal.js's overview.
    box.click()
    page.keyboard.press("Escape")
    assert page.evaluate(focused) == "body" and current(page) == clip
    assert not page.evaluate("() => document.querySelector('.reveal').classList.contains('overview')")
    page.keyboard.press("ArrowRight")
    at_slide(page, clip + 1)
    page.keyboard.press("Escape")
    page.wait_for_function("() => document.querySelector('.reveal').classList.contains('overview')")
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('.reveal').classList.contains('overview')")
    assert blocked == []
    page.close()


# ---------------------------------------------------------------------------
# The live Voila deck (make deck)
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def voila_deck(chromium: str, tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    port = _free_port()
    folder = tmp_path_factory.mktemp("live-deck")
    command = lab_script.voila_command(port, folder, course_url=COURSE_URL)
    server = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, cwd=PROJECT, env=lab_script.voila_environment()
    )
    deck = Lab(f"http://127.0.0.1:{port}", "", PROJECT, time.perf_counter())
    try:
        wait_until_up(server, lambda: deck.api("/voila/static/", token=False) != 0, "Voila")
        yield deck
    finally:
        stop(server)


def voila_page(browser: Any, deck: Lab, width: int, height: int, where: str = "") -> tuple[Any, Any, list[str]]:
    """The Voila deck in a new browser; its page errors are kept in the page's ``errors`` list."""
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(90_000)
    blocked = only_local(context, deck.url + "/")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"{deck.url}/{where}")
    page.wait_for_selector(".reveal.ready")
    page.wait_for_selector(".reveal .bleu-teach-explorer .bleu-teach", state="attached")  # the widgets are drawn
    return context, page, blocked


def test_live_voila_deck_loads_nothing_from_outside_and_responds_to_typing(browser, voila_deck: Lab):
    context, page, blocked = voila_page(browser, voila_deck, 1280, 720)
    score = slide_index(page, "THE SCORE")
    for index in range(1, score + 1):
        page.keyboard.press("PageDown")
        at_slide(page, index)
    box = page.locator(f"{PRESENT} .widget-textarea textarea").first
    box.fill("the cat is on the mat")
    refs = [bt.tokenize("the cat is on the mat"), bt.tokenize("there is a cat on the mat")]
    expected = format_number(bt.explain(refs, bt.tokenize("the cat is on the mat"), weights=(0.5, 0.5)).score)
    from playwright.sync_api import expect

    expect(page.locator(f"{PRESENT} .bleu-teach .score")).to_contain_text(f"BLEU = {expected}", timeout=15_000)
    page.keyboard.press("PageDown")  # the clicker, with the caret still in the box
    at_slide(page, score + 1)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "voila_deck.png"))
    page.goto(f"{voila_deck.url}/#/{SLIDE_COUNT - 1}")
    page.wait_for_selector(".reveal.ready")
    assert page.locator(f"{PRESENT} .course-url a").inner_text() == COURSE_URL
    assert len(blocked) == 0, f"{len(blocked)} requests left the deck: {blocked}"
    assert page.errors == []  # no slide change raises (Voila's reveal.js asked for MathJax 2's Hub on each one)
    context.close()


@pytest.mark.parametrize("width,height", SIZES)
def test_live_voila_deck_slides_lie_inside_the_screen(browser, voila_deck: Lab, width: int, height: int):
    context, page, blocked = voila_page(browser, voila_deck, width, height)
    count = page.locator(SLIDES).count()
    problems: list[Any] = []
    glyphs = 0
    for index in range(count):
        at_slide(page, index)
        problems += fit_problems(page, f"first load, slide {index}")
        if width == 1024:
            found = page.evaluate(SMALL_TEXT)
            glyphs += found["glyphs"]
            problems += [(index, *item) for item in found["small"] + found["smallGlyphs"]]
        page.keyboard.press("PageDown")
    if width == 1024:
        assert glyphs > 40  # the check saw the formulas' glyphs
    for name in ("CLIP THEM", "THE SCORE"):  # the widget slides by their address, and reloaded
        index = slide_index(page, name)
        page.goto(f"{voila_deck.url}/#/{index}")
        page.reload()
        page.wait_for_selector(".reveal.ready")
        page.wait_for_selector(f"{PRESENT} .bleu-teach-explorer .bleu-teach", state="attached")
        at_slide(page, index)
        problems += fit_problems(page, f"reload #/{index}")
        if width == 1024:
            small = page.evaluate(SMALL_TEXT)
            assert small["count"] > 5 and small["small"] == [], small
    assert problems == [], problems
    assert blocked == []
    context.close()


def test_live_voila_deck_speaker_view_shows_the_slides_at_once_with_what_was_typed(browser, voila_deck: Lab):
    """S opens reveal.js's speaker view: its two previews draw the current and the next slide from the deck's own
    window (no Voila page, no kernel of their own) within seconds, and the current one shows what was just typed
    on the deck; a key pressed in the speaker view moves the deck."""
    context, page, blocked = voila_page(browser, voila_deck, 1280, 720)
    score = slide_index(page, "THE SCORE")
    page.goto(f"{voila_deck.url}/#/{score}")
    at_slide(page, score)
    typed = "the cat sat on the mat today"
    page.locator(f"{PRESENT} .widget-textarea textarea").first.fill(typed)
    refs = [bt.tokenize("the cat is on the mat"), bt.tokenize("there is a cat on the mat")]
    expected = format_number(bt.explain(refs, bt.tokenize(typed), weights=(0.5, 0.5)).score)
    from playwright.sync_api import expect

    expect(page.locator(f"{PRESENT} .bleu-teach .score")).to_contain_text(f"BLEU = {expected}", timeout=15_000)
    page.locator(f"{PRESENT} h1, {PRESENT} h2").first.click()  # off the box: S opens the speaker view
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    started = time.perf_counter()
    with page.expect_popup() as opened:
        page.keyboard.press("s")
    speaker = opened.value
    previews = {name: speaker.frame_locator(f"#{name}-slide iframe") for name in ("current", "upcoming")}
    titles = page.evaluate(
        f"() => [...document.querySelectorAll('{SLIDES}')].map(s => (s.querySelector('h1, h2') || {{}}).textContent)"
    )
    expect(previews["current"].locator("section.present h1, section.present h2").first).to_have_text(
        titles[score], timeout=10_000
    )
    expect(previews["upcoming"].locator("section.present h1, section.present h2").first).to_have_text(
        titles[score + 1], timeout=10_000
    )
    drawn_s = time.perf_counter() - started
    current = previews["current"]
    assert current.locator(".widget-textarea textarea").first.input_value() == typed
    expect(current.locator(".bleu-teach .score").first).to_contain_text(f"BLEU = {expected}")
    # No Voila page was opened for the previews (each would start a kernel).
    assert not [url for url in requests if url.split("?")[0].split("#")[0].rstrip("/") == voila_deck.url], requests
    assert [url for url in requests if "/speaker_preview.html?receiver" in url], requests
    # The formula's characters are drawn there too (MathJax's rules, which it adds through the style sheet's API).
    drawn = current.locator("mjx-c").first.evaluate("c => getComputedStyle(c, '::before').content")
    assert drawn not in ("none", "normal", ""), drawn
    page.locator(f"{PRESENT} .widget-textarea textarea").first.click()  # the presenter's caret back in the box
    speaker.keyboard.press("PageDown")  # in the speaker view: the deck moves all the same, and the previews follow
    at_slide(page, score + 1)
    expect(current.locator("section.present h1, section.present h2").first).to_have_text(
        titles[score + 1], timeout=10_000
    )
    speaker.locator("#current-slide iframe").click()  # a click in a preview: its keys still move the deck
    speaker.keyboard.press("PageUp")
    at_slide(page, score)
    expect(current.locator("section.present h1, section.present h2").first).to_have_text(titles[score])
    speaker.screenshot(path=str(ARTIFACTS / "voila_speaker_view.png"))
    print(f"speaker view: both previews drawn {drawn_s:.1f} s after S")
    assert drawn_s < 10 and blocked == [] and page.errors == []
    context.close()
