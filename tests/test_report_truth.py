"""A report is the computation: what it shows is what the score used.

NLTK is the oracle for every count and score here: its ``modified_precision``
gives the numerator and denominator each sentence adds to corpus BLEU (that
is how its own ``corpus_bleu`` pools them), and its ``corpus_bleu`` and
``sentence_bleu`` give the scores.
"""

from __future__ import annotations

import re
import sys
import warnings
from fractions import Fraction
from html import unescape

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu

import bleu_teach as bt
from tests.conftest import examples
from tests.strategies import VOCAB, references, weights
from tests.view_checks import assert_tables_shown

short_or_long = st.one_of(
    st.lists(st.sampled_from(VOCAB), min_size=0, max_size=3),
    st.lists(st.sampled_from(VOCAB), min_size=0, max_size=12),
)
corpora = st.lists(st.tuples(references, short_or_long), min_size=1, max_size=5)


def nltk_counts(refs_list, hyps, max_n):
    """Per sentence and pooled (numerator, denominator) pairs, from NLTK's modified_precision."""
    per_sentence = []
    for refs, hyp in zip(refs_list, hyps):
        row = []
        for n in range(1, max_n + 1):
            p = nltk_bleu.modified_precision(refs, hyp, n)
            row.append((p.numerator, p.denominator))
        per_sentence.append(row)
    pooled = [(sum(s[i][0] for s in per_sentence), sum(s[i][1] for s in per_sentence)) for i in range(max_n)]
    return per_sentence, pooled


def quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return "ok", func(*args, **kwargs)
        except (AssertionError, ValueError, ZeroDivisionError, IndexError) as exc:
            return "error", exc


@settings(max_examples=examples(2000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    corpus=corpora,
    weight=st.one_of(st.just((0.25, 0.25, 0.25, 0.25)), weights()),
    method=st.integers(min_value=0, max_value=7),
    auto_reweigh=st.booleans(),
)
def test_corpus_report_shows_the_counts_and_score_it_used(corpus, weight, method, auto_reweigh, parity_counter):
    refs_list = [refs for refs, _ in corpus]
    hyps = [hyp for _, hyp in corpus]
    max_n = len(weight)
    smoothing = bt.SmoothingFunction()
    score = quiet(bt.corpus_bleu, refs_list, hyps, weight, getattr(smoothing, f"method{method}"), auto_reweigh)
    report = quiet(bt.explain_corpus, refs_list, hyps, weight, f"method{method}", auto_reweigh)
    oracle = quiet(
        nltk_bleu.corpus_bleu,
        refs_list,
        hyps,
        weight,
        getattr(nltk_bleu.SmoothingFunction(), f"method{method}"),
        auto_reweigh,
    )
    # The report never fails where the score succeeds, and both agree with NLTK.
    assert score[0] == oracle[0]
    if score[0] == "error":
        assert report[0] == "error"
        return
    assert report[0] == "ok", report[1]
    report = report[1]
    assert report.score == score[1] == oracle[1]
    per_sentence, pooled = nltk_counts(refs_list, hyps, max_n)
    # The pooled counts on show are the ones the score was made from (NLTK's).
    assert list(zip(report.clipped, report.totals)) == pooled
    assert [(p.numerator, p.denominator) for p in report.precisions] == pooled
    assert [(o.clipped, o.total) for o in report.orders] == pooled  # the combining table's "as counted"
    for row, expected in zip(report.sentences, per_sentence):
        assert list(zip(row.clipped, row.totals)) == expected
    text = report.to_text()
    pooled_line = next(line for line in text.splitlines() if line.startswith("pooled: "))
    assert pooled_line.endswith(", ".join(f"{m}/{t}" for m, t in pooled))
    # The HTML view shows the same tables, cell for cell, and carries the score at full precision.
    assert_tables_shown(report)
    assert f'data-score="{report.score!r}"' in report.to_html()
    # A sentence row has a score exactly when NLTK can score that sentence alone.
    for row, refs, hyp in zip(report.sentences, refs_list, hyps):
        alone = quiet(
            nltk_bleu.sentence_bleu,
            refs,
            hyp,
            weight,
            getattr(nltk_bleu.SmoothingFunction(), f"method{method}"),
            auto_reweigh,
        )
        if alone[0] == "ok":
            assert row.sentence_score == alone[1]
        else:
            assert row.sentence_score is None and row.problem
    parity_counter["explain_corpus"] += 1


@settings(max_examples=examples(1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    refs=references,
    hyp=short_or_long,
    weight=st.one_of(st.just((0.25, 0.25, 0.25, 0.25)), weights()),
    method=st.integers(min_value=0, max_value=7),
    auto_reweigh=st.booleans(),
)
def test_sentence_report_counts_and_notes_are_true(refs, hyp, weight, method, auto_reweigh, parity_counter):
    report = quiet(bt.explain, refs, hyp, weight, method, auto_reweigh)
    oracle = quiet(
        nltk_bleu.sentence_bleu,
        refs,
        hyp,
        weight,
        getattr(nltk_bleu.SmoothingFunction(), f"method{method}"),
        auto_reweigh,
    )
    assert report[0] == oracle[0]
    if report[0] == "error":
        return
    report = report[1]
    assert report.score == oracle[1]
    (counts,), _ = nltk_counts([refs], [hyp], len(weight))
    assert [(o.clipped, o.total) for o in report.orders] == counts
    for order in report.orders:
        assert order.counted_as_one == (len(hyp) < order.n)
        assert sum(order.marks) >= (order.clipped > 0)
    joined = " ".join(report.notes)
    # The "tiny number instead of 0" story only when a zero order really carries weight.
    weighted_zero = any(o.is_zero and o.weight > 0 for o in report.orders)
    if "rather than exactly 0" in joined:
        assert weighted_zero and report.smoothing == "method0"
        # Each weighted zero order multiplies the score by (about 2.2e-308) ** w_n.
        smallest = min(o.weight for o in report.orders if o.is_zero and o.weight > 0)
        assert 0 < report.score <= sys.float_info.min**smallest * (1 + 1e-9)
    if report.smoothing == "method0" and weighted_zero and report.orders[0].clipped and len(hyp):
        assert "rather than exactly 0" in joined
    text = report.to_text()
    for order in report.orders:
        assert f"p_{order.n} = {order.clipped}/{order.total}" in text
    parity_counter["explain"] += 1


def test_zero_precision_warning_points_at_the_callers_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        bt.sentence_bleu([["a", "b", "c", "d"]], ["a", "b", "x", "y"])
    assert caught and caught[0].filename == __file__


def test_auto_reweigh_only_for_the_default_tuple_as_nltk():
    ref, hyp = ["a", "b", "c", "d"], ["a", "b", "x"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for weights in ([0.25] * 4, (0.25,) * 4, [[0.25] * 4], [(0.25,) * 4]):
            assert bt.sentence_bleu([ref], hyp, weights, auto_reweigh=True) == nltk_bleu.sentence_bleu(
                [ref], hyp, weights, auto_reweigh=True
            )
            assert bt.corpus_bleu([[ref]], [hyp], weights, auto_reweigh=True) == nltk_bleu.corpus_bleu(
                [[ref]], [hyp], weights, auto_reweigh=True
            )
        # NLTK raises for an array here ("truth value ... ambiguous"); bleu_teach does not reweigh it.
        assert bt.sentence_bleu([ref], hyp, np.array([0.25] * 4), auto_reweigh=True) == nltk_bleu.sentence_bleu(
            [ref], hyp, [0.25] * 4, auto_reweigh=True
        )
    assert (
        bt.explain([ref], hyp, [0.25] * 4, auto_reweigh=True).score != bt.explain([ref], hyp, auto_reweigh=True).score
    )


def test_count_fraction_arithmetic_compares_by_value():
    p = bt.CountFraction(2, 4)
    assert p * 2 == 1 and 2 * p == 1 and p - Fraction(1, 2) == 0 and p + 0 == Fraction(1, 2)
    assert p / 2 == Fraction(1, 4) and 1 - p == Fraction(1, 2) and p**2 == Fraction(1, 4)
    assert bt.CountFraction(0, 5) == 0 and p + bt.CountFraction(1, 4) == Fraction(3, 4)


def test_corpus_table_shows_the_totals_the_score_used():
    # Two character-token sentences, the second shorter than 3: NLTK counts its missing
    # 3-grams and 4-grams as 0/1, so the pooled p_3 and p_4 are 3/4 and 2/3, not 3/3 and 2/2.
    refs = [[list("abcde")], [list("ab")]]
    hyps = [list("abcde"), list("ab")]
    report = bt.explain_corpus(refs, hyps)
    assert report.totals == (7, 5, 4, 3)
    assert report.clipped == (7, 5, 3, 2)
    assert round(report.score, 4) == 0.8409
    assert report.score == nltk_bleu.corpus_bleu(refs, hyps)
    text = report.to_text()
    assert "3/4" in text and "2/3" in text and "0/1*" in text
    assert any("t_3 = 4 for 3 real 3-grams" in note for note in report.notes)


def test_lesson_04_corpus_table_recomputes_to_its_score():
    refs = [
        [bt.tokenize("the cat is on the mat")],
        [bt.tokenize("there is a dog in the garden")],
        [bt.tokenize("it rained all day")],
    ]
    hyps = [bt.tokenize("the cat is on the mat"), bt.tokenize("a dog is in the garden"), bt.tokenize("rain")]
    report = bt.explain_corpus(refs, hyps, smoothing="method1")
    assert [(m, t) for m, t in zip(report.clipped, report.totals)][1:] == [(8, 11), (5, 9), (3, 7)]
    # A student recomputing from the table gets the score.
    import math

    p = [Fraction(m, t) for m, t in zip(report.clipped, report.totals)]
    by_hand = float(report.brevity_penalty) * math.exp(sum(0.25 * math.log(x) for x in p))
    assert by_hand == pytest.approx(report.score, rel=1e-12)
    assert round(report.score, 4) == 0.4648


def test_explain_corpus_with_method6_reports_where_corpus_bleu_scores():
    refs = [[list("abcd")], [list("xyzw")]]
    hyps = [list("abcd"), list("xqzw")]
    expected = nltk_bleu.corpus_bleu(refs, hyps, smoothing_function=nltk_bleu.SmoothingFunction().method6)
    assert expected == 0.7154020952750715
    report = bt.explain_corpus(refs, hyps, smoothing="method6")
    assert report.score == expected
    assert report.sentences[0].sentence_score is not None
    assert report.sentences[1].sentence_score is None and "trigram" in report.sentences[1].problem
    assert report.mean_sentence_score is None
    assert "cannot score alone" in report.to_text()


@pytest.mark.parametrize(
    "weight,hyp,auto",
    [
        ((1, 0, 0, 0), "mat the on sat cat the", False),
        ((0.25, 0.25, 0.25, 0.25), "the cat", True),
    ],
)
def test_zero_precision_note_is_true_when_zero_orders_have_no_weight(weight, hyp, auto):
    refs = [["the", "cat", "is", "on", "the", "mat"]]
    report = bt.explain(refs, hyp.split(), weights=weight, auto_reweigh=auto)
    joined = " ".join(report.notes)
    assert "rather than exactly 0" not in joined
    assert "weight 0, so they do not change the score" in joined
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert report.score == nltk_bleu.sentence_bleu(refs, hyp.split(), weight, auto_reweigh=auto)


def test_zero_precision_note_names_the_tiny_score_when_the_zero_order_counts():
    refs = [["the", "cat", "is", "on", "the", "mat"]]
    report = bt.explain(refs, "the cat sat on a mat".split())
    assert any("rather than exactly 0" in note and f"{report.score:.3g}" in note for note in report.notes)


@pytest.mark.parametrize(
    "weights",
    [
        np.array([0.25, 0.25, 0.25, 0.25]),
        np.array([0.5, 0.5]),
        [np.array([0.5, 0.5]), np.array([0.25, 0.25, 0.25, 0.25])],
        np.array([[0.5, 0.5, 0.0], [1 / 3, 1 / 3, 1 / 3]]),
        np.array([0.25, 0.25, 0.25, 0.25], dtype=np.float32),
    ],
)
def test_numpy_weights_are_accepted_as_nltk_accepts_them(weights):
    refs = [["the", "cat", "is", "on", "the", "mat"], ["there", "is", "a", "cat", "on", "the", "mat"]]
    hyp = "the cat sat on the mat".split()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert bt.sentence_bleu(refs, hyp, weights) == nltk_bleu.sentence_bleu(refs, hyp, weights)
        assert bt.corpus_bleu([refs], [hyp], weights) == nltk_bleu.corpus_bleu([refs], [hyp], weights)
        if getattr(weights, "ndim", 0) == 1:
            assert bt.explain(refs, hyp, weights).score == nltk_bleu.sentence_bleu(refs, hyp, weights)


def test_numpy_weights_of_three_dimensions_are_refused():
    with pytest.raises(ValueError, match="dimension"):
        bt.sentence_bleu([["a"]], ["a"], np.ones((1, 1, 1)))


def test_count_fraction_equality_is_symmetric_with_nltk_fractions():
    refs = [["a", "b", "c", "d"]]
    hyp = ["a", "b", "x", "c", "d"]
    theirs = nltk_bleu.modified_precision(refs, hyp, 2)
    ours = bt.modified_precision(refs, hyp, 2)
    assert (theirs.numerator, theirs.denominator) == (ours.numerator, ours.denominator) == (2, 4)
    assert ours == theirs and theirs == ours
    assert ours == Fraction(1, 2) and Fraction(1, 2) == ours
    assert ours == 0.5 and 0.5 == ours
    assert ours != Fraction(2, 3) and Fraction(2, 3) != ours
    assert hash(ours) == hash(Fraction(1, 2))
    assert ours < Fraction(2, 3) and Fraction(1, 3) < ours


@pytest.mark.parametrize(
    "bad,message",
    [
        (bt.SmoothingFunction(), r"SmoothingFunction object.*\.method1"),
        (bt.SmoothingFunction, r"the class SmoothingFunction"),
        (nltk_bleu.SmoothingFunction(), r"SmoothingFunction object"),
        (3.5, r"method name such as 'method1'"),
        ("method9", r"Unknown smoothing method 'method9'"),
    ],
)
def test_bad_smoothing_gets_a_clear_error_even_without_unigram_matches(bad, message):
    for hyp in (["the", "cat"], ["zebra"]):  # the second has no unigram match
        with pytest.raises((TypeError, ValueError), match=message):
            bt.sentence_bleu([["the", "cat"]], hyp, smoothing_function=bad)
        with pytest.raises((TypeError, ValueError), match=message):
            bt.corpus_bleu([[["the", "cat"]]], [hyp], smoothing_function=bad)
        with pytest.raises((TypeError, ValueError), match=message):
            bt.explain([["the", "cat"]], hyp, smoothing=bad)


@pytest.mark.parametrize("name", ["method1", "1", 1])
def test_smoothing_names_mean_the_same_everywhere(name):
    refs = [["the", "cat", "is", "on", "the", "mat"]]
    hyp = "the cat sat on a mat".split()
    expected = nltk_bleu.sentence_bleu(refs, hyp, smoothing_function=nltk_bleu.SmoothingFunction().method1)
    assert bt.sentence_bleu(refs, hyp, smoothing_function=name) == expected
    assert bt.explain(refs, hyp, smoothing=name).score == expected


@pytest.mark.parametrize("kwargs", [{"k": 0}, {"alpha": 0}, {"epsilon": 0}, {"k": -1}, {"epsilon": float("nan")}])
def test_smoothing_parameters_that_would_divide_by_zero_are_refused(kwargs):
    with pytest.raises(ValueError, match="positive, finite number"):
        bt.SmoothingFunction(**kwargs)


def _html_rows(html: str) -> list[list[str]]:
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", html):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
        rows.append([unescape(re.sub(r"<sub>(.*?)</sub>", r"_\1", c)) for c in cells])
    return rows


def _text_rows(lines: list[str]) -> list[list[str]]:
    return [re.split(r"\s{2,}", line.strip()) for line in lines]


def test_text_and_html_views_show_the_same_cells():
    report = bt.explain(
        [["the", "cat", "is", "on", "the", "mat"], ["a", "<b>cat</b>"]],
        "the cat sat on the mat".split(),
        smoothing="method2",
    )
    text, html = report.to_text(), report._repr_html_()
    html_rows = _html_rows(html)
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("order"))
    text_rows = _text_rows(lines[start : start + 1 + len(report.orders)])
    assert text_rows == html_rows[-len(text_rows) :]
    assert text_rows[0] == ["order", "weight w_n", "p_n as counted", "p_n used", "w_n * log p_n"]
    # The n-gram tables too: the first one in each view.
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("n-gram"))
    count = len(report.orders[0].rows) + 1
    assert _text_rows(lines[start : start + count]) == html_rows[:count]
