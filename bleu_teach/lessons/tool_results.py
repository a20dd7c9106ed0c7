"""What comparing NLTK and sacreBLEU gives: each tool's run, order by order, and the two side by side.

:class:`ToolRun` holds one tool's score on the comparison's tokens (NLTK's on 0-1, sacreBLEU's on 0-100) with
bleu_teach's number on the same terms, and an :class:`OrderSide` for each n-gram order as that tool used it (what
it divided, and the value that entered the geometric mean after smoothing).  :class:`ToolComparison` sets the two
runs side by side with the reasons they differ (:mod:`bleu_teach.lessons.tool_reasons`) and shows itself as a
table.  :func:`~bleu_teach.lessons.tool_comparison.compare_tools` and
:func:`~bleu_teach.lessons.tool_comparison.compare_tools_corpus` make them.

The two tools agree when sacreBLEU's score is 100 times NLTK's up to float rounding (relative
:data:`AGREEMENT_TOLERANCE`); bleu_teach's number equals NLTK's exactly and sacreBLEU's to
:data:`SACREBLEU_TOLERANCE` on its 0-100 scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from bleu_teach.views.document import Code, Document, Heading, Label, Notes, Paragraph, Score
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.formatting import format_number
from bleu_teach.views.viewable import Viewable

__all__ = ["AGREEMENT_TOLERANCE", "SACREBLEU_TOLERANCE", "OrderSide", "ToolRun", "ToolComparison", "same_value"]

#: Within this relative distance the two tools' scores (sacreBLEU's divided by 100) count as the same.
AGREEMENT_TOLERANCE = 1e-9

#: bleu_teach's contract with sacreBLEU: the same score to this absolute distance on its 0-100 scale.
SACREBLEU_TOLERANCE = 1e-9


def same_value(a: float | None, b: float | None) -> bool:
    """Two values (a p_n, a BP) count as the same: both None, or within :data:`AGREEMENT_TOLERANCE` (relative)."""
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=AGREEMENT_TOLERANCE, abs_tol=0.0)


@dataclass(frozen=True)
class OrderSide:
    """One n-gram order as one tool used it.

    ``matches``/``total`` is what the tool divided (NLTK's total includes its 0/1 for hypotheses shorter than
    n; sacreBLEU's counts only real n-grams, plus k with ``add-k``).  ``used`` is p_n as it entered the geometric
    mean after smoothing, on the tool's scale (0-1 NLTK, 0-100 sacreBLEU); None when the tool left the order out.
    ``smoothed`` is True when ``used`` is not ``matches/total``: smoothing changed it.
    """

    n: int
    matches: float
    total: float
    used: float | None
    smoothed: bool = False


@dataclass(frozen=True)
class ToolRun:
    """One tool's score on the comparison's tokens, and bleu_teach's on the same terms."""

    tool: str
    call: str
    score: float
    scale: int
    bleu_teach_call: str
    bleu_teach_score: float
    orders: tuple[OrderSide, ...]
    brevity_penalty: float
    hyp_len: int
    ref_len: int
    signature: str = ""

    @property
    def bleu_teach_equal(self) -> bool:
        """NLTK: bleu_teach's number is == NLTK's.  sacreBLEU: within 1e-9 on its 0-100 scale."""
        if self.scale == 1:
            return self.bleu_teach_score == self.score
        return abs(self.bleu_teach_score - self.score) <= SACREBLEU_TOLERANCE


def _count_text(value: float) -> str:
    number = float(value)
    return str(int(number)) if number.is_integer() else f"{number:g}"


def _tool_value(value: float, scale: int) -> str:
    return format_number(value) if scale == 1 else f"{value:.2f}"


def _order_cell(order: OrderSide, scale: int) -> str:
    """p_n as the tool counted it, then '=' the value used, or '->' when smoothing changed it."""
    counted = f"{_count_text(order.matches)}/{_count_text(order.total)}"
    if order.used is None:
        return f"{counted}, left out"
    return f"{counted} {'->' if order.smoothed else '='} {_tool_value(order.used, scale)}"


_TOOL_HEADER = ("", "NLTK (0-1)", "sacreBLEU (0-100)")


@dataclass(frozen=True, repr=False)
class ToolComparison(Viewable):
    """NLTK and sacreBLEU on the same tokens: their numbers, their counts, and why they differ.

    ``nltk_run`` and ``sacrebleu_run`` hold each tool's own score (NLTK's on 0-1, sacreBLEU's on 0-100) with
    bleu_teach's number on the same terms; ``reasons`` says, order by order, why the precisions differ (or, when
    nothing differs, why they agree).  Shown as both tools side by side, the verdict, the reasons, the signature.
    """

    level: str
    max_n: int
    nltk_run: ToolRun
    sacrebleu_run: ToolRun
    reasons: tuple[str, ...]

    @property
    def nltk(self) -> float:
        """NLTK's score (0-1)."""
        return self.nltk_run.score

    @property
    def sacrebleu(self) -> float:
        """sacreBLEU's score divided by 100, on NLTK's 0-1 scale."""
        return self.sacrebleu_run.score / 100

    @property
    def bleu_teach(self) -> float:
        """bleu_teach's score on NLTK's terms (== ``nltk``)."""
        return self.nltk_run.bleu_teach_score

    @property
    def agree(self) -> bool:
        """True when sacreBLEU's score is 100 times NLTK's, up to float rounding (relative 1e-9)."""
        return math.isclose(self.nltk, self.sacrebleu, rel_tol=AGREEMENT_TOLERANCE, abs_tol=0.0)

    @property
    def title(self) -> str:
        """What is compared, and how the table reads."""
        n = self.max_n
        return (
            f"NLTK and sacreBLEU on the same tokens: {self.level} BLEU-{n} "
            f"(weights 1/{n} each; p_n as counted, then '=' or '->' the value used)"
        )

    @property
    def rows(self) -> list[list[str]]:
        """The table's cells: each tool's call, p_n (as counted, then '=' the value used, or '->' when that is
        not m_n/t_n), BP and the scores, with bleu_teach's number on each tool's terms."""
        a, b = self.nltk_run, self.sacrebleu_run
        rows = [["called as", a.call, b.call]]
        rows += [
            [f"p_{x.n} = m_{x.n}/t_{x.n}", _order_cell(x, a.scale), _order_cell(y, b.scale)]
            for x, y in zip(a.orders, b.orders)
        ]
        rows.append(
            ["BP", *[f"{format_number(run.brevity_penalty)} (c = {run.hyp_len}, r = {run.ref_len})" for run in (a, b)]]
        )
        rows.append(["score", _tool_value(a.score, a.scale), _tool_value(b.score, b.scale)])
        rows.append(["exact score", repr(a.score), repr(b.score)])
        rows.append(
            [
                "bleu_teach on the same terms",
                f"{a.bleu_teach_call}: {a.bleu_teach_score!r} "
                f"({'== NLTK' if a.bleu_teach_equal else 'NOT equal to NLTK'})",
                f"{b.bleu_teach_call}: {b.bleu_teach_score!r} "
                f"({'within 1e-9 of sacreBLEU' if b.bleu_teach_equal else 'NOT within 1e-9 of sacreBLEU'})",
            ]
        )
        return rows

    @property
    def verdict(self) -> str:
        """Whether the two tools agree, with both scores."""
        a, b = self.nltk_run, self.sacrebleu_run
        if self.agree:
            return (
                f"They agree: sacreBLEU's {_tool_value(b.score, 100)} is 100 times NLTK's "
                f"{_tool_value(a.score, 1)} (up to float rounding)."
            )
        return (
            f"They differ: NLTK {_tool_value(a.score, 1)}, sacreBLEU {_tool_value(b.score, 100)} "
            f"({format_number(self.sacrebleu)} on NLTK's 0-1 scale)."
        )

    def to_document(self) -> Document:
        """The title, both tools side by side, the verdict, the reasons, and sacreBLEU's signature."""
        return Document(
            (
                Heading(Label(self.title)),
                TableBlock(_TOOL_HEADER, tuple(tuple(row) for row in self.rows), label_column=True),
                Score((self.verdict,), None),
                Notes(
                    tuple((Label(reason),) for reason in self.reasons),
                    title="Why they agree:"
                    if self.agree and self.reasons[0].startswith(("Every", "No uni"))
                    else "Why:",
                ),
                Paragraph(("sacreBLEU's signature: ", Code(self.sacrebleu_run.signature))),
            )
        )
