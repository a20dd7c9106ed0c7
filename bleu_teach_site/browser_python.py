"""What the pages' Python loads on Pyodide besides Pyodide's core: the package's wheel, sacreBLEU's tokenizers.

bleu_teach comes from the wheel that ``make dist`` builds: ``static/python.js``
unpacks it into Pyodide's site-packages (``unpackArchive(..., "wheel")``), so a
page runs the very files that ``pip install`` puts on a learner's machine.

sacreBLEU cannot be imported there as a package: its ``__init__`` loads its
metrics, which need NumPy, and the site ships only Pyodide's core. Its
``tokenizers`` folder is shipped instead, unchanged and without sacreBLEU's
``__init__.py`` (:data:`TOKENIZER_ZIP`): ``sacrebleu`` is then a namespace
package (PEP 420) that holds ``sacrebleu.tokenizers`` and nothing else.
Which tokenizers work there is found by importing each of them in a Python
without site-packages, as Pyodide's core is (:func:`browser_tokenizers`).

Lesson 08's explorers also need their contexts (made from the WMT21 data at
build time): :func:`write_contexts_zip`.

A page names what its Python unpacks, and the build it belongs to, in one meta
tag (:class:`BrowserPython`): ``static/python_cache.js`` keeps a build's files
in the browser under that name, so that a page that starts its own Python
fetches nothing again, and a page of another build never gets them.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from bleu_teach.inputs.tokenizers import SACREBLEU_TOKENIZERS, TOKENIZERS
from bleu_teach.web import page

#: sacreBLEU's tokenizers folder, unpacked beside the package.
TOKENIZER_ZIP = "sacrebleu_tokenizers.zip"
#: The explorers' contexts, for the pages that have an explorer that needs one (lesson 08's).
CONTEXTS_ZIP = "explorer_contexts.zip"


@dataclass(frozen=True)
class BrowserPython:
    """What a page's Python unpacks (the package's wheel first), and the build those files belong to: the page's
    ``<meta name="bleu-teach-python">`` (its content and its ``data-build``), which static/python.js reads."""

    archives: tuple[str, ...] = ()
    build: str = ""

    @property
    def content(self) -> str:
        return " ".join(self.archives)

    @classmethod
    def of(cls, folder: Path, archives: Sequence[str]) -> BrowserPython:
        """The archives in ``folder`` (a site or a deck's folder, Pyodide copied into vendor/pyodide/), named by a
        digest of Pyodide's lock file and the archives: another build's files have another name.

        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as name:
        ...     folder = Path(name)
        ...     (folder / "vendor" / "pyodide").mkdir(parents=True)
        ...     _ = (folder / "vendor" / "pyodide" / "pyodide-lock.json").write_text("{}")
        ...     _ = (folder / "a.whl").write_bytes(b"one")
        ...     first = BrowserPython.of(folder, ["a.whl"])
        ...     _ = (folder / "a.whl").write_bytes(b"two")
        ...     second = BrowserPython.of(folder, ["a.whl"])
        >>> first.archives, first.content, len(first.build), first.build != second.build
        (('a.whl',), 'a.whl', 16, True)
        """
        digest = hashlib.sha256()
        for path in [folder / "vendor" / "pyodide" / "pyodide-lock.json", *(folder / name for name in archives)]:
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
        return cls(tuple(archives), digest.hexdigest()[:16])


#: A page with no Python (a lesson exported on its own, as the tests do).
NO_PYTHON = BrowserPython()


def _sacrebleu_files() -> tuple[list[importlib.metadata.PackagePath], importlib.metadata.PackagePath | None]:
    """sacreBLEU's installed ``tokenizers/*.py`` and its licence file, from its distribution's record."""
    try:
        files = importlib.metadata.files("sacrebleu") or []
    except importlib.metadata.PackageNotFoundError:
        raise SystemExit("sacreBLEU is not installed: run make site (it installs the project first).") from None
    tokenizers = sorted((f for f in files if f.parts[:2] == ("sacrebleu", "tokenizers") and f.suffix == ".py"), key=str)
    licence = next((f for f in files if f.name.startswith("LICENSE")), None)
    if not tokenizers:
        raise SystemExit("sacreBLEU's record lists no tokenizers folder: reinstall it (make site installs it).")
    return tokenizers, licence


def write_tokenizer_zip(target: Path) -> list[str]:
    """Write sacreBLEU's tokenizers folder (and its licence) as :data:`TOKENIZER_ZIP`; return the names in it."""
    tokenizers, licence = _sacrebleu_files()
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for file in tokenizers:
            archive.write(Path(str(file.locate())), str(PurePosixPath(*file.parts)))
        if licence is not None:
            archive.write(Path(str(licence.locate())), "sacrebleu/LICENSE.txt")
        return archive.namelist()


#: Run by :func:`browser_tokenizers` with ``-I -S``: which sacreBLEU tokenizer modules import from the folder alone.
_PROBE = """
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
works = []
for module in json.loads(sys.argv[2]):
    try:
        importlib.import_module(module)
    except ImportError:
        continue
    works.append(module)
print(json.dumps(works))
"""


def browser_tokenizers(archive: Path) -> dict[str, str]:
    """The tokenizers the pages offer (name: description): ``whitespace`` and sacreBLEU's that import there.

    Each sacreBLEU tokenizer is imported from ``archive`` (the
    :data:`TOKENIZER_ZIP` :func:`write_tokenizer_zip` wrote) alone, in a
    Python run with ``-I -S`` (no site-packages: neither NumPy nor
    sacreBLEU's other dependencies, as in Pyodide's core). 13a, char, zh and
    none need only the standard library; intl needs ``regex``. NLTK's
    tokenizer is not shipped.
    """
    with tempfile.TemporaryDirectory() as folder:
        with zipfile.ZipFile(archive) as unpacking:
            unpacking.extractall(folder)
        modules = [module for module, _ in SACREBLEU_TOKENIZERS.values()]
        run = subprocess.run(
            [sys.executable, "-I", "-S", "-c", _PROBE, folder, json.dumps(modules)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    if run.returncode != 0:
        raise SystemExit(f"Importing sacreBLEU's tokenizers on their own failed:\n{run.stderr}")
    works = set(json.loads(run.stdout))
    return {"whitespace": TOKENIZERS["whitespace"]} | {
        name: TOKENIZERS[name] for name, (module, _) in SACREBLEU_TOKENIZERS.items() if module in works
    }


def write_contexts_zip(target: Path, contexts: dict[str, str]) -> list[str]:
    """The zip the pages with such an explorer add: each explorer's context as JSON, where bleu_teach.web.page reads
    it."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"bleu_teach/web/{page.CONTEXTS_FILE.name}", json.dumps(contexts, separators=(",", ":")))
        return archive.namelist()
