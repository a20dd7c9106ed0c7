"""Each roster name's matching key (``roster.matched``), kept and indexed, so that a student who types their name
with an accent left off, another apostrophe, or their names in another order finds it in one read.

The key of the names already in a roster is computed here by this revision's own copy of the rule
(``bleu_teach.classroom.name_keys.name_key`` as it was when the column came): a later change of the live rule must
not change what this revision writes. A revision that changes the rule recomputes the column itself.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import re
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_UNCOMPARED = dict.fromkeys(map(ord, "\u200e\u200f\u200c"))
_APOSTROPHES = "'\u2019\u2018\u201b\u02bc\u02bb\u02bd\u02b9`\u00b4\u2032\uff07\uff40\ua78c\u05f3"
_BETWEEN_NAMES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d\u00b7\u2027\u30fb\uff65.,\uff0e\uff0c\u3001"
_TYPED = dict.fromkeys(map(ord, _APOSTROPHES), None) | dict.fromkeys(map(ord, _BETWEEN_NAMES), " ")
_ACCENTS = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
_PLAIN_LETTERS = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ı": "i", "æ": "ae", "œ": "oe"})
_CJK = (
    "\u1100-\u11ff\u3005-\u3007\u3040-\u30ff\u3130-\u318f\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af"
    "\uf900-\ufaff\U00020000-\U0003ffff"
)
_PARTS = re.compile(f"[{_CJK}][\u3099\u309a]*|[^\\s{_CJK}]+")


def _fold(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).translate(_UNCOMPARED).split()).casefold()


def _key(name: str) -> str:
    """The matching key of revision 0007: apostrophes out, hyphens and the like as spaces, folded, accents dropped,
    the words (each Han, kana or Hangul character one) sorted; a name with no words keeps its fold."""
    text = unicodedata.normalize("NFD", _fold(name.translate(_TYPED)))
    plain = unicodedata.normalize("NFC", _ACCENTS.sub("", text)).translate(_PLAIN_LETTERS)
    words = _PARTS.findall(plain)
    return " ".join(sorted(words)) if words else _fold(name)


def upgrade() -> None:
    # Added in place, as revision 0005 adds its columns: batch mode's copy of the table would drop the old one.
    op.add_column("roster", sa.Column("matched", sa.Text, nullable=False, server_default=""))
    table = sa.table("roster", sa.column("session_id"), sa.column("folded"), sa.column("name"), sa.column("matched"))
    bind = op.get_bind()
    for row in bind.execute(sa.select(table.c.session_id, table.c.folded, table.c.name)).all():
        bind.execute(
            table.update()
            .where(table.c.session_id == row.session_id, table.c.folded == row.folded)
            .values(matched=_key(row.name))
        )
    op.create_index("roster_matched", "roster", ["session_id", "matched"])


def downgrade() -> None:
    op.drop_index("roster_matched", "roster")
    op.drop_column("roster", "matched")
