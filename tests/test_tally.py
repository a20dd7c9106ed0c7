"""python -m bleu_teach exercises tally: a class's answers from Moodle's Responses report and Canvas's Student
Analysis report, in each platform's column layout, counted by exercise, verdict and named mistake.

The exports are made here as the platforms write them: Moodle's columns ``Surname, First name, Email address,
State, Started on, Completed, Time taken, Grade/N, Question k, Response k, Right answer k``, its question text as
plain text; Canvas's ``name, id, sis_id, section, section_id, section_sis_id, submitted, attempt``, then for each
question ``<id>: <question text>`` and its points column, then ``n correct, n incorrect, score``. Each response is
chosen here (the right answer, a named mistake's value, another number, something that is no number), so the
expected counts are known before the command runs."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from xml.etree import ElementTree

import pytest

from bleu_teach.exercises import exercise

MOODLE_HEAD = ["Surname", "First name", "Email address", "State", "Started on", "Completed", "Time taken", "Grade/3.00"]
CANVAS_HEAD = ["name", "id", "sis_id", "section", "section_id", "section_sis_id", "submitted", "attempt"]


def _summary(markdown: str) -> str:
    """A question's text as a platform's report prints it: the Markdown's marks and HTML tags gone."""
    return " ".join(re.sub(r"<[^>]+>", "", markdown).replace("*", "").replace("`", "").split())


def _moodle(rows: list[list[tuple[str, str]]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    slots = max(len(r) for r in rows)
    writer.writerow(
        MOODLE_HEAD + [f"{kind} {k}" for k in range(1, slots + 1) for kind in ("Question", "Response", "Right answer")]
    )
    for n, row in enumerate(rows):
        cells = [
            f"Student{n}",
            "Test",
            f"s{n}@example.org",
            "Finished",
            "1 December 2026",
            "1 December 2026",
            "5 mins",
            "1.00",
        ]
        for question, response in row:
            cells += [question, response, "(right answer)"]
        writer.writerow(cells)
    return out.getvalue()


def _canvas(questions: list[str], rows: list[dict[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    header = list(CANVAS_HEAD)
    for k, question in enumerate(questions):
        header += [f"{1000 + k}: {question}", "1.0"]
    writer.writerow(header + ["n correct", "n incorrect", "score"])
    for n, answers in enumerate(rows):
        cells = [f"Student {n}", str(n), "", "Section", "1", "", "2026-12-01 10:00:00 UTC", "1"]
        for question in questions:
            cells += [answers.get(question, ""), "0.0"]
        writer.writerow(cells + ["0", "0", "0"])
    return out.getvalue()


def _tally(tmp_path: Path, text: str, *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "responses.csv"
    path.write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "bleu_teach", "exercises", "tally", str(path), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def _value(ex_id: str, name: str) -> str:
    ex = exercise(ex_id)
    m = next(m for m in ex.check(None).misconceptions if m.name == name)
    return f"{float(m.value):.{ex.decimals - m.fewer_decimals}f}"


# The class: 03.1 answered right twice, with the longest reference's BP three times, on the 0-100 scale once and
# with a word once; 00.2 (a choice) answered "Hypothesis B" (right) twice and "Hypothesis A" once.
def _answers() -> list[dict[str, str]]:
    bp = exercise("03.1")
    right = f"{float(bp.check(None).right):.3f}"
    longest = _value("03.1", "longest_reference")
    per_student = [
        (right, "Hypothesis B"),
        (right, "Hypothesis B"),
        (longest, "Hypothesis A"),
        (longest, "-"),
        (longest, ""),
        (f"{100 * float(bp.check(None).right):.1f}", ""),
        ("about a half", ""),
    ]
    return [{"03.1": a, "00.2": b} for a, b in per_student]


EXPECTED_03_1 = {
    "right": 2,
    "longest reference": 3,
    "times 100 (a percentage, or the 0-100 scale)": 1,
    "not an answer": 1,
}
EXPECTED_00_2 = {"right": 2, next(o.misconception for o in exercise("00.2").options if o.letter == "A"): 1}


def _texts() -> dict[str, str]:
    from bleu_teach.exercises.media import question_text

    return {i: _summary(question_text(exercise(i), "platform")) for i in ("03.1", "00.2")}


def _sections(json_text: str) -> dict[str, dict[str, int]]:
    return {entry["id"]: entry["verdicts"] for entry in json.loads(json_text)["data"]}


def test_a_moodle_responses_report_is_counted_by_exercise_and_named_mistake(tmp_path: Path):
    texts = _texts()
    rows = [[(texts["03.1"], a["03.1"]), (texts["00.2"], a["00.2"])] for a in _answers()]
    run = _tally(tmp_path, _moodle(rows), "--format", "json")
    assert run.returncode == 0, run.stderr
    found = _sections(run.stdout)
    assert found["03.1"] == EXPECTED_03_1
    assert found["00.2"] == EXPECTED_00_2, found["00.2"]  # blanks ("-", "") are not answers given


def test_a_canvas_student_analysis_report_is_counted_the_same_way(tmp_path: Path):
    texts = _texts()
    questions = [texts["03.1"], texts["00.2"]]
    rows = [{texts["03.1"]: a["03.1"], texts["00.2"]: a["00.2"] if a["00.2"] != "-" else ""} for a in _answers()]
    run = _tally(tmp_path, _canvas(questions, rows), "--format", "json")
    assert run.returncode == 0, run.stderr
    assert _sections(run.stdout) == {"03.1": EXPECTED_03_1, "00.2": EXPECTED_00_2}
    text = _tally(tmp_path, _canvas(questions, rows)).stdout
    assert "7 finished attempts from a Canvas export" in text and "longest reference" in text
    page = _tally(tmp_path, _canvas(questions, rows), "--format", "html").stdout
    assert page.startswith("<!DOCTYPE html>") and '<table class="bars">' in page and 'scope="row"' in page
    assert "width:" in page and ">3</td><td>43%</td>" in page  # 3 of 7: the bar and its number


def test_a_worksheet_quiz_is_read_with_its_variants_file(tmp_path: Path):
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "exercises",
            "worksheet",
            "--students",
            "2",
            "--seed",
            "3",
            "--exercises",
            "03.1,08.1",
            "--no-pdf",
            "--out",
            str(tmp_path / "w"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    root = ElementTree.parse(tmp_path / "w" / "worksheets.moodle.xml").getroot()
    questions = [q for q in root.findall("question") if q.get("type") == "numerical"]
    rows, expected = [], Counter()
    for question in questions[:6]:
        kind = question.findtext("idnumber", "").split("-")[0]
        answers = question.findall("answer")
        right = next(a.findtext("text") for a in answers if a.get("fraction") == "100")
        wrong = next(a for a in answers if a.get("fraction") == "0")
        rows.append([(_summary(question.findtext("questiontext/text", "")), right)])
        rows.append([(_summary(question.findtext("questiontext/text", "")), wrong.findtext("text", ""))])
        expected[(kind, "right")] += 1
        expected[(kind, "wrong")] += 1
    without = _tally(tmp_path, _moodle(rows), "--format", "json")
    assert without.returncode == 0 and _sections(without.stdout) == {}  # the variants are not the lessons' own
    run = _tally(
        tmp_path, _moodle(rows), "--format", "json", "--variants", str(tmp_path / "w" / "worksheets.quiz.json")
    )
    assert run.returncode == 0, run.stderr
    found = _sections(run.stdout)
    for kind in {k for k, _ in expected}:
        assert found[kind]["right"] == expected[(kind, "right")]
        named = sum(
            v for name, v in found[kind].items() if name not in ("right", "another wrong answer", "not an answer")
        )
        assert named == expected[(kind, "wrong")], found[kind]  # each first 0-credit answer is a named mistake


@pytest.mark.parametrize(
    "text, words",
    [
        ("a,b\n1,2\n", "neither a Moodle Responses report"),
        ("Surname,Response 1\nNg,0.5\n", "no question texts"),
        ("", "is empty"),
    ],
)
def test_an_export_that_is_not_one_is_one_clear_error_line(tmp_path: Path, text: str, words: str):
    run = _tally(tmp_path, text)
    assert run.returncode == 2 and words in run.stderr and run.stderr.count("error:") == 1, run.stderr
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1, "variants": [{"id": "03.1", "inputs": {"x": 1}, "question": "q", "variant": 1}]}')
    run = _tally(tmp_path, "a,b\n", "--variants", str(bad))
    assert run.returncode == 2 and "is not a worksheets.quiz.json" in run.stderr


def test_unfinished_attempts_summary_rows_and_semicolons_are_handled(tmp_path: Path):
    texts = _texts()
    rows = [[(texts["03.1"], a["03.1"]), (texts["00.2"], a["00.2"])] for a in _answers()]
    moodle = _moodle(rows).splitlines()
    unfinished = moodle[1].replace("Finished", "In progress")  # a copy of the first attempt, not finished
    summary = "Overall average," + ",".join([""] * 7)
    text = "\n".join([*moodle, unfinished, summary]) + "\n"
    run = _tally(tmp_path, text, "--format", "json")
    assert run.returncode == 0 and _sections(run.stdout)["03.1"] == EXPECTED_03_1
    assert "2 rows left out" in _tally(tmp_path, text).stdout
    semicolons = io.StringIO()
    csv.writer(semicolons, delimiter=";").writerows(csv.reader(io.StringIO(_moodle(rows))))
    run = _tally(tmp_path, semicolons.getvalue(), "--format", "json")
    assert run.returncode == 0 and _sections(run.stdout)["03.1"] == EXPECTED_03_1


def test_a_percentage_is_counted_as_the_0_100_scale_not_as_no_answer(tmp_path: Path):
    """Learners type "83.3%" or, with a decimal comma, "88,2 %": the answer on the 0-100 scale, counted as that
    (or as the named mistake whose value it is, times 100), never as something that is not an answer."""
    ex = exercise("01.1")
    right = float(ex.check(None).right)
    mistake = next(m for m in ex.check(None).misconceptions if not m.fewer_decimals and 0 < float(m.value) <= 1)
    text = _summary(_texts_of("01.1"))
    answers = [
        f"{100 * right:.1f}%",
        f"{100 * right:.1f} %".replace(".", ","),
        f"{100 * right:.1f}\uff05",
        f"{100 * float(mistake.value):.1f} %".replace(".", ","),
        "%",
        "83.3 percent",
    ]
    run = _tally(tmp_path, _moodle([[(text, answer)] for answer in answers]), "--format", "json")
    assert run.returncode == 0, run.stderr
    assert _sections(run.stdout)["01.1"] == {
        "times 100 (a percentage, or the 0-100 scale)": 3,
        mistake.name.replace("_", " "): 1,
        "not an answer": 2,
    }


def _texts_of(exercise_id: str) -> str:
    from bleu_teach.exercises.media import question_text

    return question_text(exercise(exercise_id), "platform")
