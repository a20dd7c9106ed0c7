"""Reference orientation is never guessed silently; settings and significance results are data with views.

Expected numbers come from sacreBLEU (and NLTK for the home-made whitespace row), run directly.
"""

from __future__ import annotations

import dataclasses

import pytest
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

import bleu_teach as bt
from bleu_teach.inputs.corpus_layout import check_inputs
from bleu_teach.lessons import data
from bleu_teach.lessons.confidence_intervals import bootstrap_ci
from bleu_teach.lessons.settings import REPORTING_SETTINGS, SettingsScores, settings_scores
from bleu_teach.lessons.significance import SignificanceResults, SystemResult, paired_test, significance_table
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.text_writer import write_text
from tests.oracles import sacrebleu_seed
from tests.view_checks import check_every_view

# Three hypotheses and three lists of three strings: a square corpus reads two ways.
HYPS = ["the cat sat on the mat", "a dog ran in the park", "birds sing at dawn"]
SQUARE = [
    ["the cat sat on a mat", "the cat is on the mat", "a cat sat on the mat"],
    ["a dog ran in a park", "the dog runs in the park", "a dog ran through the park"],
    ["birds sing at sunrise", "the birds sing at dawn", "birds are singing at dawn"],
]


def transpose(lists):
    return [list(x) for x in zip(*lists)]


# --- the two readings differ, so a square corpus must say which it is -----------------------


def test_the_two_readings_of_the_square_corpus_give_different_scores():
    as_streams = BLEU().corpus_score(HYPS, SQUARE).score
    as_per_hypothesis = BLEU().corpus_score(HYPS, transpose(SQUARE)).score
    assert abs(as_streams - as_per_hypothesis) > 1  # the premise: guessing wrong changes the score


@pytest.mark.parametrize(
    "call",
    [
        lambda: bt.corpus_score(HYPS, SQUARE),
        lambda: bootstrap_ci(HYPS, SQUARE, n_samples=40),
        lambda: paired_test({"A": HYPS, "B": HYPS[::-1]}, SQUARE, n_samples=40),
        lambda: settings_scores(HYPS, SQUARE),
        lambda: check_inputs(HYPS, SQUARE),
    ],
    ids=["corpus_score", "bootstrap_ci", "paired_test", "settings_scores", "check_inputs"],
)
def test_square_corpus_without_orientation_is_refused(call):
    with pytest.raises(ValueError, match="orientation='per_hypothesis'") as info:
        call()
    assert "orientation='streams'" in str(info.value)
    assert "3 hypotheses and 3 lists of 3 strings" in str(info.value)


def test_explicit_orientation_gives_sacrebleus_score_for_that_reading():
    for orientation, streams in (("streams", SQUARE), ("per_hypothesis", transpose(SQUARE))):
        metric = BLEU()
        expected = metric.corpus_score(HYPS, streams)
        got = bt.corpus_score(HYPS, SQUARE, orientation=orientation)
        assert got.score == pytest.approx(expected.score, abs=1e-9, rel=0)
        assert list(got.counts) == expected.counts and list(got.totals) == expected.totals
        assert (got.sys_len, got.ref_len) == (expected.sys_len, expected.ref_len)
        assert got.signature == str(metric.get_signature())


def test_one_hypothesis_with_one_reference_is_the_same_both_ways():
    hyps, refs = ["the cat sat on the mat"], [["the cat sat on a mat"]]
    expected = BLEU().corpus_score(hyps, refs).score
    for orientation in (None, "per_hypothesis", "streams"):
        assert bt.corpus_score(hyps, refs, orientation=orientation).score == pytest.approx(expected, abs=1e-9, rel=0)


def test_non_square_streams_get_the_helpful_error_and_work_when_named():
    streams = [SQUARE[0], SQUARE[1]]  # two reference sets for three hypotheses
    with pytest.raises(ValueError, match="sacreBLEU's orientation") as info:
        bt.corpus_score(HYPS, streams)
    assert "orientation='streams'" in str(info.value)
    expected = BLEU().corpus_score(HYPS, streams).score
    assert bt.corpus_score(HYPS, streams, orientation="streams").score == pytest.approx(expected, abs=1e-9, rel=0)


def test_streams_with_missing_references():
    streams = [["the cat sat", "a dog ran", "birds sing"], [None, "the dog ran", None]]
    metric = BLEU()
    expected = metric.corpus_score(HYPS, streams)
    got = bt.corpus_score(HYPS, streams, orientation="streams")
    assert got.score == pytest.approx(expected.score, abs=1e-9, rel=0)
    assert got.signature == str(metric.get_signature()) and "nrefs:var" in got.signature


@pytest.mark.parametrize(
    "refs, error, message",
    [
        ([["a", "b"], ["a", "b", "c"]], ValueError, r"references\[0\] has 2 strings for 3 hypotheses"),
        (["a b c", "d e f"], TypeError, r"references\[0\] must be a stream"),
        ([[None, "x", "y"]], ValueError, r"hypotheses\[0\] has no reference in any stream"),
        ([["x", 3, "y"]], TypeError, r"references\[0\]\[1\] must be a string"),
        ([], ValueError, "references is empty"),
    ],
)
def test_bad_streams(refs, error, message):
    with pytest.raises(error, match=message):
        bt.corpus_score(HYPS, refs, orientation="streams")


def test_check_inputs_returns_references_per_hypothesis():
    streams = [["r1", "r2", "r3"], ["s1", None, "s3"]]
    assert check_inputs(HYPS, streams, orientation="streams") == [["r1", "s1"], ["r2", None], ["r3", "s3"]]
    per_hyp = [["r1"], ["r2", "s2"], ["r3"]]
    assert check_inputs(HYPS, per_hyp) == per_hyp


# --- significance in both orientations, against sacreBLEU run directly -----------------------


def test_bootstrap_ci_with_streams_equals_sacrebleu():
    hyps, refs = data.systems()["A"], data.references(two=True)
    streams = bt.to_sacrebleu_references(refs)
    with sacrebleu_seed(3):
        direct = BLEU().corpus_score(hyps, streams, n_bootstrap=100)
    ci = bootstrap_ci(hyps, streams, n_samples=100, seed=3, orientation="streams")
    assert (ci.score, ci.mean, ci.half_width) == (direct.score, direct._mean, direct._ci)
    assert bootstrap_ci(hyps, refs, n_samples=100, seed=3) == ci


def test_paired_test_with_streams_equals_sacrebleu():
    systems, refs = data.systems(), data.references(two=True)
    streams = bt.to_sacrebleu_references(refs)
    with sacrebleu_seed(12345):
        _, scores = PairedTest(list(systems.items()), {"BLEU": BLEU()}, streams, test_type="bs", n_samples=100)()
    rows, _ = paired_test(systems, streams, n_samples=100, orientation="streams")
    assert [(r.score, r.p_value) for r in rows] == [(s.score, s.p_value) for s in scores["BLEU"]]
    with pytest.raises(ValueError, match="System 'B' has 15 hypotheses but the references cover 16"):
        paired_test({"A": systems["A"], "B": systems["B"][:15]}, refs, n_samples=100)


# --- settings_scores returns data; the view shows the same table as before --------------------


def test_settings_scores_is_data_equal_to_sacrebleu_and_nltk():
    hyps, refs = data.systems()["A"], data.references()
    result = settings_scores(hyps, refs)
    assert isinstance(result, SettingsScores)
    streams = bt.to_sacrebleu_references(refs)
    for row, (label, options) in zip(result.scores, REPORTING_SETTINGS.items()):
        metric = BLEU(**options)
        assert row.setting == label
        assert row.score == pytest.approx(metric.corpus_score(hyps, streams).score, abs=1e-9, rel=0)
        assert row.signature == str(metric.get_signature())
    home_made = result.scores[-1]
    nltk = nltk_corpus_bleu([[r.split() for r in group] for group in refs], [h.split() for h in hyps])
    assert home_made.signature is None
    assert home_made.score == pytest.approx(100 * nltk, abs=1e-9, rel=0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.scores = ()  # type: ignore[misc]


def test_settings_scores_shows_the_table():
    hyps, refs = data.systems()["A"], data.references()
    result = settings_scores(hyps, refs)
    text = repr(result).splitlines()
    assert text[0].split() == ["setting", "BLEU", "signature"]
    assert len(text) == 1 + len(REPORTING_SETTINGS) + 1
    for line, row in zip(text[1:], result.scores):
        assert line.startswith(row.setting) and f"{row.score:.2f}" in line
    assert text[-1].endswith("(none: nobody can tell how it was tokenized)")
    assert result.rows[0] == [result.scores[0].setting, f"{result.scores[0].score:.2f}", result.scores[0].signature]
    html = result._repr_html_()
    assert html.count("<tr>") == 1 + len(result.scores) and "nobody can tell" in html
    assert write_text(result.to_document()) == repr(result) == result.to_text()


def test_settings_labels_are_escaped_in_html():
    result = settings_scores(
        ["a b"], [["a b"]], settings={"<b>bold</b>": {"tokenize": "none"}}, with_whitespace_corpus_bleu=False
    )
    assert "&lt;b&gt;bold&lt;/b&gt;" in result._repr_html_() and "<b>bold" not in result._repr_html_()


def test_settings_scores_every_view(tmp_path):
    result = settings_scores(["The cat sat on the mat ."], [["the cat sat on the mat ."]])
    check_every_view(result, tmp_path)
    (table,) = result.to_document().blocks
    assert isinstance(table, TableBlock) and table.header == ("setting", "BLEU", "signature")
    assert [list(row) for row in table.rows] == result.rows
    labelled = settings_scores(
        ["a b"], [["a b"]], settings={"<b>*bold*</b> | x": {"tokenize": "none"}}, with_whitespace_corpus_bleu=False
    )
    assert "<b>" not in labelled.to_markdown() and "\\*bold\\*" in labelled.to_markdown()
    assert "<b>" not in labelled.to_latex() and "\\textless{}b\\textgreater{}" in labelled.to_latex()
    check_every_view(labelled, tmp_path)


def test_settings_scores_bad_settings():
    with pytest.raises(TypeError, match="settings must be a dict"):
        settings_scores(["a"], [["a"]], settings=["13a"])  # type: ignore[arg-type]


# --- significance_table returns data; the view shows the same table as before ----------------


def test_significance_table_is_data_with_a_view():
    a, refs = data.systems()["A"], data.references()
    rows, _ = paired_test({"A": a, "copy": list(a), "B": data.systems()["B"]}, refs, n_samples=100)
    result = significance_table(rows, alpha=0.01)
    assert isinstance(result, SignificanceResults) and result.systems == tuple(rows) and result.alpha == 0.01
    text = repr(result).splitlines()
    assert text[0].split()[:2] == ["system", "BLEU"] and text[0].endswith("verdict")
    assert text[1].startswith("A") and text[1].endswith("baseline")
    assert "same output as the baseline" in text[2]
    verdict = (
        "differs from the baseline (p < 0.01)" if rows[2].significant(0.01) else "no significant difference at 0.01"
    )
    assert text[3].endswith(verdict)
    assert result.rows[2][3] == f"{rows[2].p_value:.4f}"
    assert result._repr_html_().count("<tr>") == 4


@pytest.mark.parametrize(
    "rows, alpha, error, message",
    [
        ("A", 0.05, TypeError, "rows, _ = paired_test"),
        ([], 0.05, TypeError, "rows, _ = paired_test"),
        ([("A", 1.0)], 0.05, TypeError, r"rows\[0\] is a tuple, not a SystemResult"),
        ([SystemResult("A", 1.0, None, None, None)], 5, ValueError, "between 0 and 1"),
        ([SystemResult("A", 1.0, None, None, None)], "0.05", TypeError, "between 0 and 1"),
    ],
)
def test_significance_table_bad_input(rows, alpha, error, message):
    with pytest.raises(error, match=message):
        significance_table(rows, alpha)


def test_confidence_interval_shows_a_table():
    ci = bootstrap_ci(data.systems()["A"], data.references(), n_samples=100, seed=5)
    html = ci._repr_html_()
    assert (
        f"{ci.low:.2f} to {ci.high:.2f}" in html and f'<td class="gram">{ci.score:.2f}</td>' in html
    )  # one record: data, no row header
