"""Shared test helpers: counts the oracle comparisons so the run reports them."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

#: The classroom store on SQLite and PostgreSQL (fixtures postgres_base, where, store).
pytest_plugins = ["tests.classroom_stores"]

PARITY_CASES: Counter[str] = Counter()
#: Figures a test measured (sizes, times), printed at the end of the run.
FIGURES: list[str] = []


#: The fast tier (make check sets BLEU_TEACH_QUICK=1) runs each property test on a tenth of its examples;
#: make test, and so CI, runs every example.
QUICK = os.environ.get("BLEU_TEACH_QUICK") == "1"

#: The key the teacher's file commands seal their lists with: one of the test run's own (every command the tests
#: start inherits it), never the user's.
if "BLEU_TEACH_FILES_KEY" not in os.environ:
    import tempfile

    os.environ["BLEU_TEACH_FILES_KEY"] = str(Path(tempfile.mkdtemp(prefix="bleu-teach-key-")) / "files.key")


def examples(count: int) -> int:
    """How many generated examples a property test runs: ``count``, or a tenth of it (at least 10) when quick."""
    return max(10, count // 10) if QUICK else count


@pytest.fixture(scope="session")
def parity_counter() -> Counter[str]:
    return PARITY_CASES


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """A folder ``make(folder)`` fills once per run, even when the run is spread over workers (make test).

    The first worker to ask makes it while holding a lock; the others wait for the lock and find it made. Workers'
    temporary folders are siblings, so the folder is made beside them.
    """
    import fcntl
    import shutil

    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    folder = root / name
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (folder / ".made").exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            make(folder)
            (folder / ".made").touch()
    return folder


def computed_once(tmp_path_factory: pytest.TempPathFactory, name: str, compute: Callable[[], Any]) -> Any:
    """``compute()``, computed once per run even when the run is spread over workers: the first to ask computes it
    and keeps it pickled in a folder ``made_once`` makes; the others (and later calls) read it back."""
    import pickle

    def make(folder: Path) -> None:
        (folder / "value.pickle").write_bytes(pickle.dumps(compute()))

    return pickle.loads((made_once(tmp_path_factory, name, make) / "value.pickle").read_bytes())


def _wmt21_once(tmp_path_factory: pytest.TempPathFactory, level: str, make: Callable[..., Any]) -> Callable[..., Any]:
    """``table(pair, reference=None)``: ``make(wmt21_ted(pair), reference=reference)``, computed once per run
    (``computed_once``); ``None`` is the pair's default reference, as for ``make`` itself, and the same table as the
    one named by it."""
    from bleu_teach.lessons.data import wmt21_ted
    from bleu_teach.lessons.mqm import default_reference

    def table(pair: str, reference: str | None = None) -> Any:
        data = wmt21_ted(pair)
        used = default_reference(data) if reference is None else reference
        return computed_once(tmp_path_factory, f"wmt21-{level}-{pair}-{used}", lambda: make(data, reference=used))

    return table


@pytest.fixture(scope="session")
def wmt21_system_table(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Any]:
    """``wmt21_system_table(pair, reference=None)``: ``system_level(wmt21_ted(pair), reference=reference)`` with every
    metric (BLEU, chrF, TER), computed once per run for the test files that need it (TER takes a second a system)."""
    from bleu_teach.lessons.metric_tables import system_level

    return _wmt21_once(tmp_path_factory, "system-level", system_level)


@pytest.fixture(scope="session")
def wmt21_segment_table(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Any]:
    """``wmt21_segment_table(pair, reference=None)``: ``segment_level(wmt21_ted(pair), reference=reference)``
    (sentence BLEU and chrF of every system's every segment), computed once per run for the test files that need it."""
    from bleu_teach.lessons.metric_tables import segment_level

    return _wmt21_once(tmp_path_factory, "segment-level", segment_level)


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package's wheel, built once per run by ``python -m build``, as ``make dist`` builds it."""
    from tests.packaging import build_wheel

    folder = made_once(tmp_path_factory, "dist", build_wheel)
    return next(folder.glob("bleu_teach-*-py3-none-any.whl"))


#: More lines for the end of the run, made when it ends (the browser tests' timings).
SUMMARIES: list[Callable[[], list[str]]] = []
#: What the workers measured, when the run is spread over several (make test: pytest-xdist).
_FROM_WORKERS: dict[str, Any] = {"parity": Counter(), "lines": []}


def _lines() -> list[str]:
    return FIGURES + [line for summary in SUMMARIES for line in summary()]


def pytest_sessionfinish(session):  # noqa: ANN001
    """On a worker: hand what it measured to the controller, which prints it (pytest_testnodedown)."""
    if hasattr(session.config, "workeroutput"):
        session.config.workeroutput["bleu_teach"] = {"parity": dict(PARITY_CASES), "lines": _lines()}


def pytest_testnodedown(node, error):  # noqa: ANN001
    found = getattr(node, "workeroutput", {}).get("bleu_teach", {})
    _FROM_WORKERS["parity"].update(found.get("parity", {}))
    _FROM_WORKERS["lines"].extend(found.get("lines", []))


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # noqa: ANN001
    parity = PARITY_CASES + _FROM_WORKERS["parity"]
    if parity:
        parts = ", ".join(f"{name}={count}" for name, count in sorted(parity.items()))
        terminalreporter.write_line(f"oracle parity cases run: {parts}; total={sum(parity.values())}")
    for line in _lines() + _FROM_WORKERS["lines"]:
        terminalreporter.write_line(line)


def pytest_collection_modifyitems(config, items):  # noqa: ANN001
    """The tiers (README, "Which tests to run when"): browser tests and notebooks are marked by where they live."""
    for item in items:
        path = Path(str(item.fspath))
        if path.suffix == ".ipynb":
            item.add_marker(pytest.mark.notebook)
        elif path.parent.name == "browser":
            item.add_marker(pytest.mark.browser)
