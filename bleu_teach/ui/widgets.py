"""Interactive explorers for the lessons (ipywidgets).

Widgets only wire controls to the other layers: they call the core
(:func:`bleu_teach.explain`) and show the HTML view of what it returns and what
:mod:`bleu_teach.ui.plots` make of it.  Bad or empty input shows a plain
message inside the widget, which keeps working; callbacks never print.

* :class:`ClippingExplorer`: one hypothesis, 1-8 references, an n-gram order.
* :class:`BrevityPenaltyExplorer`: sliders for reference and hypothesis lengths.
* :class:`BleuExplorer`: the full step-by-step report with every setting.
* :class:`SideBySideExplorer`: two hypotheses, the same references and settings; which wins and why.
* :class:`DisagreementExplorer`: real translations where sentence BLEU (or chrF) and expert MQM disagree most,
  the experts' errors highlighted beside the metric's step-by-step report.

Constructor arguments are checked before any control is made: a wrong type
raises ``TypeError`` and a value outside what the widget can show raises
``ValueError``, each naming the widget and the argument and saying what to
pass (nothing is clamped or silently replaced).  Smoothing and tokenizer
names are read as everywhere else in the package ("method1", "1" and 1 are
method 1; case does not matter).  Text typed into a running widget is
different: bad or empty text shows a message inside the widget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from bleu_teach.lessons.agreement import Disagreement, SegmentTable, disagreements
from bleu_teach.lessons.mqm import check_data
from bleu_teach.bleu.reports import BleuReport, HypothesisComparison
from bleu_teach.ui.typed_input import MAX_ORDER, MAX_REFERENCES
from bleu_teach.bleu.smoothing import SMOOTHING_METHODS
from bleu_teach.inputs.tokenizers import TOKENIZERS
from bleu_teach.ui import controls
from bleu_teach.ui import widget_arguments as arguments
from bleu_teach.ui.widget_views import (
    ALL_SYSTEMS,
    CLIPPING_MAX_ORDER,
    CLIPPING_SMOOTHING,
    MAX_BP_LENGTH,
    TOO_HARSH,
    TOO_KIND,
    WidgetView,
    brevity_view,
    clipping_view,
    disagreement_candidates,
    disagreement_view,
    explorer_view,
    message_html,
    side_by_side_view,
)

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.data import Wmt21Ted

__all__ = [
    "ReferenceList", "ClippingExplorer", "BrevityPenaltyExplorer", "BleuExplorer", "SideBySideExplorer", "DisagreementExplorer",
    "MAX_REFERENCES", "CLIPPING_MAX_ORDER", "CLIPPING_SMOOTHING", "MAX_BP_LENGTH", "ALL_SYSTEMS", "TOO_KIND", "TOO_HARSH",
    "message_html",
]

_WIDE = widgets.Layout(width="95%")
_LABEL = {"description_width": "110px"}


def _show(view: WidgetView, target: widgets.HTML) -> Any:
    """Show the view's HTML (or its message) in ``target``; return the object its numbers come from (None if bad)."""
    target.value = view.html
    return view.result


# --- Checking constructor arguments ------------------------------------------------------------------------------


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


class ClippingExplorer(widgets.VBox):
    """Edit a hypothesis and its references and watch n-gram clipping.

    ``references`` is a list of 1 to ``MAX_REFERENCES`` strings, one per
    reference; ``n`` is the order on the slider, 1 to ``CLIPPING_MAX_ORDER``.

    >>> explorer = ClippingExplorer("the the the", ["the cat"], n=1)
    >>> "p<sub>1</sub> = 1/3" in explorer.output.value
    True
    """

    def __init__(self, hypothesis: str = "the the the the the the the",
                 references: Sequence[str] = ("the cat is on the mat", "there is a cat on the mat"),
                 n: int = 1) -> None:
        owner = type(self).__name__
        hypothesis = arguments.text(hypothesis, owner, "hypothesis")
        references = arguments.texts(references, owner, "references")
        n = arguments.whole(n, owner, "n", CLIPPING_MAX_ORDER, "the n-gram order slider's range")
        self.hypothesis = controls.TextLine(value=hypothesis, description="Hypothesis", layout=_WIDE, style=_LABEL,
                                            continuous_update=True,
                                            check=lambda v: arguments.text(v, owner, "hypothesis"))
        self.references = ReferenceList(references, self.update)
        self.n = controls.Slider(value=n, min=1, max=CLIPPING_MAX_ORDER, description="n-gram order", style=_LABEL,
                                 check=lambda v: arguments.whole(v, owner, "n", CLIPPING_MAX_ORDER,
                                                                 "the n-gram order slider's range"))
        self.output = widgets.HTML()
        self.report: BleuReport | None = None
        self.hypothesis.observe(lambda _: self.update(), names="value")
        self.n.observe(lambda _: self.update(), names="value")
        super().__init__([self.hypothesis, self.references, self.n, self.output])
        self.update()

    def __repr__(self) -> str:
        return f"ClippingExplorer(hypothesis={self.hypothesis.value!r}, references={self.references.values!r}, n={self.n.value})"

    def update(self) -> None:
        self.report = _show(clipping_view(self.hypothesis.value, self.references.values, self.n.value), self.output)


class BrevityPenaltyExplorer(widgets.VBox):
    """Sliders for the reference length(s) and the hypothesis length; the BP curve marks the current point.

    The sliders go from 1 to ``max_len`` tokens, and ``max_len`` from 1 to
    ``MAX_BP_LENGTH`` (100); ``ref_len``, ``second_ref_len`` and ``hyp_len``
    must lie on the sliders (1 to ``max_len``); ``use_second`` is True or False.

    >>> explorer = BrevityPenaltyExplorer(ref_len=6, hyp_len=3)
    >>> round(explorer.brevity_penalty, 4)
    0.3679
    """

    def __init__(self, ref_len: int = 6, second_ref_len: int = 9, use_second: bool = False, hyp_len: int = 4,
                 max_len: int = 20) -> None:
        owner = type(self).__name__
        max_len = arguments.whole(max_len, owner, "max_len", MAX_BP_LENGTH,
                         "the longest length the sliders and the curve show, MAX_BP_LENGTH")
        on_sliders = (f"the sliders' range, 1 to max_len = {max_len}; for longer lengths raise max_len, "
                      f"up to {MAX_BP_LENGTH}")
        ref_len = arguments.whole(ref_len, owner, "ref_len", max_len, on_sliders)
        use_second = arguments.flag(use_second, owner, "use_second")
        second_ref_len = arguments.whole(second_ref_len, owner, "second_ref_len", max_len, on_sliders)
        hyp_len = arguments.whole(hyp_len, owner, "hyp_len", max_len, on_sliders)
        def length(name: str) -> Callable[[Any], int]:
            return lambda v: arguments.whole(v, owner, name, max_len, on_sliders)

        self.ref_len = controls.Slider(value=ref_len, min=1, max=max_len, description="Reference 1 length",
                                       style=_LABEL, check=length("ref_len"))
        self.use_second = controls.Tick(value=use_second, description="Use a second reference",
                                        check=lambda v: arguments.flag(v, owner, "use_second"))
        self.second_ref_len = controls.Slider(value=second_ref_len, min=1, max=max_len,
                                              description="Reference 2 length", style=_LABEL,
                                              check=length("second_ref_len"))
        self.hyp_len = controls.Slider(value=hyp_len, min=1, max=max_len, description="Hypothesis length",
                                       style=_LABEL, check=length("hyp_len"))
        self.max_len = max_len
        self.summary = widgets.HTML()
        self.image = widgets.Image(format="png")
        self.figure: Any = None
        self.brevity_penalty: float = float("nan")
        for control in (self.ref_len, self.use_second, self.second_ref_len, self.hyp_len):
            control.observe(lambda _: self.update(), names="value")
        super().__init__([self.ref_len, self.use_second, self.second_ref_len, self.hyp_len, self.summary, self.image])
        self.update()

    def __repr__(self) -> str:
        return f"BrevityPenaltyExplorer(ref_lens={self.ref_lens!r}, hyp_len={self.hyp_len.value})"

    @property
    def ref_lens(self) -> list[int]:
        return [self.ref_len.value] + ([self.second_ref_len.value] if self.use_second.value else [])

    def update(self) -> None:
        from bleu_teach.ui.plots import SCREEN_DPI, plot_brevity_penalty, png_bytes

        self.second_ref_len.disabled = not self.use_second.value
        view = brevity_view(self.ref_lens, self.hyp_len.value, self.max_len)
        self.summary.value = view.html
        if view.value is None:
            return
        self.brevity_penalty = view.value
        self.figure = plot_brevity_penalty(self.ref_lens, self.hyp_len.value, self.max_len)
        self.image.value = png_bytes(self.figure)
        self.image.width = round(self.figure.get_figwidth() * SCREEN_DPI)


class _Settings:
    """The scoring controls shared by the explorers: tokenizer, lowercase, max n, weights, smoothing."""

    def __init__(self, owner: str, tokenizer: str, lowercase: bool, max_n: int, weights: str, smoothing: str,
                 on_change: Callable[[], None]) -> None:
        # The values come checked from checked_settings (by the explorer, so that errors name it); values set
        # later from Python pass the same checks.
        self.tokenizer = controls.Choice(options=list(TOKENIZERS), value=tokenizer, description="Tokenizer",
                                         style=_LABEL, check=lambda v: arguments.tokenizer_name(v, owner))
        self.lowercase = controls.Tick(value=lowercase, description="Lowercase",
                                       check=lambda v: arguments.flag(v, owner, "lowercase"))
        self.max_n = controls.Slider(value=max_n, min=1, max=MAX_ORDER, description="Max n", style=_LABEL,
                                     check=lambda v: arguments.whole(v, owner, "max_n", MAX_ORDER,
                                                                     "the Max n slider's range"))
        self.weights = controls.TextLine(value=weights, placeholder="uniform (or e.g. 0.5, 0.3, 0.2)",
                                         description="Weights", style=_LABEL,
                                         check=lambda v: arguments.weights_text(v, owner))
        self.smoothing = controls.Choice(options=[(f"{k}: {v}", k) for k, v in SMOOTHING_METHODS.items()],
                                         value=smoothing, description="Smoothing", style=_LABEL,
                                         layout=widgets.Layout(width="95%"),
                                         check=lambda v: arguments.smoothing_name(v, owner))
        for control in (self.tokenizer, self.lowercase, self.max_n, self.weights, self.smoothing):
            control.observe(lambda _: on_change(), names="value")
        self.rows = [widgets.HBox([self.tokenizer, self.lowercase]), widgets.HBox([self.max_n, self.weights]),
                     self.smoothing]


class BleuExplorer(widgets.VBox):
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

    def __init__(self, hypothesis: str = "the cat sat on the mat",
                 references: Sequence[str] = ("the cat is on the mat", "there is a cat on the mat"),
                 tokenizer: str = "whitespace", lowercase: bool = False, max_n: int = 4, weights: str = "",
                 smoothing: str = "method0", compact: bool = False, show_settings: bool = True) -> None:
        owner = type(self).__name__
        hypothesis = arguments.text(hypothesis, owner, "hypothesis")
        references = arguments.texts(references, owner, "references")
        tokenizer, lowercase, max_n, weights, smoothing = arguments.checked_settings(owner, tokenizer, lowercase, max_n,
                                                                            weights, smoothing)
        compact = arguments.flag(compact, owner, "compact")
        show_settings = arguments.flag(show_settings, owner, "show_settings")
        self.compact = compact
        self.hypothesis = controls.TextArea(value=hypothesis, description="Hypothesis", layout=_WIDE, style=_LABEL,
                                            rows=1 if compact else 2, continuous_update=True,
                                            check=lambda v: arguments.text(v, owner, "hypothesis"))
        self.references = ReferenceList(references, self.update)
        self.settings = _Settings(owner, tokenizer, lowercase, max_n, weights, smoothing, self.update)
        s = self.settings
        self.tokenizer, self.lowercase, self.max_n, self.weights, self.smoothing = (
            s.tokenizer, s.lowercase, s.max_n, s.weights, s.smoothing)
        self.output = widgets.HTML()
        self.report: BleuReport | None = None
        self.hypothesis.observe(lambda _: self.update(), names="value")
        settings = s.rows if show_settings else [widgets.VBox(s.rows, layout=widgets.Layout(display="none"))]
        super().__init__([self.hypothesis, self.references, *settings, self.output])
        self.update()

    def __repr__(self) -> str:
        return (f"BleuExplorer(hypothesis={self.hypothesis.value!r}, references={self.references.values!r}, "
                f"tokenizer={self.tokenizer.value!r}, max_n={self.max_n.value}, smoothing={self.smoothing.value!r})")

    def update(self) -> None:
        self.report = _show(explorer_view(self.hypothesis.value, self.references.values, self.tokenizer.value,
                                          self.lowercase.value, self.max_n.value, self.weights.value,
                                          self.smoothing.value, compact=self.compact), self.output)


class SideBySideExplorer(widgets.VBox):
    """Two hypotheses against the same references with every setting: which scores higher, and why.

    The arguments are checked as :class:`BleuExplorer`'s.

    >>> duel = SideBySideExplorer("the cat is chasing the dog", "the cat is chased by the dog",
    ...                           ["the dog is chasing the cat"], max_n=2)
    >>> duel.comparison.winner
    'A'
    """

    def __init__(self, hypothesis_a: str = "the cat is chasing the dog", hypothesis_b: str = "the cat is chased by the dog",
                 references: Sequence[str] = ("the dog is chasing the cat",), tokenizer: str = "whitespace",
                 lowercase: bool = False, max_n: int = 4, weights: str = "", smoothing: str = "method1") -> None:
        owner = type(self).__name__
        hypothesis_a = arguments.text(hypothesis_a, owner, "hypothesis_a")
        hypothesis_b = arguments.text(hypothesis_b, owner, "hypothesis_b")
        references = arguments.texts(references, owner, "references")
        tokenizer, lowercase, max_n, weights, smoothing = arguments.checked_settings(owner, tokenizer, lowercase, max_n,
                                                                            weights, smoothing)
        self.hypothesis_a = controls.TextArea(value=hypothesis_a, description="Hypothesis A", layout=_WIDE,
                                              style=_LABEL, rows=2, continuous_update=True,
                                              check=lambda v: arguments.text(v, owner, "hypothesis_a"))
        self.hypothesis_b = controls.TextArea(value=hypothesis_b, description="Hypothesis B", layout=_WIDE,
                                              style=_LABEL, rows=2, continuous_update=True,
                                              check=lambda v: arguments.text(v, owner, "hypothesis_b"))
        self.references = ReferenceList(references, self.update)
        self.settings = _Settings(owner, tokenizer, lowercase, max_n, weights, smoothing, self.update)
        self.output = widgets.HTML()
        self.comparison: HypothesisComparison | None = None
        for box in (self.hypothesis_a, self.hypothesis_b):
            box.observe(lambda _: self.update(), names="value")
        super().__init__([self.hypothesis_a, self.hypothesis_b, self.references, *self.settings.rows, self.output])
        self.update()

    def __repr__(self) -> str:
        return (f"SideBySideExplorer(hypothesis_a={self.hypothesis_a.value!r}, hypothesis_b={self.hypothesis_b.value!r}, "
                f"references={self.references.values!r})")

    def update(self) -> None:
        s = self.settings
        self.comparison = _show(side_by_side_view(self.hypothesis_a.value, self.hypothesis_b.value,
                                                  self.references.values, s.tokenizer.value, s.lowercase.value,
                                                  s.max_n.value, s.weights.value, s.smoothing.value), self.output)


class DisagreementExplorer(widgets.VBox):
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

    def __init__(self, data: "Wmt21Ted", table: SegmentTable, metric: str = "BLEU", system: str = ALL_SYSTEMS,
                 direction: str = TOO_KIND, rank: int = 1) -> None:
        owner = type(self).__name__
        if not isinstance(table, SegmentTable):
            raise TypeError(f"{owner}: table must come from segment_level(data), not {type(table).__name__}.")
        arguments.prefixed(owner, check_data, data)
        if table.pair != getattr(data, "pair", None):
            raise ValueError(f"{owner}: data and table must be the same language pair: make the table with "
                             f"segment_level(data).")
        metric = arguments.one_of(metric, owner, "metric", table.metrics)
        system = arguments.one_of(system, owner, "system", (ALL_SYSTEMS, *table.systems))
        direction = arguments.one_of(direction, owner, "direction", (TOO_KIND, TOO_HARSH))
        self.data = data
        self.table = table
        self._ranked = {m: disagreements(table, m) for m in table.metrics}
        shown = sum(1 for d in self._ranked[metric] if system == ALL_SYSTEMS or d.system == system)
        rank = arguments.whole(rank, owner, "rank", max(1, shown),
                      f"the number of pairs shown for metric={metric!r}, system={system!r}")
        self.metric = controls.Choice(options=list(table.metrics), value=metric, description="Metric", style=_LABEL,
                                      check=lambda v: arguments.one_of(v, owner, "metric", table.metrics))
        self.system = controls.Choice(options=[ALL_SYSTEMS, *table.systems], value=system, description="System",
                                      style=_LABEL,
                                      check=lambda v: arguments.one_of(v, owner, "system",
                                                                       (ALL_SYSTEMS, *table.systems)))
        self.direction = controls.Toggles(options=[TOO_KIND, TOO_HARSH], value=direction, description="Show",
                                          style=_LABEL,
                                          check=lambda v: arguments.one_of(v, owner, "direction",
                                                                           (TOO_KIND, TOO_HARSH)))
        self.rank = controls.WholeNumber(value=rank, min=1, max=len(table.rows), description="Rank", style=_LABEL,
                                         layout=widgets.Layout(width="220px"),
                                         check=lambda v: arguments.whole(
                                             v, owner, "rank", max(1, len(self.candidates())),
                                             f"the number of pairs shown for metric={self.metric.value!r}, "
                                             f"system={self.system.value!r}, direction={self.direction.value!r}"))
        self.count = widgets.HTML()
        self.output = widgets.HTML()
        self.current: Disagreement | None = None
        for control in (self.metric, self.system, self.direction, self.rank):
            control.observe(lambda _: self.update(), names="value")
        super().__init__([widgets.HBox([self.metric, self.system]), self.direction,
                          widgets.HBox([self.rank, self.count]), self.output])
        self.update()

    def __repr__(self) -> str:
        return (f"DisagreementExplorer(metric={self.metric.value!r}, system={self.system.value!r}, "
                f"direction={self.direction.value!r}, rank={self.rank.value})")

    def candidates(self) -> list[Disagreement]:
        """The pairs shown for the current metric, system and direction, largest gap first."""
        return disagreement_candidates(self._ranked[self.metric.value], self.system.value, self.direction.value)

    def update(self) -> None:
        shown = self.candidates()
        self.rank.max = max(1, len(shown))
        self.count.value = f"of {len(shown)} pairs"
        self.current = _show(disagreement_view(self.data, self.table.references_used, shown,
                                               min(self.rank.value, len(shown))), self.output)
