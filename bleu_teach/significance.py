"""Confidence intervals and paired significance tests, computed by sacreBLEU.

These functions only call sacreBLEU's own bootstrap resampling
(``BLEU.corpus_score(..., n_bootstrap=N)``) and its ``PairedTest`` (paired
bootstrap resampling, Koehn 2004; approximate randomization, Riezler and
Maxwell 2005), and return their numbers as plain dataclasses that show
themselves as tables (:class:`SignificanceResults`; the views live in
:mod:`bleu_teach.render`).

ORIENTATION, as in :mod:`bleu_teach.sacre`: ``references[i]`` lists the
reference strings of hypothesis i (``orientation="per_hypothesis"``, the
default reading), or ``references[k][i]`` is reference k of hypothesis i
(``orientation="streams"``, sacreBLEU's own layout).  A corpus of N >= 2
hypotheses with N lists of N strings reads both ways; then every function
here raises a ValueError asking for ``orientation=`` instead of guessing.

SACREBLEU QUIRKS, made explicit here:

* sacreBLEU reads its random seed from the ``SACREBLEU_SEED`` environment
  variable (default 12345), not from an argument.  ``seed=`` sets that
  variable for the duration of the call only.
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
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Optional, cast

from bleu_teach.render import interval_html, significance_html, significance_rows, significance_text
from bleu_teach.sacre import SACREBLEU_SMOOTHING, check_inputs, to_sacrebleu_references
from bleu_teach.tokenize import SACREBLEU_TOKENIZERS

__all__ = ["ConfidenceInterval", "SignificanceResults", "SystemResult", "bootstrap_ci", "paired_test",
           "significance_table"]

DEFAULT_SEED = 12345


@dataclass(frozen=True)
class ConfidenceInterval:
    """A corpus BLEU score (0-100) with sacreBLEU's bootstrap 95% interval."""

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

    def _repr_html_(self) -> str:
        return interval_html(self)


@dataclass(frozen=True)
class SystemResult:
    """One row of a paired test: the baseline has ``p_value`` None."""

    name: str
    score: float
    p_value: float | None
    mean: float | None
    half_width: float | None
    identical_to_baseline: bool = False

    def significant(self, alpha: float = 0.05) -> bool | None:
        """Whether the difference to the baseline is significant at ``alpha``.

        None for the baseline itself, False for output identical to the
        baseline's (whatever sacreBLEU's p-value says; see the module notes).
        """
        if self.p_value is None:
            return None
        if self.identical_to_baseline:
            return False
        return self.p_value < alpha


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be a positive whole number, not {seed!r}.")
    if seed < 1:
        raise ValueError(f"seed must be a positive whole number (sacreBLEU treats 0 as 'no seed'); got {seed}.")
    return seed


def _check_samples(n_samples: Any, minimum: int) -> int:
    if isinstance(n_samples, bool) or not isinstance(n_samples, int):
        raise TypeError(f"n_samples must be a whole number, not {n_samples!r}.")
    if n_samples < minimum:
        raise ValueError(f"n_samples must be at least {minimum} for a 95% interval; got {n_samples}.")
    return n_samples


@contextmanager
def _sacrebleu_seed(seed: int) -> Iterator[None]:
    old = os.environ.get("SACREBLEU_SEED")
    os.environ["SACREBLEU_SEED"] = str(seed)
    try:
        yield
    finally:
        if old is None:
            del os.environ["SACREBLEU_SEED"]
        else:
            os.environ["SACREBLEU_SEED"] = old


def _metric(tokenize: str, lowercase: bool, smooth_method: str) -> Any:
    from sacrebleu.metrics import BLEU

    if tokenize not in SACREBLEU_TOKENIZERS:
        raise ValueError(f"Unknown tokenize {tokenize!r}; choose one of {', '.join(SACREBLEU_TOKENIZERS)}.")
    if smooth_method not in SACREBLEU_SMOOTHING:
        raise ValueError(f"Unknown smooth_method {smooth_method!r}; choose one of {', '.join(SACREBLEU_SMOOTHING)}.")
    return BLEU(tokenize=tokenize, lowercase=bool(lowercase), smooth_method=smooth_method)


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
    per_hyp = check_inputs(hypotheses, references, orientation)
    n_samples = _check_samples(n_samples, 40)
    seed = _check_seed(seed)
    metric = _metric(tokenize, lowercase, smooth_method)
    with _sacrebleu_seed(seed):
        result = metric.corpus_score(list(hypotheses), to_sacrebleu_references(per_hyp), n_bootstrap=n_samples)
    return ConfidenceInterval(
        score=float(result.score),
        mean=float(result._mean),
        half_width=float(result._ci),
        n_samples=n_samples,
        seed=seed,
        text=result.format(signature=str(metric.get_signature())),
    )


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
    (approximate randomization).  Returns one :class:`SystemResult` per
    system, baseline first, and sacreBLEU's signature of the test.  A small
    p-value says that a difference this large would rarely arise by chance
    if the two systems were equally good on this test set; it says nothing
    about other test sets or about how much better a translation reads.
    ``orientation`` as in the module docstring.

    >>> rows, _ = paired_test({"a": ["the cat sat", "a dog"], "b": ["a cat sat", "the dog"]},
    ...                       [["the cat sat"], ["the dog"]], n_samples=100)
    >>> [r.name for r in rows], rows[0].p_value is None, 0 <= rows[1].p_value <= 1
    (['a', 'b'], True, True)
    """
    from sacrebleu.significance import PairedTest

    if not isinstance(systems, Mapping) or len(systems) < 2:
        raise TypeError("systems must be a dict of at least two {name: list of hypothesis strings}, baseline first.")
    if test not in ("bs", "ar"):
        raise ValueError(f"test must be 'bs' (paired bootstrap) or 'ar' (approximate randomization), not {test!r}.")
    per_hyp: list[list[str | None]] = []
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
    n_samples = _check_samples(n_samples, 40)
    seed = _check_seed(seed)
    metric = _metric(tokenize, lowercase, "exp")
    streams = to_sacrebleu_references(per_hyp)
    named: list[tuple[str, Sequence[str]]] = [(name, list(hyps)) for name, hyps in systems.items()]
    with _sacrebleu_seed(seed):
        tester = PairedTest(named, {"BLEU": metric}, cast(Any, streams), test_type=test, n_samples=n_samples,
                            n_ar_confidence=n_samples if test == "ar" else -1)
        signatures, scores = tester()
    rows = []
    baseline = named[0][1]
    results: list[Any] = list(scores["BLEU"])  # sacreBLEU's Result objects
    for (name, hyps), result in zip(named, results):
        rows.append(SystemResult(
            name=name,
            score=float(result.score),
            p_value=None if result.p_value is None else float(result.p_value),
            mean=None if result.mean is None else float(result.mean),
            half_width=None if result.ci is None else float(result.ci),
            identical_to_baseline=result.p_value is not None and hyps == baseline,
        ))
    return rows, str(signatures["BLEU"])


@dataclass(frozen=True)
class SignificanceResults:
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
        return significance_rows(self)

    def __repr__(self) -> str:
        return significance_text(self)

    def _repr_html_(self) -> str:
        return significance_html(self)


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
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)):
        raise TypeError(f"alpha must be a number between 0 and 1, such as 0.05; not {alpha!r}.")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be a number between 0 and 1, such as 0.05; got {alpha!r}.")
    return SignificanceResults(tuple(rows), alpha)
