"""A small built-in corpus for the reporting lesson: references and two systems.

Sixteen everyday English sentences written for this project, with two
made-up "translation systems": system A is mostly fluent, system B makes
more word-choice and word-order errors, and system C is system A with three
sentences worded differently (a small difference: lesson 06 shows what the
paired tests make of it, and why approximate randomization's p-value is
misleading on so few differing sentences).  Small enough to read in full,
large enough for corpus BLEU, a bootstrap confidence interval and a paired
test.  Text is raw (detokenized), as sacreBLEU expects.

:func:`wmt21_ted` adds real data: the WMT21 TED talks (zh-en, en-de) with
13 systems, human references and expert MQM error annotations (Freitag et
al., 2021), read from ``bleu_teach/lessons/wmt21/`` only when first asked for.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

__all__ = [
    "REFERENCES",
    "SECOND_REFERENCES",
    "SYSTEM_A",
    "SYSTEM_B",
    "SYSTEM_C",
    "references",
    "systems",
    "WMT21_PAIRS",
    "ErrorSpan",
    "Wmt21Ted",
    "wmt21_ted",
]

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
    from bleu_teach.inputs.validation import check_bool

    if check_bool(two, "two"):
        return [[first, second] for first, second in zip(REFERENCES, SECOND_REFERENCES)]
    return [[first] for first in REFERENCES]


def systems() -> dict[str, list[str]]:
    """The three systems' outputs by name, A first (the baseline in a paired test).

    >>> {name: len(hyps) for name, hyps in systems().items()}
    {'A': 16, 'B': 16, 'C': 16}
    """
    return {"A": list(SYSTEM_A), "B": list(SYSTEM_B), "C": list(SYSTEM_C)}


# --- A real data set: WMT21 TED talks with expert MQM annotations ------------------------------

#: The language pairs :func:`wmt21_ted` can load.
WMT21_PAIRS: tuple[str, ...] = ("zh-en", "en-de")


#: The severities the WMT21 MQM ratings use, and the sides an error span may be marked on.
SEVERITIES = ("Major", "Minor")
SIDES = ("target", "source", "none")


@dataclass(frozen=True)
class ErrorSpan:
    """One error an expert marked: who, what kind, how bad, and where.

    ``start`` and ``end`` are character offsets into the cleaned text named by
    ``side``: ``"target"`` (the translation, as in ``Wmt21Ted.translations``),
    ``"source"`` (omissions and source errors are marked in the source), or
    ``"none"`` (no span marked; ``start == end == 0``).  ``text`` is
    ``that_text[start:end]``; the offsets come from where the rater put the
    marks, so a span whose words occur twice is still the one marked.

    >>> span = ErrorSpan("rater1", "Fluency/Grammar", "Minor", 4, 7, "cat", "target")
    >>> "the cat sat"[span.start:span.end] == span.text
    True
    """

    rater: str
    category: str
    severity: str
    start: int
    end: int
    text: str
    side: str

    def __post_init__(self) -> None:
        for name in ("rater", "category", "severity", "text", "side"):
            if not isinstance(getattr(self, name), str):
                raise TypeError(f"ErrorSpan: {name} must be a string, not {getattr(self, name)!r}.")
        if self.severity not in SEVERITIES:
            raise ValueError(
                f"ErrorSpan: severity must be one of {', '.join(map(repr, SEVERITIES))} (as the WMT21 "
                f"MQM data spells them), not {self.severity!r}."
            )
        if self.side not in SIDES:
            raise ValueError(f"ErrorSpan: side must be one of {', '.join(map(repr, SIDES))}, not {self.side!r}.")
        for name in ("start", "end"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise TypeError(
                    f"ErrorSpan: {name} must be a character offset (a whole number, 0 or more), not {value!r}."
                )

    @property
    def weight(self) -> float:
        """The error points it costs in MQM: non-translation 25, major 5, minor 1, minor punctuation 0.1.

        A segment's MQM score is minus the sum of its errors' weights (Freitag et al., 2021).

        >>> ErrorSpan("rater1", "Fluency/Punctuation", "Minor", 0, 1, ",", "target").weight
        0.1
        """
        if self.category.startswith("Non-translation"):
            return 25.0
        if self.severity == "Major":
            return 5.0
        if self.severity == "Minor":
            return 0.1 if self.category == "Fluency/Punctuation" else 1.0
        return 0.0


@dataclass(frozen=True, repr=False)
class Wmt21Ted:
    """WMT21 TED talks with expert MQM judgements, one language pair (see :func:`wmt21_ted`).

    Every list is aligned with ``sources``: item ``i`` belongs to segment ``i``.

    - ``references``: the human translations, ``"ref-A"`` (and ``"ref-B"`` for zh-en).
      For zh-en, ref-A is the talk's original English (the very text of the
      en-de sources): the Chinese source was translated from it.
    - ``systems``: each machine translation system's output (references excluded).
    - ``mqm``: per system *or reference*, the segment's MQM score averaged over
      raters, or ``None`` where not rated.  Scores are negated error points:
      a major error costs 5, a minor one 1, a minor punctuation error 0.1 and
      a non-translation 25, so **0 means no error and higher is better**.
    - ``errors``: per system or reference, the :class:`ErrorSpan` tuple of each
      segment (empty when the rater found no error).
    - ``raters``: per system or reference, who rated each segment.
    - ``seg_ids``, ``documents``: the segment's number and talk in the release.
    """

    pair: str
    sources: list[str]
    references: dict[str, list[str]]
    systems: dict[str, list[str]]
    mqm: dict[str, list[float | None]]
    errors: dict[str, list[tuple[ErrorSpan, ...]]]
    raters: dict[str, list[tuple[str, ...]]]
    seg_ids: list[int]
    documents: list[str]
    source_commit: str

    def translations(self, name: str) -> list[str]:
        """The texts of a system or a reference, by name (the texts ``errors[name]`` indexes).

        >>> wmt21_ted("zh-en").translations("ref-B")[0][:32]
        'I hope you can take some time to'
        """
        if name in self.systems:
            return self.systems[name]
        if name in self.references:
            return self.references[name]
        raise ValueError(f"no system or reference {name!r} in {self.pair}; choose one of {', '.join(sorted(self.mqm))}")

    def __repr__(self) -> str:
        return (
            f"Wmt21Ted(pair={self.pair!r}, {len(self.sources)} segments, "
            f"references {', '.join(self.references)}, {len(self.systems)} systems: {', '.join(self.systems)})"
        )


def _wmt21_bytes(pair: str) -> bytes:
    """The pair's shipped file, ``bleu_teach/lessons/wmt21/<pair>.json.gz``, uncompressed."""
    shipped = files(__name__.rpartition(".")[0]).joinpath("wmt21").joinpath(f"{pair}.json.gz")
    return gzip.decompress(shipped.read_bytes())


@cache
def _load_wmt21(pair: str) -> Wmt21Ted:
    """The pair's file, read and parsed once; callers get copies (:func:`wmt21_ted`)."""
    raw: dict[str, Any] = json.loads(_wmt21_bytes(pair).decode("utf-8"))
    return Wmt21Ted(
        pair=raw["pair"],
        sources=raw["sources"],
        references=raw["references"],
        systems=raw["systems"],
        mqm=raw["mqm"],
        errors={
            name: [
                tuple(
                    ErrorSpan(rater, category, severity, start, end, text, side)
                    for rater, category, severity, side, start, end, text in segment
                )
                for segment in per_segment
            ]
            for name, per_segment in raw["errors"].items()
        },
        raters={name: [tuple(raters) for raters in per_segment] for name, per_segment in raw["raters"].items()},
        seg_ids=raw["seg_ids"],
        documents=raw["documents"],
        source_commit=raw["metadata"]["source_commit"],
    )


def wmt21_ted(pair: str = "zh-en") -> Wmt21Ted:
    """Real translations with expert error annotations: WMT21 TED talks, zh-en or en-de.

    529 segments of five TED talks, each translated by 13 machine translation
    systems and by professionals (zh-en: two references, ref-A and ref-B;
    en-de: ref-A), every translation, the references too, rated by an expert
    with MQM (Multidimensional Quality Metrics): each error marked, with a
    category and a severity.  Freitag, Foster, Grangier, Ratnakar, Tan and
    Macherey (2021), "Experts, Errors, and Context", TACL 9:1460-1474;
    Apache License 2.0 (``bleu_teach/lessons/wmt21/LICENSE``; what was changed:
    ``bleu_teach/lessons/wmt21/README.md``).

    MQM scores are negated error points (major 5, minor 1, minor punctuation
    0.1, non-translation 25): 0 means no error, higher is better.

    The file is read once per pair (cached); each call returns fresh lists,
    so changing them changes nothing for the next caller.

    >>> ted = wmt21_ted("zh-en")
    >>> len(ted.sources), len(ted.systems), sorted(ted.references)
    (529, 13, ['ref-A', 'ref-B'])
    >>> ted.mqm["ref-B"][0], ted.mqm["Borderline"][0]
    (-1.0, -20.0)
    >>> span = ted.errors["Borderline"][0][0]
    >>> span.severity, span.text
    ('Major', 'take a moment')
    """
    if not isinstance(pair, str):
        raise TypeError(f"pair must be a string, one of {', '.join(WMT21_PAIRS)}; got {type(pair).__name__}")
    if pair not in WMT21_PAIRS:
        raise ValueError(f"no WMT21 TED data for {pair!r}; choose one of {', '.join(WMT21_PAIRS)}")
    loaded = _load_wmt21(pair)
    return Wmt21Ted(
        pair=loaded.pair,
        sources=list(loaded.sources),
        references={name: list(texts) for name, texts in loaded.references.items()},
        systems={name: list(texts) for name, texts in loaded.systems.items()},
        mqm={name: list(scores) for name, scores in loaded.mqm.items()},
        errors={name: list(spans) for name, spans in loaded.errors.items()},
        raters={name: list(raters) for name, raters in loaded.raters.items()},
        seg_ids=list(loaded.seg_ids),
        documents=list(loaded.documents),
        source_commit=loaded.source_commit,
    )
