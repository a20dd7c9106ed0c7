"""The exercise bank for teachers: an answer key (one document, every view) and quiz files for learning platforms.

- :func:`answer_key` is a :class:`~bleu_teach.views.viewable.View`: each
  exercise's question, its right answer with the working, and every
  misconception with the answer it gives and the feedback a learner gets
  (Markdown for a course page, LaTeX compiled to a PDF for print).
- :func:`moodle_xml` writes Moodle's own XML import format: choice questions
  as ``multichoice`` with per-option feedback, numeric ones as ``numerical``
  with the question's rounding as the tolerance and, beside the right
  answer, each misconception's value as a 0-credit answer with its feedback.
- :func:`gift` writes the same questions in Moodle's GIFT text format.
- :func:`write_qti` writes a QTI 1.2 package for Canvas (and other
  platforms that import QTI), converted by text2qti from :func:`qti_text`.

Everything is made from :func:`~bleu_teach.exercises.bank.exercises`, so
the files say what the notebooks' checkers say.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import groupby
from xml.etree import ElementTree

from bleu_teach.exercises.bank import Exercise, exercise, exercises  # noqa: F401 (exercise: the doctests)
from bleu_teach.exercises.checkers import Misconception
from bleu_teach.views.document import Block, Document, Heading, Inline, Label, Notes, Paragraph, Section, Strong
from bleu_teach.views.formatting import plain_markdown
from bleu_teach.views.viewable import View

__all__ = ["answer_key", "gift", "moodle_xml", "qti_text", "quiz_question", "write_qti"]


#: The notebook's instructions for typing an answer into a cell, which a quiz on a learning platform does not need.
_NOTEBOOK_ONLY = (
    r"\s*Answer with a letter( as a string)?(, e\.g\. `\"A\"`|, such as `\"A\"`)?\.",
    r"\s*Answer `\"A\"`, `\"B\"` or `\"same\"`\.",
    r"\s*Replace `None` with your answer, (rounded to three decimal places), and run the cell\.",
    r"\s*Replace `None` with `\"A\"`, `\"B\"` or `\"same\"` before you compute anything, and run the cell\.",
    r" in quotes(?= \(e\.g\.)",
    r" Afterwards, check in the explorer above:.*$",
    r" Look at it in the explorer beside ref-B\.",
)


#: What a platform's numerical question cannot take: the questions' offer of a fraction (Moodle and Canvas read
#: decimals only).
_FRACTIONS = (r" or as a fraction( in quotes)? \(e\.g\. `\"\d+/\d+\"`\)", r",? or as an exact fraction",
              r" or as a fraction")


def quiz_question(ex: Exercise, platform: bool = False) -> str:
    """The question as a quiz asks it: without the notebook's typing instructions.

    ``platform=True`` also drops the offer of a fraction, which a platform's numerical question does not accept
    (a worksheet on paper keeps it).

    >>> quiz_question(exercise("00.1"))
    'What does BLEU count?'
    >>> quiz_question(exercise("04.1")).endswith("with smoothing method 1 (ε = 0.1 added to a zero match count)? Rounded to three decimal places.")
    True
    """
    text = ex.question
    context = ex.context
    if ex.kind == "mqm_score" and ex.student is None:  # the lesson shows the error list in a table below
        from bleu_teach.lessons.data import wmt21_ted

        errors = wmt21_ted(ex.inputs["pair"]).errors[ex.inputs["system"]][ex.inputs["segment"]]
        context = "The errors: " + "; ".join(f"{e.category}, {e.severity.lower()}, on *{e.text}*" for e in errors) + "."
        text = text.replace("the three errors listed below", "these three errors")
    text = re.sub(_NOTEBOOK_ONLY[2], r" Rounded to three decimal places.", text)
    # A question that leans on the one before it in the lesson ("hypothesis A", "the same reference") stands alone
    # in a quiz: its context gives the reference.
    text = re.sub(r"of hypothesis A, (\*[^*]+\*), against the same reference", r"of the hypothesis \1 against that reference",
                  text)
    for pattern in _NOTEBOOK_ONLY:
        text = re.sub(pattern, "", text, flags=re.S)
    if ex.kind == "higher" and "same" not in text:
        text += " Answer A, B or the same."
    if platform:
        text = re.sub(r"A fraction such as `\"\d+/\d+\"`, or a decimal", "A decimal", text)
        for pattern in _FRACTIONS:
            text = re.sub(pattern, "", text)
    return f"{context}\n\n{text.strip()}" if context else text.strip()


def _all(found: Sequence[Exercise] | None) -> list[Exercise]:
    """The exercises to write: ``found`` (worksheet variants, say), or the whole bank."""
    return list(exercises() if found is None else found)


def _name(ex: Exercise) -> str:
    """A question's name on a platform: ``03.1 Brevity penalty``, with the student's number for a variant."""
    return f"{ex.label} {ex.title}"


def _id_number(ex: Exercise) -> str:
    return ex.id if ex.student is None else f"{ex.id}-s{ex.student:02d}"


def _groups(found: Sequence[Exercise]) -> list[tuple[str, list[Exercise]]]:
    """The exercises by id, in order: one group per exercise, holding every student's variant of it."""
    ordered = sorted(found, key=lambda ex: (ex.id, ex.student or 0))
    return [(key, list(group)) for key, group in groupby(ordered, key=lambda ex: ex.id)]


def _answer_line(ex: Exercise) -> str:
    working = ex.working if ex.working.startswith("p_") else ex.working[0].upper() + ex.working[1:]  # p_1, not P_1
    return f"Answer: {ex.answer_text}. {working}"


def _misconceptions(ex: Exercise) -> tuple[Misconception, ...]:
    return ex.check(None).misconceptions


def _exercise_section(ex: Exercise) -> Section:
    blocks: list[Block] = [Paragraph((Label(plain_markdown(quiz_question(ex))),))]
    items: tuple[tuple[Inline, ...], ...]
    if ex.options:
        items = tuple((Strong(f"{'same' if o.letter == 'SAME' else o.letter}:"), " ", Label(plain_markdown(o.text)),
                       " (right)" if o.letter == ex.answer else f" (misconception: {o.misconception})",
                       " Feedback: ", Label(plain_markdown(o.feedback))) for o in ex.options)
        blocks.append(Notes(items, "Options"))
    blocks.append(Paragraph((Strong(_answer_line(ex)),)))
    if not ex.options:
        items = tuple((Strong(f"{float(m.value):.{ex.decimals}f}"), f" ({m.name.replace('_', ' ')}): ", Label(m.message))
                      for m in _misconceptions(ex))
        blocks.append(Notes(items, "Misconceptions, the answer each gives, and its feedback"))
    return Section((_name(ex),), tuple(blocks))


def answer_key(found: Sequence[Exercise] | None = None) -> View:
    """Every exercise (of the bank, or ``found``) with its answer, working and misconceptions, in any view.

    >>> key = answer_key()
    >>> "03.2 Which reference length" in key.to_text()
    True
    """
    found = _all(found)
    blocks: list[Block] = [Heading("bleu-teach: the answer key"),
                           Paragraph((f"{len(found)} exercises. Numbers are accepted rounded as each question says, "
                                      "or as exact fractions.",))]
    blocks.extend(_exercise_section(ex) for ex in found)
    data = [{"id": ex.id, "title": ex.title, "answer": ex.answer_text, "working": ex.working} for ex in found]
    return View(Document(tuple(blocks)), data)


# ---------------------------------------------------------------------------
# Moodle XML
# ---------------------------------------------------------------------------


def _text_element(parent: ElementTree.Element, tag: str, text: str, markdown: bool = True) -> ElementTree.Element:
    element = ElementTree.SubElement(parent, tag, {"format": "markdown"} if markdown else {})
    ElementTree.SubElement(element, "text").text = text
    return element


def _tolerance(ex: Exercise) -> str:
    return f"{0.5 * 10.0 ** -(ex.decimals or 0):g}"


def _category(quiz: ElementTree.Element, path: str) -> None:
    category = ElementTree.SubElement(quiz, "question", {"type": "category"})
    ElementTree.SubElement(ElementTree.SubElement(category, "category"), "text").text = path


def moodle_xml(found: Sequence[Exercise] | None = None, category: str = "bleu-teach") -> str:
    """Exercises in Moodle's XML question format (Question bank > Import > Moodle XML format).

    The whole bank by default, in the category ``category``.  Worksheet
    variants (``found``) go into one subcategory per exercise, holding every
    student's variant: a quiz's "random question" from each subcategory gives
    each student a different variant.
    """
    quiz = ElementTree.Element("quiz")
    chosen = _all(found)
    variants = any(ex.student is not None for ex in chosen)
    groups = _groups(chosen) if variants else [("", chosen)]
    for key, group in groups:
        _category(quiz, f"$course$/{category}/{key} {group[0].title}" if variants else f"$course$/{category}")
        for ex in group:
            _moodle_question(quiz, ex)
    ElementTree.indent(quiz)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(quiz, encoding="unicode") + "\n"


def _moodle_question(quiz: ElementTree.Element, ex: Exercise) -> None:
    kind = "multichoice" if ex.options else "numerical"
    question = ElementTree.SubElement(quiz, "question", {"type": kind})
    ElementTree.SubElement(ElementTree.SubElement(question, "name"), "text").text = _name(ex)
    _text_element(question, "questiontext", quiz_question(ex, platform=True))
    _text_element(question, "generalfeedback", _answer_line(ex))
    ElementTree.SubElement(question, "idnumber").text = _id_number(ex)
    if ex.options:
        ElementTree.SubElement(question, "single").text = "true"
        ElementTree.SubElement(question, "shuffleanswers").text = "false"
        ElementTree.SubElement(question, "answernumbering").text = "ABCD"
        for option in ex.options:
            answer = ElementTree.SubElement(question, "answer", {
                "fraction": "100" if option.letter == ex.answer else "0", "format": "markdown"})
            ElementTree.SubElement(answer, "text").text = option.text
            _text_element(answer, "feedback", option.feedback)
    else:
        right = ex.check(ex.answer)
        entries = [(float(right.right or 0), "100", right.message)]
        entries += [(float(m.value), "0", m.message) for m in _misconceptions(ex)]
        for value, fraction, feedback in entries:
            answer = ElementTree.SubElement(question, "answer", {"fraction": fraction})
            ElementTree.SubElement(answer, "text").text = repr(value)
            ElementTree.SubElement(answer, "tolerance").text = _tolerance(ex)
            _text_element(answer, "feedback", feedback)


# ---------------------------------------------------------------------------
# GIFT
# ---------------------------------------------------------------------------


def _gift_escape(text: str) -> str:
    """GIFT's special characters escaped with a backslash, new lines kept as \\n."""
    return re.sub(r"([~=#{}:\\])", r"\\\1", text).replace("\n", "\\n")


def gift(found: Sequence[Exercise] | None = None, category: str = "bleu-teach") -> str:
    """Exercises in Moodle's GIFT format, one question per block, Markdown question texts.

    Worksheet variants go into one ``$CATEGORY`` per exercise, as in :func:`moodle_xml`.
    """
    chosen = _all(found)
    if any(ex.student is not None for ex in chosen):
        return "\n".join(f"$CATEGORY: $course$/{category}/{key} {group[0].title}\n\n" + _gift_blocks(group)
                         for key, group in _groups(chosen))
    return _gift_blocks(chosen)


def _gift_blocks(chosen: Sequence[Exercise]) -> str:
    blocks = []
    for ex in chosen:
        head = f"// {ex.label}: {' '.join(_answer_line(ex).split())}\n::{_gift_escape(_name(ex))}::"
        body = f"[markdown]{_gift_escape(quiz_question(ex, platform=True))}"
        if ex.options:
            answers = [f"{'=' if o.letter == ex.answer else '~'}[markdown]{_gift_escape(o.text)}"
                       f"#{_gift_escape(o.feedback)}" for o in ex.options]
            blocks.append(f"{head}{body} {{\n" + "\n".join(f"\t{a}" for a in answers) + "\n}\n")
        else:
            right = ex.check(ex.answer)
            answers = [f"=%100%{float(right.right or 0)!r}:{_tolerance(ex)}#{_gift_escape(right.message)}"]
            answers += [f"=%0%{float(m.value)!r}:{_tolerance(ex)}#{_gift_escape(m.message)}"
                        for m in _misconceptions(ex)]
            blocks.append(f"{head}{body} {{#\n" + "\n".join(f"\t{a}" for a in answers) + "\n}\n")
    return "\n".join(blocks)


# ---------------------------------------------------------------------------
# QTI (Canvas), through text2qti
# ---------------------------------------------------------------------------


def _qti_lines(start: str, text: str) -> list[str]:
    """A text2qti entry: ``start`` then the text, its further lines indented to line up with the first."""
    first, *rest = text.split("\n")
    pad = " " * len(start)
    return [start + first] + [(pad + line) if line.strip() else "" for line in rest]


def qti_text(found: Sequence[Exercise] | None = None) -> str:
    """Exercises in text2qti's plain-text quiz format (the input :func:`write_qti` converts).

    Worksheet variants become one question group per exercise from which the quiz picks one: each student
    gets one variant of every exercise.
    """
    chosen = _all(found)
    if any(ex.student is not None for ex in chosen):
        lines = ["Quiz title: bleu-teach: a worksheet, a variant for each student",
                 "Quiz description: The numeric exercises of the bleu-teach lessons on new sentences; the quiz "
                 "picks one variant of each.", ""]
        number = 0
        for _, group in _groups(chosen):
            lines += ["GROUP", "pick: 1", "points per question: 1", ""]
            for ex in group:
                number += 1
                lines += _qti_question(number, ex)
            lines += ["END_GROUP", ""]
        return "\n".join(lines)
    lines = ["Quiz title: bleu-teach: the lessons' exercises",
             "Quiz description: Every Check-yourself exercise of the bleu-teach lessons, with the feedback each "
             "answer gets in the notebooks.", ""]
    for number, ex in enumerate(chosen, start=1):
        lines += _qti_question(number, ex)
    return "\n".join(lines)


def _qti_question(number: int, ex: Exercise) -> list[str]:
    lines = [f"Title: {_name(ex)}"]
    lines += _qti_lines(f"{number}.  ", quiz_question(ex, platform=True))
    lines += _qti_lines("... ", _answer_line(ex))
    if ex.options:
        for letter, option in zip("abcdefghijklmnopqrstuvwxyz", ex.options):
            lines += _qti_lines(f"{'*' if option.letter == ex.answer else ''}{letter}) ", option.text)
            lines += _qti_lines("... ", option.feedback)
    else:
        lines.append(f"=   {float(ex.check(ex.answer).right or 0)!r} +- {_tolerance(ex)}")
    lines.append("")
    return lines


def write_qti(path: str, found: Sequence[Exercise] | None = None) -> None:
    """Convert :func:`qti_text` with text2qti into a QTI package (a zip) at ``path``: Canvas imports it as a quiz.

    text2qti keeps each option's feedback and the numeric answers' tolerance, but not feedback for wrong
    numbers (Moodle XML has those).
    """
    try:
        from text2qti.config import Config
        from text2qti.qti import QTI
        from text2qti.quiz import Quiz
    except ImportError:
        raise ValueError("the QTI export needs text2qti, which the package installs: pip install text2qti") from None
    QTI(Quiz(qti_text(found), config=Config(), source_name="bleu-teach exercises")).save(path)
