"""A different worksheet for every student (python -m bleu_teach exercises worksheet): each variant's answer is
recomputed with NLTK or the formula, its misconceptions from their definitions, and all must differ after the
question's rounding; the PDFs are compiled and read back, and the quiz files parsed back."""

from __future__ import annotations

import subprocess
import sys
import time
import zipfile
from collections import Counter
from decimal import ROUND_DOWN, ROUND_UP, Decimal
from functools import cache
from pathlib import Path
from xml.etree import ElementTree

import pytest

from bleu_teach.exercises import exercise
from bleu_teach.exercises.bank import Exercise
from bleu_teach.exercises.variants import MAX_STUDENTS, VARIED, draw_variant, pool_size, worksheets
from tests.conftest import FIGURES
from tests.test_exercise_bank import (
    as_float,
    assert_needs_every_reference,
    assert_tells_its_misconceptions_apart,
    nltk_value,
    tolerance,
)
from tests.view_checks import needs_weasyprint

#: Each test compiles PDFs or draws a class of variants: the full run only (make check leaves them out).
pytestmark = pytest.mark.slow

STUDENTS, SEED = 40, 1


@cache
def _sheets() -> list[list[Exercise]]:
    """The class's sheets, ``worksheets(STUDENTS, SEED)``: drawn once, when a test first asks (not when the module is
    imported: every worker of make test, and make check, which runs none of these tests, imports it)."""
    return worksheets(STUDENTS, SEED)


@cache
def _variants() -> list[Exercise]:
    """Every variant on the class's sheets, sheet by sheet."""
    return [ex for sheet in _sheets() for ex in sheet]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    needs_weasyprint()  # skips (or fails under CI=true) without WeasyPrint and Pango
    out = tmp_path_factory.mktemp("worksheets")
    started = time.perf_counter()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "exercises",
            "worksheet",
            "--students",
            str(STUDENTS),
            "--seed",
            str(SEED),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    seconds = time.perf_counter() - started
    assert run.returncode == 0, run.stderr
    FIGURES.append(
        f"exercises worksheet --students {STUDENTS}: {seconds:.1f} s for {STUDENTS} PDF worksheets, "
        f"their key and three quiz files ({len(_variants())} variants)"
    )
    return out


def test_every_student_gets_a_variant_of_every_numeric_exercise_and_no_two_share_one():
    assert [[ex.id for ex in sheet] for sheet in _sheets()] == [list(VARIED)] * STUDENTS
    assert [sheet[0].student for sheet in _sheets()] == list(range(1, STUDENTS + 1))
    for k, exercise_id in enumerate(VARIED):
        inputs = [repr(sorted(sheet[k].inputs.items())) for sheet in _sheets()]
        assert len(set(inputs)) == STUDENTS, exercise_id
        assert repr(sorted(exercise(exercise_id).inputs.items())) not in inputs  # not the lesson's own question
    again = worksheets(3, SEED)
    assert [[ex.inputs for ex in sheet] for sheet in again] == [[ex.inputs for ex in sheet] for sheet in _sheets()[:3]]
    assert worksheets(1, SEED + 1)[0][0].inputs != _sheets()[0][0].inputs


@pytest.mark.parametrize("exercise_id", VARIED)
def test_each_variant_is_right_by_nltk_and_tells_every_misconception_apart(exercise_id: str):
    for ex in (v for v in _variants() if v.id == exercise_id):
        right = nltk_value(ex)
        assert abs(as_float(ex.answer) - right) <= tolerance(ex), (ex.label, ex.answer, right)
        assert ex.check(ex.answer_text).verdict == "correct", ex.label
        assert_tells_its_misconceptions_apart(ex)


def test_each_variant_keeps_what_its_exercise_teaches():
    for ex in _variants():
        given = ex.inputs
        if ex.kind == "modified_precision":
            hyp = given["hypothesis"].split()
            grams = Counter(tuple(hyp[i : i + given["n"]]) for i in range(len(hyp) - given["n"] + 1))
            assert max(grams.values()) >= 2, ex.label  # a repeated n-gram: clipping is the point
            assert len(given["references"]) == len(exercise(ex.id).inputs["references"])
            if len(given["references"]) > 1:
                assert_needs_every_reference(ex)
        if ex.id == "04.1":  # a missing 4-gram: smoothing is the point
            assert ex.check(None).misconceptions and any(
                m.name == "unsmoothed" for m in ex.check(None).misconceptions
            ), ex.label
        if ex.kind == "brevity_penalty":  # only BLEU's rule (the closest length) gives the answer
            lens, c = given["reference_lengths"], given["hypothesis_length"]
            closest = min(lens, key=lambda r: (abs(r - c), r))
            assert len(set(lens)) == 4 and c < closest, ex.label
            assert closest not in (min(lens), max(lens), lens[0]), ex.label
        if ex.kind == "mqm_score":  # a machine translation with 2 to 4 errors, not a human reference
            from bleu_teach.lessons.data import wmt21_ted

            ted = wmt21_ted(given["pair"])
            assert given["system"] in ted.systems and 2 <= len(ted.errors[given["system"]][given["segment"]]) <= 4


def test_the_pdfs_read_back_with_each_students_own_question_and_answer_space(folder: Path):
    sheets = sorted((folder / "sheets").glob("student-*.pdf"))
    assert [p.stem for p in sheets] == [f"student-{k:02d}" for k in range(1, STUDENTS + 1)]
    for path, sheet in zip(sheets, _sheets()):
        text = " ".join(
            subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout.split()
        )
        assert f"student {sheet[0].student:02d}" in text
        assert text.count("Answer (") == len(VARIED) and text.count("Working (") == len(VARIED)
        for ex in sheet:
            if "hypothesis" in ex.inputs:
                assert ex.inputs["hypothesis"].split()[0] in text, ex.label
    key = " ".join(
        subprocess.run(
            ["pdftotext", str(folder / "worksheet-key.pdf"), "-"], capture_output=True, text=True, check=True
        ).stdout.split()
    )
    for sheet in _sheets():
        section = key.split(f"Sheet of student {sheet[0].student:02d}")[1].split("Sheet of student")[0]
        for number, ex in enumerate(sheet, start=1):
            assert f"{number}. {ex.id}: {_both_roundings(ex)}." in section, ex.label


def _both_roundings(ex: Exercise) -> str:
    """The answer as the key must print it: rounded, or an exact tie (0.6875 to 3 places) both ways with its value."""
    if isinstance(ex.answer, str):
        return ex.answer_text
    exact = Decimal(repr(ex.answer))
    if (exact * 10**ex.decimals) % 1 != Decimal("0.5"):
        return ex.answer_text
    unit = Decimal(1).scaleb(-ex.decimals)
    low, high = sorted(exact.quantize(unit, rounding=way) for way in (ROUND_DOWN, ROUND_UP))
    return f"{low} or {high} (exactly {exact})"


def test_the_worksheet_never_shows_its_answer(folder: Path):
    for sheet in _sheets():
        text = (folder / "sheets" / f"student-{sheet[0].student:02d}.md").read_text(encoding="utf-8")
        for ex in sheet:
            assert ex.working not in text and f"Answer: {ex.answer_text}" not in text, ex.label


def _quiz_by_category(folder: Path) -> dict[str, list[ElementTree.Element]]:
    root = ElementTree.parse(folder / "worksheets.moodle.xml").getroot()
    current, found = "", {}
    for question in root.findall("question"):
        if question.get("type") == "category":
            current = question.findtext("category/text") or ""
            found[current] = []
        else:
            found[current].append(question)
    return found


def test_the_quiz_files_are_drawn_apart_from_the_sheets_and_name_no_seed(folder: Path):
    """A student who retakes the platform quiz never meets their own sheet's question: no quiz question is any
    sheet's, compared by the question text a platform shows; and no category, name or id says anything of the seed."""
    import datetime
    import hashlib

    from bleu_teach.exercises.media import question_text

    found = _quiz_by_category(folder)
    day = datetime.date.today().isoformat()
    # An exercise whose few good sentences the sheets have all used (02.1, after 40 sheets) has no quiz variant.
    present = [(i, v) for i, v in zip(VARIED, _sheets()[0]) if f"/{i} " in " ".join(found)]
    assert {i for i, _ in present} >= {"01.1", "03.1", "04.2", "07.1", "08.1"}
    assert list(found) == [f"$course$/bleu-teach quiz variants, made {day}/{i} {v.title}" for i, v in present]
    paper = {question_text(ex, "platform") for ex in _variants()}
    quiz_texts = [q.findtext("questiontext/text") for questions in found.values() for q in questions]
    assert len(quiz_texts) >= 5 * len(present) and not paper & set(quiz_texts)
    for questions, (exercise_id, _) in zip(found.values(), present):
        assert [q.findtext("idnumber") for q in questions] == [
            f"{exercise_id}-q{k:02d}" for k in range(1, len(questions) + 1)
        ]
        assert all("student" not in (q.findtext("name/text") or "") for q in questions)
    every = (folder / "worksheets.moodle.xml").read_text(encoding="utf-8") + (folder / "worksheets.gift.txt").read_text(
        encoding="utf-8"
    )
    for digits in (6, 8, 10):
        assert hashlib.sha256(str(SEED).encode()).hexdigest()[:digits] not in every
    key = (folder / "worksheet-key.md").read_text(encoding="utf-8")
    assert "none of them a near-copy of a student's sheet" in key


def test_the_gift_and_qti_files_hold_every_quiz_variant(folder: Path):
    found = _quiz_by_category(folder)
    names = [q.findtext("name/text") for questions in found.values() for q in questions]
    gift = (folder / "worksheets.gift.txt").read_text(encoding="utf-8")
    assert gift.count("$CATEGORY: ") == len(found)
    assert [line.split("::")[1] for line in gift.splitlines() if line.startswith("::")] == [
        name.replace(":", "\\:") for name in names
    ]
    with zipfile.ZipFile(folder / "worksheets.qti.zip") as package:
        name = next(
            n
            for n in package.namelist()
            if n.endswith(".xml") and "assessment_meta" not in n and "imsmanifest" not in n
        )
        root = ElementTree.fromstring(package.read(name))
        meta = ElementTree.fromstring(package.read(next(n for n in package.namelist() if "assessment_meta" in n)))
    tag = lambda e: e.tag.split("}")[-1]  # noqa: E731
    sections = [e for e in root.iter() if tag(e) == "section" and e.get("ident") != "root_section"]
    assert len(sections) == len(found)  # one question group per exercise, from which the quiz picks one
    assert [s.get("title") for s in sections] == [
        f"{i} {v.title}" for i, v in zip(VARIED, _sheets()[0]) if any(f"/{i} " in category for category in found)
    ]
    picks = [next(int(x.text) for x in s.iter() if tag(x) == "selection_number") for s in sections]
    assert picks == [1] * len(found)
    assert sum(1 for e in root.iter() if tag(e) == "item") == len(names)
    points = next(e.text for e in meta.iter() if tag(e) == "points_possible")
    assert float(points) == len(found)  # one point per question drawn, not per question in the groups


def test_bad_worksheet_requests_are_refused_clearly(tmp_path: Path):
    for students, words in (
        ("0", f"students must be from 1 to {MAX_STUDENTS}"),
        ("x", "is not a whole number of at most 18 digits"),
    ):
        run = subprocess.run(
            [
                sys.executable,
                "-m",
                "bleu_teach",
                "exercises",
                "worksheet",
                "--students",
                students,
                "--out",
                str(tmp_path),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 2 and words in run.stderr and "Traceback" not in run.stderr
    with pytest.raises(ValueError, match="is not drawn afresh"):
        import random

        draw_variant("03.2", random.Random(1), 1)
    with pytest.raises(ValueError, match="seed must be 0 or more"):
        worksheets(2, seed=-5)  # would repeat seed 5's sheets
    with pytest.raises(TypeError, match="students must be a whole number"):
        worksheets(2.5)  # type: ignore[arg-type]


def test_a_large_class_gets_worksheets_and_the_key_says_which_variants_are_shared():
    from bleu_teach.exercises.variants import pool_size
    from bleu_teach.exercises.worksheet import worksheet_key

    students = 150  # more than exercise 04.1's real sentences allow (it failed past 47 students)
    which = ("03.1", "04.1")  # a pooled exercise beside a drawn one (the module's 60 sheets draw every exercise)
    sheets = worksheets(students, SEED, which)
    k = which.index("04.1")
    different = len({repr(sorted(sheet[k].inputs.items())) for sheet in sheets})
    assert different == pool_size("04.1") < students
    assert len({tuple(repr(sorted(v.inputs.items())) for v in sheet) for sheet in sheets}) == students
    rows = {row[0]: row for row in worksheet_key(sheets, SEED).to_document().blocks[3].rows}  # type: ignore[union-attr]
    same_lengths = {
        (tuple(sorted(sheet[0].inputs["reference_lengths"])), sheet[0].inputs["hypothesis_length"]) for sheet in sheets
    }  # the same lengths in another order are the same question in substance
    assert rows["04.1"][2] == str(different) and rows["03.1"][2] == str(len(same_lengths))


def test_variants_spread_their_answers_and_never_repeat_the_lessons_own_question():
    for k, exercise_id in enumerate(VARIED):
        answers = {sheet[k].answer_text for sheet in _sheets()}
        assert len(answers) >= 10, (exercise_id, answers)
        assert all(sheet[k].inputs != exercise(exercise_id).inputs for sheet in _sheets())


def test_the_students_sheets_never_print_the_seed_and_the_key_does(folder: Path):
    for path in (folder / "sheets").glob("student-*.md"):
        assert "seed" not in path.read_text(encoding="utf-8").lower(), path.name
    assert f"made with seed {SEED}" in (folder / "worksheet-key.md").read_text(encoding="utf-8")
    moodle = (folder / "worksheets.moodle.xml").read_text(encoding="utf-8")
    assert f"seed {SEED}" not in moodle


def test_without_a_seed_a_random_one_is_chosen_and_said_and_old_sheets_are_cleared(tmp_path: Path):
    env = {**__import__("os").environ, "PATH": "/nonexistent"}
    run = subprocess.run(
        [sys.executable, "-m", "bleu_teach", "exercises", "worksheet", "--students", "3", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    (tmp_path / "sheets" / "student-09.pdf").write_text("the teacher's own file")
    (tmp_path / "notes.txt").write_text("the teacher's own file")
    run = subprocess.run(
        [sys.executable, "-m", "bleu_teach", "exercises", "worksheet", "--students", "2", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert run.returncode == 0, run.stderr
    seed = int(run.stderr.split("made with seed ")[1].split(":")[0])
    assert f"made with seed {seed}" in (tmp_path / "worksheet-key.md").read_text(encoding="utf-8")
    assert not (tmp_path / "sheets" / "student-03.md").exists()  # the earlier set's third sheet
    assert (tmp_path / "sheets" / "student-09.pdf").exists() and (tmp_path / "notes.txt").exists()
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "exercises",
            "worksheet",
            "--students",
            "2",
            "--out",
            str(tmp_path / "notes.txt"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2 and "is a file, not a folder" in run.stderr


def test_the_class_that_drew_a_shared_variant_gets_its_own_and_a_valid_qti_package(tmp_path: Path):
    from bleu_teach.exercises.export import write_qti

    sheets = worksheets(58, 12345)  # student 58 used to get student 55's 02.1, and text2qti refused the package
    for k, exercise_id in enumerate(VARIED):  # a pooled exercise shares only past its supply (04.1: 50)
        supply = min(58, pool_size(exercise_id) or 58)
        assert len({repr(sorted(sheet[k].inputs.items())) for sheet in sheets}) == supply, exercise_id
    write_qti(str(tmp_path / "quiz.zip"), [ex for sheet in sheets for ex in sheet])
    assert zipfile.ZipFile(tmp_path / "quiz.zip").testzip() is None


def test_students_who_share_a_variant_share_one_quiz_question(tmp_path: Path):
    from dataclasses import replace

    from bleu_teach.exercises.export import gift, moodle_xml, write_qti

    sheets = worksheets(3, 1, which=("04.1", "03.1"))
    flat = [ex for sheet in sheets for ex in sheet] + [replace(sheets[0][0], student=4)]  # a fourth student shares
    moodle = ElementTree.fromstring(moodle_xml(flat, "set"))
    names = [q.findtext("name/text") for q in moodle.iter("question") if q.get("type") != "category"]
    assert len(names) == 6 and len(set(names)) == 6
    assert gift(flat, "set").count("::04.1") == 3
    write_qti(str(tmp_path / "quiz.zip"), flat)  # text2qti refuses a repeated question


def test_no_quiz_variant_is_a_sheet_with_its_words_moved_or_its_answer_on_the_same_sentences():
    from bleu_teach.exercises.variants import quiz_variants

    quiz = quiz_variants(SEED, _sheets())

    def moved(ex: Exercise) -> tuple[str, str, list[str]]:  # the same references and the same words in any order
        return (ex.id, repr(ex.inputs.get("references")), sorted(ex.inputs.get("hypothesis", "").split()))

    paper_moved = [moved(ex) for ex in _variants()]
    paper_echo = {
        (ex.id, repr(ex.inputs["references"]), ex.answer_text) for ex in _variants() if "references" in ex.inputs
    }
    paper_lengths = {
        (tuple(sorted(ex.inputs["reference_lengths"])), ex.inputs["hypothesis_length"])
        for ex in _variants()
        if ex.kind == "brevity_penalty"
    }
    for ex in quiz:
        if ex.kind == "modified_precision":
            assert moved(ex) not in paper_moved, ex.label
        if "references" in ex.inputs:
            assert (ex.id, repr(ex.inputs["references"]), ex.answer_text) not in paper_echo, ex.label
        if ex.kind == "brevity_penalty":
            assert (tuple(sorted(ex.inputs["reference_lengths"])), ex.inputs["hypothesis_length"]) not in paper_lengths
    assert {ex.id for ex in quiz} >= {"03.1", "04.2", "07.1", "08.1"}


def test_the_guide_says_how_many_variants_04_1_has_and_from_how_many_pairs_of_references():
    from bleu_teach.exercises.variants import pool_inputs

    pairs = {tuple(inputs["references"]) for inputs in pool_inputs("04.1")}
    guide = " ".join((Path(__file__).resolve().parents[1] / "TEACHERS_GUIDE.md").read_text(encoding="utf-8").split())
    assert f"{pool_size('04.1')} variants, from only {len(pairs)} pairs of references" in guide
