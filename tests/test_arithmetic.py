"""bleu_teach.bleu.arithmetic: sacreBLEU's way of turning counts into a score, against sacreBLEU's own.

The oracle is sacreBLEU's public ``BLEU.compute_bleu`` on the same counts.
NLTK's way (``score_counts``) is checked against NLTK through every public
function that uses it (tests/test_parity_nltk.py).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU

from bleu_teach.bleu.arithmetic import SACREBLEU_SMOOTHING, sacrebleu_score_counts
from tests.conftest import examples


@st.composite
def counts(draw: st.DrawFn) -> tuple[list[int], list[int], int, int, int]:
    max_order = draw(st.integers(min_value=1, max_value=6))
    sys_len = draw(st.integers(min_value=0, max_value=40))
    ngrams = [max(0, sys_len - n + 1) for n in range(1, max_order + 1)]
    matches = [draw(st.integers(min_value=0, max_value=t)) for t in ngrams]
    ref_len = draw(st.integers(min_value=1, max_value=40))
    return matches, ngrams, sys_len, ref_len, max_order


@settings(max_examples=examples(1500), deadline=None)
@given(
    case=counts(),
    method=st.sampled_from(sorted(SACREBLEU_SMOOTHING)),
    value=st.sampled_from([None, 0.01, 0.5, 1, 2]),
    effective_order=st.booleans(),
)
def test_sacrebleu_score_counts_equals_compute_bleu(case, method, value, effective_order, parity_counter):
    matches, ngrams, sys_len, ref_len, max_order = case
    if method in ("none", "exp"):
        value = None
    ours = sacrebleu_score_counts(matches, ngrams, sys_len, ref_len, method, value, max_order, effective_order)
    theirs = BLEU.compute_bleu(
        correct=list(matches),
        total=list(ngrams),
        sys_len=sys_len,
        ref_len=ref_len,
        smooth_method=method,
        smooth_value=value,
        effective_order=effective_order,
        max_ngram_order=max_order,
    )
    assert ours.score == pytest.approx(theirs.score, abs=1e-9, rel=0)
    assert list(ours.precisions) == pytest.approx(theirs.precisions, abs=1e-9, rel=0)
    assert list(ours.counts) == theirs.counts and list(ours.totals) == theirs.totals
    assert ours.bp == pytest.approx(theirs.bp, abs=1e-12, rel=0)
    parity_counter["sacrebleu_score_counts"] += 1
