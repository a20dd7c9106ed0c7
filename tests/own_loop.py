"""Running a coroutine from a test: in an event loop of its own, in a thread of its own, since the test's thread may
already run one (Playwright's synchronous API leaves one running in the process's main thread)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

Result = TypeVar("Result")


def run_alone(coroutine: Coroutine[Any, Any, Result]) -> Result:
    """``asyncio.run(coroutine)`` in a new thread; its result, or what it raised."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as problem:  # noqa: BLE001 (raised again in the test's thread)
            outcome["problem"] = problem

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "problem" in outcome:
        raise outcome["problem"]
    return outcome["value"]  # type: ignore[no-any-return]
