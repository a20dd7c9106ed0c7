"""Widget logic in plain Python: set values, click buttons, read the HTML and figures."""

from __future__ import annotations

import bleu_teach as bt
from bleu_teach.ui.widgets import MAX_REFERENCES, BleuExplorer, BrevityPenaltyExplorer, ClippingExplorer


def test_clipping_explorer_shows_clipped_counts_and_marks_matches():
    explorer = ClippingExplorer()
    html = explorer.output.value
    assert "p<sub>1</sub> = 2/7" in html
    assert html.count("&#10003;") == 2 and html.count("class=\"match\"") == 2  # two marked tokens
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
    refs.add()  # ignored at the limit
    assert len(refs.boxes) == MAX_REFERENCES
    while not refs.remove_button.disabled:
        refs.remove_button.click()
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
    expected = bt.sentence_bleu([["the", "cat", "is", "on", "the", "mat"]], "the cat sat on the mat".split(), (0.7, 0.3))
    assert explorer.report.score == expected
    explorer.weights.value = "0.7, 0.2"
    assert "sum to 1" in explorer.output.value and explorer.report is None
    explorer.weights.value = "a, b"
    assert "numbers separated by commas" in explorer.output.value
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
    assert "<h4>1-grams" not in head and "<h4>1-grams" in folded
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

    explorer = BleuExplorer("the cat sat on the mat", ["the cat is on the mat"], max_n=2, compact=True,
                            show_settings=False)
    assert not any(row in explorer.children for row in explorer.settings.rows)
    # hidden, not dropped: a saved copy of the widget (the static site) still holds every setting
    (hidden,) = [child for child in explorer.children if child.layout.display == "none"]
    assert list(hidden.children) == explorer.settings.rows
    shown = BleuExplorer(max_n=2)
    assert all(row in shown.children for row in shown.settings.rows)
    expected = explain([["the", "cat", "is", "on", "the", "mat"]], "the cat sat on the mat".split(), weights=(0.5, 0.5))
    assert explorer.report.score == expected.score
