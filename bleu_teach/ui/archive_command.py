"""``class archive`` and ``class delete``: a course kept in one zip, and a session forgotten, after its archive if
asked.

``class archive [SESSION ...] --out FILE.zip`` writes, for each session named (every session when none is), its
answers, its polls and a homework's grades as CSV files, the same as the dashboard's downloads, and one
``course.json`` with every session's settings, students, answers, polls, roster and extensions
(:func:`~bleu_teach.classroom.exports.archive_members`). The zip is readable by its owner only (0600, as the
database), and an existing file is kept unless ``--force``. It is written beside its name first and moved into
place once whole: a failed archive leaves no file behind. ``class delete SESSION --archive FILE.zip`` writes the
session's archive first and deletes it only once the archive is written.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import zipfile
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, BinaryIO


def add_archive_commands(what: Any) -> list[argparse.ArgumentParser]:
    """The ``class archive`` and ``class delete`` commands (each then gets ``--database``)."""
    archive = what.add_parser(
        "archive", help="one zip of the sessions' answers, polls and grades, and the whole course as JSON"
    )
    archive.add_argument(
        "session", type=int, nargs="*", help="the sessions' numbers (class list shows them); every session if none"
    )
    archive.add_argument("--out", required=True, metavar="FILE.zip", help="the zip to write (readable by you only)")
    archive.add_argument("--force", action="store_true", help="replace FILE.zip if it exists")
    delete = what.add_parser("delete", help="forget a session and its answers (--archive keeps a copy first)")
    delete.add_argument("session", type=int, help="the session's number (class list shows them)")
    delete.add_argument(
        "--archive",
        metavar="FILE.zip",
        help="first write the session's archive (as class archive SESSION --out FILE.zip); delete only once written",
    )
    return [archive, delete]


def write_archive(store: Any, session_ids: list[int], out: str | Path, force: bool = False) -> tuple[Path, int]:
    """Write the archive of the sessions numbered ``session_ids`` (every session if none) to ``out``; where it is
    and how many sessions it holds. A ``ValueError`` (nothing written) for a folder that does not exist or a file
    there already (unless ``force``); a ``LookupError`` for a session that does not exist."""
    from bleu_teach.classroom.exports import archive_members

    path = private_path(out, force, "the zip file's")
    sessions = [store.session(number) for number in dict.fromkeys(session_ids)] or store.sessions()
    members = archive_members(store, sessions)  # everything read before a file is made
    stamp = datetime.now(timezone.utc).timetuple()[:6]

    def fill(file: BinaryIO) -> None:
        with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as zipped:
            for name, text in members:
                member = zipfile.ZipInfo(name, stamp)
                member.external_attr = 0o100600 << 16  # a regular file, its owner's only, once unpacked
                zipped.writestr(member, text.encode("utf-8"), zipfile.ZIP_DEFLATED)

    write_private(path, fill, force)
    return path, len(sessions)


def private_path(out: str | Path, force: bool, what: str = "the file's") -> Path:
    """``--out``'s file, checked before anything is read or written: not a folder, in a folder that exists, not
    there already unless ``force`` (a ``ValueError`` that says what to do)."""
    path = Path(out).expanduser()
    if path.is_dir():
        raise ValueError(f"--out: {str(path)!r} is a folder; give {what} name.")
    if not path.parent.is_dir():
        raise ValueError(f"--out: the folder {str(path.parent)!r} does not exist; create it first.")
    if (path.exists() or path.is_symlink()) and not force:
        raise ValueError(f"--out: {str(path)!r} exists; give another name, or --force to replace it.")
    return path


def write_private(path: Path, fill: Callable[[BinaryIO], None], force: bool = False) -> None:
    """Write a file readable by its owner only (0600: it holds the class's names): ``fill`` writes it beside its
    name first, and it is moved into place once whole (a failed write leaves no file behind), never over a file
    unless ``force``."""
    handle, partial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(handle, "wb") as file:
            fill(file)
            file.flush()
            os.fsync(file.fileno())
        if force:
            os.replace(partial, path)
        else:
            try:
                os.link(partial, path)  # never over a file that appeared meanwhile
            except FileExistsError:
                raise ValueError(f"--out: {str(path)!r} exists; give another name, or --force to replace it.") from None
            except OSError:  # a file system without hard links: moved, once more looked at
                if path.exists() or path.is_symlink():
                    raise ValueError(f"--out: {str(path)!r} exists; give another name, or --force.") from None
                os.replace(partial, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)


def run_archive(args: argparse.Namespace, store: Any) -> None:
    """Run ``class archive`` or ``class delete`` on ``store``."""
    if args.class_command == "archive":
        path, count = write_archive(store, args.session, args.out, args.force)
        print(f"Archive of {count} session{'' if count == 1 else 's'} written to {path} (readable by you only).")
        return
    store.session(args.session)  # says so if there is none
    if args.archive:
        path, _ = write_archive(store, [args.session], args.archive)
        print(f"Session {args.session}'s archive written to {path}.")
    else:
        print(
            f"note: class archive {args.session} --out FILE.zip keeps a copy of a session before it is deleted "
            "(or class delete --archive FILE.zip).",
            file=sys.stderr,
        )
    store.delete_session(args.session)
    print(f"Session {args.session} deleted.")
