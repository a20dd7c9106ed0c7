"""The lesson pages' live widgets and exercises, for scripts/build_site.py.

Every "Try it" widget a lesson's notebook saved becomes a form of ordinary
controls (text boxes, selects, checkboxes, range inputs) whose first output
is written here by the page's own Python (``scripts/site/lesson_page.py``
run at build time on the saved control values), so a page shows the
notebook's numbers at once; ``scripts/site/lesson_live.js`` makes it live when
Pyodide has started.  Every "Check yourself" cell becomes a question form
whose Check button asks the exercise bank in the page.

Contract (the browser tests rely on it): a widget's container has
``data-widget="<its class name>"`` and ``data-state`` (its control values as
JSON); its headline number is in the element with ``data-value`` (full
precision, ``repr(float)``).  An exercise's form has ``data-exercise="<id>"``,
a button named "Check", and its feedback appears in ``[data-verdict]``.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Any

from build_site import WIDGET_STATE, WIDGET_VIEW, _dropdown_value, widget_tree

#: The widgets a lesson page makes live (bleu_teach.ui.widgets' class names).
LIVE_WIDGETS = ("ClippingExplorer", "BrevityPenaltyExplorer", "BleuExplorer", "SideBySideExplorer",
                "DisagreementExplorer")
#: The zip with the WMT21 data that lesson 08's explorer and exercise 08.1 need (loaded only by the pages that do).
DATA_ZIP = "wmt21_site.zip"
EXERCISE_CELL = re.compile(r'check\("(\d\d\.\d+)", answer\)')
#: The lessons' instructions for an exercise cell (Python values in quotes, run the cell), and what the page's
#: form needs said instead.
RUN_THE_CELL = (
    (re.compile(r"Replace `None` with your answer(, rounded to three decimal places,)? and run the cell"),
     r"Choose or type your answer\1 and press Check"),
    (re.compile(r'Replace `None` with `"A"`, `"B"` or `"same"`( before you compute anything)?, and run the cell'),
     r"Choose A, B or the same\1, then press Check"),
    (re.compile(r'Answer `"A"`, `"B"` or `"same"`\.'), "Choose A, B or the same."),
    (re.compile(r'Answer with a letter(?: as a string, e\.g\.|, such as)? `"A"`\.|Answer with a letter\.'),
     "Choose one and press Check."),
    (re.compile(r'as a fraction in quotes \(e\.g\. `"(\d+/\d+)"`\)'), r"as a fraction (e.g. \1)"),
    (re.compile(r'A fraction such as `"(\d+/\d+)"`'), r"A fraction such as \1"),
)
#: A choice question's list of options under its text (Exercise.markdown()): on the page its radio buttons say them.
OPTION_LINES = re.compile(r"\n\n(?:\* \*\*[A-Z]+\*\* [^\n]*(?:\n|$))+$")


def _escape(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _hidden(models: dict[str, Any], state: dict[str, Any]) -> bool:
    layout = models.get(str(state.get("layout", "")).removeprefix("IPY_MODEL_"), {}).get("state", {})
    return layout.get("display") == "none"


def saved_controls(models: dict[str, Any], model_id: str) -> tuple[dict[str, Any], bool]:
    """A saved widget's control values by the labels the learner sees, and whether its settings are hidden."""
    values: dict[str, Any] = {"references": []}
    hidden = False
    for state in widget_tree(models, model_id):
        if _hidden(models, state) and state.get("_model_name") == "VBoxModel":
            hidden = True
        label = state.get("description")
        if not isinstance(label, str) or not label:
            continue
        if re.fullmatch(r"Reference \d+", label) and isinstance(state.get("value"), str):
            values["references"].append(state["value"])
        elif "_options_labels" in state:
            values[label] = _dropdown_value(state)
        elif "value" in state:
            values[label] = state["value"]
            if label in ("Reference 1 length", "Hypothesis"):
                values[f"{label} max"] = state.get("max")
                values[f"{label} rows"] = state.get("rows")
    return values, hidden


def widget_state(kind: str, saved: dict[str, Any]) -> dict[str, Any]:
    """The control values lesson_page.widget takes, from a saved widget's labelled controls."""
    settings = {"tokenizer": saved.get("Tokenizer", "whitespace"), "lowercase": bool(saved.get("Lowercase")),
                "max_n": str(saved.get("Max n", 4)), "weights": str(saved.get("Weights", "")),
                "smoothing": str(saved.get("Smoothing", "method0")).split(":")[0]}
    if kind == "ClippingExplorer":
        return {"hypothesis": saved["Hypothesis"], "references": saved["references"], "n": str(saved["n-gram order"])}
    if kind == "BrevityPenaltyExplorer":
        return {"ref_len": str(saved["Reference 1 length"]), "use_second": bool(saved["Use a second reference"]),
                "second_ref_len": str(saved["Reference 2 length"]), "hyp_len": str(saved["Hypothesis length"]),
                "max_len": str(saved["Reference 1 length max"])}
    if kind == "BleuExplorer":
        return {"hypothesis": saved["Hypothesis"], "references": saved["references"], **settings,
                "compact": saved.get("Hypothesis rows") == 1}
    if kind == "SideBySideExplorer":
        return {"hypothesis_a": saved["Hypothesis A"], "hypothesis_b": saved["Hypothesis B"],
                "references": saved["references"], **settings}
    if kind == "DisagreementExplorer":
        return {"metric": saved["Metric"], "system": saved["System"], "direction": saved["Show"],
                "rank": str(saved["Rank"])}
    raise SystemExit(f"A lesson shows a {kind} widget, which the site cannot make live: add it to live_lessons.py.")


# ---------------------------------------------------------------------------
# The controls, as HTML
# ---------------------------------------------------------------------------

class _Ids:
    """Ids unique on the page: w3-hypothesis, w3-reference-1, ..."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def __call__(self, name: str) -> str:
        return f"{self.prefix}-{name}"


def _text_box(ids: _Ids, name: str, label: str, value: str) -> str:
    return (f'<div class="live-row"><label for="{ids(name)}">{_escape(label)}</label>'
            f'<input type="text" id="{ids(name)}" name="{name}" value="{_escape(value)}" spellcheck="false" '
            f'autocomplete="off"></div>')


def _range(ids: _Ids, name: str, label: str, value: Any, low: int, high: int) -> str:
    return (f'<div class="live-row"><label for="{ids(name)}">{_escape(label)}</label>'
            f'<input type="range" id="{ids(name)}" name="{name}" min="{low}" max="{high}" step="1" '
            f'value="{_escape(value)}"><output for="{ids(name)}">{_escape(value)}</output></div>')


def _select(ids: _Ids, name: str, label: str, options: list[tuple[str, str]], value: str) -> str:
    items = "".join(f'<option value="{_escape(v)}"{" selected" if v == value else ""}>{_escape(text)}</option>'
                    for v, text in options)
    return (f'<div class="live-row"><label for="{ids(name)}">{_escape(label)}</label>'
            f'<select id="{ids(name)}" name="{name}">{items}</select></div>')


def _checkbox(ids: _Ids, name: str, label: str, value: bool) -> str:
    return (f'<div class="live-row live-check"><input type="checkbox" id="{ids(name)}" name="{name}"'
            f'{" checked" if value else ""}><label for="{ids(name)}">{_escape(label)}</label></div>')


def _references(ids: _Ids, texts: list[str], most: int) -> str:
    boxes = "".join(_text_box(ids, f"reference-{i}", f"Reference {i}", text).replace(
        'name="reference-', 'class="reference" name="reference-', 1) for i, text in enumerate(texts, start=1))
    return (f'<div class="live-references" data-max="{most}">{boxes}</div>'
            f'<div class="live-row live-buttons"><button type="button" data-action="add-reference">Add reference'
            f'</button><button type="button" data-action="remove-reference">Remove last</button></div>')


def _settings(ids: _Ids, state: dict[str, Any], tokenizers: dict[str, str], hidden: bool) -> str:
    from bleu_teach.bleu.smoothing import SMOOTHING_METHODS
    from bleu_teach.ui.typed_input import MAX_ORDER

    offered = [(name, name) for name in tokenizers]
    if state["tokenizer"] not in tokenizers:
        offered.append((state["tokenizer"], f"{state['tokenizer']} (not available here)"))
    rows = (_select(ids, "tokenizer", "Tokenizer", offered, state["tokenizer"])
            + _checkbox(ids, "lowercase", "Lowercase", state["lowercase"])
            + _range(ids, "max_n", "Max n", state["max_n"], 1, MAX_ORDER)
            + _text_box(ids, "weights", "Weights", state["weights"]).replace(
                '<input ', '<input placeholder="uniform, or one per order (Max n = 2: 0.7, 0.3)" ', 1)
            + _select(ids, "smoothing", "Smoothing", [(k, f"{k}: {v}") for k, v in SMOOTHING_METHODS.items()],
                      state["smoothing"]))
    return f'<div class="live-settings"{" hidden" if hidden else ""}>{rows}</div>'


def controls_html(kind: str, state: dict[str, Any], ids: _Ids, tokenizers: dict[str, str], hidden: bool,
                  extra: dict[str, Any]) -> str:
    """The widget's controls, set to ``state``."""
    from bleu_teach.ui.typed_input import MAX_REFERENCES
    from bleu_teach.ui.widget_views import ALL_SYSTEMS, CLIPPING_MAX_ORDER, TOO_HARSH, TOO_KIND

    if kind == "ClippingExplorer":
        return (_text_box(ids, "hypothesis", "Hypothesis", state["hypothesis"])
                + _references(ids, state["references"], MAX_REFERENCES)
                + _range(ids, "n", "n-gram order", state["n"], 1, CLIPPING_MAX_ORDER))
    if kind == "BrevityPenaltyExplorer":
        top = int(state["max_len"])
        return (_range(ids, "ref_len", "Reference 1 length", state["ref_len"], 1, top)
                + _checkbox(ids, "use_second", "Use a second reference", state["use_second"])
                + _range(ids, "second_ref_len", "Reference 2 length", state["second_ref_len"], 1, top)
                + _range(ids, "hyp_len", "Hypothesis length", state["hyp_len"], 1, top)
                + f'<input type="hidden" name="max_len" value="{top}">')
    if kind == "BleuExplorer":
        return (_text_box(ids, "hypothesis", "Hypothesis", state["hypothesis"])
                + _references(ids, state["references"], MAX_REFERENCES) + _settings(ids, state, tokenizers, hidden)
                + f'<input type="hidden" name="compact" value="{"1" if state["compact"] else ""}">')
    if kind == "SideBySideExplorer":
        return (_text_box(ids, "hypothesis_a", "Hypothesis A", state["hypothesis_a"])
                + _text_box(ids, "hypothesis_b", "Hypothesis B", state["hypothesis_b"])
                + _references(ids, state["references"], MAX_REFERENCES) + _settings(ids, state, tokenizers, hidden))
    if kind == "DisagreementExplorer":
        from bleu_teach.lessons.agreement import SEGMENT_METRICS

        systems = [ALL_SYSTEMS, *extra["systems"]]
        return (_select(ids, "metric", "Metric", [(m, m) for m in SEGMENT_METRICS], state["metric"])
                + _select(ids, "system", "System", [(s, s) for s in systems], state["system"])
                + _select(ids, "direction", "Show", [(d, d) for d in (TOO_KIND, TOO_HARSH)], state["direction"])
                + f'<div class="live-row"><label for="{ids("rank")}">Rank</label><input type="number" '
                  f'id="{ids("rank")}" name="rank" min="1" max="{extra["count"]}" step="1" '
                  f'value="{_escape(state["rank"])}"> <span class="live-count">of {extra["count"]} pairs</span></div>')
    raise SystemExit(f"No controls for {kind}.")


def widget_html(kind: str, state: dict[str, Any], number: int, tokenizers: dict[str, str], hidden: bool,
                shown: dict[str, Any], systems: list[str]) -> str:
    """A live widget: its controls, its headline, its output (``shown``: lesson_page.widget's answer for ``state``)."""
    from bleu_teach.ui.plots import PALETTE

    if shown["message"]:
        raise SystemExit(f"The saved {kind} ({state}) gives a message on the site: {shown['message']}")
    ids = _Ids(f"w{number}")
    extra = dict(shown["extra"], systems=systems)
    chart = ""
    if kind == "BrevityPenaltyExplorer":
        chart = (f'<div class="live-chart"><canvas role="img" aria-label="{_escape(shown["extra"]["description"])}" '
                 f'data-palette="{_escape(json.dumps(PALETTE))}"></canvas></div>')
    needs = f' data-python-extra="{DATA_ZIP}"' if kind == "DisagreementExplorer" else ""
    return (f'<form class="live-widget" data-widget="{kind}" data-state="{_escape(json.dumps(state))}"{needs} '
            f'aria-label="{_escape(kind)}: try it" novalidate>'
            f'{controls_html(kind, state, ids, tokenizers, hidden, extra)}'
            f'<p class="live-status" role="status">The saved example: it becomes live when Python has started in '
            f'your browser.</p>'
            f'<div class="live-headline" data-value="{_escape(shown["value"])}" aria-live="polite">'
            f'{shown["headline"]}</div>{chart}'
            f'<div class="live-output" data-extra="{_escape(json.dumps(shown["extra"]))}">{shown["html"]}</div>'
            f'</form>')


# ---------------------------------------------------------------------------
# The exercises, as HTML
# ---------------------------------------------------------------------------

def _inline_markdown(text: str) -> str:
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    return re.sub(r"^<p>|</p>\s*$", "", markdown2html_mistune(text).strip())


def exercise_html(exercise_id: str) -> str:
    """The exercise's form: radio buttons for a choice, a text box for a number or a fraction; Check; feedback."""
    from bleu_teach.exercises import exercise

    ex = exercise(exercise_id)
    name = ex.anchor + "-answer"
    needs = f' data-python-extra="{DATA_ZIP}"' if ex.kind == "mqm_score" else ""
    if ex.options:
        items = "".join(
            f'<div class="live-choice"><input type="radio" id="{name}-{o.letter}" name="answer" '
            f'value="{_escape(o.letter)}"><label for="{name}-{o.letter}">'
            f'{_escape(o.text) if ex.kind == "higher" else f"<b>{_escape(o.letter)}</b> " + _inline_markdown(o.text)}'
            f'</label></div>'
            for o in ex.options)
        field = f'<fieldset><legend>Your answer to question {ex.number}</legend>{items}</fieldset>'
    else:
        field = (f'<label for="{name}">Your answer to question {ex.number} (a number, or a fraction such as 2/7)'
                 f'</label> <input type="text" id="{name}" name="answer" inputmode="decimal" autocomplete="off" '
                 f'spellcheck="false">')
    return (f'<form class="live-exercise" data-exercise="{ex.id}"{needs} novalidate>{field} '
            f'<button type="submit">Check</button>'
            f'<div class="live-feedback" aria-live="polite"></div></form>')


# ---------------------------------------------------------------------------
# The notebook, made live
# ---------------------------------------------------------------------------

def _raw(source: str, classes: str) -> Any:
    import nbformat

    cell = nbformat.v4.new_raw_cell(f'<div class="jp-Cell live-cell {classes}">{source}</div>')
    cell.metadata["bleu_teach"] = "live"  # written as it is by site_lesson.html.j2 (our own, escaped HTML)
    return cell


def _widget_outputs(notebook: Any) -> Iterator[tuple[int, str, str]]:
    for index, cell in enumerate(notebook["cells"]):
        for output in cell.get("outputs", []) if cell["cell_type"] == "code" else []:
            view = output.get("data", {}).get(WIDGET_VIEW)
            if view:
                text = "".join(output["data"].get("text/plain", ""))
                kind = re.match(r"\w+", text)
                yield index, kind.group(0) if kind else "", view["model_id"]


def make_live(notebook: Any, tokenizers: dict[str, str], disagreements: Any) -> dict[str, int]:
    """Turn the notebook's widgets and exercise cells into live forms; return how many of each.

    ``disagreements`` is a callable giving (lesson_page module, the table's systems), made once when a
    lesson needs the disagreement explorer.
    """
    import lesson_page

    models = notebook.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    counts = {"widgets": 0, "exercises": 0}
    for index, kind, model_id in sorted(_widget_outputs(notebook), reverse=True):
        saved, hidden = saved_controls(models, model_id)
        state = widget_state(kind, saved)
        systems = disagreements() if kind == "DisagreementExplorer" else []
        shown = lesson_page.widget(kind, state)
        cell = notebook["cells"][index]
        cell["outputs"] = [o for o in cell["outputs"] if WIDGET_VIEW not in o.get("data", {})]
        notebook["cells"].insert(index + 1, _raw(widget_html(kind, state, index, tokenizers, hidden, shown, systems),
                                                 "live-widget-cell"))
        counts["widgets"] += 1
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] == "markdown":
            for notebook_words, page_words in RUN_THE_CELL:
                cell["source"] = notebook_words.sub(page_words, cell["source"])
            if '<a id="ex-' in cell["source"]:
                cell["source"] = OPTION_LINES.sub("", cell["source"].rstrip("\n"))
        found = EXERCISE_CELL.search(cell["source"]) if cell["cell_type"] == "code" else None
        if found and "exercise" in cell.get("metadata", {}).get("tags", []):
            from bleu_teach.exercises import exercise

            choice = " live-choice-cell" if exercise(found.group(1)).options else ""
            notebook["cells"][index] = _raw(exercise_html(found.group(1)), "celltag_exercise" + choice)
            counts["exercises"] += 1
    notebook.get("metadata", {}).pop("widgets", None)  # no widget renderer on a lesson page
    return counts


def disagreements_json() -> tuple[str, list[str]]:
    """Lesson 08's ranked (system, segment) pairs for both metrics, as disagreements.json, and the systems."""
    from bleu_teach.lessons.agreement import disagreements, segment_level
    from bleu_teach.lessons.data import wmt21_ted

    ted = wmt21_ted("zh-en")
    table = segment_level(ted)
    systems = list(table.systems)
    ranked = {metric: [[systems.index(d.system), d.segment, d.score, d.mqm, d.metric_percentile, d.mqm_percentile]
                       for d in disagreements(table, metric)] for metric in table.metrics}
    return json.dumps({"pair": table.pair, "references_used": list(table.references_used), "systems": systems,
                       "ranked": ranked}, separators=(",", ":")), systems
