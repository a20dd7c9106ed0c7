"""bleu_teach.lessons.agreement: metric scores equal sacreBLEU's, correlations equal scipy's, MQM means as computed
here.

sacreBLEU's TER takes about a second per system on the full 529 segments, so
the system-level tables here are built on the SUBSET of zh-en's segments
(every system kept; segments whose long sentences make TER slowest are not in it); the full zh-en numbers are in the
doctests of
``bleu_teach/lessons/agreement.py``.  The segment level runs on the full set.
"""

from __future__ import annotations

import dataclasses
import json
import math
from html import escape

import pytest
import sacrebleu
import scipy.stats
from sacrebleu.metrics import TER

from bleu_teach.lessons.agreement import Correlations, correlations
from bleu_teach.lessons.data import wmt21_ted
from bleu_teach.lessons.metric_tables import METRICS, SegmentTable, SystemTable, segment_level, system_level
from bleu_teach.lessons.mqm import mqm_system_score
from bleu_teach.views.latex_writer import escape_latex
from tests.view_checks import check_every_view, document_tables

#: Every system and segment of the WMT21 release, scored and correlated: the full run only (make check leaves them out).
pytestmark = pytest.mark.slow

SUBSET = slice(60, 120)
ORACLE_SYSTEMS = ("Borderline", "Facebook-AI", "metricsystem5")


def _first(data, n):
    """The data set cut to the segments ``n`` (a slice or a count), every system and reference kept."""
    n = n if isinstance(n, slice) else slice(n)
    return dataclasses.replace(
        data,
        sources=data.sources[n],
        references={k: v[n] for k, v in data.references.items()},
        systems={k: v[n] for k, v in data.systems.items()},
        mqm={k: v[n] for k, v in data.mqm.items()},
        errors={k: v[n] for k, v in data.errors.items()},
        raters={k: v[n] for k, v in data.raters.items()},
        seg_ids=data.seg_ids[n],
        documents=data.documents[n],
    )


@pytest.fixture(scope="module")
def full():
    return wmt21_ted("zh-en")


@pytest.fixture(scope="module")
def data(full):
    return _first(full, SUBSET)


@pytest.fixture(scope="module")
def ref_b(data):
    return system_level(data, reference="ref-B", include=("ref-A",))


@pytest.fixture(scope="module")
def both(data):
    return system_level(data, reference="both")


@pytest.fixture(scope="module")
def segments(full):
    return segment_level(full, reference="ref-B")


def _row(table, name):
    return next(row for row in table.rows if row.name == name)


# --- System level: the scores are sacreBLEU's ------------------------------------------------------


@pytest.mark.parametrize("name", ORACLE_SYSTEMS + ("ref-A",))
def test_one_reference_scores_equal_sacrebleu(data, ref_b, name, parity_counter):
    hyps = data.systems.get(name) or data.references[name]
    streams = [data.references["ref-B"]]
    assert ref_b.score(name, "BLEU") == pytest.approx(sacrebleu.corpus_bleu(hyps, streams).score, abs=1e-9)
    assert ref_b.score(name, "chrF") == pytest.approx(sacrebleu.corpus_chrf(hyps, streams).score, abs=1e-9)
    assert ref_b.score(name, "TER") == pytest.approx(TER().corpus_score(hyps, streams).score, abs=1e-9)
    parity_counter["agreement system scores"] += 3


@pytest.mark.parametrize("name", ORACLE_SYSTEMS)
def test_two_reference_scores_equal_sacrebleu(data, both, name, parity_counter):
    hyps = data.systems[name]
    streams = [data.references["ref-A"], data.references["ref-B"]]
    assert both.references_used == ("ref-A", "ref-B")
    assert both.score(name, "BLEU") == pytest.approx(sacrebleu.corpus_bleu(hyps, streams).score, abs=1e-9)
    assert both.score(name, "chrF") == pytest.approx(sacrebleu.corpus_chrf(hyps, streams).score, abs=1e-9)
    assert both.score(name, "TER") == pytest.approx(TER().corpus_score(hyps, streams).score, abs=1e-9)
    parity_counter["agreement system scores"] += 3


def test_ref_a_as_reference_equals_sacrebleu(data):
    table = system_level(data, metrics=("BLEU",), reference="ref-A")
    hyps = data.systems["MiSS"]
    assert table.references_used == ("ref-A",)
    assert table.score("MiSS", "BLEU") == pytest.approx(
        sacrebleu.corpus_bleu(hyps, [data.references["ref-A"]]).score, abs=1e-9
    )


def test_mqm_system_score_is_the_mean_of_the_segment_scores(data, ref_b):
    for name in [*data.systems, "ref-A"]:
        scores = data.mqm[name]
        expected = sum(scores) / len(scores)
        assert _row(ref_b, name).mqm == pytest.approx(expected, abs=1e-12)
        assert _row(ref_b, name).rated == len(scores)
    assert mqm_system_score([-1.0, None, -2.0]) == (-1.5, 2)


def test_including_ref_a_adds_one_row_marked_as_a_reference(data, ref_b):
    plain = system_level(data, metrics=("BLEU",), reference="ref-B")
    assert [r.name for r in plain.rows] == list(data.systems)
    assert [r.name for r in ref_b.rows] == [*data.systems, "ref-A"]
    assert [r.is_reference for r in ref_b.rows] == [False] * len(data.systems) + [True]
    assert ref_b.metrics == METRICS
    for name in data.systems:
        assert plain.score(name, "BLEU") == ref_b.score(name, "BLEU")


# --- Correlations: scipy's, on vectors recomputed here ----------------------------------------------


def _oracle(metric_values, mqm, negate):
    x = [-v for v in metric_values] if negate else list(metric_values)
    return scipy.stats.pearsonr(x, mqm), scipy.stats.kendalltau(x, mqm)


@pytest.mark.parametrize("which", ["ref_b", "both"])
def test_system_correlations_equal_scipy(data, which, request):
    table = request.getfixturevalue(which)
    result = correlations(table)
    names = [row.name for row in table.rows]
    mqm = [sum(data.mqm[n]) / len(data.mqm[n]) for n in names]
    for metric in METRICS:
        # The scores come from sacreBLEU here, not from the table.
        streams = (
            [data.references["ref-B"]] if which == "ref_b" else [data.references["ref-A"], data.references["ref-B"]]
        )
        score = {"BLEU": sacrebleu.corpus_bleu, "chrF": sacrebleu.corpus_chrf, "TER": TER().corpus_score}[metric]
        values = [score(data.systems.get(n) or data.references[n], streams).score for n in names]
        pearson, kendall = _oracle(values, mqm, negate=metric == "TER")
        c = result[metric]
        assert c.n == len(names) and c.negated == (metric == "TER")
        assert c.pearson == pytest.approx(pearson.statistic, abs=1e-9)
        assert c.pearson_p == pytest.approx(pearson.pvalue, abs=1e-9)
        assert c.kendall == pytest.approx(kendall.statistic, abs=1e-9)
        assert c.kendall_p == pytest.approx(kendall.pvalue, abs=1e-9)
    assert result.included == (("ref-A",) if which == "ref_b" else ())


def test_negating_ter_only_flips_the_sign(ref_b):
    c = correlations(ref_b)["TER"]
    raw = scipy.stats.pearsonr(ref_b.column("TER"), ref_b.mqm_column())
    assert c.pearson == pytest.approx(-raw.statistic, abs=1e-12)


# --- Segment level ----------------------------------------------------------------------------------


def test_segment_level_has_every_pair_and_sacrebleu_sentence_scores(full, segments):
    assert isinstance(segments, SegmentTable)
    assert len(segments.rows) == len(full.systems) * len(full.sources) == 6877
    assert segments.unrated == 0
    ref = full.references["ref-B"]
    for row in segments.rows[::500]:
        hyp = full.systems[row.system][row.segment]
        assert row.scores[0] == pytest.approx(sacrebleu.sentence_bleu(hyp, [ref[row.segment]]).score, abs=1e-9)
        assert row.scores[1] == pytest.approx(sacrebleu.sentence_chrf(hyp, [ref[row.segment]]).score, abs=1e-9)
        assert row.mqm == full.mqm[row.system][row.segment]


def test_segment_correlations_equal_scipy_on_recomputed_vectors(full, segments):
    ref = full.references["ref-B"]
    bleu, chrf, mqm = [], [], []
    for name, hyps in full.systems.items():
        for i, hyp in enumerate(hyps):
            bleu.append(sacrebleu.sentence_bleu(hyp, [ref[i]]).score)
            chrf.append(sacrebleu.sentence_chrf(hyp, [ref[i]]).score)
            mqm.append(full.mqm[name][i])
    result = correlations(segments)
    for metric, values in (("BLEU", bleu), ("chrF", chrf)):
        pearson, kendall = _oracle(values, mqm, negate=False)
        c = result[metric]
        assert c.n == 6877
        assert c.pearson == pytest.approx(pearson.statistic, abs=1e-9)
        assert c.kendall == pytest.approx(kendall.statistic, abs=1e-9)
        assert c.kendall_p == pytest.approx(kendall.pvalue, abs=1e-9)
        assert math.isclose(c.pearson_p, pearson.pvalue, rel_tol=1e-9, abs_tol=1e-300)


# --- Bad arguments ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs, error, words",
    [
        ({"reference": "ref-B", "include": ("ref-B",)}, ValueError, "against itself"),
        ({"reference": "both", "include": ("ref-A",)}, ValueError, "against itself"),
        ({"reference": "ref-C"}, ValueError, "choose reference= one of ref-A, ref-B, both"),
        ({"reference": 2}, TypeError, "reference must be a string"),
        ({"metrics": ("BLEU", "bleu")}, ValueError, "unknown metric 'bleu'"),
        ({"metrics": "BLEU"}, TypeError, "not one string"),
        ({"metrics": ()}, ValueError, "metrics is empty"),
        ({"metrics": ("BLEU", "BLEU")}, ValueError, "twice"),
        ({"include": "ref-A"}, TypeError, "not one string"),
        ({"include": ("MiSS",)}, ValueError, "already a system"),
        ({"include": ("ref-Z",)}, ValueError, "no reference 'ref-Z'"),
    ],
)
def test_bad_arguments_raise_clear_errors(data, kwargs, error, words):
    with pytest.raises(error, match=words):
        system_level(data, **kwargs)


def test_bad_data_and_tables_raise_clear_errors(data):
    with pytest.raises(TypeError, match="wmt21_ted"):
        system_level(["not", "a", "data set"])
    with pytest.raises(ValueError, match="only one reference"):
        segment_level(wmt21_ted("en-de"), reference="both")
    with pytest.raises(ValueError, match="no reference 'ref-B' in en-de"):
        system_level(wmt21_ted("en-de"), reference="ref-B")
    with pytest.raises(TypeError, match="system_level or segment_level"):
        correlations([1, 2, 3])
    tiny = system_level(_first(data, 5), metrics=("BLEU",))
    with pytest.raises(ValueError, match="no metric 'TER'"):
        tiny.column("TER")
    two = dataclasses.replace(tiny, rows=tiny.rows[:2])
    with pytest.raises(ValueError, match="at least 3 rows"):
        correlations(two)


# --- Views --------------------------------------------------------------------------------------------


def _system_cells(table):
    """The cells a system table must show, formatted here: the name (references marked), scores to 2 decimals, MQM to
    3."""
    return [
        [
            f"{row.name} (human reference)" if row.is_reference else row.name,
            *[f"{s:.2f}" for s in row.scores],
            f"{row.mqm:.3f}",
        ]
        for row in table.rows
    ]


def test_views_show_the_numbers_and_escape_text(ref_b, segments):
    text, html = repr(ref_b), ref_b._repr_html_()
    (shown,) = document_tables(ref_b.to_document().blocks)
    assert [list(row) for row in shown.rows] == _system_cells(ref_b)
    for row in _system_cells(ref_b):
        for cell in row:
            assert cell in text
            assert escape(cell) in html
    assert "ref-A (human reference)" in text
    result = correlations(ref_b)
    assert "-TER (negated)" in repr(result) and "Pearson r" in result._repr_html_()
    assert f"{result['BLEU'].pearson:.4f}" in repr(result)
    assert "6877 (system, segment) pairs" in repr(segments)
    assert "... 6867 more" in segments._repr_html_()
    odd = dataclasses.replace(ref_b, rows=(dataclasses.replace(ref_b.rows[0], name="<b>&"),) + ref_b.rows[1:])
    assert "&lt;b&gt;&amp;" in odd._repr_html_() and "<b>&" not in odd._repr_html_()
    assert isinstance(ref_b, SystemTable)


def test_every_view_of_the_tables_and_correlations(ref_b, segments, tmp_path):
    results = [ref_b, correlations(ref_b), segments, correlations(segments)]
    assert [type(r) for r in results] == [SystemTable, Correlations, SegmentTable, Correlations]
    for i, result in enumerate(results):
        folder = tmp_path / str(i)
        folder.mkdir()
        check_every_view(result, folder)
    text = ref_b.to_text()
    assert "ref-A (human reference)" in ref_b.to_markdown()
    assert escape_latex("ref-A (human reference)") in ref_b.to_latex()
    assert text.startswith("System-level scores, zh-en, against ref-B (60 segments)")


def test_segment_table_data_is_every_row_unless_fewer_are_asked_for(segments):
    data = segments.to_dict(max_rows=10)
    assert data["pairs"] == 6877 and len(data["rows"]) == 10 and data["unrated"] == 0
    assert data["rows"][0] == {
        "type": "SegmentRow",
        "system": segments.rows[0].system,
        "segment": segments.rows[0].segment,
        "scores": list(segments.rows[0].scores),
        "mqm": segments.rows[0].mqm,
    }
    assert len(segments.to_dict()["rows"]) == 6877


def test_segment_table_json_holds_every_row(segments):
    data = json.loads(segments.to_json())
    assert len(data["rows"]) == len(segments.rows) > 10  # the views show 10; the data is all of it
    assert len(segments.to_dict(max_rows=3)["rows"]) == 3
