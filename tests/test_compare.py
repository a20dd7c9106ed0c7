"""compare_tools: each number is the tool's own, run directly here."""

from __future__ import annotations

import warnings

from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu
from sacrebleu.metrics import BLEU

from bleu_teach.compare import ToolComparison, compare_tools


def test_each_tool_gives_its_own_number():
    refs = [["the", "cat", "is", "on", "the", "mat"], ["there", "is", "a", "cat", "on", "the", "mat"]]
    hyp = "the cat sat on the mat".split()
    result = compare_tools(refs, hyp, max_n=2)
    assert isinstance(result, ToolComparison)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert result.nltk == nltk_sentence_bleu(refs, hyp, (0.5, 0.5))
    sacre = BLEU(tokenize="none", smooth_method="none", max_ngram_order=2).corpus_score(
        [" ".join(hyp)], [[" ".join(r)] for r in refs]).score
    assert result.sacrebleu == sacre / 100
    assert result.bleu_teach == result.nltk
    text, html = repr(result), result._repr_html_()
    assert "yes (==)" in text and "yes (==)" in html
    assert repr(result.nltk) in text and repr(result.sacrebleu) in html
