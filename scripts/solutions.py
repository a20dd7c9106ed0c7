"""Make the teacher's solution copies of the lessons: notebooks/solutions/NN_name_solutions.ipynb.

The lessons are the master copies, and they hold no answer; the question
above each exercise cell (from its anchor ``<a id="ex-LL-Q"></a>`` to the end
of its markdown cell) is the bank's, in the notebook's words, and this script
writes it there first.  Each "Check
yourself" code cell is tagged ``exercise`` and reads ``answer = None`` then
``check("LL.Q", answer)``; the worked answer comes from the exercise bank
(``bleu_teach/exercises/bank.toml``).  A solution copy is the lesson with that
first line replaced by the bank's answer and working, links pointing back up
one folder, and nothing else changed.  The same run writes the teacher's
guide's tables of exercises and of homework minutes (each between its markers) from the bank.
tests/test_solutions.py checks that the stored copies and the table still
equal what this script makes, and nbval checks that each answer passes its
checker.  `make solutions` runs this script and executes the copies.
"""

from __future__ import annotations

import copy
import re
import sys
from pathlib import Path

import nbformat

from bleu_teach.exercises import Exercise, exercise, exercises
from bleu_teach.exercises.effort import minutes
from bleu_teach.exercises.feedback import names

PROJECT = Path(__file__).resolve().parent.parent
LESSONS = PROJECT / "notebooks"
SOLUTIONS = LESSONS / "solutions"
PLACEHOLDER = "answer = None"
CALL = re.compile(r'^check\("(\d\d\.\d+)", answer\)$')
GUIDE = PROJECT / "TEACHERS_GUIDE.md"
TABLE_START, TABLE_END = "<!-- exercises: made by scripts/solutions.py -->", "<!-- end of exercises -->"
MINUTES_START = "<!-- homework minutes: made by scripts/solutions.py from bleu_teach.exercises.effort.minutes -->"
MINUTES_END = "<!-- end of homework minutes -->"
BANNER = (
    "> **Teacher's copy, with the worked answers.** The lesson itself is "
    "[{name}](../{name}); this copy is made from it by `make solutions`."
)


def lessons() -> list[Path]:
    return sorted(LESSONS.glob("[0-9][0-9]_*.ipynb"))


def exercise_cells(nb: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    return [c for c in nb.cells if c.cell_type == "code" and "exercise" in c.metadata.get("tags", [])]


def cell_exercise(lesson: Path, cell: nbformat.NotebookNode) -> Exercise:
    """The bank exercise an exercise cell asks, refusing a cell that is not exactly the two learner lines."""
    first, _, rest = cell.source.partition("\n")
    found = CALL.match(rest.strip())
    if first.strip() != PLACEHOLDER or not found:
        raise ValueError(
            f"{lesson.name}: an exercise cell must be '{PLACEHOLDER}' and then check(\"LL.Q\", answer), "
            f"not {cell.source!r}."
        )
    return exercise(found.group(1))


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
    count = 0
    for cell in out.cells:
        if cell.cell_type == "code":
            cell.outputs = []
            cell.execution_count = None
        if cell.cell_type == "markdown":
            cell.source = _relink(cell.source)
        if cell.cell_type == "code" and "exercise" in cell.metadata.get("tags", []):
            rest = cell.source.partition("\n")[2]
            cell.source = cell_exercise(lesson, cell).solution() + "\n" + rest
            count += 1
    if not count:
        raise ValueError(f"{lesson.name} has no exercise cell (tag 'exercise').")
    out.cells.insert(1, nbformat.v4.new_markdown_cell(BANNER.format(name=lesson.name)))
    return out


def sources(nb: nbformat.NotebookNode) -> list[tuple[str, str]]:
    """What must not drift: each cell's type and source."""
    return [(c.cell_type, c.source) for c in nb.cells]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def guide_table() -> str:
    """The teacher's guide's table: every exercise by id, its answer, and the misconceptions its checker names."""
    rows = ["| Exercise | Question | Answer | Misconceptions the checker names |", "|---|---|---|---|"]
    for ex in exercises():
        offered = ex.check(None).misconceptions
        if ex.options:
            named = "; ".join(f"{o.letter}: {o.misconception}" for o in ex.options if o.misconception)
        else:
            named = "; ".join(dict.fromkeys(names(m) for m in offered))
        rows.append(f"| {ex.id} | {_cell(ex.title)} | {_cell(ex.answer_text)} | {_cell(named)} |")
    return "\n".join(rows)


def minutes_table() -> str:
    """The guide's homework-time table: every exercise by id, its title and its estimated minutes by hand."""
    rows = ["| Exercise | Title | Minutes (estimate) |", "|---|---|---|"]
    rows += [f"| {ex.id} | {_cell(ex.title)} | {minutes(ex)} |" for ex in exercises()]
    return "\n".join(rows)


def _between(guide: str, start_marker: str, end_marker: str, table: str) -> str:
    before, start, rest = guide.partition(start_marker)
    _, end, after = rest.partition(end_marker)
    if not start or not end:
        raise ValueError(f"{GUIDE.name} needs the markers {start_marker} and {end_marker}.")
    return f"{before}{start_marker}\n{table}\n{end_marker}{after}"


def guide_with_table(guide: str) -> str:
    """The guide's text with its two tables made from the bank (between their markers): the exercises and their
    misconceptions, and the homework minutes."""
    guide = _between(guide, TABLE_START, TABLE_END, guide_table())
    return _between(guide, MINUTES_START, MINUTES_END, minutes_table())


def with_bank_questions(lesson: Path) -> bool:
    """Write the bank's question (``Exercise.markdown()``) above each exercise cell of ``lesson``, from the
    question's anchor to the end of its cell; True if the lesson changed."""
    nb = nbformat.read(lesson, as_version=4)
    changed = False
    for index, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and "exercise" in cell.metadata.get("tags", []):
            ex = cell_exercise(lesson, cell)
            question = next(c for c in reversed(nb.cells[:index]) if c.cell_type == "markdown")
            before, anchor, _ = question.source.partition(f'<a id="{ex.anchor}"></a>')
            if not anchor:
                raise ValueError(f"{lesson.name}: the markdown cell above exercise {ex.id} has no anchor {ex.anchor}.")
            if (new := before + ex.markdown()) != question.source:
                question.source, changed = new, True
    if changed:
        nbformat.write(nb, lesson)
    return changed


def main() -> None:
    SOLUTIONS.mkdir(exist_ok=True)
    for lesson in lessons():
        if with_bank_questions(lesson):
            print(f"wrote the bank's questions into {lesson.relative_to(PROJECT)}", file=sys.stderr)
        nbformat.write(solution_notebook(lesson), solution_path(lesson))
        print(f"wrote {solution_path(lesson).relative_to(PROJECT)}", file=sys.stderr)
    GUIDE.write_text(guide_with_table(GUIDE.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote the tables of exercises and of homework minutes in {GUIDE.relative_to(PROJECT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
