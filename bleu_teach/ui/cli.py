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
from bleu_teach.metrics import METRICS, Metric, Option, explained_metrics
from bleu_teach.ui.classroom_command import add_classroom_commands, run_classroom
from bleu_teach.ui.teacher_files import add_exercise_commands, exercise_files, exercise_tally
from bleu_teach.views.text_writer import safe
from bleu_teach.views.viewable import FORMATS, Viewable, render

__all__ = ["main", "EXIT_OK", "EXIT_BAD_INPUT", "EXIT_BUG", "EXIT_MISSING_LIBRARY", "EXIT_INTERRUPTED"]

EXIT_OK = 0
EXIT_BUG = 1
EXIT_BAD_INPUT = 2
#: A library the command needs is not installed (the core needs none; --tokenizer 13a needs sacreBLEU).
EXIT_MISSING_LIBRARY = 3
EXIT_INTERRUPTED = 130

PROG = "python -m bleu_teach"
STDIN = "-"


class _InputError(Exception):
    """Bad input: becomes one ``error:`` line and exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _InputError(message)


# ---------------------------------------------------------------------------
# Help texts
# ---------------------------------------------------------------------------

_MAIN_EPILOG = f"""\
examples:
  {PROG} explain "the cat sat on the mat" --ref "the cat is on the mat"
  {PROG} explain - --ref-file ref.txt < hyp.txt
  {PROG} corpus hyps.txt refs.txt --tokenizer 13a
  {PROG} chrf "the cat is chasing the dog" --ref "the cat chased the dog" --word-order 2
  {PROG} corpus hyps.txt refs.txt --format latex --standalone > report.tex

Run "{PROG} COMMAND --help" for every option of a command.
"""


def _choices_text(metric: Metric) -> str:
    listed = [o for o in metric.options if o.choices]
    if not listed:
        return ""
    width = max(len(name) for o in listed for name in o.choices)
    lines: list[str] = []
    for option in listed:
        lines += ["", f"{option.help.split(' (')[0]} ({option.flag}):"]
        lines += [f"  {name:<{width}}  {text}" for name, text in option.choices.items()]
    return "\n".join(lines)


def _sentence_epilog(metric: Metric) -> str:
    command = f"{PROG} {metric.sentence_command}"
    return f"""\
examples:
  {command} "the cat sat on the mat" --ref "the cat is on the mat"
  {command} --hyp-file hyp.txt --ref-file ref.txt --ref "a cat is on the mat"
  {command} "the cat sat on the mat" --ref "the cat is on the mat" --format markdown
{_choices_text(metric)}
"""


def _corpus_epilog(metric: Metric) -> str:
    command = f"{PROG} {metric.corpus_command}"
    return f"""\
Line 1 of every reference file is a reference for line 1 of HYP_FILE, and so
on: each reference file must have exactly as many lines as HYP_FILE.  An empty
hypothesis line is allowed; an empty reference line is not.

examples:
  {command} hyps.txt refs.txt
  {command} hyps.txt refs1.txt refs2.txt --format json
  my_translator < source.txt | {command} - refs.txt
{_choices_text(metric)}
"""


class _AppendSource(argparse.Action):
    """--ref TEXT and --ref-file PATH append to one list, in command-line order."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        sources = list(getattr(namespace, self.dest, None) or [])
        sources.append((self.const, values))
        setattr(namespace, self.dest, sources)


def _flags(option: Option) -> list[str]:
    return [option.flag] + ([f"-{option.short}"] if option.short else [])


def _add_options(parser: argparse.ArgumentParser, metric: Metric) -> None:
    group = parser.add_argument_group("how to score")
    for option in metric.options:
        if option.kind is bool:
            group.add_argument(*_flags(option), dest=option.name, action="store_true", help=option.help)
            continue
        choices = list(option.choices) if option.choices and option.check is None else None
        group.add_argument(*_flags(option), dest=option.name, type=option.kind, default=option.default,
                           choices=choices, metavar=option.name.split("_")[-1].upper(), help=option.help)
    out = parser.add_argument_group("output")
    out.add_argument("--format", "-f", choices=FORMATS, default="text",
                     help="text (default), html, markdown (a handout or course page), latex (an exam sheet or "
                          "a slide) or json (every number, for a pipeline)")
    out.add_argument("--html", dest="format", action="store_const", const="html", help="the same as --format html")
    out.add_argument("--standalone", action="store_true",
                     help="with --format latex: a complete document that compiles with pdflatex")


def _parser() -> argparse.ArgumentParser:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = _Parser(
        prog=PROG,
        description="Compute BLEU (and chrF) step by step: the n-gram counts, the clipped precisions,\n"
                    "the brevity penalty and how they combine into the score.",
        epilog=_MAIN_EPILOG,
        formatter_class=formatter,
    )
    commands = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    for metric in explained_metrics():
        sentence = commands.add_parser(
            metric.sentence_command, formatter_class=formatter, epilog=_sentence_epilog(metric),
            help=f"{metric.name} of one hypothesis (one sentence), every step shown",
            description=f"Score one hypothesis (a system's translation of one sentence) against one or more\n"
                        f"reference translations, and show every step of sentence-level {metric.name}.\n"
                        f"{metric.description}.",
        )
        sentence.add_argument("hypothesis", nargs="?", metavar="HYPOTHESIS",
                              help="the hypothesis as text (quote it), or - to read it from standard input")
        sentence.add_argument("--hyp-file", metavar="PATH", help="read the hypothesis from this UTF-8 text file instead")
        refs = sentence.add_argument_group("references (give at least one; repeat for more, in any mix)")
        refs.add_argument("--ref", "-r", dest="refs", action=_AppendSource, const="text", metavar="TEXT",
                          help="a reference translation as text")
        refs.add_argument("--ref-file", dest="refs", action=_AppendSource, const="file", metavar="PATH",
                          help="a reference translation read from a UTF-8 text file")
        _add_options(sentence, metric)
        sentence.set_defaults(metric=metric.name, level="sentence")

        corpus = commands.add_parser(
            metric.corpus_command, formatter_class=formatter, epilog=_corpus_epilog(metric),
            help=f"corpus {metric.name} of a whole test set (one sentence per line)",
            description=f"Score a test set with corpus-level {metric.name}: the counts of all sentences are\n"
                        f"added up first, then the score is computed once (it is not the mean of the\n"
                        f"sentence scores).",
        )
        corpus.add_argument("hyp_file", metavar="HYP_FILE",
                            help="the hypotheses, one per line (UTF-8), or - to read them from standard input")
        corpus.add_argument("ref_files", nargs="+", metavar="REF_FILE",
                            help="a reference file, one reference per line, as many lines as HYP_FILE; "
                            "give several files for several references per sentence")
        _add_options(corpus, metric)
        corpus.set_defaults(metric=metric.name, level="corpus")
    add_exercise_commands(commands, formatter)
    add_classroom_commands(commands, formatter)
    return parser


# ---------------------------------------------------------------------------
# Reading input
# ---------------------------------------------------------------------------


def _describe(source: str) -> str:
    return "standard input" if source == STDIN else f"'{source}'"


#: The most the CLI reads from one file (or standard input), counted while it reads, before anything is split into
#: tokens: bytes, lines and whitespace-separated tokens.  A WMT test set (a few thousand sentences) fits many times.
MAX_INPUT_BYTES = 64 * 2**20
MAX_INPUT_LINES = 150_000
MAX_INPUT_TOKENS = 2_000_000
_CHUNK = 2**20


def _too_large(where: str, most: str) -> _InputError:
    return _InputError(f"{where} holds more than {most}; bleu_teach explains scores step by step, for test sets up "
                       f"to that size (use sacreBLEU for larger ones)")


def _bounded_read(stream: Any, where: str) -> bytes:
    """Read ``stream`` in chunks, refusing it as soon as it passes the bytes or lines limit."""
    chunks: list[bytes] = []
    size = lines = 0
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
        lines += chunk.count(b"\n") + chunk.count(b"\r") - chunk.count(b"\r\n")  # every line break read
        if size > MAX_INPUT_BYTES:
            raise _too_large(where, f"{MAX_INPUT_BYTES // 2**20} MB")
        if lines > MAX_INPUT_LINES:
            raise _too_large(where, f"{MAX_INPUT_LINES:,} lines")
    return b"".join(chunks)


def _check_tokens(text: str, where: str) -> None:
    """Count the whitespace-separated tokens (Python's whitespace, as the tokenizers split) up to the limit, without
    making a list of them."""
    for count, _ in enumerate(re.finditer(r"\S+", text), start=1):
        if count > MAX_INPUT_TOKENS:
            raise _too_large(where, f"{MAX_INPUT_TOKENS:,} tokens")


def _read_bytes(source: str) -> bytes:
    if source == STDIN:
        stdin = sys.stdin
        if stdin is None:
            raise _InputError("there is no standard input to read (-); give a file instead")
        if stdin.isatty() and sys.stderr is not None:
            print("(reading from the keyboard: type the text, then press Ctrl-D on a new line; "
                  "Ctrl-Z then Enter on Windows)", file=sys.stderr)
        buffer = getattr(stdin, "buffer", None)
        if buffer is None:  # a text stream without bytes underneath (e.g. io.StringIO)
            return _bounded_read(io.BytesIO(stdin.read().encode("utf-8", "surrogatepass")), "standard input")
        try:
            return _bounded_read(buffer, "standard input")
        except OSError as problem:
            raise _InputError(f"cannot read standard input: {problem.strerror or problem}") from None
    try:
        with open(source, "rb") as file:
            return _bounded_read(file, _describe(source))
    except OSError as problem:
        reason = problem.strerror or problem.__class__.__name__
        raise _InputError(f"cannot read {_describe(source)}: {reason}") from None


def _read_text(source: str) -> str:
    """The text of a file (or standard input for "-"): UTF-8, newlines as Python's text files read them."""
    data = _read_bytes(source)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as problem:
        line = data[:problem.start].count(b"\n") + 1
        byte = data[problem.start:problem.start + 1].hex()
        raise _InputError(
            f"{_describe(source)} is not UTF-8 text (byte 0x{byte} on line {line}); "
            f"save it with the UTF-8 encoding"
        ) from None
    _check_tokens(text, _describe(source))
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _command_line_text(text: str) -> str:
    """Text typed on the command line, as the UTF-8 the terminal most likely sent.

    Where the locale's encoding cannot decode the command line (``LC_ALL=C``
    with Python's UTF-8 mode off), Python keeps each undecodable byte as a
    lone surrogate; "é" would then not match an "é" read from a UTF-8 file.
    The original bytes are decoded as UTF-8 instead.
    """
    if sys.platform == "win32" or not any("\udc80" <= char <= "\udcff" for char in text):
        return text
    return os.fsencode(text).decode("utf-8", "surrogateescape")


def _one_line(text: str, what: str) -> str:
    """Text for explain: trailing newlines dropped, and no line break inside."""
    text = text.rstrip("\n")
    if "\n" in text:
        count = text.count("\n") + 1
        raise _InputError(
            f"{what} has {count} lines, but explain scores one sentence; put it on one line, "
            f"or use '{PROG} corpus' to score one sentence per line"
        )
    return text


def _lines(source: str, what: str) -> list[str]:
    """The segments of a corpus file: one per line, one trailing newline stripped."""
    text = _read_text(source)
    if text == "":
        raise _InputError(f"{what} {_describe(source)} is empty; put one sentence per line")
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n")


def _check_stdin_once(sources: Sequence[str]) -> None:
    if sum(1 for s in sources if s == STDIN) > 1:
        raise _InputError("only one input can be read from standard input (-); give the others as files")


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
                raise _InputError(f"{option.flag} {message}") from None
        values[option.name] = value
    return values


def _not_blank(text: str, where: str) -> str:
    if not text.split():
        raise _InputError(f"{where} is empty (no tokens); every reference needs at least one word")
    return text


def _sentence_texts(args: argparse.Namespace) -> tuple[str, list[str]]:
    if args.hypothesis is not None and args.hyp_file is not None:
        raise _InputError("give the hypothesis once: as text, as - (standard input) or with --hyp-file, "
                          "not two of these")
    if args.hypothesis is None and args.hyp_file is None:
        raise _InputError("no hypothesis: give it as text in quotes, as - to read standard input, "
                          "or with --hyp-file PATH")
    sources: list[tuple[str, str]] = args.refs or []
    if not sources:
        raise _InputError("no reference: give at least one with --ref TEXT or --ref-file PATH")
    hyp_source = STDIN if args.hypothesis == STDIN else args.hyp_file
    _check_stdin_once([hyp_source] + [value for kind, value in sources if kind == "file"])

    if hyp_source is None:
        hyp_text = _one_line(_command_line_text(args.hypothesis), "the hypothesis")
    else:
        hyp_text = _one_line(_read_text(hyp_source), f"the hypothesis ({_describe(hyp_source)})")
    ref_texts = []
    for index, (kind, value) in enumerate(sources, start=1):
        where = f"reference {index}" + ("" if kind == "text" else f" ({_describe(value)})")
        text = _one_line(_command_line_text(value) if kind == "text" else _read_text(value), where)
        ref_texts.append(_not_blank(text, where))
    return hyp_text, ref_texts


def _corpus_texts(args: argparse.Namespace) -> tuple[list[str], list[list[str]]]:
    _check_stdin_once([args.hyp_file, *args.ref_files])
    hyp_lines = _lines(args.hyp_file, "the hypothesis file")
    references: list[list[str]] = [[] for _ in hyp_lines]
    for path in args.ref_files:
        lines = _lines(path, "the reference file")
        if len(lines) != len(hyp_lines):
            raise _InputError(
                f"the reference file {_describe(path)} has {len(lines)} line{'s' if len(lines) != 1 else ''} "
                f"but the hypotheses ({_describe(args.hyp_file)}) have {len(hyp_lines)}; each reference file "
                f"needs exactly one line per hypothesis, in the same order"
            )
        for number, line in enumerate(lines, start=1):
            if not line.split():
                raise _InputError(
                    f"line {number} of the reference file {_describe(path)} is empty (no tokens); every "
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
        raise _InputError(f"{metric.name} is scored by {metric.scored_by} and not explained here.")
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
        raise _InputError(message) from None


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
            args = _parser().parse_args(argv)
        except SystemExit as done:  # --help
            return done.code if isinstance(done.code, int) else EXIT_OK
        except _InputError as problem:
            given = list(sys.argv[1:] if argv is None else argv)
            shorts = {"-h", "-r"} | {f"-{o.short}" for m in explained_metrics() for o in m.options if o.short}
            dashed = [a for a in given if a.startswith("-") and not a.startswith("--") and a != "-"
                      and (" " in a or a[:2] not in shorts)]
            if dashed:  # "-the cat" was read as the option -t with the value "he cat"
                command = next((a for a in given if not a.startswith("-")), "explain")
                where = "--ref ... " if command in [m.sentence_command for m in explained_metrics()] else ""
                raise _InputError(f"{problem}. {dashed[0]!r} starts with '-', so it was read as an option; to give "
                                  f"text (or a file name) that starts with '-', put it after --, options first: "
                                  f"{PROG} {command} {where}-- {dashed[0]!r}") from None
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
            raise _InputError(f"choose a command: {commands} (try '{PROG} --help')")
        elif args.standalone and args.format != "latex":
            raise _InputError("--standalone goes with --format latex (a complete LaTeX document)")
        else:
            text = render(_report(args), args.format, standalone=args.standalone)
        if args.format == "html":
            # In HTML, a character the output cannot encode becomes a character reference (&#223;),
            # which a browser shows as the character itself.
            reconfigure = getattr(sys.stdout, "reconfigure", None)
            if reconfigure is not None and getattr(sys.stdout, "errors", "") == "backslashreplace":
                reconfigure(errors="xmlcharrefreplace")
    except (_InputError, TypeError, ValueError) as problem:
        _error(str(problem))
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        _error("interrupted")
        return EXIT_INTERRUPTED
    except MissingLibrary as missing:  # a library this command needs (--tokenizer 13a: sacreBLEU) is not installed
        _error(str(missing))
        return EXIT_MISSING_LIBRARY
    except Exception as problem:  # a bug: still one line, never a traceback for a learner
        _error(f"unexpected {type(problem).__name__} inside bleu_teach: {problem} "
               f"(this is a bug; please report it with the command you ran)")
        return EXIT_BUG
    if sys.stdout is None:  # started with standard output closed (">&-")
        _error("standard output is closed, so there is nowhere to write the report; "
               "redirect it to a file instead (> report.txt)")
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
