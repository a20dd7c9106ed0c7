"""Benchmark: time from a widget's value change to its updated HTML.

Targets: <= 30 ms for a 20-token hypothesis with 4 references, <= 300 ms
with 1,000 tokens and 4 references (full explorer, BLEU-4, default settings).
Lesson 08's DisagreementExplorer (WMT21 TED zh-en, 6,877 pairs): <= 100 ms
from a rank change to the new segment and its report.

    python benchmarks/bench_widgets.py [--repeats 20]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from bleu_teach.lessons.data import wmt21_ted
from bleu_teach.lessons.metric_tables import segment_level
from bleu_teach.ui.widgets import BleuExplorer, ClippingExplorer, DisagreementExplorer


def sentence(rng: random.Random, length: int) -> str:
    vocab = [f"w{i}" for i in range(60)]
    return " ".join(rng.choice(vocab) for _ in range(length))


def measure(explorer, length: int, repeats: int, rng: random.Random) -> tuple[float, float]:
    times = []
    for _ in range(repeats):
        text = sentence(rng, length)
        before = explorer.output.value
        start = time.perf_counter()
        explorer.hypothesis.value = text
        after = explorer.output.value
        times.append(time.perf_counter() - start)
        assert after != before
    return statistics.median(times) * 1000, max(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(7)
    for name, cls in (("BleuExplorer", BleuExplorer), ("ClippingExplorer", ClippingExplorer)):
        for length, target in ((20, 30), (1000, 300)):
            refs = [sentence(rng, length) for _ in range(4)]
            explorer = cls(sentence(rng, length), refs)
            median, worst = measure(explorer, length, args.repeats, rng)
            print(
                f"{name:16s} {length:5d} tokens, 4 refs: median {median:7.1f} ms, max {worst:7.1f} ms "
                f"(target <= {target} ms)"
            )
    ted = wmt21_ted("zh-en")
    table = segment_level(ted)
    start = time.perf_counter()
    browser = DisagreementExplorer(ted, table)
    built = (time.perf_counter() - start) * 1000
    times = []
    for metric in ("BLEU", "chrF"):
        browser.metric.value = metric
        for rank in range(2, 2 + args.repeats):
            start = time.perf_counter()
            browser.rank.value = rank
            times.append(time.perf_counter() - start)
            assert browser.current is not None
    print(
        f"DisagreementExplorer built in {built:.0f} ms (ranking 6,877 pairs twice); rank change: median "
        f"{statistics.median(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms (target <= 100 ms)"
    )


if __name__ == "__main__":
    main()
