"""Hypothesis strategies for random BLEU inputs."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

# A small vocabulary so that random sentences share n-grams; unicode and
# integer tokens included, as tokens may be any hashable value.
VOCAB = ["the", "cat", "a", "on", "mat", "is", "The", "é", "猫", "ß", ".", 7, 42]

tokens = st.lists(st.sampled_from(VOCAB), min_size=0, max_size=14)
short_tokens = st.lists(st.sampled_from(VOCAB), min_size=0, max_size=4)
any_tokens = st.one_of(tokens, short_tokens, st.lists(st.sampled_from(["the", "a"]), max_size=9))
references = st.lists(any_tokens, min_size=1, max_size=4)


@st.composite
def weights(draw: st.DrawFn) -> tuple[float, ...]:
    """Uniform or random weights of length 1 to 6 that sum to 1."""
    k = draw(st.integers(min_value=1, max_value=6))
    if draw(st.booleans()):
        return (1 / k,) * k
    raw = draw(st.lists(st.integers(min_value=0, max_value=9), min_size=k, max_size=k).filter(any))
    total = sum(raw)
    return tuple(float(Fraction(x, total)) for x in raw)


weights_or_default = st.one_of(st.just((0.25, 0.25, 0.25, 0.25)), weights())
methods = st.integers(min_value=0, max_value=7)
smoothing_params = st.fixed_dictionaries(
    {
        "epsilon": st.sampled_from([0.1, 0.01, 0.5, 1]),
        "alpha": st.sampled_from([5, 1, 3]),
        "k": st.sampled_from([5, 2, 10]),
    }
)
