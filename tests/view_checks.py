"""Checks every view of a result with real tools (markdown-it-py, pdflatex, pdftotext, json).

Used by tests/test_views.py and by each result's own test module: call
``check_every_view(result, tmp_path)``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from bleu_teach.views.document import Details, Document, Score, Section, Table
from bleu_teach.views.html_writer import label_html
from bleu_teach.views.text_writer import safe, table_lines, write_text
from bleu_teach.views.viewable import Viewable


def document_tables(blocks) -> Iterator[Table]:
    for block in blocks:
        if isinstance(block, Table):
            yield block
        elif isinstance(block, (Section, Details)):
            yield from document_tables(block.blocks)


def markdown_tables(markdown: str) -> list[list[list[str]]]:
    """Every table as rows of cell texts, as markdown-it-py reads them."""
    tables, rows, row = [], None, None
    for token in MarkdownIt("commonmark").enable("table").parse(markdown):
        if token.type == "table_open":
            rows = []
        elif token.type == "table_close":
            tables.append(rows)
        elif token.type == "tr_open":
            row = []
        elif token.type == "tr_close":
            rows.append(row)
            row = None
        elif token.type == "inline" and row is not None and rows is not None:
            row.append("".join(c.content for c in token.children or [] if c.type in ("text", "code_inline")).strip())
    return tables


def _pdflatex() -> str | None:
    found = shutil.which("pdflatex")
    if found is None or shutil.which("pdftotext") is None:
        if os.environ.get("CI") == "true":
            pytest.fail(
                "pdflatex and pdftotext are needed (Debian: texlive-latex-base texlive-latex-recommended "
                "poppler-utils; .ci/run installs them)"
            )
        pytest.skip("pdflatex or pdftotext not installed")
    return found


def needs_weasyprint() -> None:
    """Skip (or fail under CI=true) where the teacher's PDFs cannot be printed: WeasyPrint or Pango missing."""
    from bleu_teach.ui.pdf import pdf_missing

    missing = pdf_missing()
    if missing is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{missing} (.ci/run installs Pango and the fonts from Debian's packages)")
        pytest.skip(missing)


def compile_latex(source: str, folder: Path) -> str:
    """Compile a standalone document with pdflatex; the PDF's text, as pdftotext reads it."""
    engine = _pdflatex()
    (folder / "doc.tex").write_text(source, encoding="utf-8")
    run = subprocess.run(
        [engine, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout[-3000:]
    return subprocess.run(
        ["pdftotext", "-layout", "doc.pdf", "-"], cwd=folder, capture_output=True, text=True, check=True
    ).stdout


def check_every_view(result: Viewable, tmp_path: Path, latex: bool = True) -> None:
    """Markdown tables = the document's tables = the text view's; JSON round-trips; LaTeX compiles and shows the
    score."""
    document = result.to_document()
    expected = [[list(t.header), *[list(r) for r in t.rows]] for t in document_tables(document.blocks)]
    # Markdown shows each cell as the text view does (control characters as escapes).
    assert markdown_tables(result.to_markdown()) == [
        [[safe(c).strip() for c in row] for row in table] for table in expected
    ]
    text = "\n".join(line.strip() for line in result.to_text().splitlines())
    for table in document_tables(document.blocks):
        assert "\n".join(line.strip() for line in table_lines(table.header, table.rows)) in text
    data = json.loads(result.to_json())
    assert data == result.to_dict()
    score = getattr(result, "score", None)
    if isinstance(score, float):
        assert data["score"] == score
    if latex:
        pdf = compile_latex(result.to_latex(standalone=True), tmp_path)
        scores = [b for b in document.blocks if isinstance(b, Score)]
        shown = (
            write_text(Document(tuple(scores)))
            if scores
            else write_text(Document(tuple(document_tables(document.blocks))[:1]))
        )
        number = re.search(r"\d+\.\d+", shown)
        assert number is None or number.group(0) in " ".join(pdf.split()), shown


def assert_tables_shown(result: Viewable) -> None:
    """Every table of the result's document, cell for cell: aligned in the text view, one ``<td>``/``<th>`` each in
    HTML."""
    from html import escape

    document = result.to_document()
    text = "\n".join(line.strip() for line in result.to_text().splitlines())
    html = result.to_html()
    for table in document_tables(document.blocks):
        assert "\n".join(line.strip() for line in table_lines(table.header, table.rows)) in text
        for row in table.rows:
            for i, cell in enumerate(row):
                shown = label_html(cell) if table.label_column and i == 0 else escape(cell)
                tag = "th" if i == 0 and table.row_headers else "td"  # a row's first cell heads it
                assert re.search(rf"<{tag}[^>]*>" + re.escape(shown) + f"</{tag}>", html), cell
