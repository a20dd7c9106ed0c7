"""The live lesson pages: every "Try it" widget and every "Check yourself" exercise working on the static site.

The site is the one `make site` builds (the session's ``site`` fixture), read in Chromium with every request
that leaves the site blocked.  Each widget's number is checked against an oracle that is not bleu_teach: NLTK
for modified precision and sentence BLEU, sacreBLEU for lesson 08's sentence scores, and the brevity penalty's
formula by hand; each exercise is answered right, with a misconception and with nonsense, and the page's
feedback is the exercise bank's.  The timings the issue asks for are measured and printed.
"""

from __future__ import annotations

import functools
import http.server
import json
import math
import statistics
import threading
from fractions import Fraction
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from bleu_teach.exercises import exercises
from bleu_teach.lessons.curves import brevity_penalty_chart
from tests.browser.conftest import ARTIFACTS, PROJECT, SITE_TIMINGS, Site, Visitor, only_to

LESSONS = sorted((PROJECT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
READY = "() => document.documentElement.dataset.pythonReady === '1'"


def live_page(visitor: Visitor, url: str):  # noqa: ANN201
    """A new page at ``url``, live (Python started), with no answers kept from earlier tests (local storage is
    per site, not per page, so it is emptied on another page first)."""
    page = visitor.page()
    page.goto(url.rsplit("/", 1)[0] + "/glossary.html")
    page.evaluate("localStorage.clear()")
    page.goto(url)
    page.wait_for_function(READY, timeout=90_000)
    return page


def _has_widgets(path: Path) -> bool:
    """Whether the lesson has an explorer (a practice cell's widget is not one: its page has a practice block)."""
    from tests.browser.test_site import _outputs

    return _outputs(path)[0] > 0


# ---------------------------------------------------------------------------
# Oracles: NLTK, sacreBLEU, the formula
# ---------------------------------------------------------------------------


def _nltk_bleu(references: list[str], hypothesis: str, max_n: int, weights: str, smoothing: str) -> float:
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    n = int(max_n)
    w = tuple(float(x) for x in weights.split(",")) if weights.strip() else (1 / n,) * n
    method = getattr(SmoothingFunction(), smoothing)
    return sentence_bleu([r.split() for r in references], hypothesis.split(), weights=w, smoothing_function=method)


def _closest(lengths: list[int], c: int) -> int:
    return min(lengths, key=lambda r: (abs(r - c), r))


def oracle(kind: str, state: dict) -> float:
    """The widget's headline number, computed without bleu_teach."""
    if kind == "ClippingExplorer":
        from nltk.translate.bleu_score import modified_precision

        return float(
            Fraction(
                modified_precision(
                    [r.split() for r in state["references"]], state["hypothesis"].split(), int(state["n"])
                )
            )
        )
    if kind == "BrevityPenaltyExplorer":
        c = int(state["hyp_len"])
        lengths = [int(state["ref_len"])] + ([int(state["second_ref_len"])] if state["use_second"] else [])
        r = _closest(lengths, c)
        return 1.0 if c > r else math.exp(1 - r / c)
    if kind == "BleuExplorer":
        assert state["tokenizer"] == "whitespace" and not state["lowercase"], state  # what this oracle reads
        return _nltk_bleu(
            state["references"], state["hypothesis"], state["max_n"], state["weights"], state["smoothing"]
        )
    if kind == "TwoMetricsExplorer":  # pairs counted here, over the shipped system scores (tests/test_two_metrics.py)
        return _accuracy_difference(state["pair"], state["metric_a"], state["metric_b"], int(state["leave_out"]))
    if kind == "SideBySideExplorer":
        args = (state["max_n"], state["weights"], state["smoothing"])
        return _nltk_bleu(state["references"], state["hypothesis_a"], *args) - _nltk_bleu(
            state["references"], state["hypothesis_b"], *args
        )
    raise AssertionError(kind)


def _accuracy_difference(pair: str, metric_a: str, metric_b: str, leave_out: int) -> float:
    """Metric A's pairwise accuracy minus metric B's over the systems kept, counted here (TER: lower is better)."""
    from bleu_teach.lessons.two_metrics import shipped_scores

    scores = shipped_scores()[pair]
    kept = [i for i in range(len(scores.systems)) if i != leave_out - 1]

    def accuracy(metric: str) -> float:
        sign = -1 if metric == "TER" else 1
        pairs = [(i, j) for i in kept for j in kept if i < j]
        right = sum(
            (sign * (scores.scores[metric][i] - scores.scores[metric][j])) * (scores.mqm[i] - scores.mqm[j]) > 0
            for i, j in pairs
        )
        return right / len(pairs)

    return accuracy(metric_a) - accuracy(metric_b)


def _sacrebleu_segment(metric: str, system: str, segment: int) -> float:
    import sacrebleu

    from bleu_teach.lessons.data import wmt21_ted

    ted = wmt21_ted("zh-en")
    hypothesis, reference = ted.translations(system)[segment], ted.references["ref-B"][segment]
    score = sacrebleu.sentence_bleu if metric == "BLEU" else sacrebleu.sentence_chrf
    return score(hypothesis, [reference]).score


def _value(widget) -> str:  # noqa: ANN001
    return widget.locator("[data-value]").get_attribute("data-value")


def _wait_value(page, widget_index: int, expected: float) -> None:  # noqa: ANN001
    page.wait_for_function(
        "([k, v]) => document.querySelectorAll('[data-widget]')[k].querySelector('[data-value]').dataset.value === v",
        arg=[widget_index, repr(expected)],
        timeout=30_000,
    )


# ---------------------------------------------------------------------------
# Widgets
# ---------------------------------------------------------------------------

#: A new hypothesis typed into each text widget, and the box it goes in.
TYPED = {
    "ClippingExplorer": ("hypothesis", "the cat the cat on the mat"),
    "BleuExplorer": ("hypothesis", "the cat is on a mat"),
    "SideBySideExplorer": ("hypothesis_b", "the mayor has promised to build a school"),
}


@pytest.mark.parametrize("lesson", [p for p in LESSONS if _has_widgets(p)], ids=lambda p: p.stem)
def test_every_widget_shows_the_right_number_saved_and_live(visitor: Visitor, site: Site, lesson: Path):
    page = visitor.page()
    page.goto(f"{site.url}/glossary.html")
    page.evaluate("localStorage.clear()")  # no widget values kept from another test: the saved example
    page.goto(f"{site.url}/{lesson.stem}.html")
    widgets = page.locator("[data-widget]")
    saved = []
    for k in range(widgets.count()):  # before Python has started: the build's numbers, from the saved state
        widget = widgets.nth(k)
        kind, state = widget.get_attribute("data-widget"), json.loads(widget.get_attribute("data-state"))
        if kind == "DisagreementExplorer":
            expected = _sacrebleu_segment(state["metric"], "MiSS", 92)  # the notebook's first pair (its doctest)
        else:
            expected = oracle(kind, state)
        assert float(_value(widget)) == expected, (kind, state)
        saved.append((kind, state))
    page.wait_for_function(READY, timeout=90_000)
    for k, (kind, state) in enumerate(saved):
        widget = widgets.nth(k)
        assert widget.locator(".live-status").inner_text().startswith("Live:")
        if kind in TYPED:
            box, text = TYPED[kind]
            widget.locator(f"[name='{box}']").fill(text)
            _wait_value(page, k, oracle(kind, state | {box: text}))
        elif kind == "BrevityPenaltyExplorer":
            widget.locator("[name='use_second']").check()
            widget.locator("[name='hyp_len']").fill("7")
            expected = oracle(kind, state | {"use_second": True, "hyp_len": "7"})
            _wait_value(page, k, expected)
            label = widget.locator("canvas").get_attribute("aria-label")  # the chart says what it shows
            assert "your hypothesis: c = 7, BP = " in label and "reference lengths" in label, label
            drawn = page.evaluate("() => document.querySelector('.live-chart canvas').chart.data.datasets")
            chart = brevity_penalty_chart([state["ref_len"], state["second_ref_len"]], 7, state["max_len"])
            assert [d["label"] for d in drawn] == [series.label for series in chart.series]  # Chart.js drew it all
            assert drawn[-1]["data"] == [{"x": 7, "y": chart.series[-1].points[0][1]}]  # the star, where c = 7 is
        elif kind == "TwoMetricsExplorer":
            widget.locator("[name='pair']").select_option("en-de")
            widget.locator("[name='metric_a']").select_option("chrF")
            widget.locator("[name='leave_out']").fill("4")
            _wait_value(page, k, oracle(kind, state | {"pair": "en-de", "metric_a": "chrF", "leave_out": "4"}))
            assert "the experts' 4th" in widget.locator("[data-note='leave_out']").inner_text()
            assert "pairs chrF and BLEU order differently" in widget.locator(".live-output").inner_text()
        elif kind == "DisagreementExplorer":
            widget.locator("[name='metric']").select_option("chrF")
            widget.locator("[name='system']").select_option("MiSS")
            widget.locator("[name='direction']").select_option("metric too harsh")
            page.wait_for_function("() => document.querySelector('.live-count').textContent === 'of 529 pairs'")
            widget.locator("[name='rank']").fill("600")  # past the end of MiSS's 529 pairs: its last pair, as in
            widget.locator("[name='rank']").press("Tab")  # (moved when the learner leaves the box, not while typing)
            page.wait_for_function("() => document.querySelector('[name=rank]').value === '529'")  # the notebook
            widget.locator("[name='rank']").fill("2")
            page.wait_for_timeout(300)
            shown = widget.locator(".live-output").inner_text()
            segment = int(shown.split("segment ")[1].split(":")[0])
            assert float(_value(widget)) == _sacrebleu_segment("chrF", "MiSS", segment)
    widgets.first.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"site_live_{lesson.stem[:2]}.png"))
    assert page.problems == [] and visitor.blocked == []
    page.close()


def test_bad_input_in_a_widget_shows_a_message_and_typed_html_stays_text(visitor: Visitor, site: Site):
    page = live_page(visitor, f"{site.url}/01_ngrams_and_clipping.html")
    widget = page.locator("[data-widget='ClippingExplorer']")
    widget.locator("[name='hypothesis']").fill("   ")
    page.wait_for_function("() => document.querySelector('[data-widget] [data-value]').dataset.value === ''")
    assert "The hypothesis is empty" in widget.locator(".live-headline").inner_text()  # said once, in the headline
    assert widget.locator(".live-output [role='alert']").count() == 0
    typed = "<img src=x onerror=\"document.title='hacked'\"> the cat"
    widget.locator("[name='hypothesis']").fill(typed)
    state = json.loads(widget.get_attribute("data-state"))
    _wait_value(page, 0, oracle("ClippingExplorer", state | {"hypothesis": typed}))
    assert widget.locator(".live-output img").count() == 0 and page.title() != "hacked"
    assert "<img" in widget.locator(".live-output").inner_text()  # shown as the text it is
    headline = widget.locator("[data-value]")
    widget.locator("button[data-action='add-reference']").click()
    assert widget.locator("input.reference").count() == 3
    assert page.evaluate("document.activeElement.name") == "reference-3"  # ready to type into
    page.wait_for_timeout(200)
    assert headline.get_attribute("data-value") != ""  # an empty new box is no error before anything is typed
    widget.locator("input.reference").nth(2).fill("the cat the cat on the mat")
    refs = [box.input_value() for box in widget.locator("input.reference").all()]
    _wait_value(page, 0, oracle("ClippingExplorer", state | {"hypothesis": typed, "references": refs}))
    remove = widget.locator("button[data-action='remove-reference']")
    remove.focus()
    for _ in range(2):
        page.keyboard.press("Space")
    assert remove.is_disabled() and page.evaluate("document.activeElement.dataset.action") == "add-reference"
    widget.locator("[name='hypothesis']").fill("")
    page.wait_for_function("() => document.querySelector('[data-widget] [data-value]').dataset.value === ''")
    assert "The hypothesis is empty" in headline.inner_text()  # the message is what the live region announces
    assert page.problems == [] and visitor.blocked == []
    page.close()


def test_the_reports_folded_steps_stay_open_while_typing(visitor: Visitor, site: Site):
    page = live_page(visitor, f"{site.url}/00_start_here.html")
    widget = page.locator("[data-widget='BleuExplorer']")
    box = widget.locator("[name='hypothesis']")
    box.click()
    box.press("End")
    box.type(" today")
    widget.locator(".live-output details summary").first.click()  # the first click after typing opens it
    assert widget.locator(".live-output details").first.evaluate("d => d.open")
    box.press("End")
    box.type(" again")
    state = json.loads(widget.get_attribute("data-state"))
    _wait_value(page, 0, oracle("BleuExplorer", state | {"hypothesis": box.input_value()}))
    assert widget.locator(".live-output details").first.evaluate("d => d.open")  # still open after the update
    assert page.problems == [] and visitor.blocked == []
    page.close()


# ---------------------------------------------------------------------------
# Exercises
# ---------------------------------------------------------------------------


def _answer(form, ex, answer: str) -> None:  # noqa: ANN001
    if ex.options:
        form.locator(f"input[value='{answer}']").check()
    else:
        form.locator("input[name='answer']").fill(answer)
    form.get_by_role("button", name="Check").click()


def _verdict(page, ex_id: str) -> str | None:  # noqa: ANN001
    page.wait_for_function(
        "id => { const f = document.querySelector(`[data-exercise='${id}'] .live-feedback`);"
        " return f.textContent !== '' && !f.textContent.startsWith('Python is still'); }",
        arg=ex_id,
    )
    return page.locator(f"[data-exercise='{ex_id}'] .live-feedback").get_attribute("data-verdict")


def _as_parsed(page, markup: str) -> str:  # noqa: ANN001
    """``markup`` as the browser writes it back after parsing it (entities normalised), to compare with a page's."""
    return page.evaluate(
        "h => { const t = document.createElement('template'); t.innerHTML = h; return t.innerHTML; }", markup
    )


def _wrong(ex) -> tuple[str, str]:  # noqa: ANN001
    """A wrong answer and the verdict the page must give: an option the bank names as a mistake, or a number."""
    named = [o for o in ex.options if o.misconception]
    if named:
        return named[0].letter, "misconception"
    return "12345", "wrong"


def test_answers_are_kept_in_the_browser_and_the_index_shows_progress(visitor: Visitor, site: Site):
    page = live_page(visitor, f"{site.url}/03_brevity_penalty.html")
    ex = exercises("03")[1]
    form = page.locator(f"[data-exercise='{ex.id}']")
    _answer(form, ex, _wrong(ex)[0])
    assert _verdict(page, ex.id) == "misconception"
    _answer(form, ex, ex.answer)
    page.wait_for_function(
        "id => document.querySelector(`[data-exercise='${id}'] .live-feedback`).dataset.verdict === 'correct'",
        arg=ex.id,
    )
    _answer(form, ex, _wrong(ex)[0])  # trying a wrong option afterwards does not undo the progress
    page.wait_for_function(
        "id => document.querySelector(`[data-exercise='${id}'] .live-feedback`).dataset.verdict === 'misconception'",
        arg=ex.id,
    )
    page.reload()  # the last answer and its feedback come back
    page.wait_for_function(READY, timeout=90_000)
    assert page.locator(f"[data-exercise='{ex.id}'] input[value='{_wrong(ex)[0]}']").is_checked()
    assert _verdict(page, ex.id) == "misconception"
    page.goto(f"{site.url}/index.html")
    progress = page.locator("li[data-lesson='03'] .progress")
    assert progress.is_visible() and f"1 of {len(exercises('03'))} right" in progress.inner_text()
    assert page.locator("li[data-lesson='01'] .progress").is_hidden()
    assert page.locator("#progress-summary").inner_text() == f"1 of {len(exercises())} exercises right"
    page.get_by_role("button", name="Clear my answers").click()  # it asks first
    assert page.evaluate("document.activeElement.id") == "clear-confirm" and progress.is_visible()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # "Keep them"
    assert "Nothing was cleared" in page.locator("#progress-status").inner_text() and progress.is_visible()
    assert page.evaluate("document.activeElement.id") == "clear-progress"
    page.evaluate("localStorage.setItem('bleu-teach-widgets', '{}')")  # as a widget's kept values would be
    page.get_by_role("button", name="Clear my answers").click()
    page.get_by_role("button", name="Yes, clear them").click()
    assert progress.is_hidden() and page.evaluate("localStorage.getItem('bleu-teach-answers')") is None
    assert page.evaluate("localStorage.getItem('bleu-teach-widgets')") is None
    assert "cleared" in page.locator("#progress-status").inner_text()
    assert page.locator("#progress-summary").inner_text() == "no answers yet"
    assert page.evaluate("document.activeElement.id") == "clear-undo"  # the focus goes to Undo
    page.keyboard.press("Enter")
    assert (
        progress.is_visible()
        and page.locator("#progress-summary").inner_text() == f"1 of {len(exercises())} exercises right"
    )
    assert "back" in page.locator("#progress-status").inner_text() and page.locator("#clear-undo").is_hidden()
    assert page.evaluate("localStorage.getItem('bleu-teach-widgets')") == "{}"
    page.get_by_role("button", name="Clear my answers").click()
    page.get_by_role("button", name="Yes, clear them").click()
    assert progress.is_hidden() and page.locator("#progress-summary").inner_text() == "no answers yet"
    assert page.problems == [] and visitor.blocked == []
    page.close()


# ---------------------------------------------------------------------------
# Keyboard, and speed
# ---------------------------------------------------------------------------

FOCUS = """() => { const e = document.activeElement; const s = getComputedStyle(e);
    return {name: e.name || e.tagName, outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2}; }"""


def test_widgets_and_exercises_work_from_the_keyboard(visitor: Visitor, site: Site):
    page = live_page(visitor, f"{site.url}/03_brevity_penalty.html")
    widget = page.locator("[data-widget]")
    state = json.loads(widget.get_attribute("data-state"))
    widget.locator("[name='hyp_len']").focus()
    assert page.evaluate(FOCUS)["outline"]
    page.keyboard.press("ArrowRight")  # one token longer, from the keyboard
    _wait_value(page, 0, oracle("BrevityPenaltyExplorer", state | {"hyp_len": str(int(state["hyp_len"]) + 1)}))
    ex = exercises("03")[1]  # a choice: arrows move through the options, Tab reaches Check, Enter checks
    form = page.locator(f"[data-exercise='{ex.id}']")
    form.locator("input[type='radio']").first.focus()
    page.keyboard.press("Space")
    seen = [page.evaluate(FOCUS)]
    letters = [o.letter for o in ex.options]
    for _ in range(letters.index(ex.answer)):
        page.keyboard.press("ArrowDown")
        seen.append(page.evaluate(FOCUS))
    page.keyboard.press("Tab")
    seen.append(page.evaluate(FOCUS))
    assert seen[-1]["name"] == "BUTTON" and all(f["outline"] for f in seen), seen
    page.keyboard.press("Enter")
    assert _verdict(page, ex.id) == "correct"
    assert page.problems == [] and visitor.blocked == []
    page.close()


#: Type into a widget's box and wait for its number to change: milliseconds, per input.
WIDGET_LATENCY = """async ([name, texts]) => {
    const form = document.querySelector('[data-widget]');
    const box = form.querySelector(`[name='${name}']`);
    const headline = form.querySelector('[data-value]');
    const times = [];
    for (const text of texts) {
        const changed = new Promise(resolve => new MutationObserver((_, o) => { o.disconnect(); resolve(); })
            .observe(headline, {attributes: true, attributeFilter: ['data-value']}));
        const started = performance.now();
        box.value = text;
        box.dispatchEvent(new Event('input', {bubbles: true}));
        await changed;
        times.push(performance.now() - started);
    }
    return times;
}"""
#: Press Check and wait for the feedback: milliseconds, per answer.
CHECK_LATENCY = """async ([id, answers]) => {
    const form = document.querySelector(`[data-exercise='${id}']`);
    const feedback = form.querySelector('.live-feedback');
    const times = [];
    for (const answer of answers) {
        form.querySelector("[name='answer']").value = answer;
        const shown = new Promise(resolve => new MutationObserver((_, o) => { o.disconnect(); resolve(); })
            .observe(feedback, {childList: true, subtree: true}));
        const started = performance.now();
        form.querySelector('button').click();
        await shown;
        times.push(performance.now() - started);
    }
    return times;
}"""


def test_the_live_pages_are_fast_and_pages_without_python_load_none(visitor: Visitor, site: Site):
    page = visitor.page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{site.url}/00_start_here.html")
    page.wait_for_function(READY, timeout=90_000)
    paint = page.evaluate("() => performance.getEntriesByName('first-contentful-paint')[0].startTime")
    loaded = page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
    ready = float(page.evaluate("() => document.documentElement.dataset.pythonReadyMs"))
    words = "the cat sat on the mat and the dog sat on the log".split()
    typed = [" ".join(words[: k + 2]) for k in range(len(words) - 1)]
    widget_ms = page.evaluate(WIDGET_LATENCY, ["hypothesis", typed])
    exercise = next(ex for ex in exercises() if ex.kind == "bleu")
    page.goto(f"{site.url}/{next(p.stem for p in LESSONS if p.name[:2] == exercise.lesson)}.html")
    page.wait_for_function(READY, timeout=90_000)
    check_ms = page.evaluate(CHECK_LATENCY, [exercise.id, ["0.5", "1/3", "0.25", exercise.answer_text, "2"] * 2])
    SITE_TIMINGS["lesson page: first contentful paint"] = f"{paint:.0f} ms"
    SITE_TIMINGS["lesson page (Python already running for an earlier page): live after navigation"] = (
        f"{ready:.0f} ms (its load event at {loaded:.0f} ms)"
    )
    SITE_TIMINGS["widget: input to its updated number (median of 11)"] = (
        f"{statistics.median(widget_ms):.1f} ms (max {max(widget_ms):.1f})"
    )
    SITE_TIMINGS["exercise: Check to its feedback (median of 10)"] = (
        f"{statistics.median(check_ms):.1f} ms (max {max(check_ms):.1f})"
    )
    assert statistics.median(widget_ms) <= 150, widget_ms
    assert statistics.median(check_ms) <= 200, check_ms
    for name in ("index.html", "glossary.html"):  # no Python where nothing is live
        requests.clear()
        page.goto(f"{site.url}/{name}")
        page.wait_for_load_state("load")
        page.wait_for_timeout(500)
        assert not [url for url in requests if "pyodide" in url or url.endswith(".zip")], requests
    assert page.problems == [] and visitor.blocked == []
    page.close()


# ---------------------------------------------------------------------------
# Python off the main thread, started once for the site's pages
# ---------------------------------------------------------------------------

#: Every main-thread task over 50 ms, from the page's first moment (Chromium's Long Tasks API).
LONG_TASKS = """
window.longTasks = [];
new PerformanceObserver((found) => {
  for (const task of found.getEntries()) window.longTasks.push([task.startTime, task.duration]);
}).observe({ type: "longtask", buffered: true });
"""

#: Type into a box while Python starts; resolve to how long the page took to show that it took the change.
TYPE_WHILE_STARTING = """async ([name, text]) => {
  const box = document.querySelector(`form[data-widget] [name="${name}"]`);
  const headline = box.form.querySelector(".live-headline");
  const starting = document.documentElement.dataset.pythonReady === undefined;
  const before = performance.now();
  box.value = text;
  box.dispatchEvent(new Event("input", { bubbles: true }));
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  return { starting, ms: performance.now() - before, headline: headline.textContent };
}"""


def _fresh_visitor(browser, site: Site, script: str = "") -> Visitor:  # noqa: ANN001
    """A new browser context (nothing cached, no Python running), only the site's requests let through."""
    found = only_to(browser, site.url, 90_000, viewport={"width": 1280, "height": 900})
    found.context.add_init_script(LONG_TASKS + script)
    return found


def _longest(page, start: float, end: float) -> float:  # noqa: ANN001
    """The longest main-thread task that overlaps [start, end] (ms since the page's navigation); 0 if none."""
    tasks = page.evaluate("() => window.longTasks")
    return max((duration for at, duration in tasks if at < end and at + duration > start), default=0.0)


def test_python_starts_off_the_main_thread_and_the_next_page_finds_it_started(browser, site: Site):  # noqa: ANN001
    visitor = _fresh_visitor(browser, site)
    page = visitor.page()
    typed = "the cat is on a mat"
    page.goto(f"{site.url}/04_the_bleu_score.html", wait_until="domcontentloaded")
    page.wait_for_function("() => document.documentElement.dataset.pythonStep !== undefined")
    answered = page.evaluate(TYPE_WHILE_STARTING, ["hypothesis", typed])
    assert answered["starting"], "Python had already started: this measures nothing"
    assert answered["headline"].startswith("Your change is scored as soon as Python has started"), answered
    # The page takes the change while Python starts: in at most 200 ms on a quiet machine, which
    # benchmarks/bench_pages.py checks; under the test run's load it must at least never freeze for a second.
    assert answered["ms"] < 1000, answered
    status = page.locator(".live-status").first.inner_text()
    assert "Starting Python in your browser (step" in status, status
    page.wait_for_function(READY, timeout=90_000)
    widget = page.locator("[data-widget]").first
    state = json.loads(widget.get_attribute("data-state"))
    assert float(_value(widget)) == oracle("BleuExplorer", state | {"hypothesis": typed})  # the change, queued
    started, ready, live = (
        float(page.evaluate(f"() => document.documentElement.dataset.{name}"))
        for name in ("pythonStartMs", "pythonReadyMs", "pythonCheckedMs")
    )
    while_starting = _longest(page, started, ready)
    until_live = _longest(page, 0, live)

    fetched: list[str] = []  # what the next lessons download: nothing of Python's, which is already running
    visitor.context.on("request", lambda request: fetched.append(request.url))  # the workers' too
    page.goto(f"{site.url}/03_brevity_penalty.html")  # the next lesson: the same Python, already running
    page.wait_for_function(READY, timeout=90_000)
    second = float(page.evaluate("() => document.documentElement.dataset.pythonCheckedMs"))
    page.goto(f"{site.url}/index.html")  # a page with nothing live between two lessons
    page.goto(f"{site.url}/01_ngrams_and_clipping.html")
    page.wait_for_function(READY, timeout=90_000)
    third = float(page.evaluate("() => document.documentElement.dataset.pythonCheckedMs"))

    SITE_TIMINGS["first lesson page: a change typed while Python starts, shown as taken"] = f"{answered['ms']:.0f} ms"
    SITE_TIMINGS["first lesson page (nothing cached): live after"] = f"{live:.0f} ms"
    SITE_TIMINGS["first lesson page: longest main-thread task while Python starts"] = f"{while_starting:.0f} ms"
    SITE_TIMINGS["first lesson page: longest main-thread task from navigation to live"] = f"{until_live:.0f} ms"
    SITE_TIMINGS["second lesson page: live after"] = f"{second:.0f} ms"
    SITE_TIMINGS["a lesson after a page without Python: live after"] = f"{third:.0f} ms"
    # The targets (at most 200 ms, the next lesson under 1 s) hold on a quiet machine: benchmarks/bench_pages.py
    # (make benchmark) measures and checks them. Under the test run's load the page must still never freeze for a
    # second (before the worker, one task of 1.8 to 5 s), and the next lessons must reuse the running Python.
    assert while_starting < 1000, while_starting
    assert not [url for url in fetched if "pyodide" in url or url.endswith((".whl", ".zip"))], fetched
    assert second < live / 2 and third < live / 2, (live, second, third)
    assert page.problems == [] and visitor.blocked == []
    visitor.context.close()


def test_a_browser_without_shared_workers_starts_python_in_a_worker_of_its_own(browser, site: Site):  # noqa: ANN001
    visitor = _fresh_visitor(browser, site, "delete window.SharedWorker;")
    page = visitor.page()
    page.goto(f"{site.url}/03_brevity_penalty.html")
    page.wait_for_function(READY, timeout=90_000)
    assert page.evaluate("() => typeof SharedWorker") == "undefined"
    widget = page.locator("[data-widget]").first
    state = json.loads(widget.get_attribute("data-state"))
    widget.locator("[name='use_second']").check()
    _wait_value(page, 0, oracle("BrevityPenaltyExplorer", state | {"use_second": True}))
    started, ready = (
        float(page.evaluate(f"() => document.documentElement.dataset.{name}"))
        for name in ("pythonStartMs", "pythonReadyMs")
    )
    assert _longest(page, started, ready) < 1000, page.evaluate("() => window.longTasks")  # no freeze
    assert page.problems == [] and visitor.blocked == []
    visitor.context.close()


class _CountingHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site and counts what reaches it (the server's view: a request answered by the browser's
    cache never arrives)."""

    served: list[str]

    def do_GET(self) -> None:  # noqa: N802
        self.served.append(self.path)
        super().do_GET()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def _python_files(paths: list[str]) -> list[str]:
    return [p for p in paths if "/vendor/pyodide/" in p or p.split("?")[0].endswith((".whl", ".zip"))]


def test_without_shared_workers_the_next_page_starts_python_from_files_kept_in_the_browser(browser, site: Site):  # noqa: ANN001
    served: list[str] = []
    handler = functools.partial(type("Counting", (_CountingHandler,), {"served": served}), directory=str(site.root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    visitor = only_to(browser, url, 90_000, viewport={"width": 1280, "height": 900})
    visitor.context.add_init_script("delete window.SharedWorker;")
    try:
        page = visitor.page()
        page.goto(f"{url}/04_the_bleu_score.html")
        page.wait_for_function(READY, timeout=90_000)
        first = _python_files(served)
        assert any(p.endswith("pyodide.asm.wasm") for p in first) and any(p.endswith(".whl") for p in first), first
        build = page.evaluate("() => document.querySelector('meta[name=bleu-teach-python]').dataset.build")
        controller = page.evaluate("() => navigator.serviceWorker.controller?.scriptURL ?? ''")
        assert build and controller == f"{url}/python_cache.js?build={build}", (build, controller)

        served.clear()
        page.goto(f"{url}/03_brevity_penalty.html")  # a Python of its own, started from the kept files
        page.wait_for_function(READY, timeout=90_000)
        assert page.evaluate("() => typeof SharedWorker") == "undefined"
        assert served and _python_files(served) == [], served  # the page was served; Python's files were not
        widget = page.locator("[data-widget]").first
        state = json.loads(widget.get_attribute("data-state"))
        widget.locator("[name='use_second']").check()
        _wait_value(page, 0, oracle("BrevityPenaltyExplorer", state | {"use_second": True}))
        second = float(page.evaluate("() => document.documentElement.dataset.pythonCheckedMs"))
        SITE_TIMINGS["without SharedWorker: the next lesson, its own Python from the kept files, live after"] = (
            f"{second:.0f} ms"
        )
        assert page.problems == [] and visitor.blocked == []
    finally:
        visitor.context.close()
        server.shutdown()
        server.server_close()


#: Whether each widget said it waits for Python when the page's scripts had run (before Python can answer).
WAITING_AT_START = """document.addEventListener("DOMContentLoaded", () => {
  window.waitingAtStart = [...document.querySelectorAll("form[data-widget]")]
    .map((form) => form.dataset.waiting ?? null);
});"""


def test_a_widgets_values_survive_a_reload_and_the_explorer_link_carries_them(visitor: Visitor, site: Site):
    page = live_page(visitor, f"{site.url}/01_ngrams_and_clipping.html")
    widget = page.locator("[data-widget]").first
    state = json.loads(widget.get_attribute("data-state"))
    saved_value = float(_value(widget))
    typed = "the cat the cat on the mat"
    widget.locator("[name='hypothesis']").fill(typed)
    expected = oracle("ClippingExplorer", state | {"hypothesis": typed})
    _wait_value(page, 0, expected)
    link = page.locator("a.live-explorer-link").first.get_attribute("href")  # the learner's sentence, not the saved
    assert (
        parse_qs(urlsplit(link).query)["hyp"] == [typed]
        and parse_qs(urlsplit(link).query)["ref"] == state["references"]
    ), link

    page.add_init_script(WAITING_AT_START)
    page.reload()  # before Python answers: the learner's values, marked as waiting for their number
    widget = page.locator("[data-widget]").first
    assert widget.locator("[name='hypothesis']").input_value() == typed
    page.wait_for_function(READY, timeout=90_000)
    assert page.evaluate("() => window.waitingAtStart") == ["1"]
    assert float(_value(widget)) == expected and widget.get_attribute("data-waiting") is None

    page.locator("a.live-explorer-link").first.click()  # the explorer opens the learner's example
    page.wait_for_function(READY, timeout=90_000)
    assert page.locator("[name='hypothesis']").input_value() == typed

    page.go_back()
    page.wait_for_function(READY, timeout=90_000)
    widget = page.locator("[data-widget]").first
    widget.get_by_role("button", name="Back to the example").click()
    _wait_value(page, 0, saved_value)
    assert widget.locator("[name='hypothesis']").input_value() == state["hypothesis"]
    page.reload()  # forgotten: the saved example again, nothing waiting
    widget = page.locator("[data-widget]").first
    assert widget.locator("[name='hypothesis']").input_value() == state["hypothesis"]
    page.wait_for_function(READY, timeout=90_000)
    assert page.evaluate("() => window.waitingAtStart") == [None]
    assert page.problems == [] and visitor.blocked == []
    page.close()
