"""Why NLTK and sacreBLEU give different BLEU for the same tokens, order by order.

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

:func:`order_reasons` gives one sentence per cause, naming the orders where it makes the two tools' p_n differ (or,
when nothing differs, why they agree); :func:`coincidence` puts first, when the scores agree although the p_n
differ, that they do.  The runs they read are :mod:`bleu_teach.lessons.tool_results`'s; running the tools is
:mod:`bleu_teach.lessons.tool_comparison`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bleu_teach.bleu.sacrebleu_api import SACREBLEU_SMOOTHING
from bleu_teach.lessons.tool_results import AGREEMENT_TOLERANCE, ToolRun, same_value
from bleu_teach.views.formatting import number_ranges

__all__ = ["order_reasons", "coincidence"]


def _orders_text(orders: Sequence[int]) -> str:
    return number_ranges(orders)


def _plural(count: int, word: str) -> str:
    if count == 1:
        return f"1 {word}"
    return f"{count} {word[:-2] + 'es' if word.endswith('is') else word + 's'}"


def _why_they_agree(
    nltk: ToolRun,
    hyp_lens: Sequence[int],
    method: str,
    smooth_method: str,
    left_out_both: Sequence[int],
    same_zero: Sequence[int],
    auto_reweigh: bool,
) -> str:
    """Why every p_n (and BP) came out the same in both tools."""
    if not left_out_both and not same_zero and min(hyp_lens) >= len(nltk.orders):
        return (
            "Every p_n and BP are the same in both tools: no hypothesis is shorter than "
            f"{len(nltk.orders)} tokens, no pooled precision is zero and no smoothing changed a non-zero "
            "precision, so neither tool's special rules come into play and sacreBLEU's score is 100 times NLTK's."
        )
    parts = ["Every p_n the two tools use, and BP, are the same"]
    if left_out_both:
        nltk_rule = "auto_reweigh" if auto_reweigh else "skipping of a p_n of 0"
        parts.append(
            f"neither tool uses p_n for n = {_orders_text(left_out_both)}, which the hypothesis is too short "
            f"for (NLTK's {nltk_rule} and sacreBLEU's effective order both leave such orders out)"
        )
    if same_zero:
        rule = {
            ("method3", "exp"): "both are Chen and Cherry's method 3, 1/(2^k t_n)",
            ("method1", "floor"): "both are Chen and Cherry's method 1, epsilon/t_n",
        }.get((method, smooth_method), "the two smoothings give the same value here")
        parts.append(
            f"no match for n = {_orders_text(same_zero)}, and NLTK's {method} and sacreBLEU's "
            f"{smooth_method} treat that alike ({rule})"
        )
    return "; ".join(parts) + ", so sacreBLEU's score is 100 times NLTK's."


def coincidence(nltk: ToolRun, sacre: ToolRun, reasons: tuple[str, ...]) -> tuple[str, ...]:
    """The reasons, first saying so when the scores agree although the p_n differ (NLTK drops an order that
    sacreBLEU's add-k makes 1/1, say)."""
    if math.isclose(nltk.score, sacre.score / 100, rel_tol=AGREEMENT_TOLERANCE, abs_tol=0.0) and not reasons[
        0
    ].startswith(("Every p_n", "No unigram")):
        return (
            "The two scores are the same here although the tools' p_n differ (below): the orders where they "
            "differ weigh the same in both scores here (NLTK leaving out an order counts as a factor of 1, as a "
            "p_n of 1/1 does), which another example need not.",
            *reasons,
        )
    return reasons


def order_reasons(
    nltk: ToolRun,
    sacre: ToolRun,
    hyp_lens: Sequence[int],
    smoothing: str | None,
    smooth_method: str,
    smooth_value: float | None,
    effective_order: bool,
    level: str,
    auto_reweigh: bool,
) -> tuple[str, ...]:
    """One sentence per cause, naming the orders where it makes the two tools' p_n differ."""
    if nltk.orders[0].matches == 0:
        return (
            "No unigram of the hypothesis appears in a reference, so both tools return 0 (whatever the smoothing).",
        )
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
        if same_value(a.used, b_used):
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
        elif a.used is not None and a.total and not same_value(a.used, a.matches / a.total):
            nltk_changed.append(n)
        if smooth_method == "add-k" and n > 1 and b.used is not None:
            add_k.append(n)
    out: list[str] = []
    if short:
        if level == "sentence":
            out.append(
                f"p_n for n = {_orders_text(short)}: the hypothesis has {_plural(hyp_lens[0], 'token')}, so it has "
                f"no n-grams of {'that order' if len(short) == 1 else 'those orders'}: p_n is 0/0, undefined. NLTK "
                f"counts it as 0/1 (one n-gram, no match); sacreBLEU counts 0 n-grams."
            )
        else:
            lengths = sorted({length for length in hyp_lens if length < max(short)})
            which = "; ".join(
                f"{_plural(sum(1 for h in hyp_lens if h == length), 'hypothesis')} of {_plural(length, 'token')}"
                for length in lengths
            )
            out.append(
                f"p_n for n = {_orders_text(short)}: a hypothesis shorter than n tokens has no n-grams of that order "
                f"(this corpus has {which}). NLTK counts each such hypothesis as 0/1 (one n-gram, no match), so its "
                f"pooled total t_n is 1 larger per such hypothesis; sacreBLEU leaves them out of its totals."
            )
    if sacre_stops:
        if effective_order:
            out.append(
                f"sacreBLEU has no n-grams at all for n = {_orders_text(sacre_stops)}, and with effective order "
                f"(eff:yes) it leaves {'that order' if len(sacre_stops) == 1 else 'those orders'} out and averages "
                f"over the orders before."
            )
        else:
            out.append(
                f"sacreBLEU has no n-grams at all for n = {_orders_text(sacre_stops)} and effective order is off "
                f"(eff:no): p_n stays 0, its log is floored to -9999999999, and the score is 0."
            )
    kept_zero = (
        " (method4 smooths only when c > 1: it divides by ln c)" if method == "method4" and sum(hyp_lens) <= 1 else ""
    )
    if not auto_reweigh:  # an order NLTK skipped for a zero is told with the zeros below
        nltk_reweighed = [n for n in nltk_reweighed if n not in zero and n not in zero_nltk_only]
    if nltk_reweighed and auto_reweigh:
        out.append(
            f"NLTK's auto_reweigh gives the orders n = {_orders_text(nltk_reweighed)} no weight: with the default "
            f"weights and {'a hypothesis length' if level == 'sentence' else 'a total hypothesis length'} c below 4 "
            f"it uses weights 1/c for the orders 1 to c."
        )
    elif nltk_reweighed:
        out.append(
            f"NLTK leaves p_n out for n = {_orders_text(nltk_reweighed)}: its {method} left the zero as it is"
            f"{kept_zero}, and NLTK skips a p_n of 0 without giving its weight to the other orders."
        )
    if zero:
        if method == "method0":
            nltk_side = "NLTK without smoothing uses the smallest float (about 2.2e-308), so its score is almost 0"
        elif all(o.used is None for o in nltk.orders if o.n in zero):
            nltk_side = f"NLTK's {method} leaves the zero{kept_zero}, and NLTK skips the order"
        else:
            nltk_side = f"NLTK's {method} replaces the zero"
        if smooth_method == "exp":
            sacre_side = (
                "sacreBLEU's exp smoothing (Chen and Cherry's method 3, the NIST geometric sequence) "
                "uses 1/(2^k t_n) for the k-th order with no match"
            )
        elif smooth_method == "floor":
            sacre_side = f"sacreBLEU's floor smoothing (Chen and Cherry's method 1) uses {k}/t_n"
        elif smooth_method == "none":
            sacre_side = "sacreBLEU without smoothing floors log 0 to -9999999999, so its score is 0"
        else:
            sacre_side = f"sacreBLEU's add-k adds {k} to the matches and totals for n > 1"
        out.append(f"No match for n = {_orders_text(zero)} (m_n = 0): {nltk_side}; {sacre_side}.")
    if zero_nltk_only:
        nltk_zero = (
            "without smoothing it uses the smallest float (about 2.2e-308), so its score is almost 0"
            if method == "method0"
            else f"its {method} replaces the zero"
            if any(o.used is not None for o in nltk.orders if o.n in zero_nltk_only)
            else f"its {method} leaves the zero{kept_zero}, and NLTK skips the order"
        )
        out.append(f"For n = {_orders_text(zero_nltk_only)}, NLTK's 0/1 has no match: {nltk_zero}.")
    if nltk_changed:
        out.append(
            f"NLTK's {method} also changes p_n for n = {_orders_text(nltk_changed)}, where there are matches "
            f"(methods 2, 5, 6 and 7 change non-zero precisions)."
        )
    add_k = [n for n in add_k if n not in zero]  # the zeros' sentence above already says what add-k does there
    if add_k:
        out.append(
            f"sacreBLEU's add-k adds {k} to m_n and t_n for n = {_orders_text(add_k)} (Chen and Cherry's method 2), "
            f"matches or not."
        )
    if not out:
        out.append(_why_they_agree(nltk, hyp_lens, method, smooth_method, left_out_both, same_zero, auto_reweigh))
    if not same_value(nltk.brevity_penalty, sacre.brevity_penalty):  # pragma: no cover - both use the closest length
        out.append("The brevity penalties differ.")
    return tuple(out)
