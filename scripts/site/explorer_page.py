"""The live explorer page's Python (the static site runs it in the browser on Pyodide).

The page sends what the learner typed as JSON and gets JSON back: the
report's HTML (bleu_teach.views.html_writer's, every piece of typed text escaped), the
score as ``repr(float)`` for ``data-score`` and as shown in the report, or a
message for the learner instead.  The scoring itself is
:func:`bleu_teach.ui.typed_input.explain_text`, the notebook explorer's own path.
"""

from __future__ import annotations

import json
from typing import Any

from bleu_teach.ui.typed_input import explain_text
from bleu_teach.views.formatting import format_number

#: The settings the page sends, with their types.
FIELDS: dict[str, type] = {"hypothesis": str, "references": list, "tokenizer": str, "lowercase": bool, "max_n": str,
                           "weights": str, "smoothing": str}


def _max_n(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError(f"Max n must be a whole number, e.g. 4 (got {text!r}).") from None


def score(state: dict[str, Any]) -> dict[str, Any]:
    """The report for the page's state, or ``message`` saying what to change."""
    for name, kind in FIELDS.items():
        if not isinstance(state.get(name), kind):
            return {"message": f"The page sent no valid {name!r}; reload the page.", "score": None, "html": ""}
    try:
        report = explain_text(state["hypothesis"], state["references"], state["tokenizer"], state["lowercase"],
                              _max_n(state["max_n"]), state["weights"], state["smoothing"])
    except (TypeError, ValueError) as problem:
        return {"message": str(problem), "score": None, "html": ""}
    except ImportError:
        return {"message": f"The {state['tokenizer']} tokenizer needs a package this page does not carry; "
                           f"choose another tokenizer.", "score": None, "html": ""}
    except Exception as problem:  # never let a traceback reach the learner
        return {"message": f"Something went wrong ({type(problem).__name__}); try changing the input.", "score": None,
                "html": ""}
    return {"message": "", "score": repr(report.score), "shown": f"BLEU = {format_number(report.score)}",
            "html": report.to_html()}


def score_json(text: str) -> str:
    """:func:`score` between JSON strings (the page's one call into Python)."""
    try:
        state = json.loads(text)
    except ValueError:
        state = None
    if not isinstance(state, dict):
        return json.dumps({"message": "The page sent no settings; reload the page.", "score": None, "html": ""})
    return json.dumps(score(state))
