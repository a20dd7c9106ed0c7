"""chrF and chrF++ on raw strings, step by step, with sacreBLEU's numbers.

chrF (Popović 2015, "chrF: character n-gram F-score for automatic MT
evaluation", WMT) compares the CHARACTER n-grams of a hypothesis and a
reference; chrF++ (Popović 2017, "chrF++: words helping character n-grams",
WMT) adds WORD unigrams and bigrams.  For each order n (character orders
1..``char_order``, then word orders 1..``word_order``)::

    matched_n = sum over n-grams g of min(count of g in hypothesis, count of g in reference)
    P_n = matched_n / hypothesis n-grams        R_n = matched_n / reference n-grams

and with P and R the means of P_n and R_n over the orders::

    chrF_beta = 100 * (1 + beta^2) * P * R / (beta^2 * P + R)

beta = 2 weighs recall twice as much as precision (Popović 2015, Section 2;
2 is the default since WMT16).  :func:`explain_chrf` (one sentence) and
:func:`chrf_score` (a corpus) give the numbers of sacreBLEU's
``sacrebleu.metrics.CHRF(...).sentence_score`` / ``.corpus_score`` (to
1e-9; in practice exactly, as they do the same float steps in the same
order), on sacreBLEU's 0-100 scale.  Counting is done by
:mod:`bleu_teach.bleu.counting` (:func:`~bleu_teach.bleu.counting.chrf_ngram_counts`,
:func:`~bleu_teach.bleu.counting.chrf_order_counts`); this module only combines
the counts (:func:`chrf_from_counts`, which follows ``CHRF._compute_f_score``).

SACREBLEU'S CHRF, FOLLOWED ON PURPOSE (some of it surprising):

* Whitespace is removed before character n-grams are taken
  (``whitespace=False``): "the cat" and "thecat" have the same character
  n-grams, and n-grams run across word boundaries ("ec" in "the cat").
* Averaging: P and R are the means of P_n and R_n over the orders with
  n-grams on BOTH sides (hypothesis and reference); an order missing on one
  side is left out of the averages ("effective order", sacreBLEU's default
  ``eps_smoothing=False``).  An order with n-grams on both sides but no
  match still counts, with P_n = R_n = 0.
* ``eps_smoothing=True`` is a different formula, not a smoothing of this
  one: it averages the per-order F-scores F_n over ALL orders (as
  Popović's chrF++.py, Moses and NLTK do), with eps = 1e-16 standing in for
  an undefined P_n or R_n, and F_n = 1e-16 when P_n = R_n = 0.
* When the reference has no n-grams of an order, sacreBLEU reports the
  hypothesis's n-grams of that order as 0 too: they are neither matched nor
  held against the precision (see ``ChrfOrderCounts.hyp_left_out``).  In a
  corpus, those n-grams are missing from the summed totals.
* Several references are NOT pooled as in BLEU: the hypothesis is scored
  against each reference alone and the reference with the highest chrF (the
  first on a tie) is kept; the corpus sums the counts against each
  segment's chosen reference.  Corpus chrF is computed from those summed
  counts, not as a mean of segment scores.
* chrF++ words: the text is split on whitespace and ONE punctuation
  character is split off the end of a word (or, failing that, its start):
  "(hi)" gives "(hi" and ")" (:func:`~bleu_teach.bleu.counting.chrf_words`).
* ``lowercase=True`` applies ``str.lower()`` to hypothesis and references
  before everything else.  Characters are Unicode code points.
* The name follows sacreBLEU: ``chrF{beta}`` plus one "+" per word order
  (``chrF2``, ``chrF2++``; word_order 1 gives ``chrF2+``).

>>> report = explain_chrf("the cat is chasing the dog", ["the cat chased the dog"])
>>> round(report.score, 2), report.result.effective_order
(51.19, 6)
>>> round(explain_chrf("the cat is chasing the dog", ["the cat chased the dog"], word_order=2).score, 2)
53.96
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from bleu_teach.bleu.counting import collector_paused
from bleu_teach.chrf.arithmetic import (
    BETA,
    CHAR_ORDER,
    WORD_ORDER,
    ChrfOrder,
    ChrfResult,
    ChrfSettings,
    chrf_from_counts,
)
from bleu_teach.chrf.counting import (
    ChrfProfile,
    check_chrf_orders,
    chrf_characters,
    chrf_ngram_counts,
    chrf_order_counts,
    chrf_sums,
    chrf_words,
    order_kinds,
)
from bleu_teach.chrf.reports import ChrfCandidate, ChrfCorpusScore, ChrfReport, ChrfSegment
from bleu_teach.inputs.corpus_layout import check_inputs
from bleu_teach.inputs.validation import MAX_ORDERS

__all__ = ["explain_chrf", "chrf_score"]


def _choose(scores: Sequence[float]) -> int:
    # sacreBLEU: the first reference with a strictly higher chrF than all before it (best starts at -1).
    best, chosen = -1.0, 0
    for i, score in enumerate(scores):
        if score > best:
            best, chosen = score, i
    return chosen


# ---------------------------------------------------------------------------
# Checking inputs
# ---------------------------------------------------------------------------


#: The most character and word orders chrF counts together (each is counted and averaged, even past the text's
#: length): the package's one limit on orders.
MAX_CHRF_ORDERS = MAX_ORDERS


def _check_options(
    char_order: Any, word_order: Any, beta: Any, lowercase: Any, whitespace: Any, eps_smoothing: Any
) -> ChrfSettings:
    check_chrf_orders(char_order, word_order)
    if isinstance(beta, bool) or not isinstance(beta, (int, float)):
        raise TypeError(
            f"beta must be a number such as 2 (recall counts beta times as much as precision), not {beta!r}."
        )
    if isinstance(beta, float) and math.isfinite(beta) or isinstance(beta, int):
        if beta > 1e150:  # beta squared must stay a float
            raise ValueError(
                f"beta must be at most 1e150, so that beta squared is a number (2 is chrF's usual value); got {beta!r}."
            )
    if not math.isfinite(beta) or beta < 0:
        raise ValueError(f"beta must be a finite number >= 0 (2 is chrF's usual value); got {beta!r}.")
    for name, value in (("lowercase", lowercase), ("whitespace", whitespace), ("eps_smoothing", eps_smoothing)):
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be True or False, not {value!r}.")
    return ChrfSettings(int(char_order), int(word_order), beta, lowercase, whitespace, eps_smoothing)


def _check_sentence(hypothesis: Any, references: Any) -> None:
    if not isinstance(hypothesis, str):
        raise TypeError(
            f"hypothesis must be one string (raw text), not {type(hypothesis).__name__}; "
            f"for a list of hypotheses use chrf_score."
        )
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError(
            "references must be a list of reference strings; wrap a single reference in a list: [reference]."
        )
    for j, r in enumerate(references):
        if r is not None and not isinstance(r, str):
            raise TypeError(f"references[{j}] must be a string (raw text), not {type(r).__name__}.")
    if all(r is None for r in references):
        raise ValueError("references has no reference string; give at least one.")


def _reason(candidates: Sequence[ChrfCandidate], chosen: int, name: str) -> str:
    if len(candidates) == 1:
        return "the only reference"
    best = candidates[chosen]
    tied = [c.index + 1 for c in candidates if c.score == best.score]
    if len(tied) > 1:
        return f"references {', '.join(map(str, tied))} tie at {name} = {best.score:.4f}; sacreBLEU keeps the first"
    return (
        f"the highest {name} of the {len(candidates)} references; sacreBLEU keeps the best one, it does not pool them"
    )


def _orders_named(orders: Sequence[ChrfOrder]) -> str:
    return ", ".join(o.label for o in orders)


def _sentence_notes(
    settings: ChrfSettings, characters: str, words: tuple[str, ...], candidates: Sequence[ChrfCandidate], chosen: int
) -> list[str]:
    notes: list[str] = []
    best = candidates[chosen]
    result = best.result
    if not characters and not words:
        notes.append("The hypothesis is empty (after removing whitespace), so it has no n-grams and chrF is 0.")
    left_out = [o for o in result.orders if o.counts.hyp_left_out]
    if left_out:
        notes.append(
            f"Reference {best.index + 1} has no {_orders_named(left_out)}, so sacreBLEU counts the hypothesis's "
            f"{', '.join(f'{o.hyp_ngrams} {o.label}' for o in left_out)} as 0 too: they are neither matched "
            f"nor held against the precision."
        )
    outside = [o for o in result.orders if not o.in_average]
    if outside and not settings.eps_smoothing:
        notes.append(
            f"{_orders_named(outside)}: no n-grams in the hypothesis or in the reference, so "
            f"{'this order is' if len(outside) == 1 else 'these orders are'} left out of the averages "
            f"(sacreBLEU's effective order): P and R are means over {result.effective_order} of "
            f"{len(result.orders)} orders."
        )
    if settings.eps_smoothing:
        notes.append(
            f"eps_smoothing: the score is the mean of the per-order F over all {len(result.orders)} orders; "
            f"an undefined P_n or R_n counts as 1e-16, and F_n as 1e-16 when P_n and R_n are both 0."
        )
    if not settings.whitespace:
        notes.append("Whitespace is removed before character n-grams are taken, so they run across word boundaries.")
    if len(candidates) > 1:
        notes.append(
            "With several references, chrF scores the hypothesis against each one alone and keeps the best "
            "(the first on a tie); unlike BLEU it neither pools nor clips n-grams over the references."
        )
    if settings.word_order:
        notes.append(
            "chrF++ words: text split on whitespace, then one punctuation character split off the end "
            "of a word (or else its start), as in Popović's chrF++.py."
        )
    return notes


def _compared(text: str, settings: ChrfSettings) -> str:
    return text.lower() if settings.lowercase else text


def explain_chrf(
    hypothesis: str,
    references: Sequence[str | None],
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: float = BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
) -> ChrfReport:
    """Sentence chrF (chrF++ with ``word_order=2``), every step kept; equal to ``CHRF(...).sentence_score``.

    The options are ``sacrebleu.metrics.CHRF``'s, with its defaults.
    ``references`` is a list of reference strings for this one hypothesis
    (``None`` entries are skipped, as sacreBLEU does).  The hypothesis is
    scored against each reference and the best is kept (see the module
    docstring for this and sacreBLEU's other rules).

    >>> r = explain_chrf("the cat is chasing the dog", ["a dog", "the cat chased the dog"])
    >>> r.best.index, r.reason, round(r.score, 2)
    (1, 'the highest chrF2 of the 2 references; sacreBLEU keeps the best one, it does not pool them', 51.19)
    >>> o = r.orders[0]
    >>> o.label, o.matches, o.hyp_total, o.ref_total, round(o.precision, 4), round(o.recall, 4)
    ('char 1-grams', 16, 21, 18, 0.7619, 0.8889)
    """
    settings = _check_options(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
    _check_sentence(hypothesis, references)
    compared = _compared(hypothesis, settings)
    hyp_counts = chrf_ngram_counts(compared, char_order, word_order, whitespace)
    candidates = []
    for i, reference in enumerate(references):
        if reference is None:
            continue
        ref_compared = _compared(reference, settings)
        with collector_paused():  # a long text's rows are thousands of records that the report keeps
            counts = chrf_order_counts(
                hyp_counts, chrf_ngram_counts(ref_compared, char_order, word_order, whitespace), char_order, rows=True
            )
        candidates.append(
            ChrfCandidate(
                index=i,
                reference=reference,
                compared=ref_compared,
                characters=chrf_characters(ref_compared, whitespace) if char_order else "",
                words=chrf_words(ref_compared) if word_order else (),
                result=chrf_from_counts(counts, beta, eps_smoothing),
            )
        )
    chosen = _choose([c.score for c in candidates])
    characters = chrf_characters(compared, whitespace) if char_order else ""
    words = chrf_words(compared) if word_order else ()
    return ChrfReport(
        hypothesis=hypothesis,
        references=tuple(references),
        settings=settings,
        compared=compared,
        characters=characters,
        words=words,
        candidates=tuple(candidates),
        chosen=chosen,
        reason=_reason(candidates, chosen, settings.name),
        notes=tuple(_sentence_notes(settings, characters, words, candidates, chosen)),
    )


def _corpus_notes(settings: ChrfSettings, segments: Sequence[ChrfSegment], result: ChrfResult) -> list[str]:
    notes = [
        "Corpus chrF is computed from the counts summed over the segments (each against the reference "
        "kept for it), not as the mean of the segment scores."
    ]
    left_out = [o for o in result.orders if o.counts.hyp_left_out]
    if left_out:
        notes.append(
            "Some references have no n-grams of an order the hypothesis has, and sacreBLEU counts those "
            "hypothesis n-grams as 0: "
            + ", ".join(f"{o.counts.hyp_left_out} {o.label}" for o in left_out)
            + " are missing from the hypothesis totals."
        )
    if any(s.n_references > 1 for s in segments):
        notes.append(
            "Where a segment has several references, the one with the highest segment chrF is kept "
            "(the first on a tie); n-grams are not pooled over references."
        )
    outside = [o for o in result.orders if not o.in_average]
    if outside and not settings.eps_smoothing:
        notes.append(
            f"{_orders_named(outside)}: no n-grams on one side in the whole corpus, so left out of the "
            f"averages (effective order {result.effective_order} of {len(result.orders)})."
        )
    return notes


def chrf_score(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    char_order: int = CHAR_ORDER,
    word_order: int = WORD_ORDER,
    beta: float = BETA,
    lowercase: bool = False,
    whitespace: bool = False,
    eps_smoothing: bool = False,
    *,
    orientation: str | None = None,
) -> ChrfCorpusScore:
    """Corpus chrF on raw strings, equal to ``sacrebleu.metrics.CHRF(...).corpus_score`` (0-100 scale).

    ``references[i]`` is the list of reference strings for ``hypotheses[i]``
    (``None`` entries skipped); for sacreBLEU's streams (``references[k][i]``
    is reference k of hypothesis i) pass ``orientation="streams"``.  As in
    :func:`bleu_teach.bleu.sacrebleu_api.corpus_score`, a square corpus that reads both
    ways must say which it is.

    Each segment keeps the counts against its best reference (highest
    segment chrF); the counts are summed over the corpus and
    :func:`chrf_from_counts` turns the sums into the score.

    >>> result = chrf_score(["the cat is chasing the dog", "a bird sings"],
    ...                     [["the cat chased the dog"], ["a bird is singing", "the bird sings"]])
    >>> round(result.score, 2), [s.chosen for s in result.segments]
    (57.68, [0, 1])
    """
    settings = _check_options(char_order, word_order, beta, lowercase, whitespace, eps_smoothing)
    segments = []
    with collector_paused():  # checking and counting a corpus make many objects, none in a cycle
        per_hyp = check_inputs(hypotheses, references, orientation)
        for i, (hypothesis, refs) in enumerate(zip(hypotheses, per_hyp)):
            # The lean path: the hypothesis's n-grams counted once (ChrfProfile), each reference's looked up in
            # them, bare counts per reference; the segment against the best is kept (its records and score are
            # made from its counts when read).
            hyp = ChrfProfile(_compared(hypothesis, settings), char_order, word_order, whitespace, checked=True)
            present = sum(reference is not None for reference in refs)
            against = [
                ChrfSegment(
                    i,
                    j,
                    present,
                    tuple(
                        (m, h if r else 0, r, h)  # sacreBLEU: no reference n-grams, no hypothesis n-grams counted
                        for m, h, r in hyp.match(_compared(reference, settings))
                    ),
                    settings,
                )
                for j, reference in enumerate(refs)
                if reference is not None
            ]
            segments.append(against[0] if present == 1 else against[_choose([s.score for s in against])])
        del per_hyp  # gone before the collector runs again, so that it never walks them
    totals = chrf_sums(order_kinds(char_order, word_order), [s.counted for s in segments])
    result = chrf_from_counts(totals, beta, eps_smoothing)
    return ChrfCorpusScore(settings, tuple(segments), totals, result, tuple(_corpus_notes(settings, segments, result)))
