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
its supply of checked inputs lasts (73 for 04.1, a pool); past it, students
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
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from bleu_teach.exercises.bank import Exercise, exercise
from bleu_teach.exercises.checkers import Feedback
from bleu_teach.bleu.counting import closest_ref_length, order_statistics
from bleu_teach.exercises.distinct import IndistinctAnswersWarning, coinciding
from bleu_teach.exercises.near_copies import apart, sentence_keys
from bleu_teach.inputs.validation import preview, whole_number_text

__all__ = ["VARIED", "MAX_STUDENTS", "MAX_DRAWS", "IndistinctAnswersWarning", "indistinct", "indistinct_feedback",
           "draw_variant", "draw_any", "pool_size", "worksheets", "quiz_variants", "QUIZ_VARIANTS",
           "rebuild", "substance", "near_copy_keys"]

#: The exercises that get a new variant for each student: every numeric one.
VARIED = ("01.1", "02.1", "03.1", "04.1", "04.2", "07.1", "08.1")
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


# ---------------------------------------------------------------------------
# What variants are drawn from
# ---------------------------------------------------------------------------

Segment = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]  # hypothesis, ref-A, ref-B (13a tokens)


@lru_cache(maxsize=1)
def _tokenized() -> tuple[Segment, ...]:
    """Every (system translation, ref-A, ref-B) of zh-en, tokenized once (13a), in the data's order."""
    from bleu_teach.inputs.tokenizers import tokenize
    from bleu_teach.lessons.data import wmt21_ted

    ted = wmt21_ted("zh-en")
    refs = {text: tuple(tokenize(text, "13a")) for text in (*ted.references["ref-A"], *ted.references["ref-B"])}
    return tuple((tuple(tokenize(hyp, "13a")), refs[a], refs[b]) for hyps in ted.systems.values()
                 for hyp, a, b in zip(hyps, ted.references["ref-A"], ted.references["ref-B"]))


@lru_cache(maxsize=None)
def _segments(shortest: int, longest: int) -> tuple[Segment, ...]:
    """Every (system translation, ref-A, ref-B) of zh-en with all three from ``shortest`` to ``longest`` tokens."""
    return tuple(s for s in _tokenized() if all(shortest <= len(t) <= longest for t in s))


@lru_cache(maxsize=None)
def _rated() -> tuple[tuple[str, int], ...]:
    """(system, segment) pairs of zh-en whose rater marked 2 to 4 errors."""
    from bleu_teach.lessons.data import wmt21_ted

    ted = wmt21_ted("zh-en")
    return tuple((system, i) for system, lists in ted.errors.items() if system in ted.systems
                 for i, errors in enumerate(lists) if errors is not None and 2 <= len(errors) <= 4)


def _text(tokens: Sequence[str]) -> str:
    return " ".join(tokens)


def _with_repeats(hyp: Sequence[str], refs: Sequence[Sequence[str]], n: int, rng: random.Random) -> list[str] | None:
    """``hyp`` with one or two extra copies of an n-gram it shares with a reference (so clipping matters)."""
    shared = [tuple(hyp[i:i + n]) for i in range(len(hyp) - n + 1)
              if any(tuple(hyp[i:i + n]) == tuple(r[j:j + n]) for r in refs for j in range(len(r) - n + 1))]
    if not shared:
        return None
    twice = [gram for gram in shared if max(_counts(r, n).get(gram, 0) for r in refs) >= 2]
    gram = rng.choice(twice or shared)  # one a reference holds twice: its clip is 2 (or more), not 1
    tokens = list(hyp)
    starts = [i for i in range(len(tokens) - n + 1) if tuple(tokens[i:i + n]) == gram]
    at = rng.choice(starts) + n  # a stutter, as machine translation repeats itself: "the cat cat sat"
    # Copies enough that the hypothesis holds the n-gram more often than all references together: then clipping
    # bites, and adding the references' counts (a mistake) clips too, differently.
    limit = sum(_counts(r, n).get(gram, 0) for r in refs)
    tokens[at:at] = list(gram) * (max(0, limit - _counts(hyp, n)[gram]) + rng.choice((1, 2)))
    return tokens


def _quoted(tokens: Sequence[str]) -> str:
    return f"“{_text(tokens)}”"


def _references_text(refs: Sequence[Sequence[str]]) -> str:
    if len(refs) == 1:
        return f"the reference {_quoted(refs[0])}"
    return "the references " + " and ".join(_quoted(r) for r in refs)


_TOKENS_NOTE = ("Tokens are separated by spaces (punctuation marks are tokens too), and capital letters count "
                "(“The” and “the” are different tokens).")


# ---------------------------------------------------------------------------
# One drawer per exercise: new inputs and the question that asks about them
# ---------------------------------------------------------------------------

def _precision(n: int, references: int) -> Callable[[random.Random], tuple[dict[str, Any], str]]:
    def draw(rng: random.Random) -> tuple[dict[str, Any], str]:
        # Two references: sentences of up to 15 tokens, so that enough of them need both references (each one
        # alone clips to another answer) and still tell every misconception apart.
        hyp, ref_a, ref_b = rng.choice(_repeatable(n, references))
        if references == 2 and ref_a == ref_b:
            return {}, ""  # two references that are the same sentence teach nothing about two references
        refs = [ref_a, ref_b][:references]
        repeated = _with_repeats(hyp, refs, n, rng) or list(hyp)
        if references == 2 and _one_reference_suffices(refs, repeated, n):
            return {}, ""  # clipping against one reference alone would give the right answer
        gram = {1: "unigram", 2: "bigram"}[n]
        question = (f"Hypothesis: {_quoted(repeated)}; {_references_text(refs)}. {_TOKENS_NOTE} What is the "
                    f"modified {gram} precision?")
        return {"references": [_text(r) for r in refs], "hypothesis": _text(repeated), "n": n}, question
    return draw


def _counts(tokens: Sequence[str], n: int) -> dict[tuple[str, ...], int]:
    found: dict[tuple[str, ...], int] = {}
    for i in range(len(tokens) - n + 1):
        found[tuple(tokens[i:i + n])] = found.get(tuple(tokens[i:i + n]), 0) + 1
    return found


@lru_cache(maxsize=None)
def _repeatable(n: int, references: int) -> tuple[Segment, ...]:
    """The segments whose hypothesis shares an n-gram that one of the references holds twice or more: clipping
    to that count, not to 1, is then what the question tests (sentences up to 15 tokens, up
    to 25 for bigrams, which repeat less often)."""
    found = []
    for hyp, ref_a, ref_b in _segments(4, 15 if n == 1 else 25):
        grams = set(_counts(hyp, n))
        if any(count >= 2 and gram in grams for ref in (ref_a, ref_b)[:references]
               for gram, count in _counts(ref, n).items()):
            found.append((hyp, ref_a, ref_b))
    return tuple(found)


def _one_reference_suffices(refs: Sequence[Sequence[str]], hyp: Sequence[str], n: int) -> bool:
    """True if clipping against one of the references alone gives as many matches as against all of them."""
    rows = order_statistics([tuple(r) for r in refs], tuple(hyp), n).rows
    clipped = sum(row.clipped_count for row in rows)
    return any(sum(min(row.hyp_count, row.ref_counts[k]) for row in rows) == clipped for k in range(len(refs)))


def _brevity(rng: random.Random) -> tuple[dict[str, Any], str]:
    """Four references of different lengths and a hypothesis a little shorter than one of the two middle ones,
    which is not the first: so the closest, the shortest, the first and the longest reference are four
    different lengths (and the checker tells the mean length apart), and only BLEU's rule gives the answer."""
    segments = _segments(5, 20)
    lens = [len(rng.choice(segments)[rng.choice((1, 2))]) for _ in range(4)]
    if len(set(lens)) < 4:
        return {}, ""  # four different lengths: which one BLEU takes is the question
    middle = [length for length in sorted(lens)[1:3] if length != lens[0]]
    r = rng.choice(middle)
    hyp_len = r - rng.randrange(1, 3)
    if hyp_len < 2 or closest_ref_length(lens, hyp_len) != r:
        return {}, ""
    question = (f"References of {lens[0]}, {lens[1]}, {lens[2]} and {lens[3]} tokens; a hypothesis of {hyp_len} "
                "tokens. What is BP?")
    return {"reference_lengths": lens, "hypothesis_length": hyp_len}, question


def _sentence_bleu(references: int, smoothing: str | None) -> Callable[[], list[tuple[dict[str, Any], str]]]:
    """Every candidate of a sentence-BLEU question: a translation of 4 to 16 tokens (its references too) that
    shares no 4-gram with its references (a zero 4-gram precision is what the question is about), in the data's
    order."""
    def candidates() -> list[tuple[dict[str, Any], str]]:
        found = []
        for hyp, ref_a, ref_b in _segments(4, 16):
            refs = [ref_a, ref_b][:references]
            if (references == 2 and ref_a == ref_b) or _shares(hyp, refs, 4):
                continue
            how = ("with smoothing method 1 (ε = 0.1 added to a zero match count)" if smoothing == "method1"
                   else "without smoothing")
            question = (f"What is NLTK's sentence BLEU-4 (weights 1/4 each) of {_quoted(hyp)} against "
                        f"{_references_text(refs)}, {how}? {_TOKENS_NOTE}")
            inputs: dict[str, Any] = {"references": [_text(r) for r in refs], "hypothesis": _text(hyp)}
            if smoothing:
                inputs["smoothing"] = smoothing
            found.append((inputs, question))
        return found
    return candidates


def _shares(hyp: Sequence[str], refs: Sequence[Sequence[str]], n: int) -> bool:
    grams = {tuple(hyp[i:i + n]) for i in range(len(hyp) - n + 1)}
    return any(tuple(r[j:j + n]) in grams for r in refs for j in range(len(r) - n + 1))


def _corpus(rng: random.Random) -> tuple[dict[str, Any], str]:
    (hyp1, ref1, _), (hyp2, ref2, _) = rng.sample(_segments(3, 9), 2)
    question = (f"A corpus of two sentences: {_quoted(hyp1)} against the reference {_quoted(ref1)}, and "
                f"{_quoted(hyp2)} against {_quoted(ref2)}. {_TOKENS_NOTE} What is its corpus BLEU-1 (unigrams "
                "only, no smoothing)?")
    return {"references": [[_text(ref1)], [_text(ref2)]], "hypotheses": [_text(hyp1), _text(hyp2)],
            "weights": [1.0]}, question


#: How often an MQM question is drawn from each kind of rated translation: one with a major punctuation error (the
#: trap of question 08.1: 5, not 0.1), one with a minor punctuation error (0.1), one with major and minor errors,
#: and one with major errors only (what a uniform draw would give most of the time).  Minor errors only never make
#: a question: minus the number of errors would be the right answer too.
_MQM_KINDS = (("major punctuation", 1), ("minor punctuation", 2), ("major and minor", 2), ("major only", 1))


def _mqm_kind(errors: Sequence[Any]) -> str:
    punctuation = [e.severity.lower() for e in errors if e.category == "Fluency/Punctuation"]
    if "major" in punctuation:
        return "major punctuation"
    if punctuation:
        return "minor punctuation"
    severities = {e.severity.lower() for e in errors}
    return "major only" if severities == {"major"} else "major and minor" if "major" in severities else "minor only"


@lru_cache(maxsize=None)
def _rated_by_kind() -> dict[str, tuple[tuple[str, int], ...]]:
    from bleu_teach.lessons.data import wmt21_ted

    errors = wmt21_ted("zh-en").errors
    found: dict[str, list[tuple[str, int]]] = {kind: [] for kind, _ in _MQM_KINDS}
    for system, segment in _rated():
        found.setdefault(_mqm_kind(errors[system][segment]), []).append((system, segment))
    return {kind: tuple(pairs) for kind, pairs in found.items()}


def _mqm(rng: random.Random) -> tuple[dict[str, Any], str]:
    from bleu_teach.lessons.data import wmt21_ted

    by_kind = _rated_by_kind()
    kinds = [kind for kind, _ in _MQM_KINDS if by_kind[kind]]
    kind = rng.choices(kinds, weights=[weight for k, weight in _MQM_KINDS if k in kinds])[0]
    system, segment = rng.choice(by_kind[kind])  # machine translations only: the references are rated too
    errors = wmt21_ted("zh-en").errors[system][segment]  # listed before the question (Exercise.stand_alone_context)
    question = (f"The expert who rated the machine translation system {system} on segment {segment} marked these "
                f"{len(errors)} errors. What is the translation's MQM score?")
    return {"pair": "zh-en", "system": system, "segment": segment}, question


_DRAWERS: dict[str, Callable[[random.Random], tuple[dict[str, Any], str]]] = {
    "01.1": _precision(1, 2),
    "02.1": _precision(2, 2),
    "03.1": _brevity,
    "04.2": _corpus,
    "07.1": _precision(1, 1),
    "08.1": _mqm,
}
#: Exercises whose variants come from a finite pool (every real sentence that fits), handed out in a shuffled
#: order; past the pool's size, students share variants (the key says how many there are).
_POOLS: dict[str, Callable[[], list[tuple[dict[str, Any], str]]]] = {
    "04.1": _sentence_bleu(2, "method1"),
}
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
        report: Any = explain([tokenize(r) for r in ex.inputs["references"]], tokenize(ex.inputs["hypothesis"]),
                              weights=weights, smoothing=ex.inputs.get("smoothing"))
    else:
        report = explain_corpus([[tokenize(r) for r in refs] for refs in ex.inputs["references"]],
                                [tokenize(h) for h in ex.inputs["hypotheses"]], weights=weights)
    used = ", ".join(f"{o.clipped}/{o.total}" + (f" (used as {float(o.smoothed):.4g})" if o.is_zero else "")
                     for o in report.orders)
    c, r = ((report.length.hyp_len, report.length.closest_ref_len) if ex.kind == "bleu"
            else (report.hyp_len, report.ref_len))
    return (f"p_n = {used}; c = {c}, r = {r}, so BP = {float(report.brevity_penalty):.4g}; "
            f"BLEU = BP x exp(sum of w_n log p_n) = {float(report.score):.4g}")


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


@lru_cache(maxsize=None)
def _candidates(exercise_id: str) -> tuple[tuple[dict[str, Any], str], ...]:
    """A pooled exercise's candidates, each once, in the data's order (not yet checked)."""
    found: dict[str, tuple[dict[str, Any], str]] = {}
    for inputs, question in _POOLS[exercise_id]():
        found.setdefault(repr(sorted(inputs.items())), (inputs, question))
    return tuple(found.values())


@lru_cache(maxsize=None)
def _pool(exercise_id: str) -> tuple[tuple[dict[str, Any], str, str], ...]:
    """The different candidates of a pooled exercise that pass the checks, with their answers (computed once)."""
    return tuple((inputs, question, variant.answer_text) for inputs, question in _candidates(exercise_id)
                 if (variant := _checked(exercise_id, inputs, question, 0)) is not None)


def pool_size(exercise_id: str) -> int | None:
    """How many different variants a pooled exercise has (None: drawn afresh, practically unlimited)."""
    return len(_pool(exercise_id)) if exercise_id in _POOLS else None


def draw_variant(exercise_id: str, rng: random.Random, student: int, taken: set[str] | None = None,
                 answers: set[str] | None = None, patience: int = _REUSE_AFTER,
                 avoid: set[str] | None = None, refuse: Callable[[dict[str, Any]], bool] | None = None) -> Exercise:
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
    if exercise_id not in _DRAWERS:
        raise ValueError(f"exercise {exercise_id!r} is not drawn afresh; these are: {', '.join(_DRAWERS)} "
                         f"(and {', '.join(_POOLS)} come from a pool: use worksheets()).")
    passed: list[Exercise] = []
    shared: Exercise | None = None  # a variant another student has: used only when no new one turns up
    for attempt in range(MAX_DRAWS):
        if attempt >= patience and (passed or shared is not None):
            break

        inputs, question = _DRAWERS[exercise_id](rng)
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


def draw_any(exercise_id: str, rng: random.Random) -> Exercise:
    """One checked variant of any exercise in :data:`VARIED`, drawn afresh or taken from its pool with ``rng``.

    The variant belongs to no student (``student`` None): practice, not a sheet.
    """
    if not isinstance(exercise_id, str) or exercise_id not in VARIED:
        raise ValueError(f"exercise {preview(exercise_id)} has no variants; these do: {', '.join(VARIED)}.")
    if exercise_id in _POOLS:
        # One candidate at a time until one passes (the pool's members, without checking the whole pool first).
        candidates = _candidates(exercise_id)
        for _ in range(MAX_DRAWS):
            inputs, question = rng.choice(candidates)
            if (found := _checked(exercise_id, inputs, question, 0)) is not None:
                break
        else:
            raise ValueError(f"no variant of exercise {exercise_id} passed the checks in {MAX_DRAWS} draws.")
    else:
        found = draw_variant(exercise_id, rng, 0)
    return replace(found, student=None)


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
        raise ValueError(f"seed must be 0 or more (a negative seed would give the same sheets as its positive); "
                         f"got {whole_number_text(seed)}.")
    unknown = [w for w in which if w not in _DRAWERS and w not in _POOLS]
    if isinstance(which, str) or unknown:
        raise ValueError(f"which must list exercises that have variants ({', '.join(VARIED)}); "
                         f"got {which!r}.")
    sheets: list[list[Exercise]] = [[] for _ in range(students)]
    for k, exercise_id in enumerate(which):  # each exercise from its own generator: sheet k ignores the class size
        rng = random.Random(f"{seed}/{exercise_id}")
        if exercise_id in _POOLS:
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


def quiz_variants(seed: int, sheets: Sequence[Sequence[Exercise]], count: int = QUIZ_VARIANTS,
                  which: Sequence[str] = VARIED, keep_apart: bool = False) -> list[Exercise]:
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
        if exercise_id in _POOLS:
            left = [candidate for candidate in _pool(exercise_id)
                    if not _near_keys(exercise_id, candidate[0]) & near]
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
            for _ in range(3 * count):
                try:
                    variant = draw_variant(exercise_id, rng, 0, taken, answers, avoid=avoid,
                                           refuse=lambda inputs: bool(_near_keys(exercise_id, inputs) & near))
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
