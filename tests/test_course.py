"""One course manifest (notebooks/course.toml): every place that names the lessons, their order and their times
says what it says: each lesson's title cell and **Next:** link, lesson 00's map, the README's table, the site."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bleu_teach_site import course

PROJECT = Path(__file__).resolve().parents[1]

ENTRIES = course.course()


def _markdown(entry: course.Entry) -> list[str]:
    cells = json.loads((course.NOTEBOOKS / entry.file).read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def test_the_manifest_lists_every_lesson_in_order():
    assert [e.file for e in ENTRIES] == sorted(p.name for p in course.NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    assert [e.number for e in ENTRIES] == [f"{k:02d}" for k in range(len(ENTRIES))]


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.stem)
def test_each_title_cell_says_the_manifests_title_and_time(entry: course.Entry):
    first = _markdown(entry)[0]
    assert first.splitlines()[0] == f"# {entry.number} · {entry.title}"
    assert f"**Time:** about {entry.minutes} minutes." in first


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.stem)
def test_each_next_link_goes_to_the_manifests_next_lesson(entry: course.Entry):
    links = [line for text in _markdown(entry) for line in text.splitlines() if line.startswith("**Next:**")]
    assert len(links) == 1, links
    index = ENTRIES.index(entry)
    if index + 1 == len(ENTRIES):
        assert "last lesson" in links[0] and f"]({ENTRIES[0].file})" in links[0]
        return
    after = ENTRIES[index + 1]
    found = re.search(r"\[([^\]]+)\]\(([^)]+)\)", links[0])
    assert found and found.group(2) == after.file, links[0]
    assert found.group(1) in (f"{after.number} {after.title}", f"{after.number} {after.short}"), links[0]


def test_lesson_00s_map_lists_every_lesson_in_the_manifests_order_with_its_time():
    (table,) = [text for text in _markdown(ENTRIES[0]) if "| Lesson | What it teaches | About |" in text]
    rows = [line for line in table.splitlines() if line.startswith("| [")]
    assert len(rows) == len(ENTRIES)
    for row, entry in zip(rows, ENTRIES):
        assert row.startswith(f"| [{entry.number} {entry.short}]({entry.file}) |"), row
        assert row.endswith(f"| {entry.minutes} min |"), row


def test_the_readme_table_is_made_from_the_manifest():
    readme = course.README.read_text(encoding="utf-8")
    assert course.readme_with_table(readme, ENTRIES) == readme, (
        "the README's lessons table is stale: run python -m bleu_teach_site.course"
    )


def test_a_manifest_out_of_step_with_the_notebooks_is_refused(tmp_path: Path):
    (tmp_path / "00_a.ipynb").write_text("{}")
    (tmp_path / "course.toml").write_text(
        '[[lesson]]\nfile = "01_a.ipynb"\ntitle = "A"\nshort = "A"\nminutes = 5\nteaches = "a"\n', encoding="utf-8"
    )
    with pytest.raises(SystemExit, match="numbered 00, 01, ... in order"):
        course.course(tmp_path)
    (tmp_path / "course.toml").write_text('[[lesson]]\nfile = "00_a.ipynb"\ntitle = "A"\n', encoding="utf-8")
    with pytest.raises(SystemExit, match="needs file, title, short, minutes and teaches"):
        course.course(tmp_path)


GLOSSARY = course.NOTEBOOKS / "GLOSSARY.md"


def test_every_glossary_link_in_a_lesson_has_its_entry_and_the_entries_are_in_alphabetical_order():
    text = GLOSSARY.read_text(encoding="utf-8")
    anchors = re.findall(r'<a id="([^"]+)"></a>', text)
    for entry in ENTRIES:
        for anchor in re.findall(r"\]\(GLOSSARY\.md#([^)]+)\)", "\n".join(_markdown(entry))):
            assert anchor in anchors, (entry.file, anchor)
    headings = [h for h in re.findall(r"^## (.+)$", text, re.M) if not h[0].isdigit()]  # 13a sorts as a number
    assert headings == sorted(headings, key=str.lower)
