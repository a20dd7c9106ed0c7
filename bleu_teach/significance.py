"""Confidence intervals and paired significance tests, computed by sacreBLEU.

These functions only call sacreBLEU's own bootstrap resampling
(``BLEU.corpus_score(..., n_bootstrap=N)``) and its ``PairedTest`` (paired
bootstrap resampling, Koehn 2004; approximate randomization, Riezler and
Maxwell 2005), in bleu_teach's orientation (one list of reference strings per
hypothesis), and return their numbers as plain dataclasses.

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
from typing import Any

from bleu_teach.render import Table
from bleu_teach.sacre import SACREBLEU_SMOOTHING, check_inputs, to_sacrebleu_references
from bleu_teach.tokenize import SACREBLEU_TOKENIZERS

__all__ = ["ConfidenceInterval", "SystemResult", "bootstrap_ci", "paired_test", "significance_table"]

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
    references: Sequence[Sequence[str]],
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    tokenize: str = "13a",
    lowercase: bool = False,
    smooth_method: str = "exp",
) -> ConfidenceInterval:
    """Corpus BLEU with sacreBLEU's bootstrap 95% confidence interval.

    The corpus is resampled ``n_samples`` times with replacement (sentences
    drawn at random, the same sentence possibly several times) and BLEU is
    recomputed on every resample.

    >>> ci = bootstrap_ci(["the cat sat", "a dog ran"], [["the cat sat"], ["the dog ran"]], n_samples=100)
    >>> ci.low <= ci.mean <= ci.high
    True
    """
    check_inputs(hypotheses, references)
    n_samples = _check_samples(n_samples, 40)
    seed = _check_seed(seed)
    metric = _metric(tokenize, lowercase, smooth_method)
    with _sacrebleu_seed(seed):
        result = metric.corpus_score(list(hypotheses), to_sacrebleu_references(references), n_bootstrap=n_samples)
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
    references: Sequence[Sequence[str]],
    test: str = "bs",
    n_samples: int = 1000,
    seed: int = DEFAULT_SEED,
    tokenize: str = "13a",
    lowercase: bool = False,
) -> tuple[list[SystemResult], str]:
    """Compare systems against the first one (the baseline) with sacreBLEU's paired test.

    ``test`` is ``"bs"`` (paired bootstrap resampling) or ``"ar"``
    (approximate randomization).  Returns one :class:`SystemResult` per
    system, baseline first, and sacreBLEU's signature of the test.  A small
    p-value says that a difference this large would rarely arise by chance
    if the two systems were equally good on this test set; it says nothing
    about other test sets or about how much better a translation reads.

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
    for name, hyps in systems.items():
        if not isinstance(name, str):
            raise TypeError(f"System names must be strings, not {name!r}.")
        check_inputs(hyps, references)
    n_samples = _check_samples(n_samples, 40)
    seed = _check_seed(seed)
    metric = _metric(tokenize, lowercase, "exp")
    streams = to_sacrebleu_references(references)
    named = [(name, list(hyps)) for name, hyps in systems.items()]
    with _sacrebleu_seed(seed):
        tester = PairedTest(named, {"BLEU": metric}, streams, test_type=test, n_samples=n_samples,
                            n_ar_confidence=n_samples if test == "ar" else -1)
        signatures, scores = tester()
    rows = []
    baseline = named[0][1]
    for (name, hyps), result in zip(named, scores["BLEU"]):
        rows.append(SystemResult(
            name=name,
            score=float(result.score),
            p_value=None if result.p_value is None else float(result.p_value),
            mean=None if result.mean is None else float(result.mean),
            half_width=None if result.ci is None else float(result.ci),
            identical_to_baseline=result.p_value is not None and hyps == baseline,
        ))
    return rows, str(signatures["BLEU"])


def significance_table(rows: Sequence[SystemResult], alpha: float = 0.05) -> Table:
    """The paired test as a table: score, interval, p-value and a plain verdict."""
    out = []
    for row in rows:
        interval = "-" if row.mean is None or row.half_width is None else f"{row.mean:.2f} ± {row.half_width:.2f}"
        if row.p_value is None:
            verdict, p = "baseline", "-"
        elif row.identical_to_baseline:
            p = f"{row.p_value:.4f}"
            verdict = "same output as the baseline (sacreBLEU's p-value means nothing here)"
        else:
            p = f"{row.p_value:.4f}"
            verdict = (f"differs from the baseline (p < {alpha})" if row.significant(alpha)
                       else f"no significant difference at {alpha}")
        out.append([row.name, f"{row.score:.2f}", interval, p, verdict])
    return Table(["system", "BLEU", "bootstrap mean ± 95% half-width", "p-value", "verdict"], out)
