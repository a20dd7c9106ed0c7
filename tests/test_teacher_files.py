"""The teacher's file commands own only what they write: nothing of the teacher's is deleted, replaced or written
through a symbolic link; secrets are readable by their owner only; printing leaves nothing behind; file-system
problems are one error line.  A fuzz run builds random --out layouts and compares every file outside the
command's manifest byte for byte before and after."""

from __future__ import annotations

import io
import json
import os
import random
import re
import stat
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

import pytest

from bleu_teach.ui import cli, teacher_files
from bleu_teach.ui.out_folder import MANIFEST, OutFolder
from tests.conftest import FIGURES
from tests.view_checks import needs_weasyprint


def _cli(
    *args: str, env: dict[str, str] | None = None, pdf: bool = False, **kwargs: object
) -> subprocess.CompletedProcess[str]:
    """The command in a new process; the Markdown files only (fast) unless ``pdf``."""
    extra = ["--no-pdf"] if args and args[0] in ("key", "worksheet") and not pdf else []
    return subprocess.run(
        [sys.executable, "-m", "bleu_teach", "exercises", *args, *extra],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        **kwargs,
    )  # type: ignore[call-overload]


def _main(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    """The command line in this process, without PDFs (for the fuzz's many runs)."""
    monkeypatch.setattr(teacher_files, "_can_print", lambda: False)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def _tree(*roots: Path) -> dict[str, tuple[str, object, int]]:
    """Every path under ``roots``, never following a link: (kind, content or link target, permission bits)."""
    found: dict[str, tuple[str, object, int]] = {}
    for root in roots:
        for folder, folders, files in os.walk(root, followlinks=False):
            for name in folders + files:
                path = Path(folder) / name
                info = path.lstat()
                if stat.S_ISLNK(info.st_mode):
                    found[str(path)] = ("link", os.readlink(path), 0)
                elif stat.S_ISDIR(info.st_mode):
                    found[str(path)] = ("folder", None, stat.S_IMODE(info.st_mode))
                else:
                    found[str(path)] = ("file", path.read_bytes(), stat.S_IMODE(info.st_mode))
    return found


def _manifest(out: Path) -> dict[str, dict[str, str]]:
    return json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"]


# ---------------------------------------------------------------------------
# The defects a careless-user run found, one test each
# ---------------------------------------------------------------------------


def test_a_worksheet_run_keeps_the_teachers_own_student_files(tmp_path: Path):
    sheets = tmp_path / "sheets"
    sheets.mkdir()
    own = {"student-grades.pdf": b"%PDF grades", "student-list.tex": b"\\names", "student-emails.md": b"a@b.c"}
    for name, data in own.items():
        (sheets / name).write_bytes(data)
    run = _cli("worksheet", "--students", "2", "--seed", "3", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert {name: (sheets / name).read_bytes() for name in own} == own
    assert (sheets / "student-01.md").exists() and (sheets / "student-02.md").exists()


def test_a_sheets_folder_that_is_a_link_is_refused_and_its_target_untouched(tmp_path: Path):
    target = tmp_path / "elsewhere"
    target.mkdir()
    (target / "student-01.md").write_text("the target's own file")
    out = tmp_path / "out"
    out.mkdir()
    (out / "sheets").symlink_to(target)
    before = _tree(target)
    for force in ([], ["--force"]):
        run = _cli("worksheet", "--students", "2", "--seed", "3", "--out", str(out), *force)
        assert run.returncode == 2 and "is a symbolic link" in run.stderr and "Nothing was written" in run.stderr
        assert run.stderr.count("error:") == 1 and "this is a bug" not in run.stderr
    assert _tree(target) == before and sorted(os.listdir(out)) == ["sheets"]


@pytest.mark.parametrize("out", ["", "  ", "/"])
def test_an_empty_or_unsafe_out_is_refused(out: str, tmp_path: Path):
    run = _cli("key", "--out", out, cwd=tmp_path)
    assert run.returncode == 2 and run.stderr.startswith("error: --out") and os.listdir(tmp_path) == []


@pytest.mark.parametrize("command", [["key"], ["export", "--format", "moodle"], ["export", "--format", "gift"]])
def test_a_file_of_the_same_name_is_replaced_only_with_force(command: list[str], tmp_path: Path):
    name = {
        "key": "answer-key.md",
        "moodle": "bleu-teach-exercises.moodle.xml",
        "gift": "bleu-teach-exercises.gift.txt",
    }[command[-1]]
    (tmp_path / name).write_text("the teacher's edited copy")
    run = _cli(*command, "--out", str(tmp_path))
    assert (
        run.returncode == 2 and f"{name}' is a file bleu_teach did not write" in run.stderr and "--force" in run.stderr
    )
    assert (tmp_path / name).read_text() == "the teacher's edited copy" and not (tmp_path / MANIFEST).exists()
    run = _cli(*command, "--out", str(tmp_path), "--force")
    assert run.returncode == 0, run.stderr
    assert (tmp_path / name).read_text() != "the teacher's edited copy" and name in _manifest(tmp_path)
    again = _cli(*command, "--out", str(tmp_path))  # now the command's own: replaced without --force
    assert again.returncode == 0, again.stderr


def test_a_link_in_out_is_never_written_through(tmp_path: Path):
    victim = tmp_path / "victim.txt"
    victim.write_text("not the course's")
    out = tmp_path / "sym"
    out.mkdir()
    (out / "answer-key.md").symlink_to("../victim.txt")
    run = _cli("key", "--out", str(out))
    assert run.returncode == 2 and "answer-key.md' is a symbolic link" in run.stderr
    run = _cli("key", "--out", str(out), "--force")  # the link is replaced by the file, the target never written
    assert run.returncode == 0, run.stderr
    assert victim.read_text() == "not the course's" and not (out / "answer-key.md").is_symlink()


def test_a_modified_earlier_file_is_the_teachers_and_a_smaller_class_clears_only_unchanged_sheets(tmp_path: Path):
    assert _cli("worksheet", "--students", "4", "--seed", "3", "--out", str(tmp_path)).returncode == 0
    (tmp_path / "sheets" / "student-03.md").write_text("the teacher's notes on student 3")
    run = _cli("worksheet", "--students", "2", "--seed", "3", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    assert not (tmp_path / "sheets" / "student-04.md").exists()  # the earlier run's own, unchanged: removed
    assert (tmp_path / "sheets" / "student-03.md").read_text() == "the teacher's notes on student 3"
    assert "sheets/student-03.md" not in _manifest(tmp_path) and "removed 1 file" in run.stderr
    (tmp_path / "worksheet-key.md").write_text("edited")
    run = _cli("worksheet", "--students", "2", "--seed", "3", "--out", str(tmp_path))
    assert run.returncode == 2 and "has changed since" in run.stderr


def test_files_with_answers_or_the_seed_are_readable_by_their_owner_only(tmp_path: Path):
    assert _cli("worksheet", "--students", "1", "--seed", "3", "--out", str(tmp_path)).returncode == 0
    assert _cli("key", "--out", str(tmp_path)).returncode == 0
    assert _cli("export", "--format", "gift", "--out", str(tmp_path)).returncode == 0
    for name in [
        "worksheet-key.md",
        "worksheets.moodle.xml",
        "worksheets.gift.txt",
        "answer-key.md",
        "bleu-teach-exercises.gift.txt",
    ]:
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name
    assert stat.S_IMODE((tmp_path / "sheets" / "student-01.md").stat().st_mode) & 0o044  # sheets are handed out


@pytest.mark.slow  # prints PDFs
def test_printing_writes_nothing_outside_out_and_leaves_the_teachers_other_files(tmp_path: Path):
    needs_weasyprint()  # skips (or fails under CI=true) without WeasyPrint and Pango
    home, out = tmp_path / "home", tmp_path / "out"
    home.mkdir()
    out.mkdir()
    own = {"answer-key.aux": b"\\relax stale", "answer-key.tex": b"my own LaTeX", "answer-key.html": b"mine"}
    for name, data in own.items():
        (out / name).write_bytes(data)
    env = {**os.environ, "HOME": str(home)}
    for _ in range(2):
        run = _cli("key", "--out", str(out), env=env, pdf=True)
        assert run.returncode == 0, run.stderr
    assert (out / "answer-key.pdf").read_bytes().startswith(b"%PDF")
    assert {name: (out / name).read_bytes() for name in own} == own
    assert _tree(home) == {}  # nothing in the teacher's home (no cache, no scratch file)


def test_a_folder_where_a_file_goes_is_one_error_line(tmp_path: Path):
    (tmp_path / "answer-key.md").mkdir()
    run = _cli("key", "--out", str(tmp_path))
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert "answer-key.md' is a folder where bleu_teach writes a file" in run.stderr


def test_a_file_system_error_names_the_path_and_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    def refused(*args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    from bleu_teach.ui.out_folder import files_key

    files_key()  # the key made first (as any earlier run makes it): the test is of the --out folder, run alone too
    monkeypatch.setattr("bleu_teach.ui.out_folder.os.open", refused)  # what a read-only folder does to a non-root user
    code, out, err = _main(["exercises", "export", "--format", "gift", "--out", str(tmp_path)], monkeypatch)
    assert code == 2 and out == "" and err.count("error:") == 1
    assert f"cannot write '{tmp_path}/bleu-teach-exercises.gift.txt': Permission denied" in err
    code, out, err = _main(["exercises", "key", "--out", str(tmp_path / "answer-key.md" / "x")], monkeypatch)
    assert code == 2, err


def test_a_closed_pipe_ends_quietly_and_a_closed_stderr_prints_nothing_on_stdout(tmp_path: Path):
    run = subprocess.run(
        f"{sys.executable} -m bleu_teach exercises export --format gift --out {tmp_path} | true; "
        f"exit ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0 and run.stderr == ""
    run = subprocess.run(
        f"{sys.executable} -m bleu_teach exercises key --no-pdf --out '' 2>&-",
        shell=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2 and run.stdout == ""


def test_a_manifest_bleu_teach_cannot_read_is_replaced_only_with_force(tmp_path: Path):
    (tmp_path / MANIFEST).write_text("the teacher's own notes")
    run = _cli("export", "--format", "gift", "--out", str(tmp_path))
    assert run.returncode == 2 and "is not a list of files bleu_teach can read" in run.stderr
    assert (tmp_path / MANIFEST).read_text() == "the teacher's own notes" and len(os.listdir(tmp_path)) == 1
    assert _cli("export", "--format", "gift", "--out", str(tmp_path), "--force").returncode == 0
    assert "bleu-teach-exercises.gift.txt" in _manifest(tmp_path)


def test_a_list_edited_or_copied_from_elsewhere_cannot_make_a_command_touch_another_file(tmp_path: Path):
    import hashlib

    (tmp_path / "grades.pdf").write_bytes(b"%PDF the grades")
    digest = hashlib.sha256(b"%PDF the grades").hexdigest()
    entries = {
        "grades.pdf": {"sha256": digest, "command": "key"},
        "x" * 5000: {"sha256": digest, "command": "key"},
        "\ud800.md": {"sha256": digest, "command": "key"},
        "sheets/../../escape.md": {"sha256": digest, "command": "key"},
    }
    (tmp_path / MANIFEST).write_text(json.dumps({"format": 1, "files": entries}))
    run = _cli("key", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr  # the list's foreign names are ignored, and so are never removed
    assert (tmp_path / "grades.pdf").read_bytes() == b"%PDF the grades"
    assert sorted(_manifest(tmp_path)) == ["answer-key.md"]
    (tmp_path / MANIFEST).write_text("[" * 200_000)  # too deep for Python's JSON reader
    run = _cli("key", "--out", str(tmp_path))
    assert run.returncode == 2 and "is not a list of files bleu_teach can read" in run.stderr


def test_with_standard_error_closed_the_seed_never_reaches_standard_output(tmp_path: Path):
    run = subprocess.run(
        f"{sys.executable} -m bleu_teach exercises worksheet --students 1 --seed 5 --no-pdf "
        f"--out {tmp_path} 2>&- | /bin/cat",
        shell=True,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0 and "seed" not in run.stdout and run.stdout.startswith("wrote ")


def test_out_folder_refuses_names_outside_it(tmp_path: Path):
    out = OutFolder(str(tmp_path), "key", names=teacher_files.FILE_NAMES)
    for name in ["../x", "/etc/passwd", "a/../../x", MANIFEST, "", "grades.pdf", "sheets/student-1.md"]:
        with pytest.raises(ValueError, match="not a file name inside --out"):
            out.plan([name])
    (tmp_path / MANIFEST).write_text(
        json.dumps({"format": 1, "files": {"../outside.txt": {"sha256": "0", "command": "key"}}})
    )
    assert OutFolder(str(tmp_path), "key", names=teacher_files.FILE_NAMES).finish() == []  # owns nothing outside


# ---------------------------------------------------------------------------
# The fuzz: random layouts, every file outside the manifest compared byte for byte
# ---------------------------------------------------------------------------

COMMANDS = [
    ["key"],
    ["export", "--format", "moodle"],
    ["export", "--format", "gift"],
    ["worksheet", "--students", "2", "--seed", "7"],
    ["worksheet", "--students", "1", "--seed", "8"],
]
NAMES = [
    "answer-key.md",
    "answer-key.tex",
    "answer-key.aux",
    "bleu-teach-exercises.gift.txt",
    "bleu-teach-exercises.moodle.xml",
    "worksheet-key.md",
    "worksheet-key.tex",
    "worksheets.gift.txt",
    "worksheets.moodle.xml",
    "sheets/student-01.md",
    "sheets/student-02.tex",
    "sheets/student-02.md",
    "sheets/student-grades.pdf",
    "sheets/student-99.md",
    "notes.txt",
    MANIFEST,
    "sheets",
]


def _was_a_manifest(entry: tuple[str, object, int] | None) -> bool:
    """Whether a path held no file or a list the commands wrote (so that a run may write its own list there)."""
    if entry is None:
        return True
    try:
        data = json.loads(entry[1]) if entry[0] == "file" else None  # type: ignore[arg-type]
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("format") == 1 and isinstance(data.get("files"), dict)


def _layout(rng: random.Random, out: Path, outside: Path) -> None:
    """Random files, folders, links (in and out of --out) and permissions at the names the commands use."""
    out.mkdir(parents=True)
    outside.mkdir()
    (outside / "victim.txt").write_text("outside")
    (outside / "student-01.md").write_text("outside sheet")
    for name in rng.sample(NAMES, rng.randrange(0, 7)):
        path = out / name
        if os.path.lexists(path) or (os.path.lexists(path.parent) and not path.parent.is_dir()):
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        kind = rng.choice(["file", "file", "link-out", "link-in", "folder", "readonly"])
        if kind == "file" or kind == "readonly":
            path.write_bytes(rng.randbytes(rng.randrange(0, 40)) if name != MANIFEST else b'{"format": 1, "files": []}')
            if kind == "readonly":
                path.chmod(0o444)
        elif kind == "link-out":
            path.symlink_to(outside if name == "sheets" else outside / "victim.txt")
        elif kind == "link-in":
            path.symlink_to(out / "notes.txt")
        else:
            path.mkdir()


def _remembered(function: Any) -> Any:
    """``function``, each result computed once and handed again to a later call with the same arguments (compared by
    their repr)."""
    found: dict[str, Any] = {}

    def remembered(*args: Any, **kwargs: Any) -> Any:
        key = repr((args, sorted(kwargs.items())))
        if key not in found:
            found[key] = function(*args, **kwargs)
        return found[key]

    return remembered


def test_fuzz_no_file_outside_the_manifest_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    # What the files hold is computed once per command: the sheets, quiz variants, keys and quiz files are the same
    # for the same arguments (a seed, the bank), and drawing them again in each of the 60 runs took most of the
    # fuzz's time; what a run does with --out (plan, refuse, write, swap, remove), the fuzz's subject, runs each time.
    from bleu_teach.exercises import export, variants, worksheet

    for module, name in (
        (teacher_files, "_sheets"),
        (teacher_files, "_qti_bytes"),
        (variants, "quiz_variants"),
        (worksheet, "worksheet_key"),
        (export, "answer_key"),
        (export, "moodle_xml"),
        (export, "gift"),
    ):
        monkeypatch.setattr(module, name, _remembered(getattr(module, name)))
    rng = random.Random(20261126)
    outcomes: dict[str, int] = {}
    for case in range(60):
        out, outside = tmp_path / f"case{case}" / "out", tmp_path / f"case{case}" / "outside"
        _layout(rng, out, outside)
        before = _tree(out, outside)
        command = rng.choice(COMMANDS)
        force = ["--force"] if rng.random() < 0.3 else []
        code, _, err = _main(["exercises", *command, "--out", str(out), *force], monkeypatch)
        assert code in (0, 2) and "this is a bug" not in err, (case, command, err)
        after = _tree(out, outside)
        owned = {str(out / name) for name in (_manifest(out) if code == 0 else {})}
        if code == 0 and (force or _was_a_manifest(before.get(str(out / MANIFEST)))):
            owned.add(str(out / MANIFEST))  # its own list (absent or readable before), or one --force replaced
        if code == 0:
            owned |= {str(out / "sheets")}  # the folder the sheets go into may be made
        changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p) and p not in owned)
        assert changed == [], (case, command, force, err)
        if code == 2:
            assert after == before, (case, command, err)  # a refusal writes nothing at all
        outcome = "written" if code == 0 else re.sub(r"'[^']*'", "PATH", err.split("error: ", 1)[1])[:44]
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    FIGURES.append(
        f"file-command fuzz: 60 random --out layouts, 0 files changed outside the manifest; outcomes "
        f"{dict(sorted(outcomes.items()))}"
    )
    assert outcomes.get("written", 0) >= 10 and sum(outcomes.values()) == 60


def test_the_list_drops_another_commands_file_once_the_teacher_changed_it(tmp_path: Path):
    assert _cli("key", "--out", str(tmp_path)).returncode == 0
    (tmp_path / "answer-key.md").write_text("the teacher's version")
    assert _cli("export", "--format", "gift", "--out", str(tmp_path)).returncode == 0
    assert "answer-key.md" not in _manifest(tmp_path) and "bleu-teach-exercises.gift.txt" in _manifest(tmp_path)
    assert (tmp_path / "answer-key.md").read_text() == "the teacher's version"


# ---------------------------------------------------------------------------
# A class's own sheets: a roster, a choice of exercises, a key a marker can diagnose with
# ---------------------------------------------------------------------------


def test_a_roster_puts_each_name_on_its_sheet_and_in_the_key(tmp_path: Path):
    roster = tmp_path / "class.csv"
    roster.write_text(
        '\ufeffName,e-mail\nAda Lovelace,a@example.org\n"Zoë <b>Ng</b>",z@example.org\n\n李雷,l@x\n', encoding="utf-8"
    )
    run = _cli("worksheet", "--roster", str(roster), "--seed", "4", "--out", str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    sheets = sorted((tmp_path / "out" / "sheets").glob("*.md"))
    assert [p.name for p in sheets] == ["student-01.md", "student-02.md", "student-03.md"]
    texts = [p.read_text(encoding="utf-8") for p in sheets]
    assert "**Name:** Ada Lovelace" in texts[0] and "李雷" in texts[2]
    assert "<b>" not in texts[1] and "Zoë \\<b\\>Ng\\</b\\>" in texts[1]  # typed text is escaped
    key = (tmp_path / "out" / "worksheet-key.md").read_text(encoding="utf-8")
    assert "Sheet of student 01: Ada Lovelace" in key and "Sheet of student 03: 李雷" in key


@pytest.mark.parametrize(
    "content, students, words",
    [
        ("name,email\nAda,a@x\n,b@x\n", None, "line 3 of"),
        ("name\n" + "x" * 101 + "\n", None, "line 2 of"),
        ("name\n" + "x" * 101 + "\n", None, "has 101 characters, more than the 100 a name may have"),
        ("name\nAda\nBo\n", "3", "--students 3 and the 2 names of --roster disagree"),
        ("name\n", None, "must list from 1 to 500 names; it lists 0"),
        (b"\xff\xfeA\x00", None, "is not UTF-8 text"),
    ],
)
def test_a_bad_roster_is_one_clear_error_line(tmp_path: Path, content: str | bytes, students: str | None, words: str):
    roster = tmp_path / "class.csv"
    roster.write_bytes(content if isinstance(content, bytes) else content.encode())
    run = _cli(
        "worksheet",
        "--roster",
        str(roster),
        *(["--students", students] if students else []),
        "--out",
        str(tmp_path / "out"),
    )
    assert run.returncode == 2 and words in run.stderr and run.stderr.count("error:") == 1, run.stderr
    assert not (tmp_path / "out").exists()
    missing = _cli("worksheet", "--roster", str(tmp_path / "none.csv"), "--out", str(tmp_path / "out"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


@pytest.mark.parametrize(
    "content, names",
    [
        (
            "First name,Surname,ID number,Email address\nAda,Lovelace,1,a@x\nAlan,Turing,2,t@x\n",
            ["Ada Lovelace", "Alan Turing"],
        ),  # Moodle's participants export
        (
            "Nom;Prénom\nDupont;Jean\nMartin;Léa\n",
            ["Jean Dupont", "Léa Martin"],
        ),  # semicolons, as Excel saves in French
        ("Student name,ID\nAda Lovelace,1\n", ["Ada Lovelace"]),
        ("Ada Lovelace\nAlan Turing\n", ["Ada Lovelace", "Alan Turing"]),  # no header: the first column
    ],
)
def test_a_roster_is_read_as_a_spreadsheet_saves_it(tmp_path: Path, content: str, names: list[str]):
    roster = tmp_path / "class.csv"
    roster.write_text(content, encoding="utf-8")
    run = _cli("worksheet", "--roster", str(roster), "--seed", "4", "--exercises", "03.1", "--out", str(tmp_path / "o"))
    assert run.returncode == 0, run.stderr
    key = (tmp_path / "o" / "worksheet-key.md").read_text(encoding="utf-8")
    found = re.findall(r"Sheet of student \d+: (.*?) \(about", key)
    assert found == names


def test_a_roster_naming_a_student_twice_says_so(tmp_path: Path):
    roster = tmp_path / "class.csv"
    roster.write_text("name\nAnna\nBo\nAnna\n", encoding="utf-8")
    run = _cli("worksheet", "--roster", str(roster), "--seed", "4", "--exercises", "03.1", "--out", str(tmp_path / "o"))
    assert run.returncode == 0 and "names Anna more than once" in run.stderr


def test_exercises_chooses_what_goes_on_a_sheet_and_choice_questions_print_their_options(tmp_path: Path):
    run = _cli("worksheet", "--students", "2", "--seed", "4", "--exercises", "03.1,03.2", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr
    sheet = (tmp_path / "sheets" / "student-01.md").read_text(encoding="utf-8")
    assert sheet.count("Question ") == 2 and "**A:** 15" in sheet and "**F:** 6" in sheet
    assert "BP with four references" not in sheet  # a title may give the answer away: sheets number questions
    key = (tmp_path / "worksheet-key.md").read_text(encoding="utf-8")
    assert "| 2. 03.2 | E | A: the longest reference;" in key
    for bad, words in (("03.1,99.9", "not '99.9'"), ("03.1,03.1", "lists an exercise twice"), (",", "must list")):
        run = _cli("worksheet", "--students", "2", "--exercises", bad, "--out", str(tmp_path / "x"))
        assert run.returncode == 2 and words in run.stderr, run.stderr


def test_the_key_gives_each_named_mistakes_answer_beside_the_right_one():
    from bleu_teach.exercises.variants import worksheets
    from bleu_teach.exercises.worksheet import worksheet_key

    sheets = worksheets(3, 9)
    document = worksheet_key(sheets, 9).to_document()
    tables = [
        block for block in document.blocks[4:] for block in getattr(block, "blocks", ()) if hasattr(block, "rows")
    ]
    assert len(tables) == 3
    for table, sheet in zip(tables, sheets):
        for row, ex in zip(table.rows, sheet):
            assert row[1] == ex.answer_text
            for m in ex.check(None).misconceptions:  # each value, at the decimals it is matched at, and its name
                value = f"{float(m.value):.{(ex.decimals or 0) - m.fewer_decimals}f}"
                assert value in row[2] and m.name.replace("_", " ") in row[2], (ex.label, m.name)
                assert ex.check(value).recognised == m.name  # a marker who reads the value off gets that mistake


@pytest.mark.slow  # prints PDFs
def test_ctrl_c_while_the_pdfs_print_leaves_the_earlier_set_whole_and_says_one_line(tmp_path: Path):
    """A teacher presses Ctrl-C (SIGINT to the command's whole process group, as a terminal sends it) while a new
    set's PDFs print: the folder holds the earlier set exactly as it was, nothing of the new one, and the command
    says "interrupted" on one line, with no traceback (from it or from its printing processes)."""
    import signal
    import time

    needs_weasyprint()
    out = tmp_path / "out"
    first = _cli("worksheet", "--students", "6", "--seed", "1", "--exercises", "03.1,08.1", "--out", str(out), pdf=True)
    assert first.returncode == 0, first.stderr
    before = _tree(out)
    started = time.time_ns()
    # 30 sheets: their PDFs print for a few seconds (about 0.2 s a sheet on two processes), so the interrupt lands
    # while they print, not in the swap at the end, which holds Ctrl-C back until it is done.
    second = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bleu_teach",
            "exercises",
            "worksheet",
            "--students",
            "30",
            "--seed",
            "2",
            "--exercises",
            "03.1,08.1",
            "--out",
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    deadline = time.time() + 120
    while time.time() < deadline:  # the new sheets' Markdown is written: the PDFs are printing now
        if any(p.stat().st_mtime_ns >= started for p in out.rglob("student-30.md")):
            break
        time.sleep(0.02)
    else:
        pytest.fail("the second run wrote no sheet in 120 s")
    time.sleep(0.3)
    assert second.poll() is None, "the run ended before it could be interrupted"
    os.killpg(second.pid, signal.SIGINT)
    _, stderr = second.communicate(timeout=120)
    assert second.returncode == 130, stderr
    assert "Traceback" not in stderr and stderr.strip().endswith("error: interrupted"), stderr
    assert _tree(out) == before  # the earlier set whole; no new file, no hidden folder left


def test_an_entry_added_to_the_list_by_hand_never_makes_a_rerun_remove_that_file_and_removals_are_named(tmp_path: Path):
    """The teacher keeps notes in sheets/student-07.md and adds it to bleu-teach-files.json by hand, with its true
    SHA-256 (and a seal copied from another entry): a rerun of 6 sheets must not remove it as an earlier run's
    seventh sheet. A rerun of 4 sheets removes the earlier sheets 5 and 6 and names each."""
    import hashlib

    out = tmp_path / "out"
    assert _cli("worksheet", "--students", "6", "--seed", "1", "--exercises", "03.1", "--out", str(out)).returncode == 0
    notes = out / "sheets" / "student-07.md"
    notes.write_text("My notes on the class.\n", encoding="utf-8")
    listing = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    listing["files"]["sheets/student-07.md"] = {
        **listing["files"]["sheets/student-06.md"],
        "sha256": hashlib.sha256(notes.read_bytes()).hexdigest(),
    }
    (out / MANIFEST).write_text(json.dumps(listing), encoding="utf-8")
    again = _cli("worksheet", "--students", "6", "--seed", "2", "--exercises", "03.1", "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert notes.read_text(encoding="utf-8") == "My notes on the class.\n" and "student-07" not in again.stderr
    assert "sheets/student-07.md" not in _manifest(out)
    fewer = _cli("worksheet", "--students", "4", "--seed", "2", "--exercises", "03.1", "--out", str(out))
    assert fewer.returncode == 0, fewer.stderr
    said = next(line for line in fewer.stderr.splitlines() if line.startswith("removed"))
    assert said.startswith("removed 2 files") and str(out / "sheets" / "student-05.md") in said
    assert str(out / "sheets" / "student-06.md") in said and not (out / "sheets" / "student-05.md").exists()
    assert notes.exists()
