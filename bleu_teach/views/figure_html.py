"""A chart drawn elsewhere, put in an HTML page in place of its words, which become its caption.

:mod:`~bleu_teach.views.html_writer` writes a :class:`~bleu_teach.views.document.Chart` as its words alone (its
``description``): the views draw nothing, and the site's pages draw a chart themselves. A command that has the chart
drawn as an SVG (``ui.plots.chart_svg``, matplotlib's) puts the drawing in the page the writer made:
:func:`with_figure` finds the writer's words for the chart, once, and puts in their place a ``<figure>`` of the SVG
(an image named by the chart's title) and those same words as its ``<figcaption>``, the text alternative a screen
reader reads. No script, no network: the page stays one file that opens offline. :func:`fit_phone` makes such a
page, which the writer makes for print, read on a phone too.
"""

from __future__ import annotations

import re

from bleu_teach.views.document import Chart, Document
from bleu_teach.views.html_writer import escape, write_html

__all__ = ["PHONE_STYLE", "chart_words_html", "figure_html", "fit_phone", "with_figure"]

#: An element that would run or pull in something: never in a drawing put in a page.
_LIVE = re.compile(r"<\s*(script|foreignobject|iframe|object|embed)\b", re.IGNORECASE)
#: The SVG's opening tag, its attributes included.
_OPENING = re.compile(r"<svg\b[^>]*>")
#: The root's size in points: replaced, so that the drawing fits the page's width and keeps its proportions.
_SIZE = re.compile(r'\s(width|height)="[^"]*"')
#: What :func:`fit_phone` adds to a whole page's head: the page as wide as the screen, and each table in its box
#: (the writer's ``table-box``), scrolled sideways there rather than widening the page.
PHONE_STYLE = (
    '<meta name="viewport" content="width=device-width, initial-scale=1">'
    "<style>body{margin:0.5em}main{max-width:60em;margin:0 auto}"
    ".table-box{max-width:100%;overflow-x:auto}.table-box:focus{outline:2px solid #0072b2}</style>"
)
#: A table's caption and its box as the HTML writer writes them (:func:`~bleu_teach.views.html_writer.table_html`).
_CAPTIONED = re.compile(r'<p><b>((?:(?!</b>).)*)</b></p><div class="table-box">', re.DOTALL)


def chart_words_html(chart: Chart) -> str:
    """What the HTML writer writes for ``chart`` where it stands in a document: its words (:func:`write_html`'s
    fragment of the chart alone, out of the fragment's wrapper).

    >>> from bleu_teach.views.document import Series
    >>> chart_words_html(Chart("T", "x", "y", (0, 1), (0, 1), (Series("line", "a", ((0, 0),)),), "A <line>."))
    '<p>A &lt;line&gt;.</p>'
    """
    alone = write_html(Document((chart,)), styled=False)
    empty = write_html(Document(()), styled=False)  # the wrapper alone: its opening tag, then its closing tag
    cut = empty.rindex("</")
    opening, closing = empty[:cut], empty[cut:]
    if not (alone.startswith(opening) and alone.endswith(closing)):
        raise ValueError("the HTML writer's fragment of a chart is not in the wrapper of its empty fragment")
    return alone[len(opening) : len(alone) - len(closing)]


def figure_html(chart: Chart, svg: str) -> str:
    r"""The drawing of ``chart`` (``svg``, an SVG document whose text is escaped, as matplotlib's SVG writer escapes
    it) as a figure: the SVG inline, an image (``role="img"``) named by the chart's title, as wide as the page
    allows; the chart's words, as the writer writes them, its caption. A drawing with a script, a foreign object or
    an embedded document is refused.

    >>> from bleu_teach.views.document import Series
    >>> chart = Chart("T", "x", "y", (0, 1), (0, 1), (Series("line", "a", ((0, 0),)),), "Words.")
    >>> svg = '<?xml version="1.0"?>\n<svg width="10pt" height="5pt" viewBox="0 0 10 5"><path d="M0 0h1"/></svg>\n'
    >>> shown = figure_html(chart, svg)
    >>> shown.startswith('<figure class="chart" style="margin:0.8em 0;break-inside:avoid"><svg role="img"')
    True
    >>> shown.endswith('viewBox="0 0 10 5"><path d="M0 0h1"/></svg><figcaption><p>Words.</p></figcaption></figure>')
    True
    """
    start, end = svg.find("<svg"), svg.rfind("</svg>")
    if start < 0 or end < start:
        raise ValueError("the drawing is not an SVG document: no <svg> ... </svg> in it")
    if _LIVE.search(svg):
        raise ValueError("the drawing holds a script, a foreign object or an embedded document: it is not put in")
    drawing = svg[start : end + len("</svg>")]  # the XML declaration and the DOCTYPE left out: inline, HTML's
    opening = _OPENING.match(drawing)
    if opening is None:
        raise ValueError("the drawing's <svg> tag is not closed")
    attributes = _SIZE.sub("", opening.group(0)[len("<svg") :])
    root = (
        f'<svg role="img" aria-label="{escape(chart.title)}" '
        f'style="display:block;width:100%;max-width:48em;height:auto"{attributes}'
    )
    return (
        '<figure class="chart" style="margin:0.8em 0;break-inside:avoid">'
        f"{root}{drawing[opening.end() :]}<figcaption>{chart_words_html(chart)}</figcaption></figure>"
    )


def with_figure(page: str, chart: Chart, svg: str) -> str:
    """``page`` (the HTML writer's, of a document that holds ``chart``) with the chart's words replaced by its
    drawing and the same words as the drawing's caption (:func:`figure_html`). The words must be in the page exactly
    once: a page without them, or with them twice, is refused rather than given a drawing in the wrong place.
    """
    words = chart_words_html(chart)
    found = page.count(words)
    if found != 1:
        raise ValueError(f"the page holds the chart's words {found} times, not once: the drawing has no one place")
    return page.replace(words, figure_html(chart, svg), 1)


def fit_phone(page: str) -> str:
    """``page`` (the HTML writer's whole page, made for print) made to fit a phone's screen: :data:`PHONE_STYLE` in
    its head, and each table's box one that the keyboard can scroll (a tab stop), a region named by the table's
    caption when it has one.

    >>> page = fit_phone('<html><head></head><body><p><b>Marks</b></p><div class="table-box"><table></table></div>'
    ...                  '<div class="table-box"><table></table></div></body></html>')
    >>> '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    True
    >>> print("\\n".join(re.findall(r"<p[^>]*>|<div[^>]*>", page)))
    <p id="table-1">
    <div class="table-box" role="region" tabindex="0" aria-labelledby="table-1">
    <div class="table-box" tabindex="0">
    """
    count = [0]

    def boxed(found: re.Match[str]) -> str:
        count[0] += 1
        name = f"table-{count[0]}"
        return (
            f'<p id="{name}"><b>{found.group(1)}</b></p>'
            f'<div class="table-box" role="region" tabindex="0" aria-labelledby="{name}">'
        )

    page = _CAPTIONED.sub(boxed, page)
    page = page.replace('<div class="table-box">', '<div class="table-box" tabindex="0">')
    if "</head>" not in page:
        raise ValueError("the page has no </head>: fit_phone takes a whole page (write_html_page's)")
    return page.replace("</head>", PHONE_STYLE + "</head>", 1)
