"""Whether a numeric question can tell its mistakes apart: answers that coincide after the question's rounding.

A checker names a learner's mistake by the number it produces.  When two
mistakes (or a mistake and the right answer) give the same number after
rounding, it cannot: the learner hears about the other mistake, or is told
they are right.  The shipped questions and every worksheet variant are
chosen so that this never happens; a teacher who checks answers to a
question of their own is warned with :class:`IndistinctAnswersWarning`.

>>> coinciding([("right", 0.5), ("no_clipping", 0.5004), ("summed_references", 0.75)], 3)
[('right', 'no_clipping')]
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

__all__ = ["IndistinctAnswersWarning", "EXTRA_PLACES", "fits", "written_forms", "coinciding", "warn_if_coinciding"]


class IndistinctAnswersWarning(UserWarning):
    """A question whose right answer and misconceptions are not all different after rounding."""


def fits(value: float, target: float, decimals: int) -> bool:
    """Whether a typed number stands for ``target`` at this rounding (the checkers' rule).

    It does when it rounds to the same value as ``target``, or when it is
    at least as close to ``target`` as ``target``'s rounded value is (so an
    exact fraction, or a tie rounded up instead of to even, fits too).
    """
    rounded = round(target, decimals)
    return abs(value - target) <= abs(rounded - target) + 1e-9 or abs(round(value, decimals) - rounded) < 1e-12


#: How many places beyond the question's a learner may write: 0.3785 for a value asked to three places.
EXTRA_PLACES = 4


def written_forms(value: float, decimals: int) -> list[float]:
    """The ways a learner who has ``value`` may write it: rounded to ``decimals`` places or to a few more, or whole.

    >>> written_forms(0.378457, 3)
    [0.378, 0.3785, 0.37846, 0.378457]
    """
    return list(
        dict.fromkeys([round(value, places) for places in range(decimals, decimals + EXTRA_PLACES + 1)] + [value])
    )


def coinciding(named: Sequence[tuple[str, float]], decimals: int) -> list[tuple[str, str]]:
    """The pairs of names a learner could confuse: one's answer, written to ``decimals`` places or more, fits the
    other (0.3785, from a rule that gives 0.378457, fits a right answer of 0.37898 to three places)."""
    values = [(name, float(value)) for name, value in named]
    forms = [written_forms(x, decimals) for _, x in values]  # each value's once, not once for each pair it is in
    return [
        (a, b)
        for i, (a, x) in enumerate(values)
        for j, (b, y) in enumerate(values[i + 1 :], start=i + 1)
        if any(fits(form, y, decimals) for form in forms[i]) or any(fits(form, x, decimals) for form in forms[j])
    ]


def warn_if_coinciding(named: Sequence[tuple[str, float]], decimals: int) -> None:
    """Warn (:class:`IndistinctAnswersWarning`) when :func:`coinciding` finds any pair."""
    pairs = coinciding(named, decimals)
    if not pairs:
        return
    said = "; ".join(f"{a.replace('_', ' ')} and {b.replace('_', ' ')}" for a, b in pairs)
    warnings.warn(
        f"On this question some answers are equal after rounding to {decimals} decimal places ({said}), so the "
        "checker cannot tell those mistakes apart (a learner may be told about another mistake, or that a "
        "mistaken answer is right). Choose sentences or lengths where they differ; "
        "bleu_teach.exercises.variants.worksheets draws such variants.",
        IndistinctAnswersWarning,
        stacklevel=4,
    )
