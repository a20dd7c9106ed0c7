"""What each lesson explorer shows for the values of its controls, as one function per explorer.

Two front ends call these: the notebook widgets (:mod:`bleu_teach.ui.widgets`,
ipywidgets) and the static website's lesson pages, which run this module in
the browser on Pyodide.  Both get the same :class:`WidgetView` for the same
control values: the HTML the widget shows (``html``, every piece of typed
text escaped by :mod:`bleu_teach.views.html_writer`), its headline number at
full precision (``value``) and what that number is (``label``).  Bad or
empty input is not an exception here but a view with a ``message`` for the
learner, so neither front end ever shows a traceback.

Standard library only (the website runs it without NumPy, NLTK or ipywidgets).

>>> view = clipping_view("the the the", ["the cat"], 1)
>>> view.label, view.value
('p_1', 0.3333333333333333)
>>> bad = clipping_view("", ["the cat"], 1)
>>> bad.value is None, bad.message
(True, 'The hypothesis is empty: type a sentence into it.')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bleu_teach.bleu.arithmetic import brevity_penalty
from bleu_teach.bleu.comparison import HypothesisComparison
from bleu_teach.bleu.counting import closest_ref_length
from bleu_teach.bleu.explain import compare_hypotheses, explain
from bleu_teach.bleu.reports import BleuReport, bp_line
from bleu_teach.explorers.typed_input import explain_text, parse_weights, text_tokens
from bleu_teach.inputs.validation import check_length, check_orders
from bleu_teach.lessons.curves import brevity_penalty_chart
from bleu_teach.lessons.disagreement import Disagreement, disagreement_document
from bleu_teach.lessons.mqm import mqm_segment
from bleu_teach.lessons.two_metrics import SystemScores, compare_two, ordinal
from bleu_teach.metrics import METRICS
from bleu_teach.views.document import Alert, Document, Paragraph, Score
from bleu_teach.views.html_writer import FRAGMENT_HEADING, write_html

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.data import Wmt21Ted

__all__ = [
    "WidgetView",
    "message_html",
    "leading_score",
    "guarded",
    "clipping_view",
    "brevity_view",
    "explorer_view",
    "side_by_side_view",
    "disagreement_candidates",
    "disagreement_view",
    "two_metrics_view",
    "CLIPPING_SMOOTHING",
    "CLIPPING_MAX_ORDER",
    "MAX_BP_LENGTH",
    "ALL_SYSTEMS",
    "TOO_KIND",
    "TOO_HARSH",
]

#: The clipping explorer scores with this smoothing (it shows the counts; the static site's links reuse it).
CLIPPING_SMOOTHING = "method1"
#: The clipping explorer's n-gram order slider goes from 1 to this order.
CLIPPING_MAX_ORDER = 4
#: The brevity-penalty explorer's sliders reach at most this many tokens (its ``max_len``): about what a slider
#: can still set token by token, and longer than almost every sentence in a test set.
MAX_BP_LENGTH = 100
ALL_SYSTEMS = "all systems"
TOO_KIND = "metric too kind"
TOO_HARSH = "metric too harsh"


@dataclass(frozen=True)
class WidgetView:
    """What an explorer shows: its HTML, its headline number (``label`` = ``value``), or a message instead.

    ``result`` is the object the numbers come from (a report, a comparison,
    a disagreement), for the notebook widget to keep; ``extra`` holds what a
    front end needs besides the HTML (the brevity-penalty chart's description).
    """

    html: str
    value: float | None = None
    label: str = ""
    message: str = ""
    result: Any = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: The view's own headline (HTML) when its report begins with its score line ("BLEU = 0.7071 = BP * ..."),
    #: and ``rest``, the report without it: a page that shows a headline above the report shows these, so that
    #: the score is said once ("" when the report does not begin with its score).
    headline: str = ""
    rest: str = ""


def message_html(message: str) -> str:
    """A message for the learner about their input (escaped; announced to screen readers)."""
    return write_html(Document((Alert(message),)))


def leading_score(document: Document) -> tuple[str, str]:
    """A document that begins with its score line, as (that line, the rest) in HTML; ("", all of it) otherwise."""
    if document.blocks and isinstance(document.blocks[0], Score):
        return (write_html(Document(document.blocks[:1])), write_html(Document(document.blocks[1:], document.styles)))
    return "", write_html(document)


def guarded(render: Callable[[], WidgetView]) -> WidgetView:
    """``render()``, or a view holding the learner-facing message if the input is bad (never a traceback)."""
    try:
        return render()
    except (TypeError, ValueError) as problem:
        message = str(problem)
    except Exception as problem:  # never let a traceback reach the learner
        message = f"Something went wrong ({type(problem).__name__}); try changing the input."
    return WidgetView(message_html(message), message=message)


def clipping_view(hypothesis: str, references: Sequence[str], n: int, compact: bool = False) -> WidgetView:
    """The clipping explorer: order ``n``'s clipped matches, its table and p_n (headline: p_n; ``compact``: the
    report begins with p_n as counted, its own headline)."""

    def render() -> WidgetView:
        order = check_orders(n, "The n-gram order", "1 = unigrams")
        hyp = text_tokens(hypothesis, "hypothesis")
        refs = [text_tokens(text, f"reference {i}") for i, text in enumerate(references, start=1)]
        report = explain(refs, hyp, weights=(1 / order,) * order, smoothing=CLIPPING_SMOOTHING)
        document = report.clipping_document(order, compact=compact)
        headline, rest = leading_score(document) if compact else ("", "")
        return WidgetView(
            write_html(document),
            float(report.order(order).precision),
            f"p_{order}",
            result=report,
            headline=headline,
            rest=rest,
        )

    return guarded(render)


def brevity_view(ref_lens: Sequence[int], hyp_len: int, max_len: int) -> WidgetView:
    """The brevity-penalty explorer: r, the rule and BP (headline: BP), and the curve's points in ``extra``.

    ``extra`` holds ``chart``: the chart the notebook's matplotlib plot draws, described once
    (:func:`~bleu_teach.lessons.curves.brevity_penalty_chart`, as JSON), for the website's Chart.js.
    """

    def render() -> WidgetView:
        lens = [check_length(length, f"Reference {i} length") for i, length in enumerate(ref_lens, start=1)]
        if not lens:
            raise ValueError("There is no reference length: give at least one.")
        hyp_len_checked = check_length(hyp_len, "Hypothesis length")
        top = check_length(max_len, "The longest length shown")
        r = closest_ref_length(lens, hyp_len_checked)
        bp = float(brevity_penalty(r, hyp_len_checked))
        html = write_html(
            Document((Paragraph((f"closest reference length r = {r}: ", bp_line(hyp_len_checked, r, bp))),))
        )
        chart = brevity_penalty_chart(lens, hyp_len_checked, top)
        return WidgetView(html, bp, "BP", result=(r, bp), extra={"chart": chart.as_json()})

    return guarded(render)


def explorer_view(
    hypothesis: str,
    references: Sequence[str],
    tokenizer: str,
    lowercase: bool,
    max_n: int,
    weights: str,
    smoothing: str,
    compact: bool = False,
) -> WidgetView:
    """The full explorer: :func:`~bleu_teach.explorers.typed_input.explain_text`'s report (headline: the BLEU score;
    the compact report's own score line, which it begins with)."""

    def render() -> WidgetView:
        report: BleuReport = explain_text(hypothesis, references, tokenizer, lowercase, max_n, weights, smoothing)
        headline, rest = leading_score(report.to_document(compact=compact))
        return WidgetView(
            report.to_html(compact=compact), float(report.score), "BLEU", result=report, headline=headline, rest=rest
        )

    return guarded(render)


def side_by_side_view(
    hypothesis_a: str,
    hypothesis_b: str,
    references: Sequence[str],
    tokenizer: str,
    lowercase: bool,
    max_n: int,
    weights: str,
    smoothing: str,
) -> WidgetView:
    """Two hypotheses against the same references (headline: hypothesis A's BLEU minus B's)."""

    def render() -> WidgetView:
        def tokens(text: str, what: str) -> list[str]:
            return text_tokens(text, what, tokenizer, lowercase)

        refs = [tokens(text, f"reference {i}") for i, text in enumerate(references, start=1)]
        comparison: HypothesisComparison = compare_hypotheses(
            refs,
            tokens(hypothesis_a, "hypothesis A"),
            tokens(hypothesis_b, "hypothesis B"),
            weights=parse_weights(weights, max_n),
            smoothing=smoothing,
        )
        difference = float(comparison.a.score) - float(comparison.b.score)
        return WidgetView(
            comparison.to_html(),
            difference,
            "BLEU(A) - BLEU(B)",
            result=comparison,
            extra={"a": float(comparison.a.score), "b": float(comparison.b.score)},
        )

    return guarded(render)


def disagreement_candidates(ranked: Sequence[Disagreement], system: str, direction: str) -> list[Disagreement]:
    """The pairs shown for a system (or ``ALL_SYSTEMS``) and a direction, the largest gap first.

    ``ranked`` is :func:`~bleu_teach.lessons.agreement.disagreements` for one metric; ``direction``
    is ``TOO_KIND`` (the metric far above the experts) or ``TOO_HARSH`` (far below).
    """
    shown = [d for d in ranked if system == ALL_SYSTEMS or d.system == system]
    return shown if direction == TOO_KIND else shown[::-1]


def disagreement_view(
    data: Wmt21Ted, references_used: Sequence[str], shown: Sequence[Disagreement], rank: int
) -> WidgetView:
    """Pair number ``rank`` of ``shown``: the gap, the segment with the experts' errors, the metric's own report.

    Headline: the metric's sentence score of that translation.
    """

    def render() -> WidgetView:
        if not shown:
            raise ValueError("No pairs to show for this choice: choose another system or metric.")
        if not 1 <= rank <= len(shown):
            raise ValueError(f"Rank must be a whole number from 1 to {len(shown)} (the pairs shown), not {rank}.")
        d = shown[rank - 1]
        segment = mqm_segment(data, d.system, d.segment, reference=references_used[0])
        hypothesis = data.translations(d.system)[d.segment]
        metric = METRICS[d.metric]
        if metric.segment_view is None:
            raise ValueError(f"{d.metric} is not explained sentence by sentence: choose another metric.")
        report = metric.segment_view(hypothesis, [data.references[name][d.segment] for name in references_used])
        # The metric's report sits under the document's "Sentence <metric>" section (its title's level + 1).
        html = write_html(disagreement_document(d, segment, metric.segment_how)) + write_html(
            report.to_document(), heading=FRAGMENT_HEADING + 2
        )
        return WidgetView(html, float(d.score), f"sentence {d.metric}", result=d)

    return guarded(render)


def two_metrics_view(scores: SystemScores, metric_a: str, metric_b: str, leave_out: int) -> WidgetView:
    """Two metrics against the experts over one pair's systems, one of them left out (0: none).

    Headline: metric A's pairwise accuracy minus metric B's; the leave-out slider's note names the system.
    """

    def render() -> WidgetView:
        duel = compare_two(scores, metric_a, metric_b, leave_out)
        note = (
            f"{duel.left_out}, the experts' {ordinal(leave_out)}"
            if duel.left_out
            else f"none: all {len(scores.systems)} systems kept"
        )
        return WidgetView(
            write_html(duel.to_document()),
            duel.accuracy_difference,
            f"pairwise accuracy, {metric_a} minus {metric_b}",
            result=duel,
            extra={"notes": {"leave_out": note}},
        )

    return guarded(render)
