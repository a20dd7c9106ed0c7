"""Lesson 09's explorer: two metrics against the experts over the WMT21 TED systems, one system left out.

Every number is checked against SciPy (Pearson's r, Kendall's tau-b) and against pairs counted here, on every
language pair, every pair of metrics and every system left out; the shipped scores against a fresh computation.
"""

from __future__ import annotations

import json
from itertools import combinations

import pytest
from scipy.stats import kendalltau, pearsonr

from bleu_teach.lessons.two_metrics import (
    METRICS,
    REFERENCE_USED,
    SystemScores,
    compare_two,
    shipped_scores,
    system_scores,
)

SHIPPED = shipped_scores()
CASES = [(pair, a, b) for pair in SHIPPED for a in METRICS for b in METRICS if a != b]


def _oriented(scores: SystemScores, metric: str, kept: list[int]) -> list[float]:
    return [(-1 if metric == "TER" else 1) * scores.scores[metric][i] for i in kept]


@pytest.mark.parametrize("pair, a, b", CASES)
def test_every_number_equals_scipy_and_pairs_counted_here(pair: str, a: str, b: str):
    scores = SHIPPED[pair]
    for leave_out in range(len(scores.systems) + 1):
        duel = compare_two(scores, a, b, leave_out)
        kept = [i for i in range(len(scores.systems)) if i != leave_out - 1]
        human = [scores.mqm[i] for i in kept]
        assert duel.systems == tuple(scores.systems[i] for i in kept)
        right = {}
        for side, metric in ((duel.a, a), (duel.b, b)):
            values = _oriented(scores, metric, kept)
            assert side.pearson == pytest.approx(pearsonr(values, human).statistic, abs=1e-12)
            assert side.kendall == pytest.approx(kendalltau(values, human).statistic, abs=1e-12)
            right[metric] = {
                (i, j)
                for i, j in combinations(range(len(kept)), 2)
                if (values[i] - values[j]) * (human[i] - human[j]) > 0
            }
            assert side.agree == len(right[metric]) and side.pairs == len(kept) * (len(kept) - 1) // 2
            assert side.accuracy == len(right[metric]) / side.pairs
        assert duel.accuracy_difference == duel.a.accuracy - duel.b.accuracy
        assert len(duel.split) == len(right[a] ^ right[b])  # the pairs exactly one of the two orders right
        for better, worse, who, tied in duel.split:
            i, j = duel.systems.index(better), duel.systems.index(worse)
            other = b if who == a else a
            assert human[i] > human[j] and who in (a, b) and tied in ("", other)
            assert (min(i, j), max(i, j)) in right[who] and (min(i, j), max(i, j)) not in right[other]
            values = _oriented(scores, other, kept)
            assert (tied == other) == (values[i] == values[j])


def test_a_pair_a_metric_ties_is_counted_wrong_and_said_to_be_a_tie():
    ende = compare_two(SHIPPED["en-de"], "TER", "BLEU")  # TER gives Online-W and VolcTrans-AT the same score
    assert ende.a.tied == 1 and ende.a.agree + ende.a.counts.discordant + 1 == ende.pairs
    assert any(tied == "TER" for *_, tied in ende.split) and "(TER ties them)" in ende.to_text()


def test_the_lessons_numbers_and_the_system_left_out():
    duel = compare_two(SHIPPED["zh-en"], "TER", "BLEU")
    assert (duel.a.agree, duel.b.agree, duel.pairs, duel.left_out) == (52, 48, 78, None)  # lesson 09, section 3
    best = compare_two(SHIPPED["zh-en"], "TER", "BLEU", 1)
    assert best.left_out == SHIPPED["zh-en"].systems[0] and best.pairs == 66
    assert max(SHIPPED["zh-en"].mqm) == SHIPPED["zh-en"].mqm[0]  # rank 1 is the experts' best
    assert list(SHIPPED["en-de"].mqm) == sorted(SHIPPED["en-de"].mqm, reverse=True)
    text = best.to_text()
    assert f"without {best.left_out} (the experts' 1st)" in text and "pairs TER and BLEU order differently" in text


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: compare_two(SHIPPED["zh-en"], "COMET", "BLEU"), ValueError, "metric_a must be one of BLEU, chrF, TER"),
        (lambda: compare_two(SHIPPED["zh-en"], "BLEU", None), ValueError, "metric_b must be one of"),
        (lambda: compare_two(SHIPPED["zh-en"], "TER", "BLEU", 14), ValueError, "from 0 .* to 13"),
        (lambda: compare_two(SHIPPED["zh-en"], "TER", "BLEU", -1), ValueError, "from 0"),
        (lambda: compare_two(SHIPPED["zh-en"], "TER", "BLEU", True), ValueError, "whole number"),
        (lambda: compare_two(SHIPPED["zh-en"], "TER", "BLEU", 1.0), ValueError, "whole number"),
        (lambda: compare_two({"zh-en": 1}, "TER", "BLEU"), TypeError, "system_scores"),
        (lambda: system_scores("table"), TypeError, "system_level"),
    ],
)
def test_bad_arguments_are_named(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_the_scores_travel_to_the_page_unchanged():
    for scores in SHIPPED.values():
        assert SystemScores.from_json(scores.to_json()) == scores
        assert SystemScores.from_json(json.dumps(json.loads(scores.to_json()))) == scores


@pytest.mark.slow
@pytest.mark.parametrize("pair", sorted(REFERENCE_USED))
def test_the_shipped_scores_are_what_the_package_computes(pair: str, wmt21_system_table):
    """scripts/system_scores.py's file against a fresh scoring of the WMT21 data (TER takes a minute or so):
    ``system_level(wmt21_ted(pair), reference=REFERENCE_USED[pair])``, computed once per run for the tests that use
    it (tests/conftest.py)."""
    table = wmt21_system_table(pair, REFERENCE_USED[pair]).systems_only()
    assert system_scores(table) == SHIPPED[pair]


# ---------------------------------------------------------------------------
# The notebook widget (the page's form is tested in the browser: tests/browser/test_site_live.py)
# ---------------------------------------------------------------------------


def _table(pair: str):  # noqa: ANN202
    """A system-level table holding the shipped scores (system_level itself takes a minute: TER)."""
    from bleu_teach.lessons.metric_tables import SystemRow, SystemTable

    s = SHIPPED[pair]
    rows = tuple(
        SystemRow(name, False, tuple(s.scores[m][i] for m in METRICS), s.mqm[i], 1) for i, name in enumerate(s.systems)
    )
    return SystemTable(pair, s.reference, (s.reference,), METRICS, rows, 1)


def test_the_widget_shows_the_comparison_and_names_the_system_left_out():
    pytest.importorskip("ipywidgets")
    from bleu_teach.ui.widgets import TwoMetricsExplorer

    widget = TwoMetricsExplorer(_table("zh-en"), _table("en-de"))
    assert repr(widget) == "TwoMetricsExplorer(pair='zh-en', metric_a='TER', metric_b='BLEU', leave_out=0)"
    assert widget.comparison == compare_two(SHIPPED["zh-en"], "TER", "BLEU")
    assert widget.notes["leave_out"].value == "none: all 13 systems kept"
    widget.pair.value, widget.metric_a.value, widget.leave_out.value = "en-de", "chrf", 2
    assert widget.comparison == compare_two(SHIPPED["en-de"], "chrF", "BLEU", 2)
    assert widget.notes["leave_out"].value == f"{SHIPPED['en-de'].systems[1]}, the experts' 2nd"
    assert "pairs chrF and BLEU order differently" in widget.output.value
    widget.metric_b.value = "chrF"  # the same metric twice: no pair splits them, and nothing breaks
    assert widget.comparison.accuracy_difference == 0 and "choose two different metrics" in widget.output.value


@pytest.mark.parametrize(
    "change, error, words",
    [
        ({"leave_out": 14}, ValueError, "leave_out must be a whole number from 0"),
        ({"leave_out": -1}, ValueError, "leave_out must be a whole number from 0"),
        ({"leave_out": True}, TypeError, "leave_out"),
        ({"leave_out": "2"}, TypeError, "leave_out"),
        ({"metric_a": "COMET"}, ValueError, "metric_a='COMET' is not offered"),
        ({"pair": "de-en"}, ValueError, "pair='de-en' is not offered"),
    ],
)
def test_the_widget_refuses_bad_arguments_by_name(change, error, words):
    pytest.importorskip("ipywidgets")
    from bleu_teach.ui.widgets import TwoMetricsExplorer

    with pytest.raises(error, match=f"TwoMetricsExplorer: {words}"):
        TwoMetricsExplorer(_table("zh-en"), _table("en-de"), **change)
    with pytest.raises(ValueError, match="zh_en must be zh-en's table against ref-B"):
        TwoMetricsExplorer(_table("en-de"), _table("en-de"))
    with pytest.raises(TypeError, match="TwoMetricsExplorer: table must come from system_level"):
        TwoMetricsExplorer(None, _table("en-de"))


def test_a_metric_registered_after_the_scores_were_written_asks_for_them_again(monkeypatch: pytest.MonkeyPatch):
    from bleu_teach.lessons import two_metrics

    monkeypatch.setattr(two_metrics, "METRICS", (*two_metrics.METRICS, "chrF4"))
    with pytest.raises(ValueError, match=r"has no scores of chrF4: write it again with python scripts/system_scores"):
        two_metrics.shipped_scores()
