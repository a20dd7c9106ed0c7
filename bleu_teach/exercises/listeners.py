"""Who else hears of a checked answer: :func:`listen` adds a function that :func:`~bleu_teach.exercises.bank.check`
calls with each answer it checked (the classroom's notebook link sends it to the class's session).

A listener that fails never changes the check: its error is turned into a
warning that says so, and the learner still gets their feedback.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from bleu_teach.exercises.feedback import Feedback

Listener = Callable[[str, Any, Feedback], None]
_LISTENERS: list[Listener] = []


def listen(listener: Listener) -> Callable[[], None]:
    """Call ``listener(exercise_id, answer, feedback)`` after every check; returns the function that stops it."""
    if not callable(listener):
        raise TypeError(f"listener: give a function, not {type(listener).__name__}.")
    _LISTENERS.append(listener)

    def stop() -> None:
        if listener in _LISTENERS:
            _LISTENERS.remove(listener)

    return stop


def tell(exercise_id: str, answer: Any, feedback: Feedback) -> None:
    """Tell every listener of a checked answer (the check itself is already done)."""
    for listener in list(_LISTENERS):
        try:
            listener(exercise_id, answer, feedback)
        except Exception as problem:  # noqa: BLE001 (a listener's failure must not cost the learner the feedback)
            warnings.warn(f"The answer was checked, but passing it on failed: {problem}", RuntimeWarning, stacklevel=3)
