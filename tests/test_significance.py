"""The exact randomization test, sacreBLEU's AR trials replayed, and the bootstrap distribution behind
the interval (lesson 06), each checked against sacreBLEU run directly."""

from __future__ import annotations

import itertools
import statistics
import struct
from fractions import Fraction

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU
from sacrebleu.significance import PairedTest

from bleu_teach.lessons import data
from bleu_teach.ui.plots import PNG_DPI, plot_bootstrap, png_bytes
from bleu_teach.views.render import bootstrap_rows, exact_randomization_rows, sampled_randomization_rows
from bleu_teach.inputs.corpus_layout import to_sacrebleu_references
from bleu_teach.lessons.significance import MAX_DIFFERING, bootstrap_distribution, exact_randomization, paired_test
from tests.oracles import sacrebleu_seed


def _sacrebleu_ar_differences(baseline, system, streams, masks):
    """sacreBLEU's own AR arithmetic (its _paired_ar_test) on the given coin rows: |BLEU(A') - BLEU(B')|."""
    metric = BLEU()
    bl = metric._extract_corpus_statistics(baseline, streams)
    sy = metric._extract_corpus_statistics(system, streams)
    observed = abs(metric._aggregate_and_compute(bl).score - metric._aggregate_and_compute(sy).score)
    pos = np.asarray(masks, dtype=bool)
    shuf_a = pos @ bl + ~pos @ sy
    shuf_b = ~pos @ bl + pos @ sy
    a = np.array([metric._aggregate_and_compute(x).score for x in shuf_a[:, None]])
    b = np.array([metric._aggregate_and_compute(x).score for x in shuf_b[:, None]])
    return observed, np.abs(a - b)


# --- the exact test on the lesson's systems A and C --------------------------------------------

def test_exact_randomization_of_a_and_c_equals_brute_force_over_every_swap(parity_counter):
    systems, refs = data.systems(), data.references()
    streams = to_sacrebleu_references(refs)
    exact = exact_randomization(systems["A"], systems["C"], refs, names=("A", "C"))
    assert exact.differing == (3, 6, 12) and len(exact.swaps) == 8
    # Brute force: all 2^16 swaps of all 16 sentences, with sacreBLEU's own AR arithmetic.
    masks = list(itertools.product([False, True], repeat=16))
    observed, differences = _sacrebleu_ar_differences(systems["A"], systems["C"], streams, masks)
    assert exact.observed == observed
    assert exact.p_fraction == Fraction(int(np.sum(differences >= observed)), len(masks)) == Fraction(1, 4)
    assert exact.count_greater == int(np.sum(differences > observed)) == 0
    assert differences.max() == observed  # the largest possible difference IS the observed one
    assert exact.smallest_p_value == 0.25
    parity_counter["exact_randomization_brute_force_swaps"] += len(masks)
    # Every row of the table: the swapped pseudo-systems scored by sacreBLEU's module-level corpus_bleu.
    for swap in exact.swaps:
        a, c = list(systems["A"]), list(systems["C"])
        for i in swap.swapped:
            a[i - 1], c[i - 1] = c[i - 1], a[i - 1]
        sa, sc = sacrebleu.corpus_bleu(a, streams).score, sacrebleu.corpus_bleu(c, streams).score
        assert (swap.baseline_score, swap.system_score) == (sa, sc)
        assert swap.difference == abs(sa - sc) and swap.at_least_observed == (abs(sa - sc) >= observed)
        parity_counter["exact_randomization"] += 1


@pytest.mark.parametrize("n_samples, seed", [(1000, 12345), (10000, 12345), (500, 7)])
def test_sampled_trials_replay_sacrebleus_ar_test(parity_counter, n_samples, seed):
    systems, refs = data.systems(), data.references()
    streams = to_sacrebleu_references(refs)
    exact = exact_randomization(systems["A"], systems["C"], refs, names=("A", "C"))
    run = exact.sampled([n_samples], seed=seed).runs[0]
    with sacrebleu_seed(seed):
        _, scores = PairedTest([("A", systems["A"]), ("C", systems["C"])], {"BLEU": BLEU()}, streams,
                               test_type="ar", n_samples=n_samples)()
    assert run.p_strict == scores["BLEU"][1].p_value == 1 / (n_samples + 1)
    # The same coins as sacreBLEU's, counted with >= by sacreBLEU's own arithmetic.
    coins = np.random.default_rng(seed).integers(2, size=(n_samples, 16), dtype=bool)
    observed, differences = _sacrebleu_ar_differences(systems["A"], systems["C"], streams, coins)
    assert (run.greater, run.ties) == (int(np.sum(differences > observed)), int(np.sum(differences == observed)))
    assert run.p_at_least == (run.greater + run.ties + 1) / (n_samples + 1)
    parity_counter["sampled_randomization"] += 1


def test_sacrebleus_default_number_of_ar_trials_is_ten_thousand():
    systems, refs = data.systems(), data.references()
    with sacrebleu_seed(12345):
        tester = PairedTest([("A", systems["A"]), ("C", systems["C"])], {"BLEU": BLEU()},
                            to_sacrebleu_references(refs), test_type="ar")
    assert tester.n_samples == 10000
    assert PairedTest._DEFAULT_SAMPLES == {"ar": 10000, "bs": 1000}


def test_paired_test_ar_p_value_for_c_is_sacrebleus_floor():
    systems, refs = data.systems(), data.references()
    rows, _ = paired_test({"A": systems["A"], "C": systems["C"]}, refs, test="ar", n_samples=1000)
    exact = exact_randomization(systems["A"], systems["C"], refs)
    assert rows[1].p_value == 1 / 1001 == exact.sampled([1000]).runs[0].p_strict
    assert exact.p_value == 0.25


# --- the exact test on random small corpora, against sacreBLEU run directly ----------------------

WORDS = st.sampled_from(["the", "cat", "dog", "sat", "ran", "on", "a", "mat", "."])
text = st.lists(WORDS, min_size=1, max_size=7).map(" ".join)


@st.composite
def two_systems(draw):
    n = draw(st.integers(min_value=1, max_value=5))
    refs = [[draw(text)] for _ in range(n)]
    a = [draw(text) for _ in range(n)]
    b = [draw(st.one_of(st.just(x), text)) for x in a]  # some sentences identical, some not
    return refs, a, b


@settings(max_examples=60, deadline=None)
@given(two_systems())
def test_exact_p_value_equals_brute_force_with_sacrebleu(parity_counter, case):
    refs, a, b = case
    streams = to_sacrebleu_references(refs)
    exact = exact_randomization(a, b, refs)
    bleu = BLEU()
    observed = abs(bleu.corpus_score(a, streams).score - bleu.corpus_score(b, streams).score)
    hits = 0
    for mask in itertools.product([False, True], repeat=len(a)):  # every sentence, identical ones too
        x = [bi if m else ai for ai, bi, m in zip(a, b, mask)]
        y = [ai if m else bi for ai, bi, m in zip(a, b, mask)]
        hits += abs(bleu.corpus_score(x, streams).score - bleu.corpus_score(y, streams).score) >= observed
    assert exact.observed == observed
    assert exact.p_fraction == Fraction(hits, 2 ** len(a))
    k = sum(x != y for x, y in zip(a, b))
    assert len(exact.swaps) == 2 ** k and exact.p_value >= exact.smallest_p_value == min(1.0, 2 / 2 ** k)
    parity_counter["exact_randomization"] += 1


@settings(max_examples=25, deadline=None)
@given(two_systems(), st.integers(min_value=1, max_value=99))
def test_sampled_strict_p_value_equals_sacrebleus_ar(parity_counter, case, seed):
    refs, a, b = case
    exact = exact_randomization(a, b, refs, names=("a", "b"))
    with sacrebleu_seed(seed):
        _, scores = PairedTest([("a", a), ("b", b)], {"BLEU": BLEU()}, to_sacrebleu_references(refs),
                               test_type="ar", n_samples=200)()
    assert exact.sampled([200], seed=seed).runs[0].p_strict == scores["BLEU"][1].p_value
    parity_counter["sampled_randomization"] += 1


def test_identical_systems_have_exact_p_value_one():
    a, refs = data.systems()["A"], data.references()
    exact = exact_randomization(a, list(a), refs)
    assert exact.differing == () and len(exact.swaps) == 1 and exact.p_value == 1.0
    assert exact.smallest_p_value == 1.0


def test_exact_randomization_bad_input():
    systems, refs = data.systems(), data.references()
    with pytest.raises(ValueError, match=f"at most {MAX_DIFFERING}"):
        exact_randomization(systems["A"], systems["B"], refs)
    with pytest.raises(ValueError, match="list of 16 hypothesis strings"):
        exact_randomization(systems["A"], systems["C"][:15], refs)
    with pytest.raises(TypeError, match="pair of strings"):
        exact_randomization(systems["A"], systems["C"], refs, names=("A",))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="sacreBLEU treats 0"):
        exact_randomization(systems["A"], systems["C"], refs).sampled([100], seed=0)


def test_exact_and_sampled_views_show_the_same_cells():
    systems, refs = data.systems(), data.references()
    exact = exact_randomization(systems["A"], systems["C"], refs, names=("A", "C"))
    rows = exact_randomization_rows(exact)
    assert rows[0][0] == "none" and rows[-1][0] == "3, 6, 12" and [r[-1] for r in rows].count("yes") == 2
    text, html = repr(exact), exact._repr_html_()
    for row in rows:
        for cell in row:
            assert cell in text and cell in html
    assert "Exact p-value = 2/8 = 0.2500" in text
    sampled = exact.sampled([1000])
    assert sampled_randomization_rows(sampled) == [["1,000", "12345", "0", "243", "0.0010", "0.2438"]]
    assert "0.2438" in repr(sampled) and "0.2438" in sampled._repr_html_()


# --- the bootstrap distribution -------------------------------------------------------------------

@pytest.mark.parametrize("n_samples, seed, two", [(1000, 12345, False), (100, 3, True), (40, 8, False), (999, 5, False)])
def test_bootstrap_distribution_reproduces_sacrebleus_mean_and_interval(parity_counter, n_samples, seed, two):
    hyps, refs = data.systems()["B"], data.references(two=two)
    dist = bootstrap_distribution(hyps, refs, n_samples=n_samples, seed=seed)
    with sacrebleu_seed(seed):
        direct = BLEU().corpus_score(hyps, to_sacrebleu_references(refs), n_bootstrap=n_samples)
    assert len(dist.scores) == n_samples
    assert dist.score == direct.score and dist.interval.text.startswith("BLEU|")
    # The resampled scores give sacreBLEU's mean and half-width exactly.
    assert statistics.mean(dist.scores) == direct._mean == dist.mean
    ranked = sorted(dist.scores)
    r = n_samples // 40
    assert 0.5 * (ranked[n_samples - r - 1] - ranked[r]) == direct._ci == dist.half_width
    assert (dist.percentile_low, dist.percentile_high) == (ranked[r], ranked[n_samples - r - 1])
    assert dist.sacrebleu_low == direct._mean - direct._ci and dist.sacrebleu_high == direct._mean + direct._ci
    # Same width, different centre: sacreBLEU's interval is the percentile interval moved onto the mean.
    assert (dist.sacrebleu_high - dist.sacrebleu_low) == pytest.approx(dist.percentile_high - dist.percentile_low,
                                                                        abs=1e-9)
    assert bootstrap_distribution(hyps, refs, n_samples=n_samples, seed=seed) == dist  # repeatable
    parity_counter["bootstrap_distribution"] += 1


def test_bootstrap_view_labels_both_intervals():
    dist = bootstrap_distribution(data.systems()["A"], data.references())
    rows = bootstrap_rows(dist)
    assert rows[0] == ["BLEU of the test set", "71.95"]
    assert rows[2][0] == "sacreBLEU's 95% interval: mean ± half-width"
    assert rows[3][0] == "percentile 95% interval: 26th lowest to 26th highest resampled score"
    for row in rows:
        assert row[1] in repr(dist) and row[1] in dist._repr_html_()


def test_bootstrap_histogram_is_readable_on_a_projector():
    dist = bootstrap_distribution(data.systems()["A"], data.references())
    fig = plot_bootstrap(dist)
    ax = fig.axes[0]
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title() == "BLEU of 1,000 resampled test sets"
    assert sum(p.get_height() for p in ax.patches) == 1000
    assert {p.get_facecolor() for p in ax.patches} == {ax.patches[0].get_facecolor()}  # one colour
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(label.startswith("sacreBLEU's interval, mean ± half-width") for label in labels)
    assert any(label.startswith("percentile interval") for label in labels)
    png = png_bytes(fig)
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (round(fig.get_figwidth() * PNG_DPI), round(fig.get_figheight() * PNG_DPI))
    assert PNG_DPI >= 150


def test_approximate_randomization_on_three_differing_sentences_is_not_called_significant():
    from bleu_teach.lessons import data
    from bleu_teach.lessons.significance import paired_test, significance_table

    rows, _ = paired_test(data.systems(), data.references(), test="ar", n_samples=1000)
    c = next(r for r in rows if r.name == "C")
    differing = sum(a != b for a, b in zip(data.systems()["A"], data.systems()["C"]))
    assert c.differing == differing == 3 and c.smallest_exact_p == 2 / 8
    assert c.p_value == 1 / 1001  # sacreBLEU's floor: it counts only strictly larger differences
    assert c.significant(0.05) is False
    assert "cannot be significant" in repr(significance_table(rows))
    b = next(r for r in rows if r.name == "B")
    assert b.significant(0.05) is True  # 16 differing sentences: the exact floor is tiny
