"""Building the package as `make dist` does, for the tests that install it or offer it on the site."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


def build_wheel(out_dir: Path) -> Path:
    """``python -m build --wheel`` into ``out_dir``; the wheel's path.

    Run from ``out_dir``: in the project's root its ``build/`` folder would shadow the ``build`` module.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    run = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out_dir), str(PROJECT)],
        cwd=out_dir,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    wheels = sorted(out_dir.glob("bleu_teach-*-py3-none-any.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]
