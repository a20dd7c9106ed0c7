"""sacreBLEU's bootstrap confidence interval for corpus BLEU, and every resampled score it comes from.

:func:`bootstrap_ci` and :func:`bootstrap_distribution` give the interval of
``BLEU.corpus_score(..., n_bootstrap=N)``.  They are computed by
:mod:`bleu_teach.lessons.resampling` from the package's own counts, with the
same draws from the same seeded generator and the same arithmetic, so the
numbers equal sacreBLEU's (the tests run sacreBLEU beside them).  Each result
describes itself once (``to_document()``) and shows itself as a table.

ORIENTATION, as in :mod:`bleu_teach.bleu.sacrebleu_api`: ``references[i]`` lists the
reference strings of hypothesis i (``orientation="per_hypothesis"``, the
default reading), or ``references[k][i]`` is reference k of hypothesis i
(``orientation="streams"``, sacreBLEU's own layout).  A corpus of N >= 2
hypotheses with N lists of N strings reads both ways; then every function
here raises a ValueError asking for ``orientation=`` instead of guessing.

SACREBLEU QUIRKS, made explicit here:

* sacreBLEU reads its random seed from the ``SACREBLEU_SEED`` environment
  variable (default 12345), not from an argument.  Here ``seed=`` is an
  argument, given to the generator sacreBLEU seeds from that variable; the
  environment is left alone.
* The interval is sacreBLEU's: the mean of the resampled scores plus or minus
  half the width of the central 95% of them.
* :func:`bootstrap_distribution` keeps every resampled score, drawn exactly as
  sacreBLEU draws them (same seed, same order), so that the interval can be
  shown as a histogram beside the percentile interval.

The paired tests are :mod:`bleu_teach.lessons.significance`, which imports
these names too (lesson 06 imports them from there).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bleu_teach.inputs.corpus_layout import check_inputs
from bleu_teach.lessons.resampling import (
    DEFAULT_SEED,
    bootstrap,
    check_samples,
    check_seed,
    check_settings,
    interval,
    segment_statistics,
    signature,
)
from bleu_teach.views.document import Code, Document, Paragraph
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.viewable import Viewable

__all__ = ["ConfidenceInterval", "bootstrap_ci", "BootstrapDistribution", "bootstrap_distribution"]


@dataclass(frozen=True, repr=False)
class ConfidenceInterval(Viewable):
    """A corpus BLEU score (0-100) with sacreBLEU's bootstrap 95% interval.

    ``text`` is sacreBLEU's own line for it (``BLEU|nrefs:1|bs:1000|seed:12345|... = 71.95 (μ = ... ± ...) ...``).
    """

    score: float
    mean: float
    half_width: float
    n_samples: int
    seed: int
    text: str

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    def to_document(self) -> Document:
        """The score, sacreBLEU's interval (the mean of the resamples ± half the width of their central 95%),
        the resamples and the seed; then sacreBLEU's own line, with its signature."""
        row = (
            f"{self.score:.2f}",
            f"{self.mean:.2f} ± {self.half_width:.2f} = {self.low:.2f} to {self.high:.2f}",
            f"{self.n_samples:,}",
            str(self.seed),
        )
        header = ("BLEU (0-100)", "sacreBLEU's 95% interval: mean ± half-width", "resamples", "seed")
        return Document(
            (
                TableBlock(header, (row,), row_headers=False),  # one record: its first cell is data
                Paragraph(("sacreBLEU: ", Code(self.text))),
            )
        )


def _resampling(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    n_samples: int,
    seed: int,
    tokenize: str,
    lowercase: bool,
    smooth_method: str,
    orientation: str | None,
) -> tuple[ConfidenceInterval, tuple[float, ...]]:
    """``corpus_score(..., n_bootstrap=n_samples)`` done here: the interval and every resampled score."""
    per_hyp = check_inputs(hypotheses, references, orientation)
    n_samples = check_samples(n_samples, 40)
    seed = check_seed(seed)
    check_settings(tokenize, smooth_method, lowercase)
    whole, resampled = bootstrap(
        segment_statistics(list(hypotheses), per_hyp, tokenize, lowercase), n_samples, seed, smooth_method
    )
    scores = tuple(float(s.score) for s in resampled)
    whole.estimate_ci(resampled)  # sacreBLEU's public way to put "μ = mean ± half-width" in its line
    text = whole.format(signature=signature(per_hyp, tokenize, lowercase, smooth_method, bs=n_samples, seed=str(seed)))
    return ConfidenceInterval(float(whole.score), *interval(scores), n_samples, seed, text), scores


def bootstrap_ci(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
    *,
    orientation: str | None = None,
) -> ConfidenceInterval:
    """Corpus BLEU with sacreBLEU's bootstrap 95% confidence interval.

    The corpus is resampled ``n_samples`` times with replacement (sentences
    drawn at random, the same sentence possibly several times) and BLEU is
    recomputed on every resample.  ``orientation`` as in the module docstring.

    >>> ci = bootstrap_ci(["the cat sat", "a dog ran"], [["the cat sat"], ["the dog ran"]], n_samples=100)
    >>> ci.low <= ci.mean <= ci.high
    True
    """
    return _resampling(hypotheses, references, n_samples, seed, tokenize, lowercase, smooth_method, orientation)[0]


def _ordinal(k: int) -> str:
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


@dataclass(frozen=True, repr=False)
class BootstrapDistribution(Viewable):
    """sacreBLEU's bootstrap interval together with every resampled score it came from.

    ``scores`` are the BLEU scores (0-100) of the ``n_samples`` resampled test
    sets, in the order sacreBLEU draws them.  sacreBLEU sorts them, takes the
    ones at rank ``n // 40`` from each end (the 26th lowest and the 26th highest
    of 1,000), and reports the MEAN of all of them plus or minus HALF the
    distance between those two: an interval centred on the mean of the
    resamples, not on the score.  The percentile interval runs between the
    same two resampled scores (``percentile_low``, ``percentile_high``), so
    the two intervals have the same width and different centres.
    """

    interval: ConfidenceInterval
    scores: tuple[float, ...]

    @property
    def score(self) -> float:
        """BLEU of the test set itself."""
        return self.interval.score

    @property
    def mean(self) -> float:
        """The mean of the resampled scores (sacreBLEU's centre)."""
        return self.interval.mean

    @property
    def half_width(self) -> float:
        return self.interval.half_width

    @property
    def sacrebleu_low(self) -> float:
        return self.interval.low

    @property
    def sacrebleu_high(self) -> float:
        return self.interval.high

    @property
    def rank(self) -> int:
        """How many resampled scores lie below the percentile interval (and above it): n // 40."""
        return len(self.scores) // 40

    @property
    def percentile_low(self) -> float:
        """The 2.5th percentile, at sacreBLEU's rank: the (n // 40 + 1)-th lowest resampled score."""
        return sorted(self.scores)[self.rank]

    @property
    def percentile_high(self) -> float:
        """The 97.5th percentile, at sacreBLEU's rank: the (n // 40 + 1)-th highest resampled score."""
        return sorted(self.scores)[len(self.scores) - self.rank - 1]

    def to_document(self) -> Document:
        """The score, the resamples' mean, sacreBLEU's interval and the percentile interval, to 2 decimals."""
        low_rank = _ordinal(self.rank + 1)
        rows = (
            ("BLEU of the test set", f"{self.score:.2f}"),
            (f"mean of the {len(self.scores):,} resampled scores", f"{self.mean:.2f}"),
            (
                "sacreBLEU's 95% interval: mean ± half-width",
                f"{self.mean:.2f} ± {self.half_width:.2f} = {self.sacrebleu_low:.2f} to {self.sacrebleu_high:.2f}",
            ),
            (
                f"percentile 95% interval: {low_rank} lowest to {low_rank} highest resampled score",
                f"{self.percentile_low:.2f} to {self.percentile_high:.2f}",
            ),
        )
        return Document((TableBlock(("", "BLEU (0-100)"), rows),))


def bootstrap_distribution(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str | None]],
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
    *,
    orientation: str | None = None,
) -> BootstrapDistribution:
    """:func:`bootstrap_ci`, plus the resampled scores the interval was computed from.

    The scores are drawn as sacreBLEU draws them (same seed, same order), so
    their mean and the half-width computed from them are sacreBLEU's numbers
    (the tests check it).

    >>> dist = bootstrap_distribution(["the cat sat", "a dog ran"], [["the cat sat"], ["the dog ran"]], n_samples=40)
    >>> len(dist.scores), dist.percentile_high - dist.percentile_low == 2 * dist.half_width
    (40, True)
    """
    found, scores = _resampling(
        hypotheses, references, n_samples, seed, tokenize, lowercase, smooth_method, orientation
    )
    return BootstrapDistribution(found, scores)
