"""A small table of already computed values, as a result of its own (every view, like any report)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bleu_teach.views.document import Document
from bleu_teach.views.document import Table as TableBlock
from bleu_teach.views.formatting import format_number
from bleu_teach.views.viewable import Viewable, plain_data

__all__ = ["Table"]


def _numeric(cell: Any) -> bool:
    """Whether a cell is a number, or a number already formatted as text (7.22, 12.5%)."""
    if isinstance(cell, bool):
        return False
    if isinstance(cell, (int, float)):
        return True
    try:
        float(str(cell).strip().rstrip("%").replace(",", ""))
    except ValueError:
        return False
    return True


class Table(Viewable):
    """Cells computed elsewhere, shown as a table: text in a terminal, HTML in a notebook, and the rest.

    Numbers are formatted with :func:`~bleu_teach.views.formatting.format_number`
    (fractions as a/b, floats to 4 decimals); strings are shown as given.
    ``values`` keeps the cells as they were passed, for :meth:`to_dict`.

    >>> print(Table(["n", "p_n"], [[1, 0.5]], caption="Precisions"))
    Precisions
    n     p_n
    1  0.5000
    """

    def __init__(
        self, header: Sequence[str], rows: Sequence[Sequence[Any]], caption: str = "", label_column: bool = False
    ) -> None:
        self.header = [str(h) for h in header]
        self.values = [list(row) for row in rows]
        self.rows = [[c if isinstance(c, str) else format_number(c) for c in row] for row in rows]
        self.caption = caption
        self.label_column = label_column

    def to_document(self) -> Document:
        # A first column of numbers is data like the others, not the rows' names (so not row headers).
        named = not any(_numeric(row[0]) for row in self.values if row)
        return Document(
            (
                TableBlock(
                    tuple(self.header),
                    tuple(tuple(r) for r in self.rows),
                    self.label_column,
                    self.caption,
                    row_headers=named,
                ),
            )
        )

    def to_dict(self) -> dict[str, Any]:
        return {"type": "Table", "caption": self.caption, "header": self.header, "rows": plain_data(self.values)}
