"""Build bleu-teach as a static website that needs nothing installed: `make site` writes build/site/.

* ``index.html``: what the suite is, the learning path (read from the lessons'
  own title cells: title, "You will learn", "Time"), and links to every page.
* ``NN_topic.html`` for every ``notebooks/[0-9][0-9]_*.ipynb``: the stored
  lesson (prose, math, figures with their alt text) exported by nbconvert's
  ``lab`` template, with previous/next links, its contents, a download link,
  and a link into the live explorer under every explorer that holds text.
  Its widgets and exercises are live forms (``live_lessons.py``): bleu_teach
  runs them in the page on Pyodide (``bleu_teach.web.page``, ``site/lesson_live.js``).
* ``explorer.html``: the full step-by-step explorer, live: the BLEU explorer's
  form (the lesson pages' own, ``live_lessons.widget_html``) with its example
  kept in the address bar (``site/explorer.js``).  Pyodide's core (from the
  npm registry, ``vendor/pyodide/``) runs bleu_teach itself, from
  ``bleu_teach_site.zip`` (the package's standard-library modules, sacreBLEU's
  pure-Python tokenizers; the page runs ``bleu_teach.web.page``).
* ``bleu_in_10_minutes.slides.html``: the deck (scripts/build_slides.py), with
  the same explorer links; ``glossary.html``; ``notebooks/`` to download.

Every script, stylesheet and font comes from the site's own folder, so it works
from any static file server with the network off.  The explorer needs
http(s): from a page opened from disk, browsers run neither its module
script nor Pyodide's WebAssembly (the page then says how to serve it).
"""

from __future__ import annotations

import argparse
import ast
import html
import importlib.metadata
import importlib.util
import json
import re
import shutil
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

SCRIPTS = Path(__file__).resolve().parent
PROJECT = SCRIPTS.parent
sys.path.insert(0, str(SCRIPTS))
import build_slides  # noqa: E402
import course  # noqa: E402
from bleu_teach.explorers.declaration import Explorer  # noqa: E402
from bleu_teach.explorers.definitions import EXPLORERS  # noqa: E402
from bleu_teach.explorers.saved import saved_explorers  # noqa: E402
from bleu_teach.web import page  # noqa: E402

NOTEBOOKS = PROJECT / "notebooks"
PACKAGE = PROJECT / "bleu_teach"
TEMPLATES = SCRIPTS / "templates"
STATIC = SCRIPTS / "site"
#: The zip the explorer unpacks into Pyodide's file system.
PYTHON_ZIP = "bleu_teach_site.zip"
#: Modules the explorer page imports; everything they import at load time is shipped with them.
ENTRY_MODULES = ("bleu_teach", "bleu_teach.web.page", "bleu_teach.explorers.typed_input",
                 "bleu_teach.explorers.definitions", "bleu_teach.exercises.bank")
#: The package's data files the pages' Python reads (the exercise bank).
PACKAGE_DATA = ("exercises/bank.toml",)
LESSON_GLOB = "[0-9][0-9]_*.ipynb"


# ---------------------------------------------------------------------------
# The lessons, read from their own title cells
# ---------------------------------------------------------------------------

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
        from nbconvert.filters.markdown_mistune import markdown2html_mistune

        text = re.sub(r"\]\(([^)\s]+)\)", lambda m: "](" + _site_link(m.group(1), pages) + ")", self.learn)
        return re.sub(r"^<p>|</p>\s*$", "", markdown2html_mistune(text).strip())


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
            raise SystemExit(f"{entry.file}: its title cell says {lesson.title!r}, about {lesson.minutes} minutes; "
                             f"the course manifest says {entry.title!r}, {entry.minutes}: make them agree.")
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
        """The explorer's URL query: hyp, ref (once per reference), n, weights, smoothing, tokenizer, lowercase."""
        pairs = [("hyp", self.hypothesis), *(("ref", r) for r in self.references), ("n", str(self.max_n))]
        if self.weights:
            pairs.append(("weights", self.weights))
        pairs += [("smoothing", self.smoothing), ("tokenizer", self.tokenizer),
                  ("lowercase", "1" if self.lowercase else "0")]
        return urlencode(pairs)

    def url(self) -> str:
        return f"explorer.html?{self.query()}"

    def state(self) -> dict[str, Any]:
        """The BLEU explorer's values for this example (the explorer page's own example), report not compact."""
        return {"hypothesis": self.hypothesis, "references": list(self.references), "tokenizer": self.tokenizer,
                "lowercase": self.lowercase, "max_n": self.max_n, "weights": self.weights,
                "smoothing": self.smoothing, "compact": False, "show_settings": True}


def notebook_presets(notebook: Any) -> dict[int, list[Preset]]:
    """For each code cell showing an explorer that opens in the live explorer: its index and those examples.

    Each explorer's declaration says which examples it opens (``Explorer.links``, from its saved values,
    read by name with :func:`bleu_teach.explorers.saved.saved_explorers`).
    """
    found: dict[int, list[Preset]] = {}
    for index, explorer, values in saved_explorers(notebook):
        links = explorer.links(values) if explorer.links is not None else []
        if links:
            found[index] = [Preset(label, link["hypothesis"], tuple(link["references"]), link["tokenizer"],
                                   link["lowercase"], link["max_n"], link["weights"].strip(), link["smoothing"])
                            for label, link in links]
    return found


def _explorer_links_html(links: list[Preset], slide: bool = False) -> str:
    items = []
    for preset in links:
        which = f" ({html.escape(preset.label)})" if preset.label else ""
        items.append(f'<a class="live-explorer-link" href="{html.escape(preset.url(), quote=True)}">'
                     f"Open this example{which} in the live explorer</a>")
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

def _site_link(target: str, pages: dict[str, str]) -> str:
    """A notebook link as a site link: lessons to their pages, the glossary to its page."""
    path, hash_, anchor = target.partition("#")
    if path in pages:
        return pages[path] + hash_ + anchor
    return target


def relink(notebook: Any, pages: dict[str, str]) -> None:
    """Point the markdown cells' links to notebooks and to GLOSSARY.md at the site's pages."""
    pattern = re.compile(r"(\]\(|href=\")([^)\"\s]+)")
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            cell["source"] = pattern.sub(lambda m: m.group(1) + _site_link(m.group(2), pages), cell["source"])


def _environment() -> Any:
    import jinja2

    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES / "site"), autoescape=True,
                              trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)


def export_lesson(lesson: Lesson, out_dir: Path, pages: dict[str, str], live: Any = None) -> int:
    """Write the lesson's page; return the number of live-explorer links in it.

    ``live(notebook)`` turns its widgets and exercises into live forms (live_lessons.make_live) and returns
    how many of each; the counts are kept in ``lesson.live``.
    """
    import nbformat
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    notebook = nbformat.read(lesson.path, as_version=4)
    relink(notebook, pages)
    links = add_explorer_links(notebook)
    if live is not None:
        lesson.live = live(notebook)
    config = Config()
    config.HTMLExporter.exclude_input_prompt = True
    config.HTMLExporter.exclude_output_prompt = True
    for key, value in build_slides.URLS.items():
        if key != "reveal_url_prefix":
            setattr(config.HTMLExporter, key, value)
    exporter = HTMLExporter(config=config, template_file=str(TEMPLATES / "site_lesson.html.j2"))
    resources = {"site": {"lesson": lesson, "links": links}, "metadata": {"name": f"{lesson.number} · {lesson.title}"}}
    body, _ = exporter.from_notebook_node(notebook, resources=resources)
    (out_dir / lesson.page).write_text(with_contents(body), encoding="utf-8")
    return links


def with_contents(page: str) -> str:
    """The lesson page with its table of contents (its numbered sections, linked) under the top bar.

    >>> print(with_contents('<nav class="site-nav site-nav-top"></nav><h2 id="1.-Why">1. Why<a class="anchor-link"'
    ...                     ' href="#1.-Why">¶</a></h2>'))  # doctest: +ELLIPSIS
    <nav class="site-nav site-nav-top"></nav><nav class="toc" aria-label="Contents of this lesson"><b>Contents</b><ul><li><a href="#1.-Why">1. Why</a></li></ul></nav><h2 ...
    """
    sections = re.findall(r'<h2 id="([^"]+)">(.*?)<a class="anchor-link"', page)
    if not sections:
        return page
    items = "".join(f'<li><a href="#{anchor}">{re.sub(r"<[^>]+>", "", title).strip()}</a></li>'
                    for anchor, title in sections)
    toc = f'<nav class="toc" aria-label="Contents of this lesson"><b>Contents</b><ul>{items}</ul></nav>'
    top = page.index("</nav>", page.index('class="site-nav site-nav-top"')) + len("</nav>")
    return page[:top] + toc + page[top:]


def export_glossary(out_dir: Path, environment: Any, pages: dict[str, str]) -> None:
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    text = (NOTEBOOKS / "GLOSSARY.md").read_text(encoding="utf-8")
    text = re.sub(r"\]\(([^)\s]+)\)", lambda m: "](" + _site_link(m.group(1), pages) + ")", text)
    body = markdown2html_mistune(text)
    # An entry's explicit anchor (<a id="13a">, kept for links on GitHub) and the id the heading below it gets
    # may be the same: keep the heading's, so that every id on the page is unique.
    body = re.sub(r'<p><a id="([^"]+)"></a></p>\s*(?=<h\d id="\1")', "", body)
    page = environment.get_template("glossary.html.j2").render(body=body)
    (out_dir / "glossary.html").write_text(page, encoding="utf-8")


#: The guide's table of exercises (answers and misconceptions), made by scripts/solutions.py between these markers.
GUIDE_TABLE = re.compile(r"(The table below is made from the bank[^\n]*\n\s*)?"
                         r"<!-- exercises: made by scripts/solutions\.py -->.*?<!-- end of exercises -->", re.S)


def export_guide(out_dir: Path, environment: Any, pages: dict[str, str]) -> None:
    """TEACHERS_GUIDE.md as the site's teachers.html, without its table of answers (students can open the page)."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    text = (PROJECT / "TEACHERS_GUIDE.md").read_text(encoding="utf-8")
    text, found = GUIDE_TABLE.subn(
        "The table of every exercise with its answer and the mistakes its checker names is left out of this "
        "page, which students can open too: it is in the guide that comes with the project, and in the answer "
        "key (`python -m bleu_teach exercises key --out key/`).", text)
    if found != 1:
        raise SystemExit("TEACHERS_GUIDE.md: the exercise table's markers are missing; run make solutions.")
    text = re.sub(r"\]\(([^)\s]+)\)", lambda m: "](" + _site_link(m.group(1).removeprefix("notebooks/"), pages) + ")",
                  text)
    page = environment.get_template("teachers.html.j2").render(body=markdown2html_mistune(text))
    (out_dir / "teachers.html").write_text(page, encoding="utf-8")


# ---------------------------------------------------------------------------
# The Python the explorer runs: bleu_teach's standard-library modules and sacreBLEU's pure tokenizers
# ---------------------------------------------------------------------------

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
    import live_lessons

    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in ("zh-en.json.gz", "LICENSE", "README.md"):
            archive.write(PACKAGE / "lessons" / "wmt21" / name, f"bleu_teach/lessons/wmt21/{name}")
        archive.writestr(f"bleu_teach/web/{page.CONTEXTS_FILE.name}", json.dumps(contexts, separators=(",", ":")))
        return archive.namelist()


# ---------------------------------------------------------------------------
# The whole site
# ---------------------------------------------------------------------------

def explorer_form(example: Preset, unavailable: dict[str, set[str]]) -> str:
    """The explorer page's form: the BLEU explorer's own (the lesson pages'), showing ``example`` at first paint."""
    import live_lessons

    values = example.state()
    return live_lessons.widget_html(EXPLORERS["BleuExplorer"], values, "x", unavailable,
                                    page.widget("BleuExplorer", values), {})


def _checked_wheel(wheel: Path) -> Path:
    """The package's wheel to offer for download: it must exist and hold the package and its data."""
    if not wheel.is_file() or wheel.suffix != ".whl":
        raise SystemExit(f"--wheel {wheel}: no such wheel; make dist builds it (make site does that first).")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    needed = {"bleu_teach/__init__.py", "bleu_teach/exercises/bank.toml", "bleu_teach/lessons/wmt21/zh-en.json.gz"}
    if not needed <= names:
        raise SystemExit(f"--wheel {wheel} lacks {', '.join(sorted(needed - names))}: rebuild it with make dist.")
    return wheel


def build(out_dir: Path, wheel: Path) -> dict[str, Any]:
    """Write the site into ``out_dir``; return what was written (pages, links), for `make site` and the tests.

    ``wheel`` is the package built by ``make dist``: the site offers it for download, to install on a
    JupyterHub or a hosted notebook service.
    """
    from bleu_teach.inputs.tokenizers import TOKENIZERS
    import live_lessons

    if out_dir.exists() and any(out_dir.iterdir()):
        if not (out_dir / "explorer.html").is_file():
            raise SystemExit(f"{out_dir} is not empty and holds no earlier site: choose another --out.")
        shutil.rmtree(out_dir)  # an earlier build
    wheel = _checked_wheel(wheel)
    out_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy2(wheel, out_dir / wheel.name)
    build_slides.copy_assets(out_dir / "vendor")
    build_slides.copy_widget_fonts(out_dir)
    for name in ("site.css", "explorer.js", "python.js", "answers.js", "lesson_live.js", "progress.js", "offline.js"):
        shutil.copy2(STATIC / name, out_dir / name)

    found = lessons()
    pages = {lesson.path.name: lesson.page for lesson in found} | {"GLOSSARY.md": "glossary.html"}
    tokenizers, _ = browser_tokenizers()
    unavailable = {"tokenizer": set(TOKENIZERS) - set(tokenizers)}
    contexts: dict[str, Any] = {}
    contexts_json: dict[str, str] = {}

    def context(explorer: Explorer) -> Any:
        """An explorer's context for the site, made once (and given to the page's Python at build time too)."""
        if explorer.name not in contexts:
            if explorer.site_context is None or explorer.context_to_json is None:
                raise SystemExit(f"{explorer.name} needs a context that its declaration does not say how to make.")
            contexts[explorer.name] = explorer.site_context()
            contexts_json[explorer.name] = explorer.context_to_json(contexts[explorer.name])
            page.load_contexts(json.dumps(contexts_json))
        return contexts[explorer.name]

    links = {lesson.page: export_lesson(lesson, out_dir, pages,
                                        lambda nb: live_lessons.make_live(nb, unavailable, context))
             for lesson in found}
    # The explorer opens on the lessons' first example (lesson 00's demo).
    first = next((p for lesson in found for ps in notebook_presets(json.loads(lesson.path.read_text("utf-8"))).values()
                  for p in ps), None)
    if first is None:
        raise SystemExit("No lesson has an explorer with text to open the live explorer on.")

    downloads = out_dir / "notebooks"
    downloads.mkdir()
    with zipfile.ZipFile(out_dir / "bleu-teach-notebooks.zip", "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in [lesson.path for lesson in found] + [NOTEBOOKS / "GLOSSARY.md"]:
            shutil.copy2(path, downloads / path.name)
            archive.write(path, f"bleu-teach-notebooks/{path.name}")

    decks = []
    for deck in sorted(build_slides.DECKS.glob("*.ipynb")):
        counted: list[int] = []
        decks.append(build_slides.export(deck, out_dir, lambda nb: counted.append(add_explorer_links(nb, slide=True))))
        links[decks[-1].name] = counted[0]

    environment = _environment()
    export_glossary(out_dir, environment, pages)
    export_guide(out_dir, environment, pages)
    python_files = write_python_zip(out_dir / PYTHON_ZIP)
    if contexts_json:
        python_files += write_data_zip(out_dir / live_lessons.DATA_ZIP, contexts_json)
    explorer = environment.get_template("explorer.html.j2").render(
        tokenizers=tokenizers, missing=[name for name in TOKENIZERS if name not in tokenizers], python_zip=PYTHON_ZIP,
        widget=explorer_form(first, unavailable))
    (out_dir / "explorer.html").write_text(explorer, encoding="utf-8")
    from bleu_teach.exercises import exercises

    index = environment.get_template("index.html.j2").render(
        lessons=found, learn={lesson.number: lesson.learn_html(pages) for lesson in found},
        exercises={lesson.number: [ex.id for ex in exercises(lesson.number)] for lesson in found},
        total_minutes=sum(lesson.minutes for lesson in found), decks=[d.name for d in decks], wheel=wheel.name)
    (out_dir / "index.html").write_text(index, encoding="utf-8")
    return {"lessons": [lesson.page for lesson in found], "decks": [d.name for d in decks], "links": links,
            "live": {lesson.page: lesson.live for lesson in found},
            "tokenizers": list(tokenizers), "python": python_files, "wheel": wheel.name}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=PROJECT / "build" / "site")
    parser.add_argument("--wheel", type=Path, required=True,
                        help="the package's wheel, offered for download (make dist builds it; make site passes it)")
    args = parser.parse_args()
    out = args.out.resolve()
    built = build(out, args.wheel.resolve())
    shown = out.relative_to(PROJECT) if out.is_relative_to(PROJECT) else out
    print(f"wrote {shown}/: index.html, {len(built['lessons'])} lesson pages, explorer.html "
          f"(tokenizers: {', '.join(built['tokenizers'])}), {', '.join(built['decks'])}, glossary.html, "
          f"teachers.html, {built['wheel']}")
    widgets = sum(counts.get("widgets", 0) for counts in built["live"].values())
    answerable = sum(counts.get("exercises", 0) for counts in built["live"].values())
    print(f"live on the lesson pages: {widgets} widgets and {answerable} exercises")
    print(f"live-explorer links: {sum(built['links'].values())}; "
          f"serve it with: python -m http.server --bind 127.0.0.1 -d {shown}")


if __name__ == "__main__":
    main()
