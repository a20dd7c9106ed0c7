"""When two variants are near-copies, whatever shows them (a paper sheet, a platform quiz, the classroom's
homework): they share one of their keys.

A question on sentences has a key for each reference sentence, within its exercise (another question of the same
exercise on one of them is the same counting: one student's working gives the other's away), and one for each
translation with its stutters said once, in any exercise (the same machine translation with "of of of" instead of
"of of" is the same question); every variant also has its substance, which
:func:`bleu_teach.exercises.variants.near_copy_keys` adds.

>>> unstuttered("it looks like an insect an insect an insect .")
'it looks like an insect .'
>>> sorted(sentence_keys("07.1", {"references": ["a b c"], "hypothesis": "a a b"}))
["('07.1', 'reference', 'a b c')", "('translation', 'a b')"]
"""

from __future__ import annotations

from typing import Any

__all__ = ["unstuttered", "sentence_keys", "apart"]


def unstuttered(hypothesis: str) -> str:
    """A translation with its stutters said once ("of of of" as "of", "an insect an insect" as "an insect")."""
    tokens = hypothesis.split()
    while found := next(
        (
            (k, n)
            for k in range(len(tokens))
            for n in (1, 2)
            if k + 2 * n <= len(tokens) and tokens[k : k + n] == tokens[k + n : k + 2 * n]
        ),
        None,
    ):
        k, n = found
        del tokens[k + n : k + 2 * n]  # the word (or pair) said again at once, once fewer
    return " ".join(tokens)


def sentence_keys(exercise_id: str, inputs: Any) -> frozenset[str]:
    """A sentence question's keys: each reference (of this exercise) and each translation without its stutters."""
    given = inputs.get("references")
    if given is None:
        return frozenset()
    flat = [r for group in given for r in ([group] if isinstance(group, str) else group)]
    hypotheses = [inputs["hypothesis"]] if "hypothesis" in inputs else list(inputs.get("hypotheses", ()))
    return frozenset(
        {repr((exercise_id, "reference", r)) for r in flat}
        | {repr(("translation", unstuttered(h))) for h in hypotheses}
    )


def apart(keys: frozenset[str], near: set[str], keep: bool) -> bool:
    """Whether a variant with these ``keys`` is no near-copy of what ``near`` holds the keys of; its keys are added
    to ``near`` if so and ``keep`` (variants that must be apart from each other too)."""
    if keys & near:
        return False
    if keep:
        near |= keys
    return True
