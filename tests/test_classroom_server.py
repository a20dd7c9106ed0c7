"""The real classroom server (``python -m bleu_teach class serve``, uvicorn) killed in the middle of a class.

Students answer from several threads while the server is killed with SIGKILL;
it is started again on the same database, and then: every answer it had
acknowledged is there, none twice (each is sent again and stored nothing), the
dashboard's counts are the same as before, and a new answer reaches the
dashboard's live stream within a second. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from bleu_teach.classroom.store import Store  # noqa: E402
from tests.classroom_server import TOKEN, WRITE, Server  # noqa: E402
from tests.postgres import cluster  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Server]:
    if request.param == "sqlite":
        database = str(tmp_path / "class.sqlite")
        running = Server(database, tmp_path)
        running.start()
        yield running
        running.stop()
        return
    with cluster() as url:
        running = Server(url, tmp_path)
        running.start()
        yield running
        running.stop()


def _teacher(server: Server) -> tuple[httpx.Client, dict]:
    browser = httpx.Client(base_url=server.url, timeout=10)
    browser.get(f"/class/teach?token={TOKEN}")
    made = browser.post("/class/api/sessions", json={"title": "killed mid-class"}, headers=WRITE).json()
    browser.get(made["teacher_link"])
    return browser, made


def _student(server: Server, code: str, nickname: str) -> httpx.Client:
    browser = httpx.Client(base_url=server.url, timeout=10)
    assert browser.post("/class/api/join", json={"code": code, "nickname": nickname}, headers=WRITE).status_code == 200
    return browser


def _counted(shown: dict) -> int:
    return sum(ex["answered"] for ex in shown["exercises"])


def _dashboard(teacher, session: int, received: list, enough) -> threading.Thread:  # noqa: ANN001
    """A teacher's dashboard stream in a thread: each update (when, data) into ``received`` until ``enough()``; returns
    once the first update has come."""

    def listen() -> None:
        with teacher.stream("GET", f"/class/api/sessions/{session}/events", timeout=30) as stream:
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    received.append((time.monotonic(), json.loads(line[6:])))
                    if enough():
                        return

    listener = threading.Thread(target=listen)
    listener.start()
    deadline = time.monotonic() + 10
    while not received and time.monotonic() < deadline:
        time.sleep(0.05)
    assert received, "the dashboard's stream sent nothing"
    return listener


def test_killing_the_server_mid_class_loses_no_acknowledged_answer_and_counts_none_twice(server: Server) -> None:
    teacher, made = _teacher(server)
    students = [_student(server, made["code"], f"student {k}") for k in range(6)]
    acknowledged: dict[int, list[tuple[str, str, str]]] = {k: [] for k in range(len(students))}
    stop = threading.Event()
    answers = [("03.1", "0.882"), ("03.2", "A"), ("01.1", "10/13"), ("03.1", "0.5"), ("04.1", "0.291")]

    def answer(k: int) -> None:
        n = 0
        while not stop.is_set():
            exercise, text = answers[(n + k) % len(answers)]
            answer_id = str(uuid.uuid4())
            try:
                reply = students[k].post(
                    "/class/api/answers", headers=WRITE, json={"id": answer_id, "exercise": exercise, "answer": text}
                )
            except httpx.TransportError:
                return  # the server is gone: this answer was never acknowledged
            if reply.status_code == 200:
                acknowledged[k].append((answer_id, exercise, text))
            n += 1

    threads = [threading.Thread(target=answer, args=(k,)) for k in range(len(students))]
    for thread in threads:
        thread.start()
    time.sleep(2.5)
    server.kill()  # SIGKILL while the class is answering
    stop.set()
    for thread in threads:
        thread.join(timeout=30)
    sent = sum(len(ids) for ids in acknowledged.values())
    server.start()  # the same database, the same port

    export = teacher.get(f"/class/api/sessions/{made['id']}/export.csv").text
    stored_rows = export.strip().splitlines()[1:]
    records = Store.open(server.database)  # the database itself, read beside the server
    stored = {answer.answer_id for answer in records.answers(made["id"])}
    records.close()
    assert len(stored) == len(stored_rows)
    lost = [(k, a) for k, ids in acknowledged.items() for a in ids if a[0] not in stored]
    resent = [
        students[k]
        .post("/class/api/answers", headers=WRITE, json={"id": a[0], "exercise": a[1], "answer": a[2]})
        .json()["stored"]
        for k, ids in acknowledged.items()
        for a in ids[:20]
    ]
    print(
        f"kill test: {sent} acknowledged before the kill, {len(stored_rows)} stored after the restart, "
        f"{len(lost)} lost, {sum(resent)} stored again of {len(resent)} resent"
    )
    assert sent > 20 and lost == [] and not any(resent)
    assert len(stored_rows) - sent in range(0, len(students) + 1)  # at most one in flight per student
    tally = teacher.get(f"/class/api/sessions/{made['id']}/tally").json()
    assert sum(ex["answered"] for ex in tally["exercises"]) <= len(students) * 4  # each student's last per exercise

    received: list[tuple[float, dict]] = []

    def counted(update: dict) -> bool:
        return any(ex["id"] == "09.1" for ex in update["exercises"])

    late_student = _student(server, made["code"], "latecomer")  # a join, which the dashboard may show first
    listener = _dashboard(teacher, made["id"], received, lambda: counted(received[-1][1]))
    sent_at = time.monotonic()
    assert (
        late_student.post(
            "/class/api/answers", headers=WRITE, json={"id": str(uuid.uuid4()), "exercise": "09.1", "answer": "B"}
        ).status_code
        == 200
    )
    listener.join(timeout=10)
    shown = [at for at, update in received if counted(update)]
    assert shown and not counted(received[0][1]), received  # not there before the answer; there after it
    delay = shown[0] - sent_at
    print(f"dashboard update after an answer: {delay * 1000:.0f} ms")
    assert delay <= 1.0
    for browser in (teacher, late_student, *students):
        browser.close()


def test_several_workers_on_postgresql_share_the_class(tmp_path: Path) -> None:
    with cluster() as url:
        running = Server(url, tmp_path, extra=("--workers", "2"))
        running.start()
        try:
            teacher, made = _teacher(running)
            students = [_student(running, made["code"], f"student {k}") for k in range(8)]
            replies = []

            def answer(k: int) -> None:
                for exercise, text in (("03.1", "0.882"), ("03.2", "A"), ("01.1", "10/13")):
                    replies.append(
                        students[k]
                        .post(
                            "/class/api/answers",
                            headers=WRITE,
                            json={"id": str(uuid.uuid4()), "exercise": exercise, "answer": text},
                        )
                        .status_code
                    )

            threads = [threading.Thread(target=answer, args=(k,)) for k in range(len(students))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=60)
            assert replies == [200] * 24
            tally = teacher.get(f"/class/api/sessions/{made['id']}/tally").json()
            assert {ex["id"]: ex["answered"] for ex in tally["exercises"]} == {"01.1": 8, "03.1": 8, "03.2": 8}

            # One dashboard's stream (on one of the workers) hears the answers stored by either: the writes notify
            # (PostgreSQL NOTIFY) and each worker's change feed listens.
            shown: list[tuple[float, dict]] = []
            listener = _dashboard(teacher, made["id"], shown, lambda: _counted(shown[-1][1]) == 24 + 8)
            assert _counted(shown[-1][1]) == 24
            sent_at = time.monotonic()
            for k in range(8):  # eight new connections: the kernel spreads them over both workers
                fresh = _student(running, made["code"], f"late {k}")
                assert (
                    fresh.post(
                        "/class/api/answers",
                        headers=WRITE,
                        json={"id": str(uuid.uuid4()), "exercise": "09.1", "answer": "B"},
                    ).status_code
                    == 200
                )
                fresh.close()
            last_sent = time.monotonic()
            listener.join(timeout=15)
            assert _counted(shown[-1][1]) == 32, shown
            assert shown[-1][0] - last_sent <= 1.5  # heard, not found by the 5 s look that makes up for a lost notice
            print(
                f"two workers: the dashboard counted all 8 answers {(shown[-1][0] - sent_at) * 1000:.0f} ms after "
                "the first was sent"
            )
            for browser in (teacher, *students):
                browser.close()
        finally:
            running.stop()


def test_several_workers_are_refused_on_sqlite(tmp_path: Path) -> None:
    import subprocess
    import sys

    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "class",
            "serve",
            "--workers",
            "2",
            "--database",
            str(tmp_path / "c.sqlite"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "several workers need PostgreSQL" in run.stderr


def test_on_a_classroom_network_it_warns_and_prints_the_join_address_with_a_qr_code(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.classroom_server import PROJECT, _free_port

    port = _free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "class",
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            str(port),
            "--database",
            str(tmp_path / "c.sqlite"),
        ],
        cwd=PROJECT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out = server.stdout.readline() + server.stdout.readline() + server.stdout.readline() + server.stdout.readline()
        warning = server.stderr.readline()
        qr = [server.stderr.readline() for _ in range(5)]
    finally:
        server.terminate()
        server.wait(timeout=20)
        server.stdout.close()
        server.stderr.close()
    import ipaddress

    joined = out.split("students join at: http://")[1].split("/class")[0]
    host, _, shown_port = joined.rpartition(":")
    assert ipaddress.ip_address(host) and shown_port == str(port)  # an address others on the network can type
    assert "WARNING: listening on 0.0.0.0: anyone on this network can reach the server" in warning
    assert all(line.strip() for line in qr) and any("█" in line or "▀" in line or "▄" in line for line in qr)
