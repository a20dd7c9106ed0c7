"""The Markdown writer: any document as CommonMark with GitHub's tables, for handouts and course pages.

User text is escaped so that it stays literal (``*``, ``_``, ``|``, ``<``
and the rest), matched tokens are bold with a tick, error spans are bold
and numbered, and foldable details become an ordinary titled section.
"""

from __future__ import annotations

import re
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
from bleu_teach.views.text_writer import safe

__all__ = ["write_markdown", "escape_markdown"]

_SPECIAL = re.compile(r"([\\`*_\[\]<>|&~$])")
_LINE_START = re.compile(r"^(\s*)([#+=>-]|\d+[.)])(?=\s|$)")


def escape_markdown(text: str, line_start: bool = False) -> str:
    """Text that Markdown shows literally: the characters that could start markup are backslash-escaped.

    Always ``\\ ` * _ [ ] < > | & ~ $``; with ``line_start`` also what
    would open a heading, a list, a quote or a setext line.  Line breaks
    become spaces (a table cell or a paragraph stays one line), and control
    characters are written as escapes, as in the text view.

    >>> escape_markdown("a *b* | <i>")
    'a \\\\*b\\\\* \\\\| \\\\<i\\\\>'
    >>> escape_markdown("1. first - not a list", line_start=True)
    '1\\\\. first - not a list'
    """
    text = safe(text.replace("\r", " ").replace("\n", " "))
    text = _SPECIAL.sub(r"\\\1", text)
    return text if not line_start else _escape_line_start(text)


def _escape_line_start(text: str) -> str:
    """Escape a marker that would open a heading, list or quote at the start of a line."""
    match = _LINE_START.match(text)
    if match:
        marker = match.group(2)
        escaped = marker[:-1] + "\\" + marker[-1] if marker[0].isdigit() else "\\" + marker
        text = match.group(1) + escaped + text[match.end() :]
    return text


def _code(text: str) -> str:
    text = safe(text.replace("\r", " ").replace("\n", " "))
    fence = "`" * (max((len(m) for m in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def _highlight(piece: Highlight) -> str:
    out = []
    for text, covering, ends in piece.pieces():
        chunk = escape_markdown(text)
        out.append(f"**{chunk}**" if covering and chunk.strip() else chunk)
        out += [f"\\[{k}\\]" for k in ends]
    return "".join(out)


def _inline(piece: Inline) -> str:
    if isinstance(piece, str):
        return escape_markdown(piece)
    if isinstance(piece, Label):
        return escape_markdown(piece.text)
    if isinstance(piece, Strong):
        return f"**{escape_markdown(piece.text.strip())}**" if piece.text.strip() else ""
    if isinstance(piece, Code):
        return _code(piece.text)
    if isinstance(piece, Tokens):
        marks = piece.marks
        return " ".join(
            f"**{escape_markdown(t)}**\u2713" if i < len(marks) and marks[i] else escape_markdown(t)
            for i, t in enumerate(piece.tokens)
        )
    if isinstance(piece, Highlight):
        return _highlight(piece)
    raise TypeError(f"unknown inline {piece!r}")


def _inlines(content: Sequence[Inline]) -> str:
    return "".join(_inline(p) for p in content)


def _cell(text: str) -> str:
    return escape_markdown(text) if text else " "


def _table(table: Table) -> list[str]:
    caption = [f"**{escape_markdown(table.caption)}**", ""] if table.caption else []
    header = "| " + " | ".join(_cell(h) for h in table.header) + " |"
    rule = "|" + "|".join(":---" if i == 0 else "---:" for i in range(len(table.header))) + "|"
    rows = ["| " + " | ".join(_cell(c) for c in row) + " |" for row in table.rows]
    return caption + [header, rule, *rows]


def _block(block: Block, level: int) -> list[str]:
    if isinstance(block, Heading):
        return ["#" * min(6, level + block.level - 1) + " " + _inline(block.content)]
    if isinstance(block, Paragraph):
        return [_escape_line_start(_inlines(block.content))]
    if isinstance(block, Lines):
        return ["  \n".join(_escape_line_start(_inlines(line)) for line in block.lines)]
    if isinstance(block, Score):
        return [f"**{_inlines(block.text)}**"]
    if isinstance(block, Table):
        return ["\n".join(_table(block))]
    if isinstance(block, Notes):
        items = "\n".join(f"- {_inlines(item)}" for item in block.items)
        return [f"**{escape_markdown(block.title)}**", items] if block.title else [items]
    if isinstance(block, (Section, Details)):
        title = block.title if isinstance(block, Section) else block.summary
        out = ["#" * min(6, level + 1) + " " + _inlines(title)]
        for child in block.blocks:
            out += _block(child, level + 1)
        return out
    if isinstance(block, Alert):
        return [f"> **Please check the input:** {escape_markdown(block.message)}"]
    if isinstance(block, Chart):
        return _block(Paragraph((block.description,)), level)
    if isinstance(block, Bars):
        return _block(block.as_table(), level)
    if isinstance(block, AnswerSpace):
        room = "your answer" if block.lines <= 1 else f"your {block.label.lower()} (about {block.lines} lines)"
        return [f"**{escape_markdown(block.label)}:** *({escape_markdown(room)} here)*"]
    if isinstance(block, QrCode):  # no drawing: what it is, and its text
        return [f"**{escape_markdown(block.description)}:** {escape_markdown(block.text)}"]
    raise TypeError(f"unknown block {block!r}")


def write_markdown(document: Document, level: int = 3) -> str:
    """The document as Markdown; the title is a heading of ``level`` (3: ``###``), sections one deeper."""
    parts: list[str] = []
    for block in document.blocks:
        parts += _block(block, level)
    return "\n\n".join(parts) + "\n"
