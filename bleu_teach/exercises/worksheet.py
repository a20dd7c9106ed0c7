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
from bleu_teach.exercises.media import question_text
from bleu_teach.views.document import AnswerSpace, Block, Document, Heading, Label, Notes, Paragraph, Section, Strong
from bleu_teach.views.formatting import plain_markdown
from bleu_teach.views.viewable import View

__all__ = ["worksheet", "worksheet_key", "WORKING_LINES", "WORKING_LINES_BLEU"]

#: Blank lines left for the working under each question (more for a whole BLEU score).
WORKING_LINES = 4
WORKING_LINES_BLEU = 8


def _student(sheet: Sequence[Exercise]) -> int:
    students = {ex.student for ex in sheet}
    if len(students) != 1 or None in students:
        raise ValueError("a worksheet holds the variants of one student (from worksheets()), "
                         f"not exercises of {sorted(map(str, students))}.")
    return int(next(iter(students)))  # type: ignore[arg-type]


def worksheet(sheet: Sequence[Exercise]) -> View:
    """One student's worksheet: each question on their variant, with blank lines for the working and the answer.

    The sheet does not print the seed it was made with: with the seed, anyone with the package could make the key.
    """
    student = _student(sheet)
    blocks: list[Block] = [
        Heading(f"bleu-teach worksheet, student {student:02d}"),
        AnswerSpace("Name", 1),
        Paragraph((f"Sheet {student:02d}: your sentences are your own. Give each number as the question "
                   "asks (rounded, or as a fraction where it offers one), and show your working.",)),
    ]
    for number, ex in enumerate(sheet, start=1):
        lines = WORKING_LINES_BLEU if ex.kind in ("bleu", "corpus_bleu") else WORKING_LINES
        blocks.append(Section((f"{number}. {ex.title}",), (
            Paragraph((Label(plain_markdown(question_text(ex, "paper"))),)),
            AnswerSpace("Working", lines), AnswerSpace("Answer", 1))))
    data = [{"student": student, "id": ex.id, "question": question_text(ex, "paper"), "inputs": dict(ex.inputs)} for ex in sheet]
    return View(Document(tuple(blocks), styles=("worksheet",)), data)


def worksheet_key(sheets: Sequence[Sequence[Exercise]], seed: int) -> View:
    """The key: for every student, each question's right answer and its working."""
    blocks: list[Block] = [
        Heading("bleu-teach worksheets: the key"),
        Paragraph((f"{len(sheets)} students, made with seed {seed} (keep it secret: with the seed, the package "
                   "makes this key again). Numbers are right when they round to the answer at the question's "
                   "decimals, or as exact fractions where the question offers one. The quiz files made with the worksheets (Moodle XML, GIFT, "
                   "QTI) hold each variant's misconceptions with their feedback.",)),
    ]
    shared = []
    for k, ex in enumerate(sheets[0] if sheets else ()):
        different = len({repr(sorted(sheet[k].inputs.items())) for sheet in sheets})
        if different < len(sheets):
            shared.append(f"{ex.id} has {different} different variants for {len(sheets)} students")
    if shared:
        blocks.append(Paragraph(("Some students share a variant: " + "; ".join(shared) + ". Every sheet as a "
                                 "whole still differs from every other.",)))
    data = []
    for sheet in sheets:
        student = _student(sheet)
        items = tuple((Strong(f"{number}. {ex.id}: {ex.answer_text}."), " ", Label(ex.working))
                      for number, ex in enumerate(sheet, start=1))
        blocks.append(Section((f"Sheet of student {student:02d}",), (Notes(items, "Answers"),)))
        data += [{"student": student, "id": ex.id, "answer": ex.answer, "answer_text": ex.answer_text,
                  "working": ex.working, "inputs": dict(ex.inputs)} for ex in sheet]
    return View(Document(tuple(blocks)), data)
