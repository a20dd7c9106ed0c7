"""A small built-in corpus for the reporting lesson: references and two systems.

Sixteen everyday English sentences written for this project, with two
made-up "translation systems": system A is mostly fluent, system B makes
more word-choice and word-order errors, and system C is system A with three
sentences worded differently (a small difference: lesson 06 shows what the
paired tests make of it, and why approximate randomization's p-value is
misleading on so few differing sentences).  Small enough to read in full,
large enough for corpus BLEU, a bootstrap confidence interval and a paired
test.  Text is raw (detokenized), as sacreBLEU expects.
"""

from __future__ import annotations

__all__ = ["REFERENCES", "SECOND_REFERENCES", "SYSTEM_A", "SYSTEM_B", "SYSTEM_C", "references", "systems"]

REFERENCES: tuple[str, ...] = (
    "The train to Leeds leaves at half past nine.",
    "She isn't coming to the meeting tomorrow.",
    "Please close the window before you go out.",
    "The museum is closed on Mondays.",
    "We bought fresh bread at the market this morning.",
    "It's the best book I've read this year.",
    "The children were playing in the garden all afternoon.",
    "Could you tell me where the station is?",
    "The new bridge will open next spring.",
    "He forgot his keys at the office again.",
    "The soup needs a little more salt.",
    "Our flight was delayed by two hours because of the fog.",
    "The library lends books, films and music for free.",
    "My sister works as a nurse in a large hospital.",
    "The shop doesn't accept cash after six o'clock.",
    "They walked along the river until it got dark.",
)

SECOND_REFERENCES: tuple[str, ...] = (
    "The Leeds train departs at 9:30.",
    "She won't come to tomorrow's meeting.",
    "Please shut the window before going out.",
    "On Mondays the museum is closed.",
    "This morning we bought fresh bread at the market.",
    "It is the best book that I have read this year.",
    "The kids played in the garden the whole afternoon.",
    "Can you tell me where the station is?",
    "The new bridge opens next spring.",
    "Once again he left his keys at the office.",
    "The soup needs a bit more salt.",
    "Fog delayed our flight by two hours.",
    "The library lends books, films and music free of charge.",
    "My sister is a nurse at a big hospital.",
    "After six o'clock the shop does not take cash.",
    "They walked by the river until dark.",
)

SYSTEM_A: tuple[str, ...] = (
    "The train to Leeds leaves at half past nine.",
    "She is not coming to the meeting tomorrow.",
    "Please close the window before you leave.",
    "The Museum is closed on Monday.",
    "We bought fresh bread on the market this morning.",
    "It is the best book I read this year.",
    "The children played in the garden all afternoon.",
    "Can you tell me where the station is?",
    "The new bridge will open next spring.",
    "He forgot his keys in the office again.",
    "The soup needs a little more salt.",
    "Our flight was delayed two hours because of fog.",
    "The library lends books, films and music for free.",
    "My sister works as a nurse in a big hospital.",
    "The shop does not accept cash after six o'clock.",
    "They walked along the river until it was dark.",
)

SYSTEM_B: tuple[str, ...] = (
    "the train for Leeds goes at nine thirty.",
    "She comes not to the meeting tomorrow.",
    "Please close the window before you go out.",
    "The museum has closed Mondays.",
    "We have bought fresh bread in the market this morning.",
    "It's the best book which I have read in this year.",
    "The children were playing in the garden the whole afternoon.",
    "Could you say me where is the station?",
    "The new bridge opens the next spring.",
    "He has forgotten again his keys in the office.",
    "the soup needs little more salt.",
    "Our flight had two hours delay because of the fog.",
    "The library borrows books, films and music gratis.",
    "My sister works as nurse in a big hospital.",
    "The shop accepts no cash after six hours.",
    "They walked along the river until it became dark.",
)


SYSTEM_C: tuple[str, ...] = tuple(
    {
        2: "Please shut the window before you leave.",
        5: "It is the best book that I read this year.",
        11: "Our flight was two hours late because of fog.",
    }.get(i, sentence)
    for i, sentence in enumerate(SYSTEM_A)
)


def references(two: bool = False) -> list[list[str]]:
    """The references in NLTK orientation: ``refs[i]`` lists those of sentence ``i`` (one, or two).

    >>> refs = references(two=True)
    >>> len(refs), len(refs[0])
    (16, 2)
    """
    if two:
        return [[first, second] for first, second in zip(REFERENCES, SECOND_REFERENCES)]
    return [[first] for first in REFERENCES]


def systems() -> dict[str, list[str]]:
    """The three systems' outputs by name, A first (the baseline in a paired test).

    >>> {name: len(hyps) for name, hyps in systems().items()}
    {'A': 16, 'B': 16, 'C': 16}
    """
    return {"A": list(SYSTEM_A), "B": list(SYSTEM_B), "C": list(SYSTEM_C)}
