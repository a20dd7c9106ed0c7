"""The widgets' constructor arguments, checked before any control is built.

Each check raises a ``TypeError`` (wrong kind of value) or ``ValueError``
(out of range) whose message starts with the widget's name and says what
to pass: never a traitlets error, never a silent clamp.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from numbers import Integral
from typing import Any

from bleu_teach.bleu.smoothing import SMOOTHING_METHODS, get_smoothing
from bleu_teach.explorers.typed_input import MAX_ORDER, MAX_REFERENCES, parse_weights
from bleu_teach.inputs.tokenizers import TOKENIZERS
from bleu_teach.inputs.validation import check_bool, check_order, check_weight_tuple, preview, whole_number_text
from bleu_teach.lessons.metric_tables import METRICS as AGREEMENT_METRICS

__all__ = [
    "prefixed",
    "flag",
    "whole",
    "text",
    "texts",
    "tokenizer_name",
    "smoothing_name",
    "one_of",
    "checked_settings",
    "weights_text",
]


def prefixed(owner: str, check: Callable[..., Any], *args: Any) -> Any:
    """``check(*args)``, its TypeError or ValueError message prefixed with the widget's name."""
    try:
        return check(*args)
    except TypeError as problem:
        raise TypeError(f"{owner}: {problem}") from None
    except ValueError as problem:
        raise ValueError(f"{owner}: {problem}") from None


def flag(value: Any, owner: str, name: str) -> bool:
    """A yes/no argument: exactly True or False."""
    result: bool = prefixed(owner, check_bool, value, name)
    return result


def whole(value: Any, owner: str, name: str, high: int, limit: str) -> int:
    """A whole number (numpy integers too) from 1 to ``high``; ``limit`` says where the upper limit comes from."""
    try:
        number = check_order(value, name)
    except TypeError as problem:
        raise TypeError(f"{owner}: {problem}") from None
    except ValueError:  # below 1: said with the whole range below
        number = int(value)
    if not 1 <= number <= high:
        raise ValueError(
            f"{owner}: {name} must be a whole number from 1 to {high} ({limit}); got {whole_number_text(number)}."
        )
    return number


def text(value: Any, owner: str, name: str) -> str:
    """The starting text of a text box (may be empty: the widget then asks for a sentence)."""
    if not isinstance(value, str):
        raise TypeError(
            f"{owner}: {name} must be text (a string) such as 'the cat sat on the mat', not {preview(value)}."
        )
    return value


def texts(
    value: Any, owner: str, name: str, max_count: int = MAX_REFERENCES, limit: str = "MAX_REFERENCES"
) -> list[str]:
    """The reference boxes' starting texts: a list of 1 to ``max_count`` (``limit``) strings, one per reference."""
    example = "['the cat is on the mat', 'there is a cat on the mat']"
    if value is None:
        raise TypeError(f"{owner}: {name} is None; pass a list of strings, one per reference, such as {example}.")
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"{owner}: {name} is a single string ({preview(value)}); pass a list of strings, one per "
            f"reference: [{preview(value)}] for one reference, or {example} for two."
        )
    if isinstance(value, (Mapping, Set)) or not isinstance(value, Iterable):
        raise TypeError(
            f"{owner}: {name} must be a list of strings, one per reference, such as {example}; "
            f"not {type(value).__name__}."
        )
    texts = list(value)
    for index, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(
                f"{owner}: {name}[{index}] must be text (a string), not {preview(text)}; pass a list of "
                f"strings, one per reference, such as {example}."
            )
    if not texts:
        raise ValueError(
            f"{owner}: {name} is empty; pass 1 to {max_count} reference texts, such as {example} "
            f"(or [''] for one empty box)."
        )
    if len(texts) > max_count:
        raise ValueError(
            f"{owner}: {name} holds {len(texts)} texts, but there are at most {max_count} reference "
            f"boxes ({limit}); pass 1 to {max_count} references."
        )
    return texts


def tokenizer_name(value: Any, owner: str) -> str:
    """A tokenizer name from :data:`TOKENIZERS` (any case, spaces around ignored)."""
    if not isinstance(value, str):
        raise TypeError(
            f"{owner}: tokenizer must be a tokenizer name such as 'whitespace' or '13a', not {preview(value)}."
        )
    key = value.strip().lower()
    if not isinstance(key, str) or key not in TOKENIZERS:
        raise ValueError(f"{owner}: unknown tokenizer {preview(value)}; choose one of {', '.join(TOKENIZERS)}.")
    return key


def smoothing_name(value: Any, owner: str) -> str:
    """A smoothing method's name ("method0" to "method7") from any name the package accepts.

    "method1", "1" and 1 (a numpy integer too) all mean method 1, in any
    case; None means no smoothing (method0), as everywhere in the package.
    """
    choices = f"choose one of {', '.join(SMOOTHING_METHODS)}, or just the number (0 to {len(SMOOTHING_METHODS) - 1})"
    if value is None:
        return "method0"
    if isinstance(value, Integral) and not isinstance(value, bool):
        key = str(int(value))
    elif isinstance(value, str):
        key = value.strip().lower()
    else:
        why = (
            "; the Smoothing menu lists the methods by name, so pass the method's name, not a function"
            if callable(value)
            else ""
        )
        raise TypeError(
            f"{owner}: smoothing must be a method name such as 'method1' (or just 1), not {preview(value)}{why}."
        )
    try:
        name = str(get_smoothing(key).__name__)
    except ValueError:
        raise ValueError(f"{owner}: unknown smoothing method {preview(value)}; {choices}.") from None
    return name


def one_of(value: Any, owner: str, name: str, choices: Sequence[str]) -> str:
    """``value`` as one of ``choices``, matched without regard to case (or spaces around); a clear error otherwise."""
    listed = ", ".join(map(repr, choices))
    if not isinstance(value, str):
        raise TypeError(f"{owner}: {name} must be a string, one of {listed}; not {preview(value)}.")
    if value in choices:
        return value
    matches = [choice for choice in choices if choice.lower() == value.strip().lower()]
    if len(matches) == 1:
        return matches[0]
    hint = ""
    if name == "metric" and value.strip().lower() in {m.lower() for m in AGREEMENT_METRICS}:
        hint = (
            f" (segment_level scores {', '.join(choices)} sentence by sentence; {value.strip()} is compared "
            f"with the experts only per system, by system_level)"
        )
    raise ValueError(f"{owner}: {name}={preview(value)} is not offered; choose one of {listed}{hint}.")


def weights_text(value: Any, owner: str) -> str:
    """The Weights box's text: '' for uniform weights, or numbers or fractions separated by commas, semicolons or
    spaces."""
    if not isinstance(value, str):
        raise TypeError(
            f"{owner}: weights is the Weights box's text: '' for uniform weights, or numbers separated "
            f"by commas such as '0.5, 0.5'; not {preview(value)}."
        )
    return value


def checked_settings(
    owner: str, tokenizer: Any, lowercase: Any, max_n: Any, weights: Any, smoothing: Any
) -> tuple[str, bool, int, str, str]:
    """The scoring settings, checked: (tokenizer, lowercase, max_n, weights, smoothing)."""
    tokenizer = tokenizer_name(tokenizer, owner)
    lowercase = flag(lowercase, owner, "lowercase")
    max_n = whole(max_n, owner, "max_n", MAX_ORDER, "the Max n slider's range")
    weights = weights_text(weights, owner)
    try:
        check_weight_tuple(parse_weights(weights, max_n), "weights")
    except ValueError as problem:
        raise ValueError(f"{owner}: weights={weights!r}: {problem}") from None
    return tokenizer, lowercase, max_n, weights, smoothing_name(smoothing, owner)
