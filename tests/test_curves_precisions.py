"""curves.corpus_precisions: each sentence's p_n and the pooled corpus p_n, with NLTK as the oracle."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu

from bleu_teach.lessons.curves import corpus_precisions
from tests.conftest import examples
from tests.strategies import references, tokens

corpora = st.lists(st.tuples(references, tokens), min_size=1, max_size=5)


def nltk_counts(refs: list, hyp: list, n: int) -> tuple[int, int]:
    """NLTK's clipped count and denominator, unreduced, as its corpus_bleu adds them up."""
    p = nltk_bleu.modified_precision(refs, hyp, n)
    return p.numerator, p.denominator


@settings(max_examples=examples(500), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus=corpora, max_n=st.integers(min_value=1, max_value=5))
def test_sentence_and_pooled_counts_are_nltks(corpus: list, max_n: int, parity_counter: Counter[str]) -> None:
    refs_list = [refs for refs, _ in corpus]
    hyps = [hyp for _, hyp in corpus]
    rows = corpus_precisions(refs_list, hyps, max_n=max_n)
    assert [row.label for row in rows] == [f"sentence {i}" for i in range(1, len(hyps) + 1)] + ["corpus"]
    for row, refs, hyp in zip(rows, refs_list, hyps):
        assert [(p.numerator, p.denominator) for p in row.precisions] == [
            nltk_counts(refs, hyp, n) for n in range(1, max_n + 1)
        ]
    pooled = [
        tuple(map(sum, zip(*(nltk_counts(refs, hyp, n) for refs, hyp in zip(refs_list, hyps)))))
        for n in range(1, max_n + 1)
    ]
    assert [(p.numerator, p.denominator) for p in rows[-1].precisions] == pooled
    parity_counter["corpus_precisions"] += 1


def test_the_corpus_row_pools_counts_and_is_not_the_mean() -> None:
    # Worked by hand: "the cat" matches 2 of 2 unigrams, "a dog slept in the sun all day" 3 of 8 ("in the" is not
    # in "a dog slept"); the corpus has 5 matches in 10 unigrams, 1/2, while the mean of 1 and 3/8 is 11/16.
    rows = corpus_precisions(
        [[["the", "cat", "is", "on", "the", "mat"]], [["a", "dog", "slept"]]],
        [["the", "cat"], ["a", "dog", "slept", "in", "the", "sun", "all", "day"]],
        max_n=1,
    )
    assert [str(row.precisions[0]) for row in rows] == ["2/2", "3/8", "5/10"]


def test_bad_input_says_what_to_do() -> None:
    with pytest.raises(ValueError):
        corpus_precisions([[["a"]]], [["a"], ["b"]])
    with pytest.raises(ValueError, match="max_n"):
        corpus_precisions([[["a"]]], [["a"]], max_n=0)
    with pytest.raises(TypeError):
        corpus_precisions([["a cat"]], ["a cat"])
