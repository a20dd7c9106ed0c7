"""Input checks shared by every public function (package-internal, used by every layer).

NLTK accepts some inputs silently and computes the wrong thing (a string
where a list of tokens was expected is scored character by character), and
crashes with an unhelpful error on others (an empty list of references
raises ``KeyError``).  The helpers here turn each of those into a
``TypeError`` or ``ValueError`` whose message tells the learner what to do.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Iterable, Mapping, Sequence, Set
from numbers import Integral, Real
from typing import Any

Tokens = tuple[Hashable, ...]

#: The weights NLTK uses by default (BLEU-4 with uniform weights).
DEFAULT_WEIGHTS: tuple[float, float, float, float] = (0.25, 0.25, 0.25, 0.25)


def _array_to_tuples(value: Any, what: str) -> Any:
    """A numpy array of weights as NLTK reads it: 1-D -> one tuple, 2-D -> a list of tuples.

    The elements stay numpy numbers, so that the arithmetic (and the score)
    is exactly NLTK's.  numpy itself is never imported here.
    """
    ndim = getattr(value, "ndim", None)
    if not isinstance(ndim, int) or not hasattr(value, "tolist") or isinstance(value, (str, bytes)):
        return value
    if ndim == 1:
        return tuple(value)
    if ndim == 2:
        return [tuple(row) for row in value]
    raise ValueError(
        f"{what} is an array with {ndim} dimension(s); give one row of weights such as "
        f"(0.25, 0.25, 0.25, 0.25), or a list of such rows."
    )


def _split_example(what: str) -> str:
    """How to split ``what``: one string, or one string per sentence (``hypotheses[0]``)."""
    base = what.split("[")[0]
    return f"[s.split() for s in {base}]" if "[" in what else f"{base}.split()"


def preview(value: object, limit: int = 40) -> str:
    """A value as a message quotes it: its repr, shortened past ``limit`` characters.

    A whole number (or a fraction of them) too long to print is said by its digits:

    >>> preview(10**5000), preview("x" * 100)
    ('a number of 5001 digits', "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...")
    """
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit]  # repr of the part shown only: a pasted megabyte is not copied
    if isinstance(value, Integral) and not isinstance(value, bool) and abs(int(value)) > 10**40:
        return whole_number_text(int(value))
    numerator, denominator = getattr(value, "numerator", 0), getattr(value, "denominator", 1)
    if isinstance(numerator, int) and isinstance(denominator, int) and max(abs(numerator), denominator) > 10**40:
        return f"a fraction of {whole_number_text(numerator)} over {whole_number_text(denominator)}"
    try:
        text = repr(value)
    except ValueError:  # a type of its own whose repr is refused
        text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_tokens(value: Any, what: str) -> Tokens:
    """Return ``value`` as a tuple of hashable tokens, or raise a clear error."""
    if type(value) is list or type(value) is tuple:  # the common case, without the ABC checks below
        tokens = tuple(value)
        try:
            hash(tokens)
            return tokens
        except TypeError:
            pass
    if value is None:
        raise TypeError(f"{what} is None; pass a list of tokens such as 'the cat sat'.split().")
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"{what} is a string ({preview(value)}), but BLEU needs a list of "
            f"tokens. Split it first, for example "
            f"{_split_example(what)} or bleu_teach.tokenize(text)."
        )
    if not isinstance(value, Sequence) or isinstance(value, Mapping):
        raise TypeError(f"{what} must be a list (or tuple) of tokens, not {type(value).__name__}.")
    tokens = tuple(value)
    try:
        hash(tokens)  # fast path: every token hashable
        return tokens
    except TypeError:
        pass
    for position, token in enumerate(tokens):
        if not isinstance(token, Hashable):
            hint = (
                " It looks like a list of sentences: pass one sentence's tokens."
                if isinstance(token, (list, tuple))
                else ""
            )
            raise TypeError(
                f"{what}[{position}] is a {type(token).__name__}, which cannot be "
                f"a token (tokens must be hashable, such as strings or "
                f"integers).{hint}"
            )
    return tokens


def check_references(value: Any, what: str = "references") -> tuple[Tokens, ...]:
    """Return a tuple of references (each a tuple of tokens), or raise."""
    if type(value) is list or type(value) is tuple:  # the common case: lists of token lists, checked in one go
        fast = tuple([tuple(ref) for ref in value if type(ref) is list or type(ref) is tuple])
        if fast and len(fast) == len(value):
            try:
                hash(fast)
                return fast
            except TypeError:
                pass
    if value is None:
        raise TypeError(
            f"{what} is None; pass a list of references, each a list of tokens, for example [['the', 'cat', 'sat']]."
        )
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"{what} is a string ({preview(value)}), but BLEU needs a list of "
            f"references, each a list of tokens. For one reference write "
            f"[text.split()]."
        )
    if isinstance(value, (Mapping, Set)) or not isinstance(value, Iterable):
        raise TypeError(f"{what} must be a list of references (each a list of tokens), not {type(value).__name__}.")
    refs = list(value)
    if not refs:
        raise ValueError(
            f"{what} is empty; BLEU needs at least one reference translation to compare the hypothesis with."
        )
    checked = []
    for index, ref in enumerate(refs):
        if isinstance(ref, (str, bytes)):
            raise TypeError(
                f"{what}[{index}] is a string ({preview(ref)}), but each "
                f"reference must be a list of tokens. If you passed one "
                f"reference's tokens directly, wrap them in a list: "
                f"[reference_tokens]; if you passed sentences, split each one."
            )
        checked.append(check_tokens(ref, f"{what}[{index}]"))
    return tuple(checked)


#: The most n-gram orders any function or command of the package takes, the one limit on orders: each order is
#: counted, combined and kept (1,000 orders answer in milliseconds); more has no use in teaching BLEU (4 is the
#: standard, and every order past a sentence's length is a 0/1 that the views summarise).
MAX_ORDERS = 1_000


def whole_number_text(n: int) -> str:
    """A whole number as an error message shows it: ``1,001``, or a huge one by its digits (never 400 of them).

    >>> whole_number_text(1001), whole_number_text(10**400), whole_number_text(-(10**9999))
    ('1,001', 'a number of 401 digits', 'a negative number of 10000 digits')
    """
    if abs(n) <= 10**12:
        return f"{n:,}"
    # str() of a huge int is slow or refused
    return f"a {'negative ' if n < 0 else ''}number of {math.floor(math.log10(abs(n))) + 1} digits"


def order_cap_message(n: int) -> str:
    """What an order over :data:`MAX_ORDERS` is told (without the argument's name); a huge one by its digits."""
    return f"must be at most {MAX_ORDERS:,} (4 = BLEU-4), got {whole_number_text(n)}"


def check_order(n: Any, what: str = "n", meaning: str = "1 = unigrams, 2 = bigrams, ...") -> int:
    """One n-gram order: a whole number of at least 1 (its cost is bounded by the counting, as NLTK takes any)."""
    if isinstance(n, bool) or not isinstance(n, Integral):
        raise TypeError(f"{what} must be a whole number such as 1 or 4, not {n!r}.")
    order = int(n)
    if order < 1:
        raise ValueError(f"{what} must be at least 1 ({meaning}); got {whole_number_text(order)}.")
    return order


def check_orders(max_n: Any, what: str = "max_n", meaning: str = "4 = BLEU-4") -> int:
    """How many orders to count, 1 to ``max_n``: a whole number from 1 to :data:`MAX_ORDERS`, the one limit."""
    order = check_order(max_n, what, meaning)
    if order > MAX_ORDERS:
        raise ValueError(f"{what} {order_cap_message(order)}.")
    return order


def check_length(value: Any, what: str) -> int:
    """A length: a whole number that is not negative."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{what} must be a whole number of tokens, not {value!r}.")
    if value < 0:
        raise ValueError(f"{what} is a number of tokens and cannot be negative; got {value}.")
    return int(value)


def _finite(value: Any) -> bool:
    """Whether a real number is finite and fits a float (10**400 does not)."""
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def check_weight_tuple(weight: Any, what: str = "weights") -> tuple[float, ...]:
    """One tuple of n-gram weights.

    Decision: weights must be non-empty, finite, not negative, and sum to 1
    (within 1e-6).  NLTK accepts any numbers; a sum other than 1 no longer
    gives a geometric mean, so the score silently changes scale.  A 1-D
    numpy array is accepted, as NLTK accepts it.
    """
    weight = _array_to_tuples(weight, what)
    if isinstance(weight, (str, bytes)) or not isinstance(weight, Sequence):
        raise TypeError(f"{what} must be a tuple of numbers such as (0.25, 0.25, 0.25, 0.25), not {preview(weight)}.")
    if len(weight) == 0:
        raise ValueError(f"{what} is empty; give one weight per n-gram order, for example (0.5, 0.5) for BLEU-2.")
    for index, w in enumerate(weight):
        if isinstance(w, bool) or not isinstance(w, Real):
            raise TypeError(f"{what}[{index}] must be a number, not {preview(w)}.")
        if not _finite(w):
            raise ValueError(f"{what}[{index}] is {w}; every weight must be a finite number.")
        if w < 0:
            raise ValueError(f"{what}[{index}] is {w}; weights cannot be negative.")
    total = math.fsum(float(w) for w in weight)
    if not math.isclose(total, 1.0, rel_tol=0.0, abs_tol=1e-6):
        k = len(weight)
        raise ValueError(
            f"{what} {tuple(weight)} sum to {total:g}, but BLEU's weighted "
            f"geometric mean needs weights that sum to 1; for uniform weights "
            f"over {k} orders use {(1 / k,) * k if k <= 6 else '(1/k,)*k'} "
            f"(write 1/{k} rather than a rounded decimal)."
        )
    return tuple(weight)


def is_default_tuple(weight: Any) -> bool:
    """Whether ``weight`` is the default weights as NLTK tests for them: ``weight == (0.25, 0.25, 0.25, 0.25)``.

    NLTK's ``auto_reweigh`` compares the weights with that tuple, so a tuple
    of ``Fraction(1, 4)`` or of numpy's ``float32(0.25)`` counts (each equals
    0.25), while a list [0.25, 0.25, 0.25, 0.25] does not (and a numpy array
    makes NLTK raise); bleu_teach follows the same rule.

    >>> from fractions import Fraction
    >>> is_default_tuple((Fraction(1, 4),) * 4), is_default_tuple([0.25] * 4)
    (True, False)
    """
    return (
        isinstance(weight, tuple)
        and len(weight) == 4
        and all(not isinstance(w, bool) and isinstance(w, Real) and bool(w == 0.25) for w in weight)
    )


def check_weights(weights: Any) -> tuple[list[Any], bool, list[bool]]:
    """Return (the weight tuples, whether several were given, which of them are the default tuple).

    Accepts what NLTK accepts: a tuple of weights, a list of tuples, a 1-D
    numpy array (one tuple) or a 2-D array or list of arrays (several).
    """
    raw = weights
    weights = _array_to_tuples(weights, "weights")
    if isinstance(weights, list):
        weights = [_array_to_tuples(w, f"weights[{i}]") for i, w in enumerate(weights)]
    if weights is None:
        raise TypeError("weights is None; use (0.25, 0.25, 0.25, 0.25) for BLEU-4.")
    if isinstance(weights, (str, bytes)) or not isinstance(weights, Sequence):
        raise TypeError(f"weights must be a tuple of numbers or a list of such tuples, not {preview(weights)}.")
    if len(weights) == 0:
        raise ValueError("weights is empty; give one weight per n-gram order, for example (0.25, 0.25, 0.25, 0.25).")
    several = isinstance(weights[0], Sequence) and not isinstance(weights[0], (str, bytes))
    group = list(weights) if several else [weights]
    checked = [
        check_weight_tuple(weight, f"weights[{index}]" if several else "weights") for index, weight in enumerate(group)
    ]
    raw_group = list(raw) if several else [raw]
    return checked, several, [is_default_tuple(w) for w in raw_group]


def check_level(alpha: Any) -> float:
    """A significance level ``alpha``: a number strictly between 0 and 1 (NaN is not one)."""
    if isinstance(alpha, bool) or not isinstance(alpha, Real):
        raise TypeError(f"alpha must be a number between 0 and 1, such as 0.05; not {preview(alpha)}.")
    try:
        level = float(alpha)
    except OverflowError:  # a whole number past a float's range is no level either
        level = 2.0
    if not 0 < level < 1:  # also false for NaN
        raise ValueError(f"alpha must be a number between 0 and 1, such as 0.05; got {preview(alpha)}.")
    return level


def check_bool(value: Any, what: str) -> bool:
    """A yes/no setting: exactly ``True`` or ``False``.

    1, "yes" or None are refused rather than guessed at (``"False"`` is a
    true value in Python).

    >>> check_bool(True, "lowercase")
    True
    >>> check_bool(1, "lowercase")
    Traceback (most recent call last):
    ...
    TypeError: lowercase must be True or False, not 1.
    """
    if type(value).__name__ in ("bool", "bool_") and type(value).__module__ == "numpy":  # numpy.True_, numpy.False_
        return bool(value)
    if not isinstance(value, bool):
        raise TypeError(f"{what} must be True or False, not {preview(value)}.")
    return value


#: The longest typed number read (a fraction of two long whole numbers fits), and the largest exponent of ten:
#: the course's answers lie between about -100 and 100, and a float ends near 1e308 anyway.
MAX_TYPED_CHARACTERS = 100
MAX_TYPED_EXPONENT = 400
_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+))?")
_FRACTION = re.compile(r"([+-]?\d+)/(\d+)")
#: Signs a keyboard or a word processor may give for a minus.
_MINUS_SIGNS = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2012": "-", "\ufe63": "-", "\uff0d": "-"})


def typed_number(text: str, advice: str = "a number or a fraction such as 2/7") -> float:
    """A number a learner typed (``"0.625"``, ``"5/8"``, ``"0,625"``, ``"6.25e-1"``, ``"−0.5"``), read in bounded time.

    Size and exponent are checked before any arithmetic: ``"1e30000000"``
    is refused at once (an exact fraction of it takes Python minutes).
    ``ValueError`` (with ``advice``) for anything else.

    >>> typed_number("5 / 8"), typed_number("0,625"), typed_number("\u22126.25e-1")
    (0.625, 0.625, -0.625)
    >>> typed_number("1e30000000")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    ValueError: '1e30000000' has an exponent of 30000000, and exponents from -400 to 400 are read;
    write a number such as 0.625.
    """
    if not isinstance(text, str):
        raise TypeError(f"Write {advice}, not {type(text).__name__}.")
    if len(text) > 100 * MAX_TYPED_CHARACTERS:  # said before the text is split, however long it is
        raise ValueError(
            f"That answer is {len(text):,} characters long; write {advice} (at most {MAX_TYPED_CHARACTERS} characters)."
        )
    compact = "".join(text.split()).translate(_MINUS_SIGNS)  # "5 / 8" as "5/8"
    if len(compact) > MAX_TYPED_CHARACTERS:
        raise ValueError(
            f"That answer is {len(compact):,} characters long; write {advice} (at most "
            f"{MAX_TYPED_CHARACTERS} characters)."
        )
    if "," in compact and "." not in compact and "/" not in compact:
        compact = compact.replace(",", ".")  # a decimal comma: "0,625"
    decimal = _DECIMAL.fullmatch(compact)
    if decimal:
        exponent = int(decimal.group(1) or 0)
        if abs(exponent) > MAX_TYPED_EXPONENT:
            raise ValueError(
                f"{compact!r} has an exponent of {exponent}, and exponents from -{MAX_TYPED_EXPONENT} "
                f"to {MAX_TYPED_EXPONENT} are read; write a number such as 0.625."
            )
        value = float(compact)
    else:
        fraction = _FRACTION.fullmatch(compact)
        if fraction is None:
            raise ValueError(f"Write {advice}, not {preview(text)}.")
        numerator, denominator = (int(part) for part in fraction.groups())
        if denominator == 0:
            raise ValueError(f"{compact!r} divides by zero; write {advice}.")
        try:
            value = numerator / denominator  # correctly rounded for whole numbers of any size
        except OverflowError:
            value = math.inf
    if not math.isfinite(value):
        raise ValueError(f"Write the answer as a finite number, not {preview(text)}.")
    return value
