"""An explorer's control values read back from a notebook's saved widget state.

A notebook saved with its widget state (``make notebooks``) holds every
widget model as JSON.  The notebook widgets mark themselves there by name,
not by the labels a learner reads: the explorer's box carries the classes
``bleu-teach-explorer`` and ``bleu-teach-explorer-<Name>`` (its declaration
in :data:`~bleu_teach.explorers.definitions.EXPLORERS`), and each control
the class ``bleu-teach-<control name>``.  :func:`saved_explorer` finds them
and returns the declaration and the values, ready for
:meth:`~bleu_teach.explorers.declaration.Explorer.view`.

Standard library only: the website's build reads the lessons with it.

>>> models = {"box": {"state": {"_dom_classes": ["bleu-teach-explorer", "bleu-teach-explorer-ClippingExplorer"],
...                             "children": ["IPY_MODEL_h", "IPY_MODEL_r", "IPY_MODEL_n"]}},
...           "h": {"state": {"_dom_classes": ["bleu-teach-hypothesis"], "value": "the cat"}},
...           "r": {"state": {"_dom_classes": ["bleu-teach-references"], "children": ["IPY_MODEL_r1"]}},
...           "r1": {"state": {"description": "Reference 1", "value": "a cat"}},
...           "n": {"state": {"_dom_classes": ["bleu-teach-n"], "value": 2}}}
>>> saved_explorer(models, "box")[1]
{'hypothesis': 'the cat', 'references': ['a cat'], 'n': 2, 'compact': False}

A ``fixed`` setting the saved widget does not have (declared after it was saved) takes its default, which is
what the widget showed; any other missing control means the notebook must be run again (``make notebooks``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from bleu_teach.explorers.declaration import Explorer
from bleu_teach.explorers.definitions import EXPLORERS

__all__ = ["MARK", "explorer_class", "control_class", "widget_tree", "saved_explorer", "saved_explorers"]

#: The class every explorer's box carries in its saved state.
MARK = "bleu-teach-explorer"
#: The MIME types of a widget output and of a notebook's saved widget state.
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def explorer_class(name: str) -> str:
    """The class that names an explorer's declaration on its box."""
    return f"{MARK}-{name}"


def control_class(name: str) -> str:
    """The class that names a control."""
    return f"bleu-teach-{name}"


def _state(models: Mapping[str, Any], model_id: str) -> dict[str, Any] | None:
    model = models.get(str(model_id).removeprefix("IPY_MODEL_"))
    state = model.get("state") if isinstance(model, Mapping) else None
    return state if isinstance(state, dict) else None


def widget_tree(models: Mapping[str, Any], model_id: str) -> Iterator[dict[str, Any]]:
    """The saved states of a widget and of all its descendants, depth first (the order shown on screen)."""
    state = _state(models, model_id)
    if state is None:
        return
    yield state
    for child in state.get("children", []):
        yield from widget_tree(models, child)


def _value(models: Mapping[str, Any], state: dict[str, Any], explorer: Explorer, name: str) -> Any:
    control = explorer.control(name)
    if control.kind == "references":
        return [box["value"] for box in _descendants(models, state) if isinstance(box.get("value"), str)]
    if "_options_labels" in state:  # a menu or toggle buttons: the saved state holds the index and the labels
        labels, index = state["_options_labels"], state.get("index")
        if not isinstance(index, int) or not 0 <= index < len(labels):
            raise ValueError(f"The saved {explorer.name}'s {name!r} has no valid selection: re-run make notebooks.")
        shown = labels[index]
        pairs = explorer.choices(control)
        return next((value for value, label in pairs if label == shown), shown)
    if "value" not in state:
        raise ValueError(f"The saved {explorer.name}'s {name!r} holds no value: re-run make notebooks.")
    return state["value"]


def _descendants(models: Mapping[str, Any], state: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for child in state.get("children", []):
        yield from widget_tree(models, child)


def saved_explorer(models: Mapping[str, Any], model_id: str) -> tuple[Explorer, dict[str, Any]] | None:
    """The explorer shown by the widget ``model_id`` and its saved values, or None if it is not an explorer."""
    top = _state(models, model_id)
    classes = top.get("_dom_classes", []) if top else []
    names = [c.removeprefix(MARK + "-") for c in classes if c.startswith(MARK + "-")]
    if top is None or MARK not in classes or len(names) != 1:
        return None
    if names[0] not in EXPLORERS:
        raise ValueError(f"A saved widget is an explorer {names[0]!r} that bleu_teach does not declare.")
    explorer = EXPLORERS[names[0]]
    values: dict[str, Any] = {}
    for state in widget_tree(models, model_id):
        for name in (c.removeprefix("bleu-teach-") for c in state.get("_dom_classes", [])):
            if name in explorer.names and name not in values:
                values[name] = _value(models, state, explorer, name)
    # A fixed setting declared after the notebook was saved (the clipping explorer's compact report) was, when
    # it was saved, what its default is now: the saved widget showed that.
    values.update({c.name: c.default for c in explorer.controls if c.kind == "fixed" and c.name not in values})
    missing = [name for name in explorer.names if name not in values]
    if missing:
        raise ValueError(
            f"The saved {explorer.name} has no {', '.join(map(repr, missing))} control: re-run make notebooks."
        )
    return explorer, {name: values[name] for name in explorer.names}


def saved_explorers(notebook: Mapping[str, Any]) -> Iterator[tuple[int, Explorer, dict[str, Any]]]:
    """Every explorer a saved notebook shows: (code cell index, declaration, saved values), in order."""
    models = notebook.get("metadata", {}).get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    for index, cell in enumerate(notebook.get("cells", [])):
        for output in cell.get("outputs", []) if cell.get("cell_type") == "code" else []:
            view = output.get("data", {}).get(WIDGET_VIEW)
            found = saved_explorer(models, view["model_id"]) if isinstance(view, Mapping) else None
            if found is not None:
                yield index, *found
