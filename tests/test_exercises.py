"""Checkers: the right answer passes, each misconception gets its own feedback."""

from __future__ import annotations

from fractions import Fraction

import pytest

import bleu_teach as bt
from bleu_teach.exercises import check_bleu, check_brevity_penalty, check_modified_precision, check_ngram_count

REFS = [["the", "cat", "is", "on", "the", "mat"], ["there", "is", "a", "cat", "on", "the", "mat"]]


def test_modified_precision_right_and_misconceptions():
    hyp = ["the"] * 7
    assert check_modified_precision("2/7", REFS, hyp).correct is True
    assert check_modified_precision(Fraction(2, 7), REFS, hyp).correct is True
    assert "did not clip" in check_modified_precision(1.0, REFS, hyp).message
    assert "maximum over the references" in check_modified_precision("3/7", REFS, hyp).message
    assert "reference's n-gram count" in check_modified_precision("2/6", REFS, hyp).message
    assert check_modified_precision(None, REFS, hyp).correct is None


def test_brevity_penalty_right_and_misconceptions():
    right = bt.brevity_penalty(6, 5)
    assert check_brevity_penalty(round(right, 3), [6, 9], 5).correct is True
    assert "longest reference" in check_brevity_penalty(round(bt.brevity_penalty(9, 5), 3), [6, 9], 5).message
    assert "brevity penalty applies" in check_brevity_penalty(1, [6, 9], 5).message
    import math
    assert "swapped r and c" in check_brevity_penalty(math.exp(1 - 5 / 6), [6, 9], 5).message


def test_bleu_right_and_misconceptions():
    hyp = "there is a cat sitting on the mat".split()
    report = bt.explain(REFS, hyp, weights=(0.5, 0.5))
    assert check_bleu(round(report.score, 3), REFS, hyp, (0.5, 0.5)).correct is True
    short = "the cat".split()
    r2 = bt.explain(REFS, short, weights=(0.5, 0.5))
    assert "forgot the brevity penalty" in check_bleu(r2.score / r2.brevity_penalty, REFS, short, (0.5, 0.5)).message
    hyp = "a cat sat on a mat".split()
    report = bt.explain(REFS, hyp, weights=(0.5, 0.5))
    p = [float(o.precision) for o in report.orders]
    arithmetic = float(report.brevity_penalty) * (p[0] + p[1]) / 2
    assert abs(arithmetic - report.score) > 0.01  # the example tells the two means apart
    assert "arithmetic mean" in check_bleu(arithmetic, REFS, hyp, (0.5, 0.5)).message


def test_bad_answer_text():
    with pytest.raises(ValueError, match="fraction such as 2/7"):
        check_modified_precision("two sevenths", REFS, ["the"])


def test_feedback_html_is_escaped():
    html = check_modified_precision("1", [["<b>"]], ["<b>"])._repr_html_()
    assert "<b>" not in html.replace("<b>&#10004; Correct:</b>", "")


def test_ngram_count_right_and_misconceptions():
    tokens = "the cat sat on the mat".split()
    assert check_ngram_count(5, tokens, 2).correct is True
    assert check_ngram_count("5", tokens, 2).correct is True
    assert "counted the tokens" in check_ngram_count(6, tokens, 2).message
    assert "off by one" in check_ngram_count(4, tokens, 2).message
    repeated = "the the the the".split()  # 3 bigrams, all the same one
    assert check_ngram_count(3, repeated, 2).correct is True
    assert "distinct" in check_ngram_count(1, repeated, 2).message
    assert check_ngram_count(7, tokens, 2).message.startswith("that is not it")
    assert check_ngram_count(0, ["a"], 2).correct is True
    with pytest.raises(ValueError):
        check_ngram_count(1, tokens, 0)
