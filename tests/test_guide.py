"""The teacher's guide says what the package computes: its homework-time table is the estimate
(bleu_teach.exercises.effort.minutes) of every exercise in the bank, in the bank's order, and its lesson plans add
up to their length."""

from __future__ import annotations

import re
from pathlib import Path

from bleu_teach.exercises import exercises
from bleu_teach.exercises.effort import minutes

GUIDE = (Path(__file__).resolve().parent.parent / "TEACHERS_GUIDE.md").read_text(encoding="utf-8")


def _table_after(marker: str) -> list[list[str]]:
    lines = GUIDE.split(marker, 1)[1].splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start + 2 :]:  # past the header and its rule
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_homework_minutes_are_the_estimate_of_every_exercise():
    rows = _table_after("<!-- homework minutes: made by")
    assert rows == [[ex.id, ex.title, str(minutes(ex))] for ex in exercises()]


def test_each_lesson_plan_adds_up_to_its_length():
    for heading, length in (("## A 50-minute lesson plan", 50), ("### A 90-minute session", 90)):
        section = GUIDE.split(heading, 1)[1]
        spans = re.findall(r"^\| (\d+)-(\d+) \|", section.split("\n#", 1)[0], re.M)
        assert spans[0][0] == "0" and spans[-1][1] == str(length), heading
        assert all(b[0] == a[1] for a, b in zip(spans, spans[1:])), heading  # each block starts where one ended
