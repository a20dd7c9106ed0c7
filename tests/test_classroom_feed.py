"""The change feed (:mod:`bleu_teach.classroom.feed`) counts a session once for every dashboard waiting on it."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bleu_teach.classroom import feed as feed_module
from bleu_teach.classroom.counts import Latest
from bleu_teach.classroom.feed import Feed
from tests.own_loop import run_alone


def _counting_feed() -> tuple[Feed, list[int]]:
    calls: list[int] = []
    lock = threading.Lock()

    def count(session_id: int, names: bool, latest: Latest, roster: bool) -> str:
        with lock:
            calls.append(session_id)
            return f"count {len(calls)}"

    return Feed(count), calls


def test_fifty_dashboards_waiting_while_a_class_answers_share_one_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(feed_module, "EVERY", 0.05)
    feed, calls = _counting_feed()

    async def scenario() -> list[tuple[int, str]]:
        feed.listening(1, +1)
        await feed.text(1, False)  # the first count: the session is now known to the feed
        assert calls == [1]
        stop = asyncio.Event()

        async def answers() -> None:  # a change every millisecond, as a big class makes
            while not stop.is_set():
                feed.changed(1)
                await asyncio.sleep(0.001)

        writer = asyncio.create_task(answers())
        await asyncio.sleep(0.01)
        texts = await asyncio.gather(*(feed.text(1, False) for _ in range(50)))
        stop.set()
        await writer
        return texts

    texts = run_alone(scenario())
    # One count for all fifty (each asked after the same changes); before, each counted again in turn, and the
    # last one's text was fifty counts old.
    assert len(calls) == 2
    assert {text for _, text in texts} == {"count 2"}


def test_a_dashboard_never_gets_a_count_older_than_a_change_it_heard(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(feed_module, "EVERY", 0.0)
    feed, calls = _counting_feed()

    async def scenario() -> tuple[tuple[int, str], tuple[int, str]]:
        feed.listening(1, +1)
        first = await feed.text(1, False)
        feed.changed(1)
        second = await feed.text(1, False)
        return first, second

    first, second = run_alone(scenario())
    assert first[1] == "count 1" and second[1] == "count 2" and second[0] > first[0]
    assert len(calls) == 2


def test_a_burst_of_one_sessions_writes_is_told_at_once_and_then_once_more_for_the_rest() -> None:
    import time

    from bleu_teach.classroom.store import Coalescer

    sent: list[tuple[int, float]] = []
    told = threading.Event()

    def send(session_id: int) -> None:
        sent.append((session_id, time.monotonic()))
        if len(sent) == 3:
            told.set()

    notices = Coalescer(send, spacing=0.2)
    began = time.monotonic()
    for _ in range(50):  # fifty answers of session 1 at once
        notices.tell(1)
    notices.tell(2)  # another session's first change is told at once too
    assert [session for session, _ in sent] == [1, 2]
    assert told.wait(5)
    assert [session for session, _ in sent] == [1, 2, 1]  # the other 49 in one notice, after the spacing
    assert sent[2][1] - began >= 0.19
    time.sleep(0.3)
    notices.tell(1)  # quiet since: at once again
    assert len(sent) == 4
