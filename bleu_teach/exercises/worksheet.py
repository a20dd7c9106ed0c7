"""Worksheets for print: one student's variants with blank answer space, and the key with every student's answers.

Both are :class:`~bleu_teach.views.viewable.View` documents, so they render
as text, HTML, Markdown, LaTeX (compiled to PDF by ``python -m bleu_teach
exercises worksheet``) and JSON like every other result.

>>> from bleu_teach.exercises.variants import worksheets
>>> sheets = worksheets(2, seed=3)
>>> "Answer:" in worksheet(sheets[0]).to_text(), "student 02" in worksheet_key(sheets, seed=3).to_text()
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence

from bleu_teach.exercises.bank import Exercise
from bleu_teach.exercises.effort import minutes
from bleu_teach.exercises.export import key_answer, roundings
from bleu_teach.exercises.feedback import names
from bleu_teach.exercises.media import paper_blocks, question_text
from bleu_teach.exercises.variants import substance
from bleu_teach.views.document import (
    AnswerSpace,
    Block,
    Document,
    Foreign,
    Heading,
    Label,
    Notes,
    Paragraph,
    QrCode,
    Section,
    Strong,
    Table,
)
from bleu_teach.views.formatting import plain_markdown
from bleu_teach.views.viewable import View

__all__ = ["worksheet", "worksheet_key", "WORKING_LINES", "WORKING_LINES_BLEU"]

#: Blank lines left for the working under each question (more for a whole BLEU score).
WORKING_LINES = 6
WORKING_LINES_BLEU = 10


def _student(sheet: Sequence[Exercise]) -> int:
    students = {ex.student for ex in sheet}
    if len(students) != 1 or None in students:
        raise ValueError(
            "a worksheet holds the variants of one student (from worksheets()), "
            f"not exercises of {sorted(map(str, students))}."
        )
    return int(next(iter(students)))  # type: ignore[arg-type]


def _mistakes(ex: Exercise) -> str:
    """Each misconception's answer to ``ex`` and its name, as a marker reads a paper answer against them."""
    if ex.options:
        return "; ".join(f"{o.letter}: {o.misconception}" for o in ex.options if o.misconception)
    found: dict[str, list[str]] = {}  # one mistake made with either reference gives either value
    for m in ex.check(None).misconceptions:
        places = max((ex.decimals or 0) - m.fewer_decimals, 0)
        values = list(roundings(float(m.value), places)) if ex.decimals is not None else [str(m.value)]
        found.setdefault(names(m), []).extend(values)
    return "; ".join(f"{' or '.join(values)} ({name})" for name, values in found.items()) or "none named"


def worksheet(sheet: Sequence[Exercise], name: str | None = None, link: QrCode | None = None) -> View:
    """One student's worksheet: each question on their variant, with blank lines for the working and the answer;
    ``name`` (from a roster) printed on it, or a space for the student to write it; ``link``: the student's personal
    join link to the classroom server (``class links``) as a QR code, printed under the name with the link itself.

    The sheet does not print the seed it was made with: with the seed, anyone with the package could make the key.
    """
    student = _student(sheet)
    who: Block = Paragraph((Strong("Name:"), " ", Foreign.of(name))) if name else AnswerSpace("Name", 1)
    joining: tuple[Block, ...] = (
        (
            Paragraph(
                (
                    "Join the class with your phone or a computer: scan this code, or type the link under it. It is "
                    "yours alone: keep it to yourself.",
                )
            ),
            link,
        )
        if link is not None
        else ()
    )
    blocks: list[Block] = [
        Heading(f"bleu-teach worksheet, student {student:02d}"),
        who,
        *joining,
        Paragraph(
            (
                f"Sheet {student:02d}: your sentences are your own. Give each number as the question "
                "asks (rounded, or as a fraction where it offers one), and show your working. It takes about "
                f"{sum(map(minutes, sheet))} minutes by hand (an estimate).",
            )
        ),
    ]
    for number, ex in enumerate(sheet, start=1):
        lines = WORKING_LINES_BLEU if ex.kind in ("bleu", "corpus_bleu") else WORKING_LINES
        options: tuple[Block, ...] = (
            (Notes(tuple((Strong(f"{o.letter}:"), " ", Label(plain_markdown(o.text))) for o in ex.options), "Options"),)
            if ex.options
            else ()
        )
        blocks.append(
            Section(
                (f"Question {number}",),
                (*paper_blocks(ex), *options, AnswerSpace("Working", lines), AnswerSpace("Answer", 1)),
            )
        )
    data = [
        {
            "student": student,
            "name": name,
            "id": ex.id,
            "question": question_text(ex, "paper"),
            "inputs": dict(ex.inputs),
        }
        for ex in sheet
    ]
    return View(Document(tuple(blocks), styles=("worksheet",)), data)


def worksheet_key(
    sheets: Sequence[Sequence[Exercise]], seed: int, names: Sequence[str] | None = None, quiz: Sequence[Exercise] = ()
) -> View:
    """The key: how varied each exercise is, then for every student each question's right answer, the answer
    each named mistake gives (so that a marker can diagnose a paper answer) and the working.

    ``names`` are the roster's, in the students' order; ``quiz`` the platform quiz's variants (drawn apart from
    the sheets), counted here.
    """
    blocks: list[Block] = [
        Heading("bleu-teach worksheets: the key"),
        Paragraph(
            (
                f"{len(sheets)} students, made with seed {seed} (keep it secret: with the seed, the package "
                "makes this key again). Numbers are right when they round to the answer at the question's "
                "decimals (an exact tie either way: both roundings are given), or as exact fractions where the "
                "question offers one. Beside each answer, the "
                "answer each named mistake gives: a paper answer equal to one of them is that mistake.",
            )
        ),
        Paragraph(
            (
                "The quiz files made with the worksheets (Moodle XML, GIFT, QTI) hold variants drawn "
                "separately, none of them a near-copy of a student's sheet (never a sheet's translation "
                "stuttered another way or with its words moved, never a reference sentence of the same "
                "exercise, nor the same lengths in another order): a student who retakes the quiz never meets "
                "their own sheet's question there. Questions that are the same on every sheet (the lesson's own, "
                "such as a choice question) are not in them.",
            )
        ),
    ]
    rows = []
    for k, ex in enumerate(sheets[0] if sheets else ()):
        variants = len({substance(sheet[k]) for sheet in sheets}) if ex.student is not None and ex.inputs else 1
        answers = len({sheet[k].answer_text for sheet in sheets})
        spent = sorted(minutes(sheet[k]) for sheet in sheets)
        rows.append(
            (
                ex.id,
                ex.title,
                str(variants),
                str(answers),
                str(sum(q.id == ex.id for q in quiz)),
                f"{spent[0]}" if spent[0] == spent[-1] else f"{spent[0]}-{spent[-1]}",
            )
        )
    blocks.append(
        Table(
            ("Exercise", "Title", "Different questions", "Different answers", "Quiz variants", "Minutes (estimate)"),
            tuple(rows),
            caption=f"How varied each exercise is, over {len(sheets)} sheets",
        )
    )
    blocks.append(
        Paragraph(
            (
                "Minutes are an estimate from each question's length: reading it, looking up each "
                "n-gram in each reference, and the formula's arithmetic (bleu_teach.exercises.effort).",
            )
        )
    )
    data = []
    for k, sheet in enumerate(sheets):
        student = _student(sheet)
        name = names[k] if names else None
        table = Table(
            ("Question", "Right answer", "Each named mistake gives"),
            tuple((f"{number}. {ex.id}", key_answer(ex), _mistakes(ex)) for number, ex in enumerate(sheet, start=1)),
        )
        items = tuple(
            (Strong(f"{number}. {ex.id}: {key_answer(ex)}."), " ", Label(ex.working))
            for number, ex in enumerate(sheet, start=1)
        )
        title = (
            f"Sheet of student {student:02d}",
            *((": ", Foreign.of(name)) if name else ()),
            f" (about {sum(map(minutes, sheet))} minutes)",
        )
        blocks.append(Section(title, (table, Notes(items, "Working"))))
        data += [
            {
                "student": student,
                "name": name,
                "id": ex.id,
                "answer": ex.answer,
                "answer_text": ex.answer_text,
                "working": ex.working,
                "inputs": dict(ex.inputs),
            }
            for ex in sheet
        ]
    return View(Document(tuple(blocks)), data)
