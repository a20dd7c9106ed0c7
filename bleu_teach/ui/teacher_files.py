"""``python -m bleu_teach exercises ...``: the exercise bank for teachers, written into a folder.

* ``key``: the answer key as Markdown and a tagged PDF (``ui.pdf``: WeasyPrint).
* ``export --format moodle|gift|qti``: every exercise as a quiz file.
* ``worksheet --students N --seed S``: a different worksheet for every
  student (a tagged PDF whose answer spaces are fields to fill in, and Markdown), one key with every student's
  answers, and the variants as Moodle XML, GIFT and (with text2qti) QTI
  quiz files in which the platform gives each student one variant of each
  question. A roster with a ``link`` column (the file ``class links`` writes) prints each student's personal join
  link on their sheet, with its QR code (segno); those sheets are then readable by their owner only, and the key
  and the quiz files never hold a link.

Bad arguments raise ``ValueError``: the command line prints them as one
``error:`` line.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bleu_teach.ui.out_folder import OutFolder

#: Every name the exercise commands write in --out: only these can be replaced or removed as a command's own.
FILE_NAMES = re.compile(
    r"(answer-key|worksheet-key)\.(md|tex|pdf)|(bleu-teach-exercises|worksheets)\."
    r"(moodle\.xml|gift\.txt|qti\.zip)|worksheets\.quiz\.json|sheets/student-[0-9]{2,3}\.(md|tex|pdf)"
)
# (.tex: the names earlier versions wrote, which a later run may remove as its own.)

__all__ = ["add_exercise_commands", "exercise_files", "exercise_tally"]

_PROG = "python -m bleu_teach"


def add_exercise_commands(commands: Any, formatter: type[argparse.HelpFormatter]) -> None:
    """Add ``exercises key``, ``exercises export`` and ``exercises worksheet`` to the command line."""
    from bleu_teach.exercises.variants import MAX_STUDENTS, VARIED

    bank = commands.add_parser(
        "exercises",
        formatter_class=formatter,
        help="for teachers: the answer key, quiz files for Moodle and Canvas, a worksheet per student, a tally",
        description="The lessons' exercises for teachers, written into a folder:\n"
        "  key        the answer key (answers, working, every misconception with its answer\n"
        "             and feedback) as Markdown and as a tagged PDF (A4, or --paper letter)\n"
        "  export     every exercise as a quiz file: Moodle XML, GIFT (Moodle's text format)\n"
        "             or a QTI package for Canvas\n"
        "  worksheet  a different worksheet for every student (new sentences for each numeric\n"
        "             exercise, each checked so that every mistake gives its own answer),\n"
        "             one key, and quiz files whose variants are never a sheet's\n"
        "  tally      the class's answers from a Moodle or Canvas quiz export, checked and counted\n"
        "             by exercise and named mistake",
    )
    what = bank.add_subparsers(dest="exercise_command", title="what to write", metavar="WHAT")
    key = what.add_parser("key", help="the answer key, Markdown and PDF")
    _add_out(key)
    export = what.add_parser("export", help="a quiz file for a learning platform")
    export.add_argument(
        "--format",
        dest="quiz_format",
        required=True,
        choices=("moodle", "gift", "qti"),
        help="moodle: Moodle XML (Question bank > Import); gift: Moodle's GIFT text format; "
        "qti: a QTI package for Canvas (needs text2qti)",
    )
    _add_out(export)
    sheet = what.add_parser("worksheet", help="a different worksheet for every student, their key, quiz files")
    sheet.add_argument(
        "--students",
        type=_whole,
        metavar="N",
        help=f"how many worksheets (1 to {MAX_STUDENTS}), one per student (or give --roster)",
    )
    sheet.add_argument(
        "--roster",
        metavar="CSV",
        help="a CSV file of the students' names (a column headed 'name' or 'student', columns "
        "'first name' and 'surname', or else the first column; commas, semicolons or tabs): "
        "one sheet per name, the name printed on it and in the key",
    )
    sheet.add_argument(
        "--exercises",
        metavar="IDS",
        help="the exercises on each sheet, by id, comma-separated (e.g. 01.1,03.1,03.2); numeric ones "
        f"get a variant per student; by default {','.join(VARIED)}",
    )
    sheet.add_argument(
        "--seed",
        type=_whole,
        default=None,
        metavar="S",
        help="the same seed gives the same worksheets; by default a new random seed, printed and "
        "written into the key (keep it secret: with it anyone can make the key)",
    )
    _add_out(sheet)
    count = what.add_parser(
        "tally",
        help="the class's answers from a Moodle or Canvas export, checked and counted",
        description="Every answer in a quiz's export run through the lessons' checkers: per "
        "exercise, how many answered, how many were right and how many made each "
        "named mistake. Reads Moodle's Responses report (with question texts) and "
        "Canvas's Student Analysis report, as CSV.",
    )
    count.add_argument("responses", metavar="RESPONSES", help="the CSV file the platform exported")
    count.add_argument(
        "--variants",
        metavar="FILE",
        help="worksheets.quiz.json, which 'exercises worksheet' wrote beside the quiz files: needed "
        "when the quiz is a worksheet quiz (its variants); without it, the lessons' exercises",
    )
    count.add_argument(
        "--format",
        dest="tally_format",
        choices=("text", "markdown", "html", "json"),
        default="text",
        help="text (default), markdown, html (a whole page with a bar chart per exercise) or json",
    )
    bank.set_defaults(metric=None, level="exercises", format="text", standalone=False)


def _whole(text: str) -> int:
    """A whole number given on the command line (at most 18 digits: argparse would repeat a longer one whole)."""
    digits = text.strip().lstrip("+-")
    if not digits.isdigit() or len(digits) > 18:
        shown = f"{text[:20]}..." if len(text) > 20 else text
        raise argparse.ArgumentTypeError(f"{shown!r} is not a whole number of at most 18 digits")
    return int(text)


def _add_out(parser: argparse.ArgumentParser) -> None:
    if parser.prog.split()[-1] in ("key", "worksheet"):
        parser.add_argument("--paper", choices=("A4", "letter"), default="A4", help="the PDFs' paper size (default A4)")
        parser.add_argument("--no-pdf", action="store_true", help="write the Markdown files only (faster)")
    parser.add_argument(
        "--out",
        required=True,
        metavar="DIR",
        help="the folder to write into (made if missing); a later run replaces only the files an "
        "earlier run wrote there (listed in its bleu-teach-files.json)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="replace files of the same names that bleu_teach did not write (never a folder)",
    )


def _note(text: str) -> None:
    """A line for the teacher on standard error; nothing when standard error is closed (never on standard output,
    where a list of files may be piped: the seed is said here)."""
    if sys.stderr is None:
        return
    try:
        print(text, file=sys.stderr)
    except (OSError, ValueError):
        pass


def _print(out: OutFolder, pages: dict[str, tuple[Any, str]], secret: bool, paper: str | None) -> list[str]:
    """Write each ``NAME.pdf`` (a document and its title, printed by WeasyPrint on ``paper``); the paths written,
    none when ``paper`` is None (no PDF asked for, or WeasyPrint is missing)."""
    from bleu_teach.ui.pdf import print_pdfs
    from bleu_teach.views.html_writer import write_html_page

    if paper is None:
        return []
    html = {name: write_html_page(view.to_document(), title, paper=paper) for name, (view, title) in pages.items()}
    pdfs = print_pdfs(html)
    return [out.write(f"{name}.pdf", pdfs[name], secret) for name in pages]


def _warn_unprintable(roster: list[str]) -> None:
    """Before printing: each name with characters no installed font has, the student's number and those
    characters named (they would print as empty boxes, missing from the PDF's text)."""
    from bleu_teach.ui.pdf import unprintable

    for number, name in enumerate(roster, start=1):
        missing = unprintable(name)
        if missing:
            _note(
                f"student {number:02d}'s name, {name}, has characters no installed font can print: "
                f"{' '.join(f'{c} (U+{ord(c):04X})' for c in missing[:10])}; they print as empty boxes and are "
                "missing from the PDF's text. Install a font that has them (Debian's fonts-noto packages have "
                "most scripts), then run the command again."
            )


def _qti_bytes(found: Any = None) -> bytes:
    from bleu_teach.exercises.export import write_qti

    with tempfile.TemporaryDirectory(prefix="bleu-teach-qti-") as scratch:
        path = Path(scratch) / "quiz.qti.zip"
        write_qti(str(path), found)
        return path.read_bytes()


def exercise_files(args: argparse.Namespace) -> list[str]:
    """Write what ``exercises key``, ``export`` or ``worksheet`` asks for; return the paths written.

    Files holding answers or the seed (the keys, the quiz files) are readable by their owner only.
    """
    from bleu_teach.exercises.export import answer_key, gift, moodle_xml

    if args.exercise_command is None:
        raise ValueError(
            f"say what to write: {_PROG} exercises key --out DIR, {_PROG} exercises export "
            f"--format moodle --out DIR, or {_PROG} exercises worksheet --students 40 --out DIR"
        )
    if args.exercise_command == "worksheet":
        names, links = _roster(args.roster, args.students) if args.roster is not None else (None, None)
        if names is None and args.students is None:
            raise ValueError("say how many sheets: --students N, or --roster names.csv with one name a line")
        chosen = _exercise_ids(args.exercises) if args.exercises is not None else None
        count = len(names) if names else args.students
        return _worksheets(count, args.seed, args.out, args.force, _paper(args), names, chosen, links)
    force = getattr(args, "force", False)
    if args.exercise_command == "export":
        name = {
            "qti": "bleu-teach-exercises.qti.zip",
            "moodle": "bleu-teach-exercises.moodle.xml",
            "gift": "bleu-teach-exercises.gift.txt",
        }[args.quiz_format]
        with OutFolder(args.out, f"export {args.quiz_format}", force, FILE_NAMES) as out:
            out.plan([name])
            content: str | bytes = (
                _qti_bytes() if args.quiz_format == "qti" else moodle_xml() if args.quiz_format == "moodle" else gift()
            )
            written = [out.write(name, content, secret=True)]
            _finish(out, args.out)
        return written
    with OutFolder(args.out, "key", force, FILE_NAMES) as out:
        paper = _paper(args)
        out.plan(["answer-key.md", *(["answer-key.pdf"] if paper else [])])
        key = answer_key()
        written = [out.write("answer-key.md", key.to_markdown(), secret=True)]
        written += _print(out, {"answer-key": (key, "bleu-teach: the answer key")}, True, paper)
        _finish(out, args.out)
    return written


def _finish(out: OutFolder, where: str) -> None:
    """Swap the new set in (an interrupted run leaves the earlier one whole) and name each earlier file removed."""
    removed = out.finish()
    if removed:
        _note(
            f"removed {len(removed)} file{'s' if len(removed) > 1 else ''} of the earlier set in {where!r} that "
            f"this set does not replace: {', '.join(map(repr, removed))}"
        )


def _can_print() -> bool:
    from bleu_teach.ui.pdf import pdf_missing

    missing = pdf_missing()
    if missing is not None:
        _note(f"no PDF: {missing}")
    return missing is None


def _paper(args: argparse.Namespace) -> str | None:
    """The paper the PDFs are printed on, or None for no PDF (--no-pdf, or WeasyPrint cannot run here)."""
    return None if args.no_pdf or not _can_print() else str(args.paper)


def _roster(path: str, students: int | None) -> tuple[list[str], list[str] | None]:
    """The names in a roster CSV (a name column, first name + surname columns, or else the first column), in order,
    and the students' personal join links (its ``link`` column, which ``class links`` writes), None without one."""
    from bleu_teach.exercises.roster import load_roster

    entries = load_roster(path)
    names = [entry.name for entry in entries]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        _note(
            f"the roster names {', '.join(twice[:3])} more than once: each gets a sheet of their own, told apart "
            "by its number"
        )
    if students is not None and students != len(names):
        raise ValueError(f"--students {students} and the {len(names)} names of --roster disagree; give one of them")
    return names, ([entry.link for entry in entries] if entries[0].link else None)


#: A personal join link's QR code on a sheet, as a screen reader and the tagged PDF name it.
JOIN_CODE_TEXT = "QR code: your personal link to join the class"


def _join_codes(links: list[str]) -> list[Any]:
    """Each student's personal join link as the QR code their sheet prints (segno: the classroom's library, as
    ``class links``, which wrote the links, needs it too)."""
    from bleu_teach.inputs.optional import MissingLibrary
    from bleu_teach.views.document import QrCode

    try:
        import segno
    except ImportError:
        raise MissingLibrary(
            "The personal links' QR codes on the worksheets need segno, which is not installed. Install the "
            'classroom\'s libraries with: pip install "bleu-teach[classroom]"',
            name="segno",
        ) from None
    codes = []
    for link in links:
        made = segno.make(link, error="m")
        rows = made.matrix_iter(scale=1, border=4)  # the quiet zone a phone's camera needs around it
        codes.append(QrCode(link, tuple("".join("1" if dark else "0" for dark in row) for row in rows), JOIN_CODE_TEXT))
    return codes


def _exercise_ids(text: str) -> list[str]:
    """The exercise ids of --exercises, each a bank exercise, each once."""
    from bleu_teach.exercises.bank import exercises

    known = [ex.id for ex in exercises()]
    ids = [part.strip() for part in text.split(",") if part.strip()]
    unknown = [i for i in ids if i not in known]
    if not ids or unknown:
        raise ValueError(
            f"--exercises must list exercise ids such as 01.1,03.1,03.2 (these exist: {', '.join(known)})"
            + (f"; not {', '.join(repr(i[:20]) for i in unknown[:3])}" if unknown else "")
        )
    if len(set(ids)) < len(ids):
        raise ValueError("--exercises lists an exercise twice; list each once")
    return ids


def _sheets(students: int, seed: int, chosen: list[str] | None) -> list[list[Any]]:
    """Each student's exercises: a variant of each numeric one, the bank's own question for the others."""
    from dataclasses import replace

    from bleu_teach.exercises.bank import exercise
    from bleu_teach.exercises.variants import VARIED, worksheets

    if chosen is None:
        return worksheets(students, seed)
    varied = [i for i in chosen if i in VARIED]
    drawn = worksheets(students, seed, varied) if varied else [[] for _ in range(students)]
    sheets = []
    for k, mine in enumerate(drawn, start=1):
        by_id = {ex.id: ex for ex in mine}
        sheets.append([by_id[i] if i in by_id else replace(exercise(i), student=k) for i in chosen])
    return sheets


def _worksheets(
    students: int,
    seed: int | None,
    where: str,
    force: bool = False,
    paper: str | None = "A4",
    roster: list[str] | None = None,
    chosen: list[str] | None = None,
    links: list[str] | None = None,
) -> list[str]:
    import datetime
    import secrets

    from bleu_teach.exercises.export import gift, moodle_xml
    from bleu_teach.exercises.variants import VARIED, quiz_variants
    from bleu_teach.exercises.worksheet import worksheet, worksheet_key

    started = time.perf_counter()
    if seed is None:
        seed = secrets.randbelow(10**18 - 1) + 1
    if not isinstance(students, int) or isinstance(students, bool):
        raise ValueError("say how many sheets: --students N, or --roster names.csv")
    sheets = _sheets(students, seed, chosen)  # checks students and seed before anything is written
    codes = _join_codes(links) if links else None  # a sheet with its student's link is theirs alone
    varied = [i for i in (chosen or VARIED) if i in VARIED]
    quiz = quiz_variants(seed, sheets, which=varied)  # a question the same on every sheet is not a quiz variant
    empty = [i for i in varied if not any(q.id == i for q in quiz)]
    if empty:
        _note(
            f"no quiz variant of {', '.join(empty)} is left that is no near-copy of a sheet's question: the quiz "
            f"files leave {'it' if len(empty) == 1 else 'them'} out (the key says how many each exercise has)"
        )
    with OutFolder(where, "worksheet", force, FILE_NAMES) as out:
        names = [f"sheets/student-{sheet[0].student:02d}" for sheet in sheets]
        pdf = [".pdf"] if paper else []
        qti = _qti_missing() is None
        out.plan(
            [f"{name}{suffix}" for name in [*names, "worksheet-key"] for suffix in (".md", *pdf)]
            + [
                "worksheets.moodle.xml",
                "worksheets.gift.txt",
                "worksheets.quiz.json",
                *(["worksheets.qti.zip"] if qti else []),
            ]
        )
        pages = {}
        markdown = []
        for k, (name, sheet) in enumerate(zip(names, sheets)):
            view = worksheet(sheet, roster[k] if roster else None, codes[k] if codes else None)
            markdown.append(out.write(f"{name}.md", view.to_markdown(), secret=codes is not None))
            pages[name] = (view, f"bleu-teach worksheet, student {sheet[0].student:02d}")
        if paper and roster:
            _warn_unprintable(roster)
        written = _print(out, pages, codes is not None, paper) or markdown
        key = worksheet_key(sheets, seed, roster, quiz)
        written.append(out.write("worksheet-key.md", key.to_markdown(), secret=True))
        written += _print(out, {"worksheet-key": (key, "bleu-teach worksheets: the key")}, True, paper)
        # The quiz's variants are drawn apart from the sheets, and the set is named by the day it was made: nothing in
        # a file a student may see says anything of the seed.
        category = f"bleu-teach quiz variants, made {datetime.date.today().isoformat()}"
        written.append(out.write("worksheets.moodle.xml", moodle_xml(quiz, category), secret=True))
        written.append(out.write("worksheets.gift.txt", gift(quiz, category), secret=True))
        record = {
            "format": 1,
            "about": "the quiz's variants, for: python -m bleu_teach exercises tally --variants; "
            "with the sheets', for: python -m bleu_teach class homework --avoid",
            "variants": [
                {"id": ex.id, "variant": ex.variant, "inputs": dict(ex.inputs), "question": ex.question}
                for ex in quiz
                if ex.variant is not None
            ],
            "sheets": [
                {"id": ex.id, "student": ex.student, "inputs": dict(ex.inputs), "question": ex.question}
                for sheet in sheets
                for ex in sheet
                if ex.student is not None and ex.id in VARIED
            ],
        }
        written.append(out.write("worksheets.quiz.json", json.dumps(record, ensure_ascii=False, indent=1), secret=True))
        if qti:
            written.append(out.write("worksheets.qti.zip", _qti_bytes(quiz), secret=True))
        else:  # text2qti is not installed: the other files are still useful
            _note(f"no QTI package: {_qti_missing()}")
        _finish(out, where)
    _note(
        f"{students} worksheet{'s' if students > 1 else ''} in {time.perf_counter() - started:.1f} s, made with seed "
        f"{seed}: keep it to make the same set again, and keep it secret (with it, anyone with the package can make "
        "the key)"
    )
    return written


def _qti_missing() -> str | None:
    """Why there can be no QTI package (text2qti is not installed), or None."""
    from bleu_teach.inputs.optional import MissingLibrary, needs

    try:
        needs("text2qti", "The QTI export for Canvas")
    except MissingLibrary as missing:
        return str(missing)
    return None


#: The largest --variants file read.
VARIANTS_BYTES = 20_000_000


def exercise_tally(args: argparse.Namespace) -> str:
    """``exercises tally``: the class's answers in a platform's export, checked and counted, as text."""
    from bleu_teach.exercises.bank import exercises
    from bleu_teach.exercises.tally import MAX_BYTES, read_responses, tally
    from bleu_teach.views.html_writer import write_html_page

    known = list(exercises())
    if args.variants is not None:
        known += _variants(args.variants)
    text = _read_text(args.responses, MAX_BYTES, "RESPONSES")
    report = tally(read_responses(text), known)
    if args.tally_format == "html":
        return write_html_page(report.to_document(), "What the class answered")
    return str(
        report.to_json()
        if args.tally_format == "json"
        else report.to_markdown()
        if args.tally_format == "markdown"
        else report.to_text()
    )


def _read_text(path: str, limit: int, what: str) -> str:
    from bleu_teach.exercises.roster import read_text_file

    return read_text_file(path, limit, what)


def _variants(path: str) -> list[Any]:
    """The quiz variants recorded in worksheets.quiz.json, rebuilt and checked."""
    from bleu_teach.exercises.variants import rebuild

    try:
        record = json.loads(_read_text(path, VARIANTS_BYTES, "--variants"))
        entries = record["variants"] if isinstance(record, dict) and record.get("format") == 1 else None
        if not isinstance(entries, list):
            raise ValueError
        return [rebuild(e["id"], e["inputs"], e["question"], e["variant"]) for e in entries]
    except (ValueError, KeyError, TypeError, RecursionError) as error:
        detail = f" ({error})" if isinstance(error, ValueError) and str(error) else ""
        raise ValueError(
            f"--variants: {path!r} is not a worksheets.quiz.json that 'exercises worksheet' wrote{detail[:200]}"
        ) from None
