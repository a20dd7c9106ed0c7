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
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
NOTEBOOKS = PROJECT / "notebooks"
SETTINGS = PROJECT / "jupyter-settings"
DECK = NOTEBOOKS / "slides" / "bleu_in_10_minutes.ipynb"


def lab_command(port: int, token: str | None = None, extra: list[str] | None = None,
                root_dir: Path = NOTEBOOKS) -> list[str]:
    """The JupyterLab command line: the current Python's jupyter-lab, bound to 127.0.0.1 with a token."""
    command = [
        sys.executable, "-m", "jupyterlab",
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


def voila_command(port: int) -> list[str]:
    """The live deck: Voila's reveal template on 127.0.0.1, with reveal.js served from a local copy.

    Voila's reveal template loads reveal.js from a CDN by default; the copy
    (from node_modules, put beside the deck in slides/vendor/) is served by
    Voila's own /voila/files/ handler, which only allows that folder.
    """
    from bleu_teach_site.slides import copy_assets

    copy_assets(DECK.parent / "vendor", only=("reveal.js",))
    resources = ('{"reveal": {"url_prefix": "/voila/files/vendor/reveal.js", "theme": "white", "transition": "none", '
                 '"scroll": True}}')  # a Python literal: traitlets parses it with literal_eval
    return [
        sys.executable, "-m", "voila", str(DECK),
        "--template=reveal",
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--Voila.port={port}",
        "--Voila.port_retries=0",
        f"--VoilaConfiguration.resources={resources}",
        "--VoilaConfiguration.file_allowlist=['vendor/reveal\\.js/.*']",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8888)
    parser.add_argument("--open-browser", action="store_true", help="open a browser tab as well")
    parser.add_argument("--deck", action="store_true", help="serve the live slide deck with Voila instead")
    args = parser.parse_args()
    if args.deck:
        command = voila_command(args.port)
        os.execv(command[0], command)
    command = lab_command(args.port)
    if args.open_browser:
        command.remove("--no-browser")
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
