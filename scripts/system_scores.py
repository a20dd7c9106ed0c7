"""Write bleu_teach/lessons/system_scores.json: the WMT21 TED systems' BLEU, chrF and TER, and their MQM scores.

Lesson 09's explorer compares two metrics over these systems; the website
cannot score them while it is built in reasonable time (sacreBLEU's TER
searches for shifted blocks: a minute or two per language pair), so the
scores are computed here, once, with the package's own
``system_level`` (sacreBLEU's corpus scores) against the reference each pair
is scored against in the lessons.  tests/test_two_metrics.py recomputes them
and compares.  Run from the project's root: python scripts/system_scores.py
"""

from __future__ import annotations

import json
from pathlib import Path

from bleu_teach.lessons.data import wmt21_ted
from bleu_teach.lessons.metric_tables import system_level
from bleu_teach.lessons.two_metrics import REFERENCE_USED, SCORES_FILE, system_scores

TARGET = Path(__file__).resolve().parent.parent / "bleu_teach" / "lessons" / SCORES_FILE


def scores() -> dict[str, object]:
    return {
        pair: json.loads(system_scores(system_level(wmt21_ted(pair), reference=reference).systems_only()).to_json())
        for pair, reference in REFERENCE_USED.items()
    }


def main() -> None:
    TARGET.write_text(json.dumps(scores(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {TARGET.name}")


if __name__ == "__main__":
    main()
