"""The lesson pages' live widgets and exercises, for scripts/build_site.py.

Every "Try it" widget a lesson's notebook saved becomes a form of ordinary
controls (text boxes, selects, checkboxes, range inputs) whose first output
is written here by the page's own Python (``bleu_teach.web.page``
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
from pathlib import Path
from typing import Any

from bleu_teach.explorers.declaration import Explorer
from bleu_teach.explorers.saved import WIDGET_VIEW, saved_explorers
from bleu_teach.explorers.typed_input import MAX_REFERENCES

#: The zip with what the explorers that show data need (lesson 08's WMT21 data and ranked pairs), and exercise
#: 08.1; loaded only by the pages that need it.
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


def _environment() -> Any:
    import jinja2

    folder = Path(__file__).resolve().parent / "templates" / "site"
    return jinja2.Environment(loader=jinja2.FileSystemLoader(folder), autoescape=True,
                              undefined=jinja2.StrictUndefined)


def form_fields(explorer: Explorer, values: dict[str, Any], shown: dict[str, Any],
                unavailable: dict[str, set[str]], context: Any) -> list[dict[str, Any]]:
    """The explorer's controls as the form template takes them, set to ``values``.

    ``shown`` is the page's answer for those values (its ``extra`` holds the view's limits and notes);
    ``unavailable`` lists, per menu, the choices this site cannot run (offered only if saved, and said so).
    """
    fields = []
    extra = shown["extra"]
    for control in explorer.controls:
        value = values[control.name]
        choices = [(v, text) for v, text in explorer.choices(control, context)
                   if v not in unavailable.get(control.name, set())]
        if control.kind in ("menu", "buttons") and value not in [v for v, _ in choices]:
            choices.append((value, f"{value} (not available here)"))
        high = (MAX_REFERENCES if control.kind == "references" else
                extra.get("limits", {}).get(control.name) or control.top(values))
        fields.append({"name": control.name, "label": control.label, "kind": control.kind, "value": value,
                       "low": control.low, "high": high, "choices": choices, "enabled_by": control.enabled_by,
                       "setting": control.setting, "placeholder": control.placeholder,
                       "rows": 1 if values.get("compact") else control.rows,
                       "note": extra.get("notes", {}).get(control.name, "")})
    return fields


def widget_html(explorer: Explorer, values: dict[str, Any], ids: str, unavailable: dict[str, set[str]],
                shown: dict[str, Any], context: Any) -> str:
    """A live widget: its controls, its headline, its output (``shown``: ``bleu_teach.web.page.widget``'s answer for ``values``)."""
    from bleu_teach.ui.plots import PALETTE

    if shown["message"]:
        raise SystemExit(f"The saved {explorer.name} ({values}) gives a message on the site: {shown['message']}")
    fields = _environment().get_template("explorer_form.html.j2").render(
        fields=form_fields(explorer, values, shown, unavailable, context), ids=ids,
        settings_hidden=values.get("show_settings") is False)
    chart = ""
    if "curve" in shown["extra"]:
        chart = (f'<div class="live-chart"><canvas role="img" aria-label="{_escape(shown["extra"]["description"])}" '
                 f'data-palette="{_escape(json.dumps(PALETTE))}"></canvas></div>')
    needs = f' data-python-extra="{DATA_ZIP}"' if explorer.needs else ""
    return (f'<form class="live-widget" data-widget="{explorer.name}" data-state="{_escape(json.dumps(values))}"'
            f'{needs} aria-label="{_escape(explorer.name)}: try it" novalidate>{fields}'
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


def make_live(notebook: Any, unavailable: dict[str, set[str]], contexts: Any) -> dict[str, int]:
    """Turn the notebook's explorers and exercise cells into live forms; return how many of each.

    ``contexts(explorer)`` gives an explorer that shows data its context (made once, when a lesson needs it).
    """
    from bleu_teach.web import page

    counts = {"widgets": 0, "exercises": 0}
    for index, explorer, values in sorted(saved_explorers(notebook), key=lambda found: -found[0]):
        context = contexts(explorer) if explorer.needs else {}
        shown = page.widget(explorer.name, values)
        cell = notebook["cells"][index]
        cell["outputs"] = [o for o in cell["outputs"] if WIDGET_VIEW not in o.get("data", {})]
        notebook["cells"].insert(index + 1, _raw(widget_html(explorer, values, f"w{index}", unavailable, shown, context),
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
