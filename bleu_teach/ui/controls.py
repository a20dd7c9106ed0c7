"""The explorers' controls: ipywidgets controls whose ``value``, set from Python, is checked first.

A teacher scripting a demo may set a control after the widget is built
(``explorer.smoothing.value = "1"``).  ipywidgets would answer a value it
cannot take with traitlets' own ``TraitError``, and a slider would silently
clamp a length it cannot show.  These controls check the value with the
same checks as the widgets' constructor arguments
(:mod:`bleu_teach.explorers.arguments`) and either take it, in the
package's spelling ("1" becomes "method1"), or raise a ``TypeError`` or
``ValueError`` that names the widget and the setting and says what to pass.

Values the browser sends are set by ipywidgets itself and are always ones
the control offers; they pass the same check unchanged.

>>> box = Choice(options=["method0", "method1"], value="method0", check=lambda v: str(v).lower())
>>> box.value = "METHOD1"
>>> box.value
'method1'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bleu_teach.inputs.optional import needs

needs("ipywidgets", "The lessons' explorers (controls)")
import ipywidgets as widgets

__all__ = [
    "CheckedValue",
    "CheckedSelection",
    "Choice",
    "Slider",
    "Tick",
    "TextLine",
    "TextArea",
    "WholeNumber",
    "Toggles",
]


class CheckedValue:
    """Mixin: ``check(value)`` runs before every assignment to ``value`` made after construction."""

    def __init__(self, *args: Any, check: Callable[[Any], Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.value_check = check

    def __setattr__(self, name: str, value: Any) -> None:
        check = self.__dict__.get("value_check")
        if name == "value" and check is not None:
            value = check(value)
        super().__setattr__(name, value)


class CheckedSelection(CheckedValue):
    """Mixin for menus and toggle buttons: ``index`` and ``label`` set from Python are checked too."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in ("index", "label") and self.__dict__.get("value_check") is not None:
            options = list(getattr(self, "options", ()))
            labels = [str(o[0]) if isinstance(o, tuple) else str(o) for o in options]
            what = f"{getattr(self, 'description', '') or 'this menu'}"
            if (
                name == "index"
                and value is not None
                and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < len(options))
            ):
                raise ValueError(
                    f"{what}: index must be a whole number from 0 to {len(options) - 1} (one per "
                    f"choice), not {value!r}."
                )
            if name == "label" and value is not None and value not in labels:
                raise ValueError(f"{what}: label must be one of {', '.join(map(repr, labels))}, not {value!r}.")
        super().__setattr__(name, value)


class Choice(CheckedSelection, widgets.Dropdown):
    """A menu (Dropdown) whose value (and index and label) is checked."""


class Slider(CheckedValue, widgets.IntSlider):
    """A whole-number slider whose value is checked (refused, never clamped)."""


class Tick(CheckedValue, widgets.Checkbox):
    """A checkbox whose value must be True or False."""


class TextLine(CheckedValue, widgets.Text):
    """A one-line text box whose value must be text."""


class TextArea(CheckedValue, widgets.Textarea):
    """A text area whose value must be text."""


class WholeNumber(CheckedValue, widgets.BoundedIntText):
    """A number box whose value is checked (refused, never clamped)."""


class Toggles(CheckedSelection, widgets.ToggleButtons):
    """Toggle buttons whose value (and index and label) is checked."""
