"""The HTML writer: any document as an HTML fragment for a notebook, a widget or a web page.

Every piece of text is escaped (user text stays literal); only the
package's labels gain markup, ``p_1`` becoming ``p<sub>1</sub>``.  Matched
tokens are bold, underlined and ticked, error spans are marked and
numbered: never colour alone.  The headline number carries its full
precision in a ``data-`` attribute.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from html import escape as _escape_html

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
    Foreign,
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

#: Control characters and the bidirectional embeddings, overrides and isolates: shown as escapes, never obeyed.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def escape(text: str) -> str:
    r"""HTML-escaped text in which control characters and bidi overrides are written as visible escapes.

    >>> escape("<b>\x1b[31m\u202e")
    '&lt;b&gt;\\x1b[31m\\u202e'
    """

    def shown(match: re.Match[str]) -> str:
        code = ord(match.group(0))
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return _escape_html(_UNSAFE.sub(shown, text))


__all__ = [
    "write_html",
    "FRAGMENT_HEADING",
    "write_html_page",
    "bars_html",
    "PAPER_SIZES",
    "escape",
    "STYLE",
    "label_html",
    "tokens_html",
    "highlight_html",
    "table_html",
    "inline_html",
    "qr_html",
]

STYLE = (
    "<style>.bleu-teach table{border-collapse:collapse;margin:0.3em 0 0.8em 0}"
    ".bleu-teach th,.bleu-teach td{border:1px solid #999;padding:2px 8px;text-align:right}"
    ".bleu-teach td.gram,.bleu-teach th.gram{text-align:left}"
    ".bleu-teach .match{font-weight:bold;text-decoration:underline}"
    ".bleu-teach .score{font-size:1.3em;font-weight:bold}.bleu-teach span{unicode-bidi:isolate}"
    ".bleu-teach tbody th{font-weight:normal}.bleu-teach .table-box{max-width:100%;overflow-x:auto}</style>"
)

_EXTRA_STYLES = {
    "worksheet": (
        "<style>.bleu-teach .answer-line{border-bottom:1px solid #555;height:1.8em;max-width:40em}"
        ".bleu-teach .answer-space{margin-bottom:1em}</style>"
    ),
    "compact": (
        "<style>.bleu-teach.compact p{margin:0.2em 0}.bleu-teach.compact table{font-size:0.85em;margin:0.2em 0}"
        ".bleu-teach.compact th,.bleu-teach.compact td{padding:1px 6px}</style>"
    ),
    "mqm": (
        "<style>.bleu-teach mark{padding:0 1px;border-bottom:2px solid #555}"
        ".bleu-teach mark.major{background:#f4b6b6}.bleu-teach mark.minor{background:#fbe7a1}"
        ".bleu-teach mark.other{background:#ddd}.bleu-teach sup.err{font-size:0.7em;font-weight:bold}"
        ".bleu-teach .segtext{text-align:left;line-height:1.7}</style>"
    ),
}


def label_html(text: str) -> str:
    """The package's wording, escaped, with p_1, w_n, m_n, t_n written with real subscripts.

    >>> label_html("p_1 < w_n")
    'p<sub>1</sub> &lt; w<sub>n</sub>'
    """
    return SUBSCRIPT.sub(r"\1<sub>\2</sub>", escape(text))


def tokens_html(tokens: Sequence[object], marks: Sequence[bool] = ()) -> str:
    """Tokens as escaped HTML; marked ones are bold, underlined and ticked (not colour alone)."""
    parts = []
    for i, token in enumerate(tokens):
        text = escape(str(token))
        if i < len(marks) and marks[i]:
            parts.append(f'<span class="match" title="matched">{text}&#10003;</span>')
        else:
            parts.append(f"<span>{text}</span>")
    return " ".join(parts)


def highlight_html(piece: Highlight) -> str:
    """The text escaped, each span in a ``<mark>`` by kind and followed by its number.

    Overlapping spans are split at every boundary; a piece covered by several
    spans takes the most severe one's class and lists all of them in its title.
    """
    rank = {"major": 0, "minor": 1, "other": 2}
    out = []
    for text, covering, ends in piece.pieces():
        chunk = escape(text)
        if covering:
            worst = min((s.kind for s in covering), key=lambda kind: rank.get(kind, 2))
            title = "; ".join(f"[{s.number}] {s.title}" for s in covering)
            chunk = f'<mark class="{worst}" title="{escape(title)}">{chunk}</mark>'
        out.append(chunk)
        out += [f'<sup class="err">[{k}]</sup>' for k in ends]
    return "".join(out)


def _inline(piece: Inline) -> str:
    if isinstance(piece, Foreign):
        return f'<span lang="{escape(piece.lang)}">{escape(piece)}</span>'
    if isinstance(piece, str):
        return escape(piece)
    if isinstance(piece, Label):
        return label_html(piece.text)
    if isinstance(piece, Strong):
        return f"<b>{escape(piece.text)}</b>"
    if isinstance(piece, Code):
        return f"<code>{escape(piece.text)}</code>"
    if isinstance(piece, Tokens):
        return tokens_html(piece.tokens, piece.marks)
    if isinstance(piece, Highlight):
        return highlight_html(piece)
    raise TypeError(f"unknown inline {piece!r}")


def inline_html(content: Sequence[Inline]) -> str:
    """Inline pieces as HTML."""
    return "".join(_inline(p) for p in content)


def table_html(table: Table) -> str:
    """A table in its own box (``table-box``: a table wider than the page scrolls there, not the page); column
    headers, and the first cell of each row as the row's header unless ``row_headers`` is False.  Header cells and
    the label column may carry subscripts; every cell is escaped."""

    def header(i: int, text: str) -> str:
        if i == 0 and not text and table.row_headers:  # the corner above the row headers heads nothing
            return '<td class="gram"></td>'
        gram = ' class="gram"' if i == 0 else ""
        return f'<th scope="col"{gram}>{label_html(text)}</th>'

    def cell(i: int, text: str) -> str:
        if i:
            return f"<td>{escape(text)}</td>"
        shown = label_html(text) if table.label_column else escape(text)
        return f'<th scope="row" class="gram">{shown}</th>' if table.row_headers else f'<td class="gram">{shown}</td>'

    head = "".join(header(i, h) for i, h in enumerate(table.header))
    body = "".join("<tr>" + "".join(cell(i, c) for i, c in enumerate(row)) + "</tr>" for row in table.rows)
    caption = f"<p><b>{label_html(table.caption)}</b></p>" if table.caption else ""
    return f'{caption}<div class="table-box"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def bars_html(bars: Bars) -> str:
    """A bar chart as HTML: a table (label, bar, count and share), so the numbers are read as text and the bars
    only repeat them; the bar's width is the share."""
    rows = []
    for label, count in bars.rows:
        share = count / bars.total if bars.total else 0.0
        rows.append(
            f'<tr><th scope="row" class="gram">{escape(label)}</th><td class="bar-cell">'
            f'<span class="bar" style="display:inline-block;height:0.9em;background:#35608f;'
            f'width:{12 * share:.2f}em" aria-hidden="true"></span></td>'
            f"<td>{count}</td><td>{100 * share:.0f}%</td></tr>"
        )
    caption = f"<caption>{escape(bars.caption)}</caption>" if bars.caption else ""
    return (
        f'<table class="bars">{caption}<thead><tr><th scope="col" class="gram">Answer</th>'
        f'<th scope="col">Share of the answers</th><th scope="col">Count</th><th scope="col">%</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _heading(level: int, content: str) -> str:
    level = max(1, min(level, 6))
    return f"<h{level}>{content}</h{level}>"


def _block(block: Block, level: int = 4) -> str:
    """One block of a fragment; ``level`` is the heading level a Section's title takes here (a document's own
    Heading takes one less)."""
    if isinstance(block, Heading):
        return _heading(level - 1 + block.level - 1, _inline(block.content))
    if isinstance(block, Paragraph):
        spaced = any(isinstance(piece, Highlight) for piece in block.content)  # room for the span numbers
        opening = '<p class="segtext">' if spaced else "<p>"
        return f"{opening}{inline_html(block.content)}</p>"
    if isinstance(block, Lines):
        return "<p>" + "<br>".join(inline_html(line) for line in block.lines) + "</p>"
    if isinstance(block, Score):
        value = "" if block.value is None else f' data-{block.name}="{block.value!r}"'
        return f'<p class="score"{value}>{inline_html(block.text)}</p>'
    if isinstance(block, Table):
        return table_html(block)
    if isinstance(block, Notes):
        return (
            (f"<p><b>{escape(block.title)}</b></p>" if block.title else "")
            + "<ul>"
            + "".join(f"<li>{inline_html(item)}</li>" for item in block.items)
            + "</ul>"
        )
    if isinstance(block, Section):
        return _heading(level, inline_html(block.title)) + "".join(_block(b, level + 1) for b in block.blocks)
    if isinstance(block, Details):
        return (
            f"<details><summary>{inline_html(block.summary)}</summary>"
            + "".join(_block(b, level) for b in block.blocks)
            + "</details>"
        )
    if isinstance(block, Alert):
        return f'<p role="alert"><b>&#9888; Please check the input:</b> {escape(block.message)}</p>'
    if isinstance(block, Chart):  # its words: the drawing is a page's own (static/live_chart.js)
        return _block(Paragraph((block.description,)), level)
    if isinstance(block, Bars):
        return bars_html(block)
    if isinstance(block, AnswerSpace):
        rules = "".join('<div class="answer-line"></div>' for _ in range(block.lines))
        return f'<div class="answer-space"><p><b>{escape(block.label)}:</b></p>{rules}</div>'
    if isinstance(block, QrCode):
        return qr_html(block)
    raise TypeError(f"unknown block {block!r}")


def qr_html(code: QrCode) -> str:
    """A QR code as an image (an SVG of its dark modules, in a data: address: one element, which a tagged PDF
    makes a figure with ``description`` as its alternative text), 34 mm across, and its text under it, as code: in
    a monospace font, where a student who types the link tells 0 from O and 1 from l.

    >>> page = qr_html(QrCode("https://a.example/x", ("000", "010", "000"), "QR code: your link"))
    >>> page.startswith('<div class="qr-code"><img alt="QR code: your link" src="data:image/svg+xml;base64,')
    True
    >>> page.endswith('<p><code>https://a.example/x</code></p></div>')
    True
    """
    size = len(code.modules)
    runs = []
    for y, row in enumerate(code.modules):
        for match in re.finditer("1+", row):
            runs.append(f"M{match.start()} {y}h{match.end() - match.start()}v1h-{match.end() - match.start()}z")
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" shape-rendering="crispEdges">'
        f'<rect width="{size}" height="{size}" fill="#fff"/><path fill="#000" d="{"".join(runs)}"/></svg>'
    )
    data = base64.b64encode(svg.encode("ascii")).decode("ascii")
    return (
        f'<div class="qr-code"><img alt="{escape(code.description)}" src="data:image/svg+xml;base64,{data}" '
        f'style="width:34mm;height:34mm;display:block"><p><code>{escape(code.text)}</code></p></div>'
    )


#: The heading level a fragment's title takes unless told: a result shown under a lesson's numbered section
#: (``## 1. ...``, an h2) or its "Try it" starts at h3.
FRAGMENT_HEADING = 3


def write_html(document: Document, styled: bool = True, heading: int = FRAGMENT_HEADING) -> str:
    """The document as an HTML fragment in a ``<div class="bleu-teach">`` (with its style sheet unless
    ``styled=False``).

    ``heading`` is the level of the fragment's first heading, one below the heading it is shown under (3 under an
    h2), so that the page's levels have no gap: the document's title takes it and its sections the level below;
    a document without a title starts its sections there.

    >>> from bleu_teach.views.document import Section
    >>> write_html(Document((Heading("BLEU"), Section(("1-grams",), ()))), styled=False)
    '<div class="bleu-teach"><h3>BLEU</h3><h4>1-grams</h4></div>'
    >>> write_html(Document((Section(("1-grams",), ()),)), styled=False, heading=2)
    '<div class="bleu-teach"><h2>1-grams</h2></div>'
    """
    if isinstance(heading, bool) or not isinstance(heading, int) or not 1 <= heading <= 6:
        raise ValueError(f"heading must be a heading level from 1 to 6, not {heading!r}")
    styles = (STYLE + "".join(_EXTRA_STYLES[s] for s in document.styles if s in _EXTRA_STYLES)) if styled else ""
    classes = " ".join(["bleu-teach", *[s for s in document.styles if s == "compact"]])
    titled = any(isinstance(b, Heading) for b in document.blocks)
    level = heading + 1 if titled else heading
    return f'{styles}<div class="{classes}">' + "".join(_block(b, level) for b in document.blocks) + "</div>"


#: The paper sizes a printed page can take (CSS ``@page`` sizes): A4 unless asked.
PAPER_SIZES = ("A4", "letter")

#: Fonts for print: DejaVu for Latin, Greek and symbols, then a Chinese font (Debian: fonts-dejavu-core, and
#: fonts-noto-cjk or fonts-droid-fallback), then the system's own fallback.
_PRINT_FONTS = '"DejaVu Sans", "Noto Sans CJK SC", "Droid Sans Fallback", sans-serif'

_PRINT_STYLE = (
    "@page{{size:{paper};margin:18mm 16mm 20mm 16mm}}"  # no page numbers: WeasyPrint leaves them out of the tags
    "body{{font-family:" + _PRINT_FONTS.replace("{", "{{") + ";font-size:11pt;line-height:1.4;color:#000;"
    "font-variant-ligatures:none}}"
    "h1{{font-size:17pt;margin:0 0 0.5em}}h2{{font-size:13pt;margin:1.1em 0 0.3em;break-after:avoid}}"
    "h3{{font-size:11.5pt;margin:0.9em 0 0.3em;break-after:avoid}}"
    "table{{border-collapse:collapse;margin:0.3em 0 0.8em}}th,td{{border:1px solid #777;padding:2px 7px;"
    "text-align:left;vertical-align:top}}"
    "li{{margin:0.15em 0;overflow-wrap:anywhere}}p{{overflow-wrap:anywhere}}"
    ".match{{font-weight:bold;text-decoration:underline}}.score{{font-weight:bold}}"
    ".qr-code{{break-inside:avoid}}"  # a link's QR code on the same page as the link written under it
    '.qr-code code{{font-family:"DejaVu Sans Mono","Noto Sans Mono",monospace;font-size:11.5pt}}'  # to be typed
    ".answer-space{{margin:0.4em 0 0.9em;break-inside:avoid}}.answer-space label{{display:block;font-weight:bold}}"
    ".answer-space input,.answer-space textarea{{display:block;width:100%;box-sizing:border-box;border:1px solid #555;"
    "font:inherit;padding:2px 4px;background:#fff}}.answer-space input{{height:2em}}"
    "h1,h2,h3{{overflow-wrap:anywhere}}section{{break-inside:auto}}"
    "tr{{break-inside:avoid}}"  # a table's row on one page
    "span[lang]{{white-space:nowrap}}"  # a name in another language in one piece (ui.pdf tags it by its order)
)


def write_html_page(document: Document, title: str, lang: str = "en", paper: str = "A4") -> str:
    """The document as a whole HTML page for print and for a screen reader: a ``<title>``, ``lang``, heading levels
    without gaps (the first heading ``<h1>``, sections ``<h2>``, their sections ``<h3>``), tables with column
    headers, and each answer space a labelled form field (a text box, several lines for the working), which a
    PDF keeps as a field to fill in.

    >>> from bleu_teach.views.document import AnswerSpace, Section
    >>> page = write_html_page(Document((Heading("Sheet"), Section(("1. BP",), (AnswerSpace("Answer"),)))), "Sheet")
    >>> "<h1>Sheet</h1>" in page, "<h2>1. BP</h2>" in page, '<label for="field-1">Answer (1. BP)</label>' in page
    (True, True, True)
    """
    if paper not in PAPER_SIZES:
        raise ValueError(f"paper must be one of {', '.join(PAPER_SIZES)}, not {paper!r}")
    if not isinstance(title, str) or not title.strip():
        raise ValueError("title must be the page's title, a non-empty string")
    fields = [0]
    body = "".join(_page_block(block, 1, (), fields) for block in document.blocks)
    style = _PRINT_STYLE.format(paper=paper)
    if "worksheet" in document.styles:  # a question stays on one page with its answer spaces
        style += "section{break-inside:avoid}"
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(lang)}"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{style}</style></head><body><main>{body}</main></body></html>\n"
    )


def _page_block(block: Block, depth: int, where: tuple[str, ...], fields: list[int]) -> str:
    """One block of a whole page: ``depth`` is the heading level it would take, ``where`` the titles it sits under
    (an answer field is named after its section), ``fields`` counts the fields for their ids."""
    level = min(depth, 6)
    if isinstance(block, Heading):
        return f"<h{level}>{_inline(block.content)}</h{level}>"
    if isinstance(block, Section):
        title = inline_html(block.title)
        plain = "".join(p if isinstance(p, str) else getattr(p, "text", "") for p in block.title)
        inner = "".join(_page_block(b, depth + 1, (*where, plain), fields) for b in block.blocks)
        return f"<section><h{min(depth + 1, 6)}>{title}</h{min(depth + 1, 6)}>{inner}</section>"
    if isinstance(block, AnswerSpace):
        fields[0] += 1
        ident = f"field-{fields[0]}"
        named = f"{block.label} ({where[-1]})" if where else block.label
        control = (
            f'<input type="text" id="{ident}" name="{ident}" title="{escape(named)}">'
            if block.lines <= 1
            else f'<textarea id="{ident}" name="{ident}" rows="{block.lines}" title="{escape(named)}" '
            f'style="height:{1.6 * block.lines:.1f}em"></textarea>'
        )
        return f'<div class="answer-space"><label for="{ident}">{escape(named)}</label>{control}</div>'
    return _block(block, depth + 1)
