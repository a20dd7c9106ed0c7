"""The document model: what a result shows, as a small tree of blocks that knows no output format.

A result describes itself once (its ``to_document()``); the writers in
:mod:`bleu_teach.views.text_writer`, :mod:`~bleu_teach.views.html_writer`,
:mod:`~bleu_teach.views.markdown_writer` and :mod:`~bleu_teach.views.latex_writer` turn
any document into their format and know no report type, as docutils'
writers share one doctree and pandoc's share one AST.

Inline content is a sequence of pieces: a plain ``str`` is text as it is
(user text included: every writer escapes it); :class:`Label` is the
package's own wording, where ``p_1``, ``w_n``, ``m_n`` and ``t_n`` are
written with real subscripts (HTML) or as math (LaTeX, Markdown keeps
them as typed); :class:`Tokens` are user tokens, some marked as matched;
:class:`Highlight` is user text with marked spans (expert error
annotations); :class:`Foreign` is text in another language than the
document's (a roster's name in another script), a ``str`` that knows its
language.  Blocks: :class:`Heading`, :class:`Paragraph`,
:class:`Score` (the headline number, with its full-precision value),
:class:`Table`, :class:`Notes`, :class:`Section`, :class:`Details`,
:class:`Alert`, :class:`QrCode`, all held by a :class:`Document`.

>>> doc = Document((Heading("BLEU"), Paragraph((Label("p_1 = 3/4"),))))
>>> [type(b).__name__ for b in doc.blocks]
['Heading', 'Paragraph']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Foreign",
    "script_language",
    "Label",
    "Strong",
    "Code",
    "Tokens",
    "Span",
    "Highlight",
    "Inline",
    "Heading",
    "Paragraph",
    "Lines",
    "Score",
    "Table",
    "Notes",
    "Section",
    "Details",
    "Alert",
    "QrCode",
    "Block",
    "Document",
    "inlines",
    "notes",
    "SUBSCRIPT",
]

#: p_1, w_n, m_2, t_n: the package's labels that carry a subscript.
SUBSCRIPT = re.compile(r"\b([pwtmPRF]|F\d+(?:\.\d+)?)_(\d+|n)\b")


#: The language a script says, by the first word of its letters' Unicode names: the script's main language.
#: Han alone is Chinese; Han with kana Japanese, with Hangul Korean; Arabic with a letter only Persian adds is
#: Persian; Cyrillic with a letter only Ukrainian has is Ukrainian. Latin says nothing (the document's own).
SCRIPT_LANGUAGES = {
    "HANGUL": "ko",
    "HIRAGANA": "ja",
    "KATAKANA": "ja",
    "CJK": "zh",
    "ARABIC": "ar",
    "HEBREW": "he",
    "GREEK": "el",
    "CYRILLIC": "ru",
    "THAI": "th",
    "DEVANAGARI": "hi",
    "BENGALI": "bn",
    "TAMIL": "ta",
    "TELUGU": "te",
    "KANNADA": "kn",
    "MALAYALAM": "ml",
    "GUJARATI": "gu",
    "GURMUKHI": "pa",
    "SINHALA": "si",
    "GEORGIAN": "ka",
    "ARMENIAN": "hy",
    "ETHIOPIC": "am",
    "KHMER": "km",
    "LAO": "lo",
    "MYANMAR": "my",
    "TIBETAN": "bo",
    "MONGOLIAN": "mn",
}
_PERSIAN, _UKRAINIAN = (
    set("\u067e\u0686\u0698\u06af\u06a9\u06cc"),
    set("\u0456\u0457\u0454\u0491\u0406\u0407\u0404\u0490"),
)


def script_language(text: str) -> str | None:
    """The language (a BCP 47 tag) ``text``'s script says, or None for Latin, digits and marks alone.

    >>> [script_language(t) for t in ("김민준", "佐藤はるか", "李雷", "Ελένη", "مریم", "مريم", "Zoë", "Юлія", "Олег")]
    ['ko', 'ja', 'zh', 'el', 'fa', 'ar', None, 'uk', 'ru']
    """
    scripts = {unicodedata.name(c, "").split(" ")[0] for c in text if unicodedata.category(c).startswith("L")}
    languages = {SCRIPT_LANGUAGES[s] for s in scripts if s in SCRIPT_LANGUAGES}
    for language, beside in (("ko", "zh"), ("ja", "zh")):  # Han in a Korean or Japanese name
        if language in languages:
            languages.discard(beside)
    if "ar" in languages and _PERSIAN & set(text):
        languages = languages - {"ar"} | {"fa"}
    if "ru" in languages and _UKRAINIAN & set(text):
        languages = languages - {"ru"} | {"uk"}
    return languages.pop() if len(languages) == 1 else None


class Foreign(str):
    """Text in another language than the document's, with its BCP 47 tag: written as the text it is, and in HTML
    (and so in a tagged PDF) marked with its language, so that a screen reader reads it with that language's voice.

    >>> name = Foreign.of("김민준"); name, name.lang, Foreign.of("Zoë").__class__.__name__
    ('김민준', 'ko', 'str')
    """

    lang: str

    def __new__(cls, text: str, lang: str) -> Foreign:
        piece = super().__new__(cls, text)
        piece.lang = lang
        return piece

    @classmethod
    def of(cls, text: str) -> str:
        """``text`` marked with the language its script says (``script_language``); plain where it says none."""
        language = script_language(text)
        return text if language is None else cls(text, language)


@dataclass(frozen=True)
class Label:
    """The package's own wording, with subscripts such as ``p_1`` (never user text)."""

    text: str


@dataclass(frozen=True)
class Strong:
    """Emphasised text (a field name such as "Hypothesis"); escaped like any text."""

    text: str


@dataclass(frozen=True)
class Code:
    """Literal code or a signature, shown in a fixed-width font."""

    text: str


@dataclass(frozen=True)
class Tokens:
    """User tokens; ``marks[i]`` true marks token i as matched (shown with a tick, not colour alone)."""

    tokens: tuple[str, ...]
    marks: tuple[bool, ...] = ()


@dataclass(frozen=True)
class Span:
    """One marked stretch ``start:end`` of a :class:`Highlight`: its number, its kind and what it is."""

    start: int
    end: int
    number: int
    kind: str  # "major", "minor" or "other"
    title: str


@dataclass(frozen=True)
class Highlight:
    """User text with marked spans (overlaps allowed), each followed by its number."""

    text: str
    spans: tuple[Span, ...]

    def pieces(self) -> list[tuple[str, tuple[Span, ...], tuple[int, ...]]]:
        """The text cut at every span boundary: (piece, the spans covering it, numbers of the spans ending after it).

        Every writer marks the pieces its own way; the cutting is done once, here.

        >>> h = Highlight("a bad word", (Span(2, 5, 1, "major", "x"), Span(4, 10, 2, "minor", "y")))
        >>> [(text, [s.number for s in covering], ends) for text, covering, ends in h.pieces()]
        [('a ', [], ()), ('ba', [1], ()), ('d', [1, 2], (1,)), (' word', [2], (2,))]
        """
        size = len(self.text)
        cuts = sorted({0, size, *[p for s in self.spans for p in (s.start, s.end) if 0 <= p <= size]})
        ends: dict[int, list[int]] = {}
        for span in self.spans:
            ends.setdefault(min(span.end, size), []).append(span.number)
        return [
            (
                self.text[a:b],
                tuple(s for s in self.spans if s.start <= a and b <= s.end and s.start < s.end),
                tuple(sorted(ends.get(b, []))),
            )
            for a, b in zip(cuts, cuts[1:])
        ]


Inline = str | Label | Strong | Code | Tokens | Highlight


def inlines(*pieces: Inline | Sequence[Inline]) -> tuple[Inline, ...]:
    """Flatten pieces (single inlines or sequences of them) into one tuple."""
    out: list[Inline] = []
    for piece in pieces:
        if isinstance(piece, (str, Label, Strong, Code, Tokens, Highlight)):
            out.append(piece)
        else:
            out.extend(piece)
    return tuple(out)


@dataclass(frozen=True)
class Heading:
    """A heading; ``level`` 1 is the document's title, 2 a section of it."""

    content: str | Label
    level: int = 1


@dataclass(frozen=True)
class Paragraph:
    """One paragraph of inline pieces."""

    content: tuple[Inline, ...]


@dataclass(frozen=True)
class Lines:
    """Several short lines kept together (one paragraph with line breaks)."""

    lines: tuple[tuple[Inline, ...], ...]


@dataclass(frozen=True)
class Score:
    """The headline number: ``text`` as the learner reads it, ``value`` at full precision.

    ``name`` is the attribute the HTML view writes the value into
    (``data-score``, ``data-mqm``), so that pages and tests read the number
    the result was made from; None for a verdict in words.
    """

    text: tuple[Inline, ...]
    value: float | None
    name: str = "score"


@dataclass(frozen=True)
class Table:
    """A table of already formatted cells; header cells and ``label_column`` cells may carry subscripts.

    ``row_headers``: the first cell of each row names the row (an n-gram, an order, a system), so that a screen
    reader says it with every cell of the row; False for a table whose first column is data like the others.
    """

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    label_column: bool = False
    caption: str = ""
    row_headers: bool = True


@dataclass(frozen=True)
class Notes:
    """Remarks about the computation, as a bulleted list of labels."""

    items: tuple[tuple[Inline, ...], ...]
    title: str = "Notes"


def notes(remarks: Sequence[str], title: str = "Notes") -> tuple[Block, ...]:
    """The package's remarks as a Notes block (none when there are no remarks)."""
    return (Notes(tuple((Label(r),) for r in remarks), title),) if remarks else ()


@dataclass(frozen=True)
class Section:
    """A titled group of blocks (text indents it; HTML gives it a heading)."""

    title: tuple[Inline, ...]
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Details:
    """A titled group of blocks that interactive views fold away."""

    summary: tuple[Inline, ...]
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Alert:
    """A message for the learner about their input."""

    message: str


@dataclass(frozen=True)
class AnswerSpace:
    """Room to write an answer on a printed sheet: ``lines`` ruled lines under a ``label`` ("Working", "Answer")."""

    label: str
    lines: int = 1


@dataclass(frozen=True)
class Bars:
    """A bar chart of counts out of ``total`` (how many answers gave each verdict, say): a table with shares where
    there is no drawing, bars with their numbers written beside them in HTML (never the bar alone)."""

    caption: str
    rows: tuple[tuple[str, int], ...]
    total: int

    def as_table(self) -> Table:
        """The same counts as a table: label, count, share of the total."""
        return Table(
            ("", "Count", "Share"),
            tuple(
                (label, str(count), f"{100 * count / self.total:.0f}%" if self.total else "-")
                for label, count in self.rows
            ),
            caption=self.caption,
        )


@dataclass(frozen=True)
class Series:
    """One thing a :class:`Chart` draws, in the palette's colour ``colour`` (an index) and line style ``dash`` (0
    solid, 1 dashed, 2 dotted, 3 dash-dot), ``width`` points wide:

    - ``"line"``: ``points`` joined, each marked with a dot ``size`` points across;
    - ``"rule"``: a vertical line across the whole chart at the x of its one point;
    - ``"star"``: its one point marked with a star ``size`` points across.
    """

    kind: str
    label: str
    points: tuple[tuple[float, float], ...]
    colour: int = 0
    dash: int = 0
    width: float = 2.0
    size: float = 0.0

    def __post_init__(self) -> None:
        if self.kind not in ("line", "rule", "star"):
            raise ValueError(f"Series: kind must be 'line', 'rule' or 'star', not {self.kind!r}.")
        if self.kind != "line" and len(self.points) != 1:
            raise ValueError(f"Series: a {self.kind} has one point, not {len(self.points)}.")


@dataclass(frozen=True)
class Chart:
    """A chart described once, drawn by matplotlib in a notebook (:func:`bleu_teach.ui.plots.draw_chart`) and by
    Chart.js on the website (``static/live_data.js``'s ``chartData``), from :meth:`as_json`.

    ``x_range`` and ``y_range`` are the axes' limits, ``whole_x`` puts the x axis's ticks on whole numbers only,
    and ``description`` is the chart in words (:mod:`bleu_teach.views.figure_text`): the text alternative where
    it is drawn, and all that a writer with no drawing writes.
    """

    title: str
    x_label: str
    y_label: str
    x_range: tuple[float, float]
    y_range: tuple[float, float]
    series: tuple[Series, ...]
    description: str
    whole_x: bool = False
    legend: str = "best"

    def as_json(self) -> dict[str, Any]:
        """The chart as JSON-ready data (what the website's Chart.js drawing takes)."""
        return {
            "title": self.title,
            "x_label": self.x_label,
            "y_label": self.y_label,
            "x_range": list(self.x_range),
            "y_range": list(self.y_range),
            "whole_x": self.whole_x,
            "legend": self.legend,
            "description": self.description,
            "series": [
                {
                    "kind": s.kind,
                    "label": s.label,
                    "points": [list(p) for p in s.points],
                    "colour": s.colour,
                    "dash": s.dash,
                    "width": s.width,
                    "size": s.size,
                }
                for s in self.series
            ],
        }


@dataclass(frozen=True)
class QrCode:
    """A QR code of ``text`` (a link), with ``text`` written under it: its modules row by row, ``"1"`` dark and
    ``"0"`` light, the quiet zone around it included, as an encoder outside the views made them (segno, in the
    teacher's command); ``description`` is its text alternative. HTML draws it (an image whose alternative text is
    ``description``); the other writers write the description and the text."""

    text: str
    modules: tuple[str, ...]
    description: str

    def __post_init__(self) -> None:
        size = len(self.modules)
        if not size or any(len(row) != size or row.strip("01") for row in self.modules):
            raise ValueError("QrCode: modules must be a square of rows of '0' and '1', as the encoder made them.")


Block = (
    Heading
    | Paragraph
    | Lines
    | Score
    | Table
    | Notes
    | Section
    | Details
    | Alert
    | AnswerSpace
    | Bars
    | Chart
    | QrCode
)


@dataclass(frozen=True)
class Document:
    """A result's content: its blocks, and optional extra styling hints for the HTML view.

    ``styles`` names optional style sheets the HTML writer adds (``"mqm"``
    for error highlights, ``"compact"`` for the folded slide view).
    """

    blocks: tuple[Block, ...]
    styles: tuple[str, ...] = ()
