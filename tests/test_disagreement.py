"""Lesson 08's views of expert judgements: MQM segments, disagreements, the explorer, the MQM exercise, the plots.

Oracles: sacreBLEU's ``sentence_bleu`` and ``sentence_chrf`` for every
(system, segment) pair, plain counting for the percentiles (no scipy), and
the weights of Freitag et al. (2021) written out here for the MQM scores.
"""

from __future__ import annotations

import dataclasses
import html
import re

import pytest
import sacrebleu

import bleu_teach as bt
from bleu_teach.exercises.score_checkers import check_mqm_score
from bleu_teach.lessons.data import ErrorSpan, wmt21_ted
from bleu_teach.lessons.disagreement import Disagreement, disagreement_document, disagreements
from bleu_teach.lessons.metric_tables import mqm_bands, segment_level, system_level
from bleu_teach.lessons.mqm import MQM_BANDS, MqmSegment, mqm_segment
from bleu_teach.ui.plots import plot_segment_bands, plot_system_scatter
from bleu_teach.ui.widgets import TOO_HARSH, DisagreementExplorer
from bleu_teach.views.document import Paragraph, Section
from tests.view_checks import check_every_view

#: Every segment of the WMT21 release, scored and ranked: the full run only (make check leaves them out).
pytestmark = pytest.mark.slow

#: MQM weights as published (Freitag et al., 2021, section 3.2), independent of ErrorSpan.weight.
PUBLISHED = {("Major", False): 5.0, ("Major", True): 5.0, ("Minor", False): 1.0, ("Minor", True): 0.1}


@pytest.fixture(scope="module")
def ted():
    return wmt21_ted("zh-en")


@pytest.fixture(scope="module")
def segments(ted):
    return segment_level(ted, reference="ref-B")


@pytest.fixture(scope="module")
def explorer(ted, segments):
    return DisagreementExplorer(ted, segments)


def _published_weight(span: ErrorSpan) -> float:
    if span.category.startswith("Non-translation"):
        return 25.0
    if span.severity not in ("Major", "Minor"):
        return 0.0
    return PUBLISHED[(span.severity, span.category == "Fluency/Punctuation")]


# --- MQM segments --------------------------------------------------------------------------------


@pytest.mark.parametrize("pair", ["zh-en", "en-de"])
def test_every_shipped_mqm_score_is_minus_its_published_error_weights(pair):
    data = wmt21_ted(pair)
    checked = 0
    for name, scores in data.mqm.items():
        for i, score in enumerate(scores):
            if score is None:
                continue
            segment = mqm_segment(data, name, i, reference=None)
            assert segment.mqm == score
            assert len(data.raters[name][i]) == 1
            assert score == pytest.approx(-sum(_published_weight(e) for e in segment.errors), abs=1e-9)
            checked += 1
    assert checked > 7000


def test_mqm_segment_view_shows_every_error_and_highlights_its_text(ted):
    segment = mqm_segment(ted, "MiSS", 292)
    text, page = repr(segment), segment._repr_html_()
    assert "MQM score -6.1" in text and "(5 + 1 + 0.1)" in text
    assert f"segment 292 (release seg_id {ted.seg_ids[292]})" in text
    for error in segment.errors:
        assert error.text in text
        assert f">{html.escape(error.text)}</mark>" in page
    # Strip the marks and the [k] numbers: what is left is the translation, unchanged.
    shown = re.search(r"<b>Translation</b>: (.*?)</p>", page).group(1)
    plain = html.unescape(re.sub(r"<sup[^>]*>\[\d+\]</sup>|<[^>]+>", "", shown))
    assert plain == segment.translation
    assert page.count("<mark") == len(segment.errors) == 3
    assert f'data-mqm="{segment.mqm!r}"' in page
    assert re.search(
        r"</table>(</div>)?<p>Each marked error is followed by its number \[n\]; where colour is shown, "
        r"major errors are red and minor ones yellow\.</p>",
        page,
    )


def _segment_with(text, errors, name="sys"):
    return MqmSegment(
        "zh-en",
        name,
        0,
        1,
        "source <text>",
        text,
        "ref-B",
        "a <ref> & more",
        tuple(errors),
        -sum(e.weight for e in errors),
        "rater1",
    )


def test_highlighting_escapes_text_and_splits_overlapping_spans():
    text = "<b>a & b</b> c"
    spans = [
        ErrorSpan("r", "Accuracy/Mistranslation", "Major", 0, 8, text[0:8], "target"),
        ErrorSpan("r", "Fluency/Grammar", "Minor", 4, 14, text[4:14], "target"),
    ]
    whole = _segment_with(text, spans, name="<i>sys</i>").to_html()
    assert "<i>" not in whole and "&lt;i&gt;sys&lt;/i&gt;" in whole
    assert "<ref>" not in whole and "a &lt;ref&gt; &amp; more" in whole and "source &lt;text&gt;" in whole
    page = re.search(r"<b>Translation</b>: (.*?)</p>", whole).group(1)
    assert "<b>" not in page and "&lt;b&gt;" in page
    assert page.count("<mark") == 3  # [0,4) major, [4,8) both, [8,14) minor
    assert 'title="[1] Major Accuracy/Mistranslation; [2] Minor Fluency/Grammar"' in page
    assert re.search(r'<mark class="major"[^>]*> &amp; b</mark>', page)  # the overlap takes the worse colour
    plain = html.unescape(re.sub(r"<sup[^>]*>\[\d+\]</sup>|<[^>]+>", "", page))
    assert plain == text


def test_source_side_errors_are_marked_in_the_source(ted):
    name, i = next(
        (n, i)
        for n, per in ted.errors.items()
        if n in ted.systems
        for i, spans in enumerate(per)
        if any(e.side == "source" and e.end > e.start for e in spans)
    )
    segment = mqm_segment(ted, name, i)
    page = segment._repr_html_()
    source_part = re.search(r"<b>Source</b>: (.*?)</p>", page).group(1)
    for error in segment.errors:
        if error.side == "source" and error.end > error.start:
            assert ted.sources[i][error.start : error.end] == error.text
            assert html.escape(error.text) in source_part
    assert source_part.count("<mark") >= 1


def test_every_view_of_an_mqm_segment_and_a_disagreement(ted, segments, tmp_path):
    found = disagreements(segments)[0]
    odd = "<b>a & b</b> | *c* \\ $x_1$ 100%"
    results = [
        mqm_segment(ted, "MiSS", 292),
        mqm_segment(ted, found.system, found.segment),
        mqm_segment(wmt21_ted("en-de"), "ref-A", 0),
        found,
        _segment_with(odd, [ErrorSpan("r", "Fluency/Grammar", "Minor", 4, 14, odd[4:14], "target")]),
    ]
    for i, result in enumerate(results):
        folder = tmp_path / str(i)
        folder.mkdir()
        check_every_view(result, folder)
    assert results[0].to_dict()["errors"][0]["weight"] == 5.0 and results[0].to_dict()["mqm"] == -6.1
    assert isinstance(found, Disagreement) and repr(found) == found.to_text() == (
        f"{found.system}, segment {found.segment}: sentence BLEU {found.score:.2f} (percentile "
        f"{found.metric_percentile:.1f}), MQM {found.mqm:g} (percentile {found.mqm_percentile:.1f}), "
        f"gap {found.gap:+.1f}"
    )


def test_the_explorers_document_is_the_disagreement_then_its_segment(ted, segments):
    found = disagreements(segments)[0]
    segment = mqm_segment(ted, found.system, found.segment)
    document = disagreement_document(found, segment, "how it was made")
    assert document.blocks[:-1] == found.to_document().blocks + segment.to_document().blocks
    assert document.styles == ("mqm",)
    assert document.blocks[-1] == Section(("Sentence BLEU",), (Paragraph(("how it was made",)),))
    other = next(name for name in ted.systems if name != found.system)
    with pytest.raises(ValueError, match="the segment shown is"):
        disagreement_document(found, mqm_segment(ted, other, found.segment), "")


@pytest.mark.parametrize(
    "args, error, words",
    [
        (("MiSS", 529), ValueError, "from 0 to 528"),
        (("MiSS", "3"), TypeError, "whole number"),
        (("MiSS", True), TypeError, "whole number"),
        (("Nobody", 3), ValueError, "choose one of"),
    ],
)
def test_mqm_segment_bad_arguments(ted, args, error, words):
    with pytest.raises(error, match=words):
        mqm_segment(ted, *args)
    with pytest.raises(ValueError, match="translation shown; pass reference="):
        mqm_segment(ted, "ref-B", 0, reference="ref-B")
    with pytest.raises(TypeError, match=r"\(data, name, segment\)"):
        mqm_segment(ted, 3, "Borderline")
    with pytest.raises(ValueError, match="no reference 'ref-Z'"):
        mqm_segment(ted, "MiSS", 0, reference="ref-Z")


# --- Disagreements -------------------------------------------------------------------------------


def _percentile(values, x):
    below = sum(v < x for v in values)
    equal = sum(v == x for v in values)
    return (below + equal / 2) / len(values) * 100


@pytest.mark.parametrize("metric", ["BLEU", "chrF"])
def test_disagreement_percentiles_are_mid_ranks_counted_by_hand(segments, metric):
    found = disagreements(segments, metric)
    assert len(found) == len(segments.rows)
    scores, human = segments.column(metric), segments.mqm_column()
    for d in found[:25] + found[-25:] + found[::997]:
        assert d.metric_percentile == pytest.approx(_percentile(scores, d.score), abs=1e-9)
        assert d.mqm_percentile == pytest.approx(_percentile(human, d.mqm), abs=1e-9)
    gaps = [d.gap for d in found]
    assert gaps == sorted(gaps, reverse=True)
    assert found[0].gap > 80 and found[-1].gap < -70


def test_disagreement_bad_arguments(ted, segments):
    with pytest.raises(ValueError, match="choose one of BLEU, chrF"):
        disagreements(segments, "TER")
    with pytest.raises(TypeError, match="segment_level"):
        disagreements(system_level(ted, metrics=("BLEU",)))
    with pytest.raises(ValueError, match="no rated"):
        disagreements(dataclasses.replace(segments, rows=()))


def test_sentence_bleu_report_equals_sacrebleu_for_every_pair(ted, segments, parity_counter):
    """The explorer's BLEU report (13a, method 3, auto_reweigh) is sacreBLEU's sentence_bleu, pair by pair."""
    refs = ted.references["ref-B"]
    for row in segments.rows:
        hyp, ref = ted.systems[row.system][row.segment], refs[row.segment]
        report = bt.explain([bt.tokenize(ref, "13a")], bt.tokenize(hyp, "13a"), smoothing="method3", auto_reweigh=True)
        assert report.score * 100 == pytest.approx(sacrebleu.sentence_bleu(hyp, [ref]).score, abs=1e-9)
    parity_counter["sentence BLEU report vs sacreBLEU"] += len(segments.rows)


# --- The explorer --------------------------------------------------------------------------------


def _report_score(page: str, attribute: str = "data-score") -> float:
    return float(re.search(rf'{attribute}="([^"]+)"', page).group(1))


def test_explorer_shows_the_largest_gap_and_its_report(ted, explorer):
    d = explorer.current
    assert (d.system, d.segment) == (disagreements(explorer.table)[0].system, disagreements(explorer.table)[0].segment)
    page = explorer.output.value
    hyp, ref = ted.systems[d.system][d.segment], ted.references["ref-B"][d.segment]
    assert _report_score(page) * 100 == pytest.approx(sacrebleu.sentence_bleu(hyp, [ref]).score, abs=1e-9)
    assert _report_score(page, "data-mqm") == ted.mqm[d.system][d.segment]
    source = re.search(r"<b>Source</b>: (.*?)</p>", page).group(1)
    assert html.unescape(re.sub(r"<sup[^>]*>\[\d+\]</sup>|<[^>]+>", "", source)) == ted.sources[d.segment]


def test_explorer_follows_every_control(ted, explorer):
    explorer.direction.value = TOO_HARSH
    harsh = explorer.current
    assert harsh.gap == min(d.gap for d in disagreements(explorer.table))
    explorer.metric.value = "chrF"
    d = explorer.current
    hyp, ref = ted.systems[d.system][d.segment], ted.references["ref-B"][d.segment]
    page = explorer.output.value
    assert d.metric == "chrF" and "chrF" in page
    assert d.score == pytest.approx(sacrebleu.sentence_chrf(hyp, [ref]).score, abs=1e-9)
    explorer.system.value = "Online-W"
    assert explorer.current.system == "Online-W" and explorer.count.value == "of 529 pairs"
    explorer.rank.value = 5
    assert explorer.current == explorer.candidates()[4]
    explorer.rank.value = 529
    assert explorer.current == explorer.candidates()[-1]
    assert "Please check" not in explorer.output.value


def test_explorer_refuses_bad_construction(ted, segments):
    with pytest.raises(TypeError, match="segment_level"):
        DisagreementExplorer(ted, [1, 2])
    with pytest.raises(ValueError, match="same language pair"):
        DisagreementExplorer(wmt21_ted("en-de"), segments)


# --- The MQM exercise ------------------------------------------------------------------------------


def test_check_mqm_score_right_answer_and_each_misconception(ted):
    errors = ted.errors["MiSS"][292]
    assert check_mqm_score(-6.1, errors).correct is True
    assert check_mqm_score("-61/10", errors).correct is True
    assert check_mqm_score(6.1, errors).recognised == "positive_sign"
    assert check_mqm_score(-7, errors).recognised == "punctuation_as_minor"
    assert check_mqm_score(-3, errors).recognised == "counted_errors"
    assert check_mqm_score(-4, errors).correct is False and check_mqm_score(-4, errors).recognised is None
    assert check_mqm_score(None, errors).correct is None
    with pytest.raises(TypeError, match="ErrorSpan"):
        check_mqm_score(-1, ["Major"])


# --- Plots -------------------------------------------------------------------------------------------


def test_system_scatter_has_one_labelled_point_per_row(ted):
    table = system_level(ted, metrics=("BLEU",), include=("ref-A",))
    fig = plot_system_scatter(table)
    ax = fig.axes[0]
    labels = [t.get_text() for t in ax.texts]
    assert labels == [f"{r.name} (human)" if r.is_reference else r.name for r in table.rows]
    points = [tuple(line.get_xydata()[0]) for line in ax.get_lines()]
    assert points == [(s, m) for s, m in zip(table.column("BLEU"), table.mqm_column())]


def test_segment_bands_count_every_pair_once(segments):
    fig = plot_segment_bands(segments)
    counts = [int(t.get_text().split("n = ")[1].replace(",", "")) for t in fig.axes[0].get_xticklabels()]
    assert sum(counts) == len(segments.rows)
    human = segments.mqm_column()
    assert counts[0] == sum(m == 0 for m in human)
    assert counts[-1] == sum(m < -10 for m in human)
    assert len(counts) == len(MQM_BANDS)


def test_systems_only_drops_the_references_and_nothing_else(ted):
    table = system_level(ted, metrics=("BLEU",), include=("ref-A",))
    machine = table.systems_only()
    assert [r.name for r in machine.rows] == list(ted.systems)
    assert machine.rows == system_level(ted, metrics=("BLEU",)).rows


def test_pairwise_accuracy_matches_kendall_without_ties(ted):
    import scipy.stats

    from bleu_teach.lessons.agreement import pairwise_accuracy

    table = system_level(ted, metrics=("BLEU", "chrF"))
    for metric in ("BLEU", "chrF"):
        result = pairwise_accuracy(table, metric)
        assert result.pairs == 13 * 12 // 2 and result.tied == 0
        tau = scipy.stats.kendalltau(table.column(metric), table.mqm_column()).statistic
        assert (result.agree - result.disagree) / result.pairs == pytest.approx(tau, abs=1e-12)
    flipped = dataclasses.replace(table, metrics=("TER", "chrF"))  # a lower-is-better column counts the other way
    assert pairwise_accuracy(flipped, "TER").agree == pairwise_accuracy(table, "BLEU").disagree
    with pytest.raises(TypeError, match="system_level"):
        pairwise_accuracy([1, 2, 3])


def test_mqm_band_quartiles_match_numpy_on_the_same_scores(segments):
    import numpy

    for band in mqm_bands(segments):
        q1, q2, q3 = band.quartiles()
        assert (q1, q2, q3) == pytest.approx(tuple(numpy.percentile(band.scores, [25, 50, 75])), abs=1e-9)


def test_en_de_works_with_the_defaults_against_its_only_reference():
    """en-de has ref-A only: the defaults score against it, and mqm_segment shows it (or nothing for ref-A itself)."""
    de = wmt21_ted("en-de")
    segments = segment_level(de)
    assert segments.references_used == ("ref-A",) and len(segments.rows) == 13 * len(de.sources)
    row = segments.rows[0]
    hyp, ref = de.systems[row.system][row.segment], de.references["ref-A"][row.segment]
    assert row.scores[0] == pytest.approx(sacrebleu.sentence_bleu(hyp, [ref]).score, abs=1e-9)
    assert mqm_segment(de, row.system, 0).reference_name == "ref-A"
    assert mqm_segment(de, "ref-A", 0).reference is None
    zh = wmt21_ted("zh-en")
    assert mqm_segment(zh, "ref-B", 0).reference_name == "ref-A"
    assert mqm_segment(zh, "MiSS", 0).reference_name == "ref-B"
    assert system_level(de, metrics=("BLEU",)).references_used == ("ref-A",)
