"""How the references of a corpus of raw strings are laid out, checked before anything is scored.

ORIENTATION: two ways to lay out the references of a corpus.

* ``orientation="per_hypothesis"`` (bleu_teach's and NLTK's way):
  ``references[i]`` is the list of reference strings of ``hypotheses[i]``::

      corpus_score(["hyp 1", "hyp 2"], [["ref 1a", "ref 1b"], ["ref 2a"]])

* ``orientation="streams"`` (sacreBLEU's way): ``references[k][i]`` is
  reference ``k`` of ``hypotheses[i]``; one "stream" per reference set, each
  holding one string per hypothesis (``None`` where a hypothesis has no k-th
  reference)::

      corpus_score(["hyp 1", "hyp 2"], [["ref 1a", "ref 2a"], ["ref 1b", None]],
                   orientation="streams")

With the default ``orientation=None`` references are read per hypothesis,
and nothing is guessed silently: a corpus of N >= 2 hypotheses with N lists
of N strings each (say 3 hypotheses with 3 references each) reads both ways,
with different scores, so it raises a ValueError that asks for
``orientation=``; data that only fits sacreBLEU's orientation raises a
ValueError that names ``orientation="streams"``.  A corpus of one hypothesis
with one reference is the same both ways.  :func:`to_sacrebleu_references`
turns per-hypothesis lists into streams.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["ORIENTATIONS", "check_inputs", "to_sacrebleu_references"]

#: The two layouts of a corpus's references (see the module docstring).
ORIENTATIONS = ("per_hypothesis", "streams")


def to_sacrebleu_references(references: Sequence[Sequence[str | None]]) -> list[list[str | None]]:
    """Transpose per-hypothesis reference lists into sacreBLEU's streams.

    Hypotheses with fewer references get ``None`` (sacreBLEU skips it).

    >>> to_sacrebleu_references([["a", "b"], ["c"]])
    [['a', 'c'], ['b', None]]
    """
    if not _is_list(references) or not all(_is_list(refs) for refs in references):
        raise TypeError(
            "references must be a list with one list of reference strings per hypothesis, "
            "e.g. [['the cat sat'], ['a dog ran', 'the dog ran']], not "
            f"{type(references).__name__ if not _is_list(references) else 'a list holding a string'}."
        )
    for i, refs in enumerate(references):
        for k, ref in enumerate(refs):
            if ref is not None and not isinstance(ref, str):
                raise TypeError(f"references[{i}][{k}] must be a string (or None), not {type(ref).__name__}.")
    width = max((len(r) for r in references), default=0)
    return [[refs[k] if k < len(refs) else None for refs in references] for k in range(width)]


# ---------------------------------------------------------------------------
# Checking inputs
# ---------------------------------------------------------------------------


def _is_list(x: Any) -> bool:
    return isinstance(x, Sequence) and not isinstance(x, str)


def _ambiguous_message(n: int) -> str:
    return (
        f"The references can be read two ways: there are {n} hypotheses and {n} lists of {n} strings each. "
        f"Pass orientation='per_hypothesis' if references[i] lists the references of hypotheses[i] "
        f"(bleu_teach's and NLTK's way), or orientation='streams' if references[k][i] is reference k of "
        f"hypotheses[i] (sacreBLEU's way, one stream per reference set)."
    )


def _check_hypotheses(hypotheses: Any) -> int:
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise TypeError("hypotheses must be a list of strings, one per segment.")
    for i, h in enumerate(hypotheses):
        if not isinstance(h, str):
            raise TypeError(f"hypotheses[{i}] must be a string (raw text), not {type(h).__name__}.")
    if not hypotheses:
        raise ValueError("hypotheses is empty; give at least one segment.")
    return len(hypotheses)


def _per_hypothesis(n: int, references: Sequence[Any]) -> list[list[str | None]]:
    if len(references) != n:
        hint = ""
        if all(_is_list(r) and len(r) == n for r in references):
            hint = (
                " It looks like sacreBLEU's orientation (one stream per reference set, references[k][i] "
                "is reference k of hypotheses[i]): pass orientation='streams', or give one list of "
                "references per hypothesis, e.g. [list(refs) for refs in zip(*streams)]."
            )
        raise ValueError(
            f"There are {n} hypotheses but {len(references)} reference lists; "
            f"give one list of reference strings per hypothesis.{hint}"
        )
    out = []
    for i, refs in enumerate(references):
        if type(refs) is not list and type(refs) is not tuple:  # (the usual two skip the slower checks)
            if isinstance(refs, str):
                raise TypeError(
                    f"references[{i}] is a string; wrap it in a list: [[ref] for ref in refs] "
                    f"gives one reference per hypothesis."
                )
            if not isinstance(refs, Sequence):
                raise TypeError(f"references[{i}] must be a list of reference strings.")
        for j, r in enumerate(refs):
            if r is not None and not isinstance(r, str):
                raise TypeError(f"references[{i}][{j}] must be a string (raw text), not {type(r).__name__}.")
        if all(r is None for r in refs):
            raise ValueError(f"references[{i}] has no reference; every hypothesis needs at least one.")
        out.append(list(refs))
    return out


def _from_streams(n: int, streams: Sequence[Any]) -> list[list[str | None]]:
    for k, stream in enumerate(streams):
        if isinstance(stream, str):
            raise TypeError(
                f"With orientation='streams', references[{k}] must be a stream (a list of {n} reference "
                f"strings, one per hypothesis), not a string; for one reference per hypothesis pass [refs]."
            )
        if not isinstance(stream, Sequence):
            raise TypeError(f"With orientation='streams', references[{k}] must be a list of {n} reference strings.")
        if len(stream) != n:
            raise ValueError(
                f"With orientation='streams', every stream holds one reference per hypothesis, but "
                f"references[{k}] has {len(stream)} strings for {n} hypotheses (use None where a "
                f"hypothesis has no k-th reference; sacreBLEU itself would silently cut the corpus short)."
            )
        for i, r in enumerate(stream):
            if r is not None and not isinstance(r, str):
                raise TypeError(f"references[{k}][{i}] must be a string (raw text) or None, not {type(r).__name__}.")
    per_hyp = [[stream[i] for stream in streams] for i in range(n)]
    for i, refs in enumerate(per_hyp):
        if all(r is None for r in refs):
            raise ValueError(f"hypotheses[{i}] has no reference in any stream (all None); every hypothesis needs one.")
    return per_hyp


def check_inputs(hypotheses: Any, references: Any, orientation: str | None = None) -> list[list[str | None]]:
    """Check a corpus of raw strings and return its references per hypothesis.

    ``orientation`` is ``"per_hypothesis"``, ``"streams"`` or None (read per
    hypothesis, refusing shapes that read both ways; see the module
    docstring).  The result always holds one list per hypothesis, in the
    order given; ``None`` entries (sacreBLEU's "no reference here") are kept.

    >>> check_inputs(["a", "b"], [["a 1", "b 1"], ["a 2", None]], orientation="streams")
    [['a 1', 'a 2'], ['b 1', None]]
    """
    n = _check_hypotheses(hypotheses)
    if orientation is not None and orientation not in ORIENTATIONS:
        raise ValueError(
            f"orientation must be 'per_hypothesis' (references[i] lists the references of hypotheses[i]), "
            f"'streams' (references[k][i] is reference k of hypotheses[i], sacreBLEU's way) or None; "
            f"not {orientation!r}."
        )
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError(
            "references must be a list with one list of reference strings per hypothesis "
            "(or, with orientation='streams', a list of reference streams)."
        )
    if not references:
        raise ValueError("references is empty; every hypothesis needs at least one reference.")
    if orientation is None:
        if n >= 2 and len(references) == n and all(_is_list(r) and len(r) == n for r in references):
            raise ValueError(_ambiguous_message(n))
        orientation = "per_hypothesis"
    if orientation == "streams":
        return _from_streams(n, references)
    return _per_hypothesis(n, references)
