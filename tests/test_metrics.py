"""The metric registry: each metric's settings are its explainers' keywords, its direction is what the lessons and
the plots read, TER is scored by sacreBLEU through it, and one limit bounds the orders everywhere."""

from __future__ import annotations

import inspect
from dataclasses import fields

import pytest

import bleu_teach as bt
from bleu_teach.bleu.explain import explain_strings
from bleu_teach.bleu.smoothing import get_smoothing
from bleu_teach.inputs.validation import MAX_ORDERS
from bleu_teach.lessons import agreement
from bleu_teach.lessons.limitations import explain_hypotheses
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
    with pytest.raises(ValueError, match="the same number of references for every hypothesis"):
        ter.corpus_score(hyps, [refs[0], refs[1][:1]])


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


@pytest.mark.parametrize("call", [
    lambda n: explain_strings("a b", ["a b"], max_n=n),
    lambda n: bt.corpus_score(["a b"], [["a b"]], max_ngram_order=n),
    lambda n: explain_hypotheses({"x": "a b"}, ["a b"], max_n=n),
    lambda n: compare_tools([["a", "b"]], ["a", "b"], max_n=n),
])
def test_one_limit_on_orders_for_every_function_that_takes_them(call):  # noqa: ANN001
    call(MAX_ORDERS)  # the limit itself answers
    with pytest.raises(ValueError, match=f"must be at most {MAX_ORDERS:,}"):
        call(MAX_ORDERS + 1)
    with pytest.raises(ValueError, match="digits"):
        call(10**400)  # was an OverflowError, or minutes of counting
