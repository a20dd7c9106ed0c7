"""Markdown as the site renders it: nbconvert's own renderer, told where the site's pages are.

The lessons, the glossary and the teacher's guide link to notebooks and to
``GLOSSARY.md``; on the site those are HTML pages. The renderer rewrites a
link's target as it renders the link, and records each section heading (the
id nbconvert gives it, and its text) as it renders the heading, so the
site's links and its contents lists come from the Markdown parser, never from
patterns over Markdown text or exported HTML.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree

import jinja2
from nbconvert.exporters.html import HTMLExporter
from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath


@dataclass(frozen=True)
class Section:
    """A section heading as the page shows it: its anchor and its text."""

    anchor: str
    title: str


def site_link(target: str, pages: dict[str, str]) -> str:
    """A link in the course's Markdown as a link on the site: a lesson or the glossary to its page.

    >>> site_link("03_brevity_penalty.ipynb#2.-Why", {"03_brevity_penalty.ipynb": "03_brevity_penalty.html"})
    '03_brevity_penalty.html#2.-Why'
    >>> site_link("https://aclanthology.org/P02-1040/", {})
    'https://aclanthology.org/P02-1040/'
    """
    path, hash_, anchor = target.partition("#")
    path = path.removeprefix("notebooks/")  # the teacher's guide links from the project's root
    return pages[path] + hash_ + anchor if path in pages else target


class SiteRenderer(IPythonRenderer):
    """nbconvert's Markdown renderer, which points links at the site's pages and notes the level-2 headings.

    An explicit anchor on a line of its own (``<a id="13a"></a>``, which the glossary keeps for links on GitHub)
    is dropped where the heading below it gets the same id, so that every id on a page is unique.
    """

    def __init__(self, pages: dict[str, str], sections: list[Section] | None = None, **options: Any) -> None:
        super().__init__(escape=False, **options)
        self.pages = pages
        self.sections = sections if sections is not None else []
        self._anchor: str | None = None  # an explicit anchor waiting for the heading after it

    def link(self, text: str, url: str, title: str | None = None) -> str:
        return str(super().link(text, site_link(url, self.pages), title))

    def paragraph(self, text: str) -> str:
        anchor = _lone_anchor(text)
        if anchor is not None:
            self._anchor = anchor
            return ""
        return self._pending() + str(super().paragraph(text))

    def heading(self, text: str, level: int, **attrs: Any) -> str:
        html = str(super().heading(text, level, **attrs))
        try:
            element = ElementTree.fromstring(html)
        except ElementTree.ParseError:  # raw HTML nbconvert could not give an id either: nothing to link to
            return self._pending() + html
        anchor = element.get("id", "")
        if self._anchor == anchor:
            self._anchor = None
        if level == 2:
            for link in [child for child in element if child.get("class") == "anchor-link"]:
                element.remove(link)  # the ¶ nbconvert adds (the last child: no text follows it)
            self.sections.append(Section(anchor, "".join(element.itertext()).strip()))
        return self._pending() + html

    def rendered(self, source: str) -> str:
        """``source`` rendered, with an explicit anchor left waiting at its very end written out."""
        return str(MarkdownWithMath(renderer=self).render(source)) + self._pending()

    def _pending(self) -> str:
        anchor, self._anchor = self._anchor, None
        return "" if anchor is None else f'<p><a id="{self.escape_attribute(anchor)}"></a></p>\n'


def _lone_anchor(text: str) -> str | None:
    """The id of a paragraph that is nothing but an empty ``<a id="...">``, else None."""
    if not text.startswith("<a ") or not text.endswith("</a>"):
        return None
    try:
        element = ElementTree.fromstring(text)
    except ElementTree.ParseError:
        return None
    if element.tag == "a" and set(element.keys()) == {"id"} and not element.text and not len(element):
        return element.get("id")
    return None


def render(source: str, pages: dict[str, str], sections: list[Section] | None = None) -> str:
    """A Markdown text (the glossary, the guide) as the site's HTML."""
    return SiteRenderer(pages, sections).rendered(source)


class _InlineRenderer(SiteRenderer):
    """The renderer for one line shown inside other HTML: its paragraph is the line itself, not a <p>."""

    def paragraph(self, text: str) -> str:
        return text


def render_inline(source: str, pages: dict[str, str]) -> str:
    """One line of Markdown (an option's text, a "You will learn" line) as inline HTML.

    >>> render_inline("the *clipped* count, see [the glossary](GLOSSARY.md#clipping)", {"GLOSSARY.md": "glossary.html"})
    'the <em>clipped</em> count, see <a href="glossary.html#clipping">the glossary</a>'
    """
    return str(MarkdownWithMath(renderer=_InlineRenderer(pages)).render(source)).strip()


def contents(cells: list[Any], pages: dict[str, str]) -> list[Section]:
    """The numbered sections of a notebook, in order, with the anchors its page gives them."""
    sections: list[Section] = []
    for cell in cells:
        if cell["cell_type"] == "markdown":
            render(cell["source"], pages, sections)
    return sections


class SiteExporter(HTMLExporter):
    """nbconvert's HTML exporter whose markdown cells are rendered by :class:`SiteRenderer`."""

    pages: dict[str, str] = {}

    @jinja2.pass_context
    def markdown2html(self, context: Any, source: str) -> str:
        """nbconvert's markdown2html filter, with the site's renderer."""
        cell = context.get("cell", {})
        renderer = SiteRenderer(
            self.pages,
            attachments=cell.get("attachments", {}),
            embed_images=self.embed_images,
            path=context.get("resources", {}).get("metadata", {}).get("path", ""),
            anchor_link_text=self.anchor_link_text,
            exclude_anchor_links=self.exclude_anchor_links,
            **self.lexer_options,
        )
        return renderer.rendered(source)


def make_exporter(pages: dict[str, str], **kwargs: Any) -> SiteExporter:
    exporter = SiteExporter(**kwargs)
    exporter.pages = pages
    return exporter
