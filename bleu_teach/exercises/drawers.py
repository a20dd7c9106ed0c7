"""What a variant is drawn from: each numeric exercise's drawer, which writes new inputs and the question that asks
about them, from the WMT21 TED data the package ships (zh-en: the systems' translations, ref-A and ref-B, the
experts' error lists) or from new lengths.

A drawer keeps what its exercise teaches (a hypothesis that repeats words for a clipping question, a missing 4-gram
for a smoothed score, references of four different lengths for a brevity penalty); whether a drawn variant can tell
its mistakes apart is checked by :mod:`bleu_teach.exercises.variants`, which hands the variants out.
The drawer comes from the exercise's kind and its record (no table keyed by exercise id): :data:`DRAWN` makes,
for a kind, a drawer that draws afresh with a random stream; :data:`POOLED` one that lists every candidate (a
finite pool of real sentences).  A clipping question's drawer takes the order and the number of references of its
record (exercises 01.1, 02.1 and 07.1 share the kind); a smoothed sentence BLEU's takes the smoothing.
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Callable, Sequence
from functools import cache, lru_cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from bleu_teach.bleu.counting import closest_ref_length, order_statistics

if TYPE_CHECKING:
    from bleu_teach.exercises.bank import Exercise

__all__ = ["DRAWN", "POOLED", "gram_name", "Draw", "Pool", "Segment", "LONGEST_SENTENCE_BLEU"]

#: A drawer: inputs and the question that asks about them, from a random stream ({} when a draw is refused).
Draw = Callable[[random.Random], tuple[dict[str, Any], str]]
#: A pool: every candidate's inputs and question.
Pool = Callable[[], list[tuple[dict[str, Any], str]]]

# ---------------------------------------------------------------------------
# What variants are drawn from
# ---------------------------------------------------------------------------

Segment = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]  # hypothesis, ref-A, ref-B (13a tokens)


#: The segments :func:`_tokenized` reads, tokenized ahead (tokenizing them took most of the first practice
#: question's time in the browser): written by scripts/practice_segments.py, recomputed by a test.
SEGMENTS_FILE = "segments_13a.json.gz"


def tokenize_segments() -> dict[str, Any]:
    """Every text of zh-en the drawers use, tokenized by sacreBLEU's 13a and joined by spaces, laid out as the data
    is (``references`` ref-A and ref-B, ``systems`` by name: lists aligned with the sources)."""
    from bleu_teach.inputs.tokenizers import tokenize
    from bleu_teach.lessons.data import wmt21_ted

    ted = wmt21_ted("zh-en")
    done: dict[str, str] = {}  # many systems give the same translation: each text once

    def tokens(texts: list[str]) -> list[str]:
        for text in texts:
            if text not in done:
                done[text] = " ".join(tokenize(text, "13a"))
        return [done[text] for text in texts]

    return {
        "references": {name: tokens(ted.references[name]) for name in ("ref-A", "ref-B")},
        "systems": {name: tokens(texts) for name, texts in ted.systems.items()},
    }


@lru_cache(maxsize=1)
def _tokenized() -> tuple[Segment, ...]:
    """Every (system translation, ref-A, ref-B) of zh-en, tokenized (13a), in the data's order: read from
    :data:`SEGMENTS_FILE`."""
    shipped = files(__name__.rpartition(".")[0]).joinpath(SEGMENTS_FILE)
    laid: dict[str, Any] = json.loads(gzip.decompress(shipped.read_bytes()))
    refs_a, refs_b = (tuple(tuple(text.split()) for text in laid["references"][name]) for name in ("ref-A", "ref-B"))
    return tuple(
        (tuple(hyp.split()), a, b) for hyps in laid["systems"].values() for hyp, a, b in zip(hyps, refs_a, refs_b)
    )


@cache
def _segments(shortest: int, longest: int) -> tuple[Segment, ...]:
    """Every (system translation, ref-A, ref-B) of zh-en with all three from ``shortest`` to ``longest`` tokens."""
    return tuple(s for s in _tokenized() if all(shortest <= len(t) <= longest for t in s))


@cache
def _rated() -> tuple[tuple[str, int], ...]:
    """(system, segment) pairs of zh-en whose rater marked 2 to 4 errors."""
    from bleu_teach.lessons.data import wmt21_ted

    ted = wmt21_ted("zh-en")
    return tuple(
        (system, i)
        for system, lists in ted.errors.items()
        if system in ted.systems
        for i, errors in enumerate(lists)
        if errors is not None and 2 <= len(errors) <= 4
    )


def _text(tokens: Sequence[str]) -> str:
    return " ".join(tokens)


def _with_repeats(hyp: Sequence[str], refs: Sequence[Sequence[str]], n: int, rng: random.Random) -> list[str] | None:
    """``hyp`` with one or two extra copies of an n-gram it shares with a reference (so clipping matters)."""
    shared = [
        tuple(hyp[i : i + n])
        for i in range(len(hyp) - n + 1)
        if any(tuple(hyp[i : i + n]) == tuple(r[j : j + n]) for r in refs for j in range(len(r) - n + 1))
    ]
    if not shared:
        return None
    twice = [gram for gram in shared if max(_counts(r, n).get(gram, 0) for r in refs) >= 2]
    gram = rng.choice(twice or shared)  # one a reference holds twice: its clip is 2 (or more), not 1
    tokens = list(hyp)
    starts = [i for i in range(len(tokens) - n + 1) if tuple(tokens[i : i + n]) == gram]
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


_TOKENS_NOTE = (
    "Tokens are separated by spaces (punctuation marks are tokens too), and capital letters count "
    "(“The” and “the” are different tokens)."
)


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
        question = (
            f"Hypothesis: {_quoted(repeated)}; {_references_text(refs)}. {_TOKENS_NOTE} What is the "
            f"modified {gram_name(n)} precision?"
        )
        return {"references": [_text(r) for r in refs], "hypothesis": _text(repeated), "n": n}, question

    return draw


def _counts(tokens: Sequence[str], n: int) -> dict[tuple[str, ...], int]:
    found: dict[tuple[str, ...], int] = {}
    for i in range(len(tokens) - n + 1):
        found[tuple(tokens[i : i + n])] = found.get(tuple(tokens[i : i + n]), 0) + 1
    return found


@cache
def _repeatable(n: int, references: int) -> tuple[Segment, ...]:
    """The segments whose hypothesis shares an n-gram that one of the references holds twice or more: clipping
    to that count, not to 1, is then what the question tests (sentences up to 15 tokens, up
    to 25 for bigrams, which repeat less often)."""
    found = []
    for hyp, ref_a, ref_b in _segments(4, 15 if n == 1 else 25):
        grams = set(_counts(hyp, n))
        if any(
            count >= 2 and gram in grams
            for ref in (ref_a, ref_b)[:references]
            for gram, count in _counts(ref, n).items()
        ):
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
    question = (
        f"References of {lens[0]}, {lens[1]}, {lens[2]} and {lens[3]} tokens; a hypothesis of {hyp_len} "
        "tokens. What is BP?"
    )
    return {"reference_lengths": lens, "hypothesis_length": hyp_len}, question


def _sentence_bleu(references: int, smoothing: str | None) -> Callable[[], list[tuple[dict[str, Any], str]]]:
    """Every candidate of a sentence-BLEU question: a translation of 4 to :data:`LONGEST_SENTENCE_BLEU` tokens
    (its references too), as it is or with a word stuttered, that shares no 4-gram with its references (a zero
    4-gram precision is what the question is about) and is shorter than the closest reference, which is not the
    shortest (:func:`_penalised`), in the data's order."""

    def candidates() -> list[tuple[dict[str, Any], str]]:
        found = []
        for k, (hyp, ref_a, ref_b) in enumerate(_segments(4, LONGEST_SENTENCE_BLEU)):
            refs = [ref_a, ref_b][:references]
            if references == 2 and ref_a == ref_b:
                continue
            # The translation as it is, and with a word it shares with every reference stuttered (adding the
            # references' counts, a mistake, then clips differently from BLEU's largest count in one reference),
            # in a few ways.
            stuttered = (
                [_stutter_shared(hyp, refs, random.Random(f"sentence_bleu/{k}/{way}")) for way in range(_STUTTERS)]
                if references > 1
                else []
            )
            for tokens in dict.fromkeys(tuple(t) for t in (hyp, *stuttered) if t):
                if _shares(tokens, refs, 4) or len(tokens) > LONGEST_SENTENCE_BLEU or not _penalised(tokens, refs):
                    continue
                how = (
                    "with smoothing method 1 (ε = 0.1 added to a zero match count)"
                    if smoothing == "method1"
                    else "without smoothing"
                )
                question = (
                    f"What is NLTK's sentence BLEU-4 (weights 1/4 each) of {_quoted(tokens)} against "
                    f"{_references_text(refs)}, {how}? {_TOKENS_NOTE}"
                )
                inputs: dict[str, Any] = {"references": [_text(r) for r in refs], "hypothesis": _text(tokens)}
                if smoothing:
                    inputs["smoothing"] = smoothing
                found.append((inputs, question))
        return found

    return candidates


#: The longest sentence (in tokens) of a sentence-BLEU question, and how many stutters of one are tried.
LONGEST_SENTENCE_BLEU = 16
_STUTTERS = 4


def _penalised(hyp: Sequence[str], refs: Sequence[Sequence[str]]) -> bool:
    """Whether the brevity penalty bites (c < r) and, with several references, the closest is not the shortest:
    only then do forgetting BP and using the shortest reference give other answers than BLEU's."""
    lengths = [len(r) for r in refs]
    r = closest_ref_length(lengths, len(hyp))
    return len(hyp) < r and (len(lengths) == 1 or r != min(lengths))


def _stutter_shared(hyp: Sequence[str], refs: Sequence[Sequence[str]], rng: random.Random) -> list[str] | None:
    """``hyp`` with a word that every reference holds stuttered once more than any one reference holds it: clipped
    by the largest count in one reference, the repeat does not match; with the references' counts added, a
    mistake, it does."""
    shared = sorted({t for t in hyp if all(t in r for r in refs)}, key=list(hyp).index)
    if not shared:
        return None
    word = rng.choice(shared)
    tokens = list(hyp)
    extra = max(r.count(word) for r in refs) + 1 - tokens.count(word)
    if extra <= 0:
        return None  # the hypothesis already holds it more often than any one reference: as it is, it does
    at = rng.choice([i for i, t in enumerate(tokens) if t == word]) + 1  # "the cat sat on on the mat"
    tokens[at:at] = [word] * extra
    return tokens


def _shares(hyp: Sequence[str], refs: Sequence[Sequence[str]], n: int) -> bool:
    grams = {tuple(hyp[i : i + n]) for i in range(len(hyp) - n + 1)}
    return any(tuple(r[j : j + n]) in grams for r in refs for j in range(len(r) - n + 1))


def _corpus(rng: random.Random) -> tuple[dict[str, Any], str]:
    (hyp1, ref1, _), (hyp2, ref2, _) = rng.sample(_segments(3, 9), 2)
    question = (
        f"A corpus of two sentences: {_quoted(hyp1)} against the reference {_quoted(ref1)}, and "
        f"{_quoted(hyp2)} against {_quoted(ref2)}. {_TOKENS_NOTE} What is its corpus BLEU-1 (unigrams "
        "only, no smoothing)?"
    )
    return {
        "references": [[_text(ref1)], [_text(ref2)]],
        "hypotheses": [_text(hyp1), _text(hyp2)],
        "weights": [1.0],
    }, question


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


@cache
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
    question = (
        f"The expert who rated the machine translation system {system} on segment {segment} marked these "
        f"{len(errors)} errors. What is the translation's MQM score?"
    )
    return {"pair": "zh-en", "system": system, "segment": segment}, question


def _clipping(ex: Exercise) -> Draw:
    """The clipping drawer for a record: its order and number of references. Unigrams and bigrams only: the WMT21
    sentences that can be made to repeat a trigram are too few to give a class, or twenty practice questions,
    different ones."""
    n = int(ex.inputs["n"])
    if n not in (1, 2):
        raise ValueError(
            f"exercise {ex.id}: the clipping drawer draws questions with n = 1 or 2 (the WMT21 sentences give too "
            f"few for a class beyond bigrams), not n = {n}; ask n = 1 or 2, or write a drawer for it in "
            f"bleu_teach/exercises/drawers.py."
        )
    return _precision(n, len(ex.inputs["references"]))


def gram_name(n: int) -> str:
    """An n-gram's name in a question: unigram, bigram, trigram, then "4-gram", "5-gram", ...

    >>> [gram_name(n) for n in (1, 2, 3, 4, 9)]
    ['unigram', 'bigram', 'trigram', '4-gram', '9-gram']
    """
    return {1: "unigram", 2: "bigram", 3: "trigram"}.get(n, f"{n}-gram")


#: How each numeric kind's variants are drawn afresh, made from the exercise's record.
DRAWN: dict[str, Callable[[Exercise], Draw]] = {
    "modified_precision": lambda ex: _clipping(ex),
    "brevity_penalty": lambda ex: _brevity,
    "corpus_bleu": lambda ex: _corpus,
    "mqm_score": lambda ex: _mqm,
}
#: The kinds whose variants come from a finite pool (every real sentence that fits), handed out in a shuffled
#: order; past the pool's size, students share variants (the key says how many there are). A sentence-BLEU
#: variant has two references (real sentences with four that fit the question are too few).
POOLED: dict[str, Callable[[Exercise], Pool]] = {
    "bleu": lambda ex: _sentence_bleu(2, ex.inputs.get("smoothing")),
}
