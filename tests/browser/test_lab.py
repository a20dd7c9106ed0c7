"""The lessons in a real JupyterLab: every notebook opens with every saved widget drawn, and each explorer,
run from the cells that make it, responds with bleu_teach's numbers.  Fixtures and the server start are in
conftest.py."""

from __future__ import annotations

import ast
import builtins
import json
import statistics
import time
from pathlib import Path

import nbformat
import pytest

import bleu_teach as bt
from bleu_teach.bleu.explain import compare_hypotheses
from bleu_teach.exercises import exercises
from bleu_teach.views.formatting import format_number
from tests.browser.conftest import ARTIFACTS, PROJECT, TIMINGS, Lab

NOTEBOOKS = sorted(p.name for p in (PROJECT / "notebooks").glob("*.ipynb"))
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
CURRENT = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook"


def widget_outputs(name: str) -> int:
    """How many widget views the stored notebook shows (each must render in the browser)."""
    nb = nbformat.read(PROJECT / "notebooks" / name, as_version=4)
    return sum(
        WIDGET_MIME in out.get("data", {}) for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
    )


def menu(page, top: str, item: str) -> None:  # noqa: ANN001
    page.get_by_role("menuitem", name=top, exact=True).click()
    page.get_by_role("menuitem", name=item, exact=True).click()


def open_lesson(page, lab: Lab, name: str) -> None:  # noqa: ANN001
    """Open a lesson as it is stored (outputs and saved widget state) and wait for its kernel."""
    page.goto(f"{lab.url}/lab/tree/{name}?reset&token={lab.token}")  # reset: no tabs from earlier tests
    page.wait_for_selector("#jp-main-statusbar >> text=Idle")
    TIMINGS.setdefault("server start to lesson open with its kernel idle", f"{time.perf_counter() - lab.started:.1f} s")


def cells_for(name: str, code: str) -> list[int]:
    """The code cells that make the explorer in the cell holding ``code``: that cell, and before it the last cells
    that define each name it uses, and theirs in turn (imports included); their indexes in the notebook."""
    cells = nbformat.read(PROJECT / "notebooks" / name, as_version=4).cells
    sources = {k: cell.source for k, cell in enumerate(cells) if cell.cell_type == "code"}
    target = next(k for k, source in sources.items() if code in source)

    def defined(tree: ast.Module) -> set[str]:
        names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)}
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
        return names

    trees = {k: ast.parse(source) for k, source in sources.items()}
    needed, todo = {target}, [target]
    while todo:
        k = todo.pop()
        used = {node.id for node in ast.walk(trees[k]) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
        for used_name in sorted(used - defined(trees[k]) - set(dir(builtins))):
            maker = max((j for j in sources if j < k and used_name in defined(trees[j])), default=None)
            assert maker is not None, f"{name}: nothing before cell {k} defines {used_name}"
            if maker not in needed:
                needed.add(maker)
                todo.append(maker)
    return sorted(needed)


def run_explorer(page, lab: Lab, name: str, code: str):  # noqa: ANN001, ANN201
    """Open a lesson, clear its outputs and run only the cells that make the explorer in the cell holding ``code``
    (the lessons themselves run whole under nbval); return that explorer's output area."""
    open_lesson(page, lab, name)
    menu(page, "Edit", "Clear Outputs of All Cells")
    page.wait_for_function(f"() => !document.querySelector('{CURRENT} .jp-OutputArea-output')")
    cells = page.locator(f"{CURRENT} .jp-Cell")
    for k in cells_for(name, code):
        cells.nth(k).locator(".jp-InputPrompt").click()
        page.keyboard.press("Control+Enter")
        page.wait_for_function(
            "k => /\\[\\d+\\]/.test(document.querySelectorAll("
            f"'{CURRENT} .jp-Cell')[k].querySelector('.jp-InputPrompt').textContent)",
            arg=k,
            timeout=120_000,
        )
    page.wait_for_selector("#jp-main-statusbar >> text=Idle")
    return explorer(page, code)


def explorer(page, code: str):  # noqa: ANN001, ANN201
    """The output area of the code cell whose source contains ``code``."""
    return page.locator(f"{CURRENT} .jp-CodeCell").filter(has_text=code).locator(".jp-OutputArea").first


def expect_text(locator, text: str) -> None:  # noqa: ANN001
    """Wait until ``locator``'s text contains ``text`` (the kernel answers asynchronously)."""
    from playwright.sync_api import expect

    expect(locator).to_contain_text(text, timeout=15_000)


def set_readout(area, label: str, value: int) -> None:  # noqa: ANN001
    from playwright.sync_api import expect

    readout = area.locator(".widget-slider").filter(has_text=label).locator(".widget-readout")
    expect(readout).to_have_attribute(
        "contenteditable", "true", timeout=15_000
    )  # enabled by the kernel (a second reference)
    readout.click()
    readout.press("Control+A")
    readout.type(str(value))
    readout.press("Enter")


# --- every lesson ---------------------------------------------------------------------------


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_lesson_opens_and_every_saved_widget_renders(lab: Lab, page, name: str):  # noqa: ANN001
    """Each lesson as a learner opens it: its stored outputs and every widget, drawn from the saved widget state.

    The lessons run whole under nbval (strict, against these stored outputs); here each explorer runs live in
    its own test, from the cells that make it.
    """
    open_lesson(page, lab, name)
    expected_widgets = widget_outputs(name)
    if expected_widgets:
        page.wait_for_selector(f"{CURRENT} .jupyter-widgets")
        TIMINGS.setdefault(
            "server start to first widget rendered",
            f"{time.perf_counter() - lab.started:.1f} s (first lesson run: {name})",
        )
    assert page.locator(".jp-NotebookPanel").count() == 1
    notebook = page.locator(CURRENT)
    assert notebook.locator('[data-mime-type="application/vnd.jupyter.stderr"]').count() == 0
    assert notebook.locator(".jp-OutputArea-output.jp-mod-error, .jp-RenderedText[data-mime-type*=error]").count() == 0
    assert page.get_by_text("Loading widget...").count() == 0
    assert page.get_by_text("Error displaying widget").count() == 0
    rendered = notebook.locator(".jp-OutputArea-output > .jupyter-widgets")  # one root view per widget output
    assert rendered.count() == expected_widgets
    for k in range(expected_widgets):
        assert rendered.nth(k).is_visible()
    assert page.problems == []  # type: ignore[attr-defined]
    for ex in exercises(name[:2]) if name[:2].isdigit() else ():  # per-question anchors survive JupyterLab's
        # sanitizer (as id, or as data-jupyter-id, which its link handling follows)
        anchor = notebook.locator(f"[id='{ex.anchor}'], [data-jupyter-id='{ex.anchor}']")
        assert anchor.count() == 1, ex.anchor
    if expected_widgets:  # the notebook scrolls inside the page: show the first widget
        rendered.first.evaluate("e => e.scrollIntoView({block: 'start'})")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{Path(name).stem}.png"))


# --- the explorers respond with bleu_teach's numbers -----------------------------------------


def bleu_line(refs: list[str], hyp: str, n: int = 2, smoothing: str = "method0", tokenizer: str = "whitespace") -> str:
    tok = [bt.tokenize(r, tokenizer) for r in refs]
    report = bt.explain(tok, bt.tokenize(hyp, tokenizer), weights=(1 / n,) * n, smoothing=smoothing)
    return f"BLEU = {format_number(report.score)}"


def test_bleu_explorer_follows_every_control(lab: Lab, page):  # noqa: ANN001
    area = run_explorer(page, lab, "04_the_bleu_score.ipynb", "explorer = BleuExplorer(")
    score = area.locator(".bleu-teach .score")
    refs = ["the cat is on the mat", "there is a cat on the mat"]
    expect_text(score, bleu_line(refs, "the cat sat on the mat"))

    hyp = area.locator(".widget-textarea").filter(has_text="Hypothesis").locator("textarea")
    hyp.fill("there is a cat on a mat")
    expect_text(score, bleu_line(refs, "there is a cat on a mat"))

    area.locator(".widget-text").filter(has_text="Reference 1").locator("input").fill("a cat is on a mat")
    refs = ["a cat is on a mat", "there is a cat on the mat"]
    expect_text(score, bleu_line(refs, "there is a cat on a mat"))

    area.get_by_role("button", name="Add reference").click()
    area.locator(".widget-text").filter(has_text="Reference 3").locator("input").fill("there is a cat on a mat")
    expect_text(score, bleu_line(refs + ["there is a cat on a mat"], "there is a cat on a mat"))
    area.get_by_role("button", name="Remove last").click()
    expect_text(score, bleu_line(refs, "there is a cat on a mat"))

    set_readout(area, "Max n", 4)
    expect_text(score, bleu_line(refs, "there is a cat on a mat", n=4))
    area.locator(".widget-dropdown").filter(has_text="Smoothing").locator("select").select_option(index=1)
    expect_text(score, bleu_line(refs, "there is a cat on a mat", n=4, smoothing="method1"))

    hyp.fill("There is a cat on a mat.")
    area.locator(".widget-dropdown").filter(has_text="Tokenizer").locator("select").select_option(label="13a")
    expect_text(score, bleu_line(refs, "There is a cat on a mat.", n=4, smoothing="method1", tokenizer="13a"))

    # Keystroke to updated score, timed inside the page: from keydown to the output's change.
    hyp.fill("there is a cat on a mat")
    expect_text(score, bleu_line(refs, "there is a cat on a mat", n=4, smoothing="method1", tokenizer="13a"))
    page.evaluate("""() => {
        const area = [...document.querySelectorAll('.jp-CodeCell')]
            .find(c => c.textContent.includes('explorer = BleuExplorer('));
        const box = area.querySelector('.widget-textarea textarea');
        const out = area.querySelector('.bleu-teach').parentElement;
        window.__latencies = []; window.__t0 = null;
        box.addEventListener('keydown', () => { window.__t0 = performance.now(); }, true);
        new MutationObserver(() => {
            if (window.__t0 !== null) { window.__latencies.push(performance.now() - window.__t0); window.__t0 = null; }
        }).observe(out, {subtree: true, childList: true, characterData: true});
    }""")
    text = "there is a cat on a mat "
    hyp.fill(text)
    expect_text(score, bleu_line(refs, text, n=4, smoothing="method1", tokenizer="13a"))
    for count, letter in enumerate("yesterday", start=1):  # each keystroke changes the last token, so the report
        hyp.press(letter)
        text += letter
        page.wait_for_function(f"window.__latencies.length >= {count}")
    expect_text(score, bleu_line(refs, text, n=4, smoothing="method1", tokenizer="13a"))
    latencies = page.evaluate("window.__latencies")
    assert len(latencies) == len("yesterday")
    TIMINGS["keystroke to updated score (BleuExplorer)"] = (
        f"median {statistics.median(latencies):.0f} ms, max {max(latencies):.0f} ms over {len(latencies)} keystrokes"
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    area.evaluate("e => e.closest('.jp-CodeCell').scrollIntoView({block: 'start'})")
    page.screenshot(path=str(ARTIFACTS / "bleu_explorer.png"))


def test_typed_markup_is_shown_as_text_and_runs_nothing(lab: Lab, page):  # noqa: ANN001
    area = run_explorer(page, lab, "04_the_bleu_score.ipynb", "explorer = BleuExplorer(")
    payload = '<img src=x onerror="window.__xss=1"> <script>window.__xss=2</script>'
    area.locator(".widget-textarea").filter(has_text="Hypothesis").locator("textarea").fill(payload)
    area.locator(".widget-text").filter(has_text="Reference 1").locator("input").fill(
        '<b onmouseover="window.__xss=3">x</b>'
    )
    output = area.locator(".bleu-teach").first
    expect_text(output, '<img src=x onerror="window.__xss=1">')
    expect_text(output, "<script>window.__xss=2</script>")
    output.hover()
    assert page.evaluate("window.__xss") is None
    assert area.locator(".bleu-teach img, .bleu-teach script, .bleu-teach b[onmouseover]").count() == 0


def test_clipping_explorer(lab: Lab, page):  # noqa: ANN001
    area = run_explorer(page, lab, "01_ngrams_and_clipping.ipynb", "clipping = ClippingExplorer(")
    score = area.locator(".bleu-teach .score")
    refs = [bt.tokenize("the cat is on the mat"), bt.tokenize("there is a cat on the mat")]

    def p_n(hyp: str, n: int, refs=refs) -> str:  # noqa: ANN001
        p = bt.modified_precision(refs, bt.tokenize(hyp), n)
        return f"p{n} = {p.numerator}/{p.denominator}"

    expect_text(score, p_n("the the the the the the the", 1))
    area.locator(".widget-text").filter(has_text="Hypothesis").locator("input").fill("the cat the cat on the mat")
    expect_text(score, p_n("the cat the cat on the mat", 1))
    set_readout(area, "n-gram order", 2)
    expect_text(score, p_n("the cat the cat on the mat", 2))
    area.get_by_role("button", name="Remove last").click()
    expect_text(score, p_n("the cat the cat on the mat", 2, refs[:1]))
    area.locator(".widget-text").filter(has_text="Hypothesis").locator("input").fill("   ")
    expect_text(area, "The hypothesis is empty")


def test_brevity_penalty_explorer(lab: Lab, page):  # noqa: ANN001
    area = run_explorer(page, lab, "03_brevity_penalty.ipynb", "bp_explorer = BrevityPenaltyExplorer(")
    expect_text(area, f"{float(bt.brevity_penalty(6, 4)):.4f}")
    set_readout(area, "Hypothesis length", 5)
    expect_text(area, f"{float(bt.brevity_penalty(6, 5)):.4f}")
    area.locator(".widget-checkbox").filter(has_text="Use a second reference").locator("input").check()
    set_readout(area, "Reference 2 length", 5)
    expect_text(area, "closest reference length r = 5")
    expect_text(area, f"{float(bt.brevity_penalty(5, 5)):.4f}")


def test_practice_widget_asks_another_one_names_a_mistake_and_marks_three_right_mastered(lab: Lab, page):  # noqa: ANN001
    import math
    import re

    area = run_explorer(page, lab, "03_brevity_penalty.ipynb", 'Practice("03.1")')

    def bp_of_shown(longest: bool = False) -> str:  # the formula by hand, from the question the widget shows
        found = re.search(r"References of ([\d, and]+) tokens; a hypothesis of (\d+) tokens", area.inner_text())
        assert found, area.inner_text()
        lengths, c = [int(x) for x in re.findall(r"\d+", found.group(1))], int(found.group(2))
        r = max(lengths) if longest else min(lengths, key=lambda x: (abs(x - c), x))
        return f"{(1.0 if c > r else math.exp(1 - r / c)):.3f}"

    box = area.locator(".widget-text input")
    expect_text(area, "Practice 1, like question 1")
    box.fill(bp_of_shown(longest=True))
    area.get_by_role("button", name="Check").click()
    expect_text(area, "longest")
    for number in (2, 3, 4):
        area.get_by_role("button", name="Another one").click()
        expect_text(area, f"Practice {number}, like question 1")
        box.fill(bp_of_shown())
        if number == 3:
            box.press("Enter")  # Enter in the box checks, as on the page
        else:
            area.get_by_role("button", name="Check").click()
        expect_text(area, "Correct")
    expect_text(area, "The brevity penalty: mastered (3 right in a row)")


def test_side_by_side_explorer(lab: Lab, page):  # noqa: ANN001
    area = run_explorer(page, lab, "05_limitations.ipynb", "duel = SideBySideExplorer(")
    verdict = area.locator(".bleu-teach .score")

    def box(label: str):  # noqa: ANN202
        return area.locator(".widget-textarea").filter(has_text=label).locator("textarea")

    # Start from whatever the lesson sets up, read from the page itself.
    hyp_a = box("Hypothesis A").input_value()
    hyp_b = box("Hypothesis B").input_value()
    refs = [
        field.input_value()
        for field in area.locator(".widget-text").filter(has_text="Reference").locator("input").all()
    ]
    assert hyp_a and hyp_b and refs

    def line(a: str, b: str, refs: list[str], n: int = 4) -> str:
        duel = compare_hypotheses(
            [bt.tokenize(r) for r in refs], bt.tokenize(a), bt.tokenize(b), weights=(1 / n,) * n, smoothing="method1"
        )
        return duel.to_text().splitlines()[-1]

    expect_text(verdict, line(hyp_a, hyp_b, refs))
    box("Hypothesis A").fill("the cat is chasing the dog")
    box("Hypothesis B").fill("the dog is chasing a cat")
    area.locator(".widget-text").filter(has_text="Reference 1").locator("input").fill("the dog is chasing the cat")
    refs = ["the dog is chasing the cat"] + refs[1:]
    expect_text(verdict, line("the cat is chasing the dog", "the dog is chasing a cat", refs))
    area.get_by_role("button", name="Add reference").click()
    area.locator(".widget-text").filter(has_text=f"Reference {len(refs) + 1}").locator("input").fill(
        "the cat is chasing the dog"
    )
    refs = refs + ["the cat is chasing the dog"]
    expect_text(verdict, line("the cat is chasing the dog", "the dog is chasing a cat", refs))
    set_readout(area, "Max n", 2)
    expect_text(verdict, line("the cat is chasing the dog", "the dog is chasing a cat", refs, n=2))


def test_disagreement_explorer(lab: Lab, page, wmt21_segment_table):  # noqa: ANN001
    """Lesson 08's explorer: every control changes the segment shown to the one bleu_teach ranks there."""
    from bleu_teach.lessons.disagreement import disagreements

    table = wmt21_segment_table("zh-en")  # segment_level(wmt21_ted("zh-en")), made once per run (tests/conftest.py)
    ranked = {metric: disagreements(table, metric) for metric in ("BLEU", "chrF")}
    area = run_explorer(page, lab, "08_bleu_and_people.ipynb", "DisagreementExplorer(ted, segments)")
    expect_text(area, ranked["BLEU"][0].to_text())
    area.get_by_role("button", name="metric too harsh").click()
    expect_text(area, ranked["BLEU"][-1].to_text())
    area.get_by_label("Metric").select_option("chrF")
    expect_text(area, ranked["chrF"][-1].to_text())
    area.get_by_label("System").select_option("Online-W")
    online = [d for d in ranked["chrF"] if d.system == "Online-W"][::-1]
    expect_text(area, online[0].to_text())
    rank = area.get_by_label("Rank")
    rank.fill("3")
    rank.press("Enter")
    expect_text(area, online[2].to_text())
    assert area.locator(".bleu-teach .score[data-mqm]").count() == 1  # the segment's MQM score, shown once
    assert page.problems == []  # type: ignore[attr-defined]


# --- the server (after the lessons, so that the first lesson measures a cold start) ----------------------------------


def test_server_refuses_requests_without_the_token(lab: Lab):
    assert lab.api("/api/contents", token=False) == 403
    assert lab.api("/api/sessions", token=False) == 403
    assert lab.api("/api/contents") == 200
    assert lab.url.startswith("http://127.0.0.1:")


def test_project_settings_switch_off_news_and_update_popups(lab: Lab, page):  # noqa: ANN001
    import urllib.request

    def defaults(plugin: str) -> dict:
        # The project's overrides.json replaces the schema defaults the server hands to the page.
        url = f"{lab.url}/lab/api/settings/{plugin}?token={lab.token}"
        with urllib.request.urlopen(url) as response:
            return {k: v.get("default") for k, v in json.load(response)["schema"]["properties"].items()}

    notification = defaults("@jupyterlab/apputils-extension:notification")
    assert notification["fetchNews"] == "false" and notification["checkForUpdates"] is False
    assert defaults("@jupyterlab/extensionmanager-extension:plugin")["enabled"] is False
    page.goto(f"{lab.url}/lab?token={lab.token}")
    page.wait_for_selector("#jp-main-statusbar")
    time.sleep(3)  # pop-ups appear a moment after start-up
    toasts = page.locator(".Toastify__toast").all_inner_texts()
    assert not [t for t in toasts if "news" in t.lower() or "update" in t.lower()], toasts
    assert page.locator(".jp-Dialog").count() == 0
