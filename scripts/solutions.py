"""Make the teacher's solution copies of the lessons: notebooks/solutions/NN_name_solutions.ipynb.

The lessons are the master copies.  Each "Check yourself" code cell is tagged
``exercise`` and starts with ``answer = None``; its worked answer lives in the
cell's metadata (``bleu_teach.solution``).  A solution copy is the lesson
with that first line replaced by the worked answer, links pointing back up
one folder, and nothing else changed; tests/test_solutions.py checks that the
stored copies still equal what this script makes, and nbval checks that each
answer passes its checker.  `make solutions` runs this script and executes
the copies.
"""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path

import nbformat

PROJECT = Path(__file__).resolve().parent.parent
LESSONS = PROJECT / "notebooks"
SOLUTIONS = LESSONS / "solutions"
PLACEHOLDER = "answer = None"
BANNER = ("> **Teacher's copy, with the worked answers.** The lesson itself is "
          "[{name}](../{name}); this copy is made from it by `make solutions`.")


def lessons() -> list[Path]:
    return sorted(LESSONS.glob("[0-9][0-9]_*.ipynb"))


def exercise_cells(nb: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [c for c in nb.cells if c.cell_type == "code" and "exercise" in c.metadata.get("tags", [])]


def solution_path(lesson: Path) -> Path:
    return SOLUTIONS / f"{lesson.stem}_solutions.ipynb"


def _relink(markdown: str) -> str:
    """Links to other lessons and to the glossary go up one folder from notebooks/solutions/."""
    return re.sub(r"\]\(((?:\d\d_[^)]+\.ipynb|GLOSSARY\.md)(?:#[^)]*)?)\)", r"](../\1)", markdown)


def solution_notebook(lesson: Path) -> nbformat.NotebookNode:
    """The solution copy of one lesson, unexecuted (outputs cleared)."""
    nb = nbformat.read(lesson, as_version=4)
    out = copy.deepcopy(nb)
    out.metadata.pop("widgets", None)
    exercises = 0
    for cell in out.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        if cell.cell_type == "markdown":
            cell.source = _relink(cell.source)
        if cell.cell_type == "code" and "exercise" in cell.metadata.get("tags", []):
            solution = cell.metadata.get("bleu_teach", {}).get("solution")
            first, _, rest = cell.source.partition("\n")
            if first.strip() != PLACEHOLDER or not solution:
                raise ValueError(f"{lesson.name}: an exercise cell must start with '{PLACEHOLDER}' and carry a solution.")
            cell.source = solution + "\n" + rest
            exercises += 1
    if not exercises:
        raise ValueError(f"{lesson.name} has no exercise cell (tag 'exercise').")
    out.cells.insert(1, nbformat.v4.new_markdown_cell(BANNER.format(name=lesson.name)))
    return out


def sources(nb: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """What must not drift: each cell's type and source."""
    return [(c.cell_type, c.source) for c in nb.cells]


def main() -> None:
    SOLUTIONS.mkdir(exist_ok=True)
    for lesson in lessons():
        nbformat.write(solution_notebook(lesson), solution_path(lesson))
        print(f"wrote {solution_path(lesson).relative_to(PROJECT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
