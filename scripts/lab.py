"""Start JupyterLab on the lessons (`make lab`) or the live Voila slide deck (`make deck`).

Both are the one way used by the make targets and by the browser tests.

* Listens on 127.0.0.1 only, with token authentication on (Jupyter prints
  the URL with its token; pass --token to choose it).
* Opens the notebooks folder.
* Uses the project's own JupyterLab defaults (jupyter-settings/overrides.json):
  no news or update pop-ups, no extension manager reaching out to PyPI, and
  every cell kept rendered (windowingMode "none") so that long lessons print
  and scroll as one page.  A learner's own settings still apply on top.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
NOTEBOOKS = PROJECT / "notebooks"
SETTINGS = PROJECT / "jupyter-settings"
DECK = NOTEBOOKS / "slides" / "bleu_in_10_minutes.ipynb"


def lab_command(
    port: int, token: str | None = None, extra: list[str] | None = None, root_dir: Path = NOTEBOOKS
) -> list[str]:
    """The JupyterLab command line: the current Python's jupyter-lab, bound to 127.0.0.1 with a token."""
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={root_dir}",
        f"--LabApp.app_settings_dir={SETTINGS}",
    ]
    if token is not None:
        if not token:
            raise ValueError("An empty token would switch authentication off; give a non-empty token.")
        command.append(f"--IdentityProvider.token={token}")
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--ServerApp.allow_root=True")  # containers often run as root
    return command + list(extra or [])


#: Where `make deck` prepares the deck it serves: the notebook with the course's address on its closing slide, and
#: the local copies of what the page loads (vendor/).
LIVE_DECK = PROJECT / "build" / "live-deck"
#: The Voila template (bleu-teach-reveal: Voila's reveal template with every asset local), found through JUPYTER_PATH.
VOILA_TEMPLATES = PROJECT / "bleu_teach_site" / "templates" / "voila"


def prepare_deck(folder: Path = LIVE_DECK, course_url: str | None = None) -> Path:
    """The deck to serve, in ``folder``: the stored deck with the course's address and QR code on its closing slide,
    beside local copies of reveal.js, jQuery, deck.js, deck.css and the speaker view's previews (speaker_preview.html
    and .js) (vendor/); return the notebook's path."""
    import nbformat

    from bleu_teach_site import slides

    url = slides.checked_course_url(course_url or slides.DEFAULT_COURSE_URL)
    folder.mkdir(parents=True, exist_ok=True)
    slides.copy_assets(folder / "vendor", only=("reveal.js", "jquery"))
    (folder / "vendor" / "deck").mkdir(parents=True, exist_ok=True)
    for name in ("deck.js", "deck.css", "speaker_preview.html", "speaker_preview.js"):
        shutil.copy2(slides.STATIC / name, folder / "vendor" / "deck" / name)
    notebook = nbformat.read(DECK, as_version=4)
    slides.add_course_address(notebook, url)
    target = folder / DECK.name
    nbformat.write(notebook, target)
    return target


def voila_command(port: int, folder: Path = LIVE_DECK, course_url: str | None = None) -> list[str]:
    """The live deck: Voila's reveal template on 127.0.0.1, with every asset served from ``folder``.

    Voila's reveal template loads reveal.js's style sheets, jQuery and Font
    Awesome from CDNs; the project's template (bleu-teach-reveal, in
    bleu_teach_site/templates/voila; run the command with
    :func:`voila_environment`) loads local copies (from node_modules, put
    beside the deck in vendor/ by :func:`prepare_deck`) through Voila's own
    /voila/files/ handler, which only allows that folder.
    """
    deck = prepare_deck(folder, course_url)
    resources = (
        '{"reveal": {"url_prefix": "/voila/files/vendor/reveal.js", "theme": "white", "transition": "none", '
        '"number": "c/t"}}'
    )  # a Python literal: traitlets parses it with literal_eval
    return [
        sys.executable,
        "-m",
        "voila",
        str(deck),
        "--template=bleu-teach-reveal",
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--Voila.port={port}",
        "--Voila.port_retries=0",
        f"--VoilaConfiguration.resources={resources}",
        "--VoilaConfiguration.file_allowlist=['vendor/.*']",
    ]


def voila_environment() -> dict[str, str]:
    """The environment to run :func:`voila_command` in: the project's Voila template on JUPYTER_PATH, first."""
    paths = [str(VOILA_TEMPLATES), *filter(None, os.environ.get("JUPYTER_PATH", "").split(os.pathsep))]
    return {**os.environ, "JUPYTER_PATH": os.pathsep.join(paths)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8888)
    parser.add_argument("--open-browser", action="store_true", help="open a browser tab as well")
    parser.add_argument("--deck", action="store_true", help="serve the live slide deck with Voila instead")
    parser.add_argument(
        "--course-url",
        default=None,
        help="with --deck: the course's address, shown with its QR code on the closing slide",
    )
    args = parser.parse_args()
    if args.deck:
        try:
            command = voila_command(args.port, course_url=args.course_url)
        except ValueError as error:
            parser.error(f"--course-url: {error}")
        from bleu_teach_site import slides

        if (args.course_url or slides.DEFAULT_COURSE_URL) == slides.DEFAULT_COURSE_URL:
            print(
                "the closing slide shows no course address and no QR code (its speaker notes say so): give the "
                "address with --course-url (make deck COURSE_URL=https://...)",
                flush=True,
            )
        os.execve(command[0], command, voila_environment())
    command = lab_command(args.port)
    if args.open_browser:
        command.remove("--no-browser")
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
