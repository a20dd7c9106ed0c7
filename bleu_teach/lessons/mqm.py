"""What the experts said: MQM error spans, segment and system MQM scores, MQM bands.

In MQM (Multidimensional Quality Metrics; Freitag et al., 2021, "Experts,
Errors, and Context", TACL 9) an expert marks each error in a translation
with a category and a severity; the segment's MQM score is minus the sum of
the errors' weights (major 5, minor 1, minor punctuation 0.1,
non-translation 25), so 0 means no error and higher is better.

- :func:`mqm_segment` gives one translation of one segment with the errors
  its expert marked (:class:`MqmSegment`; its views highlight each span and
  number it, as in the table of errors below it).
- :func:`mqm_system_score` is a system's MQM score: the mean of its segments'.
- :data:`MQM_BANDS` are the bands of segment scores the lesson groups by.
- :func:`default_reference` and :func:`check_data` serve both modules: the
  reference a pair is scored against unless told, and the check that
  ``data`` comes from :func:`~bleu_teach.lessons.data.wmt21_ted`.

This module knows nothing of automatic metrics: comparing them with MQM
(system and segment tables, correlations, disagreements, sentence scores
per band) is :mod:`bleu_teach.lessons.agreement`.
"""

from __future__ import annotations

import math
import numbers
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bleu_teach.views.document import Block, Document, Heading, Highlight, Paragraph, Score, Span, Strong
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.formatting import visible
from bleu_teach.views.viewable import Viewable

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.data import ErrorSpan, Wmt21Ted

__all__ = [
    "check_data",
    "default_reference",
    "mqm_system_score",
    "error_spans",
    "LEGEND",
    "MqmSegment",
    "mqm_segment",
    "MQM_BANDS",
    "MqmBand",
]

#: Shown under a segment's table of errors (the HTML view colours the spans; every view numbers them).
LEGEND = (
    "Each marked error is followed by its number [n]; where colour is shown, major errors are red and minor ones "
    "yellow."
)

_ERROR_HEADER = ("", "category", "severity", "weight", "marked in", "text")

#: How each severity is marked: a kind (the HTML view's colour), never the only cue (spans also carry [k]).
_KIND = {"Major": "major", "Minor": "minor"}

AUTO = "auto"


def check_data(data: Any) -> None:
    """Raise a TypeError naming :func:`~bleu_teach.lessons.data.wmt21_ted` unless ``data`` is one of its data sets."""
    for attribute in ("pair", "sources", "references", "systems", "mqm"):
        if not hasattr(data, attribute):
            raise TypeError(
                f"data must be a data set from bleu_teach.lessons.data.wmt21_ted(...), not {type(data).__name__}"
            )
    # A changed copy (a system left out of the ratings, a list cut short) is refused here, with what is wrong,
    # instead of failing later or scoring only the segments the lists share.
    segments = len(data.sources)
    translations = {**data.references, **data.systems}
    for name, texts in translations.items():
        if len(texts) != segments:
            raise ValueError(
                f"data.{'references' if name in data.references else 'systems'}[{name!r}] has "
                f"{len(texts)} segments, but there are {segments} sources; every list must have one "
                "entry per source segment"
            )
        if name not in data.mqm:
            raise ValueError(
                f"data.mqm has no scores for {name!r}; every system and reference needs its list of "
                "per-segment MQM scores (None where a segment was not rated)"
            )
        if len(data.mqm[name]) != segments:
            raise ValueError(
                f"data.mqm[{name!r}] has {len(data.mqm[name])} scores, but there are {segments} "
                "segments; give one score (or None) per segment"
            )


def default_reference(data: Wmt21Ted) -> str:
    """The reference scored against when none is named: ref-B where it exists (zh-en: the experts rated it
    best), otherwise the pair's only one (en-de: ref-A)."""
    check_data(data)
    return "ref-B" if "ref-B" in data.references else next(iter(data.references))


def mqm_system_score(per_segment: Sequence[float | None]) -> tuple[float, int]:
    """(mean MQM over the rated segments, how many were rated): the MQM system score.

    Unrated segments (``None``) are left out of the mean.

    >>> mqm_system_score([0.0, -1.0, None, -5.0])
    (-2.0, 3)
    """
    if isinstance(per_segment, (str, bytes)) or not isinstance(per_segment, Sequence):
        raise TypeError(
            f"per_segment must be a list of MQM scores (numbers, or None for an unrated segment), "
            f"such as data.mqm['MiSS'], not {type(per_segment).__name__}"
        )
    rated = [s for s in per_segment if s is not None]
    for score in rated:
        if isinstance(score, bool) or not isinstance(score, (int, float)):
            raise TypeError(f"per_segment holds {score!r}; each MQM score is a number (or None for an unrated segment)")
        if not math.isfinite(score):
            raise ValueError(f"per_segment holds {score!r}; an MQM score is a finite number (0 = no error)")
    if not rated:
        raise ValueError("no segment has an MQM score, so there is no MQM system score")
    return math.fsum(rated) / len(rated), len(rated)


def _points(value: float) -> str:
    return f"{value:g}"


def error_spans(errors: Sequence[ErrorSpan], side: str) -> tuple[Span, ...]:
    """The errors marked in the ``side`` text (``"target"`` or ``"source"``) as numbered spans to highlight.

    An error's number is its place in ``errors`` (from 1), as in the table of
    errors; its kind is ``"major"`` (non-translations too), ``"minor"`` or ``"other"``.

    >>> from bleu_teach.lessons.data import ErrorSpan
    >>> error_spans([ErrorSpan("r1", "Fluency/Grammar", "Minor", 4, 7, "cat", "target")], "target")
    (Span(start=4, end=7, number=1, kind='minor', title='Minor Fluency/Grammar'),)
    """
    from bleu_teach.lessons.data import SIDES, ErrorSpan

    if (
        isinstance(errors, (str, bytes))
        or not isinstance(errors, Sequence)
        or not all(isinstance(e, ErrorSpan) for e in errors)
    ):
        raise TypeError("errors must be a list of ErrorSpan, such as wmt21_ted('zh-en').errors['MiSS'][292]")
    if side not in SIDES[:2]:
        raise ValueError(f"side must be 'target' or 'source' (where the spans are marked), not {side!r}")
    return tuple(
        Span(
            e.start,
            e.end,
            k,
            "major" if e.category.startswith("Non-translation") else _KIND.get(e.severity, "other"),
            f"{e.severity} {e.category}",
        )
        for k, e in enumerate(errors, start=1)
        if e.side == side
    )


@dataclass(frozen=True, repr=False)
class MqmSegment(Viewable):
    """One translation of one segment with the errors its expert marked (see :func:`mqm_segment`).

    ``mqm`` is the shipped MQM score of the segment; it equals minus the sum
    of the ``errors``' weights (every zh-en and en-de segment has one rater).
    """

    pair: str
    name: str
    segment: int
    seg_id: int
    source: str
    translation: str
    reference_name: str
    reference: str | None
    errors: tuple[ErrorSpan, ...]
    mqm: float
    rater: str

    def _sum_line(self) -> str:
        if not self.errors:
            return f"MQM score {_points(self.mqm)}: the rater ({self.rater}) marked no error."
        terms = " + ".join(_points(e.weight) for e in self.errors)
        return f"MQM score {_points(self.mqm)} = minus the error points ({terms}), rater {self.rater}."

    def to_document(self) -> Document:
        """The source, the reference and the translation with the errors highlighted, the score, the errors' table."""
        blocks: list[Block] = [
            Heading(f"{self.pair} segment {self.segment} (release seg_id {self.seg_id}), translated by {self.name}"),
            Paragraph((Strong("Source"), ": ", Highlight(self.source, error_spans(self.errors, "source")))),
        ]
        if self.reference is not None:
            blocks.append(Paragraph((Strong(self.reference_name), ": ", self.reference)))
        translation = Highlight(self.translation, error_spans(self.errors, "target"))
        blocks += [
            Paragraph((Strong("Translation"), ": ", translation)),
            Score((self._sum_line(),), self.mqm, name="mqm"),
        ]
        if self.errors:
            rows = tuple(
                (
                    f"[{k}]",
                    e.category,
                    e.severity,
                    _points(e.weight),
                    e.side,
                    visible(e.text, keep_spaces=True) if e.side != "none" else "(no span marked)",
                )
                for k, e in enumerate(self.errors, start=1)
            )
            blocks += [TableBlock(_ERROR_HEADER, rows), Paragraph((LEGEND,))]
        return Document(tuple(blocks), styles=("mqm",))


def mqm_segment(data: Wmt21Ted, name: str, segment: int, reference: str | None = AUTO) -> MqmSegment:
    """Segment ``segment`` (0-based) as translated by ``name`` (a system or a reference), with its experts' errors.

    ``segment`` is the position in the shipped lists (0-528); the views also
    give the release's own ``seg_id``, to find the segment in Google's files.

    ``reference`` names the human reference to show beside it: ``"auto"``
    (the default) shows :func:`default_reference`, or the pair's other
    reference when ``name`` is that one (none if there is no other);
    ``None`` shows none; a name may not be ``name`` itself.

    >>> from bleu_teach.lessons.data import wmt21_ted
    >>> seg = mqm_segment(wmt21_ted("zh-en"), "Borderline", 0)
    >>> seg.mqm, [(e.severity, e.weight) for e in seg.errors][:2]
    (-20.0, [('Major', 5.0), ('Major', 5.0)])
    """
    check_data(data)
    if not isinstance(name, str):
        raise TypeError(
            f"name must be a system or reference name (a string), such as {next(iter(data.systems))!r}; "
            f"got {type(name).__name__}: the arguments are (data, name, segment)"
        )
    texts = data.translations(name)
    if reference == AUTO:
        others = [r for r in (default_reference(data), *data.references) if r != name]
        reference = others[0] if others else None
    if isinstance(segment, bool) or not isinstance(segment, numbers.Integral):
        raise TypeError(f"segment must be a whole number from 0 to {len(texts) - 1}, not {segment!r}")
    segment = int(segment)
    if not 0 <= segment < len(texts):
        raise ValueError(f"segment must be from 0 to {len(texts) - 1} (0-based), not {segment}")
    if reference is not None:
        if reference not in data.references:
            raise ValueError(
                f"no reference {reference!r} in {data.pair}; pass reference= one of "
                f"{', '.join(data.references)}, or None for none"
            )
        if reference == name:
            raise ValueError(f"{name} is the translation shown; pass reference= another reference, or None for none")
    score = data.mqm[name][segment]
    if score is None:
        raise ValueError(f"{name}'s segment {segment} was not rated; choose a rated one")
    raters = data.raters[name][segment]
    return MqmSegment(
        data.pair,
        name,
        segment,
        data.seg_ids[segment],
        data.sources[segment],
        texts[segment],
        reference or "",
        data.references[reference][segment] if reference is not None else None,
        tuple(data.errors[name][segment]),
        score,
        ", ".join(raters),
    )


# ---------------------------------------------------------------------------
# Bands of segment scores
# ---------------------------------------------------------------------------

#: Bands of segment MQM scores: (label, low, high); a segment belongs where low <= MQM < high.
MQM_BANDS: tuple[tuple[str, float, float], ...] = (
    ("0 (no error)", 0.0, math.inf),
    ("-0.1 to -1", -1.0, 0.0),
    ("-1.1 to -5", -5.0, -1.0),
    ("-5.1 to -10", -10.0, -5.0),
    ("below -10", -math.inf, -10.0),
)


@dataclass(frozen=True)
class MqmBand:
    """The sentence scores of the (system, segment) pairs whose MQM score lies in one band."""

    label: str
    low: float
    high: float
    scores: tuple[float, ...]

    def quartiles(self) -> tuple[float, float, float]:
        """(lower quartile, median, upper quartile) of the band's scores (``statistics.quantiles``, inclusive)."""
        if len(self.scores) < 2:
            raise ValueError(f"the band {self.label!r} has {len(self.scores)} score(s); quartiles need 2")
        q1, q2, q3 = statistics.quantiles(self.scores, n=4, method="inclusive")
        return q1, q2, q3
