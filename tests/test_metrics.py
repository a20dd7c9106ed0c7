"""The metric registry: each metric's settings are its explainers' keywords, its direction is what the lessons and
the plots read, TER is scored by sacreBLEU through it, and one limit bounds the orders everywhere."""

from __future__ import annotations

import inspect
from dataclasses import fields

import pytest

import bleu_teach as bt
from bleu_teach.bleu.explain import explain_corpus_strings, explain_strings
from bleu_teach.bleu.smoothing import get_smoothing
from bleu_teach.inputs.validation import MAX_ORDERS
from bleu_teach.lessons import agreement
from bleu_teach.lessons.limitations import chunk_permutation, explain_hypotheses, order_table, settings_table
from bleu_teach.lessons.tool_comparison import compare_tools
from bleu_teach.metrics import METRICS, explained_metrics

EXPLAINED = [m.name for m in explained_metrics()]


@pytest.mark.parametrize("name", EXPLAINED)
def test_the_settings_are_the_explainers_keywords_with_their_defaults(name: str):
    metric = METRICS[name]
    settings = {f.name: f.default for f in fields(metric.settings)}
    assert [o.name for o in metric.options] == list(settings)
    assert all(o.default == settings[o.name] and o.kind is type(settings[o.name]) for o in metric.options)
    for explainer in (metric.explain_sentence, metric.explain_corpus):
        parameters = inspect.signature(explainer).parameters
        for setting, default in settings.items():
            if parameters.get(setting) is not None and parameters[setting].default is not inspect.Parameter.empty:
                given = parameters[setting].default
                if setting == "smoothing":  # None is the package's name for no smoothing, method0
                    given = get_smoothing(given).__name__
                assert given == default, (name, setting)
            else:  # a registry lambda that passes **options on: the explainer behind it takes them
                assert any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()), (name, setting)


def test_ter_is_registered_scored_by_sacrebleu_and_lower_is_better():
    from sacrebleu.metrics import TER

    ter = METRICS["TER"]
    assert (ter.direction, ter.lower_is_better, ter.explained, ter.scored_by) == ("lower", True, False, "sacreBLEU")
    hyps = ["the cat sat on the mat", "a dog barked"]
    refs = [["the cat is on the mat", "there is a cat on the mat"], ["the dog barked", "a dog was barking"]]
    expected = TER().corpus_score(hyps, [[r[0] for r in refs], [r[1] for r in refs]]).score
    assert ter.corpus_score(hyps, refs) == expected
    assert ter.sentence_score(hyps[0], refs[0]) == TER().sentence_score(hyps[0], refs[0]).score
    # Segments with different numbers of references: each segment's statistics are its own, as in sacreBLEU's
    # sentence scores (whose corpus_score needs equal reference streams).
    ragged = [refs[0], refs[1][:1]]
    parts = [TER().sentence_score(h, r) for h, r in zip(hyps, ragged)]
    assert ter.corpus_score(hyps, ragged) == pytest.approx(
        100 * sum(x.num_edits for x in parts) / sum(x.ref_length for x in parts), abs=1e-9
    )


def test_the_agreement_lesson_and_the_plots_read_the_direction_from_the_registry():
    assert agreement.METRICS == tuple(METRICS)
    assert agreement.LOWER_IS_BETTER == {name for name, m in METRICS.items() if m.direction == "lower"} == {"TER"}
    assert agreement.SEGMENT_METRICS == tuple(EXPLAINED) == ("BLEU", "chrF")
    from bleu_teach.ui import plots

    table = agreement.SystemTable("zh-en", "ref-B", ("ref-B",), ("BLEU", "TER"), (), 1)
    assert plots._metric_axis(table, "TER").endswith("(0-100, lower is better)")
    assert plots._metric_axis(table, "BLEU").endswith("(0-100)")


def test_only_explained_metrics_have_commands():
    from bleu_teach.ui.cli import main

    assert [m.sentence_command for m in explained_metrics()] == ["explain", "chrf"]
    assert main(["ter", "a", "--ref", "a"]) == 2  # "invalid choice: 'ter'", with the commands there are


@pytest.mark.parametrize(
    "call",
    [
        lambda n: explain_strings("a b", ["a b"], max_n=n),
        lambda n: bt.corpus_score(["a b"], [["a b"]], max_ngram_order=n),
        lambda n: explain_hypotheses({"x": "a b"}, ["a b"], max_n=n),
        lambda n: compare_tools([["a", "b"]], ["a", "b"], max_n=n),
        lambda n: explain_corpus_strings(["a b"], [["a b"]], max_n=n),
        lambda n: METRICS["BLEU"].explain_sentence("a b", ["a b"], max_n=n),
        lambda n: METRICS["BLEU"].explain_corpus(["a b"], [["a b"]], max_n=n),
        lambda n: METRICS["chrF"].explain_sentence("a b", ["a b"], char_order=n),
        lambda n: METRICS["chrF"].explain_corpus(["a b"], [["a b"]], char_order=n),
        lambda n: settings_table("a b", ["a b"], {"whitespace": {"tokenizer": "whitespace"}}, max_n=n),
        lambda n: chunk_permutation("a b", ["a b"], max_order=n),
    ],
)
def test_one_limit_on_orders_for_every_function_that_takes_them(call):  # noqa: ANN001
    call(MAX_ORDERS)  # the limit itself answers
    with pytest.raises(ValueError, match=f"must be at most {MAX_ORDERS:,}"):
        call(MAX_ORDERS + 1)
    with pytest.raises(ValueError, match="a number of 401 digits"):
        call(10**400)  # was an OverflowError, or minutes of counting
    with pytest.raises(ValueError, match="a number of 5000 digits"):
        call(10**4999)  # too many digits for str()


def test_the_order_table_limits_its_columns_and_says_a_huge_order_briefly():
    with pytest.raises(
        ValueError,
        match=r"max_order must be from 1 to 12 \(one column per order\); got a number of 401 "
        r"digits\.$",
    ):
        order_table({"x": "a b"}, ["a b"], max_order=10**400)


# --- the metric protocol: segment statistics, their sums, a score; a sentence is a corpus of one ---


def _wmt21_sample(count: int) -> tuple[list[str], list[list[str]]]:
    from bleu_teach.lessons.data import wmt21_ted

    data = wmt21_ted("zh-en")
    system = sorted(data.systems)[0]
    segments = range(0, 3 * count, 3)
    return (
        [data.systems[system][i] for i in segments],
        [[data.references["ref-A"][i], data.references["ref-B"][i]] for i in segments],
    )


@pytest.mark.parametrize("name", list(METRICS))
def test_any_resample_of_the_segment_statistics_scores_as_sacrebleu_scores_those_segments(name: str):
    """The public oracle for the statistics: whatever segments are drawn (a bootstrap sample, with repeats), the
    score of their summed rows is sacreBLEU's corpus score of those segments, and each row alone is sacreBLEU's
    sentence score: counts that were wrong anywhere would move some of these scores."""
    import random

    metric = METRICS[name]
    hyps, refs = _wmt21_sample(24)
    rows = metric.segment_statistics(hyps, refs)
    assert len(rows) == len(hyps) and len({len(row) for row in rows}) == 1
    draw = random.Random(20261126)
    for _ in range(5):
        picked = [draw.randrange(len(hyps)) for _ in range(len(hyps))]
        expected = (
            metric.oracle()
            .corpus_score([hyps[i] for i in picked], [[refs[i][k] for i in picked] for k in range(2)])
            .score
        )
        assert metric.score_statistics([rows[i] for i in picked]) == pytest.approx(expected, abs=1e-9)
    sentence = metric.oracle(sentence=True)
    for i in range(0, len(hyps), 5):
        assert metric.score_statistics([rows[i]], sentence=True) == pytest.approx(
            sentence.sentence_score(hyps[i], refs[i]).score, abs=1e-9
        )
        assert metric.sentence_score(hyps[i], refs[i]) == metric.score_statistics([rows[i]], sentence=True)


def test_the_bleu_statistics_are_sacrebleus_public_counts():
    from sacrebleu.metrics import BLEU

    hyps, refs = _wmt21_sample(10)
    for hyp, ref, row in zip(hyps, refs, METRICS["BLEU"].segment_statistics(hyps, refs)):
        score = BLEU().corpus_score([hyp], [[r] for r in ref])  # one segment: its counts are the row
        assert row == (score.sys_len, score.ref_len, *score.counts, *score.totals)


def test_the_protocol_refuses_what_it_cannot_score():
    with pytest.raises(ValueError, match="rows is empty"):
        METRICS["BLEU"].score_statistics([])
    with pytest.raises(ValueError):
        METRICS["chrF"].segment_statistics(["a", "b"], [["a"]])


def test_each_registered_oracle_is_sacrebleus_own_metric_with_its_sentence_settings():
    """The registry names each metric's oracle; the oracle itself is sacreBLEU's public class, never ours."""
    from sacrebleu.metrics import BLEU, CHRF, TER

    assert {name: type(m.oracle()) for name, m in METRICS.items()} == {"BLEU": BLEU, "chrF": CHRF, "TER": TER}
    assert METRICS["BLEU"].oracle(sentence=True).effective_order is True  # as sacrebleu.sentence_bleu sets it
    assert METRICS["BLEU"].oracle().effective_order is False
