"""The site on a 390 px phone: every table of every lesson page (its stored outputs and its widgets, their folded
steps opened) and of the explorer page either fits, or scrolls inside its own box with a shadow at the edge where
more of it is hidden, and every cell can be scrolled into view inside that box, never cut off by the page; a box
that scrolls is a tab stop; axe-core finds no WCAG 2.1 A/AA violation at that width.

The numbers the exercises ask about are checked by name, in the tables the widgets show for the exercise's own
input (the HTML bleu_teach.web.page returns for it, put in the widget as the page's script puts it): 04.1's BP,
01's clipped column with a third reference, lesson 08's expert errors and lesson 04's eight smoothing methods.
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bleu_teach.exercises import exercise
from bleu_teach.web import page as web_page
from tests.browser.conftest import ARTIFACTS, PROJECT, Site
from tests.browser.test_site import LESSONS
from tests.browser.test_site_pages import AXE_RUN, WCAG_AA

PHONE = {"width": 390, "height": 844}
#: The box a table scrolls in: the nearest element around it (or itself) whose overflow scrolls sideways.
SCROLLER = """t => {
    for (let e = t; e && e !== document.body; e = e.parentElement) {
        if (/auto|scroll/.test(getComputedStyle(e).overflowX) && e.scrollWidth > e.clientWidth + 1) return e;
    }
    return null;
}"""
#: Where a table stands: its right edge, and its box's visible area (client area, in the viewport's pixels).
PLACE = """(t, scrollerSource) => {
    const scroller = eval(scrollerSource)(t);
    const rect = t.getBoundingClientRect();
    if (!scroller) return {right: rect.right, left: rect.left, scrolls: false};
    const box = scroller.getBoundingClientRect();
    const inner = {left: box.left + scroller.clientLeft, right: box.left + scroller.clientLeft + scroller.clientWidth};
    const focusable = scroller.tabIndex >= 0
      || scroller.querySelector('a, button, input, select, textarea, summary, [tabindex]') !== null;
    return {scrolls: true, box: [box.left, box.right], inner: [inner.left, inner.right], focusable,
            label: scroller.getAttribute('aria-label'), clientHeight: scroller.clientHeight};
}"""


@pytest.fixture(scope="module")
def phone(browser, site: Site) -> Iterator[Any]:  # noqa: ANN001
    """A 390 x 844 context; the pages' Python is not started (the tables are the saved ones, or put in here)."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
    context.set_default_timeout(60_000)
    context.route("**/vendor/pyodide/**", lambda route: route.abort())
    # Nor the service worker that keeps Python's files: its own fetches would not pass through the route above.
    context.route("**/python_cache.js*", lambda route: route.abort())
    yield context
    context.close()


def _open(phone: Any, site: Site, name: str) -> Any:
    page = phone.new_page()
    page.goto(f"{site.url}/{name}")
    page.wait_for_load_state("load")
    page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    page.wait_for_timeout(100)  # the page's script marks the boxes that scroll on the next frame
    return page


def _darkest(png: bytes, strip: tuple[int, int, int, int]) -> int:
    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("L").crop(strip)
    return image.getextrema()[0]  # the darkest pixel


def _cue(table: Any) -> tuple[int, int]:
    """How dark the scrolling box's right edge is with the table's rows hidden (only the box's own background
    shows): at the start, and scrolled to the end (the darkest pixel of a strip 8 px wide, 0 black to 255 white)."""
    scroller = table.evaluate_handle(SCROLLER)
    table.evaluate("""t => {
        t.querySelectorAll('tr, caption').forEach(r => { r.style.visibility = 'hidden'; });
        [t, ...t.querySelectorAll('th, td')]
          .forEach(c => c.style.setProperty('border-color', 'transparent', 'important'));
    }""")
    try:
        found = []
        for end in (False, True):
            scroller.evaluate("(s, end) => { s.scrollLeft = end ? s.scrollWidth : 0; }", end)
            shot = scroller.screenshot()  # animations as they run: the shadows follow the scrolling
            width = scroller.evaluate("s => s.clientLeft + s.clientWidth")
            height = scroller.evaluate("s => s.clientTop + s.clientHeight")
            found.append(_darkest(shot, (width - 8, scroller.evaluate("s => s.clientTop"), width, height)))
        return found[0], found[1]
    finally:
        table.evaluate("""t => {
            t.querySelectorAll('tr, caption').forEach(r => { r.style.visibility = ''; });
            [t, ...t.querySelectorAll('th, td')].forEach(c => c.style.removeProperty('border-color'));
        }""")
        scroller.evaluate("s => { s.scrollLeft = 0; }")


def _reach_end(table: Any) -> dict[str, float]:
    """Scroll the table's box to its end: where its rightmost cell ends, against the box's visible area."""
    return table.evaluate(
        """(t, scrollerSource) => {
        const scroller = eval(scrollerSource)(t);
        scroller.scrollLeft = scroller.scrollWidth;
        const box = scroller.getBoundingClientRect();
        const right = Math.max(...[...t.querySelectorAll('th, td')].map(c => c.getBoundingClientRect().right));
        const result = {right, inner: box.left + scroller.clientLeft + scroller.clientWidth};
        scroller.scrollLeft = 0;
        return result;
    }""",
        SCROLLER,
    )


def _check_tables(page: Any, name: str) -> dict[str, int]:
    """Every rendered table of the page fits, or scrolls in a box of its own with the cue, reachable, focusable."""
    counts = {"tables": 0, "scrolling": 0}
    for table in page.query_selector_all("table"):
        if not table.evaluate("t => t.checkVisibility() && t.offsetWidth > 0"):
            continue  # not shown (a hidden settings box)
        counts["tables"] += 1
        where = table.evaluate(PLACE, SCROLLER)
        what = (name, table.evaluate("t => t.innerText.slice(0, 60)"))
        if not where["scrolls"]:
            assert where["left"] >= -1 and where["right"] <= PHONE["width"] + 1, (what, where)  # fits: nothing cut
            continue
        counts["scrolling"] += 1
        assert -1 <= where["box"][0] and where["box"][1] <= PHONE["width"] + 1, (what, where)  # the box is on the page
        assert where["focusable"], (what, where)  # the arrow keys can scroll it
        start, end = _cue(table)
        assert start < end - 40 and start < 200, (what, start, end)  # a shadow where more is hidden, none at the end
        reached = _reach_end(table)
        assert reached["right"] <= reached["inner"] + 1, (what, reached)  # the last column, seen in the box
    return counts


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_every_table_of_a_lesson_fits_a_phone_or_scrolls_in_its_box_with_a_cue(phone: Any, site: Site, lesson: Path):
    page = _open(phone, site, f"{lesson.stem}.html")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways page
    counts = _check_tables(page, lesson.stem)
    assert counts["tables"] > 0 or lesson.stem.startswith("09"), counts
    # No cell of the notebook is a tab stop for nothing: only controls, links, boxes that scroll, and MathJax's
    # formulas (each opens MathJax's menu: zoom, speech, copy).
    stops = page.evaluate("""() => [...document.querySelectorAll('[tabindex="0"]')].filter(e =>
        e.scrollWidth <= e.clientWidth + 1 && !e.matches('.MathJax_CHTML, .MathJax, mjx-container'))
        .map(e => e.className)""")
    assert stops == [], stops
    page.close()


def test_the_explorer_page_fits_a_phone(phone: Any, site: Site):
    page = _open(phone, site, "explorer.html")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    assert _check_tables(page, "explorer")["scrolling"] > 0  # the n-gram tables scroll there
    page.close()


def _show(page: Any, widget: str, html: str) -> Any:
    """Put a widget's output as the page's script puts it (``innerHTML``), and return that output."""
    output = page.locator(f"form[data-widget='{widget}'] .live-output")
    output.evaluate(
        "(o, html) => { o.innerHTML = html; o.querySelectorAll('details').forEach(d => { d.open = true; }); }", html
    )
    page.wait_for_timeout(100)
    return output


def _column_reached(page: Any, output: Any, header: str, row: str | None = None) -> str:
    """Scroll the cell under ``header`` (in the row that starts with ``row``, else the first row) into view inside
    its table's box: it must then be wholly inside that box and on the screen. Returns the cell's text."""
    found = output.evaluate(
        """(o, [header, row, scrollerSource]) => {
        for (const table of o.querySelectorAll('table')) {
            const heads = [...table.querySelectorAll('thead th, thead td')].map(h => h.innerText.trim());
            const column = heads.indexOf(header);
            if (column < 0) continue;
            const rows = [...table.querySelectorAll('tbody tr')];
            const chosen = row === null ? rows[0] : rows.find(r => r.cells[0].innerText.trim() === row);
            if (!chosen) continue;
            const cell = chosen.cells[column];
            const scroller = eval(scrollerSource)(table);
            const before = cell.getBoundingClientRect().right;
            cell.scrollIntoView({inline: 'end', block: 'nearest'});
            const rect = cell.getBoundingClientRect();
            const box = scroller ? scroller.getBoundingClientRect() : {left: 0, right: innerWidth};
            const inner = scroller ? box.left + scroller.clientLeft + scroller.clientWidth : innerWidth;
            return {text: cell.innerText.trim(), before, left: rect.left, right: rect.right, boxLeft: box.left,
                    inner, scrolls: scroller !== null, pageX: scrollX};
        }
        return null;
    }""",
        [header, row, SCROLLER],
    )
    assert found is not None, (header, row)
    assert found["pageX"] == 0  # the page itself never moved sideways
    assert found["boxLeft"] - 1 <= found["left"] and found["right"] <= found["inner"] + 1, found
    assert found["right"] <= PHONE["width"] + 1, found
    return found["text"]


def test_the_numbers_the_exercises_ask_about_are_reachable_on_a_phone(phone: Any, site: Site):
    # 04.1: the four references typed into lesson 04's explorer, smoothing method 1: the BP column.
    ex = exercise("04.1")
    page = _open(phone, site, "04_the_bleu_score.html")
    state = json.loads(page.locator("form[data-widget='BleuExplorer']").get_attribute("data-state"))
    state |= {
        "hypothesis": ex.inputs["hypothesis"],
        "references": ex.inputs["references"],
        "max_n": "4",
        "smoothing": "method1",
    }
    shown = web_page.widget("BleuExplorer", state)
    output = _show(page, "BleuExplorer", shown["html"])
    bp = _column_reached(page, output, "BP", "used")
    assert bp == f"{math.exp(1 - 7 / 6):.4f}", bp  # c = 6, r = 7 (lengths 9, 7, 4, 11): the working's BP
    assert _check_tables(page, "04 with 04.1's input")["scrolling"] > 0
    # Lesson 04's smoothing table: all eight methods, the last one reachable.
    smoothing = page.locator(".jp-OutputArea-output").filter(has_text="used by each smoothing method").first
    assert float(_column_reached(page, smoothing, "method7", "BLEU")) > 0  # the eighth column of scores, in view
    page.close()

    # 01: the clipping explorer with a third reference: the clipped column.
    page = _open(phone, site, "01_ngrams_and_clipping.html")
    state = json.loads(page.locator("form[data-widget='ClippingExplorer']").get_attribute("data-state"))
    state["references"] = [*state["references"], "the the the cat"]
    output = _show(page, "ClippingExplorer", web_page.widget("ClippingExplorer", state)["html"])
    assert _column_reached(page, output, "ref3", "the") == "3"
    assert _column_reached(page, output, "clipped", "the") == "3"  # min(7, max(2, 1, 3))
    _check_tables(page, "01 with a third reference")
    page.screenshot(path=str(ARTIFACTS / "site_phone_01_three_references.png"))
    page.close()

    # 08: the disagreement explorer's expert errors (the saved pair, as built).
    page = _open(phone, site, "08_bleu_and_people.html")
    output = page.locator("form[data-widget='DisagreementExplorer'] .live-output")
    heads = output.evaluate("o => [...o.querySelectorAll('thead th')].map(h => h.innerText.trim())")
    last = heads[-1]
    _column_reached(page, output, last)
    page.close()


@pytest.mark.parametrize("name", [*(f"{p.stem}.html" for p in LESSONS), "explorer.html"])
def test_every_page_has_no_wcag_2_1_aa_violation_on_a_phone(phone: Any, site: Site, name: str):
    page = _open(phone, site, name)
    page.add_script_tag(content=(PROJECT / "node_modules" / "axe-core" / "axe.min.js").read_text(encoding="utf-8"))
    violations = page.evaluate(AXE_RUN, WCAG_AA)
    assert violations == [], violations
    page.close()
