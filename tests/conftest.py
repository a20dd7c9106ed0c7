"""Shared test helpers: counts the oracle comparisons so the run reports them."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

PARITY_CASES: Counter[str] = Counter()
#: Figures a test measured (sizes, times), printed at the end of the run.
FIGURES: list[str] = []


#: The fast tier (make check sets BLEU_TEACH_QUICK=1) runs each property test on a tenth of its examples;
#: make test, and so CI, runs every example.
QUICK = os.environ.get("BLEU_TEACH_QUICK") == "1"


def examples(count: int) -> int:
    """How many generated examples a property test runs: ``count``, or a tenth of it (at least 10) when quick."""
    return max(10, count // 10) if QUICK else count


@pytest.fixture(scope="session")
def parity_counter() -> Counter[str]:
    return PARITY_CASES


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # noqa: ANN001
    if PARITY_CASES:
        parts = ", ".join(f"{name}={count}" for name, count in sorted(PARITY_CASES.items()))
        terminalreporter.write_line(f"oracle parity cases run: {parts}; total={sum(PARITY_CASES.values())}")
    for figure in FIGURES:
        terminalreporter.write_line(figure)


def pytest_collection_modifyitems(config, items):  # noqa: ANN001
    """The tiers (README, "Which tests to run when"): browser tests and notebooks are marked by where they live."""
    for item in items:
        path = Path(str(item.fspath))
        if path.suffix == ".ipynb":
            item.add_marker(pytest.mark.notebook)
        elif path.parent.name == "browser":
            item.add_marker(pytest.mark.browser)
