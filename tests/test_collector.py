"""Counting a corpus (or a report's rows) pauses Python's cycle collector, and leaves it as it found it."""

from __future__ import annotations

import gc
import random

import pytest

import bleu_teach as bt
from bleu_teach.bleu import counting
from bleu_teach.bleu.counting import collector_paused
from bleu_teach.chrf.counting import ChrfProfile


def _corpus(segments: int) -> tuple[list[str], list[list[str]]]:
    rng = random.Random(3)
    words = [f"w{i}" for i in range(8)]  # few words: every order matches somewhere

    def text() -> str:
        return " ".join(rng.choice(words) for _ in range(rng.randint(5, 30)))

    return [text() for _ in range(segments)], [[text(), text()] for _ in range(segments)]


@pytest.mark.parametrize(
    ("score", "counter"),
    [
        (lambda h, r: bt.corpus_score(h, r), (counting, "count_matches")),
        (
            lambda h, r: bt.corpus_bleu([[t.split() for t in refs] for refs in r], [t.split() for t in h]),
            (counting, "count_matches"),
        ),
        (lambda h, r: bt.chrf_score(h, r), (ChrfProfile, "match")),
        (
            lambda h, r: [bt.explain([t.split() for t in refs], t.split()) for t, refs in zip(h, r)],
            (counting, "_order"),
        ),
    ],
    ids=["corpus_score", "corpus_bleu", "chrf_score", "explain"],
)
def test_every_segment_is_counted_with_the_collector_paused(score, counter, monkeypatch):
    owner, name = counter
    counted = getattr(owner, name)
    seen = []

    def watched(*args):
        seen.append(gc.isenabled())
        return counted(*args)

    monkeypatch.setattr(owner, name, watched)
    hyps, refs = _corpus(50)
    assert gc.isenabled()
    score(hyps, refs)
    assert len(seen) >= 50 and not any(seen)
    assert gc.isenabled()


def test_the_collector_is_left_as_it_was():
    assert gc.isenabled()
    with pytest.raises(ValueError):
        with collector_paused():
            assert not gc.isenabled()
            raise ValueError("an error while counting")
    assert gc.isenabled()  # back on after an error

    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # off before: still off, not switched on by the pause
        bt.corpus_score(["a b c"], [["a b c"]])
        assert not gc.isenabled()
    finally:
        gc.enable()
