"""The live lesson pages' Python (the static site runs it in the browser on Pyodide; the build runs it too).

A lesson page sends a widget's control values, or an exercise's answer, as
JSON and gets JSON back.  The widgets are bleu_teach's own explorers
(:data:`bleu_teach.explorers.definitions.EXPLORERS`, the declarations the notebook widgets are built from)
and the exercises are checked by the exercise bank's ``check``, so the page
shows what the notebook shows.  The build calls the same functions to write
each widget's first state into the page, so a page shows its numbers before
Python has started in the browser.

Every answer holds HTML made by :mod:`bleu_teach.views.html_writer` (typed
text escaped) and never a traceback: bad input gets a ``message``.
"""

from __future__ import annotations

import json
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

from bleu_teach.exercises.bank import check as check_answer
from bleu_teach.exercises.bank import exercise
from bleu_teach.explorers import views
from bleu_teach.explorers.declaration import NO_CONTEXT, Explorer
from bleu_teach.explorers.definitions import EXPLORERS
from bleu_teach.inputs.tokenizers import TOKENIZERS, tokenize
from bleu_teach.views.document import Document, Label, Paragraph
from bleu_teach.views.formatting import format_number
from bleu_teach.views.html_writer import write_html

#: The contexts of the explorers that show data (explorer name -> its declaration's JSON), written by the build
#: (the site's build, bleu_teach_site) beside this file, in the data zip of the pages that need it.
CONTEXTS_FILE = Path(__file__).with_name("explorer_contexts.json")
_contexts: dict[str, Any] = {}


def load_contexts(text: str) -> None:
    """Use these contexts (``explorer_contexts.json``'s text) for the explorers that show data."""
    found = json.loads(text)
    _contexts.clear()
    for name, context in found.items():
        reader = EXPLORERS[name].context_from_json
        if reader is not None:
            _contexts[name] = reader(context)


def _context(explorer: Explorer) -> Any:
    if not explorer.needs:
        return NO_CONTEXT
    if explorer.name not in _contexts:
        load_contexts(CONTEXTS_FILE.read_text(encoding="utf-8"))
    return _contexts[explorer.name]


@lru_cache(maxsize=1)
def offered_tokenizers() -> tuple[str, ...]:
    """The tokenizers that run here (on the site: those on Python's standard library alone, as its menus offer)."""
    found = []
    for name in TOKENIZERS:
        try:
            tokenize("a b", name)
        except ImportError:  # NLTK, or the regex package sacreBLEU's intl needs
            continue
        found.append(name)
    return tuple(found)


def _unoffered(state: dict[str, Any]) -> str | None:
    """What to say about a tokenizer (from a hand-made link) that this page cannot run, or None."""
    name = state.get("tokenizer")
    if not isinstance(name, str) or name in offered_tokenizers():
        return None
    return (f"This page has no tokenizer {name[:40]!r}; choose one of {', '.join(offered_tokenizers())}"
            f"{' (the others need packages the page does not carry)' if name in TOKENIZERS else ''}.")


def widget(kind: str, state: dict[str, Any]) -> dict[str, Any]:
    """What the page shows for an explorer (its declaration's name) with these control values: ``html``, the
    headline (``value`` at full precision and ``headline``, its HTML), ``message`` for bad input, and ``extra``
    (the curve's points, a control's limit and note)."""
    explorer = EXPLORERS.get(kind)
    if explorer is None:
        view = views.WidgetView(views.message_html(f"This page has no {kind!r} explorer; reload the page."),
                                message=f"This page has no {kind!r} explorer; reload the page.")
    elif any(c.name == "tokenizer" for c in explorer.controls) and (unoffered := _unoffered(state)) is not None:
        view = views.WidgetView(views.message_html(unoffered), message=unoffered)
    else:
        view = views.guarded(lambda: explorer.view(state, _context(explorer)))
    headline = ""
    if view.value is not None:
        headline = write_html(Document((Paragraph((Label(view.label), f" = {format_number(view.value)}")),)))
    return {"html": view.html, "value": None if view.value is None else repr(view.value), "headline": headline,
            "message": view.message, "extra": view.extra}


#: Quotes a learner may type around an answer, as the notebook's Python strings have them ("2/7").
QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019"}


def typed(text: str) -> str:
    """An answer as typed in a box, read as the notebook would read it: spaces and one pair of quotes around it
    dropped, and a minus sign (U+2212, as the lessons print it) read as a hyphen-minus.

    >>> typed(' "8/12" '), typed("\u22126.1"), typed("'B'")
    ('8/12', '-6.1', 'B')
    """
    text = text.strip()
    if len(text) >= 2 and QUOTES.get(text[0]) == text[-1]:
        text = text[1:-1].strip()
    return text.replace("\u2212", "-")


def check(exercise_id: str, answer: str) -> dict[str, Any]:
    """The exercise bank's verdict on a typed or chosen answer: ``verdict`` and the feedback's ``html``."""
    try:
        exercise(exercise_id)
    except (KeyError, ValueError):
        return {"verdict": "", "html": views.message_html(f"No exercise {exercise_id!r} here; reload the page.")}
    answer = typed(answer) if isinstance(answer, str) else answer
    if isinstance(answer, str) and not answer:
        choose = "Choose one of the options" if exercise(exercise_id).options else "Type your answer"
        return {"verdict": "", "html": views.message_html(f"{choose}, then press Check.")}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            feedback = check_answer(exercise_id, answer)
    except (TypeError, ValueError) as problem:
        return {"verdict": "", "html": views.message_html(str(problem))}
    except Exception as problem:  # never let a traceback reach the learner
        return {"verdict": "", "html": views.message_html(
            f"Something went wrong ({type(problem).__name__}); try another answer.")}
    verdict = "" if feedback.verdict == "unanswered" else feedback.verdict
    return {"verdict": verdict, "html": feedback.to_html()}


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def widget_json(kind: str, text: str) -> str:
    """:func:`widget` between JSON strings (the page's call into Python)."""
    state = _loads(text)
    if not isinstance(state, dict):
        message = "The page sent no settings; reload the page."
        return json.dumps({"html": views.message_html(message), "value": None, "headline": "", "message": message,
                           "extra": {}})
    return json.dumps(widget(kind, state))


def check_json(exercise_id: str, text: str) -> str:
    """:func:`check` between JSON strings: ``text`` is the answer as a JSON string."""
    answer = _loads(text)
    return json.dumps(check(exercise_id, answer if isinstance(answer, str) else ""))
