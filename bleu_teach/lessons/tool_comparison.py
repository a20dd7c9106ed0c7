"""NLTK and sacreBLEU side by side on the same tokens, each with bleu_teach's equal number.

The two tools do not always give the same BLEU for the same tokens, even with the same uniform weights 1/N.
They agree (sacreBLEU's number is 100 times NLTK's, up to float rounding) when every hypothesis has at least N
tokens, no pooled precision is zero, and no smoothing that also changes non-zero precisions is chosen (NLTK's
methods 2, 5, 6 and 7; sacreBLEU's ``add-k``): then neither tool's smoothing acts and both divide the same
counts.  They differ when

* a hypothesis is shorter than n tokens: it has no n-grams, p_n is 0/0.  NLTK counts it as 0/1 (in a corpus it
  adds 1 to the pooled total); sacreBLEU adds nothing, and when no hypothesis has n tokens it either leaves the
  order out (effective order, ``eff:yes``, its ``sentence_bleu``'s default) or keeps p_n = 0 and scores 0;
* a pooled precision is zero: NLTK without smoothing uses the smallest float (a score near 1e-155 or smaller);
  sacreBLEU's default ``exp`` smoothing is Chen and Cherry's (2014) method 3, 1/(2^k t_n) for the k-th order
  with no match (NLTK's method3 does the same); NLTK skips a p_n its smoothing left at 0;
* NLTK's ``auto_reweigh`` or a smoothing method changes the weights or the precisions on one side only.

:func:`compare_tools` (one sentence) and :func:`compare_tools_corpus` run both tools, and bleu_teach on each
one's terms (NLTK's number exactly, sacreBLEU's to 1e-9), and name the reason for every order where their
precisions differ (and say so when the scores agree all the same).  sacreBLEU gets the tokens joined by spaces
with its ``none`` tokenizer, so both see the same tokens.  NLTK and sacreBLEU are imported only when asked for.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Optional, cast

from bleu_teach.inputs.optional import needs
from bleu_teach.inputs.validation import check_orders, check_references, check_tokens
from bleu_teach.bleu.nltk_api import check_corpus, corpus_bleu, sentence_bleu
from bleu_teach.bleu.explain import explain, explain_corpus
from bleu_teach.bleu.sacrebleu_api import SACREBLEU_SMOOTHING, SacreScore, corpus_score, sentence_score
from bleu_teach.inputs.corpus_layout import to_sacrebleu_references
from bleu_teach.bleu.smoothing import SMOOTHING_METHODS, resolve_smoothing
from bleu_teach.views.document import Code, Document, Heading, Label, Notes, Paragraph, Score, Table as TableBlock
from bleu_teach.views.formatting import format_number, number_ranges
from bleu_teach.views.viewable import Viewable

__all__ = ["OrderSide", "ToolRun", "ToolComparison", "compare_tools", "compare_tools_corpus"]

#: Within this relative distance the two tools' scores (sacreBLEU's divided by 100) count as the same.
AGREEMENT_TOLERANCE = 1e-9

#: bleu_teach's contract with sacreBLEU: the same score to this absolute distance on its 0-100 scale.
SACREBLEU_TOLERANCE = 1e-9


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
    used: Optional[float]
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
        return (f"NLTK and sacreBLEU on the same tokens: {self.level} BLEU-{n} "
                f"(weights 1/{n} each; p_n as counted, then '=' or '->' the value used)")

    @property
    def rows(self) -> list[list[str]]:
        """The table's cells: each tool's call, p_n (as counted, then '=' the value used, or '->' when that is
        not m_n/t_n), BP and the scores, with bleu_teach's number on each tool's terms."""
        a, b = self.nltk_run, self.sacrebleu_run
        rows = [["called as", a.call, b.call]]
        rows += [[f"p_{x.n} = m_{x.n}/t_{x.n}", _order_cell(x, a.scale), _order_cell(y, b.scale)]
                 for x, y in zip(a.orders, b.orders)]
        rows.append(["BP", *[f"{format_number(run.brevity_penalty)} (c = {run.hyp_len}, r = {run.ref_len})"
                             for run in (a, b)]])
        rows.append(["score", _tool_value(a.score, a.scale), _tool_value(b.score, b.scale)])
        rows.append(["exact score", repr(a.score), repr(b.score)])
        rows.append(["bleu_teach on the same terms",
                     f"{a.bleu_teach_call}: {a.bleu_teach_score!r} "
                     f"({'== NLTK' if a.bleu_teach_equal else 'NOT equal to NLTK'})",
                     f"{b.bleu_teach_call}: {b.bleu_teach_score!r} "
                     f"({'within 1e-9 of sacreBLEU' if b.bleu_teach_equal else 'NOT within 1e-9 of sacreBLEU'})"])
        return rows

    @property
    def verdict(self) -> str:
        """Whether the two tools agree, with both scores."""
        a, b = self.nltk_run, self.sacrebleu_run
        if self.agree:
            return (f"They agree: sacreBLEU's {_tool_value(b.score, 100)} is 100 times NLTK's "
                    f"{_tool_value(a.score, 1)} (up to float rounding).")
        return (f"They differ: NLTK {_tool_value(a.score, 1)}, sacreBLEU {_tool_value(b.score, 100)} "
                f"({format_number(self.sacrebleu)} on NLTK's 0-1 scale).")

    def to_document(self) -> Document:
        """The title, both tools side by side, the verdict, the reasons, and sacreBLEU's signature."""
        return Document((
            Heading(Label(self.title)),
            TableBlock(_TOOL_HEADER, tuple(tuple(row) for row in self.rows), label_column=True),
            Score((self.verdict,), None),
            Notes(tuple((Label(reason),) for reason in self.reasons),
                  title="Why they agree:" if self.agree and self.reasons[0].startswith(("Every", "No uni")) else "Why:"),
            Paragraph(("sacreBLEU's signature: ", Code(self.sacrebleu_run.signature))),
        ))


# ---------------------------------------------------------------------------
# Checking the input
# ---------------------------------------------------------------------------


def _check_text_tokens(tokens: Sequence[Hashable], what: str) -> list[str]:
    """sacreBLEU reads text: each token must be a string that a space split gives back unchanged."""
    out = []
    for token in tokens:
        if not isinstance(token, str):
            raise TypeError(f"{what} holds {token!r}, not a string; sacreBLEU scores text, so give string tokens "
                            f"(for example [str(t) for t in tokens]).")
        if token.split() != [token]:
            raise ValueError(f"{what} holds the token {token!r}, which is empty or contains white space; sacreBLEU "
                             f"would split it differently, so the two tools would not see the same tokens.")
        out.append(token)
    return out


def _check_options(max_n: Any, smoothing: Any, auto_reweigh: Any, smooth_method: Any,
                   smooth_value: Any = None) -> Optional[str]:
    """Refuse bad options; return the smoothing as NLTK's method name ("1", 1 and "method1" are method1)."""
    check_orders(max_n, "max_n", "4 for BLEU-4")
    if isinstance(smoothing, (str, int)) and not isinstance(smoothing, bool):
        try:
            smoothing = resolve_smoothing(smoothing)[1]
        except (TypeError, ValueError):
            pass  # refused just below, with the names this comparison accepts
    if smoothing is not None and smoothing not in SMOOTHING_METHODS:
        raise ValueError(f"smoothing must be None or one of {', '.join(SMOOTHING_METHODS)} (NLTK's names), "
                         f"not {smoothing!r}.")
    if not isinstance(auto_reweigh, bool):
        raise TypeError("auto_reweigh must be True or False.")
    if not isinstance(smooth_method, str) or smooth_method not in SACREBLEU_SMOOTHING:
        raise ValueError(f"smooth_method must be one of {', '.join(SACREBLEU_SMOOTHING)} (sacreBLEU's names), "
                         f"not {smooth_method!r}.")
    if smooth_value is not None and (isinstance(smooth_value, bool) or not isinstance(smooth_value, (int, float))):
        raise TypeError(f"smooth_value must be a number or None (the method's default), not {smooth_value!r}.")
    if smooth_value is not None and not (math.isfinite(smooth_value) and 0 <= smooth_value <= 1e300):
        raise ValueError(f"smooth_value must be a finite number >= 0 (sacreBLEU's floor default is 0.1), "
                         f"not {smooth_value!r}.")
    return cast(Optional[str], smoothing)


# ---------------------------------------------------------------------------
# How each tool was called (shown in the table)
# ---------------------------------------------------------------------------


def _nltk_args(max_n: int, smoothing: Optional[str], auto_reweigh: bool) -> str:
    args = []
    if max_n != 4:
        args.append(f"weights=(1/{max_n},) * {max_n}")
    if smoothing not in (None, "method0"):
        args.append(f"smoothing_function=SmoothingFunction().{smoothing}")
    if auto_reweigh:
        args.append("auto_reweigh=True")
    return "".join(f", {a}" for a in args)


def _sacre_args(smooth_method: str, smooth_value: Optional[float], effective_order: bool, default_effective: bool,
                max_n: int) -> str:
    args = ["tokenize='none'"]
    if smooth_method != "exp":
        args.append(f"smooth_method={smooth_method!r}")
    if smooth_value is not None:
        args.append(f"smooth_value={smooth_value!r}")
    if effective_order != default_effective:
        args.append(f"{'use_effective_order' if default_effective else 'effective_order'}={effective_order}")
    if max_n != 4:
        args.append(f"max_ngram_order={max_n}")
    return ", ".join(args)


# ---------------------------------------------------------------------------
# Why the two tools differ, order by order
# ---------------------------------------------------------------------------


def _orders_text(orders: Sequence[int]) -> str:
    return number_ranges(orders)


def _plural(count: int, word: str) -> str:
    if count == 1:
        return f"1 {word}"
    return f"{count} {word[:-2] + 'es' if word.endswith('is') else word + 's'}"


def _same(a: Optional[float], b: Optional[float]) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=AGREEMENT_TOLERANCE, abs_tol=0.0)


def _why_they_agree(nltk: ToolRun, hyp_lens: Sequence[int], method: str, smooth_method: str,
                    left_out_both: Sequence[int], same_zero: Sequence[int], auto_reweigh: bool) -> str:
    """Why every p_n (and BP) came out the same in both tools."""
    if not left_out_both and not same_zero and min(hyp_lens) >= len(nltk.orders):
        return ("Every p_n and BP are the same in both tools: no hypothesis is shorter than "
                f"{len(nltk.orders)} tokens, no pooled precision is zero and no smoothing changed a non-zero "
                "precision, so neither tool's special rules come into play and sacreBLEU's score is 100 times NLTK's.")
    parts = ["Every p_n the two tools use, and BP, are the same"]
    if left_out_both:
        nltk_rule = "auto_reweigh" if auto_reweigh else "skipping of a p_n of 0"
        parts.append(f"neither tool uses p_n for n = {_orders_text(left_out_both)}, which the hypothesis is too short "
                     f"for (NLTK's {nltk_rule} and sacreBLEU's effective order both leave such orders out)")
    if same_zero:
        rule = {("method3", "exp"): "both are Chen and Cherry's method 3, 1/(2^k t_n)",
                ("method1", "floor"): "both are Chen and Cherry's method 1, epsilon/t_n"}.get(
                    (method, smooth_method), "the two smoothings give the same value here")
        parts.append(f"no match for n = {_orders_text(same_zero)}, and NLTK's {method} and sacreBLEU's "
                     f"{smooth_method} treat that alike ({rule})")
    return "; ".join(parts) + ", so sacreBLEU's score is 100 times NLTK's."


def _coincidence(nltk: ToolRun, sacre: ToolRun, reasons: tuple[str, ...]) -> tuple[str, ...]:
    """The reasons, first saying so when the scores agree although the p_n differ (NLTK drops an order that
    sacreBLEU's add-k makes 1/1, say)."""
    if math.isclose(nltk.score, sacre.score / 100, rel_tol=AGREEMENT_TOLERANCE, abs_tol=0.0) and \
            not reasons[0].startswith(("Every p_n", "No unigram")):
        return ("The two scores are the same here although the tools' p_n differ (below): the orders where they "
                "differ weigh the same in both scores here (NLTK leaving out an order counts as a factor of 1, as a "
                "p_n of 1/1 does), which another example need not.", *reasons)
    return reasons


def _reasons(nltk: ToolRun, sacre: ToolRun, hyp_lens: Sequence[int], smoothing: Optional[str], smooth_method: str,
             smooth_value: Optional[float], effective_order: bool, level: str, auto_reweigh: bool) -> tuple[str, ...]:
    """One sentence per cause, naming the orders where it makes the two tools' p_n differ."""
    if nltk.orders[0].matches == 0:
        return ("No unigram of the hypothesis appears in a reference, so both tools return 0 "
                "(whatever the smoothing).",)
    method = smoothing or "method0"
    k = SACREBLEU_SMOOTHING[smooth_method] if smooth_value is None else smooth_value
    short: list[int] = []
    sacre_stops: list[int] = []
    nltk_reweighed: list[int] = []
    zero: list[int] = []
    zero_nltk_only: list[int] = []
    left_out_both: list[int] = []
    same_zero: list[int] = []
    nltk_changed: list[int] = []
    add_k: list[int] = []
    for a, b in zip(nltk.orders, sacre.orders):
        b_used = None if b.used is None else b.used / 100
        if _same(a.used, b_used):
            if a.used is None and b.used is None:
                left_out_both.append(a.n)
            elif a.matches == 0:
                same_zero.append(a.n)
            continue
        n = a.n
        shorter = sum(1 for length in hyp_lens if length < n)
        if shorter:
            short.append(n)
        if b.total == 0 or (b.used is None and a.used is not None):
            sacre_stops.append(n)
        if a.used is None and b.used is not None:
            nltk_reweighed.append(n)
        if a.matches == 0 and b.total == 0:
            zero_nltk_only.append(n)
        elif a.matches == 0:
            zero.append(n)
        elif a.used is not None and a.total and not _same(a.used, a.matches / a.total):
            nltk_changed.append(n)
        if smooth_method == "add-k" and n > 1 and b.used is not None:
            add_k.append(n)
    out: list[str] = []
    if short:
        if level == "sentence":
            out.append(
                f"p_n for n = {_orders_text(short)}: the hypothesis has {_plural(hyp_lens[0], 'token')}, so it has "
                f"no n-grams of {'that order' if len(short) == 1 else 'those orders'}: p_n is 0/0, undefined. NLTK "
                f"counts it as 0/1 (one n-gram, no match); sacreBLEU counts 0 n-grams.")
        else:
            lengths = sorted({length for length in hyp_lens if length < max(short)})
            which = "; ".join(
                f"{_plural(sum(1 for h in hyp_lens if h == length), 'hypothesis')} of {_plural(length, 'token')}"
                for length in lengths)
            out.append(
                f"p_n for n = {_orders_text(short)}: a hypothesis shorter than n tokens has no n-grams of that order "
                f"(this corpus has {which}). NLTK counts each such hypothesis as 0/1 (one n-gram, no match), so its "
                f"pooled total t_n is 1 larger per such hypothesis; sacreBLEU leaves them out of its totals.")
    if sacre_stops:
        if effective_order:
            out.append(
                f"sacreBLEU has no n-grams at all for n = {_orders_text(sacre_stops)}, and with effective order "
                f"(eff:yes) it leaves {'that order' if len(sacre_stops) == 1 else 'those orders'} out and averages over "
                f"the orders before.")
        else:
            out.append(
                f"sacreBLEU has no n-grams at all for n = {_orders_text(sacre_stops)} and effective order is off "
                f"(eff:no): p_n stays 0, its log is floored to -9999999999, and the score is 0.")
    kept_zero = " (method4 smooths only when c > 1: it divides by ln c)" if method == "method4" and sum(hyp_lens) <= 1 else ""
    if not auto_reweigh:  # an order NLTK skipped for a zero is told with the zeros below
        nltk_reweighed = [n for n in nltk_reweighed if n not in zero and n not in zero_nltk_only]
    if nltk_reweighed and auto_reweigh:
        out.append(
            f"NLTK's auto_reweigh gives the orders n = {_orders_text(nltk_reweighed)} no weight: with the default "
            f"weights and {'a hypothesis length' if level == 'sentence' else 'a total hypothesis length'} c below 4 "
            f"it uses weights 1/c for the orders 1 to c.")
    elif nltk_reweighed:
        out.append(f"NLTK leaves p_n out for n = {_orders_text(nltk_reweighed)}: its {method} left the zero as it is"
                   f"{kept_zero}, and NLTK skips a p_n of 0 without giving its weight to the other orders.")
    if zero:
        if method == "method0":
            nltk_side = "NLTK without smoothing uses the smallest float (about 2.2e-308), so its score is almost 0"
        elif all(o.used is None for o in nltk.orders if o.n in zero):
            nltk_side = f"NLTK's {method} leaves the zero{kept_zero}, and NLTK skips the order"
        else:
            nltk_side = f"NLTK's {method} replaces the zero"
        if smooth_method == "exp":
            sacre_side = ("sacreBLEU's exp smoothing (Chen and Cherry's method 3, the NIST geometric sequence) "
                          "uses 1/(2^k t_n) for the k-th order with no match")
        elif smooth_method == "floor":
            sacre_side = f"sacreBLEU's floor smoothing (Chen and Cherry's method 1) uses {k}/t_n"
        elif smooth_method == "none":
            sacre_side = "sacreBLEU without smoothing floors log 0 to -9999999999, so its score is 0"
        else:
            sacre_side = f"sacreBLEU's add-k adds {k} to the matches and totals for n > 1"
        out.append(f"No match for n = {_orders_text(zero)} (m_n = 0): {nltk_side}; {sacre_side}.")
    if zero_nltk_only:
        nltk_zero = ("without smoothing it uses the smallest float (about 2.2e-308), so its score is almost 0"
                     if method == "method0" else f"its {method} replaces the zero"
                     if any(o.used is not None for o in nltk.orders if o.n in zero_nltk_only)
                     else f"its {method} leaves the zero{kept_zero}, and NLTK skips the order")
        out.append(f"For n = {_orders_text(zero_nltk_only)}, NLTK's 0/1 has no match: {nltk_zero}.")
    if nltk_changed:
        out.append(
            f"NLTK's {method} also changes p_n for n = {_orders_text(nltk_changed)}, where there are matches "
            f"(methods 2, 5, 6 and 7 change non-zero precisions).")
    add_k = [n for n in add_k if n not in zero]  # the zeros' sentence above already says what add-k does there
    if add_k:
        out.append(
            f"sacreBLEU's add-k adds {k} to m_n and t_n for n = {_orders_text(add_k)} (Chen and Cherry's method 2), "
            f"matches or not.")
    if not out:
        out.append(_why_they_agree(nltk, hyp_lens, method, smooth_method, left_out_both, same_zero, auto_reweigh))
    if not _same(nltk.brevity_penalty, sacre.brevity_penalty):  # pragma: no cover - both use the closest length
        out.append("The brevity penalties differ.")
    return tuple(out)


# ---------------------------------------------------------------------------
# Running the tools
# ---------------------------------------------------------------------------


def _side(n: int, matches: float, total: float, used: Optional[float], scale: int) -> OrderSide:
    smoothed = used is not None and not (total and _same(used, scale * matches / total))
    return OrderSide(n, matches, total, used, smoothed)


def _nltk_orders(used: Sequence[Any], matches: Sequence[int], totals: Sequence[int],
                 log_terms: Sequence[Optional[float]]) -> tuple[OrderSide, ...]:
    return tuple(
        _side(n, m, t, None if log is None else float(p), 1)
        for n, (p, m, t, log) in enumerate(zip(used, matches, totals, log_terms), start=1)
    )


def _sacre_orders(score: SacreScore, max_n: int) -> tuple[OrderSide, ...]:
    used = score.orders_used
    return tuple(
        _side(n, score.counts[n - 1], score.totals[n - 1], score.precisions[n - 1] if n <= used else None, 100)
        for n in range(1, max_n + 1)
    )


def _nltk_smoothing(smoothing: Optional[str]) -> Any:
    needs("nltk", "Comparing with NLTK")
    from nltk.translate.bleu_score import SmoothingFunction

    return None if smoothing is None else getattr(SmoothingFunction(), smoothing)


def compare_tools(
    references: Sequence[Sequence[Hashable]],
    hypothesis: Sequence[Hashable],
    max_n: int = 4,
    *,
    smoothing: Optional[str] = None,
    auto_reweigh: bool = False,
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    effective_order: bool = True,
) -> ToolComparison:
    """Sentence BLEU-``max_n`` from NLTK and sacreBLEU on the same tokens, with the reasons they differ.

    NLTK: ``sentence_bleu`` with weights 1/``max_n`` each, ``smoothing``
    (NLTK's method name; default none) and ``auto_reweigh``.  sacreBLEU:
    ``sentence_bleu`` on the tokens joined by spaces with ``tokenize='none'``,
    ``smooth_method``/``smooth_value`` and ``effective_order`` (its defaults:
    exp smoothing, effective order on).  Each tool's defaults are the
    defaults here.

    >>> refs = [["the", "cat", "is", "on", "the", "mat"]]
    >>> result = compare_tools(refs, ["the", "cat", "sat", "on", "a", "mat"])
    >>> f"{result.nltk:.3g}", f"{result.sacrebleu_run.score:.2f}", result.agree
    ('9.01e-155', '19.30', False)
    >>> compare_tools(refs, ["the", "cat", "sat", "on", "a", "mat"], smoothing="method3").agree
    True
    """
    needs("nltk", "Comparing with NLTK")
    needs("sacrebleu", "Comparing with sacreBLEU")
    from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu
    from sacrebleu.metrics import BLEU

    smoothing = _check_options(max_n, smoothing, auto_reweigh, smooth_method, smooth_value)
    refs = [_check_text_tokens(r, f"references[{i}]") for i, r in enumerate(check_references(references))]
    hyp = _check_text_tokens(check_tokens(hypothesis, "hypothesis"), "hypothesis")
    if not isinstance(effective_order, bool):
        raise TypeError("effective_order must be True or False.")
    weights = (1 / max_n,) * max_n
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zero-precision warnings: the table shows the numbers and the reasons
        ours = float(cast(float, sentence_bleu(refs, hyp, weights, smoothing, auto_reweigh)))
        report = explain(refs, hyp, weights, smoothing, auto_reweigh)
        theirs = nltk_sentence_bleu(refs, hyp, weights, _nltk_smoothing(smoothing), auto_reweigh)
    hyp_text, ref_texts = " ".join(hyp), [" ".join(r) for r in refs]
    # BLEU(...).corpus_score on one segment is sacreBLEU's sentence_score without its logged advice.
    metric = BLEU(tokenize="none", smooth_method=smooth_method, smooth_value=smooth_value,
                  max_ngram_order=max_n, effective_order=effective_order)
    sacre = metric.corpus_score([hyp_text], [[r] for r in ref_texts])
    same_terms = sentence_score(hyp_text, ref_texts, smooth_method, smooth_value, tokenize="none",
                                use_effective_order=effective_order, max_ngram_order=max_n)
    nltk_run = ToolRun(
        "NLTK", f"sentence_bleu(references, hypothesis{_nltk_args(max_n, smoothing, auto_reweigh)})",
        float(theirs), 1, "bt.sentence_bleu", ours,
        _nltk_orders([o.smoothed for o in report.orders], [o.clipped for o in report.orders],
                     [o.total for o in report.orders], [o.log_term for o in report.orders]),
        float(report.brevity_penalty), len(hyp), report.length.closest_ref_len)
    sacre_call = (f"sentence_bleu(hypothesis, references, "
                  f"{_sacre_args(smooth_method, smooth_value, effective_order, True, max_n)})")
    sacre_run = ToolRun(
        "sacreBLEU", sacre_call, float(sacre.score), 100, "bt.sentence_score", same_terms.score,
        _sacre_orders(same_terms, max_n), float(sacre.bp), sacre.sys_len, sacre.ref_len, same_terms.signature)
    reasons = _reasons(nltk_run, sacre_run, [len(hyp)], smoothing, smooth_method, smooth_value,
                       effective_order, "sentence", auto_reweigh)
    return ToolComparison("sentence", max_n, nltk_run, sacre_run, _coincidence(nltk_run, sacre_run, reasons))


def compare_tools_corpus(
    list_of_references: Sequence[Sequence[Sequence[Hashable]]],
    hypotheses: Sequence[Sequence[Hashable]],
    max_n: int = 4,
    *,
    smoothing: Optional[str] = None,
    auto_reweigh: bool = False,
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
    effective_order: bool = False,
) -> ToolComparison:
    """Corpus BLEU-``max_n`` from NLTK and sacreBLEU on the same tokens, with the reasons they differ.

    NLTK: ``corpus_bleu`` (weights 1/``max_n`` each, ``smoothing``,
    ``auto_reweigh``).  sacreBLEU: ``BLEU(tokenize='none', ...).corpus_score``
    on the tokens joined by spaces (its defaults: exp smoothing, effective
    order off).  ``list_of_references[i]`` holds the references of
    ``hypotheses[i]``, as in NLTK.

    >>> refs = [[["the", "cat", "is", "on", "the", "mat"]], [["it", "rained", "all", "day"]]]
    >>> result = compare_tools_corpus(refs, [["the", "cat", "is", "on", "the", "mat"], ["rain"]])
    >>> round(result.nltk, 4), round(result.sacrebleu_run.score, 2), result.agree
    (0.5271, 62.68, False)
    """
    needs("nltk", "Comparing with NLTK")
    needs("sacrebleu", "Comparing with sacreBLEU")
    from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
    from sacrebleu.metrics import BLEU

    smoothing = _check_options(max_n, smoothing, auto_reweigh, smooth_method, smooth_value)
    if not isinstance(effective_order, bool):
        raise TypeError("effective_order must be True or False.")
    refs_list, hyps_checked = check_corpus(list_of_references, hypotheses)
    refs = [[_check_text_tokens(r, f"list_of_references[{i}][{j}]") for j, r in enumerate(group)]
            for i, group in enumerate(refs_list)]
    hyps = [_check_text_tokens(h, f"hypotheses[{i}]") for i, h in enumerate(hyps_checked)]
    weights = (1 / max_n,) * max_n
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zero-precision warnings: the table shows the numbers and the reasons
        ours = float(cast(float, corpus_bleu(refs, hyps, weights, smoothing, auto_reweigh)))
        report = explain_corpus(refs, hyps, weights, smoothing, auto_reweigh)
        theirs = nltk_corpus_bleu(refs, hyps, weights, _nltk_smoothing(smoothing), auto_reweigh)
    hyp_texts = [" ".join(h) for h in hyps]
    ref_texts: list[list[Optional[str]]] = [[" ".join(r) for r in group] for group in refs]
    metric = BLEU(tokenize="none", smooth_method=smooth_method, smooth_value=smooth_value,
                  max_ngram_order=max_n, effective_order=effective_order)
    sacre = metric.corpus_score(hyp_texts, cast(Any, to_sacrebleu_references(ref_texts)))
    same_terms = corpus_score(hyp_texts, ref_texts, "none", False, smooth_method, smooth_value,
                              max_ngram_order=max_n, effective_order=effective_order, orientation="per_hypothesis")
    nltk_run = ToolRun(
        "NLTK", f"corpus_bleu(list_of_references, hypotheses{_nltk_args(max_n, smoothing, auto_reweigh)})",
        float(theirs), 1, "bt.corpus_bleu", ours,
        _nltk_orders(report.smoothed, report.clipped, report.totals, report.log_terms),
        float(report.brevity_penalty), report.hyp_len, report.ref_len)
    sacre_call = (f"BLEU({_sacre_args(smooth_method, smooth_value, effective_order, False, max_n)})"
                  f".corpus_score(hypotheses, reference_streams)")
    sacre_run = ToolRun(
        "sacreBLEU", sacre_call, float(sacre.score), 100, "bt.corpus_score", same_terms.score,
        _sacre_orders(same_terms, max_n), float(sacre.bp), sacre.sys_len, sacre.ref_len, same_terms.signature)
    reasons = _reasons(nltk_run, sacre_run, [len(h) for h in hyps], smoothing, smooth_method, smooth_value,
                       effective_order, "corpus", auto_reweigh)
    return ToolComparison("corpus", max_n, nltk_run, sacre_run, _coincidence(nltk_run, sacre_run, reasons))
