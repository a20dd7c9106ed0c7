"""Tables for lesson 05: the same sentences scored under different settings.

Every number comes from :func:`bleu_teach.explain` or
:func:`bleu_teach.sentence_bleu`; these helpers only tokenize raw text,
loop over the settings and lay the results out as a :class:`Table`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bleu_teach.core import sentence_bleu
from bleu_teach.explain import BleuReport, explain
from bleu_teach.render import Table, format_number
from bleu_teach.smoothing import quietly, resolve_smoothing
from bleu_teach.tokenize import tokenize

__all__ = ["explain_texts", "settings_table", "order_table", "TOKENIZER_SETTINGS", "CASING_SETTINGS"]

#: The tokenizers lesson 05 compares: label -> tokenize() arguments.
TOKENIZER_SETTINGS: dict[str, dict[str, Any]] = {
    "whitespace": {"tokenizer": "whitespace"},
    "NLTK word_tokenize": {"tokenizer": "nltk"},
    "sacreBLEU 13a": {"tokenizer": "13a"},
    "characters": {"tokenizer": "char"},
}

#: Case-sensitive against lowercased scoring.
CASING_SETTINGS: dict[str, dict[str, Any]] = {
    "as typed (case-sensitive)": {"tokenizer": "whitespace", "lowercase": False},
    "lowercased": {"tokenizer": "whitespace", "lowercase": True},
}


def _texts(references: Any, what: str = "references") -> list[str]:
    if isinstance(references, str) or not isinstance(references, Sequence) or not references:
        raise TypeError(f"{what} must be a non-empty list of strings, e.g. ['the cat is on the mat'].")
    for i, text in enumerate(references):
        if not isinstance(text, str):
            raise TypeError(f"{what}[{i}] must be a string, not {type(text).__name__}.")
    return list(references)


def _tokens(text: str, what: str, tokenizer: str, lowercase: bool) -> list[str]:
    tokens = tokenize(text, tokenizer, lowercase=lowercase)
    if not tokens:
        raise ValueError(f"The {what} has no tokens: type a sentence into it.")
    return tokens


def explain_texts(
    references: Sequence[str],
    hypotheses: Mapping[str, str],
    tokenizer: str = "whitespace",
    lowercase: bool = False,
    max_n: int = 4,
    smoothing: str = "method1",
) -> dict[str, BleuReport]:
    """Tokenize raw text and explain each labelled hypothesis against the same references.

    Smoothing defaults to method1 because the lesson's sentences are short
    (an unsmoothed zero precision would hide every difference).

    >>> reports = explain_texts(["the cat sat"], {"same": "the cat sat"}, max_n=2)
    >>> reports["same"].score
    1.0
    """
    refs_text = _texts(references)
    if not isinstance(hypotheses, Mapping) or not hypotheses:
        raise TypeError("hypotheses must be a dict of {label: hypothesis string}.")
    if isinstance(max_n, bool) or not isinstance(max_n, int) or max_n < 1:
        raise ValueError(f"max_n must be a whole number of at least 1, not {max_n!r}.")
    refs = [_tokens(r, f"reference {i}", tokenizer, lowercase) for i, r in enumerate(refs_text, start=1)]
    out = {}
    for label, text in hypotheses.items():
        if not isinstance(text, str):
            raise TypeError(f"The hypothesis {label!r} must be a string, not {type(text).__name__}.")
        out[str(label)] = explain(refs, _tokens(text, f"hypothesis {label!r}", tokenizer, lowercase),
                                  weights=(1 / max_n,) * max_n, smoothing=smoothing)
    return out


def settings_table(
    references: Sequence[str],
    hypothesis: str,
    settings: Mapping[str, Mapping[str, Any]] = TOKENIZER_SETTINGS,
    max_n: int = 4,
    smoothing: str = "method1",
) -> Table:
    """One hypothesis scored under several tokenize/lowercase settings: tokens, p_1..p_N and BLEU.

    >>> table = settings_table(["The cat sat."], "the cat sat.", CASING_SETTINGS, max_n=1)
    >>> [row[-1] for row in table.rows]
    ['0.6667', '1.0000']
    """
    if not isinstance(hypothesis, str):
        raise TypeError("hypothesis must be a string.")
    rows = []
    for label, options in settings.items():
        report = explain_texts(references, {label: hypothesis}, max_n=max_n, smoothing=smoothing, **options)[label]
        rows.append([
            label,
            " ".join(f"[{t}]" for t in report.hypothesis),
            " ".join(f"[{t}]" for t in report.references[0]),
            *[f"{o.clipped}/{o.total}" for o in report.orders],
            format_number(report.score),
        ])
    header = ["setting", "hypothesis tokens", "reference 1 tokens", *[f"p_{n}" for n in range(1, max_n + 1)], f"BLEU-{max_n}"]
    return Table(header, rows)


def order_table(
    references: Sequence[str],
    hypotheses: Mapping[str, str],
    max_order: int = 4,
    smoothing: str | None = None,
    tokenizer: str = "whitespace",
) -> Table:
    """BLEU-1 to BLEU-``max_order`` (uniform weights) for each labelled hypothesis.

    Without smoothing (the default here) a zero precision shows as NLTK's
    tiny number, which is the point when word order is the subject.

    >>> row = order_table(["a b c d"], {"reversed": "d c b a"}, max_order=2).rows[0]
    >>> row[1], float(row[2]) < 1e-100
    ('1.0000', True)
    """
    refs = [_tokens(r, f"reference {i}", tokenizer, False) for i, r in enumerate(_texts(references), start=1)]
    weights = [tuple([1 / k] * k) for k in range(1, max_order + 1)]
    func, _ = resolve_smoothing(smoothing)
    rows = []
    for label, text in hypotheses.items():
        hyp = _tokens(text, f"hypothesis {label!r}", tokenizer, False)
        scores = sentence_bleu(refs, hyp, weights, smoothing_function=quietly(func))
        # NLTK's rule: a list holding one weight tuple gives one score, not a list.
        rows.append([label, *[format_number(s) for s in (scores if isinstance(scores, list) else [scores])]])
    return Table(["hypothesis", *[f"BLEU-{k}" for k in range(1, max_order + 1)]], rows)
