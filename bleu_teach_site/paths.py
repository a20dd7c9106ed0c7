"""Where the site's sources are: the project's notebooks and package, and this package's templates and static files."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent
NOTEBOOKS = PROJECT / "notebooks"
PACKAGE = PROJECT / "bleu_teach"
NODE = PROJECT / "node_modules"
#: Jinja templates: nbconvert's (the lesson page, the deck, a figure with its alt text) and the site's own (site/).
TEMPLATES = HERE / "templates"
#: The scripts and the stylesheet every page loads, copied as they are.
STATIC = HERE / "static"
