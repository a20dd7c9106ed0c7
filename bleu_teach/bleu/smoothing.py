"""Smoothing for sentence-level BLEU (Chen and Cherry, 2014).

Boxing Chen and Colin Cherry (2014), "A Systematic Comparison of Smoothing
Techniques for Sentence-Level BLEU", WMT.  The method numbers follow NLTK's
``SmoothingFunction``, and each method gives NLTK's numbers exactly: the
arithmetic happens in the same order, on the same kinds of numbers (exact
fractions where NLTK keeps fractions, floats where it makes floats).

Every method takes the list of precisions (``CountFraction`` values whose
numerator and denominator are the clipped and total n-gram counts) and
returns the smoothed list; some methods change the list they are given, as
NLTK's do.
"""

from __future__ import annotations

import math
import os
import sys
import warnings
from collections.abc import Callable, Hashable, Sequence
from numbers import Real
from typing import Any

from bleu_teach.bleu.count_fraction import CountFraction
from bleu_teach.bleu.counting import count_matches
from bleu_teach.views.formatting import number_ranges

__all__ = [
    "SmoothingFunction",
    "SmoothingCallable",
    "ZeroPrecisionWarning",
    "SMOOTHING_METHODS",
    "get_smoothing",
    "resolve_smoothing",
    "quietly",
]

#: What a smoothing method is: a function of the list of precisions (and, for
#: some methods, the references, hypothesis and hypothesis length).
SmoothingCallable = Callable[..., list[Any]]

#: The method names a learner can choose from, with a one-line description.
SMOOTHING_METHODS: dict[str, str] = {
    "method0": "no smoothing (a zero precision becomes the smallest float)",
    "method1": "add epsilon to zero match counts",
    "method2": "add 1 to matches and totals for n > 1 (Lin and Och, 2004)",
    "method3": "NIST geometric sequence: 1/2, 1/4, ... for zero counts",
    "method4": "like method3, scaled by the hypothesis length",
    "method5": "average of the n-1, n and n+1 precisions",
    "method6": "interpolate with a prior from the two lower orders (Gao and He, 2013)",
    "method7": "method4, then method5",
}


def _caller_stacklevel() -> int:
    """The stacklevel that points a warning at the first caller outside this package."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame = sys._getframe(1)
    level = 1
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == package:
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


class ZeroPrecisionWarning(UserWarning):
    """Some n-gram order has no match, so unsmoothed BLEU is (nearly) 0."""


class SmoothingFunction:
    """Chen and Cherry's smoothing methods 0 to 7, as in NLTK.

    ``epsilon`` is used by method 1, ``alpha`` by method 6 and ``k`` by
    method 4; the defaults are the values from the paper's experiments.

    >>> from bleu_teach import sentence_bleu
    >>> ref = 'the cat is on the mat'.split()
    >>> round(sentence_bleu([ref], 'the cat sat'.split(),
    ...                     smoothing_function=SmoothingFunction().method1), 4)
    0.0884
    """

    def __init__(self, epsilon: float = 0.1, alpha: float = 5, k: float = 5) -> None:
        for name, value in (("epsilon", epsilon), ("alpha", alpha), ("k", k)):
            if isinstance(value, bool) or not isinstance(value, Real):
                raise TypeError(f"SmoothingFunction({name}=...) must be a number, not {value!r}.")
            if not (value > 0 and value < 1e300 and math.isfinite(value)):
                raise ValueError(
                    f"SmoothingFunction({name}={value!r}): {name} must be a positive, finite number "
                    f"(the defaults are epsilon=0.1, alpha=5, k=5); with {name} = {value} "
                    f"the smoothed precision would be zero or undefined."
                )
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def __repr__(self) -> str:
        return f"SmoothingFunction(epsilon={self.epsilon!r}, alpha={self.alpha!r}, k={self.k!r})"

    def method0(self, p_n: list[Any], *args: Any, warn: bool = True, **kwargs: Any) -> list[Any]:
        """No smoothing.

        Quirk kept from NLTK: a precision of 0 would make log(p) undefined, so
        it is replaced by ``sys.float_info.min`` (about 2.2e-308) with a
        warning.  The score is then a tiny positive number, not 0.
        """
        smoothed: list[Any] = []
        zero_orders = []
        for n, p in enumerate(p_n, start=1):
            if p.numerator == 0:
                zero_orders.append(n)
                smoothed.append(sys.float_info.min)
            else:
                smoothed.append(p)
        if zero_orders and warn:
            orders = number_ranges(zero_orders, "-gram")
            warnings.warn(
                f"No {orders} match (at corpus level: in all the hypotheses together), so unsmoothed "
                f"BLEU is (nearly) 0 whatever the other orders. Use fewer n-gram orders "
                f"or a smoothing method, e.g. SmoothingFunction().method1.",
                ZeroPrecisionWarning,
                stacklevel=_caller_stacklevel(),
            )
        return smoothed

    def method1(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Add ``epsilon`` to each zero match count: p_n = (0 + eps) / total."""
        return [(p.numerator + self.epsilon) / p.denominator if p.numerator == 0 else p for p in p_n]

    def method2(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """Add 1 to the match count and the total of every order above 1.

        From Lin and Och (2004), ORANGE, COLING.
        """
        return [p if i == 0 else CountFraction(p.numerator + 1, p.denominator + 1) for i, p in enumerate(p_n)]

    def method3(self, p_n: list[Any], *args: Any, **kwargs: Any) -> list[Any]:
        """NIST geometric smoothing: the k-th zero order gets 1 / (2^k * total).

        As in mteval-v13a.pl; changes ``p_n`` in place, as NLTK does.
        """
        k = 1
        for i, p in enumerate(p_n):
            if p.numerator == 0:
                p_n[i] = 1 / (2**k * p.denominator)
                k += 1
        return p_n

    def method4(
        self,
        p_n: list[Any],
        references: Sequence[Sequence[Hashable]] = (),
        hypothesis: Sequence[Hashable] = (),
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Like method 3, with the k-th zero order scaled by ln(hypothesis length).

        The k-th zero order gets (1 / (2^k * K / ln(len))) / total, where K is
        ``self.k``; shorter hypotheses get smaller smoothed counts.  Nothing
        changes for a hypothesis of one token (ln 1 = 0).
        """
        length = hyp_len if hyp_len else len(hypothesis)
        step = 1
        for i, p in enumerate(p_n):
            if p.numerator == 0 and length > 1:
                smoothed_count = 1 / (2**step * self.k / math.log(length))
                p_n[i] = smoothed_count / p.denominator
                step += 1
        return p_n

    def method5(
        self,
        p_n: list[Any],
        references: Sequence[Sequence[Hashable]] = (),
        hypothesis: Sequence[Hashable] = (),
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Replace each p_n by the mean of the smoothed p_(n-1), p_n and p_(n+1).

        Quirk kept from NLTK: the "n+1" precision after the last order is
        always the 5-gram precision, whatever the number of orders, and
        p_0 is taken as p_1 + 1.
        """
        refs = [tuple(r) for r in references]
        hyp = tuple(hypothesis)
        # The 5-gram precision, counted like every other (0/1 when there is no 5-gram).
        p5 = CountFraction(count_matches(refs, hyp, 5)[4], max(1, len(hyp) - 4)) if refs else CountFraction(0, 1)
        following = list(p_n) + [p5]
        previous = p_n[0] + 1
        for i, p in enumerate(p_n):
            p_n[i] = (previous + p + following[i + 1]) / 3
            previous = p_n[i]
        return p_n

    def method6(
        self,
        p_n: list[Any],
        references: Sequence[Sequence[Hashable]] = (),
        hypothesis: Sequence[Hashable] = (),
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Interpolate p_n with the prior p_(n-1)^2 / p_(n-2) (Gao and He, 2013).

        p_n = (m_n + alpha * prior) / (l_n + alpha), with m_n the match count
        and l_n the hypothesis n-gram count, for n >= 3.

        NLTK stops with a bare ``AssertionError`` when p_3 is zero (its message
        says "bigrams"); here that is a ``ValueError`` that says what to do.
        """
        if len(p_n) < 3:
            raise ValueError(
                "Smoothing method6 needs at least three n-gram orders (weights of "
                "length 3 or more); choose another method, e.g. method1."
            )
        if not p_n[2]:
            raise ValueError(
                "NLTK's method6 stops when the trigram precision p_3 is zero (an assertion "
                "whose message says 'bigrams'), and bleu_teach follows NLTK: this hypothesis "
                "has no trigram match; choose another method, e.g. method1 or method4."
            )
        for i in range(2, len(p_n)):
            prior = 0 if p_n[i - 2] == 0 else p_n[i - 1] ** 2 / p_n[i - 2]
            matches = p_n[i].numerator
            ngram_total = max(0, len(hypothesis) - i)
            p_n[i] = (matches + self.alpha * prior) / (ngram_total + self.alpha)
        return p_n

    def method7(
        self,
        p_n: list[Any],
        references: Sequence[Sequence[Hashable]] = (),
        hypothesis: Sequence[Hashable] = (),
        hyp_len: int | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> list[Any]:
        """Method 4, then method 5."""
        p_n = self.method4(p_n, references, hypothesis, hyp_len)
        return self.method5(p_n, references, hypothesis, hyp_len)


def get_smoothing(name: str | int | None, smoothing: SmoothingFunction | None = None) -> SmoothingCallable:
    """The smoothing method called ``name``: "method0" to "method7", "0" to "7" or 0 to 7.

    >>> get_smoothing("method1").__name__, get_smoothing(3).__name__
    ('method1', 'method3')
    """
    if name is None:
        name = "method0"
    if isinstance(name, bool) or not isinstance(name, (str, int)):
        raise TypeError(f"A smoothing method name must be a string such as 'method1', not {name!r}.")
    key = str(name).strip().lower()  # "Method1" is method1
    if key.isdigit():
        key = f"method{key}"
    if key not in SMOOTHING_METHODS:
        raise ValueError(
            f"Unknown smoothing method {name!r}; choose one of {', '.join(SMOOTHING_METHODS)} "
            f"(or just the number, 0 to 7)."
        )
    method: SmoothingCallable = getattr(smoothing or SmoothingFunction(), key)
    return method


def resolve_smoothing(smoothing: Any, what: str = "smoothing") -> tuple[SmoothingCallable, str]:
    """A smoothing choice as (function, name), from any of the forms the package accepts.

    ``None`` (no smoothing, method0), a name ("method1", "1" or 1), or a
    function such as ``SmoothingFunction().method1`` (NLTK's own methods
    work too).  Anything else gets a ``TypeError`` that says what to pass.

    >>> resolve_smoothing("2")[1], resolve_smoothing(SmoothingFunction().method4)[1]
    ('method2', 'method4')
    """
    if smoothing is None or isinstance(smoothing, (str, int)) and not isinstance(smoothing, bool):
        func = get_smoothing(smoothing)
        return func, func.__name__
    if isinstance(smoothing, type):
        raise TypeError(
            f"{what} is the class {smoothing.__name__}; pass one of its methods, for example "
            f"SmoothingFunction().method1, or the name 'method1'."
        )
    if isinstance(smoothing, SmoothingFunction) or type(smoothing).__name__ == "SmoothingFunction":
        raise TypeError(
            f"{what} is a SmoothingFunction object, not a smoothing method; pick one of its methods, "
            f"for example SmoothingFunction().method1 (note the .method1), or pass the name 'method1'."
        )
    if callable(smoothing):
        return smoothing, str(getattr(smoothing, "__name__", type(smoothing).__name__))
    raise TypeError(
        f"{what} must be a method name such as 'method1' or a function such as "
        f"SmoothingFunction().method1, not {smoothing!r}."
    )


def quietly(func: SmoothingCallable) -> SmoothingCallable:
    """``func`` without the zero-precision warning (for reports, which say it in words)."""

    def run(*args: Any, **kwargs: Any) -> list[Any]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ZeroPrecisionWarning)
            return func(*args, **kwargs)

    run.__name__ = getattr(func, "__name__", "smoothing")
    return run
