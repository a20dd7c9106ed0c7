"""How a roster's name is found from what a student types on the join page.

A name is first compared as names are compared everywhere in the classroom
(:func:`~bleu_teach.classroom.schema.fold`: case, spaces, how an accent is
encoded). What students really type differs in more than that: an accent left
off (Zoe for Zoë), a phone's curly apostrophe (O’Neill for O'Neill), a hyphen
or not (Jean Luc for Jean-Luc), their given and family names in the other order
(Smith Anna for Anna Smith), a Chinese name typed family name first and without
a space (李雷) where the learning platform exported "First name Last name"
(雷 李). :func:`name_key` sets those differences aside; the join page takes a
name by its key only when no other roster name of the homework has the same
key (:func:`alike_names` finds those, and the roster's import names them).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from bleu_teach.classroom.schema import fold

#: Characters typed for an apostrophe: straight and curly quotes, the modifier letters (ʼ ʻ ʽ ʹ), a backtick, an acute
#: accent, a prime, the fullwidth apostrophe, the saltillo and the Hebrew geresh. They are left out, so that O'Neill,
#: O’Neill and ONeill are one name.
APOSTROPHES = "'\u2019\u2018\u201b\u02bc\u02bb\u02bd\u02b9`\u00b4\u2032\uff07\uff40\ua78c\u05f3"
#: Characters that stand between names: hyphens and dashes, middle dots (ジョン・スミス, 约翰·史密斯), full stops and
#: commas (an initial's "A.", a list's "Smith, Anna"). They are read as spaces, so that Jean-Luc is Jean Luc.
BETWEEN_NAMES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d\u00b7\u2027\u30fb\uff65.,\uff0e\uff0c\u3001"
_TYPED = dict.fromkeys(map(ord, APOSTROPHES), None) | dict.fromkeys(map(ord, BETWEEN_NAMES), " ")

#: The combining marks that write accents on Latin, Greek and Cyrillic letters (Unicode's combining diacritical
#: blocks); a script's own marks (Devanagari's vowel signs, kana's voicing marks) are part of its letters and stay.
_ACCENTS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
#: Letters written with a stroke or joined that Unicode does not decompose, as they are typed without it.
_PLAIN_LETTERS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ı": "i", "æ": "ae", "œ": "oe"})

#: Han, Hiragana, Katakana and Hangul (with the iteration mark 々 and the ideographic zero 〇): names in these scripts
#: are compared character by character, spaces or not.
_CJK = (
    "\u1100-\u11ff\u3005-\u3007\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
    "\uf900-\ufaff\U00020000-\U0003ffff"
)
_PARTS = re.compile(f"[{_CJK}][\u3099\u309a]*|[^\\s{_CJK}]+")


def name_key(name: str) -> str:
    """A roster name's matching key: what is left of a name once what students type differently is set aside.

    The rule: apostrophes (:data:`APOSTROPHES`) left out, hyphens, dashes, middle dots, full stops and commas
    (:data:`BETWEEN_NAMES`) read as spaces; then the name folded (:func:`~bleu_teach.classroom.schema.fold`) and
    its accents dropped (NFD, the combining diacritical marks removed; ł, ø, đ, ð, ħ, ı, æ and œ written as l, o,
    d, d, h, i, ae and oe); then the name is cut into its words, each Han, Hiragana, Katakana or Hangul character
    a word of its own, and the words are sorted, so that their order does not matter. A name with no words left
    (only apostrophes and hyphens) keeps its fold.

    Accents, apostrophes, hyphens and the order of the names:

    >>> name_key("Zoë") == name_key("Zoe") == name_key("ZOE")
    True
    >>> name_key("O'Neill") == name_key("O’Neill") == name_key("ONeill") == name_key("o´neill")
    True
    >>> name_key("Lǐ Léi"), name_key("Li Lei"), name_key("Jean-Luc Picard") == name_key("Jean Luc  Picard")
    ('lei li', 'lei li', True)
    >>> name_key("Anna Smith") == name_key("Smith Anna") == name_key("Smith, Anna")
    True
    >>> name_key("Łukasz Nørgaard") == name_key("Lukasz Norgaard")
    True

    A Chinese name, its family name first or last, with a space or none:

    >>> name_key("雷 李"), name_key("李雷"), name_key("李 雷")
    ('李 雷', '李 雷', '李 雷')

    What stays apart: another letter, one character more, a script's own marks (the kana's voicing mark).

    >>> name_key("Anna Smith") == name_key("Anna Smit"), name_key("李雷") == name_key("李雷雷")
    (False, False)
    >>> name_key("がく") == name_key("かく"), name_key("Anne Smith") == name_key("Ann Smith")
    (False, False)
    """
    text = unicodedata.normalize("NFD", fold(name.translate(_TYPED)))
    plain = unicodedata.normalize("NFC", _ACCENTS.sub("", text)).translate(_PLAIN_LETTERS)
    words = _PARTS.findall(plain)
    return " ".join(sorted(words)) if words else fold(name)


def alike_names(names: Iterable[str]) -> list[list[str]]:
    """The names that share their key (:func:`name_key`) with another of ``names``: one group per key, each in the
    order given, the groups in the order of their first name. A student whose name is in a group is found only by
    their name as listed (up to :func:`~bleu_teach.classroom.schema.fold`).

    >>> alike_names(["Anna Smith", "Zoë Li", "Smith Anna", "Zoe Li", "Ada Lovelace", "Anna Smit"])
    [['Anna Smith', 'Smith Anna'], ['Zoë Li', 'Zoe Li']]
    """
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(name_key(name), []).append(name)
    return [group for group in groups.values() if len(group) > 1]
