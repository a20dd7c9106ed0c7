"""The classroom server as its users start it (``python -m bleu_teach class serve``), for the tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

PROJECT = Path(__file__).resolve().parents[1]
TOKEN = "a-teacher-token-for-the-test"
WRITE = {"X-Bleu-Teach": "1"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``class serve`` on 127.0.0.1 at a free port, with the test's teacher token; ``site``: a built website."""

    def __init__(self, database: str, folder: Path, site: Path | None = None, extra: tuple[str, ...] = ()) -> None:
        self.database, self.folder, self.site, self.extra = database, folder, site, extra
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        log = open(self.folder / "server.log", "a")  # noqa: SIM115 (kept open for the process)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "bleu_teach",
                "class",
                "serve",
                "--port",
                str(self.port),
                "--database",
                self.database,
                *(["--site", str(self.site)] if self.site else []),
                *self.extra,
            ],
            cwd=self.folder,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=os.environ | {"BLEU_TEACH_TEACHER_TOKEN": TOKEN, "PYTHONPATH": str(PROJECT)},
        )
        log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.process.poll() is None, (self.folder / "server.log").read_text()
            try:
                if httpx.get(f"{self.url}/class", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.2)
        raise AssertionError("the classroom server did not start in 60 s")

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
