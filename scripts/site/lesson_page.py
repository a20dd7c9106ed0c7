"""The live lesson pages' Python (the static site runs it in the browser on Pyodide; the build runs it too).

A lesson page sends a widget's control values, or an exercise's answer, as
JSON and gets JSON back.  The widgets are bleu_teach's own views
(:mod:`bleu_teach.ui.widget_views`, the functions the notebook widgets call)
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
from pathlib import Path
from typing import Any

from bleu_teach.exercises.bank import check as check_answer
from bleu_teach.exercises.bank import exercise
from bleu_teach.lessons.agreement import Disagreement
from bleu_teach.ui import widget_views as views
from bleu_teach.views.document import Document, Label, Paragraph
from bleu_teach.views.formatting import format_number
from bleu_teach.views.html_writer import write_html

#: The lesson-08 explorer's ranked pairs, written by the build (scripts/live_lessons.py) beside this file.
DISAGREEMENTS_FILE = Path(__file__).with_name("disagreements.json")
_ranked: dict[str, Any] = {}


def load_disagreements(text: str) -> None:
    """Use these ranked (system, segment) pairs (``disagreements.json``'s text) for the disagreement explorer."""
    found = json.loads(text)
    systems = found["systems"]
    _ranked.clear()
    _ranked.update(found)
    _ranked["ranked"] = {metric: [Disagreement(systems[s], segment, metric, score, mqm, mp, hp)
                                  for s, segment, score, mqm, mp, hp in rows]
                         for metric, rows in found["ranked"].items()}


def _text(state: dict[str, Any], name: str) -> str:
    value = state.get(name)
    if not isinstance(value, str):
        raise ValueError(f"The page sent no valid {name!r}; reload the page.")
    return value


def _whole(state: dict[str, Any], name: str, shown: str) -> int:
    value = state.get(name)
    if isinstance(value, str) and not value.strip():
        raise ValueError(f"{shown} is empty: type a whole number.")
    try:
        return int(str(value).strip())
    except ValueError:
        raise ValueError(f"{shown} must be a whole number, e.g. 4 (got {value!r}).") from None


def _texts(state: dict[str, Any], name: str) -> list[str]:
    value = state.get(name)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"The page sent no valid {name!r}; reload the page.")
    return value


def _settings(state: dict[str, Any]) -> tuple[str, bool, int, str, str]:
    return (_text(state, "tokenizer"), bool(state.get("lowercase")), _whole(state, "max_n", "Max n"),
            _text(state, "weights"), _text(state, "smoothing"))


def _disagreement(state: dict[str, Any]) -> tuple[views.WidgetView, int, int]:
    if not _ranked:
        load_disagreements(DISAGREEMENTS_FILE.read_text(encoding="utf-8"))
    from bleu_teach.lessons.data import wmt21_ted

    metric, system, direction = _text(state, "metric"), _text(state, "system"), _text(state, "direction")
    if metric not in _ranked["ranked"]:
        raise ValueError(f"Choose a metric: {', '.join(_ranked['ranked'])}.")
    shown = views.disagreement_candidates(_ranked["ranked"][metric], system, direction)
    # As in the notebook widget, a rank past the end of a shorter list shows its last pair.
    rank = min(_whole(state, "rank", "Rank"), max(1, len(shown)))
    view = views.disagreement_view(wmt21_ted(_ranked["pair"]), _ranked["references_used"], shown, rank)
    return view, len(shown), rank


def widget_view(kind: str, state: dict[str, Any]) -> views.WidgetView:
    """The view of the lesson explorer ``kind`` (its class name in bleu_teach.ui.widgets) for these control values."""
    if kind == "ClippingExplorer":
        return views.clipping_view(_text(state, "hypothesis"), _texts(state, "references"),
                                   _whole(state, "n", "The n-gram order"))
    if kind == "BrevityPenaltyExplorer":
        lens = [_whole(state, "ref_len", "Reference 1 length")]
        if state.get("use_second"):
            lens.append(_whole(state, "second_ref_len", "Reference 2 length"))
        return views.brevity_view(lens, _whole(state, "hyp_len", "Hypothesis length"),
                                  _whole(state, "max_len", "The longest length"))
    if kind == "BleuExplorer":
        return views.explorer_view(_text(state, "hypothesis"), _texts(state, "references"), *_settings(state),
                                   compact=bool(state.get("compact")))
    if kind == "SideBySideExplorer":
        return views.side_by_side_view(_text(state, "hypothesis_a"), _text(state, "hypothesis_b"),
                                       _texts(state, "references"), *_settings(state))
    raise ValueError(f"This page has no {kind!r} explorer; reload the page.")


def widget(kind: str, state: dict[str, Any]) -> dict[str, Any]:
    """What the page shows for a widget: ``html``, the headline (``value`` at full precision and ``headline``,
    its HTML), ``message`` for bad input, and ``extra`` (the curve's points, the number of pairs)."""
    extra: dict[str, Any] = {}
    if kind == "DisagreementExplorer":
        def render() -> views.WidgetView:
            view, count, rank = _disagreement(state)
            extra.update(count=count, rank=rank)
            return view

        view = views.guarded(render)
    else:
        view = views.guarded(lambda: widget_view(kind, state))
    headline = ""
    if view.value is not None:
        headline = write_html(Document((Paragraph((Label(view.label), f" = {format_number(view.value)}")),)))
    return {"html": view.html, "value": None if view.value is None else repr(view.value), "headline": headline,
            "message": view.message, "extra": view.extra | extra}


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
