"""CountFraction: a modified precision p_n as an exact fraction that keeps the counts it was made from."""

from __future__ import annotations

from fractions import Fraction
from numbers import Rational
from typing import Any

__all__ = ["CountFraction"]


class CountFraction(Fraction):
    """An exact fraction that remembers the counts it was made from.

    ``numerator`` is the clipped n-gram count and ``denominator`` the number of n-grams in the hypothesis,
    unreduced: 2/4 stays 2/4. NLTK's smoothing methods read those counts (method 1 adds epsilon to a zero
    numerator and divides by the original denominator), so keeping them is needed for parity. Comparison,
    hashing and arithmetic use the fraction's value, and equality is symmetric with any other number.

    >>> p = CountFraction(2, 4)
    >>> p.numerator, p.denominator, p == Fraction(1, 2), Fraction(1, 2) == p, p * 2 == 1
    (2, 4, True, True, True)
    """

    __slots__ = ("_count", "_total")
    _count: int
    _total: int

    def __new__(cls, count: int, total: int) -> CountFraction:
        if isinstance(total, int) and not isinstance(total, bool) and total == 0:
            raise ValueError(
                f"CountFraction({count!r}, 0): the total (the number of hypothesis n-grams) must be at "
                "least 1; NLTK counts an order without n-grams as 0/1."
            )
        self = super().__new__(cls, count, total)
        self._count = count
        self._total = total
        return self

    @property
    def numerator(self) -> int:
        return self._count

    @property
    def denominator(self) -> int:
        return self._total

    def as_fraction(self) -> Fraction:
        """The same value as a plain, reduced :class:`fractions.Fraction`."""
        return Fraction(self._count, self._total)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Rational):
            # Cross-multiplied, so an unreduced fraction on either side compares by value.
            return self._count * int(other.denominator) == int(other.numerator) * self._total
        return self.as_fraction() == other

    def __hash__(self) -> int:  # type: ignore[override]  # numbers.Complex declares __hash__ = None
        return hash(self.as_fraction())

    # Arithmetic on the reduced value.  Fraction's own operators read the
    # (unreduced) numerator and denominator and assume them coprime, which
    # would give results such as 2/4 * 2 = 2/2 that compare unequal to 1.
    # Values (and so every float and every score) are the same either way.
    def __add__(self, other: Any) -> Any:
        return self.as_fraction() + other

    def __radd__(self, other: Any) -> Any:
        return other + self.as_fraction()

    def __sub__(self, other: Any) -> Any:
        return self.as_fraction() - other

    def __rsub__(self, other: Any) -> Any:
        return other - self.as_fraction()

    def __mul__(self, other: Any) -> Any:
        return self.as_fraction() * other

    def __rmul__(self, other: Any) -> Any:
        return other * self.as_fraction()

    def __truediv__(self, other: Any) -> Any:
        return self.as_fraction() / other

    def __rtruediv__(self, other: Any) -> Any:
        return other / self.as_fraction()

    def __floordiv__(self, other: Any) -> Any:
        return self.as_fraction() // other

    def __rfloordiv__(self, other: Any) -> Any:
        return other // self.as_fraction()

    def __mod__(self, other: Any) -> Any:
        return self.as_fraction() % other

    def __rmod__(self, other: Any) -> Any:
        return other % self.as_fraction()

    def __pow__(self, other: Any) -> Any:
        return self.as_fraction() ** other

    def __rpow__(self, other: Any) -> Any:
        return other ** self.as_fraction()

    def __repr__(self) -> str:
        return f"CountFraction({self._count}, {self._total})"

    def __str__(self) -> str:
        return f"{self._count}/{self._total}"

    def __reduce__(self) -> tuple[Any, tuple[int, int]]:
        return (CountFraction, (self._count, self._total))
