"""lesson 05's tables, with NLTK as the oracle for every score."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothing
from nltk.translate.bleu_score import brevity_penalty as nltk_brevity_penalty
from nltk.translate.bleu_score import closest_ref_length as nltk_closest_ref_length
from nltk.translate.bleu_score import modified_precision as nltk_modified_precision
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from bleu_teach.lessons.limitations import (
    ChunkPermutation,
    bigram_mismatch_chunks,
    chunk_permutation,
    new_junction_matches,
    order_table,
    permute_chunks,
)
from bleu_teach.views.document import Table as TableBlock
from tests.conftest import examples
from tests.view_checks import check_every_view


def test_order_table_with_one_order_shows_one_score():
    # NLTK returns one number, not a list, for a list holding one weight tuple; the table copes.
    table = order_table({"reversed": "d c b a", "same": "a b c d"}, ["a b c d"], max_order=1)
    assert table.rows == [["reversed", "1.0000"], ["same", "1.0000"]]


def test_order_table_scores_are_nltks():
    table = order_table({"h": "the cat sat on a mat"}, ["the cat sat on the mat"], max_order=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = [
            nltk_sentence_bleu(
                [["the", "cat", "sat", "on", "the", "mat"]], "the cat sat on a mat".split(), (1 / k,) * k
            )
            for k in (1, 2, 3)
        ]
    assert table.rows[0][1:] == [f"{s:.4f}" for s in expected]


# --- permuting a hypothesis at its bigram mismatches (Callison-Burch, Osborne and Koehn 2006) ---


SMALL = st.sampled_from(["a", "b", "c", "d", "e", "the", 7])
line = st.lists(SMALL, min_size=1, max_size=12)


def _nltk_bp(refs, hyp):
    return nltk_brevity_penalty(nltk_closest_ref_length(refs, len(hyp)), len(hyp))


def _nltk_bleu(refs, hyp, k, smoothing):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NLTK's zero-precision warning, around the oracle call only
        return nltk_sentence_bleu(refs, hyp, (1 / k,) * k, smoothing_function=smoothing)


@st.composite
def permuted_case(draw):
    refs = draw(st.lists(line, min_size=1, max_size=3))
    hyp = draw(line)
    chunks = bigram_mismatch_chunks(refs, hyp)
    order = draw(st.permutations(range(1, len(chunks) + 1)))
    return refs, hyp, chunks, order


@settings(max_examples=examples(400), deadline=None)
@given(permuted_case())
def test_permuting_at_bigram_mismatches_keeps_what_it_should(parity_counter, case):
    refs, hyp, chunks, order = case
    # The chunks are the hypothesis, cut exactly where a bigram occurs in no reference.
    assert [t for chunk in chunks for t in chunk] == hyp
    ref_bigrams = {tuple(r[i : i + 2]) for r in refs for i in range(len(r) - 1)}
    for chunk in chunks:
        assert all(tuple(chunk[i : i + 2]) in ref_bigrams for i in range(len(chunk) - 1))
    for left, right in zip(chunks, chunks[1:]):
        assert (left[-1], right[0]) not in ref_bigrams
    permuted = permute_chunks(chunks, order)
    assert sorted(map(str, permuted)) == sorted(map(str, hyp))
    # Always: the length (so BP and every order's n-gram total) and the unigram counts (NLTK as oracle).
    assert _nltk_bp(refs, permuted) == _nltk_bp(refs, hyp)
    assert nltk_modified_precision(refs, permuted, 1) == nltk_modified_precision(refs, hyp, 1)
    new = new_junction_matches(refs, chunks, order)
    junctions = [(chunks[i - 1][-1], chunks[j - 1][0]) for i, j in zip(order, order[1:])]
    assert new == [b for b in junctions if b in ref_bigrams]
    for n in range(2, 6):
        before = nltk_modified_precision(refs, hyp, n)
        after = nltk_modified_precision(refs, permuted, n)
        # NLTK returns Fraction(..., _normalize=False): numerator and denominator are the raw counts.
        assert after.denominator == before.denominator
        if new:
            assert after.numerator >= before.numerator  # a new junction can only add matches
        else:
            assert after.numerator == before.numerator
        parity_counter["chunk_permutation_counts"] += 1
    if not new:
        for smoothing in (NltkSmoothing().method0, NltkSmoothing().method1):
            for k in range(1, 5):
                assert _nltk_bleu(refs, permuted, k, smoothing) == _nltk_bleu(refs, hyp, k, smoothing)
                parity_counter["chunk_permutation_bleu"] += 1


@settings(max_examples=examples(100), deadline=None)
@given(permuted_case())
def test_chunk_permutation_scores_are_nltks(parity_counter, case):
    refs, hyp, chunks, order = case
    texts = [" ".join(map(str, r)) for r in refs]
    result = chunk_permutation(" ".join(map(str, hyp)), texts, order=list(order))
    refs_s = [[str(t) for t in r] for r in refs]
    hyp_s = [str(t) for t in hyp]
    permuted = permute_chunks(bigram_mismatch_chunks(refs_s, hyp_s), list(order))
    assert list(result.permuted) == permuted
    expected_a = tuple(_nltk_bleu(refs_s, hyp_s, k, NltkSmoothing().method0) for k in range(1, 5))
    expected_b = tuple(_nltk_bleu(refs_s, permuted, k, NltkSmoothing().method0) for k in range(1, 5))
    assert result.original_scores == expected_a and result.permuted_scores == expected_b
    assert result.same_scores == (expected_a == expected_b)
    parity_counter["chunk_permutation_report"] += 1


LESSON_REF = ["the new mayor promised to build a school near the river"]
LESSON_HYP = "the new mayor has promised to build a school close to the river"


def test_lesson_example_keeps_every_score_and_loses_the_meaning():
    result = chunk_permutation(LESSON_HYP, LESSON_REF, order=[6, 2, 3, 4, 5, 1])
    assert [" ".join(c) for c in result.chunks] == [
        "the new mayor",
        "has",
        "promised to build a school",
        "close",
        "to",
        "the river",
    ]
    assert " ".join(result.permuted) == "the river has promised to build a school close to the new mayor"
    assert result.new_matches == () and result.same_scores
    assert [(o.clipped, o.total) for o in result.permuted_report.orders] == [(10, 13), (7, 12), (4, 11), (2, 10)]
    assert "are the same" in repr(result) and "are the same" in result._repr_html_()


def test_a_new_junction_that_matches_raises_the_counts():
    # "mayor" + "promised" is a bigram of the reference: the permuted hypothesis gains matches.
    result = chunk_permutation(LESSON_HYP, LESSON_REF, order=[1, 3, 4, 5, 6, 2])
    assert result.new_matches == (("mayor", "promised"),)
    before = [o.clipped for o in result.original.orders]
    after = [o.clipped for o in result.permuted_report.orders]
    assert after[0] == before[0] and all(a > b for a, b in zip(after[1:], before[1:]))
    assert result.permuted_scores[1:] > result.original_scores[1:]
    assert "can rise" in repr(result)


def test_chunk_helpers_reject_bad_orders_and_escape_html():
    chunks = [("a",), ("b",)]
    with pytest.raises(ValueError, match="each chunk number 1 to 2 exactly once"):
        permute_chunks(chunks, [1, 1])
    with pytest.raises(ValueError, match="exactly once"):
        permute_chunks(chunks, [0, 1])
    with pytest.raises(TypeError, match="list of chunk numbers"):
        permute_chunks(chunks, "21")
    with pytest.raises(TypeError, match="whole chunk numbers"):
        permute_chunks(chunks, [1.0, 2.0])
    with pytest.raises(TypeError, match=r"hypothesis must be one string \(raw text\), given first"):
        chunk_permutation(["a", "b"], ["a b"])
    html = chunk_permutation("<b>x</b> z", ["<b>x</b> y"])._repr_html_()
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html


# --- every view of a chunk permutation: one document, user text kept literal ---


@pytest.mark.parametrize("order", [[6, 2, 3, 4, 5, 1], [1, 3, 4, 5, 6, 2]])
def test_chunk_permutation_every_view(order, tmp_path):
    result = chunk_permutation(LESSON_HYP, LESSON_REF, order=order)
    assert isinstance(result, ChunkPermutation)
    check_every_view(result, tmp_path)
    table = next(b for b in result.to_document().blocks if isinstance(b, TableBlock))
    assert table.header == ("", "original", "permuted") and table.label_column
    # the same cells as before: p_n as clipped/total, BP, then BLEU-1 to BLEU-4, original then permuted
    assert [list(r) for r in table.rows] == result.rows
    assert result.rows[0] == ["p_1", "10/13", "10/13"] and result.rows[4][0] == "BP"
    assert [r[0] for r in result.rows[5:]] == ["BLEU-1", "BLEU-2", "BLEU-3", "BLEU-4"]
    assert result.rows[-1][1:] == [f"{result.original_scores[-1]:.4f}", f"{result.permuted_scores[-1]:.4f}"]
    text = repr(result)
    assert text == result.to_text() and f"(smoothing: {result.smoothing}) {result.verdict}" in text
    assert "Chunks (cut wherever a bigram occurs in no reference): [1] the new mayor | [2] has" in text
    assert "p<sub>1</sub>" in result._repr_html_()


def test_chunk_permutation_user_text_is_escaped_in_every_view():
    result = chunk_permutation("<b>x</b> q *z*", ["<b>x</b> y *z*"])
    assert "<b>x</b>" not in result.to_html() and "&lt;b&gt;x&lt;/b&gt;" in result.to_html()
    assert "<b>x</b>" not in result.to_markdown() and "\\*z\\*" in result.to_markdown()
    assert "<b>" not in result.to_latex() and "\\textless{}b\\textgreater{}x" in result.to_latex()
    assert result.to_dict()["hypothesis"] == ["<b>x</b>", "q", "*z*"]
