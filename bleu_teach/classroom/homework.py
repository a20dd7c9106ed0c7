"""Homework on the server: each student's own variants, drawn and checked here; no answer ever leaves it.

When a homework session is made (``class homework``), :func:`draw` draws
variants of each numeric exercise from streams of its own (the variants
engine's, with a seed drawn for this session and kept nowhere): never a paper
sheet's nor a platform quiz's variant in substance, when the teacher gives the
``worksheets.quiz.json`` those were made with (:func:`avoided`). They are kept
in the database (:mod:`~bleu_teach.classroom.store_homework`); the students
get them in turn, as they join.

A student's page shows their questions (:meth:`Homework.questions`: the
question and how to give the answer, never the answer) and sends answers,
which :meth:`Homework.judge` checks with the student's own variant. What goes
back is the verdict and the named mistake, no number: the right answer stays
on the server.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bleu_teach.classroom.counts import Judged, verdict_of
from bleu_teach.classroom.store import Session, Store, Student
from bleu_teach.exercises.bank import Exercise, exercise
from bleu_teach.exercises.media import answer_label, question_text
from bleu_teach.exercises.variants import VARIED, quiz_variants, rebuild
from bleu_teach.views.formatting import plain_markdown

#: How many variants of each exercise a homework session draws (students beyond that share them, in turn).
HOMEWORK_VARIANTS = 40
#: The largest worksheets.quiz.json read.
AVOID_BYTES = 20_000_000


def avoided(path: str | Path) -> list[Exercise]:
    """The variants in a ``worksheets.quiz.json`` (the worksheet command's: the sheets' and the quiz's), rebuilt."""
    where = Path(path)
    try:
        if where.stat().st_size > AVOID_BYTES:
            raise ValueError(f"--avoid: {str(path)!r} is larger than {AVOID_BYTES // 1_000_000} MB")
        record = json.loads(where.read_text(encoding="utf-8"))
    except OSError as problem:
        raise ValueError(f"--avoid: cannot read {str(path)!r} ({problem.strerror or problem})") from None
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ValueError(
            f"--avoid: {str(path)!r} is not the worksheets.quiz.json the worksheet command wrote"
        ) from None
    if not isinstance(record, dict) or record.get("format") != 1:
        raise ValueError(f"--avoid: {str(path)!r} is not the worksheets.quiz.json the worksheet command wrote")
    found = []
    for item in [*record.get("sheets", []), *record.get("variants", [])]:
        try:
            found.append(rebuild(item["id"], item["inputs"], item["question"]))
        except (KeyError, TypeError, ValueError):
            raise ValueError(
                f"--avoid: {str(path)!r} holds a variant this version cannot rebuild; make the "
                "worksheets again with this version"
            ) from None
    return found


def draw(
    which: Sequence[str], avoid: Sequence[Exercise] = (), count: int = HOMEWORK_VARIANTS, seed: int | None = None
) -> list[Exercise]:
    """Up to ``count`` variants of each exercise in ``which``, none of them a near-copy of one of ``avoid`` nor of
    another (:func:`~bleu_teach.exercises.variants.near_copy_keys`: each student's question is their own)."""
    unknown = [exercise_id for exercise_id in which if exercise_id not in VARIED]
    if unknown:
        raise ValueError(f"--exercises: {', '.join(unknown)} cannot be varied; these can: {', '.join(VARIED)}")
    return quiz_variants(
        secrets.randbelow(10**18) if seed is None else seed, [list(avoid)], count, which, keep_apart=True
    )


class Homework:
    """The homework sessions' variants in ``store``: saved once, given out in turn, checked on the server."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def save(self, session: Session, variants: Sequence[Exercise]) -> None:
        """Keep the homework's variants (drawn by :func:`draw`), when it is made: before anyone can join or watch it,
        so no change is told."""
        self.store.save_variants(session.id, [(variant.id, variant.inputs, variant.question) for variant in variants])

    def counts(self, session_id: int) -> dict[str, int]:
        """How many variants each exercise of the homework has."""
        return self.store.variant_counts(session_id)

    def assignment(self, student: Student) -> list[Exercise]:
        """The student's variant of each exercise of the homework, in the course's order: the students get an
        exercise's variants in turn, in the order they joined."""
        turn = self.store.joined_before(student)
        pools: dict[str, list[tuple[dict[str, Any], str]]] = {}
        for exercise_id, inputs, question in self.store.variants(student.session_id):
            pools.setdefault(exercise_id, []).append((inputs, question))
        chosen = []
        for exercise_id in sorted(pools):
            inputs, question = pools[exercise_id][turn % len(pools[exercise_id])]
            chosen.append(rebuild(exercise_id, inputs, question))
        return chosen

    def questions(self, student: Student) -> list[dict[str, str]]:
        """What the student's page shows of each question: its text and how to give the answer (no answer)."""
        return [
            {
                "exercise": variant.id,
                "title": exercise(variant.id).title,
                "question": plain_markdown(question_text(variant, "platform")),
                "answer": answer_label(variant),
            }
            for variant in self.assignment(student)
        ]

    def judge(self, student: Student, exercise_id: str, answer: str) -> Judged:
        """The verdict on ``answer`` to the student's own variant of the exercise."""
        variant = next((v for v in self.assignment(student) if v.id == exercise_id), None)
        if variant is None:
            raise ValueError(f"exercise: {str(exercise_id)[:16]!r} is not in this homework.")
        return verdict_of(variant.check, answer)
