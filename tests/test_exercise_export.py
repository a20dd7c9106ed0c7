"""The teacher's files: the answer key (Markdown and a compiled PDF) and the Moodle XML quiz, read back and
compared with the bank; the Moodle file graded as Moodle grades a numerical answer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from markdown_it import MarkdownIt

from bleu_teach.exercises import check, exercises
from tests.view_checks import _pdflatex

BANK = exercises()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bleu_teach", "exercises", *args], capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def key_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _pdflatex()  # skips (or fails under CI=true) without pdflatex
    out = tmp_path_factory.mktemp("key")
    run = _cli("key", "--out", str(out))
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["wrote", str(out / "answer-key.md"), "wrote", str(out / "answer-key.tex"),
                                  "wrote", str(out / "answer-key.pdf")]
    return out


def _inline_text(markdown: str) -> str:
    """The text a reader sees in rendered Markdown (markdown-it's tokens), escapes resolved."""
    parts = []
    for token in MarkdownIt("commonmark").enable("table").parse(markdown):
        if token.type == "inline":
            parts.append("".join(child.content for child in token.children or () if child.type in ("text", "code_inline")))
    return "\n".join(parts)


def test_the_markdown_key_holds_every_answer_working_and_misconception(key_folder: Path):
    shown = _inline_text((key_folder / "answer-key.md").read_text(encoding="utf-8"))
    for ex in BANK:
        assert f"{ex.id} {ex.title}" in shown
        assert f"Answer: {ex.answer_text}." in shown
        for option in ex.options:
            assert option.misconception is None or f"misconception: {option.misconception}" in shown
        for m in check(ex.id, None).misconceptions if not ex.options else ():
            assert f"{float(m.value):.{ex.decimals}f}" in shown and m.message.replace("_", " ") in shown.replace("_", " ")


def test_the_pdf_key_compiles_and_reads_back(key_folder: Path):
    text = subprocess.run(["pdftotext", "answer-key.pdf", "-"], cwd=key_folder, capture_output=True, text=True,
                          check=True).stdout
    flat = " ".join(text.split()).replace("\u2019", "'")  # LaTeX sets ' as a closing quote
    for ex in BANK:  # pdftotext reads LaTeX's drawn underscore as a space
        assert f"{ex.id} {ex.title}".replace("_", " ") in flat
        assert f"Answer: {ex.answer_text}." in flat


@pytest.fixture(scope="module")
def moodle(tmp_path_factory: pytest.TempPathFactory) -> ElementTree.Element:
    out = tmp_path_factory.mktemp("moodle")
    run = _cli("export", "--format", "moodle", "--out", str(out))
    assert run.returncode == 0, run.stderr
    return ElementTree.parse(out / "bleu-teach-exercises.moodle.xml").getroot()


def test_the_moodle_file_holds_every_exercise_with_its_answers_and_feedback(moodle: ElementTree.Element):
    questions = [q for q in moodle.findall("question") if q.get("type") != "category"]
    assert [q.findtext("idnumber") for q in questions] == [ex.id for ex in BANK]
    for question, ex in zip(questions, BANK):
        assert question.findtext("name/text") == f"{ex.id} {ex.title}"
        answers = question.findall("answer")
        if ex.options:
            assert question.get("type") == "multichoice" and question.findtext("single") == "true"
            assert [a.findtext("text") for a in answers] == [o.text for o in ex.options]
            assert [a.get("fraction") for a in answers] == ["100" if o.letter == ex.answer else "0" for o in ex.options]
            assert [a.findtext("feedback/text") for a in answers] == [o.feedback for o in ex.options]
        else:
            assert question.get("type") == "numerical"
            right = check(ex.id, ex.answer)
            offered = check(ex.id, None).misconceptions
            assert [float(a.findtext("text")) for a in answers] == [right.right, *[float(m.value) for m in offered]]
            assert [a.get("fraction") for a in answers] == ["100"] + ["0"] * len(offered)
            assert [a.findtext("feedback/text") for a in answers] == [right.message, *[m.message for m in offered]]
            assert {a.findtext("tolerance") for a in answers} == {f"{0.5 * 10.0 ** -ex.decimals:g}"}


def test_moodle_grades_each_mistake_as_the_notebook_names_it(moodle: ElementTree.Element):
    """Moodle gives a numerical answer the first answer whose value is within its tolerance: each misconception's
    rounded answer must reach its own feedback, and the right answer rounded must get full marks."""
    by_id = {q.findtext("idnumber"): q for q in moodle.findall("question")}
    for ex in BANK:
        if ex.options:
            continue
        answers = [(float(a.findtext("text")), float(a.findtext("tolerance")), a.findtext("feedback/text"),
                    a.get("fraction")) for a in by_id[ex.id].findall("answer")]

        def graded(typed: float) -> tuple[str, str]:
            return next((feedback, fraction) for value, tolerance, feedback, fraction in answers
                        if abs(typed - value) <= tolerance + 1e-12)

        assert graded(round(float(check(ex.id, ex.answer).right), ex.decimals))[1] == "100"
        for m in check(ex.id, None).misconceptions:
            assert graded(round(float(m.value), ex.decimals)) == (m.message, "0"), (ex.id, m.name)


def test_the_gift_file_names_every_exercise(tmp_path: Path):
    run = _cli("export", "--format", "gift", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    text = (tmp_path / "bleu-teach-exercises.gift.txt").read_text(encoding="utf-8")
    assert [line.split("::")[1] for line in text.splitlines() if line.startswith("::")] == \
        [f"{ex.id} {ex.title}".replace(":", "\\:") for ex in BANK]


def test_exercises_without_a_command_says_what_to_write():
    run = _cli()
    assert run.returncode == 2 and "exercises key --out DIR" in run.stderr
