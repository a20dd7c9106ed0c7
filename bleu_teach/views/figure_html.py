"""A chart drawn elsewhere, put in an HTML page in place of its words, which become its caption.

:mod:`~bleu_teach.views.html_writer` writes a :class:`~bleu_teach.views.document.Chart` as its words alone (its
``description``): the views draw nothing, and the site's pages draw a chart themselves. A command that has the chart
drawn as an SVG (``ui.plots.chart_svg``, matplotlib's) puts the drawing in the page the writer made:
:func:`with_figure` finds the writer's words for the chart, once, and puts in their place a ``<figure>`` of the SVG
(an image named by the chart's title) and those same words as its ``<figcaption>``, the text alternative a screen
reader reads. No script, no network: the page stays one file that opens offline.
"""

from __future__ import annotations

import re

from bleu_teach.views.document import Chart, Document
from bleu_teach.views.html_writer import escape, write_html

__all__ = ["chart_words_html", "figure_html", "with_figure"]

#: An element that would run or pull in something: never in a drawing put in a page.
_LIVE = re.compile(r"<\s*(script|foreignobject|iframe|object|embed)\b", re.IGNORECASE)
#: The SVG's opening tag, its attributes included.
_OPENING = re.compile(r"<svg\b[^>]*>")
#: The root's size in points: replaced, so that the drawing fits the page's width and keeps its proportions.
_SIZE = re.compile(r'\s(width|height)="[^"]*"')


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
