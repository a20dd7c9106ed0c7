"""A real JupyterLab, started the way `make lab` starts it, driven by Playwright and Debian's Chromium.

The server is the project's own command (scripts/lab.py: 127.0.0.1, token
authentication, the project's JupyterLab settings) with three test-only
additions: a token chosen by the test, a free port, and a scratch copy of the
lessons plus scratch user-settings and workspace folders, so that running
the lessons in the browser never rewrites the stored notebooks or a user's
own JupyterLab settings.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
from scripts.lab import lab_command  # noqa: E402
from tests.conftest import SUMMARIES, made_once  # noqa: E402

ARTIFACTS = PROJECT / "test-artifacts" / "screenshots"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
INSTALL_HINT = "Chromium not found; install it to run the browser tests: sudo apt-get install chromium (Debian/Ubuntu)."

#: Figures measured by the browser tests, printed at the end of the run.
TIMINGS: dict[str, str] = {}
#: The static site's figures (tests/browser/test_site.py), printed as "site timing:" lines.
SITE_TIMINGS: dict[str, str] = {}


def _chromium() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture(scope="session")
def chromium() -> str:
    path = _chromium()
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but Chromium is missing: .ci/run must install Debian's chromium before the tests.")
        pytest.skip(INSTALL_HINT)
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Lab:
    url: str
    token: str
    root: Path
    started: float  # time.perf_counter() when the server process was started

    def api(self, path: str, token: bool = True) -> int:
        """HTTP status of a GET on the server, with or without the token."""
        query = f"?token={self.token}" if token else ""
        try:
            with urllib.request.urlopen(f"{self.url}{path}{query}", timeout=10) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code
        except (urllib.error.URLError, ConnectionError):
            return 0  # not listening (yet)


def wait_until_up(server: subprocess.Popen, is_up, what: str, log: Path | None = None) -> None:  # noqa: ANN001
    """Poll ``is_up()`` until it is true; fail if the server exits or takes over 60 s."""
    deadline = time.monotonic() + 60
    while not is_up():
        if server.poll() is not None or time.monotonic() > deadline:
            tail = log.read_text()[-3000:] if log is not None else ""
            raise RuntimeError(f"{what} did not start:\n{tail}")
        time.sleep(0.2)


def stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()


@pytest.fixture(scope="session")
def lab(chromium: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    scratch = tmp_path_factory.mktemp("lab")
    root = scratch / "notebooks"
    shutil.copytree(PROJECT / "notebooks", root)
    port, token = _free_port(), secrets.token_hex(16)
    command = lab_command(
        port,
        token,
        root_dir=root,
        extra=[
            f"--LabApp.user_settings_dir={scratch / 'user-settings'}",
            f"--LabApp.workspaces_dir={scratch / 'workspaces'}",
        ],
    )
    # The lessons are trusted in a data folder of the run's own, so that JupyterLab draws their saved widgets (it
    # shows an untrusted notebook's widget outputs as text until its cells run).
    env = {**os.environ, "JUPYTER_DATA_DIR": str(scratch / "data")}
    subprocess.run(
        [sys.executable, "-m", "jupyter", "trust", *map(str, sorted(root.glob("*.ipynb")))],
        env=env,
        check=True,
        capture_output=True,
        timeout=120,
    )
    log = open(scratch / "server.log", "wb")
    started = time.perf_counter()
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=scratch, env=env)
    server_lab = Lab(f"http://127.0.0.1:{port}", token, root, started)
    try:
        wait_until_up(server, lambda: server_lab.api("/api/status") == 200, "JupyterLab", scratch / "server.log")
        TIMINGS["server start to answering HTTP"] = f"{time.perf_counter() - started:.1f} s"
        yield server_lab
    finally:
        stop(server)
        log.close()


@pytest.fixture(scope="session")
def browser(chromium: str) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS, headless=True)
        yield instance
        instance.close()


@pytest.fixture
def page(browser, lab: Lab):  # noqa: ANN001, ANN201
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(60_000)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.problems = problems  # type: ignore[attr-defined]
    yield page
    context.close()


@dataclass
class Site:
    url: str
    root: Path


@dataclass
class Visitor:
    """A browser context that lets through only requests to the site, and counts the others."""

    context: object
    blocked: list[str] = field(default_factory=list)

    def page(self):  # noqa: ANN201
        page = self.context.new_page()  # type: ignore[attr-defined]
        page.problems = []
        page.on("pageerror", lambda error: page.problems.append(str(error) + (error.stack or "")))
        return page


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status
    except OSError:
        return 0


@pytest.fixture(scope="session")
def site(chromium: str, wheel: Path, tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    """The site as `make site` builds it (once per run), served by `python -m http.server` on 127.0.0.1."""
    if not (PROJECT / "node_modules" / "pyodide").is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but node_modules is missing: `make test` runs `npm ci` first.")
        pytest.skip("The site's scripts are not installed: run `npm ci` (make test and make site do).")

    def make(folder: Path) -> None:
        started = time.perf_counter()
        build = subprocess.run(
            [sys.executable, "-m", "bleu_teach_site", "--out", str(folder / "site"), "--wheel", str(wheel)],
            cwd=PROJECT,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert build.returncode == 0, build.stdout + build.stderr
        SITE_TIMINGS["build (python -m bleu_teach_site, as make site runs it)"] = (
            f"{time.perf_counter() - started:.1f} s"
        )

    out = made_once(tmp_path_factory, "site", make) / "site"  # one build, served by each worker's own server
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(out), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(server, lambda: _status(f"{url}/index.html") == 200, "http.server")
        yield Site(url, out)
    finally:
        stop(server)


def only_to(browser, url: str, timeout: int = 60_000, **options) -> Visitor:  # noqa: ANN001, ANN003
    """A new browser context (``options``: its viewport...) that lets through only requests to ``url`` and counts
    the others (``Visitor.blocked``)."""
    context = browser.new_context(**options)
    context.set_default_timeout(timeout)
    found = Visitor(context)

    def only_there(route):  # noqa: ANN001, ANN202
        if route.request.url.startswith(url + "/"):
            return route.continue_()
        found.blocked.append(route.request.url)
        return route.abort()

    context.route("**/*", only_there)
    return found


@pytest.fixture(scope="session")
def visitor(browser, site: Site):  # noqa: ANN001, ANN201
    """A 1280 x 900 browser context that lets through only the site's own requests, and counts the others."""
    found = only_to(browser, site.url, viewport={"width": 1280, "height": 900})
    yield found
    found.context.close()


def _timings() -> list[str]:
    return [f"browser timing: {name}: {value}" for name, value in TIMINGS.items()] + [
        f"site timing: {name}: {value}" for name, value in SITE_TIMINGS.items()
    ]


SUMMARIES.append(_timings)  # printed at the end of the run (tests/conftest.py), from whichever worker measured them
