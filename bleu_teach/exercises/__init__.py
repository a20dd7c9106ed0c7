"""The "Check yourself" exercises: the bank of questions (data) and the checkers that diagnose answers.

``check("03.2", answer)`` is what a lesson's exercise cell calls; ``exercises()``
lists the bank and ``exercise(id)`` looks one up.  The ``check_*`` functions
check a question of your own (your sentences, your lengths) the same way.
"""

from bleu_teach.exercises.bank import Exercise, Option, check, exercise, exercises
from bleu_teach.exercises.checkers import (
    Feedback,
    Misconception,
    check_brevity_penalty,
    check_choice,
    check_higher,
    check_modified_precision,
    check_ngram_count,
)
from bleu_teach.exercises.score_checkers import check_bleu, check_corpus_bleu, check_mqm_score
from bleu_teach.exercises.unquoted import register as _register_unquoted

_register_unquoted()  # in a notebook only: `answer = B` is told to put the letter in quotes (exercises.unquoted)

__all__ = [
    "Exercise",
    "Feedback",
    "Misconception",
    "Option",
    "check",
    "check_bleu",
    "check_brevity_penalty",
    "check_choice",
    "check_corpus_bleu",
    "check_higher",
    "check_modified_precision",
    "check_mqm_score",
    "check_ngram_count",
    "exercise",
    "exercises",
]
