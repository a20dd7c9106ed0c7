"""bleu_teach: learn, teach and demonstrate the BLEU metric, step by step.

The NLTK-compatible functions (``sentence_bleu``, ``corpus_bleu``,
``modified_precision``, ``closest_ref_length``, ``brevity_penalty`` and
``SmoothingFunction``) give NLTK's numbers exactly; ``explain`` and
``explain_corpus`` keep every intermediate number; ``corpus_score`` scores
raw strings the way sacreBLEU does; ``explain_chrf`` and ``chrf_score`` give
sacreBLEU's chrF and chrF++, every step kept.

Importing this package loads neither NLTK, sacreBLEU, matplotlib nor
ipywidgets: they are imported only by the functions that need them.
"""

from os import environ as _environ

from bleu_teach.bleu.comparison import HypothesisComparison
from bleu_teach.bleu.corpus_report import CorpusReport
from bleu_teach.bleu.explain import compare_hypotheses, explain, explain_corpus
from bleu_teach.bleu.nltk_api import (
    CountFraction,
    brevity_penalty,
    clipped_counts,
    closest_ref_length,
    corpus_bleu,
    max_reference_counts,
    modified_precision,
    ngram_counts,
    ngrams,
    plain_precision,
    sentence_bleu,
)
from bleu_teach.bleu.reports import BleuReport
from bleu_teach.bleu.sacrebleu_api import SacreScore, corpus_score, sentence_score
from bleu_teach.bleu.smoothing import SMOOTHING_METHODS, SmoothingFunction, ZeroPrecisionWarning
from bleu_teach.chrf.explain import chrf_score, explain_chrf
from bleu_teach.chrf.reports import ChrfCorpusScore, ChrfReport
from bleu_teach.inputs.corpus_layout import to_sacrebleu_references
from bleu_teach.inputs.tokenizers import TOKENIZERS, lowercase, tokenize

__version__ = "0.1.0"


def join(address: str, code: str | None = None, nickname: str | None = None) -> object:
    """Join a classroom session (``python -m bleu_teach class serve``): each ``check(...)`` then sends its answer
    there too, for the teacher's dashboard. ``address`` is the server's (its join address with ``?code=`` will do).
    """
    from bleu_teach.classroom.client import join as join_class

    return join_class(address, code, nickname)


if _environ.get("BLEU_TEACH_CLASS"):  # a hub set the class for everyone: join at the first check
    from bleu_teach.classroom.client import join_from_environment

    join_from_environment()

__all__ = [
    "BleuReport",
    "ChrfCorpusScore",
    "ChrfReport",
    "CorpusReport",
    "HypothesisComparison",
    "CountFraction",
    "SMOOTHING_METHODS",
    "SacreScore",
    "SmoothingFunction",
    "TOKENIZERS",
    "ZeroPrecisionWarning",
    "brevity_penalty",
    "chrf_score",
    "clipped_counts",
    "closest_ref_length",
    "compare_hypotheses",
    "corpus_bleu",
    "corpus_score",
    "explain",
    "explain_corpus",
    "explain_chrf",
    "join",
    "lowercase",
    "max_reference_counts",
    "modified_precision",
    "ngram_counts",
    "ngrams",
    "plain_precision",
    "sentence_bleu",
    "sentence_score",
    "to_sacrebleu_references",
    "tokenize",
]
