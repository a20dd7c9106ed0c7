"""Widget logic in plain Python: set values, click buttons, read the HTML and figures."""

from __future__ import annotations

import numpy as np
import pytest

import bleu_teach as bt
from bleu_teach.bleu.smoothing import SmoothingFunction
from bleu_teach.explorers.views import brevity_view, clipping_view
from bleu_teach.ui import widgets as w
from bleu_teach.ui.widgets import MAX_REFERENCES, BleuExplorer, BrevityPenaltyExplorer, ClippingExplorer


def test_clipping_explorer_shows_clipped_counts_and_marks_matches():
    explorer = ClippingExplorer()
    html = explorer.output.value
    assert "p<sub>1</sub> = 2/7" in html
    assert html.count("&#10003;") == 2 and html.count('class="match"') == 2  # two marked tokens
    assert "match marked \u2713" in html  # the legend
    explorer.n.value = 2
    assert "p<sub>2</sub> = 0/6" in explorer.output.value


def test_clipping_explorer_follows_typing_and_reference_changes():
    explorer = ClippingExplorer("the cat", ["a dog"], n=1)
    assert "p<sub>1</sub> = 0/2" in explorer.output.value
    explorer.references.add_button.click()
    explorer.references.boxes[1].value = "the cat"
    assert "p<sub>1</sub> = 2/2" in explorer.output.value
    explorer.references.remove_button.click()
    assert len(explorer.references.boxes) == 1
    assert "p<sub>1</sub> = 0/2" in explorer.output.value
    explorer.hypothesis.value = "a dog barks"
    expected = bt.modified_precision([["a", "dog"]], ["a", "dog", "barks"], 1)
    assert f"p<sub>1</sub> = {expected.numerator}/{expected.denominator}" in explorer.output.value


def test_reference_list_limits():
    explorer = BleuExplorer()
    refs = explorer.references
    while not refs.add_button.disabled:
        refs.add_button.click()
    assert len(refs.boxes) == MAX_REFERENCES
    with pytest.raises(ValueError, match=f"already has {MAX_REFERENCES} references"):
        refs.add()  # refused at the limit, not dropped without a word
    assert len(refs.boxes) == MAX_REFERENCES
    while not refs.remove_button.disabled:
        refs.remove_button.click()
    assert len(refs.boxes) == 1
    with pytest.raises(ValueError, match="needs at least one reference"):
        refs.remove()
    assert len(refs.boxes) == 1


def test_empty_input_shows_message_and_widget_keeps_working():
    explorer = ClippingExplorer()
    explorer.hypothesis.value = "   "
    assert "hypothesis is empty" in explorer.output.value
    assert explorer.report is None
    explorer.hypothesis.value = "the cat"
    assert "p<sub>1</sub> = 2/2" in explorer.output.value


def test_typed_html_is_escaped():
    explorer = BleuExplorer("<img src=x onerror=alert(1)> <script>alert(2)</script>", ["<b>bold</b>"])
    html = explorer.output.value
    assert "<img" not in html and "<script>" not in html and "<b>bold" not in html
    assert "&lt;img" in html and "&lt;script&gt;alert(2)&lt;/script&gt;" in html


def test_bleu_explorer_matches_explain_for_every_setting():
    explorer = BleuExplorer("The cat isn't on the mat.", ["the cat is not on the mat ."])
    explorer.tokenizer.value = "13a"
    explorer.lowercase.value = True
    explorer.max_n.value = 3
    explorer.smoothing.value = "method3"
    hyp = bt.tokenize("The cat isn't on the mat.", "13a", lowercase=True)
    ref = bt.tokenize("the cat is not on the mat .", "13a", lowercase=True)
    expected = bt.explain([ref], hyp, weights=(1 / 3,) * 3, smoothing="method3")
    assert explorer.report.score == expected.score
    assert f"BLEU = {expected.score:.4f}" in explorer.output.value


def test_bleu_explorer_custom_and_bad_weights():
    explorer = BleuExplorer("the cat sat on the mat", ["the cat is on the mat"], max_n=2)
    explorer.weights.value = "0.7, 0.3"
    expected = bt.sentence_bleu(
        [["the", "cat", "is", "on", "the", "mat"]], "the cat sat on the mat".split(), (0.7, 0.3)
    )
    assert explorer.report.score == expected
    explorer.weights.value = "0.7, 0.2"
    assert "sum to 1" in explorer.output.value and explorer.report is None
    explorer.weights.value = "a, b"
    assert "numbers or fractions separated by commas" in explorer.output.value
    explorer.weights.value = "0.5, 0.3, 0.2"
    assert "Give 2 weights" in explorer.output.value
    explorer.weights.value = ""
    assert explorer.report is not None


def test_bleu_explorer_method6_problem_is_a_message():
    explorer = BleuExplorer("the cat", ["the cat is on the mat"], smoothing="method6")
    assert "method6 stops when the trigram precision" in explorer.output.value


def test_brevity_penalty_curve_equals_core():
    explorer = BrevityPenaltyExplorer(ref_len=6, hyp_len=4, max_len=20)
    (curve,) = [line for line in explorer.figure.axes[0].get_lines() if line.get_marker() == "o"]
    for c, y in zip(curve.get_xdata(), curve.get_ydata()):
        assert y == bt.brevity_penalty(bt.closest_ref_length([["x"] * 6], int(c)), int(c))
    (star,) = [line for line in explorer.figure.axes[0].get_lines() if line.get_marker() == "*"]
    assert list(star.get_xdata()) == [4] and list(star.get_ydata()) == [bt.brevity_penalty(6, 4)]
    assert bytes(explorer.image.value).startswith(b"\x89PNG")


def test_brevity_penalty_explorer_second_reference_and_closest():
    explorer = BrevityPenaltyExplorer(ref_len=6, second_ref_len=9, hyp_len=8)
    assert explorer.brevity_penalty == bt.brevity_penalty(6, 8) == 1
    explorer.use_second.value = True
    assert explorer.ref_lens == [6, 9]
    assert explorer.brevity_penalty == bt.brevity_penalty(9, 8)
    assert "r = 9" in explorer.summary.value
    explorer.hyp_len.value = 3
    assert explorer.brevity_penalty == bt.brevity_penalty(6, 3)


def test_every_plot_has_title_and_axis_labels():
    from bleu_teach.lessons.curves import smoothing_comparison
    from bleu_teach.ui.plots import plot_brevity_penalty, plot_length_sweep, plot_precisions, plot_scores

    refs = [["the", "cat", "is", "on", "the", "mat"]]
    figures = [
        plot_precisions(bt.explain(refs, ["the", "cat"], smoothing="method1")),
        plot_length_sweep(refs),
        plot_brevity_penalty([6], 3),
        plot_scores(smoothing_comparison(refs, ["the", "cat", "sat"]), "smoothing"),
    ]
    for fig in figures:
        ax = fig.axes[0]
        assert ax.get_title() and ax.get_xlabel() and ax.get_ylabel()
        assert ax.title.get_fontsize() >= 16 and ax.xaxis.label.get_fontsize() >= 14


def test_length_sweep_plot_data_equals_core():
    from bleu_teach.ui.plots import plot_length_sweep

    refs = [["the", "cat", "is", "on", "the", "mat"]]
    lines = plot_length_sweep(refs, "the", 10).axes[0].get_lines()
    bp_line = next(line for line in lines if line.get_label() == "brevity penalty")
    for c, y in zip(bp_line.get_xdata(), bp_line.get_ydata()):
        assert y == bt.brevity_penalty(6, int(c))
    p1_line = next(line for line in lines if line.get_label().startswith("modified unigram"))
    for c, y in zip(p1_line.get_xdata(), p1_line.get_ydata()):
        assert y == float(bt.modified_precision(refs, ["the"] * int(c), 1))


def test_compact_explorer_shows_score_bp_and_precisions_first_and_folds_the_tables():
    from bleu_teach import explain

    explorer = BleuExplorer("the cat sat on the mat", ["the cat is on the mat"], compact=True)
    html = explorer.output.value
    report = explain([["the", "cat", "is", "on", "the", "mat"]], "the cat sat on the mat".split())
    assert f'data-score="{report.score!r}"' in html
    head, _, folded = html.partition("<details>")
    assert head.index('class="score"') < head.index("<table>")
    for order in report.orders:
        assert f"<td>{order.clipped}/{order.total}</td>" in head
    assert "<h3>1-grams" not in head and "<h3>1-grams" in folded  # no title: its sections start under the h2
    explorer.hypothesis.value = "the cat is on the mat"
    assert 'data-score="1.0"' in explorer.output.value


def test_reference_buttons_size_to_their_labels():
    explorer = BleuExplorer()
    assert explorer.references.add_button.layout.width == "auto"
    assert explorer.references.remove_button.layout.width == "auto"


def test_figures_are_drawn_for_a_projector():
    import struct

    from bleu_teach import explain
    from bleu_teach.ui.plots import PNG_DPI, plot_brevity_penalty, plot_precisions, plot_scores

    fig = plot_brevity_penalty([6, 9], 4)
    data, meta = fig._repr_png_()
    width_px = struct.unpack(">I", data[16:20])[0]
    assert PNG_DPI >= 150 and width_px == round(fig.get_figwidth() * PNG_DPI)
    assert meta["width"] < width_px  # shown at screen size, sharp when enlarged
    ticks = fig.axes[0].get_xticks()
    assert all(float(t).is_integer() for t in ticks)  # token counts are whole numbers
    report = explain([["the", "cat", "is", "on", "the", "mat"]], "the cat sat on the mat".split())
    labels = [t.get_text() for t in plot_precisions(report).axes[0].get_xticklabels()]
    assert labels == ["$p_1$", "$p_2$", "$p_3$", "$p_4$"]
    bars = plot_scores({"a": 0.5, "b": 0.25}, "t").axes[0].patches
    assert len({tuple(b.get_facecolor()) for b in bars}) == 1 and not any(b.get_hatch() for b in bars)


def test_explorer_without_settings_controls_still_applies_the_settings():
    from bleu_teach import explain

    explorer = BleuExplorer(
        "the cat sat on the mat", ["the cat is on the mat"], max_n=2, compact=True, show_settings=False
    )
    assert not any(row in explorer.children for row in explorer.settings.rows)
    # hidden, not dropped: a saved copy of the widget (the static site) still holds every setting
    # (beside the hidden controls that keep the fixed settings, compact and show_settings themselves)
    fixed = [explorer.controls["compact"], explorer.controls["show_settings"]]
    (hidden,) = [child for child in explorer.children if child.layout.display == "none" and child not in fixed]
    assert list(hidden.children) == explorer.settings.rows
    shown = BleuExplorer(max_n=2)
    assert all(row in shown.children for row in shown.settings.rows)
    expected = explain([["the", "cat", "is", "on", "the", "mat"]], "the cat sat on the mat".split(), weights=(0.5, 0.5))
    assert explorer.report.score == expected.score


# --- Constructor arguments: checked with the package's own rules, never a TraitError, a clamp or a guess --------

CAT_REFS = ["the cat is on the mat", "there is a cat on the mat"]


@pytest.mark.parametrize("spelling", ["1", 1, "method1", "Method1", " 1 ", np.int64(1)])
def test_bleu_explorer_reads_smoothing_names_as_the_package_does(spelling):
    # README: "method1", "1" and 1 mean the same everywhere (functions, widgets, terminal).
    explorer = BleuExplorer("the cat sat", CAT_REFS, smoothing=spelling)
    assert explorer.smoothing.value == "method1"
    expected = bt.explain([r.split() for r in CAT_REFS], "the cat sat".split(), smoothing="method1")
    assert explorer.report.score == expected.score
    assert w.SideBySideExplorer(smoothing=spelling).settings.smoothing.value == "method1"


def test_bleu_explorer_smoothing_none_is_method0_as_everywhere():
    assert BleuExplorer(smoothing=None).smoothing.value == "method0"


@pytest.mark.parametrize("spelling, name", [("13A", "13a"), ("NLTK", "nltk"), (" Whitespace ", "whitespace")])
def test_bleu_explorer_reads_tokenizer_names_in_any_case(spelling, name):
    explorer = BleuExplorer("The cat isn't on the mat.", ["the cat is not on the mat ."], tokenizer=spelling)
    assert explorer.tokenizer.value == name
    expected = bt.explain(
        [bt.tokenize("the cat is not on the mat .", name)], bt.tokenize("The cat isn't on the mat.", name)
    )
    assert explorer.report.score == expected.score


@pytest.mark.parametrize("smoothing", ["method8", "8", "laplace", 8, -1, ""])
def test_unknown_smoothing_is_a_value_error_listing_the_methods(smoothing):
    with pytest.raises(
        ValueError,
        match=r"BleuExplorer: unknown smoothing method .*method0, method1, .*method7, "
        r"or just the number \(0 to 7\)",
    ):
        BleuExplorer(smoothing=smoothing)


@pytest.mark.parametrize("smoothing", [SmoothingFunction().method1, True, 1.0, ["method1"]])
def test_smoothing_of_the_wrong_type_is_a_type_error(smoothing):
    with pytest.raises(TypeError, match="smoothing must be a method name such as 'method1'"):
        BleuExplorer(smoothing=smoothing)


def test_unknown_tokenizer_lists_the_tokenizers_and_a_non_name_is_a_type_error():
    with pytest.raises(
        ValueError, match="unknown tokenizer 'spacy'; choose one of whitespace, nltk, 13a, intl, char, zh, none"
    ):
        BleuExplorer(tokenizer="spacy")
    for tokenizer in (None, 13):
        with pytest.raises(TypeError, match="tokenizer must be a tokenizer name"):
            w.SideBySideExplorer(tokenizer=tokenizer)


def test_references_none_is_a_type_error_naming_references():
    for make in (
        lambda: BleuExplorer("a", None),
        lambda: ClippingExplorer("a", None),
        lambda: w.SideBySideExplorer("a", "b", None),
    ):
        with pytest.raises(TypeError, match="references is None; pass a list of strings, one per reference"):
            make()


def test_a_single_reference_string_is_refused_not_split_into_characters():
    # The docstrings and explain_text say "a list of texts, one per reference": a string is refused, never split.
    for make in (
        lambda: BleuExplorer("c a t", "cat"),
        lambda: ClippingExplorer("c a t", "cat"),
        lambda: w.SideBySideExplorer("c a t", "a c t", "cat"),
    ):
        with pytest.raises(
            TypeError,
            match=r"references is a single string \('cat'\); pass a list of strings, "
            r"one per reference: \['cat'\]",
        ):
            make()


def test_references_must_be_1_to_8_strings():
    with pytest.raises(TypeError, match=r"references\[1\] must be text \(a string\), not 2"):
        BleuExplorer(references=["one", 2])
    with pytest.raises(TypeError, match="references must be a list of strings"):
        BleuExplorer(references={"a": "the cat"})
    with pytest.raises(ValueError, match="references is empty; pass 1 to 8"):
        BleuExplorer(references=[])
    with pytest.raises(ValueError, match="references holds 20 texts, but there are at most 8 reference boxes"):
        BleuExplorer(references=["the cat"] * 20)  # was: silently the first 8
    with pytest.raises(ValueError, match="references holds 9 texts"):
        ClippingExplorer(references=["the cat"] * 9)
    assert len(BleuExplorer(references=["the cat"] * MAX_REFERENCES).references.boxes) == MAX_REFERENCES
    assert BleuExplorer(references=("a cat", "the cat")).references.values == ["a cat", "the cat"]


def test_hypothesis_must_be_text():
    with pytest.raises(TypeError, match=r"BleuExplorer: hypothesis must be text \(a string\).*not None"):
        BleuExplorer(None)  # was: silently an empty box
    with pytest.raises(TypeError, match="ClippingExplorer: hypothesis must be text"):
        ClippingExplorer(5)
    with pytest.raises(TypeError, match="SideBySideExplorer: hypothesis_b must be text"):
        w.SideBySideExplorer("the cat", ["the", "cat"])
    assert "hypothesis is empty" in BleuExplorer("").output.value  # an empty box stays allowed: the widget asks


def test_max_n_and_clipping_order_are_refused_beyond_the_slider_not_clamped():
    with pytest.raises(ValueError, match=r"BleuExplorer: max_n must be a whole number from 1 to 6 .*Max n.*got 10"):
        BleuExplorer(max_n=10)  # was: silently 6
    with pytest.raises(ValueError, match="max_n must be a whole number from 1 to 6"):
        w.SideBySideExplorer(max_n=0)
    with pytest.raises(ValueError, match=r"ClippingExplorer: n must be a whole number from 1 to 4 .*got 7"):
        ClippingExplorer(n=7)  # was: silently 4
    with pytest.raises(ValueError, match="ClippingExplorer: n must be a whole number from 1 to 4 .*got 0"):
        ClippingExplorer(n=0)  # was: silently 1
    with pytest.raises(TypeError, match="n must be a whole number such as 1 or 4, not 2.0"):
        ClippingExplorer(n=2.0)
    with pytest.raises(TypeError, match="max_n must be a whole number"):
        BleuExplorer(max_n="4")
    assert w.CLIPPING_MAX_ORDER == ClippingExplorer().n.max == 4


def test_numpy_integers_are_accepted_where_an_int_is_expected():
    assert ClippingExplorer(n=np.int64(2)).n.value == 2
    explorer = BleuExplorer("the cat sat on the mat", ["the cat is on the mat"], max_n=np.int32(2))
    assert explorer.max_n.value == 2 and type(explorer.max_n.value) is int
    assert (
        BrevityPenaltyExplorer(ref_len=np.int64(6), hyp_len=np.int16(3), max_len=np.int64(20)).brevity_penalty
        == BrevityPenaltyExplorer(ref_len=6, hyp_len=3).brevity_penalty
    )


@pytest.mark.parametrize("name", ["lowercase", "compact", "show_settings"])
@pytest.mark.parametrize("value", [1, 0, "yes", "False", None])
def test_bleu_explorer_switches_must_be_bools(name, value):
    with pytest.raises(TypeError, match=f"BleuExplorer: {name} must be True or False"):
        BleuExplorer(**{name: value})


def test_other_switches_must_be_bools():
    with pytest.raises(TypeError, match="SideBySideExplorer: lowercase must be True or False, not 1"):
        w.SideBySideExplorer(lowercase=1)
    with pytest.raises(TypeError, match="BrevityPenaltyExplorer: use_second must be True or False, not 1"):
        BrevityPenaltyExplorer(use_second=1)


def test_weights_are_the_weights_box_text_and_checked():
    with pytest.raises(TypeError, match="weights is the Weights box's text"):
        BleuExplorer(weights=None)  # was: silently uniform
    with pytest.raises(TypeError, match="weights is the Weights box's text"):
        BleuExplorer(max_n=2, weights=(0.5, 0.5))
    with pytest.raises(ValueError, match="BleuExplorer: weights='0.7, 0.2': .*sum to 0.9"):
        BleuExplorer(max_n=2, weights="0.7, 0.2")
    with pytest.raises(ValueError, match="Give 2 weights for Max n = 2"):
        w.SideBySideExplorer(max_n=2, weights="0.5, 0.3, 0.2")
    with pytest.raises(ValueError, match="numbers or fractions separated by commas"):
        BleuExplorer(weights="a, b")
    explorer = BleuExplorer("the cat sat on the mat", ["the cat is on the mat"], max_n=2, weights="0.7, 0.3")
    assert explorer.report.score == bt.sentence_bleu(
        [["the", "cat", "is", "on", "the", "mat"]], "the cat sat on the mat".split(), (0.7, 0.3)
    )


def test_brevity_penalty_explorer_refuses_lengths_off_the_sliders_instead_of_clamping():
    with pytest.raises(
        ValueError, match=r"BrevityPenaltyExplorer: max_len must be a whole number from 1 to 100 .*got 0"
    ):
        BrevityPenaltyExplorer(max_len=0)  # was: traitlets' TraitError "setting max < min"
    with pytest.raises(ValueError, match=r"ref_len must be a whole number from 1 to 20 .*max_len.*got 0"):
        BrevityPenaltyExplorer(ref_len=0, hyp_len=-5)  # was: silently 1 and 1
    with pytest.raises(ValueError, match=r"hyp_len must be a whole number from 1 to 20 .*got -5"):
        BrevityPenaltyExplorer(hyp_len=-5)
    with pytest.raises(ValueError, match=r"second_ref_len must be a whole number from 1 to 10 .*got 12"):
        BrevityPenaltyExplorer(second_ref_len=12, max_len=10)
    with pytest.raises(
        ValueError,
        match=r"ref_len must be a whole number from 1 to 20 .*raise max_len, up to 100.*"
        r"got 30",
    ):
        BrevityPenaltyExplorer(ref_len=30)  # was: silently 20
    with pytest.raises(TypeError, match="ref_len must be a whole number such as 1 or 4, not 6.0"):
        BrevityPenaltyExplorer(ref_len=6.0)
    with pytest.raises(TypeError, match="max_len must be a whole number"):
        BrevityPenaltyExplorer(max_len=None)


def test_brevity_penalty_explorer_max_len_has_a_stated_upper_limit():
    assert w.MAX_BP_LENGTH == 100
    with pytest.raises(
        ValueError, match=r"max_len must be a whole number from 1 to 100 .*MAX_BP_LENGTH.*got 1,000,000"
    ):
        BrevityPenaltyExplorer(max_len=10**6)  # was: 7 s and 271 MB
    explorer = BrevityPenaltyExplorer(ref_len=100, hyp_len=99, max_len=w.MAX_BP_LENGTH)
    assert explorer.hyp_len.max == 100 and explorer.brevity_penalty == bt.brevity_penalty(100, 99)


def test_reference_list_checks_its_arguments():
    with pytest.raises(ValueError, match=r"ReferenceList: texts holds 5 texts, but there are at most 3 .*max_refs = 3"):
        w.ReferenceList(["a"] * 5, lambda: None, max_refs=3)  # was: silently the first 3
    with pytest.raises(ValueError, match="ReferenceList: max_refs must be a whole number from 1 to 8"):
        w.ReferenceList(["a"], lambda: None, max_refs=9)
    with pytest.raises(TypeError, match="ReferenceList: on_change must be a function"):
        w.ReferenceList(["a"], None)
    with pytest.raises(TypeError, match="ReferenceList: texts is a single string"):
        w.ReferenceList("a b", lambda: None)
    refs = w.ReferenceList([""], lambda: None, max_refs=np.int64(2))
    assert refs.values == [""] and refs.max_refs == 2


@pytest.fixture(scope="module")
def ted_segments():
    from bleu_teach.lessons.data import wmt21_ted
    from bleu_teach.lessons.metric_tables import segment_level

    ted = wmt21_ted("zh-en")
    return ted, segment_level(ted)


def test_disagreement_explorer_refuses_a_metric_it_does_not_offer(ted_segments):
    ted, segments = ted_segments
    with pytest.raises(
        ValueError,
        match=r"DisagreementExplorer: metric='TER' is not offered; choose one of "
        r"'BLEU', 'chrF'.*system_level",
    ):
        w.DisagreementExplorer(ted, segments, metric="TER")  # was: traitlets' TraitError
    with pytest.raises(ValueError, match="metric='METEOR' is not offered; choose one of 'BLEU', 'chrF'"):
        w.DisagreementExplorer(ted, segments, metric="METEOR")
    with pytest.raises(TypeError, match="metric must be a string"):
        w.DisagreementExplorer(ted, segments, metric=None)
    assert w.DisagreementExplorer(ted, segments, metric="chrf").metric.value == "chrF"


def test_disagreement_explorer_checks_system_direction_rank_and_data(ted_segments):
    ted, segments = ted_segments
    with pytest.raises(ValueError, match="system='nobody' is not offered; choose one of 'all systems', 'Borderline'"):
        w.DisagreementExplorer(ted, segments, system="nobody")
    with pytest.raises(
        ValueError, match="direction='kind' is not offered; choose one of 'metric too kind', 'metric too harsh'"
    ):
        w.DisagreementExplorer(ted, segments, direction="kind")
    with pytest.raises(ValueError, match=r"rank must be a whole number from 1 to 529 .*system='MiSS'.*got 600"):
        w.DisagreementExplorer(ted, segments, system="MiSS", rank=600)  # was: silently the last pair
    with pytest.raises(ValueError, match="rank must be a whole number from 1 to 6877"):
        w.DisagreementExplorer(ted, segments, rank=0)  # was: silently rank 1
    with pytest.raises(TypeError, match="rank must be a whole number such as 1 or 4, not 1.0"):
        w.DisagreementExplorer(ted, segments, rank=1.0)
    with pytest.raises(TypeError, match="DisagreementExplorer: data must be a data set from"):
        w.DisagreementExplorer(None, segments)  # was: ValueError about language pairs
    explorer = w.DisagreementExplorer(ted, segments, system="miss", direction=w.TOO_HARSH, rank=np.int64(3))
    assert (explorer.system.value, explorer.rank.value) == ("MiSS", 3)
    assert explorer.current == explorer.candidates()[2]


# --- The views themselves refuse what no control offers (a script, a tampered page): never a wrong number --------


@pytest.mark.parametrize(
    "view, message",
    [
        (lambda: brevity_view([5], -3, 20), "Hypothesis length is a number of tokens and cannot be negative; got -3."),
        (lambda: brevity_view([-5], 3, 20), "Reference 1 length is a number of tokens and cannot be negative; got -5."),
        (lambda: brevity_view([], 3, 20), "There is no reference length: give at least one."),
        (lambda: clipping_view("a b", ["a b"], 0), "The n-gram order must be at least 1 (1 = unigrams); got 0."),
    ],
)
def test_a_view_refuses_a_negative_length_or_a_zero_order_with_a_message(view, message):  # noqa: ANN001
    shown = view()  # was BP = 14.39 for c = -3, and "Something went wrong (ZeroDivisionError)" for n = 0
    assert shown.value is None and shown.message == message


# --- lesson 08's rank: Previous and Next, and back to 1 when the list it counts in changes ----------------------


def test_the_rank_steps_with_previous_and_next_within_its_list(ted_segments):
    ted, segments = ted_segments
    explorer = w.DisagreementExplorer(ted, segments)
    previous, following = explorer.step_buttons["rank"]
    assert (previous.description, following.description) == ("Previous", "Next")
    shown = explorer.candidates()
    following.click()
    assert explorer.rank.value == 2 and explorer.current == shown[1]
    following.click()
    previous.click()
    assert explorer.rank.value == 2 and explorer.current == shown[1]
    previous.click()
    previous.click()  # at the top already: stays at 1
    assert explorer.rank.value == 1 and explorer.current == shown[0]
    explorer.rank.value = len(shown)
    following.click()  # at the end already: stays there
    assert explorer.rank.value == len(shown) and explorer.current == shown[-1]


@pytest.mark.parametrize("control, value", [("metric", "chrF"), ("system", "MiSS"), ("direction", w.TOO_HARSH)])
def test_the_rank_goes_back_to_1_when_the_list_changes(ted_segments, control, value):
    ted, segments = ted_segments
    explorer = w.DisagreementExplorer(ted, segments, rank=3)
    assert explorer.rank.value == 3
    getattr(explorer, control).value = value
    shown = explorer.candidates()  # the new list, largest gap first
    assert explorer.rank.value == 1 and explorer.current == shown[0]
    assert f"of {len(shown)} pairs" in explorer.count.value


def test_the_declaration_says_which_controls_reset_the_rank_and_that_it_steps():
    from bleu_teach.explorers.declaration import Control, Explorer
    from bleu_teach.explorers.definitions import DISAGREEMENT

    assert DISAGREEMENT.control("rank").steps
    assert all(DISAGREEMENT.control(name).resets == ("rank",) for name in ("metric", "system", "direction"))
    with pytest.raises(ValueError, match="resets size, which is not another of its controls"):
        Explorer("X", "X", (Control("a", "A", "menu", "", resets=("size",)),), lambda values, context: None)
    with pytest.raises(ValueError, match="only a number or a slider steps"):
        Control("a", "A", "menu", "", steps=True)


# --- labels in full ------------------------------------------------------------------------------------------


def test_every_label_has_room_for_all_its_characters():
    # JupyterLab sets a label in 13 px sans-serif; its widest characters are about 0.62 em (measured on DejaVu Sans:
    # "Reference 1 length" is 126 px). The label's width must hold them all, or ask for the label's own width.
    explorer = BrevityPenaltyExplorer()
    for name in ("ref_len", "second_ref_len", "hyp_len"):
        control = explorer.controls[name]
        width = control.style.description_width
        assert width.startswith("max(110px, ") and float(width.removeprefix("max(110px, ").rstrip("em)")) >= 0.62 * len(
            "Reference 1 length"
        ), (name, width)
    two = w.TwoMetricsExplorer.declaration
    from bleu_teach.ui.explorer_widget import label_style

    assert label_style(two, two.control("leave_out")) == {"description_width": "initial"}  # its own width


# --- one headline ---------------------------------------------------------------------------------------------


def test_the_compact_report_says_its_score_once():
    from bleu_teach.explorers.definitions import BLEU

    explorer = BleuExplorer("the cat sat on the mat", ["the cat is on the mat"], max_n=2, compact=True)
    view = BLEU.view(explorer.state())
    score = bt.explain(
        [["the", "cat", "is", "on", "the", "mat"]], "the cat sat on the mat".split(), weights=(0.5, 0.5)
    ).score
    assert f'data-score="{score!r}"' in view.headline and "BLEU = " in view.headline
    assert "BLEU = " not in view.rest and 'class="score"' not in view.rest and "1-grams" in view.rest  # the rest
    assert explorer.output.value == view.html  # the notebook has no headline of its own: the whole report,
    assert explorer.output.value.count("BLEU = ") == 1  # which says its score once
