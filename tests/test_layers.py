"""The package's seams: declared, one-way, and HTML in one place.

Read from the source with ``ast`` (imports inside functions count too, so a
lazy import cannot hide a cycle; imports under ``if TYPE_CHECKING:`` are
for the type checker only and do not run).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "bleu_teach"
MODULES = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__"))

#: Below the widgets everything must run on the standard library alone (a plain terminal, Pyodide).
STANDARD_LIBRARY_ONLY = ["checks", "statistics", "smoothing", "scoring", "core", "render", "explain", "chrf",
                         "explorer"]


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports(module: str) -> list[tuple[str, tuple[str, ...]]]:
    """(imported module, names) for every import that runs, at any depth."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    found: list[tuple[str, tuple[str, ...]]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, tuple(alias.name for alias in node.names)))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def package_edges() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for module in MODULES:
        for target, _ in imports(module):
            if target.startswith("bleu_teach."):
                edges[module].add(target.split(".")[1])
    return edges


def private_imports() -> list[str]:
    found = []
    for module in MODULES:
        for target, names in imports(module):
            if not target.startswith("bleu_teach"):
                continue
            if any(part.startswith("_") for part in target.split(".")[1:]):
                found.append(f"{module}: import {target}")
            found.extend(f"{module}: from {target} import {name}" for name in names if name.startswith("_"))
    return found


def test_no_module_imports_another_modules_private_names():
    assert private_imports() == []


def test_render_imports_nothing_from_the_package_at_run_time():
    # Reports import render to show themselves; render reads them through their attributes.
    assert package_edges()["render"] == set()


def test_no_module_imports_the_package_root():
    for module in MODULES:
        assert all(target != "bleu_teach" for target, _ in imports(module)), module


def test_the_import_graph_has_no_cycle():
    edges = package_edges()
    state: dict[str, int] = {}

    def walk(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(edges[module]):
            if state.get(target) == 1:
                pytest.fail("import cycle: " + " -> ".join(path + [module, target]))
            if target not in state:
                walk(target, path + [module])
        state[module] = 2

    for module in MODULES:
        if module not in state:
            walk(module, [])


@pytest.mark.parametrize("module", STANDARD_LIBRARY_ONLY)
def test_the_core_layers_need_only_the_standard_library(module):
    for target, _ in imports(module):
        top = target.split(".")[0]
        assert top == "bleu_teach" or top in sys.stdlib_module_names, f"{module} imports {target}"


def test_only_the_statistics_module_counts_ngrams():
    # Counting n-grams means building a Counter, or zipping shifted slices: zip(*(...)).
    for module in MODULES:
        if module == "statistics":
            continue
        tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            assert name != "Counter", f"{module} line {node.lineno} builds a Counter"
            if name == "zip":
                shifted = [a for a in node.args if isinstance(a, ast.Starred) and isinstance(a.value, ast.GeneratorExp)
                           and any(isinstance(n, ast.Slice) for n in ast.walk(a.value))]
                assert not shifted, f"{module} line {node.lineno} zips shifted slices into n-grams"


_TAG = re.compile(r"<(p|div|table|tr|td|th|span|b|br|h\d|ul|li|sub|sup|style|img)\b[^>]*>", re.IGNORECASE)


def _strings_outside_docstrings(module: str) -> list[str]:
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


def test_all_html_is_written_by_the_rendering_layer():
    for module in MODULES:
        if module == "render":
            continue
        offending = [s for s in _strings_outside_docstrings(module) if _TAG.search(s)]
        assert offending == [], f"{module} writes HTML: {offending[:3]}"
