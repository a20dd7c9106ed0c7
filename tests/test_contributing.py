"""CONTRIBUTING.md's module map, held to the code.

The fenced block under "## The shape of the package" names every module of the
package, folder by folder. In a folder's section, outside parentheses, there are
only module names, ``->`` and ``·``: ``a -> b`` says that module b imports module
a (b is built on a), ``·`` separates modules with no claim between them, and
text in parentheses describes the module before it (prose: never checked). An
arrow claims only about its two neighbours, so a folder is written as short
chains, a module named again wherever another chain needs it.

Imports are read from the source with ``ast``, as ``tests/test_layers.py`` reads
them: every import counts, lazy ones inside functions and ``if TYPE_CHECKING:``
ones too.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "bleu_teach"
CONTRIBUTING = ROOT / "CONTRIBUTING.md"
HEADING = "## The shape of the package"
ARROW, SEPARATOR = "->", "·"
#: The package's modules outside any folder that the map names by their file name (``__init__`` and ``__main__``
#: aside).
TOP_LEVEL = sorted(p.name for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__"))
#: Each folder of the package (a subpackage) and its modules, without ``__init__`` (``classroom/migrations``, a
#: folder inside a folder, is not one of them).
FOLDERS = {
    d.name: sorted(p.stem for p in d.glob("*.py") if p.stem != "__init__")
    for d in sorted(PACKAGE.iterdir())
    if (d / "__init__.py").is_file()
}
HOW = (
    "In the map, outside parentheses, write only module names, `->` and `·` (`a -> b`: b imports a); put "
    "descriptions in parentheses after a module's name."
)


def map_block(text: str) -> str:
    """The fenced block under the heading "## The shape of the package"."""
    assert HEADING in text, f"CONTRIBUTING.md has no heading {HEADING!r}: the module map must follow it."
    after = text.split(HEADING, 1)[1]
    fence = re.search(r"^```[^\n]*\n(.*?)^```", after, flags=re.MULTILINE | re.DOTALL)
    assert fence, f"CONTRIBUTING.md has no fenced block (```) under {HEADING!r}: the module map goes there."
    return fence.group(1)


def without_parentheses(block: str) -> str:
    """The block with every parenthesized text (nested ones included, across lines) replaced by a space."""
    kept: list[str] = []
    depth = 0
    opened = ""
    for number, line in enumerate(block.split("\n"), 1):
        for character in line:
            if character == "(":
                if depth == 0:
                    opened = f"line {number} of the block, {line.strip()[:70]!r}"
                depth += 1
            elif character == ")":
                depth -= 1
                assert depth >= 0, (
                    f"CONTRIBUTING.md's module map, line {number} of the block: a ')' closes no '(': "
                    f"{line.strip()!r}. Balance the parentheses of the descriptions."
                )
                if depth == 0:
                    kept.append(" ")
            elif depth == 0:
                kept.append(character)
        if depth == 0:
            kept.append("\n")
    assert depth == 0, f"CONTRIBUTING.md's module map: a '(' on {opened} is never closed. Balance the parentheses."
    return "".join(kept)


def sections(block: str) -> dict[str, list[str]]:
    """Each section's label (``ui/``, ``metrics.py``, ...) and the words outside parentheses that follow it.

    A section starts on a line with one space and its label; the lines below it continue it until a line
    holding only ``|`` (the layers' separator) or the next label.
    """
    found: dict[str, list[str]] = {}
    label = None
    for line in without_parentheses(block).split("\n"):
        if line.strip() in ("", "|"):
            if line.strip() == "|":
                label = None
            continue
        header = re.match(r"^ (\S+)(.*)$", line)
        if header:
            label, rest = header.groups()
            assert label not in found, f"CONTRIBUTING.md's module map has two sections {label!r}: merge them."
            found[label] = []
        else:
            rest = line
        assert label is not None, (
            f"CONTRIBUTING.md's module map: {line.strip()!r} stands outside any section (after a '|', "
            f"a section starts with its label, such as ' ui/')."
        )
        found[label].extend(rest.split())
    return found


def the_map() -> dict[str, list[str]]:
    return sections(map_block(CONTRIBUTING.read_text(encoding="utf-8")))


def imported(folder: str, module: str) -> set[str]:
    """The modules of ``folder`` that ``folder/module.py`` imports, at any depth of its source."""
    source = PACKAGE / folder / f"{module}.py"
    package = f"bleu_teach.{folder}"
    found: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(
                a.name[len(package) + 1 :].split(".")[0] for a in node.names if a.name.startswith(package + ".")
            )
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level == 1:  # from . import a, from .a import x
                target = f"{package}.{target}".rstrip(".")
            if target == package:
                found.update(a.name for a in node.names)
            elif target.startswith(package + "."):
                found.add(target[len(package) + 1 :].split(".")[0])
    return found & set(FOLDERS[folder])


def chains(label: str, words: list[str]) -> list[tuple[str, str]]:
    """The arrows of a section, ``(a, b)`` for each ``a -> b``, after checking that names and signs alternate."""
    arrows = []
    for k, word in enumerate(words):
        sign = word in (ARROW, SEPARATOR)
        if sign == (k % 2 == 0):
            where = " ".join(words[max(0, k - 2) : k + 3])
            raise AssertionError(
                f"CONTRIBUTING.md's module map, section {label}: {word!r} is out of place in '... {where} ...': "
                f"names and signs must alternate (name -> name · name), never two names or two signs in a row, "
                f"and no sign at a section's start or end. {HOW}"
            )
        if word == ARROW:
            arrows.append((words[k - 1], words[k + 1] if k + 1 < len(words) else ""))
    assert not words or words[-1] not in (ARROW, SEPARATOR), (
        f"CONTRIBUTING.md's module map, section {label}: it ends with {words[-1]!r}; end it with a module's name."
    )
    return arrows


def test_the_map_has_a_section_for_each_folder_and_top_level_module():
    labels = set(the_map())
    expected = {f"{folder}/" for folder in FOLDERS} | set(TOP_LEVEL) | {"bleu_teach/"}
    assert not labels - expected, (
        f"CONTRIBUTING.md's module map has sections {sorted(labels - expected)}, which are no folder of "
        f"bleu_teach/ (nor one of its top-level modules {TOP_LEVEL}): correct or remove them."
    )
    assert not expected - labels, (
        f"CONTRIBUTING.md's module map has no section for {sorted(expected - labels)}: add one, in its layer's place."
    )
    assert the_map()["bleu_teach/"] == [], "The map's first line is ' bleu_teach/' alone."
    for name in TOP_LEVEL:
        assert the_map()[name] == [], (
            f"CONTRIBUTING.md's module map, section {name}: {the_map()[name]} outside parentheses; the section "
            f"names {name} alone, and its description goes in parentheses."
        )


@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_every_name_in_a_folders_section_is_one_of_its_modules(folder: str):
    label = f"{folder}/"
    strangers = [w for w in the_map().get(label, []) if w not in (ARROW, SEPARATOR) and w not in FOLDERS[folder]]
    assert strangers == [], (
        f"CONTRIBUTING.md's module map, section {label}: {strangers} are not modules of bleu_teach/{folder}/ "
        f"(its modules: {', '.join(FOLDERS[folder])}). Correct the name, or put the text in parentheses. "
        f"{HOW}" + (" Arrows go one way only: `a -> b`, never `<-`." if "<-" in strangers else "")
    )


@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_every_module_of_a_folder_is_named_in_its_section(folder: str):
    named = set(the_map().get(f"{folder}/", []))
    missing = [m for m in FOLDERS[folder] if m not in named]
    assert missing == [], (
        f"CONTRIBUTING.md's module map does not name {', '.join(f'bleu_teach/{folder}/{m}.py' for m in missing)}: "
        f"add each to the {folder}/ section, after `->` from a module of the folder it imports (or after a `·`), "
        f"with a description in parentheses."
    )


@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_every_arrow_in_a_folders_section_is_an_import(folder: str):
    label = f"{folder}/"
    words = the_map().get(label, [])
    wrong = []
    for a, b in chains(label, words):
        if a in FOLDERS[folder] and b in FOLDERS[folder] and a not in imported(folder, b):
            imports = ", ".join(sorted(imported(folder, b))) or f"no module of {label}"
            wrong.append(f"`{a} -> {b}`: bleu_teach/{folder}/{b}.py does not import {a} (it imports {imports})")
    assert wrong == [], (
        f"CONTRIBUTING.md's module map, section {label}, claims imports that are not there (`a -> b` means b "
        f"imports a): " + "; ".join(wrong) + ". Turn the arrow round if a imports b, or write `·` between them."
    )


def test_the_reader_of_the_map_finds_what_it_must():
    # The checks above read what these functions find: each must see a module, an arrow and a description.
    block = " ui/        a (b -> (c)) -> d ·\n            e\n   |\n metrics.py (x)\n"
    assert sections(block) == {"ui/": ["a", "->", "d", "·", "e"], "metrics.py": []}
    assert chains("ui/", ["a", "->", "d", "·", "e"]) == [("a", "d")]
    with pytest.raises(AssertionError, match="alternate"):
        chains("ui/", ["a", "d"])
    with pytest.raises(AssertionError, match="closes no"):
        without_parentheses("a (b))")
    assert "typed_input" in imported("explorers", "views") and "views" not in imported("explorers", "typed_input")
    assert "bank" in imported("exercises", "unquoted")  # from bleu_teach.exercises.bank import ...
