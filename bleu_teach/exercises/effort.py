"""How long an exercise takes by hand: an estimate from its length, for planning homework.

The estimate is a model, not a measurement of students: reading the
question at :data:`READING_WORDS_PER_MINUTE`, then :data:`SECONDS_PER_LOOKUP`
for each n-gram looked up in each reference (the counting a precision or a
BLEU score asks for), :data:`SECONDS_PER_ERROR` for each expert-marked error
weighed, and a fixed time for the arithmetic of the formula (a logarithm
and an exponential take longer than a fraction). It is rounded up to whole
minutes, and never below :data:`MINIMUM_MINUTES`.

>>> from bleu_teach.exercises.bank import exercise
>>> minutes(exercise("03.1")), minutes(exercise("04.1")) > minutes(exercise("01.1"))
(2, True)
"""

from __future__ import annotations

import math

from bleu_teach.exercises.bank import Exercise
from bleu_teach.exercises.media import question_text

__all__ = [
    "minutes",
    "READING_WORDS_PER_MINUTE",
    "SECONDS_PER_LOOKUP",
    "SECONDS_PER_ERROR",
    "MINIMUM_MINUTES",
    "ARITHMETIC_SECONDS",
]

READING_WORDS_PER_MINUTE = 150  # careful reading of a question with numbers in it
SECONDS_PER_LOOKUP = 4  # find one n-gram of the hypothesis in one reference, and note its count
SECONDS_PER_ERROR = 20  # read one marked error's severity and category, and weigh it
MINIMUM_MINUTES = 2
#: The formula's arithmetic by kind of exercise, in seconds (a calculator at hand).
ARITHMETIC_SECONDS = {
    "modified_precision": 30,
    "brevity_penalty": 60,
    "reference_length": 30,
    "bleu": 180,
    "corpus_bleu": 180,
    "mqm_score": 30,
    "higher": 60,
    "choice": 60,
}


def _ngrams(tokens: int, n: int) -> int:
    return max(tokens - n + 1, 0)


def _lookups(ex: Exercise) -> int:
    """How many (n-gram, reference) look-ups the exercise asks for by hand."""
    given = ex.inputs
    if ex.kind == "modified_precision":
        return _ngrams(len(given["hypothesis"].split()), given["n"]) * len(given["references"])
    if ex.kind == "bleu":
        length = len(given["hypothesis"].split())
        return sum(_ngrams(length, n) for n in range(1, 5)) * len(given["references"])
    if ex.kind == "corpus_bleu":
        orders = len(given.get("weights", (0.25,) * 4))
        return sum(
            _ngrams(len(h.split()), n) * len(refs)
            for h, refs in zip(given["hypotheses"], given["references"])
            for n in range(1, orders + 1)
        )
    return 0


def minutes(ex: Exercise) -> int:
    """The estimated minutes to answer ``ex`` by hand with its working (see the module's model)."""
    words = len(question_text(ex, "paper").split())
    seconds = 60 * words / READING_WORDS_PER_MINUTE + SECONDS_PER_LOOKUP * _lookups(ex)
    seconds += ARITHMETIC_SECONDS.get(ex.kind, 60)
    if ex.kind == "mqm_score":
        from bleu_teach.lessons.data import wmt21_ted

        ted = wmt21_ted(ex.inputs["pair"])
        seconds += SECONDS_PER_ERROR * len(ted.errors[ex.inputs["system"]][ex.inputs["segment"]])
    return max(MINIMUM_MINUTES, math.ceil(seconds / 60))
