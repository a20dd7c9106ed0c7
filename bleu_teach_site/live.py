"""The lesson pages' live widgets and exercises (the site's build, bleu_teach_site.build).

Every "Try it" widget a lesson's notebook saved becomes a form of ordinary
controls (text boxes, selects, checkboxes, range inputs) whose first output
is written here by the page's own Python (``bleu_teach.web.page``
run at build time on the saved control values), so a page shows the
notebook's numbers at once; ``static/lesson_live.js`` makes it live when
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
from typing import Any

from bleu_teach.exercises import Exercise, exercise
from bleu_teach.exercises.media import answer_label, how_to_answer
from bleu_teach.explorers.declaration import Explorer
from bleu_teach.explorers.saved import WIDGET_VIEW, saved_explorers
from bleu_teach.explorers.typed_input import MAX_REFERENCES
from bleu_teach_site import markdown
from bleu_teach_site.paths import TEMPLATES

#: The zip with the contexts of the explorers that show data (lesson 08's, made from the WMT21 data at build
#: time); loaded only by the pages that have such an explorer.
CONTEXTS_ZIP = "explorer_contexts.zip"
EXERCISE_CELL = re.compile(r'check\("(\d\d\.\d+)", answer\)')
PRACTICE_CELL = re.compile(r'Practice\("(\d\d\.\d+)"\)')


def _escape(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _environment() -> Any:
    import jinja2

    folder = TEMPLATES / "site"
    return jinja2.Environment(loader=jinja2.FileSystemLoader(folder), autoescape=True, undefined=jinja2.StrictUndefined)


def form_fields(
    explorer: Explorer, values: dict[str, Any], shown: dict[str, Any], unavailable: dict[str, set[str]], context: Any
) -> list[dict[str, Any]]:
    """The explorer's controls as the form template takes them, set to ``values``.

    ``shown`` is the page's answer for those values (its ``extra`` holds the view's limits and notes);
    ``unavailable`` lists, per menu, the choices this site cannot run (offered only if saved, and said so).
    """
    fields = []
    extra = shown["extra"]
    for control in explorer.controls:
        value = values[control.name]
        choices = [
            (v, text) for v, text in explorer.choices(control, context) if v not in unavailable.get(control.name, set())
        ]
        if control.kind in ("menu", "buttons") and value not in [v for v, _ in choices]:
            choices.append((value, f"{value} (not available here)"))
        high = (
            MAX_REFERENCES
            if control.kind == "references"
            else extra.get("limits", {}).get(control.name) or control.top(values)
        )
        fields.append(
            {
                "name": control.name,
                "label": control.label,
                "kind": control.kind,
                "value": value,
                "low": control.low,
                "high": high,
                "choices": choices,
                "enabled_by": control.enabled_by,
                "setting": control.setting,
                "placeholder": control.placeholder,
                "rows": 1 if values.get("compact") else control.rows,
                "note": extra.get("notes", {}).get(control.name, ""),
                "steps": control.steps,
                "resets": " ".join(control.resets),
                "default": control.default,
            }
        )
    return fields


def widget_html(
    explorer: Explorer,
    values: dict[str, Any],
    ids: str,
    unavailable: dict[str, set[str]],
    shown: dict[str, Any],
    context: Any,
) -> str:
    """A live widget: its controls, its headline, its output (``shown``: ``bleu_teach.web.page.widget``'s answer for
    ``values``)."""
    from bleu_teach.ui.plots import PALETTE

    if shown["message"]:
        raise SystemExit(f"The saved {explorer.name} ({values}) gives a message on the site: {shown['message']}")
    fields = (
        _environment()
        .get_template("explorer_form.html.j2")
        .render(
            fields=form_fields(explorer, values, shown, unavailable, context),
            ids=ids,
            settings_hidden=values.get("show_settings") is False,
        )
    )
    chart = ""
    if "chart" in shown["extra"]:
        described = shown["extra"]["chart"]["description"]
        chart = (
            f'<div class="live-chart"><canvas role="img" aria-label="{_escape(described)}" '
            f'data-palette="{_escape(json.dumps(PALETTE))}"></canvas></div>'
        )
    needs = f' data-python-extra="{CONTEXTS_ZIP}"' if explorer.needs else ""
    return (
        f'<form class="live-widget" data-widget="{explorer.name}" data-state="{_escape(json.dumps(values))}"'
        f'{needs} aria-label="{_escape(explorer.name)}: try it" novalidate>{fields}'
        f'<div class="live-bar"><p class="live-status" role="status">The saved example: it becomes live when '
        f'Python has started in your browser.</p><button type="button" data-action="reset">Back to the example'
        f"</button></div>"
        f'<div class="live-headline" data-value="{_escape(shown["value"])}" aria-live="polite">'
        f"{shown['headline']}</div>{chart}"
        f'<div class="live-output" data-extra="{_escape(json.dumps(shown["extra"]))}">{shown["html"]}</div>'
        f"</form>"
    )


# ---------------------------------------------------------------------------
# The exercises, as HTML
# ---------------------------------------------------------------------------


def _choice_label(kind: str, option: Any) -> str:
    # A "higher" question's options (A, B, the same) are shown as they are; other options show their letter in
    # bold before their Markdown text.
    if kind == "higher":
        return _escape(option.text)
    return f"<b>{_escape(option.letter)}</b> " + markdown.render_inline(option.text, {})


def exercise_html(exercise_id: str) -> str:
    """The exercise's form: radio buttons for a choice, a text box for a number or a fraction; Check; feedback."""
    ex = exercise(exercise_id)
    name = ex.anchor + "-answer"
    if ex.options:
        items = "".join(
            f'<div class="live-choice"><input type="radio" id="{name}-{o.letter}" name="answer" '
            f'value="{_escape(o.letter)}"><label for="{name}-{o.letter}">{_choice_label(ex.kind, o)}</label></div>'
            for o in ex.options
        )
        field = f"<fieldset><legend>Your answer to question {ex.number}</legend>{items}</fieldset>"
    else:
        field = (
            f'<label for="{name}">Your answer to question {ex.number} ({_escape(answer_label(ex))})'
            f'</label> <input type="text" id="{name}" name="answer" autocomplete="off" '
            f'spellcheck="false">'
        )
    return (
        f'<form class="live-exercise" data-exercise="{ex.id}" novalidate>{field} '
        f'<button type="submit">Check</button>'
        f'<div class="live-feedback" aria-live="polite"></div></form>'
    )


def practice_html(exercise_id: str) -> str:
    """The practice block under an exercise: Another one (the question is drawn in the page's Python), a box,
    Check, the feedback and the skill's streak (``static/lesson_live.js``)."""
    ex = exercise(exercise_id)
    ids = f"practice-{ex.anchor}"
    return (
        f'<section class="live-practice" data-practice="{ex.id}" aria-label="Practice like question {ex.number}">'
        f'<div class="live-practice-question" aria-live="polite"><p>Press <b>Another one</b> for a new '
        f"question like question {ex.number}, drawn in your browser from the WMT21 TED data.</p></div>"
        f'<form class="live-practice-form" novalidate><label for="{ids}-answer">Your answer '
        f'({_escape(answer_label(ex))})</label> <input type="text" id="{ids}-answer" name="answer" '
        f'autocomplete="off" spellcheck="false" disabled> '
        f'<button type="submit" disabled>Check</button> '
        f'<button type="button" data-action="another">Another one</button></form>'
        f'<div class="live-feedback" aria-live="polite"></div>'
        f'<p class="live-practice-streak" role="status"></p></section>'
    )


# ---------------------------------------------------------------------------
# The notebook, made live
# ---------------------------------------------------------------------------


def _raw(source: str, classes: str) -> Any:
    import nbformat

    cell = nbformat.v4.new_raw_cell(f'<div class="jp-Cell live-cell {classes}">{source}</div>')
    cell.metadata["bleu_teach"] = "live"  # written as it is by site_lesson.html.j2 (our own, escaped HTML)
    return cell


def _ask_on_the_page(above: list[Any], ex: Exercise) -> None:
    """The question above an exercise cell, in the page's words: the bank's notebook wording (which the lesson's
    markdown ends with, tests/test_exercise_bank.py) becomes its page wording, options left to the radio buttons."""
    question = next(cell for cell in reversed(above) if cell["cell_type"] == "markdown")
    source, notebook_words = question["source"].rstrip("\n"), ex.markdown("notebook")
    if not source.endswith(notebook_words):
        raise SystemExit(
            f"The question above exercise {ex.id}'s cell is not the bank's; run make solutions? "
            "(tests/test_exercise_bank.py says where it differs)"
        )
    question["source"] = source[: -len(notebook_words)] + ex.markdown("page")


def ask_on_the_page(notebook: Any) -> int:
    """Every exercise of the notebook as the page asks it: the question in the page's words above a live form,
    and lesson 00's sentence on how to answer made the page's; return how many exercises."""
    count = 0
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] == "markdown":
            cell["source"] = cell["source"].replace(how_to_answer("notebook"), how_to_answer("page"))
        found = EXERCISE_CELL.search(cell["source"]) if cell["cell_type"] == "code" else None
        if found and "exercise" in cell.get("metadata", {}).get("tags", []):
            ex = exercise(found.group(1))
            _ask_on_the_page(notebook["cells"][:index], ex)
            choice = " live-choice-cell" if ex.options else ""
            notebook["cells"][index] = _raw(exercise_html(ex.id), "celltag_exercise" + choice)
            count += 1
        practised = PRACTICE_CELL.search(cell["source"]) if cell["cell_type"] == "code" else None
        if practised and "practice" in cell.get("metadata", {}).get("tags", []):
            notebook["cells"][index] = _raw(practice_html(practised.group(1)), "celltag_practice")
    return count


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
        notebook["cells"].insert(
            index + 1, _raw(widget_html(explorer, values, f"w{index}", unavailable, shown, context), "live-widget-cell")
        )
        counts["widgets"] += 1
    counts["exercises"] = ask_on_the_page(notebook)
    notebook.get("metadata", {}).pop("widgets", None)  # no widget renderer on a lesson page
    return counts
