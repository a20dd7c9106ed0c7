"""The exercise bank: every "Check yourself" question of the lessons, kept as data (``bank.toml``).

Each :class:`Exercise` holds its id (``"03.2"``: lesson 03, question 2), its
question in no medium's words (how to type or choose an answer is said by
:mod:`bleu_teach.exercises.media`, per medium), the format its answer takes
(:class:`AnswerFormat`), what only its lesson adds and what it needs said
where the lesson is not there, its options where it has any, the right
answer with its working, and what the checker needs to compute the right
answer and each misconception's answer.  A lesson's exercise cell is two
lines, ``answer = None`` and ``check("03.2", answer)``; the solution copies,
the teacher's guide, the website, the quiz files and the worksheets are made
from the same records.

>>> exercise("03.1").title
'BP with four references'
>>> check("01.1", "10/13").verdict
'correct'
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from bleu_teach.exercises.checkers import (
    Feedback,
    check_brevity_penalty,
    check_choice,
    check_higher,
    check_modified_precision,
)
from bleu_teach.exercises.feedback import with_verdict
from bleu_teach.exercises.listeners import tell
from bleu_teach.exercises.media import LESSON_MEDIA, AnswerFormat, question_text
from bleu_teach.exercises.score_checkers import check_bleu, check_corpus_bleu, check_mqm_score
from bleu_teach.inputs.tokenizers import tokenize

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, from PyPI
    import tomli as tomllib

__all__ = ["KINDS", "Exercise", "Option", "check", "exercise", "exercises"]

#: The kinds of exercise, and the inputs each reads from its record (besides ``decimals``).
KINDS: dict[str, tuple[str, ...]] = {
    "choice": (),
    "reference_length": ("reference_lengths", "hypothesis_length"),
    "higher": ("references", "hypotheses", "smoothing"),
    "modified_precision": ("references", "hypothesis", "n"),
    "brevity_penalty": ("reference_lengths", "hypothesis_length"),
    "bleu": ("references", "hypothesis", "weights", "smoothing"),
    "corpus_bleu": ("references", "hypotheses", "weights", "smoothing"),
    "mqm_score": ("pair", "system", "segment"),
}
_CHOICE_KINDS = ("choice", "reference_length", "higher")
_OPTIONAL = ("weights", "smoothing")
_COMMON = (
    "id",
    "title",
    "heading",
    "kind",
    "question",
    "answer",
    "working",
    "decimals",
    "options",
    "context",
    "in_lesson",
    "skill",
)


#: The answer format of each kind (a number's decimals come from its record).
_FORMATS: dict[str, AnswerFormat] = {
    "choice": AnswerFormat("letter"),
    "reference_length": AnswerFormat("letter"),
    "higher": AnswerFormat("a_b_same"),
    "modified_precision": AnswerFormat("number", fraction=True, scale="0-1"),
    "brevity_penalty": AnswerFormat("number", scale="0-1"),
    "bleu": AnswerFormat("number", scale="bleu 0-1"),
    "corpus_bleu": AnswerFormat("number", scale="bleu 0-1"),
    "mqm_score": AnswerFormat("number"),
}
#: How an MQM score is made, for a question read without lesson 08 (the weights of ``ErrorSpan.weight``).
MQM_RULE = (
    "In MQM (Freitag et al., 2021) a translation's score is minus the sum of its errors' weights: "
    "non-translation 25, major 5, minor 1, minor Fluency/Punctuation 0.1."
)
#: The kinds whose question needs the WMT21 data (the lessons' pages load it only where a question needs it).
NEEDS_DATA = ("mqm_score",)


@dataclass(frozen=True)
class Option:
    """One option of a choice question: its letter, its text (Markdown), and what to say to a learner who picks it.

    ``misconception`` names the mistake a wrong option stands for (None for
    the right option); ``rule`` is how a computed option's value is found
    (the reference-length question: ``"closest"``, ``"longest"``, ...);
    ``hint`` is what a first wrong try with this option is told instead of
    ``feedback`` (which may give the answer away, as a prediction's scores
    do): a nudge, the full feedback from the second wrong try on.
    """

    letter: str
    text: str
    feedback: str
    misconception: str | None = None
    rule: str | None = None
    hint: str | None = None


@dataclass(frozen=True)
class Exercise:
    """One "Check yourself" question, and how to check an answer to it."""

    id: str
    title: str
    kind: str
    question: str
    answer: str | float
    working: str
    heading: str | None = None
    decimals: int | None = None
    #: What a reader needs where the lesson is not there (a quiz, a sheet): a sentence or a reference the lesson
    #: showed before the question.
    context: str = ""
    #: What only the lesson says after the question (look at it in the explorer above).
    in_lesson: str = ""
    options: tuple[Option, ...] = ()
    inputs: Mapping[str, Any] = field(default_factory=dict)
    #: For a worksheet's variant (:mod:`bleu_teach.exercises.variants`): the student it was drawn for.
    student: int | None = None
    #: For a platform quiz's variant (``variants.quiz_variants``, never a student's sheet): its number.
    variant: int | None = None
    #: What practising a numeric exercise trains, as the index's progress names it ("the brevity penalty").
    skill: str = ""

    @property
    def label(self) -> str:
        """The id, with a worksheet variant's student or a quiz variant's number: ``03.1``, ``03.1 (student 07)``,
        ``03.1 (quiz variant 07)``."""
        if self.student is not None:
            return f"{self.id} (student {self.student:02d})"
        return self.id if self.variant is None else f"{self.id} (quiz variant {self.variant:02d})"

    @property
    def lesson(self) -> str:
        """The lesson's two-digit number, e.g. ``"03"``."""
        return self.id.split(".")[0]

    @property
    def number(self) -> int:
        """The question's number within its lesson."""
        return int(self.id.split(".")[1])

    @property
    def anchor(self) -> str:
        """The question's own anchor in its lesson (notebook and web page): ``ex-03-2`` for exercise 03.2."""
        return "ex-" + self.id.replace(".", "-")

    @property
    def answer_format(self) -> AnswerFormat:
        """What an answer to this question is: a letter, A/B/same, or a number with its rounding and scale."""
        found = _FORMATS[self.kind]
        return found if found.kind != "number" else AnswerFormat("number", self.decimals, found.fraction, found.scale)

    @property
    def needs_data(self) -> bool:
        """Whether checking an answer reads the WMT21 data (the website loads it only for such a question)."""
        return self.kind in NEEDS_DATA

    def stand_alone_context(self) -> str:
        """What a reader without the lesson needs before the question: the record's context, or what the
        question's data holds (an MQM question's list of errors)."""
        if self.kind == "mqm_score" and not self.context:
            errors = self._mqm_errors()
            return (
                "The errors, from WMT21's expert ratings (Chinese to English, TED talks): "
                + "; ".join(
                    f"{e.category}, {e.severity.lower()}" + (f", on “{e.text}”" if e.text else "") for e in errors
                )
                + ". "
                + MQM_RULE
            )
        return self.context

    def _mqm_errors(self) -> Any:
        from bleu_teach.lessons.data import wmt21_ted

        return wmt21_ted(self.inputs["pair"]).errors[self.inputs["system"]][self.inputs["segment"]]

    def markdown(self, medium: str = "notebook") -> str:
        """The question as its lesson shows it above the exercise cell: anchor, number, question, the medium's
        instructions and (in a notebook) the options; ``medium="page"`` gives the lesson's web page's words."""
        if medium not in LESSON_MEDIA:
            raise ValueError(f"medium must be one of {', '.join(LESSON_MEDIA)} (a lesson's), not {medium!r}.")
        label = f"**{self.number}. {self.heading}.**" if self.heading else f"**{self.number}.**"
        text = f'<a id="{self.anchor}"></a>{label} {question_text(self, medium)}'
        shown = [o for o in self.options if self.kind != "higher"]
        if shown and medium == "notebook":
            text += "\n\n" + "\n".join(f"* **{o.letter}** {o.text}" for o in shown)
        return text

    def cell(self) -> str:
        """The learner's exercise cell."""
        return f'answer = None\ncheck("{self.id}", answer)'

    @property
    def answer_text(self) -> str:
        """The right answer as a learner would type it: a letter, a fraction, or a number to the question's decimals."""
        if isinstance(self.answer, str):
            return "same" if self.answer == "SAME" else self.answer
        return f"{self.answer:.{self.decimals}f}"

    def solution(self) -> str:
        """The first line of the solution copy's exercise cell: the answer, then its working as a comment."""
        answer = f'"{self.answer_text}"' if isinstance(self.answer, str) else self.answer_text
        return f"answer = {answer}  # {self.working}"

    def check(self, answer: Any, attempt: int | None = None) -> Feedback:
        """Check an answer: a letter for a choice question, a number or a fraction otherwise.

        ``attempt`` is which try this answer is (1 for the first): a first wrong try with an option that has a
        ``hint`` gets the hint, every later one (and ``None``: not counted) the full feedback.
        """
        if attempt is not None and (isinstance(attempt, bool) or not isinstance(attempt, int) or attempt < 1):
            raise ValueError(f"attempt must be which try this is (1, 2, ...) or None, not {attempt!r}.")
        feedback = _CHECKERS[self.kind](self, answer)
        if attempt == 1 and feedback.correct is False:
            chosen = next((o for o in self.options if (o.misconception or o.letter) == feedback.recognised), None)
            if chosen is not None and chosen.hint:
                return with_verdict(feedback, False, chosen.hint, feedback.recognised)
        return feedback

    @property
    def hinted(self) -> bool:
        """Whether a first wrong try gets a hint before the full feedback (some option has a ``hint``)."""
        return any(o.hint for o in self.options)


def _tokens(text: str) -> list[str]:
    return tokenize(text)


def _choice(ex: Exercise, answer: Any) -> Feedback:
    return check_choice(
        answer,
        {o.letter: o.text for o in ex.options},
        str(ex.answer),
        {o.letter: o.feedback for o in ex.options},
        {o.letter: o.misconception for o in ex.options if o.misconception},
    )


def _higher(ex: Exercise, answer: Any) -> Feedback:
    a, b = ex.inputs["hypotheses"]
    return check_higher(
        answer,
        [_tokens(r) for r in ex.inputs["references"]],
        _tokens(a),
        _tokens(b),
        smoothing=ex.inputs.get("smoothing"),
        feedback={o.letter: o.feedback for o in ex.options},
        misconceptions={o.letter: o.misconception for o in ex.options if o.misconception},
    )


def _weights(ex: Exercise) -> tuple[float, ...]:
    return tuple(ex.inputs.get("weights", (0.25, 0.25, 0.25, 0.25)))


def _mqm(ex: Exercise, answer: Any) -> Feedback:
    return check_mqm_score(answer, ex._mqm_errors(), decimals=_decimals(ex))


def _decimals(ex: Exercise) -> int:
    assert ex.decimals is not None, f"exercise {ex.id} needs decimals"
    return ex.decimals


_CHECKERS: dict[str, Callable[[Exercise, Any], Feedback]] = {
    "choice": _choice,
    "reference_length": _choice,
    "higher": _higher,
    "modified_precision": lambda ex, answer: check_modified_precision(
        answer,
        [_tokens(r) for r in ex.inputs["references"]],
        _tokens(ex.inputs["hypothesis"]),
        ex.inputs["n"],
        decimals=_decimals(ex),
    ),
    "brevity_penalty": lambda ex, answer: check_brevity_penalty(
        answer, ex.inputs["reference_lengths"], ex.inputs["hypothesis_length"], decimals=_decimals(ex)
    ),
    "bleu": lambda ex, answer: check_bleu(
        answer,
        [_tokens(r) for r in ex.inputs["references"]],
        _tokens(ex.inputs["hypothesis"]),
        _weights(ex),
        ex.inputs.get("smoothing"),
        decimals=_decimals(ex),
    ),
    "corpus_bleu": lambda ex, answer: check_corpus_bleu(
        answer,
        [[_tokens(r) for r in refs] for refs in ex.inputs["references"]],
        [_tokens(h) for h in ex.inputs["hypotheses"]],
        _weights(ex),
        ex.inputs.get("smoothing"),
        decimals=_decimals(ex),
    ),
    "mqm_score": _mqm,
}


def _record(raw: Mapping[str, Any]) -> Exercise:
    """One exercise from its TOML table, checked for the fields its kind needs."""
    where = f"bank.toml, exercise {raw.get('id', '?')}"
    kind = raw.get("kind")
    if kind not in KINDS:
        raise ValueError(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}.")
    needed = set(KINDS[kind]) - set(_OPTIONAL)
    allowed = set(KINDS[kind]) | set(_COMMON)
    if missing := needed - set(raw):
        raise ValueError(f"{where}: a {kind} exercise needs {', '.join(sorted(missing))}.")
    if unknown := set(raw) - allowed:
        raise ValueError(f"{where}: {', '.join(sorted(unknown))} is not used by a {kind} exercise.")
    options = tuple(
        Option(o["letter"], o["text"], o["feedback"], o.get("misconception"), o.get("rule"), o.get("hint"))
        for o in raw.get("options", ())
    )
    if any(o.hint and not o.misconception for o in options):
        raise ValueError(f"{where}: a hint belongs to a wrong option (one with a misconception).")
    if (kind in _CHOICE_KINDS) != bool(options):
        raise ValueError(f"{where}: a {kind} exercise {'needs' if kind in _CHOICE_KINDS else 'takes no'} options.")
    if (kind in _CHOICE_KINDS) == ("decimals" in raw):
        raise ValueError(f"{where}: decimals belongs to numeric exercises only.")
    if (kind in _CHOICE_KINDS) == bool(raw.get("skill")):
        raise ValueError(
            f"{where}: skill (what practising it trains, as the index's progress names it) belongs to "
            f"{'numeric exercises only' if kind in _CHOICE_KINDS else 'every numeric exercise'}."
        )
    return Exercise(
        raw["id"],
        raw["title"],
        kind,
        raw["question"].strip(),
        raw["answer"],
        raw["working"],
        raw.get("heading"),
        raw.get("decimals"),
        raw.get("context", "").strip(),
        raw.get("in_lesson", "").strip(),
        options,
        {k: raw[k] for k in KINDS[kind] if k in raw},
        skill=raw.get("skill", ""),
    )


@cache
def _bank() -> dict[str, Exercise]:
    text = resources.files("bleu_teach.exercises").joinpath("bank.toml").read_text(encoding="utf-8")
    records = [_record(raw) for raw in tomllib.loads(text)["exercise"]]
    bank = {ex.id: ex for ex in records}
    if len(bank) != len(records):
        raise ValueError("bank.toml: two exercises share an id.")
    return bank


def exercises(lesson: str | None = None) -> tuple[Exercise, ...]:
    """Every exercise in the bank, in lesson order; or only those of one lesson (``"03"``).

    >>> [ex.id for ex in exercises("03")]
    ['03.1', '03.2']
    """
    if lesson is not None and (not isinstance(lesson, str) or len(lesson) != 2 or not lesson.isdigit()):
        raise ValueError(f'lesson must be a lesson\'s two-digit number such as "03", not {lesson!r}.')
    found = tuple(ex for ex in _bank().values() if lesson is None or ex.lesson == lesson)
    if not found:
        raise ValueError(
            f"There is no lesson {lesson!r} with exercises; the lessons are "
            f"{', '.join(sorted({ex.lesson for ex in _bank().values()}))}."
        )
    return found


def exercise(exercise_id: str) -> Exercise:
    """The exercise with this id, such as ``"03.2"`` (lesson 03, question 2)."""
    if not isinstance(exercise_id, str):
        raise TypeError(f'exercise_id must be a string such as "03.2", not {exercise_id!r}.')
    found = _bank().get(exercise_id.strip())
    if found is None:
        raise ValueError(f"There is no exercise {exercise_id!r}; the ids are {', '.join(_bank())}.")
    return found


#: Wrong tries so far in this Python session (a notebook's kernel), per exercise that gives a hint first.
_WRONG_TRIES: dict[str, int] = {}


def check(exercise_id: str, answer: Any, attempt: int | None = None) -> Feedback:
    """Check an answer to a bank exercise and say why it is right, or which mistake it points to.

    ``attempt`` is which try this is (1 for the first); where a first wrong try gets a hint
    (:attr:`Exercise.hinted`, as 00.2 does: its full feedback gives both scores away), ``None`` counts the
    wrong tries here, in this Python session, so that a lesson's cell run again with another wrong answer is
    the second try.  Other exercises give the same feedback on every try.

    >>> print(check("03.2", "A"))
    Not yet: 15 is the longest reference. BLEU uses the reference length closest to the hypothesis length.
    >>> print(check("00.2", "same", attempt=1))  # doctest: +ELLIPSIS
    Not yet: each hypothesis differs from the reference, but BLEU does not count differences: ...
    """
    ex = exercise(exercise_id)
    counted = attempt is None and ex.hinted
    if counted:
        attempt = _WRONG_TRIES.get(ex.id, 0) + 1
    feedback = ex.check(answer, attempt)
    if counted and feedback.correct is False:
        _WRONG_TRIES[ex.id] = _WRONG_TRIES.get(ex.id, 0) + 1
    tell(ex.id, answer, feedback)  # a joined class hears of it (bleu_teach.join)
    return feedback
