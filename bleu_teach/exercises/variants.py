"""A different worksheet for every student: new inputs for the numeric exercises, each checked before use.

:func:`worksheets` draws, for each student, a variant of every exercise in
:data:`VARIED`: new sentences and references from the WMT21 TED data the
package ships (zh-en: the systems' translations, ref-A and ref-B, the
experts' error lists), or new lengths.  A variant keeps what its exercise
teaches (a hypothesis that repeats words for a clipping question, a missing
4-gram for a smoothed score, references of four different lengths for a brevity penalty),
and it is kept only if its right answer and every misconception's answer
are pairwise different after the question's rounding
(:func:`indistinct`), so that the checker can name each mistake; otherwise
it is drawn again.  No two students get the same inputs for an exercise while
its supply of checked inputs lasts (:func:`pool_size`: 50 for 04.1, a pool); past it, students
share variants, and the key says how many different ones there are.

A variant is an :class:`~bleu_teach.exercises.bank.Exercise` with the same
id and kind, new ``inputs``, a question written from them, and
``student`` set: ``variant.check(answer)`` diagnoses an answer exactly as
the notebook does for the shipped question.

>>> sheets = worksheets(2, seed=1)
>>> [v.id for v in sheets[0]] == list(VARIED), sheets[0][0].student, sheets[1][0].inputs != sheets[0][0].inputs
(True, 1, True)
>>> all(not indistinct(v) for sheet in sheets for v in sheet)
True
"""

from __future__ import annotations

import math
import random
import warnings
import zlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

from bleu_teach.exercises.bank import Exercise, exercise, exercises
from bleu_teach.exercises.checkers import Feedback
from bleu_teach.exercises.distinct import IndistinctAnswersWarning, coinciding
from bleu_teach.exercises.drawers import DRAWN, POOLED
from bleu_teach.exercises.near_copies import apart, sentence_keys
from bleu_teach.inputs.validation import preview, whole_number_text

__all__ = [
    "VARIED",
    "MAX_STUDENTS",
    "MAX_DRAWS",
    "IndistinctAnswersWarning",
    "indistinct",
    "indistinct_feedback",
    "draw_variant",
    "dealt",
    "DEAL_WINDOW",
    "pool_inputs",
    "pool_size",
    "worksheets",
    "quiz_variants",
    "QUIZ_VARIANTS",
    "rebuild",
    "substance",
    "near_copy_keys",
]

#: Each numeric exercise's drawer (drawn afresh) or pool, made from its bank record as its kind says
#: (drawers.DRAWN, drawers.POOLED): a new numeric exercise in bank.toml gets its variants with nothing added here.
DRAWERS = {ex.id: DRAWN[ex.kind](ex) for ex in exercises() if ex.kind in DRAWN}
POOLS = {ex.id: POOLED[ex.kind](ex) for ex in exercises() if ex.kind in POOLED}
#: The exercises that get a new variant for each student: every numeric one, in lesson order.
VARIED: tuple[str, ...] = tuple(ex.id for ex in exercises() if ex.id in DRAWERS or ex.id in POOLS)
#: How many variants of each exercise a platform quiz holds (fewer where a pool runs out).
QUIZ_VARIANTS = 20
#: The most worksheets one run makes (a large lecture), and the most draws tried for one variant.
MAX_STUDENTS = 500
MAX_DRAWS = 5000


def indistinct(ex: Exercise) -> list[tuple[str, str]]:
    """Pairs of answers (``"right"`` or a misconception's name) that are equal after the question's rounding.

    Empty when the checker can tell every mistake apart on this question (the shipped bank's are).

    >>> indistinct(exercise("03.1"))
    []
    """
    return indistinct_feedback(ex.check(None))


def indistinct_feedback(feedback: Feedback) -> list[tuple[str, str]]:
    """:func:`indistinct` for a checker's feedback (its right answer, its misconceptions, its rounding)."""
    named = [("right", float(feedback.right or 0))] + [(m.name, float(m.value)) for m in feedback.misconceptions]
    return coinciding(named, feedback.decimals or 0)


#: How many checked candidates a draw looks through for an answer no other student has yet, and how many
#: draws it tries for inputs no other student has before it gives a student an earlier student's variant.
_NEW_ANSWER_TRIES = 10
_REUSE_AFTER = 2000


def _working(ex: Exercise, feedback: Feedback) -> str:
    """How the right answer comes about, with this variant's numbers (for the key)."""
    from bleu_teach.bleu.explain import explain, explain_corpus
    from bleu_teach.inputs.tokenizers import tokenize

    if ex.kind not in ("bleu", "corpus_bleu"):
        return ex.check(feedback.right).message
    weights = tuple(ex.inputs.get("weights", (0.25,) * 4))
    if ex.kind == "bleu":
        report: Any = explain(
            [tokenize(r) for r in ex.inputs["references"]],
            tokenize(ex.inputs["hypothesis"]),
            weights=weights,
            smoothing=ex.inputs.get("smoothing"),
        )
    else:
        report = explain_corpus(
            [[tokenize(r) for r in refs] for refs in ex.inputs["references"]],
            [tokenize(h) for h in ex.inputs["hypotheses"]],
            weights=weights,
        )
    used = ", ".join(
        f"{o.clipped}/{o.total}" + (f" (used as {float(o.smoothed):.4g})" if o.is_zero else "") for o in report.orders
    )
    c, r = (
        (report.length.hyp_len, report.length.closest_ref_len)
        if ex.kind == "bleu"
        else (report.hyp_len, report.ref_len)
    )
    return (
        f"p_n = {used}; c = {c}, r = {r}, so BP = {float(report.brevity_penalty):.4g}; "
        f"BLEU = BP x exp(sum of w_n log p_n) = {float(report.score):.4g}"
    )


def _checked(exercise_id: str, inputs: dict[str, Any], question: str, student: int) -> Exercise | None:
    """The variant with these inputs, or None when its answers are not all different after rounding."""
    base = exercise(exercise_id)
    if repr(sorted(inputs.items())) == repr(sorted(base.inputs.items())):
        return None  # the lesson's own question, whose answer the solutions give
    candidate = replace(base, inputs=inputs, question=question, context="", student=student)
    with warnings.catch_warnings():  # an indistinct candidate is refused, not warned about
        warnings.simplefilter("ignore", IndistinctAnswersWarning)
        feedback = candidate.check(None)
    if indistinct_feedback(feedback) or not math.isfinite(float(feedback.right or 0)):
        return None
    if _scores_bp(candidate) and not any(m.name == "no_brevity_penalty" for m in feedback.misconceptions):
        return None  # BP = 1 here: forgetting it would give the right answer

    return replace(candidate, answer=float(feedback.right or 0), working=_working(candidate, feedback))


def _scores_bp(ex: Exercise) -> bool:
    """Whether the question asks for a whole BLEU score (whose variants must have BP < 1)."""
    return ex.kind in ("bleu", "corpus_bleu")


@cache
def _candidates(exercise_id: str) -> tuple[tuple[dict[str, Any], str], ...]:
    """A pooled exercise's candidates, each once, in the data's order (not yet checked)."""
    found: dict[str, tuple[dict[str, Any], str]] = {}
    for inputs, question in POOLS[exercise_id]():
        found.setdefault(repr(sorted(inputs.items())), (inputs, question))
    return tuple(found.values())


@cache
def _pool(exercise_id: str) -> tuple[tuple[dict[str, Any], str, str], ...]:
    """The different candidates of a pooled exercise that pass the checks, with their answers (computed once)."""
    return tuple(
        (inputs, question, variant.answer_text)
        for inputs, question in _candidates(exercise_id)
        if (variant := _checked(exercise_id, inputs, question, 0)) is not None
    )


def pool_inputs(exercise_id: str) -> tuple[dict[str, Any], ...]:
    """The inputs of every variant of a pooled exercise (empty for one drawn afresh)."""
    return tuple(inputs for inputs, _, _ in _pool(exercise_id)) if exercise_id in POOLS else ()


def pool_size(exercise_id: str) -> int | None:
    """How many different variants a pooled exercise has (None: drawn afresh, practically unlimited)."""
    return len(_pool(exercise_id)) if exercise_id in POOLS else None


def draw_variant(
    exercise_id: str,
    rng: random.Random,
    student: int,
    taken: set[str] | None = None,
    answers: set[str] | None = None,
    patience: int = _REUSE_AFTER,
    avoid: set[str] | None = None,
    refuse: Callable[[dict[str, Any]], bool] | None = None,
) -> Exercise:
    """One checked variant of exercise ``exercise_id`` for ``student``, drawn with ``rng``.

    Drawn again until the right answer and every misconception's answer
    differ after rounding, and (with ``taken``) until its inputs are not
    already taken; they are added.  With ``answers`` (the answers other
    students got), a candidate with a new answer is preferred among the next
    few that pass.  After ``patience`` draws without inputs that are not taken, an earlier student's variant
    is given.  With ``avoid`` (:func:`substance` keys), a variant that is one of them in substance is never given
    (not even as a shared one), and the chosen one's is added.  Inputs ``refuse`` says yes to are never given either
    (near-copies of what a quiz must differ from).  ``ValueError`` after :data:`MAX_DRAWS` failed draws.
    """
    if exercise_id not in DRAWERS:
        raise ValueError(
            f"exercise {exercise_id!r} is not drawn afresh; these are: {', '.join(DRAWERS)} "
            f"(and {', '.join(POOLS)} come from a pool: use worksheets())."
        )
    passed: list[Exercise] = []
    shared: Exercise | None = None  # a variant another student has: used only when no new one turns up
    for attempt in range(MAX_DRAWS):
        if attempt >= patience and (passed or shared is not None):
            break

        inputs, question = DRAWERS[exercise_id](rng)
        if not inputs:
            continue
        if avoid is not None and _substance(exercise_id, inputs) in avoid:
            continue
        if refuse is not None and refuse(inputs):
            continue
        if taken is not None and repr(sorted(inputs.items())) in taken:
            if shared is None:
                shared = _checked(exercise_id, inputs, question, student)
            continue
        variant = _checked(exercise_id, inputs, question, student)
        if variant is None:
            continue
        passed.append(variant)
        if answers is None or variant.answer_text not in answers or len(passed) >= _NEW_ANSWER_TRIES:
            break
    if passed:
        chosen = next((v for v in passed if answers is None or v.answer_text not in answers), passed[0])
        if taken is not None:
            taken.add(repr(sorted(chosen.inputs.items())))
        if answers is not None:
            answers.add(chosen.answer_text)
        if avoid is not None:
            avoid.add(substance(chosen))
        return chosen
    if shared is not None:
        return shared
    raise ValueError(f"no variant of exercise {exercise_id} passed the checks in {MAX_DRAWS} draws.")


#: A learner dealt variants one after another meets none of them again within this many.
DEAL_WINDOW = 20


def dealt(exercise_id: str, number: int, stream: str) -> Exercise:
    """The ``number``-th variant (from 1) of a deal named ``stream``: no two within :data:`DEAL_WINDOW` numbers of
    each other are the same question in substance (:func:`substance`), and the same number always gives the same
    variant, without the ones before it being drawn.

    A pooled exercise deals its pool in a shuffled order (it has more than :data:`DEAL_WINDOW` variants); a drawn
    one takes, for ``number``, only inputs whose substance falls in the number's slot (one of
    :data:`DEAL_WINDOW`, by a checksum), so that numbers less than :data:`DEAL_WINDOW` apart never share one.

    >>> [dealt("03.1", n, "example").inputs == dealt("03.1", n, "example").inputs for n in (1, 2)]
    [True, True]
    """
    if not isinstance(exercise_id, str) or exercise_id not in VARIED:
        raise ValueError(f"exercise {preview(exercise_id)} has no variants; these do: {', '.join(VARIED)}.")
    if exercise_id in POOLS:
        order = _dealing_order(exercise_id, stream)
        if not order:
            raise ValueError(f"no variant of exercise {exercise_id} passed the checks.")
        inputs, question, _ = order[(number - 1) % len(order)]
        found = _checked(exercise_id, inputs, question, 0)
        assert found is not None  # the pool holds checked candidates only
        return replace(found, student=None)
    rng = random.Random(f"{stream}/{number}")
    for _ in range(MAX_DRAWS * DEAL_WINDOW):
        inputs, question = DRAWERS[exercise_id](rng)
        if not inputs or _slot(_substance(exercise_id, inputs)) != number % DEAL_WINDOW:
            continue
        if (found := _checked(exercise_id, inputs, question, 0)) is not None:
            return replace(found, student=None)
    raise ValueError(f"no variant of exercise {exercise_id} passed the checks in {MAX_DRAWS * DEAL_WINDOW} draws.")


def _slot(key: str) -> int:
    """Which of :data:`DEAL_WINDOW` slots a substance falls in (a checksum: the same on every machine and run)."""
    return zlib.crc32(key.encode("utf-8")) % DEAL_WINDOW


@cache
def _dealing_order(exercise_id: str, stream: str) -> tuple[tuple[dict[str, Any], str, str], ...]:
    order = list(_pool(exercise_id))
    random.Random(stream).shuffle(order)
    return tuple(order)


def _spread(pool: list[tuple[dict[str, Any], str, str]]) -> list[tuple[dict[str, Any], str, str]]:
    """The pool in an order that takes one variant of each answer in turn (so neighbours differ in answer)."""
    groups: dict[str, list[tuple[dict[str, Any], str, str]]] = {}
    for candidate in pool:
        groups.setdefault(candidate[2], []).append(candidate)
    order = []
    while any(groups.values()):
        for group in groups.values():
            if group:
                order.append(group.pop(0))
    return order


def worksheets(students: int, seed: int = 1, which: Sequence[str] = VARIED) -> list[list[Exercise]]:
    """For each of ``students`` students (numbered from 1), a checked variant of each exercise in ``which``.

    The same ``seed`` gives the same worksheets, and student k's sheet does
    not depend on how many sheets are made.  Drawn exercises give no two
    students the same inputs and prefer answers no other student has; pooled
    ones (:func:`pool_size`) hand out their variants in a shuffled order and
    start again when there are more students than variants.
    """
    if isinstance(students, bool) or not isinstance(students, int):
        raise TypeError(f"students must be a whole number such as 40, not {students!r}.")
    if not 1 <= students <= MAX_STUDENTS:
        raise ValueError(f"students must be from 1 to {MAX_STUDENTS}; got {whole_number_text(students)}.")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be a whole number such as 1, not {seed!r}.")
    if seed < 0:
        raise ValueError(
            f"seed must be 0 or more (a negative seed would give the same sheets as its positive); "
            f"got {whole_number_text(seed)}."
        )
    unknown = [w for w in which if w not in DRAWERS and w not in POOLS]
    if isinstance(which, str) or unknown:
        raise ValueError(f"which must list exercises that have variants ({', '.join(VARIED)}); got {which!r}.")
    sheets: list[list[Exercise]] = [[] for _ in range(students)]
    for exercise_id in which:  # each exercise from its own generator: a sheet's question ignores the class size
        rng = random.Random(f"{seed}/{exercise_id}")
        if exercise_id in POOLS:
            shuffled = list(_pool(exercise_id))
            rng.shuffle(shuffled)
            order = _spread(shuffled)
            for student in range(1, students + 1):
                inputs, question, _ = order[(student - 1) % len(order)]
                variant = _checked(exercise_id, inputs, question, student)
                assert variant is not None  # the pool holds checked candidates only
                sheets[student - 1].append(variant)
        else:
            taken: set[str] = set()
            answers: set[str] = set()
            patience = _REUSE_AFTER
            for student in range(1, students + 1):
                before = len(taken)
                sheets[student - 1].append(draw_variant(exercise_id, rng, student, taken, answers, patience))
                if len(taken) == before:  # the supply of new inputs has run out: share sooner from now on
                    patience = _REUSE_AFTER // 20
    return sheets


def substance(ex: Exercise) -> str:
    """What makes two variants the same question in substance, as one string: for a clipping question its
    references and its hypothesis's words in any order (the same sentence with its repeats moved is the same
    question), for a brevity penalty its lengths in any order, otherwise its inputs."""
    return _substance(ex.id, ex.inputs)


def _substance(exercise_id: str, inputs: Any) -> str:
    kind = exercise(exercise_id).kind
    if kind == "modified_precision":  # the hypothesis's words in any order: its repeats moved are the same question
        return repr((exercise_id, inputs["n"], list(inputs["references"]), sorted(inputs["hypothesis"].split())))
    if kind == "brevity_penalty":
        return repr((exercise_id, sorted(inputs["reference_lengths"]), inputs["hypothesis_length"]))
    return repr((exercise_id, sorted(inputs.items())))


def near_copy_keys(ex: Exercise) -> frozenset[str]:
    """What a variant shares with its near-copies (:mod:`~bleu_teach.exercises.near_copies`): its substance, its
    references and its translation without its stutters."""
    return _near_keys(ex.id, ex.inputs)


def _near_keys(exercise_id: str, inputs: Any) -> frozenset[str]:
    return sentence_keys(exercise_id, inputs) | {_substance(exercise_id, inputs)}


def quiz_variants(
    seed: int,
    sheets: Sequence[Sequence[Exercise]],
    count: int = QUIZ_VARIANTS,
    which: Sequence[str] = VARIED,
    keep_apart: bool = False,
) -> list[Exercise]:
    """``count`` variants of each exercise in ``which`` for a platform's quiz, none of them on a paper sheet.

    They are drawn from streams of their own (``quiz/<seed>/<id>``, never a worksheet's), and a variant that a
    sheet in ``sheets`` has in substance (:func:`substance`: the same references and words for a clipping
    question, the same lengths for a brevity penalty, the same inputs otherwise) is never taken, nor one with a
    sheet's references and its right answer, nor one the quiz already has: a student who retakes the quiz
    cannot meet their own sheet's question, even with its words moved. An exercise whose supply the sheets
    have used up gets fewer, or none.
    Nor a near-copy of a sheet's (:func:`near_copy_keys`); ``keep_apart=True``: nor of each other (the homework).
    Each is numbered (``variant``), not given to a student.
    """
    paper = {substance(ex) for sheet in sheets for ex in sheet}
    near = {key for sheet in sheets for ex in sheet for key in near_copy_keys(ex)}
    found: list[Exercise] = []
    for exercise_id in which:
        rng = random.Random(f"quiz/{seed}/{exercise_id}")
        drawn: list[Exercise] = []
        if exercise_id in POOLS:
            left = [candidate for candidate in _pool(exercise_id) if not _near_keys(exercise_id, candidate[0]) & near]
            rng.shuffle(left)
            for inputs, question, _ in _spread(left):
                variant = _checked(exercise_id, inputs, question, 0)
                assert variant is not None  # the pool holds checked candidates only
                if apart(near_copy_keys(variant), near, keep_apart):
                    drawn.append(variant)
                if len(drawn) == count:
                    break
        else:
            avoid, taken, answers = set(paper), set[str](), set[str]()

            def refuse(inputs: dict[str, Any], exercise_id: str = exercise_id) -> bool:
                return bool(_near_keys(exercise_id, inputs) & near)

            for _ in range(3 * count):
                try:
                    variant = draw_variant(
                        exercise_id,
                        rng,
                        0,
                        taken,
                        answers,
                        avoid=avoid,
                        refuse=refuse,
                    )
                except ValueError:  # no variant left that no sheet has in substance
                    break
                if apart(near_copy_keys(variant), near, keep_apart):
                    drawn.append(variant)
                if len(drawn) == count:
                    break
        found += [replace(v, student=None, variant=k) for k, v in enumerate(drawn, start=1)]
    return found


def rebuild(exercise_id: str, inputs: dict[str, Any], question: str, variant: int | None = None) -> Exercise:
    """The variant with these inputs and question again (read back from a file the worksheet command wrote),
    checked as when it was drawn; ``ValueError`` if they are not a variant's."""
    if not isinstance(exercise_id, str) or exercise_id not in VARIED:
        raise ValueError(f"exercise {preview(exercise_id)} has no variants; these do: {', '.join(VARIED)}.")
    if not isinstance(inputs, dict) or not isinstance(question, str):
        raise ValueError(f"a variant of {exercise_id} needs its inputs (a dict) and its question (a str).")
    try:
        found = _checked(exercise_id, inputs, question, 0)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise ValueError(f"these are not the inputs of a variant of {exercise_id} ({type(error).__name__}).") from None
    if found is None:
        raise ValueError(f"these inputs of {exercise_id} do not pass its checks; was the file edited?")
    return replace(found, student=None, variant=variant)
