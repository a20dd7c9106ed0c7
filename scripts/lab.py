"""Start JupyterLab on the lessons, the one way used by `make lab` and by the browser tests.

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8888)
    parser.add_argument("--open-browser", action="store_true", help="open a browser tab as well")
    args = parser.parse_args()
    command = lab_command(args.port)
    if args.open_browser:
        command.remove("--no-browser")
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
