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


# ---------------------------------------------------------------------------
# Raw strings for the sacreBLEU-oracle tests (BLEU on sacreBLEU's terms, chrF)
# ---------------------------------------------------------------------------


def raw_strings(
    words: list[str],
    separators: list[str],
    chars: str,
    tiny: list[str],
    min_words: int = 0,
    max_words: int = 10,
    max_chars: int = 20,
) -> st.SearchStrategy[str]:
    """Sentences of the given words (which share n-grams), arbitrary short text, and tiny strings."""
    sentence = st.lists(
        st.tuples(st.sampled_from(words), st.sampled_from(separators)), min_size=min_words, max_size=max_words
    ).map(lambda pairs: "".join(w + s for w, s in pairs).rstrip(" "))
    return st.one_of(sentence, sentence, sentence, st.text(alphabet=chars, max_size=max_chars), st.sampled_from(tiny))


@st.composite
def reference_like(draw: st.DrawFn, hyp: str, raw: st.SearchStrategy[str], words: list[str], kinds: list[str]) -> str:
    """A reference: unrelated text, or the hypothesis itself, cut, with a word replaced, reordered or re-cased."""
    kind = draw(st.sampled_from(kinds))
    tokens = hyp.split()
    if kind == "same":
        return hyp
    if kind == "alternate":  # every second word replaced: unigrams match, longer n-grams mostly do not
        return " ".join(w if i % 2 == 0 else "zz" for i, w in enumerate(tokens))
    if kind in ("cut", "replaced") and tokens:
        i = draw(st.integers(0, len(tokens) - 1))
        middle = [draw(st.sampled_from(words))] if kind == "replaced" else []
        return " ".join(tokens[:i] + middle + tokens[i + 1 :])
    if kind == "shuffled" and tokens:
        return " ".join(draw(st.permutations(tokens)))
    if kind == "upper":
        return hyp.upper()
    return draw(raw)


@st.composite
def raw_sentence_case(
    draw: st.DrawFn, raw: st.SearchStrategy[str], words: list[str], kinds: list[str]
) -> tuple[str, list[str | None]]:
    """A hypothesis and 1-4 references (sometimes one None, which sacreBLEU skips)."""
    hyp = draw(raw)
    refs: list[str | None] = draw(st.lists(reference_like(hyp, raw, words, kinds), min_size=1, max_size=4))
    if len(refs) > 1 and draw(st.integers(0, 5)) == 0:
        refs[draw(st.integers(0, len(refs) - 1))] = None
    return hyp, refs


@st.composite
def raw_corpus_case(
    draw: st.DrawFn, raw: st.SearchStrategy[str], words: list[str], kinds: list[str]
) -> tuple[list[str], list[list[str | None]]]:
    """1-5 hypotheses, each with k references in random order (None where a segment has fewer)."""
    n = draw(st.integers(1, 5))
    k = draw(st.integers(1, 4))
    hyps, per_hyp = [], []
    for _ in range(n):
        hyp = draw(raw)
        refs: list[str | None] = [draw(reference_like(hyp, raw, words, kinds)) for _ in range(k)]
        for j in range(1, k):
            if draw(st.integers(0, 6)) == 0:
                refs[j] = None
        hyps.append(hyp)
        per_hyp.append(draw(st.permutations(refs)))
    return hyps, per_hyp
