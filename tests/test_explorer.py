"""bleu_teach.explorers.typed_input: typed text and settings give NLTK's sentence BLEU on the tools' own tokens.

The oracles are NLTK's ``sentence_bleu`` and the tokenizers themselves
(``str.split`` and sacreBLEU's tokenizer classes, called directly).
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate import bleu_score as nltk_bleu
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar

from bleu_teach.explorers.typed_input import MAX_ORDER, MAX_REFERENCES, explain_text, parse_weights, text_tokens
from bleu_teach.ui.widgets import BleuExplorer
from tests.conftest import examples

#: Each tokenizer the way the tool itself splits a line (sacreBLEU strips trailing space, tokenizes, splits).
ORACLE_TOKENS = {
    "whitespace": str.split,
    "13a": lambda text: Tokenizer13a()(text.rstrip()).split(),
    "char": lambda text: TokenizerChar()(text.rstrip()).split(),
}

WORDS = ["the", "The", "cat", "sat", "on", "mat", "a", "is", "dog's", "mat.", ",", "&amp;", "(x)", "3.5", "-"]
texts = st.lists(st.sampled_from(WORDS), min_size=1, max_size=10).map(" ".join)


def nltk_score(
    hypothesis: str, references: list[str], tokenizer: str, lowercase: bool, weights: tuple[float, ...], method: int
) -> float:
    split = ORACLE_TOKENS[tokenizer]
    fold = str.lower if lowercase else str
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NLTK warns about zero counts
        return float(
            nltk_bleu.sentence_bleu(
                [split(fold(r)) for r in references],
                split(fold(hypothesis)),
                weights,
                getattr(nltk_bleu.SmoothingFunction(), f"method{method}"),
            )
        )


@settings(max_examples=examples(300), deadline=None)
@given(
    hypothesis=texts,
    references=st.lists(texts, min_size=1, max_size=3),
    tokenizer=st.sampled_from(list(ORACLE_TOKENS)),
    lowercase=st.booleans(),
    max_n=st.integers(min_value=1, max_value=4),
    method=st.sampled_from([0, 1, 2, 3, 4, 5, 7]),
    uniform=st.booleans(),
)
def test_explain_text_equals_nltk_on_the_tools_tokens(
    hypothesis, references, tokenizer, lowercase, max_n, method, uniform, parity_counter
):
    weights = (1 / max_n,) * max_n if uniform else (0.5,) + (0.5 / (max_n - 1),) * (max_n - 1) if max_n > 1 else (1.0,)
    typed = "" if uniform else ", ".join(repr(w) for w in weights)
    report = explain_text(hypothesis, references, tokenizer, lowercase, max_n, typed, f"method{method}")
    assert report.score == nltk_score(hypothesis, references, tokenizer, lowercase, weights, method)
    parity_counter["explain_text"] += 1


def test_typed_weights_are_the_numbers_typed():
    report = explain_text("the cat sat on the mat", ["the cat is on the mat"], max_n=2, weights="0.7; 0.3")
    assert report.weights == (0.7, 0.3)
    assert report.score == nltk_score(
        "the cat sat on the mat", ["the cat is on the mat"], "whitespace", False, (0.7, 0.3), 0
    )
    assert parse_weights(" uniform ", 3) == (1 / 3, 1 / 3, 1 / 3)


def test_weights_may_be_typed_as_fractions_and_separated_by_spaces():
    # The core's message for weights that do not sum to 1 says "write 1/4 rather than a rounded decimal".
    assert parse_weights("1/4, 1/4; 1/4 1/4", 4) == (0.25, 0.25, 0.25, 0.25)
    assert parse_weights("1/3 1/3 1/3", 3) == (1 / 3, 1 / 3, 1 / 3)
    hyp, refs = "the cat sat on a mat", ["the cat is on the mat"]
    assert explain_text(hyp, refs, max_n=3, weights="1/3 1/3 1/3", smoothing="method1").score == nltk_score(
        hyp, refs, "whitespace", False, (1 / 3, 1 / 3, 1 / 3), 1
    )
    with pytest.raises(ValueError, match="numbers or fractions separated by commas"):
        parse_weights("1/0, 1", 2)


def test_tokens_come_from_the_named_tokenizer():
    assert text_tokens("The cat, (sat).", "hypothesis", "13a") == ORACLE_TOKENS["13a"]("The cat, (sat).")
    assert text_tokens("The cat", "hypothesis", "char", lowercase=True) == ["t", "h", "e", "c", "a", "t"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"hypothesis": "   "}, "The hypothesis is empty: type a sentence into it."),
        ({"references": ["the cat", ""]}, "Reference 2 is empty: type a sentence into it."),
        ({"references": []}, f"Give 1 to {MAX_REFERENCES} references (got 0)."),
        ({"references": ["the cat"] * (MAX_REFERENCES + 1)}, f"Give 1 to {MAX_REFERENCES} references (got 9)."),
        (
            {"weights": "a, b", "max_n": 2},
            "Weights must be numbers or fractions separated by commas, e.g. 0.5, 0.5 or 1/2, 1/2 (got 'a, b').",
        ),
        ({"weights": "0.5, 0.3, 0.2", "max_n": 2}, "Give 2 weights for Max n = 2 (got 3)"),
        ({"weights": "0.7, 0.2", "max_n": 2}, "sum to 0.9"),
        ({"max_n": 0}, f"Max n must be a whole number from 1 to {MAX_ORDER} (got 0)."),
        ({"max_n": MAX_ORDER + 1}, f"Max n must be a whole number from 1 to {MAX_ORDER} (got {MAX_ORDER + 1})."),
        ({"tokenizer": "moses"}, "Unknown tokenizer 'moses'"),
        ({"smoothing": "method9"}, "Unknown smoothing method 'method9'"),
    ],
)
def test_bad_input_gets_a_message_for_the_learner(kwargs, message):
    arguments = {"hypothesis": "the cat sat on the mat", "references": ["the cat is on the mat"], **kwargs}
    with pytest.raises(ValueError) as error:
        explain_text(**arguments)
    assert message in str(error.value)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"hypothesis": ["the", "cat"]}, "The hypothesis must be text (a string), not list."),
        ({"references": "the cat"}, "The references must be a list of texts"),
        ({"references": [["the", "cat"]]}, "Reference 1 must be text (a string), not list."),
        ({"max_n": "4"}, "Max n must be a whole number from 1 to 6, not '4'."),
        ({"max_n": True}, "Max n must be a whole number"),
        ({"lowercase": "yes"}, "Lowercase must be True or False, not 'yes'."),
    ],
)
def test_wrong_types_get_a_message_too(kwargs, message):
    arguments = {"hypothesis": "the cat sat on the mat", "references": ["the cat is on the mat"], **kwargs}
    with pytest.raises(TypeError) as error:
        explain_text(**arguments)
    assert message in str(error.value)


def test_the_widget_shows_the_same_message_and_score():
    explorer = BleuExplorer("the cat sat on the mat", ["the cat is on the mat"], max_n=2, weights="0.7, 0.3")
    assert explorer.report is not None
    assert explorer.report.score == nltk_score(
        "the cat sat on the mat", ["the cat is on the mat"], "whitespace", False, (0.7, 0.3), 0
    )
    explorer.weights.value = "0.7, x"
    with pytest.raises(ValueError) as error:
        explain_text("the cat sat on the mat", ["the cat is on the mat"], max_n=2, weights="0.7, x")
    assert str(error.value).replace("'", "&#x27;") in explorer.output.value


@pytest.mark.parametrize("typed", ["1e400", "1e400, 0", "1e20000000", "-1e-20000000, 1", "9" * 5000])
def test_a_huge_or_tiny_typed_weight_is_refused_at_once_with_a_message(typed: str):
    import time

    started = time.perf_counter()
    with pytest.raises(ValueError, match=r"^(Each weight lies between 0 and 1|Weights must be numbers)"):
        parse_weights(typed, 2)  # was an OverflowError ("Something went wrong"), or tens of seconds of arithmetic
    assert time.perf_counter() - started < 0.1
