"""The folder a teacher's file command writes into, and the only files in it that the command may touch.

Every file command (``exercises key``, ``export``, ``worksheet``) writes
through an :class:`OutFolder`:

* **A manifest** (``bleu-teach-files.json`` inside ``--out``) names every
  file the commands wrote there, with the SHA-256 of what was written and
  the command that wrote it, each entry sealed (HMAC-SHA256) with a key
  only this user's bleu_teach holds (:func:`files_key`, in the user's data
  folder), over the folder, the name and the content.  A file counts as the
  command's own only while it is listed with a valid seal *and* unchanged;
  anything else (a teacher's ``student-grades.pdf``, a key the teacher
  edited, an entry added to the list by hand or copied from another
  folder) is the teacher's.
* **Nothing of the teacher's is replaced or deleted.**  Before anything is
  written, every planned name is checked; a name taken by a file that is not
  the command's own (or by a folder, or a symbolic link) stops the command
  with one message naming it, unless ``force`` is given (then a file or a
  link at that name is replaced, never followed; a folder never is).
* **No symbolic link is followed out of ``--out``**: a folder on the way to
  a planned file must be a real folder inside ``--out``, and a file is
  written under a new name and then renamed over the old one, which replaces
  a link instead of writing through it.
* **A run writes its new set into a hidden folder inside ``--out``**
  (``.bleu-teach-new-...``) and swaps it in at the end, Ctrl-C held back for
  those few renames: a run interrupted, or one that fails, leaves the
  earlier set whole.
* **Re-running replaces the previous run's own files cleanly**: those the
  same command wrote last time and did not write again (40 sheets after 60)
  are removed, if unchanged, and each is named.
* Files that hold answers or the worksheet seed are written readable by
  their owner only (mode 0600).

Problems with the file system (no permission, a full disk) raise
``ValueError`` naming the path; the command line prints it as one ``error:``
line.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
import shutil
import signal
import stat
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import Any

__all__ = ["MANIFEST", "ANY_NAME", "STAGING_PREFIX", "KEY_ENVIRONMENT", "OutFolder", "files_key"]

#: The manifest's name inside ``--out``.
MANIFEST = "bleu-teach-files.json"
#: The hidden folder inside ``--out`` a run writes its new set into, swapped in at the end.
STAGING_PREFIX = ".bleu-teach-new-"
_FORMAT = 2
#: The environment variable that may name the file of the key the manifest's entries are sealed with.
KEY_ENVIRONMENT = "BLEU_TEACH_FILES_KEY"
_MOST_MANIFEST = 2**20
_SHA256 = re.compile(r"[0-9a-f]{64}")
#: Any file name (an OutFolder's ``names`` says which names its commands write).
ANY_NAME = re.compile(r".+", re.DOTALL)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _reason(problem: OSError) -> str:
    return problem.strerror or type(problem).__name__


def files_key() -> bytes:
    """This user's key for sealing the manifests' entries: ``$BLEU_TEACH_FILES_KEY``, else ``files.key`` in the
    user's data folder (platformdirs: ~/.local/share/bleu-teach on Linux), made (owner only) the first time."""
    named = os.environ.get(KEY_ENVIRONMENT)
    if named:
        path = Path(named)
    else:
        try:
            from platformdirs import user_data_path

            path = user_data_path("bleu-teach") / "files.key"
        except ImportError:  # a bare install: where platformdirs would say on Linux
            path = (
                Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "bleu-teach" / "files.key"
            )
    try:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                _new_file(path, secrets.token_hex(32).encode("ascii"), secret=True)
            except FileExistsError:  # another run made it meanwhile
                pass
        key = path.read_bytes().strip()
    except OSError as problem:
        raise ValueError(
            f"cannot read or make the key bleu_teach seals its lists of written files with, "
            f"{str(path)!r}: {_reason(problem)}"
        ) from None
    if len(key) < 32:
        raise ValueError(
            f"{str(path)!r} is not a key bleu_teach made (too short); move it away, and bleu_teach "
            "makes a new one (earlier folders then need --force once)"
        )
    return key


def _new_file(path: Path, data: bytes, secret: bool) -> None:
    """A new file at ``path`` (never an existing one, never through a link) holding ``data``, on the disk."""
    descriptor = os.open(
        path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600 if secret else 0o644
    )
    with os.fdopen(descriptor, "wb") as file:
        file.write(data)
        file.flush()
        os.fsync(file.fileno())
    if secret:
        os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)


#: Ctrl-C presses seen while an OutFolder is open (the main thread's handler records each one).
_PRESSED: list[int] = []


def _remember_and_raise(number: int, frame: object) -> None:
    _PRESSED.append(number)
    raise KeyboardInterrupt


def stop_if_interrupted() -> None:
    """Raise ``KeyboardInterrupt`` if Ctrl-C was pressed while the folder was open, even where the exception it
    raised then did not reach the command: a run that printed PDFs carried on to the end after a Ctrl-C that
    landed while fontTools read a font (so the command checks here before it writes or swaps anything in)."""
    if _PRESSED:
        raise KeyboardInterrupt


@contextmanager
def _uninterrupted() -> Iterator[None]:
    """Ctrl-C held back for the block (the swap, a few milliseconds), then raised: a set is swapped in whole."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: caught.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def _inside(name: str) -> PurePosixPath | None:
    """``name`` as a relative path that stays inside the folder (None: it does not, or it is the manifest)."""
    relative = PurePosixPath(name)
    if (
        relative.is_absolute()
        or not relative.parts
        or name == MANIFEST
        or "\\" in name
        or any(p in ("", ".", "..") for p in relative.parts)
        or name != str(relative)
    ):
        return None
    return relative


def _out_path(where: object) -> Path:
    """``--out`` as a folder path, refusing an empty one and the places no course file belongs in."""
    if not isinstance(where, str):
        raise TypeError(f"--out must be a folder name (text), not {type(where).__name__}.")
    if not where.strip():
        raise ValueError("--out is empty: name a folder to write into, such as --out key/ (it is made if missing).")
    if "\x00" in where:
        raise ValueError("--out holds a NUL character: name a folder to write into, such as --out key/.")
    out = Path(where).expanduser()
    try:
        resolved = out.resolve()
    except (OSError, RuntimeError) as problem:  # a loop of symbolic links
        raise ValueError(f"cannot use --out {where!r}: {problem}") from None
    try:
        home = Path.home().resolve()
    except (OSError, RuntimeError, KeyError):  # no home folder known
        home = Path(resolved.anchor)
    if resolved == Path(resolved.anchor) or resolved == home:
        raise ValueError(
            f"--out {where!r} is {'the root folder' if resolved == Path(resolved.anchor) else 'your home folder'}: "
            f"name a folder of its own for the course's files, such as --out bleu-teach/."
        )
    return out


class OutFolder:
    """The files one command plans, checks and writes in ``--out``, recorded in the folder's manifest.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as where:
    ...     out = OutFolder(where, "key")
    ...     out.plan(["answer-key.md"])
    ...     path = out.write("answer-key.md", "# Answers", secret=True)
    ...     removed = out.finish()
    ...     oct(os.stat(path).st_mode & 0o777), sorted(os.listdir(where))
    ('0o600', ['answer-key.md', 'bleu-teach-files.json'])
    """

    def __init__(self, where: str, command: str, force: bool = False, names: re.Pattern[str] = ANY_NAME) -> None:
        out = _out_path(where)
        if out.exists() and not out.is_dir():
            raise ValueError(f"--out {where!r} is a file, not a folder: give a folder to write into.")
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as problem:
            raise ValueError(f"cannot make the folder {where!r}: {_reason(problem)}") from None
        self.root = out
        self.names = names
        self.command = command
        self.force = force
        self.written: dict[str, str] = {}
        self._staging: Path | None = None
        self._staged: dict[str, tuple[Path, str]] = {}
        self._key = files_key()
        self._unproven: set[str] = set()  # listed, but not sealed by this user's bleu_teach for this folder
        self._files = self._read_manifest()

    # ------------------------------------------------------------------
    # The manifest
    # ------------------------------------------------------------------

    @property
    def manifest(self) -> Path:
        """The manifest's path."""
        return self.root / MANIFEST

    def _read_manifest(self) -> dict[str, dict[str, str]]:
        path = self.manifest
        if not os.path.lexists(path):
            return {}
        if path.is_symlink() or not path.is_file():
            raise ValueError(
                f"{str(path)!r} is not the file bleu_teach keeps its list of written files in (it is a "
                f"{'symbolic link' if path.is_symlink() else 'folder'}); move it away, or choose "
                f"another --out."
            )
        try:
            with open(path, "rb") as file:
                text = file.read(_MOST_MANIFEST + 1)
            if len(text) > _MOST_MANIFEST:
                raise ValueError
            data = json.loads(text.decode("utf-8"))
            files = data["files"]
            if data.get("format") not in (1, _FORMAT) or not isinstance(files, dict):
                raise ValueError
            # Only names the commands write are honoured, and only entries sealed with this user's key for this
            # folder: a list copied from elsewhere, or edited, cannot make a command replace or remove another file.
            listed = {
                name: {
                    "sha256": entry["sha256"],
                    "command": str(entry["command"])[:40],
                    "seal": str(entry.get("seal", "")),
                }
                for name, entry in files.items()
                if isinstance(name, str)
                and len(name) <= 200
                and self.names.fullmatch(name)
                and _inside(name) is not None
                and isinstance(entry, dict)
                and isinstance(entry.get("sha256"), str)
                and _SHA256.fullmatch(entry["sha256"])
            }
            sealed = {
                name: {"sha256": entry["sha256"], "command": entry["command"]}
                for name, entry in listed.items()
                if hmac.compare_digest(entry["seal"], self._seal(name, entry["sha256"], entry["command"]))
            }
            self._unproven = set(listed) - set(sealed)
            return sealed
        except OSError as problem:
            raise ValueError(f"cannot read {str(path)!r}: {_reason(problem)}") from None
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            if self.force:  # replaced by this run's list; it owns nothing, so every other file is the teacher's
                return {}
            raise ValueError(
                f"{str(path)!r} is not a list of files bleu_teach can read (it may not be bleu_teach's). "
                f"Nothing was written: move it away, choose another --out, or add --force to replace "
                f"it."
            ) from None

    def _seal(self, name: str, sha256: str, command: str) -> str:
        """An entry's seal: its HMAC-SHA256 with this user's key (:func:`files_key`), over the folder, the name, what
        was written and the command. Only bleu_teach, run by this user, makes it."""
        message = json.dumps([str(self.root.resolve()), name, sha256, command], ensure_ascii=False)
        return hmac.new(self._key, message.encode("utf-8"), hashlib.sha256).hexdigest()

    def _save_manifest(self) -> None:
        files = {
            name: {**entry, "seal": self._seal(name, entry["sha256"], entry["command"])}
            for name, entry in sorted(self._files.items())
        }
        text = json.dumps(
            {
                "format": _FORMAT,
                "about": "The files python -m bleu_teach exercises wrote into this "
                "folder, with the SHA-256 of what it wrote, each entry sealed with a key only this "
                "user's bleu_teach holds: a later run replaces or removes only these, only while they "
                "are unchanged, and never an entry that was added or edited by hand.",
                "files": files,
            },
            indent=1,
            ensure_ascii=False,
        )
        self._replace(MANIFEST, (text + "\n").encode("utf-8"), secret=False)

    # ------------------------------------------------------------------
    # Checking names before anything is written
    # ------------------------------------------------------------------

    def _relative(self, name: str) -> PurePosixPath:
        relative = _inside(name)
        if relative is None or not self.names.fullmatch(name):
            raise ValueError(f"{name!r} is not a file name inside --out (or it is the manifest's own name)")
        return relative

    def _owned(self, name: str, path: Path) -> bool:
        """Whether ``path`` is a regular file that a command wrote and nobody has changed since."""
        entry = self._files.get(name)
        if entry is None or path.is_symlink() or not path.is_file():
            return False
        try:
            return _digest(path.read_bytes()) == entry["sha256"]
        except OSError:
            return False

    def _problem(self, name: str) -> tuple[str, bool] | None:
        """Why ``name`` cannot be written, and whether ``force`` would allow it (None: it can be written)."""
        relative = self._relative(name)
        folder = self.root
        for part in relative.parts[:-1]:
            folder = folder / part
            if folder.is_symlink():
                return (
                    f"{str(folder)!r} is a symbolic link, and bleu_teach writes only into real folders inside --out",
                    False,
                )
            if os.path.lexists(folder) and not folder.is_dir():
                return f"{str(folder)!r} is a file where bleu_teach needs a folder", False
        path = self.root / relative
        if not os.path.lexists(path) or self._owned(name, path):
            return None
        if path.is_dir() and not path.is_symlink():
            return f"{str(path)!r} is a folder where bleu_teach writes a file", False
        if self.force:
            return None
        what = (
            "a symbolic link"
            if path.is_symlink()
            else (
                "a file bleu_teach wrote but that has changed since"
                if name in self._files
                else "a file its list says bleu_teach wrote, but that entry is not sealed by this user's bleu_teach "
                "for this folder (added or edited by hand, copied from another folder, or written by an older version)"
                if name in self._unproven
                else "a file bleu_teach did not write"
            )
        )
        return f"{str(path)!r} is {what}", True

    def plan(self, names: Iterable[str]) -> None:
        """Check every name the command will write, before it writes any: ``ValueError`` naming each conflict."""
        problems = list(dict.fromkeys(p for p in (self._problem(name) for name in names) if p))
        if not problems:
            return
        shown = "; ".join(text for text, _ in problems[:3]) + (
            f"; and {len(problems) - 3} more" if len(problems) > 3 else ""
        )
        them = "them" if len(problems) > 1 else "it"
        advice = (
            f"move {them} away, choose another --out, or add --force to replace {them}"
            if all(forceable for _, forceable in problems)
            else f"move {them} away or choose another --out"
        )
        raise ValueError(f"will not replace what is already there: {shown}. Nothing was written: {advice}.")

    # ------------------------------------------------------------------
    # Writing
    # ------------------------------------------------------------------

    def _folders(self, relative: PurePosixPath, after: str = "") -> Path:
        """The folders of ``relative`` under the root, made where missing, each a real folder (never a link):
        the innermost one. ``after`` ends the refusal's sentence."""
        folder = self.root
        for part in relative.parts[:-1]:
            folder = folder / part
            try:
                folder.mkdir(exist_ok=True)
            except OSError as problem:
                raise ValueError(f"cannot make the folder {str(folder)!r}: {_reason(problem)}") from None
            if folder.is_symlink() or not folder.is_dir():
                raise ValueError(f"{str(folder)!r} is not a real folder inside --out{after}")
        return folder

    def _replace(self, name: str, data: bytes, secret: bool) -> Path:
        relative = self._relative(name) if name != MANIFEST else PurePosixPath(MANIFEST)
        folder = self._folders(relative, "; nothing more was written")
        path = self.root / relative
        if path.is_dir() and not path.is_symlink():
            raise ValueError(f"{str(path)!r} is a folder where bleu_teach writes a file; move it away")
        temporary = folder / f".{relative.name}.{secrets.token_hex(4)}.part"
        try:
            try:
                _new_file(temporary, data, secret)
                os.replace(temporary, path)  # replaces a link at `path`; never writes through it
            finally:
                if os.path.lexists(temporary):
                    os.unlink(temporary)
        except OSError as problem:
            raise ValueError(f"cannot write {str(path)!r}: {_reason(problem)}") from None
        return path

    def write(self, name: str, content: str | bytes, secret: bool = False) -> str:
        """Write ``content`` (text as UTF-8) for ``name`` into the new set, a hidden folder inside ``--out``; the
        path it will have once :meth:`finish` swaps the set in.

        ``secret=True``: readable by the owner only (the answers, the seed).
        """
        stop_if_interrupted()
        problem = self._problem(name)
        if problem:  # changed since plan(): still never replaced
            raise ValueError(f"will not replace what is there now: {problem[0]}. Nothing more was written.")
        relative = self._relative(name)
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        if self._staging is None:
            staging = self.root / f"{STAGING_PREFIX}{secrets.token_hex(6)}"
            try:
                staging.mkdir(mode=0o700)
            except OSError as problem_:
                raise ValueError(f"cannot make the folder {str(staging)!r}: {_reason(problem_)}") from None
            self._staging = staging
        staged = self._staging.joinpath(*relative.parts)
        try:
            staged.parent.mkdir(parents=True, exist_ok=True)
            _new_file(staged, data, secret)
        except OSError as problem_:
            raise ValueError(f"cannot write {str(self.root / relative)!r}: {_reason(problem_)}") from None
        self._staged[name] = (staged, _digest(data))
        self.written[name] = str(self.root / relative)
        return self.written[name]

    def abandon(self) -> None:
        """Forget the new set: its hidden folder is removed, and ``--out`` stays as it was."""
        staging, self._staging = self._staging, None
        self._staged.clear()
        if staging is not None and staging.is_dir() and not staging.is_symlink():
            shutil.rmtree(staging, ignore_errors=True)

    def __enter__(self) -> OutFolder:
        # Ctrl-C still raises KeyboardInterrupt, and is also remembered (stop_if_interrupted), unless it is ignored
        # (a job started in the background) or not the main thread's to handle.
        self._handler: Any = None
        if threading.current_thread() is threading.main_thread():
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
                _PRESSED.clear()
                self._handler = signal.signal(signal.SIGINT, _remember_and_raise)
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if self._handler is not None:
            signal.signal(signal.SIGINT, self._handler)
            _PRESSED.clear()
        self.abandon()  # after finish() there is nothing left to remove; before it, the old set stays whole

    def _swap_in(self) -> None:
        """Move every file of the new set to its place (each a rename inside one file system), with Ctrl-C held
        back until all are there."""
        problems = [problem[0] for problem in map(self._problem, self._staged) if problem]
        if problems:
            raise ValueError(f"will not replace what is there now: {problems[0]}. Nothing was changed.")
        stop_if_interrupted()
        with _uninterrupted():
            for name, (staged, digest) in self._staged.items():
                relative = self._relative(name)
                self._folders(relative)
                try:
                    os.replace(staged, self.root / relative)  # replaces a link at the place; never writes through it
                except OSError as problem:
                    raise ValueError(f"cannot write {str(self.root / relative)!r}: {_reason(problem)}") from None
                self._files[name] = {"sha256": digest, "command": self.command}

    def finish(self) -> list[str]:
        """Swap the new set in, then remove this command's files of an earlier run that this run did not write (if
        unchanged); their paths.

        A file from an earlier run that has been changed since is kept and left out of the manifest: it is the
        teacher's from now on.
        """
        self._swap_in()
        self.abandon()  # the hidden folder, empty now
        removed = []
        for name, entry in list(self._files.items()):
            if name in self.written:
                continue
            if entry["command"] != self.command:  # another command's file: listed while it stays as written
                if not self._owned(name, self.root / self._relative(name)):
                    del self._files[name]
                continue
            relative = self._relative(name)
            path = self.root / relative
            inside = not any(
                (self.root / PurePosixPath(*relative.parts[:k])).is_symlink() for k in range(1, len(relative.parts))
            )
            if inside and self._owned(name, path):
                try:
                    path.unlink()
                except OSError as problem:
                    raise ValueError(f"cannot remove the earlier run's {str(path)!r}: {_reason(problem)}") from None
                removed.append(str(path))
            del self._files[name]
        self._save_manifest()
        return removed
