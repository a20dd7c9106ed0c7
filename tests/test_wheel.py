"""The package runs anywhere: make dist's wheel, installed into a fresh virtual environment with the course's
libraries and without the test extras (as on a JupyterHub or a lab machine), runs a lesson under strict nbval and
reads its data; installed with no dependency at all, its computation, exercises and command line still run.

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
import zipfile
from pathlib import Path

import pytest

from tests.conftest import FIGURES
from tests.packaging import PROJECT

#: The lesson the wheel's environment runs: the first (an explorer, exercises, the exercise bank).
LESSONS = sorted((PROJECT / "notebooks").glob("[0-9][0-9]_*.ipynb"))[:1]
#: Every data file the lessons read, loaded from the installed wheel.
READ_DATA = (
    "from bleu_teach.lessons.data import wmt21_ted; from bleu_teach.exercises import exercises; "
    "print(len(wmt21_ted('zh-en').systems), len(wmt21_ted('en-de').systems), len(exercises()))"
)
#: What the lessons use besides Python files: the wheel must carry it.
DATA = [
    "bleu_teach/exercises/bank.toml",
    "bleu_teach/lessons/wmt21/zh-en.json.gz",
    "bleu_teach/lessons/wmt21/en-de.json.gz",
    "bleu_teach/lessons/wmt21/LICENSE",
    "bleu_teach/lessons/wmt21/README.md",
]
#: Tools for testing and building that a learner's environment must not receive.
NOT_FOR_LEARNERS = ["pytest", "nbval", "playwright", "mypy", "hypothesis", "build", "voila", "jupyterlab"]


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "JUPYTER_PATH")}
    return {**env, **extra}


@pytest.mark.slow
def test_the_wheel_installs_without_the_test_tools_and_runs_a_lesson(tmp_path: Path, wheel: Path):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert set(DATA) <= names, sorted(set(DATA) - names)

    env_dir = tmp_path / "env"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, timeout=300)
    python = env_dir / "bin" / "python"
    # --no-compile: pip does not byte-compile the course's libraries (SciPy, Matplotlib, IPython...) ahead of time,
    # half the install's time; the lesson's imports compile what they load, and nothing below depends on the .pyc
    # files (pip logs a file that fails to compile but installs it all the same).
    install = subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-compile",
            "--constraint",
            str(PROJECT / "constraints.txt"),
            f"{wheel}[course]",
        ],
        capture_output=True,
        text=True,
        timeout=1200,
        env=_clean_env(),
    )
    assert install.returncode == 0, install.stderr[-3000:]
    installed = json.loads(
        subprocess.run(
            [str(python), "-m", "pip", "list", "--format", "json"],
            check=True,
            capture_output=True,
            text=True,
            env=_clean_env(),
        ).stdout
    )
    present = {p["name"].lower().replace("_", "-") for p in installed}
    assert "bleu-teach" in present
    assert present.isdisjoint(NOT_FOR_LEARNERS), sorted(present & set(NOT_FOR_LEARNERS))

    where = subprocess.run(
        [str(python), "-c", "import bleu_teach; print(bleu_teach.__file__)"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
        env=_clean_env(),
    ).stdout.strip()
    assert Path(where).is_relative_to(env_dir), where  # the wheel's copy, not the checkout's
    read = subprocess.run(
        [str(python), "-c", READ_DATA], cwd=tmp_path, capture_output=True, text=True, env=_clean_env(), timeout=300
    )
    assert read.returncode == 0, read.stderr[-2000:]

    kernels = tmp_path / "kernels"
    subprocess.run(
        [str(python), "-m", "ipykernel", "install", "--prefix", str(kernels), "--name", "bleu-teach-wheel"],
        check=True,
        capture_output=True,
        env=_clean_env(),
        timeout=300,
    )
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    for lesson in LESSONS:
        shutil.copy2(lesson, lessons / lesson.name)
    shutil.copy2(PROJECT / "notebooks" / "sanitize.cfg", lessons / "sanitize.cfg")
    (lessons / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n", encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-c",
            str(lessons / "pytest.ini"),
            "--rootdir",
            str(lessons),
            "--nbval",
            "--nbval-kernel-name",
            "bleu-teach-wheel",
            "--nbval-sanitize-with",
            "sanitize.cfg",
            *[p.name for p in LESSONS],
        ],
        cwd=lessons,
        capture_output=True,
        text=True,
        timeout=1500,
        env=_clean_env(JUPYTER_PATH=str(kernels / "share" / "jupyter")),
    )
    assert run.returncode == 0, run.stdout[-5000:] + run.stderr[-2000:]
    summary = run.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "failed" not in summary and "skipped" not in summary, summary
    size = sum(f.stat().st_size for f in env_dir.rglob("*") if f.is_file() and not f.is_symlink())
    FIGURES.append(
        f"wheel {wheel.name}: its environment {size / 1e6:.0f} MB (no bytecode compiled ahead), "
        f"without test tools; {LESSONS[0].name} there: {summary}; its data: {read.stdout.strip()}"
    )


#: What the core must do with nothing installed but the wheel: explain a score, check an answer, run the command
#: line with the default tokenizer; and a command that needs sacreBLEU must say what to install.
CORE = """
import bleu_teach as bt
from bleu_teach.exercises import check
report = bt.explain([['the', 'cat', 'is', 'on', 'the', 'mat']], ['the', 'cat', 'sat', 'on', 'the', 'mat'],
                    smoothing='method1')
print(round(float(report.score), 6), check('03.1', '0.882').verdict, check('08.1', '-6.0').verdict)
print(repr(float(bt.chrf_score(['the cat sat'], [['the cat sat down']]).score)))
"""


@pytest.mark.slow
def test_the_core_installs_and_runs_with_no_dependency(tmp_path: Path, wheel: Path):
    import nltk.translate.bleu_score as nltk_bleu

    env_dir = tmp_path / "core"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, timeout=300)
    python = env_dir / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
        env=_clean_env(),
    )  # with its dependencies: there are none
    assert install.returncode == 0, install.stderr[-3000:]
    installed = json.loads(
        subprocess.run(
            [str(python), "-m", "pip", "list", "--format", "json"],
            check=True,
            capture_output=True,
            text=True,
            env=_clean_env(),
        ).stdout
    )
    expected = {"bleu-teach"} | ({"tomli"} if sys.version_info < (3, 11) else set())  # tomllib is 3.11's
    assert {p["name"].lower() for p in installed} - {"pip", "setuptools"} == expected, installed

    run = subprocess.run(
        [str(python), "-c", CORE], cwd=tmp_path, capture_output=True, text=True, env=_clean_env(), timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    expected = nltk_bleu.sentence_bleu(
        [["the", "cat", "is", "on", "the", "mat"]],
        ["the", "cat", "sat", "on", "the", "mat"],
        smoothing_function=nltk_bleu.SmoothingFunction().method1,
    )
    score, bp_verdict, mqm_verdict = run.stdout.splitlines()[0].split()
    assert float(score) == round(expected, 6) and (bp_verdict, mqm_verdict) == ("correct", "correct"), run.stdout
    import sacrebleu

    chrf = sacrebleu.corpus_chrf(["the cat sat"], [["the cat sat down"]]).score
    assert abs(float(run.stdout.splitlines()[1]) - chrf) <= 1e-9, (run.stdout, chrf)

    def command(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(python), "-m", "bleu_teach", *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=_clean_env(),
            timeout=300,
        )

    shown = command("explain", "the cat sat on the mat", "--ref", "the cat is on the mat")
    assert shown.returncode == 0 and shown.stdout.startswith("BLEU, step by step"), shown.stderr
    for tokenizer, library in (("13a", "sacrebleu"), ("nltk", "nltk")):
        missing = command("explain", "the cat sat", "--ref", "the cat", "--tokenizer", tokenizer)
        assert missing.returncode == 3, (missing.returncode, missing.stderr)
        assert f"needs {library}" in missing.stderr and 'pip install "bleu-teach[course]"' in missing.stderr
        assert "bug" not in missing.stderr and "Traceback" not in missing.stderr, missing.stderr
    qti = command("exercises", "export", "--format", "qti", "--out", str(tmp_path / "quiz"))
    assert qti.returncode == 3 and "needs text2qti" in qti.stderr and "bleu-teach[course]" in qti.stderr, qti.stderr
    # Opening a lesson with the core alone: its first import says what to install.
    for module, library in (("bleu_teach.ui.widgets", "ipywidgets"), ("bleu_teach.ui.plots", "matplotlib")):
        opened = subprocess.run(
            [str(python), "-c", f"import {module}"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            env=_clean_env(),
            timeout=300,
        )
        assert opened.returncode != 0 and f"needs {library}" in opened.stderr, opened.stderr
        assert 'pip install "bleu-teach[course]"' in opened.stderr
