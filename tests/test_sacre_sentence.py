"""sentence_score and corpus_score (n-gram order, effective order, orientation) against sacreBLEU.

sacreBLEU is the oracle: every expected number comes from ``sacrebleu.sentence_bleu``
or ``sacrebleu.metrics.BLEU(...)`` run on the same raw strings, never from bleu_teach.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
import sacrebleu
from hypothesis import event, given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU

import bleu_teach as bt
from tests.conftest import examples
from tests.strategies import raw_corpus_case, raw_sentence_case, raw_strings

WORDS = [
    "The",
    "the",
    "THE",
    "cat",
    "isn't",
    "on",
    "mat.",
    "dog's",
    "(big)",
    "Hello,",
    "world!",
    "猫が",
    "好き",
    "naïve",
    "3.5",
    "U.S.",
    "-",
    "e-mail",
    '"quoted"',
    "a",
    "on",
    "&amp;",
    "<skipped>",
    "x-\ny",
]
SEPARATORS = [" ", " ", " ", "  ", "\t", "\n"]
CHARS = "abcAB .,!?'-\"()&;<>\t\n猫がé0"

# Raw strings: sentences of words (which share n-grams), arbitrary short text, and
# the empty and very short strings that exercise zero totals.
raw = raw_strings(
    WORDS,
    SEPARATORS,
    CHARS,
    ["", " ", "a", ".", "The", "the cat", "cat", "\n"],
    min_words=1,
    max_words=12,
    max_chars=24,
)
KINDS = ["other", "same", "cut", "replaced", "shuffled", "alternate", "upper"]

TOKENIZERS = ["13a", "none", "char", "intl", "zh"]
METHODS = ["none", "floor", "add-k", "exp"]
smooth_values = st.one_of(st.none(), st.sampled_from([0, 0.1, 0.5, 1, 2, 3.5]))


def sentence_case() -> st.SearchStrategy[tuple[str, list[str | None]]]:
    return raw_sentence_case(raw, WORDS, KINDS)


def corpus_case() -> st.SearchStrategy[tuple[list[str], list[list[str | None]]]]:
    """Hypotheses and sacreBLEU streams (references[k][i]), None where a segment has no k-th reference."""

    def streams(case: tuple[list[str], list[list[str | None]]]) -> tuple[list[str], list[list[str | None]]]:
        hyps, per_hyp = case
        return hyps, [[refs[j] for refs in per_hyp] for j in range(len(per_hyp[0]))]

    return raw_corpus_case(raw, WORDS, KINDS).map(streams)


options = st.fixed_dictionaries(
    {
        "tokenize": st.sampled_from(TOKENIZERS),
        "lowercase": st.booleans(),
        "smooth_method": st.sampled_from(METHODS),
        "smooth_value": smooth_values,
    }
)


@pytest.fixture(scope="module", autouse=True)
def quiet_sacrebleu() -> Iterator[None]:
    """sacreBLEU logs a recommendation for every sentence_score without effective order."""
    logger = logging.getLogger("sacrebleu")
    old = logger.level
    logger.setLevel(logging.ERROR)
    yield
    logger.setLevel(old)


def assert_same(got: bt.SacreScore, expected: Any, signature: str) -> None:
    assert got.score == pytest.approx(expected.score, abs=1e-9, rel=0)
    assert list(got.counts) == list(expected.counts)
    assert list(got.totals) == list(expected.totals)
    assert list(got.precisions) == pytest.approx(list(expected.precisions), abs=1e-9, rel=0)
    assert got.bp == pytest.approx(expected.bp, abs=1e-9, rel=0)
    assert (got.sys_len, got.ref_len) == (expected.sys_len, expected.ref_len)
    assert got.signature == signature
    assert got.format() == expected.format()


def note_branches(got: bt.SacreScore, max_order: int) -> None:
    """Label the interesting cases (shown with --hypothesis-show-statistics)."""
    if not any(got.matches):
        event("no unigram match")
        return
    if 0 in got.ngrams:
        event("an order with no n-grams")
    if any(m == 0 < t for m, t in zip(got.matches, got.ngrams)):
        event("an order with n-grams but no match (smoothing decides)")
    if all(got.matches):
        event("every order matched")
    if 0 < got.orders_used < max_order:
        event("effective order below max_ngram_order")


# --- sentence_score ---------------------------------------------------------------------------


@settings(max_examples=examples(1200), deadline=None)
@given(case=sentence_case(), opts=options, effective=st.one_of(st.none(), st.booleans()))
def test_sentence_score_equals_sacrebleu_sentence_bleu(case, opts, effective, parity_counter):
    """Same arguments as sacrebleu.sentence_bleu, including its default (effective order on)."""
    hyp, refs = case
    kwargs = dict(opts) if effective is None else dict(opts, use_effective_order=effective)
    expected = sacrebleu.sentence_bleu(hyp, refs, **kwargs)
    metric = BLEU(
        tokenize=opts["tokenize"],
        lowercase=opts["lowercase"],
        smooth_method=opts["smooth_method"],
        smooth_value=opts["smooth_value"],
        effective_order=True if effective is None else effective,
    )
    metric.sentence_score(hyp, refs)  # sets the reference count that the signature reports
    got = bt.sentence_score(hyp, refs, **kwargs)
    assert_same(got, expected, str(metric.get_signature()))
    note_branches(got, 4)
    parity_counter["sacrebleu_sentence_bleu"] += 1


@settings(max_examples=examples(1200), deadline=None)
@given(case=sentence_case(), opts=options, effective=st.booleans(), order=st.integers(1, 6))
def test_sentence_score_equals_bleu_sentence_score_any_order(case, opts, effective, order, parity_counter):
    hyp, refs = case
    metric = BLEU(effective_order=effective, max_ngram_order=order, **opts)
    expected = metric.sentence_score(hyp, refs)
    got = bt.sentence_score(hyp, refs, use_effective_order=effective, max_ngram_order=order, **opts)
    assert_same(got, expected, str(metric.get_signature()))
    assert len(got.precisions) == order
    note_branches(got, order)
    parity_counter["sacrebleu_sentence_score"] += 1


# --- corpus_score: orders, effective order, both orientations ---------------------------------


@settings(max_examples=examples(1000), deadline=None)
@given(case=corpus_case(), opts=options, effective=st.booleans(), order=st.integers(1, 6))
def test_corpus_score_equals_sacrebleu_in_both_orientations(case, opts, effective, order, parity_counter):
    hyps, streams = case
    metric = BLEU(effective_order=effective, max_ngram_order=order, **opts)
    expected = metric.corpus_score(hyps, streams)
    signature = str(metric.get_signature())
    per_hyp = [list(refs) for refs in zip(*streams)]
    kwargs = dict(opts, effective_order=effective, max_ngram_order=order)

    assert_same(bt.corpus_score(hyps, streams, orientation="streams", **kwargs), expected, signature)
    assert_same(bt.corpus_score(hyps, per_hyp, orientation="per_hypothesis", **kwargs), expected, signature)
    n = len(hyps)
    if n >= 2 and len(per_hyp) == n and all(len(r) == n for r in per_hyp):
        event("square corpus: orientation must be given")
        with pytest.raises(ValueError, match="orientation='streams'"):
            bt.corpus_score(hyps, per_hyp, **kwargs)
    else:
        got = bt.corpus_score(hyps, per_hyp, **kwargs)
        assert_same(got, expected, signature)
        note_branches(got, order)
    parity_counter["sacrebleu_corpus_score_orders"] += 1


# --- worked examples of the quirks, with sacreBLEU's numbers --------------------------------


def test_sentence_score_defaults_are_sentence_bleus():
    hyp, refs = "The cat", ["The cat sat on the mat."]
    expected = sacrebleu.sentence_bleu(hyp, refs)
    got = bt.sentence_score(hyp, refs)
    assert got.score == pytest.approx(expected.score, abs=1e-9, rel=0)
    assert expected.score > 0  # effective order on: only the 2 orders the sentence has are averaged
    assert got.orders_used == 2
    metric = BLEU(effective_order=True)
    metric.sentence_score(hyp, refs)
    assert got.signature == str(metric.get_signature())
    assert "eff:yes" in got.signature


def test_effective_order_stops_only_at_orders_without_ngrams():
    # "the cat on" has bigrams but none matches: effective order still counts that order,
    # so without smoothing the score is 0 (sacreBLEU's docstring suggests otherwise).
    hyp, refs = "the cat on", ["the dog the cat"]
    expected = BLEU(effective_order=True, smooth_method="none").sentence_score(hyp, refs)
    got = bt.sentence_score(hyp, refs, smooth_method="none")
    assert expected.score == 0.0 and expected.counts[0] > 0
    assert got.score == expected.score
    assert got.orders_used == 3 == len([t for t in expected.totals if t])


def test_positional_arguments_keep_their_places():
    hyps, refs = ["The Cat sat.", "a dog"], [["the cat sat."], ["A dog ran"]]
    expected = BLEU(tokenize="char", lowercase=True, smooth_method="floor", smooth_value=0.2).corpus_score(
        hyps, [[r[0] for r in refs]]
    )
    got = bt.corpus_score(hyps, refs, "char", True, "floor", 0.2)
    assert got.score == pytest.approx(expected.score, abs=1e-9, rel=0)
    got_sentence = bt.sentence_score("The Cat sat.", ["the cat sat."], "floor", 0.2, True, "char", False, 3)
    expected_sentence = BLEU(
        tokenize="char", lowercase=True, smooth_method="floor", smooth_value=0.2, max_ngram_order=3
    ).sentence_score("The Cat sat.", ["the cat sat."])
    assert got_sentence.score == pytest.approx(expected_sentence.score, abs=1e-9, rel=0)


def test_sentence_score_is_exported():
    assert "sentence_score" in bt.__all__


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"max_ngram_order": 0}, ValueError, "at least 1"),
        ({"max_ngram_order": True}, TypeError, "whole number"),
        ({"max_ngram_order": 4.0}, TypeError, "whole number"),
        ({"effective_order": "yes"}, TypeError, "effective_order must be True or False"),
        ({"smooth_value": "0.1"}, TypeError, "smooth_value must be a number"),
        ({"smooth_value": -1}, ValueError, ">= 0"),
        ({"smooth_value": float("nan")}, ValueError, "finite"),
        ({"orientation": "columns"}, ValueError, "'per_hypothesis'.*'streams'"),
    ],
)
def test_corpus_score_bad_options(kwargs, error, message):
    with pytest.raises(error, match=message):
        bt.corpus_score(["a b"], [["a b"]], **kwargs)


@pytest.mark.parametrize(
    "hyp, refs, error, message",
    [
        (["a b"], ["a b"], TypeError, "for a list of hypotheses use corpus_score"),
        ("a b", "a b", TypeError, r"wrap a single reference in a list: \[reference\]"),
        ("a b", [], ValueError, "at least one"),
        ("a b", [None], ValueError, "at least one"),
        ("a b", [["a b"]], TypeError, r"references\[0\] must be a string"),
    ],
)
def test_sentence_score_bad_input(hyp, refs, error, message):
    with pytest.raises(error, match=message):
        bt.sentence_score(hyp, refs)


def test_sentence_score_bad_options():
    with pytest.raises(TypeError, match="use_effective_order must be True or False"):
        bt.sentence_score("a", ["a"], use_effective_order=1)
    with pytest.raises(ValueError, match="choose one of"):
        bt.sentence_score("a", ["a"], tokenize="moses")
