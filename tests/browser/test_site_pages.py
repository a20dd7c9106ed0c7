"""Every page of the site, one at a time: its prose, math, figures and widgets, no WCAG 2.1 AA violation axe-core
finds, a comfortable measure that fits a phone, and each lesson's contents and printed handout.  (Apart from
tests/browser/test_site.py so that a run spread
over two workers, make test, can run both files at once.)"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from bleu_teach.exercises import check, exercises
from tests.browser.conftest import ARTIFACTS, PROJECT, SITE_TIMINGS, Site, Visitor, _status
from tests.browser.test_site import LESSONS, PYTHON_READY, _outputs
from tests.browser.test_site_live import _answer, _as_parsed, _verdict, _wrong

WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AXE_RUN = """async (tags) => {
    const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
    return result.violations.map(v => ({rule: v.id, nodes: v.nodes.length,
                                       where: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
}"""
ALL_LABELLED = """() => [...document.querySelectorAll('[role="slider"]')].every(s => s.getAttribute('aria-label'))
    && [...document.querySelectorAll('img')].every(i => i.hasAttribute('alt'))"""


def _axe(page: Any, name: str) -> None:
    """Run axe-core (from the npm registry, injected here: the site does not ship it) and record what it found."""
    page.add_script_tag(content=(PROJECT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8"))
    violations = page.evaluate(AXE_RUN, WCAG_AA)
    SITE_TIMINGS.setdefault("axe-core WCAG 2.1 A/AA violations", "")
    SITE_TIMINGS["axe-core WCAG 2.1 A/AA violations"] += f"{name}: {sum(v['nodes'] for v in violations)}; "
    assert violations == [], violations


@pytest.mark.parametrize(
    "name", ["index.html", "glossary.html", "teachers.html", "explorer.html", "bleu_in_10_minutes.slides.html"]
)
def test_every_page_has_no_wcag_2_1_aa_violation_axe_finds(visitor: Visitor, site: Site, name: str):
    page = visitor.page()
    page.goto(f"{site.url}/{name}")
    page.wait_for_load_state("load")
    _axe(page, name)
    page.close()


def test_every_lesson_page_has_no_wcag_2_1_aa_violation_axe_finds(lesson_page: tuple[Path, Any]):
    """The live page, with Python started and every number shown."""
    lesson, page = lesson_page
    page.wait_for_function(ALL_LABELLED, timeout=30_000)
    _axe(page, f"{lesson.stem}.html")


OTHER_PAGES = ["index.html", "glossary.html", "teachers.html", "explorer.html"]
#: The median characters per line of a page's long paragraphs (three lines or more).
MEASURE = """() => {
    const ps = [...document.querySelectorAll('.jp-RenderedMarkdown p, main p')].filter(p => p.innerText.length > 300);
    const lines = (p) => Math.max(1, Math.round(p.clientHeight / parseFloat(getComputedStyle(p).lineHeight)));
    const perLine = ps.map(p => p.innerText.length / lines(p));
    perLine.sort((a, b) => a - b);
    return perLine.length ? perLine[Math.floor(perLine.length / 2)] : null;
}"""


def _measure(page: Any, name: str, width: int) -> float | None:
    """At this width: no sideways scroll, every explorer control reachable; the measure (characters per line)."""
    try:  # a chart follows a resized window on its next frame (Chart.js watches its box)
        page.wait_for_function("w => document.documentElement.scrollWidth <= w", arg=width, timeout=5_000)
    except PlaywrightTimeout:
        pass  # said by the assertion below, with the width found
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, (name, width)
    if name == "explorer.html":  # every control stays reachable on a phone
        right = page.evaluate(
            "() => Math.max(...[...document.querySelectorAll('#explorer input, #explorer select,"
            " #explorer textarea, #explorer button')].map(e => e.getBoundingClientRect().right))"
        )
        assert right <= width, (name, width, right)
    return page.evaluate(MEASURE)


def _record_measure(name: str, measured: dict[int, float | None]) -> None:
    if measured[1280] is not None:
        assert 55 <= measured[1280] <= 85, (name, measured)  # was about 153 characters a line on a lesson page
        SITE_TIMINGS.setdefault("characters per line at 1280 px (median of long paragraphs)", "")
        SITE_TIMINGS["characters per line at 1280 px (median of long paragraphs)"] += f"{name}: {measured[1280]:.0f}; "


@pytest.mark.parametrize("name", OTHER_PAGES)
def test_every_page_reads_at_a_comfortable_measure_and_fits_a_phone(browser, site: Site, name: str):  # noqa: ANN001
    measured = {}
    for width in (1280, 375):  # each width loaded afresh, as a phone would
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        page.goto(f"{site.url}/{name}")
        page.wait_for_load_state("load")
        measured[width] = _measure(page, name, width)
        context.close()
    _record_measure(name, measured)


def test_every_lesson_page_reads_at_a_comfortable_measure_and_fits_a_phone(lesson_page: tuple[Path, Any]):
    lesson, page = lesson_page
    measured = {}
    for width in (1280, 375, 1280):  # the page reflows to each width; back to the shared page's own at the end
        page.set_viewport_size({"width": width, "height": 800})
        measured[width] = _measure(page, f"{lesson.stem}.html", width)
    page.set_viewport_size({"width": 1280, "height": 900})
    _record_measure(f"{lesson.stem}.html", measured)


@pytest.fixture(scope="module", params=LESSONS, ids=lambda p: p.stem)
def lesson_page(request: pytest.FixtureRequest, visitor: Visitor, site: Site) -> Iterator[tuple[Path, Any]]:
    """A lesson's page with Python started and every number shown, opened once for the checks of this file that only
    read it (pytest runs a lesson's checks together, then closes the page): each start of Python costs seconds."""
    lesson = request.param
    page = visitor.page()
    page.goto(f"{site.url}/glossary.html")  # no answers kept from earlier tests (the exercises' check needs none)
    page.evaluate("localStorage.clear()")
    page.goto(f"{site.url}/{lesson.stem}.html")
    page.wait_for_load_state("load")
    page.wait_for_function(PYTHON_READY, timeout=90_000)
    assert page.evaluate("() => document.documentElement.dataset.pythonReady") == "1", lesson.name  # not "failed"
    yield lesson, page
    problems, blocked = list(page.problems), list(visitor.blocked)
    page.close()
    assert problems == [] and blocked == [], (lesson.name, problems, blocked)


IMAGES_LOADED = "() => [...document.images].every(img => img.complete && img.naturalWidth > 0)"


def test_every_lesson_page_shows_its_prose_math_figures_and_widgets(lesson_page: tuple[Path, Any], site: Site):
    lesson, page = lesson_page
    views, images, math = _outputs(lesson)
    title = "".join(json.loads(lesson.read_text(encoding="utf-8"))["cells"][0]["source"]).splitlines()[0].lstrip("# ")
    assert page.locator("h1").first.inner_text().rstrip("¶").strip() == title
    assert page.locator("[data-widget]").count() == views  # every saved widget, as a live form
    practised = sum(
        "practice" in c.get("metadata", {}).get("tags", [])
        for c in json.loads(lesson.read_text(encoding="utf-8"))["cells"]
    )
    assert page.locator("section[data-practice]").count() == practised  # every practice cell, as a practice block
    assert page.locator("[data-exercise]").count() == len(exercises(lesson.stem[:2]))
    assert page.locator("script[type='application/vnd.jupyter.widget-view+json']").count() == 0
    page.wait_for_function(IMAGES_LOADED, timeout=30_000)
    assert page.locator(".jp-OutputArea-output img").count() >= images
    if math:
        page.wait_for_selector(".MathJax_CHTML, .MathJax_Display, .MathJax", state="attached", timeout=30_000)
    assert "Loading widget" not in page.inner_text("body")
    ids = page.evaluate("() => [...document.querySelectorAll('[id]')].map(e => e.id)")
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    for ex in exercises(lesson.stem[:2]):  # per-question links a teacher can send: #ex-03-2
        assert page.locator(f"[id='{ex.anchor}']").count() == 1, ex.anchor
    nav = page.locator("nav.site-nav-top")
    index = LESSONS.index(lesson)
    if index > 0:
        assert nav.locator("a[rel=prev]").get_attribute("href") == f"{LESSONS[index - 1].stem}.html"
    if index + 1 < len(LESSONS):
        assert nav.locator("a[rel=next]").get_attribute("href") == f"{LESSONS[index + 1].stem}.html"
    assert nav.locator("a.download").get_attribute("href") == f"notebooks/{lesson.name}"
    assert _status(f"{site.url}/notebooks/{lesson.name}") == 200
    if lesson.stem.startswith("04"):
        page.locator(".live-explorer").first.scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / "site_lesson_04_try_it.png"))


def test_each_lesson_page_has_its_contents_and_prints_as_a_handout(lesson_page: tuple[Path, Any]):
    lesson, page = lesson_page
    toc = page.locator("nav.toc a")
    sections = page.eval_on_selector_all("h2[id]", "hs => hs.map(h => h.id)")
    assert sections and [a.get_attribute("href") for a in toc.all()] == [f"#{s}" for s in sections]
    page.emulate_media(media="print")
    assert not page.locator("nav.site-nav").first.is_visible() and not page.locator("nav.toc").is_visible()
    exercises_here = page.locator(".celltag_exercise")
    assert exercises_here.count() == len(exercises(lesson.stem[:2]))
    for k, ex in enumerate(exercises(lesson.stem[:2])):
        cell = exercises_here.nth(k)
        assert not cell.get_by_role("button").is_visible()  # no buttons, no feedback on paper
        # a choice keeps its options to tick; a number gets the answer line, not an empty box
        assert cell.locator("input[type='radio']").count() == len(ex.options)
        assert cell.locator("input[type='text']").count() == 0 or not cell.locator("input[type='text']").is_visible()
        if ex.options:
            assert cell.locator("fieldset").is_visible()
        space = cell.evaluate("e => getComputedStyle(e, '::after').content")
        assert ("Answer:" in space) == (not ex.options), (ex.id, space)  # a choice's options are its answer space
    page.emulate_media(media="screen")
    assert page.locator("nav.toc").is_visible()
    items = page.eval_on_selector_all("nav.toc li", "ls => ls.map(l => Math.round(l.getBoundingClientRect().left))")
    assert len(set(items)) == 1  # the contents in one column, in reading order
    names = page.eval_on_selector_all("nav", "ns => ns.map(n => n.getAttribute('aria-label'))")
    assert len(names) == len(set(names)) and all(names), names  # each landmark its own name


def test_every_exercise_is_answerable_on_its_page(lesson_page: tuple[Path, Any]):
    """Last of a lesson's checks here: it answers every exercise, wrong, right and with nonsense."""
    lesson, page = lesson_page
    assert "Replace None" not in page.inner_text("body")  # the notebook's instruction, said for the page
    for ex in exercises(lesson.stem[:2]):
        form = page.locator(f"[data-exercise='{ex.id}']")
        feedback = form.locator(".live-feedback")
        if not ex.options:  # the page never shows the answer before it is given
            assert ex.answer_text not in form.inner_html()
        wrong, verdict = _wrong(ex)
        _answer(form, ex, wrong)
        assert _verdict(page, ex.id) == verdict, (ex.id, wrong)
        # The notebook's feedback to a first try (00.2's is a hint: its scores come after a second wrong try).
        assert feedback.inner_html() == _as_parsed(page, check(ex.id, wrong, attempt=1).to_html())
        right = ex.answer if ex.options else ex.answer_text
        _answer(form, ex, right)
        page.wait_for_function(
            "id => document.querySelector(`[data-exercise='${id}'] .live-feedback`).dataset.verdict === 'correct'",
            arg=ex.id,
        )
        assert feedback.inner_html() == _as_parsed(page, check(ex.id, right).to_html())
        if not ex.options:  # nonsense gets the bank's message and no verdict
            _answer(form, ex, "a lot")
            page.wait_for_function(
                "id => document.querySelector(`[data-exercise='${id}'] .live-feedback`).dataset.verdict === undefined",
                arg=ex.id,
            )
            # A fraction is offered only where the answer has one (a precision), never for BP, BLEU or MQM.
            offered = (
                "Write the answer as a number or a fraction"
                if ex.answer_format.fraction
                else "Write the answer as a number such as 0.25"
            )
            assert offered in feedback.inner_text()
    stored = json.loads(page.evaluate("localStorage.getItem('bleu-teach-answers')"))
    assert set(stored) == {ex.id for ex in exercises(lesson.stem[:2])}
    assert all(entry["verdict"] == "correct" for entry in stored.values())


def test_the_glossary_marks_the_entry_a_link_points_to(visitor: Visitor, site: Site):
    page = visitor.page()
    page.goto(f"{site.url}/glossary.html#brevity-penalty")
    page.wait_for_load_state("load")
    marked = page.eval_on_selector_all(
        "h2, p",
        "es => es.filter(e => getComputedStyle(e).outlineStyle === 'solid').map(e => e.textContent.slice(0, 30))",
    )
    assert marked and marked[0].startswith("Brevity penalty"), marked  # its heading and its first paragraph
    assert len(marked) == 2
    page.close()


class _Headings(__import__("html.parser").parser.HTMLParser):
    """The levels of a page's headings, in the order they come."""

    def __init__(self) -> None:
        super().__init__()
        self.levels: list[int] = []
        self.texts: list[str] = []
        self._in: int | None = None

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        if len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
            self.levels.append(int(tag[1]))
            self.texts.append("")
            self._in = len(self.texts) - 1

    def handle_endtag(self, tag: str) -> None:
        if len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            self.texts[self._in] += data


def test_no_page_skips_a_heading_level(site: Site):
    """Every page of the site, its widgets' first reports included: one h1 first, and each heading at most one
    level below the one before it (h2 then h4 was lessons 04, 06, 07, 08 and the explorer page)."""
    pages = sorted(site.root.glob("*.html"))
    assert len(pages) >= len(LESSONS) + 5
    for path in pages:
        found = _Headings()
        found.feed(path.read_text(encoding="utf-8"))
        levels = found.levels
        assert levels and levels[0] == 1, (path.name, levels[:3])
        for k in range(1, len(levels)):
            assert levels[k] <= levels[k - 1] + 1, (
                path.name,
                found.texts[k - 1].strip()[:50],
                levels[k - 1],
                found.texts[k].strip()[:50],
                levels[k],
            )
