"""sacreBLEU-compatible BLEU on raw strings: a corpus score and a sentence score.

:func:`corpus_score` and :func:`sentence_score` tokenize with sacreBLEU's own
tokenizers, count with :mod:`bleu_teach.bleu.counting` (the package's one
counting path: clipped matches with the maximum over references, the
closest reference length), and combine the counts with sacreBLEU's
arithmetic (:func:`bleu_teach.bleu.arithmetic.sacrebleu_score_counts`, which follows
``BLEU.compute_bleu``; Post,
2018, "A Call for Clarity in Reporting BLEU Scores", WMT).  Their numbers
equal ``sacrebleu.metrics.BLEU(...).corpus_score`` and
``sacrebleu.sentence_bleu``, and they carry sacreBLEU's signature.

The references of a corpus are laid out as :mod:`bleu_teach.inputs.corpus_layout` says
(``orientation=``); :func:`check_inputs` there reads them.

SACREBLEU QUIRKS, followed on purpose so that the numbers are equal:

* ``log 0`` is floored to -9999999999, so a zero precision makes the score 0.
* With ``add-k`` smoothing the reported counts and totals of orders 2 and up
  already include k (``matches`` and ``ngrams`` keep the raw counts).
* Effective order stops at the first order with NO n-grams (total 0) and
  averages over the orders before it.  sacreBLEU's docstring says "orders for
  which precision is 0", but an order with n-grams and no match still counts.
* ``sentence_bleu`` turns effective order ON by default; ``BLEU()`` (and so
  :func:`corpus_score`) leaves it off.
* The signature records effective order but not ``max_ngram_order``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from bleu_teach.bleu.arithmetic import SACREBLEU_SMOOTHING, sacrebleu_score_counts
from bleu_teach.bleu.counting import closest_ref_length, collector_paused, count_matches, pooled_counts
from bleu_teach.inputs.corpus_layout import check_inputs
from bleu_teach.inputs.optional import needs
from bleu_teach.inputs.tokenizers import SACREBLEU_TOKENIZERS, sacrebleu_tokens, tokenize
from bleu_teach.inputs.validation import check_orders
from bleu_teach.views.document import Code, Document, Heading, Paragraph, Score
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.document import notes as document_notes
from bleu_teach.views.formatting import format_number
from bleu_teach.views.viewable import Viewable

__all__ = ["SACREBLEU_SMOOTHING", "SacreScore", "corpus_score", "segment_statistics", "sentence_score"]


MAX_ORDER = 4


def _count(value: float) -> str:
    """A count as sacreBLEU reports it: whole numbers without decimals (add-k may add a fraction)."""
    number = float(value)
    return str(int(number)) if number.is_integer() else f"{number:g}"


_ORDERS_HEADER = ("n", "counts", "totals", "precisions (%)", "matches", "ngrams", "in the mean")


@dataclass(frozen=True, repr=False)
class SacreScore(Viewable):
    """The fields of sacreBLEU's ``BLEUScore``, plus the unsmoothed counts.

    ``counts`` and ``totals`` are exactly what sacreBLEU reports; note that
    with ``add-k`` smoothing sacreBLEU reports them with k already added for
    n > 1.  ``matches`` and ``ngrams`` are always the raw counts.
    ``orders_used`` is the number of precisions the geometric mean averaged
    (``max_ngram_order``, or fewer with effective order); 0 when there is no
    unigram match and the score is 0 without any average.

    ``str(score)`` (and :meth:`format`) is sacreBLEU's own one-line summary;
    ``repr`` and the other views (:meth:`to_html`, :meth:`to_markdown`,
    :meth:`to_latex`) show the score, a table of the orders, BP, the lengths
    and the signature.
    """

    score: float
    counts: tuple[float, ...]
    totals: tuple[float, ...]
    precisions: tuple[float, ...]
    bp: float
    sys_len: int
    ref_len: int
    matches: tuple[int, ...]
    ngrams: tuple[int, ...]
    signature: str
    orders_used: int

    def format(self, width: int = 2, signature: bool = False) -> str:
        """sacreBLEU's own one-line summary (``BLEU = 35.00 70.0/...``), made by sacreBLEU."""
        needs("sacrebleu", "sacreBLEU's own summary line")
        from sacrebleu.metrics.bleu import BLEUScore

        counts: list[Any] = list(self.counts)  # sacreBLEU annotates List[int]; add-k makes floats
        totals: list[Any] = list(self.totals)
        score = BLEUScore(self.score, counts, totals, list(self.precisions), self.bp, self.sys_len, self.ref_len)
        return score.format(width=width, signature=self.signature if signature else "")

    def __str__(self) -> str:
        return self.format()

    def to_document(self) -> Document:
        """The score, each order's counts as sacreBLEU reports them and as counted, BP and lengths, the signature."""
        rows = tuple(
            (
                str(n),
                _count(self.counts[n - 1]),
                _count(self.totals[n - 1]),
                format_number(self.precisions[n - 1]),
                str(self.matches[n - 1]),
                str(self.ngrams[n - 1]),
                "yes" if n <= self.orders_used else "no",
            )
            for n in range(1, len(self.precisions) + 1)
        )
        notes = []
        zero = [n for n in range(1, self.orders_used + 1) if self.precisions[n - 1] == 0]
        if self.orders_used == 0:
            notes.append("no unigram matches: the score is 0, no precision is averaged")
        elif self.orders_used < len(self.precisions):
            notes.append(
                f"effective order: the geometric mean averages the first {self.orders_used} orders "
                f"(the next order has no n-grams)"
            )
        if zero:
            notes.append(
                f"{', '.join(f'p_{n}' for n in zero)} = 0: sacreBLEU floors log 0 to -9999999999, so the score is 0"
            )
        if self.counts != tuple(self.matches) or self.totals != tuple(self.ngrams):
            notes.append(
                "add-k smoothing: sacreBLEU reports counts and totals of orders 2 and up with k added; "
                "matches and ngrams are the raw counts"
            )
        return Document(
            (
                Heading("BLEU, as sacreBLEU computes it"),
                Score((f"BLEU = {self.score:.2f}",), self.score),
                Paragraph((f"(0-100 scale; exact value {self.score!r})",)),
                TableBlock(_ORDERS_HEADER, rows),
                Paragraph((f"BP = {format_number(self.bp)} (sys_len = {self.sys_len}, ref_len = {self.ref_len})",)),
                Paragraph(("signature: ", Code(self.signature))),
                *document_notes(notes),
            )
        )


def _check_options(
    tokenize_name: Any,
    lowercase: Any,
    smooth_method: Any,
    smooth_value: Any,
    max_ngram_order: Any,
    effective_order: Any,
    effective_name: str,
) -> None:
    if not isinstance(tokenize_name, str) or tokenize_name not in SACREBLEU_TOKENIZERS:
        raise ValueError(f"Unknown tokenize {tokenize_name!r}; choose one of {', '.join(SACREBLEU_TOKENIZERS)}.")
    if not isinstance(smooth_method, str) or smooth_method not in SACREBLEU_SMOOTHING:
        raise ValueError(f"Unknown smooth_method {smooth_method!r}; choose one of {', '.join(SACREBLEU_SMOOTHING)}.")
    if not isinstance(lowercase, bool):
        raise TypeError("lowercase must be True or False.")
    if smooth_value is not None:
        if isinstance(smooth_value, bool) or not isinstance(smooth_value, (int, float)):
            raise TypeError(f"smooth_value must be a number or None (the method's default), not {smooth_value!r}.")
        if smooth_value > 1e300 or not math.isfinite(smooth_value) or smooth_value < 0:
            raise ValueError(f"smooth_value must be a finite number >= 0, not {smooth_value!r}.")
    check_orders(max_ngram_order, "max_ngram_order", "4 is BLEU's usual value")
    if not isinstance(effective_order, bool):
        raise TypeError(f"{effective_name} must be True or False, not {effective_order!r}.")


# ---------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------


@lru_cache(maxsize=256)
def _signature(
    tokenize_name: str,
    lowercase: bool,
    smooth_method: str,
    smooth_value: float | None,
    num_refs: int,
    effective_order: bool,
    max_ngram_order: int,
) -> str:
    """sacreBLEU's signature for these settings, made by sacreBLEU itself."""
    needs("sacrebleu", "sacreBLEU's signature")
    from sacrebleu.metrics import BLEU

    metric = BLEU(
        tokenize=tokenize_name,
        lowercase=lowercase,
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        effective_order=effective_order,
        max_ngram_order=max_ngram_order,
    )
    metric.num_refs = num_refs
    return str(metric.get_signature())


def segment_statistics(
    hypothesis: str,
    references: Sequence[str | None],
    tokenize_name: str = "13a",
    lowercase: bool = False,
    max_order: int = MAX_ORDER,
) -> tuple[int, ...]:
    """One segment's sufficient statistics in sacreBLEU's layout: ``(c, r, m_1..m_N, t_1..t_N)``.

    ``c`` is the hypothesis length, ``r`` the closest reference length,
    ``m_n`` the clipped matches and ``t_n`` the hypothesis n-grams of order n
    (``None`` references skipped). They add up over a test set: corpus BLEU
    is :func:`~bleu_teach.bleu.arithmetic.sacrebleu_score_counts` of the
    column sums, and a sentence's BLEU is the same of its own row.

    >>> segment_statistics("the cat sat on the mat", ["the cat sat on a mat"])
    (6, 6, 5, 3, 2, 1, 6, 5, 4, 3)
    """
    max_order = check_orders(max_order, "max_order")
    for text in (hypothesis, *references):
        if text is not None:
            tokenize(text, tokenize_name, lowercase)  # says what is wrong with a text, the tokenizer or lowercase
    return _statistics(_tokenizer(tokenize_name, lowercase), hypothesis, references, max_order)


def _tokenizer(tokenize_name: str, lowercase: bool) -> Callable[[str], tuple[str, ...]]:
    """sacreBLEU's steps for one text: lowercase if asked, strip the end, tokenize, split on spaces.

    The same tokens as :func:`~bleu_teach.inputs.tokenizers.tokenize`; a text tokenized before is looked up
    (:func:`~bleu_teach.inputs.tokenizers.sacrebleu_tokens`).
    """
    if tokenize_name not in SACREBLEU_TOKENIZERS:  # another name tokenize() takes ("13A", "whitespace")
        return lambda text: tuple(tokenize(text, tokenize_name, lowercase))
    return sacrebleu_tokens(tokenize_name, lowercase)


def _statistics(
    tok: Callable[[str], tuple[str, ...]], hypothesis: str, references: Sequence[str | None], max_order: int
) -> tuple[int, ...]:
    # segment_statistics once the options are checked.
    hyp = tok(hypothesis)
    refs = [tok(r) for r in references if r is not None]
    length = len(hyp)
    ref_len = len(refs[0]) if len(refs) == 1 else closest_ref_length([len(r) for r in refs], length)
    ngrams = [length - n if length > n else 0 for n in range(max_order)]
    return (length, ref_len, *count_matches(refs, hyp, max_order), *ngrams)


def _score(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    tokenize_name: str,
    lowercase: bool,
    smooth_method: str,
    smooth_value: float | None,
    max_order: int,
    effective_order: bool,
) -> SacreScore:
    """Count every segment (:func:`segment_statistics`), pool the counts, then sacreBLEU's arithmetic."""
    tok = _tokenizer(tokenize_name, lowercase)
    # The lean path of every corpus BLEU here (counting.pooled_counts): the same sums as adding up each segment's
    # segment_statistics row, without making the rows.
    tokenized = [[tok(r) for r in refs if r is not None] for refs in references]
    counted = pooled_counts(tokenized, list(map(tok, hypotheses)), max_order)
    matches, ngrams, sys_len, ref_len = list(counted.matches), list(counted.ngrams), counted.hyp_len, counted.ref_len
    ref_counts_seen = set(map(len, tokenized))

    # sacreBLEU's signature says nrefs:var when segments have different numbers of references.
    num_refs = ref_counts_seen.pop() if len(ref_counts_seen) == 1 else -1
    done = sacrebleu_score_counts(
        matches, ngrams, sys_len, ref_len, smooth_method, smooth_value, max_order, effective_order
    )
    return SacreScore(
        score=done.score,
        counts=done.counts,
        totals=done.totals,
        precisions=done.precisions,
        bp=done.bp,
        sys_len=sys_len,
        ref_len=ref_len,
        matches=tuple(matches),
        ngrams=tuple(ngrams),
        signature=_signature(
            tokenize_name, lowercase, smooth_method, smooth_value, num_refs, effective_order, max_order
        ),
        orders_used=done.orders_used,
    )


def corpus_score(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    *,
    max_ngram_order: int = MAX_ORDER,
    effective_order: bool = False,
    orientation: str | None = None,
) -> SacreScore:
    """Corpus BLEU on raw strings, equal to sacreBLEU's (score on a 0-100 scale).

    ``references[i]`` is the list of reference strings for ``hypotheses[i]``;
    for sacreBLEU's streams pass ``orientation="streams"`` (see the module
    docstring: a square corpus must say which it is).

    BLEU = BP * exp((1/N) sum_{n=1..N} log p_n) with N = ``max_ngram_order``,
    the counts pooled over the corpus before dividing (Papineni et al. 2002,
    2.2.2).  With ``effective_order=True``, N becomes the number of orders
    before the first order with no n-grams at all (sacreBLEU's rule).

    Smoothing (Chen and Cherry 2014, as sacreBLEU names them): ``exp`` (the
    NIST geometric sequence, default), ``none``, ``floor`` (zero matches count
    as ``smooth_value``, default 0.1) and ``add-k`` (add ``smooth_value``,
    default 1, to matches and totals for n > 1).

    >>> round(corpus_score(["The cat sat on the mat."], [["The cat sat on the red mat."]]).score, 2)
    61.3
    >>> round(corpus_score(["The cat sat.", "A dog ran."],
    ...                    [["The cat sat.", "A dog ran!"]], orientation="streams").score, 2)
    72.31
    """
    _check_options(
        tokenize, lowercase, smooth_method, smooth_value, max_ngram_order, effective_order, "effective_order"
    )
    with collector_paused():  # checking, tokenizing and counting a corpus make many objects, none in a cycle
        # (the checked lists are held by _score's call alone: gone before the collector runs again)
        return _score(
            hypotheses,
            check_inputs(hypotheses, references, orientation),
            tokenize,
            lowercase,
            smooth_method,
            smooth_value,
            max_ngram_order,
            effective_order,
        )


def sentence_score(
    hypothesis: str,
    references: Sequence[str | None],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    tokenize: str = "13a",
    use_effective_order: bool = True,
    max_ngram_order: int = MAX_ORDER,
) -> SacreScore:
    """Sentence BLEU on raw strings, equal to ``sacrebleu.sentence_bleu`` (0-100 scale).

    The arguments are ``sentence_bleu``'s, in its order, with its defaults;
    ``max_ngram_order`` is ``BLEU(max_ngram_order=...)``.  ``references`` is a
    list of reference strings for this one hypothesis (``None`` entries are
    skipped, as sacreBLEU does).

    Quirk kept from sacreBLEU: ``sentence_bleu`` turns effective order ON by
    default (``use_effective_order=True``), while ``BLEU()`` leaves it off, so
    a short sentence is averaged over the orders it has.  (sacreBLEU also logs
    a recommendation when it is off; we do not.)

    >>> s = sentence_score("The cat", ["The cat sat on the mat."])
    >>> s.totals, s.orders_used, round(s.score, 2)
    ((2, 1, 0, 0), 2, 8.21)
    >>> sentence_score("The cat", ["The cat sat on the mat."], use_effective_order=False).score
    0.0
    """
    if not isinstance(hypothesis, str):
        raise TypeError(
            f"hypothesis must be one string (raw text), not {type(hypothesis).__name__}; "
            f"for a list of hypotheses use corpus_score."
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
    _check_options(
        tokenize, lowercase, smooth_method, smooth_value, max_ngram_order, use_effective_order, "use_effective_order"
    )
    return _score(
        [hypothesis],
        [list(references)],
        tokenize,
        lowercase,
        smooth_method,
        smooth_value,
        max_ngram_order,
        use_effective_order,
    )
