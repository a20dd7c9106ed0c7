"""corpus_score equals sacreBLEU's BLEU(...).corpus_score, with sacreBLEU as the oracle."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU

import bleu_teach as bt
from bleu_teach.bleu.sacrebleu_api import SacreScore
from bleu_teach.views.document import Code, Paragraph, Score
from bleu_teach.views.document import Table as TableBlock
from tests.conftest import examples
from tests.view_checks import check_every_view

WORDS = [
    "The",
    "the",
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
]

sentence = st.lists(st.sampled_from(WORDS), min_size=0, max_size=12).map(" ".join)
segment = st.tuples(sentence, st.lists(sentence, min_size=1, max_size=3))
corpus = st.lists(segment, min_size=1, max_size=6)
options = st.fixed_dictionaries(
    {
        "tokenize": st.sampled_from(["13a", "none", "intl", "char", "zh"]),
        "lowercase": st.booleans(),
        "smooth_method": st.sampled_from(["exp", "none", "floor", "add-k"]),
    }
)
values = st.one_of(st.none(), st.sampled_from([0.1, 0.5, 1, 2]))


def sacre(hyps, refs, smooth_value, **opts):
    metric = BLEU(smooth_value=smooth_value, **opts)
    streams = bt.to_sacrebleu_references(refs)
    return metric, metric.corpus_score(hyps, streams)


@settings(max_examples=examples(1200), deadline=None)
@given(segments=corpus, opts=options, smooth_value=values)
def test_corpus_score_equals_sacrebleu(segments, opts, smooth_value, parity_counter):
    if opts["smooth_method"] in ("exp", "none"):
        smooth_value = None
    hyps = [h for h, _ in segments]
    refs = [r for _, r in segments]
    metric, expected = sacre(hyps, refs, smooth_value, **opts)
    square = len(refs) >= 2 and all(len(r) == len(refs) for r in refs)
    if square:  # N hypotheses with N references each reads both ways: never guessed
        with pytest.raises(ValueError, match="orientation='per_hypothesis'"):
            bt.corpus_score(hyps, refs, smooth_value=smooth_value, **opts)
    got = bt.corpus_score(
        hyps, refs, smooth_value=smooth_value, **opts, orientation="per_hypothesis" if square else None
    )
    assert got.score == pytest.approx(expected.score, abs=1e-9, rel=0)
    assert list(got.counts) == list(expected.counts)
    assert list(got.totals) == list(expected.totals)
    assert got.precisions == pytest.approx(expected.precisions, abs=1e-9, rel=0)
    assert got.bp == pytest.approx(expected.bp, abs=1e-12, rel=0)
    assert (got.sys_len, got.ref_len) == (expected.sys_len, expected.ref_len)
    assert got.signature == str(metric.get_signature())
    parity_counter["sacrebleu_corpus_score"] += 1


def test_wrong_orientation_is_rejected_with_a_hint():
    hyps = ["a b c", "d e f", "g h i"]
    streams = [["a b c", "d e f", "g h i"]]  # sacreBLEU's orientation: one stream
    with pytest.raises(ValueError, match="one list of reference strings per hypothesis"):
        bt.corpus_score(hyps, streams)
    two_streams = [["a", "b", "c"], ["a", "b", "c"]]
    with pytest.raises(ValueError, match="sacreBLEU's orientation"):
        bt.corpus_score(["x", "y", "z"], [two_streams[0], two_streams[1]])


def test_reference_strings_not_in_lists():
    with pytest.raises(TypeError, match=r"references\[0\] is a string"):
        bt.corpus_score(["a b"], ["a b"])


@pytest.mark.parametrize(
    "option, value, valid",
    [
        ("tokenize", "moses", "13a"),
        ("smooth_method", "laplace", "add-k"),
    ],
)
def test_unknown_options_list_the_valid_ones(option, value, valid):
    with pytest.raises(ValueError, match=valid):
        bt.corpus_score(["a b"], [["a b"]], **{option: value})


def test_signature_mentions_variable_references():
    score = bt.corpus_score(["a b c", "d e"], [["a b c", "a c"], ["d e"]])
    assert "nrefs:var" in score.signature


def test_format_reads_like_sacrebleu():
    hyps, refs = ["The cat sat on the mat."], [["The cat sat on the red mat."]]
    expected = BLEU().corpus_score(hyps, bt.to_sacrebleu_references(refs))
    assert bt.corpus_score(hyps, refs).format() == expected.format()


# --- SacreScore's views: str is sacreBLEU's own line, repr and the rest are one document ---


@pytest.mark.parametrize(
    "make",
    [
        lambda: bt.corpus_score(["The cat sat on the mat."], [["The cat sat on the red mat."]]),
        lambda: bt.sentence_score("The cat", ["The cat sat on the mat."]),
        lambda: bt.corpus_score(
            ["The cat sat on a mat.", "A dog"], [["The cat sat on the red mat."], ["A dog ran."]], smooth_method="add-k"
        ),
        lambda: bt.corpus_score(["x y"], [["The cat sat."]], smooth_method="none"),
    ],
    ids=["corpus", "effective-order", "add-k", "no-match"],
)
def test_sacre_score_every_view(make, tmp_path):
    score = make()
    assert isinstance(score, SacreScore)
    check_every_view(score, tmp_path)
    assert str(score) == score.format() and str(score).startswith("BLEU = ")
    assert repr(score) == score.to_text() != str(score)
    blocks = score.to_document().blocks
    (headline,) = [b for b in blocks if isinstance(b, Score)]
    assert headline.value == score.score and headline.text == (f"BLEU = {score.score:.2f}",)
    assert f'data-score="{score.score!r}"' in score.to_html()
    (table,) = [b for b in blocks if isinstance(b, TableBlock)]
    assert table.header == ("n", "counts", "totals", "precisions (%)", "matches", "ngrams", "in the mean")
    for n, row in enumerate(table.rows, start=1):
        assert [float(c) for c in row[1:3]] == [score.counts[n - 1], score.totals[n - 1]]
        assert row[3] == f"{score.precisions[n - 1]:.4f}"
        assert row[4:6] == (str(score.matches[n - 1]), str(score.ngrams[n - 1]))
        assert row[6] == ("yes" if n <= score.orders_used else "no")
    assert any(isinstance(b, Paragraph) and Code(score.signature) in b.content for b in blocks)
    assert f"BP = {score.bp:.4f} (sys_len = {score.sys_len}, ref_len = {score.ref_len})" in repr(score)
    assert score.to_dict()["score"] == score.score and score.to_dict()["signature"] == score.signature
