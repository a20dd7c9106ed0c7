"""An explorer declared once: its controls and its view, from which every front end is made.

A "Try it" explorer is an :class:`Explorer`: a tuple of :class:`Control`
(name, label, kind, range or choices, default) and a ``render`` function
from the controls' values to a :class:`~bleu_teach.explorers.views.WidgetView`.
The notebook widget (:mod:`bleu_teach.ui.widgets` builds one ipywidgets
control per declared control), the website's form (one template reads the
controls), the state a saved notebook holds (each control carries its name,
:mod:`bleu_teach.explorers.saved`) and the page's first render are all made
from that one declaration.

* :meth:`Explorer.values` reads control values as a front end sends them (a
  form sends text: ``"4"``), each by its control (:meth:`Control.read`); a
  value that does not fit raises a ``ValueError`` worded for the learner.
* :meth:`Explorer.view` is the view for them: the numbers, or a message.
* :meth:`Control.checked` checks a value set from Python (a teacher
  scripting a demo), with the widget's name in the message.

Standard library only: the website runs it on Pyodide.

>>> slider = Control("n", "n-gram order", "slider", 1, high=4)
>>> slider.read("3")
3
>>> slider.read("9")
Traceback (most recent call last):
...
ValueError: n-gram order must be a whole number from 1 to 4 (got 9).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bleu_teach.explorers.views import WidgetView, guarded
from bleu_teach.inputs.validation import preview

__all__ = ["KINDS", "Control", "Explorer", "NO_CONTEXT", "Check", "UNREADABLE"]

#: What a control can be, and the type of its value.  ``fixed`` is a setting chosen when the explorer is made
#: (the sliders' range, a compact layout): not shown, but kept with the others so that a saved copy holds it.
KINDS: dict[str, type] = {
    "line": str,
    "area": str,
    "references": list,
    "slider": int,
    "number": int,
    "menu": str,
    "buttons": str,
    "tick": bool,
    "fixed": object,
}
#: The context of an explorer that needs none.
NO_CONTEXT: Mapping[str, Any] = {}
#: How a value set from Python is checked: ``check(value, owner, values, context)`` returns the value in the
#: package's spelling or raises a TypeError or ValueError that starts with ``owner`` (the widget's name);
#: ``values`` holds the controls declared before it, already checked.
Check = Callable[[Any, str, Mapping[str, Any], Mapping[str, Any]], Any]
#: The longest whole number a form may send, in digits (reading more would only take time).
_MOST_DIGITS = 9
#: What a page sends for a number box whose text the browser could not read as a number (its value is then "").
UNREADABLE = {"unreadable": True}
_TRUE, _FALSE = ("1", "true", "on"), ("", "0", "false", "off")


@dataclass(frozen=True)
class Control:
    """One control of an explorer.

    ``name`` is its key in the explorer's values (and the widget's attribute,
    the form field's name); ``label`` is what the learner reads beside it.
    ``low``/``high`` bound a slider or number (``high`` as a number, or the
    name of a ``fixed`` control that holds it, or 0 when the view bounds it);
    ``choices`` are a menu's (value, shown) pairs, or the name of the context
    entry that lists them.  ``enabled_by`` names a tick that enables it;
    ``setting`` marks a scoring setting that an explorer may hide.
    ``steps`` gives a number Previous and Next buttons (one down, one up,
    within its range); ``resets`` names the controls that go back to their
    defaults when this one changes (lesson 08's rank, back to 1 when the
    list it counts in changes).
    """

    name: str
    label: str
    kind: str
    default: Any
    low: int = 1
    high: int | str = 0
    choices: tuple[tuple[str, str], ...] | str = ()
    enabled_by: str = ""
    setting: bool = False
    placeholder: str = ""
    rows: int = 2
    check: Check | None = field(default=None, compare=False)
    steps: bool = False
    resets: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"Control {self.name!r}: kind must be one of {', '.join(KINDS)}, not {self.kind!r}.")
        if self.steps and self.kind not in ("number", "slider"):
            raise ValueError(f"Control {self.name!r}: only a number or a slider steps, not a {self.kind}.")

    def stepped(self, value: int, step: int, top: int) -> int:
        """The value one Previous (``step`` -1) or Next (+1) from ``value``, kept from ``low`` to ``top``.

        >>> Control("rank", "Rank", "number", 1, steps=True).stepped(1, -1, 5)
        1
        >>> Control("rank", "Rank", "number", 1).stepped(5, 1, 5)
        5
        """
        if step not in (-1, 1):
            raise ValueError(f"step must be -1 (Previous) or 1 (Next), not {step!r}.")
        return max(self.low, min(value + step, top)) if top else max(self.low, value + step)

    @property
    def whole(self) -> bool:
        """Whether the value is a whole number (a slider, a number box, or a fixed number)."""
        return self.kind in ("slider", "number") or (self.kind == "fixed" and type(self.default) is int)

    def top(self, values: Mapping[str, Any]) -> int:
        """The highest value a slider or number takes, given the explorer's ``fixed`` values (0: no fixed top)."""
        if isinstance(self.high, str):
            return int(values[self.high])
        return self.high

    def read(self, raw: Any, values: Mapping[str, Any] = NO_CONTEXT) -> Any:
        """The value a front end sent (typed, or as text from a form), checked; a learner-facing ``ValueError``."""
        if self.kind == "references":
            if not isinstance(raw, (list, tuple)) or not all(isinstance(text, str) for text in raw):
                raise ValueError(f"The page sent no valid {self.name!r}; reload the page.")
            return list(raw)
        if self.kind == "tick" or (self.kind == "fixed" and type(self.default) is bool):
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.strip().lower() in _TRUE + _FALSE:
                return raw.strip().lower() in _TRUE
            raise ValueError(f"The page sent no valid {self.name!r}; reload the page.")
        if self.whole:
            return self._whole(raw, values)
        if not isinstance(raw, str):
            raise ValueError(f"The page sent no valid {self.name!r}; reload the page.")
        return raw

    def _whole(self, raw: Any, values: Mapping[str, Any]) -> int:
        if raw == UNREADABLE:  # a browser's number box keeps what it cannot read (1e999, 1.5) to itself
            raise ValueError(
                f"{self.label} must be a whole number {self._span(values)}; what is typed in the box is not one."
            )
        if isinstance(raw, str):
            text = raw.strip()
            if not text:
                raise ValueError(f"{self.label} is empty: type a whole number.")
            digits = text.lstrip("+-")
            if digits.isdigit() and len(digits) > _MOST_DIGITS:
                raise ValueError(
                    f"{self.label} must be a whole number {self._span(values)} (at most {_MOST_DIGITS} "
                    f"digits); the number typed has {len(digits):,} digits."
                )
            if not digits.isdigit() or len(text) - len(digits) > 1:
                raise ValueError(f"{self.label} must be a whole number, e.g. 4 (got {preview(raw, 24)}).")
            number = int(text)
        elif isinstance(raw, int) and not isinstance(raw, bool):
            number = raw
        else:
            raise ValueError(f"The page sent no valid {self.name!r}; reload the page.")
        top = self.top(values) if self.kind != "fixed" else 0
        if number < self.low or (top and number > top):
            raise ValueError(f"{self.label} must be a whole number {self._span(values)} (got {number}).")
        return number

    def _span(self, values: Mapping[str, Any]) -> str:
        top = self.top(values) if self.kind != "fixed" else 0
        return f"from {self.low} to {top}" if top else f"of at least {self.low}"

    def checked(self, value: Any, owner: str, values: Mapping[str, Any], context: Mapping[str, Any]) -> Any:
        """A value set from Python (a constructor argument, ``widget.control.value = ...``), checked."""
        return value if self.check is None else self.check(value, owner, values, context)


@dataclass(frozen=True)
class Explorer:
    """An explorer: its controls, in the order shown, and ``render(values, context) -> WidgetView``.

    ``name`` is the notebook widget's class name (the website's ``data-widget``);
    ``rows`` lists controls shown side by side in the notebook (the others
    take a row each); ``check_together`` checks constructor values that bound
    each other (weights against Max n).  ``links`` gives the examples it
    opens in the full explorer (a label, "" for the only one, and the full
    explorer's values).

    An explorer that shows data (lesson 08's) names the context entries it
    needs in ``needs``; ``site_context()`` makes the context the website
    uses, ``context_to_json`` and ``context_from_json`` carry it to a page
    that cannot compute it (no SciPy there).
    """

    name: str
    title: str
    controls: tuple[Control, ...]
    render: Callable[[dict[str, Any], Mapping[str, Any]], WidgetView] = field(compare=False)
    rows: tuple[tuple[str, ...], ...] = ()
    needs: tuple[str, ...] = ()
    check_together: Callable[[dict[str, Any], str], None] | None = field(default=None, compare=False)
    links: Callable[[Mapping[str, Any]], list[tuple[str, dict[str, Any]]]] | None = field(default=None, compare=False)
    site_context: Callable[[], Mapping[str, Any]] | None = field(default=None, compare=False)
    context_to_json: Callable[[Mapping[str, Any]], str] | None = field(default=None, compare=False)
    context_from_json: Callable[[str], Mapping[str, Any]] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        for control in self.controls:
            unknown = [name for name in control.resets if name not in self.names or name == control.name]
            if unknown:
                raise ValueError(
                    f"{self.name}: {control.name} resets {', '.join(unknown)}, which is not another of its controls."
                )

    def control(self, name: str) -> Control:
        for control in self.controls:
            if control.name == name:
                return control
        raise ValueError(f"{self.name} has no control {name!r}; it has {', '.join(self.names)}.")

    @property
    def names(self) -> list[str]:
        return [control.name for control in self.controls]

    def defaults(self) -> dict[str, Any]:
        """Every control's default value."""
        return {control.name: control.default for control in self.controls}

    def choices(self, control: Control, context: Mapping[str, Any] = NO_CONTEXT) -> list[tuple[str, str]]:
        """A menu's (value, shown) pairs: its own, or the context's list (each value shown as it is)."""
        if isinstance(control.choices, str):
            return [(str(value), str(value)) for value in context.get(control.choices, ())]
        return list(control.choices)

    def ordered(self) -> list[Control]:
        """The controls in the order their values are checked: fixed ones (which bound the others) first."""
        return sorted(self.controls, key=lambda control: control.kind != "fixed")

    def values(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """Every control's value from what a front end sent (missing: the page is broken); learner messages."""
        if not isinstance(raw, Mapping):
            raise ValueError("The page sent no settings; reload the page.")
        values: dict[str, Any] = {}
        for control in self.ordered():
            if control.name not in raw:
                raise ValueError(f"The page sent no valid {control.name!r}; reload the page.")
            values[control.name] = control.read(raw[control.name], values)
        return values

    def view(self, raw: Mapping[str, Any], context: Mapping[str, Any] = NO_CONTEXT) -> WidgetView:
        """What the explorer shows for these control values: its HTML and headline, or a message (never raises)."""
        missing = [name for name in self.needs if name not in context]
        if missing:
            raise ValueError(f"{self.name} needs {', '.join(missing)} in its context.")
        return guarded(lambda: self.render(self.values(raw), context))

    def checked_values(
        self, given: Mapping[str, Any], owner: str, context: Mapping[str, Any] = NO_CONTEXT
    ) -> dict[str, Any]:
        """Constructor arguments (one per control) checked with each control's ``check``, fixed ones first."""
        values: dict[str, Any] = {}
        for control in self.ordered():
            values[control.name] = control.checked(given[control.name], owner, values, context)
        if self.check_together is not None:
            self.check_together(values, owner)
        return {name: values[name] for name in self.names}


def enabled(control: Control, values: Mapping[str, Any]) -> bool:
    """Whether a control is in use for these values (a control ``enabled_by`` a tick that is off is not)."""
    return not control.enabled_by or bool(values.get(control.enabled_by))


def shown_choice(pairs: Sequence[tuple[str, str]], value: str) -> str:
    """What a menu shows for ``value`` (the value itself if the menu does not offer it)."""
    return next((shown for choice, shown in pairs if choice == value), value)
