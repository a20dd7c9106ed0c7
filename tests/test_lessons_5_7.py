"""The package code behind lessons 05-07: side-by-side comparison and its widget, the
limitation tables, reporting tables, bootstrap interval and paired test (sacreBLEU as oracle)."""

from __future__ import annotations

import os
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothing
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

import bleu_teach as bt
from bleu_teach.bleu.explain import compare_hypotheses
from bleu_teach.inputs.corpus_layout import to_sacrebleu_references
from bleu_teach.lessons import data
from bleu_teach.lessons.confidence_intervals import bootstrap_ci
from bleu_teach.lessons.limitations import (
    CASING_SETTINGS,
    TOKENIZER_SETTINGS,
    explain_hypotheses,
    order_table,
    settings_table,
)
from bleu_teach.lessons.settings import settings_scores
from bleu_teach.lessons.significance import paired_test, significance_table
from bleu_teach.ui.widgets import SideBySideExplorer
from tests.conftest import examples

WORDS = st.sampled_from(["the", "cat", "dog", "is", "chasing", "by", "a"])
sentence = st.lists(WORDS, min_size=1, max_size=9)


# --- side by side -------------------------------------------------------------------------


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(sentence, min_size=1, max_size=3), sentence, sentence)
def test_comparison_deciding_ngrams_account_for_the_count_difference(refs, a, b):
    duel = compare_hypotheses(refs, a, b, weights=(0.5, 0.5), smoothing="method1")
    smooth = NltkSmoothing().method1
    assert duel.a.score == nltk_sentence_bleu(refs, a, (0.5, 0.5), smoothing_function=smooth)
    assert duel.b.score == nltk_sentence_bleu(refs, b, (0.5, 0.5), smoothing_function=smooth)
    for n in (1, 2):
        more_a, more_b = duel.deciding(n)
        assert len(more_a) - len(more_b) == duel.a.orders[n - 1].clipped - duel.b.orders[n - 1].clipped
        assert not set(more_a) & set(more_b)
    expected = None if duel.a.score == duel.b.score else ("A" if duel.a.score > duel.b.score else "B")
    assert duel.winner == expected


def test_voice_swap_example_prefers_the_wrong_meaning():
    duel = compare_hypotheses(
        [bt.tokenize("the dog is chasing the cat")],
        bt.tokenize("the cat is chasing the dog"),
        bt.tokenize("the cat is chased by the dog"),
        smoothing="method1",
    )
    assert duel.winner == "A"
    assert duel.deciding(3) == ((("is", "chasing", "the"),), ())
    assert "A scores higher" in duel.to_text()


def test_comparison_rejects_bad_labels_and_orders():
    with pytest.raises(ValueError, match="two different strings"):
        compare_hypotheses([["a"]], ["a"], ["a"], labels=("x", "x"))
    duel = compare_hypotheses([["a", "b"]], ["a"], ["b"], weights=(1.0,))
    with pytest.raises(ValueError, match="between 1 and 1"):
        duel.deciding(2)


def test_side_by_side_widget_follows_every_control():
    duel = SideBySideExplorer("the cat sat", "a cat sat", ["the cat sat down"], max_n=2, smoothing="method0")
    refs = [["the", "cat", "sat", "down"]]

    def expect(a, b, refs, weights, smoothing):
        c = duel.comparison
        assert c is not None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            assert c.a.score == bt.sentence_bleu(refs, a, weights, bt.SmoothingFunction().__getattribute__(smoothing))
            assert c.b.score == bt.sentence_bleu(refs, b, weights, bt.SmoothingFunction().__getattribute__(smoothing))

    expect(["the", "cat", "sat"], ["a", "cat", "sat"], refs, (0.5, 0.5), "method0")
    duel.hypothesis_b.value = "The cat sat"
    duel.settings.lowercase.value = True
    expect(["the", "cat", "sat"], ["the", "cat", "sat"], refs, (0.5, 0.5), "method0")
    assert "score the same" in duel.output.value
    duel.settings.max_n.value = 4
    duel.settings.smoothing.value = "method2"
    expect(["the", "cat", "sat"], ["the", "cat", "sat"], refs, (0.25,) * 4, "method2")
    duel.references.add_button.click()
    duel.references.boxes[1].value = "a cat sat"
    duel.settings.lowercase.value = False
    refs2 = refs + [["a", "cat", "sat"]]
    expect(["the", "cat", "sat"], ["The", "cat", "sat"], refs2, (0.25,) * 4, "method2")
    duel.references.remove_button.click()
    expect(["the", "cat", "sat"], ["The", "cat", "sat"], refs, (0.25,) * 4, "method2")
    duel.settings.tokenizer.value = "13a"
    duel.hypothesis_a.value = "the cat sat."
    expect(["the", "cat", "sat", "."], ["The", "cat", "sat"], refs, (0.25,) * 4, "method2")


def test_side_by_side_widget_bad_input_and_escaping():
    duel = SideBySideExplorer("<script>alert(1)</script>", "<img src=x onerror=alert(2)>", ["<b>x</b>"])
    html = duel.output.value
    assert "<script>" not in html and "<img" not in html and "<b>x" not in html
    assert "&lt;script&gt;" in html
    duel.hypothesis_b.value = "  "
    assert "hypothesis B is empty" in duel.output.value and duel.comparison is None
    duel.settings.weights.value = "0.5"
    duel.hypothesis_b.value = "ok"
    assert "Give 4 weights" in duel.output.value
    duel.settings.weights.value = ""
    assert duel.comparison is not None


# --- limitation tables ----------------------------------------------------------------------


def test_settings_table_scores_equal_explain_on_the_same_tokens():
    refs, hyp = ["It isn't the cat's toy."], "It is not the cat's toy."
    table = settings_table(hyp, refs, TOKENIZER_SETTINGS)
    for row, options in zip(table.rows, TOKENIZER_SETTINGS.values()):
        tokens_h = bt.tokenize(hyp, options["tokenizer"])
        tokens_r = bt.tokenize(refs[0], options["tokenizer"])
        score = nltk_sentence_bleu([tokens_r], tokens_h, smoothing_function=NltkSmoothing().method1)
        assert row[-1] == f"{score:.4f}"
        assert row[1] == " ".join(f"[{t}]" for t in tokens_h)
    casing = settings_table("the cat.", ["The cat."], CASING_SETTINGS, max_n=1)
    assert [row[-1] for row in casing.rows] == ["0.5000", "1.0000"]


def test_order_table_equals_nltk():
    table = order_table({"rev": "mat the on sat cat the"}, ["the cat sat on the mat"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for k, cell in enumerate(table.rows[0][1:], start=1):
            expected = nltk_sentence_bleu(
                [["the", "cat", "sat", "on", "the", "mat"]], "mat the on sat cat the".split(), (1 / k,) * k
            )
            assert float(cell) == pytest.approx(expected, rel=1e-3)


def test_limitation_helpers_reject_bad_input():
    with pytest.raises(TypeError, match="non-empty list of strings"):
        explain_hypotheses({"a": "the cat"}, "the cat")
    with pytest.raises(TypeError, match="dict"):
        explain_hypotheses(["the cat"], ["the cat"])
    with pytest.raises(ValueError, match="no tokens"):
        explain_hypotheses({"a": "   "}, ["the cat"])
    with pytest.raises(TypeError, match=r"hypothesis must be one string \(raw text\), given first"):
        settings_table(["the", "cat"], ["the cat"])


# --- reporting -------------------------------------------------------------------------------


def test_built_in_corpus_is_complete_and_distinct():
    systems = data.systems()
    refs = data.references(two=True)
    assert list(systems) == ["A", "B", "C"]
    assert all(len(h) == len(refs) == 16 for h in systems.values())
    assert all(isinstance(s, str) and s for group in refs for s in group)
    assert sum(a != c for a, c in zip(systems["A"], systems["C"])) == 3


def test_settings_scores_equal_sacrebleu_run_directly():
    systems, refs = data.systems(), data.references()
    table = settings_scores(systems["B"], refs, with_whitespace_corpus_bleu=False)
    streams = to_sacrebleu_references(refs)
    from bleu_teach.lessons.settings import REPORTING_SETTINGS

    for row, options in zip(table.rows, REPORTING_SETTINGS.values()):
        metric = BLEU(**options)
        assert row[1] == f"{metric.corpus_score(systems['B'], streams).score:.2f}"
        assert row[2] == str(metric.get_signature())


def test_bootstrap_ci_equals_sacrebleu_and_is_repeatable():
    systems, refs = data.systems(), data.references()
    before = os.environ.get("SACREBLEU_SEED")
    ci = bootstrap_ci(systems["A"], refs, n_samples=200, seed=7)
    assert os.environ.get("SACREBLEU_SEED") == before  # the seed is set for the call only
    os.environ["SACREBLEU_SEED"] = "7"
    try:
        direct = BLEU().corpus_score(systems["A"], to_sacrebleu_references(refs), n_bootstrap=200)
    finally:
        if before is None:
            del os.environ["SACREBLEU_SEED"]
        else:
            os.environ["SACREBLEU_SEED"] = before
    assert (ci.score, ci.mean, ci.half_width) == (direct.score, direct._mean, direct._ci)
    assert ci.low < ci.score < ci.high
    assert bootstrap_ci(systems["A"], refs, n_samples=200, seed=7) == ci
    assert bootstrap_ci(systems["A"], refs, n_samples=200, seed=8).mean != ci.mean
    assert "seed:7" in ci.text and "bs:200" in ci.text


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_paired_test_equals_sacrebleu_and_finds_the_planted_difference(test_type):
    systems, refs = data.systems(), data.references()
    rows, signature = paired_test(systems, refs, test=test_type, n_samples=500)
    os.environ["SACREBLEU_SEED"] = "12345"
    try:
        tester = PairedTest(
            list(systems.items()),
            {"BLEU": BLEU()},
            to_sacrebleu_references(refs),
            test_type=test_type,
            n_samples=500,
            n_ar_confidence=500 if test_type == "ar" else -1,
        )
        _, scores = tester()
    finally:
        del os.environ["SACREBLEU_SEED"]
    assert [(r.score, r.p_value) for r in rows] == [(s.score, s.p_value) for s in scores["BLEU"]]
    assert rows[0].p_value is None and rows[0].significant() is None
    assert rows[1].significant() is True  # B was written to be worse
    if test_type == "bs":
        assert rows[2].significant() is False  # C differs from A in three sentences
    assert f"{test_type}:500" in signature
    table = significance_table(rows)
    assert [r[0] for r in table.rows] == ["A", "B", "C"] and table.rows[0][-1] == "baseline"


def test_identical_output_is_flagged_despite_sacrebleus_smallest_p_value():
    a, refs = data.systems()["A"], data.references()
    rows, _ = paired_test({"A": a, "copy": list(a)}, refs, n_samples=100)
    assert rows[1].score == rows[0].score
    assert rows[1].p_value == 1 / 101  # sacreBLEU's rule: zero difference is never "chance"
    assert rows[1].identical_to_baseline and rows[1].significant() is False
    assert "same output as the baseline" in significance_table(rows).rows[1][-1]


def test_significance_bad_input():
    a, refs = data.systems()["A"], data.references()
    with pytest.raises(ValueError, match="sacreBLEU treats 0"):
        bootstrap_ci(a, refs, seed=0)
    with pytest.raises(TypeError, match="positive whole number"):
        bootstrap_ci(a, refs, seed="1")
    with pytest.raises(ValueError, match="at least 40"):
        bootstrap_ci(a, refs, n_samples=10)
    with pytest.raises(ValueError, match="sacreBLEU's orientation"):
        bootstrap_ci(a, to_sacrebleu_references(refs))
    with pytest.raises(TypeError, match="at least two"):
        paired_test({"A": a}, refs)
    with pytest.raises(ValueError, match="'bs'"):
        paired_test({"A": a, "B": a}, refs, test="t")
