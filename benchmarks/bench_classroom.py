"""Benchmark: a department's class on the classroom server, on SQLite and on PostgreSQL with two workers.

Starts ``python -m bleu_teach class serve`` on 127.0.0.1 (PostgreSQL: ``--workers 2``), creates a session, and lets
the simulated students (each an httpx client with its own cookie, on the asyncio loops of ``--generators``
processes, spread over ``--addresses`` source addresses as a few school networks would be) join and answer every
exercise of the course at random moments within the window; one in ten answers is sent twice with the same id, as a
page that lost its connection would. ``--dashboards`` teachers' dashboards listen to the live stream (the first is
measured) and ``--idle-dashboards`` more stay open without being read much (projectors, forgotten tabs). Then it
prints: answers sent, acknowledged, stored (read from the database itself), lost (acknowledged but not stored: must
be 0), duplicated (stored more than once or stored again on a resend: must be 0), refused (must be 0: every request
here is an honest student's), server errors (5xx), and the p50/p95 latency of an answer and of the dashboard's
update after it, and how late the students' loops woke (a busy generator is measured as a slow server). Two polls
are asked meanwhile (a third and two thirds into the class; the second is the first's round 2): every phone reads
the open question and votes; the votes acknowledged must all be counted.

Targets (issue "The classroom server, built to last"), load generator on the same 2 cores: 500 students answering
the course's exercises within 3 minutes from 25 addresses, 2 dashboards and 50 idle ones: answer p95 <= 250 ms,
dashboard update p95 <= 1 s, 0 lost, 0 duplicated, 0 refused; 1,000 students: no 5xx and answer p95 <= 1 s.

    python -m benchmarks.bench_classroom [--students 500] [--minutes 3] [--database sqlite|postgresql|both]
        [--addresses 25] [--dashboards 2] [--idle-dashboards 50] [--workers 2] [--generators 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import ssl
import statistics
import sys
import tempfile
import threading
import time
import uuid
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from bleu_teach.classroom.store import Store
from bleu_teach.exercises.bank import exercises
from tests.classroom_server import TOKEN, WRITE, Server
from tests.postgres import cluster


@dataclass
class Figures:
    sent: int = 0
    server_errors: int = 0
    connection_resends: int = 0
    acknowledged: list[tuple[str, float]] = field(default_factory=list)  # (id, time acknowledged)
    latencies: list[float] = field(default_factory=list)
    refused: dict[int, int] = field(default_factory=dict)
    stored_again: int = 0
    updates: list[tuple[float, int]] = field(default_factory=list)  # (time, answers the dashboard counts)
    votes_sent: int = 0
    votes_acknowledged: int = 0
    votes_late: int = 0  # sent after the presenter closed the poll: refused as late, as the page says
    votes_unseen: int = 0  # the poll was closed before the phone first read it: no vote sent
    votes_refused: int = 0  # refused for any other reason (must be 0)
    vote_latencies: list[float] = field(default_factory=list)
    polls: list[int] = field(default_factory=list)  # the polls opened (their ids)
    lags: list[float] = field(default_factory=list)  # how late the students' loop woke from a 50 ms sleep (s)

    def add(self, other: Figures) -> None:
        """Add another process's students' figures to these."""
        for name, value in vars(other).items():
            mine = getattr(self, name)
            if isinstance(value, dict):
                for key, count in value.items():
                    mine[key] = mine.get(key, 0) + count
            else:
                setattr(self, name, mine + value)


def _answers() -> list[tuple[str, str]]:
    """One answer per exercise: the right one for half the class's draws, a wrong one otherwise."""
    plan = []
    for ex in exercises():
        right = str(ex.answer)
        wrong = next((o.letter for o in ex.options if o.letter != right), "0.5") if ex.options else "0.5"
        plan.append((ex.id, right if random.random() < 0.5 else wrong))
    return plan


def _poll_times(window: float) -> list[tuple[float, float]]:
    """When the presenter opens each of the two polls and for how long (a third and two thirds into the class)."""
    span = min(25.0, window / 5)
    return [(window / 3, span), (2 * window / 3, span)]


async def _vote_at(client: httpx.AsyncClient, moment: float, figures: Figures) -> None:
    """What a phone does when a poll is open, from ``moment`` (on ``time.perf_counter``'s clock): read it, then vote."""
    await asyncio.sleep(max(0.0, moment - time.perf_counter()))
    shown: dict[str, Any] = {}
    for _ in range(20):  # a phone asks every couple of seconds until the presenter's question is open
        try:
            shown = (await client.get("/class/api/poll")).json()
        except httpx.TransportError:  # a lost keep-alive connection: the phone asks again
            figures.connection_resends += 1
            continue
        if shown.get("poll"):
            break
        await asyncio.sleep(0.5)
    else:
        figures.votes_unseen += 1
        return
    choice = random.choice(shown["poll"]["options"])[0]
    figures.votes_sent += 1
    began = time.perf_counter()
    reply = await _post_as_a_page_does(
        client, "/class/api/poll/vote", {"poll": shown["poll"]["id"], "id": uuid.uuid4().hex, "choice": choice}, figures
    )
    if reply.status_code == 200:
        figures.vote_latencies.append(time.perf_counter() - began)
        figures.votes_acknowledged += 1
    elif reply.status_code == 400 and "closed" in reply.json().get("error", ""):
        figures.votes_late += 1
    else:
        figures.votes_refused += 1


async def _presenter(
    url: str, cookies: httpx.Cookies, session: int, window: float, start: float, figures: Figures
) -> None:
    """Opens the two polls (the second is the first's round 2) and closes each after its time."""
    async with httpx.AsyncClient(base_url=url, cookies=cookies, timeout=60) as client:
        previous = None
        for opened, span in _poll_times(window):
            await asyncio.sleep(max(0.0, start + opened - time.perf_counter()))
            path = (
                f"/class/api/sessions/{session}/polls/{previous}/again"
                if previous
                else f"/class/api/sessions/{session}/polls"
            )
            poll = (await client.post(path, headers=WRITE, json={} if previous else {"exercise": "03.2"})).json()
            previous = poll["poll"]["id"]
            figures.polls.append(previous)
            await asyncio.sleep(max(0.0, start + opened + span - time.perf_counter()))
            await client.post(f"/class/api/sessions/{session}/polls/{previous}/close", headers=WRITE, json={})


async def _post_as_a_page_does(
    client: httpx.AsyncClient, path: str, body: dict[str, Any], figures: Figures
) -> httpx.Response:
    """Send; if the connection is lost before an answer comes (a keep-alive connection the server closed as the
    request went out), send again with the same id, as the pages' outbox does (the server keeps it once)."""
    for attempt in range(3):
        try:
            return await client.post(path, json=body, headers=WRITE)
        except httpx.TransportError:
            if attempt == 2:
                raise
            figures.connection_resends += 1
    raise AssertionError("unreachable")


_TLS = ssl.create_default_context()


def _address(k: int, addresses: int) -> str:
    """The source address of student ``k``: one of ``addresses`` loopback addresses (127.0.0.1, 127.0.0.2, ...)."""
    return f"127.0.0.{1 + k % addresses}"


async def _student(
    url: str, code: str, k: int, window: float, start: float, figures: Figures, addresses: int = 1
) -> None:
    # One TLS context for every student (the server is plain http): making one per client cost the generator
    # 40 ms of CPU each, seconds of a blocked loop at the start of a big class, measured as the server's latency.
    transport = httpx.AsyncHTTPTransport(local_address=_address(k, addresses), verify=_TLS)
    async with httpx.AsyncClient(base_url=url, timeout=60, transport=transport) as client:
        joined = await client.post(
            "/class/api/join", json={"code": code, "nickname": f"student {k:03d}"}, headers=WRITE
        )  # the first request, on a new connection
        joined.raise_for_status()
        plan: list[tuple[float, str, str]] = [
            (random.uniform(0, window), exercise, answer) for exercise, answer in _answers()
        ]
        # The phone shows the poll whatever its student is doing: each vote is its own task, never behind an answer
        # still being sent (behind one, a vote could come after the presenter had closed the poll).
        votes = [
            asyncio.create_task(_vote_at(client, start + opened + random.uniform(0.2, 0.6) * span, figures))
            for opened, span in _poll_times(window)
        ]
        for moment, exercise, answer in sorted(plan):
            await asyncio.sleep(max(0.0, start + moment - time.perf_counter()))
            answer_id = str(uuid.uuid4())
            body = {"id": answer_id, "exercise": exercise, "answer": answer}
            figures.sent += 1
            began = time.perf_counter()
            reply = await _post_as_a_page_does(client, "/class/api/answers", body, figures)
            done = time.perf_counter()
            if reply.status_code != 200:
                figures.refused[reply.status_code] = figures.refused.get(reply.status_code, 0) + 1
                figures.server_errors += reply.status_code >= 500
                continue
            figures.latencies.append(done - began)
            figures.acknowledged.append((answer_id, done))
            if random.random() < 0.1:  # sent again, as after a lost connection
                again = await _post_as_a_page_does(client, "/class/api/answers", body, figures)
                figures.stored_again += bool(again.status_code == 200 and again.json()["stored"])
        await asyncio.gather(*votes)


async def _loop_lag(figures: Figures, until: asyncio.Future[Any]) -> None:
    """How late this loop wakes from a 50 ms sleep, until ``until`` is done: a busy loop measures the server late."""
    while not until.done():
        began = time.perf_counter()
        await asyncio.sleep(0.05)
        figures.lags.append(time.perf_counter() - began - 0.05)


def _students(
    url: str, code: str, ks: list[int], window: float, starting: Any, addresses: int, seed: int, back: Any
) -> None:
    """Students ``ks`` on this (child) process's own loop, from the moment the parent puts in ``starting`` (a
    shared number, with its event) once every such process is ready; their figures sent back at the end."""
    random.seed(seed)
    figures = Figures()
    moment, go = starting
    back.put(("ready", None))
    go.wait()
    start = moment.value

    async def the_class() -> None:
        everyone = asyncio.gather(*(_student(url, code, k, window, start, figures, addresses) for k in ks))
        await asyncio.gather(everyone, _loop_lag(figures, everyone))

    try:
        asyncio.run(the_class())
    except BaseException as problem:  # noqa: BLE001 (given back to the parent, which raises it)
        back.put(("failed", repr(problem)))
        return
    back.put(("figures", figures))


def _listen(url: str, session: int, cookies: httpx.Cookies, figures: Figures | None, stop: threading.Event) -> None:
    """A dashboard's stream; ``figures`` None: an idle dashboard, whose updates are read and dropped."""
    try:
        with (
            httpx.Client(base_url=url, cookies=cookies, timeout=None) as client,
            client.stream("GET", f"/class/api/sessions/{session}/events") as stream,
        ):
            for line in stream.iter_lines():
                if line.startswith("data: ") and figures is not None:
                    counted = sum(ex["answered"] for ex in json.loads(line[6:])["exercises"])
                    figures.updates.append((time.perf_counter(), counted))
                if stop.is_set():
                    return
    except httpx.HTTPError:
        return  # the server stopped at the end of the run


def _dashboards(
    url: str, session: int, cookies: dict[str, str], count: int, stop: Any, back: Any, measured: bool = True
) -> None:
    """``count`` dashboards' streams in this (child) process; with ``measured``, the first one's updates are sent
    back at the end."""
    figures = Figures()
    done = threading.Event()
    jar = httpx.Cookies(cookies)
    threads = [
        threading.Thread(
            target=_listen, args=(url, session, jar, figures if k == 0 and measured else None, done), daemon=True
        )
        for k in range(count)
    ]
    for thread in threads:
        thread.start()
    stop.wait()
    done.set()
    back.put(figures.updates)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def _run_catching(make: Any, failed: list[BaseException]) -> None:
    try:
        asyncio.run(make())
    except BaseException as problem:  # noqa: BLE001 (given back to the caller's thread)
        failed.append(problem)


def run(
    database: str,
    folder: Path,
    students: int,
    minutes: float,
    addresses: int = 1,
    dashboards: int = 1,
    idle: int = 0,
    workers: int = 1,
    generators: int = 2,
) -> dict[str, float | int | str]:
    """Run the class against a server on ``database``; return the figures (and print them)."""
    server = Server(database, folder, extra=("--workers", str(workers)) if workers > 1 else ())
    server.start()
    teacher = httpx.Client(base_url=server.url, timeout=30)
    try:
        teacher.get(f"/class/teach?token={TOKEN}")
        made = teacher.post("/class/api/sessions", json={"title": "benchmark"}, headers=WRITE).json()
        teacher.get(made["teacher_link"])
        figures = Figures()
        stop = threading.Event()
        # The dashboards listen from a process of their own, so that reading 50 streams does not slow the students'
        # loop in this one (the clocks agree: perf_counter is the system's monotonic clock).
        context = multiprocessing.get_context("spawn")
        updates_back = context.Queue()
        stop_dashboards = context.Event()
        # The measured dashboards in one process, the idle ones in another: 50 streams read in the measured one's
        # process would delay its reading (one interpreter lock), measured as the server's delay.
        watchers = context.Process(
            target=_dashboards,
            args=(server.url, made["id"], dict(teacher.cookies), dashboards, stop_dashboards, updates_back),
        )
        watchers.start()
        idle_back = context.Queue()  # kept here until the process has started (it unpickles the queue)
        idle_watchers = context.Process(
            target=_dashboards,
            args=(server.url, made["id"], dict(teacher.cookies), idle, stop_dashboards, idle_back, False),
        )
        if idle:
            idle_watchers.start()
        # The students on loops of their own, ``generators`` processes: one loop for 1,000 students fell a second
        # behind in a poll's vote storm, and that second was measured as the server's.
        students_back = context.Queue()
        starting = (context.Value("d", 0.0), context.Event())
        makers = [
            context.Process(
                target=_students,
                args=(
                    server.url,
                    made["code"],
                    list(range(g, students, generators)),
                    minutes * 60,
                    starting,
                    addresses,
                    random.randrange(2**32),
                    students_back,
                ),
            )
            for g in range(generators)
        ]
        for maker in makers:
            maker.start()
        for _ in makers:  # each has imported what it needs: the class starts for all at once
            kind, found = students_back.get(timeout=120)
            if kind != "ready":
                raise RuntimeError(f"a students' process failed: {found}")
        start = time.perf_counter()
        starting[0].value = start
        starting[1].set()

        async def the_presenter() -> None:
            await _presenter(server.url, teacher.cookies, made["id"], minutes * 60, start, figures)

        # A loop of its own, in a thread of its own: the caller may be running one already (a test process that
        # drives a browser with Playwright's synchronous API).
        failed: list[BaseException] = []
        runner = threading.Thread(target=lambda: _run_catching(the_presenter, failed))
        runner.start()
        for _ in makers:
            kind, found = students_back.get(timeout=minutes * 60 + 600)
            if kind == "failed":
                failed.append(RuntimeError(f"a students' process failed: {found}"))
            else:
                figures.add(found)
        runner.join()
        for maker in makers:
            maker.join(timeout=30)
        if failed:
            raise failed[0]
        took = time.perf_counter() - start
        deadline = time.perf_counter() + 5
        time.sleep(max(0.0, min(5.0, deadline - time.perf_counter())))  # the last answers reach the dashboards
        stop.set()
        stop_dashboards.set()
        figures.updates = updates_back.get(timeout=60)
        watchers.join(timeout=30)
        if idle:
            idle_watchers.join(timeout=30)
            if idle_watchers.exitcode != 0:  # its streams were not there: the figures would flatter the server
                raise RuntimeError(f"the idle dashboards' process failed (exit code {idle_watchers.exitcode})")
        if watchers.exitcode != 0:
            raise RuntimeError(f"the measured dashboards' process failed (exit code {watchers.exitcode})")
        polls = teacher.get(f"/class/api/sessions/{made['id']}/tally").json()["poll"]
        votes_stored = sum(round_["voted"] for round_ in polls["rounds"]) if polls else 0
    finally:
        teacher.close()
        server.stop()
    records = Store.open(database)
    stored_ids = [answer.answer_id for answer in records.answers(made["id"])]
    records.close()
    acknowledged = {answer_id for answer_id, _ in figures.acknowledged}
    # The dashboard counts each student's last answer per exercise: one each here, so the k-th acknowledged answer
    # is on the dashboard at the first update that counts k.
    delays = []
    for k, (_, at) in enumerate(sorted(figures.acknowledged, key=lambda pair: pair[1]), start=1):
        seen = next((moment for moment, counted in figures.updates if counted >= k), None)
        if seen is not None:
            delays.append(max(0.0, seen - at))
    result: dict[str, float | int | str] = {
        "database": "sqlite" if "://" not in database else f"postgresql, {workers} workers",
        "students": students,
        "addresses": addresses,
        "dashboards": f"{dashboards} + {idle} idle",
        "seconds": round(took, 1),
        "sent": figures.sent,
        "acknowledged": len(acknowledged),
        "refused": sum(figures.refused.values()),
        "5xx": figures.server_errors,
        "resent after a lost connection": figures.connection_resends,
        "stored": len(stored_ids),
        "lost": len(acknowledged - set(stored_ids)),
        "duplicated": len(stored_ids) - len(set(stored_ids)) + figures.stored_again,
        "answer p50 ms": round(1000 * statistics.median(figures.latencies), 1),
        "answer p95 ms": round(1000 * _percentile(figures.latencies, 0.95), 1),
        "dashboard p50 ms": round(1000 * statistics.median(delays), 1) if delays else float("nan"),
        "dashboard p95 ms": round(1000 * _percentile(delays, 0.95), 1) if delays else float("nan"),
        "dashboard missed": len(figures.acknowledged) - len(delays),
        "polls": len(figures.polls),
        "votes sent": figures.votes_sent,
        "votes acknowledged": figures.votes_acknowledged,
        "votes late": figures.votes_late,
        "votes never shown": figures.votes_unseen,
        "votes refused": figures.votes_refused,
        "votes counted": votes_stored,
        "vote p95 ms": round(1000 * _percentile(figures.vote_latencies, 0.95), 1)
        if figures.vote_latencies
        else float("nan"),
        # Late wake-ups of the students' loops are in every latency above: large ones flatter nothing, but say the
        # load generator, not only the server, was slow.
        "students' loops late p95 ms": round(1000 * _percentile(figures.lags, 0.95), 1),
        "students' loops late max ms": round(1000 * max(figures.lags, default=float("nan")), 1),
    }
    print("  ".join(f"{key}: {value}" for key, value in result.items()), flush=True)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--students",
        type=int,
        nargs="+",
        default=[500, 1000],
        help="class sizes to run, each on every database (default 500 1000)",
    )
    parser.add_argument("--minutes", type=float, default=3.0)
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--addresses", type=int, default=25)
    parser.add_argument("--dashboards", type=int, default=2)
    parser.add_argument("--idle-dashboards", type=int, default=50)
    parser.add_argument("--workers", type=int, default=2, help="workers on PostgreSQL (SQLite takes one)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--generators", type=int, default=2, help="processes the students are spread over")
    args = parser.parse_args()
    random.seed(args.seed)
    print(
        f"classroom server: {', '.join(map(str, args.students))} students answering {len(exercises())} exercises "
        f"each within {args.minutes:g} minutes, from {args.addresses} addresses, {args.dashboards} dashboards and "
        f"{args.idle_dashboards} idle ones, on 127.0.0.1",
        flush=True,
    )
    missed: list[str] = []
    rows = []
    with tempfile.TemporaryDirectory() as scratch, ExitStack() as stack:
        folder = Path(scratch)
        targets = []
        if args.database in ("sqlite", "both"):
            targets.append((str(folder / "class.sqlite"), 1))
        if args.database in ("postgresql", "both"):
            targets.append((stack.enter_context(cluster()), args.workers))
        for students in args.students:
            for base, workers in targets:
                database = base if "://" in base else str(folder / f"class-{students}.sqlite")
                figures = run(
                    database,
                    folder,
                    students,
                    args.minutes,
                    args.addresses,
                    args.dashboards,
                    args.idle_dashboards,
                    workers,
                    args.generators,
                )
                rows.append(figures)
                name = f"{students} students, {figures['database']}"
                if figures["lost"] or figures["duplicated"]:
                    missed.append(f"{name}: lost or duplicated")
                if figures["votes counted"] != figures["votes acknowledged"] or figures["votes refused"]:
                    missed.append(f"{name}: votes")
                if students <= 500:
                    if figures["refused"]:
                        missed.append(f"{name}: {figures['refused']} honest requests refused")
                    if float(figures["answer p95 ms"]) > 250 or not float(figures["dashboard p95 ms"]) <= 1000:
                        missed.append(f"{name}: p95")
                elif figures["5xx"] or float(figures["answer p95 ms"]) > 1000:
                    missed.append(f"{name}: 5xx or answer p95")
    print("\n| students, database | answer p95 | dashboard p95 | lost / duplicated | refused (5xx) |")
    print("|---|---|---|---|---|")
    for figures in rows:
        print(
            f"| {figures['students']}, {figures['database']} | {figures['answer p95 ms']} ms | "
            f"{figures['dashboard p95 ms']} ms | {figures['lost']} / {figures['duplicated']} | "
            f"{figures['refused']} ({figures['5xx']}) |"
        )
    print(
        "targets: up to 500 students p95 answer <= 250 ms, p95 dashboard <= 1000 ms, 0 refused; 1,000: no 5xx, "
        "p95 answer <= 1000 ms; always 0 lost, 0 duplicated: " + ("missed: " + "; ".join(missed) if missed else "met")
    )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
