"""Solution copies: every lesson has an exercise with a worked answer, the stored copies do not
drift from the lessons, and every worked answer passes its own checker.

The copies are not executed again by the test run (nbval executes each lesson once): a copy's cells are
its lesson's (checked above), so its stored outputs must be the lesson's, and each exercise cell's output
must be what the exercise bank gives its worked answer now, computed here without a kernel."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import nbformat
import pytest

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT / "scripts"))
import solutions  # noqa: E402

LESSONS = solutions.lessons()


def test_every_lesson_has_a_solution_copy_and_nothing_else_is_there():
    assert len(LESSONS) >= 8
    expected = {solutions.solution_path(lesson).name for lesson in LESSONS}
    assert {p.name for p in solutions.SOLUTIONS.glob("*.ipynb")} == expected


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_solution_copy_matches_the_lesson(lesson: Path):
    stored = nbformat.read(solutions.solution_path(lesson), as_version=4)
    assert solutions.sources(stored) == solutions.sources(solutions.solution_notebook(lesson)), (
        "the solution copy has drifted from its lesson: run `make solutions`"
    )


def test_the_guide_lists_every_exercise_as_the_bank_says():
    guide = solutions.GUIDE.read_text(encoding="utf-8")
    assert solutions.guide_with_table(guide) == guide, "the guide's table of exercises is stale: run `make solutions`"


def test_nothing_of_a_made_table_is_left_after_its_end_marker():
    """A row after a table's end marker is no row of the table (make solutions leaves it there): the site showed a
    stray copy of the minutes' last row as a line of pipes."""
    guide = solutions.GUIDE.read_text(encoding="utf-8")
    for marker in (solutions.TABLE_END, solutions.MINUTES_END):
        after = [line for line in guide.split(marker, 1)[1].splitlines() if line.strip()]
        assert not after[0].lstrip().startswith("|"), f"a table row after {marker}: {after[0]}"


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_every_worked_answer_passes_its_checker(lesson: Path):
    stored = nbformat.read(solutions.solution_path(lesson), as_version=4)
    cells = solutions.exercise_cells(stored)
    assert cells
    for cell in cells:
        shown = "".join(out.get("data", {}).get("text/plain", "") for out in cell.outputs)
        assert shown.startswith("Correct"), f"{lesson.name}: {shown!r}"


@pytest.mark.parametrize(
    "source",
    [
        "answer = None\ncheck(answer)",
        'answer = 0.5\ncheck("03.1", answer)',
        'answer = None\ncheck("03.1", answer)\nprint(answer)',
    ],
)
def test_generator_refuses_an_exercise_cell_that_is_not_the_two_learner_lines(tmp_path: Path, source: str):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell(source)
    cell.metadata["tags"] = ["exercise"]
    nb.cells = [nbformat.v4.new_markdown_cell("# t"), cell]
    path = tmp_path / "99_t.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(ValueError, match="must be 'answer = None' and then check"):
        solutions.solution_notebook(path)


def test_generator_refuses_an_unknown_exercise_id(tmp_path: Path):
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell('answer = None\ncheck("99.9", answer)')
    cell.metadata["tags"] = ["exercise"]
    nb.cells = [cell]
    path = tmp_path / "99_t.ipynb"
    nbformat.write(nb, path)
    with pytest.raises(ValueError, match="There is no exercise '99.9'"):
        solutions.solution_notebook(path)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_solution_copies_link_back_up_to_the_lessons_and_the_glossary(lesson: Path):
    copy = solutions.solution_notebook(lesson)
    for cell in copy.cells:
        if cell.cell_type == "markdown":
            assert "](GLOSSARY.md" not in cell.source and not re.search(r"\]\(\d\d_", cell.source)


#: Outputs that differ between two executions of the same cell by design (a widget's model id) or that nbval does
#: not compare either (images: matplotlib's PNG bytes carry no meaning beyond the figure's text alternative).
UNCOMPARED = ("application/vnd.jupyter.widget-view+json", "image/png")


def _comparable(outputs: list) -> list:
    found = []
    for output in outputs:
        output = {k: v for k, v in output.items() if k not in ("execution_count", "metadata")}
        if "data" in output:
            output["data"] = {k: v for k, v in output["data"].items() if k not in UNCOMPARED}
        found.append(output)
    return found


def _worked_answer(source: str) -> object:
    """The value the solution cell's first line assigns (``answer = 0.5  # working``), read without running it."""
    (statement,) = ast.parse(source.partition("\n")[0]).body
    assert isinstance(statement, ast.Assign)
    return ast.literal_eval(statement.value)


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_each_copys_outputs_are_its_lessons_and_each_worked_answers_feedback(lesson: Path):
    from bleu_teach.exercises import exercise

    stored = nbformat.read(solutions.solution_path(lesson), as_version=4)
    original = nbformat.read(lesson, as_version=4)
    copies = [c for c in stored.cells if c.cell_type == "code"]
    lessons = [c for c in original.cells if c.cell_type == "code"]
    assert len(copies) == len(lessons)
    checked = 0
    for number, (copy, cell) in enumerate(zip(copies, lessons)):
        if "exercise" in copy.metadata.get("tags", []):
            feedback = exercise(solutions.cell_exercise(lesson, cell).id).check(_worked_answer(copy.source))
            assert feedback.verdict == "correct", f"{lesson.name}: {feedback.to_text()}"
            (output,) = copy.outputs
            assert output["data"]["text/html"] == feedback._repr_html_()
            assert output["data"]["text/plain"] == repr(feedback)
            checked += 1
        else:
            assert _comparable(copy.outputs) == _comparable(cell.outputs), (
                f"{lesson.name}, code cell {number}: the copy's stored output is not the lesson's: run make solutions"
            )
    assert checked == len(solutions.exercise_cells(original))
