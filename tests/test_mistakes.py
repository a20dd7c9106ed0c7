"""The deliberately wrong functions: each equals the right computation where the mistake
cannot matter, and diverges, in the documented direction, where it does.  NLTK is the oracle."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothing
from nltk.translate.bleu_score import brevity_penalty as nltk_bp
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from nltk.translate.bleu_score import modified_precision as nltk_mp
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from bleu_teach.lessons import mistakes
from tests.conftest import PARITY_CASES, examples


def count_parity() -> None:
    PARITY_CASES["mistakes"] += 1


WORDS = st.sampled_from(["the", "cat", "a", "on", "mat", "is", "dog"])
sentence = st.lists(WORDS, min_size=1, max_size=10)


def nltk_quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


@settings(max_examples=examples(150), deadline=None)
@given(
    st.lists(st.text("abc ", min_size=1, max_size=12), min_size=1, max_size=3), st.text("abc ", min_size=1, max_size=12)
)
def test_bleu_on_strings_is_what_nltk_does_with_strings(refs, hyp):
    count_parity()
    assert mistakes.bleu_on_strings(refs, hyp) == nltk_quiet(nltk_sentence_bleu, refs, hyp)


def test_bleu_on_strings_diverges_from_token_bleu():
    refs, hyp = ["the cat is on the mat"], "the mat is on the cat"
    wrong = mistakes.bleu_on_strings(refs, hyp)
    right = nltk_quiet(nltk_sentence_bleu, [refs[0].split()], hyp.split())
    assert wrong > 0.9 and right < 1e-10


def _nltk_precisions(refs, hyp, k=4):
    return [nltk_mp(refs, hyp, n) for n in range(1, k + 1)]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(sentence, min_size=1, max_size=3), sentence)
def test_skipping_zero_precisions(refs, hyp):
    count_parity()
    wrong = mistakes.bleu_skipping_zero_precisions(refs, hyp)
    right = nltk_quiet(nltk_sentence_bleu, refs, hyp)
    ps = _nltk_precisions(refs, hyp)
    bp = nltk_bp(min((len(r) for r in refs), key=lambda r: (abs(r - len(hyp)), r)), len(hyp))
    expected = bp * math.exp(math.fsum(0.25 * math.log(p) for p in ps if p > 0))
    assert wrong == pytest.approx(expected, rel=1e-12)
    if all(p > 0 for p in ps):
        assert wrong == pytest.approx(right, rel=1e-12)  # no zero: the mistake cannot show
    elif ps[0] > 0:
        assert wrong > right  # a zero precision was silently treated as p_n = 1


@settings(max_examples=examples(200), deadline=None)
@given(st.integers(1, 40), st.integers(1, 40))
def test_inverted_brevity_penalty(r, c):
    count_parity()
    wrong, right = mistakes.inverted_brevity_penalty(r, c), nltk_bp(r, c)
    if c == r:
        assert wrong == right == 1
    elif c < r:
        assert wrong == 1.0 and right < 1  # short hypotheses escape the penalty
    else:
        assert wrong > 1 and right == 1  # long ones get a bonus


def test_bleu_with_inverted_bp_equals_right_when_lengths_match():
    refs = [["the", "cat", "is", "on", "the", "mat"]]
    hyp = ["the", "cat", "sat", "on", "the", "mat"]
    smooth = NltkSmoothing().method1
    assert mistakes.bleu_with_inverted_brevity_penalty(refs, hyp, smoothing_function=smooth) == pytest.approx(
        nltk_sentence_bleu(refs, hyp, smoothing_function=smooth), rel=1e-12
    )
    short = ["the", "cat"]
    assert mistakes.bleu_with_inverted_brevity_penalty(refs, short, smoothing_function=smooth) > nltk_sentence_bleu(
        refs, short, smoothing_function=smooth
    )


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(sentence, min_size=1, max_size=3), sentence, st.integers(1, 3))
def test_precision_over_reference_ngrams(refs, hyp, n):
    count_parity()
    ref_total = len(refs[0]) - n + 1
    if ref_total < 1:
        with pytest.raises(ValueError, match="first reference has no"):
            mistakes.precision_over_reference_ngrams(refs, hyp, n)
        return
    wrong = mistakes.precision_over_reference_ngrams(refs, hyp, n)
    raw = nltk_mp(refs, hyp, n)  # NLTK keeps it unreduced; compare values
    right = Fraction(raw.numerator, raw.denominator)
    assert wrong == Fraction(raw.numerator, ref_total)
    if len(hyp) == len(refs[0]):
        assert wrong == right


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(sentence, min_size=1, max_size=4), sentence, st.integers(1, 2))
def test_precision_summing_references(refs, hyp, n):
    count_parity()
    if len(hyp) < n:
        return
    wrong = mistakes.precision_summing_references(refs, hyp, n)
    raw = nltk_mp(refs, hyp, n)
    right = Fraction(raw.numerator, raw.denominator)
    assert wrong >= right
    if len(refs) == 1:
        assert wrong == right  # one reference: sum and maximum agree


def test_precision_summing_references_example_diverges():
    refs = [["the", "cat", "is", "on", "the", "mat"], ["there", "is", "a", "cat", "on", "the", "mat"]]
    assert mistakes.precision_summing_references(refs, ["the"] * 7, 1) == Fraction(3, 7)
    assert nltk_mp(refs, ["the"] * 7, 1) == Fraction(2, 7)


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.tuples(st.lists(sentence, min_size=1, max_size=2), sentence), min_size=1, max_size=4))
def test_mean_sentence_bleu(pairs):
    count_parity()
    refs = [p[0] for p in pairs]
    hyps = [p[1] for p in pairs]
    smooth = NltkSmoothing().method1
    wrong = mistakes.mean_sentence_bleu(refs, hyps, smoothing_function=smooth)
    sentence_scores = [nltk_sentence_bleu(r, h, smoothing_function=smooth) for r, h in pairs]
    assert wrong == pytest.approx(math.fsum(sentence_scores) / len(pairs), rel=1e-12)
    if len(pairs) == 1:
        assert wrong == pytest.approx(nltk_corpus_bleu(refs, hyps, smoothing_function=smooth), rel=1e-12)


def test_mean_sentence_bleu_example_diverges_from_corpus_bleu():
    m = mistakes.demonstrate("mean_sentence_bleu")
    refs = [[["the", "cat", "is", "on", "the", "mat"]], [["good", "morning", "everyone"]]]
    hyps = [["the", "cat", "is", "on", "the", "mat"], ["good", "morning", "all"]]
    assert m.right == pytest.approx(nltk_corpus_bleu(refs, hyps, smoothing_function=NltkSmoothing().method1), rel=1e-12)
    assert m.wrong < m.right - 0.1


def test_unsmoothed_short_sentence():
    thanks = ["thank", "you", "!"]
    wrong = mistakes.unsmoothed_short_sentence_bleu([thanks], thanks)
    assert wrong == nltk_quiet(nltk_sentence_bleu, [thanks], thanks)
    assert wrong < 1e-10
    assert mistakes.demonstrate("unsmoothed_short_sentence_bleu").right == pytest.approx(
        nltk_sentence_bleu([thanks], thanks, smoothing_function=NltkSmoothing().method4), rel=1e-12
    )


def test_every_demonstration_diverges_and_the_table_lists_them():
    assert len(mistakes.MISTAKES) == 7
    for name in mistakes.MISTAKES:
        m = mistakes.demonstrate(name)
        assert not math.isclose(m.wrong, m.right, rel_tol=1e-3), name
        assert callable(getattr(mistakes, name))
    table = mistakes.mistakes_table()
    assert [row[0] for row in table.rows] == list(mistakes.MISTAKES)


def test_mistakes_reject_bad_input():
    with pytest.raises(ValueError, match="Unknown mistake"):
        mistakes.demonstrate("nope")
    with pytest.raises(TypeError, match="reference strings"):
        mistakes.bleu_on_strings("the cat", "the cat")
    with pytest.raises(TypeError):
        mistakes.bleu_skipping_zero_precisions(["the cat"], "the cat")
    with pytest.raises(ValueError, match="one list of references per hypothesis"):
        mistakes.mean_sentence_bleu([[["a"]]], [["a"], ["b"]])
    with pytest.raises(ValueError, match="hyp_len must be positive"):
        mistakes.inverted_brevity_penalty(3, 0)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(sentence, min_size=1, max_size=3), sentence, WORDS)
def test_reference_denominator_only_grows_with_the_hypothesis(refs, hyp, word):
    """The recall of mistake 4 rises with a matched word and stays put with an unmatched one."""
    count_parity()
    before = mistakes.precision_over_reference_ngrams(refs, hyp, 1)
    after = mistakes.precision_over_reference_ngrams(refs, hyp + [word], 1)
    gained = nltk_mp(refs, hyp + [word], 1).numerator - nltk_mp(refs, hyp, 1).numerator
    assert after - before == Fraction(gained, len(refs[0]))
    assert gained in (0, 1) and after >= before
