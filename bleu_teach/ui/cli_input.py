"""The command line's input: files and standard input, read within limits as UTF-8 text.

:mod:`bleu_teach.ui.cli` takes its texts from here.  A file (or standard
input, ``-``) is read as bytes, counted while it is read and refused as soon
as it passes :data:`MAX_INPUT_BYTES` or :data:`MAX_INPUT_LINES`, then decoded
as UTF-8 (a leading byte-order mark is dropped) and refused past
:data:`MAX_INPUT_TOKENS` whitespace-separated tokens; lines end at ``\\n``,
``\\r\\n`` or ``\\r``, as when Python reads a text file.  Text typed on the
command line is decoded as UTF-8 where the locale could not decode it.  Every
problem is an :class:`InputError`, which :func:`bleu_teach.ui.cli.main` prints
as one ``error:`` line with exit code 2.

>>> describe("-"), describe("hyps.txt")
('standard input', "'hyps.txt'")
"""

from __future__ import annotations

import codecs
import io
import os
import re
import sys
from collections.abc import Sequence
from typing import Any

__all__ = [
    "STDIN",
    "InputError",
    "MAX_INPUT_BYTES",
    "MAX_INPUT_LINES",
    "MAX_INPUT_TOKENS",
    "describe",
    "read_text",
    "read_lines",
    "command_line_text",
    "check_stdin_once",
]

STDIN = "-"


class InputError(Exception):
    """Bad input: becomes one ``error:`` line and exit code 2."""


def describe(source: str) -> str:
    """How an error message names an input: "standard input" for "-", a file by its path in quotes."""
    return "standard input" if source == STDIN else f"'{source}'"


#: The most the CLI reads from one file (or standard input), counted while it reads, before anything is split into
#: tokens: bytes, lines and whitespace-separated tokens.  A WMT test set (a few thousand sentences) fits many times.
MAX_INPUT_BYTES = 64 * 2**20
MAX_INPUT_LINES = 150_000
MAX_INPUT_TOKENS = 2_000_000
_CHUNK = 2**20


def _too_large(where: str, most: str) -> InputError:
    return InputError(
        f"{where} holds more than {most}; bleu_teach explains scores step by step, for test sets up "
        f"to that size (use sacreBLEU for larger ones)"
    )


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
            raise InputError("there is no standard input to read (-); give a file instead")
        if stdin.isatty() and sys.stderr is not None:
            print(
                "(reading from the keyboard: type the text, then press Ctrl-D on a new line; "
                "Ctrl-Z then Enter on Windows)",
                file=sys.stderr,
            )
        buffer = getattr(stdin, "buffer", None)
        if buffer is None:  # a text stream without bytes underneath (e.g. io.StringIO)
            return _bounded_read(io.BytesIO(stdin.read().encode("utf-8", "surrogatepass")), "standard input")
        try:
            return _bounded_read(buffer, "standard input")
        except OSError as problem:
            raise InputError(f"cannot read standard input: {problem.strerror or problem}") from None
    try:
        with open(source, "rb") as file:
            return _bounded_read(file, describe(source))
    except OSError as problem:
        reason = problem.strerror or problem.__class__.__name__
        raise InputError(f"cannot read {describe(source)}: {reason}") from None


def read_text(source: str) -> str:
    """The text of a file (or standard input for "-"): UTF-8, newlines as Python's text files read them."""
    data = _read_bytes(source)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as problem:
        line = data[: problem.start].count(b"\n") + 1
        byte = data[problem.start : problem.start + 1].hex()
        raise InputError(
            f"{describe(source)} is not UTF-8 text (byte 0x{byte} on line {line}); save it with the UTF-8 encoding"
        ) from None
    _check_tokens(text, describe(source))
    return text.replace("\r\n", "\n").replace("\r", "\n")


def command_line_text(text: str) -> str:
    """Text typed on the command line, as the UTF-8 the terminal most likely sent.

    Where the locale's encoding cannot decode the command line (``LC_ALL=C``
    with Python's UTF-8 mode off), Python keeps each undecodable byte as a
    lone surrogate; "é" would then not match an "é" read from a UTF-8 file.
    The original bytes are decoded as UTF-8 instead.
    """
    if sys.platform == "win32" or not any("\udc80" <= char <= "\udcff" for char in text):
        return text
    return os.fsencode(text).decode("utf-8", "surrogateescape")


def read_lines(source: str, what: str) -> list[str]:
    """The segments of a corpus file: one per line, one trailing newline stripped."""
    text = read_text(source)
    if text == "":
        raise InputError(f"{what} {describe(source)} is empty; put one sentence per line")
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n")


def check_stdin_once(sources: Sequence[str]) -> None:
    """Refuse ``sources`` if more than one of them is standard input ("-")."""
    if sum(1 for s in sources if s == STDIN) > 1:
        raise InputError("only one input can be read from standard input (-); give the others as files")
