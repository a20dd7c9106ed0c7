"""Any Python value, in any argument of the public API: an answer, or a TypeError/ValueError that says what to do.

Hypothesis puts arbitrary values (None, bytes, huge integers, NaN and
infinity, numpy scalars and arrays, strings with control characters and
lone surrogates, nested lists, generators, dicts) into one argument of each
public function, widget constructor and exercise checker at a time, the
others left valid.  Every call must return, or raise TypeError or ValueError
with a message, within a time bound; nothing else (no KeyError, IndexError,
ZeroDivisionError, OverflowError, AttributeError, traitlets error, hang).
Where a call returns a number that NLTK also computes, it must be NLTK's.
The command line gets random arguments and files in a subprocess.  The
number of cases run is printed with the oracle counts.
"""

from __future__ import annotations

import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

import bleu_teach as bt
from bleu_teach.exercises import check, check_bleu, check_brevity_penalty, check_choice, check_modified_precision
from bleu_teach.lessons.limitations import chunk_permutation, order_table, settings_table
from bleu_teach.lessons.tool_comparison import compare_tools
from tests.conftest import PARITY_CASES, examples

#: Seconds one call may take (generous for a slow CI machine; the old hangs took from 5 s to forever).
TIME_BOUND = 5.0
CASES = examples(60)

REF = ["the", "cat", "is", "on", "the", "mat"]
HYP = ["the", "cat", "sat", "on", "the", "mat"]


def _generator() -> Any:
    return (t for t in ["the", "cat"])


odd_text = st.text(alphabet=st.characters(blacklist_categories=()), max_size=12)  # control characters, surrogates
anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([10**400, -1, 0, 2**63]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([np.int64(3), np.float32(0.25), np.nan]),
    st.fractions(),
    st.binary(max_size=8),
    odd_text,
    st.lists(odd_text, max_size=3),
    st.lists(st.lists(odd_text, max_size=3), max_size=3),
    st.tuples(st.floats(), st.floats()),
    st.dictionaries(odd_text, st.integers(), max_size=2),
    st.builds(_generator),
    st.builds(lambda: np.array([["a", "b"], ["c", "d"]])),
    st.builds(lambda: np.array([0.5, 0.5])),
    st.builds(object),
)

#: (name, the call with one argument replaced by ``value``, which argument), one per public entry point.
CALLS: list[tuple[str, Callable[[Any], Any]]] = [
    ("sentence_bleu references", lambda v: bt.sentence_bleu(v, HYP)),
    ("sentence_bleu hypothesis", lambda v: bt.sentence_bleu([REF], v)),
    ("sentence_bleu weights", lambda v: bt.sentence_bleu([REF], HYP, v)),
    ("sentence_bleu smoothing", lambda v: bt.sentence_bleu([REF], HYP, smoothing_function=v)),
    ("sentence_bleu auto_reweigh", lambda v: bt.sentence_bleu([REF], HYP, auto_reweigh=v)),
    ("corpus_bleu list_of_references", lambda v: bt.corpus_bleu(v, [HYP])),
    ("corpus_bleu hypotheses", lambda v: bt.corpus_bleu([[REF]], v)),
    ("modified_precision n", lambda v: bt.modified_precision([REF], HYP, v)),
    ("ngrams n", lambda v: bt.ngrams(HYP, v)),
    ("brevity_penalty closest_ref_len", lambda v: bt.brevity_penalty(v, 6)),
    ("brevity_penalty hyp_len", lambda v: bt.brevity_penalty(6, v)),
    ("closest_ref_length references", lambda v: bt.closest_ref_length(v, 6)),
    ("explain weights", lambda v: bt.explain([REF], HYP, weights=v)),
    ("explain smoothing", lambda v: bt.explain([REF], HYP, smoothing=v)),
    ("explain_corpus hypotheses", lambda v: bt.explain_corpus([[REF]], v)),
    ("compare_hypotheses hypothesis_b", lambda v: bt.compare_hypotheses([REF], HYP, v)),
    ("corpus_score hypotheses", lambda v: bt.corpus_score(v, [["the cat is on the mat"]])),
    ("corpus_score references", lambda v: bt.corpus_score(["the cat sat"], v)),
    ("corpus_score max_ngram_order", lambda v: bt.corpus_score(["the cat sat"], [["the cat"]], max_ngram_order=v)),
    ("sentence_score hypothesis", lambda v: bt.sentence_score(v, ["the cat is on the mat"])),
    ("sentence_score lowercase", lambda v: bt.sentence_score("the cat", ["the cat"], lowercase=v)),
    ("explain_chrf beta", lambda v: bt.explain_chrf("the cat", ["the cat"], beta=v)),
    ("explain_chrf char_order", lambda v: bt.explain_chrf("the cat", ["the cat"], char_order=v)),
    ("explain_chrf references", lambda v: bt.explain_chrf("the cat", v)),
    ("tokenize text", lambda v: bt.tokenize(v)),
    ("tokenize tokenizer", lambda v: bt.tokenize("the cat", v)),
    ("to_sacrebleu_references", lambda v: bt.to_sacrebleu_references(v)),
    ("check answer (numeric)", lambda v: check("01.1", v)),
    ("check answer (choice)", lambda v: check("03.2", v)),
    ("check exercise_id", lambda v: check(v, "A")),
    ("check_modified_precision n", lambda v: check_modified_precision(None, [REF], HYP, v)),
    ("check_brevity_penalty lengths", lambda v: check_brevity_penalty(None, v, 5)),
    ("check_brevity_penalty hyp_len", lambda v: check_brevity_penalty(None, [6], v)),
    ("check_bleu weights", lambda v: check_bleu(None, [REF], HYP, v)),
    ("check_choice options", lambda v: check_choice("A", v, "A", {"A": "x", "B": "y"})),
    ("check_choice right", lambda v: check_choice("A", {"A": "x", "B": "y"}, v, {"A": "x", "B": "y"})),
    ("settings_table references", lambda v: settings_table("the cat", v)),
    ("order_table hypotheses", lambda v: order_table(v, ["the cat"])),
    ("order_table max_order", lambda v: order_table({"A": "the cat"}, ["the cat"], max_order=v)),
    ("chunk_permutation order", lambda v: chunk_permutation("the cat sat on the mat", ["the cat is on the mat"], v)),
    ("compare_tools smoothing", lambda v: compare_tools([REF], HYP, smoothing=v)),
]


def _widget_calls() -> list[tuple[str, Callable[[Any], Any]]]:
    from bleu_teach.ui.widgets import BleuExplorer, BrevityPenaltyExplorer, ClippingExplorer, SideBySideExplorer

    return [
        ("BleuExplorer hypothesis", lambda v: BleuExplorer(v, ["the cat"])),
        ("BleuExplorer references", lambda v: BleuExplorer("the cat", v)),
        ("BleuExplorer smoothing", lambda v: BleuExplorer("the cat", ["the cat"], smoothing=v)),
        ("BleuExplorer max_n", lambda v: BleuExplorer("the cat", ["the cat"], max_n=v)),
        ("ClippingExplorer n", lambda v: ClippingExplorer("the cat", ["the cat"], n=v)),
        ("BrevityPenaltyExplorer max_len", lambda v: BrevityPenaltyExplorer(max_len=v)),
        ("SideBySideExplorer tokenizer", lambda v: SideBySideExplorer("a", "b", ["a"], tokenizer=v)),
    ]


def _answered_or_refused(name: str, call: Callable[[Any], Any], value: Any, counter: Any) -> None:
    started = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(value)
    except (TypeError, ValueError) as problem:
        assert str(problem).strip(), f"{name}({value!r}): {type(problem).__name__} without a message"
        assert "Trait" not in type(problem).__name__, f"{name}({value!r}): a traitlets error"
    seconds = time.perf_counter() - started
    assert seconds < TIME_BOUND, f"{name}({value!r}) took {seconds:.1f} s"
    counter["fuzz: public API calls with an arbitrary argument"] += 1


@pytest.mark.parametrize("name, call", CALLS, ids=[name for name, _ in CALLS])
def test_every_public_function_answers_or_refuses_any_argument(
    name: str, call: Callable[[Any], Any], parity_counter: Any
) -> None:
    @settings(
        max_examples=CASES,
        deadline=None,
        database=None,
        derandomize=True,
        phases=(Phase.explicit, Phase.generate),
        suppress_health_check=list(HealthCheck),
    )
    @given(anything)
    def run(value: Any) -> None:
        _answered_or_refused(name, call, value, parity_counter)

    run()


@pytest.mark.parametrize("index", range(7))
def test_every_widget_constructor_answers_or_refuses_any_argument(index: int, parity_counter: Any) -> None:
    name, call = _widget_calls()[index]

    @settings(
        max_examples=examples(25),
        deadline=None,
        database=None,
        derandomize=True,
        phases=(Phase.explicit, Phase.generate),
        suppress_health_check=list(HealthCheck),
    )
    @given(anything)
    def run(value: Any) -> None:
        _answered_or_refused(name, call, value, parity_counter)

    run()


weight_types = st.sampled_from([float, Fraction, np.float64, np.float32])


@settings(
    max_examples=examples(150), deadline=None, database=None, derandomize=True, phases=(Phase.explicit, Phase.generate)
)
@given(
    st.lists(st.sampled_from(["the", "cat", "a", "mat"]), min_size=1, max_size=6),
    st.lists(st.sampled_from(["the", "cat", "a", "mat"]), min_size=1, max_size=6),
    st.integers(min_value=1, max_value=5),
    weight_types,
    st.booleans(),
)
def test_any_weight_type_nltk_takes_gives_nltks_number(
    ref: list[str], hyp: list[str], k: int, kind: Any, auto_reweigh: bool
) -> None:
    weights = tuple(kind(1) / kind(k) for _ in range(k)) if kind is not Fraction else (Fraction(1, k),) * k
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = nltk_sentence_bleu([ref], hyp, weights, auto_reweigh=auto_reweigh)
        ours = bt.sentence_bleu([ref], hyp, weights, auto_reweigh=auto_reweigh)
    assert ours == theirs
    PARITY_CASES["fuzz: weight types against NLTK"] += 1


# --- the command line, in a subprocess ---

cli_words = st.sampled_from(
    [
        "explain",
        "corpus",
        "chrf",
        "chrf-corpus",
        "--ref",
        "--max-n",
        "--char-order",
        "--format",
        "--tokenizer",
        "--smoothing",
        "--standalone",
        "--",
        "-",
        "-t",
        "latex",
        "json",
        "13a",
        "0",
        "-1",
        "100000",
        "1e9",
        "method1",
        "\x1b[2J",
        "-the cat",
        "the cat",
        "ελληνικά",
        "\u202e",
        "",
    ]
)


@settings(
    max_examples=examples(25), deadline=None, database=None, derandomize=True, phases=(Phase.explicit, Phase.generate)
)
@given(st.lists(cli_words, min_size=0, max_size=7))
def test_the_command_line_answers_or_refuses_in_one_line(argv: list[str]) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "bleu_teach", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        input="the cat sat\n",
        errors="surrogateescape",
    )
    assert run.returncode in (0, 2), (argv, run.returncode, run.stderr[-500:])
    assert "Traceback" not in run.stderr, (argv, run.stderr[-500:])
    assert "\x1b" not in run.stdout and "\x1b" not in run.stderr, argv  # typed control characters are escaped
    if run.returncode == 2:
        assert run.stderr.startswith("error: ") or "usage:" in run.stderr, (argv, run.stderr[-300:])
    PARITY_CASES["fuzz: command lines"] += 1
