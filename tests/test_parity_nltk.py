"""bleu_teach gives NLTK's numbers exactly (==), with NLTK as the oracle."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu

import bleu_teach as bt
from tests.conftest import examples
from tests.strategies import methods, references, smoothing_params, tokens, weights, weights_or_default

SETTINGS = settings(max_examples=examples(2500), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run(func: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, Any]:
    """('ok', value) or ('error', exception), with NLTK's warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "ok", func(*args, **kwargs)
        except (AssertionError, IndexError, ZeroDivisionError, ValueError, TypeError, KeyError) as exc:
            return "error", exc


def assert_same(ours: tuple[str, Any], theirs: tuple[str, Any]) -> None:
    if theirs[0] == "error":
        # NLTK fails (method6 without a trigram match): we must fail clearly instead.
        assert ours[0] == "error", f"NLTK raised {theirs[1]!r} but bleu_teach returned {ours[1]!r}"
        assert isinstance(ours[1], ValueError), ours[1]
        assert str(ours[1])
    else:
        assert ours[0] == "ok", f"bleu_teach raised {ours[1]!r}, NLTK returned {theirs[1]!r}"
        assert ours[1] == theirs[1], (ours[1], theirs[1])


@SETTINGS
@given(
    refs=references,
    hyp=tokens,
    weight=weights_or_default,
    method=methods,
    params=smoothing_params,
    auto_reweigh=st.booleans(),
)
def test_sentence_bleu_equals_nltk(refs, hyp, weight, method, params, auto_reweigh, parity_counter):
    ours = run(
        bt.sentence_bleu, refs, hyp, weight, getattr(bt.SmoothingFunction(**params), f"method{method}"), auto_reweigh
    )
    theirs = run(
        nltk_bleu.sentence_bleu,
        refs,
        hyp,
        weight,
        getattr(nltk_bleu.SmoothingFunction(**params), f"method{method}"),
        auto_reweigh,
    )
    assert_same(ours, theirs)
    parity_counter["sentence_bleu"] += 1


@settings(max_examples=examples(500), deadline=None)
@given(refs=references, hyp=tokens, weight_list=st.lists(weights(), min_size=1, max_size=4), method=methods)
def test_sentence_bleu_weight_lists_equal_nltk(refs, hyp, weight_list, method, parity_counter):
    ours = run(bt.sentence_bleu, refs, hyp, weight_list, getattr(bt.SmoothingFunction(), f"method{method}"))
    theirs = run(
        nltk_bleu.sentence_bleu, refs, hyp, weight_list, getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    )
    assert_same(ours, theirs)
    parity_counter["sentence_bleu_weight_lists"] += 1


corpora = st.lists(st.tuples(references, tokens), min_size=1, max_size=6)


@SETTINGS
@given(corpus=corpora, weight=weights_or_default, method=methods, auto_reweigh=st.booleans())
def test_corpus_bleu_equals_nltk(corpus, weight, method, auto_reweigh, parity_counter):
    refs_list = [refs for refs, _ in corpus]
    hyps = [hyp for _, hyp in corpus]
    ours = run(
        bt.corpus_bleu, refs_list, hyps, weight, getattr(bt.SmoothingFunction(), f"method{method}"), auto_reweigh
    )
    theirs = run(
        nltk_bleu.corpus_bleu,
        refs_list,
        hyps,
        weight,
        getattr(nltk_bleu.SmoothingFunction(), f"method{method}"),
        auto_reweigh,
    )
    assert_same(ours, theirs)
    parity_counter["corpus_bleu"] += 1


@settings(max_examples=examples(800), deadline=None)
@given(refs=references, hyp=tokens, n=st.integers(min_value=1, max_value=6))
def test_modified_precision_and_lengths_equal_nltk(refs, hyp, n, parity_counter):
    ours = bt.modified_precision(refs, hyp, n)
    theirs = nltk_bleu.modified_precision(refs, hyp, n)
    assert (ours.numerator, ours.denominator) == (theirs.numerator, theirs.denominator)
    assert float(ours) == float(theirs)
    r = bt.closest_ref_length(refs, len(hyp))
    assert r == nltk_bleu.closest_ref_length(refs, len(hyp))
    assert bt.brevity_penalty(r, len(hyp)) == nltk_bleu.brevity_penalty(r, len(hyp))
    parity_counter["modified_precision_and_bp"] += 1


@settings(max_examples=examples(500), deadline=None)
@given(refs=references, hyp=tokens, weight=weights(), method=methods)
def test_explain_score_equals_sentence_bleu(refs, hyp, weight, method, parity_counter):
    ours = run(bt.explain, refs, hyp, weight, f"method{method}")
    direct = run(bt.sentence_bleu, refs, hyp, weight, getattr(bt.SmoothingFunction(), f"method{method}"))
    assert ours[0] == direct[0]
    if ours[0] == "ok":
        report = ours[1]
        assert report.score == direct[1]
        for order in report.orders:
            assert order.clipped == sum(row.clipped_count for row in order.rows)
            assert order.ngrams == sum(row.hyp_count for row in order.rows)
            # The denominator the score used: NLTK counts "no n-grams" as one n-gram (0/1).
            assert order.total == max(1, order.ngrams)
            assert order.precision == report.result.precisions[order.n - 1]
            assert all(row.max_ref_count == max(row.ref_counts) for row in order.rows)
    parity_counter["explain"] += 1


@settings(max_examples=examples(300), deadline=None)
@given(refs=references, hyp=tokens, method=methods)
def test_nltk_smoothing_functions_work_with_bleu_teach(refs, hyp, method, parity_counter):
    """Drop-in: NLTK's own smoothing functions plug into bleu_teach."""
    smooth = getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    ours = run(bt.sentence_bleu, refs, hyp, smoothing_function=smooth)
    theirs = run(nltk_bleu.sentence_bleu, refs, hyp, smoothing_function=smooth)
    assert ours[0] == theirs[0]
    if ours[0] == "ok":
        assert ours[1] == theirs[1]
    parity_counter["nltk_smoothing_in_bleu_teach"] += 1


PAPER_REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands".split(),
    (
        "It is the guiding principle which guarantees the military forces always being under the command of the Party"
    ).split(),
    "It is the practical guide for the army always to heed the directions of the party".split(),
]
PAPER_HYP1 = "It is a guide to action which ensures that the military always obeys the commands of the party".split()


@pytest.mark.parametrize("method", range(8))
def test_paper_example_every_method(method):
    ours = bt.sentence_bleu(
        PAPER_REFS, PAPER_HYP1, smoothing_function=getattr(bt.SmoothingFunction(), f"method{method}")
    )
    theirs = nltk_bleu.sentence_bleu(
        PAPER_REFS, PAPER_HYP1, smoothing_function=getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    )
    assert ours == theirs


def test_zero_precision_quirk_gives_nltk_tiny_number_with_warning():
    refs = ["the cat is on the mat".split()]
    hyp = ["the"] * 7
    with pytest.warns(bt.ZeroPrecisionWarning, match="No 2-gram, 3-gram, 4-gram match"):
        ours = bt.sentence_bleu(refs, hyp)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = nltk_bleu.sentence_bleu(refs, hyp)
    assert ours == theirs
    assert 0 < ours < 1e-200
