"""Tables for lesson 05: the same sentences scored under different settings.

Every number comes from :func:`bleu_teach.explain` or
:func:`bleu_teach.sentence_bleu`; these helpers only tokenize raw text,
loop over the settings and lay the results out as a :class:`Table`.

The word-order demonstration of Callison-Burch, Osborne and Koehn (2006,
"Re-evaluating the Role of BLEU in Machine Translation Research", EACL,
section 3): cut a hypothesis at every bigram that occurs in no reference
(:func:`bigram_mismatch_chunks`), put the chunks in another order
(:func:`permute_chunks`), and BLEU cannot tell, although the sentence may
now say something else (:func:`chunk_permutation` shows both, scored).
Exactly what stays the same:

* always: the tokens (so every unigram count), the length (so the number of
  n-grams of every order, and BP);
* every n-gram of order 2 or more that occurs in a reference consists of
  bigrams that occur in it, so it lies inside one chunk and survives the
  move; the n-grams that cross a cut contain a mismatched bigram and never
  matched.  So if no NEW junction (the last token of one chunk followed by
  the first of the next, in the new order) forms a bigram that occurs in a
  reference, every clipped count of every order is unchanged, and so is
  BLEU-N for every N, with or without smoothing;
* if a new junction does form a reference bigram, clipped counts of order 2
  and up can only rise, never fall.  :attr:`ChunkPermutation.new_matches`
  lists such junctions.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral
from typing import Any

from bleu_teach.bleu.counting import max_reference_counts, ngrams
from bleu_teach.bleu.explain import explain
from bleu_teach.bleu.nltk_api import sentence_bleu
from bleu_teach.bleu.reports import BleuReport
from bleu_teach.bleu.smoothing import quietly, resolve_smoothing
from bleu_teach.inputs.tokenizers import tokenize
from bleu_teach.inputs.validation import check_orders, check_references, check_tokens, preview, whole_number_text
from bleu_teach.views.document import Document, Paragraph, Strong, Tokens
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.formatting import format_number
from bleu_teach.views.tables import Table
from bleu_teach.views.viewable import Viewable

__all__ = [
    "explain_hypotheses",
    "settings_table",
    "order_table",
    "TOKENIZER_SETTINGS",
    "CASING_SETTINGS",
    "bigram_mismatch_chunks",
    "permute_chunks",
    "new_junction_matches",
    "ChunkPermutation",
    "chunk_permutation",
]

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


def explain_hypotheses(
    hypotheses: Mapping[str, str],
    references: Sequence[str],
    tokenizer: str = "whitespace",
    lowercase: bool = False,
    max_n: int = 4,
    smoothing: str = "method1",
) -> dict[str, BleuReport]:
    """Tokenize raw text and explain each labelled hypothesis against the same references.

    Raw strings, so sacreBLEU's order: the hypotheses (``{label: text}``) first.

    Smoothing defaults to method1 because the lesson's sentences are short
    (an unsmoothed zero precision would hide every difference).

    >>> reports = explain_hypotheses({"same": "the cat sat"}, ["the cat sat"], max_n=2)
    >>> reports["same"].score
    1.0
    """
    refs_text = _texts(references)
    if not isinstance(hypotheses, Mapping) or not hypotheses:
        raise TypeError(
            "hypotheses must be a dict of {label: hypothesis string}, given first: (hypotheses, references)."
        )
    max_n = check_orders(max_n, "max_n", "4 = BLEU-4")
    refs = [_tokens(r, f"reference {i}", tokenizer, lowercase) for i, r in enumerate(refs_text, start=1)]
    out = {}
    for label, text in hypotheses.items():
        if not isinstance(text, str):
            raise TypeError(f"The hypothesis {label!r} must be a string, not {type(text).__name__}.")
        out[str(label)] = explain(
            refs,
            _tokens(text, f"hypothesis {label!r}", tokenizer, lowercase),
            weights=(1 / max_n,) * max_n,
            smoothing=smoothing,
        )
    return out


def settings_table(
    hypothesis: str,
    references: Sequence[str],
    settings: Mapping[str, Mapping[str, Any]] = TOKENIZER_SETTINGS,
    max_n: int = 4,
    smoothing: str = "method1",
) -> Table:
    """One hypothesis scored under several tokenize/lowercase settings: tokens, p_1..p_N and BLEU.

    >>> table = settings_table("the cat sat.", ["The cat sat."], CASING_SETTINGS, max_n=1)
    >>> [row[-1] for row in table.rows]
    ['0.6667', '1.0000']
    """
    if not isinstance(hypothesis, str):
        raise TypeError(
            "hypothesis must be one string (raw text), given first: (hypothesis, references), as in sacreBLEU."
        )
    if not isinstance(settings, Mapping):
        raise TypeError(
            "settings must map a label to its options, e.g. {'13a, lowercased': {'tokenizer': '13a', "
            f"'lowercase': True}}}}, not {type(settings).__name__}."
        )
    for label, options in settings.items():
        if not isinstance(options, Mapping) or not set(options) <= {"tokenizer", "lowercase"}:
            raise ValueError(
                f"settings[{label!r}] must be a mapping of tokenizer and lowercase, e.g. "
                f"{{'tokenizer': '13a', 'lowercase': True}}; got {preview(options, 80)}."
            )
    rows = []
    for label, options in settings.items():
        report = explain_hypotheses({label: hypothesis}, references, max_n=max_n, smoothing=smoothing, **options)[label]
        rows.append(
            [
                label,
                " ".join(f"[{t}]" for t in report.hypothesis),
                " ".join(f"[{t}]" for t in report.references[0]),
                *[f"{o.clipped}/{o.total}" for o in report.orders],
                format_number(report.score),
            ]
        )
    header = [
        "setting",
        "hypothesis tokens",
        "reference 1 tokens",
        *[f"p_{n}" for n in range(1, max_n + 1)],
        f"BLEU-{max_n}",
    ]
    return Table(header, rows)


#: The most BLEU-n columns an order table shows.
MAX_ORDER_COLUMNS = 12


def order_table(
    hypotheses: Mapping[str, str],
    references: Sequence[str],
    max_order: int = 4,
    smoothing: str | None = None,
    tokenizer: str = "whitespace",
) -> Table:
    """BLEU-1 to BLEU-``max_order`` (uniform weights) for each labelled hypothesis.

    Without smoothing (the default here) a zero precision shows as NLTK's
    tiny number, which is the point when word order is the subject.

    >>> row = order_table({"reversed": "d c b a"}, ["a b c d"], max_order=2).rows[0]
    >>> row[1], float(row[2]) < 1e-100
    ('1.0000', True)
    """
    if not isinstance(hypotheses, Mapping):
        raise TypeError(
            'hypotheses must map a label to a hypothesis text, e.g. {"reversed": "d c b a"}, '
            f"not {type(hypotheses).__name__}."
        )
    if isinstance(max_order, bool) or not isinstance(max_order, Integral):
        raise TypeError(f"max_order must be a whole number such as 4, not {max_order!r}.")
    if not 1 <= max_order <= MAX_ORDER_COLUMNS:
        raise ValueError(
            f"max_order must be from 1 to {MAX_ORDER_COLUMNS} (one column per order); "
            f"got {whole_number_text(max_order)}."
        )
    refs = [_tokens(r, f"reference {i}", tokenizer, False) for i, r in enumerate(_texts(references), start=1)]
    weights = [tuple([1 / k] * k) for k in range(1, int(max_order) + 1)]
    func, _ = resolve_smoothing(smoothing)
    rows = []
    for label, text in hypotheses.items():
        hyp = _tokens(text, f"hypothesis {label!r}", tokenizer, False)
        scores = sentence_bleu(refs, hyp, weights, smoothing_function=quietly(func))
        # NLTK's rule: a list holding one weight tuple gives one score, not a list.
        rows.append([label, *[format_number(s) for s in (scores if isinstance(scores, list) else [scores])]])
    return Table(["hypothesis", *[f"BLEU-{k}" for k in range(1, max_order + 1)]], rows)


# ---------------------------------------------------------------------------
# Permuting a hypothesis at its bigram mismatches (Callison-Burch et al. 2006)
# ---------------------------------------------------------------------------

Chunk = tuple[Hashable, ...]


def _reference_bigrams(references: Sequence[Sequence[Hashable]]) -> set[tuple[Hashable, ...]]:
    return set(max_reference_counts(check_references(references), 2))


def bigram_mismatch_chunks(references: Sequence[Sequence[Hashable]], hypothesis: Sequence[Hashable]) -> list[Chunk]:
    """Cut the hypothesis between two tokens wherever their bigram occurs in no reference.

    The chunks are the maximal pieces of the hypothesis whose neighbouring
    tokens form bigrams found in some reference (Callison-Burch, Osborne and
    Koehn, 2006, section 3).  ``references`` is a list of token lists, as
    for :func:`bleu_teach.sentence_bleu`.

    >>> bigram_mismatch_chunks([["the", "cat", "sat", "on", "the", "mat"]],
    ...                        ["the", "cat", "was", "on", "the", "mat"])
    [('the', 'cat'), ('was',), ('on', 'the', 'mat')]
    """
    seen = _reference_bigrams(references)
    hyp = check_tokens(hypothesis, "hypothesis")
    if not hyp:
        return []
    chunks: list[list[Hashable]] = [[hyp[0]]]
    for bigram in ngrams(hyp, 2):
        if bigram in seen:
            chunks[-1].append(bigram[1])
        else:
            chunks.append([bigram[1]])
    return [tuple(chunk) for chunk in chunks]


def _check_order(order: Any, k: int) -> tuple[int, ...]:
    if isinstance(order, (str, bytes)) or not isinstance(order, Sequence):
        raise TypeError(f"order must be a list of chunk numbers, e.g. {list(range(k, 0, -1))}.")
    numbers = tuple(order)
    if any(isinstance(x, bool) or not isinstance(x, Integral) for x in numbers):
        raise TypeError(f"order must list whole chunk numbers, e.g. {list(range(k, 0, -1))}; got {list(numbers)}.")
    numbers = tuple(int(x) for x in numbers)
    if sorted(numbers) != list(range(1, k + 1)):
        raise ValueError(
            f"order must use each chunk number 1 to {k} exactly once, e.g. {list(range(k, 0, -1))}; "
            f"got {list(numbers)}."
        )
    return numbers


def permute_chunks(chunks: Sequence[Sequence[Hashable]], order: Sequence[int]) -> list[Hashable]:
    """The tokens of ``chunks`` put together in ``order`` (chunk numbers counted from 1).

    >>> permute_chunks([("the", "cat"), ("was",), ("on", "the", "mat")], [3, 2, 1])
    ['on', 'the', 'mat', 'was', 'the', 'cat']
    """
    numbers = _check_order(order, len(chunks))
    return [token for i in numbers for token in chunks[i - 1]]


def new_junction_matches(
    references: Sequence[Sequence[Hashable]], chunks: Sequence[Sequence[Hashable]], order: Sequence[int]
) -> list[tuple[Hashable, Hashable]]:
    """The bigrams at the junctions of the new order that occur in a reference.

    Empty means that the permutation keeps every clipped count of every order
    (see the module notes); otherwise counts of order 2 and up may rise.

    >>> chunks = [("c", "d"), ("x",), ("a", "b")]
    >>> new_junction_matches([["a", "b", "c", "d"]], chunks, [3, 1, 2])
    [('b', 'c')]
    >>> new_junction_matches([["a", "b", "c", "d"]], chunks, [2, 1, 3])
    []
    """
    numbers = _check_order(order, len(chunks))
    seen = _reference_bigrams(references)
    junctions = [(chunks[i - 1][-1], chunks[j - 1][0]) for i, j in zip(numbers, numbers[1:])]
    return [bigram for bigram in junctions if bigram in seen]


def _join(tokens: Sequence[Hashable]) -> str:
    return " ".join(str(t) for t in tokens)


def _token_strings(tokens: Sequence[Hashable]) -> tuple[str, ...]:
    return tuple(str(t) for t in tokens)


_CHUNK_HEADER = ("", "original", "permuted")


@dataclass(frozen=True, repr=False)
class ChunkPermutation(Viewable):
    """A hypothesis, its chunks, a new order of the chunks and both versions scored.

    ``original`` and ``permuted`` are the reports of BLEU-``max_order``
    (uniform weights, ``smoothing``); ``original_scores`` and
    ``permuted_scores`` are BLEU-1 to BLEU-``max_order``.  Shown (text,
    HTML, Markdown, LaTeX) as the references, the chunks, both versions and
    a table of their counts and scores side by side, then the verdict.
    """

    references: tuple[tuple[Hashable, ...], ...]
    hypothesis: tuple[Hashable, ...]
    chunks: tuple[Chunk, ...]
    order: tuple[int, ...]
    permuted: tuple[Hashable, ...]
    new_matches: tuple[tuple[Hashable, Hashable], ...]
    original: BleuReport
    permuted_report: BleuReport
    original_scores: tuple[float, ...]
    permuted_scores: tuple[float, ...]
    smoothing: str

    @property
    def same_scores(self) -> bool:
        """Whether BLEU-1 to BLEU-N are exactly equal for the two versions."""
        return self.original_scores == self.permuted_scores

    @property
    def rows(self) -> list[list[str]]:
        """The table's cells: p_n as clipped/total, BP, then BLEU-1 to BLEU-N, original and permuted."""
        rows = [
            [f"p_{a.n}", f"{a.clipped}/{a.total}", f"{b.clipped}/{b.total}"]
            for a, b in zip(self.original.orders, self.permuted_report.orders)
        ]
        rows.append(
            [
                "BP",
                format_number(float(self.original.brevity_penalty)),
                format_number(float(self.permuted_report.brevity_penalty)),
            ]
        )
        rows += [
            [f"BLEU-{k}", format_number(a), format_number(b)]
            for k, (a, b) in enumerate(zip(self.original_scores, self.permuted_scores), start=1)
        ]
        return rows

    @property
    def verdict(self) -> str:
        """Whether a new junction forms a reference bigram, and so whether the scores may differ."""
        if self.new_matches:
            found = ", ".join(_join(b) for b in self.new_matches)
            return (
                f"A new junction forms a bigram of a reference ({found}): counts of order 2 and up can rise, "
                f"so the scores may differ."
            )
        same = "the same" if self.same_scores else "NOT the same (please report this)"
        return (
            f"No new junction forms a bigram of a reference: every count above is unchanged, and BLEU-1 to "
            f"BLEU-{len(self.original_scores)} are {same}."
        )

    def to_document(self) -> Document:
        """The references, the numbered chunks, both versions, their counts and scores side by side, the verdict."""
        chunks = " | ".join(f"[{i}] {_join(chunk)}" for i, chunk in enumerate(self.chunks, start=1))
        return Document(
            (
                *[
                    Paragraph((Strong(f"Reference {i}"), ": ", Tokens(_token_strings(r))))
                    for i, r in enumerate(self.references, start=1)
                ],
                Paragraph((Strong("Chunks"), " (cut wherever a bigram occurs in no reference): ", chunks)),
                Paragraph((Strong("Original"), ": ", Tokens(_token_strings(self.hypothesis)))),
                Paragraph(
                    (
                        Strong(f"Order {' '.join(str(i) for i in self.order)}"),
                        ": ",
                        Tokens(_token_strings(self.permuted)),
                    )
                ),
                TableBlock(_CHUNK_HEADER, tuple(tuple(row) for row in self.rows), label_column=True),
                Paragraph(("(smoothing: ", self.smoothing, ") ", self.verdict)),
            )
        )


def _bleu_1_to(
    references: Sequence[Sequence[Hashable]], hypothesis: Sequence[Hashable], max_order: int, smoothing: Any
) -> tuple[float, ...]:
    func, _ = resolve_smoothing(smoothing)
    weights = [tuple([1 / k] * k) for k in range(1, max_order + 1)]
    scores = sentence_bleu(references, hypothesis, weights, smoothing_function=quietly(func))
    return tuple(float(s) for s in (scores if isinstance(scores, list) else [scores]))


def chunk_permutation(
    hypothesis: str,
    references: Sequence[str],
    order: Sequence[int] | None = None,
    max_order: int = 4,
    smoothing: str | None = None,
    tokenizer: str = "whitespace",
) -> ChunkPermutation:
    """Cut a hypothesis at its bigram mismatches, reorder the chunks and score both versions.

    ``order`` lists the chunk numbers (from 1) in their new order; by default
    the chunks are reversed.  Scores are NLTK's sentence BLEU-1 to
    BLEU-``max_order`` with uniform weights (unsmoothed by default, as the
    word-order table of lesson 05).

    >>> result = chunk_permutation("the cat was on the mat", ["the cat sat on the mat"], order=[3, 2, 1])
    >>> " ".join(result.permuted), result.same_scores, result.new_matches
    ('on the mat was the cat', True, ())
    """
    if not isinstance(hypothesis, str):
        raise TypeError(
            "hypothesis must be one string (raw text), given first: (hypothesis, references), as in sacreBLEU."
        )
    max_order = check_orders(max_order, "max_order", "4 = BLEU-4")
    refs = [_tokens(r, f"reference {i}", tokenizer, False) for i, r in enumerate(_texts(references), start=1)]
    hyp = _tokens(hypothesis, "hypothesis", tokenizer, False)
    chunks = bigram_mismatch_chunks(refs, hyp)
    numbers = _check_order(list(range(len(chunks), 0, -1)) if order is None else order, len(chunks))
    permuted = permute_chunks(chunks, numbers)
    _, name = resolve_smoothing(smoothing)
    weights = (1 / max_order,) * max_order
    return ChunkPermutation(
        references=tuple(tuple(r) for r in refs),
        hypothesis=tuple(hyp),
        chunks=tuple(chunks),
        order=numbers,
        permuted=tuple(permuted),
        new_matches=tuple(new_junction_matches(refs, chunks, numbers)),
        original=explain(refs, hyp, weights=weights, smoothing=smoothing),
        permuted_report=explain(refs, permuted, weights=weights, smoothing=smoothing),
        original_scores=_bleu_1_to(refs, hyp, max_order, smoothing),
        permuted_scores=_bleu_1_to(refs, permuted, max_order, smoothing),
        smoothing=name,
    )
