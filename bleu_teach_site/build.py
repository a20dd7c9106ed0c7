"""Build bleu-teach as a static website that needs nothing installed: ``make site`` writes build/site/.

    python -m bleu_teach_site --wheel dist/bleu_teach-<version>-py3-none-any.whl [--out build/site]

* ``index.html``: what the suite is, the learning path (the course manifest's
  order, each lesson's "You will learn" and time), and links to every page.
* ``NN_topic.html`` for every lesson (:mod:`bleu_teach_site.lessons`): the
  stored lesson exported by nbconvert, with previous/next links, its
  contents, a download link, and a link into the live explorer under every
  explorer that holds text. Its widgets and exercises are live forms
  (:mod:`bleu_teach_site.live`): bleu_teach runs them in the page on Pyodide
  (``bleu_teach.web.page``, ``static/lesson_live.js``).
* ``explorer.html``: the full step-by-step explorer, live: the BLEU
  explorer's form (the lesson pages' own) with its example kept in the
  address bar (``static/explorer.js``). Pyodide's core (from the npm
  registry, ``vendor/pyodide/``) runs bleu_teach itself, installed from the
  package's wheel, with sacreBLEU's tokenizers (:mod:`bleu_teach_site.browser_python`).
* ``bleu_in_10_minutes.slides.html``: the deck (:mod:`bleu_teach_site.slides`),
  with the same explorer links, its explorers as live as the lessons', and the
  site's address (``--course-url``) with its QR code on the closing slide; ``glossary.html``; ``teachers.html``;
  ``notebooks/`` to download.

Every script, stylesheet and font comes from the site's own folder, so it works
from any static file server with the network off.  The explorer needs
http(s): from a page opened from disk, browsers run neither its module
script nor Pyodide's WebAssembly (the page then says how to serve it).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import zipfile
from pathlib import Path
from typing import Any

from bleu_teach.exercises import exercises
from bleu_teach.explorers.declaration import Explorer
from bleu_teach.explorers.definitions import EXPLORERS
from bleu_teach.inputs.tokenizers import TOKENIZERS
from bleu_teach.web import page
from bleu_teach_site import live, slides
from bleu_teach_site.browser_python import (
    TOKENIZER_ZIP,
    BrowserPython,
    browser_tokenizers,
    write_contexts_zip,
    write_tokenizer_zip,
)
from bleu_teach_site.lessons import (
    Preset,
    add_explorer_links,
    environment,
    export_glossary,
    export_guide,
    export_lesson,
    lessons,
    notebook_presets,
)
from bleu_teach_site.paths import NOTEBOOKS, PROJECT, STATIC

#: The longest link the live explorer makes: many web servers refuse a longer request line (Apache's default limit
#: is 8,190 bytes, nginx's buffers 8 KB), and Python's http.server refuses 64 KB.
MAX_LINK = 8000


def explorer_form(example: Preset, unavailable: dict[str, set[str]]) -> str:
    """The explorer page's form: the BLEU explorer's own (the lesson pages'), showing ``example`` at first paint."""
    values = example.state()
    return live.widget_html(
        EXPLORERS["BleuExplorer"], values, "x", unavailable, page.widget("BleuExplorer", values), {}
    )


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


def build(out_dir: Path, wheel: Path, course_url: str = slides.DEFAULT_COURSE_URL) -> dict[str, Any]:
    """Write the site into ``out_dir``; return what was written (pages, links), for `make site` and the tests.

    ``wheel`` is the package built by ``make dist``: the site offers it for download, to install on a
    JupyterHub or a hosted notebook service. ``course_url`` is the site's address, which the deck's closing slide
    shows with its QR code.
    """
    course_url = slides.checked_course_url(course_url)
    if out_dir.exists() and any(out_dir.iterdir()):
        if not (out_dir / "explorer.html").is_file():
            raise SystemExit(f"{out_dir} is not empty and holds no earlier site: choose another --out.")
        shutil.rmtree(out_dir)  # an earlier build
    wheel = _checked_wheel(wheel)
    out_dir.mkdir(parents=True, exist_ok=True)
    shutil.copy2(wheel, out_dir / wheel.name)
    slides.copy_assets(out_dir / "vendor")
    slides.copy_widget_fonts(out_dir)
    # The pages' scripts with everything they import or start (slides.static_files), then the deck's.
    for name in slides.static_files("site.css", "offline.js", "explorer.js", "lesson_live.js", "progress.js"):
        shutil.copy2(STATIC / name, out_dir / name)
    slides.copy_static(out_dir)

    found = lessons()
    pages = {lesson.path.name: lesson.page for lesson in found} | {"GLOSSARY.md": "glossary.html"}
    python_files = write_tokenizer_zip(out_dir / TOKENIZER_ZIP)
    tokenizers = browser_tokenizers(out_dir / TOKENIZER_ZIP)
    python = BrowserPython.of(out_dir, [wheel.name, TOKENIZER_ZIP])  # what a live page unpacks into site-packages
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

    links = {
        lesson.page: export_lesson(lesson, out_dir, pages, lambda nb: live.make_live(nb, unavailable, context), python)
        for lesson in found
    }
    # The explorer opens on the lessons' first example (lesson 00's demo).
    first = next(
        (
            p
            for lesson in found
            for ps in notebook_presets(json.loads(lesson.path.read_text("utf-8"))).values()
            for p in ps
        ),
        None,
    )
    if first is None:
        raise SystemExit("No lesson has an explorer with text to open the live explorer on.")

    downloads = out_dir / "notebooks"
    downloads.mkdir()
    with zipfile.ZipFile(out_dir / "bleu-teach-notebooks.zip", "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in [lesson.path for lesson in found] + [NOTEBOOKS / "GLOSSARY.md"]:
            shutil.copy2(path, downloads / path.name)
            archive.write(path, f"bleu-teach-notebooks/{path.name}")

    decks = []
    for deck in sorted(slides.DECKS.glob("*.ipynb")):
        counted: list[int] = []

        def prepare(notebook: Any, counted: list[int] = counted) -> None:
            counted.append(add_explorer_links(notebook, slide=True))

        decks.append(
            slides.export(
                deck,
                out_dir,
                prepare,
                python=python,
                unavailable=unavailable,
                course_url=course_url,
            )
        )
        links[decks[-1].name] = counted[0]

    templates = environment()
    export_glossary(out_dir, templates, pages)
    export_guide(out_dir, templates, pages)
    if contexts_json:
        python_files += write_contexts_zip(out_dir / live.CONTEXTS_ZIP, contexts_json)
    explorer = templates.get_template("explorer.html.j2").render(
        tokenizers=tokenizers,
        missing=[name for name in TOKENIZERS if name not in tokenizers],
        python=python,
        widget=explorer_form(first, unavailable),
        max_link=MAX_LINK,
    )
    (out_dir / "explorer.html").write_text(explorer, encoding="utf-8")
    index = templates.get_template("index.html.j2").render(
        lessons=found,
        learn={lesson.number: lesson.learn_html(pages) for lesson in found},
        exercises={lesson.number: [ex.id for ex in exercises(lesson.number)] for lesson in found},
        total_minutes=sum(lesson.minutes for lesson in found),
        decks=[d.name for d in decks],
        wheel=wheel.name,
    )
    (out_dir / "index.html").write_text(index, encoding="utf-8")
    return {
        "lessons": [lesson.page for lesson in found],
        "decks": [d.name for d in decks],
        "links": links,
        "live": {lesson.page: lesson.live for lesson in found},
        "tokenizers": list(tokenizers),
        "python": python_files,
        "wheel": wheel.name,
        "archives": [*python.archives, *([live.CONTEXTS_ZIP] if contexts_json else [])],
        "build": python.build,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bleu_teach_site",
        description=("Build bleu-teach as a static website that needs nothing installed (make site runs this)."),
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=PROJECT / "build" / "site",
        help="the folder to write the site into (default: build/site; an earlier site there is "
        "replaced, any other content refused)",
    )
    parser.add_argument(
        "--wheel",
        type=Path,
        required=True,
        help="the package's wheel, offered for download (make dist builds it; make site passes it)",
    )
    parser.add_argument(
        "--course-url",
        default=slides.DEFAULT_COURSE_URL,
        help="the address the site is published at, shown with its QR code on the deck's closing "
        f"slide (default: the placeholder {slides.DEFAULT_COURSE_URL})",
    )
    args = parser.parse_args()
    try:
        course_url = slides.checked_course_url(args.course_url)
    except ValueError as error:
        parser.error(f"--course-url: {error}")
    out = args.out.resolve()
    if args.wheel.is_file():
        newest = max(
            (
                path.stat().st_mtime
                for path in (PROJECT / "bleu_teach").rglob("*")
                if path.is_file() and "__pycache__" not in path.parts
            ),
            default=0.0,
        )
        if args.wheel.stat().st_mtime < newest:
            print(
                f"note: {args.wheel.name} is older than the package's sources, so the pages' Python may not be "
                "what the sources say: make dist (make site does it first)",
                file=sys.stderr,
            )
    built = build(out, args.wheel.resolve(), course_url)
    shown = out.relative_to(PROJECT) if out.is_relative_to(PROJECT) else out
    print(
        f"wrote {shown}/: index.html, {len(built['lessons'])} lesson pages, explorer.html "
        f"(tokenizers: {', '.join(built['tokenizers'])}), {', '.join(built['decks'])}, glossary.html, "
        f"teachers.html, bleu-teach-notebooks.zip, {built['wheel']}"
    )
    print(f"the pages' Python: {', '.join(built['archives'])}")
    if course_url == slides.DEFAULT_COURSE_URL:
        print(
            "the deck's closing slide shows no course address and no QR code (its speaker notes say so): give "
            "the site's address with --course-url (make site COURSE_URL=https://...)"
        )
    widgets = sum(counts.get("widgets", 0) for counts in built["live"].values())
    answerable = sum(counts.get("exercises", 0) for counts in built["live"].values())
    print(f"live on the lesson pages: {widgets} widgets and {answerable} exercises")
    print(
        f"live-explorer links: {sum(built['links'].values())}; "
        f"serve it with: python -m http.server --bind 127.0.0.1 -d {shown}"
    )


if __name__ == "__main__":
    main()
