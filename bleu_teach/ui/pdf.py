"""The teacher's PDFs: a document's whole HTML page (``views.html_writer.write_html_page``) printed by WeasyPrint.

Why WeasyPrint and not LaTeX: WeasyPrint writes tagged PDF (PDF/UA-1: a
structure tree with headings, lists and tables with their headers, the
document's language and title, the text in reading order) from the same
HTML the course already writes, and it takes every script from the fonts
the system has (Latin with diacritics, Greek, Chinese) through Pango and
fontconfig. pdflatex prints no Chinese and tags nothing, and the LaTeX
tagging project needs a newer TeX Live than Debian 12 ships.

The answer spaces are form fields that a reader can fill in (and a screen
reader names by their labels); on paper they print as boxes. A PDF reader
draws what a student types in a field with the field's font, so WeasyPrint
embeds that font whole (all of DejaVu Sans: 430 KB a sheet). The fields
get a font of their own instead, DejaVu Sans cut by fontTools to what a
student types (``FIELD_CHARACTERS``: Latin with its accents, Greek, digits
and the arithmetic's signs), about 20 KB, and the text a subset as usual.

WeasyPrint needs Pango (Debian: ``libpango-1.0-0 libpangoft2-1.0-0``) and
fonts for the scripts (Debian: ``fonts-dejavu-core`` and
``fonts-droid-fallback`` or ``fonts-noto-cjk``).
"""

from __future__ import annotations

import base64
import io
import re
import shutil
import subprocess
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from itertools import repeat
from typing import Any

__all__ = ["FIELD_CHARACTERS", "field_font", "page_style", "pdf_missing", "print_pdf", "print_pdfs", "unprintable"]

#: What the answer fields' font holds, as (first, last) code points: what a student types in an answer or their
#: name. Latin with its accents (Latin-1, Extended-A, and from Extended-B and Extended Additional the letters of
#: Azerbaijani, Romanian, Vietnamese and pinyin), Greek's letters, punctuation, super- and subscripts, the euro,
#: arrows, and the arithmetic's signs (minus, times, square root, sum, infinity, approximately, not equal, at
#: most, at least, the middle dot). About 20 KB compressed; the whole font is 380 KB.
FIELD_CHARACTERS = (
    (0x20, 0x7E),
    (0xA0, 0x17F),
    (0x18F, 0x18F),
    (0x1A0, 0x1A1),
    (0x1AF, 0x1B0),
    (0x1CD, 0x1DC),
    (0x218, 0x21B),
    (0x259, 0x259),
    (0x391, 0x3C9),
    (0x1EA0, 0x1EF9),
    (0x2010, 0x2027),
    (0x2030, 0x2044),
    (0x2070, 0x209F),
    (0x20AC, 0x20AC),
    (0x2190, 0x2193),
    (0x2211, 0x2212),
    (0x221A, 0x221A),
    (0x221E, 0x221E),
    (0x2248, 0x2248),
    (0x2260, 0x2260),
    (0x2264, 0x2265),
    (0x22C5, 0x22C5),
)

#: The family the fields' font is known by in the page's style.
_FIELD_FAMILY = "bleu-teach answer fields"
#: The font for Chinese, Japanese and Korean (Debian: fonts-noto-cjk), the family its cut is known by, and the
#: families after it (the page's own, views.html_writer).
_CJK, _CJK_FAMILY = "Noto Sans CJK SC", "bleu-teach CJK"
_FALLBACK = '"Noto Sans CJK SC","Droid Sans Fallback",sans-serif'


def pdf_missing() -> str | None:
    """Why there can be no PDF here (WeasyPrint or Pango is missing), or None."""
    from bleu_teach.inputs.optional import MissingLibrary, needs

    try:
        needs("weasyprint", "The teacher's PDFs")
    except MissingLibrary as missing:
        return str(missing)
    try:
        import weasyprint  # noqa: F401  (loads Pango)
    except OSError as error:
        return (
            f"the teacher's PDFs need WeasyPrint, which needs the Pango library ({str(error)[:120]}); "
            "on Debian or Ubuntu: apt install libpango-1.0-0 libpangoft2-1.0-0"
        )
    return None


def _font_file(pattern: str) -> tuple[str, int] | None:
    """The file (and its index in a collection) fontconfig gives for ``pattern`` (a family, ``:weight=bold``),
    or None: no fontconfig here, or it gives another family."""
    if shutil.which("fc-match") is None:
        return None
    found = subprocess.run(
        ["fc-match", "--format=%{family[0]}\n%{file}\n%{index}", pattern], capture_output=True, text=True, check=False
    ).stdout.split("\n")
    family = pattern.split(":")[0]
    return (found[1], int(found[2])) if len(found) == 3 and found[0] == family and found[2].isdigit() else None


@cache
def _installed() -> frozenset[int] | None:
    """Every character some installed font has, as fontconfig lists them (each font's charset, ranges of hex code
    points); None where there is no fontconfig to ask."""
    if shutil.which("fc-list") is None:
        return None
    listed = subprocess.run(["fc-list", "--format=%{charset}\n"], capture_output=True, text=True, check=False).stdout
    found: set[int] = set()
    for part in listed.split():
        first, _, last = part.partition("-")
        found.update(range(int(first, 16), int(last or first, 16) + 1))
    return frozenset(found)


def unprintable(text: str) -> str:
    """The characters of ``text`` (spaces and invisible format characters aside) that no installed font has: they
    print as empty boxes and are lost from the PDF's text. Empty where fontconfig cannot be asked.

    >>> unprintable("Zoë Ñúñez")
    ''
    """
    installed = _installed()
    if installed is None:
        return ""
    seen = dict.fromkeys(c for c in text if ord(c) not in installed and unicodedata.category(c)[0] not in "ZC")
    return "".join(seen)


def _cut(pattern: str, characters: Iterable[int], keep_layout: bool) -> bytes | None:
    """The font fontconfig gives for ``pattern`` with only ``characters`` (fontTools' subsetter), without hinting;
    None where there is no such font. Without ``keep_layout``, no layout tables either (a form field's text is
    drawn glyph by glyph)."""
    import logging

    from fontTools.subset import Options, Subsetter
    from fontTools.ttLib import TTFont

    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)  # its notes on the tables it drops
    found = _font_file(pattern)
    if found is None:
        return None
    options = Options()
    options.hinting = False
    options.desubroutinize = True
    if not keep_layout:
        options.layout_features = []
        options.drop_tables += ["GSUB", "GPOS", "GDEF", "MATH", "gasp"]
    subsetter = Subsetter(options)
    subsetter.populate(unicodes=characters)
    font = TTFont(found[0], fontNumber=found[1], lazy=True)
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


@cache
def field_font() -> bytes | None:
    """The answer fields' font: DejaVu Sans with only ``FIELD_CHARACTERS``; None where fontconfig finds none."""
    return _cut("DejaVu Sans", [c for first, last in FIELD_CHARACTERS for c in range(first, last + 1)], False)


@cache
def _covered(pattern: str) -> frozenset[int]:
    """The characters of the font fontconfig gives for ``pattern`` (none where it gives no such font)."""
    from fontTools.ttLib import TTFont

    found = _font_file(pattern)
    return frozenset() if found is None else frozenset(TTFont(found[0], fontNumber=found[1], lazy=True).getBestCmap())


def _face(family: str, font: bytes, weight: str = "normal") -> str:
    data = base64.b64encode(font).decode("ascii")
    return f'@font-face{{font-family:"{family}";font-weight:{weight};src:url(data:font/otf;base64,{data})}}'


def page_style(pages: Iterable[str]) -> str:
    """The style the pages are printed with, beside their own: the fields' font, and a cut of Noto Sans CJK with
    the pages' characters that DejaVu Sans lacks and it has (regular and bold), first after DejaVu Sans.

    Why cut fonts here: WeasyPrint embeds a form field's font whole, and keeps every glyph of a font up to the last
    one a page uses (empty, but each with its entries): a Korean name in Noto Sans CJK, whose 65,535 glyphs are
    one font, cost a sheet 80 KB; the cut holds only the class's characters."""
    # WeasyPrint takes these as the reader's style: over the page's own only where !important.
    style = ""
    font = field_font()
    if font is not None:
        style += _face(_FIELD_FAMILY, font) + f'input,textarea{{font-family:"{_FIELD_FAMILY}"!important}}'
    used = {ord(c) for page in pages for c in page} - _covered("DejaVu Sans")
    wanted = sorted(used & _covered(_CJK) | ({0x20} if used else set()))  # and the space between a name's words
    cuts = [(weight, _cut(f"{_CJK}:weight={weight}", wanted, True)) for weight in ("regular", "bold")] if wanted else []
    if cuts and all(font is not None for _, font in cuts):
        style += "".join(
            _face(_CJK_FAMILY, font, "bold" if weight == "bold" else "normal")
            for weight, font in cuts
            if font is not None
        )
        style += f'body{{font-family:"DejaVu Sans","{_CJK_FAMILY}",{_FALLBACK}!important}}'
    return style


def _object(pdf: Any, value: Any) -> Any:
    """A value of WeasyPrint's PDF (pydyf): an indirect reference (b"12 0 R") resolved, anything else as it is."""
    if isinstance(value, bytes) and value.endswith(b" R"):
        return pdf.objects[int(value.split()[0])]
    return value


def _elements(pdf: Any, node: Any) -> Iterator[Any]:
    """The structure elements under ``node``, depth first in the order they are read."""
    for kid in node.get("K") or []:
        element = _object(pdf, kid)
        if isinstance(element, dict) and element.get("Type") == "/StructElem":
            yield element
            yield from _elements(pdf, element)


def _finisher(page: str) -> Callable[[Any, Any], None]:
    """What WeasyPrint's structure tree lacks, added before it writes the file (its ``finisher``):

    * each ``<span lang>`` of the page (``views.document.Foreign``: a name in another language) gives its /Span
      element that /Lang. WeasyPrint makes one /Span element with kids per HTML span (one piece: it never wraps),
      and leaf /Span elements for runs of text, so the n-th /Span with kids is the page's n-th span.
    * the /IDTree: each ID (a table's header cell, which its data cells name in /Headers) to its element, as
      PDF 1.7 (14.7.2) asks of a tree whose elements have IDs."""
    from pydyf import Array, Dictionary, String

    languages = re.findall(r'<span lang="([^"]+)"', page)

    def finish(document: Any, pdf: Any) -> None:
        root = _object(pdf, pdf.catalog["StructTreeRoot"])
        elements = list(_elements(pdf, root))
        spans = [
            e
            for e in elements
            if e.get("S") == "/Span" and any(isinstance(_object(pdf, kid), dict) for kid in e.get("K") or [])
        ]
        if len(spans) != len(languages):
            raise RuntimeError(
                f"the page has {len(languages)} spans in another language, its PDF {len(spans)} /Span "
                "elements with kids: a span broke across lines, or another kind of span was added"
            )
        for span, language in zip(spans, languages):
            span["Lang"] = String(language)
        ids = sorted(
            ((element["ID"].string, element.reference) for element in elements if "ID" in element),
            key=lambda pair: pair[0].encode("utf-8"),
        )
        if ids:
            tree = Dictionary({"Names": Array([item for key, reference in ids for item in (String(key), reference)])})
            pdf.add_object(tree)
            root["IDTree"] = tree.reference

    return finish


def print_pdf(page: str, style: str | None = None) -> bytes:
    """One whole HTML page as a tagged PDF (PDF/UA-1, its answer spaces fillable form fields); ``style`` is
    ``page_style`` of the pages printed with it (by default of this page alone)."""
    import logging

    import weasyprint
    from weasyprint.text.fonts import FontConfiguration

    logging.getLogger("weasyprint").setLevel(logging.ERROR)  # its notes on unsupported CSS are not the teacher's
    fonts = FontConfiguration()
    css = weasyprint.CSS(string=page_style([page]) if style is None else style, font_config=fonts)
    document: Any = weasyprint.HTML(string=page)
    pdf: bytes = document.write_pdf(
        stylesheets=[css], font_config=fonts, finisher=_finisher(page), pdf_variant="pdf/ua-1", pdf_forms=True
    )
    return pdf


def print_pdfs(pages: Mapping[str, str]) -> dict[str, bytes]:
    """Each ``NAME: page`` printed, on two processes when there are several: NAME's PDF."""
    from bleu_teach.ui.out_folder import stop_if_interrupted

    style = page_style(pages.values())  # the fonts cut once for all of them
    stop_if_interrupted()  # a Ctrl-C while fontTools cut the fonts may not have reached this far as an exception
    if len(pages) < 4:
        return {name: print_pdf(page, style) for name, page in pages.items()}
    pool = ProcessPoolExecutor(max_workers=2, initializer=_ignore_interrupt)
    try:
        printed = dict(zip(pages, pool.map(print_pdf, pages.values(), repeat(style), chunksize=4)))
    except BaseException:  # Ctrl-C: stop at once; the workers (which ignore it) end after their page
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return printed


def _ignore_interrupt() -> None:
    """A printing process leaves Ctrl-C to the command (which stops it): no traceback of its own."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
