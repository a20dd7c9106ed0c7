"""NLTK and sacreBLEU side by side on the same tokens, each with bleu_teach's equal number.

:func:`compare_tools` (one sentence) and :func:`compare_tools_corpus` run both tools, and bleu_teach on each
one's terms (NLTK's number exactly, sacreBLEU's to 1e-9), and name the reason for every order where their
precisions differ (and say so when the scores agree all the same).  sacreBLEU gets the tokens joined by spaces
with its ``none`` tokenizer, so both see the same tokens.  NLTK and sacreBLEU are imported only when asked for.

When the two tools agree, and why they differ (a hypothesis shorter than n tokens; a zero pooled precision and
the two tools' smoothings, Chen and Cherry 2014; NLTK's ``auto_reweigh``), is
:mod:`bleu_teach.lessons.tool_reasons`; what a comparison holds and how it shows itself (:class:`ToolComparison`,
:class:`ToolRun`, :class:`OrderSide`) is :mod:`bleu_teach.lessons.tool_results`.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Sequence
from typing import Any, cast

from bleu_teach.bleu.explain import explain, explain_corpus
from bleu_teach.bleu.nltk_api import check_corpus, corpus_bleu, sentence_bleu
from bleu_teach.bleu.sacrebleu_api import SACREBLEU_SMOOTHING, SacreScore, corpus_score, sentence_score
from bleu_teach.bleu.smoothing import SMOOTHING_METHODS, resolve_smoothing
from bleu_teach.inputs.corpus_layout import to_sacrebleu_references
from bleu_teach.inputs.optional import needs
from bleu_teach.inputs.validation import check_orders, check_references, check_tokens
from bleu_teach.lessons.tool_reasons import coincidence, order_reasons
from bleu_teach.lessons.tool_results import OrderSide, ToolComparison, ToolRun, same_value

__all__ = ["OrderSide", "ToolRun", "ToolComparison", "compare_tools", "compare_tools_corpus"]


# ---------------------------------------------------------------------------
# Checking the input
# ---------------------------------------------------------------------------


def _check_text_tokens(tokens: Sequence[Hashable], what: str) -> list[str]:
    """sacreBLEU reads text: each token must be a string that a space split gives back unchanged."""
    out = []
    for token in tokens:
        if not isinstance(token, str):
            raise TypeError(
                f"{what} holds {token!r}, not a string; sacreBLEU scores text, so give string tokens "
                f"(for example [str(t) for t in tokens])."
            )
        if token.split() != [token]:
            raise ValueError(
                f"{what} holds the token {token!r}, which is empty or contains white space; sacreBLEU "
                f"would split it differently, so the two tools would not see the same tokens."
            )
        out.append(token)
    return out


def _check_options(
    max_n: Any, smoothing: Any, auto_reweigh: Any, smooth_method: Any, smooth_value: Any = None
) -> str | None:
    """Refuse bad options; return the smoothing as NLTK's method name ("1", 1 and "method1" are method1)."""
    check_orders(max_n, "max_n", "4 for BLEU-4")
    if isinstance(smoothing, (str, int)) and not isinstance(smoothing, bool):
        try:
            smoothing = resolve_smoothing(smoothing)[1]
        except (TypeError, ValueError):
            pass  # refused just below, with the names this comparison accepts
    if smoothing is not None and smoothing not in SMOOTHING_METHODS:
        raise ValueError(
            f"smoothing must be None or one of {', '.join(SMOOTHING_METHODS)} (NLTK's names), not {smoothing!r}."
        )
    if not isinstance(auto_reweigh, bool):
        raise TypeError("auto_reweigh must be True or False.")
    if not isinstance(smooth_method, str) or smooth_method not in SACREBLEU_SMOOTHING:
        raise ValueError(
            f"smooth_method must be one of {', '.join(SACREBLEU_SMOOTHING)} (sacreBLEU's names), not {smooth_method!r}."
        )
    if smooth_value is not None and (isinstance(smooth_value, bool) or not isinstance(smooth_value, (int, float))):
        raise TypeError(f"smooth_value must be a number or None (the method's default), not {smooth_value!r}.")
    if smooth_value is not None and not (math.isfinite(smooth_value) and 0 <= smooth_value <= 1e300):
        raise ValueError(
            f"smooth_value must be a finite number >= 0 (sacreBLEU's floor default is 0.1), not {smooth_value!r}."
        )
    return cast(str | None, smoothing)


# ---------------------------------------------------------------------------
# How each tool was called (shown in the table)
# ---------------------------------------------------------------------------


def _nltk_args(max_n: int, smoothing: str | None, auto_reweigh: bool) -> str:
    args = []
    if max_n != 4:
        args.append(f"weights=(1/{max_n},) * {max_n}")
    if smoothing not in (None, "method0"):
        args.append(f"smoothing_function=SmoothingFunction().{smoothing}")
    if auto_reweigh:
        args.append("auto_reweigh=True")
    return "".join(f", {a}" for a in args)


def _sacre_args(
    smooth_method: str, smooth_value: float | None, effective_order: bool, default_effective: bool, max_n: int
) -> str:
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
# Running the tools
# ---------------------------------------------------------------------------


def _side(n: int, matches: float, total: float, used: float | None, scale: int) -> OrderSide:
    smoothed = used is not None and not (total and same_value(used, scale * matches / total))
    return OrderSide(n, matches, total, used, smoothed)


def _nltk_orders(
    used: Sequence[Any], matches: Sequence[int], totals: Sequence[int], log_terms: Sequence[float | None]
) -> tuple[OrderSide, ...]:
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


def _nltk_smoothing(smoothing: str | None) -> Any:
    needs("nltk", "Comparing with NLTK")
    from nltk.translate.bleu_score import SmoothingFunction

    return None if smoothing is None else getattr(SmoothingFunction(), smoothing)


def compare_tools(
    references: Sequence[Sequence[Hashable]],
    hypothesis: Sequence[Hashable],
    max_n: int = 4,
    *,
    smoothing: str | None = None,
    auto_reweigh: bool = False,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
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
    metric = BLEU(
        tokenize="none",
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        max_ngram_order=max_n,
        effective_order=effective_order,
    )
    sacre = metric.corpus_score([hyp_text], [[r] for r in ref_texts])
    same_terms = sentence_score(
        hyp_text,
        ref_texts,
        smooth_method,
        smooth_value,
        tokenize="none",
        use_effective_order=effective_order,
        max_ngram_order=max_n,
    )
    nltk_run = ToolRun(
        "NLTK",
        f"sentence_bleu(references, hypothesis{_nltk_args(max_n, smoothing, auto_reweigh)})",
        float(theirs),
        1,
        "bt.sentence_bleu",
        ours,
        _nltk_orders(
            [o.smoothed for o in report.orders],
            [o.clipped for o in report.orders],
            [o.total for o in report.orders],
            [o.log_term for o in report.orders],
        ),
        float(report.brevity_penalty),
        len(hyp),
        report.length.closest_ref_len,
    )
    sacre_call = (
        f"sentence_bleu(hypothesis, references, "
        f"{_sacre_args(smooth_method, smooth_value, effective_order, True, max_n)})"
    )
    sacre_run = ToolRun(
        "sacreBLEU",
        sacre_call,
        float(sacre.score),
        100,
        "bt.sentence_score",
        same_terms.score,
        _sacre_orders(same_terms, max_n),
        float(sacre.bp),
        sacre.sys_len,
        sacre.ref_len,
        same_terms.signature,
    )
    reasons = order_reasons(
        nltk_run,
        sacre_run,
        [len(hyp)],
        smoothing,
        smooth_method,
        smooth_value,
        effective_order,
        "sentence",
        auto_reweigh,
    )
    return ToolComparison("sentence", max_n, nltk_run, sacre_run, coincidence(nltk_run, sacre_run, reasons))


def compare_tools_corpus(
    list_of_references: Sequence[Sequence[Sequence[Hashable]]],
    hypotheses: Sequence[Sequence[Hashable]],
    max_n: int = 4,
    *,
    smoothing: str | None = None,
    auto_reweigh: bool = False,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
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
    refs = [
        [_check_text_tokens(r, f"list_of_references[{i}][{j}]") for j, r in enumerate(group)]
        for i, group in enumerate(refs_list)
    ]
    hyps = [_check_text_tokens(h, f"hypotheses[{i}]") for i, h in enumerate(hyps_checked)]
    weights = (1 / max_n,) * max_n
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zero-precision warnings: the table shows the numbers and the reasons
        ours = float(cast(float, corpus_bleu(refs, hyps, weights, smoothing, auto_reweigh)))
        report = explain_corpus(refs, hyps, weights, smoothing, auto_reweigh)
        theirs = nltk_corpus_bleu(refs, hyps, weights, _nltk_smoothing(smoothing), auto_reweigh)
    hyp_texts = [" ".join(h) for h in hyps]
    ref_texts: list[list[str | None]] = [[" ".join(r) for r in group] for group in refs]
    metric = BLEU(
        tokenize="none",
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        max_ngram_order=max_n,
        effective_order=effective_order,
    )
    sacre = metric.corpus_score(hyp_texts, cast(Any, to_sacrebleu_references(ref_texts)))
    same_terms = corpus_score(
        hyp_texts,
        ref_texts,
        "none",
        False,
        smooth_method,
        smooth_value,
        max_ngram_order=max_n,
        effective_order=effective_order,
        orientation="per_hypothesis",
    )
    nltk_run = ToolRun(
        "NLTK",
        f"corpus_bleu(list_of_references, hypotheses{_nltk_args(max_n, smoothing, auto_reweigh)})",
        float(theirs),
        1,
        "bt.corpus_bleu",
        ours,
        _nltk_orders(report.smoothed, report.clipped, report.totals, report.log_terms),
        float(report.brevity_penalty),
        report.hyp_len,
        report.ref_len,
    )
    sacre_call = (
        f"BLEU({_sacre_args(smooth_method, smooth_value, effective_order, False, max_n)})"
        f".corpus_score(hypotheses, reference_streams)"
    )
    sacre_run = ToolRun(
        "sacreBLEU",
        sacre_call,
        float(sacre.score),
        100,
        "bt.corpus_score",
        same_terms.score,
        _sacre_orders(same_terms, max_n),
        float(sacre.bp),
        sacre.sys_len,
        sacre.ref_len,
        same_terms.signature,
    )
    reasons = order_reasons(
        nltk_run,
        sacre_run,
        [len(h) for h in hyps],
        smoothing,
        smooth_method,
        smooth_value,
        effective_order,
        "corpus",
        auto_reweigh,
    )
    return ToolComparison("corpus", max_n, nltk_run, sacre_run, coincidence(nltk_run, sacre_run, reasons))
