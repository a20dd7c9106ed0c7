"""sacreBLEU's resampling done on bleu_teach's counts: each piece against sacreBLEU run directly, and the seam
(no sacreBLEU private name, no environment variable) checked in the source."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import BLEU
from sacrebleu.significance import estimate_ci

from bleu_teach.inputs.corpus_layout import to_sacrebleu_references
from bleu_teach.lessons import data
from bleu_teach.lessons.resampling import (
    bootstrap,
    check_seed,
    corpus_bleu,
    interval,
    numpy_interval,
    randomization_draws,
    segment_statistics,
    signature,
)
from tests.conftest import examples
from tests.oracles import sacrebleu_rows, sacrebleu_score_of_sums, sacrebleu_seed

PACKAGE = Path(__file__).resolve().parent.parent / "bleu_teach"
WORDS = st.sampled_from(["the", "cat", "Dog", "sat", "ran", "on", "a", "mat", ".", "mat."])
text = st.lists(WORDS, min_size=0, max_size=7).map(" ".join)


@settings(max_examples=examples(60), deadline=None)
@given(
    st.lists(st.tuples(text, st.lists(st.one_of(text, st.none()), min_size=1, max_size=3)), min_size=1, max_size=5),
    st.sampled_from(["13a", "none", "char", "intl"]),
    st.booleans(),
)
def test_segment_statistics_are_sacrebleus_per_segment(parity_counter, segments, tokenize, lowercase):
    segments = [(h, refs if any(r is not None for r in refs) else ["the cat"]) for h, refs in segments]
    rows = segment_statistics([h for h, _ in segments], [refs for _, refs in segments], tokenize, lowercase)
    metric = BLEU(tokenize=tokenize, lowercase=lowercase, smooth_method="none")
    for (hyp, refs), row in zip(segments, rows):
        one = metric.corpus_score([hyp], [[r] for r in refs])  # public fields: lengths, counts, totals
        assert row == [one.sys_len, one.ref_len, *one.counts, *one.totals]
    streams = to_sacrebleu_references([refs for _, refs in segments])
    assert (
        corpus_bleu(rows, "exp")
        == BLEU(tokenize=tokenize, lowercase=lowercase).corpus_score([h for h, _ in segments], streams).score
    )
    parity_counter["segment_statistics"] += 1


@pytest.mark.parametrize("n_samples, seed", [(1000, 12345), (77, 4)])
def test_bootstrap_draws_and_scores_as_sacrebleu(parity_counter, n_samples, seed):
    # The oracle: sacreBLEU's resampling as its significance module does it (read in its source): NumPy's
    # default_rng(seed) draws every resample's segment indices at once, rng.choice(n, size=(n_samples, n)), the
    # statistics are summed as float32, and each sum is scored like a corpus; here with its public parts only.
    hyps, refs = data.systems()["B"], data.references(two=True)
    rows = segment_statistics(hyps, refs, "13a", False)
    whole, resampled = bootstrap(rows, n_samples, seed, "exp")
    assert rows == sacrebleu_rows(hyps, refs)
    indexes = np.random.default_rng(seed).choice(len(rows), size=(n_samples, len(rows)), replace=True)
    sums = np.array(rows, dtype="float32")[indexes].sum(axis=1)
    assert [s.score for s in resampled] == [sacrebleu_score_of_sums(row) for row in sums]
    assert whole.score == BLEU().corpus_score(hyps, to_sacrebleu_references(refs)).score
    scores = [s.score for s in resampled]
    assert numpy_interval(scores) == tuple(float(x) for x in estimate_ci(np.array(scores)))
    assert interval(scores)[1] == numpy_interval(scores)[1]
    # And sacreBLEU's own bootstrap, through its public corpus_score(n_bootstrap=...), prints the same mean and CI.
    with sacrebleu_seed(seed):
        printed = BLEU().corpus_score(hyps, to_sacrebleu_references(refs), n_bootstrap=n_samples).format()
    mean, half = numpy_interval(scores)[0], numpy_interval(scores)[1]
    assert f"(μ = {mean:.2f} ± {half:.2f})" in printed, printed
    parity_counter["bootstrap_scores"] += 1


def test_randomization_coins_come_before_the_bootstrap_draws():
    coins, draws = randomization_draws(5, 3, 12345, n_bootstrap=4)
    rng = np.random.default_rng(12345)
    assert (coins == rng.integers(2, size=(5, 3), dtype=bool)).all()
    assert (draws == rng.choice(3, size=(4, 3), replace=True)).all()
    assert randomization_draws(5, 3, 12345)[1] is None


@pytest.mark.parametrize("refs", [[["a b", "a c"], ["d e", None]], [["a b"], ["d e"]]])
def test_signature_is_sacrebleus(monkeypatch, refs):
    monkeypatch.setenv("SACREBLEU_SEED", "3")
    metric = BLEU(lowercase=True)
    metric.corpus_score(["a b", "d e"], to_sacrebleu_references(refs), n_bootstrap=40)
    assert signature(refs, "13a", True, "exp", bs=40, seed="3") == str(metric.get_signature())
    assert "bs:40" in str(metric.get_signature()) and "seed:3" in str(metric.get_signature())


def test_seed_must_be_positive():
    with pytest.raises(ValueError, match="sacreBLEU treats 0"):
        check_seed(0)
    with pytest.raises(TypeError, match="positive whole number"):
        check_seed(True)


@pytest.mark.parametrize(
    "module",
    ["lessons/significance.py", "lessons/confidence_intervals.py", "lessons/randomization.py", "lessons/resampling.py"],
)
def test_no_private_name_of_another_library_and_no_environment(module):
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            private = node.attr.startswith("_") and not node.attr.startswith("__")
            assert not private, f"{module} line {node.lineno} reads .{node.attr}"
            assert node.attr != "environ", f"{module} line {node.lineno} touches os.environ"
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sacrebleu"):
            assert not any(a.name.startswith("_") for a in node.names), f"{module} line {node.lineno}"
        if isinstance(node, ast.Import):
            assert all(a.name != "os" for a in node.names), f"{module} imports os"
