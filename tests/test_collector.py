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


def test_pauses_in_two_threads_end_with_the_last():
    import threading

    first_in, second_in, first_out, second_may_end = (threading.Event() for _ in range(4))
    seen: dict[str, bool] = {}

    def first() -> None:
        with collector_paused():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    def second() -> None:
        first_in.wait(5)
        with collector_paused():
            second_in.set()
            first_out.wait(5)
            seen["after the first ended"] = gc.isenabled()
            second_may_end.wait(5)

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    first_out.wait(5)
    second_in.wait(5)
    while "after the first ended" not in seen and threads[1].is_alive():
        threads[1].join(0.01)
    second_may_end.set()
    for thread in threads:
        thread.join(5)
    assert seen == {"after the first ended": False}  # still paused: the second had not ended
    assert gc.isenabled()


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="no fork on this platform")
def test_a_child_forked_during_a_pause_has_the_collector_running():
    import os
    import threading

    paused, may_end = threading.Event(), threading.Event()

    def counting_thread() -> None:
        with collector_paused():
            paused.set()
            may_end.wait(5)

    thread = threading.Thread(target=counting_thread)
    thread.start()
    paused.wait(5)
    assert not gc.isenabled()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the pausing thread does not exist here
        try:
            on = gc.isenabled()
            with collector_paused():  # and a pause of its own still works
                during = gc.isenabled()
            os.write(write, f"{on} {during} {gc.isenabled()}".encode())
        finally:
            os._exit(0)
    os.close(write)
    answer = os.read(read, 100).decode()
    os.close(read)
    os.waitpid(pid, 0)
    may_end.set()
    thread.join(5)
    assert answer == "True False True"
    assert gc.isenabled()
