"""How each medium asks an exercise: the one place where a question gets a medium's instructions.

The bank (:mod:`bleu_teach.exercises.bank`) holds each question in no
medium's words. A medium adds what its reader needs to answer there:

- ``notebook``: a lesson's exercise cell, where an answer is a Python value
  (a letter or a fraction in quotes) and the cell is run;
- ``page``: the lesson's web page, with radio buttons or a text box and a
  Check button;
- ``platform``: a learning platform's quiz (Moodle, Canvas), whose numeric
  questions take a decimal only and whose choices are shown as buttons;
- ``paper``: a printed worksheet or the answer key;
- ``practice``: a practice question (:mod:`bleu_teach.exercises.practice`), in the notebook's practice widget or
  on the page, away from the lesson's text: what a reader needs without the lesson, and a box and a Check
  button as on the page.

The lesson's media (``notebook`` and ``page``) show what the record says
only the lesson can (``in_lesson``: "look at it in the explorer above"); the
others show instead what a reader needs without the lesson
(:meth:`~bleu_teach.exercises.bank.Exercise.stand_alone_context`).

>>> from bleu_teach.exercises.bank import exercise
>>> question_text(exercise("03.1"), "platform").split("? ")  # doctest: +NORMALIZE_WHITESPACE
['References of 12, 5, 9 and 15 tokens; a hypothesis of 8 tokens. What is BP',
 'Give it as a number from 0 to 1, rounded to three decimal places.']
>>> question_text(exercise("00.1"), "notebook").split("? ")[-1]
'Answer with a letter as a string, e.g. `"A"`.'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bleu_teach.views.document import Block, Label, Notes, Paragraph
from bleu_teach.views.formatting import plain_markdown

__all__ = [
    "LESSON_MEDIA",
    "MEDIA",
    "AnswerFormat",
    "Asked",
    "answer_label",
    "how_to_answer",
    "instructions",
    "paper_blocks",
    "question_text",
]

#: Every medium an exercise is asked in.
MEDIA = ("notebook", "page", "platform", "paper", "practice")
#: The media that show the exercise inside its lesson.
LESSON_MEDIA = ("notebook", "page")


@dataclass(frozen=True)
class AnswerFormat:
    """What an answer is, whatever the medium: ``letter`` (a choice), ``a_b_same`` (which scores higher), or
    ``number`` with its rounding; whether an exact fraction is asked for too; and its scale.

    ``scale`` is ``"0-1"`` for a precision or a brevity penalty, ``"bleu 0-1"`` for a BLEU score (on NLTK's 0-1
    scale, which a question must say: sacreBLEU reports 0-100), ``None`` for a number with no fixed range.
    """

    kind: str
    decimals: int | None = None
    fraction: bool = False
    scale: str | None = None


class Asked(Protocol):
    """What a medium reads of an exercise (:class:`~bleu_teach.exercises.bank.Exercise` is one)."""

    @property
    def question(self) -> str: ...
    @property
    def in_lesson(self) -> str: ...
    @property
    def answer_format(self) -> AnswerFormat: ...
    def stand_alone_context(self) -> str: ...


_PLACES = {0: "a whole number", 1: "one decimal place", 2: "two decimal places", 3: "three decimal places"}
#: The examples a notebook and a page show of a number and of a fraction (tests/test_exercise_media.py checks that
#: no question's right answer or misconception is one of them).
EXAMPLE_NUMBER, EXAMPLE_FRACTION = "0.286", "2/7"


def _places(decimals: int | None) -> str:
    return _PLACES.get(decimals or 0, f"{decimals} decimal places")


def _scale(answer: AnswerFormat) -> str:
    if answer.scale == "bleu 0-1":
        return "as a number from 0 to 1 (not on sacreBLEU's 0-100 scale), "
    if answer.scale == "0-1":
        return "as a number from 0 to 1, "
    return ""


def instructions(ex: Asked, medium: str) -> str:
    """What a reader of ``medium`` is told about giving their answer ("" where the medium's controls say it)."""
    if medium not in MEDIA:
        raise ValueError(f"medium must be one of {', '.join(MEDIA)}, not {medium!r}.")
    if medium == "practice":  # a box and a Check button, as on the page
        medium = "page"
    answer = ex.answer_format
    if answer.kind == "letter":
        return {
            "notebook": 'Answer with a letter as a string, e.g. `"A"`.',
            "page": "Choose one and press Check.",
            "platform": "",
            "paper": "Answer with a letter.",
        }[medium]
    if answer.kind == "a_b_same":
        return {
            "notebook": 'Answer `"A"`, `"B"` or `"same"`.',
            "page": "Choose A, B or the same, then press Check.",
            "platform": "",
            "paper": "Answer A, B or the same.",
        }[medium]
    rounded = f"rounded to {_places(answer.decimals)}"
    example = answer.scale is not None  # an example of a number from 0 to 1; an MQM score has none to give
    if medium == "notebook":
        text = f"Give it {_scale(answer)}{rounded}" + (f" (e.g. `{EXAMPLE_NUMBER}`)" if example else "")
        return text + (f', or as a fraction in quotes (e.g. `"{EXAMPLE_FRACTION}"`).' if answer.fraction else ".")
    if medium == "page":
        text = f"Type it {_scale(answer)}{rounded}" + (f" (e.g. {EXAMPLE_NUMBER})" if example else "")
        return (
            text + (f", or as a fraction (e.g. {EXAMPLE_FRACTION})" if answer.fraction else "") + ", and press Check."
        )
    if medium == "platform":  # a platform's numerical question takes a decimal only
        return f"Give it {_scale(answer)}{rounded}."
    return f"Give it {_scale(answer)}{rounded}" + (", or as a fraction." if answer.fraction else ".")


#: How a lesson's reader answers at all, as lesson 00 says it before the first question (the site's build swaps the
#: notebook's sentence for the page's).
_HOW_TO_ANSWER = {
    "notebook": "Replace `None` with your answer and run the cell",
    "page": "Choose or type your answer and press Check",
}


def how_to_answer(medium: str) -> str:
    """How a reader of a lesson's ``medium`` answers a question, in general: ``Replace `None` ... run the cell``."""
    if medium not in LESSON_MEDIA:
        raise ValueError(f"medium must be one of {', '.join(LESSON_MEDIA)} (a lesson's), not {medium!r}.")
    return _HOW_TO_ANSWER[medium]


def answer_label(ex: Asked) -> str:
    """What the web page's answer box is for: ``a number from 0 to 1, or a fraction such as 2/7``."""
    answer = ex.answer_format
    text = "a number from 0 to 1" if answer.scale else "a number"
    return text + (f", or a fraction such as {EXAMPLE_FRACTION}" if answer.fraction else "")


def question_text(ex: Asked, medium: str) -> str:
    """The question as ``medium`` asks it (Markdown): what a reader without the lesson needs, the question, what
    only the lesson adds, and the medium's instructions.  Options are the medium's to show."""
    parts = [ex.question, ex.in_lesson if medium in LESSON_MEDIA else "", instructions(ex, medium)]
    text = " ".join(part for part in parts if part)
    context = "" if medium in LESSON_MEDIA else ex.stand_alone_context()
    return f"{context}\n\n{text}" if context else text


def paper_blocks(ex: Asked) -> tuple[Block, ...]:
    """The question as printed (the key, a worksheet): a paragraph for each of its paragraphs, and its bullet
    points (00.2's two hypotheses) one to a line, not run together.

    >>> from bleu_teach.exercises.bank import exercise
    >>> [type(b).__name__ for b in paper_blocks(exercise("00.2"))]
    ['Paragraph', 'Notes', 'Paragraph']
    """
    blocks: list[Block] = []
    for part in plain_markdown(question_text(ex, "paper")).split("\n\n"):
        lines = [line for line in part.split("\n") if line.strip()]
        if lines and all(line.startswith("- ") for line in lines):
            blocks.append(Notes(tuple((Label(line[2:]),) for line in lines), ""))
        elif lines:
            blocks.append(Paragraph((Label(" ".join(lines)),)))
    return tuple(blocks)
