"""Helpers for running the oracles (sacreBLEU) directly in tests, independently of bleu_teach."""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any


@contextmanager
def sacrebleu_seed(seed: int) -> Iterator[None]:
    """sacreBLEU reads its random seed from SACREBLEU_SEED; set it for the duration of a block."""
    before = os.environ.get("SACREBLEU_SEED")
    os.environ["SACREBLEU_SEED"] = str(seed)
    try:
        yield
    finally:
        if before is None:
            del os.environ["SACREBLEU_SEED"]
        else:
            os.environ["SACREBLEU_SEED"] = before


def sacrebleu_rows(hypotheses: Sequence[str], references: Sequence[Sequence[str]], **options: Any) -> list[list[int]]:
    """Each segment's BLEU statistics by sacreBLEU's public API: the segment scored as a corpus of one.

    [hypothesis length, reference length, matches 1..4, totals 1..4], sacreBLEU's layout.
    """
    from sacrebleu.metrics import BLEU

    metric = BLEU(**options)
    rows = []
    for hypothesis, refs in zip(hypotheses, references, strict=True):
        one = metric.corpus_score([hypothesis], [[r] for r in refs])
        rows.append([one.sys_len, one.ref_len, *one.counts, *one.totals])
    return rows


def sacrebleu_score_of_sums(sums: Sequence[float], smooth_method: str = "exp") -> float:
    """BLEU from summed statistics by sacreBLEU's public BLEU.compute_bleu, as its corpus score makes it."""
    from sacrebleu.metrics import BLEU

    return BLEU.compute_bleu(
        correct=list(sums[2:6]),
        total=list(sums[6:10]),
        sys_len=int(sums[0]),
        ref_len=int(sums[1]),
        smooth_method=smooth_method,
    ).score
