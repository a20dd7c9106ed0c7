"""Turning text into tokens, with the tokenizers the lessons compare.

* ``whitespace``: ``str.split()``.
* ``nltk``: NLTK's ``word_tokenize(text, preserve_line=True)``, which needs
  no downloaded data (``nltk.download`` is never called).
* ``13a``, ``intl``, ``char``, ``zh``, ``none``: sacreBLEU's own tokenizers,
  applied as sacreBLEU applies them (trailing whitespace stripped, then the
  tokenizer, then split on spaces).

Lowercasing is a separate step (:func:`lowercase`), so that a lesson can
show its effect on its own.  NLTK and sacreBLEU are imported only when a
tokenizer needs them.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from importlib import import_module

from bleu_teach.inputs.optional import needs
from bleu_teach.inputs.validation import check_tokens

__all__ = [
    "TOKENIZERS",
    "SACREBLEU_TOKENIZERS",
    "TOKENS_KEPT",
    "tokenize",
    "lowercase",
    "sacrebleu_tokenizer",
    "sacrebleu_tokens",
    "forget_tokens",
]

#: sacreBLEU tokenizer names and where sacreBLEU keeps them.
SACREBLEU_TOKENIZERS: dict[str, tuple[str, str]] = {
    "13a": ("sacrebleu.tokenizers.tokenizer_13a", "Tokenizer13a"),
    "intl": ("sacrebleu.tokenizers.tokenizer_intl", "TokenizerV14International"),
    "char": ("sacrebleu.tokenizers.tokenizer_char", "TokenizerChar"),
    "zh": ("sacrebleu.tokenizers.tokenizer_zh", "TokenizerZh"),
    "none": ("sacrebleu.tokenizers.tokenizer_none", "NoneTokenizer"),
}

#: Every tokenizer name :func:`tokenize` accepts, with a short description.
TOKENIZERS: dict[str, str] = {
    "whitespace": "split on spaces only (Python's str.split)",
    "nltk": "NLTK word_tokenize without sentence splitting (Treebank rules: is n't, 's and most punctuation "
    "apart; a full stop stays attached except at the end of the text; needs no downloaded data)",
    "13a": "sacreBLEU 13a (mteval-v13a.pl rules, sacreBLEU's default)",
    "intl": "sacreBLEU intl (Unicode punctuation and symbols apart)",
    "char": "sacreBLEU char (every character a token)",
    "zh": "sacreBLEU zh (Chinese characters apart)",
    "none": "sacreBLEU none (no tokenization: split on spaces, as the signature's tok:none says)",
}


def _check_name(name: object) -> str:
    """A tokenizer's name, in any case ("13A" is "13a"); a ValueError listing the names otherwise."""
    if not isinstance(name, str):
        raise TypeError(f"tokenizer must be a name such as 'whitespace' or '13a', not {type(name).__name__}.")
    key = name.strip().lower()
    if not isinstance(key, str) or key not in TOKENIZERS:
        raise ValueError(f"Unknown tokenizer {name!r}; choose one of {', '.join(TOKENIZERS)}.")
    return key


@cache
def sacrebleu_tokenizer(name: str) -> Callable[[str], str]:
    """sacreBLEU's tokenizer object called ``name`` (a callable from str to str)."""
    if not isinstance(name, str) or name not in SACREBLEU_TOKENIZERS:
        raise ValueError(f"Unknown sacreBLEU tokenizer {name!r}; choose one of {', '.join(SACREBLEU_TOKENIZERS)}.")
    module, cls = SACREBLEU_TOKENIZERS[name]
    needs(module, f"The {name} tokenizer (sacreBLEU's)")
    tokenizer: Callable[[str], str] = getattr(import_module(module), cls)()
    return tokenizer


#: How many texts' tokens :func:`sacrebleu_tokens` remembers per tokenizer (the most recently used).
TOKENS_KEPT = 16_384


@cache
def sacrebleu_tokens(name: str, lowercase: bool = False) -> Callable[[str], tuple[str, ...]]:
    """sacreBLEU's steps for one text (lowercase if asked, strip the end, tokenize, split on spaces) as one
    function that remembers the tokens of the last :data:`TOKENS_KEPT` texts: a test set's references, scored
    against one system after another, are tokenized once.

    >>> sacrebleu_tokens("13a")("The cat isn't here. ")
    ('The', 'cat', "isn't", 'here', '.')
    """
    tokenizer = sacrebleu_tokenizer(name)
    if lowercase:

        @lru_cache(maxsize=TOKENS_KEPT)
        def lowered(text: str) -> tuple[str, ...]:
            return tuple(tokenizer(text.lower().rstrip()).split())

        return lowered

    @lru_cache(maxsize=TOKENS_KEPT)
    def tokens(text: str) -> tuple[str, ...]:
        return tuple(tokenizer(text.rstrip()).split())

    return tokens


def forget_tokens() -> None:
    """Forget the tokenizers and every text's tokens they remember (the next call tokenizes as a first call does)."""
    sacrebleu_tokens.cache_clear()
    sacrebleu_tokenizer.cache_clear()


def _nltk_tokenize(text: str) -> list[str]:
    needs("nltk", "The nltk tokenizer (NLTK's word_tokenize)")
    from nltk.tokenize import word_tokenize

    return list(word_tokenize(text, preserve_line=True))


def tokenize(text: str, tokenizer: str = "whitespace", lowercase: bool = False) -> list[str]:
    """Split ``text`` into tokens with the named tokenizer.

    With ``lowercase=True`` the text is lowercased first, as sacreBLEU does.

    >>> tokenize("The cat isn't here.")
    ['The', 'cat', "isn't", 'here.']
    >>> tokenize("The cat isn't here.", "nltk")
    ['The', 'cat', 'is', "n't", 'here', '.']
    >>> tokenize("The cat isn't here.", "13a", lowercase=True)
    ['the', 'cat', "isn't", 'here', '.']
    """
    if not isinstance(text, str):
        raise TypeError(f"tokenize needs a string of text, not {type(text).__name__}.")
    name = _check_name(tokenizer)
    if not isinstance(lowercase, bool):
        raise TypeError(f"lowercase must be True or False, not {lowercase!r}.")
    if lowercase:
        text = text.lower()
    if name == "whitespace":
        return text.split()
    if name == "nltk":
        return _nltk_tokenize(text)
    return sacrebleu_tokenizer(name)(text.rstrip()).split()


def lowercase(tokens: list[str]) -> list[str]:
    """Every token in lower case, as a separate step after tokenizing.

    >>> lowercase(['The', 'Cat'])
    ['the', 'cat']
    """
    if isinstance(tokens, str):
        raise TypeError("lowercase needs a list of tokens; for a string use text.lower().")
    return [t.lower() if isinstance(t, str) else t for t in check_tokens(tokens, "tokens")]  # type: ignore[misc]
