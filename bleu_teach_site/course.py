"""The course manifest (notebooks/course.toml): the lessons in order, each with its title, time and what it teaches.

The website's learning path and navigation are made from it (bleu_teach_site.lessons), the README's lessons
table is written from it by running this module, and tests/test_course.py checks that each lesson's title cell, its
**Next:** link and lesson 00's map agree with it.

    python -m bleu_teach_site.course        # rewrite the README's lessons table from the manifest
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from bleu_teach_site.paths import NOTEBOOKS, PROJECT

MANIFEST = "course.toml"
README = PROJECT / "README.md"
TABLE_START = "<!-- lessons: made by python -m bleu_teach_site.course from notebooks/course.toml -->"
TABLE_END = "<!-- end of lessons -->"


@dataclass(frozen=True)
class Entry:
    """One lesson of the manifest."""

    file: str
    title: str
    short: str
    minutes: int
    teaches: str

    @property
    def number(self) -> str:
        return self.file[:2]

    @property
    def stem(self) -> str:
        return Path(self.file).stem


def course(folder: Path = NOTEBOOKS) -> list[Entry]:
    """The manifest's lessons in order; a clear ``SystemExit`` if it is missing, malformed or out of step."""
    path = folder / MANIFEST
    if not path.is_file():
        raise SystemExit(f"{path}: the course manifest is missing (CONTRIBUTING: adding a lesson).")
    found = tomllib.loads(path.read_text(encoding="utf-8")).get("lesson", [])
    entries = []
    for index, item in enumerate(found):
        try:
            entry = Entry(
                str(item["file"]), str(item["title"]), str(item["short"]), int(item["minutes"]), str(item["teaches"])
            )
        except (KeyError, TypeError, ValueError) as problem:
            raise SystemExit(
                f"{path}: lesson {index + 1} needs file, title, short, minutes and teaches ({problem!r})."
            ) from None
        if not re.fullmatch(r"\d\d_\w+\.ipynb", entry.file) or entry.minutes < 1:
            raise SystemExit(f"{path}: {entry.file!r} is not a lesson file NN_topic.ipynb with its minutes.")
        if entry.number != f"{index:02d}":
            raise SystemExit(
                f"{path}: lesson {index + 1} is {entry.file}; the lessons are numbered 00, 01, ... in order."
            )
        entries.append(entry)
    on_disk = sorted(p.name for p in folder.glob("[0-9][0-9]_*.ipynb"))
    if on_disk != [e.file for e in entries]:
        raise SystemExit(
            f"{path} lists {[e.file for e in entries]} but {folder} holds {on_disk}: add or remove "
            f"the lesson in the manifest."
        )
    return entries


def readme_table(entries: list[Entry]) -> str:
    """The README's lessons table, between its markers."""
    rows = [f"| `{e.stem}` | {e.teaches} | {e.minutes} min |" for e in entries]
    table = "\n".join(["| Lesson | What it teaches | About |", "|---|---|---|", *rows])
    return f"{TABLE_START}\n\n{table}\n\n{TABLE_END}"


def readme_with_table(readme: str, entries: list[Entry]) -> str:
    """The README with its lessons table made from the manifest."""
    pattern = re.compile(re.escape(TABLE_START) + ".*?" + re.escape(TABLE_END), re.S)
    if not pattern.search(readme):
        raise SystemExit(f"README.md has no lessons table between {TABLE_START} and {TABLE_END}.")
    return pattern.sub(lambda _: readme_table(entries), readme)


def main() -> None:
    text = README.read_text(encoding="utf-8")
    README.write_text(readme_with_table(text, course()), encoding="utf-8")
    print(f"wrote the lessons table of {README.name} from notebooks/{MANIFEST}")


if __name__ == "__main__":
    main()
