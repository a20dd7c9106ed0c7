"""The command line as a user runs it: ``python -m bleu_teach explain|corpus ...``.

Numbers are checked against NLTK (the oracle), never against bleu_teach's own
functions.  Subprocess tests run the real ``python -m bleu_teach``; the many
small error cases call :func:`bleu_teach.ui.cli.main` in-process, which is faster.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import shlex
import subprocess
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import pytest
from nltk.translate.bleu_score import SmoothingFunction, closest_ref_length, corpus_bleu, modified_precision
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

from bleu_teach.ui import cli
from bleu_teach.ui.cli import EXIT_BAD_INPUT, main

ROOT = Path(__file__).resolve().parent.parent

REF_1 = "the cat is on the mat"
REF_2 = "there is a cat on the mat"
HYP = "the cat sat on the mat"


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _env(**changes: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "PYTHONUTF8")}
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def _run(
    *args: str, stdin: bytes | None = None, env: dict[str, str] | None = None, cwd: Path = ROOT
) -> subprocess.CompletedProcess[bytes]:
    """``python -m bleu_teach ARGS`` as a user runs it; output as bytes."""
    return subprocess.run(
        [sys.executable, "-m", "bleu_teach", *args],
        input=stdin if stdin is not None else b"",
        capture_output=True,
        env=env or _env(),
        cwd=cwd,
        timeout=60,
    )


def _main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _assert_one_error_line(code: int, out: str, err: str) -> str:
    assert code == EXIT_BAD_INPUT == 2, (code, out, err)
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def _exact_value(report: str) -> float:
    """The exact sentence score printed by explain ("exact value 0.254...")."""
    match = re.search(r"exact value ([0-9.e+-]+)\)", report)
    assert match, report[-500:]
    return float(match.group(1))


def _nltk_sentence(refs: Sequence[str], hyp: str, method: int = 0, max_n: int = 4) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NLTK warns about zero counts under method0
        return float(
            nltk_sentence_bleu(
                [r.split() for r in refs],
                hyp.split(),
                weights=(1 / max_n,) * max_n,
                smoothing_function=getattr(SmoothingFunction(), f"method{method}"),
            )
        )


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


# ---------------------------------------------------------------------------
# --smoothing: the package's one vocabulary ("3" or "method3")
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("k", range(8))
def test_smoothing_number_equals_the_name_and_nltk(capsys: pytest.CaptureFixture[str], k: int) -> None:
    code, by_number, err = _main(capsys, "explain", HYP, "--ref", REF_1, "--smoothing", str(k))
    assert code == 0 and err == ""
    code, by_name, _ = _main(capsys, "explain", HYP, "--ref", REF_1, "--smoothing", f"method{k}")
    assert code == 0
    assert by_number == by_name
    assert f"smoothing: method{k}" in by_number
    # HYP has no 4-gram match, so every method gives a different number here.
    assert _exact_value(by_number) == _nltk_sentence([REF_1], HYP, method=k)


def test_smoothing_3_from_the_real_command_line() -> None:
    by_number = _run("explain", HYP, "-r", REF_1, "-r", REF_2, "--smoothing", "3")
    by_name = _run("explain", HYP, "-r", REF_1, "-r", REF_2, "-s", "method3")
    assert by_number.returncode == 0, by_number.stderr
    assert by_number.stdout == by_name.stdout and by_number.stderr == b""
    assert _exact_value(by_number.stdout.decode()) == _nltk_sentence([REF_1, REF_2], HYP, method=3)


@pytest.mark.parametrize("name", ["9", "method8", "three", "", "-1"])
def test_unknown_smoothing_is_one_line_listing_the_choices(capsys: pytest.CaptureFixture[str], name: str) -> None:
    line = _assert_one_error_line(*_main(capsys, "explain", HYP, "-r", REF_1, f"--smoothing={name}"))
    assert "method0" in line and "method7" in line and "0 to 7" in line


# ---------------------------------------------------------------------------
# Output encodings that cannot show every character
# ---------------------------------------------------------------------------


def test_ascii_output_escapes_non_ascii_tokens() -> None:
    result = _run(
        "explain", "le chat é 猫", "--ref", "le chat é 猫", "--max-n", "2", env=_env(PYTHONIOENCODING="ascii")
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    text = result.stdout.decode("ascii")  # nothing but ASCII was written
    assert (
        "Hypothesis (4 tokens; matched unigrams marked \\u2713): le\\u2713 chat\\u2713 \\xe9\\u2713 \\u732b\\u2713"
        in text
    )
    assert "Reference 1 (4 tokens): le chat \\xe9 \\u732b" in text
    assert _exact_value(text) == 1.0


def test_ascii_output_escapes_non_ascii_in_html_and_in_errors() -> None:
    html = _run("explain", "猫", "--ref", "猫", "-n", "1", "--html", env=_env(PYTHONIOENCODING="ascii"))
    assert html.returncode == 0, html.stderr
    assert b"<table" in html.stdout and b"&#29483;" in html.stdout  # HTML gets a character reference
    bad = _run("explain", "é", "--ref", "é", "--tokenizer", "猫", env=_env(PYTHONIOENCODING="ascii"))
    line = _assert_one_error_line(bad.returncode, bad.stdout.decode("ascii"), bad.stderr.decode("ascii"))
    assert "\\u732b" in line


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX locales")
def test_c_locale_without_utf8_mode(tmp_path: Path) -> None:
    # LC_ALL=C with UTF-8 mode off: stdout is ASCII, and Python cannot decode
    # the command line; "é" typed there must still match "é" read from a file.
    (tmp_path / "ref.txt").write_bytes("le chat é\n".encode())
    env = _env(LC_ALL="C", LANG=None, LC_CTYPE=None, PYTHONUTF8="0", PYTHONCOERCECLOCALE="0")
    result = _run("explain", "le chat é", "--ref-file", str(tmp_path / "ref.txt"), "-n", "1", env=env)
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    assert (
        b"Hypothesis (3 tokens; matched unigrams marked \\u2713): le\\u2713 chat\\u2713 \\xe9\\u2713" in result.stdout
    )  # escaped
    assert b"Reference 1 (3 tokens): le chat \\xe9" in result.stdout
    assert _exact_value(result.stdout.decode("ascii")) == 1.0


# ---------------------------------------------------------------------------
# explain: text, standard input, --hyp-file and --ref-file
# ---------------------------------------------------------------------------


def test_hypothesis_from_standard_input(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, expected, _ = _main(capsys, "explain", HYP, "--ref", REF_1)
    assert code == 0
    _stdin(monkeypatch, (HYP + "\n").encode())
    code, from_stdin, err = _main(capsys, "explain", "-", "--ref", REF_1)
    assert code == 0 and err == ""
    assert from_stdin == expected
    assert (
        "Hypothesis (6 tokens; matched unigrams marked \u2713): the\u2713 cat\u2713 sat on\u2713 the\u2713 mat\u2713\n"
        in from_stdin
    )


def test_hypothesis_from_standard_input_subprocess() -> None:
    result = _run("explain", "-", "--ref", REF_1, "--ref", REF_2, "-s", "1", stdin=f"{HYP}\n".encode())
    assert result.returncode == 0, result.stderr
    assert _exact_value(result.stdout.decode()) == _nltk_sentence([REF_1, REF_2], HYP, method=1)


def test_files_and_texts_mix_in_command_line_order(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "hyp.txt").write_text(HYP + "\n", encoding="utf-8")
    (tmp_path / "ref2.txt").write_bytes(b"\xef\xbb\xbf" + REF_2.encode() + b"\r\n")  # BOM and CRLF, as Notepad saves
    ref_3 = "a cat is on the mat"
    code, from_files, err = _main(
        capsys,
        "explain",
        "--hyp-file",
        str(tmp_path / "hyp.txt"),
        "--ref",
        REF_1,
        "--ref-file",
        str(tmp_path / "ref2.txt"),
        "-r",
        ref_3,
        "-s",
        "2",
    )
    assert code == 0 and err == ""
    code, from_text, _ = _main(capsys, "explain", HYP, "--ref", REF_1, "--ref", REF_2, "--ref", ref_3, "-s", "2")
    assert from_files == from_text
    assert re.search(
        rf"Reference 1 \(6 tokens\): {REF_1}\nReference 2 \(7 tokens\): {REF_2}\n"
        rf"Reference 3 \(6 tokens\): {ref_3}\n",
        from_files,
    )
    assert _exact_value(from_files) == _nltk_sentence([REF_1, REF_2, ref_3], HYP, method=2)


def _long_hypothesis() -> tuple[str, str]:
    rng = random.Random(20240607)
    words = "the cat sat on a mat by door".split()
    tokens = [rng.choice(words) for _ in range(60_000)]  # about 3.6 characters each, with the spaces
    hyp = " ".join(tokens)[:199_999].rstrip()  # the last token may be cut short: still a token
    hyp += "x" * (200_000 - len(hyp))
    return hyp, "the cat sat on a mat by the door"


@pytest.mark.parametrize("how", ["file", "stdin"])
def test_a_200000_character_hypothesis(tmp_path: Path, how: str) -> None:
    hyp, ref = _long_hypothesis()
    assert len(hyp) == 200_000 and not hyp.endswith(" ")
    if how == "file":
        (tmp_path / "hyp.txt").write_text(hyp + "\n", encoding="utf-8")
        result = _run("explain", "--hyp-file", str(tmp_path / "hyp.txt"), "--ref", ref)
    else:
        result = _run("explain", "-", "--ref", ref, stdin=hyp.encode() + b"\n")
    assert result.returncode == 0, result.stderr[-2000:]
    text = result.stdout.decode()
    shown = re.search(r"Hypothesis \((\d+) tokens; matched unigrams marked \u2713\): (.*)", text)
    words = hyp.split()
    assert shown and int(shown.group(1)) == len(words)
    # The view shows the first 1,000 tokens and says how many more it counted without showing them.
    assert shown.group(2).replace("\u2713", "") == (
        " ".join(words[:1000]) + f" \u2026 and {len(words) - 1000:,} more tokens, not shown (all are counted)"
    )
    assert _exact_value(text) == _nltk_sentence([ref], hyp)


# ---------------------------------------------------------------------------
# corpus
# ---------------------------------------------------------------------------

CORPUS_HYPS = ["the cat sat on the mat", "there is a dog in the house", "", "a b c d e", "It is a guide to action"]
CORPUS_REFS_1 = [
    "the cat is on the mat",
    "there is a dog in my house",
    "nothing here",
    "a b c d e f",
    "It is a guide to action that ensures that the military will forever heed Party commands",
]
CORPUS_REFS_2 = [
    "there is a cat on the mat",
    "a dog is in the house",
    "empty hypothesis",
    "a b x d e",
    "It is the guiding principle which guarantees the military forces always being under command",
]


def _write_lines(path: Path, lines: Sequence[str], newline: str = "\n") -> str:
    path.write_bytes((newline.join(lines) + newline).encode("utf-8"))
    return str(path)


def _nltk_corpus(
    refs_by_segment: Sequence[Sequence[list[str]]], hyps: Sequence[list[str]], method: int = 0, max_n: int = 4
) -> tuple[float, str, int, int]:
    """NLTK's corpus score, the pooled m_n/t_n as the report prints them, and c and r."""
    score = corpus_bleu(
        refs_by_segment,
        hyps,
        weights=(1 / max_n,) * max_n,
        smoothing_function=getattr(SmoothingFunction(), f"method{method}"),
    )
    pooled = []
    for n in range(1, max_n + 1):
        fractions = [modified_precision(refs, hyp, n) for refs, hyp in zip(refs_by_segment, hyps)]
        pooled.append(f"{sum(f.numerator for f in fractions)}/{sum(f.denominator for f in fractions)}")
    c = sum(len(h) for h in hyps)
    r = sum(closest_ref_length(refs, len(h)) for refs, h in zip(refs_by_segment, hyps))
    return float(score), ", ".join(pooled), c, r


def _assert_corpus_report(text: str, expected: tuple[float, str, int, int]) -> None:
    score, pooled, c, r = expected
    assert f"pooled: p_n = sum of m_n / sum of t_n = {pooled}\n" in text
    assert re.search(rf"^c = {c} [<=>]+ r = {r}, so BP", text, re.M), text
    printed = re.search(r"^corpus BLEU = ([0-9.e+-]+)\n\(exact value ([0-9.e+-]+)\);", text, re.M)
    assert printed, text
    assert printed.group(1) == f"{score:.4f}"
    assert float(printed.group(2)) == score  # the exact value, equal to NLTK's


def test_corpus_equals_nltk_with_two_reference_files_and_an_empty_hypothesis(tmp_path: Path) -> None:
    hyps = _write_lines(tmp_path / "hyps.txt", CORPUS_HYPS)
    refs1 = _write_lines(tmp_path / "refs1.txt", CORPUS_REFS_1)
    refs2 = _write_lines(tmp_path / "refs2.txt", CORPUS_REFS_2, newline="\r\n")
    result = _run("corpus", hyps, refs1, refs2)
    assert result.returncode == 0, result.stderr
    assert result.stderr == b""
    expected = _nltk_corpus(
        [[a.split(), b.split()] for a, b in zip(CORPUS_REFS_1, CORPUS_REFS_2)], [h.split() for h in CORPUS_HYPS]
    )
    _assert_corpus_report(result.stdout.decode(), expected)


def test_corpus_from_standard_input_13a_lowercase_and_smoothing_number(tmp_path: Path) -> None:
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    hyps = ["The cat sat on the mat.", "There's a dog in the house!", "", "A, b, c."]
    refs = ["the cat is on the mat.", "There's a dog in my house!", "Nothing.", "a, b, c, d."]
    refs_file = _write_lines(tmp_path / "refs.txt", refs)
    by_number = _run(
        "corpus",
        "-",
        refs_file,
        "--tokenizer",
        "13a",
        "--lowercase",
        "--smoothing",
        "3",
        stdin="\n".join(hyps).encode(),
    )  # no final newline
    assert by_number.returncode == 0, by_number.stderr
    by_name = _run("corpus", "-", refs_file, "-t", "13a", "-l", "-s", "method3", stdin="\n".join(hyps).encode())
    assert by_number.stdout == by_name.stdout

    def tok(line: str) -> list[str]:  # sacreBLEU's own 13a tokenizer, lowercased first as sacreBLEU does
        return [str(token) for token in Tokenizer13a()(line.lower().rstrip()).split()]

    expected = _nltk_corpus([[tok(r)] for r in refs], [tok(h) for h in hyps], method=3)
    _assert_corpus_report(by_number.stdout.decode(), expected)


def test_corpus_max_n_and_html(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    hyps = _write_lines(tmp_path / "hyps.txt", CORPUS_HYPS)
    refs = _write_lines(tmp_path / "refs.txt", CORPUS_REFS_1)
    code, text, err = _main(capsys, "corpus", hyps, refs, "--max-n", "2")
    assert code == 0 and err == ""
    _assert_corpus_report(
        text, _nltk_corpus([[r.split()] for r in CORPUS_REFS_1], [h.split() for h in CORPUS_HYPS], max_n=2)
    )
    code, html, err = _main(capsys, "corpus", hyps, refs, "--max-n", "2", "--html")
    assert code == 0 and err == ""
    assert html.lstrip().startswith("<") and "<table" in html and "corpus BLEU" in html


def test_corpus_reference_file_from_standard_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hyps = _write_lines(tmp_path / "hyps.txt", CORPUS_HYPS)
    _stdin(monkeypatch, ("\n".join(CORPUS_REFS_1) + "\n").encode())
    code, text, err = _main(capsys, "corpus", hyps, "-")
    assert code == 0 and err == ""
    _assert_corpus_report(text, _nltk_corpus([[r.split()] for r in CORPUS_REFS_1], [h.split() for h in CORPUS_HYPS]))


# ---------------------------------------------------------------------------
# Every error: one "error:" line on stderr, exit code 2, nothing on stdout
# ---------------------------------------------------------------------------


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    paths = {
        "hyps": _write_lines(tmp_path / "hyps.txt", ["a b c", "", "d e"]),
        "refs": _write_lines(tmp_path / "refs.txt", ["a b c", "x y", "d e"]),
        "short": _write_lines(tmp_path / "short.txt", ["a b c", "x y"]),
        "long": _write_lines(tmp_path / "long.txt", ["a", "b", "c", "d"]),
        "blank_line": _write_lines(tmp_path / "blank_line.txt", ["a b c", "   ", "d e"]),
        "one": _write_lines(tmp_path / "one.txt", ["a b c"]),
    }
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "latin1.txt").write_bytes("caf\u00e9 ok\n".encode("latin-1"))
    (tmp_path / "late_bad.txt").write_bytes(b"a b c\n" * 3000 + "caf\u00e9\n".encode("latin-1"))
    paths["late_bad"] = str(tmp_path / "late_bad.txt")
    paths["empty"] = str(tmp_path / "empty.txt")
    paths["latin1"] = str(tmp_path / "latin1.txt")
    paths["missing"] = str(tmp_path / "missing.txt")
    paths["dir"] = str(tmp_path)
    return paths


ERROR_CASES: list[tuple[list[str], str]] = [
    ([], "choose a command"),
    (["translate"], "invalid choice"),
    (["explain", "a b"], "no reference"),
    (["explain", "--ref", "a b"], "no hypothesis"),
    (["explain", "a b", "--hyp-file", "{one}", "--ref", "a"], "give the hypothesis once"),
    (["explain", "a b", "--ref", ""], "reference 1 is empty"),
    (["explain", "a b", "--ref", "a", "--ref", "   "], "reference 2 is empty"),
    (["explain", "a b", "--ref-file", "{blank_line}"], "3 lines"),
    (["explain", "--hyp-file", "{hyps}", "--ref", "a"], "use 'python -m bleu_teach corpus'"),
    (["explain", "a\nb", "--ref", "a"], "2 lines"),
    (["explain", "--hyp-file", "{missing}", "--ref", "a"], "missing.txt"),
    (["explain", "a", "--ref-file", "{missing}"], "missing.txt"),
    (["explain", "a", "--ref-file", "{dir}"], "cannot read"),
    (["explain", "a", "--ref-file", "{latin1}"], "latin1.txt' is not UTF-8"),
    (["explain", "a", "--ref-file", "{empty}"], "empty.txt') is empty (no tokens)"),
    (["explain", "-", "--ref-file", "-"], "only one input"),
    (["explain", "a", "--ref", "a", "--max-n", "0"], "--max-n must be at least 1"),
    (["explain", "a", "--ref", "a", "--max-n", "two"], "invalid int value"),
    (["explain", "a", "--ref", "a", "--tokenizer", "moses"], "invalid choice: 'moses'"),
    (["explain", "a", "--ref", "a", "--frobnicate"], "unrecognized arguments"),
    (["corpus", "{hyps}"], "REF_FILE"),
    (["corpus", "{hyps}", "{short}"], "'{short}' has 2 lines but the hypotheses ('{hyps}') have 3"),
    (["corpus", "{hyps}", "{refs}", "{long}"], "has 4 lines"),
    (["corpus", "{empty}", "{refs}"], "empty.txt' is empty; put one sentence per line"),
    (["corpus", "{hyps}", "{empty}"], "empty.txt' is empty"),
    (["corpus", "{hyps}", "{blank_line}"], "line 2 of the reference file '{blank_line}' is empty"),
    (["corpus", "{missing}", "{refs}"], "cannot read '{missing}'"),
    (["corpus", "{hyps}", "{latin1}"], "not UTF-8 text (byte 0xe9 on line 1)"),
    (["corpus", "{hyps}", "{late_bad}"], "late_bad.txt' is not UTF-8 text (byte 0xe9 on line 3001)"),
    (["corpus", "{hyps}", "{dir}"], "cannot read"),
    (["corpus", "-", "-"], "only one input"),
    (["corpus", "{hyps}", "{refs}", "-s", "8"], "method7"),
    (["corpus", "{hyps}", "{refs}", "-n", "-1"], "--max-n must be at least 1"),
]


@pytest.mark.parametrize(("argv", "expected"), ERROR_CASES, ids=[" ".join(a) or "no-args" for a, _ in ERROR_CASES])
def test_bad_input_is_one_error_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    files: dict[str, str],
    argv: list[str],
    expected: str,
) -> None:
    _stdin(monkeypatch, b"a b c\n")
    line = _assert_one_error_line(*_main(capsys, *[a.format(**files) for a in argv]))
    assert expected.format(**files) in line


def test_bad_input_from_the_real_command_line(files: dict[str, str]) -> None:
    for argv in (
        ["corpus", files["hyps"], files["short"]],
        ["corpus", files["hyps"], files["blank_line"]],
        ["explain", "a", "--ref-file", files["latin1"]],
        ["explain", "a", "--ref", "a", "-s", "method9"],
    ):
        result = _run(*argv)
        _assert_one_error_line(result.returncode, result.stdout.decode(), result.stderr.decode())


@pytest.mark.parametrize(
    ("problem", "code", "expected"),
    [
        (KeyboardInterrupt(), 130, "error: interrupted"),
        (RuntimeError("boom\nsecond line"), 1, "error: unexpected RuntimeError inside bleu_teach: boom second line"),
    ],
)
def test_interrupts_and_bugs_are_one_line_too(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    problem: BaseException,
    code: int,
    expected: str,
) -> None:
    def fail(*args: object, **kwargs: object) -> None:
        raise problem

    monkeypatch.setattr(cli, "_report", fail)
    result, out, err = _main(capsys, "explain", "a", "--ref", "a")
    assert (result, out) == (code, "")
    assert len(err.splitlines()) == 1 and err.startswith(expected), err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")
def test_a_closed_pipe_is_not_an_error() -> None:
    hyp, ref = _long_hypothesis()  # a report far larger than a pipe's buffer
    with subprocess.Popen(
        [sys.executable, "-m", "bleu_teach", "explain", "-", "--ref", ref],
        cwd=ROOT,
        env=_env(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdin and process.stdout and process.stderr
        process.stdin.write(hyp.encode())
        process.stdin.close()
        assert process.stdout.read(18) == b"BLEU, step by step"
        process.stdout.close()  # like "| head -1"
        err = process.stderr.read()
        assert process.wait(timeout=60) == 0
    assert err == b""


# ---------------------------------------------------------------------------
# Help texts, and their examples run
# ---------------------------------------------------------------------------


def test_help_texts(capsys: pytest.CaptureFixture[str]) -> None:
    code, top, _ = _main(capsys, "--help")
    assert code == 0
    assert "explain" in top and "corpus" in top and "examples:" in top
    code, explain_help, _ = _main(capsys, "explain", "--help")
    assert code == 0
    for text in ("--ref-file", "--hyp-file", "- to read it", "method7", "0 to 7", "13a", "examples:"):
        assert text in explain_help, text
    code, corpus_help, _ = _main(capsys, "corpus", "-h")
    assert code == 0
    for text in ("HYP_FILE", "REF_FILE", "exactly as many lines", "empty reference line is not", "examples:"):
        assert text in corpus_help, text


@pytest.mark.skipif(sys.platform == "win32", reason="the examples are bash command lines")
def test_every_help_example_runs(tmp_path: Path) -> None:
    for name, lines in {
        "hyp.txt": [HYP],
        "ref.txt": [REF_1],
        "hyps.txt": CORPUS_HYPS,
        "refs.txt": CORPUS_REFS_1,
        "refs1.txt": CORPUS_REFS_1,
        "refs2.txt": CORPUS_REFS_2,
    }.items():
        _write_lines(tmp_path / name, lines)
    examples = []
    for subcommand in ([], ["explain"], ["corpus"], ["chrf"], ["chrf-corpus"]):
        shown = _run(*subcommand, "--help").stdout.decode()
        found = [
            line.strip()
            for line in shown.split("examples:")[1].splitlines()
            if line.strip().startswith(("python -m bleu_teach", "my_translator"))
        ]
        assert len(found) >= 3, (subcommand, found)
        examples += found
    python = shlex.quote(sys.executable)
    for example in examples:
        command = example.replace("my_translator < source.txt", "cat hyps.txt")
        command = command.replace("python -m bleu_teach", f"{python} -m bleu_teach")
        result = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=_env(), capture_output=True, timeout=60)
        assert result.returncode == 0, (example, result.stderr)
        out = (tmp_path / "report.tex").read_bytes() if "> report.tex" in example else result.stdout
        if "--format json" in example:
            assert isinstance(json.loads(out), dict), example
        elif "--format markdown" in example:
            assert out.startswith(b"### "), example
        elif "--format latex --standalone" in example:
            assert out.startswith(b"\\documentclass") and out.rstrip().endswith(b"\\end{document}"), example
        else:
            assert out.startswith((b"BLEU, step by step", b"Corpus BLEU, step by step", b"chrF2")), example


def test_readme_corpus_example_runs_on_the_shipped_example_files() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    import make_examples

    for name, lines in make_examples.files().items():  # the shipped files are what the script makes
        assert (ROOT / "examples" / name).read_text(encoding="utf-8") == "\n".join(lines) + "\n"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"python -m bleu_teach (corpus examples/\S+ examples/\S+ examples/\S+[^\n`]*)", readme)
    assert command, "the README shows the corpus command on the example files"
    result = _run(*shlex.split(command.group(1)))
    assert result.returncode == 0, result.stderr
    from bleu_teach import tokenize

    hyps = [tokenize(h, "13a") for h in make_examples.files()["hyps.txt"]]
    refs = [
        [tokenize(a, "13a"), tokenize(b, "13a")]
        for a, b in zip(make_examples.files()["refs1.txt"], make_examples.files()["refs2.txt"])
    ]
    from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = nltk_corpus_bleu(refs, hyps)
    assert f"(exact value {expected!r})" in result.stdout.decode()


def test_html_on_an_ascii_terminal_uses_character_references() -> None:
    result = _run("explain", "--html", "--ref", "Straße", "Straße", env={**_env(), "PYTHONIOENCODING": "ascii"})
    assert result.returncode == 0, result.stderr
    assert b"Stra&#223;e" in result.stdout and b"\\xdf" not in result.stdout


def test_a_full_disk_is_one_error_line() -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full on this system")
    with open("/dev/full", "wb") as full:
        result = subprocess.run(
            [sys.executable, "-m", "bleu_teach", "explain", "--ref", "a b", "a b"],
            stdout=full,
            stderr=subprocess.PIPE,
            env=_env(),
            cwd=ROOT,
            timeout=60,
        )
    lines = result.stderr.decode().splitlines()
    assert result.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: cannot write the report")


# ---------------------------------------------------------------------------
# Every metric of the registry, in every format
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "html", "markdown", "latex", "json"])
def test_every_format_prints_the_same_score(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    import bleu_teach as bt

    expected = bt.explain([REF_1.split()], HYP.split(), weights=(0.5, 0.5))
    code, out, err = _main(capsys, "explain", HYP, "--ref", REF_1, "--max-n", "2", "--format", fmt)
    assert (code, err) == (0, "")
    if fmt == "json":
        assert json.loads(out)["score"] == expected.score
    else:
        shown = {
            "text": expected.to_text(),
            "html": expected.to_html(),
            "markdown": expected.to_markdown(),
            "latex": expected.to_latex(),
        }[fmt]
        assert out == shown + "\n"


def test_html_flag_is_format_html(capsys: pytest.CaptureFixture[str]) -> None:
    assert _main(capsys, "explain", HYP, "--ref", REF_1, "--html") == _main(
        capsys, "explain", HYP, "--ref", REF_1, "--format", "html"
    )


def test_standalone_needs_latex(capsys: pytest.CaptureFixture[str]) -> None:
    line = _assert_one_error_line(*_main(capsys, "explain", HYP, "--ref", REF_1, "--standalone"))
    assert "--standalone goes with --format latex" in line
    code, out, _ = _main(capsys, "explain", HYP, "--ref", REF_1, "--format", "latex", "--standalone")
    assert code == 0 and out.startswith("\\documentclass") and out.rstrip().endswith("\\end{document}")


@pytest.mark.parametrize("word_order", [0, 2])
def test_chrf_equals_sacrebleu(capsys: pytest.CaptureFixture[str], word_order: int) -> None:
    from sacrebleu.metrics import CHRF

    hyp, refs = "the cat is chasing the dog", ["the cat chased the dog", "a dog chases a cat"]
    code, out, err = _main(
        capsys, "chrf", hyp, "--ref", refs[0], "--ref", refs[1], "--word-order", str(word_order), "--format", "json"
    )
    assert (code, err) == (0, "")
    assert abs(json.loads(out)["score"] - CHRF(word_order=word_order).sentence_score(hyp, refs).score) < 1e-9


def test_chrf_corpus_equals_sacrebleu(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from sacrebleu.metrics import CHRF

    hyps = _write_lines(tmp_path / "hyps.txt", CORPUS_HYPS)
    refs1 = _write_lines(tmp_path / "refs1.txt", CORPUS_REFS_1)
    refs2 = _write_lines(tmp_path / "refs2.txt", CORPUS_REFS_2)
    code, out, err = _main(capsys, "chrf-corpus", hyps, refs1, refs2, "--format", "json")
    assert (code, err) == (0, "")
    oracle = CHRF().corpus_score(CORPUS_HYPS, [CORPUS_REFS_1, CORPUS_REFS_2]).score
    assert abs(json.loads(out)["score"] - oracle) < 1e-9
    code, text, _ = _main(capsys, "chrf-corpus", hyps, refs1)
    assert code == 0 and text.startswith("chrF2 (a corpus), step by step")


def test_readme_chrf_example_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"python -m bleu_teach (chrf [^\n`]*)", readme)
    assert command, "the README shows the chrf command"
    result = _run(*shlex.split(command.group(1)))
    assert result.returncode == 0 and result.stdout.startswith(b"chrF2++ (one sentence), step by step")
