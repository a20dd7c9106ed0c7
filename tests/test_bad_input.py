"""Every kind of bad input gets a TypeError or ValueError that says what to do."""

from __future__ import annotations

import math

import pytest

import bleu_teach as bt

REF = "the cat is on the mat".split()
HYP = "the cat sat on the mat".split()


def test_string_hypothesis():
    with pytest.raises(TypeError, match=r"hypothesis is a string .* Split it first"):
        bt.sentence_bleu([REF], "the cat sat on the mat")


def test_string_single_reference():
    with pytest.raises(TypeError, match=r"references\[0\] is a string .* list of tokens"):
        bt.sentence_bleu(["the cat is on the mat"], HYP)


def test_string_list_of_references():
    with pytest.raises(TypeError, match=r"references is a string .*\[text.split\(\)\]"):
        bt.sentence_bleu("the cat is on the mat", HYP)


def test_reference_tokens_not_wrapped_in_a_list():
    # A common slip: passing one reference's tokens as the list of references.
    with pytest.raises(TypeError, match=r"wrap them in a list"):
        bt.sentence_bleu(REF, HYP)


def test_none_hypothesis():
    with pytest.raises(TypeError, match="hypothesis is None"):
        bt.sentence_bleu([REF], None)


def test_none_references():
    with pytest.raises(TypeError, match="references is None"):
        bt.sentence_bleu(None, HYP)


def test_none_reference_inside_list():
    with pytest.raises(TypeError, match=r"references\[1\] is None"):
        bt.sentence_bleu([REF, None], HYP)


def test_empty_list_of_references():
    with pytest.raises(ValueError, match="at least one reference"):
        bt.sentence_bleu([], HYP)


def test_empty_references_in_modified_precision():
    # NLTK raises a bare KeyError here.
    with pytest.raises(ValueError, match="at least one reference"):
        bt.modified_precision([], HYP, 1)


def test_n_below_one():
    with pytest.raises(ValueError, match="at least 1"):
        bt.modified_precision([REF], HYP, 0)


def test_n_not_a_whole_number():
    with pytest.raises(TypeError, match="whole number"):
        bt.modified_precision([REF], HYP, 1.5)


def test_negative_length_for_brevity_penalty():
    with pytest.raises(ValueError, match="cannot be negative"):
        bt.brevity_penalty(-3, 5)
    with pytest.raises(ValueError, match="cannot be negative"):
        bt.brevity_penalty(5, -1)


def test_empty_hypothesis_scores_zero():
    assert bt.sentence_bleu([REF], []) == 0.0
    report = bt.explain([REF], [])
    assert report.score == 0.0
    assert "empty" in " ".join(report.notes)
    assert bt.brevity_penalty(6, 0) == 0


def test_empty_weights():
    with pytest.raises(ValueError, match="weights is empty"):
        bt.sentence_bleu([REF], HYP, weights=())


def test_negative_weight():
    with pytest.raises(ValueError, match="cannot be negative"):
        bt.sentence_bleu([REF], HYP, weights=(1.5, -0.5))


def test_nan_weight():
    with pytest.raises(ValueError, match="finite"):
        bt.sentence_bleu([REF], HYP, weights=(math.nan, 0.5))


def test_weights_not_summing_to_one():
    with pytest.raises(ValueError, match=r"sum to 0.99.*sum to 1"):
        bt.sentence_bleu([REF], HYP, weights=(0.33, 0.33, 0.33))


def test_weights_as_string():
    with pytest.raises(TypeError, match="tuple of numbers"):
        bt.sentence_bleu([REF], HYP, weights="0.25")


def test_different_corpus_lengths():
    # NLTK raises an AssertionError.
    with pytest.raises(ValueError, match="2 hypotheses but 1 set of references"):
        bt.corpus_bleu([[REF]], [HYP, HYP])


def test_string_hypotheses_in_corpus():
    with pytest.raises(TypeError, match=r"hypotheses\[0\] is a string"):
        bt.corpus_bleu([[REF]], ["the cat sat on the mat"])


def test_corpus_is_none():
    with pytest.raises(TypeError, match="hypotheses is None"):
        bt.corpus_bleu([[REF]], None)


def test_empty_corpus():
    with pytest.raises(ValueError, match="corpus is empty"):
        bt.corpus_bleu([], [])


def test_unhashable_token_nested_too_deep():
    with pytest.raises(TypeError, match=r"list of sentences"):
        bt.sentence_bleu([REF], [HYP])


def test_token_ids_are_fine():
    assert bt.sentence_bleu([[1, 2, 3, 4, 5]], [1, 2, 3, 4, 5]) == 1.0


def test_method6_without_trigram_match():
    with pytest.raises(ValueError, match="method6 stops when the trigram precision p_3 is zero"):
        bt.sentence_bleu([REF], "the cat".split(), smoothing_function=bt.SmoothingFunction().method6)


def test_unknown_smoothing_name_in_explain():
    with pytest.raises(ValueError, match="choose one of method0"):
        bt.explain([REF], HYP, smoothing="laplace")


def test_unknown_tokenizer():
    with pytest.raises(ValueError, match="choose one of whitespace"):
        bt.tokenize("a b", "spaces")


def test_tokenize_needs_text():
    with pytest.raises(TypeError, match="string of text"):
        bt.tokenize(["a", "b"])
