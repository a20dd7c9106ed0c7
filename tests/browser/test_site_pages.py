"""Every page of the site, one at a time: no WCAG 2.1 AA violation axe-core finds, a comfortable measure that fits
a phone, and each lesson's contents and printed handout.  (Apart from tests/browser/test_site.py so that a run spread
over two workers, make test, can run both files at once.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from bleu_teach.exercises import exercises
from tests.browser.conftest import PROJECT, SITE_TIMINGS, Site, Visitor
from tests.browser.test_site import LESSONS, PYTHON_READY

WCAG_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
AXE_RUN = """async (tags) => {
    const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
    return result.violations.map(v => ({rule: v.id, nodes: v.nodes.length,
                                       where: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
}"""
ALL_LABELLED = """() => [...document.querySelectorAll('[role="slider"]')].every(s => s.getAttribute('aria-label'))
    && [...document.querySelectorAll('img')].every(i => i.hasAttribute('alt'))"""


@pytest.mark.parametrize("name", ["index.html", "glossary.html", "teachers.html", "explorer.html",
                                  "bleu_in_10_minutes.slides.html", *(f"{p.stem}.html" for p in LESSONS)])
def test_every_page_has_no_wcag_2_1_aa_violation_axe_finds(visitor: Visitor, site: Site, name: str):
    """axe-core (from the npm registry, injected by the test: the site does not ship it) on every page."""
    axe = (PROJECT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8")
    page = visitor.page()
    page.goto(f"{site.url}/{name}")
    page.wait_for_load_state("load")
    if name[:2].isdigit():  # the live page, with Python started and every number shown
        page.wait_for_function(PYTHON_READY, timeout=90_000)
        page.wait_for_function(ALL_LABELLED, timeout=30_000)
    page.add_script_tag(content=axe)
    violations = page.evaluate(AXE_RUN, WCAG_AA)
    SITE_TIMINGS.setdefault("axe-core WCAG 2.1 A/AA violations", "")
    SITE_TIMINGS["axe-core WCAG 2.1 A/AA violations"] += f"{name}: {sum(v['nodes'] for v in violations)}; "
    assert violations == [], violations
    page.close()


ALL_PAGES = ["index.html", "glossary.html", "teachers.html", "explorer.html", *(f"{p.stem}.html" for p in LESSONS)]
#: The median characters per line of a page's long paragraphs (three lines or more).
MEASURE = """() => {
    const ps = [...document.querySelectorAll('.jp-RenderedMarkdown p, main p')].filter(p => p.innerText.length > 300);
    const perLine = ps.map(p => p.innerText.length / Math.max(1, Math.round(p.clientHeight
                                                                            / parseFloat(getComputedStyle(p).lineHeight))));
    perLine.sort((a, b) => a - b);
    return perLine.length ? perLine[Math.floor(perLine.length / 2)] : null;
}"""


@pytest.mark.parametrize("name", ALL_PAGES)
def test_every_page_reads_at_a_comfortable_measure_and_fits_a_phone(browser, site: Site, name: str):  # noqa: ANN001
    measured = {}
    for width in (1280, 375):
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        page.goto(f"{site.url}/{name}")
        page.wait_for_load_state("load")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width, (name, width)  # no sideways scroll
        if name == "explorer.html":  # every control stays reachable on a phone
            right = page.evaluate("() => Math.max(...[...document.querySelectorAll('#explorer input, #explorer select,"
                                  " #explorer textarea, #explorer button')].map(e => e.getBoundingClientRect().right))")
            assert right <= width, (name, width, right)
        measured[width] = page.evaluate(MEASURE)
        context.close()
    if measured[1280] is not None:
        assert 55 <= measured[1280] <= 85, (name, measured)  # was about 153 characters a line on a lesson page
    SITE_TIMINGS.setdefault("characters per line at 1280 px (median of long paragraphs)", "")
    SITE_TIMINGS["characters per line at 1280 px (median of long paragraphs)"] += f"{name}: {measured[1280]:.0f}; " \
        if measured[1280] is not None else ""


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_each_lesson_page_has_its_contents_and_prints_as_a_handout(visitor: Visitor, site: Site, lesson: Path):
    page = visitor.page()
    page.goto(f"{site.url}/{lesson.stem}.html")
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
    assert page.problems == [] and visitor.blocked == []
    page.close()
