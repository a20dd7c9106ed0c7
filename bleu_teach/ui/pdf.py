"""The teacher's PDFs: a document's whole HTML page (``views.html_writer.write_html_page``) printed by WeasyPrint.

Why WeasyPrint and not LaTeX: WeasyPrint writes tagged PDF (PDF/UA-1: a
structure tree with headings, lists and tables with their headers, the
document's language and title, the text in reading order) from the same
HTML the course already writes, and it takes every script from the fonts
the system has (Latin with diacritics, Greek, Chinese) through Pango and
fontconfig. pdflatex prints no Chinese and tags nothing, and the LaTeX
tagging project needs a newer TeX Live than Debian 12 ships.

The answer spaces are form fields that a reader can fill in (and a screen
reader names by their labels); on paper they print as boxes.

WeasyPrint needs Pango (Debian: ``libpango-1.0-0 libpangoft2-1.0-0``) and
fonts for the scripts (Debian: ``fonts-dejavu-core`` and
``fonts-droid-fallback`` or ``fonts-noto-cjk``).
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

__all__ = ["pdf_missing", "print_pdf", "print_pdfs"]


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
        return (f"the teacher's PDFs need WeasyPrint, which needs the Pango library ({str(error)[:120]}); "
                "on Debian or Ubuntu: apt install libpango-1.0-0 libpangoft2-1.0-0")
    return None


def print_pdf(page: str) -> bytes:
    """One whole HTML page as a tagged PDF (PDF/UA-1, its answer spaces fillable form fields)."""
    import logging

    import weasyprint

    logging.getLogger("weasyprint").setLevel(logging.ERROR)  # its notes on unsupported CSS are not the teacher's
    document: Any = weasyprint.HTML(string=page)
    pdf: bytes = document.write_pdf(pdf_variant="pdf/ua-1", pdf_forms=True)
    return pdf


def print_pdfs(pages: Mapping[str, str]) -> dict[str, bytes]:
    """Each ``NAME: page`` printed, on two processes when there are several: NAME's PDF."""
    if len(pages) < 4:
        return {name: print_pdf(page) for name, page in pages.items()}
    pool = ProcessPoolExecutor(max_workers=2, initializer=_ignore_interrupt)
    try:
        printed = dict(zip(pages, pool.map(print_pdf, pages.values(), chunksize=4)))
    except BaseException:  # Ctrl-C: stop at once; the workers (which ignore it) end after their page
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return printed


def _ignore_interrupt() -> None:
    """A printing process leaves Ctrl-C to the command (which stops it): no traceback of its own."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
