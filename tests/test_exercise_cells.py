"""Every "Check yourself" cell in every lesson diagnoses what it claims to.

Derived from the exercises themselves: each lesson's code cells are run in
order (as a kernel would), and at each exercise cell the checker's own
feedback says which misconceptions it offers and what they answer.  The
test fails when two of them (or one and the right answer) agree within the
question's rounding, because then the checker cannot tell them apart; and
it answers with each misconception's value to see the checker name it.
"""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import nbformat
import pytest

from bleu_teach.lessons.exercises import Feedback

LESSONS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("[0-9][0-9]_*.ipynb"))
PREDICTION_CHECKERS = ("check_choice", "check_higher")


def _run(source: str, namespace: dict) -> object:
    """Run a cell's code and return the value of its last expression, as a notebook shows it."""
    tree = ast.parse(source)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, "<cell>", "exec"), namespace)
    if last is None:
        return None
    return eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)


def _exercises(lesson: Path) -> list[tuple[str, str, dict]]:
    """(cell source, code after the answer line, namespace before the cell) for each exercise cell."""
    nb = nbformat.read(lesson, as_version=4)
    namespace: dict = {"__name__": "__lesson__"}
    found = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            if "exercise" in cell.metadata.get("tags", []):
                first, _, rest = cell.source.partition("\n")
                assert first.strip() == "answer = None", f"{lesson.name}: exercise cell must start with 'answer = None'"
                found.append((cell.source, rest, dict(namespace)))
            _run(cell.source, namespace)
    return found


def _ask(rest: str, namespace: dict, answer: object) -> Feedback:
    scope = dict(namespace)
    scope["answer"] = answer
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        feedback = _run(rest, scope)
    assert isinstance(feedback, Feedback), "an exercise cell must end with a checker call"
    return feedback


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_every_exercise_tells_its_misconceptions_apart(lesson: Path):
    exercises = _exercises(lesson)
    assert len(exercises) >= 2, f"{lesson.name}: at least two exercises per lesson"
    assert any(any(name in source for name in PREDICTION_CHECKERS) for source, _, _ in exercises), (
        f"{lesson.name}: at least one prediction or conceptual question (check_choice or check_higher)")
    for source, rest, namespace in exercises:
        blank = _ask(rest, namespace, None)
        assert blank.correct is None
        assert blank.misconceptions, f"{lesson.name}: an exercise that names no misconception:\n{source}"
        if blank.decimals is not None:
            values = [("right answer", float(blank.right))] + [(m.name, float(m.value)) for m in blank.misconceptions]
            for name_a, a in values:
                for name_b, b in values:
                    # A learner who makes mistake a types a rounded; that answer must not also fit b.
                    assert name_a == name_b or abs(round(a, blank.decimals) - b) > blank.tolerance, (
                        f"{lesson.name}: '{name_a}' ({a}) rounded to {blank.decimals} decimals also fits "
                        f"'{name_b}' ({b}), so the checker cannot tell them apart:\n{source}")
            assert _ask(rest, namespace, round(float(blank.right), blank.decimals)).correct is True
            for m in blank.misconceptions:
                answer = round(float(m.value), blank.decimals)
                feedback = _ask(rest, namespace, answer)
                assert feedback.correct is False and feedback.recognised == m.name, (lesson.name, m.name, source)
        else:
            assert _ask(rest, namespace, blank.right).correct is True
            for m in blank.misconceptions:
                assert _ask(rest, namespace, m.value).recognised == m.name
