"""compare_tools / compare_tools_corpus: each tool's number is its own, run directly here as the oracle,
bleu_teach's equals it on that tool's terms, and the reasons name what really differs."""

from __future__ import annotations

import math
import warnings

import pytest
import sacrebleu
from hypothesis import example, given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import SmoothingFunction as NltkSmoothing
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from nltk.translate.bleu_score import modified_precision as nltk_modified_precision
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu
from sacrebleu.metrics import BLEU

from bleu_teach.lessons.tool_comparison import compare_tools, compare_tools_corpus
from bleu_teach.lessons.tool_results import ToolComparison
from bleu_teach.views.document import Code, Notes, Paragraph, Score
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.formatting import format_number
from tests.conftest import examples
from tests.view_checks import check_every_view

CAT = "the cat is on the mat".split()
THERE = "there is a cat on the mat".split()
THANKS = ["thank", "you", "!"]
CORPUS_REFS = [[CAT], ["there is a dog in the garden".split()], ["it rained all day".split()]]
CORPUS_HYPS = [CAT, "a dog is in the garden".split(), ["rain"]]


def nltk_quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


def smoother(name):
    return None if name is None else getattr(NltkSmoothing(), name)


def sacre_sentence(hyp, refs, **options):
    """sacreBLEU's own sentence_bleu (BLEU-4), on the tokens joined by spaces."""
    return sacrebleu.sentence_bleu(" ".join(hyp), [" ".join(r) for r in refs], tokenize="none", **options)


def test_agreeing_pair_each_number_is_the_tools_own():
    hyp = "there is a cat sitting on the mat".split()
    result = compare_tools([CAT, THERE], hyp)
    assert isinstance(result, ToolComparison)
    assert result.nltk == nltk_quiet(nltk_sentence_bleu, [CAT, THERE], hyp) == 0.5
    assert result.sacrebleu_run.score == sacre_sentence(hyp, [CAT, THERE]).score
    assert result.bleu_teach == result.nltk and result.nltk_run.bleu_teach_equal
    assert abs(result.sacrebleu_run.bleu_teach_score - result.sacrebleu_run.score) <= 1e-9
    assert result.agree and result.reasons[0].startswith("Every p_n and BP are the same")
    text, html = repr(result), result._repr_html_()
    assert "They agree" in text and "They agree" in html
    assert repr(result.nltk) in text and repr(result.sacrebleu_run.score) in html
    assert "(== NLTK)" in text and "within 1e-9 of sacreBLEU" in html


def test_a_zero_precision_nltk_tiny_sacrebleu_exp_smoothed():
    hyp = "the cat sat on a mat".split()
    result = compare_tools([CAT], hyp)
    assert result.nltk == nltk_quiet(nltk_sentence_bleu, [CAT], hyp)
    assert f"{result.nltk:.3g}" == "9.01e-155"
    sacre = sacre_sentence(hyp, [CAT])
    assert result.sacrebleu_run.score == sacre.score and f"{sacre.score:.2f}" == "19.30"
    # sacreBLEU's exp: p_3 = 1/(2 * 4), p_4 = 1/(4 * 3), on its percent scale
    assert [o.used for o in result.sacrebleu_run.orders] == pytest.approx(sacre.precisions)
    assert sacre.precisions[2:] == pytest.approx([100 / 8, 100 / 12])
    assert not result.agree
    assert result.reasons == (result.reasons[0],) and result.reasons[0].startswith("No match for n = 3, 4")
    assert "They differ" in repr(result)


def test_nltk_method3_is_sacrebleu_exp_when_no_hypothesis_is_short():
    hyp = "the cat sat on a mat".split()
    result = compare_tools([CAT], hyp, smoothing="method3")
    oracle = nltk_sentence_bleu([CAT], hyp, smoothing_function=NltkSmoothing().method3)
    assert result.nltk == oracle
    assert math.isclose(oracle, sacre_sentence(hyp, [CAT]).score / 100, rel_tol=1e-12)
    assert result.agree and "method 3" in result.reasons[0]


def test_corpus_with_a_one_word_hypothesis():
    result = compare_tools_corpus(CORPUS_REFS, CORPUS_HYPS, smoothing="method1")
    assert result.nltk == nltk_corpus_bleu(CORPUS_REFS, CORPUS_HYPS, smoothing_function=NltkSmoothing().method1)
    streams = [[" ".join(refs[0]) for refs in CORPUS_REFS]]
    sacre = BLEU(tokenize="none").corpus_score([" ".join(h) for h in CORPUS_HYPS], streams)
    assert result.sacrebleu_run.score == sacre.score
    assert (round(result.nltk, 4), round(sacre.score, 2)) == (0.4648, 50.95)
    # NLTK's pooled totals count 'rain' as 0/1 for n = 2, 3, 4; sacreBLEU's do not
    nltk_totals = [
        sum(nltk_modified_precision(r, h, n).denominator for r, h in zip(CORPUS_REFS, CORPUS_HYPS)) for n in range(1, 5)
    ]
    assert [o.total for o in result.nltk_run.orders] == nltk_totals == [13, 11, 9, 7]
    assert [o.total for o in result.sacrebleu_run.orders] == sacre.totals == [13, 10, 8, 6]
    assert [o.matches for o in result.sacrebleu_run.orders] == sacre.counts
    assert not result.agree
    assert len(result.reasons) == 1 and "p_n for n = 2, 3, 4" in result.reasons[0]
    assert "1 hypothesis of 1 token" in result.reasons[0]


def test_thank_you_three_ways():
    default = compare_tools([THANKS], THANKS)
    assert default.nltk == nltk_quiet(nltk_sentence_bleu, [THANKS], THANKS) < 1e-70
    assert default.sacrebleu_run.score == sacrebleu.sentence_bleu("thank you !", ["thank you !"]).score
    assert round(default.sacrebleu_run.score, 2) == 100.0 and not default.agree
    assert any("effective order" in r for r in default.reasons) and any("0/1" in r for r in default.reasons)
    reweighed = compare_tools([THANKS], THANKS, auto_reweigh=True)
    assert reweighed.nltk == nltk_quiet(nltk_sentence_bleu, [THANKS], THANKS, auto_reweigh=True) == 1.0
    assert reweighed.agree and "auto_reweigh" in reweighed.reasons[0]
    off = compare_tools([THANKS], THANKS, effective_order=False)
    assert off.sacrebleu_run.score == BLEU(tokenize="none").corpus_score(["thank you !"], [["thank you !"]]).score == 0
    assert any("eff:no" in r for r in off.reasons)
    method4 = compare_tools([THANKS], THANKS, smoothing="method4")
    assert method4.nltk == nltk_sentence_bleu([THANKS], THANKS, smoothing_function=NltkSmoothing().method4)


def test_smoothing_that_changes_non_zero_precisions_is_named():
    hyp = ["the", "cat", "sat"]
    result = compare_tools([CAT, THERE], hyp, smoothing="method5")
    assert result.nltk == nltk_sentence_bleu([CAT, THERE], hyp, smoothing_function=NltkSmoothing().method5)
    assert any(r.startswith("NLTK's method5 also changes p_n for n = 1, 2") for r in result.reasons)
    add_k = compare_tools([CAT, THERE], hyp, smoothing="method2", smooth_method="add-k")
    sacre = sacre_sentence(hyp, [CAT, THERE], smooth_method="add-k")
    assert add_k.sacrebleu_run.score == sacre.score
    assert any("add-k adds 1" in r for r in add_k.reasons)


def test_other_orders_and_settings_against_the_oracles():
    hyp = "the cat sat on the mat".split()
    result = compare_tools([CAT, THERE], hyp, max_n=2, smooth_method="floor", effective_order=False)
    assert result.nltk == nltk_sentence_bleu([CAT, THERE], hyp, (0.5, 0.5))
    sacre = BLEU(tokenize="none", smooth_method="floor", max_ngram_order=2).corpus_score(
        [" ".join(hyp)], [[" ".join(CAT)], [" ".join(THERE)]]
    )
    assert result.sacrebleu_run.score == sacre.score and result.agree
    assert "max_ngram_order=2" in result.sacrebleu_run.call and "weights=(1/2,) * 2" in result.nltk_run.call


def test_no_unigram_match_both_zero():
    result = compare_tools([CAT], ["dog"])
    assert result.nltk == 0 and result.sacrebleu_run.score == 0 and result.agree
    assert result.reasons[0].startswith("No unigram")


def test_tokens_sacrebleu_cannot_read_the_same_way_are_refused():
    with pytest.raises(ValueError, match="white space"):
        compare_tools([CAT], ["the cat", "sat"])
    with pytest.raises(TypeError, match="string tokens"):
        compare_tools([CAT], ["the", 7])
    with pytest.raises(ValueError, match="smoothing must be"):
        compare_tools([CAT], CAT, smoothing="exp")
    with pytest.raises(ValueError, match="smooth_method must be"):
        compare_tools([CAT], CAT, smooth_method="method3")


WORDS = st.sampled_from(["the", "cat", "a", "on", "mat", "is", "é", "."])
SENTENCE = st.lists(WORDS, min_size=1, max_size=9)
NLTK_METHODS = st.sampled_from([None, "method1", "method2", "method3", "method4", "method5", "method7"])
SACRE_METHODS = st.sampled_from(["exp", "none", "floor", "add-k"])


@settings(max_examples=examples(150), deadline=None)
@given(
    st.lists(st.tuples(st.lists(SENTENCE, min_size=1, max_size=2), SENTENCE), min_size=1, max_size=3),
    NLTK_METHODS,
    SACRE_METHODS,
    st.booleans(),
    st.integers(1, 4),
)
@example(pairs=[([["the"]], ["the"])], method="method4", sacre_method="add-k", effective=False, max_n=2)
def test_random_corpora_against_both_oracles(parity_counter, pairs, method, sacre_method, effective, max_n):
    parity_counter["compare_tools"] += 1
    refs = [p[0] for p in pairs]
    hyps = [p[1] for p in pairs]
    weights = (1 / max_n,) * max_n
    result = compare_tools_corpus(
        refs, hyps, max_n, smoothing=method, smooth_method=sacre_method, effective_order=effective
    )
    assert result.nltk == nltk_quiet(nltk_corpus_bleu, refs, hyps, weights, smoother(method))
    width = max(len(r) for r in refs)
    streams = [[" ".join(r[k]) if k < len(r) else None for r in refs] for k in range(width)]
    sacre = BLEU(
        tokenize="none", smooth_method=sacre_method, max_ngram_order=max_n, effective_order=effective
    ).corpus_score([" ".join(h) for h in hyps], streams)
    assert result.sacrebleu_run.score == sacre.score
    assert result.nltk_run.bleu_teach_equal and result.sacrebleu_run.bleu_teach_equal
    assert result.agree == math.isclose(result.nltk, sacre.score / 100, rel_tol=1e-9, abs_tol=0.0)
    assert result.reasons
    if result.agree:  # why, or that the differences happened to give the same score
        assert result.reasons[0].startswith(("Every p_n", "No unigram", "The two scores are the same here although"))
        if result.reasons[0].startswith("The two scores are the same here although"):
            assert [o.used for o in result.nltk_run.orders] != [
                None if o.used is None else o.used / 100 for o in result.sacrebleu_run.orders
            ]
    else:
        assert not result.reasons[0].startswith("Every p_n")
    # The agreement rule the lesson teaches: no short hypothesis, no zero, no smoothing of non-zero precisions.
    matches = [sum(nltk_modified_precision(r, h, n).numerator for r, h in pairs) for n in range(1, max_n + 1)]
    if (
        min(len(h) for h in hyps) >= max_n
        and all(matches)
        and method in (None, "method1", "method3", "method4")
        and sacre_method != "add-k"
    ):
        assert result.agree


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(SENTENCE, min_size=1, max_size=3), SENTENCE, NLTK_METHODS, st.booleans())
def test_random_sentences_against_sacrebleu_sentence_bleu(parity_counter, refs, hyp, method, reweigh):
    parity_counter["compare_tools"] += 1
    result = compare_tools(refs, hyp, smoothing=method, auto_reweigh=reweigh)
    assert result.nltk == nltk_quiet(
        nltk_sentence_bleu, refs, hyp, smoothing_function=smoother(method), auto_reweigh=reweigh
    )
    assert result.sacrebleu_run.score == sacre_sentence(hyp, refs).score
    if reweigh and method is None and len(hyp) < 4 and len(hyp) >= 1:
        # auto_reweigh and effective order average over the same orders
        nltk_p = [nltk_modified_precision(refs, hyp, n) for n in range(1, len(hyp) + 1)]
        if all(p.numerator for p in nltk_p):
            assert result.agree


# --- every view of a comparison: one document ---


@pytest.mark.parametrize(
    "make",
    [
        lambda: compare_tools([CAT, THERE], "there is a cat sitting on the mat".split()),
        lambda: compare_tools([CAT], "the cat sat on a mat".split()),
        lambda: compare_tools_corpus(CORPUS_REFS, CORPUS_HYPS, smoothing="method1"),
    ],
    ids=["agree", "differ", "corpus"],
)
def test_tool_comparison_every_view(make, tmp_path):
    result = make()
    check_every_view(result, tmp_path)
    blocks = result.to_document().blocks
    table = next(b for b in blocks if isinstance(b, TableBlock))
    assert table.header == ("", "NLTK (0-1)", "sacreBLEU (0-100)") and table.label_column
    assert [list(r) for r in table.rows] == result.rows
    assert [r[0] for r in result.rows[:2]] == ["called as", "p_1 = m_1/t_1"]
    assert result.rows[-3:-1] == [
        ["score", format_number(result.nltk), f"{result.sacrebleu_run.score:.2f}"],
        ["exact score", repr(result.nltk_run.score), repr(result.sacrebleu_run.score)],
    ]
    assert [b.text for b in blocks if isinstance(b, Score)] == [(result.verdict,)]
    notes = next(b for b in blocks if isinstance(b, Notes))
    assert notes.title == ("Why they agree:" if result.agree else "Why:") and len(notes.items) == len(result.reasons)
    signature = [p for p in blocks if isinstance(p, Paragraph) and Code(result.sacrebleu_run.signature) in p.content]
    assert signature and f"<code>{result.sacrebleu_run.signature}</code>" in result.to_html()
    text = repr(result)
    assert text.startswith(result.title) and f"sacreBLEU's signature: {result.sacrebleu_run.signature}" in text
    assert all(f"  - {reason}" in text for reason in result.reasons)
