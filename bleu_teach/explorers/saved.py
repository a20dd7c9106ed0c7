"""An explorer's values as its notebook output carries them, and read back from a saved notebook.

Every explorer widget's output carries, beside the widget view, its own MIME
bundle :data:`EXPLORER_MIME`: the explorer's name (its declaration in
:data:`~bleu_teach.explorers.definitions.EXPLORERS`) and its control values by
name, written from the declaration (:func:`explorer_bundle`).  A notebook
saved after a run (``make notebooks``) keeps it in the cell's output, so the
website's build reads an explorer's values there (:func:`saved_explorers`),
by name, and never from the widgets' models.

Standard library only: the website's build reads the lessons with it.

>>> bundle = explorer_bundle(EXPLORERS["ClippingExplorer"], {"hypothesis": "the cat", "references": ["a cat"],
...                                                          "n": 2, "compact": False})
>>> saved_explorer({EXPLORER_MIME: bundle})[1]
{'hypothesis': 'the cat', 'references': ['a cat'], 'n': 2, 'compact': False}

A ``fixed`` setting the saved output does not have (declared after it was saved) takes its default, which is
what the widget showed; any other missing or unknown value means the notebook must be run again
(``make notebooks``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from bleu_teach.explorers.declaration import Explorer
from bleu_teach.explorers.definitions import EXPLORERS

__all__ = ["EXPLORER_MIME", "WIDGET_VIEW", "WIDGET_STATE", "explorer_bundle", "saved_explorer", "saved_explorers"]

#: The MIME type of an explorer's own output: ``{"explorer": name, "values": {control name: value}}``.
EXPLORER_MIME = "application/vnd.bleu-teach.explorer+json"
#: Jupyter's MIME types of a widget output and of a notebook's saved widget state.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def explorer_bundle(explorer: Explorer, values: Mapping[str, Any]) -> dict[str, Any]:
    """What an explorer's output carries under :data:`EXPLORER_MIME`: its name and its values, in declared order."""
    missing = [name for name in explorer.names if name not in values]
    if missing:
        raise ValueError(f"explorer_bundle: values has no {', '.join(map(repr, missing))} for {explorer.name}.")
    return {"explorer": explorer.name, "values": {name: values[name] for name in explorer.names}}


def saved_explorer(data: Mapping[str, Any]) -> tuple[Explorer, dict[str, Any]] | None:
    """The explorer an output's ``data`` (its MIME bundle) shows and its values, or None if it shows none."""
    bundle = data.get(EXPLORER_MIME)
    if bundle is None:
        return None
    name = bundle.get("explorer") if isinstance(bundle, Mapping) else None
    given = bundle.get("values") if isinstance(bundle, Mapping) else None
    if not isinstance(name, str) or not isinstance(given, Mapping):
        raise ValueError(f"A saved {EXPLORER_MIME} output has no explorer name and values: re-run make notebooks.")
    if name not in EXPLORERS:
        raise ValueError(f"A saved output shows an explorer {name!r} that bleu_teach does not declare.")
    explorer = EXPLORERS[name]
    unknown = [key for key in given if key not in explorer.names]
    if unknown:
        raise ValueError(
            f"The saved {name} has values {', '.join(map(repr, unknown))} it does not declare: re-run make notebooks."
        )
    values = dict(given)
    # A fixed setting declared after the notebook was saved (the clipping explorer's compact report) was, when
    # it was saved, what its default is now: the saved widget showed that.
    values.update({c.name: c.default for c in explorer.controls if c.kind == "fixed" and c.name not in values})
    missing = [name for name in explorer.names if name not in values]
    if missing:
        raise ValueError(f"The saved {name} has no {', '.join(map(repr, missing))}: re-run make notebooks.")
    return explorer, {key: values[key] for key in explorer.names}


def saved_explorers(notebook: Mapping[str, Any]) -> Iterator[tuple[int, Explorer, dict[str, Any]]]:
    """Every explorer a saved notebook shows: (code cell index, declaration, saved values), in order."""
    for index, cell in enumerate(notebook.get("cells", [])):
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            found = saved_explorer(output.get("data", {}))
            if found is not None:
                yield index, *found
