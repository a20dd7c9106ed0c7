"""The package runs anywhere: make dist's wheel, installed into a fresh virtual environment without the test
extras (as on a JupyterHub or a lab machine), runs a lesson under strict nbval and reads its data.

A smoke run: every lesson is executed once per test run, by nbval in the project's environment; here the first
lesson runs in a kernel of the fresh environment (nbval itself runs here), from a folder outside the checkout,
so every import comes from the installed wheel, and every data file the lessons read is loaded from it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from tests.conftest import FIGURES
from tests.packaging import PROJECT, build_wheel

#: The lesson the wheel's environment runs: the first (an explorer, exercises, the exercise bank).
LESSONS = sorted((PROJECT / "notebooks").glob("[0-9][0-9]_*.ipynb"))[:1]
#: Every data file the lessons read, loaded from the installed wheel.
READ_DATA = ("from bleu_teach.lessons.data import wmt21_ted; from bleu_teach.exercises import exercises; "
             "print(len(wmt21_ted('zh-en').systems), len(wmt21_ted('en-de').systems), len(exercises()))")
#: What the lessons use besides Python files: the wheel must carry it.
DATA = ["bleu_teach/exercises/bank.toml", "bleu_teach/lessons/wmt21/zh-en.json.gz",
        "bleu_teach/lessons/wmt21/en-de.json.gz", "bleu_teach/lessons/wmt21/LICENSE",
        "bleu_teach/lessons/wmt21/README.md"]
#: Tools for testing and building that a learner's environment must not receive.
NOT_FOR_LEARNERS = ["pytest", "nbval", "playwright", "mypy", "hypothesis", "build", "voila", "jupyterlab"]


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "JUPYTER_PATH")}
    return {**env, **extra}


@pytest.mark.slow
def test_the_wheel_installs_without_the_test_tools_and_runs_a_lesson(tmp_path: Path):
    started = time.perf_counter()
    wheel = build_wheel(tmp_path / "dist")
    built = time.perf_counter() - started
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert set(DATA) <= names, sorted(set(DATA) - names)

    env_dir = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, timeout=300)
    python = env_dir / "bin" / "python"
    install = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--constraint",
                              str(PROJECT / "constraints.txt"), str(wheel)],
                             capture_output=True, text=True, timeout=1200, env=_clean_env())
    assert install.returncode == 0, install.stderr[-3000:]
    installed = json.loads(subprocess.run([str(python), "-m", "pip", "list", "--format", "json"], check=True,
                                          capture_output=True, text=True, env=_clean_env()).stdout)
    present = {p["name"].lower().replace("_", "-") for p in installed}
    assert "bleu-teach" in present
    assert present.isdisjoint(NOT_FOR_LEARNERS), sorted(present & set(NOT_FOR_LEARNERS))

    where = subprocess.run([str(python), "-c", "import bleu_teach; print(bleu_teach.__file__)"], cwd=tmp_path,
                           check=True, capture_output=True, text=True, env=_clean_env()).stdout.strip()
    assert Path(where).is_relative_to(env_dir), where  # the wheel's copy, not the checkout's
    read = subprocess.run([str(python), "-c", READ_DATA], cwd=tmp_path, capture_output=True, text=True,
                          env=_clean_env(), timeout=300)
    assert read.returncode == 0, read.stderr[-2000:]

    kernels = tmp_path / "kernels"
    subprocess.run([str(python), "-m", "ipykernel", "install", "--prefix", str(kernels), "--name", "bleu-teach-wheel"],
                   check=True, capture_output=True, env=_clean_env(), timeout=300)
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    for lesson in LESSONS:
        shutil.copy2(lesson, lessons / lesson.name)
    shutil.copy2(PROJECT / "notebooks" / "sanitize.cfg", lessons / "sanitize.cfg")
    (lessons / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-c", str(lessons / "pytest.ini"), "--rootdir",
                          str(lessons), "--nbval", "--nbval-kernel-name", "bleu-teach-wheel",
                          "--nbval-sanitize-with", "sanitize.cfg", *[p.name for p in LESSONS]],
                         cwd=lessons, capture_output=True, text=True, timeout=1500,
                         env=_clean_env(JUPYTER_PATH=str(kernels / "share" / "jupyter")))
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]
    summary = run.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and "skipped" not in summary, summary
    size = sum(f.stat().st_size for f in env_dir.rglob("*") if f.is_file() and not f.is_symlink())
    FIGURES.append(f"wheel {wheel.name} built in {built:.1f} s; its environment {size / 1e6:.0f} MB, "
                   f"without test tools; {LESSONS[0].name} there: {summary}; its data: {read.stdout.strip()}")
