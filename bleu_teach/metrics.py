"""The metric registry: every metric the suite scores, registered once (as sacreBLEU's ``METRICS``).

Each :class:`Metric` says how to score on sacreBLEU's terms (0-100) for the
lessons that compare metrics with people, which way is better (``direction``:
TER is an error rate, lower is better), and which sacreBLEU metric is its
oracle.  A metric the suite explains step by step also has its settings, as a
dataclass whose fields the command line offers as options, and its
explainers of one sentence and of a corpus of raw text; a metric scored by
sacreBLEU alone (TER) has none, and is scored and correlated all the same.
The command line, the widgets, the plots and the agreement lesson loop over
:data:`METRICS` and read these facts from it instead of switching on metric
names: a new metric is a new folder (``bleu_teach/ter/``, say) and one entry
here.

Like sacreBLEU's metrics, a metric scores in three steps: each segment's
sufficient statistics (``statistics``: numbers that add up over a test set),
their column sums, and the score of the sums (``from_statistics``). Its
corpus score is the score of all the segments' sums, and a sentence is a
corpus of one (``sentence=True`` for the settings sacreBLEU uses on one
sentence: BLEU's effective order). A bootstrap or a paired test resamples
the rows of :meth:`Metric.segment_statistics` and scores them with
:meth:`Metric.score_statistics`, never recounting a sentence.

The order limit of every metric is :data:`MAX_ORDERS`, here alone.

>>> list(METRICS)
['BLEU', 'chrF', 'TER']
>>> round(METRICS["chrF"].sentence_score("the cat sat", ["the cat sat down"]), 4)
66.0176
>>> [(m.name, m.direction, m.explained) for m in METRICS.values()]
[('BLEU', 'higher', True), ('chrF', 'higher', True), ('TER', 'lower', False)]
>>> [o.flag for o in METRICS["BLEU"].options]
['--tokenizer', '--lowercase', '--max-n', '--smoothing']
>>> hyps, refs = ["the cat sat on the mat", "a dog"], [["the cat sat on a mat"], ["a dog barks"]]
>>> rows = METRICS["BLEU"].segment_statistics(hyps, refs)
>>> rows
[(6, 6, 5, 3, 2, 1, 6, 5, 4, 3), (2, 3, 2, 1, 0, 0, 2, 1, 0, 0)]
>>> round(METRICS["BLEU"].score_statistics(rows), 4) == round(METRICS["BLEU"].corpus_score(hyps, refs), 4)
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from bleu_teach.bleu.arithmetic import sacrebleu_score_counts
from bleu_teach.bleu.explain import explain, explain_corpus_strings, explain_strings
from bleu_teach.bleu.sacrebleu_api import segment_statistics as bleu_statistics
from bleu_teach.bleu.smoothing import SMOOTHING_METHODS, get_smoothing
from bleu_teach.chrf.arithmetic import BETA, CHAR_ORDER, WORD_ORDER, chrf_from_counts
from bleu_teach.chrf.counting import ChrfOrderCounts
from bleu_teach.chrf.explain import chrf_score, explain_chrf
from bleu_teach.inputs.corpus_layout import check_inputs
from bleu_teach.inputs.optional import needs
from bleu_teach.inputs.tokenizers import TOKENIZERS, tokenize
from bleu_teach.inputs.validation import MAX_ORDERS, order_cap_message
from bleu_teach.views.viewable import View, Viewable

__all__ = [
    "Option",
    "Metric",
    "METRICS",
    "MAX_ORDERS",
    "BleuSettings",
    "ChrfSettings",
    "option",
    "metric",
    "explained_metrics",
]


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
    check: Callable[[Any], None] | None = None
    short: str = ""

    @property
    def flag(self) -> str:
        """The command-line flag: ``max_n`` is ``--max-n``."""
        return "--" + self.name.replace("_", "-")


def option(
    help: str, choices: Mapping[str, str] | None = None, check: Callable[[Any], None] | None = None, short: str = ""
) -> dict[str, Any]:
    """A settings field's metadata: how the command line offers it (see :class:`Option`)."""
    return {"option": {"help": help, "choices": dict(choices or {}), "check": check, "short": short}}


@dataclass(frozen=True)
class Metric:
    """One metric: its sacreBLEU-terms scores, its direction, its oracle, and (if explained) its settings and
    explainers.

    ``statistics(hypothesis, references)`` counts one segment and
    ``from_statistics(sums, sentence)`` scores summed counts; from them
    ``sentence_score`` and ``corpus_score`` give sacreBLEU's numbers (0-100)
    with sacreBLEU's defaults (``references[i]`` lists the texts of
    hypothesis i); ``direction`` is ``"higher"`` or ``"lower"`` (is better);
    ``oracle(sentence=False)`` builds the sacreBLEU metric object the tests compare with (``sentence=True``: with
    the settings sacreBLEU uses on one sentence, as ``from_statistics`` takes ``sentence``).

    A metric the suite explains has ``settings`` (a dataclass: each field a
    setting with its default, and its :func:`option` metadata for the command
    line), ``explain_sentence(hypothesis, references, **settings)`` and
    ``explain_corpus(hypotheses, references, **settings)``, which return
    results with every view, ``segment_view``, the compact explanation a
    widget shows beside an expert judgement (``segment_how`` says in words how
    its score is made), and the command-line names ``sentence_command`` and
    ``corpus_command``.  ``scored_by`` says whose code computes the score.
    """

    name: str
    description: str
    #: One segment's sufficient statistics (sacreBLEU's defaults): numbers that add up over a test set.
    statistics: Callable[[str, Sequence[str | None]], tuple[float, ...]]
    #: The score (0-100) of summed statistics; ``sentence`` True for sacreBLEU's settings for one sentence.
    from_statistics: Callable[[Sequence[float], bool], float]
    oracle: Callable[..., Any]
    direction: str = "higher"
    scored_by: str = "bleu_teach"
    settings: type | None = None
    sentence_command: str = ""
    corpus_command: str = ""
    explain_sentence: Callable[..., Viewable] | None = None
    explain_corpus: Callable[..., Viewable] | None = None
    segment_view: Callable[[str, Sequence[str]], Viewable] | None = None
    segment_how: str = ""

    def __post_init__(self) -> None:
        if self.direction not in ("higher", "lower"):
            raise ValueError(f"Metric {self.name}: direction must be 'higher' or 'lower', not {self.direction!r}.")

    def segment_statistics(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]
    ) -> list[tuple[float, ...]]:
        """One row of sufficient statistics per hypothesis (``references[i]`` lists the texts of hypothesis i)."""
        per_hypothesis = check_inputs(hypotheses, references, "per_hypothesis")
        return [self.statistics(h, refs) for h, refs in zip(hypotheses, per_hypothesis)]

    def score_statistics(self, rows: Sequence[Sequence[float]], sentence: bool = False) -> float:
        """The score (0-100) of these rows' column sums: the test set they count, or one sentence's row."""
        if not rows:
            raise ValueError(f"{self.name}: rows is empty; give one row of statistics per segment.")
        return self.from_statistics([sum(column) for column in zip(*rows)], sentence)

    def sentence_score(self, hypothesis: str, references: Sequence[str | None]) -> float:
        """sacreBLEU's sentence score (0-100): the sentence as a corpus of one."""
        return self.score_statistics(self.segment_statistics([hypothesis], [references]), sentence=True)

    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]]) -> float:
        """sacreBLEU's corpus score (0-100) with its defaults: the score of every segment's summed statistics."""
        return self.score_statistics(self.segment_statistics(hypotheses, references))

    @property
    def lower_is_better(self) -> bool:
        """True for an error rate (TER): a lower score means a better translation."""
        return self.direction == "lower"

    @property
    def explained(self) -> bool:
        """Whether the suite explains this metric step by step (it has settings and explainers)."""
        return self.settings is not None and self.explain_sentence is not None and self.explain_corpus is not None

    @property
    def options(self) -> tuple[Option, ...]:
        """The settings as the command line offers them, one :class:`Option` per field of ``settings``."""
        if self.settings is None:
            return ()
        found = []
        for f in fields(self.settings):
            default = f.default if f.default is not MISSING else None
            found.append(Option(f.name, type(default), default, **f.metadata["option"]))
        return tuple(found)


def _bleu_oracle(sentence: bool = False) -> Any:
    needs("sacrebleu", "sacreBLEU's BLEU (the oracle)")
    from sacrebleu.metrics import BLEU as SacreBLEU

    return SacreBLEU(effective_order=sentence)  # what sacrebleu.sentence_bleu sets for one sentence


def _chrf_oracle(sentence: bool = False) -> Any:
    needs("sacrebleu", "sacreBLEU's chrF (the oracle)")
    from sacrebleu.metrics import CHRF

    return CHRF()


def _at_least_one(value: int) -> None:
    if value < 1:
        raise ValueError(f"must be at least 1 (1 = unigrams only, 4 = BLEU-4), got {value}")
    if value > MAX_ORDERS:
        raise ValueError(order_cap_message(value))


def _smoothing(value: str) -> None:
    get_smoothing(value)


@dataclass(frozen=True)
class BleuSettings:
    """BLEU's settings, as :func:`~bleu_teach.bleu.explain.explain_strings` takes them."""

    tokenizer: str = field(
        default="whitespace",
        metadata=option(
            "how to split text into tokens (default: whitespace; see the list below)", TOKENIZERS, short="t"
        ),
    )
    lowercase: bool = field(
        default=False, metadata=option("lowercase the text before tokenizing, so 'The' and 'the' match", short="l")
    )
    max_n: int = field(
        default=4,
        metadata=option(
            "count n-grams of orders 1 to N, each with weight 1/N (default: 4, i.e. BLEU-4)",
            check=_at_least_one,
            short="n",
        ),
    )
    smoothing: str = field(
        default="method0",
        metadata=option(
            "what to do with a zero n-gram precision: method0 to method7, or just 0 to 7 (default: method0, no "
            "smoothing; see the list below)",
            SMOOTHING_METHODS,
            check=_smoothing,
            short="s",
        ),
    )


@dataclass(frozen=True)
class ChrfSettings:
    """chrF's settings, as :func:`~bleu_teach.chrf.explain.explain_chrf` takes them."""

    char_order: int = field(
        default=CHAR_ORDER, metadata=option(f"character n-grams of orders 1 to N (default: {CHAR_ORDER})")
    )
    word_order: int = field(
        default=WORD_ORDER, metadata=option(f"word n-grams of orders 1 to N (default: {WORD_ORDER}; 2 gives chrF++)")
    )
    beta: float = field(
        default=BETA, metadata=option(f"recall counts beta times as much as precision (default: {BETA})")
    )
    lowercase: bool = field(default=False, metadata=option("lowercase hypothesis and references first", short="l"))
    whitespace: bool = field(default=False, metadata=option("keep whitespace inside the character n-grams"))
    eps_smoothing: bool = field(
        default=False, metadata=option("average the per-order F-scores over all orders, as Popovic's chrF++.py")
    )


def _bleu_from_statistics(sums: Sequence[float], sentence: bool) -> float:
    # sacreBLEU's BLEU(): exp smoothing, 4-grams; sentence_bleu turns effective order on.
    c, r, *counts = (int(x) for x in sums)
    return sacrebleu_score_counts(counts[:4], counts[4:], c, r, "exp", effective_order=sentence).score


#: chrF's statistics per order (character orders 1-6, sacreBLEU's default): the four counts of ChrfOrderCounts.
_CHRF_FIELDS = ("matches", "hyp_total", "ref_total", "hyp_ngrams")


def _chrf_statistics(hypothesis: str, references: Sequence[str | None]) -> tuple[float, ...]:
    # The counts against the reference chrF keeps for the segment (the first with the highest sentence chrF).
    (segment,) = chrf_score([hypothesis], [list(references)]).segments
    return tuple(getattr(order, name) for order in segment.counts for name in _CHRF_FIELDS)


def _chrf_from_statistics(sums: Sequence[float], sentence: bool) -> float:
    per_order = len(_CHRF_FIELDS)
    orders = []
    for n in range(len(sums) // per_order):
        matches, hyp_total, ref_total, hyp_ngrams = (int(x) for x in sums[n * per_order : (n + 1) * per_order])
        orders.append(ChrfOrderCounts("char", n + 1, matches, hyp_total, ref_total, hyp_ngrams))
    return chrf_from_counts(orders).score


def _bleu_segment(hypothesis: str, references: Sequence[str]) -> Viewable:
    # sacreBLEU's sentence_bleu on NLTK's terms: 13a tokens, exp smoothing = method 3, effective order = auto_reweigh.
    report = explain(
        [tokenize(r, "13a") for r in references], tokenize(hypothesis, "13a"), smoothing="method3", auto_reweigh=True
    )
    return View(report.to_document(compact=True), report)


BLEU = Metric(
    name="BLEU",
    description="BLEU (Papineni et al., 2002): clipped n-gram precisions and a brevity penalty",
    sentence_command="explain",
    corpus_command="corpus",
    settings=BleuSettings,
    explain_sentence=explain_strings,
    explain_corpus=explain_corpus_strings,
    statistics=lambda hypothesis, references: bleu_statistics(hypothesis, references),
    from_statistics=_bleu_from_statistics,
    segment_view=_bleu_segment,
    segment_how=(
        "sentence BLEU = 100 \u00d7 the score below: sacreBLEU's sentence_bleu (13a tokens, exp smoothing "
        "= NLTK's method 3, effective order = auto_reweigh)"
    ),
    oracle=_bleu_oracle,
)

CHRF = Metric(
    name="chrF",
    description="chrF (Popovic, 2015) and chrF++ (Popovic, 2017): character (and word) n-gram F-score",
    sentence_command="chrf",
    corpus_command="chrf-corpus",
    settings=ChrfSettings,
    explain_sentence=explain_chrf,
    explain_corpus=lambda hypotheses, references, **options: chrf_score(
        hypotheses, references, orientation="per_hypothesis", **options
    ),
    statistics=_chrf_statistics,
    from_statistics=_chrf_from_statistics,
    segment_view=lambda hypothesis, references: explain_chrf(hypothesis, references),
    segment_how="sentence chrF, step by step (sacreBLEU's sentence_chrf)",
    oracle=_chrf_oracle,
)


def _ter_oracle(sentence: bool = False) -> Any:
    needs("sacrebleu", "TER (scored by sacreBLEU)")
    from sacrebleu.metrics import TER as SacreTER

    return SacreTER()


def _ter_statistics(hypothesis: str, references: Sequence[str | None]) -> tuple[float, ...]:
    # sacreBLEU's TER of one segment, through its public score: the fewest edits, the average reference length.
    score = _ter_oracle().sentence_score(hypothesis, [r for r in references if r is not None])
    return (float(score.num_edits), float(score.ref_length))


def _ter_from_statistics(sums: Sequence[float], sentence: bool) -> float:
    # Snover et al. (2006): edits per reference word; sacreBLEU's rule for empty references: 1 if any edit.
    edits, ref_length = sums
    return 100 * (edits / ref_length if ref_length > 0 else float(edits > 0))


TER = Metric(
    name="TER",
    description="TER (Snover et al., 2006): edits, block shifts included, per reference word; lower is better",
    statistics=_ter_statistics,
    from_statistics=_ter_from_statistics,
    oracle=_ter_oracle,
    direction="lower",
    scored_by="sacreBLEU",
)

#: Every registered metric by name, in the order the interfaces list them.
METRICS: dict[str, Metric] = {m.name: m for m in (BLEU, CHRF, TER)}


def explained_metrics() -> list[Metric]:
    """The metrics the suite explains step by step (the command line's commands, the segment-level lessons)."""
    return [m for m in METRICS.values() if m.explained]


def metric(name: Any) -> Metric:
    """The registered metric called ``name`` (as in :data:`METRICS`); a clear error otherwise."""
    if not isinstance(name, str):
        raise TypeError(f"metric must be a name, one of {', '.join(METRICS)}; not {type(name).__name__}.")
    found = [key for key in METRICS if key.lower() == name.strip().lower()]  # "bleu" and "CHRF" too
    if not found:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}; not {name!r}.")
    return METRICS[found[0]]
