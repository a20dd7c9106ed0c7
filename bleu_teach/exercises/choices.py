"""Checkers for choice questions: a letter (or an option's own text), and a prediction of which hypothesis scores
higher, whose right answer is computed.

Each wrong option names the misconception behind it; :func:`check_higher` ends every message with the two scores
and their precisions, computed here.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from bleu_teach.bleu.explain import explain
from bleu_teach.exercises.feedback import Feedback, Misconception, with_verdict
from bleu_teach.inputs.validation import DEFAULT_WEIGHTS, check_weight_tuple, preview

__all__ = ["check_choice", "check_higher"]


#: A letter as people write it in a list: "(B)", "B)", "B.", "B:", "[B]".
_MARKED_LETTER = re.compile(r"[(\[]?\s*([A-Z]+)\s*[)\].:]?")


def _letter(answer: Any, options: Mapping[str, str]) -> str:
    if not isinstance(answer, str):
        raise TypeError(f'Answer with the letter of your choice as a string, e.g. "A", not {preview(answer)}.')
    letter = answer.strip().upper()
    by_text = {text.strip().strip("*_").strip().upper(): key for key, text in options.items()}  # *the text* too
    letter = letter.strip("*_\"'“”‘’ ").upper() if letter not in options else letter
    letter = by_text.get(letter, letter) if letter not in options else letter  # "the same" for SAME
    marked = _MARKED_LETTER.fullmatch(letter)
    if letter not in options and marked and marked.group(1) in options:  # "(B)", "B)", "B." as a letter is written
        letter = marked.group(1)
    if letter not in options:
        said = [key if len(key) == 1 else f'"{options[key]}"' for key in options]  # SAME is written "the same"
        raise ValueError(f"Choose one of {', '.join(said)}; {preview(answer)} is not among them.")
    return letter


def _letters(mapping: Any, name: str) -> dict[str, str]:
    """A mapping from option letters to text, with the letters in upper case."""
    if not isinstance(mapping, Mapping):
        raise TypeError(
            f'{name} must map option letters to text, e.g. {{"A": "...", "B": "..."}}, not {type(mapping).__name__}.'
        )
    out: dict[str, str] = {}
    for key, value in mapping.items():
        if not isinstance(key, str) or not key.strip():
            raise TypeError(f'{name} must use letters such as "A" as keys, not {key!r}.')
        if not isinstance(value, str):
            raise TypeError(f"{name}[{key!r}] must be text, not {type(value).__name__}.")
        if key.strip().upper() in out:
            raise ValueError(f"{name} names the option {key.strip().upper()!r} twice.")
        out[key.strip().upper()] = value
    return out


def check_choice(
    answer: Any,
    options: Mapping[str, str],
    right: str,
    feedback: Mapping[str, str],
    misconceptions: Mapping[str, str] | None = None,
) -> Feedback:
    """Check a multiple-choice answer; each wrong option names the misconception behind it.

    ``options`` maps letters to the choices, ``right`` is the right letter,
    ``feedback`` gives, for every letter, why it is right or wrong, and
    ``misconceptions`` (optional) names, for each wrong letter, the
    misconception it stands for (the letter itself when not given).

    >>> options = {"A": "the maximum over the references", "B": "the sum over the references"}
    >>> check_choice("b", options, "A", {"A": "one reference at a time.", "B": "that double-counts."},
    ...              {"B": "summed references"}).recognised
    'summed references'
    """
    letters = _letters(options, "options")
    said = _letters(feedback, "feedback")
    names = _letters(misconceptions or {}, "misconceptions")
    if not isinstance(right, str) or right.strip().upper() not in letters:
        raise ValueError(f"right must be one of the option letters ({', '.join(letters)}), not {right!r}.")
    right = right.strip().upper()
    if len(letters) < 2 or set(said) != set(letters) or not set(names) <= set(letters) - {right}:
        raise ValueError(
            "check_choice needs two or more options, feedback for every letter, and misconception "
            "names only for wrong letters."
        )
    mistakes = tuple(Misconception(names.get(k, k), k, said[k]) for k in letters if k != right)
    base = Feedback(None, "", right, None, mistakes)
    if answer is None or answer is Ellipsis:
        return with_verdict(
            base, None, 'replace None with the letter of your answer, e.g. "A", and run the cell again.'
        )
    letter = _letter(answer, letters)
    if letter == right:
        return with_verdict(base, True, said[right])
    return with_verdict(base, False, said[letter], names.get(letter, letter))


def check_higher(
    answer: Any,
    references: Sequence[Sequence[Hashable]],
    hypothesis_a: Sequence[Hashable],
    hypothesis_b: Sequence[Hashable],
    weights: Sequence[float] = DEFAULT_WEIGHTS,
    smoothing: str | None = "method1",
    feedback: Mapping[str, str] | None = None,
    misconceptions: Mapping[str, str] | None = None,
) -> Feedback:
    """A prediction: which hypothesis gets the higher BLEU, "A", "B" or "same"?  The right answer is computed.

    ``feedback`` and ``misconceptions`` (optional, keyed "A", "B" and
    "SAME") say why each answer is right or wrong; every message ends with
    the two scores and their precisions, computed here.

    >>> refs = [["the", "dog", "chases", "the", "cat"]]
    >>> check_higher("same", refs, "the cat chases the dog".split(), "the dog chases the cat".split()).recognised
    'SAME'
    """
    weight = check_weight_tuple(weights)
    a = explain(references, hypothesis_a, weights=weight, smoothing=smoothing)
    b = explain(references, hypothesis_b, weights=weight, smoothing=smoothing)
    right = "SAME" if a.score == b.score else ("A" if a.score > b.score else "B")

    scores = f"A scores {a.score:.4f}; B scores {b.score:.4f}."
    generic = {
        "A": "A shares more (or longer) n-grams with the references.",
        "B": "B shares more (or longer) n-grams with the references.",
        "SAME": "the two share equally many n-grams of each order with the references.",
    }
    wrong = {
        "A": "A shares fewer (or shorter) n-grams with the references: BLEU counts shared n-grams, not meaning.",
        "B": "B shares fewer (or shorter) n-grams with the references: BLEU counts shared n-grams, not meaning.",
        "SAME": "the two do not share the same n-grams with the references, so their scores differ: BLEU counts "
        "shared n-grams, not meaning.",
    }
    if right == "SAME":
        wrong["A"] = wrong["B"] = (
            "the two share equally many n-grams of each order with the references, so they "
            "score the same: BLEU counts shared n-grams, not meaning."
        )
    said = (
        _letters(feedback, "feedback")
        if feedback is not None
        else {k: (generic[k] if k == right else wrong[k]) for k in generic}
    )
    if set(said) != set(generic):
        raise ValueError('feedback must have a message for each of "A", "B" and "SAME".')
    return check_choice(
        answer,
        {"A": "A", "B": "B", "SAME": "the same"},
        right,
        {k: f"{v} {scores}" for k, v in said.items()},
        misconceptions,
    )
