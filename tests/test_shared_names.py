"""The names the package's Python and the pages' scripts share, written once: in bleu_teach/web/names.py.

Each folder of scripts served on its own holds ``names.js`` as ``scripts/shared_names.py`` writes it from the
Python (and the site's ``request.js`` is the classroom's, copied); no script spells a shared name itself; the
Python that uses a name is held to it; and the live explorer's links, made by the build in Python and by the
pages in JavaScript, are the same for the same examples (tests/fixtures/explorer_links.json, which
tests/js/live_data.test.mjs reads too).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bleu_teach.classroom import guard
from bleu_teach.explorers.definitions import EXPLORERS
from bleu_teach.web import names, page
from bleu_teach_site.lessons import Preset

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = (ROOT / "bleu_teach_site" / "static", ROOT / "bleu_teach" / "classroom" / "static")
REGENERATE = "python scripts/shared_names.py"
LINKS = json.loads((ROOT / "tests" / "fixtures" / "explorer_links.json").read_text(encoding="utf-8"))["examples"]


def script() -> ModuleType:
    sys.path.insert(0, str(ROOT / "scripts"))
    import shared_names

    return shared_names


def test_each_copy_is_what_the_script_writes() -> None:
    made = script().files()
    assert {path.name for path in made} == {"names.js", "request.js"}
    assert {path.parent for path in made if path.name == "names.js"} == set(FOLDERS)
    for path, text in made.items():
        shown = path.relative_to(ROOT)
        assert path.is_file(), f"{shown} is missing: run {REGENERATE}"
        assert path.read_text(encoding="utf-8") == text, (
            f"{shown} is not what bleu_teach/web/names.py and bleu_teach/classroom/static/request.js say: run "
            f"{REGENERATE} (and edit those two, never the copies)"
        )


def test_names_js_holds_every_name_of_the_python() -> None:
    text = script().names_js()
    public = [name for name in vars(names) if name.isupper()]
    assert len(public) >= 10
    for name in public:
        value = getattr(names, name)
        assert f"export const {name} = " in text, name
        for each in value.values() if isinstance(value, dict) else [value]:
            assert json.dumps(each) in text, (name, each)


#: The shared names a script could spell as a literal by mistake: the header, the storage keys, the functions the
#: pages call, the explorer's page and its two parameters that are no control's name.
SPELLED = [
    names.WRITE_HEADER,
    names.ANSWERS_KEY,
    names.PRACTICE_KEY,
    names.WIDGETS_KEY,
    names.CLASS_KEY,
    names.OUTBOX_KEY,
    names.EXPLORER_KEY,
    *names.PAGE_FUNCTIONS.values(),
    names.EXPLORER_PAGE,
    names.EXPLORER_PARAMETERS["hypothesis"],
    names.EXPLORER_PARAMETERS["references"],
]
SCRIPTS = sorted(p for folder in FOLDERS for p in folder.glob("*.js") if p.name not in ("names.js",))


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.name}")
def test_no_script_spells_a_shared_name_itself(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for name in SPELLED:
        quoted = re.compile(rf"""["'`]{re.escape(name)}["'`]""", re.IGNORECASE)
        assert not quoted.search(text), f"{path.name} spells {name!r}: import it from names.js"
    if path.name in ("python.js", "python_worker.js"):  # the messages between a page and its worker
        for kind in (names.START_MESSAGE, names.CALL_MESSAGE, names.PROGRESS_MESSAGE):
            assert f'"{kind}"' not in text, f"{path.name} spells the message kind {kind!r}: import it from names.js"


def test_the_server_checks_the_header_the_pages_send() -> None:
    assert guard.WRITE_HEADER == names.WRITE_HEADER.lower().encode() == b"x-bleu-teach"
    assert names.WRITE_HEADER_VALUE == "1"


def test_the_functions_the_pages_call_are_the_python_pages() -> None:
    for name in names.PAGE_FUNCTIONS.values():
        assert callable(getattr(page, name, None)), f"bleu_teach.web.page has no function {name}"


def test_the_explorers_address_names_the_bleu_explorers_controls() -> None:
    controls = [control.name for control in EXPLORERS["BleuExplorer"].controls]
    assert set(names.EXPLORER_PARAMETERS) <= set(controls)
    assert len(set(names.EXPLORER_PARAMETERS.values())) == len(names.EXPLORER_PARAMETERS)


@pytest.mark.parametrize("case", LINKS, ids=lambda case: case["href"][:40])
def test_the_builds_explorer_links_are_the_pages(case: dict[str, Any]) -> None:
    # The same examples as tests/js/live_data.test.mjs gives live_data.js explorerHref: the same links.
    example = case["example"]
    preset = Preset(
        "",
        example["hypothesis"],
        tuple(example["references"]),
        example["tokenizer"],
        example["lowercase"],
        example["max_n"],
        example["weights"],
        example["smoothing"],
    )
    assert preset.url() == case["href"]
