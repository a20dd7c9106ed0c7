"""The project skeleton: dependency lists agree, import stays light, the CLI works."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~ \[;]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def _requirements(project: dict, extra: str | None = None) -> set[str]:
    """The names a plain install (or ``bleu-teach[extra]``) brings, the extras it names (bleu-teach[course])
    expanded."""
    found = {_name(r) for r in project["dependencies"]}
    for requirement in project["optional-dependencies"][extra] if extra else ():
        if _name(requirement) == "bleu-teach":
            named = requirement.split("[", 1)[1].split("]", 1)[0].split(",")
            for other in named:
                found |= _requirements(project, other.strip())
        else:
            found.add(_name(requirement))
    return found


def test_environment_yml_lists_the_same_packages_as_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = set().union(*(_requirements(project, extra) for extra in project["optional-dependencies"]))
    conda = set()
    text = (ROOT / "environment.yml").read_text()
    for line in text.split("dependencies:", 1)[1].splitlines():
        match = re.match(r"^\s*-\s+([A-Za-z][\w.-]*)", line)
        if match and not line.strip().startswith("- pip:"):
            conda.add(_name(match.group(1)))
    conda -= {"python", "pip"}
    assert declared == conda, f"only in pyproject: {declared - conda}; only in environment.yml: {conda - declared}"


def test_environment_yml_uses_conda_forge_and_installs_the_package():
    text = (ROOT / "environment.yml").read_text()
    assert "conda-forge" in text
    assert "--editable ." in text


def test_import_is_light():
    code = (
        "import sys, bleu_teach\n"
        "heavy = [m for m in ('matplotlib', 'ipywidgets', 'nltk', 'sacrebleu', 'IPython') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bleu_teach", *args], capture_output=True, text=True)


def test_cli_explains_the_paper_example():
    result = _cli(
        "explain",
        "--ref",
        "the cat is on the mat",
        "--ref",
        "there is a cat on the mat",
        "--max-n",
        "1",
        "the the the the the the the",
    )
    assert result.returncode == 0, result.stderr
    assert "p_1 = 2/7 = 0.2857 (clipped matches / hypothesis 1-grams)" in result.stdout
    assert "closest reference length r = 7" in result.stdout
    assert result.stderr == ""


def test_cli_tokenizer_lowercase_and_smoothing():
    result = _cli(
        "explain", "-r", "The cat isn't here.", "-t", "13a", "--lowercase", "-s", "method1", "the cat isn't here ."
    )
    assert result.returncode == 0, result.stderr
    assert (
        "Hypothesis (5 tokens; matched unigrams marked \u2713): the\u2713 cat\u2713 isn't\u2713 here\u2713 .\u2713"
        in result.stdout
    )
    assert "smoothing: method1" in result.stdout


def test_cli_bad_input_prints_one_line_and_exits_2():
    for args in (
        ["explain", "--ref", "a b", "--max-n", "0", "a b"],
        ["explain", "a b"],
        ["explain", "--ref", "a", "-t", "moses", "a"],
        ["explain", "--ref", "a", "-s", "method9", "a"],
        [],
    ):
        result = _cli(*args)
        assert result.returncode == 2, (args, result)
        assert result.stdout == ""
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (args, result.stderr)


def test_cli_help_works():
    result = _cli("explain", "--help")
    assert result.returncode == 0
    assert "--tokenizer" in result.stdout


def test_make_lab_installs_what_the_lessons_need_and_no_test_tool():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    learner = _requirements(project, "lab")
    tools = _requirements(project, "test") - _requirements(project, "course") - {"numpy", "tomli"}
    assert learner.isdisjoint(tools), learner & tools
    assert {"nltk", "sacrebleu", "ipywidgets", "jupyterlab"} <= learner
    assert "jupyterlab" not in _requirements(project, "course")  # the wheel never replaces a hub's Jupyter
    # The core installs nothing: tomli only on a Python without tomllib.
    assert [r for r in project["dependencies"] if "python_version < '3.11'" not in r] == []
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^lab: \$\(LAB_STAMP\)$", makefile, re.M)
    recipe = makefile.split("$(LAB_STAMP): ", 1)[1].split("\n\n", 1)[0]
    assert "--editable '.[lab]'" in recipe and "[test" not in recipe and ",test" not in recipe


def test_every_subpackage_is_in_the_distribution():
    """pyproject lists the packages by hand: a new folder of bleu_teach must be there, or the wheel lacks it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(project["tool"]["setuptools"]["packages"])
    folders = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "bleu_teach").rglob("__init__.py")}
    assert folders <= listed, f"not in pyproject's packages: {sorted(folders - listed)}"
