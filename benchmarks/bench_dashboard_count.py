"""Benchmark: one dashboard count of a big class, as the change feed makes it four times a second while it answers.

A SQLite class of ``--students`` students (default 1,000), each with an answer to every exercise of the course
made over the last 200 seconds, is counted once whole (the first count of a dashboard that opens), then again and
again as the change feed counts it: the last seconds' answers read again (all of them already seen) and the
dashboard's JSON made, without the students' rows (most counts) and with them (every 2 s). It prints the median of
``--repeats`` counts of each kind.

Target: at 1,000 students, a count without the rows in at most 20 ms, with them in at most 60 ms, on a 2-core
machine with nothing else running (the feed counts every 0.25 s per worker: a count that takes 40 ms is a sixth
of a core per worker, taken from the students' answers).

    python -m benchmarks.bench_dashboard_count [--students 1000] [--repeats 21]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from bleu_teach.classroom.app import Classroom
from bleu_teach.classroom.counts import Latest
from bleu_teach.classroom.schema import VERDICTS, answers, now
from bleu_teach.classroom.store import Store
from bleu_teach.exercises.bank import exercises

TARGETS = {"without the rows": 20.0, "with the rows": 60.0}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=21)
    args = parser.parse_args()
    draw = random.Random(1)
    with tempfile.TemporaryDirectory() as scratch:
        store = Store.open(Path(scratch) / "class.sqlite")
        session, _ = store.create_session("benchmark")
        students = [store.join(session, f"student {k:04d}")[0] for k in range(args.students)]
        start = now() - timedelta(seconds=200)
        rows = [
            {
                "session_id": session.id,
                "student_id": student.id,
                "answer_id": f"{student.id}-{ex.id}",
                "exercise": ex.id,
                "answer": "0.5",
                "verdict": verdict,
                "mistake": "no clipping" if verdict == "misconception" else "",
                "at": start + timedelta(seconds=draw.uniform(0, 200)),
                "late": False,
            }
            for student in students
            for ex in exercises()
            for verdict in [draw.choice(VERDICTS)]
        ]
        with store.engine.begin() as connection:  # written at once: the benchmark measures the counts, not joins
            connection.execute(answers.insert(), rows)
        room = Classroom(store, "benchmark teacher token")
        latest = Latest(session.id)
        began = time.perf_counter()
        room.count_text(session.id, True, latest)
        first = 1000 * (time.perf_counter() - began)
        figures = {}
        for label, with_rows in (("without the rows", False), ("with the rows", True)):
            times = []
            for _ in range(args.repeats):
                began = time.perf_counter()
                room.count_text(session.id, True, latest, with_rows)
                times.append(1000 * (time.perf_counter() - began))
            figures[label] = statistics.median(times)
        store.close()
    print(f"dashboard count, {args.students:,} students, {len(rows):,} answers (SQLite):")
    print(f"  first count (every answer read): {first:.1f} ms")
    missed = []
    for label, figure in figures.items():
        target = TARGETS[label]
        met = figure <= target or args.students != 1000
        print(
            f"  again, {label}: {figure:.1f} ms (median of {args.repeats}; target <= {target:g} ms: "
            f"{'met' if met else 'missed'})"
        )
        if not met:
            missed.append(label)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
