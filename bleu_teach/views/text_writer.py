"""The text writer: any document as plain text for a terminal (and a notebook's ``repr``).

Sections indent their content by two spaces; tables align their columns,
the first one to the left; matched tokens carry a tick.  Control
characters in user text are shown as escapes, so that typed text cannot
move the terminal's cursor or change its colours.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from bleu_teach.views.document import (
    Alert,
    AnswerSpace,
    Bars,
    Block,
    Chart,
    Code,
    Details,
    Document,
    Heading,
    Highlight,
    Inline,
    Label,
    Lines,
    Notes,
    Paragraph,
    QrCode,
    Score,
    Section,
    Strong,
    Table,
    Tokens,
)

__all__ = ["write_text", "table_lines", "safe", "width"]

_PARAGRAPH_LIKE = (Paragraph, Lines, Score)


#: Invisible characters that names and words are written with, kept as they are: the zero-width non-joiner and
#: joiner (a Persian name, an emoji family) and the left-to-right and right-to-left marks (never an override).
_WRITTEN_WITH = frozenset("\u200c\u200d\u200e\u200f")


def safe(text: str) -> str:
    """``text`` with control characters (escape codes, bells) written as ``\\xNN`` / ``\\uNNNN``; newlines kept.

    >>> safe("red \\x1b[31m")
    'red \\\\x1b[31m'
    """
    out = []
    for ch in text:
        if ch in "\n\t" or ch.isprintable() or ch == " " or ch in _WRITTEN_WITH:
            out.append(ch)
        else:
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
    return "".join(out)


def _inline(piece: Inline) -> str:
    if isinstance(piece, str):
        return safe(piece)
    if isinstance(piece, (Label, Strong, Code)):
        return safe(piece.text)
    if isinstance(piece, Tokens):
        marks = piece.marks
        # Inside a token a line break or tab is shown as an escape: one token stays on one line.
        return " ".join(
            safe(t).replace("\n", "\\n").replace("\t", "\\t") + ("\u2713" if i < len(marks) and marks[i] else "")
            for i, t in enumerate(piece.tokens)
        )
    if isinstance(piece, Highlight):
        return _highlight(piece)
    raise TypeError(f"unknown inline {piece!r}")


def _highlight(piece: Highlight) -> str:
    """The text with each span's number after its end: 'a bad[1] word'."""
    return "".join(safe(text) + "".join(f"[{k}]" for k in ends) for text, _, ends in piece.pieces())


def inline_text(content: Sequence[Inline]) -> str:
    """Inline pieces as one line of text."""
    return "".join(_inline(p) for p in content)


def width(text: str) -> int:
    """How many terminal columns ``text`` takes: wide (CJK, emoji) characters 2, combining marks 0.

    >>> width("cat"), width("猫"), width("e\u0301")
    (3, 2, 1)
    """
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def table_lines(header: Sequence[str], rows: Sequence[Sequence[str]], indent: str = "") -> list[str]:
    """Aligned columns (by display width): the first left-aligned, the rest right-aligned."""
    header = [safe(h) for h in header]
    # A cell is one line: a line break or tab inside it is shown as an escape.
    rows = [[safe(c).replace("\n", "\\n").replace("\t", "\\t") for c in row] for row in rows]
    widths = [max(width(x) for x in col) for col in zip(header, *rows)]
    lines = []
    for row in [header, *rows]:
        cells = [
            c + " " * (w - width(c)) if i == 0 else " " * (w - width(c)) + c
            for i, (c, w) in enumerate(zip(row, widths))
        ]
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines


def _block(block: Block, indent: str) -> list[str]:
    if isinstance(block, Heading):
        return [indent + _inline(block.content)]
    if isinstance(block, Paragraph):
        return [indent + inline_text(block.content)]
    if isinstance(block, Lines):
        return [indent + inline_text(line) for line in block.lines]
    if isinstance(block, Score):
        return [indent + inline_text(block.text)]
    if isinstance(block, Table):
        caption = [indent + safe(block.caption)] if block.caption else []
        return caption + table_lines(block.header, block.rows, indent)
    if isinstance(block, Notes):
        return ([indent + block.title] if block.title else []) + [
            f"{indent}  - {inline_text(item)}" for item in block.items
        ]
    if isinstance(block, (Section, Details)):
        title = block.title if isinstance(block, Section) else block.summary
        lines = [indent + inline_text(title)]
        for child in block.blocks:
            lines += _block(child, indent + "  ")
        return lines
    if isinstance(block, Alert):
        return [f"{indent}Please check the input: {safe(block.message)}"]
    if isinstance(block, AnswerSpace):
        return [f"{indent}{safe(block.label)}:"] + [indent + "_" * 60] * block.lines
    if isinstance(block, Chart):
        return _block(Paragraph((block.description,)), indent)
    if isinstance(block, Bars):
        return _block(block.as_table(), indent)
    if isinstance(block, QrCode):  # no drawing: what it is, and its text
        return [f"{indent}{safe(block.description)}: {safe(block.text)}"]
    raise TypeError(f"unknown block {block!r}")


def write_text(document: Document) -> str:
    """The document as plain text: blocks separated by a blank line, consecutive paragraphs kept together."""
    lines: list[str] = []
    previous: Block | None = None
    for block in document.blocks:
        together = isinstance(block, _PARAGRAPH_LIKE) and isinstance(previous, _PARAGRAPH_LIKE)
        if lines and not together:
            lines.append("")
        lines += _block(block, "")
        previous = block
    return "\n".join(lines)
