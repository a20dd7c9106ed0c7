"""The lessons' "Try it" explorers, each declared once (:class:`~bleu_teach.explorers.declaration.Explorer`).

Each declaration lists the explorer's controls and turns their values into
the view the notebook widget and the website both show.  ``EXPLORERS`` maps
the notebook widget's class name to its declaration; the website, the saved
notebooks and the widgets all look explorers up there.

Lesson 08's :data:`DISAGREEMENT` explorer needs the WMT21 data and the
ranked pairs as its context: :func:`disagreement_context` makes it from the
data and :func:`~bleu_teach.lessons.agreement.segment_level`'s table (the
notebook), :func:`context_from_json` from what :func:`context_json` wrote at
build time (the website, which has no SciPy to rank with).

>>> view = CLIPPING.view({"hypothesis": "the the the", "references": ["the cat"], "n": "1", "compact": False})
>>> view.label, view.value
('p_1', 0.3333333333333333)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bleu_teach.bleu.smoothing import SMOOTHING_METHODS
from bleu_teach.explorers import arguments
from bleu_teach.explorers.declaration import Control, Explorer
from bleu_teach.explorers.typed_input import MAX_ORDER, parse_weights
from bleu_teach.explorers.views import (
    ALL_SYSTEMS,
    CLIPPING_MAX_ORDER,
    CLIPPING_SMOOTHING,
    MAX_BP_LENGTH,
    TOO_HARSH,
    TOO_KIND,
    WidgetView,
    brevity_view,
    clipping_view,
    disagreement_candidates,
    disagreement_view,
    explorer_view,
    side_by_side_view,
    two_metrics_view,
)
from bleu_teach.inputs.tokenizers import TOKENIZERS
from bleu_teach.inputs.validation import check_weight_tuple, preview
from bleu_teach.lessons.disagreement import Disagreement
from bleu_teach.lessons.metric_tables import SEGMENT_METRICS
from bleu_teach.lessons.two_metrics import METRICS as COMPARED
from bleu_teach.lessons.two_metrics import SystemScores, shipped_scores

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.lessons.data import Wmt21Ted
    from bleu_teach.lessons.metric_tables import SegmentTable

__all__ = [
    "EXPLORERS",
    "CLIPPING",
    "BREVITY",
    "BLEU",
    "SIDE_BY_SIDE",
    "DISAGREEMENT",
    "TWO_METRICS",
    "explorer",
    "disagreement_context",
    "context_json",
    "context_from_json",
    "pairs_shown",
]

#: The two default references of the clipping and full explorers (lesson 00's and 01's examples).
_CAT = ("the cat is on the mat", "there is a cat on the mat")


def _text(name: str) -> Any:
    return lambda value, owner, values, context: arguments.text(value, owner, name)


def _texts(name: str) -> Any:
    return lambda value, owner, values, context: arguments.texts(value, owner, name)


def _flag(name: str) -> Any:
    return lambda value, owner, values, context: arguments.flag(value, owner, name)


def _length(name: str) -> Any:
    def check(value: Any, owner: str, values: Mapping[str, Any], context: Mapping[str, Any]) -> int:
        top = values["max_len"]
        return arguments.whole(
            value,
            owner,
            name,
            top,
            f"the sliders' range, 1 to max_len = {top}; for longer lengths raise max_len, up to {MAX_BP_LENGTH}",
        )

    return check


def _settings(smoothing: str) -> tuple[Control, ...]:
    """The scoring settings the full and side-by-side explorers share."""
    return (
        Control(
            "tokenizer",
            "Tokenizer",
            "menu",
            "whitespace",
            choices=tuple((name, name) for name in TOKENIZERS),
            setting=True,
            check=lambda value, owner, values, context: arguments.tokenizer_name(value, owner),
        ),
        Control("lowercase", "Lowercase", "tick", False, setting=True, check=_flag("lowercase")),
        Control(
            "max_n",
            "Max n",
            "slider",
            4,
            high=MAX_ORDER,
            setting=True,
            check=lambda value, owner, values, context: arguments.whole(
                value, owner, "max_n", MAX_ORDER, "the Max n slider's range"
            ),
        ),
        Control(
            "weights",
            "Weights",
            "line",
            "",
            setting=True,
            placeholder="uniform, or one per order (Max n = 2: 0.7, 0.3)",
            check=lambda value, owner, values, context: arguments.weights_text(value, owner),
        ),
        Control(
            "smoothing",
            "Smoothing",
            "menu",
            smoothing,
            setting=True,
            choices=tuple((name, f"{name}: {what}") for name, what in SMOOTHING_METHODS.items()),
            check=lambda value, owner, values, context: arguments.smoothing_name(value, owner),
        ),
    )


def _weights_fit(values: dict[str, Any], owner: str) -> None:
    """The Weights box's numbers must be BLEU weights for Max n orders (checked when the explorer is made)."""
    try:
        check_weight_tuple(parse_weights(values["weights"], values["max_n"]), "weights")
    except ValueError as problem:
        raise ValueError(f"{owner}: weights={values['weights']!r}: {problem}") from None


_ROWS = (("tokenizer", "lowercase"), ("max_n", "weights"))


def _full_explorer(values: Mapping[str, Any], hypothesis: str, **settings: Any) -> dict[str, Any]:
    """The full explorer's values for ``hypothesis`` and the references in ``values``, with these settings."""
    found = {"tokenizer": "whitespace", "lowercase": False, "max_n": 4, "weights": "", "smoothing": "method0"}
    found.update({name: values[name] for name in found if name in values}, **settings)
    return {"hypothesis": hypothesis, "references": list(values["references"]), **found}


def _settings_of(values: Mapping[str, Any]) -> tuple[str, bool, int, str, str]:
    return values["tokenizer"], values["lowercase"], values["max_n"], values["weights"], values["smoothing"]


CLIPPING = Explorer(
    "ClippingExplorer",
    "Clipping explorer",
    (
        Control("hypothesis", "Hypothesis", "line", "the the the the the the the", check=_text("hypothesis")),
        Control("references", "References", "references", _CAT, check=_texts("references")),
        Control(
            "n",
            "n-gram order",
            "slider",
            1,
            high=CLIPPING_MAX_ORDER,
            check=lambda value, owner, values, context: arguments.whole(
                value, owner, "n", CLIPPING_MAX_ORDER, "the n-gram order slider's range"
            ),
        ),
        Control("compact", "Compact report", "fixed", False, check=_flag("compact")),
    ),
    lambda values, context: clipping_view(
        values["hypothesis"], values["references"], values["n"], compact=values["compact"]
    ),
    links=lambda values: [
        ("", _full_explorer(values, values["hypothesis"], max_n=values["n"], smoothing=CLIPPING_SMOOTHING))
    ],
)

BREVITY = Explorer(
    "BrevityPenaltyExplorer",
    "Brevity penalty explorer",
    (
        Control("ref_len", "Reference 1 length", "slider", 6, high="max_len", check=_length("ref_len")),
        Control("use_second", "Use a second reference", "tick", False, check=_flag("use_second")),
        Control(
            "second_ref_len",
            "Reference 2 length",
            "slider",
            9,
            high="max_len",
            enabled_by="use_second",
            check=_length("second_ref_len"),
        ),
        Control("hyp_len", "Hypothesis length", "slider", 4, high="max_len", check=_length("hyp_len")),
        Control(
            "max_len",
            "Longest length shown",
            "fixed",
            20,
            check=lambda value, owner, values, context: arguments.whole(
                value,
                owner,
                "max_len",
                MAX_BP_LENGTH,
                "the longest length the sliders and the curve show, MAX_BP_LENGTH",
            ),
        ),
    ),
    lambda values, context: brevity_view(
        [values["ref_len"]] + ([values["second_ref_len"]] if values["use_second"] else []),
        values["hyp_len"],
        values["max_len"],
    ),
)

BLEU = Explorer(
    "BleuExplorer",
    "BLEU explorer",
    (
        Control("hypothesis", "Hypothesis", "area", "the cat sat on the mat", check=_text("hypothesis")),
        Control("references", "References", "references", _CAT, check=_texts("references")),
        *_settings("method0"),
        Control("compact", "Compact report", "fixed", False, check=_flag("compact")),
        Control("show_settings", "Show the settings", "fixed", True, check=_flag("show_settings")),
    ),
    lambda values, context: explorer_view(
        values["hypothesis"], values["references"], *_settings_of(values), compact=values["compact"]
    ),
    rows=_ROWS,
    check_together=_weights_fit,
    links=lambda values: [("", _full_explorer(values, values["hypothesis"]))],
)

SIDE_BY_SIDE = Explorer(
    "SideBySideExplorer",
    "Side-by-side explorer",
    (
        Control("hypothesis_a", "Hypothesis A", "area", "the cat is chasing the dog", check=_text("hypothesis_a")),
        Control("hypothesis_b", "Hypothesis B", "area", "the cat is chased by the dog", check=_text("hypothesis_b")),
        Control("references", "References", "references", ("the dog is chasing the cat",), check=_texts("references")),
        *_settings("method1"),
    ),
    lambda values, context: side_by_side_view(
        values["hypothesis_a"], values["hypothesis_b"], values["references"], *_settings_of(values)
    ),
    rows=_ROWS,
    check_together=_weights_fit,
    links=lambda values: [
        (f"hypothesis {which}", _full_explorer(values, values[f"hypothesis_{which.lower()}"])) for which in "AB"
    ],
)


def pairs_shown(values: Mapping[str, Any], context: Mapping[str, Any]) -> list[Disagreement]:
    """The disagreement explorer's pairs for its metric, system and direction, largest gap first."""
    ranked = context["ranked"]
    if values["metric"] not in ranked:
        raise ValueError(f"Choose a metric: {', '.join(ranked)}.")
    return disagreement_candidates(ranked[values["metric"]], values["system"], values["direction"])


def _rank(value: Any, owner: str, values: Mapping[str, Any], context: Mapping[str, Any]) -> int:
    shown = pairs_shown(values, context)
    return arguments.whole(
        value,
        owner,
        "rank",
        max(1, len(shown)),
        f"the number of pairs shown for metric={values['metric']!r}, system={values['system']!r}, "
        f"direction={values['direction']!r}",
    )


def _disagreement(values: Mapping[str, Any], context: Mapping[str, Any]) -> WidgetView:
    shown = pairs_shown(values, context)
    # A rank past the end of a shorter list shows its last pair (the control then moves there).
    rank = min(values["rank"], max(1, len(shown)))
    view = disagreement_view(context["data"], context["references_used"], shown, rank)
    return replace(
        view,
        extra=view.extra
        | {
            "notes": {"rank": f"of {len(shown)} pairs"},
            "limits": {"rank": max(1, len(shown))},
            "values": {"rank": rank},
        },
    )


DISAGREEMENT = Explorer(
    "DisagreementExplorer",
    "Disagreement explorer",
    # The rank counts in the list the metric, the system and the direction choose: a new list starts at its
    # largest gap, rank 1; Previous and Next step through it.
    (
        Control(
            "metric",
            "Metric",
            "menu",
            "BLEU",
            choices=tuple((m, m) for m in SEGMENT_METRICS),
            resets=("rank",),
            check=lambda value, owner, values, context: arguments.one_of(value, owner, "metric", context["metrics"]),
        ),
        Control(
            "system",
            "System",
            "menu",
            ALL_SYSTEMS,
            choices="systems",
            resets=("rank",),
            check=lambda value, owner, values, context: arguments.one_of(value, owner, "system", context["systems"]),
        ),
        Control(
            "direction",
            "Show",
            "buttons",
            TOO_KIND,
            choices=((TOO_KIND, TOO_KIND), (TOO_HARSH, TOO_HARSH)),
            resets=("rank",),
            check=lambda value, owner, values, context: arguments.one_of(
                value, owner, "direction", (TOO_KIND, TOO_HARSH)
            ),
        ),
        Control("rank", "Rank", "number", 1, steps=True, check=_rank),
    ),
    _disagreement,
    rows=(("metric", "system"),),
    needs=("data", "ranked", "references_used", "systems"),
    site_context=lambda: _lesson_08_context(),
    context_to_json=lambda context: context_json(context),
    context_from_json=lambda text: context_from_json(text),
)

#: Lesson 09's language pairs, as its explorer offers them.
PAIRS = (("zh-en", "Chinese→English"), ("en-de", "English→German"))


def _systems(context: Mapping[str, Any], pair: Any) -> SystemScores:
    if pair not in context["scores"]:  # a hand-made link, or a page that is not this one
        raise ValueError(f"Choose a language pair: {', '.join(context['scores'])}.")
    scores: SystemScores = context["scores"][pair]
    return scores


def _leave_out(value: Any, owner: str, values: Mapping[str, Any], context: Mapping[str, Any]) -> int:
    count = len(_systems(context, values["pair"]).systems)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= count:
        raise (TypeError if isinstance(value, bool) or not isinstance(value, int) else ValueError)(
            f"{owner}: leave_out must be a whole number from 0 (keep every system) to {count} (the system the "
            f"experts rank last), not {preview(value)}."
        )
    return value


def _two_metrics(values: Mapping[str, Any], context: Mapping[str, Any]) -> WidgetView:
    return two_metrics_view(
        _systems(context, values["pair"]), values["metric_a"], values["metric_b"], values["leave_out"]
    )


def _pair_choice(name: str, choices: tuple[str, ...]) -> Any:
    return lambda value, owner, values, context: arguments.one_of(value, owner, name, choices)


TWO_METRICS = Explorer(
    "TwoMetricsExplorer",
    "Two metrics against the experts",
    (
        Control(
            "pair",
            "Language pair",
            "buttons",
            "zh-en",
            choices=PAIRS,
            check=_pair_choice("pair", tuple(pair for pair, _ in PAIRS)),
        ),
        Control(
            "metric_a",
            "Metric A",
            "menu",
            "TER",
            choices=tuple((m, m) for m in COMPARED),
            check=_pair_choice("metric_a", COMPARED),
        ),
        Control(
            "metric_b",
            "Metric B",
            "menu",
            "BLEU",
            choices=tuple((m, m) for m in COMPARED),
            check=_pair_choice("metric_b", COMPARED),
        ),
        Control(
            "leave_out",
            "Leave out the system the experts rank (0: none)",
            "slider",
            0,
            low=0,
            high=13,
            check=_leave_out,
        ),
    ),
    _two_metrics,
    rows=(("metric_a", "metric_b"),),
    needs=("scores",),
    site_context=lambda: {"scores": shipped_scores()},
    context_to_json=lambda context: json.dumps(
        {pair: json.loads(s.to_json()) for pair, s in context["scores"].items()}
    ),
    context_from_json=lambda text: {
        "scores": {pair: SystemScores.from_json(json.dumps(found)) for pair, found in json.loads(text).items()}
    },
)

#: Every explorer, by the notebook widget's class name.
EXPLORERS: dict[str, Explorer] = {e.name: e for e in (CLIPPING, BREVITY, BLEU, SIDE_BY_SIDE, DISAGREEMENT, TWO_METRICS)}


def explorer(name: str) -> Explorer:
    """The explorer declared under ``name`` (its notebook widget's class name)."""
    if not isinstance(name, str) or name not in EXPLORERS:
        raise ValueError(f"There is no explorer {name!r}; the explorers are {', '.join(EXPLORERS)}.")
    return EXPLORERS[name]


def disagreement_context(data: Wmt21Ted, table: SegmentTable) -> dict[str, Any]:
    """Lesson 08's explorer's context from the data and its segment table (ranked here, with SciPy)."""
    from bleu_teach.lessons.disagreement import disagreements

    return {
        "data": data,
        "references_used": list(table.references_used),
        "metrics": list(table.metrics),
        "systems": [ALL_SYSTEMS, *table.systems],
        "ranked": {metric: disagreements(table, metric) for metric in table.metrics},
    }


def _lesson_08_context() -> dict[str, Any]:
    """The context of lesson 08's explorer: the zh-en data and its segment table, as the lesson makes them."""
    from bleu_teach.lessons.data import wmt21_ted
    from bleu_teach.lessons.metric_tables import segment_level

    data = wmt21_ted("zh-en")
    return disagreement_context(data, segment_level(data))


def context_json(context: Mapping[str, Any]) -> str:
    """The context's ranked pairs as compact JSON, for a page that cannot rank them itself."""
    systems = context["systems"][1:]
    ranked = {
        metric: [
            [systems.index(d.system), d.segment, d.score, d.mqm, d.metric_percentile, d.mqm_percentile] for d in pairs
        ]
        for metric, pairs in context["ranked"].items()
    }
    return json.dumps(
        {
            "pair": context["data"].pair,
            "references_used": context["references_used"],
            "systems": systems,
            "ranked": ranked,
        },
        separators=(",", ":"),
    )


def context_from_json(text: str, data: Wmt21Ted | None = None) -> dict[str, Any]:
    """:func:`context_json`'s text back as a context (the data loaded with ``wmt21_ted`` unless given)."""
    found = json.loads(text)
    systems = found["systems"]
    if data is None:
        from bleu_teach.lessons.data import wmt21_ted

        data = wmt21_ted(found["pair"])
    ranked = {
        metric: [
            Disagreement(systems[s], segment, metric, score, mqm, mp, hp) for s, segment, score, mqm, mp, hp in rows
        ]
        for metric, rows in found["ranked"].items()
    }
    return {
        "data": data,
        "references_used": found["references_used"],
        "metrics": list(ranked),
        "systems": [ALL_SYSTEMS, *systems],
        "ranked": ranked,
    }
