"""Export the demo deck as a self-contained reveal.js slide show that works from disk, offline.

`make slides` executes notebooks/slides/*.ipynb into build/decks/ (saving
widget state, leaving the stored decks untouched) and then runs
``python -m bleu_teach_site.slides --decks build/decks``, which writes build/slides/:

* ``<deck>.slides.html``: ``jupyter nbconvert --to slides`` output whose
  reveal.js, require.js, jQuery, MathJax 2 and widget renderer
  (@jupyter-widgets/html-manager's embed-amd.js) URLs point at
* ``vendor/``: local copies of those packages, installed from the npm
  registry by ``npm ci`` (package.json / package-lock.json).

nbconvert's defaults load all of these from CDNs (and import mermaid from
one); offline, the deck would then show as one long unstyled page.  The
reveal theme is ``white``, whose fonts ship with reveal.js (the default
``simple`` theme imports Google Fonts).
"""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bleu_teach_site.paths import NODE, NOTEBOOKS, PROJECT, TEMPLATES

DECKS = NOTEBOOKS / "slides"
TEMPLATE = TEMPLATES / "reveal_offline.html.j2"

#: vendor/<name>: (package folder in node_modules, the parts of it the deck and the static site need)
ASSETS: dict[str, tuple[str, tuple[str, ...]]] = {
    "reveal.js": ("reveal.js", ("dist", "plugin")),
    "requirejs": ("requirejs", ("require.js",)),
    "jquery": ("jquery", ("dist/jquery.min.js",)),
    "mathjax": ("mathjax", ("MathJax.js", "config", "extensions", "jax", "localization", "fonts/HTML-CSS/TeX/woff")),
    "html-manager": ("@jupyter-widgets/html-manager", ("dist",)),
    # Pyodide's core only (the static site's live explorer; bleu_teach_site.build): no packages beyond the stdlib.
    "pyodide": ("pyodide", ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                            "pyodide-lock.json")),
    # The lesson pages' live brevity-penalty chart (static/lesson_live.js): one file, no dependencies.
    "chart.js": ("chart.js", ("dist/chart.umd.min.js", "LICENSE.md")),
}
#: What the deck itself loads.
DECK_ASSETS = ("reveal.js", "requirejs", "jquery", "mathjax", "html-manager")

URLS = {
    "reveal_url_prefix": "vendor/reveal.js",
    "require_js_url": "vendor/requirejs/require.js",
    "jquery_url": "vendor/jquery/dist/jquery.min.js",
    "mathjax_url": "vendor/mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe",
    "widget_renderer_url": "vendor/html-manager/dist/embed-amd.js",
}


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
#: Where the widget renderer's stylesheets look for its icon fonts, relative to the deck's page.
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


def export(deck: Path, out_dir: Path, prepare: Callable[[Any], None] | None = None) -> Path:
    """Write ``<deck>.slides.html`` into ``out_dir``; ``prepare`` may edit the notebook first (the site adds links)."""
    import nbformat
    from nbconvert import SlidesExporter
    from traitlets.config import Config

    config = Config()
    config.SlidesExporter.reveal_theme = "white"
    config.SlidesExporter.reveal_transition = "none"
    config.SlidesExporter.reveal_scroll = True  # tall widgets scroll inside their slide
    config.SlidesExporter.exclude_input = True
    config.SlidesExporter.exclude_input_prompt = True
    config.SlidesExporter.exclude_output_prompt = True
    for key, value in URLS.items():
        setattr(config.SlidesExporter, key, value)
    exporter = SlidesExporter(config=config, template_file=str(TEMPLATE))
    notebook = nbformat.read(deck, as_version=4)
    if prepare is not None:
        prepare(notebook)
    body, _ = exporter.from_notebook_node(notebook)
    target = out_dir / f"{deck.stem}.slides.html"
    target.write_text(body, encoding="utf-8")
    return target


def build(out_dir: Path, decks: Path = DECKS) -> list[Path]:
    """Copy the assets and export every deck in ``decks`` into ``out_dir``; return the HTML files."""
    out_dir.mkdir(parents=True, exist_ok=True)
    copy_assets(out_dir / "vendor", only=DECK_ASSETS)
    copy_widget_fonts(out_dir)
    return [export(deck, out_dir) for deck in sorted(decks.glob("*.ipynb"))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=PROJECT / "build" / "slides")
    parser.add_argument("--decks", type=Path, default=DECKS,
                        help="the folder of executed deck notebooks (default: the stored ones, notebooks/slides)")
    args = parser.parse_args()
    for path in build(args.out, args.decks):
        print(f"wrote {path.relative_to(PROJECT) if path.is_relative_to(PROJECT) else path}")


if __name__ == "__main__":
    main()
