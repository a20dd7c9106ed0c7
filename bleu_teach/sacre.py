"""sacreBLEU-compatible corpus BLEU on raw strings.

:func:`corpus_score` tokenizes with sacreBLEU's own tokenizers, counts with
bleu_teach's core, and combines the counts with sacreBLEU's formulas (Post,
2018, "A Call for Clarity in Reporting BLEU Scores", WMT), so that its
numbers equal ``sacrebleu.metrics.BLEU(...).corpus_score`` and it carries
sacreBLEU's signature.

ORIENTATION.  ``references`` here holds one list of reference strings per
hypothesis, like NLTK's ``list_of_references``::

    corpus_score(["hyp 1", "hyp 2"], [["ref 1a", "ref 1b"], ["ref 2a"]])

sacreBLEU's ``corpus_score`` takes the TRANSPOSE: one "reference stream" per
reference set, each holding one string per hypothesis.  Use
:func:`to_sacrebleu_references` to convert.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

from bleu_teach.core import corpus_bleu
from bleu_teach.statistics import closest_length, count_matches
from bleu_teach.render import Table
from bleu_teach.tokenize import SACREBLEU_TOKENIZERS, tokenize

__all__ = ["SACREBLEU_SMOOTHING", "REPORTING_SETTINGS", "SacreScore", "corpus_score", "settings_scores",
           "to_sacrebleu_references"]

#: sacreBLEU's smoothing methods and their default values.
SACREBLEU_SMOOTHING: dict[str, Optional[float]] = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}

MAX_ORDER = 4


@dataclass(frozen=True)
class SacreScore:
    """The fields of sacreBLEU's ``BLEUScore``, plus the unsmoothed counts.

    ``counts`` and ``totals`` are exactly what sacreBLEU reports; note that
    with ``add-k`` smoothing sacreBLEU reports them with k already added for
    n > 1.  ``matches`` and ``ngrams`` are always the raw counts.
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

    def format(self, width: int = 2, signature: bool = False) -> str:
        """sacreBLEU's own one-line summary (``BLEU = 35.00 70.0/...``), made by sacreBLEU."""
        from sacrebleu.metrics.bleu import BLEUScore

        score = BLEUScore(self.score, list(self.counts), list(self.totals), list(self.precisions),
                          self.bp, self.sys_len, self.ref_len)
        return score.format(width=width, signature=self.signature if signature else "")

    def __str__(self) -> str:
        return self.format()


def to_sacrebleu_references(references: Sequence[Sequence[str]]) -> list[list[Optional[str]]]:
    """Transpose per-hypothesis reference lists into sacreBLEU's streams.

    Hypotheses with fewer references get ``None`` (sacreBLEU skips it).

    >>> to_sacrebleu_references([["a", "b"], ["c"]])
    [['a', 'c'], ['b', None]]
    """
    width = max((len(r) for r in references), default=0)
    return [[refs[k] if k < len(refs) else None for refs in references] for k in range(width)]


def check_inputs(hypotheses: Any, references: Any) -> None:
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise TypeError("hypotheses must be a list of strings, one per segment.")
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError("references must be a list with one list of reference strings per hypothesis.")
    for i, h in enumerate(hypotheses):
        if not isinstance(h, str):
            raise TypeError(f"hypotheses[{i}] must be a string (raw text), not {type(h).__name__}.")
    if not hypotheses:
        raise ValueError("hypotheses is empty; give at least one segment.")
    if len(references) != len(hypotheses):
        hint = ""
        if references and all(isinstance(r, Sequence) and not isinstance(r, str) and len(r) == len(hypotheses) for r in references):
            hint = (
                " It looks like sacreBLEU's orientation (one stream per reference set); "
                "bleu_teach wants one list of references per hypothesis: transpose it, "
                "e.g. [list(refs) for refs in zip(*streams)]."
            )
        raise ValueError(
            f"There are {len(hypotheses)} hypotheses but {len(references)} reference lists; "
            f"give one list of reference strings per hypothesis.{hint}"
        )
    for i, refs in enumerate(references):
        if isinstance(refs, str):
            raise TypeError(
                f"references[{i}] is a string; wrap it in a list: [[ref] for ref in refs] "
                f"gives one reference per hypothesis."
            )
        if not isinstance(refs, Sequence):
            raise TypeError(f"references[{i}] must be a list of reference strings.")
        if not [r for r in refs if r is not None]:
            raise ValueError(f"references[{i}] has no reference; every hypothesis needs at least one.")
        for j, r in enumerate(refs):
            if r is not None and not isinstance(r, str):
                raise TypeError(f"references[{i}][{j}] must be a string (raw text), not {type(r).__name__}.")


def _signature(tokenize_name: str, lowercase: bool, smooth_method: str, smooth_value: Optional[float], num_refs: int) -> str:
    from sacrebleu.metrics import BLEU

    metric = BLEU(tokenize=tokenize_name, lowercase=lowercase, smooth_method=smooth_method, smooth_value=smooth_value)
    metric.num_refs = num_refs
    return str(metric.get_signature())


def corpus_score(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
    smooth_value: Optional[float] = None,
) -> SacreScore:
    """Corpus BLEU on raw strings, equal to sacreBLEU's (score on a 0-100 scale).

    ``references[i]`` is the list of reference strings for ``hypotheses[i]``;
    sacreBLEU's own argument is the transpose (see the module docstring).

    Smoothing (Chen and Cherry 2014, as sacreBLEU names them): ``exp`` (the
    NIST geometric sequence, default), ``none``, ``floor`` (zero matches count
    as ``smooth_value``, default 0.1) and ``add-k`` (add ``smooth_value``,
    default 1, to matches and totals for n > 1).

    >>> round(corpus_score(["The cat sat on the mat."], [["The cat sat on the red mat."]]).score, 2)
    61.3
    """
    if tokenize not in SACREBLEU_TOKENIZERS:
        raise ValueError(f"Unknown tokenize {tokenize!r}; choose one of {', '.join(SACREBLEU_TOKENIZERS)}.")
    if smooth_method not in SACREBLEU_SMOOTHING:
        raise ValueError(f"Unknown smooth_method {smooth_method!r}; choose one of {', '.join(SACREBLEU_SMOOTHING)}.")
    if not isinstance(lowercase, bool):
        raise TypeError("lowercase must be True or False.")
    check_inputs(hypotheses, references)

    matches = [0] * MAX_ORDER
    ngrams = [0] * MAX_ORDER
    sys_len = ref_len = 0
    ref_counts_seen = set()
    for hyp_text, refs_text in zip(hypotheses, references):
        present = [r for r in refs_text if r is not None]
        ref_counts_seen.add(len(present))
        hyp = tuple(_tok(hyp_text, tokenize, lowercase))
        refs = tuple(tuple(_tok(r, tokenize, lowercase)) for r in present)
        sys_len += len(hyp)
        ref_len += closest_length((len(r) for r in refs), len(hyp))
        # The core's clipping (max over references), the same code as corpus_bleu.
        for n, matched in enumerate(count_matches(refs, hyp, MAX_ORDER), start=1):
            matches[n - 1] += matched
            ngrams[n - 1] += max(0, len(hyp) - n + 1)

    num_refs = ref_counts_seen.pop() if len(ref_counts_seen) == 1 else -1
    score, counts_out, totals_out, precisions, bp = _compute(matches, ngrams, sys_len, ref_len, smooth_method, smooth_value)
    return SacreScore(
        score=score,
        counts=tuple(counts_out),
        totals=tuple(totals_out),
        precisions=tuple(precisions),
        bp=bp,
        sys_len=sys_len,
        ref_len=ref_len,
        matches=tuple(matches),
        ngrams=tuple(ngrams),
        signature=_signature(tokenize, lowercase, smooth_method, smooth_value, num_refs),
    )


def _tok(text: str, tokenizer: str, lowercase: bool) -> list[str]:
    return tokenize(text, tokenizer, lowercase=lowercase)


def _log_floor(x: float) -> float:
    # sacreBLEU floors log(0) to -9999999999 so that the score becomes 0.
    return -9999999999 if x == 0.0 else math.log(x)


def _compute(
    matches: list[int], ngrams: list[int], sys_len: int, ref_len: int, method: str, value: Optional[float]
) -> tuple[float, list[float], list[float], list[float], float]:
    """sacreBLEU's arithmetic: percentages, smoothing, BP, geometric mean."""
    if value is None:
        value = SACREBLEU_SMOOTHING[method]
    counts: list[float] = list(matches)
    totals: list[float] = list(ngrams)
    bp = 1.0
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    precisions = [0.0] * MAX_ORDER
    if not any(counts):
        return 0.0, counts, totals, precisions, bp
    halving = 1.0
    for n in range(1, MAX_ORDER + 1):
        if method == "add-k" and n > 1:
            counts[n - 1] += value  # type: ignore[operator]
            totals[n - 1] += value  # type: ignore[operator]
        if totals[n - 1] == 0:
            break
        if counts[n - 1] == 0:
            if method == "exp":
                halving *= 2
                precisions[n - 1] = 100.0 / (halving * totals[n - 1])
            elif method == "floor":
                precisions[n - 1] = 100.0 * value / totals[n - 1]  # type: ignore[operator]
        else:
            precisions[n - 1] = 100.0 * counts[n - 1] / totals[n - 1]
    score = bp * math.exp(sum([_log_floor(p) for p in precisions]) / MAX_ORDER)
    return score, counts, totals, precisions, bp


#: Settings that change a corpus BLEU score without changing a single output.
REPORTING_SETTINGS: dict[str, dict[str, Any]] = {
    "sacreBLEU default (13a, case-sensitive)": {"tokenize": "13a"},
    "sacreBLEU, lowercased": {"tokenize": "13a", "lowercase": True},
    "sacreBLEU intl tokenizer": {"tokenize": "intl"},
    "sacreBLEU no tokenization (none)": {"tokenize": "none"},
    "sacreBLEU character tokens (char)": {"tokenize": "char"},
}


def settings_scores(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    settings: "dict[str, dict[str, Any]] | None" = None,
    with_whitespace_corpus_bleu: bool = True,
) -> Table:
    """The same outputs scored under several settings, each row with its signature.

    The last row (optional) is NLTK-style ``corpus_bleu`` on whitespace tokens,
    a common home-made setup, scaled to 0-100; it has no signature at all.
    """
    rows = []
    for label, options in (REPORTING_SETTINGS if settings is None else settings).items():
        result = corpus_score(hypotheses, references, **options)
        rows.append([label, f"{result.score:.2f}", result.signature])
    if with_whitespace_corpus_bleu:
        hyps = [h.split() for h in hypotheses]
        refs = [[r.split() for r in group if r is not None] for group in references]
        rows.append(["corpus_bleu on whitespace tokens x 100", f"{100 * corpus_bleu(refs, hyps):.2f}",
                     "(none: nobody can tell how it was tokenized)"])
    return Table(["setting", "BLEU", "signature"], rows)
