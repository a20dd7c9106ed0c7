"""A chart drawn elsewhere put in a page (bleu_teach.views.figure_html): in place of the writer's words for the chart,
those words kept as its caption, once, and never a drawing that could run something."""

from __future__ import annotations

import pytest

from bleu_teach.views.document import Chart, Document, Heading, Paragraph, Series
from bleu_teach.views.figure_html import chart_words_html, figure_html, with_figure
from bleu_teach.views.html_writer import write_html_page

CHART = Chart("Shares & <more>", "x", "y", (0, 2), (0, 100), (Series("line", "a", ((1, 50),)),), 'Words "<b>".')
SVG = '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<svg width="8pt" height="4pt" viewBox="0 0 8 4"><path d="M0 0"/></svg>\n'


def test_the_chart_is_drawn_where_the_writer_put_its_words_and_the_words_become_its_caption() -> None:
    page = write_html_page(Document((Heading("T"), CHART, Paragraph(("After.",)))), "T")
    words = chart_words_html(CHART)
    assert words == "<p>Words &quot;&lt;b&gt;&quot;.</p>" and page.count(words) == 1
    drawn = with_figure(page, CHART, SVG)
    before, after = page.split(words)
    assert drawn.startswith(before) and drawn.endswith(after)  # the rest of the page as the writer wrote it
    figure = drawn[len(before) : len(drawn) - len(after)]
    assert figure == (
        '<figure class="chart" style="margin:0.8em 0;break-inside:avoid"><svg role="img" '
        'aria-label="Shares &amp; &lt;more&gt;" style="display:block;width:100%;max-width:48em;height:auto" '
        'viewBox="0 0 8 4"><path d="M0 0"/></svg><figcaption>' + words + "</figcaption></figure>"
    )


def test_a_page_without_the_words_once_or_a_drawing_that_could_run_something_is_refused() -> None:
    once = write_html_page(Document((Heading("T"), CHART)), "T")
    twice = write_html_page(Document((Heading("T"), CHART, CHART)), "T")
    for page, times in ((write_html_page(Document((Heading("T"),)), "T"), 0), (twice, 2)):
        with pytest.raises(ValueError, match=f"{times} times, not once"):
            with_figure(page, CHART, SVG)
    for live in ("<script>alert(1)</script>", "< SCRIPT src=x>", "<foreignObject>", "<iframe src=x>"):
        with pytest.raises(ValueError, match="script, a foreign object"):
            with_figure(once, CHART, SVG.replace('<path d="M0 0"/>', live))
    with pytest.raises(ValueError, match="not an SVG document"):
        figure_html(CHART, "<p>no drawing</p>")
