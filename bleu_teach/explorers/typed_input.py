"""The full explorer's input, read the way a learner types it: text and settings in, a report out.

Two explorers show the step-by-step report: the notebook widget
(:class:`bleu_teach.ui.widgets.BleuExplorer`) and the static website's live
explorer, which runs this package in the browser on Pyodide.  Both pass
what the learner typed to :func:`explain_text`, so the same text and
settings give the same report and the same score, and bad input gets the
same message.

* :func:`text_tokens`: a text box's text as tokens; an empty box is an error
  that names the box.
* :func:`parse_weights`: the *Weights* box ("0.5, 0.3, 0.2", or empty for
  uniform weights) as a tuple with one weight per order up to *Max n*.
* :func:`explain_text`: both, then :func:`bleu_teach.explain.explain`.

Standard library only (the website runs it without NumPy or NLTK).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction
from numbers import Integral

from bleu_teach.bleu.explain import explain
from bleu_teach.bleu.reports import BleuReport
from bleu_teach.inputs.tokenizers import tokenize
from bleu_teach.inputs.validation import preview, whole_number_text

__all__ = ["MAX_REFERENCES", "MAX_ORDER", "MAX_TEXT", "text_tokens", "parse_weights", "explain_text"]

#: The explorers take 1 to 8 references.
MAX_REFERENCES = 8
#: The highest n-gram order the explorers offer (Max n).
MAX_ORDER = 6
#: The longest text one box takes (a long paragraph many times over): every keystroke scores it again, so a pasted
#: book would make each keystroke wait.  Longer texts are for the command line.
MAX_TEXT = 50_000


def text_tokens(text: str, what: str, tokenizer: str = "whitespace", lowercase: bool = False) -> list[str]:
    """The tokens of one text box; an empty box raises ``ValueError`` naming it (``what``).

    >>> text_tokens("The cat sat.", "hypothesis", "13a", lowercase=True)
    ['the', 'cat', 'sat', '.']
    >>> text_tokens("   ", "reference 2")
    Traceback (most recent call last):
    ...
    ValueError: Reference 2 is empty: type a sentence into it.
    """
    # "the hypothesis", but "reference 2" (a numbered box is named without an article)
    named = f"{what[:1].upper()}{what[1:]}" if what[-1:].isdigit() else f"The {what}"
    if not isinstance(text, str):
        raise TypeError(f"{named} must be text (a string), not {type(text).__name__}.")
    if len(text) > MAX_TEXT:
        raise ValueError(
            f"{named} is {len(text):,} characters long, and a box takes up to {MAX_TEXT:,}: shorten "
            f"it (for long texts use the command line: python -m bleu_teach corpus)."
        )
    try:
        tokens = tokenize(text, tokenizer, lowercase=lowercase)
    except ImportError:  # the website carries no NLTK, and sacreBLEU's tokenizers that need more than Python
        raise ValueError(
            f"The {tokenizer} tokenizer needs a package that is not installed here; choose another tokenizer."
        ) from None
    if not tokens:
        raise ValueError(f"{named} is empty: type a sentence into it.")
    return tokens


#: A typed weight: a decimal (with an exponent of at most two digits) or a fraction of whole numbers.
_WEIGHT = re.compile(r"[+-]?(?:\d{1,30}(?:\.\d{0,30})?|\.\d{1,30})(?:[eE][+-]?\d{1,2})?(?:/\d{1,30})?")


def _weight(part: str) -> float:
    """One typed weight as a float, read in bounded time (``1e20000000`` is refused before any arithmetic)."""
    if not _WEIGHT.fullmatch(part):
        if re.fullmatch(r"[+-]?[\d.]+[eE][+-]?\d+", part[:1000]):
            raise ValueError(
                f"Each weight lies between 0 and 1, written with at most a two-digit exponent; "
                f"{part[:30]!r} is not: type a weight such as 0.25, 1/4 or 2.5e-1."
            )
        raise ValueError(part)
    return float(Fraction(part))


def parse_weights(text: str, max_n: int) -> tuple[float, ...]:
    """The Weights box as one weight per order: empty (or "uniform") means 1/max_n each.

    Numbers (decimals or fractions such as 1/3) are separated by commas,
    semicolons or spaces.  Whether they are valid BLEU weights (not
    negative, summing to 1) is checked by :func:`bleu_teach.explain.explain`,
    with its own message.

    >>> parse_weights("", 4)
    (0.25, 0.25, 0.25, 0.25)
    >>> parse_weights("0.7; 0.3", 2)
    (0.7, 0.3)
    >>> parse_weights("1/2 1/4, 1/4", 3)
    (0.5, 0.25, 0.25)
    """
    max_n = _order(max_n)
    if not isinstance(text, str):
        raise TypeError(f"The weights must be text such as '0.5, 0.5', not {type(text).__name__}.")
    text = text.strip()
    if not text or text.lower() == "uniform":
        return (1 / max_n,) * max_n
    try:
        values = tuple(_weight(part) for part in re.split(r"[,;\s]+", text) if part)
    except (ValueError, ZeroDivisionError) as problem:
        if str(problem).startswith("Each weight"):  # a number written with a huge exponent: said as it is
            raise ValueError(str(problem)) from None
        raise ValueError(
            f"Weights must be numbers or fractions separated by commas, e.g. 0.5, 0.5 or 1/2, 1/2 (got {text[:60]!r})."
        ) from None
    if len(values) != max_n:
        raise ValueError(
            f"Give {max_n} weights for Max n = {max_n} (got {len(values)}), or leave the box empty for uniform."
        )
    return values


def _order(max_n: object) -> int:
    if isinstance(max_n, bool) or not isinstance(max_n, Integral):
        raise TypeError(f"Max n must be a whole number from 1 to {MAX_ORDER}, not {preview(max_n)}.")
    if not 1 <= int(max_n) <= MAX_ORDER:
        raise ValueError(f"Max n must be a whole number from 1 to {MAX_ORDER} (got {whole_number_text(int(max_n))}).")
    return int(max_n)


def explain_text(
    hypothesis: str,
    references: Sequence[str],
    tokenizer: str = "whitespace",
    lowercase: bool = False,
    max_n: int = 4,
    weights: str = "",
    smoothing: str = "method0",
) -> BleuReport:
    """Sentence BLEU of typed text, every step kept: tokenize, read the weights, :func:`explain`.

    ``references`` holds 1 to :data:`MAX_REFERENCES` texts; ``weights`` is
    the Weights box's text (see :func:`parse_weights`); ``smoothing`` a
    method name such as "method1".  Bad input raises ``TypeError`` or
    ``ValueError`` with a message for the learner.

    >>> report = explain_text("the cat sat on the mat", ["the cat is on the mat"], max_n=2)
    >>> report.score == explain([["the", "cat", "is", "on", "the", "mat"]],
    ...                         ["the", "cat", "sat", "on", "the", "mat"], weights=(0.5, 0.5)).score
    True
    """
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise TypeError("The references must be a list of texts, one per reference.")
    if not 1 <= len(references) <= MAX_REFERENCES:
        raise ValueError(f"Give 1 to {MAX_REFERENCES} references (got {len(references)}).")
    if not isinstance(lowercase, bool):
        raise TypeError(f"Lowercase must be True or False, not {lowercase!r}.")
    hyp = text_tokens(hypothesis, "hypothesis", tokenizer, lowercase)
    refs = [text_tokens(text, f"reference {i}", tokenizer, lowercase) for i, text in enumerate(references, start=1)]
    weight = parse_weights(weights, max_n)
    return explain(refs, hyp, weights=weight, smoothing=smoothing)
