"""``class term``: the class over a term, per named mistake and per student, session by session.

``class term [SESSION ...] [--format text|markdown|html|json] [--out FILE]`` reads the sessions named (every
session when none is) and shows which named mistakes persist, who improved, each mistake's share session by session
and each student's sessions (:func:`~bleu_teach.classroom.term.term_report`; its paragraph "How to read it" defines
each number); the HTML page draws the mistakes' shares (:func:`term_page`), the other formats say them in words.
It only reads: like ``class list`` it never makes a database. ``--out`` writes the view to a file readable by its
owner only (it holds the class's names), never over a file unless ``--force``.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any, BinaryIO

from bleu_teach.ui.archive_command import private_path, write_private

if TYPE_CHECKING:  # pragma: no cover
    from bleu_teach.classroom.term import TermReport

#: What ``--format`` takes: the views of every report, less LaTeX (a teacher's file, not a printed sheet).
TERM_FORMATS = ("text", "markdown", "html", "json")


def add_term_command(what: Any) -> argparse.ArgumentParser:
    """The ``class term`` command (which then gets ``--database``)."""
    term: argparse.ArgumentParser = what.add_parser(
        "term",
        help="the class over a term: which named mistakes persist from session to session, and who improved",
    )
    term.add_argument(
        "session", type=int, nargs="*", help="the sessions' numbers (class list shows them); every session if none"
    )
    term.add_argument(
        "--format",
        dest="term_format",
        choices=TERM_FORMATS,
        default="text",
        help="text (default), markdown, html (a whole page, the chart drawn) or json (every number, for a pipeline)",
    )
    term.add_argument("--out", metavar="FILE", help="write it to FILE (readable by you only) instead of printing it")
    term.add_argument("--force", action="store_true", help="with --out: replace FILE if it exists")
    return term


def term_text(store: Any, session_ids: list[int], form: str) -> str:
    """The term of the sessions numbered ``session_ids`` (every session if none) in the format ``form``; a
    ``LookupError`` names a session that does not exist."""
    from bleu_teach.classroom.term import term_report

    if form not in TERM_FORMATS:
        raise ValueError(f"--format: one of {', '.join(TERM_FORMATS)}, not {str(form)[:20]!r}")
    report = term_report(store.term_rows(session_ids))
    if form == "html":
        return term_page(report)
    return str(report.to_json() if form == "json" else report.to_markdown() if form == "markdown" else report.to_text())


def term_page(report: TermReport) -> str:
    """The term as a whole HTML page, its chart drawn: the HTML writer's page (which says the chart in words), with
    the chart drawn by matplotlib as an SVG in their place, its axis naming the sessions
    (:meth:`~bleu_teach.classroom.term.TermReport.chart_ticks`), and those words as its caption
    (:func:`~bleu_teach.views.figure_html.with_figure`); it fits a phone's screen, its tables scrolling in their
    own boxes (:func:`~bleu_teach.views.figure_html.fit_phone`). One file: no script, nothing from the network."""
    from bleu_teach.classroom.term import TITLE
    from bleu_teach.views.figure_html import fit_phone, with_figure
    from bleu_teach.views.html_writer import write_html_page

    page = fit_phone(write_html_page(report.to_document(), TITLE))
    chart = report.chart()
    if chart is None:  # no named mistake: nothing to draw
        return page
    from bleu_teach.ui.plots import chart_svg

    return with_figure(page, chart, chart_svg(chart, report.chart_ticks()))


def run_term(args: argparse.Namespace, store: Any) -> None:
    """Run ``class term`` on ``store``: print the view, or write it to ``--out``."""
    if args.force and not args.out:
        raise ValueError("--force goes with --out (it replaces the file --out names)")
    path = private_path(args.out, args.force) if args.out else None  # checked before anything is read
    text = term_text(store, args.session, args.term_format)
    if path is None:
        print(text)
        return
    data = (text if text.endswith("\n") else text + "\n").encode("utf-8")

    def fill(file: BinaryIO) -> None:
        file.write(data)

    write_private(path, fill, args.force)
    print(f"The class over the term ({args.term_format}) written to {path} (readable by you only).")
