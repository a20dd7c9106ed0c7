"""The terminal entry point: ``python -m bleu_teach`` (or the ``bleu-teach`` script).

Two commands for every metric of :data:`bleu_teach.metrics.METRICS` that the suite explains, one
sentence and one test set::

    python -m bleu_teach explain HYPOTHESIS --ref REFERENCE [--ref ...] [options]   # BLEU
    python -m bleu_teach corpus HYP_FILE REF_FILE [REF_FILE ...] [options]          # BLEU
    python -m bleu_teach chrf HYPOTHESIS --ref REFERENCE [--ref ...] [options]      # chrF
    python -m bleu_teach chrf-corpus HYP_FILE REF_FILE [REF_FILE ...] [options]     # chrF

Each prints the metric's step-by-step report (for BLEU,
:func:`bleu_teach.explain` and :func:`bleu_teach.explain_corpus`; for chrF,
:func:`bleu_teach.explain_chrf` and :func:`bleu_teach.chrf_score`).  The
options are the metric's own (BLEU: ``--tokenizer``, ``--lowercase``,
``--max-n`` for uniform weights over orders 1 to n, ``--smoothing``), and
every command takes ``--format text|html|markdown|latex|json`` (``--html``
is ``--format html``; ``--standalone`` makes the LaTeX a complete document).

Input, decided here:

* ``explain``: the hypothesis is the text argument, ``-`` (read it from
  standard input) or ``--hyp-file PATH``.  References come from ``--ref
  TEXT`` and ``--ref-file PATH``, both repeatable and mixable; they are used
  in the order given.  ``explain`` scores one sentence, so a hypothesis or
  reference that spans several lines is an error that points to ``corpus``
  (the same holds for every metric's sentence command)
  (trailing newlines are dropped first).  A reference with no tokens is an
  error.  A hypothesis that is literally ``-`` can be given with
  ``--hyp-file``.
* ``corpus``: one segment per line; every reference file is one reference
  stream with as many lines as the hypothesis file (sacreBLEU's command-line
  convention).  ``HYP_FILE`` may be ``-`` for standard input.  An empty line
  is a valid (empty) hypothesis; an empty reference line is an error that
  names the file and line.
* Files and standard input are read as bytes and decoded as UTF-8 (a
  leading byte-order mark is dropped); lines end at ``\\n``, ``\\r\\n`` or
  ``\\r``, as when Python reads a text file; one trailing newline is
  stripped.  ``--hyp-file``, ``--ref-file`` and ``REF_FILE`` may be ``-``
  too, but at most one input can come from standard input.  When standard
  input is a terminal, a one-line hint on standard error says how to end it.
* ``--smoothing`` takes the package's one vocabulary, checked by
  :func:`bleu_teach.bleu.smoothing.get_smoothing`: ``method0`` to ``method7`` or
  just the number, ``0`` to ``7``.

Output, decided here: the report goes to standard output.  If that stream
cannot encode a character (``PYTHONIOENCODING=ascii``, or ``LC_ALL=C`` with
Python's UTF-8 mode off), :func:`main` reconfigures standard output and
standard error with ``errors="backslashreplace"``: ``é`` is printed as
``\\xe9`` and ``猫`` as ``\\u732b`` instead of crashing.  Streams that
already cannot fail (UTF-8, or an error handler such as ``replace``) are
left alone; this is the only change :func:`main` makes to the streams of
the calling program.  In that same setting Python cannot decode non-ASCII text typed on
the command line; it is decoded as UTF-8, so that it matches the same text
read from a file.  If the reader closes the pipe early (``... | head``), the rest
of the report is dropped quietly.

Exit codes: 0 the report was printed; 2 bad input, with exactly one line
starting with ``error:`` on standard error and nothing on standard output;
130 interrupted (Ctrl-C), also with one ``error:`` line; 1 an unexpected
error inside bleu_teach (a bug), also as one ``error:`` line.

>>> main(["explain", "the cat", "--ref", "the cat", "--max-n", "2"])  # doctest: +ELLIPSIS
BLEU, step by step
...
BLEU = 1.0000
(BP * exp(sum of log terms) = 1.0000 * exp(0.0000); exact value 1.0)
0

The parser and its help texts are built in :mod:`bleu_teach.ui.cli_parser`;
files and standard input are read, within limits, by
:mod:`bleu_teach.ui.cli_input`.
"""

from __future__ import annotations

import argparse
import codecs
import io
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from bleu_teach.inputs.optional import MissingLibrary
from bleu_teach.metrics import METRICS, Metric, explained_metrics
from bleu_teach.ui.classroom_command import run_classroom
from bleu_teach.ui.cli_input import (
    STDIN,
    InputError,
    check_stdin_once,
    command_line_text,
    describe,
    read_lines,
    read_text,
)
from bleu_teach.ui.cli_parser import PROG, build_parser
from bleu_teach.ui.teacher_files import exercise_files, exercise_tally
from bleu_teach.views.text_writer import safe
from bleu_teach.views.viewable import Viewable, render

__all__ = ["main", "EXIT_OK", "EXIT_BAD_INPUT", "EXIT_BUG", "EXIT_MISSING_LIBRARY", "EXIT_INTERRUPTED"]

EXIT_OK = 0
EXIT_BUG = 1
EXIT_BAD_INPUT = 2
#: A library the command needs is not installed (the core needs none; --tokenizer 13a needs sacreBLEU).
EXIT_MISSING_LIBRARY = 3
EXIT_INTERRUPTED = 130


# ---------------------------------------------------------------------------
# The commands: read the text, check the options, call the metric's explainer
# ---------------------------------------------------------------------------


def _options(metric: Metric, args: argparse.Namespace) -> dict[str, Any]:
    values = {}
    for option in metric.options:
        value = getattr(args, option.name)
        if option.check is not None:
            try:
                option.check(value)
            except ValueError as problem:
                message = str(problem)
                if message[:1].isupper() and message[1:2].islower():  # "Unknown ..." reads on from the flag
                    message = message[0].lower() + message[1:]
                raise InputError(f"{option.flag} {message}") from None
        values[option.name] = value
    return values


def _one_line(text: str, what: str) -> str:
    """Text for explain: trailing newlines dropped, and no line break inside."""
    text = text.rstrip("\n")
    if "\n" in text:
        count = text.count("\n") + 1
        raise InputError(
            f"{what} has {count} lines, but explain scores one sentence; put it on one line, "
            f"or use '{PROG} corpus' to score one sentence per line"
        )
    return text


def _not_blank(text: str, where: str) -> str:
    if not text.split():
        raise InputError(f"{where} is empty (no tokens); every reference needs at least one word")
    return text


def _sentence_texts(args: argparse.Namespace) -> tuple[str, list[str]]:
    if args.hypothesis is not None and args.hyp_file is not None:
        raise InputError(
            "give the hypothesis once: as text, as - (standard input) or with --hyp-file, not two of these"
        )
    if args.hypothesis is None and args.hyp_file is None:
        raise InputError(
            "no hypothesis: give it as text in quotes, as - to read standard input, or with --hyp-file PATH"
        )
    sources: list[tuple[str, str]] = args.refs or []
    if not sources:
        raise InputError("no reference: give at least one with --ref TEXT or --ref-file PATH")
    hyp_source = STDIN if args.hypothesis == STDIN else args.hyp_file
    check_stdin_once([hyp_source] + [value for kind, value in sources if kind == "file"])

    if hyp_source is None:
        hyp_text = _one_line(command_line_text(args.hypothesis), "the hypothesis")
    else:
        hyp_text = _one_line(read_text(hyp_source), f"the hypothesis ({describe(hyp_source)})")
    ref_texts = []
    for index, (kind, value) in enumerate(sources, start=1):
        where = f"reference {index}" + ("" if kind == "text" else f" ({describe(value)})")
        text = _one_line(command_line_text(value) if kind == "text" else read_text(value), where)
        ref_texts.append(_not_blank(text, where))
    return hyp_text, ref_texts


def _corpus_texts(args: argparse.Namespace) -> tuple[list[str], list[list[str]]]:
    check_stdin_once([args.hyp_file, *args.ref_files])
    hyp_lines = read_lines(args.hyp_file, "the hypothesis file")
    references: list[list[str]] = [[] for _ in hyp_lines]
    for path in args.ref_files:
        lines = read_lines(path, "the reference file")
        if len(lines) != len(hyp_lines):
            raise InputError(
                f"the reference file {describe(path)} has {len(lines)} line{'s' if len(lines) != 1 else ''} "
                f"but the hypotheses ({describe(args.hyp_file)}) have {len(hyp_lines)}; each reference file "
                f"needs exactly one line per hypothesis, in the same order"
            )
        for number, line in enumerate(lines, start=1):
            if not line.split():
                raise InputError(
                    f"line {number} of the reference file {describe(path)} is empty (no tokens); every "
                    f"sentence needs a reference: fix that line, or delete line {number} from every file"
                )
            references[number - 1].append(line)
    return hyp_lines, references


def _report(args: argparse.Namespace) -> Viewable:
    """The report the command asks for: its metric's explainer on the text read."""
    metric = METRICS[args.metric]
    options = _options(metric, args)
    explain_sentence, explain_corpus = metric.explain_sentence, metric.explain_corpus
    if explain_sentence is None or explain_corpus is None:  # only the metrics it explains have commands
        raise InputError(f"{metric.name} is scored by {metric.scored_by} and not explained here.")
    try:
        if args.level == "sentence":
            hypothesis, references = _sentence_texts(args)
            return explain_sentence(hypothesis, references, **options)
        hypotheses, per_hypothesis = _corpus_texts(args)
        return explain_corpus(hypotheses, per_hypothesis, **options)
    except (TypeError, ValueError) as problem:  # the API names its arguments; here they are flags
        message = str(problem)
        for option in metric.options:
            message = re.sub(rf"(?<![\w-]){re.escape(option.name)}(?![\w-])", option.flag, message)
        raise InputError(message) from None


# ---------------------------------------------------------------------------
# Output and the entry point
# ---------------------------------------------------------------------------

_CANNOT_FAIL = {"replace", "backslashreplace", "xmlcharrefreplace", "namereplace", "ignore"}


def _escape_unencodable(stream: TextIO | None) -> None:
    """Let ``stream`` write every character, as an escape if its encoding has no byte for it."""
    reconfigure = getattr(stream, "reconfigure", None)
    if stream is None or reconfigure is None:
        return
    errors = getattr(stream, "errors", None) or "strict"
    try:
        utf = codecs.lookup(getattr(stream, "encoding", None) or "ascii").name.startswith("utf")
    except LookupError:
        utf = False
    if errors in _CANNOT_FAIL or (utf and errors in ("surrogateescape", "surrogatepass")):
        return
    reconfigure(errors="backslashreplace")


def _error(message: str) -> None:
    if sys.stderr is None:  # started with standard error closed ("2>&-"): the exit code alone says it
        return
    try:
        print("error: " + " ".join(safe(message).split()), file=sys.stderr)
    except (OSError, ValueError):  # standard error closed under us, or a closed pipe
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``) and return the exit code."""
    _escape_unencodable(sys.stdout)
    _escape_unencodable(sys.stderr)
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as done:  # --help
            return done.code if isinstance(done.code, int) else EXIT_OK
        except InputError as problem:
            given = list(sys.argv[1:] if argv is None else argv)
            shorts = {"-h", "-r"} | {f"-{o.short}" for m in explained_metrics() for o in m.options if o.short}
            dashed = [
                a
                for a in given
                if a.startswith("-") and not a.startswith("--") and a != "-" and (" " in a or a[:2] not in shorts)
            ]
            if dashed:  # "-the cat" was read as the option -t with the value "he cat"
                command = next((a for a in given if not a.startswith("-")), "explain")
                where = "--ref ... " if command in [m.sentence_command for m in explained_metrics()] else ""
                raise InputError(
                    f"{problem}. {dashed[0]!r} starts with '-', so it was read as an option; to give "
                    f"text (or a file name) that starts with '-', put it after --, options first: "
                    f"{PROG} {command} {where}-- {dashed[0]!r}"
                ) from None
            raise
        if args.command == "class":
            return run_classroom(args)
        if args.command == "exercises" and args.exercise_command == "tally":
            text = exercise_tally(args)
        elif args.command == "exercises":
            written = exercise_files(args)
            text = "\n".join(f"wrote {safe(path)}" for path in written)
            if sys.stdout is None:  # the files are written; the list of them has nowhere to go
                return EXIT_OK
        elif args.command is None:
            commands = ", ".join(f"{m.sentence_command}, {m.corpus_command}" for m in explained_metrics())
            raise InputError(f"choose a command: {commands} (try '{PROG} --help')")
        elif args.standalone and args.format != "latex":
            raise InputError("--standalone goes with --format latex (a complete LaTeX document)")
        else:
            text = render(_report(args), args.format, standalone=args.standalone)
        if args.format == "html":
            # In HTML, a character the output cannot encode becomes a character reference (&#223;),
            # which a browser shows as the character itself.
            reconfigure = getattr(sys.stdout, "reconfigure", None)
            if reconfigure is not None and getattr(sys.stdout, "errors", "") == "backslashreplace":
                reconfigure(errors="xmlcharrefreplace")
    except (InputError, TypeError, ValueError) as problem:
        _error(str(problem))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        _error("interrupted")
        return EXIT_INTERRUPTED
    except MissingLibrary as missing:  # a library this command needs (--tokenizer 13a: sacreBLEU) is not installed
        _error(str(missing))
        return EXIT_MISSING_LIBRARY
    except BrokenPipeError:  # a command that prints as it goes (class ...), its reader gone ("| head"): not an error
        _silence_stdout()
        return EXIT_OK
    except Exception as problem:  # a bug: still one line, never a traceback for a learner
        _error(
            f"unexpected {type(problem).__name__} inside bleu_teach: {problem} "
            f"(this is a bug; please report it with the command you ran)"
        )
        return EXIT_BUG
    if sys.stdout is None:  # started with standard output closed (">&-")
        _error(
            "standard output is closed, so there is nowhere to write the report; "
            "redirect it to a file instead (> report.txt)"
        )
        return EXIT_BAD_INPUT
    try:
        print(text)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped reading (e.g. "| head"): not an error
        _silence_stdout()
    except OSError as problem:  # e.g. a full disk
        _error(f"cannot write the report to standard output: {problem.strerror or problem}")
        _silence_stdout()
        return EXIT_BAD_INPUT
    return EXIT_OK


def _silence_stdout() -> None:
    """After a broken pipe, point stdout at /dev/null so the interpreter's final flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass
