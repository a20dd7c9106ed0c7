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


def test_the_counts_kept_answer_by_answer_are_the_counts_of_the_last_answers_less_removed_students() -> None:
    # Answers arrive in a random order, many replacing a student's earlier answer, some judged as named mistakes;
    # the dashboard's numbers kept as they arrive must be what counting the last answers afresh gives, here
    # counted in the test by hand, less the students the teacher removed (their answers leave the counts).
    import random
    from datetime import datetime, timedelta, timezone

    from bleu_teach.classroom.counts import LETTER, counts
    from bleu_teach.classroom.schema import Answer, Student

    draw = random.Random(7)
    start = datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc)
    mistakes = ["no clipping", "no penalty", "strings"]
    latest = Latest(1)
    sent: list[Answer] = []
    for k in range(600):
        verdict = draw.choice(["correct", "wrong", "misconception"])
        mistake = draw.choice(mistakes) if verdict == "misconception" else ""
        at = start + timedelta(seconds=draw.randrange(120))
        answer = Answer(
            answer_id=f"id{k:03d}",
            student_id=draw.randrange(1, 21),
            exercise=draw.choice(["01.1", "03.1", "03.2"]),
            answer="0.5",
            verdict=verdict,
            mistake=mistake,
            at=at,
            late=draw.random() < 0.2,
        )
        sent.append(answer)
        kept = latest.latest.get((answer.student_id, answer.exercise))
        if kept is None or (answer.at, answer.answer_id) >= (kept.at, kept.answer_id):
            latest.put(answer)
    removed = {3, 11}
    roster = [Student(i, 1, f"s{i}") for i in range(1, 21) if i not in removed]
    last: dict[tuple[int, str], Answer] = {}
    for answer in sorted(sent, key=lambda a: (a.at, a.answer_id)):
        last[(answer.student_id, answer.exercise)] = answer
    found = counts(latest, roster, names=True)
    by_id = {shown["id"]: shown for shown in found["exercises"]}
    assert sorted(by_id) == ["01.1", "03.1", "03.2"] and found["students"] == 18
    for exercise_id, shown in by_id.items():
        mine = [a for (student, ex), a in last.items() if ex == exercise_id and student not in removed]
        assert shown["answered"] == len(mine)
        assert shown["verdicts"] == {
            v: sum(a.verdict == v for a in mine) for v in ("correct", "misconception", "wrong")
        }
        assert shown["late"] == sum(a.late for a in mine)
        made = {m: sum(a.verdict == "misconception" and a.mistake == m for a in mine) for m in mistakes}
        expected = sorted(((m, n) for m, n in made.items() if n), key=lambda pair: (-pair[1], pair[0]))
        assert [(m["name"], m["count"]) for m in shown["mistakes"]] == expected
    order = [shown["id"] for shown in found["exercises"]]
    for row in found["roster"]:
        assert row["verdicts"] == "".join(
            LETTER[last[(row["id"], ex)].verdict] if (row["id"], ex) in last else "-" for ex in order
        )
    assert counts(list(latest.latest.values()), roster, names=True) == found  # the same from the answers as read
