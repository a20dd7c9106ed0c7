"""The Python a page runs on Pyodide: bleu_teach's standard-library modules and sacreBLEU's pure tokenizers.

``write_python_zip`` writes the zip every live page unpacks into Pyodide's
file system; ``write_data_zip`` the one lesson 08's page adds (the WMT21
data and the explorers' contexts).
"""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import json
import sys
import zipfile
from pathlib import Path

from bleu_teach.web import page
from bleu_teach_site.paths import PACKAGE, PROJECT

#: The zip the pages unpack into Pyodide's file system.
PYTHON_ZIP = "bleu_teach_site.zip"
#: Modules the pages import; everything they import at load time is shipped with them.
ENTRY_MODULES = ("bleu_teach", "bleu_teach.web.page", "bleu_teach.explorers.typed_input",
                 "bleu_teach.explorers.definitions", "bleu_teach.exercises.bank")
#: The package's data files the pages' Python reads (the exercise bank).
PACKAGE_DATA = ("exercises/bank.toml",)


def _load_time_imports(source: str) -> list[ast.ImportFrom | ast.Import]:
    """Imports that run when a module loads: top level, outside functions and `if TYPE_CHECKING:`."""
    found: list[ast.ImportFrom | ast.Import] = []

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                found.append(node)
            elif isinstance(node, ast.If):
                if not (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"):
                    visit(node.body)
                if not _new_python_test(node.test):  # Pyodide's Python is recent: an old Python's branch never runs
                    visit(node.orelse)
            elif isinstance(node, (ast.Try, ast.With)):
                visit(node.body)

    visit(ast.parse(source).body)
    return found


def _new_python_test(test: ast.expr) -> bool:
    """``sys.version_info >= (3, k)``: true on Pyodide's Python."""
    return (isinstance(test, ast.Compare) and isinstance(test.ops[0], ast.GtE) and ast.unparse(test.left) == "sys.version_info")


def _is_stdlib(module: str) -> bool:
    return module.split(".")[0] in sys.stdlib_module_names


def module_file(module: str) -> Path:
    """The source file of a bleu_teach module given by its dotted name (a package's is its __init__.py)."""
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def package_modules() -> list[str]:
    """bleu_teach's modules that `import bleu_teach` and the explorer load, each checked to need only the stdlib.

    Dotted names; importing ``bleu_teach.a.b`` runs the packages ``bleu_teach`` and ``bleu_teach.a`` too.
    """
    wanted: set[str] = set()
    todo = list(ENTRY_MODULES)
    while todo:
        name = todo.pop()
        if name in wanted:
            continue
        wanted.add(name)
        parts = name.split(".")
        todo += [".".join(parts[:k]) for k in range(1, len(parts))]
        for node in _load_time_imports(module_file(name).read_text(encoding="utf-8")):
            targets = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bleu_teach"):
                # "from bleu_teach.views import text" loads the module bleu_teach.views.text_writer
                targets += [f"{node.module}.{a.name}" for a in node.names
                            if module_file(f"{node.module}.{a.name}").exists()]
            for target in targets:
                if target == "bleu_teach" or target.startswith("bleu_teach."):
                    todo.append(target)
                elif not _is_stdlib(target):
                    raise SystemExit(f"{module_file(name).relative_to(PROJECT)} imports {target} when it loads; "
                                     f"the site runs the package on the standard library alone (tests/test_layers.py).")
    return sorted(wanted)


def _sacrebleu_folder() -> Path:
    spec = importlib.util.find_spec("sacrebleu")  # finds the folder without running sacreBLEU's __init__
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("sacreBLEU is not installed: run make site (it installs the project first).")
    return Path(list(spec.submodule_search_locations)[0])


def _pure_tokenizer_files(module: str, folder: Path) -> list[str] | None:
    """The tokenizer module's file and its sibling modules, or None if it needs more than the stdlib."""
    files: list[str] = []
    todo = [module.rsplit(".", 1)[1]]
    while todo:
        name = todo.pop()
        if name in files:
            continue
        files.append(name)
        for node in _load_time_imports((folder / f"{name}.py").read_text(encoding="utf-8")):
            if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
                todo.append(node.module)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and _is_stdlib(node.module or ""):
                continue
            elif isinstance(node, ast.Import) and all(_is_stdlib(a.name) for a in node.names):
                continue
            else:
                return None
    return files


def browser_tokenizers() -> tuple[dict[str, str], list[str]]:
    """The tokenizers the explorer offers (name: description), and the sacreBLEU tokenizer files they need.

    ``whitespace`` needs nothing; sacreBLEU's tokenizers are offered when
    their modules import only the standard library (13a, char, zh and none
    do; intl needs the third-party ``regex``); NLTK's is left out (NLTK).
    """
    from bleu_teach.inputs.tokenizers import SACREBLEU_TOKENIZERS, TOKENIZERS

    folder = _sacrebleu_folder() / "tokenizers"
    offered, files = {"whitespace": TOKENIZERS["whitespace"]}, {"__init__"}
    for name, (module, _) in SACREBLEU_TOKENIZERS.items():
        needed = _pure_tokenizer_files(module, folder)
        if needed is not None:
            offered[name] = TOKENIZERS[name]
            files.update(needed)
    files.update(_pure_tokenizer_files("tokenizers.__init__", folder) or [])
    return offered, sorted(files)


SACREBLEU_STAND_IN = '''"""Only sacreBLEU's pure-Python tokenizers ({files}), copied unchanged from sacreBLEU {version}.

sacreBLEU's own __init__ imports its metrics, which need NumPy; bleu-teach's
static site runs in the browser without NumPy, and only needs the tokenizers.
sacreBLEU is released under the Apache License 2.0 (LICENSE.txt beside this file).
"""
'''


def write_python_zip(target: Path) -> list[str]:
    """The zip the explorer unpacks: bleu_teach's modules, sacreBLEU's tokenizers, explorer_page.py. Returns its names."""
    folder = _sacrebleu_folder()
    _, tokenizer_files = browser_tokenizers()
    version = importlib.metadata.version("sacrebleu")
    licence = next((p for p in (importlib.metadata.files("sacrebleu") or []) if p.name.startswith("LICENSE")), None)
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in package_modules():
            path = module_file(name)
            archive.write(path, str(path.relative_to(PROJECT)))
        archive.writestr("sacrebleu/__init__.py", SACREBLEU_STAND_IN.format(
            files=", ".join(f for f in tokenizer_files if f != "__init__"), version=version))
        for name in tokenizer_files:
            archive.write(folder / "tokenizers" / f"{name}.py", f"sacrebleu/tokenizers/{name}.py")
        if licence is not None:
            archive.write(Path(str(licence.locate())), "sacrebleu/LICENSE.txt")
        for name in PACKAGE_DATA:
            archive.write(PACKAGE / name, f"bleu_teach/{name}")
        return archive.namelist()


def write_data_zip(target: Path, contexts: dict[str, str]) -> list[str]:
    """The zip lesson 08's page adds: the WMT21 zh-en data (with its licence) and the explorers' contexts."""
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in ("zh-en.json.gz", "LICENSE", "README.md"):
            archive.write(PACKAGE / "lessons" / "wmt21" / name, f"bleu_teach/lessons/wmt21/{name}")
        archive.writestr(f"bleu_teach/web/{page.CONTEXTS_FILE.name}", json.dumps(contexts, separators=(",", ":")))
        return archive.namelist()


