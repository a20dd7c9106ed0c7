"""bleu_teach, NLTK and sacreBLEU side by side on the same tokens.

Used by the lessons to show that the three agree.  NLTK and sacreBLEU are
imported here only, when a comparison is asked for.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import cast

from bleu_teach.checks import check_references, check_tokens
from bleu_teach.core import sentence_bleu
from bleu_teach.render import tool_comparison_html, tool_comparison_text

__all__ = ["ToolComparison", "compare_tools"]


@dataclass(frozen=True, repr=False)
class ToolComparison:
    """The same sentence BLEU from bleu_teach, NLTK and sacreBLEU (sacreBLEU's divided by 100)."""

    bleu_teach: float
    nltk: float
    sacrebleu: float

    def __repr__(self) -> str:
        return tool_comparison_text(self)

    def _repr_html_(self) -> str:
        return tool_comparison_html(self)


def compare_tools(references: Sequence[Sequence[Hashable]], hypothesis: Sequence[Hashable], max_n: int = 4) -> ToolComparison:
    """Sentence BLEU-``max_n`` (uniform weights, no smoothing) from the three tools.

    sacreBLEU scores strings on a 0-100 scale, so it gets the tokens joined by
    spaces with its ``none`` tokenizer, and its score is divided by 100.
    """
    from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu
    from sacrebleu.metrics import BLEU

    refs = check_references(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    weights = (1 / max_n,) * max_n
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NLTK warns about zero precisions; the table shows the numbers
        ours = sentence_bleu(refs, hyp, weights)
        theirs = nltk_sentence_bleu([list(r) for r in refs], list(hyp), weights)
    metric = BLEU(tokenize="none", smooth_method="none", max_ngram_order=max_n)
    streams = [[" ".join(map(str, r))] for r in refs]
    sacre = metric.corpus_score([" ".join(map(str, hyp))], streams).score / 100
    return ToolComparison(float(cast(float, ours)), float(theirs), float(sacre))
