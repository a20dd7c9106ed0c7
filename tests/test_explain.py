"""The explain reports: the numbers they carry and how they render."""

from __future__ import annotations

from fractions import Fraction

from nltk.translate import bleu_score as nltk_bleu

import bleu_teach as bt

REFS = ["the cat is on the mat".split(), "there is a cat on the mat".split()]


def test_paper_clipping_example_table():
    report = bt.explain(REFS, ["the"] * 7, weights=(1.0,))
    (row,) = report.orders[0].rows
    assert row.ngram == ("the",)
    assert (row.hyp_count, row.ref_counts, row.max_ref_count, row.clipped_count) == (7, (2, 1), 2, 2)
    assert report.orders[0].precision == Fraction(2, 7)
    assert report.score == nltk_bleu.sentence_bleu(REFS, ["the"] * 7, weights=(1.0,))


def test_max_not_sum_over_references():
    report = bt.explain([["a", "a", "b"], ["a", "b", "b"]], ["a", "a", "a", "b", "b", "b"], weights=(1.0,))
    rows = {row.ngram: row for row in report.orders[0].rows}
    assert rows[("a",)].clipped_count == 2  # max(2, 1), not 2 + 1
    assert rows[("b",)].clipped_count == 2


def test_closest_length_tie_goes_to_shorter_and_says_so():
    report = bt.explain([["a"] * 13, ["a"] * 11], ["a"] * 12)
    assert report.length.closest_ref_len == 11
    assert report.length.tie
    assert "tie goes to the shorter" in report.length.reason


def test_brevity_penalty_in_report_matches_function():
    report = bt.explain([["a"] * 28], ["a"] * 12)
    assert report.brevity_penalty == bt.brevity_penalty(28, 12)
    assert "exp(1 - 28/12)" in report.to_text()


def test_zero_precision_note_and_no_warning_from_explain():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        report = bt.explain(REFS, ["the"] * 7)
    assert any("smallest positive float" in note for note in report.notes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = nltk_bleu.sentence_bleu(REFS, ["the"] * 7)
    assert report.score == expected
    assert 0 < report.score < 1e-200


def test_matched_positions_are_clipped():
    report = bt.explain(REFS, ["the"] * 7, weights=(1.0,))
    assert report.matched_positions(1) == (True, True, False, False, False, False, False)


def test_html_escapes_user_text():
    evil = ["<script>alert(1)</script>", "<img", "src=x", "onerror=alert(2)>"]
    report = bt.explain([evil], evil, weights=(0.5, 0.5))
    html = report._repr_html_()
    assert "<script>alert" not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_text_report_has_every_step():
    text = str(bt.explain(REFS, "the cat sat on the mat".split(), smoothing="method1"))
    for piece in (
        "1-grams",
        "4-grams",
        "closest reference length r",
        "BLEU = 0.",
        "BP * exp(sum of log terms)",
        "smoothing: method1",
    ):
        assert piece in text


def test_corpus_report_pools_counts_and_differs_from_mean():
    refs_list = [[REFS[0]], [REFS[1]]]
    hyps = ["the cat is on the mat".split(), "a cat".split()]
    report = bt.explain_corpus(refs_list, hyps, weights=(0.5, 0.5), smoothing="method1")
    assert report.score == bt.corpus_bleu(refs_list, hyps, (0.5, 0.5), bt.SmoothingFunction().method1)
    assert report.clipped == tuple(sum(s.clipped[i] for s in report.sentences) for i in range(2))
    assert (report.hyp_len, report.ref_len) == (8, 13)  # closest lengths 6 and 7
    assert report.mean_sentence_score != report.score
    assert "pooled" in report.to_text()
    assert "corpus BLEU" in report._repr_html_()
