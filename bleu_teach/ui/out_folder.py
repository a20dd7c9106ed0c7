"""The folder a teacher's file command writes into, and the only files in it that the command may touch.

Every file command (``exercises key``, ``export``, ``worksheet``) writes
through an :class:`OutFolder`:

* **A manifest** (``bleu-teach-files.json`` inside ``--out``) names every
  file the commands wrote there, with the SHA-256 of what was written and
  the command that wrote it.  A file counts as the command's own only while
  it is listed *and* unchanged; anything else (a teacher's
  ``student-grades.pdf``, a key the teacher edited) is the teacher's.
* **Nothing of the teacher's is replaced or deleted.**  Before anything is
  written, every planned name is checked; a name taken by a file that is not
  the command's own (or by a folder, or a symbolic link) stops the command
  with one message naming it, unless ``force`` is given (then a file or a
  link at that name is replaced, never followed; a folder never is).
* **No symbolic link is followed out of ``--out``**: a folder on the way to
  a planned file must be a real folder inside ``--out``, and a file is
  written under a new name and then renamed over the old one, which replaces
  a link instead of writing through it.
* **Re-running replaces the previous run's own files cleanly**: those the
  same command wrote last time and did not write again (40 sheets after 60)
  are removed, if unchanged.
* Files that hold answers or the worksheet seed are written readable by
  their owner only (mode 0600).

Problems with the file system (no permission, a full disk) raise
``ValueError`` naming the path; the command line prints it as one ``error:``
line.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

__all__ = ["MANIFEST", "ANY_NAME", "OutFolder"]

#: The manifest's name inside ``--out``.
MANIFEST = "bleu-teach-files.json"
_FORMAT = 1
_MOST_MANIFEST = 2**20
_SHA256 = re.compile(r"[0-9a-f]{64}")
#: Any file name (an OutFolder's ``names`` says which names its commands write).
ANY_NAME = re.compile(r".+", re.DOTALL)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _reason(problem: OSError) -> str:
    return problem.strerror or type(problem).__name__


def _inside(name: str) -> PurePosixPath | None:
    """``name`` as a relative path that stays inside the folder (None: it does not, or it is the manifest)."""
    relative = PurePosixPath(name)
    if (relative.is_absolute() or not relative.parts or name == MANIFEST or "\\" in name
            or any(p in ("", ".", "..") for p in relative.parts) or name != str(relative)):
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
        raise ValueError(f"--out {where!r} is {'the root folder' if resolved == Path(resolved.anchor) else 'your home folder'}: "
                         f"name a folder of its own for the course's files, such as --out bleu-teach/.")
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
            raise ValueError(f"{str(path)!r} is not the file bleu_teach keeps its list of written files in (it is a "
                             f"{'symbolic link' if path.is_symlink() else 'folder'}); move it away, or choose "
                             f"another --out.")
        try:
            with open(path, "rb") as file:
                text = file.read(_MOST_MANIFEST + 1)
            if len(text) > _MOST_MANIFEST:
                raise ValueError
            data = json.loads(text.decode("utf-8"))
            files = data["files"]
            if data.get("format") != _FORMAT or not isinstance(files, dict):
                raise ValueError
            # Only names the commands write are honoured: a list copied from elsewhere, or edited, cannot make a
            # command replace or remove another file of the folder.
            return {name: {"sha256": entry["sha256"], "command": str(entry["command"])[:40]}
                    for name, entry in files.items()
                    if isinstance(name, str) and len(name) <= 200 and self.names.fullmatch(name)
                    and _inside(name) is not None and isinstance(entry, dict)
                    and isinstance(entry.get("sha256"), str) and _SHA256.fullmatch(entry["sha256"])}
        except OSError as problem:
            raise ValueError(f"cannot read {str(path)!r}: {_reason(problem)}") from None
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError):
            if self.force:  # replaced by this run's list; it owns nothing, so every other file is the teacher's
                return {}
            raise ValueError(f"{str(path)!r} is not a list of files bleu_teach can read (it may not be bleu_teach's). "
                             f"Nothing was written: move it away, choose another --out, or add --force to replace "
                             f"it.") from None

    def _save_manifest(self) -> None:
        text = json.dumps({"format": _FORMAT, "about": "The files python -m bleu_teach exercises wrote into this "
                           "folder, with the SHA-256 of what it wrote: a later run replaces or removes only these, "
                           "and only while they are unchanged.", "files": dict(sorted(self._files.items()))},
                          indent=1, ensure_ascii=False)
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
                return (f"{str(folder)!r} is a symbolic link, and bleu_teach writes only into real folders inside "
                        f"--out", False)
            if os.path.lexists(folder) and not folder.is_dir():
                return f"{str(folder)!r} is a file where bleu_teach needs a folder", False
        path = self.root / relative
        if not os.path.lexists(path) or self._owned(name, path):
            return None
        if path.is_dir() and not path.is_symlink():
            return f"{str(path)!r} is a folder where bleu_teach writes a file", False
        if self.force:
            return None
        what = "a symbolic link" if path.is_symlink() else (
            "a file bleu_teach wrote but that has changed since" if name in self._files else "a file bleu_teach did not write")
        return f"{str(path)!r} is {what}", True

    def plan(self, names: Iterable[str]) -> None:
        """Check every name the command will write, before it writes any: ``ValueError`` naming each conflict."""
        problems = list(dict.fromkeys(p for p in (self._problem(name) for name in names) if p))
        if not problems:
            return
        shown = "; ".join(text for text, _ in problems[:3]) + (
            f"; and {len(problems) - 3} more" if len(problems) > 3 else "")
        them = "them" if len(problems) > 1 else "it"
        advice = (f"move {them} away, choose another --out, or add --force to replace {them}"
                  if all(forceable for _, forceable in problems) else f"move {them} away or choose another --out")
        raise ValueError(f"will not replace what is already there: {shown}. Nothing was written: {advice}.")

    # ------------------------------------------------------------------
    # Writing
    # ------------------------------------------------------------------

    def _replace(self, name: str, data: bytes, secret: bool) -> Path:
        relative = self._relative(name) if name != MANIFEST else PurePosixPath(MANIFEST)
        folder = self.root
        for part in relative.parts[:-1]:
            folder = folder / part
            try:
                folder.mkdir(exist_ok=True)
            except OSError as problem:
                raise ValueError(f"cannot make the folder {str(folder)!r}: {_reason(problem)}") from None
            if folder.is_symlink() or not folder.is_dir():
                raise ValueError(f"{str(folder)!r} is not a real folder inside --out; nothing more was written")
        path = self.root / relative
        if path.is_dir() and not path.is_symlink():
            raise ValueError(f"{str(path)!r} is a folder where bleu_teach writes a file; move it away")
        temporary = folder / f".{relative.name}.{secrets.token_hex(4)}.part"
        mode = 0o600 if secret else 0o644
        try:
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
            try:
                with os.fdopen(descriptor, "wb") as file:
                    file.write(data)
                    file.flush()
                    os.fsync(file.fileno())
                if secret:
                    os.chmod(temporary, stat.S_IRUSR | stat.S_IWUSR)
                os.replace(temporary, path)  # replaces a link at `path`; never writes through it
            finally:
                if os.path.lexists(temporary):
                    os.unlink(temporary)
        except OSError as problem:
            raise ValueError(f"cannot write {str(path)!r}: {_reason(problem)}") from None
        return path

    def write(self, name: str, content: str | bytes, secret: bool = False) -> str:
        """Write ``content`` (text as UTF-8) to ``name`` inside the folder; record it in the manifest; its path.

        ``secret=True``: readable by the owner only (the answers, the seed).
        """
        problem = self._problem(name)
        if problem:  # changed since plan(): still never replaced
            raise ValueError(f"will not replace what is there now: {problem[0]}. Nothing more was written.")
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        path = self._replace(name, data, secret)
        self._files[name] = {"sha256": _digest(data), "command": self.command}
        self.written[name] = str(path)
        self._save_manifest()  # after each file: a run stopped half-way still owns what it wrote
        return str(path)

    def finish(self) -> list[str]:
        """Remove this command's files of an earlier run that this run did not write (if unchanged); their paths.

        A file from an earlier run that has been changed since is kept and left out of the manifest: it is the
        teacher's from now on.
        """
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
            inside = not any((self.root / PurePosixPath(*relative.parts[:k])).is_symlink()
                             for k in range(1, len(relative.parts)))
            if inside and self._owned(name, path):
                try:
                    path.unlink()
                except OSError as problem:
                    raise ValueError(f"cannot remove the earlier run's {str(path)!r}: {_reason(problem)}") from None
                removed.append(str(path))
            del self._files[name]
        self._save_manifest()
        return removed
