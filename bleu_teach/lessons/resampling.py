"""sacreBLEU's resampling, done here on bleu_teach's own counts: the arithmetic behind its intervals and tests.

sacreBLEU keeps one row of BLEU statistics per segment,
``[c, r, m_1, ..., m_4, t_1, ..., t_4]`` (hypothesis length, closest
reference length, clipped matches and hypothesis n-grams of each order),
and scores a test set, resampled or not, by summing its rows and
computing BLEU from the sums.  This module counts the rows with
:func:`bleu_teach.bleu.sacrebleu_api.segment_statistics` (the package's one
counting path), draws exactly what sacreBLEU draws, and scores the sums
with sacreBLEU's public ``BLEU.compute_bleu``, in sacreBLEU's number
types, so that every number equals sacreBLEU's for the same seed:

* the generator is ``numpy.random.default_rng(seed)``, the one sacreBLEU
  seeds from its ``SACREBLEU_SEED`` environment variable; here the seed is
  an argument and the environment is never touched;
* a bootstrap draw is ``choice(N, size=(n_samples, N), replace=True)``: row
  j lists the N segments of resampled test set j; the rows drawn are summed
  as float32, as sacreBLEU sums them;
* approximate randomization draws ``integers(2, size=(n_trials, N))``
  first, one coin per segment and trial, then (in the paired test) its
  bootstrap draws from the same generator.

sacreBLEU averages the resampled scores in two ways: ``corpus_score`` with
``statistics.mean`` (:func:`interval`), the paired test with NumPy's mean
of the sorted scores (:func:`numpy_interval`); the two can differ in the
last bit, so each is kept where sacreBLEU uses it.
"""

from __future__ import annotations

import itertools
import math
import numbers
import statistics
from collections.abc import Sequence
from typing import Any

from bleu_teach.bleu.sacrebleu_api import SACREBLEU_SMOOTHING
from bleu_teach.bleu.sacrebleu_api import segment_statistics as bleu_statistics
from bleu_teach.inputs.optional import needs
from bleu_teach.inputs.tokenizers import SACREBLEU_TOKENIZERS
from bleu_teach.inputs.validation import preview, whole_number_text

__all__ = [
    "DEFAULT_SEED",
    "MAX_DIFFERING",
    "MAX_DRAWN",
    "check_seed",
    "check_samples",
    "check_settings",
    "check_rows",
    "segment_statistics",
    "summed",
    "bleu_of",
    "corpus_bleu",
    "bootstrap",
    "bootstrap_draws",
    "randomization_draws",
    "resampled_scores",
    "interval",
    "numpy_interval",
    "strict_p_value",
    "paired_statistics",
    "swap_scores",
    "signature",
]

#: sacreBLEU's seed when ``SACREBLEU_SEED`` is not set.
DEFAULT_SEED = 12345


def check_seed(seed: Any) -> int:
    """``seed`` if it is a positive whole number (sacreBLEU's paired test reads 0 as "no seed")."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be a positive whole number, not {seed!r}.")
    if seed < 1:
        raise ValueError(
            f"seed must be a positive whole number (sacreBLEU treats 0 as 'no seed'); got {whole_number_text(seed)}."
        )
    return seed


#: The most resamples or trials one call draws: 100 times sacreBLEU's default of 1,000, a few seconds on a lesson's
#: test set; more only makes a smaller printed floor (lesson 06), and would keep a classroom machine busy for minutes.
MAX_SAMPLES = 100_000


def check_samples(n_samples: Any, minimum: int) -> int:
    """``n_samples`` if it is a whole number from ``minimum`` to :data:`MAX_SAMPLES`."""
    if isinstance(n_samples, bool) or not isinstance(n_samples, numbers.Integral):
        raise TypeError(f"n_samples must be a whole number such as 1000, not {n_samples!r}.")
    count = int(n_samples)
    if count < minimum:
        raise ValueError(f"n_samples must be at least {minimum} for a 95% interval; got {whole_number_text(count)}.")
    if count > MAX_SAMPLES:
        raise ValueError(
            f"n_samples is at most {MAX_SAMPLES:,} here (sacreBLEU's default is 1,000); got {whole_number_text(count)}."
        )
    return count


def check_settings(tokenize: Any, smooth_method: Any, lowercase: Any = False) -> None:
    """Refuse a tokenizer or a smoothing method that sacreBLEU does not have, and a ``lowercase`` that is not a bool."""
    if not isinstance(lowercase, bool):
        raise TypeError(f"lowercase must be True or False, not {lowercase!r}.")
    if not isinstance(tokenize, str) or tokenize not in SACREBLEU_TOKENIZERS:
        raise ValueError(f"Unknown tokenize {tokenize!r}; choose one of {', '.join(SACREBLEU_TOKENIZERS)}.")
    if not isinstance(smooth_method, str) or smooth_method not in SACREBLEU_SMOOTHING:
        raise ValueError(f"Unknown smooth_method {smooth_method!r}; choose one of {', '.join(SACREBLEU_SMOOTHING)}.")


#: The most differing sentences whose every swap is scored (2^10 = 1,024 swaps).
MAX_DIFFERING = 10
#: The most segment numbers one set of draws holds (resamples or trials times segments): about 160 MB.
MAX_DRAWN = 20_000_000


def check_rows(rows: Any, name: str = "rows") -> list[list[int]]:
    """``rows`` as sacreBLEU's statistics rows ``[c, r, m_1..m_N, t_1..t_N]``: whole numbers >= 0, one row per
    segment, all of the same length; a clear error otherwise."""
    if isinstance(rows, Sequence) and not isinstance(rows, (str, bytes)) and not rows:
        raise ValueError(
            f"{name} is empty: a test set has at least one segment, so give one statistics row per segment."
        )
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
        raise TypeError(
            f"{name} must be a non-empty list of statistics rows [c, r, m_1..m_N, t_1..t_N], one per "
            f"segment (segment_statistics makes them), not {type(rows).__name__}."
        )
    checked = []
    for i, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, Sequence):
            raise TypeError(f"{name}[{i}] must be a row of counts, not {type(row).__name__}.")
        if len(row) < 4 or len(row) % 2:
            raise ValueError(f"{name}[{i}] has {len(row)} counts; a row is [c, r, m_1..m_N, t_1..t_N]: 2 + 2N counts.")
        for value in row:
            if isinstance(value, bool) or not isinstance(value, numbers.Integral):
                raise TypeError(f"{name}[{i}] holds {value!r}; counts are whole numbers.")
            if value < 0:
                raise ValueError(f"{name}[{i}] holds {value}; counts are 0 or more.")
        checked.append([int(v) for v in row])
    if len({len(row) for row in checked}) > 1:
        raise ValueError(f"the rows of {name} have different lengths; every row counts the same orders.")
    return checked


def _check_method(smooth_method: Any) -> None:
    if not isinstance(smooth_method, str) or smooth_method not in SACREBLEU_SMOOTHING:
        raise ValueError(f"Unknown smooth_method {smooth_method!r}; choose one of {', '.join(SACREBLEU_SMOOTHING)}.")


def _check_count(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a whole number, not {preview(value)}.")
    if value < 1:
        raise ValueError(f"{name} must be at least 1; got {whole_number_text(int(value))}.")
    return int(value)


def _check_drawn(rows_drawn: int, segments: int) -> None:
    if rows_drawn * segments > MAX_DRAWN:
        raise ValueError(
            f"{rows_drawn:,} draws of {segments:,} segments is {rows_drawn * segments:,} numbers, more "
            f"than the {MAX_DRAWN:,} drawn at once here; use fewer samples or a smaller test set."
        )


def segment_statistics(
    hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], tokenize: str, lowercase: bool
) -> list[list[int]]:
    """One row per segment, in sacreBLEU's layout: ``[c, r, m_1..m_4, t_1..t_4]``.

    ``references[i]`` lists the references of ``hypotheses[i]`` (``None``
    entries skipped): :func:`~bleu_teach.bleu.sacrebleu_api.segment_statistics`, which the
    registry's BLEU (:data:`bleu_teach.metrics.METRICS`) counts with too, here with the lesson's settings.

    >>> segment_statistics(["the cat sat on the mat"], [["the cat sat on a mat"]], "13a", False)
    [[6, 6, 5, 3, 2, 1, 6, 5, 4, 3]]
    """
    check_settings(tokenize, "exp", lowercase)
    for name, value in (("hypotheses", hypotheses), ("references", references)):
        if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
            raise TypeError(f"{name} must be a list with one entry per segment, not {type(value).__name__}.")
    if len(hypotheses) != len(references):
        raise ValueError(
            f"hypotheses has {len(hypotheses)} segments but references has {len(references)}; give "
            "one list of references per hypothesis."
        )
    return [
        list(bleu_statistics(hypothesis, list(refs), tokenize, bool(lowercase)))
        for hypothesis, refs in zip(hypotheses, references)
    ]


def summed(rows: Sequence[Sequence[int]]) -> list[int]:
    """The rows of a test set added up column by column (whole numbers, exact): the corpus statistics."""
    return [sum(column) for column in zip(*check_rows(rows))]


def bleu_of(sums: Any, smooth_method: str) -> Any:
    """sacreBLEU's ``BLEUScore`` of a test set from its summed row (a list, or a NumPy row as sacreBLEU passes it).

    >>> round(bleu_of([6, 6, 5, 3, 2, 1, 6, 5, 4, 3], "exp").score, 4)
    53.7285
    """
    needs("sacrebleu", "Comparing with sacreBLEU")
    from sacrebleu.metrics import BLEU

    _check_method(smooth_method)
    if isinstance(sums, (str, bytes)) or not hasattr(sums, "__len__") or len(sums) < 4 or len(sums) % 2:
        raise ValueError(
            f"sums must be a test set's summed statistics row [c, r, m_1..m_N, t_1..t_N] "
            f"(2 + 2N numbers), not {sums!r:.60}."
        )
    order = (len(sums) - 2) // 2
    return BLEU.compute_bleu(
        correct=sums[2 : 2 + order],
        total=sums[2 + order :],
        sys_len=int(sums[0]),
        ref_len=int(sums[1]),
        smooth_method=smooth_method,
        smooth_value=None,
        effective_order=False,
        max_ngram_order=order,
    )


def corpus_bleu(rows: Sequence[Sequence[int]], smooth_method: str) -> float:
    """BLEU (0-100) of the test set these rows count: what ``BLEU().corpus_score`` computes from the same counts."""
    _check_method(smooth_method)
    return _corpus_bleu(check_rows(rows), smooth_method)


def _corpus_bleu(rows: Sequence[Sequence[int]], smooth_method: str) -> float:
    # corpus_bleu on rows already checked (the swaps and the paired test score the same rows many times)
    return float(bleu_of([sum(column) for column in zip(*rows)], smooth_method).score)


def bootstrap_draws(n_segments: int, n_samples: int, seed: int) -> Any:
    """The segments of ``n_samples`` resampled test sets, drawn with replacement as sacreBLEU draws them."""
    needs("numpy", "sacreBLEU's resampling (NumPy)")
    import numpy as np

    n_segments, n_samples, seed = _check_count(n_segments, "n_segments"), check_samples(n_samples, 1), check_seed(seed)
    _check_drawn(n_samples, n_segments)
    return np.random.default_rng(seed).choice(n_segments, size=(n_samples, n_segments), replace=True)


def randomization_draws(n_trials: int, n_segments: int, seed: int, n_bootstrap: int = 0) -> tuple[Any, Any]:
    """sacreBLEU's coins for approximate randomization (True: keep, False: swap), then its bootstrap draws.

    The coins come first, ``integers(2, size=(n_trials, n_segments))``; with
    ``n_bootstrap > 0`` the same generator then draws the resampled test sets
    for the systems' intervals (None otherwise).
    """
    needs("numpy", "sacreBLEU's resampling (NumPy)")
    import numpy as np

    n_trials, n_segments, seed = check_samples(n_trials, 1), _check_count(n_segments, "n_segments"), check_seed(seed)
    if isinstance(n_bootstrap, bool) or not isinstance(n_bootstrap, numbers.Integral) or n_bootstrap < 0:
        raise ValueError(f"n_bootstrap must be a whole number, 0 or more; got {n_bootstrap!r}.")
    _check_drawn(n_trials + int(n_bootstrap), n_segments)
    rng = np.random.default_rng(seed)
    coins = rng.integers(2, size=(n_trials, n_segments), dtype=bool)
    draws = rng.choice(n_segments, size=(n_bootstrap, n_segments), replace=True) if n_bootstrap > 0 else None
    return coins, draws


def resampled_scores(rows: Sequence[Sequence[int]], draws: Any, smooth_method: str) -> list[Any]:
    """sacreBLEU's ``BLEUScore`` of each resampled test set: its rows summed as float32, then BLEU."""
    needs("numpy", "sacreBLEU's resampling (NumPy)")
    import numpy as np

    _check_method(smooth_method)
    table = np.array(check_rows(rows), dtype="float32")
    picked = np.asarray(draws) if draws is not None else None
    if (
        picked is None
        or picked.ndim != 2
        or picked.dtype.kind not in "iu"
        or (picked.size and (picked.min() < 0 or picked.max() >= len(table)))
    ):
        raise ValueError(
            f"draws must be a table of segment numbers from 0 to {len(table) - 1}, one row per "
            "resampled test set (bootstrap_draws makes it)."
        )
    return [bleu_of(drawn.sum(0), smooth_method) for drawn in table[picked]]


def bootstrap(rows: Sequence[Sequence[int]], n_samples: int, seed: int, smooth_method: str) -> tuple[Any, list[Any]]:
    """``BLEU.corpus_score(..., n_bootstrap=n_samples)`` on these rows: the test set's ``BLEUScore``, then those of
    the ``n_samples`` resampled test sets, in the order sacreBLEU draws them."""
    _check_method(smooth_method)
    draws = bootstrap_draws(len(rows), n_samples, seed)
    return bleu_of(summed(rows), smooth_method), resampled_scores(rows, draws, smooth_method)


def _scores(scores: Any) -> list[float]:
    """The resampled scores (a list or a NumPy array) as floats; a clear error for anything else."""
    if isinstance(scores, (str, bytes)) or not hasattr(scores, "__len__") or not hasattr(scores, "__iter__"):
        raise TypeError(f"scores must be a list of resampled scores (numbers), not {type(scores).__name__}.")
    values = list(scores)
    if not values:
        raise ValueError("scores is empty: at least one resampled score (or statistic) is needed.")
    if not all(isinstance(x, numbers.Real) and not isinstance(x, bool) for x in values):
        raise TypeError("scores must hold numbers (the resampled BLEU scores).")
    try:
        floats = [float(x) for x in values]
    except OverflowError:  # a whole number past a float's range
        raise ValueError("scores holds a number too large for a float; resampled scores are finite numbers.") from None
    if not all(math.isfinite(x) for x in floats):
        raise ValueError("scores holds a NaN or an infinity; resampled scores are finite numbers.")
    return floats


def interval(scores: Sequence[float]) -> tuple[float, float]:
    """``corpus_score``'s interval: the mean of the scores and half the distance between ranks n // 40 from each end.

    >>> interval([float(x) for x in range(40)])
    (19.5, 18.5)
    """
    ranked = sorted(_scores(scores))
    low = len(ranked) // 40
    return statistics.mean(ranked), 0.5 * (ranked[len(ranked) - low - 1] - ranked[low])


def numpy_interval(scores: Sequence[float]) -> tuple[float, float]:
    """The paired test's interval: the same ranks, with NumPy's mean of the sorted scores."""
    needs("numpy", "sacreBLEU's resampling (NumPy)")
    import numpy as np

    ranked = np.sort(np.array(_scores(scores), dtype=float))
    low = len(ranked) // 40
    return float(ranked.mean()), float(0.5 * (ranked[len(ranked) - low - 1] - ranked[low]))


def strict_p_value(statistics_drawn: Any, observed: float) -> float:
    """sacreBLEU's (and MultEval's) p-value: (how many are strictly larger than ``observed`` + 1) / (how many + 1).

    >>> strict_p_value([0.5, 1.0, 2.0], 1.0)
    0.5
    """
    needs("numpy", "sacreBLEU's resampling (NumPy)")
    import numpy as np

    drawn = _scores(statistics_drawn)
    if isinstance(observed, bool) or not isinstance(observed, numbers.Real):
        raise TypeError(f"observed must be a number (the observed statistic), not {preview(observed)}.")
    if not math.isfinite(float(observed) if abs(observed) < 10**308 else math.inf):
        raise ValueError(f"observed must be a finite number (the observed statistic), not {preview(observed)}.")
    larger = int(np.sum(np.asarray(drawn) > observed))
    return (larger + 1) / (len(drawn) + 1)


def paired_statistics(
    systems: Sequence[Sequence[Sequence[int]]], test: str, n_samples: int, seed: int
) -> list[tuple[float, float | None, float, float]]:
    """(score, p-value, mean, half-width) of each system, baseline first (p None), as sacreBLEU's ``PairedTest``.

    ``test="bs"``: every system is scored on the same ``n_samples``
    resampled test sets; the differences to the baseline, shifted to average
    zero, count when strictly larger than the observed difference; the
    intervals come from the same resamples.  ``test="ar"``: in each of
    ``n_samples`` trials a coin per sentence decides whether the two systems'
    outputs are exchanged; the differences between the two pseudo-systems
    count the same way, and each system's interval comes from ``n_samples``
    resamples drawn after the coins (sacreBLEU's ``n_ar_confidence``).  The
    baseline's interval is ``corpus_score``'s resamples, averaged with NumPy.
    Every comparison starts a generator afresh from ``seed``.
    """
    needs("numpy", "sacreBLEU's resampling (NumPy)")
    import numpy as np

    if test not in ("bs", "ar"):
        raise ValueError(f"test must be 'bs' (paired bootstrap) or 'ar' (approximate randomization), not {test!r}.")
    if isinstance(systems, (str, bytes)) or not isinstance(systems, Sequence) or len(systems) < 2:
        raise ValueError("systems must list the baseline's rows and at least one other system's rows.")
    systems = [check_rows(rows, f"systems[{i}]") for i, rows in enumerate(systems)]
    if len({len(rows) for rows in systems}) > 1:
        raise ValueError("every system must have one row per segment of the same test set.")
    n_samples, seed = check_samples(n_samples, 1), check_seed(seed)

    def resampled(rows: Sequence[Sequence[int]], draws: Any) -> Any:
        return np.array([s.score for s in resampled_scores(rows, draws, "exp")])

    scores = [_corpus_bleu(rows, "exp") for rows in systems]
    n = len(systems[0])
    draws = bootstrap_draws(n, n_samples, seed)
    baseline = resampled(systems[0], draws)
    out: list[tuple[float, float | None, float, float]] = [(scores[0], None, *numpy_interval(baseline))]
    coins, own_draws = randomization_draws(n_samples, n, seed, n_samples) if test == "ar" else (None, None)
    for rows, score in zip(systems[1:], scores[1:]):
        observed = abs(scores[0] - score)
        if coins is None:
            system = resampled(rows, draws)
            differences = np.abs(system - baseline)
            p_value = strict_p_value(differences - differences.mean(), observed)
        else:
            a, b = np.array(systems[0]), np.array(rows)
            swapped_a = np.array([bleu_of(x, "exp").score for x in coins @ a + ~coins @ b])
            swapped_b = np.array([bleu_of(x, "exp").score for x in ~coins @ a + coins @ b])
            p_value = strict_p_value(np.abs(swapped_a - swapped_b), observed)
            system = resampled(rows, own_draws)
        out.append((score, p_value, *numpy_interval(system)))
    return out


def swap_scores(
    baseline: Sequence[Sequence[int]], system: Sequence[Sequence[int]], differing: Sequence[int]
) -> list[tuple[tuple[int, ...], float, float]]:
    """For every subset of the ``differing`` sentences (0-based), smallest first: the subset and the BLEU of
    both pseudo-systems once the two systems' rows of those sentences are exchanged."""
    baseline, system = check_rows(baseline, "baseline"), check_rows(system, "system")
    if len(baseline) != len(system):
        raise ValueError("baseline and system must have one row per segment of the same test set.")
    if (
        isinstance(differing, (str, bytes))
        or not isinstance(differing, Sequence)
        or not all(
            isinstance(i, numbers.Integral) and not isinstance(i, bool) and 0 <= i < len(baseline) for i in differing
        )
    ):
        raise ValueError(f"differing must list segment numbers from 0 to {len(baseline) - 1}.")
    if len(differing) > MAX_DIFFERING:
        raise ValueError(
            f"{len(differing)} differing sentences make 2^{len(differing)} swaps; at most "
            f"{MAX_DIFFERING} are enumerated (use approximate randomization for more)."
        )
    out = []
    for size in range(len(differing) + 1):
        for subset in itertools.combinations(differing, size):
            x, y = list(baseline), list(system)
            for i in subset:
                x[i], y[i] = system[i], baseline[i]
            out.append((subset, _corpus_bleu(x, "exp"), _corpus_bleu(y, "exp")))
    return out


def signature(
    references: Sequence[Sequence[str | None]], tokenize: str, lowercase: bool, smooth_method: str, **updates: Any
) -> str:
    """sacreBLEU's signature of these settings, with ``updates`` (``bs``, ``ar``, ``seed``) as it adds them.

    ``nrefs`` is the number of references per segment, or ``var`` when it varies.
    """
    needs("sacrebleu", "Comparing with sacreBLEU")
    from sacrebleu.metrics import BLEU

    check_settings(tokenize, smooth_method, lowercase)
    metric = BLEU(tokenize=tokenize, lowercase=bool(lowercase), smooth_method=smooth_method)
    seen = {sum(r is not None for r in refs) for refs in references}
    metric.num_refs = seen.pop() if len(seen) == 1 else -1
    found = metric.get_signature()
    for key, value in updates.items():
        found.update(key, value)
    return str(found)
