"""Which characters a text a person typed may hold, and, when one may not, the rule it breaks, said with its code
point.

One rule for every typed text the package keeps (a roster's names on the sheets and in the classroom, a nickname,
a title, an answer): no control character (NUL among them), no half of a surrogate pair, and no direction override,
embedding or isolate, which would show the text around it reordered. A person's name is held to more: no other
invisible format character, but the ones names are written with: a zero-width non-joiner or joiner between two
visible characters (Persian words, emoji families, Indic scripts) and a left-to-right or right-to-left mark at the
start of the name or of one of its words (a name that opens in the other direction). Nor may a name hold a character
that shows nothing (Unicode's default ignorable code points, the Hangul fillers among them, and the blank Braille
pattern), but for a variation selector after a symbol (an emoji's) or an ideograph.

>>> character_problem("Zoë Ng") is None, character_problem("\\u200fسارا", name=True) is None
(True, True)
>>> character_problem("abc\\u202edef")
'holds U+202E RIGHT-TO-LEFT OVERRIDE, a direction control that shows the text around it reordered'
"""

from __future__ import annotations

import unicodedata

#: Direction overrides, embeddings and isolates (Unicode's explicit bidi formatting characters).
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Zero-width non-joiner and joiner: part of how a word or an emoji is written, inside a name.
JOINERS = frozenset("\u200c\u200d")
#: Left-to-right and right-to-left marks: a name may start with one.
LEADING_MARKS = frozenset("\u200e\u200f")
#: Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt, Unicode 15.1): characters a font draws
#: as nothing, among them the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the combining grapheme joiner
#: (U+034F) and the variation selectors (U+180B-U+180D, U+180F, U+FE00-U+FE0F, U+E0100-U+E01EF).
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)  # fmt: skip
#: Shown blank though not ignorable: the Braille pattern with no dots.
BLANK = frozenset("\u2800")
#: Variation selectors: allowed after a symbol (an emoji's presentation) or an ideograph (a glyph variant).
VARIATION_SELECTORS = ((0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF))


def _within(character: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= ord(character) <= high for low, high in ranges)


def draws_nothing(character: str) -> bool:
    """Whether a font draws ``character`` as nothing of its own: a format character, a default ignorable code point
    (a variation selector among them: it only changes the character before it) or the blank Braille pattern."""
    return unicodedata.category(character) == "Cf" or character in BLANK or _within(character, DEFAULT_IGNORABLE)


def _shows_nothing(text: str, k: int) -> bool:
    """Whether ``text[k]`` is drawn as nothing where it stands (a variation selector after a symbol or an
    ideograph changes how that one is drawn)."""
    character = text[k]
    if character in BLANK:
        return True
    if not _within(character, DEFAULT_IGNORABLE):
        return False
    if _within(character, VARIATION_SELECTORS) and k > 0:
        before = text[k - 1]
        return not (unicodedata.category(before) == "So" or unicodedata.name(before, "").startswith("CJK"))
    return True


def code_point(character: str) -> str:
    """``U+200D ZERO WIDTH JOINER``: a character as a message names it."""
    name = unicodedata.name(character, "")
    return f"U+{ord(character):04X}" + (f" {name}" if name else "")


def _alphabetic(character: str) -> bool:
    """A letter of the Latin, Greek or Cyrillic alphabets, which no joiner changes."""
    return unicodedata.name(character, "").startswith(("LATIN ", "GREEK ", "CYRILLIC "))


def _visible(character: str) -> bool:
    return not character.isspace() and unicodedata.category(character) not in ("Cc", "Cf", "Cs", "Zl", "Zp")


def character_problem(text: str, name: bool = False) -> str | None:
    """Why ``text`` cannot be kept (``holds U+... NAME, ...``: the rule and the character), or None if it can.

    ``name=True`` for a person's name: then an invisible format character is refused too, but for a joiner
    between two visible characters and a direction mark at the start.
    """
    for k, character in enumerate(text):
        category = unicodedata.category(character)
        if category == "Cs":
            return f"holds U+{ord(character):04X}, half of a surrogate pair, which is not a character in any encoding"
        if category == "Cc":
            return f"holds {code_point(character)}, a control character"
        if character in BIDI_CONTROLS:
            return f"holds {code_point(character)}, a direction control that shows the text around it reordered"
        if name and category in ("Co", "Cn"):
            what = "a private-use character" if category == "Co" else "no character Unicode has assigned"
            return f"holds {code_point(character)} at character {k + 1}, {what}"
        if name and category != "Cf" and _shows_nothing(text, k):
            return f"holds {code_point(character)} at character {k + 1}, which shows nothing"
        if not name or category != "Cf":
            continue
        if character in LEADING_MARKS and (k == 0 or text[k - 1].isspace()):
            continue  # the start of the name, or of one of its words (a first name and a surname, joined)
        if (
            character in JOINERS
            and 0 < k < len(text) - 1
            and _visible(text[k - 1])
            and _visible(text[k + 1])
            and not (_alphabetic(text[k - 1]) and _alphabetic(text[k + 1]))
        ):
            continue  # a joiner where a script or an emoji needs one; between two Latin letters it only hides
        where = (
            "a joiner belongs between two visible characters of a script or an emoji that needs one"
            if character in JOINERS
            else "a direction mark belongs only at the start of a name or of a word"
            if character in LEADING_MARKS
            else "an invisible format character"
        )
        return f"holds {code_point(character)} at character {k + 1}, {where}"
    return None
