"""What a checker says about one answer: a :class:`Feedback` (a verdict and a message, in every view) and the
:class:`Misconception` it offered, and :func:`judge`, which compares a numeric answer with the right value and
each misconception's value at the question's rounding.

The checkers in :mod:`bleu_teach.exercises.checkers` and :mod:`bleu_teach.exercises.score_checkers` compute the
values; this module only compares and words the verdict, the same way for every kind of question.
"""

from __future__ import annotations

import math
import numbers
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from bleu_teach.exercises.distinct import fits, warn_if_coinciding
from bleu_teach.inputs.validation import preview, typed_number
from bleu_teach.views.document import Document, Label, Paragraph, Strong
from bleu_teach.views.text_writer import write_text
from bleu_teach.views.viewable import Viewable

__all__ = [
    "Misconception",
    "Feedback",
    "VERDICTS",
    "as_number",
    "rounding_text",
    "judge",
    "merged",
    "names",
    "half_up",
    "with_verdict",
]


@dataclass(frozen=True)
class Misconception:
    """A classic mistake, the answer it produces on this question, and what to say about it."""

    name: str
    value: float | str
    message: str
    #: Digits fewer than the question asks for that still recognise it: a value on sacreBLEU's 0-100 scale is
    #: read to two places fewer (43.01 for 0.4301 to three places), as sacreBLEU prints it.
    fewer_decimals: int = 0
    #: The other mistakes that give exactly the same number, named in the message too (see :func:`merged`).
    also: tuple[str, ...] = ()


#: The verdict's word, and the symbol shown beside it (a symbol and a word, never colour alone).
VERDICTS: dict[bool | None, tuple[str, str]] = {
    True: ("Correct", "\u2714"),
    False: ("Not yet", "\u2718"),
    None: ("No answer yet", "\u270e"),
}


@dataclass(frozen=True, repr=False)
class Feedback(Viewable):
    """The verdict on one answer, shown as text, HTML, Markdown or LaTeX.

    ``right`` is the right answer, ``decimals`` the rounding the question
    asks for (None for a choice), ``misconceptions`` every mistake the
    checker offered for this question, and ``recognised`` the name of the
    one the answer matched, if any.  The text view is one line,
    ``Correct: ...``, ``Not yet: ...`` or ``No answer yet: ...``; the
    other views put a symbol before the word.

    >>> print(Feedback(True, "2 of the 7 tokens are matched."))
    Correct: 2 of the 7 tokens are matched.
    """

    correct: bool | None
    message: str
    right: float | str | None = None
    decimals: int | None = None
    misconceptions: tuple[Misconception, ...] = ()
    recognised: str | None = None

    @property
    def verdict(self) -> str:
        """``"correct"``, ``"misconception"`` (a wrong answer the checker could name), ``"wrong"`` or
        ``"unanswered"``."""
        if self.correct is None:
            return "unanswered"
        if self.correct:
            return "correct"
        return "misconception" if self.recognised is not None else "wrong"

    @property
    def tolerance(self) -> float:
        """How far a numeric answer may be from the right value: half a unit in the last decimal asked for."""
        return 0.5 * 10.0 ** -(self.decimals if self.decimals is not None else 0) + 1e-12

    def to_document(self, symbol: bool = True) -> Document:
        """The verdict in one paragraph: (a symbol and) the word in bold, then the message.

        ``symbol=False`` leaves the symbol out (the one-line text view).
        """
        word, mark = VERDICTS[self.correct]
        return Document((Paragraph((Strong(f"{mark} {word}:" if symbol else f"{word}:"), " ", Label(self.message))),))

    def to_text(self) -> str:
        """One line of plain text: ``Correct: ...``, ``Not yet: ...`` or ``No answer yet: ...``."""
        return write_text(self.to_document(symbol=False))


def as_number(answer: Any, fraction: bool = True) -> float:
    """A typed or given answer as a float; a fraction is always read, but offered only where the answer has one."""
    advice = "the answer as a number or a fraction such as 2/7" if fraction else "the answer as a number such as 0.25"
    if isinstance(answer, str):
        answer = _ascii_digits(answer)
        percent = _PERCENT.match(answer)
        if percent:  # "83.3%": a percentage, the answer on the 0-100 scale (judge says so)
            return typed_number(percent.group(1), advice)
        ratio = _RATIO.match(answer)
        if ratio:  # "5:8", a ratio, is the fraction 5/8
            return typed_number(f"{ratio.group(1)}/{ratio.group(2)}", advice)
        return typed_number(answer, advice)  # bounded: "1e30000000" is refused before any arithmetic
    if isinstance(answer, bool) or not isinstance(answer, (numbers.Real, Decimal)):
        raise TypeError(f"Write {advice}, not {preview(answer)}.")
    try:
        value = float(answer)
    except (OverflowError, ValueError, ArithmeticError):  # too large for a float; Decimal('sNaN')
        raise ValueError(f"Write the answer as a finite number, not {preview(answer)}.") from None
    if not math.isfinite(value):
        raise ValueError(f"Write the answer as a finite number, not {preview(answer)}.")
    return value


_WRITTEN = re.compile(r"^\s*[+\-\u2212]?\d*(?:[.,](\d+))?\s*$")


def _ascii_digits(text: str) -> str:
    """Digits and signs as an input method or a keyboard in another script types them, as ASCII: full-width
    "７６．９％" (NFKC) and Arabic-Indic "۰٫۷۶۹" (the Arabic decimal separator read as a point)."""
    text = unicodedata.normalize("NFKC", text).replace("\u066b", ".").replace("\u066a", "%")
    return "".join(str(unicodedata.digit(ch)) if ch.isdigit() and not ch.isascii() else ch for ch in text)


_PERCENT = re.compile(r"^\s*([+\-\u2212]?\d{1,20}(?:[.,]\d{1,20})?)\s*%\s*$")
_RATIO = re.compile(r"^\s*(\d{1,20})\s*:\s*(\d{1,20})\s*$")


def written_decimals(answer: Any) -> int | None:
    """How many decimals an answer was written with (``"0.67"`` and ``0.67``: 2; ``"1"``: 0), or None for a
    fraction, an exponent or anything else.

    >>> written_decimals("0.67"), written_decimals(0.26), written_decimals(" 1 "), written_decimals("2/7")
    (2, 2, 0, None)
    """
    if isinstance(answer, bool):
        return None
    if isinstance(answer, float):
        answer = repr(answer)
    elif isinstance(answer, int):
        answer = str(answer)
    if not isinstance(answer, str):
        return None
    answer = _ascii_digits(answer)
    percent = _PERCENT.match(answer)
    if percent:  # "83.3%": the places it shows, on the 0-100 scale
        return written_decimals(percent.group(1))
    found = _WRITTEN.match(answer)
    if found is None or not any(ch.isdigit() for ch in answer):
        return None
    return len(found.group(1) or "")


def rounding_text(decimals: int, fraction: bool = True) -> str:
    return (
        f"rounded to {decimals} decimal place{'s' if decimals != 1 else ''}{', or as a fraction' if fraction else ''}"
    )


def judge(
    answer: Any,
    right: float,
    explanation: str,
    mistakes: Sequence[Misconception],
    decimals: int,
    hint: str,
    fraction: bool = True,
    times_100: str = "a percentage, or sacreBLEU's 0-100 scale",
    at_most: tuple[float, str] | None = None,
) -> Feedback:
    """Compare a numeric answer with the right value, then with each misconception's value.

    ``explanation`` (which holds the right answer) is shown only to a right
    answer; an answer that matches nothing gets the ``hint``, which does not.
    ``fraction=False`` for an answer with no exact fraction to offer (a brevity
    penalty, a BLEU score, an MQM score): the rounding advice then leaves it out.
    ``times_100`` says where an answer 100 times too large comes from (sacreBLEU prints BP from 0 to 1).
    ``at_most`` is the largest value the quantity can take and what says so (``(1.0, "BLEU is at most 1 ...")``),
    for an answer above it that no misconception explains.
    """
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 10:
        raise ValueError(f"decimals must be a whole number from 0 to 10, not {decimals!r}.")
    offered = merged(mistakes)
    warn_if_coinciding(
        [("right", right), *((" / ".join((m.name, *m.also)), float(m.value)) for m in offered)], decimals
    )
    base = Feedback(None, "", right, decimals, offered)
    if answer is None or answer is Ellipsis:
        return with_verdict(base, None, "replace None with your answer and run the cell again.")
    value = as_number(answer, fraction)
    if fits(value, right, decimals):
        return with_verdict(base, True, explanation)
    given = written_decimals(answer)
    if given is not None and given > decimals + 4:
        given = None  # a float's noise (0.57 * 100 is 56.99999999999999), not digits a learner wrote

    def as_written(places: int) -> int:
        """A value on the 0-100 scale is read to fewer places, but never to fewer than the learner wrote: 0.029
        is not 100 x 1e-76, which is 0.000 to three places, though both are 0.0 to one."""
        return max(places, given) if given is not None else places

    # Rounded too early, cut off, or rounded half up or half to even: the learner had the right value.
    shorter = {
        f(right * 10**k) / 10**k for k in range(max(0, decimals - 2), decimals) for f in (round, math.trunc, half_up)
    }
    too_few = (
        f"close, but give {decimals} decimal place{'s' if decimals != 1 else ''}, not {given}: round the "
        f"full value to {decimals} in one step{', or give the exact fraction' if fraction else ''}."
    )
    cut_short = (
        decimals > 0
        and given is not None
        and max(1, decimals - 2) <= given < decimals  # to the places written
        and any(abs(value - f(right * 10**given) / 10**given) < 1e-9 for f in (round, math.trunc, half_up))
    )
    named = [
        m
        for m in offered
        if fits(value, float(m.value), as_written(decimals - m.fewer_decimals) if m.fewer_decimals else decimals)
    ]
    if named and cut_short:  # 0.7: 10/13 cut to one place, or a mistake's 0.700; both are said
        return with_verdict(base, False, _either([Misconception("cut_short", value, too_few), *named]), named[0].name)
    if named:
        return with_verdict(base, False, _either(named), named[0].name)
    if 0 < right <= 1 and round(right, decimals) > 0 and fits(value, 100 * right, as_written(max(decimals - 2, 0))):
        return with_verdict(
            base, False, f"that is the answer times 100 ({times_100}); give it as a number from 0 to 1."
        )
    near_right = abs(value - right) < 10.0**-decimals  # a slip in the last digit, not a mistake times 100
    if decimals >= 2 and not near_right:  # a misconception's answer on the 0-100 scale: the mistake, then the scale
        named = [
            m
            for m in offered
            if not m.fewer_decimals
            and 0 < float(m.value) <= 1
            and fits(value, 100 * float(m.value), as_written(decimals - 2))
        ]
        if named:
            return with_verdict(
                base,
                False,
                f"{_either(named)} And give the answer as a number from 0 to 1, not times 100.",
                named[0].name,
            )
    if at_most is not None and value > at_most[0] and not fits(value, at_most[0], decimals):
        return with_verdict(base, False, f"that is above {at_most[0]:g}, and {at_most[1]}.")
    if cut_short:
        return with_verdict(base, False, too_few)
    # Off by less than one unit of the last decimal asked for is a rounding slip only if the exact value has more
    # decimals than that (an MQM score of -6 has none: -6.1 is another sum, not -6 rounded badly).
    has_more_digits = abs(round(right, decimals) - right) > 1e-9
    if decimals > 0 and (
        (has_more_digits and abs(value - right) < 10.0**-decimals) or any(abs(value - v) < 1e-9 for v in shorter)
    ):
        return with_verdict(
            base,
            False,
            f"close: round the full value to {decimals} decimal place"
            f"{'s' if decimals != 1 else ''} in one step (round, do not cut off the last "
            "digits, and do not round a value that is already rounded)"
            f"{', or give the exact fraction' if fraction else ''}.",
        )
    return with_verdict(base, False, f"that is not it ({rounding_text(decimals, fraction)}). Hint: {hint}.")


def merged(mistakes: Sequence[Misconception]) -> tuple[Misconception, ...]:
    """The mistakes, with those that give exactly the same number offered as one whose message names each: an
    answer they both give cannot say which was made, so the learner hears both (named by the first).

    >>> one, = merged([Misconception("a", 0.5, "you did a."), Misconception("b", 1 / 2, "you did b.")])
    >>> one.name
    'a'
    >>> one.message.split(". 1) ")  # doctest: +NORMALIZE_WHITESPACE
    ['that answer comes from 2 different mistakes, and the checker cannot tell which you made',
     'you did a. Or: 2) you did b.']
    """
    found: list[list[Misconception]] = []
    for mistake in mistakes:
        same = next((group for group in found if _same_value(group[0], mistake)), None)
        if same is None:
            found.append([mistake])
        else:
            same.append(mistake)
    return tuple(
        group[0]
        if len(group) == 1
        else replace(group[0], message=_either(group), also=tuple(m.name for m in group[1:]))
        for group in found
    )


def names(mistake: Misconception) -> str:
    """Every mistake a misconception stands for, as a marker reads it: "no penalty / first reference"."""
    return " / ".join(name.replace("_", " ") for name in (mistake.name, *mistake.also))


def _same_value(a: Misconception, b: Misconception) -> bool:
    if isinstance(a.value, str) or isinstance(b.value, str) or a.fewer_decimals != b.fewer_decimals:
        return a.value == b.value and a.fewer_decimals == b.fewer_decimals
    return abs(float(a.value) - float(b.value)) <= 1e-12 * max(1.0, abs(float(a.value)))


def _either(named: Sequence[Misconception]) -> str:
    """What to say about an answer that one mistake gives, or several (each named: the checker cannot tell which)."""
    messages = list(dict.fromkeys(m.message for m in named))
    if len(messages) == 1:
        return messages[0]
    return (
        f"that answer comes from {len(messages)} different mistakes, and the checker cannot tell which you "
        "made. " + " Or: ".join(f"{k}) {message}" for k, message in enumerate(messages, start=1))
    )


def half_up(x: float) -> int:
    """``x`` rounded to a whole number with halves up, as taught at school (``round`` takes them to even)."""
    return math.floor(x + 0.5)


def with_verdict(base: Feedback, correct: bool | None, message: str, recognised: str | None = None) -> Feedback:
    return Feedback(correct, message, base.right, base.decimals, base.misconceptions, recognised)
