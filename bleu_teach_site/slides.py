"""Export the demo deck as a reveal.js slide show whose widgets run bleu_teach in the browser.

`make slides` executes notebooks/slides/*.ipynb into build/decks/ (leaving
the stored decks untouched) and then runs
``python -m bleu_teach_site.slides --decks build/decks --wheel <wheel>``, which
writes build/slides/; the site's build (:mod:`bleu_teach_site.build`) writes
the same deck into the site with :func:`export`.

* ``<deck>.slides.html``: ``jupyter nbconvert --to slides`` output
  (``templates/reveal_offline.html.j2``). Each saved explorer becomes the
  lesson pages' live form (:func:`bleu_teach_site.live.make_live`: the saved
  example written in at build time by ``bleu_teach.web.page``), which
  ``static/lesson_live.js`` makes live on Pyodide when the deck is served over
  http(s); opened from disk, the form shows its saved example and says how
  to serve it (``static/offline.js``); its reset button puts the saved example back.
* ``static/deck.js`` and ``static/deck.css``: the deck's own behaviour (the
  slide size chosen for the screen's shape, the clicker keys beside the
  controls) and type sizes; the live Voila deck (``make deck``) loads them too.
* The closing slide (the cell tagged ``course-address``) gets the course's
  address (``--course-url``) and its QR code, drawn at build time by segno as
  inline SVG.
* ``vendor/``: local copies of reveal.js (with its notes plugin: ``S`` opens
  the speaker view), MathJax 2 and Pyodide's core, installed from the npm
  registry by ``npm ci`` (package.json / package-lock.json).

nbconvert's defaults load reveal.js and MathJax from CDNs (and import mermaid
from one); the template loads nothing from outside. The reveal theme is
``white``, whose fonts ship with reveal.js.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bleu_teach.inputs.tokenizers import TOKENIZERS
from bleu_teach_site import live
from bleu_teach_site.browser_python import (
    NO_PYTHON,
    TOKENIZER_ZIP,
    BrowserPython,
    browser_tokenizers,
    write_tokenizer_zip,
)
from bleu_teach_site.paths import NODE, NOTEBOOKS, PROJECT, STATIC, TEMPLATES

DECKS = NOTEBOOKS / "slides"
TEMPLATE = TEMPLATES / "reveal_offline.html.j2"

#: vendor/<name>: (package folder in node_modules, the parts of it the deck and the static site need)
ASSETS: dict[str, tuple[str, tuple[str, ...]]] = {
    "reveal.js": ("reveal.js", ("dist", "plugin")),
    "requirejs": ("requirejs", ("require.js",)),
    "jquery": ("jquery", ("dist/jquery.min.js",)),
    "mathjax": ("mathjax", ("MathJax.js", "config", "extensions", "jax", "localization", "fonts/HTML-CSS/TeX/woff")),
    "html-manager": ("@jupyter-widgets/html-manager", ("dist",)),
    # Pyodide's core only (the live widgets of the lesson pages and the deck): no packages beyond the stdlib.
    "pyodide": (
        "pyodide",
        ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"),
    ),
    # The lesson pages' live brevity-penalty chart (static/lesson_live.js): one file, no dependencies.
    "chart.js": ("chart.js", ("dist/chart.umd.min.js", "LICENSE.md")),
}
#: What the deck itself loads: reveal.js and its notes plugin, MathJax 2, Pyodide (no widget renderer, no
#: require.js: its widgets are the live forms).
DECK_ASSETS = ("reveal.js", "mathjax", "pyodide")
#: A file of static/ named in a script: an import ("./classroom.js") or a worker it starts ("python_worker.js").
_STATIC_NAME = re.compile(r"""["'](?:\./)?([\w-]+\.(?:js|css))["']""")


def static_files(*entries: str) -> tuple[str, ...]:
    """The files of static/ that pages loading ``entries`` need: the entries and, followed to the end, every file
    of static/ a script names (its imports, the worker it starts): the one list the site and the deck copy, so a
    new import cannot be left behind.

    >>> {"python.js", "python_worker.js", "classroom.js", "answers.js"} <= set(static_files("lesson_live.js"))
    True
    """
    found: list[str] = []
    waiting = list(entries)
    while waiting:
        name = waiting.pop(0)
        if name in found:
            continue
        if not (STATIC / name).is_file():
            raise FileNotFoundError(f"static/{name} is named by the site's pages or scripts but does not exist.")
        found.append(name)
        if name.endswith(".js"):
            text = (STATIC / name).read_text(encoding="utf-8")
            waiting += [m for m in _STATIC_NAME.findall(text) if (STATIC / m).is_file()]
    return tuple(found)


#: The scripts and the style sheet the deck loads from static/: deck.js and deck.css, lesson_live.js (the live forms)
#: with everything it imports and starts, and offline.js (how to serve a deck opened from disk, and what failed to
#: load).
DECK_STATIC = static_files("deck.js", "deck.css", "offline.js", "lesson_live.js")

URLS = {
    "reveal_url_prefix": "vendor/reveal.js",
    "require_js_url": "vendor/requirejs/require.js",
    "jquery_url": "vendor/jquery/dist/jquery.min.js",
    "mathjax_url": "vendor/mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe",
    "widget_renderer_url": "vendor/html-manager/dist/embed-amd.js",
}

#: The closing slide's address when none is given: a placeholder, never shown to the room (the build says in the
#: terminal, and the closing slide's speaker notes say, that no address was given).
DEFAULT_COURSE_URL = "https://your-course-site.example/"
#: Added to the closing slide's speaker notes when the deck is built without the course's address.
NO_ADDRESS_NOTE = (
    "*Built without the course's address (COURSE_URL=https://... for make slides, make site or "
    "make deck): the slide shows no address and no QR code, so say where the lessons are.*"
)
#: The tag of the markdown cell the course's address and QR code are put after (the deck's closing slide).
COURSE_TAG = "course-address"


def copy_assets(vendor: Path, only: tuple[str, ...] | None = None) -> None:
    for name, (package, parts) in ASSETS.items():
        if only is not None and name not in only:
            continue
        source = NODE / package
        if not source.is_dir():
            raise SystemExit(f"{source} is missing: run `npm ci` (make slides and make site do) to install it.")
        for part in parts:
            src, dst = source / part, vendor / name / part
            dst.parent.mkdir(parents=True, exist_ok=True)
            if src.is_dir():
                shutil.copytree(src, dst, dirs_exist_ok=True, ignore=shutil.ignore_patterns("*.map", "*.ts"))
            else:
                shutil.copy2(src, dst)


FONT_SUFFIXES = (".woff2", ".woff", ".ttf", ".eot", ".svg")
#: Where the widget renderer's stylesheets look for its icon fonts, relative to the page.
FONT_DIRS = ("@jupyter-widgets", "@jupyter-widgets/html-manager/dist")


def copy_widget_fonts(out_dir: Path) -> None:
    """embed-amd.js asks for its icon fonts relative to the page, not to itself: put them there."""
    dist = NODE / "@jupyter-widgets" / "html-manager" / "dist"
    for folder in FONT_DIRS:
        target = out_dir / folder
        target.mkdir(parents=True, exist_ok=True)
        for font in dist.iterdir():
            if font.suffix in FONT_SUFFIXES:
                shutil.copy2(font, target / font.name)


# ---------------------------------------------------------------------------
# The closing slide: the course's address and its QR code
# ---------------------------------------------------------------------------


def checked_course_url(url: str) -> str:
    """``url`` if it is an http(s) address with a host (the closing slide shows it and its QR code encodes it)."""
    if not isinstance(url, str):
        raise TypeError(f"course_url must be a string such as {DEFAULT_COURSE_URL!r}, not {type(url).__name__}")
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in url.strip()):
        raise ValueError(f"course_url must be an http(s) address such as {DEFAULT_COURSE_URL!r}, not {url!r}")
    return url.strip()


def course_address_html(url: str) -> str:
    """The address as a link and its QR code as inline SVG (segno), with the address as the QR code's text; nothing
    for the placeholder (no QR code for an address that does not exist, and no build instruction for the room)."""
    import segno

    url = checked_course_url(url)
    if url == DEFAULT_COURSE_URL:
        return ""
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(scale=1, border=4, dark="#000", light="#fff", omitsize=True, svgclass="course-qr-code")
    shown = html.escape(url, quote=True)
    return (
        f'<div class="course-address"><p class="course-url"><a href="{shown}">{shown}</a></p>'
        f'<figure class="course-qr"><div role="img" aria-label="QR code of {shown}">{svg}</div>'
        f"<figcaption>Scan the code for {shown}</figcaption></figure></div>"
    )


def add_course_address(notebook: Any, url: str) -> None:
    """Put the course's address and QR code after the cell tagged ``course-address`` (the deck's closing slide)."""
    import nbformat

    found = [i for i, cell in enumerate(notebook["cells"]) if COURSE_TAG in cell.get("metadata", {}).get("tags", [])]
    if len(found) != 1:
        raise SystemExit(
            f"The deck needs exactly one cell tagged {COURSE_TAG!r} (its closing slide), not {len(found)}."
        )
    shown = course_address_html(url)
    if not shown:  # the speaker is told, not the room
        notes = next(
            (
                cell
                for cell in notebook["cells"][found[0] + 1 :]
                if cell.get("metadata", {}).get("slideshow", {}).get("slide_type") == "notes"
            ),
            None,
        )
        if notes is None:
            raise SystemExit(f"The deck's closing slide (the cell tagged {COURSE_TAG!r}) needs speaker notes.")
        notes["source"] = notes["source"].rstrip("\n") + "\n\n" + NO_ADDRESS_NOTE
        return
    cell = nbformat.v4.new_raw_cell(shown)
    cell.metadata["bleu_teach"] = "live"  # written as it is by the template (our own, escaped HTML)
    notebook["cells"].insert(found[0] + 1, cell)


def _no_context(explorer: Any) -> Any:
    raise SystemExit(f"{explorer.name} needs data the deck does not carry: show it in a lesson, not in the deck.")


def export(
    deck: Path,
    out_dir: Path,
    prepare: Callable[[Any], None] | None = None,
    *,
    python: BrowserPython = NO_PYTHON,
    unavailable: dict[str, set[str]] | None = None,
    course_url: str = DEFAULT_COURSE_URL,
) -> Path:
    """Write ``<deck>.slides.html`` into ``out_dir``; ``prepare`` may edit the notebook first (the site adds links).

    ``python`` names the archives the live forms unpack into Pyodide (the package's wheel first, as on the lesson
    pages) and their build; ``unavailable`` lists, per menu, the choices the page's Python cannot run.
    """
    import nbformat
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    config = Config()
    config.SlidesExporter.reveal_theme = "white"
    config.SlidesExporter.reveal_transition = "none"
    config.SlidesExporter.exclude_input = True
    config.SlidesExporter.exclude_input_prompt = True
    config.SlidesExporter.exclude_output_prompt = True
    for key, value in URLS.items():
        setattr(config.SlidesExporter, key, value)
    exporter = SlidesExporter(config=config, template_file=str(TEMPLATE))
    notebook = nbformat.read(deck, as_version=4)
    if prepare is not None:
        prepare(notebook)
    live.make_live(notebook, unavailable or {}, _no_context)
    add_course_address(notebook, course_url)
    body, _ = exporter.from_notebook_node(notebook, resources={"deck": {"python": python}})
    target = out_dir / f"{deck.stem}.slides.html"
    target.write_text(body, encoding="utf-8")
    return target


def copy_static(out_dir: Path) -> None:
    """The deck's scripts and style sheet, from static/."""
    for name in DECK_STATIC:
        shutil.copy2(STATIC / name, out_dir / name)


def build(out_dir: Path, wheel: Path, decks: Path = DECKS, course_url: str = DEFAULT_COURSE_URL) -> list[Path]:
    """Copy the assets, the package's wheel and sacreBLEU's tokenizers, and export every deck in ``decks`` into
    ``out_dir``; return the HTML files."""
    course_url = checked_course_url(course_url)
    if not wheel.is_file() or wheel.suffix != ".whl":
        raise SystemExit(f"--wheel {wheel}: no such wheel; make dist builds it (make slides does that first).")
    out_dir.mkdir(parents=True, exist_ok=True)
    copy_assets(out_dir / "vendor", only=DECK_ASSETS)
    copy_static(out_dir)
    shutil.copy2(wheel, out_dir / wheel.name)
    write_tokenizer_zip(out_dir / TOKENIZER_ZIP)
    unavailable = {"tokenizer": set(TOKENIZERS) - set(browser_tokenizers(out_dir / TOKENIZER_ZIP))}
    python = BrowserPython.of(out_dir, [wheel.name, TOKENIZER_ZIP])
    return [
        export(deck, out_dir, python=python, unavailable=unavailable, course_url=course_url)
        for deck in sorted(decks.glob("*.ipynb"))
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=PROJECT / "build" / "slides")
    parser.add_argument(
        "--decks",
        type=Path,
        default=DECKS,
        help="the folder of executed deck notebooks (default: the stored ones, notebooks/slides)",
    )
    parser.add_argument(
        "--wheel",
        type=Path,
        required=True,
        help="the package's wheel, which the deck's widgets run in the browser (make dist builds it)",
    )
    parser.add_argument(
        "--course-url",
        default=DEFAULT_COURSE_URL,
        help=f"the course's address, shown with its QR code on the closing slide "
        f"(default: the placeholder {DEFAULT_COURSE_URL})",
    )
    args = parser.parse_args()
    try:
        course_url = checked_course_url(args.course_url)
    except ValueError as error:
        parser.error(f"--course-url: {error}")
    for path in build(args.out, args.wheel.resolve(), args.decks, course_url):
        print(f"wrote {path.relative_to(PROJECT) if path.is_relative_to(PROJECT) else path}")
    if course_url == DEFAULT_COURSE_URL:
        print(
            "the closing slide shows no course address and no QR code (its speaker notes say so): give the "
            "address with --course-url (make slides COURSE_URL=https://...)"
        )
    folder = args.out.relative_to(PROJECT) if args.out.is_relative_to(PROJECT) else args.out
    print(f"its widgets are live when the folder is served: python -m http.server --bind 127.0.0.1 -d {folder}")


if __name__ == "__main__":
    main()
