"""Confidence intervals and paired significance tests, with sacreBLEU's numbers, and the exact randomization test.

:func:`bootstrap_ci` and :func:`bootstrap_distribution` give the interval of
``BLEU.corpus_score(..., n_bootstrap=N)``, :func:`paired_test` the results of
sacreBLEU's ``PairedTest`` (paired bootstrap resampling, Koehn 2004;
approximate randomization, Riezler and Maxwell 2005).  They are computed by
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
* In the paired test a seed of 0 is treated as "no seed" (unrepeatable
  results), so ``seed`` must be a positive integer here.
* The interval is sacreBLEU's: the mean of the resampled scores plus or minus
  half the width of the central 95% of them.
* A system whose output is identical to the baseline's gets the SMALLEST
  possible p-value, 1/(n_samples + 1), not 1: sacreBLEU counts only resampled
  differences strictly larger than the observed one (a rule it takes from
  MultEval: "a zero difference should not be attributed to chance").  Read
  literally that says "significantly different"; :class:`SystemResult` flags
  such rows with ``identical_to_baseline`` and the table says so.
* The same strict rule bites approximate randomization whenever the two
  systems differ in few sentences.  With k differing sentences there are
  only 2^k distinct swaps (swapping identical outputs changes nothing), and
  swapping all k gives back the observed difference exactly, so the largest
  possible difference often IS the observed one: nothing is counted and
  sacreBLEU prints its floor 1/(n_samples + 1).  :func:`exact_randomization`
  enumerates the 2^k swaps and gives the exact p-value, counting differences
  at least as large as the observed one (never below 2/2^k);
  :meth:`ExactRandomization.sampled` counts sacreBLEU's own random trials both
  ways.  sacreBLEU's default number of AR trials is 10,000 (``PairedTest``
  with ``n_samples=0``, and ``--paired-ar-n`` on its command line); 1,000 for
  the paired bootstrap.
* :func:`bootstrap_distribution` keeps every resampled score, drawn exactly as
  sacreBLEU draws them (same seed, same order), so that the interval can be
  shown as a histogram beside the percentile interval.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Optional

from bleu_teach.inputs.corpus_layout import check_inputs
from bleu_teach.inputs.validation import check_level
from bleu_teach.lessons.resampling import (DEFAULT_SEED, MAX_DIFFERING, bootstrap, check_samples, check_seed, check_settings,
                                           corpus_bleu, interval, paired_statistics, randomization_draws,
                                           segment_statistics, signature, swap_scores)
from bleu_teach.views.document import Code, Document, Paragraph, Table as TableBlock
from bleu_teach.views.formatting import plural
from bleu_teach.views.viewable import Viewable

__all__ = ["ConfidenceInterval", "SignificanceResults", "SystemResult", "bootstrap_ci", "paired_test",
           "significance_table", "BootstrapDistribution", "bootstrap_distribution", "Swap", "ExactRandomization",
           "exact_randomization", "TrialRun", "SampledRandomization", "MAX_DIFFERING", "DEFAULT_SEED"]


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
        row = (f"{self.score:.2f}", f"{self.mean:.2f} ± {self.half_width:.2f} = {self.low:.2f} to {self.high:.2f}",
               f"{self.n_samples:,}", str(self.seed))
        header = ("BLEU (0-100)", "sacreBLEU's 95% interval: mean ± half-width", "resamples", "seed")
        return Document((TableBlock(header, (row,), row_headers=False),  # one record: its first cell is data
                         Paragraph(("sacreBLEU: ", Code(self.text)))))


@dataclass(frozen=True)
class SystemResult:
    """One row of a paired test: the baseline has ``p_value`` None."""

    name: str
    score: float
    p_value: float | None
    mean: float | None
    half_width: float | None
    identical_to_baseline: bool = False
    test: str = "bs"
    differing: int = -1

    @property
    def smallest_exact_p(self) -> float | None:
        """For approximate randomization: the smallest p-value an exact test could give, 2 / 2^k.

        With k sentences that differ from the baseline there are only 2^k
        distinct swaps, and two of them (none, all) reach the observed
        difference, so no permutation test can go below 2 / 2^k.
        """
        if self.test != "ar" or self.differing < 1:
            return None
        return 2.0 / float(2 ** self.differing)

    def significant(self, alpha: float = 0.05) -> bool | None:
        """Whether the difference to the baseline is significant at ``alpha``.

        None for the baseline itself, False for output identical to the
        baseline's (whatever sacreBLEU's p-value says; see the module notes),
        and False for approximate randomization when so few sentences differ
        that even the exact test's smallest p-value, 2 / 2^k, is not below
        ``alpha`` (sacreBLEU then prints its floor, 1/(n+1), because it counts
        only strictly larger differences).
        """
        alpha = check_level(alpha)
        if self.p_value is None:
            return None
        if self.identical_to_baseline:
            return False
        floor = self.smallest_exact_p
        if floor is not None and floor >= alpha:
            return False
        return self.p_value < alpha


def _resampling(hypotheses: Sequence[str], references: Sequence[Sequence[Optional[str]]], n_samples: int,
                seed: int, tokenize: str, lowercase: bool, smooth_method: str,
                orientation: Optional[str]) -> tuple[ConfidenceInterval, tuple[float, ...]]:
    """``corpus_score(..., n_bootstrap=n_samples)`` done here: the interval and every resampled score."""
    per_hyp = check_inputs(hypotheses, references, orientation)
    n_samples = check_samples(n_samples, 40)
    seed = check_seed(seed)
    check_settings(tokenize, smooth_method, lowercase)
    whole, resampled = bootstrap(segment_statistics(list(hypotheses), per_hyp, tokenize, lowercase), n_samples, seed,
                                 smooth_method)
    scores = tuple(float(s.score) for s in resampled)
    whole.estimate_ci(resampled)  # sacreBLEU's public way to put "μ = mean ± half-width" in its line
    text = whole.format(signature=signature(per_hyp, tokenize, lowercase, smooth_method, bs=n_samples,
                                            seed=str(seed)))
    return ConfidenceInterval(float(whole.score), *interval(scores), n_samples, seed, text), scores


def bootstrap_ci(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
    *,
    orientation: Optional[str] = None,
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


def _check_systems(systems: Mapping[Any, Any], references: Any,
                   orientation: Optional[str]) -> list[list[Optional[str]]]:
    per_hyp: list[list[Optional[str]]] = []
    for name, hyps in systems.items():
        if not isinstance(name, str):
            raise TypeError(f"System names must be strings, not {name!r}.")
        if not per_hyp:
            per_hyp = check_inputs(hyps, references, orientation)
            continue
        if isinstance(hyps, Sequence) and not isinstance(hyps, str) and len(hyps) != len(per_hyp):
            raise ValueError(f"System {name!r} has {len(hyps)} hypotheses but the references cover {len(per_hyp)}; "
                             f"every system must translate the same segments.")
        check_inputs(hyps, per_hyp, "per_hypothesis")
    return per_hyp


def paired_test(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[Optional[str]]],
    test: str = "bs",
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    tokenize: str = "13a",
    lowercase: bool = False,
    *,
    orientation: Optional[str] = None,
) -> tuple[list[SystemResult], str]:
    """Compare systems against the first one (the baseline) with sacreBLEU's paired test.

    ``test`` is ``"bs"`` (paired bootstrap resampling) or ``"ar"``
    (approximate randomization, with a bootstrap interval of ``n_samples``
    resamples per system, as ``PairedTest(..., n_ar_confidence=n_samples)``).
    Returns one :class:`SystemResult` per system, baseline first, and
    sacreBLEU's signature of the test.  A small p-value says that a
    difference this large would rarely arise by chance if the two systems
    were equally good on this test set; it says nothing about other test
    sets or about how much better a translation reads.  ``orientation`` as in
    the module docstring.  How each test draws and counts:
    :func:`bleu_teach.lessons.resampling.paired_statistics`.

    >>> rows, _ = paired_test({"a": ["the cat sat", "a dog"], "b": ["a cat sat", "the dog"]},
    ...                       [["the cat sat"], ["the dog"]], n_samples=100)
    >>> [r.name for r in rows], rows[0].p_value is None, 0 <= rows[1].p_value <= 1
    (['a', 'b'], True, True)
    """
    if not isinstance(systems, Mapping) or len(systems) < 2:
        raise TypeError("systems must be a dict of at least two {name: list of hypothesis strings}, baseline first.")
    if test not in ("bs", "ar"):
        raise ValueError(f"test must be 'bs' (paired bootstrap) or 'ar' (approximate randomization), not {test!r}.")
    per_hyp = _check_systems(systems, references, orientation)
    n_samples = check_samples(n_samples, 40)
    seed = check_seed(seed)
    check_settings(tokenize, "exp", lowercase)
    named = [(name, list(hyps)) for name, hyps in systems.items()]
    found = paired_statistics([segment_statistics(hyps, per_hyp, tokenize, lowercase) for _, hyps in named], test,
                              n_samples, seed)
    baseline = named[0][1]
    rows = [SystemResult(name, score, p_value, mean, half_width, identical_to_baseline=i > 0 and hyps == baseline,
                         test=test, differing=sum(h != b for h, b in zip(hyps, baseline)))
            for i, ((name, hyps), (score, p_value, mean, half_width)) in enumerate(zip(named, found))]
    extra = {"bs": n_samples} if test == "ar" else {}  # sacreBLEU's intervals for AR are bootstrapped too
    return rows, signature(per_hyp, tokenize, lowercase, "exp", seed=str(seed), **{test: n_samples}, **extra)


_SIGNIFICANCE_HEADER = ("system", "BLEU", "bootstrap mean ± 95% half-width", "p-value", "verdict")


def _verdict(row: SystemResult, alpha: float) -> str:
    if row.p_value is None:
        return "baseline"
    if row.identical_to_baseline:
        return "same output as the baseline (sacreBLEU's p-value means nothing here)"
    floor = row.smallest_exact_p
    if floor is not None and floor >= alpha:
        return (f"cannot be significant: only {plural(row.differing, 'sentence')} differ, so an exact test's "
                f"smallest p is 2/2^{row.differing} = {floor:.4g}; sacreBLEU's p is its floor (ties are not counted)")
    if row.significant(alpha):
        return f"differs from the baseline (p < {alpha})"
    return f"no significant difference at {alpha}"


@dataclass(frozen=True, repr=False)
class SignificanceResults(Viewable):
    """A paired test's systems (baseline first) and the level ``alpha`` the verdicts use.

    Shown as a table (text in a terminal, HTML in a notebook): score,
    bootstrap interval, p-value and a plain verdict; ``rows`` gives that
    table's cells as strings.
    """

    systems: tuple[SystemResult, ...]
    alpha: float = 0.05

    @property
    def rows(self) -> list[list[str]]:
        """The cells of the table as shown: system, BLEU, interval, p-value, verdict."""
        return [[row.name, f"{row.score:.2f}",
                 "-" if row.mean is None or row.half_width is None else f"{row.mean:.2f} ± {row.half_width:.2f}",
                 "-" if row.p_value is None else f"{row.p_value:.4f}", _verdict(row, self.alpha)]
                for row in self.systems]

    def to_document(self) -> Document:
        """One row per system: BLEU, bootstrap interval, p-value and a plain verdict (system names as given)."""
        return Document((TableBlock(_SIGNIFICANCE_HEADER, tuple(tuple(r) for r in self.rows)),))


def significance_table(rows: Sequence[SystemResult], alpha: float = 0.05) -> SignificanceResults:
    """The rows of :func:`paired_test` with the level ``alpha``, shown as a table.

    >>> rows, _ = paired_test({"a": ["the cat sat", "a dog"], "b": ["the cat sat", "a dog"]},
    ...                       [["the cat sat"], ["the dog"]], n_samples=100)
    >>> significance_table(rows).rows[1][-1]
    "same output as the baseline (sacreBLEU's p-value means nothing here)"
    """
    if isinstance(rows, (str, SystemResult)) or not isinstance(rows, Sequence) or not rows:
        raise TypeError("significance_table needs the list of rows that paired_test returns: rows, _ = paired_test(...).")
    for i, row in enumerate(rows):
        if not isinstance(row, SystemResult):
            raise TypeError(f"rows[{i}] is a {type(row).__name__}, not a SystemResult; "
                            f"pass the rows that paired_test returns: rows, _ = paired_test(...).")
    return SignificanceResults(tuple(rows), check_level(alpha))


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
            ("sacreBLEU's 95% interval: mean ± half-width",
             f"{self.mean:.2f} ± {self.half_width:.2f} = {self.sacrebleu_low:.2f} to {self.sacrebleu_high:.2f}"),
            (f"percentile 95% interval: {low_rank} lowest to {low_rank} highest resampled score",
             f"{self.percentile_low:.2f} to {self.percentile_high:.2f}"),
        )
        return Document((TableBlock(("", "BLEU (0-100)"), rows),))


def bootstrap_distribution(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
    *,
    orientation: Optional[str] = None,
) -> BootstrapDistribution:
    """:func:`bootstrap_ci`, plus the resampled scores the interval was computed from.

    The scores are drawn as sacreBLEU draws them (same seed, same order), so
    their mean and the half-width computed from them are sacreBLEU's numbers
    (the tests check it).

    >>> dist = bootstrap_distribution(["the cat sat", "a dog ran"], [["the cat sat"], ["the dog ran"]], n_samples=40)
    >>> len(dist.scores), dist.percentile_high - dist.percentile_low == 2 * dist.half_width
    (40, True)
    """
    found, scores = _resampling(hypotheses, references, n_samples, seed, tokenize, lowercase, smooth_method,
                                orientation)
    return BootstrapDistribution(found, scores)


# ---------------------------------------------------------------------------
# Approximate randomization made exact: every swap of the differing sentences
# ---------------------------------------------------------------------------

# MAX_DIFFERING (from resampling): the most differing sentences exact_randomization enumerates (2^10 swaps).


@dataclass(frozen=True)
class Swap:
    """One swap: the outputs of these sentences (numbered from 1) exchanged between the two systems."""

    swapped: tuple[int, ...]
    baseline_score: float
    system_score: float
    difference: float
    at_least_observed: bool


@dataclass(frozen=True)
class TrialRun:
    """sacreBLEU's random AR trials for one number of trials, counted with both rules."""

    n_samples: int
    seed: int
    greater: int
    ties: int

    @property
    def p_strict(self) -> float:
        """sacreBLEU's (and MultEval's) p-value: only differences strictly larger count."""
        return (self.greater + 1) / (self.n_samples + 1)

    @property
    def p_at_least(self) -> float:
        """The same trials, counting differences at least as large as the observed one."""
        return (self.greater + self.ties + 1) / (self.n_samples + 1)


@dataclass(frozen=True, repr=False)
class SampledRandomization(Viewable):
    """sacreBLEU's AR trials, replayed: how many beat the observed difference, and how many tie it."""

    names: tuple[str, str]
    observed: float
    runs: tuple[TrialRun, ...]

    def to_document(self) -> Document:
        """One row per run: trials, seed, trials above and equal to the observed difference, both p-values."""
        rows = tuple((f"{run.n_samples:,}", str(run.seed), str(run.greater), str(run.ties), f"{run.p_strict:.4f}",
                      f"{run.p_at_least:.4f}") for run in self.runs)
        header = ("trials", "seed", "larger difference", "same difference",
                  "sacreBLEU's p: (larger + 1)/(trials + 1)", "counting ties: (larger + same + 1)/(trials + 1)")
        return Document((TableBlock(header, rows),))


@dataclass(frozen=True, repr=False)
class ExactRandomization(Viewable):
    """Every distinct swap between two systems, and the exact randomization p-value.

    ``differing`` numbers (from 1) the sentences whose outputs differ;
    ``swaps`` has one :class:`Swap` per subset of them (2^k), the empty swap
    first.  The p-value counts swaps whose BLEU difference is at least the
    observed one (the observed arrangement itself included), over all 2^k.
    """

    names: tuple[str, str]
    n_sentences: int
    differing: tuple[int, ...]
    observed: float
    swaps: tuple[Swap, ...]

    @property
    def count_at_least(self) -> int:
        return sum(s.at_least_observed for s in self.swaps)

    @property
    def count_greater(self) -> int:
        """Swaps whose difference is strictly larger: the ones sacreBLEU's rule would count."""
        return sum(s.difference > self.observed for s in self.swaps)

    @property
    def p_fraction(self) -> Fraction:
        return Fraction(self.count_at_least, len(self.swaps))

    @property
    def p_value(self) -> float:
        """The exact p-value: swaps at least as far apart as observed, over all 2^k swaps."""
        return float(self.p_fraction)

    @property
    def smallest_p_value(self) -> float:
        """The smallest exact p-value possible with k differing sentences: 2/2^k (1 when k = 0).

        Swapping all k sentences exchanges the two systems, which gives the
        observed difference again; so at least two swaps always count.
        """
        return min(1.0, 2 / len(self.swaps))

    def sampled(self, n_samples: Sequence[int] = (1000, 10000), seed: int = DEFAULT_SEED) -> SampledRandomization:
        """Replay sacreBLEU's random AR trials and count them with the strict rule and with ties.

        sacreBLEU draws, for each trial, a coin per sentence from
        ``numpy.random.default_rng(seed)`` (``integers(2, size=(n_samples, N))``)
        and exchanges the outputs where the coin is 0.  Each trial is one of
        the 2^k swaps above; its difference is looked up, not recomputed.
        ``greater`` trials are what sacreBLEU counts; ``ties`` are trials
        whose difference equals the observed one.
        """
        seed = check_seed(seed)
        by_subset = {s.swapped: s.difference for s in self.swaps}
        where = [i - 1 for i in self.differing]
        runs = []
        for n in n_samples:
            n = check_samples(n, 1)
            coins, _ = randomization_draws(n, self.n_sentences, seed)
            differences = [by_subset[tuple(i + 1 for i, keep in zip(where, row[where]) if not keep)] for row in coins]
            runs.append(TrialRun(n, seed, sum(d > self.observed for d in differences),
                                 sum(d == self.observed for d in differences)))
        return SampledRandomization(self.names, self.observed, tuple(runs))

    def to_document(self) -> Document:
        """One row per swap (both pseudo-systems' BLEU, their difference, whether it counts), then the p-value."""
        a, b = self.names
        header = ("sentences swapped", f"BLEU of {a}'", f"BLEU of {b}'", "difference", "at least the observed one?")
        rows = tuple((", ".join(str(i) for i in swap.swapped) or "none", f"{swap.baseline_score:.2f}",
                      f"{swap.system_score:.2f}", f"{swap.difference:.4f}", "yes" if swap.at_least_observed else "no")
                     for swap in self.swaps)
        k, total = len(self.differing), len(self.swaps)
        summary = (f"{b} differs from {a} in {plural(k, 'sentence')} ({', '.join(str(i) for i in self.differing)}), "
                   f"so there are 2^{k} = {total} distinct swaps. Observed difference {self.observed:.4f}; "
                   f"{self.count_at_least} of {total} swaps reach it, {self.count_greater} exceed it. "
                   f"Exact p-value = {self.count_at_least}/{total} = {self.p_value:.4f}.")
        return Document((TableBlock(header, rows), Paragraph((summary,))))


def exact_randomization(
    baseline: Sequence[str],
    system: Sequence[str],
    references: Sequence[Sequence[Optional[str]]],
    names: tuple[str, str] = ("baseline", "system"),
    tokenize: str = "13a",
    lowercase: bool = False,
    *,
    orientation: Optional[str] = None,
) -> ExactRandomization:
    """The exact (permutation) version of approximate randomization, for systems that differ in few sentences.

    For each subset of the k sentences where the two outputs differ, the two
    outputs of those sentences are exchanged, giving two pseudo-systems; each
    is scored with sacreBLEU's corpus BLEU (as ``BLEU().corpus_score`` scores
    it, from the sentences' summed counts) and the absolute difference
    recorded.  Exchanging identical outputs changes nothing, so these 2^k
    swaps are all the distinct ones.  The exact p-value is the share of swaps
    whose difference is at least the observed one (a plain ``>=`` on the
    floats: a swap that merely exchanges the two systems reproduces the
    observed difference bit for bit).  At most :data:`MAX_DIFFERING`
    differing sentences; beyond that use sacreBLEU's sampled test
    (:func:`paired_test` with ``test="ar"``).  ``orientation`` as in the module docstring.

    >>> exact = exact_randomization(["a cat sat", "the dog ran"], ["the cat sat", "the dog ran"],
    ...                             [["the cat sat"], ["the dog ran"]])
    >>> exact.differing, len(exact.swaps), exact.p_value
    ((1,), 2, 1.0)
    """
    if not isinstance(names, tuple) or len(names) != 2 or not all(isinstance(n, str) for n in names):
        raise TypeError("names must be a pair of strings, e.g. ('A', 'C').")
    if names[0] == names[1]:
        raise ValueError(f"names must be two different strings, e.g. ('A', 'C'); both are {names[0]!r}.")
    per_hyp = check_inputs(baseline, references, orientation)
    if isinstance(system, str) or not isinstance(system, Sequence) or len(system) != len(per_hyp):
        raise ValueError(f"system must be a list of {len(per_hyp)} hypothesis strings, one per sentence, "
                         f"like the baseline.")
    check_inputs(system, per_hyp, "per_hypothesis")
    base, other = list(baseline), list(system)
    differing = [i for i, (a, b) in enumerate(zip(base, other)) if a != b]
    if len(differing) > MAX_DIFFERING:
        raise ValueError(f"The systems differ in {len(differing)} sentences, which makes 2^{len(differing)} swaps; "
                         f"exact_randomization enumerates at most {MAX_DIFFERING}. Use paired_test(..., test='ar').")
    check_settings(tokenize, "exp", lowercase)
    base_rows = segment_statistics(base, per_hyp, tokenize, lowercase)
    other_rows = segment_statistics(other, per_hyp, tokenize, lowercase)
    observed = abs(corpus_bleu(base_rows, "exp") - corpus_bleu(other_rows, "exp"))
    swaps = tuple(Swap(tuple(i + 1 for i in subset), sx, sy, abs(sx - sy), abs(sx - sy) >= observed)
                  for subset, sx, sy in swap_scores(base_rows, other_rows, differing))
    return ExactRandomization(names, len(base), tuple(i + 1 for i in differing), observed, swaps)
