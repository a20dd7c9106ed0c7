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
the files say what the notebooks' checkers say; each question is worded for
its medium by :func:`~bleu_teach.exercises.media.question_text` (``paper``
for the key, ``platform`` for the quiz files).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import ROUND_HALF_DOWN, ROUND_HALF_UP, Decimal
from itertools import groupby
from xml.etree import ElementTree
from xml.sax.saxutils import escape

from bleu_teach.exercises.bank import Exercise, exercise, exercises  # noqa: F401 (exercise: the doctests)
from bleu_teach.exercises.checkers import Misconception
from bleu_teach.exercises.feedback import names
from bleu_teach.exercises.media import paper_blocks, question_text
from bleu_teach.inputs.optional import needs
from bleu_teach.views.document import Block, Document, Heading, Inline, Label, Notes, Paragraph, Section, Strong
from bleu_teach.views.formatting import plain_markdown
from bleu_teach.views.viewable import View

__all__ = ["answer_key", "gift", "moodle_xml", "qti_text", "write_qti", "platform_option", "roundings", "key_answer"]


def _all(found: Sequence[Exercise] | None) -> list[Exercise]:
    """The exercises to write: ``found`` (worksheet variants, say), or the whole bank."""
    return list(exercises() if found is None else found)


def _name(ex: Exercise) -> str:
    """A question's name on a platform: ``03.1 Brevity penalty``, with a quiz variant's number."""
    return f"{ex.label} {ex.title}"


def _id_number(ex: Exercise) -> str:
    if ex.student is not None:
        return f"{ex.id}-s{ex.student:02d}"
    return ex.id if ex.variant is None else f"{ex.id}-q{ex.variant:02d}"


def _is_variant(ex: Exercise) -> bool:
    """Whether ``ex`` is a drawn variant (a quiz's or a sheet's), grouped by exercise in the quiz files."""
    return ex.student is not None or ex.variant is not None


def platform_option(ex: Exercise, letter: str) -> str:
    """An option as a platform shows it, which numbers the options itself or not at all: a bare letter naming a
    hypothesis of the question becomes "Hypothesis A", and "the same" "The same"."""
    option = next(o for o in ex.options if o.letter == letter)
    if option.text == option.letter and len(option.letter) == 1:
        return f"Hypothesis {option.text}"
    return _sentence(option.text)


def _platform_answer_line(ex: Exercise) -> str:
    """The general feedback on a platform: the right option by its text (a platform shows no letters)."""
    if not ex.options:
        return _answer_line(ex)
    return f"Answer: {platform_option(ex, str(ex.answer)).rstrip('.')}. {_sentence(ex.working)}"


def _numeric_entries(ex: Exercise) -> list[tuple[str, str, str, int]]:
    """A numeric question's answers for a platform: (value rounded as the question asks, credit, feedback, how
    many decimals fewer it is matched at); the right answer, each misconception's, and the right answer on the
    other scale (times 100) where the checker names that mistake."""
    right = ex.check(ex.answer)
    value = float(right.right or 0)
    entries = [(value, "100", right.message, 0)]
    entries += [(float(m.value), "0", m.message, m.fewer_decimals) for m in _misconceptions(ex)]
    scaled = ex.check(repr(100 * value))
    if scaled.correct is False and scaled.recognised is None and "times 100" in scaled.message:
        entries.append((100 * value, "0", scaled.message, 2))
    return [(_rounded(ex, number, fewer), credit, feedback, fewer) for number, credit, feedback, fewer in entries]


def roundings(value: float, places: int) -> tuple[str, ...]:
    """``value`` rounded to ``places`` decimals as a learner may write it: one text, or, for an exact tie, both
    roundings, smaller first (9/16 = 0.5625 to 3 places: 0.562, half to even, and 0.563, half up as taught at
    school; the checkers take either). The tie is the number's shortest decimal text, as a learner works it out.

    >>> roundings(0.5625, 3), roundings(0.6, 3), roundings(-6.25, 1), roundings(2 / 3, 3)
    (('0.562', '0.563'), ('0.600',), ('-6.3', '-6.2'), ('0.667',))
    """
    exact = Decimal(repr(float(value)))
    unit = Decimal(1).scaleb(-places)
    found = sorted({exact.quantize(unit, rounding=way) for way in (ROUND_HALF_DOWN, ROUND_HALF_UP)})
    return tuple(f"{abs(number) if number == 0 else number:f}" for number in found)  # never "-0.000"


def _tie(value: float, places: int) -> bool:
    return len(roundings(value, places)) > 1


def key_answer(ex: Exercise) -> str:
    """The right answer as a key prints it: :attr:`Exercise.answer_text`, or both roundings of an exact tie with
    the exact value ("0.562 or 0.563 (exactly 0.5625)")."""
    if isinstance(ex.answer, str) or ex.decimals is None or not _tie(ex.answer, ex.decimals):
        return ex.answer_text
    return f"{' or '.join(roundings(ex.answer, ex.decimals))} (exactly {Decimal(repr(float(ex.answer)))})"


def _rounded(ex: Exercise, value: float, fewer_decimals: int = 0) -> str:
    """``value`` as a platform stores it: rounded to the decimals the question asks for (fewer for an answer
    matched more coarsely), never the float's every digit; an exact tie (0.5625 to 3 places) is stored as it is, so
    that the tolerance of half a unit takes both its roundings (0.562 and 0.563), as the checkers do."""
    if ex.decimals is None:
        return repr(value)
    places = max(ex.decimals - fewer_decimals, 0)
    if _tie(value, places):
        return f"{Decimal(repr(float(value))):f}"
    return roundings(value, places)[0]


def _groups(found: Sequence[Exercise]) -> list[tuple[str, list[Exercise]]]:
    """The exercises by id, in order: one group per exercise, holding each different variant of it once.

    Students who share a variant (a class larger than an exercise's supply) share one question: a platform draws
    from the group, and a repeated question would only count twice (text2qti refuses it).
    """
    ordered = sorted(found, key=lambda ex: (ex.id, ex.student or ex.variant or 0))
    groups = []
    for key, group in groupby(ordered, key=lambda ex: ex.id):
        different = {repr(sorted(ex.inputs.items())): ex for ex in reversed(list(group))}  # the first student's
        groups.append((key, sorted(different.values(), key=lambda ex: ex.student or ex.variant or 0)))
    return groups


def _sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter, unless it starts with a symbol (p_1, r, tau)."""
    first = text.split(" ")[0]
    return text[:1].upper() + text[1:] if len(first) > 1 and first.isalpha() else text


def _answer_line(ex: Exercise) -> str:
    return f"Answer: {key_answer(ex)}. {_sentence(ex.working)}"


def _misconceptions(ex: Exercise) -> tuple[Misconception, ...]:
    return ex.check(None).misconceptions


def _exercise_section(ex: Exercise) -> Section:
    blocks: list[Block] = list(paper_blocks(ex))
    items: tuple[tuple[Inline, ...], ...]
    if ex.options:
        items = tuple(
            (
                Strong(f"{'same' if o.letter == 'SAME' else o.letter}:"),
                " ",
                Label(plain_markdown(o.text)),
                " (right)" if o.letter == ex.answer else f" (misconception: {o.misconception})",
                " Feedback: ",
                Label(plain_markdown(o.feedback)),
            )
            for o in ex.options
        )
        blocks.append(Notes(items, "Options"))
    blocks.append(Paragraph((Strong(_answer_line(ex)),)))
    if not ex.options:
        items = tuple(
            (Strong(" or ".join(roundings(float(m.value), ex.decimals or 0))), f" ({names(m)}): ", Label(m.message))
            for m in _misconceptions(ex)
        )
        blocks.append(Notes(items, "Misconceptions, the answer each gives, and its feedback"))
    return Section((_name(ex),), tuple(blocks))


def answer_key(found: Sequence[Exercise] | None = None) -> View:
    """Every exercise (of the bank, or ``found``) with its answer, working and misconceptions, in any view.

    >>> key = answer_key()
    >>> "03.2 Which reference length" in key.to_text()
    True
    """
    found = _all(found)
    blocks: list[Block] = [
        Heading("bleu-teach: the answer key"),
        Paragraph(
            (
                f"{len(found)} exercises. Numbers are accepted rounded as each question says "
                "(an exact tie, such as 0.5625 to 3 places, either way: 0.562 or 0.563), "
                "or as exact fractions where the question offers one.",
            )
        ),
    ]
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


def _tolerance(ex: Exercise, fewer_decimals: int = 0) -> str:
    """Half a unit of the last decimal asked for (of fewer decimals for a misconception read that way)."""
    return f"{0.5 * 10.0 ** -max((ex.decimals or 0) - fewer_decimals, 0):g}"


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
    variants = any(map(_is_variant, chosen))
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
    _text_element(question, "questiontext", question_text(ex, "platform"))
    _text_element(question, "generalfeedback", _platform_answer_line(ex))
    ElementTree.SubElement(question, "idnumber").text = _id_number(ex)
    if ex.options:
        ElementTree.SubElement(question, "single").text = "true"
        ElementTree.SubElement(question, "shuffleanswers").text = "false"
        ElementTree.SubElement(question, "answernumbering").text = "none"  # the texts say what each option is
        for option in ex.options:
            answer = ElementTree.SubElement(
                question, "answer", {"fraction": "100" if option.letter == ex.answer else "0", "format": "markdown"}
            )
            ElementTree.SubElement(answer, "text").text = platform_option(ex, option.letter)
            _text_element(answer, "feedback", option.feedback)
    else:
        for value, fraction, feedback, fewer in _numeric_entries(ex):
            answer = ElementTree.SubElement(question, "answer", {"fraction": fraction})
            ElementTree.SubElement(answer, "text").text = value
            ElementTree.SubElement(answer, "tolerance").text = _tolerance(ex, fewer)
            _text_element(answer, "feedback", feedback)


# ---------------------------------------------------------------------------
# GIFT
# ---------------------------------------------------------------------------


def _gift_escape(text: str) -> str:
    """GIFT's special characters escaped with a backslash, new lines kept as \\n."""
    return re.sub(r"([~=#{}:\\])", r"\\\1", text).replace("\n", "\\n")


def gift(found: Sequence[Exercise] | None = None, category: str = "bleu-teach") -> str:
    """Exercises in Moodle's GIFT format, one question per block, Markdown question texts.

    The questions go into the ``$CATEGORY`` ``category``; quiz variants into one per exercise, as in
    :func:`moodle_xml`. The worked answer is each question's general feedback (``####``), which Moodle shows
    after an attempt (a ``//`` comment it would drop).
    """
    chosen = _all(found)
    if any(map(_is_variant, chosen)):
        return "\n".join(
            f"$CATEGORY: $course$/{category}/{key} {group[0].title}\n\n" + _gift_blocks(group)
            for key, group in _groups(chosen)
        )
    return f"$CATEGORY: $course$/{category}\n\n" + _gift_blocks(chosen)


def _gift_blocks(chosen: Sequence[Exercise]) -> str:
    blocks = []
    for ex in chosen:
        head = f"::{_gift_escape(_name(ex))}::"
        body = f"[markdown]{_gift_escape(question_text(ex, 'platform'))}"
        general = f"\t####{_gift_escape(' '.join(_platform_answer_line(ex).split()))}\n"
        if ex.options:
            answers = [
                f"{'=' if o.letter == ex.answer else '~'}[markdown]{_gift_escape(platform_option(ex, o.letter))}"
                f"#{_gift_escape(o.feedback)}"
                for o in ex.options
            ]
            blocks.append(f"{head}{body} {{\n" + "\n".join(f"\t{a}" for a in answers) + f"\n{general}}}\n")
        else:
            answers = [
                f"=%{credit}%{value}:{_tolerance(ex, fewer)}#{_gift_escape(feedback)}"
                for value, credit, feedback, fewer in _numeric_entries(ex)
            ]
            blocks.append(f"{head}{body} {{#\n" + "\n".join(f"\t{a}" for a in answers) + f"\n{general}}}\n")
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
    if any(map(_is_variant, chosen)):
        lines = [
            "Quiz title: bleu-teach: the numeric exercises on new sentences",
            "Quiz description: The numeric exercises of the bleu-teach lessons on new sentences; the quiz "
            "picks one variant of each for every attempt.",
            "",
        ]
        number = 0
        for _, group in _groups(chosen):
            lines += ["GROUP", "pick: 1", "points per question: 1", ""]
            for ex in group:
                number += 1
                lines += _qti_question(number, ex)
            lines += ["END_GROUP", ""]
        return "\n".join(lines)
    lines = [
        "Quiz title: bleu-teach: the lessons' exercises",
        "Quiz description: Every Check-yourself exercise of the bleu-teach lessons, with each option's "
        "feedback and each question's worked answer.",
        "",
    ]
    for number, ex in enumerate(chosen, start=1):
        lines += _qti_question(number, ex)
    return "\n".join(lines)


def _qti_question(number: int, ex: Exercise) -> list[str]:
    lines = [f"Title: {_name(ex)}"]
    lines += _qti_lines(f"{number}.  ", question_text(ex, "platform"))
    lines += _qti_lines("... ", _platform_answer_line(ex))
    if ex.options:
        for letter, option in zip("abcdefghijklmnopqrstuvwxyz", ex.options):
            lines += _qti_lines(
                f"{'*' if option.letter == ex.answer else ''}{letter}) ", platform_option(ex, option.letter)
            )
            lines += _qti_lines("... ", option.feedback)
    else:
        lines.append(f"=   {_rounded(ex, float(ex.check(ex.answer).right or 0))} +- {_tolerance(ex)}")
    lines.append("")
    return lines


def write_qti(path: str, found: Sequence[Exercise] | None = None) -> None:
    """Convert :func:`qti_text` with text2qti into a QTI package (a zip) at ``path``: Canvas imports it as a quiz.

    text2qti keeps each option's feedback and the numeric answers' tolerance, but not feedback for wrong
    numbers (Moodle XML has those).
    """
    needs("text2qti", "The QTI export for Canvas")
    from text2qti.config import Config
    from text2qti.qti import QTI
    from text2qti.quiz import GroupStart, Quiz

    quiz = Quiz(qti_text(found), config=Config(), source_name="bleu-teach exercises")
    if any(map(_is_variant, _all(found))):
        # text2qti titles every group "Group" and counts every question of a group in the quiz's points: each
        # group is named after its exercise, and the quiz is worth one point per group (the questions drawn).
        names = iter(f"{key} {group[0].title}" for key, group in _groups(_all(found)))
        groups = [item.group for item in quiz.questions_and_delims if isinstance(item, GroupStart)]
        for group in groups:
            group.title_xml = escape(next(names))
        quiz.points_possible = sum(group.pick * group.points_per_question for group in groups)
    QTI(quiz).save(path)
