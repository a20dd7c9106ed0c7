"""A clear message, without a traceback, for an answer a notebook's exercise cell cannot read.

Python reads ``answer = B`` as a name and stops with ``NameError: name 'B' is not defined``, which tells a learner
nothing about the answer.  In IPython (a notebook's kernel), :func:`register` asks the shell to show, for that error
only, ``Put the letter in quotes: answer = "B"`` instead of the traceback.  An answer ``check`` itself refuses
(``answer = "banana"`` on a numeric question: a ``ValueError`` or ``TypeError`` that says what to write) is shown as
that one line too, when the exercise cell called ``check`` directly.

It is kept narrow on purpose, so that it never hides a real error: only a ``NameError``, only for a name that is an
option of one of the bank's choice questions (``A`` to ``D``, ``same``, in any case), and only in a cell that calls
``check("LL.Q", ...)``, the exercise cell; only a ``ValueError`` or ``TypeError`` raised by the ``check`` that cell
called, not by anything the cell computed first (``sqrt(-1)``) or by another function. Every other error is shown by
IPython's own formatter, as usual, and a shell that already has a handler of its own keeps it. Importing
:mod:`bleu_teach.exercises` registers it when IPython is already running (a lesson's setup cell imports ``check``);
nothing happens in plain Python or on the website's Pyodide, where IPython is not loaded.
"""

from __future__ import annotations

import re
import sys
from functools import cache
from typing import Any

__all__ = ["HANDLED", "refused_answer", "register", "unquoted_letter"]

_EXERCISE_CELL = re.compile(r"""\bcheck\(\s*["']\d\d\.\d+["']""")


@cache
def _letters() -> frozenset[str]:
    from bleu_teach.exercises.bank import exercises

    return frozenset(option.letter.upper() for ex in exercises() for option in ex.options)


def unquoted_letter(error: BaseException, cell: str) -> str | None:
    """The message for ``error`` raised by ``cell`` when it is a choice letter typed without quotes, else None.

    >>> unquoted_letter(NameError("name 'B' is not defined", name="B"), 'answer = B\\ncheck("00.2", answer)')
    'NameError: B is read as a name. Put the letter in quotes: answer = "B"'
    >>> unquoted_letter(NameError("name 'x' is not defined", name="x"), 'answer = x\\ncheck("00.2", answer)') is None
    True
    """
    name = getattr(error, "name", None)
    if not isinstance(error, NameError) or not isinstance(name, str) or name.upper() not in _letters():
        return None
    if not _EXERCISE_CELL.search(cell):
        return None
    what = "letter" if len(name) == 1 else "option"
    return f'NameError: {name} is read as a name. Put the {what} in quotes: answer = "{name}"'


def refused_answer(error: BaseException, by_check: bool, cell: str) -> str | None:
    """The one line for ``error`` when the exercise cell's own call of ``check`` refused the answer (``by_check``:
    the function the cell called was ``check``), else None.

    >>> refused_answer(ValueError("Write the answer as a number."), True, 'check("01.1", "banana")')
    'ValueError: Write the answer as a number.'
    >>> refused_answer(ValueError("math domain error"), False, 'check("01.1", sqrt(-1))') is None
    True
    """
    if not isinstance(error, (ValueError, TypeError)) or not by_check or not _EXERCISE_CELL.search(cell):
        return None
    return f"{type(error).__name__}: {error}"


def _handler(shell: Any, etype: type, value: BaseException, tb: Any, tb_offset: int | None = None) -> None:
    """IPython's custom exception handler: the message for an unquoted letter or an answer ``check`` refused (on
    stderr, where a notebook shows an error's text); any other error shown as IPython shows it."""
    history = shell.user_ns.get("_ih") or [""]
    cell = history[-1] if isinstance(history[-1], str) else ""
    frames = []
    step = tb
    while step is not None:
        frames.append(step.tb_frame)
        step = step.tb_next
    in_the_cell = not frames or frames[-1].f_code.co_name == "<module>"  # not inside a function it calls
    # the cell's own frame (the first "<module>" one), then the function it called: bank.check refusing the answer
    cell_at = next((i for i, frame in enumerate(frames) if frame.f_code.co_name == "<module>"), len(frames))
    after = frames[cell_at + 1 : cell_at + 2]
    by_check = bool(after) and _is_bank_check(after[0])
    if isinstance(value, NameError):
        said = unquoted_letter(value, cell) if in_the_cell else None
    else:
        said = refused_answer(value, by_check, cell)
    if said is None:
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
    else:
        print(said, file=sys.stderr)


def _is_bank_check(frame: Any) -> bool:
    from bleu_teach.exercises.bank import check

    return frame.f_code is check.__code__


#: The errors the handler looks at; any other is shown as IPython shows it, never through the handler.
HANDLED = (NameError, ValueError, TypeError)


def register(shell: Any = None) -> bool:
    """Show the message for an unquoted letter in this IPython shell (the running one unless given); False when
    there is none, or when it already has a handler of its own."""
    if shell is None:
        ipython = sys.modules.get("IPython")  # only if already loaded: never imported here
        shell = ipython.get_ipython() if ipython is not None else None
    if shell is None or getattr(shell, "custom_exceptions", None):
        return shell is not None and getattr(shell, "custom_exceptions", ()) == HANDLED
    shell.set_custom_exc(HANDLED, _handler)
    return True
