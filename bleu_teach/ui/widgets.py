"""Interactive explorers for the lessons (ipywidgets), each built from its declaration.

Every explorer is declared once in :mod:`bleu_teach.explorers.definitions`
(its controls and its view); :class:`ExplorerWidget` makes one ipywidgets
control per declared control and shows the declared view, so the notebook
widget and the website's form show the same numbers for the same values.
Bad or empty input shows a plain message inside the widget, which keeps
working; callbacks never print.

* :class:`ClippingExplorer`: one hypothesis, 1-8 references, an n-gram order.
* :class:`BrevityPenaltyExplorer`: sliders for reference and hypothesis lengths.
* :class:`BleuExplorer`: the full step-by-step report with every setting.
* :class:`SideBySideExplorer`: two hypotheses, the same references and settings; which wins and why.
* :class:`DisagreementExplorer`: real translations where sentence BLEU (or chrF) and expert MQM disagree most,
  the experts' errors highlighted beside the metric's step-by-step report.
* :class:`TwoMetricsExplorer`: two metrics against the experts over the WMT21 TED systems, with one system left
  out (lesson 09).

Constructor arguments are checked before any control is made: a wrong type
raises ``TypeError`` and a value outside what the widget can show raises
``ValueError``, each naming the widget and the argument and saying what to
pass (nothing is clamped or silently replaced).  Smoothing and tokenizer
names are read as everywhere else in the package ("method1", "1" and 1 are
method 1; case does not matter).  Text typed into a running widget is
different: bad or empty text shows a message inside the widget.

Each widget marks itself by name for its saved copy
(:mod:`bleu_teach.explorers.saved`): its box carries the classes
``bleu-teach-explorer`` and ``bleu-teach-explorer-<class name>``, each control
``bleu-teach-<control name>``; a ``fixed`` setting (the sliders' range, a
compact layout) is kept in a hidden control.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from bleu_teach.inputs.optional import needs

needs("ipywidgets", "The lessons' explorers (widgets)")
import ipywidgets as widgets

from bleu_teach.bleu.reports import BleuReport, HypothesisComparison
from bleu_teach.explorers import arguments
from bleu_teach.explorers.declaration import NO_CONTEXT, Control, Explorer, enabled
from bleu_teach.explorers.definitions import (BLEU, BREVITY, CLIPPING, DISAGREEMENT, SIDE_BY_SIDE, TWO_METRICS,
                                              disagreement_context, pairs_shown)
from bleu_teach.explorers.saved import MARK, control_class, explorer_class
from bleu_teach.explorers.typed_input import MAX_REFERENCES
from bleu_teach.explorers.views import (
    ALL_SYSTEMS,
    CLIPPING_MAX_ORDER,
    CLIPPING_SMOOTHING,
    MAX_BP_LENGTH,
    TOO_HARSH,
    TOO_KIND,
    WidgetView,
    message_html,
)
from bleu_teach.lessons.agreement import Disagreement, SegmentTable
from bleu_teach.lessons.mqm import check_data
from bleu_teach.lessons.two_metrics import REFERENCE_USED, TwoMetrics, system_scores
from bleu_teach.ui import controls

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.data import Wmt21Ted

__all__ = [
    "ReferenceList", "ExplorerWidget", "ClippingExplorer", "BrevityPenaltyExplorer", "BleuExplorer",
    "SideBySideExplorer", "DisagreementExplorer", "TwoMetricsExplorer", "MAX_REFERENCES", "CLIPPING_MAX_ORDER", "CLIPPING_SMOOTHING",
    "MAX_BP_LENGTH", "ALL_SYSTEMS", "TOO_KIND", "TOO_HARSH", "message_html",
]

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
    longest = max((len(c.label) for c in declaration.controls
                   if c.kind not in ("fixed", "tick", "references") and len(c.label) <= _ALIGNED_LABEL), default=0)
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
            raise TypeError(f"ReferenceList: on_change must be a function to call when a box changes, "
                            f"not {arguments.preview(on_change)}.")
        self._on_change = on_change
        self.max_refs = max_refs
        # Width from the label, so that "Add reference" is never cut off on a slide.
        self.add_button = widgets.Button(description="Add reference", icon="plus", tooltip="Add a reference box",
                                         layout=widgets.Layout(width="auto"))
        self.remove_button = widgets.Button(description="Remove last", icon="minus", tooltip="Remove the last reference",
                                            layout=widgets.Layout(width="auto"))
        self.add_button.on_click(lambda _: self.add())
        self.remove_button.on_click(lambda _: self.remove())
        self.boxes: list[widgets.Text] = []
        super().__init__()
        for text in texts:
            self._append(text)
        self._refresh()

    def _append(self, text: str) -> None:
        number = len(self.boxes) + 1
        box = controls.TextLine(value=text, description=f"Reference {number}", layout=_WIDE, style=_LABEL,
                                continuous_update=True,
                                check=lambda v: arguments.text(v, "ReferenceList", f"reference {number}"))
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
            raise ValueError(f"ReferenceList: it already has {self.max_refs} references, the most it holds "
                             f"(max_refs); remove one first.")
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
    """An explorer made from its declaration (``declaration``, set by each subclass).

    Each declared control becomes an attribute holding its ipywidgets control
    (a ``fixed`` one holds its value); ``output`` shows the declared view's
    HTML and ``result`` the object its numbers come from (None while the
    input is bad).  Values set from Python after construction pass the
    control's declared check.
    """

    declaration: Explorer

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
            made.add_class(control_class(control.name))
            self.controls[control.name] = made
            setattr(self, control.name, values[control.name] if control.kind == "fixed" else made)
        self.output = widgets.HTML()
        self.result: Any = None
        super().__init__(self._rows(values) + [self.output, *self._after_output()])
        self.add_class(MARK)
        self.add_class(explorer_class(declaration.name))
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

        common: dict[str, Any] = {"value": value, "description": control.label,
                                  "style": label_style(self.declaration, control), "check": check}
        if control.kind == "references":
            return ReferenceList(value, self.update)
        if control.kind == "line":
            return controls.TextLine(continuous_update=True, placeholder=control.placeholder,
                                     layout=widgets.Layout() if control.setting else _WIDE, **common)
        if control.kind == "area":
            return controls.TextArea(layout=_WIDE, rows=control.rows, continuous_update=True, **common)
        if control.kind == "slider":  # as wide as a text box, so that a long label leaves the slider its length
            return controls.Slider(min=control.low, max=control.top(values), layout=widgets.Layout(width="95%"),
                                   **common)
        if control.kind == "number":
            return controls.WholeNumber(min=control.low, max=control.top(values) or 10**9,
                                        layout=widgets.Layout(width="220px"), **common)
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
                    widgets.Button(description="Previous", icon="arrow-left", tooltip=f"Previous {control.label.lower()}",
                                   layout=widgets.Layout(width="auto")),
                    widgets.Button(description="Next", icon="arrow-right", tooltip=f"Next {control.label.lower()}",
                                   layout=widgets.Layout(width="auto")))
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

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self.state().items()
                          if self.declaration.control(name).kind != "fixed")
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


class ClippingExplorer(ExplorerWidget):
    """Edit a hypothesis and its references and watch n-gram clipping.

    ``references`` is a list of 1 to ``MAX_REFERENCES`` strings, one per
    reference; ``n`` is the order on the slider, 1 to ``CLIPPING_MAX_ORDER``;
    ``compact=True`` shows p_n first, then its table (for slides).

    >>> explorer = ClippingExplorer("the the the", ["the cat"], n=1)
    >>> "p<sub>1</sub> = 1/3" in explorer.output.value
    True
    """

    declaration = CLIPPING

    def __init__(self, hypothesis: str = "the the the the the the the",
                 references: Sequence[str] = ("the cat is on the mat", "there is a cat on the mat"),
                 n: int = 1, compact: bool = False) -> None:
        self._build({"hypothesis": hypothesis, "references": references, "n": n, "compact": compact})

    @property
    def report(self) -> BleuReport | None:
        """The report the numbers shown come from (None while the input is bad)."""
        report: BleuReport | None = self.result
        return report


class BrevityPenaltyExplorer(ExplorerWidget):
    """Sliders for the reference length(s) and the hypothesis length; the BP curve marks the current point.

    The sliders go from 1 to ``max_len`` tokens, and ``max_len`` from 1 to
    ``MAX_BP_LENGTH`` (100); ``ref_len``, ``second_ref_len`` and ``hyp_len``
    must lie on the sliders (1 to ``max_len``); ``use_second`` is True or False.

    >>> explorer = BrevityPenaltyExplorer(ref_len=6, hyp_len=3)
    >>> round(explorer.brevity_penalty, 4)
    0.3679
    """

    declaration = BREVITY

    def __init__(self, ref_len: int = 6, second_ref_len: int = 9, use_second: bool = False, hyp_len: int = 4,
                 max_len: int = 20) -> None:
        self.image = widgets.Image(format="png")
        self.figure: Any = None
        self.brevity_penalty: float = float("nan")
        self._build({"ref_len": ref_len, "use_second": use_second, "second_ref_len": second_ref_len,
                     "hyp_len": hyp_len, "max_len": max_len})

    @property
    def summary(self) -> widgets.HTML:
        """The closest reference length and BP, in words (the output above the plot)."""
        return self.output

    @property
    def ref_lens(self) -> list[int]:
        return [self.ref_len.value] + ([self.second_ref_len.value] if self.use_second.value else [])

    def _after_output(self) -> list[Any]:
        return [self.image]

    def _shown(self, view: WidgetView) -> None:
        from bleu_teach.ui.plots import SCREEN_DPI, plot_brevity_penalty, png_bytes

        if view.value is None:
            return
        self.brevity_penalty = view.value
        self.figure = plot_brevity_penalty(self.ref_lens, self.hyp_len.value, self.max_len)
        self.image.value = png_bytes(self.figure)
        self.image.width = round(self.figure.get_figwidth() * SCREEN_DPI)


class _Settings:
    """The scoring controls of an explorer, together (``rows``: as the widget lays them out)."""

    def __init__(self, explorer: ExplorerWidget) -> None:
        self.tokenizer, self.lowercase, self.max_n, self.weights, self.smoothing = (
            explorer.controls[name] for name in ("tokenizer", "lowercase", "max_n", "weights", "smoothing"))
        self.rows = explorer.setting_rows


class BleuExplorer(ExplorerWidget):
    """The full explorer: hypothesis, 1-8 references and every setting, with a live report.

    ``compact=True`` shows the score, BP and the precisions first and folds
    the n-gram tables away (for slides and small screens);
    ``show_settings=False`` hides the tokenizer, max n, weights and smoothing
    controls (their values still apply: state them beside the explorer).
    ``references`` is a list of 1 to ``MAX_REFERENCES`` strings, one per
    reference (a single string is refused, not split); ``tokenizer`` is a
    name from :data:`~bleu_teach.inputs.tokenizers.TOKENIZERS`; ``max_n`` is
    1 to ``MAX_ORDER``; ``weights`` is the Weights box's text ("" for
    uniform); ``smoothing`` is "method0" to "method7", "0" to "7" or 0 to 7.
    Hidden controls stay in the widget's tree with ``display: none``, so a
    saved copy of the widget (a static page) still holds every setting.

    >>> from bleu_teach import explain
    >>> explorer = BleuExplorer("the cat sat on the mat", ["the cat is on the mat"], max_n=2)
    >>> explorer.report.score == explain([["the", "cat", "is", "on", "the", "mat"]],
    ...                                  "the cat sat on the mat".split(), weights=(0.5, 0.5)).score
    True
    """

    declaration = BLEU

    def __init__(self, hypothesis: str = "the cat sat on the mat",
                 references: Sequence[str] = ("the cat is on the mat", "there is a cat on the mat"),
                 tokenizer: str = "whitespace", lowercase: bool = False, max_n: int = 4, weights: str = "",
                 smoothing: str = "method0", compact: bool = False, show_settings: bool = True) -> None:
        self._build({"hypothesis": hypothesis, "references": references, "tokenizer": tokenizer,
                     "lowercase": lowercase, "max_n": max_n, "weights": weights, "smoothing": smoothing,
                     "compact": compact, "show_settings": show_settings})
        if self.compact:
            self.hypothesis.rows = 1
        self.settings = _Settings(self)

    @property
    def report(self) -> BleuReport | None:
        """The report the numbers shown come from (None while the input is bad)."""
        report: BleuReport | None = self.result
        return report


class SideBySideExplorer(ExplorerWidget):
    """Two hypotheses against the same references with every setting: which scores higher, and why.

    The arguments are checked as :class:`BleuExplorer`'s.

    >>> duel = SideBySideExplorer("the cat is chasing the dog", "the cat is chased by the dog",
    ...                           ["the dog is chasing the cat"], max_n=2)
    >>> duel.comparison.winner
    'A'
    """

    declaration = SIDE_BY_SIDE

    def __init__(self, hypothesis_a: str = "the cat is chasing the dog", hypothesis_b: str = "the cat is chased by the dog",
                 references: Sequence[str] = ("the dog is chasing the cat",), tokenizer: str = "whitespace",
                 lowercase: bool = False, max_n: int = 4, weights: str = "", smoothing: str = "method1") -> None:
        self._build({"hypothesis_a": hypothesis_a, "hypothesis_b": hypothesis_b, "references": references,
                     "tokenizer": tokenizer, "lowercase": lowercase, "max_n": max_n, "weights": weights,
                     "smoothing": smoothing})
        self.settings = _Settings(self)

    @property
    def comparison(self) -> HypothesisComparison | None:
        """The comparison the numbers shown come from (None while the input is bad)."""
        comparison: HypothesisComparison | None = self.result
        return comparison


class DisagreementExplorer(ExplorerWidget):
    """Browse the (system, segment) pairs where a sentence metric and the experts disagree most.

    ``table`` comes from :func:`bleu_teach.lessons.agreement.segment_level` on ``data``.
    Choose the metric (sentence BLEU or chrF), a system (or all), which way
    the metric errs ("too kind": it ranks the translation far above the
    experts; "too harsh": far below) and a rank (1 = the largest gap).  Shown:
    the source, the reference and the translation with the experts' errors
    highlighted, then the metric's step-by-step report for that one sentence:
    for BLEU, :func:`bleu_teach.explain` on sacreBLEU's 13a tokens with
    smoothing method 3 and ``auto_reweigh`` (= sacreBLEU's ``sentence_bleu``:
    exp smoothing and effective order), for chrF :func:`bleu_teach.explain_chrf`.

    ``metric`` is one of ``table.metrics`` and ``system`` one of
    ``table.systems`` or ``ALL_SYSTEMS`` (any case); ``direction`` is
    ``TOO_KIND`` or ``TOO_HARSH``; ``rank`` is 1 to the number of pairs shown
    for that metric, system and direction.

    >>> from bleu_teach.lessons.data import wmt21_ted
    >>> from bleu_teach.lessons.agreement import segment_level
    >>> ted = wmt21_ted("zh-en")
    >>> explorer = DisagreementExplorer(ted, segment_level(ted))
    >>> explorer.current.system, explorer.current.segment
    ('MiSS', 92)
    """

    declaration = DISAGREEMENT

    def __init__(self, data: "Wmt21Ted", table: SegmentTable, metric: str = "BLEU", system: str = ALL_SYSTEMS,
                 direction: str = TOO_KIND, rank: int = 1) -> None:
        owner = type(self).__name__
        if not isinstance(table, SegmentTable):
            raise TypeError(f"{owner}: table must come from segment_level(data), not {type(table).__name__}.")
        arguments.prefixed(owner, check_data, data)
        if table.pair != getattr(data, "pair", None):
            raise ValueError(f"{owner}: data and table must be the same language pair: make the table with "
                             f"segment_level(data).")
        self.data = data
        self.table = table
        self._build({"metric": metric, "system": system, "direction": direction, "rank": rank},
                    disagreement_context(data, table))

    @property
    def count(self) -> widgets.HTML:
        """How many pairs are shown for the current choice ("of N pairs", beside the rank)."""
        return self.notes["rank"]

    @property
    def current(self) -> Disagreement | None:
        """The pair shown (None while the input is bad)."""
        current: Disagreement | None = self.result
        return current

    def candidates(self) -> list[Disagreement]:
        """The pairs shown for the current metric, system and direction, largest gap first."""
        return pairs_shown(self.state(), self.context)


class TwoMetricsExplorer(ExplorerWidget):
    """Two metrics against the experts over the WMT21 TED systems of a language pair, one system left out.

    ``zh_en`` and ``en_de`` are the lesson's system-level tables
    (:func:`bleu_teach.lessons.agreement.system_level` against ref-B and
    ref-A, ``.systems_only()``).  Choose the pair, metric A and metric B
    (BLEU, chrF, TER) and a system to leave out by the experts' rank (1: the
    one they rate best; 0: keep all): shown are both metrics' Pearson r,
    Kendall tau-b and pairwise accuracy (TER negated), and the pairs of
    systems the two metrics order differently.  The headline is A's pairwise
    accuracy minus B's.
    """

    declaration = TWO_METRICS

    def __init__(self, zh_en: Any, en_de: Any, pair: str = "zh-en", metric_a: str = "TER", metric_b: str = "BLEU",
                 leave_out: int = 0) -> None:
        owner = type(self).__name__
        scores = {}
        for name, table, pair_name in (("zh_en", zh_en, "zh-en"), ("en_de", en_de, "en-de")):
            found = arguments.prefixed(owner, system_scores, table)
            if (found.pair, found.reference) != (pair_name, REFERENCE_USED[pair_name]):
                raise ValueError(f"{owner}: {name} must be {pair_name}'s table against {REFERENCE_USED[pair_name]}, "
                                 f"not {found.pair}'s against {found.reference}.")
            scores[pair_name] = found
        self._build({"pair": pair, "metric_a": metric_a, "metric_b": metric_b, "leave_out": leave_out},
                    {"scores": scores})

    @property
    def comparison(self) -> TwoMetrics | None:
        """What is shown (None while the input is bad)."""
        shown: TwoMetrics | None = self.result
        return shown
