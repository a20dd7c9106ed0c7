"""``python -m bleu_teach exercises ...``: the exercise bank for teachers, written into a folder.

* ``key``: the answer key as Markdown, LaTeX and (with pdflatex) PDF.
* ``export --format moodle|gift|qti``: every exercise as a quiz file.
* ``worksheet --students N --seed S``: a different worksheet for every
  student (PDF, with blank answer space), one key with every student's
  answers, and the variants as Moodle XML, GIFT and (with text2qti) QTI
  quiz files in which the platform gives each student one variant of each
  question.

Bad arguments raise ``ValueError``: the command line prints them as one
``error:`` line.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

__all__ = ["add_exercise_commands", "exercise_files"]

_PROG = "python -m bleu_teach"


def add_exercise_commands(commands: Any, formatter: type[argparse.HelpFormatter]) -> None:
    """Add ``exercises key``, ``exercises export`` and ``exercises worksheet`` to the command line."""
    from bleu_teach.exercises.variants import MAX_STUDENTS

    bank = commands.add_parser(
        "exercises", formatter_class=formatter,
        help="for teachers: the answer key, quiz files for Moodle and Canvas, a worksheet per student",
        description="The lessons' exercises for teachers, written into a folder:\n"
                    "  key        the answer key (answers, working, every misconception with its answer\n"
                    "             and feedback) as Markdown, and as a PDF when pdflatex is installed\n"
                    "  export     every exercise as a quiz file: Moodle XML, GIFT (Moodle's text format)\n"
                    "             or a QTI package for Canvas\n"
                    "  worksheet  a different worksheet for every student (new sentences for each numeric\n"
                    "             exercise, each checked so that every mistake gives its own answer),\n"
                    "             one key, and the variants as quiz files",
    )
    what = bank.add_subparsers(dest="exercise_command", title="what to write", metavar="WHAT")
    key = what.add_parser("key", help="the answer key, Markdown and PDF")
    key.add_argument("--out", required=True, metavar="DIR", help="the folder to write into (made if missing)")
    export = what.add_parser("export", help="a quiz file for a learning platform")
    export.add_argument("--format", dest="quiz_format", required=True, choices=("moodle", "gift", "qti"),
                        help="moodle: Moodle XML (Question bank > Import); gift: Moodle's GIFT text format; "
                             "qti: a QTI package for Canvas (needs text2qti)")
    export.add_argument("--out", required=True, metavar="DIR", help="the folder to write into (made if missing)")
    sheet = what.add_parser("worksheet", help="a different worksheet for every student, their key, quiz files")
    sheet.add_argument("--students", required=True, type=int, metavar="N",
                       help=f"how many worksheets (1 to {MAX_STUDENTS}), one per student")
    sheet.add_argument("--seed", type=int, default=None, metavar="S",
                       help="the same seed gives the same worksheets; by default a new random seed, printed and "
                            "written into the key (keep it secret: with it anyone can make the key)")
    sheet.add_argument("--out", required=True, metavar="DIR", help="the folder to write into (made if missing)")
    bank.set_defaults(metric=None, level="exercises", format="text", standalone=False)


def _folder(path: str) -> Path:
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {str(out)!r} is a file, not a folder: give a folder to write into.")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as problem:
        raise ValueError(f"cannot make the folder {str(out)!r}: {problem.strerror or problem}") from None
    return out


def _compile(folder: Path, names: Sequence[str]) -> list[str]:
    """Compile ``NAME.tex`` in ``folder`` for each name with pdflatex (two at a time); the PDFs' paths.

    Without pdflatex, nothing is compiled and a note says so on standard error.
    """
    engine = shutil.which("pdflatex")
    if engine is None:
        print(f"pdflatex is not installed, so there is no PDF: compile the .tex files in {str(folder)!r} with any "
              "LaTeX engine", file=sys.stderr)
        return []

    def run(name: str) -> str:
        done = subprocess.run([engine, "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=folder,
                              capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise ValueError(f"pdflatex could not compile {name}.tex in {str(folder)!r}; see {name}.log there")
        for leftover in (".aux", ".log", ".out"):
            (folder / f"{name}{leftover}").unlink(missing_ok=True)
        return str(folder / f"{name}.pdf")

    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(run, names))


def _qti(path: Path, found: Any = None) -> list[str]:
    from bleu_teach.exercises.export import write_qti

    write_qti(str(path), found)
    return [str(path)]


def exercise_files(args: argparse.Namespace) -> list[str]:
    """Write what ``exercises key``, ``export`` or ``worksheet`` asks for; return the paths written."""
    from bleu_teach.exercises.export import answer_key, gift, moodle_xml

    if args.exercise_command is None:
        raise ValueError(f"say what to write: {_PROG} exercises key --out DIR, {_PROG} exercises export "
                         f"--format moodle --out DIR, or {_PROG} exercises worksheet --students 40 --out DIR")
    if args.exercise_command == "worksheet":
        return _worksheets(args.students, args.seed, args.out)
    out = _folder(args.out)
    if args.exercise_command == "export":
        if args.quiz_format == "qti":
            return _qti(out / "bleu-teach-exercises.qti.zip")
        name, text = (("bleu-teach-exercises.moodle.xml", moodle_xml()) if args.quiz_format == "moodle"
                      else ("bleu-teach-exercises.gift.txt", gift()))
        (out / name).write_text(text, encoding="utf-8")
        return [str(out / name)]
    key = answer_key()
    (out / "answer-key.md").write_text(key.to_markdown(), encoding="utf-8")
    (out / "answer-key.tex").write_text(key.to_latex(standalone=True), encoding="utf-8")
    return [str(out / "answer-key.md"), str(out / "answer-key.tex"), *_compile(out, ["answer-key"])]


def _worksheets(students: int, seed: int | None, where: str) -> list[str]:
    from bleu_teach.exercises.export import gift, moodle_xml
    from bleu_teach.exercises.variants import worksheets
    from bleu_teach.exercises.worksheet import worksheet, worksheet_key

    import secrets

    started = time.perf_counter()
    if seed is None:
        seed = secrets.randbelow(10**9) + 1
    sheets = worksheets(students, seed)  # checks students and seed before anything is written
    out = _folder(where)
    sheet_folder = _folder(str(out / "sheets"))
    for old in sheet_folder.glob("student-*"):  # an earlier set's sheets would sit beside this set's key
        if old.is_file() and old.suffix in (".md", ".tex", ".pdf"):
            old.unlink()
    written = []
    names = []
    for sheet in sheets:
        name = f"student-{sheet[0].student:02d}"
        view = worksheet(sheet)
        (sheet_folder / f"{name}.md").write_text(view.to_markdown(), encoding="utf-8")
        (sheet_folder / f"{name}.tex").write_text(view.to_latex(standalone=True), encoding="utf-8")
        names.append(name)
    written += _compile(sheet_folder, names) or [str(sheet_folder / f"{n}.tex") for n in names]
    key = worksheet_key(sheets, seed)
    (out / "worksheet-key.md").write_text(key.to_markdown(), encoding="utf-8")
    (out / "worksheet-key.tex").write_text(key.to_latex(standalone=True), encoding="utf-8")
    written += [str(out / "worksheet-key.md"), *(_compile(out, ["worksheet-key"]) or [str(out / "worksheet-key.tex")])]
    flat = [ex for sheet in sheets for ex in sheet]
    import hashlib

    # The set is named by a fingerprint of its seed, never the seed itself (the quiz files may be shared).
    category = f"bleu-teach worksheets, set {hashlib.sha256(str(seed).encode()).hexdigest()[:6]}"
    (out / "worksheets.moodle.xml").write_text(moodle_xml(flat, category), encoding="utf-8")
    (out / "worksheets.gift.txt").write_text(gift(flat, category), encoding="utf-8")
    written += [str(out / "worksheets.moodle.xml"), str(out / "worksheets.gift.txt")]
    try:
        written += _qti(out / "worksheets.qti.zip", flat)
    except ValueError as problem:  # text2qti is not installed: the other files are still useful
        print(f"no QTI package: {problem}", file=sys.stderr)
    print(f"{students} worksheets in {time.perf_counter() - started:.1f} s, made with seed {seed}: keep it to make "
          "the same set again, and keep it secret (with it, anyone with the package can make the key)",
          file=sys.stderr)
    return written
