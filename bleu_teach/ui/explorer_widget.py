"""The explorers' common part (ipywidgets): an explorer widget made from its declaration.

:class:`ExplorerWidget` is the base class of every explorer in
:mod:`bleu_teach.ui.widgets`.  From an explorer's declaration
(:class:`bleu_teach.explorers.declaration.Explorer`) it makes one ipywidgets
control per declared control (the checked controls of
:mod:`bleu_teach.ui.controls`; a list of references is a
:class:`ReferenceList`), lays them out in the declared rows, with Previous
and Next buttons and notes where declared, and shows the declared view of
their values, again whenever one changes.  :func:`label_style` sets the
width of the controls' labels so that they stay aligned.

Its output carries, beside the widget view, its own MIME bundle: its name and
values (:func:`bleu_teach.explorers.saved.explorer_bundle`), which a saved
notebook keeps and the website reads.  The box carries the classes
``bleu-teach-explorer`` and ``bleu-teach-explorer-<Name>`` and each control
``bleu-teach-<control name>``, for the deck's style sheet; a ``fixed`` setting
is held in a hidden control.

>>> references = ReferenceList(["the cat is on the mat", "there is a cat"], lambda: None)
>>> references.values, references.remove_button.disabled
(['the cat is on the mat', 'there is a cat'], False)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bleu_teach.inputs.optional import needs

needs("ipywidgets", "The lessons' explorers (widgets)")
import ipywidgets as widgets

from bleu_teach.explorers import arguments
from bleu_teach.explorers.declaration import NO_CONTEXT, Control, Explorer, enabled
from bleu_teach.explorers.definitions import EXPLORERS
from bleu_teach.explorers.saved import EXPLORER_MIME, explorer_bundle
from bleu_teach.explorers.typed_input import MAX_REFERENCES
from bleu_teach.explorers.views import WidgetView
from bleu_teach.ui import controls

__all__ = ["ExplorerWidget", "ReferenceList", "label_style"]

#: The class every explorer's box carries (the deck's style sheet uses it).
MARK = "bleu-teach-explorer"
_WIDE = widgets.Layout(width="95%")
_LABEL = {"description_width": "110px"}
#: A label up to this many characters sets the width of every label of its explorer (they stay aligned); a longer
#: one takes the width it needs on its own row, so that no label is cut short ("Reference 1 le...").
_ALIGNED_LABEL = 24


def label_style(declaration: Explorer, control: Control) -> dict[str, str]:
    """The ipywidgets style of a control's label: wide enough for every aligned label of the explorer (at least
    110 px, about 0.62 em a character, as JupyterLab's 13 px sans-serif sets them), or its own width if longer."""
    if len(control.label) > _ALIGNED_LABEL:
        return {"description_width": "initial"}
    longest = max(
        (
            len(c.label)
            for c in declaration.controls
            if c.kind not in ("fixed", "tick", "references") and len(c.label) <= _ALIGNED_LABEL
        ),
        default=0,
    )
    return {"description_width": f"max(110px, {0.62 * longest + 0.8:.1f}em)"}


class ReferenceList(widgets.VBox):
    """1 to ``max_refs`` reference boxes (at most ``MAX_REFERENCES``) with Add and Remove buttons.

    ``texts`` holds the starting text of each box (1 to ``max_refs`` strings;
    [""] for one empty box); ``on_change()`` is called when a box changes.
    """

    def __init__(self, texts: Sequence[str], on_change: Callable[[], None], max_refs: int = MAX_REFERENCES) -> None:
        max_refs = arguments.whole(max_refs, "ReferenceList", "max_refs", MAX_REFERENCES, "MAX_REFERENCES")
        texts = arguments.texts(texts, "ReferenceList", "texts", max_refs, f"max_refs = {max_refs}")
        if not callable(on_change):
            raise TypeError(
                f"ReferenceList: on_change must be a function to call when a box changes, "
                f"not {arguments.preview(on_change)}."
            )
        self._on_change = on_change
        self.max_refs = max_refs
        # Width from the label, so that "Add reference" is never cut off on a slide.
        self.add_button = widgets.Button(
            description="Add reference", icon="plus", tooltip="Add a reference box", layout=widgets.Layout(width="auto")
        )
        self.remove_button = widgets.Button(
            description="Remove last",
            icon="minus",
            tooltip="Remove the last reference",
            layout=widgets.Layout(width="auto"),
        )
        self.add_button.on_click(lambda _: self.add())
        self.remove_button.on_click(lambda _: self.remove())
        self.boxes: list[widgets.Text] = []
        super().__init__()
        for text in texts:
            self._append(text)
        self._refresh()

    def _append(self, text: str) -> None:
        number = len(self.boxes) + 1
        box = controls.TextLine(
            value=text,
            description=f"Reference {number}",
            layout=_WIDE,
            style=_LABEL,
            continuous_update=True,
            check=lambda v: arguments.text(v, "ReferenceList", f"reference {number}"),
        )
        box.observe(lambda _: self._on_change(), names="value")
        self.boxes.append(box)

    def _refresh(self) -> None:
        self.add_button.disabled = len(self.boxes) >= self.max_refs
        self.remove_button.disabled = len(self.boxes) <= 1
        self.children = (*self.boxes, widgets.HBox([self.add_button, self.remove_button]))

    def __repr__(self) -> str:
        return f"ReferenceList({self.values!r})"

    @property
    def values(self) -> list[str]:
        return [box.value for box in self.boxes]

    def add(self, text: str = "") -> None:
        text = arguments.text(text, "ReferenceList", "text")
        if len(self.boxes) >= self.max_refs:
            raise ValueError(
                f"ReferenceList: it already has {self.max_refs} references, the most it holds "
                f"(max_refs); remove one first."
            )
        self._append(text)
        self._refresh()
        self._on_change()

    def remove(self) -> None:
        if len(self.boxes) <= 1:
            raise ValueError("ReferenceList: it has one reference left, and an explorer needs at least one reference.")
        self.boxes.pop().close()
        self._refresh()
        self._on_change()


class ExplorerWidget(widgets.VBox):
    """An explorer made from its declaration: ``declaration``, the one in
    :data:`~bleu_teach.explorers.definitions.EXPLORERS` under the subclass's name.

    Each declared control becomes an attribute holding its ipywidgets control
    (a ``fixed`` one holds its value); ``output`` shows the declared view's
    HTML and ``result`` the object its numbers come from (None while the
    input is bad).  Values set from Python after construction pass the
    control's declared check.
    """

    declaration: Explorer

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "declaration" not in cls.__dict__:
            if cls.__name__ not in EXPLORERS:
                raise TypeError(
                    f"{cls.__name__}: no explorer of that name is declared; add its declaration to EXPLORERS "
                    f"(bleu_teach/explorers/definitions.py) under the class's name, or set declaration."
                )
            cls.declaration = EXPLORERS[cls.__name__]

    @classmethod
    def given(cls, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """The declared controls' values among a constructor's arguments (its ``locals()``), by control name: the
        constructor's signature says each control once, and ``tests/test_extensions.py`` checks that its names and
        defaults are the declaration's."""
        return {name: arguments[name] for name in cls.declaration.names}

    def _build(self, given: Mapping[str, Any], context: Mapping[str, Any] = NO_CONTEXT) -> None:
        owner = type(self).__name__
        declaration = self.declaration
        values = declaration.checked_values(given, owner, context)
        self.context = context
        self.fixed = {c.name: values[c.name] for c in declaration.controls if c.kind == "fixed"}
        self.controls: dict[str, Any] = {}
        self.notes: dict[str, widgets.HTML] = {}
        self.step_buttons: dict[str, tuple[widgets.Button, widgets.Button]] = {}
        for control in declaration.controls:
            made = self._control(control, values, owner)
            made.add_class(f"bleu-teach-{control.name}")
            self.controls[control.name] = made
            setattr(self, control.name, values[control.name] if control.kind == "fixed" else made)
        self.output = widgets.HTML()
        self.result: Any = None
        super().__init__(self._rows(values) + [self.output, *self._after_output()])
        self.add_class(MARK)
        self.add_class(f"{MARK}-{declaration.name}")
        self._resetting = False
        for control in declaration.controls:  # before the updates: a new list's rank is 1 when it is shown
            if control.resets:
                self.controls[control.name].observe(lambda _, c=control: self._reset(c), names="value")
        for name, made in self.controls.items():
            if declaration.control(name).kind not in ("references", "fixed"):
                made.observe(lambda _: None if self._resetting else self.update(), names="value")
        self.update()

    def _reset(self, changed: Control) -> None:
        """Put back the controls ``changed`` resets (its declaration's ``resets``) to their defaults, quietly: the
        change that called this shows them."""
        self._resetting = True
        try:
            for name in changed.resets:
                self.controls[name].value = self.declaration.control(name).default
        finally:
            self._resetting = False

    def step(self, name: str, step: int) -> None:
        """Press a stepping control's Previous (``step`` -1) or Next (+1) button."""
        control, made = self.declaration.control(name), self.controls.get(name)
        if not control.steps or made is None:
            raise ValueError(f"{type(self).__name__}: {name} has no Previous and Next buttons.")
        made.value = control.stepped(made.value, step, made.max)

    def _control(self, control: Control, values: Mapping[str, Any], owner: str) -> Any:
        """The ipywidgets control for a declared control, set to its checked value."""
        value = values[control.name]

        def check(v: Any) -> Any:
            return control.checked(v, owner, self.state(), self.context)

        common: dict[str, Any] = {
            "value": value,
            "description": control.label,
            "style": label_style(self.declaration, control),
            "check": check,
        }
        if control.kind == "references":
            return ReferenceList(value, self.update)
        if control.kind == "line":
            return controls.TextLine(
                continuous_update=True,
                placeholder=control.placeholder,
                layout=widgets.Layout() if control.setting else _WIDE,
                **common,
            )
        if control.kind == "area":
            return controls.TextArea(layout=_WIDE, rows=control.rows, continuous_update=True, **common)
        if control.kind == "slider":  # as wide as a text box, so that a long label leaves the slider its length
            return controls.Slider(
                min=control.low, max=control.top(values), layout=widgets.Layout(width="95%"), **common
            )
        if control.kind == "number":
            return controls.WholeNumber(
                min=control.low, max=control.top(values) or 10**9, layout=widgets.Layout(width="220px"), **common
            )
        if control.kind == "tick":
            return controls.Tick(**{k: v for k, v in common.items() if k != "style"})
        if control.kind in ("menu", "buttons"):
            options = [(shown, choice) for choice, shown in self.declaration.choices(control, self.context)]
            made = controls.Choice if control.kind == "menu" else controls.Toggles
            layout = widgets.Layout(width="95%") if control.name == "smoothing" else widgets.Layout()
            return made(options=options, layout=layout, **common)
        hidden = widgets.Layout(display="none")
        if isinstance(value, bool):
            return widgets.Checkbox(value=value, description=control.label, layout=hidden)
        return widgets.IntText(value=value, description=control.label, layout=hidden)

    def _rows(self, values: Mapping[str, Any]) -> list[Any]:
        """The controls laid out: declared rows side by side, a number with its note, hidden settings folded."""
        placed: set[str] = set()
        shown: list[Any] = []
        settings: list[Any] = []
        hidden: list[Any] = []
        for control in self.declaration.controls:
            if control.kind == "fixed":
                hidden.append(self.controls[control.name])
                continue
            if control.name in placed:
                continue
            row = next((r for r in self.declaration.rows if control.name in r), (control.name,))
            placed.update(row)
            items = [self.controls[name] for name in row]
            if control.steps:  # Previous and Next beside it (lesson 08's rank)
                self.step_buttons[control.name] = buttons = (
                    widgets.Button(
                        description="Previous",
                        icon="arrow-left",
                        tooltip=f"Previous {control.label.lower()}",
                        layout=widgets.Layout(width="auto"),
                    ),
                    widgets.Button(
                        description="Next",
                        icon="arrow-right",
                        tooltip=f"Next {control.label.lower()}",
                        layout=widgets.Layout(width="auto"),
                    ),
                )
                buttons[0].on_click(lambda _, name=control.name: self.step(name, -1))
                buttons[1].on_click(lambda _, name=control.name: self.step(name, 1))
                items += buttons
            if control.kind in ("number", "slider"):  # a note beside it (the rank's "of N pairs", a system's name)
                self.notes[control.name] = widgets.HTML()
                items.append(self.notes[control.name])
            item = widgets.HBox(items) if len(items) > 1 else items[0]
            (settings if control.setting else shown).append(item)
        #: The rows that hold the scoring settings (hidden together when show_settings is False).
        self.setting_rows = list(settings)
        if values.get("show_settings", True) is False:
            settings = [widgets.VBox(settings, layout=widgets.Layout(display="none"))]
        return shown + settings + hidden

    def _after_output(self) -> list[Any]:
        """Widgets shown below the output (the brevity-penalty plot)."""
        return []

    def state(self) -> dict[str, Any]:
        """Every control's current value, by name (what the declared view takes)."""
        found: dict[str, Any] = {}
        for control in self.declaration.controls:
            made = self.controls.get(control.name)
            if control.kind == "fixed":
                found[control.name] = self.fixed[control.name]
            elif isinstance(made, ReferenceList):
                found[control.name] = made.values
            elif made is not None:
                found[control.name] = made.value
        return found

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any] | None:
        """The widget view (ipywidgets), and the explorer's own bundle: its name and values (what the site reads)."""
        bundle: dict[str, Any] | None = super()._repr_mimebundle_(**kwargs)
        if bundle is not None:
            bundle[EXPLORER_MIME] = explorer_bundle(self.declaration, self.state())
        return bundle

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}={value!r}"
            for name, value in self.state().items()
            if self.declaration.control(name).kind != "fixed"
        )
        return f"{type(self).__name__}({shown})"

    def update(self) -> None:
        """Show the declared view of the controls' current values."""
        values = self.state()
        for control in self.declaration.controls:
            if control.enabled_by:
                self.controls[control.name].disabled = not enabled(control, values)
        view = self.declaration.view(values, self.context)
        self.output.value = view.html
        self.result = view.result
        for name, top in view.extra.get("limits", {}).items():
            self.controls[name].max = top
        for name, note in view.extra.get("notes", {}).items():
            self.notes[name].value = note
        self._shown(view)

    def _shown(self, view: WidgetView) -> None:
        """What a subclass does besides showing the HTML (the brevity-penalty plot)."""
