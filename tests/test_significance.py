"""The exact randomization test, sacreBLEU's AR trials replayed, the bootstrap distribution behind the interval,
the interval and the paired tests (lesson 06), each checked against sacreBLEU run directly; every view of each
result."""

from __future__ import annotations

import itertools
import os
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

from bleu_teach.inputs.corpus_layout import to_sacrebleu_references
from bleu_teach.lessons import data
from bleu_teach.lessons.confidence_intervals import bootstrap_ci, bootstrap_distribution
from bleu_teach.lessons.randomization import MAX_DIFFERING, exact_randomization
from bleu_teach.lessons.significance import paired_test, significance_table
from bleu_teach.ui.plots import PNG_DPI, plot_bootstrap, png_bytes
from bleu_teach.views.document import Table as TableBlock
from tests.conftest import examples
from tests.oracles import sacrebleu_rows, sacrebleu_score_of_sums, sacrebleu_seed
from tests.view_checks import assert_tables_shown, check_every_view

#: SacreBLEU's resampling tests, thousands of resampled corpora each: the full run only (make check leaves them out).
pytestmark = pytest.mark.slow


def table_cells(result):
    """The cells of a result's table, as its document holds them (and every view shows them)."""
    (table,) = [b for b in result.to_document().blocks if isinstance(b, TableBlock)]
    return [list(row) for row in table.rows]


def _sacrebleu_ar_differences(baseline, system, refs, masks):
    """sacreBLEU's AR arithmetic (its paired AR test, read in its source) on the given coin rows, with its public
    parts: each segment's statistics, swapped where the coin says, summed and scored; |BLEU(A') - BLEU(B')|."""
    bl = np.array(sacrebleu_rows(baseline, refs))
    sy = np.array(sacrebleu_rows(system, refs))
    observed = abs(sacrebleu_score_of_sums(bl.sum(0)) - sacrebleu_score_of_sums(sy.sum(0)))
    pos = np.asarray(masks, dtype=bool)
    shuf_a = pos @ bl + ~pos @ sy
    shuf_b = ~pos @ bl + pos @ sy
    a = np.array([sacrebleu_score_of_sums(x) for x in shuf_a])
    b = np.array([sacrebleu_score_of_sums(x) for x in shuf_b])
    return observed, np.abs(a - b)


# --- the exact test on the lesson's systems A and C --------------------------------------------


def test_exact_randomization_of_a_and_c_equals_brute_force_over_every_swap(parity_counter):
    systems, refs = data.systems(), data.references()
    streams = to_sacrebleu_references(refs)
    exact = exact_randomization(systems["A"], systems["C"], refs, names=("A", "C"))
    assert exact.differing == (3, 6, 12) and len(exact.swaps) == 8
    # Brute force: all 2^16 swaps of all 16 sentences, with sacreBLEU's own AR arithmetic.
    masks = list(itertools.product([False, True], repeat=16))
    observed, differences = _sacrebleu_ar_differences(systems["A"], systems["C"], refs, masks)
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
        _, scores = PairedTest(
            [("A", systems["A"]), ("C", systems["C"])], {"BLEU": BLEU()}, streams, test_type="ar", n_samples=n_samples
        )()
    assert run.p_strict == scores["BLEU"][1].p_value == 1 / (n_samples + 1)
    # The same coins as sacreBLEU's, counted with >= by sacreBLEU's own arithmetic.
    coins = np.random.default_rng(seed).integers(2, size=(n_samples, 16), dtype=bool)
    observed, differences = _sacrebleu_ar_differences(systems["A"], systems["C"], refs, coins)
    assert (run.greater, run.ties) == (int(np.sum(differences > observed)), int(np.sum(differences == observed)))
    assert run.p_at_least == (run.greater + run.ties + 1) / (n_samples + 1)
    parity_counter["sampled_randomization"] += 1


def test_sacrebleus_default_number_of_ar_trials_is_ten_thousand():
    systems, refs = data.systems(), data.references()
    with sacrebleu_seed(12345):
        tester = PairedTest(
            [("A", systems["A"]), ("C", systems["C"])], {"BLEU": BLEU()}, to_sacrebleu_references(refs), test_type="ar"
        )
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


@settings(max_examples=examples(60), deadline=None)
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
    assert len(exact.swaps) == 2**k and exact.p_value >= exact.smallest_p_value == min(1.0, 2 / 2**k)
    parity_counter["exact_randomization"] += 1


@settings(max_examples=examples(25), deadline=None)
@given(two_systems(), st.integers(min_value=1, max_value=99))
def test_sampled_strict_p_value_equals_sacrebleus_ar(parity_counter, case, seed):
    refs, a, b = case
    exact = exact_randomization(a, b, refs, names=("a", "b"))
    with sacrebleu_seed(seed):
        _, scores = PairedTest(
            [("a", a), ("b", b)], {"BLEU": BLEU()}, to_sacrebleu_references(refs), test_type="ar", n_samples=200
        )()
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
    rows = table_cells(exact)
    assert rows[0][0] == "none" and rows[-1][0] == "3, 6, 12" and [r[-1] for r in rows].count("yes") == 2
    text, html = repr(exact), exact._repr_html_()
    for row in rows:
        for cell in row:
            assert cell in text and cell in html
    assert "Exact p-value = 2/8 = 0.2500" in text
    sampled = exact.sampled([1000])
    assert table_cells(sampled) == [["1,000", "12345", "0", "243", "0.0010", "0.2438"]]
    assert "0.2438" in repr(sampled) and "0.2438" in sampled._repr_html_()


# --- the bootstrap distribution -------------------------------------------------------------------


@pytest.mark.parametrize(
    "n_samples, seed, two", [(1000, 12345, False), (100, 3, True), (40, 8, False), (999, 5, False)]
)
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
    assert (dist.sacrebleu_high - dist.sacrebleu_low) == pytest.approx(
        dist.percentile_high - dist.percentile_low, abs=1e-9
    )
    assert bootstrap_distribution(hyps, refs, n_samples=n_samples, seed=seed) == dist  # repeatable
    parity_counter["bootstrap_distribution"] += 1


def test_bootstrap_view_labels_both_intervals():
    dist = bootstrap_distribution(data.systems()["A"], data.references())
    rows = table_cells(dist)
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
    rows, _ = paired_test(data.systems(), data.references(), test="ar", n_samples=1000)
    c = next(r for r in rows if r.name == "C")
    differing = sum(a != b for a, b in zip(data.systems()["A"], data.systems()["C"]))
    assert c.differing == differing == 3 and c.smallest_exact_p == 2 / 8
    assert c.p_value == 1 / 1001  # sacreBLEU's floor: it counts only strictly larger differences
    assert c.significant(0.05) is False
    assert "cannot be significant" in repr(significance_table(rows))
    b = next(r for r in rows if r.name == "B")
    assert b.significant(0.05) is True  # 16 differing sentences: the exact floor is tiny


# --- the paired tests and the interval, computed here, against sacreBLEU run the sacreBLEU way -------


def _sacrebleu_paired(monkeypatch, systems, refs, test, n_samples, seed, **options):
    """sacreBLEU's PairedTest as its users run it: the seed in SACREBLEU_SEED."""
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    tester = PairedTest(
        list(systems.items()),
        {"BLEU": BLEU(**options)},
        to_sacrebleu_references(refs),
        test_type=test,
        n_samples=n_samples,
        n_ar_confidence=n_samples if test == "ar" else -1,
    )
    signatures, scores = tester()
    return str(signatures["BLEU"]), scores["BLEU"]


@pytest.mark.parametrize(
    "test, n_samples, seed, two, lowercase",
    [
        ("bs", 1000, 12345, False, False),
        ("bs", 200, 7, True, True),
        ("bs", 41, 2, False, False),
        ("ar", 1000, 12345, False, False),
        ("ar", 300, 3, True, False),
        ("ar", 10000, 12345, False, True),
    ],
)
def test_paired_test_equals_sacrebleus_paired_test(monkeypatch, parity_counter, test, n_samples, seed, two, lowercase):
    systems, refs = data.systems(), data.references(two=two)
    systems = {**systems, "copy of A": list(systems["A"])}
    rows, signature = paired_test(systems, refs, test=test, n_samples=n_samples, seed=seed, lowercase=lowercase)
    expected_signature, expected = _sacrebleu_paired(
        monkeypatch, systems, refs, test, n_samples, seed, lowercase=lowercase
    )
    assert signature == expected_signature and f"{test}:{n_samples}" in signature and f"seed:{seed}" in signature
    assert len(rows) == len(expected) == 4
    for row, result in zip(rows, expected):
        assert (row.score, row.p_value, row.mean, row.half_width) == (
            result.score,
            result.p_value,
            result.mean,
            result.ci,
        )
        parity_counter["paired_test"] += 1
    assert rows[3].identical_to_baseline and rows[3].p_value == 1 / (n_samples + 1)


@pytest.mark.parametrize(
    "smooth_method, tokenize, lowercase, n_samples, seed",
    [
        ("exp", "13a", False, 1000, 12345),
        ("floor", "13a", True, 200, 7),
        ("add-k", "intl", False, 100, 3),
        ("none", "char", False, 40, 11),
        ("exp", "none", True, 999, 5),
    ],
)
def test_bootstrap_ci_equals_sacrebleus_corpus_score(
    monkeypatch, parity_counter, smooth_method, tokenize, lowercase, n_samples, seed
):
    hyps, refs = data.systems()["B"], data.references(two=True)
    ci = bootstrap_ci(
        hyps, refs, n_samples=n_samples, seed=seed, tokenize=tokenize, lowercase=lowercase, smooth_method=smooth_method
    )
    monkeypatch.setenv("SACREBLEU_SEED", str(seed))
    metric = BLEU(tokenize=tokenize, lowercase=lowercase, smooth_method=smooth_method)
    direct = metric.corpus_score(hyps, to_sacrebleu_references(refs), n_bootstrap=n_samples)
    assert (ci.score, ci.mean, ci.half_width) == (direct.score, direct._mean, direct._ci)
    assert ci.text == direct.format(signature=str(metric.get_signature()))
    parity_counter["bootstrap_ci"] += 1


@settings(max_examples=examples(25), deadline=None)
@given(two_systems(), st.integers(min_value=1, max_value=10**6), st.sampled_from(["bs", "ar"]))
def test_paired_test_on_random_corpora_equals_sacrebleu(parity_counter, case, seed, test):
    refs, a, b = case
    rows, signature = paired_test({"a": a, "b": b}, refs, test=test, n_samples=60, seed=seed)
    ci = bootstrap_distribution(b, refs, n_samples=40, seed=seed)
    with pytest.MonkeyPatch.context() as patch:
        expected_signature, expected = _sacrebleu_paired(patch, {"a": a, "b": b}, refs, test, 60, seed)
        direct = BLEU().corpus_score(b, to_sacrebleu_references(refs), n_bootstrap=40)
    assert signature == expected_signature
    assert [(r.score, r.p_value, r.mean, r.half_width) for r in rows] == [
        (e.score, e.p_value, e.mean, e.ci) for e in expected
    ]
    assert (ci.score, ci.mean, ci.half_width) == (direct.score, direct._mean, direct._ci)
    parity_counter["paired_test"] += len(rows)
    parity_counter["bootstrap_ci"] += 1


def test_the_seed_is_an_argument_and_the_environment_is_left_alone(monkeypatch):
    a, refs = data.systems()["A"], data.references()
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)
    plain = bootstrap_ci(a, refs, n_samples=100, seed=7)
    rows, _ = paired_test({"A": a, "C": data.systems()["C"]}, refs, n_samples=100, seed=7)
    assert "SACREBLEU_SEED" not in os.environ
    monkeypatch.setenv("SACREBLEU_SEED", "999")
    assert bootstrap_ci(a, refs, n_samples=100, seed=7) == plain
    assert paired_test({"A": a, "C": data.systems()["C"]}, refs, n_samples=100, seed=7)[0] == rows
    assert os.environ["SACREBLEU_SEED"] == "999"


# --- every view of every result -----------------------------------------------------------------------


def test_every_view_of_every_significance_result(tmp_path):
    systems, refs = data.systems(), data.references()
    exact = exact_randomization(systems["A"], systems["C"], refs, names=("A", "C"))
    rows, _ = paired_test(systems, refs, n_samples=100)
    results = [
        bootstrap_ci(systems["A"], refs, n_samples=100),
        significance_table(rows),
        bootstrap_distribution(systems["A"], refs, n_samples=100),
        exact,
        exact.sampled([1000]),
    ]
    for i, result in enumerate(results):
        folder = tmp_path / str(i)
        folder.mkdir()
        check_every_view(result, folder)
        cells = [cell for row in table_cells(result) for cell in row]
        assert repr(result) == result.to_text() and result._repr_html_() == result.to_html()
        assert cells and all(cells[:1])
        assert_tables_shown(result)
    ci = results[0]
    assert table_cells(ci) == [
        [f"{ci.score:.2f}", f"{ci.mean:.2f} ± {ci.half_width:.2f} = {ci.low:.2f} to {ci.high:.2f}", "100", "12345"]
    ]
    assert ci.text in ci.to_text() and "(\u03bc = " in ci.text  # sacreBLEU's own line, with its mean and half-width
    assert table_cells(results[1]) == results[1].rows


def test_system_names_are_user_text_in_every_view(tmp_path):
    a, refs = data.systems()["A"], data.references()
    name = "<b>*x*</b> | p_1"
    table = significance_table(paired_test({name: a, "C": data.systems()["C"]}, refs, n_samples=100)[0])
    exact = exact_randomization(a, data.systems()["C"], refs, names=(name, "C"))
    for result in (table, exact):
        assert "<b>*x*" not in result.to_html() and "&lt;b&gt;*x*&lt;/b&gt;" in result.to_html()
        assert "\\*x\\*" in result.to_markdown() and "\\textless{}b\\textgreater{}" in result.to_latex()
        assert name in result.to_text()
    check_every_view(table, tmp_path)
