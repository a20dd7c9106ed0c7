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

The explorers share one base, :class:`ExplorerWidget` (with
:class:`ReferenceList`), in :mod:`bleu_teach.ui.explorer_widget`; both can
be imported from here too.

Each widget's output carries its own MIME bundle, its name and values by
control name (:mod:`bleu_teach.explorers.saved`): a saved notebook keeps it and
the website reads it.  A ``fixed`` setting (the sliders' range, a compact
layout) is kept in a hidden control.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from bleu_teach.inputs.optional import needs

needs("ipywidgets", "The lessons' explorers (widgets)")
import ipywidgets as widgets

from bleu_teach.bleu.comparison import HypothesisComparison
from bleu_teach.bleu.reports import BleuReport
from bleu_teach.explorers import arguments
from bleu_teach.explorers.definitions import disagreement_context, pairs_shown
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
from bleu_teach.lessons.disagreement import Disagreement
from bleu_teach.lessons.metric_tables import SegmentTable
from bleu_teach.lessons.mqm import check_data
from bleu_teach.lessons.two_metrics import REFERENCE_USED, TwoMetrics, system_scores
from bleu_teach.ui.explorer_widget import ExplorerWidget, ReferenceList

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.data import Wmt21Ted

__all__ = [
    "ReferenceList",
    "ExplorerWidget",
    "ClippingExplorer",
    "BrevityPenaltyExplorer",
    "BleuExplorer",
    "SideBySideExplorer",
    "DisagreementExplorer",
    "TwoMetricsExplorer",
    "MAX_REFERENCES",
    "CLIPPING_MAX_ORDER",
    "CLIPPING_SMOOTHING",
    "MAX_BP_LENGTH",
    "ALL_SYSTEMS",
    "TOO_KIND",
    "TOO_HARSH",
    "message_html",
]


class ClippingExplorer(ExplorerWidget):
    """Edit a hypothesis and its references and watch n-gram clipping.

    ``references`` is a list of 1 to ``MAX_REFERENCES`` strings, one per
    reference; ``n`` is the order on the slider, 1 to ``CLIPPING_MAX_ORDER``;
    ``compact=True`` shows p_n first, then its table (for slides).

    >>> explorer = ClippingExplorer("the the the", ["the cat"], n=1)
    >>> "p<sub>1</sub> = 1/3" in explorer.output.value
    True
    """

    def __init__(
        self,
        hypothesis: str = "the the the the the the the",
        references: Sequence[str] = ("the cat is on the mat", "there is a cat on the mat"),
        n: int = 1,
        compact: bool = False,
    ) -> None:
        self._build(self.given(locals()))

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

    def __init__(
        self, ref_len: int = 6, second_ref_len: int = 9, use_second: bool = False, hyp_len: int = 4, max_len: int = 20
    ) -> None:
        self.image = widgets.Image(format="png")
        self.figure: Any = None
        self.brevity_penalty: float = float("nan")
        self._build(self.given(locals()))

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
            explorer.controls[name] for name in ("tokenizer", "lowercase", "max_n", "weights", "smoothing")
        )
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

    def __init__(
        self,
        hypothesis: str = "the cat sat on the mat",
        references: Sequence[str] = ("the cat is on the mat", "there is a cat on the mat"),
        tokenizer: str = "whitespace",
        lowercase: bool = False,
        max_n: int = 4,
        weights: str = "",
        smoothing: str = "method0",
        compact: bool = False,
        show_settings: bool = True,
    ) -> None:
        self._build(self.given(locals()))
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

    def __init__(
        self,
        hypothesis_a: str = "the cat is chasing the dog",
        hypothesis_b: str = "the cat is chased by the dog",
        references: Sequence[str] = ("the dog is chasing the cat",),
        tokenizer: str = "whitespace",
        lowercase: bool = False,
        max_n: int = 4,
        weights: str = "",
        smoothing: str = "method1",
    ) -> None:
        self._build(self.given(locals()))
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

    def __init__(
        self,
        data: Wmt21Ted,
        table: SegmentTable,
        metric: str = "BLEU",
        system: str = ALL_SYSTEMS,
        direction: str = TOO_KIND,
        rank: int = 1,
    ) -> None:
        owner = type(self).__name__
        if not isinstance(table, SegmentTable):
            raise TypeError(f"{owner}: table must come from segment_level(data), not {type(table).__name__}.")
        arguments.prefixed(owner, check_data, data)
        if table.pair != getattr(data, "pair", None):
            raise ValueError(
                f"{owner}: data and table must be the same language pair: make the table with segment_level(data)."
            )
        self.data = data
        self.table = table
        self._build(self.given(locals()), disagreement_context(data, table))

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

    def __init__(
        self,
        zh_en: Any,
        en_de: Any,
        pair: str = "zh-en",
        metric_a: str = "TER",
        metric_b: str = "BLEU",
        leave_out: int = 0,
    ) -> None:
        owner = type(self).__name__
        scores = {}
        for name, table, pair_name in (("zh_en", zh_en, "zh-en"), ("en_de", en_de, "en-de")):
            found = arguments.prefixed(owner, system_scores, table)
            if (found.pair, found.reference) != (pair_name, REFERENCE_USED[pair_name]):
                raise ValueError(
                    f"{owner}: {name} must be {pair_name}'s table against {REFERENCE_USED[pair_name]}, "
                    f"not {found.pair}'s against {found.reference}."
                )
            scores[pair_name] = found
        self._build(self.given(locals()), {"scores": scores})

    @property
    def comparison(self) -> TwoMetrics | None:
        """What is shown (None while the input is bad)."""
        shown: TwoMetrics | None = self.result
        return shown
