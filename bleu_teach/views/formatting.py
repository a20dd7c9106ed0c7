"""Numbers and text as a learner reads them: fractions as a/b, floats rounded, whitespace made visible."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

__all__ = [
    "format_number",
    "number_ranges",
    "plain_markdown",
    "plural",
    "visible",
    "shortened",
    "MAX_TOKEN_CHARS_SHOWN",
    "MAX_TEXT_CHARS_SHOWN",
]


def format_number(value: Any, digits: int = 4) -> str:
    """A number as a learner reads it: fractions as a/b, floats rounded.

    >>> format_number(0.123456), format_number(2.2e-308), format_number(None)
    ('0.1235', '2.2e-308', '-')
    """
    if value is None:
        return "-"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return str(value)
    if hasattr(value, "numerator") and hasattr(value, "denominator") and not isinstance(value, float):
        return f"{value.numerator}/{value.denominator}"
    number = float(value)
    if number != number:
        return "-"
    if number != 0 and abs(number) < 10 ** (-digits):
        return f"{number:.3g}"
    return f"{number:.{digits}f}"


def number_ranges(numbers: Sequence[int], suffix: str = "") -> str:
    """Whole numbers as a short list, runs of four or more written as a range.

    >>> number_ranges([1, 3, 4, 5, 6, 9])
    '1, 3 to 6, 9'
    >>> number_ranges([2, 3, 4], "-gram")
    '2-gram, 3-gram, 4-gram'
    >>> number_ranges(range(4, 5001), "-gram")
    '4-gram to 5000-gram'
    """
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = []
    for run in runs:
        if len(run) >= 4:
            parts.append(f"{run[0]}{suffix} to {run[-1]}{suffix}")
        else:
            parts.extend(f"{n}{suffix}" for n in run)
    return ", ".join(parts)


def plain_markdown(markdown: str) -> str:
    """Short Markdown (a question) as plain words: p<sub>1</sub> as p_1, code and bold marks dropped, and an
    italic sentence (how the exercises quote a hypothesis or a reference) in quotation marks, so it stays apart
    from the question around it.

    >>> plain_markdown("What is *p*<sub>1</sub> of `the cat`?")
    'What is p_1 of the cat?'
    >>> plain_markdown("Score *the cat sat* against **one** reference.")
    'Score “the cat sat” against one reference.'
    """
    text = re.sub(r"^\* ", "- ", markdown, flags=re.M)  # Markdown bullets, before emphasis is read
    text = re.sub(r"\*?([A-Za-z])\*?<sub>(\w+)</sub>", r"\1_\2", text)
    text = re.sub(r"<sup>(\w+)</sup>", r"^\1", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    text = re.sub(r"(?<!\w)\*(.+?)\*(?!\w)", "\u201c\\1\u201d", text)
    return text.replace("`", "").replace("\\", "")


def plural(count: int, word: str) -> str:
    """``count`` and ``word``, with an s unless the count is 1.

    >>> plural(1, "token"), plural(3, "token")
    ('1 token', '3 tokens')
    """
    return f"{count} {word}" + ("" if count == 1 else "s")


#: A view shows at most this many characters of one token (or n-gram), and of one whole text; then it says
#: how many characters it leaves out (the counting and the report's data keep them all).
MAX_TOKEN_CHARS_SHOWN = 200
MAX_TEXT_CHARS_SHOWN = 5000


def shortened(text: str, limit: int = MAX_TOKEN_CHARS_SHOWN) -> str:
    """``text`` as a view shows it: whole up to ``limit`` characters, else its start and how much is left out.

    >>> shortened("abcdefghij", 8)
    'abcd… (6 more characters)'
    """
    if len(text) <= limit:
        return text
    keep = limit // 2
    return f"{text[:keep]}… ({len(text) - keep:,} more characters)"


_VISIBLE = {" ": "\u2423", "\t": "\u21e5", "\n": "\u21b5", "\r": "\u240d"}


def visible(text: str, keep_spaces: bool = False) -> str:
    """Whitespace and control characters made visible, so that a table cell stays on one line.

    >>> visible("a b\\tc"), visible("a b", keep_spaces=True)
    ('a\u2423b\u21e5c', 'a b')
    """
    out = []
    for ch in text:
        if ch == " " and keep_spaces:
            out.append(ch)
        elif ch in _VISIBLE:
            out.append(_VISIBLE[ch])
        elif ch.isspace() or not ch.isprintable():
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)
