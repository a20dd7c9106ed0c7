"""One corpus scored under several reporting settings (lesson 06): the same outputs, different BLEU."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from bleu_teach.bleu.nltk_api import corpus_bleu
from bleu_teach.bleu.sacrebleu_api import corpus_score
from bleu_teach.bleu.smoothing import get_smoothing, quietly
from bleu_teach.inputs.corpus_layout import check_inputs
from bleu_teach.inputs.validation import check_bool
from bleu_teach.views.document import Document
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.viewable import Viewable

__all__ = ["REPORTING_SETTINGS", "SettingScore", "SettingsScores", "settings_scores"]


#: Settings that change a corpus BLEU score without changing a single output.
REPORTING_SETTINGS: dict[str, dict[str, Any]] = {
    "sacreBLEU default (13a, case-sensitive)": {"tokenize": "13a"},
    "sacreBLEU, lowercased": {"tokenize": "13a", "lowercase": True},
    "sacreBLEU intl tokenizer": {"tokenize": "intl"},
    "sacreBLEU no tokenization (none)": {"tokenize": "none"},
    "sacreBLEU character tokens (char)": {"tokenize": "char"},
}


@dataclass(frozen=True)
class SettingScore:
    """One setting's corpus score (0-100) and its signature (None: a home-made setup with none)."""

    setting: str
    score: float
    signature: str | None


_SETTINGS_HEADER = ("setting", "BLEU", "signature")


@dataclass(frozen=True, repr=False)
class SettingsScores(Viewable):
    """The same outputs scored under several settings, one :class:`SettingScore` each.

    Shown as a table (text in a terminal, HTML in a notebook, Markdown,
    LaTeX); ``rows`` gives that table's cells as strings.
    """

    scores: tuple[SettingScore, ...]

    @property
    def rows(self) -> list[list[str]]:
        """The cells of the table as shown: setting, BLEU (0-100) to 2 decimals, signature."""
        return [
            [
                s.setting,
                f"{s.score:.2f}",
                s.signature if s.signature is not None else "(none: nobody can tell how it was tokenized)",
            ]
            for s in self.scores
        ]

    def to_document(self) -> Document:
        """One row per setting: its label, BLEU, and its signature."""
        return Document((TableBlock(_SETTINGS_HEADER, tuple(tuple(row) for row in self.rows)),))


#: The corpus_score options a setting may give.
_SCORE_OPTIONS = ("tokenize", "lowercase", "smooth_method", "smooth_value", "max_ngram_order", "effective_order")


def settings_scores(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    settings: dict[str, dict[str, Any]] | None = None,
    with_whitespace_corpus_bleu: bool = True,
    *,
    orientation: str | None = None,
) -> SettingsScores:
    """The same outputs scored under several settings, each with its signature.

    ``settings`` maps a label to :func:`corpus_score` options (default
    :data:`REPORTING_SETTINGS`).  The last row (optional) is NLTK-style
    ``corpus_bleu`` on whitespace tokens, a common home-made setup, scaled to
    0-100; it has no signature at all.  ``orientation`` as in
    :func:`corpus_score`.

    >>> result = settings_scores(["The cat sat on the mat ."], [["the cat sat on the mat ."]])
    >>> [round(s.score, 2) for s in result.scores], result.scores[-1].signature
    ([80.91, 100.0, 80.91, 80.91, 93.91, 80.91], None)
    """
    per_hyp = check_inputs(hypotheses, references, orientation)
    if settings is not None and not isinstance(settings, dict):
        raise TypeError("settings must be a dict of {label: dict of corpus_score options}, or None for the defaults.")
    check_bool(with_whitespace_corpus_bleu, "with_whitespace_corpus_bleu")
    rows = []
    for label, options in (REPORTING_SETTINGS if settings is None else settings).items():
        if not isinstance(options, dict):
            raise TypeError(
                f"settings[{label!r}] must be a dict of corpus_score options such as "
                f"{{'tokenize': 'intl'}}, not {type(options).__name__}."
            )
        if unknown := set(options) - set(_SCORE_OPTIONS):
            raise ValueError(
                f"settings[{label!r}] has {', '.join(map(repr, sorted(unknown)))}, which corpus_score "
                f"does not take; its options are {', '.join(_SCORE_OPTIONS)}."
            )
        result = corpus_score(hypotheses, per_hyp, **options, orientation="per_hypothesis")
        rows.append(SettingScore(str(label), result.score, result.signature))
    if with_whitespace_corpus_bleu:
        hyps = [h.split() for h in hypotheses]
        refs = [[r.split() for r in group if r is not None] for group in per_hyp]
        # One weight tuple gives one float; a zero precision is shown as NLTK's number, without a warning.
        whitespace = cast(float, corpus_bleu(refs, hyps, smoothing_function=quietly(get_smoothing(None))))
        rows.append(SettingScore("corpus_bleu on whitespace tokens x 100", 100 * whitespace, None))
    return SettingsScores(tuple(rows))
