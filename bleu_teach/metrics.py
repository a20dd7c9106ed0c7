"""The metric registry: every metric the suite explains, registered once (as sacreBLEU's ``METRICS``).

Each :class:`Metric` says how to explain one sentence and a corpus of raw
text (with its options, so that the command line can offer them), how to
score on sacreBLEU's terms (0-100) for the lessons that compare metrics with
people, and which sacreBLEU metric is its oracle.  The command line, the
widgets and the agreement lesson loop over :data:`METRICS` instead of
switching on metric names: a new metric is a new folder (``bleu_teach/ter/``,
say) and one entry here.

>>> list(METRICS)
['BLEU', 'chrF']
>>> round(METRICS["chrF"].sentence_score("the cat sat", ["the cat sat down"]), 4)
66.0176
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional

from bleu_teach.bleu.explain import explain, explain_corpus_strings, explain_strings
from bleu_teach.bleu.sacrebleu_api import corpus_score, sentence_score
from bleu_teach.bleu.smoothing import SMOOTHING_METHODS, get_smoothing
from bleu_teach.chrf.arithmetic import BETA, CHAR_ORDER, WORD_ORDER
from bleu_teach.chrf.explain import chrf_score, explain_chrf
from bleu_teach.inputs.tokenizers import TOKENIZERS, tokenize
from bleu_teach.views.viewable import View, Viewable

__all__ = ["Option", "Metric", "METRICS", "metric"]


@dataclass(frozen=True)
class Option:
    """One setting of a metric's explainers: its keyword, type, default and help, as the command line offers it.

    ``choices`` (name: description) are listed in the help; with ``check``
    None they are also the only values accepted.  ``check(value)`` raises
    ``ValueError`` with a message for the learner (without the option's
    name) when a value cannot be used.  ``short`` is a one-letter flag.
    """

    name: str
    kind: type
    default: Any
    help: str
    choices: Mapping[str, str] = field(default_factory=dict)
    check: Optional[Callable[[Any], None]] = None
    short: str = ""

    @property
    def flag(self) -> str:
        """The command-line flag: ``max_n`` is ``--max-n``."""
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class Metric:
    """One metric: its explainers on raw text, its sacreBLEU-terms scores and its oracle.

    ``explain_sentence(hypothesis, references, **options)`` and
    ``explain_corpus(hypotheses, references, **options)`` (``references[i]``
    lists the texts of hypothesis i) return results with every view;
    ``sentence_score`` and ``corpus_score`` give sacreBLEU's numbers (0-100)
    with sacreBLEU's defaults; ``segment_view`` is the compact explanation a
    widget shows beside an expert judgement (``segment_how`` says in words how
    its score is made); ``oracle()`` builds the
    sacreBLEU metric object the tests compare with.  ``sentence_command``
    and ``corpus_command`` are the command-line names.
    """

    name: str
    description: str
    sentence_command: str
    corpus_command: str
    options: tuple[Option, ...]
    explain_sentence: Callable[..., Viewable]
    explain_corpus: Callable[..., Viewable]
    sentence_score: Callable[[str, Sequence[Optional[str]]], float]
    corpus_score: Callable[[Sequence[str], Sequence[Sequence[Optional[str]]]], float]
    segment_view: Callable[[str, Sequence[str]], Viewable]
    segment_how: str
    oracle: Callable[[], Any]
    lower_is_better: bool = False


def _bleu_oracle() -> Any:
    from sacrebleu.metrics import BLEU as SacreBLEU

    return SacreBLEU()


def _chrf_oracle() -> Any:
    from sacrebleu.metrics import CHRF

    return CHRF()


#: The most n-gram orders a command asks for.  Each order is counted, combined and kept in the JSON view (1,000
#: orders answer in milliseconds); more has no use in teaching BLEU (4 is the standard, and every order past a
#: sentence's length is a 0/1 that the views summarise).
MAX_ORDERS = 1_000


def _at_least_one(value: int) -> None:
    if value < 1:
        raise ValueError(f"must be at least 1 (1 = unigrams only, 4 = BLEU-4), got {value}")
    if value > MAX_ORDERS:
        raise ValueError(f"must be at most {MAX_ORDERS:,} (4 = BLEU-4), got {len(str(value))} digits"
                         if value > 10**12 else f"must be at most {MAX_ORDERS:,} (4 = BLEU-4), got {value:,}")


def _smoothing(value: str) -> None:
    get_smoothing(value)


def _bleu_segment(hypothesis: str, references: Sequence[str]) -> Viewable:
    # sacreBLEU's sentence_bleu on NLTK's terms: 13a tokens, exp smoothing = method 3, effective order = auto_reweigh.
    report = explain([tokenize(r, "13a") for r in references], tokenize(hypothesis, "13a"), smoothing="method3",
                     auto_reweigh=True)
    return View(report.to_document(compact=True), report)


BLEU = Metric(
    name="BLEU",
    description="BLEU (Papineni et al., 2002): clipped n-gram precisions and a brevity penalty",
    sentence_command="explain",
    corpus_command="corpus",
    options=(
        Option("tokenizer", str, "whitespace", "how to split text into tokens (default: whitespace; see the list below)",
               TOKENIZERS, short="t"),
        Option("lowercase", bool, False, "lowercase the text before tokenizing, so 'The' and 'the' match", short="l"),
        Option("max_n", int, 4, "count n-grams of orders 1 to N, each with weight 1/N (default: 4, i.e. BLEU-4)",
               check=_at_least_one, short="n"),
        Option("smoothing", str, "method0", "what to do with a zero n-gram precision: method0 to method7, or just "
               "0 to 7 (default: method0, no smoothing; see the list below)", SMOOTHING_METHODS,
               check=_smoothing, short="s"),
    ),
    explain_sentence=explain_strings,
    explain_corpus=explain_corpus_strings,
    sentence_score=lambda hypothesis, references: sentence_score(hypothesis, references).score,
    corpus_score=lambda hypotheses, references: corpus_score(hypotheses, references,
                                                             orientation="per_hypothesis").score,
    segment_view=_bleu_segment,
    segment_how=("sentence BLEU = 100 \u00d7 the score below: sacreBLEU's sentence_bleu (13a tokens, exp smoothing "
                 "= NLTK's method 3, effective order = auto_reweigh)"),
    oracle=_bleu_oracle,
)

CHRF = Metric(
    name="chrF",
    description="chrF (Popovic, 2015) and chrF++ (Popovic, 2017): character (and word) n-gram F-score",
    sentence_command="chrf",
    corpus_command="chrf-corpus",
    options=(
        Option("char_order", int, CHAR_ORDER, f"character n-grams of orders 1 to N (default: {CHAR_ORDER})"),
        Option("word_order", int, WORD_ORDER, f"word n-grams of orders 1 to N (default: {WORD_ORDER}; 2 gives chrF++)"),
        Option("beta", float, BETA, f"recall counts beta times as much as precision (default: {BETA})"),
        Option("lowercase", bool, False, "lowercase hypothesis and references first", short="l"),
        Option("whitespace", bool, False, "keep whitespace inside the character n-grams"),
        Option("eps_smoothing", bool, False, "average the per-order F-scores over all orders, as Popovic's chrF++.py"),
    ),
    explain_sentence=explain_chrf,
    explain_corpus=lambda hypotheses, references, **options: chrf_score(
        hypotheses, references, orientation="per_hypothesis", **options),
    sentence_score=lambda hypothesis, references: chrf_score([hypothesis], [list(references)]).score,
    corpus_score=lambda hypotheses, references: chrf_score(hypotheses, references, orientation="per_hypothesis").score,
    segment_view=lambda hypothesis, references: explain_chrf(hypothesis, references),
    segment_how="sentence chrF, step by step (sacreBLEU's sentence_chrf)",
    oracle=_chrf_oracle,
)

#: Every registered metric by name, in the order the interfaces list them.
METRICS: dict[str, Metric] = {m.name: m for m in (BLEU, CHRF)}


def metric(name: Any) -> Metric:
    """The registered metric called ``name`` (as in :data:`METRICS`); a clear error otherwise."""
    if not isinstance(name, str):
        raise TypeError(f"metric must be a name, one of {', '.join(METRICS)}; not {type(name).__name__}.")
    found = [key for key in METRICS if key.lower() == name.strip().lower()]  # "bleu" and "CHRF" too
    if not found:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}; not {name!r}.")
    return METRICS[found[0]]
