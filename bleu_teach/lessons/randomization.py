"""Approximate randomization made exact: every swap of the differing sentences, and sacreBLEU's trials replayed.

sacreBLEU's paired approximate randomization test (Riezler and Maxwell 2005;
:func:`bleu_teach.lessons.significance.paired_test` with ``test="ar"``)
counts only resampled differences strictly larger than the observed one (a
rule it takes from MultEval: "a zero difference should not be attributed to
chance").  That strict rule bites whenever the two systems differ in few
sentences.  With k differing sentences there are only 2^k distinct swaps
(swapping identical outputs changes nothing), and swapping all k gives back
the observed difference exactly, so the largest possible difference often IS
the observed one: nothing is counted and sacreBLEU prints its floor
1/(n_samples + 1).

- :func:`exact_randomization` enumerates the 2^k swaps and gives the exact
  p-value, counting differences at least as large as the observed one (never
  below 2/2^k); each swap is scored from the sentences' summed counts by
  :mod:`bleu_teach.lessons.resampling`, as sacreBLEU scores a corpus.
- :meth:`ExactRandomization.sampled` counts sacreBLEU's own random trials both
  ways, drawn from the same seeded generator as sacreBLEU's.  sacreBLEU's
  default number of AR trials is 10,000 (``PairedTest`` with ``n_samples=0``,
  and ``--paired-ar-n`` on its command line); 1,000 for the paired bootstrap.

ORIENTATION, as in :mod:`bleu_teach.bleu.sacrebleu_api`: ``references[i]`` lists the
reference strings of hypothesis i (``orientation="per_hypothesis"``, the
default reading), or ``references[k][i]`` is reference k of hypothesis i
(``orientation="streams"``, sacreBLEU's own layout).  A corpus of N >= 2
hypotheses with N lists of N strings reads both ways; then every function
here raises a ValueError asking for ``orientation=`` instead of guessing.

Each result describes itself once (``to_document()``) and shows itself as a
table.  :mod:`bleu_teach.lessons.significance` imports these names too
(lesson 06 imports them from there).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from bleu_teach.inputs.corpus_layout import check_inputs
from bleu_teach.lessons.resampling import (
    DEFAULT_SEED,
    MAX_DIFFERING,
    check_samples,
    check_seed,
    check_settings,
    corpus_bleu,
    randomization_draws,
    segment_statistics,
    swap_scores,
)
from bleu_teach.views.document import Document, Paragraph
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.formatting import plural
from bleu_teach.views.viewable import Viewable

__all__ = ["Swap", "ExactRandomization", "exact_randomization", "TrialRun", "SampledRandomization", "MAX_DIFFERING"]


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
        rows = tuple(
            (
                f"{run.n_samples:,}",
                str(run.seed),
                str(run.greater),
                str(run.ties),
                f"{run.p_strict:.4f}",
                f"{run.p_at_least:.4f}",
            )
            for run in self.runs
        )
        header = (
            "trials",
            "seed",
            "larger difference",
            "same difference",
            "sacreBLEU's p: (larger + 1)/(trials + 1)",
            "counting ties: (larger + same + 1)/(trials + 1)",
        )
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
            runs.append(
                TrialRun(
                    n, seed, sum(d > self.observed for d in differences), sum(d == self.observed for d in differences)
                )
            )
        return SampledRandomization(self.names, self.observed, tuple(runs))

    def to_document(self) -> Document:
        """One row per swap (both pseudo-systems' BLEU, their difference, whether it counts), then the p-value."""
        a, b = self.names
        header = ("sentences swapped", f"BLEU of {a}'", f"BLEU of {b}'", "difference", "at least the observed one?")
        rows = tuple(
            (
                ", ".join(str(i) for i in swap.swapped) or "none",
                f"{swap.baseline_score:.2f}",
                f"{swap.system_score:.2f}",
                f"{swap.difference:.4f}",
                "yes" if swap.at_least_observed else "no",
            )
            for swap in self.swaps
        )
        k, total = len(self.differing), len(self.swaps)
        summary = (
            f"{b} differs from {a} in {plural(k, 'sentence')} ({', '.join(str(i) for i in self.differing)}), "
            f"so there are 2^{k} = {total} distinct swaps. Observed difference {self.observed:.4f}; "
            f"{self.count_at_least} of {total} swaps reach it, {self.count_greater} exceed it. "
            f"Exact p-value = {self.count_at_least}/{total} = {self.p_value:.4f}."
        )
        return Document((TableBlock(header, rows), Paragraph((summary,))))


def exact_randomization(
    baseline: Sequence[str],
    system: Sequence[str],
    references: Sequence[Sequence[str | None]],
    names: tuple[str, str] = ("baseline", "system"),
    tokenize: str = "13a",
    lowercase: bool = False,
    *,
    orientation: str | None = None,
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
        raise ValueError(
            f"system must be a list of {len(per_hyp)} hypothesis strings, one per sentence, like the baseline."
        )
    check_inputs(system, per_hyp, "per_hypothesis")
    base, other = list(baseline), list(system)
    differing = [i for i, (a, b) in enumerate(zip(base, other)) if a != b]
    if len(differing) > MAX_DIFFERING:
        raise ValueError(
            f"The systems differ in {len(differing)} sentences, which makes 2^{len(differing)} swaps; "
            f"exact_randomization enumerates at most {MAX_DIFFERING}. Use paired_test(..., test='ar')."
        )
    check_settings(tokenize, "exp", lowercase)
    base_rows = segment_statistics(base, per_hyp, tokenize, lowercase)
    other_rows = segment_statistics(other, per_hyp, tokenize, lowercase)
    observed = abs(corpus_bleu(base_rows, "exp") - corpus_bleu(other_rows, "exp"))
    swaps = tuple(
        Swap(tuple(i + 1 for i in subset), sx, sy, abs(sx - sy), abs(sx - sy) >= observed)
        for subset, sx, sy in swap_scores(base_rows, other_rows, differing)
    )
    return ExactRandomization(names, len(base), tuple(i + 1 for i in differing), observed, swaps)
