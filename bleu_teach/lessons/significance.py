"""Paired significance tests with sacreBLEU's numbers, beside the confidence interval and the exact randomization test.

:func:`paired_test` gives the results of sacreBLEU's ``PairedTest`` (paired
bootstrap resampling, Koehn 2004; approximate randomization, Riezler and
Maxwell 2005), and :func:`significance_table` shows them with a plain
verdict.  They are computed by :mod:`bleu_teach.lessons.resampling` from the
package's own counts, with the same draws from the same seeded generator and
the same arithmetic, so the numbers equal sacreBLEU's (the tests run
sacreBLEU beside them).  Each result describes itself once
(``to_document()``) and shows itself as a table.

Lesson 06 imports all it reports from here: sacreBLEU's bootstrap interval
(:func:`bootstrap_ci`, :func:`bootstrap_distribution`) is
:mod:`bleu_teach.lessons.confidence_intervals`, the exact randomization test
(:func:`exact_randomization`) :mod:`bleu_teach.lessons.randomization`; both
are imported here.

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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bleu_teach.inputs.corpus_layout import check_inputs
from bleu_teach.inputs.validation import check_level
from bleu_teach.lessons.confidence_intervals import (
    BootstrapDistribution,
    ConfidenceInterval,
    bootstrap_ci,
    bootstrap_distribution,
)
from bleu_teach.lessons.randomization import (
    ExactRandomization,
    SampledRandomization,
    Swap,
    TrialRun,
    exact_randomization,
)
from bleu_teach.lessons.resampling import (
    DEFAULT_SEED,
    MAX_DIFFERING,
    check_samples,
    check_seed,
    check_settings,
    paired_statistics,
    segment_statistics,
    signature,
)
from bleu_teach.views.document import Document
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.formatting import plural
from bleu_teach.views.viewable import Viewable

#: With the names of confidence_intervals and randomization that lesson 06 imports from here.
__all__ = [
    "ConfidenceInterval",
    "SignificanceResults",
    "SystemResult",
    "bootstrap_ci",
    "paired_test",
    "significance_table",
    "BootstrapDistribution",
    "bootstrap_distribution",
    "Swap",
    "ExactRandomization",
    "exact_randomization",
    "TrialRun",
    "SampledRandomization",
    "MAX_DIFFERING",
    "DEFAULT_SEED",
]


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
        return 2.0 / float(2**self.differing)

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


def _check_systems(systems: Mapping[Any, Any], references: Any, orientation: str | None) -> list[list[str | None]]:
    per_hyp: list[list[str | None]] = []
    for name, hyps in systems.items():
        if not isinstance(name, str):
            raise TypeError(f"System names must be strings, not {name!r}.")
        if not per_hyp:
            per_hyp = check_inputs(hyps, references, orientation)
            continue
        if isinstance(hyps, Sequence) and not isinstance(hyps, str) and len(hyps) != len(per_hyp):
            raise ValueError(
                f"System {name!r} has {len(hyps)} hypotheses but the references cover {len(per_hyp)}; "
                f"every system must translate the same segments."
            )
        check_inputs(hyps, per_hyp, "per_hypothesis")
    return per_hyp


def paired_test(
    systems: Mapping[str, Sequence[str]],
    references: Sequence[Sequence[str | None]],
    test: str = "bs",
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    tokenize: str = "13a",
    lowercase: bool = False,
    *,
    orientation: str | None = None,
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
    found = paired_statistics(
        [segment_statistics(hyps, per_hyp, tokenize, lowercase) for _, hyps in named], test, n_samples, seed
    )
    baseline = named[0][1]
    rows = [
        SystemResult(
            name,
            score,
            p_value,
            mean,
            half_width,
            identical_to_baseline=i > 0 and hyps == baseline,
            test=test,
            differing=sum(h != b for h, b in zip(hyps, baseline)),
        )
        for i, ((name, hyps), (score, p_value, mean, half_width)) in enumerate(zip(named, found))
    ]
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
        return (
            f"cannot be significant: only {plural(row.differing, 'sentence')} differ, so an exact test's "
            f"smallest p is 2/2^{row.differing} = {floor:.4g}; sacreBLEU's p is its floor (ties are not counted)"
        )
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
        return [
            [
                row.name,
                f"{row.score:.2f}",
                "-" if row.mean is None or row.half_width is None else f"{row.mean:.2f} ± {row.half_width:.2f}",
                "-" if row.p_value is None else f"{row.p_value:.4f}",
                _verdict(row, self.alpha),
            ]
            for row in self.systems
        ]

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
        raise TypeError(
            "significance_table needs the list of rows that paired_test returns: rows, _ = paired_test(...)."
        )
    for i, row in enumerate(rows):
        if not isinstance(row, SystemResult):
            raise TypeError(
                f"rows[{i}] is a {type(row).__name__}, not a SystemResult; "
                f"pass the rows that paired_test returns: rows, _ = paired_test(...)."
            )
    return SignificanceResults(tuple(rows), check_level(alpha))
