"""The LaTeX writer: any document as LaTeX for an exam sheet, a handout or a Beamer slide.

``standalone=False`` gives a fragment to paste into a document that loads
``booktabs`` and ``amssymb``; ``standalone=True`` a complete ``article`` that
compiles with pdflatex and the packages of a basic TeX installation
(Debian's ``texlive-latex-base`` and ``texlive-latex-recommended``).

Labels become math (``p_1`` is ``$p_{1}$``); user text is escaped.  pdflatex
typesets Latin scripts; a character it has no glyph for (Chinese, say) is
written as its code point in brackets, ``[U+4E2D]``, so that the document
always compiles and nothing is dropped silently (XeLaTeX or LuaLaTeX with a
suitable font would set the characters themselves).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from bleu_teach.views.document import (
    SUBSCRIPT,
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

__all__ = ["write_latex", "escape_latex", "PREAMBLE", "FRAGMENT_NEEDS"]

#: The first line of a fragment: what the document it is pasted into must load.
FRAGMENT_NEEDS = "% needs \\usepackage{amssymb,booktabs,longtable} in the preamble\n"

PREAMBLE = (
    "\\documentclass{article}\n"
    "\\usepackage[utf8]{inputenc}\n"
    "\\usepackage[margin=2cm]{geometry}\n"
    "\\usepackage{amssymb}\n"
    "\\usepackage{booktabs}\n"
    "\\usepackage{longtable}\n"
    "\\setlength{\\parindent}{0pt}\n"
    "\\setlength{\\parskip}{0.5em}\n"
    "% no word is split at a line end: words are tokens here, and a hyphenated token would count as two\n"
    "\\hyphenpenalty=10000\n\\exhyphenpenalty=10000\n\\sloppy\n"
)

_SPECIAL = {
    "\\": r"\textbackslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "%": r"\%",
    "_": r"\_",
    "^": r"\textasciicircum{}",
    "~": r"\textasciitilde{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    '"': r"\texttt{\char34}",
    "[": "{[}",
    "]": "{]}",
    # no ligatures or line-break options from typed text: -- ``  '' ?` !` and a row starting with *
    "*": "{*}",
    "-": "-{}",
    "`": "`{}",
    "'": "'{}",
    "?": "?{}",
    "!": "!{}",
    "\u2713": r"\checkmark{}",
    "\u2714": r"\checkmark{}",
    "\u2718": r"$\times$",
    "\u270e": r"$\circ$",
    "\u00d7": r"$\times$",
    "\u00b1": r"$\pm$",
    "\u2192": r"$\rightarrow$",
    "\u2264": r"$\leq$",
    "\u2265": r"$\geq$",
    "\u2013": "--",
    "\u2014": "---",
    "\u2018": "`",
    "\u2019": "'",
    "\u201c": "``",
    "\u201d": "''",
    "\u2026": r"\dots{}",
    "\u2212": "$-$",
    "\u2423": r"\textvisiblespace{}",
    "\u00a0": "~",
    "\u03b2": r"$\beta$",
    "\u03c4": r"$\tau$",
    "\u03b5": r"$\varepsilon$",
    "\u2248": r"$\approx$",
    "\u2260": r"$\neq$",
    "\u221a": r"$\surd$",
    "\u2022": r"$\bullet$",
    "\u2190": r"$\leftarrow$",
}

#: What pdflatex's utf8 input encoding can set with the default fonts: ASCII, Latin-1 and Latin Extended-A.
_LATIN = re.compile(r"[\u0020-\u007e\u00a1-\u017f]")


def escape_latex(text: str) -> str:
    """Text that LaTeX shows literally; characters without a glyph in pdflatex become ``[U+XXXX]``.

    >>> escape_latex("50% of {x} & y_1")
    '50\\\\% of \\\\{x\\\\} \\\\& y\\\\_1'
    """
    out = []
    for ch in text:
        if ch in _SPECIAL:
            out.append(_SPECIAL[ch])
        elif ch in "\n\r\t":
            out.append(" ")
        elif _LATIN.fullmatch(ch):
            out.append(ch)
        else:
            composed = unicodedata.normalize("NFC", ch)
            out.append(composed if _LATIN.fullmatch(composed) else f"{{[}}U+{ord(ch):04X}{{]}}")
    return "".join(out)


def _label(text: str) -> str:
    """The package's wording with p_1, w_n, ... as math."""
    out, last = [], 0
    for m in SUBSCRIPT.finditer(text):
        out.append(escape_latex(text[last : m.start()]))
        out.append(
            f"$\\mathrm{{{m.group(1)}}}_{{{m.group(2)}}}$"
            if len(m.group(1)) > 1
            else f"${m.group(1)}_{{{m.group(2)}}}$"
        )
        last = m.end()
    out.append(escape_latex(text[last:]))
    return "".join(out)


def _highlight(piece: Highlight) -> str:
    out = []
    for text, covering, ends in piece.pieces():
        chunk = escape_latex(text)
        out.append(f"\\underline{{\\textbf{{{chunk}}}}}" if covering and chunk.strip() else chunk)
        out += [f"\\textsuperscript{{[{k}]}}" for k in ends]
    return "".join(out)


def _inline(piece: Inline) -> str:
    if isinstance(piece, str):
        return escape_latex(piece)
    if isinstance(piece, Label):
        return _label(piece.text)
    if isinstance(piece, Strong):
        return f"\\textbf{{{escape_latex(piece.text)}}}"
    if isinstance(piece, Code):
        return f"\\texttt{{{escape_latex(piece.text)}}}"
    if isinstance(piece, Tokens):
        marks = piece.marks
        return " ".join(
            f"\\underline{{\\textbf{{{escape_latex(t)}}}}}\\checkmark{{}}"
            if i < len(marks) and marks[i]
            else escape_latex(t)
            for i, t in enumerate(piece.tokens)
        )
    if isinstance(piece, Highlight):
        return _highlight(piece)
    raise TypeError(f"unknown inline {piece!r}")


def _inlines(content: Sequence[Inline]) -> str:
    return "".join(_inline(p) for p in content)


def _table(table: Table) -> str:
    spec = "l" + "r" * (len(table.header) - 1)
    size = "\\small" if len(table.header) <= 6 else "\\scriptsize" if len(table.header) <= 10 else "\\tiny"
    first = _label if table.label_column else escape_latex
    rows = [
        " & ".join(first(c) if i == 0 else escape_latex(c) for i, c in enumerate(row)) + r" \\" for row in table.rows
    ]
    caption = f"\\textbf{{{escape_latex(table.caption)}}}\n\n" if table.caption else ""
    return (
        caption
        + "{"
        + size
        + "\n\\setlength{\\tabcolsep}{4pt}\n\\begin{longtable}{"
        + spec
        + "}\n\\toprule\n"
        + " & ".join(_label(h) for h in table.header)
        + " \\\\\n\\midrule\n"
        + "\n".join(rows)
        + "\n\\bottomrule\n\\end{longtable}}"
    )


def _block(block: Block, depth: int) -> str:
    heading = ["\\subsection*", "\\subsubsection*", "\\paragraph", "\\paragraph"]
    if isinstance(block, Heading):
        return f"{heading[min(3, depth + block.level - 1)]}{{{_inline(block.content)}}}"
    if isinstance(block, Paragraph):
        return _inlines(block.content)
    if isinstance(block, Lines):
        return " \\\\\n".join(_inlines(line) for line in block.lines)
    if isinstance(block, Score):
        return f"{{\\large\\textbf{{{_inlines(block.text)}}}}}"
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Notes):
        return (
            (f"\\textbf{{{escape_latex(block.title)}}}\n" if block.title else "")
            + "\\begin{itemize}\n"
            + "\n".join(f"\\item {_inlines(item)}" for item in block.items)
            + "\n\\end{itemize}"
        )
    if isinstance(block, (Section, Details)):
        title = block.title if isinstance(block, Section) else block.summary
        return "\n\n".join(
            [f"{heading[min(3, depth + 1)]}{{{_inlines(title)}}}", *[_block(b, depth + 1) for b in block.blocks]]
        )
    if isinstance(block, Alert):
        return f"\\textbf{{Please check the input:}} {escape_latex(block.message)}"
    if isinstance(block, Chart):  # a printed sheet has the chart in words
        return _block(Paragraph((block.description,)), depth)
    if isinstance(block, Bars):
        return _table(block.as_table())
    if isinstance(block, AnswerSpace):  # a minipage: the label and its lines stay on one page
        return (
            "\\noindent\\begin{minipage}{\\linewidth}"
            + f"\\textbf{{{escape_latex(block.label)}:}}"
            + "".join("\\par\\vspace{1.2em}\\noindent\\hrulefill" for _ in range(block.lines))
            + "\\end{minipage}"
        )
    if isinstance(block, QrCode):  # no drawing: what it is, and its text (a link to type: monospace)
        return f"\\textbf{{{escape_latex(block.description)}:}} \\texttt{{{escape_latex(block.text)}}}"
    raise TypeError(f"unknown block {block!r}")


def write_latex(document: Document, standalone: bool = False) -> str:
    """The document as LaTeX: a fragment, or (``standalone=True``) a complete article that compiles."""
    body = "\n\n".join(_block(b, 0) for b in document.blocks) + "\n"
    if not standalone:
        return FRAGMENT_NEEDS + body
    return PREAMBLE + "\\begin{document}\n\n" + body + "\n\\end{document}\n"
