"""Shared test helpers: counts the oracle comparisons so the run reports them."""

from __future__ import annotations

from collections import Counter

import pytest

PARITY_CASES: Counter[str] = Counter()
#: Figures a test measured (sizes, times), printed at the end of the run.
FIGURES: list[str] = []


@pytest.fixture(scope="session")
def parity_counter() -> Counter[str]:
    return PARITY_CASES


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # noqa: ANN001
    if PARITY_CASES:
        parts = ", ".join(f"{name}={count}" for name, count in sorted(PARITY_CASES.items()))
        terminalreporter.write_line(f"oracle parity cases run: {parts}; total={sum(PARITY_CASES.values())}")
    for figure in FIGURES:
        terminalreporter.write_line(figure)
