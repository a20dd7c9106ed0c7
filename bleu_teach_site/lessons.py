"""The lessons as the site's pages: read in the course manifest's order, exported by nbconvert, linked.

Each lesson's title cell gives its "You will learn" line; the course
manifest (``notebooks/course.toml``, :mod:`bleu_teach_site.course`) gives the
order, titles and times. A page is the stored notebook exported with
nbconvert's ``lab`` template (``templates/site_lesson.html.j2``) and the
site's Markdown renderer (:mod:`bleu_teach_site.markdown`: links to the
site's pages, the contents list from the notebook's own headings), with a
link into the live explorer under every explorer that holds text.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from bleu_teach.explorers.saved import saved_explorers
from bleu_teach.web.names import EXPLORER_PAGE, EXPLORER_PARAMETERS
from bleu_teach_site import course, markdown, slides
from bleu_teach_site.browser_python import NO_PYTHON, BrowserPython
from bleu_teach_site.paths import NOTEBOOKS, PROJECT, TEMPLATES


@dataclass(eq=False)
class Lesson:
    path: Path
    number: str
    title: str
    learn: str
    minutes: int
    prev: Lesson | None = field(default=None, repr=False)
    #: How many widgets and exercises its page makes live (set by export_lesson).
    live: dict[str, int] = field(default_factory=dict)
    next: Lesson | None = field(default=None, repr=False)

    @property
    def page(self) -> str:
        return f"{self.path.stem}.html"

    @property
    def download(self) -> str:
        return f"notebooks/{self.path.name}"

    def learn_html(self, pages: dict[str, str]) -> str:
        """The "You will learn" line as HTML, its links pointing at the site's pages (the lessons' own markdown)."""
        return markdown.render_inline(self.learn, pages)


def _line(text: str, label: str, path: Path) -> str:
    match = re.search(rf"^\*\*{re.escape(label)}\*\*\s*(.+)$", text, re.MULTILINE)
    if match is None:
        raise SystemExit(f"{path.name}: the title cell has no '**{label}**' line (CONTRIBUTING: the lesson skeleton).")
    return match.group(1).strip()


def read_lesson(path: Path) -> Lesson:
    """Number, title, "You will learn" and minutes from the lesson's title cell (# NN · Title, then three lines)."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    first = "".join(notebook["cells"][0]["source"])
    heading = re.match(r"#\s*(\d\d)\s*·\s*(.+)", first)
    if heading is None:
        raise SystemExit(f"{path.name}: the first cell must be the title '# NN · Title'.")
    time_line = _line(first, "Time:", path)
    minutes = re.search(r"(\d+)\s*minutes", time_line)
    if minutes is None:
        raise SystemExit(f"{path.name}: the **Time:** line must say 'about N minutes', not {time_line!r}.")
    learn = _line(first, "You will learn:", path)
    return Lesson(path, heading.group(1), heading.group(2).strip(), learn, int(minutes.group(1)))


def lessons(folder: Path = NOTEBOOKS) -> list[Lesson]:
    """Every lesson in the course manifest's order (notebooks/course.toml), linked to its neighbours.

    The manifest gives the order, the titles and the times; each lesson's title cell must say the same (it gives
    the "You will learn" line), so that the notebook and the site never disagree.
    """
    found = []
    for entry in course.course(folder):
        lesson = read_lesson(folder / entry.file)
        if (lesson.title, lesson.minutes) != (entry.title, entry.minutes):
            raise SystemExit(
                f"{entry.file}: its title cell says {lesson.title!r}, about {lesson.minutes} minutes; "
                f"the course manifest says {entry.title!r}, {entry.minutes}: make them agree."
            )
        found.append(lesson)
    for before, after in zip(found, found[1:]):
        before.next, after.prev = after, before
    return found


# ---------------------------------------------------------------------------
# Links into the live explorer, read from the explorers' saved widget state
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Preset:
    """One example for the live explorer: what a notebook explorer showed, as the explorer's settings."""

    label: str
    hypothesis: str
    references: tuple[str, ...]
    tokenizer: str = "whitespace"
    lowercase: bool = False
    max_n: int = 4
    weights: str = ""
    smoothing: str = "method0"

    def query(self) -> str:
        """The explorer's URL query: hyp, ref (once per reference), n, weights (trimmed; left out when blank:
        uniform weights), smoothing, tokenizer, lowercase (1 or 0), by bleu_teach.web.names's parameter names.
        The pages' scripts make their links the same way (static/live_data.js explorerQuery;
        tests/fixtures/explorer_links.json holds both to the same examples)."""
        names = EXPLORER_PARAMETERS
        pairs = [
            (names["hypothesis"], self.hypothesis),
            *((names["references"], r) for r in self.references),
            (names["max_n"], str(self.max_n)),
        ]
        if self.weights.strip():
            pairs.append((names["weights"], self.weights.strip()))
        pairs += [
            (names["smoothing"], self.smoothing),
            (names["tokenizer"], self.tokenizer),
            (names["lowercase"], "1" if self.lowercase else "0"),
        ]
        return urlencode(pairs)

    def url(self) -> str:
        return f"{EXPLORER_PAGE}?{self.query()}"

    def state(self) -> dict[str, Any]:
        """The BLEU explorer's values for this example (the explorer page's own example), report not compact."""
        return {
            "hypothesis": self.hypothesis,
            "references": list(self.references),
            "tokenizer": self.tokenizer,
            "lowercase": self.lowercase,
            "max_n": self.max_n,
            "weights": self.weights,
            "smoothing": self.smoothing,
            "compact": False,
            "show_settings": True,
        }


def notebook_presets(notebook: Any) -> dict[int, list[Preset]]:
    """For each code cell showing an explorer that opens in the live explorer: its index and those examples.

    Each explorer's declaration says which examples it opens (``Explorer.links``, from its saved values,
    read by name with :func:`bleu_teach.explorers.saved.saved_explorers`).
    """
    found: dict[int, list[Preset]] = {}
    for index, explorer, values in saved_explorers(notebook):
        links = explorer.links(values) if explorer.links is not None else []
        if links:
            found[index] = [
                Preset(
                    label,
                    link["hypothesis"],
                    tuple(link["references"]),
                    link["tokenizer"],
                    link["lowercase"],
                    link["max_n"],
                    link["weights"].strip(),
                    link["smoothing"],
                )
                for label, link in links
            ]
    return found


def _explorer_links_html(links: list[Preset], slide: bool = False) -> str:
    items = []
    for preset in links:
        which = f" ({html.escape(preset.label)})" if preset.label else ""
        items.append(
            f'<a class="live-explorer-link" href="{html.escape(preset.url(), quote=True)}">'
            f"Open this example{which} in the live explorer</a>"
        )
    if slide:  # small and tight, so that the explorer's slide still fits the screen
        return f'<p class="live-explorer" style="font-size: 0.55em; margin: 0">&#9654; {" · ".join(items)}</p>'
    return f'<p class="live-explorer">&#9654; {" · ".join(items)}: it runs in your browser, nothing to install.</p>'


def add_explorer_links(notebook: Any, slide: bool = False) -> int:
    """Insert a markdown cell with live-explorer links after every explorer that holds text; return how many."""
    import nbformat

    count = 0
    for index in sorted(notebook_presets(notebook), reverse=True):
        links = notebook_presets(notebook)[index]
        cell = nbformat.v4.new_markdown_cell(_explorer_links_html(links, slide))
        if slide:
            cell.metadata["slideshow"] = {"slide_type": "-"}  # on the explorer's own slide
        notebook["cells"].insert(index + 1, cell)
        count += len(links)
    return count


# ---------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------


def environment() -> Any:
    import jinja2

    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES / "site"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )


def export_lesson(
    lesson: Lesson, out_dir: Path, pages: dict[str, str], live: Any = None, python: BrowserPython = NO_PYTHON
) -> int:
    """Write the lesson's page; return the number of live-explorer links in it.

    ``live(notebook)`` turns its widgets and exercises into live forms (bleu_teach_site.live.make_live) and returns
    how many of each; the counts are kept in ``lesson.live``. ``python`` names the archives a live page unpacks
    into Pyodide's site-packages (the package's wheel first) and their build.
    """
    import nbformat
    from traitlets.config import Config

    notebook = nbformat.read(lesson.path, as_version=4)
    links = add_explorer_links(notebook)
    if live is not None:
        lesson.live = live(notebook)
    config = Config()
    config.HTMLExporter.exclude_input_prompt = True
    config.HTMLExporter.exclude_output_prompt = True
    for key, value in slides.URLS.items():
        if key != "reveal_url_prefix":
            setattr(config.HTMLExporter, key, value)
    exporter = markdown.make_exporter(pages, config=config, template_file=str(TEMPLATES / "site_lesson.html.j2"))
    resources = {
        "site": {
            "lesson": lesson,
            "links": links,
            "contents": markdown.contents(notebook["cells"], pages),
            "python": python,
        },
        "metadata": {"name": f"{lesson.number} · {lesson.title}"},
    }
    body, _ = exporter.from_notebook_node(notebook, resources=resources)
    (out_dir / lesson.page).write_text(without_cell_tab_stops(body), encoding="utf-8")
    return links


#: nbconvert's HTML exporter makes every cell's input and every output a tab stop (91 on lesson 08), though none of
#: them is a control; the page's script (site_lesson.html.j2) makes a box a tab stop only while it scrolls sideways.
_CELL_TAB_STOP = re.compile(
    r'(<div class="[^"]*\b(?:jp-Cell-inputWrapper|jp-OutputArea-output)\b[^"]*"[^>]*?)\s+tabindex="0"'
)


def without_cell_tab_stops(page: str) -> str:
    """The exported page without nbconvert's tab stop on each cell's input and output.

    >>> without_cell_tab_stops('<div class="jp-Cell-inputWrapper" tabindex="0"><input tabindex="0">')
    '<div class="jp-Cell-inputWrapper"><input tabindex="0">'
    """
    return _CELL_TAB_STOP.sub(r"\1", page)


def export_glossary(out_dir: Path, templates: Any, pages: dict[str, str]) -> None:
    """notebooks/GLOSSARY.md as the site's glossary.html, its links pointing at the site's pages."""
    body = markdown.render((NOTEBOOKS / "GLOSSARY.md").read_text(encoding="utf-8"), pages)
    page = templates.get_template("glossary.html.j2").render(body=body)
    (out_dir / "glossary.html").write_text(page, encoding="utf-8")


#: The guide's table of exercises (answers and misconceptions), made by scripts/solutions.py between these markers,
#: and the line that introduces it.
GUIDE_TABLE = ("<!-- exercises: made by scripts/solutions.py -->", "<!-- end of exercises -->")
GUIDE_TABLE_INTRO = "The table below is made from the bank"
GUIDE_TABLE_LEFT_OUT = (
    "The table of every exercise with its answer and the mistakes its checker names is left out of this page, which "
    "students can open too: it is in the guide that comes with the project, and in the answer key "
    "(`python -m bleu_teach exercises key --out key/`)."
)


def export_guide(out_dir: Path, templates: Any, pages: dict[str, str]) -> None:
    """TEACHERS_GUIDE.md as the site's teachers.html, without its table of answers (students can open the page)."""
    text = (PROJECT / "TEACHERS_GUIDE.md").read_text(encoding="utf-8")
    before, start, rest = text.partition(GUIDE_TABLE[0])
    _, end, after = rest.partition(GUIDE_TABLE[1])
    if not start or not end:
        raise SystemExit("TEACHERS_GUIDE.md: the exercise table's markers are missing; run make solutions.")
    kept, _, last = before.rstrip().rpartition("\n")
    if not last.startswith(GUIDE_TABLE_INTRO):
        kept = before.rstrip()
    body = markdown.render(f"{kept}\n\n{GUIDE_TABLE_LEFT_OUT}\n\n{after.lstrip()}", pages)
    page = templates.get_template("teachers.html.j2").render(body=body)
    (out_dir / "teachers.html").write_text(page, encoding="utf-8")
