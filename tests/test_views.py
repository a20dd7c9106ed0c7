"""Every view of every result, checked by real tools.

Markdown is parsed by markdown-it-py (CommonMark with tables) and its table
cells compared with the document's; the text view must hold the same
tables; LaTeX is compiled by pdflatex and the PDF read back by pdftotext
(with ``CI=true`` the test fails instead of skipping when TeX is missing);
JSON is round-tripped through ``json`` with the score at full precision.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

import bleu_teach as bt
from bleu_teach.views.document import (
    Alert,
    Code,
    Details,
    Document,
    Heading,
    Highlight,
    Label,
    Lines,
    Notes,
    Paragraph,
    Score,
    Section,
    Span,
    Strong,
    Table,
    Tokens,
)
from bleu_teach.views.html_writer import write_html
from bleu_teach.views.latex_writer import write_latex
from bleu_teach.views.markdown_writer import write_markdown
from bleu_teach.views.tables import Table as ValueTable
from bleu_teach.views.text_writer import write_text
from bleu_teach.views.viewable import FORMATS, Viewable, render
from tests.view_checks import check_every_view, compile_latex, document_tables, markdown_tables

EVIL = "<script>alert(1)</script> *x* _y_ | \\ {z} $5 & #1 % ^ ~ [a](b) `c` \x1b[31m"

REFS = [["the", "cat", "is", "on", "the", "mat"], ["there", "is", "a", "cat", "on", "the", "mat"]]
HYP = ["the", "cat", "the", "cat", "on", "the", "mat"]


def _results() -> dict[str, Callable[[], Viewable]]:
    return {
        "BleuReport": lambda: bt.explain(REFS, HYP, smoothing="method1"),
        "BleuReport, user text": lambda: bt.explain([EVIL.split() + ["p_1"]], EVIL.split()),
        "CorpusReport": lambda: bt.explain_corpus([REFS, [["a", "b", "c"]]], [HYP, ["a", "b"]], smoothing="method3"),
        "HypothesisComparison": lambda: bt.compare_hypotheses(REFS, HYP, "the cat is on a mat".split()),
        "ChrfReport": lambda: bt.explain_chrf(
            "the cat is chasing the dog", ["the cat chased the dog", "a dog"], word_order=2
        ),
        "ChrfCorpusScore": lambda: bt.chrf_score(["the cat sat", "a dog ran"], [["the cat sat down"], ["dogs ran"]]),
        "Table": lambda: ValueTable(
            ["", "p_n"], [["p_1", 0.5], ["p_2", "2/3"]], caption="Precisions", label_column=True
        ),
    }


RESULTS = _results()


@pytest.mark.parametrize("name", RESULTS)
def test_every_view_checked_by_real_tools(name, tmp_path: Path):
    result = RESULTS[name]()
    assert list(document_tables(result.to_document().blocks)), "every result here shows at least one table"
    check_every_view(result, tmp_path)


@pytest.mark.parametrize("name", RESULTS)
def test_json_round_trips_with_the_score_at_full_precision(name):
    result = RESULTS[name]()
    data = json.loads(result.to_json())
    assert data == result.to_dict()
    if hasattr(result, "score"):
        assert data["score"] == result.score and repr(data["score"]) == repr(result.score)


def test_json_keeps_every_number_a_bleu_report_shows():
    report = bt.explain(REFS, HYP, smoothing="method1")
    data = report.to_dict()
    assert data["length"]["hyp_len"] == 7 and data["length"]["closest_ref_len"] == 7
    assert data["length"]["brevity_penalty"] == report.brevity_penalty
    for shown, order in zip(data["orders"], report.orders):
        assert (shown["clipped"], shown["total"]) == (order.clipped, order.total)
        assert shown["precision"] == {
            "numerator": order.clipped,
            "denominator": order.total,
            "value": float(order.precision),
        }
        assert shown["weight"] == order.weight and shown["log_term"] == order.log_term
        assert [row["clipped_count"] for row in shown["rows"]] == [row.clipped_count for row in order.rows]
        # a row (a named tuple) is a record in JSON, named fields and its text, as a dataclass is
        assert shown["rows"][0] == {
            "type": "NgramRow",
            "ngram": list(order.rows[0].ngram),
            "hyp_count": order.rows[0].hyp_count,
            "ref_counts": list(order.rows[0].ref_counts),
            "max_ref_count": order.rows[0].max_ref_count,
            "clipped_count": order.rows[0].clipped_count,
            "text": order.rows[0].text,
        }
    assert data["log_sum"] == report.log_sum and data["notes"] == list(report.notes)


def test_a_users_named_tuple_token_stays_a_list_in_json():
    from collections import namedtuple

    token = namedtuple("Token", "word tag")
    the, cat = token("the", "DT"), token("cat", "NN")
    data = bt.explain([[the, cat]], [the, cat], weights=(0.5, 0.5)).to_dict()
    assert data["hypothesis"] == [["the", "DT"], ["cat", "NN"]]
    assert data["orders"][0]["rows"][0]["ngram"] == [["the", "DT"]]
    assert data["orders"][0]["rows"][0]["type"] == "NgramRow"  # the package's own row is a record


def test_render_offers_every_format_and_refuses_others():
    report = bt.explain(REFS, HYP)
    assert [render(report, f)[:0] for f in FORMATS] == [""] * len(FORMATS)
    with pytest.raises(ValueError, match="format must be one of text, html, markdown, latex, json"):
        render(report, "pdf")


# ---------------------------------------------------------------------------
# The writers on every kind of block
# ---------------------------------------------------------------------------

EVERY_BLOCK = Document(
    (
        Heading("Title " + EVIL),
        Paragraph((Strong("Hypothesis"), ": ", Tokens(("a", "<b>", "c_1"), (True, False, True)), " ", Code(EVIL))),
        Lines((("line one ", EVIL), (Label("p_1 = 1/2"),))),
        Section(
            (Label("p_2 section"),), (Table(("n-gram", "p_n"), (("a|b", "1/2"), (EVIL, ""))), Paragraph(("inside",)))
        ),
        Details(("folded",), (Paragraph(("hidden " + EVIL,)),)),
        Paragraph(
            (
                Highlight(
                    "a bad word " + EVIL,
                    (Span(2, 5, 1, "major", "Major accuracy"), Span(4, 10, 2, "minor", "Minor <fluency>")),
                ),
            )
        ),
        Score((Label("BLEU = 0.5"),), 0.5),
        Notes(((Label("p_n note"), " ", EVIL),)),
        Alert(EVIL),
    )
)


def test_html_escapes_every_piece_of_user_text():
    html = write_html(EVERY_BLOCK)
    assert "<script>" not in html and "<b>" not in html.replace("<b>Hypothesis</b>", "").replace(
        "<b>&#9888; Please check the input:</b>", ""
    ).replace("<b>Notes</b>", "")
    assert "c_1" in html and "c<sub>1</sub>" not in html  # tokens are user text: no subscripts
    assert "p<sub>1</sub> = 1/2" in html and 'data-score="0.5"' in html
    assert '<mark class="major" title="[1] Major accuracy; [2] Minor &lt;fluency&gt;">d</mark>' in html


def test_markdown_keeps_user_text_literal():
    markdown = write_markdown(EVERY_BLOCK)
    html = MarkdownIt("commonmark").enable("table").render(markdown)
    assert "<script>" not in html and "<em>" not in html and "<a href" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; *x* _y_" in html
    assert markdown_tables(markdown) == [
        [["n-gram", "p_n"], ["a|b", "1/2"], [EVIL.replace("\x1b", "\\x1b").strip(), ""]]
    ]


def test_text_shows_control_characters_as_escapes():
    text = write_text(EVERY_BLOCK)
    assert "\x1b" not in text and "\\x1b[31m" in text
    assert "a\u2713 <b> c_1\u2713" in text
    assert "a bad[1] word[2]" in text


def test_latex_of_every_block_compiles(tmp_path: Path):
    text = compile_latex(write_latex(EVERY_BLOCK, standalone=True), tmp_path)
    assert "BLEU = 0.5" in text and "Please check the input" in text


def test_latex_spells_characters_pdflatex_cannot_set(tmp_path: Path):
    report = bt.explain([["中文", "é"]], ["中文", "é"], weights=(1,))
    source = report.to_latex(standalone=True)
    assert "{[}U+4E2D{]}{[}U+6587{]}" in source and "é" in source
    assert "[U+4E2D][U+6587]" in compile_latex(source, tmp_path)


def test_latex_keeps_typed_text_as_typed(tmp_path: Path):
    # A row that starts with *, and the ligatures TeX would otherwise make of -- `` '' ?`
    tokens = ["x", "*y", "--", "``q''", "?`"]
    pdf = compile_latex(bt.explain([tokens], tokens, weights=(1,)).to_latex(standalone=True), tmp_path)
    rows = [line.split()[0] for line in pdf.splitlines() if line.split() and line.split()[-1] == "1"]
    assert {"*y", "--"} <= set(rows) and "\u2013" not in pdf and "\u201c" not in pdf and "\u00bf" not in pdf


def test_no_view_passes_control_characters_or_bidi_overrides_through():
    hostile = ["hi", "\x1b]0;title\x07", "\u202eevil", "\x1b[2J"]
    report = bt.explain([["hi"]], hostile, weights=(1,))
    for shown in (report.to_text(), report.to_html(), report.to_markdown(), report.to_latex()):
        assert not any(ch in shown for ch in "\x1b\x07\u202e"), shown[:200]
    assert "\\x1b]0;title\\x07" in report.to_text() and "\\u202eevil" in report.to_html()


# --- tables read by a screen reader: column headers, and each row's first cell as its header ---------------------


def test_a_tables_first_column_heads_its_rows():
    from html.parser import HTMLParser

    from bleu_teach.views.document import Table as TableBlock
    from bleu_teach.views.html_writer import table_html

    class Cells(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.cells: list[tuple[str, str | None]] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag in ("th", "td"):
                self.cells.append((tag, dict(attrs).get("scope")))

    def cells(table: TableBlock) -> list[tuple[str, str | None]]:
        parser = Cells()
        parser.feed(table_html(table))
        return parser.cells

    table = TableBlock(("", "p_1", "BP"), (("as counted", "5/6", "c = 6, r = 6"), ("used", "5/6", "1")))
    assert cells(table) == [
        ("td", None),
        ("th", "col"),
        ("th", "col"),  # the corner heads nothing
        ("th", "row"),
        ("td", None),
        ("td", None),
        ("th", "row"),
        ("td", None),
        ("td", None),
    ]
    named = TableBlock(("n-gram", "hyp"), (("the cat", "1"),))
    assert cells(named) == [("th", "col"), ("th", "col"), ("th", "row"), ("td", None)]
    data = TableBlock(("a", "b"), (("1", "2"),), row_headers=False)
    assert cells(data) == [("th", "col"), ("th", "col"), ("td", None), ("td", None)]
    html = bt.explain([["the", "cat"]], ["the", "cat"], weights=(0.5, 0.5)).to_html()
    assert '<th scope="row" class="gram">the cat</th>' in html  # a report's n-gram rows
    assert '<div class="table-box"><table>' in html  # each table in its own box: it scrolls there, not the page


# --- heading levels: a fragment starts under the heading it is shown under ---------------------------------------


def test_a_report_under_an_h2_starts_at_h3_and_its_sections_follow():
    import re

    from bleu_teach.views.document import Document, Heading, Section
    from bleu_teach.views.html_writer import write_html

    report = bt.explain([["the", "cat", "is", "on", "the", "mat"]], "the cat sat on the mat".split())
    levels = [int(level) for level in re.findall(r"<h(\d)>", report.to_html())]
    assert levels[0] == 3 and set(levels[1:]) == {4}  # "BLEU, step by step", then each order and BP
    compact = [int(level) for level in re.findall(r"<h(\d)>", report.to_html(compact=True))]
    assert compact and set(compact) == {3}  # no title: its sections are the first headings under the h2
    nested = Document((Heading("T"), Section(("a",), (Section(("b",), ()),))))
    assert re.findall(r"<h(\d)>", write_html(nested, heading=2)) == ["2", "3", "4"]
    assert re.findall(r"<h(\d)>", write_html(nested, heading=5)) == ["5", "6", "6"]  # never past h6
    with pytest.raises(ValueError, match="heading must be a heading level from 1 to 6"):
        write_html(nested, heading=0)
