"""The package's seams: declared, one-way, and HTML in one place.

Read from the source with ``ast``.  Every import counts: imports inside
functions (a lazy import cannot hide a cycle) and imports under ``if
TYPE_CHECKING:`` (a view that needs every report type is a view in the wrong
place).
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "bleu_teach"


def _dotted(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


#: Every module of the package by its dotted name (subpackages' __init__ included), the root and __main__ aside.
FILES = {_dotted(p): p for p in sorted(PACKAGE.rglob("*.py"))}
MODULES = sorted(m for m in FILES if m not in ("bleu_teach", "bleu_teach.__main__"))

#: The layers, lowest first: a module imports from its own layer or the layers below it, never above.
LAYERS = ["views", "inputs", "bleu", "chrf", "metrics", "lessons", "exercises", "explorers", "web", "classroom", "ui"]

#: Below the user interfaces everything runs on the standard library alone (a plain terminal, Pyodide),
#: the tokenizers excepted (they import NLTK's and sacreBLEU's inside their functions).
STANDARD_LIBRARY_ONLY = [
    m
    for m in MODULES
    if m.split(".")[1] in ("views", "bleu", "chrf", "explorers", "web") and m != "bleu_teach.bleu.sacrebleu_api"
] + [
    "bleu_teach.inputs",
    "bleu_teach.inputs.validation",
    "bleu_teach.inputs.corpus_layout",
    "bleu_teach.inputs.optional",
    "bleu_teach.inputs.typed_text",
]

#: The modules allowed to count n-grams.
COUNTING = ["bleu_teach.bleu.counting", "bleu_teach.chrf.counting"]


def layer(module: str) -> int:
    return LAYERS.index(module.split(".")[1])


def imports(module: str) -> list[tuple[str, tuple[str, ...]]]:
    """(imported module, names) for every import at any depth, ``TYPE_CHECKING`` ones included."""
    tree = ast.parse(FILES[module].read_text(encoding="utf-8"))
    found: list[tuple[str, tuple[str, ...]]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.extend((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, tuple(alias.name for alias in node.names)))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


@functools.cache
def package_edges() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for module in MODULES:
        for target, names in imports(module):
            if target.startswith("bleu_teach"):
                # "from bleu_teach.bleu import counting" imports the module bleu_teach.bleu.counting
                edges[module].update(f"{target}.{n}" for n in names if f"{target}.{n}" in FILES)
                edges[module].add(target)
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


def test_the_views_import_nothing_but_the_views():
    # Reports import the views to show themselves; the views know no report type (not even for the type checker).
    for module in MODULES:
        if module.startswith("bleu_teach.views"):
            assert {t for t in package_edges()[module] if not t.startswith("bleu_teach.views")} == set(), module


def test_every_import_points_down_the_layers():
    for module in MODULES:
        if module.count(".") < 2:
            continue
        for target in package_edges()[module]:
            assert layer(target) <= layer(module), f"{module} imports {target}, a layer above it"


def test_no_module_shadows_a_standard_library_module():
    assert [m for m in MODULES if m.rsplit(".", 1)[1] in sys.stdlib_module_names] == []


@pytest.mark.parametrize("module", MODULES)
def test_no_module_is_over_600_lines(module):
    lines = FILES[module].read_text(encoding="utf-8").count("\n")
    assert lines <= 600, f"{module} has {lines} lines: split it"


def test_no_module_imports_the_package_root():
    for module in MODULES:
        assert all(target != "bleu_teach" for target, _ in imports(module)), module


def assert_no_cycle(edges: dict[str, set[str]]) -> None:
    """Fail naming the first import cycle found in ``edges`` (module -> the modules it imports)."""
    state: dict[str, int] = {}

    def walk(module: str, path: list[str]) -> None:
        state[module] = 1
        for target in sorted(edges[module]):
            if state.get(target) == 1:
                pytest.fail("import cycle: " + " -> ".join(path + [module, target]))
            if target not in state:
                walk(target, path + [module])
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            walk(module, [])


def test_the_import_graph_has_no_cycle():
    assert_no_cycle(package_edges())


@pytest.mark.parametrize("module", STANDARD_LIBRARY_ONLY)
def test_the_core_layers_need_only_the_standard_library(module):
    for target, _ in imports(module):
        top = target.split(".")[0]
        assert top == "bleu_teach" or top in sys.stdlib_module_names, f"{module} imports {target}"


def test_only_the_counting_modules_count_ngrams():
    # Counting n-grams means building a Counter, or zipping shifted slices: zip(*(...)).
    for module in MODULES:
        if module in COUNTING:
            continue
        tree = ast.parse(FILES[module].read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            assert name != "Counter", f"{module} line {node.lineno} builds a Counter"
            if name == "zip":
                shifted = [
                    a
                    for a in node.args
                    if isinstance(a, ast.Starred)
                    and isinstance(a.value, ast.GeneratorExp)
                    and any(isinstance(n, ast.Slice) for n in ast.walk(a.value))
                ]
                assert not shifted, f"{module} line {node.lineno} zips shifted slices into n-grams"


_TAG = re.compile(r"<(p|div|table|tr|td|th|span|b|br|h\d|ul|li|sub|sup|style|img)\b[^>]*>", re.IGNORECASE)


def _strings_outside_docstrings(module: str) -> list[str]:
    tree = ast.parse(FILES[module].read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_all_html_is_written_by_the_rendering_layer():
    for module in MODULES:
        if module.startswith("bleu_teach.views"):
            continue
        offending = [s for s in _strings_outside_docstrings(module) if _TAG.search(s)]
        assert offending == [], f"{module} writes HTML: {offending[:3]}"


# ---------------------------------------------------------------------------
# The website's package (bleu_teach_site): above bleu_teach, never below it, and held to the same rules
# ---------------------------------------------------------------------------

SITE = PACKAGE.parent / "bleu_teach_site"
SITE_FILES = {"bleu_teach_site" + ("" if p.stem == "__init__" else f".{p.stem}"): p for p in sorted(SITE.glob("*.py"))}


def _site_imports(module: str) -> list[tuple[str, tuple[str, ...]]]:
    found: list[tuple[str, tuple[str, ...]]] = []
    for node in ast.walk(ast.parse(SITE_FILES[module].read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((alias.name, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.module, tuple(alias.name for alias in node.names)))
    return found


def test_the_package_never_imports_the_website():
    for module in MODULES:
        assert not [t for t, _ in imports(module) if t.split(".")[0] == "bleu_teach_site"], module


def test_the_websites_modules_have_no_import_cycle_and_no_private_names():
    edges: dict[str, set[str]] = {}
    for module in SITE_FILES:
        edges[module] = set()
        for target, names in _site_imports(module):
            if target.split(".")[0] == "bleu_teach":
                assert not any(p.startswith("_") for p in target.split(".")[1:]), f"{module}: import {target}"
                assert not [n for n in names if n.startswith("_")], f"{module}: from {target} import {names}"
            if target.split(".")[0] == "bleu_teach_site":
                edges[module].update(f"{target}.{n}" for n in names if f"{target}.{n}" in SITE_FILES)
                edges[module].update({target} & set(SITE_FILES) - {"bleu_teach_site"})
    assert_no_cycle(edges)
    assert len(SITE_FILES) >= 8 and sum(len(targets) for targets in edges.values()) >= 8


@pytest.mark.parametrize("module", sorted(SITE_FILES))
def test_no_website_module_is_over_600_lines_or_edits_the_import_path(module):
    source = SITE_FILES[module].read_text(encoding="utf-8")
    assert source.count("\n") <= 600, f"{module}: split it"
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr == "path" and isinstance(node.value, ast.Name):
            assert node.value.id != "sys", f"{module} line {node.lineno} edits sys.path"
