"""A clear message for a choice question's letter typed without quotes in a notebook (``answer = B``).

Python reads ``B`` as a name and stops with ``NameError: name 'B' is not defined``, which tells a learner nothing
about the answer.  In IPython (a notebook's kernel), :func:`register` asks the shell to show, for that error only,
``Put the letter in quotes: answer = "B"`` instead of the traceback.

It is kept narrow on purpose, so that it never hides a real error: only a ``NameError``, only for a name that is an
option of one of the bank's choice questions (``A`` to ``D``, ``same``, in any case), and only in a cell that calls
``check("LL.Q", ...)``, the exercise cell.  Every other error is shown by IPython's own formatter, as usual, and a
shell that already has a handler of its own keeps it.  Importing :mod:`bleu_teach.exercises` registers it when
IPython is already running (a lesson's setup cell imports ``check``); nothing happens in plain Python or on the
website's Pyodide, where IPython is not loaded.
"""

from __future__ import annotations

import re
import sys
from functools import cache
from typing import Any

__all__ = ["register", "unquoted_letter"]

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


def _handler(shell: Any, etype: type, value: BaseException, tb: Any, tb_offset: int | None = None) -> None:
    """IPython's custom exception handler: the message for an unquoted letter (on stderr, where a notebook shows
    an error's text), any other NameError shown as IPython shows it."""
    history = shell.user_ns.get("_ih") or [""]
    last = tb
    while last is not None and last.tb_next is not None:
        last = last.tb_next
    in_the_cell = last is None or last.tb_frame.f_code.co_name == "<module>"  # not inside a function it calls
    said = unquoted_letter(value, history[-1] if isinstance(history[-1], str) else "") if in_the_cell else None
    if said is None:
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)
    else:
        print(said, file=sys.stderr)


def register(shell: Any = None) -> bool:
    """Show the message for an unquoted letter in this IPython shell (the running one unless given); False when
    there is none, or when it already has a handler of its own."""
    if shell is None:
        ipython = sys.modules.get("IPython")  # only if already loaded: never imported here
        shell = ipython.get_ipython() if ipython is not None else None
    if shell is None or getattr(shell, "custom_exceptions", None):
        return shell is not None and getattr(shell, "custom_exceptions", ()) == (NameError,)
    shell.set_custom_exc((NameError,), _handler)
    return True
