"""``class archive`` and ``class delete``: a course kept in one zip, and a session forgotten, after its archive if
asked.

``class archive [SESSION ...] --out FILE.zip`` writes, for each session named (every session when none is), its
answers, its polls and a homework's grades as CSV files, the same as the dashboard's downloads, and one
``course.json`` with every session's settings, students, answers, polls, roster and extensions
(:func:`~bleu_teach.classroom.exports.archive_members`). The zip is readable by its owner only (0600, as the
database), and an existing file is kept unless ``--force``. It is written beside its name first and moved into
place once whole: a failed archive leaves no file behind. ``class delete SESSION --archive FILE.zip`` writes the
session's archive first (never over a file) and deletes it only once the archive is written; before it deletes, it
says what it deletes and whether an archive was written, and without one, that what it deletes is lost.
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


def write_archive(
    store: Any,
    session_ids: list[int],
    out: str | Path,
    force: bool = False,
    option: str = "--out",
    forcing: str | None = "--force",
) -> tuple[Path, int]:
    """Write the archive of the sessions numbered ``session_ids`` (every session if none) to ``out``; where it is
    and how many sessions it holds. A ``ValueError`` (nothing written) for a folder that does not exist or a file
    there already (unless ``force``), naming ``option``, the command's option that gave ``out`` (and ``forcing``,
    its option that replaces a file, if it has one); a ``LookupError`` for a session that does not exist."""
    from bleu_teach.classroom.exports import archive_members

    path = private_path(out, force, "the zip file's", option, forcing)
    sessions = [store.session(number) for number in dict.fromkeys(session_ids)] or store.sessions()
    members = archive_members(store, sessions)  # everything read before a file is made
    stamp = datetime.now(timezone.utc).timetuple()[:6]

    def fill(file: BinaryIO) -> None:
        with zipfile.ZipFile(file, "w", zipfile.ZIP_DEFLATED) as zipped:
            for name, text in members:
                member = zipfile.ZipInfo(name, stamp)
                member.external_attr = 0o100600 << 16  # a regular file, its owner's only, once unpacked
                zipped.writestr(member, text.encode("utf-8"), zipfile.ZIP_DEFLATED)

    write_private(path, fill, force, option, forcing)
    return path, len(sessions)


def private_path(
    out: str | Path, force: bool, what: str = "the file's", option: str = "--out", forcing: str | None = "--force"
) -> Path:
    """``option``'s file (``--out``'s unless named), checked before anything is read or written: not a folder, in
    a folder that exists, not there already unless ``force`` (a ``ValueError`` that names ``option`` and says what
    to do: ``forcing``, the command's option that replaces a file, if it has one)."""
    path = Path(out).expanduser()
    if path.is_dir():
        raise ValueError(f"{option}: {str(path)!r} is a folder; give {what} name.")
    if not path.parent.is_dir():
        raise ValueError(f"{option}: the folder {str(path.parent)!r} does not exist; create it first.")
    if (path.exists() or path.is_symlink()) and not force:
        raise _exists(path, option, forcing)
    return path


def _exists(path: Path, option: str, forcing: str | None) -> ValueError:
    """The refusal of a file that is there already."""
    if forcing:
        return ValueError(f"{option}: {str(path)!r} exists; give another name, or {forcing} to replace it.")
    return ValueError(f"{option}: {str(path)!r} exists; give another name (this command never replaces a file).")


def write_private(
    path: Path,
    fill: Callable[[BinaryIO], None],
    force: bool = False,
    option: str = "--out",
    forcing: str | None = "--force",
) -> None:
    """Write a file readable by its owner only (0600: it holds the class's names): ``fill`` writes it beside its
    name first (:func:`write_beside`), and it is moved into place once whole (:func:`put_in_place`; a failed write
    leaves no file behind), never over a file unless ``force`` (one that appeared meanwhile is refused as
    :func:`private_path` refuses it)."""
    partial = write_beside(path, fill)
    try:
        put_in_place(partial, path, force, option, forcing)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)


def write_beside(path: Path, fill: Callable[[BinaryIO], None]) -> Path:
    """The first half of :func:`write_private`: ``fill`` writes a file readable by its owner only (0600) beside
    ``path``, under a hidden name of its own, flushed to the disk; where it is. An ``OSError`` (a folder that takes
    no file, a full disk) leaves nothing behind. The caller moves it into place (:func:`put_in_place`) or deletes
    it."""
    handle, partial = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(handle, "wb") as file:
            fill(file)
            file.flush()
            os.fsync(file.fileno())
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(partial)
        raise
    return Path(partial)


def put_in_place(
    partial: Path, path: Path, force: bool = False, option: str = "--out", forcing: str | None = "--force"
) -> None:
    """The second half of :func:`write_private`: the file :func:`write_beside` wrote takes its name ``path``, never
    over a file unless ``force`` (a ``ValueError`` as :func:`private_path` gives); if it cannot, it stays where it
    was written."""
    if force:
        os.replace(partial, path)
        return
    try:
        os.link(partial, path)  # never over a file that appeared meanwhile
    except FileExistsError:
        raise _exists(path, option, forcing) from None
    except OSError:  # a file system without hard links: moved, once more looked at
        if path.exists() or path.is_symlink():
            raise _exists(path, option, forcing) from None
        os.replace(partial, path)
        return
    with contextlib.suppress(FileNotFoundError):
        os.unlink(partial)


def run_archive(args: argparse.Namespace, store: Any) -> None:
    """Run ``class archive`` or ``class delete`` on ``store``."""
    if args.class_command == "archive":
        path, count = write_archive(store, args.session, args.out, args.force)
        print(f"Archive of {count} session{'' if count == 1 else 's'} written to {path} (readable by you only).")
        return
    session = store.session(args.session)  # says so if there is none
    held = what_is_deleted(store, session.id)
    if args.archive:  # written whole before anything is deleted; never over a file (class delete has no --force)
        path, _ = write_archive(store, [session.id], args.archive, option="--archive", forcing=None)
        print(f"Session {session.id} (“{session.title}”): its archive is written to {path} (readable by you only).")
        print(f"Deleting session {session.id}: {held or 'no one joined it'}.", flush=True)
    else:
        print(
            f"warning: no archive of session {session.id} (“{session.title}”) is written: deleting it loses "
            f"{held or 'its settings (no one joined it)'} for good (class delete {session.id} --archive FILE.zip "
            "writes its archive first).",
            file=sys.stderr,
            flush=True,
        )
    store.delete_session(session.id)
    print(f"Session {session.id} deleted.")


def what_is_deleted(store: Any, session_id: int) -> str:
    """What deleting a session takes from the records, in words: "its 3 students, 12 answers, 2 poll rounds, 20
    votes and 1 extension" (those it has; "" if none)."""
    asked = store.session_polls(session_id)
    counts = [
        (len(store.joined(session_id)), "student"),  # those taken out too
        (len(store.answers(session_id)), "answer"),
        (len(asked), "poll round"),
        (sum(len(store.choices(poll.id)) for poll in asked), "vote"),
        (len(store.roster_names(session_id)), "roster name"),
        (len(store.extensions(session_id)), "extension"),
    ]
    held = [f"{count} {noun}{'' if count == 1 else 's'}" for count, noun in counts if count]
    if not held:
        return ""
    return "its " + (", ".join(held[:-1]) + f" and {held[-1]}" if len(held) > 1 else held[0])
