"""Write the scripts' copies of what the two folders of scripts and the package share.

* ``names.js``, from ``bleu_teach/web/names.py`` (the names the Python and the scripts share: the classroom's write
  header, the storage keys, the worker's messages, the live explorer's address), into each folder of scripts
  served on its own: the site's, ``bleu_teach_site/static/``, and the classroom server's,
  ``bleu_teach/classroom/static/`` (the server serves only that folder, at ``/class/static``).
* ``request.js`` (how a page writes to the classroom server, and the ids of answers and votes), written in the
  classroom server's folder and copied into the site's: the lesson pages send answers to the server too.

The files are committed (the site's build and the server serve them as they are), and
``tests/test_shared_names.py`` fails while one is not what this script writes. Run from the project's root after
changing ``bleu_teach/web/names.py`` or ``bleu_teach/classroom/static/request.js``::

    python scripts/shared_names.py
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from bleu_teach.web import names

ROOT = Path(__file__).resolve().parent.parent
NAMES = ROOT / "bleu_teach" / "web" / "names.py"
#: The folders of scripts served on their own: each gets its copy of names.js.
FOLDERS = (ROOT / "bleu_teach_site" / "static", ROOT / "bleu_teach" / "classroom" / "static")
#: The classroom's request.js, and its copy in the site's folder.
REQUEST = ROOT / "bleu_teach" / "classroom" / "static" / "request.js"
REQUEST_COPY = ROOT / "bleu_teach_site" / "static" / "request.js"
COMMAND = "python scripts/shared_names.py"
_IDENTIFIER = re.compile(r"^[A-Za-z_$][\w$]*$")


def _doc(lines: list[str], line: int) -> list[str]:
    """The ``#:`` comment right above line ``line`` (1-based) of the source, without its marks."""
    found: list[str] = []
    k = line - 2
    while k >= 0 and lines[k].startswith("#:"):
        found.insert(0, lines[k][2:].strip())
        k -= 1
    return found


def _value(value: object) -> str:
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        keys = [k if _IDENTIFIER.match(k) else json.dumps(k) for k in value]
        body = "".join(f"  {k}: {json.dumps(v)},\n" for k, v in zip(keys, value.values()))
        return "Object.freeze({\n" + body + "})"
    raise TypeError(f"bleu_teach/web/names.py: {value!r} is neither a text nor a dict of texts (all names.js holds).")


def names_js() -> str:
    """names.js: each constant of bleu_teach/web/names.py, in its order, with its ``#:`` comment as its doc."""
    source = NAMES.read_text(encoding="utf-8")
    lines = source.split("\n")
    out = [
        "// Written by scripts/shared_names.py from bleu_teach/web/names.py: do not edit. Change the Python, then run",
        f"// {COMMAND} (tests/test_shared_names.py fails while a copy differs). The names the Python",
        "// and the pages' scripts share; the site's scripts and the classroom server's each have this same copy.",
    ]
    for node in ast.parse(source).body:
        if not (isinstance(node, (ast.Assign, ast.AnnAssign))):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if len(targets) != 1 or not isinstance(targets[0], ast.Name) or not targets[0].id.isupper():
            continue
        name = targets[0].id
        doc = _doc(lines, node.lineno)
        out.append("")
        if len(doc) == 1:
            out.append(f"/** {doc[0]} */")
        elif doc:
            out += ["/**", *(f" * {line}" for line in doc), " */"]
        out.append(f"export const {name} = {_value(getattr(names, name))};")
    return "\n".join(out) + "\n"


def request_copy() -> str:
    """The site's copy of the classroom's request.js, under a line that says where to edit it."""
    return (
        "// A copy of bleu_teach/classroom/static/request.js, written by scripts/shared_names.py: do not edit. Edit"
        f"\n// that file, then run {COMMAND} (tests/test_shared_names.py fails while this copy differs).\n"
        + REQUEST.read_text(encoding="utf-8")
    )


def files() -> dict[Path, str]:
    """Each file this script writes, and what it holds."""
    made = {folder / "names.js": names_js() for folder in FOLDERS}
    made[REQUEST_COPY] = request_copy()
    return made


def main() -> None:
    for path, text in files().items():
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
