"""The static website (`make site`) served by a plain static file server and read in Chromium, with every
request that leaves the site blocked and counted.

The site is built once with the command `make site` runs (python -m bleu_teach_site), into a scratch folder,
and served by `python -m http.server` on 127.0.0.1.  Every page loads without a page error, shows its
figures, math and saved widgets; the live explorer (bleu_teach on Pyodide) gives bleu_teach's own score
for every preset, for typing, for each setting, a clear message for bad input, and keeps typed HTML as
text.  One explorer page (one Pyodide start) serves the checks that do not need a fresh page.
"""

from __future__ import annotations

import html
import json
import re
import statistics
import time
import zipfile
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

import bleu_teach as bt
from bleu_teach.exercises import exercises
from tests.browser.conftest import ARTIFACTS, PROJECT, SITE_TIMINGS, Site, Visitor, _status

LESSONS = sorted((PROJECT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
#: The explorer page is the BLEU explorer's form (the lesson pages' own): its ids start "x-".
FORM = 'form[data-widget="BleuExplorer"]'
SCORE = f"{FORM} .live-headline"
REPORT = f"{FORM} .live-output"
ADD, REMOVE = '[data-action="add-reference"]', '[data-action="remove-reference"]'
EXPLORER_LINK = re.compile(r'class="live-explorer-link" href="([^"]+)"')


def expected_score(query: dict[str, list[str]]) -> float:
    """bleu_teach.explain on the query's text, tokenized by bleu_teach.tokenize (the oracle for the page)."""
    tokenizer, lowercase = query.get("tokenizer", ["whitespace"])[0], query.get("lowercase", ["0"])[0] == "1"
    n = int(query.get("n", ["4"])[0])
    typed = query.get("weights", [""])[0]
    weights = tuple(float(w) for w in typed.replace(";", ",").split(",")) if typed.strip() else (1 / n,) * n
    refs = [bt.tokenize(r, tokenizer, lowercase=lowercase) for r in query["ref"]]
    hyp = bt.tokenize(query["hyp"][0], tokenizer, lowercase=lowercase)
    return bt.explain(refs, hyp, weights=weights, smoothing=query.get("smoothing", ["method0"])[0]).score


def wait_for_score(page, score: float, timeout: float = 30_000) -> None:  # noqa: ANN001
    page.wait_for_function(
        f"document.querySelector({json.dumps(SCORE)}).dataset.value === {json.dumps(repr(score))}", timeout=timeout
    )


#: True when Python has started and the explorer shows a number.
SCORED = f"""() => document.documentElement.dataset.pythonReady === '1'
    && document.querySelector({json.dumps(SCORE)}).dataset.value !== ''"""
#: True when the explorer shows a message instead of a number.
MESSAGE = f"() => document.querySelector({json.dumps(SCORE)}).dataset.value === ''"


def set_slider(page, selector: str, value: str) -> None:  # noqa: ANN001
    """Move a range input to ``value`` as a learner's drag would (an input event)."""
    page.eval_on_selector(
        selector, "(e, v) => { e.value = v; e.dispatchEvent(new Event('input', {bubbles: true})); }", value
    )


def explorer_links(root: Path) -> list[str]:
    """Every live-explorer link on the built pages, once each."""
    links: list[str] = []
    for page in sorted(root.glob("*.html")):
        for href in EXPLORER_LINK.findall(page.read_text(encoding="utf-8")):
            if html.unescape(href) not in links:
                links.append(html.unescape(href))
    return links


def page_query(page) -> dict[str, list[str]]:  # noqa: ANN001
    """The address bar's query (read in the page: history.replaceState reaches page.url only later)."""
    return parse_qs(urlparse(page.evaluate("window.location.href")).query, keep_blank_values=True)


# ---------------------------------------------------------------------------
# The index and the lesson pages
# ---------------------------------------------------------------------------


def _minutes(path: Path) -> int:
    first = "".join(json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"])
    return int(re.search(r"\*\*Time:\*\* about (\d+) minutes", first).group(1))


def test_index_shows_the_learning_path_and_links_to_everything(visitor: Visitor, site: Site):
    page = visitor.page()
    page.goto(f"{site.url}/index.html")
    items = page.locator("ol.lessons li")
    assert items.count() == len(LESSONS)
    for item, path in zip(items.all(), LESSONS):
        assert item.get_attribute("data-lesson") == path.name[:2]
        assert item.locator("a").first.get_attribute("href") == f"{path.stem}.html"
        assert f"about {_minutes(path)} minutes" in item.inner_text()
    hrefs = page.eval_on_selector_all("a[href]", "links => links.map(a => a.getAttribute('href'))")
    for needed in [
        "explorer.html",
        "bleu_in_10_minutes.slides.html",
        "bleu-teach-notebooks.zip",
        "glossary.html",
        "teachers.html",
        *(f"notebooks/{p.name}" for p in LESSONS),
    ]:
        assert needed in hrefs
    for href in {h.split("#")[0] for h in hrefs}:
        assert _status(f"{site.url}/{href}") == 200, href
    assert (site.root / "notebooks" / LESSONS[0].name).read_bytes() == LESSONS[0].read_bytes()
    wheels = [h for h in hrefs if h.endswith(".whl")]  # the package, for a JupyterHub
    assert len(wheels) == 1 and wheels[0].startswith("bleu_teach-"), wheels
    with zipfile.ZipFile(site.root / wheels[0]) as archive:
        assert "bleu_teach/exercises/bank.toml" in archive.namelist()
    assert "pip install" in page.locator("#package + p").inner_text()
    page.screenshot(path=str(ARTIFACTS / "site_index.png"), full_page=True)
    assert page.problems == [] and visitor.blocked == []
    page.close()


def _outputs(path: Path) -> tuple[int, int, bool]:
    """(explorer widget views, image outputs, has math) of a stored lesson; a practice cell's widget (tagged
    "practice") is not an explorer: the page has its own practice block for it."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    outputs = [
        o.get("data", {})
        for c in cells
        if "practice" not in c.get("metadata", {}).get("tags", [])
        for o in c.get("outputs", [])
    ]
    math = any(c["cell_type"] == "markdown" and "$" in "".join(c["source"]) for c in cells)
    return (
        sum("application/vnd.jupyter.widget-view+json" in d for d in outputs),
        sum(any(k.startswith("image/") for k in d) for d in outputs),
        math,
    )


#: True when Python has started in the page (or failed to), and every live widget shows a number.
PYTHON_READY = """() => document.documentElement.dataset.pythonReady !== undefined
    && [...document.querySelectorAll('[data-widget] [data-value]')].every(e => e.dataset.value !== '')"""


def test_the_deck_on_the_site_links_to_the_live_explorer(visitor: Visitor, site: Site):
    page = visitor.page()
    page.goto(f"{site.url}/bleu_in_10_minutes.slides.html")
    page.wait_for_selector(".reveal.ready")
    assert page.locator(".reveal a.live-explorer-link").count() >= 1
    assert all(
        h.startswith("explorer.html?")
        for h in page.eval_on_selector_all(
            ".reveal a.live-explorer-link", "links => links.map(a => a.getAttribute('href'))"
        )
    )
    assert page.problems == [] and visitor.blocked == []
    page.close()


# ---------------------------------------------------------------------------
# The live explorer: one page, one Pyodide start, several checks
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def explorer(visitor: Visitor, site: Site):  # noqa: ANN201
    """The explorer opened from the first lesson link, with the time from opening to its first score."""
    first = explorer_links(site.root)[0]
    page = visitor.page()
    started = time.perf_counter()
    page.goto(f"{site.url}/{first}")
    page.wait_for_function(SCORED, timeout=90_000)
    SITE_TIMINGS["explorer: open to first score"] = f"{time.perf_counter() - started:.2f} s"
    yield page
    page.close()


def test_a_preset_opens_with_bleu_teachs_score(explorer, visitor: Visitor):  # noqa: ANN001
    query = page_query(explorer)
    score = expected_score(query)
    assert explorer.locator(SCORE).get_attribute("data-value") == repr(score)
    assert explorer.locator("#x-hypothesis").input_value() == query["hyp"][0]
    assert [box.input_value() for box in explorer.locator("input.reference").all()] == query["ref"]
    # the report below is bleu_teach's own HTML, showing the same score
    assert explorer.locator(f"{REPORT} .score").get_attribute("data-score") == repr(score)
    assert explorer.locator("#link-note").is_hidden()
    assert explorer.problems == [] and visitor.blocked == []


def test_typing_updates_the_score_and_the_address(explorer, visitor: Visitor):  # noqa: ANN001
    box = explorer.locator("#x-hypothesis")
    box.fill("the cat")
    query = page_query(explorer)
    query["hyp"] = ["the cat"]
    wait_for_score(explorer, expected_score(query))
    box.press("End")
    delays = []
    for key in " is on the mat":
        text = box.input_value() + key
        query["hyp"] = [text]
        score = expected_score(query)
        started = time.perf_counter()
        box.press(key if key != " " else "Space")
        wait_for_score(explorer, score)
        delays.append(time.perf_counter() - started)
    assert page_query(explorer)["hyp"] == ["the cat is on the mat"]
    SITE_TIMINGS["explorer: keystroke to updated score"] = (
        f"median {1000 * statistics.median(delays):.0f} ms, max {1000 * max(delays):.0f} ms over {len(delays)} keys "
        f"(one render per burst of events)"
    )
    assert explorer.problems == [] and visitor.blocked == []


def test_references_can_be_added_and_removed(explorer, visitor: Visitor):  # noqa: ANN001
    before = page_query(explorer)
    explorer.click(ADD)
    explorer.locator("input.reference").last.fill("the cat sat on the mat")
    query = page_query(explorer)
    assert query["ref"] == before["ref"] + ["the cat sat on the mat"]
    wait_for_score(explorer, expected_score(query))
    while explorer.locator(ADD).is_enabled():
        explorer.click(ADD)
    assert explorer.locator("input.reference").count() == 8
    while explorer.locator(REMOVE).is_enabled():
        explorer.click(REMOVE)
    assert explorer.locator("input.reference").count() == 1
    wait_for_score(explorer, expected_score(page_query(explorer)))
    assert len(page_query(explorer)["ref"]) == 1
    assert explorer.problems == [] and visitor.blocked == []


def test_every_setting_reaches_bleu_teach(explorer, visitor: Visitor):  # noqa: ANN001
    explorer.locator("#x-hypothesis").fill("The cat, it sat on the MAT.")
    explorer.locator("input.reference").first.fill("the cat sat on the mat .")
    explorer.select_option("#x-tokenizer", "13a")
    explorer.check("#x-lowercase")
    set_slider(explorer, "#x-max_n", "3")
    explorer.fill("#x-weights", "0.5, 0.3, 0.2")
    explorer.select_option("#x-smoothing", "method3")
    query = page_query(explorer)
    assert (query["tokenizer"], query["lowercase"], query["n"], query["weights"], query["smoothing"]) == (
        ["13a"],
        ["1"],
        ["3"],
        ["0.5, 0.3, 0.2"],
        ["method3"],
    )
    wait_for_score(explorer, expected_score(query))
    explorer.select_option("#x-tokenizer", "char")
    wait_for_score(explorer, expected_score(page_query(explorer)))
    assert explorer.problems == [] and visitor.blocked == []


@pytest.mark.parametrize(
    "control, value, message",
    [
        ("#x-hypothesis", "   ", "The hypothesis is empty: type a sentence into it."),
        ("#x-weights", "0.7, x", "Weights must be numbers or fractions separated by commas"),
        ("#x-weights", "0.9, 0.3, 0.2", "sum to 1.4"),
    ],
)
def test_bad_input_shows_a_message_and_the_page_keeps_working(
    explorer, visitor: Visitor, control: str, value: str, message: str
):  # noqa: ANN001
    set_slider(explorer, "#x-max_n", "3")  # the weights' messages below are for three orders
    good = explorer.locator(control).input_value()
    explorer.fill(control, value)
    explorer.wait_for_function(MESSAGE)
    assert message in explorer.locator(SCORE).inner_text()
    assert message not in explorer.locator(REPORT).inner_text()  # said once, where it is announced
    explorer.fill(control, good)
    wait_for_score(explorer, expected_score(page_query(explorer)))
    assert explorer.problems == [] and visitor.blocked == []


def test_a_link_with_a_setting_the_explorer_does_not_offer_says_so(visitor: Visitor, site: Site):
    page = visitor.page()
    page.goto(f"{site.url}/explorer.html?hyp=a+b+c&ref=a+b+c&n=9&smoothing=method1")
    from playwright.sync_api import expect

    expect(page.locator("#link-note")).to_contain_text("This link asks for n=9, which the explorer does not offer")
    assert page.locator("#x-max_n").input_value() == "6"  # the slider's top, said in the note
    wait_for_score(page, expected_score({"hyp": ["a b c"], "ref": ["a b c"], "n": ["6"], "smoothing": ["method1"]}))
    page.goto(f"{site.url}/explorer.html?hyp=a+b+c&ref=a+b+c&tokenizer=ja-mecab")
    page.wait_for_function("document.documentElement.dataset.pythonReady === '1'", timeout=90_000)
    page.wait_for_function(MESSAGE)
    offered = page.eval_on_selector_all("#x-tokenizer option", "os => os.map(o => o.value)")[:-1]  # the link's last
    assert "nltk" not in offered and page.locator(SCORE).inner_text().endswith(
        f"This page has no tokenizer 'ja-mecab'; choose one of {', '.join(offered)}."
    )  # only what the menu offers
    assert page.problems == [] and visitor.blocked == []
    page.close()


def test_a_link_opens_with_exactly_its_references_and_keeps_them_on_reload(visitor: Visitor, site: Site):
    page = visitor.page()
    page.goto(f"{site.url}/explorer.html?hyp=a+b+c&ref=a+b+c+d&ref=x+y+z")  # two references, not the page's own
    query = {"hyp": ["a b c"], "ref": ["a b c d", "x y z"]}
    for _ in range(2):  # as opened, then reloaded from the address it keeps
        wait_for_score(page, expected_score(query), timeout=90_000)
        assert [box.input_value() for box in page.locator("input.reference").all()] == query["ref"]
        assert page_query(page)["ref"] == query["ref"]
        page.reload()
    refs = "&".join(f"ref=r{k}" for k in range(10))
    page.goto(f"{site.url}/explorer.html?hyp=r1&{refs}&smoothing=method99&lowercase=true")
    from playwright.sync_api import expect

    note = page.locator("#link-note")
    expect(note).to_contain_text("smoothing=method99, which this explorer does not offer")
    expect(note).to_contain_text("10 references, and the explorer takes at most 8: it shows the first 8")
    assert page.locator("input.reference").count() == 8 and page.locator("#x-lowercase").is_checked()
    page.wait_for_function("document.documentElement.dataset.pythonReady === '1'", timeout=90_000)
    page.wait_for_function(MESSAGE)
    assert "method99" in page.locator(SCORE).inner_text()  # bleu_teach says what is wrong with it
    assert page.problems == [] and visitor.blocked == []
    page.close()


def test_typed_html_stays_text(explorer, visitor: Visitor):  # noqa: ANN001
    requests: list[str] = []
    explorer.on("request", lambda request: requests.append(request.url))
    attack = '<img src=x onerror="window.__typed=1"> <script>window.__typed=2</script>'
    explorer.select_option("#x-tokenizer", "whitespace")
    explorer.fill("#x-weights", "")
    explorer.locator("#x-hypothesis").fill(attack)
    explorer.locator("input.reference").first.fill("<b>bold</b> " + attack)
    wait_for_score(explorer, expected_score(page_query(explorer)))
    assert explorer.evaluate("window.__typed") is None
    assert explorer.locator(f"{REPORT} img, {REPORT} script, {REPORT} b:text-is('bold')").count() == 0
    assert "<img" in explorer.locator(REPORT).inner_text()
    explorer.fill("#x-weights", "<i>1</i>")
    explorer.wait_for_function(MESSAGE)
    assert "<i>1</i>" in explorer.locator(SCORE).inner_text()
    assert explorer.locator(f"{SCORE} *").count() == 0
    assert explorer.locator(f"{REPORT} i").count() == 0
    assert not any(urlparse(u).path.endswith("/x") for u in requests), requests
    assert explorer.problems == [] and visitor.blocked == []


def test_every_live_explorer_link_opens_and_scores(visitor: Visitor, site: Site):
    links = explorer_links(site.root)
    assert len(links) >= 4
    page = visitor.page()
    times = []
    for link in links:
        started = time.perf_counter()
        page.goto(f"{site.url}/{link}")
        wait_for_score(page, expected_score(parse_qs(urlparse(link).query, keep_blank_values=True)), timeout=90_000)
        times.append(time.perf_counter() - started)
        assert page.locator("#link-note").is_hidden()
    SITE_TIMINGS["explorer: open to first score, each Try it link (files cached)"] = (
        f"median {statistics.median(times):.2f} s over {len(times)} links"
    )
    page.screenshot(path=str(ARTIFACTS / "site_explorer.png"))
    assert page.problems == [] and visitor.blocked == []
    page.close()


def test_from_disk_the_lessons_work_and_the_explorer_says_how_to_serve_it(browser, site: Site):  # noqa: ANN001
    context = browser.new_context()
    blocked: list[str] = []
    context.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith("file://")
            else (blocked.append(route.request.url), route.abort())
        ),
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    lesson = next(path for path in LESSONS if _outputs(path)[0])  # the first lesson with a widget
    page.goto((site.root / f"{lesson.stem}.html").as_uri())
    from playwright.sync_api import expect

    widget = page.locator("[data-widget]").first  # the saved example, with its number, and how to make it live
    assert widget.locator("[data-value]").get_attribute("data-value") not in ("", None)
    expect(widget.locator(".live-status")).to_contain_text("served over http(s), not opened from disk")
    page.goto((site.root / "explorer.html").as_uri())
    expect(page.locator(f"{FORM} .live-status")).to_contain_text("served over http(s), not opened from disk")
    assert page.locator(f"{FORM} textarea").is_disabled()
    assert errors == [] and blocked == []
    context.close()


def test_no_file_a_learner_downloads_from_the_site_holds_an_answer(site: Site):
    """The exercise bank's answers, workings and feedback appear in no page, notebook, zip or script of the site.

    One file holds the bank, because ``check()`` needs the answers to diagnose one: the package's wheel, which
    the lesson pages install into Pyodide to check an answer in the browser (never shown) and which the index
    offers for installing on a JupyterHub (read by pip, like every installed copy of bleu-teach).  The teacher's
    guide says so: marked work is the worksheets.
    """
    import zipfile

    from bleu_teach.exercises import check

    secrets = set()
    for ex in exercises():
        secrets.add(ex.working)
        secrets.update(o.feedback for o in ex.options)
        secrets.update(m.message for m in check(ex.id, None).misconceptions)
    texts = {}
    for path in site.root.rglob("*"):
        if not path.is_file():
            continue
        if path.suffix in (".html", ".ipynb", ".md", ".js", ".json", ".py", ".toml"):
            texts[str(path)] = path.read_text(encoding="utf-8", errors="replace")
        elif path.suffix == ".zip":
            with zipfile.ZipFile(path) as archive:
                for name in archive.namelist():
                    texts[f"{path}!{name}"] = archive.read(name).decode("utf-8", errors="replace")
    assert any("bleu-teach-notebooks" in name for name in texts)
    wheels = [p for p in site.root.rglob("*.whl")]
    assert [p.name for p in wheels] == [p.name for p in site.root.glob("bleu_teach-*-py3-none-any.whl")] != []
    assert len(texts) > 50 and not any(".whl!" in name for name in texts)  # the wheel is not read above
    for name, text in texts.items():
        assert "bank.toml" not in name and '"solution"' not in text, name
        for secret in secrets:
            for form in (secret, json.dumps(secret, ensure_ascii=False)[1:-1], html.escape(secret)):
                assert form not in text, f"{name} shows {secret!r}"


def test_a_question_link_opens_the_page_at_that_question(visitor: Visitor, site: Site):
    page = visitor.page()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{site.url}/03_brevity_penalty.html#ex-03-2")
    page.wait_for_load_state("load")
    page.wait_for_function(
        "() => { const r = document.getElementById('ex-03-2').getBoundingClientRect();"
        " return r.top >= 0 && r.top < window.innerHeight; }",
        timeout=15_000,
    )
    assert page.evaluate("() => window.scrollY") > 0  # the question is far down the page
    assert page.problems == [] and visitor.blocked == []
    page.close()


def test_the_teachers_guide_is_a_page_without_its_answer_table(visitor: Visitor, site: Site):
    page = visitor.page()
    page.goto(f"{site.url}/teachers.html")
    headings = [h.rstrip("¶").strip() for h in page.locator("h2, h3").all_inner_texts()]
    for needed in (
        "A shared server: JupyterHub",
        "A 50-minute lesson plan",
        "The same 50 minutes on the website only",
        "Homework: a different worksheet for every student",
    ):
        assert needed in headings, headings
    text = page.inner_text("body")
    assert "is left out of this page" in text and "exercises key --out key/" in text
    guide = (PROJECT / "TEACHERS_GUIDE.md").read_text(encoding="utf-8")
    table = guide.split("<!-- exercises: made by scripts/solutions.py -->")[1].split("<!-- end of exercises -->")[0]
    rows = [line for line in table.splitlines() if line.startswith("| 0")]
    assert rows and not any(row.split("|")[3].strip() in text for row in rows if len(row.split("|")[3].strip()) > 3)
    assert page.locator("nav.site-nav a[href='teachers.html']").count() == 1
    assert page.problems == [] and visitor.blocked == []
    page.close()


#: axe-core's rule sets for WCAG 2.1 levels A and AA.
def test_the_explorer_works_from_the_keyboard_with_a_visible_focus(visitor: Visitor, site: Site):
    """Tab through the explorer: every control takes the focus with a visible outline; typing updates the score."""
    page = visitor.page()  # a fresh explorer: the shared one holds what earlier tests typed
    page.goto(f"{site.url}/{explorer_links(site.root)[0]}")
    page.wait_for_function(SCORED, timeout=90_000)
    page.locator("body").click(position={"x": 1, "y": 1})
    seen = []
    for _ in range(40):
        page.keyboard.press("Tab")
        focused = page.evaluate("""() => { const e = document.activeElement; const s = getComputedStyle(e);
            return {id: e.id || e.tagName, outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2}; }""")
        seen.append(focused)
        if focused["id"] == "x-hypothesis":
            break
    assert seen[-1]["id"] == "x-hypothesis", seen
    assert all(f["outline"] for f in seen if f["id"] != "BODY"), seen
    page.keyboard.press("Control+A")
    page.keyboard.type("the cat sat")  # typed from the keyboard alone: the score is bleu_teach's for the new text
    query = page_query(page)
    query["hyp"] = ["the cat sat"]
    wait_for_score(page, expected_score(query))
    assert page.problems == [] and visitor.blocked == []
    page.close()


# ---------------------------------------------------------------------------
# Hostile links and answers: bounded, said, and nothing the learner typed is lost
# ---------------------------------------------------------------------------


def test_an_example_too_long_for_a_link_stays_in_the_tab_and_is_shared_as_a_file(visitor: Visitor, site: Site):
    page = visitor.page()
    page.goto(f"{site.url}/explorer.html?hyp=a+b+c&ref=a+b+c+d")
    page.wait_for_function(SCORED, timeout=90_000)
    long_text = " ".join(f"w{k % 300}" for k in range(2000))  # about 9,800 characters: too long for a link
    page.locator("#x-hypothesis").fill(long_text)
    query = {"hyp": [long_text], "ref": ["a b c d"]}
    wait_for_score(page, expected_score(query))
    assert page.evaluate("window.location.search") == ""  # no link a server would refuse (was HTTP 414 past 64 KB)
    assert "too long for a link" in page.locator("#too-long").inner_text()
    page.click("#copy-link")
    assert "too long for one" in page.locator("#copied").inner_text()
    with page.expect_download() as download:
        page.click("#download-example")
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.startswith(f"Hypothesis: {long_text}\nReference 1: a b c d\nMax n: 4\n")
    page.reload()  # the tab kept it: nothing typed is lost
    page.wait_for_function(SCORED, timeout=90_000)
    assert page.locator("#x-hypothesis").input_value() == long_text
    wait_for_score(page, expected_score(query))
    page.locator("#x-hypothesis").fill("a b c")  # short again: back in the address, the note gone
    wait_for_score(page, expected_score({"hyp": ["a b c"], "ref": ["a b c d"]}))
    assert page_query(page)["hyp"] == ["a b c"] and page.locator("#too-long").count() == 0
    assert page.problems == [] and visitor.blocked == []
    page.close()


def test_a_link_with_a_huge_weight_is_refused_at_once(visitor: Visitor, site: Site):
    page = visitor.page()
    page.goto(f"{site.url}/explorer.html?hyp=a+b&ref=a+b&n=1&weights=1e20000000")  # froze the tab for 40 s
    page.wait_for_function("document.documentElement.dataset.pythonReady === '1'", timeout=90_000)
    page.wait_for_function(MESSAGE)
    shown = page.evaluate(
        "Number(document.documentElement.dataset.pythonCheckedMs) - "
        "Number(document.documentElement.dataset.pythonReadyMs)"
    )
    assert "two-digit exponent" in page.locator(SCORE).inner_text() and shown < 1000, shown
    assert "Something went wrong" not in page.locator(FORM).inner_text()
    assert page.problems == [] and visitor.blocked == []
    page.close()


def test_a_stored_hostile_answer_never_freezes_the_lesson_on_reload(visitor: Visitor, site: Site):
    page = visitor.page()
    page.goto(f"{site.url}/03_brevity_penalty.html")
    page.wait_for_function("document.documentElement.dataset.pythonReady === '1'", timeout=90_000)
    box = page.locator('form[data-exercise="03.1"] input[name="answer"]')
    box.fill("1e-20000000")
    page.locator('form[data-exercise="03.1"] button[type="submit"]').click()
    feedback = page.locator('form[data-exercise="03.1"] .live-feedback')
    page.wait_for_function("document.querySelector('form[data-exercise=\"03.1\"] .live-feedback').textContent !== ''")
    page.evaluate("""() => { const all = JSON.parse(localStorage.getItem('bleu-teach-answers') || '{}');
        all['03.1'] = {answer: '1e-20000000', verdict: 'wrong', solved: false, at: 'then'};
        localStorage.setItem('bleu-teach-answers', JSON.stringify(all)); }""")
    page.reload()  # the answer is shown again and checked again, as every reload does
    page.wait_for_function("document.documentElement.dataset.pythonReady === '1'", timeout=90_000)
    spent = page.evaluate(
        "Number(document.documentElement.dataset.pythonCheckedMs) - "
        "Number(document.documentElement.dataset.pythonReadyMs)"
    )
    assert box.input_value() == "1e-20000000" and "exponents from -400 to 400" in feedback.inner_text()
    assert spent < 2000, spent  # every widget drawn and the answer judged (was 25 s, on every reload)
    SITE_TIMINGS["lesson 03: widgets drawn and a stored 1e-20000000 judged after Python started"] = f"{spent} ms"
    assert page.problems == [] and visitor.blocked == []
    page.close()


def test_lesson_08s_rank_box_says_what_is_wrong_with_a_number_it_cannot_read(visitor: Visitor, site: Site):
    page = visitor.page()
    page.goto(f"{site.url}/08_bleu_and_people.html")
    page.wait_for_function("document.documentElement.dataset.pythonReady === '1'", timeout=90_000)
    form = page.locator('form[data-widget="DisagreementExplorer"]')
    rank = form.locator('input[name="rank"]')
    for typed, said in [
        ("1e999", "what is typed in the box is not one"),
        ("12345678901234567890123", "(at most 9 digits); the number typed has 23 digits."),
    ]:
        rank.fill(typed)
        page.wait_for_function(
            '(said) => document.querySelector(\'form[data-widget="DisagreementExplorer"] '
            ".live-headline').textContent.includes(said)",
            arg=said,
        )
    rank.fill("2")
    page.wait_for_function(
        "document.querySelector('form[data-widget=\"DisagreementExplorer\"] .live-headline').dataset.value !== ''"
    )
    rank.fill("")
    rank.press_sequentially("99999", delay=80)  # past the list: moved to its last pair, but not under the typing
    page.wait_for_timeout(300)
    assert rank.input_value() == "99999"  # was moved to the last pair mid-typing, the next keys added to it
    rank.press("Tab")
    page.wait_for_function(
        '() => document.querySelector(\'form[data-widget="DisagreementExplorer"] '
        "input[name=\"rank\"]').value !== '99999'"
    )
    assert 1 < int(rank.input_value()) < 99999
    assert page.problems == [] and visitor.blocked == []
    page.close()
