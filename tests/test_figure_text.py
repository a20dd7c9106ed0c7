"""The figures' text alternatives (bleu_teach.views.figure_text, written by bleu_teach.ui.plots) and the stored ones.

Each description must hold the numbers its figure draws.  The expected
numbers come from elsewhere: NLTK (modified precision, brevity penalty,
sentence BLEU and its smoothing methods), sacreBLEU (corpus BLEU), NumPy
(histogram, percentiles), the box plot's rule worked by hand, and arithmetic
written out here.  Then every image in every stored notebook (lessons, deck,
solution copies) must carry its alt text.
"""

from __future__ import annotations

import json
import math
import statistics
import warnings
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
from nltk.translate import bleu_score as nltk_bleu

import bleu_teach as bt
from bleu_teach.lessons import data
from bleu_teach.lessons.confidence_intervals import bootstrap_distribution
from bleu_teach.lessons.curves import smoothing_comparison
from bleu_teach.lessons.data import wmt21_ted
from bleu_teach.lessons.metric_tables import SegmentRow, SegmentTable, SystemRow, SystemTable, system_level
from bleu_teach.ui.plots import (
    LessonFigure,
    plot_bootstrap,
    plot_brevity_penalty,
    plot_length_sweep,
    plot_precisions,
    plot_scores,
    plot_segment_bands,
    plot_system_scatter,
)
from bleu_teach.views import figure_text

PROJECT = Path(__file__).resolve().parents[1]
NOTEBOOKS = PROJECT / "notebooks"
STORED = sorted(
    [*NOTEBOOKS.glob("*.ipynb"), *(NOTEBOOKS / "slides").glob("*.ipynb"), *(NOTEBOOKS / "solutions").glob("*.ipynb")]
)
NBCONVERT_DEFAULT = "No description has been provided for this image"

# Papineni et al. (2002), the example lesson 02 uses: candidate 1 and its three references.
PAPER_REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands".split(),
    (
        "It is the guiding principle which guarantees the military forces always being under the command of the Party"
    ).split(),
    "It is the practical guide for the army always to heed the directions of the party".split(),
]
PAPER_CANDIDATE = (
    "It is a guide to action which ensures that the military always obeys the commands of the party".split()
)
MAT = [["the", "cat", "is", "on", "the", "mat"]]


def f4(x: float) -> str:
    return f"{x:.4f}"


def f3(x: float) -> str:
    return f"{x:.3f}"


def f2(x: float) -> str:
    return f"{x:.2f}"


def nth(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"  # up to 20, enough here


# --- plot_precisions ---------------------------------------------------------------------------------


def test_the_precision_bars_are_read_out_with_nltks_fractions():
    fig = plot_precisions(bt.explain(PAPER_REFS, PAPER_CANDIDATE), title="Candidate 1: modified precision by order")
    text = fig.description
    assert text.startswith('Bar chart titled "Candidate 1: modified precision by order".')
    assert "Horizontal axis: n-gram order, 1 to 4. Vertical axis: modified precision, 0 to 1." in text
    for n in (1, 2, 3, 4):
        p = nltk_bleu.modified_precision(PAPER_REFS, PAPER_CANDIDATE, n)  # unreduced, as NLTK keeps it
        assert f"p{n} = {p.numerator}/{p.denominator} ({f4(p.numerator / p.denominator)})" in text
    assert "p1 = 17/18 (0.9444)" in text and "p2 = 10/17 (0.5882)" in text  # the paper's own numbers
    assert text.endswith(f"It falls from {f4(17 / 18)} for p1 to {f4(4 / 15)} for p4.")


def test_a_hypothesis_shorter_than_n_is_read_as_nltks_zero_over_one():
    text = plot_precisions(bt.explain(MAT, ["the", "cat"], smoothing="method1")).description
    # NLTK counts an order with no n-gram as 0/1 (its modified_precision gives 0 of max(1, 0) n-grams).
    for n in (3, 4):
        p = nltk_bleu.modified_precision(MAT, ["the", "cat"], n)
        assert (p.numerator, p.denominator) == (0, 1) and f"p{n} = 0/1 (0.0000)" in text
    assert "It stays at 1.0000 from p1 to p2, then falls to 0.0000 for p3, then stays at 0.0000 to p4." in text


# --- plot_length_sweep -------------------------------------------------------------------------------


def test_the_length_sweep_is_told_by_its_turns_and_its_crossing():
    text = plot_length_sweep(MAT, "the", 10).description
    lengths = range(1, 11)
    # The oracle: NLTK's brevity penalty (r = 6), modified unigram precision and BLEU-1 for "the" repeated c times.
    bp = [nltk_bleu.brevity_penalty(6, c) for c in lengths]
    p1 = [float(nltk_bleu.modified_precision(MAT, ["the"] * c, 1)) for c in lengths]
    bleu1 = [nltk_bleu.sentence_bleu(MAT, ["the"] * c, weights=(1,)) for c in lengths]
    assert bp[0] == math.exp(1 - 6) and p1[2] == 2 / 3  # by hand: e^(1-6/1); clipped at 2 of 3
    peak = max(range(10), key=lambda i: bleu1[i])
    assert text.startswith(
        "Line chart titled \"'the' repeated 1 to 10 times\". Horizontal axis: hypothesis length "
        "in tokens, 1 to 10. Vertical axis: value, 0 to 1. 3 lines, one point per length."
    )
    assert (
        f"The brevity penalty rises from {f4(bp[0])} at length 1 to {f4(1)} at length 6, then stays at "
        f"{f4(1)} to length 10."
    ) in text
    assert (
        f"The modified unigram precision p1 stays at {f4(p1[0])} from length 1 to length 2, then falls to "
        f"{f4(p1[-1])} at length 10."
    ) in text
    assert (
        f"BLEU-1, BP times p1, rises from {f4(bleu1[0])} at length 1 to {f4(bleu1[peak])} at length {peak + 1}, "
        f"then falls to {f4(bleu1[-1])} at length 10."
    ) in text
    # Where BP first exceeds p1, and the length before it, where it did not.
    first_above = next(i for i in range(10) if bp[i] > p1[i])
    assert text.endswith(
        f"The lines cross once: the brevity penalty overtakes p1 between length {first_above} and "
        f"length {first_above + 1}."
    )
    assert first_above == 3  # BP(4) = e^-0.5 = 0.607 > 2/4, BP(3) = e^-1 = 0.368 < 2/3


# --- plot_brevity_penalty (the deck's figure) --------------------------------------------------------------


def test_the_brevity_penalty_curve_names_the_reference_length_and_the_hypothesis():
    text = plot_brevity_penalty([6], 4, 14).description
    assert text.startswith(
        'Line chart titled "Brevity penalty against hypothesis length". Horizontal axis: '
        "hypothesis length c in tokens, 1 to 14. Vertical axis: brevity penalty, 0 to 1."
    )
    assert f"rises from {f3(math.exp(1 - 6 / 1))} at c = 1 to 1.000 at c = 6, then stays at 1.000 to c = 14." in text
    assert "A vertical line marks the reference length 6." in text
    assert text.endswith(f"A star marks your hypothesis: c = 4, BP = {f3(nltk_bleu.brevity_penalty(6, 4))}.")
    assert f3(math.exp(-0.5)) == "0.607"


def test_a_brevity_penalty_curve_with_two_references_is_told_stretch_by_stretch():
    # Two references, 6 and 9: BP reaches 1 at c = 6, drops at c = 8 (closest r is now 9), reaches 1 again at 9.
    text = plot_brevity_penalty([6, 9], 4).description
    closest = [min((abs(r - c), r) for r in (6, 9))[1] for c in range(1, 19)]  # ties to the shorter, as NLTK
    curve = [nltk_bleu.brevity_penalty(r, c) for c, r in zip(range(1, 19), closest)]
    assert curve[7] < 1 == curve[5] == curve[6] == curve[8]
    assert "r being the reference length closest to c" in text  # the dip needs r to change with c
    assert (
        f"rises from {f3(curve[0])} at c = 1 to 1.000 at c = 6, then stays at 1.000 to c = 7, then falls to "
        f"{f3(curve[7])} at c = 8, then rises to 1.000 at c = 9, then stays at 1.000 to c = 18."
    ) in text
    assert f3(math.exp(1 - 9 / 8)) == "0.882"
    # c = 4: 6 is closer than 9, so r = 6 is the one drawn thicker (closest[3], the tie rule worked above).
    assert closest[3] == 6
    assert (
        "Vertical lines mark the reference lengths 6 and 9; the thicker one, r = 6, is the length BLEU uses for "
        "c = 4 (the closest)."
    ) in text  # no tie: the tie rule is not mentioned


def test_the_brevity_penalty_curve_names_the_reference_the_tie_rule_chose():
    # Lesson 03's tie: c = 5 is 1 from 4 and from 6; NLTK (and BLEU) take the shorter, 4.
    assert min((abs(r - 5), r) for r in (4, 6))[1] == 4
    fig = plot_brevity_penalty([4, 6], 5)
    labels = {line.get_label(): line.get_linewidth() for line in fig.axes[0].get_lines()}
    assert labels["chosen reference length r = 4"] > labels["reference length 6"]  # thicker, not colour alone
    assert (
        "the thicker one, r = 4, is the length BLEU uses for c = 5 (4 and 6 are both 1 away: the shorter)"
        in fig.description
    )
    with pytest.raises(ValueError, match="hyp_len: 30 is beyond the curve's last length 14"):
        plot_brevity_penalty([6], 30, 14)


# --- plot_scores -------------------------------------------------------------------------------------------


def test_the_smoothing_bars_are_read_out_with_nltks_scores():
    hyp = ["the", "cat", "sat"]
    title = "Sentence BLEU-4 of 'the cat sat' by smoothing method"
    text = plot_scores(smoothing_comparison(MAT, hyp), title).description
    smoother = nltk_bleu.SmoothingFunction()
    expected = {}
    for k in range(8):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NLTK's own warning about zero counts (method 0)
            try:
                expected[f"method{k}"] = f3(
                    nltk_bleu.sentence_bleu(MAT, hyp, smoothing_function=getattr(smoother, f"method{k}"))
                )
            except AssertionError:  # NLTK's method 6 asserts that p_3 is not zero
                expected[f"method{k}"] = "n/a (no bar: NLTK gives this method no score here)"
    assert expected["method6"].startswith("n/a")
    read = "; ".join(f"{name} {value}" for name, value in expected.items())
    assert f"8 bars, each with its value written on it: {read}." in text
    assert text.startswith(
        f'Bar chart titled "{title}". Horizontal axis: smoothing method. Vertical axis: sentence BLEU.'
    )
    numeric = {name: float(v) for name, v in expected.items() if not v.startswith("n/a")}
    best, worst = max(numeric, key=numeric.get), min(numeric, key=numeric.get)
    assert text.endswith(f"Highest: {best}, {expected[best]}; lowest: {worst}, {expected[worst]}.")


def test_a_bar_that_cannot_apply_is_said_to_have_no_bar():
    text = plot_scores({"a": 0.5, "b": 0.25, "c": "no such thing here"}, "Three bars", "score", "name").description
    assert (
        "3 bars, each with its value written on it: a 0.500; b 0.250; "
        "c n/a (no bar: NLTK gives this method no score here)." in text
    )
    assert text.endswith("Highest: a, 0.500; lowest: b, 0.250.")


# --- plot_bootstrap ----------------------------------------------------------------------------------------


def test_the_bootstrap_histogram_gives_the_resamples_the_score_and_both_intervals():
    hyps, refs = data.systems()["A"], data.references()
    dist = bootstrap_distribution(hyps, refs)
    text = plot_bootstrap(dist).description
    scores = list(dist.scores)
    score = sacrebleu.corpus_bleu(hyps, [list(r) for r in zip(*refs)]).score  # the oracle for the test set's BLEU
    counts, edges = np.histogram(scores, bins=30)
    tallest = int(counts.max())
    (peak,) = np.flatnonzero(counts == tallest)  # one tallest bar here
    # sacreBLEU's rule (its docs): the 26th lowest and 26th highest of 1,000; its interval is mean ± half the gap.
    ranked = sorted(scores)
    low, high = ranked[len(scores) // 40], ranked[-len(scores) // 40 - 1]
    mean = statistics.fmean(scores)
    assert text.startswith(
        'Histogram titled "BLEU of 1,000 resampled test sets". Horizontal axis: corpus BLEU of a '
        "resampled test set (0-100). Vertical axis: number of resampled test sets."
    )
    assert (
        f"1,000 resampled scores in 30 bars of equal width, from {f2(min(scores))} to {f2(max(scores))}; the "
        f"tallest bar, {tallest} test sets, spans {f2(edges[peak])} to {f2(edges[peak + 1])}."
    ) in text
    assert (
        f"Vertical lines mark the BLEU of the test set ({f2(score)}) and the mean of the resampled scores ({f2(mean)})."
    ) in text
    assert (
        f"sacreBLEU's interval, mean ± half-width, {f2(mean - (high - low) / 2)} to {f2(mean + (high - low) / 2)}; "
        f"the percentile interval, 2.5th to 97.5th, {f2(low)} to {f2(high)}."
    ) in text


# --- plot_system_scatter -----------------------------------------------------------------------------------


def _systems(with_reference: bool) -> SystemTable:
    rows = [
        SystemRow("A", False, (30.0,), -2.0, 10),
        SystemRow("B", False, (40.0,), -3.0, 10),
        SystemRow("C", False, (35.5,), -1.25, 10),
    ]
    if with_reference:
        rows.append(SystemRow("ref-A", True, (20.0,), -5.5, 10))
    return SystemTable("xx-en", "ref-B", ("ref-B",), ("BLEU",), tuple(rows), 10)


def test_the_system_scatter_names_its_extremes_and_where_the_best_rank_on_the_other_axis():
    text = plot_system_scatter(_systems(False)).description
    assert text.startswith(
        'Scatter plot titled "xx-en: corpus BLEU against expert MQM, one point per system". '
        "Horizontal axis: BLEU against ref-B (0-100). Vertical axis: MQM system score (0 = no "
        "error, higher is better). 3 points, one per machine system, each labelled with its name."
    )
    # By hand: BLEU A 30, C 35.5, B 40; MQM B -3, A -2, C -1.25.  B (best BLEU) is last by MQM; C (best MQM) 2nd by
    # BLEU.
    assert "BLEU runs from 30.00 (A) to 40.00 (B); MQM from -3.000 (B) to -1.250 (C)." in text
    assert text.endswith("The highest BLEU, B, ranks 3rd of 3 by MQM; the best MQM, C, ranks 2nd of 3 by BLEU.")


def test_the_system_scatter_says_which_point_is_the_human_reference():
    text = plot_system_scatter(_systems(True)).description
    assert (
        "4 points, each labelled with its name: 3 machine systems as circles and the human reference ref-A, "
        "scored as a system, as a square."
    ) in text
    assert (
        "BLEU runs from 20.00 (the human reference ref-A) to 40.00 (B); MQM from -5.500 (the human reference "
        "ref-A) to -1.250 (C)."
    ) in text
    assert text.endswith("The highest BLEU, B, ranks 3rd of 4 by MQM; the best MQM, C, ranks 2nd of 4 by BLEU.")


def test_lesson_08s_scatter_is_described_with_sacrebleus_scores_and_the_mean_mqm():
    ted = wmt21_ted("zh-en")
    text = plot_system_scatter(system_level(ted, metrics=("BLEU",), reference="ref-B")).description
    bleu = {name: sacrebleu.corpus_bleu(hyps, [ted.references["ref-B"]]).score for name, hyps in ted.systems.items()}
    mqm = {name: statistics.fmean(m for m in ted.mqm[name] if m is not None) for name in ted.systems}
    lo_b, hi_b = min(bleu, key=bleu.get), max(bleu, key=bleu.get)
    lo_m, hi_m = min(mqm, key=mqm.get), max(mqm, key=mqm.get)
    n = len(bleu)
    assert f"{n} points, one per machine system" in text and n == 13
    assert (
        f"BLEU runs from {f2(bleu[lo_b])} ({lo_b}) to {f2(bleu[hi_b])} ({hi_b}); MQM from {f3(mqm[lo_m])} ({lo_m}) "
        f"to {f3(mqm[hi_m])} ({hi_m})."
    ) in text
    by_mqm = 1 + sum(m > mqm[hi_b] for m in mqm.values())
    by_bleu = 1 + sum(b > bleu[hi_m] for b in bleu.values())
    assert text.endswith(
        f"The highest BLEU, {hi_b}, ranks {nth(by_mqm)} of {n} by MQM; the best MQM, {hi_m}, ranks "
        f"{nth(by_bleu)} of {n} by BLEU."
    )


# --- plot_segment_bands ------------------------------------------------------------------------------------


def _segments() -> SegmentTable:
    # One MQM score per band of MQM_BANDS (0; -0.1 to -1; -1.1 to -5 left empty; -5.1 to -10; below -10).
    per_band = {0.0: [10, 20, 30, 40, 50], -1.0: [0, 5, 5, 6, 100], -7.0: [42], -12.0: [1, 2]}
    rows = [
        SegmentRow("S", i, (float(score),), mqm) for mqm, scores in per_band.items() for i, score in enumerate(scores)
    ]
    return SegmentTable("xx-en", "ref-B", ("ref-B",), ("BLEU",), tuple(rows), ("S",), 0)


def _box(scores: list[float]) -> tuple[float, ...]:
    """Tukey's box by hand: quartiles (linear interpolation, NumPy's default), whiskers to the farthest score
    within 1.5 interquartile ranges of the box."""
    q1, median, q3 = np.percentile(scores, [25, 50, 75])
    reach = 1.5 * (q3 - q1)
    return (min(s for s in scores if s >= q1 - reach), q1, median, q3, max(s for s in scores if s <= q3 + reach))


def test_the_band_boxes_are_read_out_with_their_quartiles_and_whiskers():
    text = plot_segment_bands(_segments()).description
    assert text.startswith(
        'Box plot titled "xx-en: sentence BLEU by the experts\' MQM score". Horizontal axis: '
        "segment MQM score (error points, negated), in 5 bands. Vertical axis: sentence BLEU "
        "against ref-B."
    )
    for label, scores in [
        ("0 (no error)", [10, 20, 30, 40, 50]),
        ("-0.1 to -1", [0, 5, 5, 6, 100]),
        ("-5.1 to -10", [42]),
        ("below -10", [1, 2]),
    ]:
        low, q1, median, q3, high = (f"{v:.1f}" for v in _box(scores))
        count = f"{len(scores)} pair{'s' if len(scores) > 1 else ''}"
        assert f"{label}, {count}: median {median}, middle half {q1} to {q3}, whiskers {low} to {high}" in text
    assert _box([0, 5, 5, 6, 100]) == (5, 5, 5, 6, 6)  # 0 and 100 lie beyond the whiskers: not drawn, not read
    assert "-1.1 to -5: no pairs" in text
    assert (
        "The median falls from 30.0 in band 0 (no error) to 5.0 in band -0.1 to -1, then rises to 42.0 in band "
        "-5.1 to -10, then falls to 1.5 in band below -10."
    ) in text


# --- The description goes into the notebook ------------------------------------------------------------------


def test_the_png_metadata_carries_the_description_as_alt():
    fig = plot_brevity_penalty([6], 4, 14)
    png, metadata = fig._repr_png_()
    assert png.startswith(b"\x89PNG") and metadata["alt"] == fig.description and fig.description
    assert set(metadata) == {"width", "alt"}
    assert "alt" not in LessonFigure()._repr_png_()[1]  # no description, no alt: the site's build then refuses it


def test_series_text_reads_directions_from_the_written_values():
    # 0.30001 and 0.29999 both read 0.300: no turn a listener could not see.
    assert figure_text.series_text("It", [1, 2, 3], [0.30001, 0.29999, 0.5], lambda x: f"x = {x}", 3) == (
        "It stays at 0.300 from x = 1 to x = 2, then rises to 0.500 at x = 3"
    )
    assert figure_text.crossings(("a", [0.0, 0.5, 1.0]), ("b", [1.0, 0.5, 0.0]), [1, 2, 3], str, 2) == [
        "a overtakes b at 2"
    ]


@pytest.mark.parametrize("path", STORED, ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_every_stored_figure_has_its_alt_text(path: Path):
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for index, cell in enumerate(notebook["cells"]):
        for output in cell.get("outputs", []):
            if "image/png" in output.get("data", {}):
                alt = output.get("metadata", {}).get("image/png", {}).get("alt")
                assert isinstance(alt, str) and alt.strip(), f"{path.name} cell {index}: a figure without alt text"
                assert alt != NBCONVERT_DEFAULT and alt.split(" titled ")[0] in (
                    "Bar chart",
                    "Line chart",
                    "Histogram",
                    "Scatter plot",
                    "Box plot",
                ), f"{path.name} cell {index}"


def test_the_stored_notebooks_hold_the_figures_this_test_expects():
    # So that the test above cannot pass on notebooks without figures: 8 in the lessons, 1 in the deck, 8 in the copies.
    counts = {}
    for path in STORED:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        found = sum("image/png" in o.get("data", {}) for c in cells for o in c.get("outputs", []))
        if found:
            counts[str(path.relative_to(NOTEBOOKS))] = found
    lessons = {k: v for k, v in counts.items() if "/" not in k}
    assert lessons == {
        "02_modified_precision.ipynb": 2,
        "03_brevity_penalty.ipynb": 1,
        "04_the_bleu_score.ipynb": 1,
        "06_reporting_bleu.ipynb": 1,
        "08_bleu_and_people.ipynb": 3,
    }
    assert counts["slides/bleu_in_10_minutes.ipynb"] == 1
    assert sum(v for k, v in counts.items() if k.startswith("solutions/")) == sum(lessons.values())
