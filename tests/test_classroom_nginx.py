"""The department deployment: Debian's nginx, with the configuration `class nginx` writes, in front of the real
classroom server, holds off 1,100 slow clients while 20 honest students join.

The attack it answers: 1,100 connections that each send one header line every 4 s shut every honest student out
of a bare uvicorn (it caps connections at 1,000 and never times out a slow header). Behind nginx a client must
send its whole header within 10 s, and only whole requests reach the classroom server. The test makes a
self-signed certificate (openssl), starts `class serve` and nginx (a throwaway prefix, `-g` nothing global), opens
the slow connections over TLS for at most 60 s, and joins 20 students through nginx from another address; it
prints how long they took and how many slow connections nginx cut off. `.ci/run` installs nginx.
"""

from __future__ import annotations

import asyncio
import os
import resource
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")

from bleu_teach.classroom.store import Store  # noqa: E402
from bleu_teach.ui.classroom_command import nginx_configuration  # noqa: E402
from tests.classroom_server import _free_port  # noqa: E402

pytestmark = pytest.mark.slow
PROJECT = Path(__file__).resolve().parents[1]
SLOW_CLIENTS = 1100
HONEST = 20
WRITE = {"X-Bleu-Teach": "1"}


def _nginx() -> str:
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").is_file() else None)
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but nginx is missing: .ci/run must install Debian's nginx.")
        pytest.skip("nginx is not installed: sudo apt install nginx (CI installs it).")
    return found


def _has_ipv6() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


def _certificate(folder: Path) -> tuple[Path, Path]:
    certificate, key = folder / "cert.pem", folder / "key.pem"
    # An elliptic-curve key: 1,100 handshakes cost a fraction of what RSA's do, so the test loads the machine (and
    # the browser tests beside it) as little as it can.
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=127.0.0.1",
            "-addext",
            "subjectAltName=IP:127.0.0.1",
            "-keyout",
            str(key),
            "-out",
            str(certificate),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    return certificate, key


def _wait(check, what: str, seconds: float = 30) -> None:  # noqa: ANN001
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except (OSError, httpx.HTTPError):
            pass
        time.sleep(0.2)
    raise AssertionError(f"{what} did not start within {seconds} s")


async def _slow_clients(port: int, context: ssl.SSLContext, hold: float, started: asyncio.Event) -> dict[str, int]:
    """Open the slow connections over TLS; each sends a request line and then one header line every 4 s."""
    counts = {"opened": 0, "refused": 0, "cut off": 0, "still open": 0}

    async def one() -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=context, server_hostname="127.0.0.1")
        except (OSError, ssl.SSLError):
            counts["refused"] += 1
            return
        counts["opened"] += 1
        try:
            writer.write(b"GET /class HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            await writer.drain()
            deadline = time.monotonic() + hold
            line = 0
            while time.monotonic() < deadline:
                try:
                    answer = await asyncio.wait_for(reader.read(1), timeout=4)
                    if answer == b"" or answer:  # the server answered (408) or closed: cut off
                        counts["cut off"] += 1
                        return
                except asyncio.TimeoutError:
                    pass
                line += 1
                writer.write(f"X-Slow-{line}: {line}\r\n".encode())
                await writer.drain()
            counts["still open"] += 1
        except (OSError, ssl.SSLError):
            counts["cut off"] += 1
        finally:
            writer.close()

    tasks = [asyncio.create_task(one()) for _ in range(SLOW_CLIENTS)]
    await asyncio.sleep(3)  # the handshakes done
    started.set()
    await asyncio.gather(*tasks)
    return counts


def _honest_joins(url: str, code: str, certificate: Path) -> list[tuple[int, float]]:
    trusted = ssl.create_default_context(cafile=str(certificate))
    transport = httpx.HTTPTransport(local_address="127.0.0.2", verify=trusted)  # another address
    results = []
    with httpx.Client(transport=transport, base_url=url, timeout=30) as client:
        for k in range(HONEST):
            started = time.perf_counter()
            reply = client.post("/class/api/join", headers=WRITE, json={"code": code, "nickname": f"student {k}"})
            results.append((reply.status_code, time.perf_counter() - started))
    return results


def test_nginx_in_front_holds_off_slow_clients_while_a_class_joins(tmp_path: Path) -> None:
    nginx = _nginx()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, 8192), hard), hard))
    certificate, key = _certificate(tmp_path)
    database = tmp_path / "class.sqlite"
    store = Store.open(database)
    session, _ = store.create_session("week 3")
    store.close()

    upstream, https_port, http_port = _free_port(), _free_port(), _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "bleu_teach", "class", "serve", "--port", str(upstream), "--database", str(database)],
        cwd=PROJECT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    site = nginx_configuration("127.0.0.1", str(certificate), str(key), upstream, https_port, http_port)
    if not _has_ipv6():  # this machine has no IPv6: the configuration's [::] listeners cannot bind here
        site = "\n".join(line for line in site.splitlines() if "listen [::]" not in line)
    (prefix / "bleu-teach.conf").write_text(site)
    temp = {name: prefix / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    (prefix / "nginx.conf").write_text(
        ("user root;\n" if os.geteuid() == 0 else "")
        + f"daemon off;\nworker_processes 2;\nworker_rlimit_nofile 8192;\npid {prefix}/nginx.pid;\n"
        f"error_log {prefix}/error.log warn;\nevents {{ worker_connections 4096; }}\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {temp['body']};\n  proxy_temp_path {temp['proxy']};\n"
        f"  fastcgi_temp_path {temp['fastcgi']};\n  uwsgi_temp_path {temp['uwsgi']};\n"
        f"  scgi_temp_path {temp['scgi']};\n"
        f"  include {prefix}/bleu-teach.conf;\n}}\n"
    )
    proxy = subprocess.Popen(
        [nginx, "-p", str(prefix), "-c", str(prefix / "nginx.conf")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"https://127.0.0.1:{https_port}"
    try:
        _wait(lambda: httpx.get(f"http://127.0.0.1:{upstream}/class", timeout=2).status_code == 200, "class serve")
        trusted = ssl.create_default_context(cafile=str(certificate))
        _wait(lambda: httpx.get(f"{url}/class", verify=trusted, timeout=2).status_code == 200, "nginx")
        redirect = httpx.get(f"http://127.0.0.1:{http_port}/class", timeout=5)
        assert redirect.status_code == 301 and redirect.headers["location"] == f"https://127.0.0.1:{https_port}/class"

        context = ssl.create_default_context(cafile=str(certificate))

        async def attack_and_join() -> tuple[dict[str, int], list[tuple[int, float]]]:
            started = asyncio.Event()
            attack = asyncio.create_task(_slow_clients(https_port, context, 60, started))
            await started.wait()
            joined = await asyncio.to_thread(_honest_joins, url, session.code, certificate)
            return await attack, joined

        # A loop of its own, in a thread of its own: this process may run one already (Playwright's sync API).
        outcome: list = []
        runner = threading.Thread(target=lambda: outcome.append(asyncio.run(attack_and_join())))
        runner.start()
        runner.join(timeout=120)
        assert outcome, "the slow clients and the joins did not finish"
        counts, joined = outcome[0]
    finally:
        proxy.terminate()
        server.terminate()
        proxy.wait(timeout=30)
        server.wait(timeout=30)
    times = sorted(seconds for _, seconds in joined)
    print(
        f"nginx: {counts['opened']} slow connections opened ({counts['refused']} refused), "
        f"{counts['cut off']} cut off by nginx, {counts['still open']} still open after 60 s; "
        f"{HONEST} honest joins: {sum(status == 200 for status, _ in joined)} succeeded, "
        f"median {times[len(times) // 2] * 1000:.0f} ms, slowest {times[-1] * 1000:.0f} ms"
    )
    assert [status for status, _ in joined] == [200] * HONEST
    assert counts["opened"] >= SLOW_CLIENTS * 0.9  # the attack really ran
    assert counts["still open"] == 0  # every slow client was cut off (its header took longer than 10 s)
