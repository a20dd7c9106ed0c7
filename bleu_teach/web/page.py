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
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from bleu_teach.exercises import practice
from bleu_teach.exercises.bank import Exercise, exercise
from bleu_teach.exercises.bank import check as check_exercise
from bleu_teach.exercises.checkers import Feedback
from bleu_teach.exercises.media import answer_label
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
    return (
        f"This page has no tokenizer {name[:40]!r}; choose one of {', '.join(offered_tokenizers())}"
        f"{' (the others need packages the page does not carry)' if name in TOKENIZERS else ''}."
    )


def widget(kind: str, state: dict[str, Any]) -> dict[str, Any]:
    """What the page shows for an explorer (its declaration's name) with these control values: ``html``, the
    headline (``value`` at full precision and ``headline``, its HTML), ``message`` for bad input, and ``extra``
    (a chart's description, a control's limit and note)."""
    explorer = EXPLORERS.get(kind)
    if explorer is None:
        view = views.WidgetView(
            views.message_html(f"This page has no {kind!r} explorer; reload the page."),
            message=f"This page has no {kind!r} explorer; reload the page.",
        )
    elif any(c.name == "tokenizer" for c in explorer.controls) and (unoffered := _unoffered(state)) is not None:
        view = views.WidgetView(views.message_html(unoffered), message=unoffered)
    else:
        view = views.guarded(lambda: explorer.view(state, _context(explorer)))
    headline = view.headline  # the report's own score line, when the report begins with it
    if view.value is not None and not headline:
        headline = write_html(Document((Paragraph((Label(view.label), f" = {format_number(view.value)}")),)))
    # A message is said once, in the headline (the page's live region), not again below it.
    return {
        "html": "" if view.message else (view.rest if view.headline else view.html),
        "value": None if view.value is None else repr(view.value),
        "headline": headline,
        "message": view.message,
        "extra": view.extra,
        "links": _links(explorer, state, view.message),
    }


def _links(explorer: Explorer | None, state: dict[str, Any], message: str | None) -> list[dict[str, Any]]:
    """The full explorer's examples for these values (``Explorer.links``), so that a page's "Open this example"
    link opens what the learner has now; none when the values give a message."""
    if explorer is None or explorer.links is None or message:
        return []
    try:
        return [{"label": label, **link} for label, link in explorer.links(explorer.values(state))]
    except (TypeError, ValueError):
        return []


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


def _feedback(ex: Exercise, answer: Any, judge: Callable[[Any], Feedback] | None = None) -> tuple[str, str]:
    """The verdict ("" for no answer or a refused one) and the feedback's HTML for an answer to ``ex`` (checked by
    ``judge``, ``ex.check`` unless given)."""
    answer = typed(answer) if isinstance(answer, str) else answer
    if isinstance(answer, str) and not answer:
        choose = "Choose one of the options" if ex.options else "Type your answer"
        return "", views.message_html(f"{choose}, then press Check.")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            feedback = (judge or ex.check)(answer)
    except (TypeError, ValueError) as problem:
        return "", views.message_html(str(problem))
    except Exception as problem:  # never let a traceback reach the learner
        return "", views.message_html(f"Something went wrong ({type(problem).__name__}); try another answer.")
    return ("" if feedback.verdict == "unanswered" else feedback.verdict), feedback.to_html()


def _attempt(attempt: Any) -> int | None:
    """The try number a page sent (1, 2, ...), or None when it sent none or something else (a hand-edited store)."""
    whole = isinstance(attempt, int) and not isinstance(attempt, bool)
    return attempt if whole and 1 <= attempt <= 10**6 else None


def check(exercise_id: str, answer: str, attempt: int | None = None) -> dict[str, Any]:
    """The exercise bank's verdict on a typed or chosen answer: ``verdict`` and the feedback's ``html``.

    ``attempt`` is which try this is, as the page counted (1 for the first: an exercise that gives a hint first,
    00.2, then gives the hint); without it, the tries are counted here, while the page stays open.
    """
    try:
        ex = exercise(exercise_id)
    except (KeyError, ValueError):
        return {"verdict": "", "html": views.message_html(f"No exercise {exercise_id!r} here; reload the page.")}
    verdict, shown = _feedback(ex, answer, lambda given: check_exercise(ex.id, given, _attempt(attempt)))
    return {"verdict": verdict, "html": shown}


def _practice_number(exercise_id: Any, number: Any) -> str | None:
    """Why this practice question cannot be asked (an id or a number a hand-edited store sent), or None."""
    if exercise_id not in practice.PRACTISED:
        return f"No practice like exercise {str(exercise_id)[:20]!r} here; reload the page."
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= practice.MAX_NUMBER:
        return "That practice question's number is not one the page gives; press Another one."
    return None


def practice_question(exercise_id: str, number: int) -> dict[str, Any]:
    """The ``number``-th practice question like ``exercise_id``: its ``html`` (the question, drawn here from the
    package's data), the answer box's ``label``, the ``number`` asked, and ``message`` when it cannot be asked."""
    refused = _practice_number(exercise_id, number)
    if refused is None:
        try:
            shown = practice.question_view(exercise_id, number)
        except ValueError as problem:  # no variant passed its checks: say so, never a traceback
            refused = str(problem)
        else:
            return {
                "html": shown.to_html(),
                "label": answer_label(exercise(exercise_id)),
                "number": number,
                "message": "",
            }
    return {"html": views.message_html(refused), "label": "", "number": None, "message": refused}


def next_practice(exercise_id: str, previous: Any, kept: Any = None, again: bool = False) -> dict[str, Any]:
    """:func:`practice_question` for the question after ``previous`` (the number the page kept; the first
    question when it kept none, or kept something that is not such a number, or the last there is), with the
    skill's ``streak`` after it: asking for another question before answering the one shown ends the run
    (``kept``: the streak as the page stored it). ``again``: ``previous`` itself, asked again with the streak as
    it was (a page reloaded while its question was unanswered)."""
    whole = isinstance(previous, int) and not isinstance(previous, bool) and 1 <= previous <= practice.MAX_NUMBER
    if again is True and whole:
        asked = practice_question(exercise_id, previous)
    else:
        asked = practice_question(exercise_id, previous + 1 if whole and previous < practice.MAX_NUMBER else 1)
    if asked["number"] is None:
        return asked | {"streak": None, "streak_text": ""}
    streak = practice.Streak.restore(exercise_id, kept)
    if whole and streak.last != previous and asked["number"] != previous:
        streak = streak.after("skipped", previous)
    return asked | {"streak": streak.to_dict(), "streak_text": streak.message()}


def practice_check(exercise_id: str, number: Any, answer: str, kept: Any) -> dict[str, Any]:
    """The verdict on an answer to a practice question, and the skill's streak after it (``kept``: the streak
    as the page stored it; only the first answer to each question counts): ``verdict``, ``html``, ``streak``
    (to store) and ``streak_text``."""
    refused = _practice_number(exercise_id, number)
    if refused is not None:
        return {"verdict": "", "html": views.message_html(refused), "streak": None, "streak_text": ""}
    streak = practice.Streak.restore(exercise_id, kept)
    verdict, shown = _feedback(practice.another(exercise_id, number), answer)
    if verdict:
        streak = streak.after(verdict, number)
    return {"verdict": verdict, "html": shown, "streak": streak.to_dict(), "streak_text": streak.message()}


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
        return json.dumps({"html": "", "value": None, "headline": "", "message": message, "extra": {}, "links": []})
    return json.dumps(widget(kind, state))


def check_json(exercise_id: str, text: str, attempt: Any = None) -> str:
    """:func:`check` between JSON strings: ``text`` is the answer as a JSON string; ``attempt`` (optional) is
    which try this is, as the page counted (a number; anything else is not counted)."""
    answer = _loads(text)
    return json.dumps(check(exercise_id, answer if isinstance(answer, str) else "", _attempt(attempt)))


def practice_json(exercise_id: str, text: str) -> str:
    """:func:`next_practice` between JSON strings: ``text`` holds the number the page kept (``previous``, or
    ``null``), the kept ``streak``, and ``again`` (true: ``previous`` itself, unanswered when the page was left)."""
    sent = _loads(text)
    if not isinstance(sent, dict):
        sent = {}
    return json.dumps(next_practice(exercise_id, sent.get("previous"), sent.get("streak"), sent.get("again") is True))


def practice_check_json(exercise_id: str, text: str) -> str:
    """:func:`practice_check` between JSON strings: ``text`` holds ``number``, ``answer`` and the kept ``streak``."""
    sent = _loads(text)
    if not isinstance(sent, dict):
        sent = {}
    answer = sent.get("answer")
    return json.dumps(
        practice_check(exercise_id, sent.get("number"), answer if isinstance(answer, str) else "", sent.get("streak"))
    )
