"""A throwaway PostgreSQL cluster for the classroom's tests, from Debian's ``postgresql`` package.

``initdb`` makes a cluster in a temporary folder and ``pg_ctl`` starts it on
127.0.0.1 at a free port (run as the ``postgres`` user when the tests run as
root, since PostgreSQL refuses to run as root); it is stopped and deleted at the
end. Without PostgreSQL the tests that need it are skipped, except in CI
(``CI=true``), where ``.ci/run`` installs it and a missing one fails the run.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

INSTALL_HINT = "PostgreSQL is not installed: sudo apt install postgresql (CI installs it)."


def _bin_dir() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    if found:
        return found[-1].parent
    on_path = shutil.which("initdb")
    return Path(on_path).parent if on_path else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_owner(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextmanager
def cluster() -> Iterator[str]:
    """Start a PostgreSQL cluster; yield its URL (database ``classroom``); stop and delete it afterwards."""
    binaries = _bin_dir()
    if binaries is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but PostgreSQL is missing: .ci/run must install Debian's postgresql.")
        pytest.skip(INSTALL_HINT)
    folder = Path(tempfile.mkdtemp(prefix="bleu-teach-pg-"))
    data, sockets = folder / "data", folder / "sockets"
    sockets.mkdir()
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
        shutil.chown(sockets, "postgres")
        folder.chmod(0o700)
    port = _free_port()
    started = False
    try:
        subprocess.run(
            _as_owner(
                [
                    str(binaries / "initdb"),
                    "-D",
                    str(data),
                    "-U",
                    "postgres",
                    "--auth=trust",
                    "--encoding=UTF8",
                    "--no-sync",
                ]
            ),
            check=True,
            capture_output=True,
            timeout=120,
        )
        options = f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=on"
        subprocess.run(
            _as_owner(
                [
                    str(binaries / "pg_ctl"),
                    "-D",
                    str(data),
                    "-o",
                    options,
                    "-l",
                    str(folder / "log"),
                    "-w",
                    "-t",
                    "60",
                    "start",
                ]
            ),
            check=True,
            capture_output=True,
            timeout=120,
        )
        started = True
        subprocess.run(
            _as_owner([str(binaries / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "classroom"]),
            check=True,
            capture_output=True,
            timeout=60,
        )
        yield f"postgresql://postgres@127.0.0.1:{port}/classroom"
    finally:
        if started:
            subprocess.run(
                _as_owner([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"]),
                capture_output=True,
                timeout=60,
                check=False,
            )
        time.sleep(0.1)
        shutil.rmtree(folder, ignore_errors=True)


def fresh_database(base: str) -> str:
    """A new, empty database in the cluster at ``base`` (one per test, so that tests share one cluster); its URL."""
    import uuid

    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    return base.rsplit("/", 1)[0] + "/" + name
