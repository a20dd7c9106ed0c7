"""The libraries bleu_teach uses when they are there: NLTK's and sacreBLEU's tokenizers and metrics, SciPy, ...

The computation needs none of them (``pip install bleu-teach`` installs no
dependency); the lessons, the oracles and the teacher's tools do, and come
with ``pip install "bleu-teach[course]"``. A function that needs one calls
:func:`needs` first, so that without it the learner reads what to install,
not a bare ``No module named 'sacrebleu'``.

>>> needs("json", "reading JSON")
>>> try:
...     needs("no_such_library_xyz", "this example")
... except MissingLibrary as missing:
...     print(missing)  # doctest: +NORMALIZE_WHITESPACE
this example needs no_such_library_xyz, which is not installed.
Install the course's libraries with: pip install "bleu-teach[course]"
"""

from __future__ import annotations

from importlib.util import find_spec

__all__ = ["COURSE_EXTRA", "MissingLibrary", "needs"]

#: The extra that brings every library the lessons, the oracles and the teacher's tools use.
COURSE_EXTRA = 'pip install "bleu-teach[course]"'
#: A library's name on PyPI where it differs from its import name.
_DISTRIBUTIONS = {"sklearn": "scikit-learn"}


class MissingLibrary(ModuleNotFoundError):
    """A library bleu_teach needs for this task is not installed; the message says how to install it."""


def needs(module: str, purpose: str) -> None:
    """Raise :class:`MissingLibrary` naming ``purpose`` and the install command if ``module`` cannot be imported."""
    top = module.split(".")[0]
    if find_spec(top) is None:
        library = _DISTRIBUTIONS.get(top, top)
        raise MissingLibrary(
            f"{purpose} needs {library}, which is not installed. Install the course's libraries with: {COURSE_EXTRA}",
            name=top,
        )
