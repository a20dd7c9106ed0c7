"""Every view of a result from one place: a result that says ``to_document()`` gets all the rest.

:class:`Viewable` gives ``to_text()``, ``to_html()``, ``to_markdown()``,
``to_latex(standalone=False)``, ``to_dict()`` and ``to_json()``, and the
notebook's ``__repr__`` / ``_repr_html_``.  ``to_dict()`` is the result's
own data, not its document: every field (and every public property) at
full precision, exact fractions as numerator and denominator beside their
float value, so that a pipeline reads the numbers the score was made from.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from bleu_teach.views.document import Document
from bleu_teach.views.html_writer import write_html
from bleu_teach.views.latex_writer import write_latex
from bleu_teach.views.markdown_writer import write_markdown
from bleu_teach.views.text_writer import write_text

__all__ = ["Viewable", "View", "plain_data", "FORMATS", "render"]

#: The output formats every result offers, by the name the CLI's ``--format`` takes.
FORMATS = ("text", "html", "markdown", "latex", "json")


def plain_data(value: Any) -> Any:
    """``value`` as JSON-ready data: dicts, lists, strings, numbers, booleans and None.

    Floats keep full precision (non-finite ones become the strings "nan",
    "inf", "-inf"); a fraction becomes ``{"numerator", "denominator",
    "value"}`` with its counts as given (2/4 stays 2/4); a record (a
    dataclass, or one of the package's own named tuples such as a report's
    n-gram rows) becomes a dict with its ``type``, its fields and its public
    properties (but those that return records already among the fields, such
    as a report's best candidate, so that JSON holds each number once; a
    class names in ``_records_made_when_read`` the properties whose records
    are made from fields JSON does not hold).  A user's named tuple (a
    token, say) stays a list, as any tuple does.

    >>> from fractions import Fraction
    >>> plain_data({"p": Fraction(1, 2), "score": 0.1, "ngram": ("the", "cat")})
    {'p': {'numerator': 1, 'denominator': 2, 'value': 0.5}, 'score': 0.1, 'ngram': ['the', 'cat']}
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, Fraction):
        return {"numerator": int(value.numerator), "denominator": int(value.denominator), "value": float(value)}
    if hasattr(value, "to_dict") and callable(value.to_dict):
        return value.to_dict()
    if _is_record(value):
        return _record_data(value)
    if isinstance(value, Mapping):
        return {_key(k): plain_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        return [plain_data(v) for v in items]
    if hasattr(value, "item") and callable(value.item):  # a NumPy scalar
        return plain_data(value.item())
    if isinstance(value, (int, float)) or hasattr(value, "__float__"):
        return plain_data(float(value))
    return str(value)


def _key(key: Any) -> str:
    if isinstance(key, tuple):
        return " ".join(str(k) for k in key)
    return str(key)


def _properties(cls: type) -> list[str]:
    names = []
    for klass in reversed(cls.__mro__):
        for name, member in vars(klass).items():
            if isinstance(member, property) and not name.startswith("_") and name not in names:
                names.append(name)
    return names


def _field_names(value: Any) -> list[str]:
    # A record's public fields: a dataclass's (those shown in its repr) or a named tuple's.
    if dataclasses.is_dataclass(value):
        return [f.name for f in dataclasses.fields(value) if not f.name.startswith("_") and f.repr]
    return [name for name in type(value)._fields if not name.startswith("_")]


def _record_data(value: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": type(value).__name__}
    for name in _field_names(value):
        out[name] = plain_data(getattr(value, name))
    made_when_read = getattr(type(value), "_records_made_when_read", ())
    for name in _properties(type(value)):
        if name in out:
            continue
        shown = getattr(value, name)
        if name in made_when_read:  # records made from bare fields that JSON does not hold (a corpus segment's)
            pass
        elif _is_record(shown) or (isinstance(shown, tuple) and shown and all(_is_record(x) for x in shown)):
            continue  # a view of the fields above (say, the best of the candidates): JSON holds it once
        out[name] = plain_data(shown)
    return out


#: The package's name, for "one of the package's own classes".
_PACKAGE = __name__.split(".")[0] + "."


def _is_record(value: Any) -> bool:
    # A dataclass instance, or a named tuple of the package's own (a row of a report's table, such as
    # bleu.counting.NgramRow); a named tuple from elsewhere (a user's token) is a tuple like any other.
    if isinstance(value, type):
        return False
    if dataclasses.is_dataclass(value):
        return True
    kind = type(value)
    return isinstance(value, tuple) and hasattr(kind, "_fields") and kind.__module__.startswith(_PACKAGE)


class Viewable:
    """A result that describes itself once, as a :class:`~bleu_teach.views.document.Document`.

    Subclasses define :meth:`to_document`; dataclasses among them are
    declared with ``repr=False`` so that this class's ``__repr__`` (the text
    view) is the one Python and notebooks use.
    """

    __slots__ = ()

    def to_document(self) -> Document:
        """The result as a document: the one description every view is written from."""
        raise NotImplementedError

    def to_text(self) -> str:
        """Plain text for a terminal."""
        return write_text(self.to_document())

    def to_html(self) -> str:
        """An HTML fragment (all user text escaped) for a notebook or a web page."""
        return write_html(self.to_document())

    def to_markdown(self) -> str:
        """Markdown (CommonMark with tables) for a handout or a course page."""
        return write_markdown(self.to_document())

    def to_latex(self, standalone: bool = False) -> str:
        """LaTeX; ``standalone=True`` gives a complete document that compiles with pdflatex."""
        return write_latex(self.to_document(), standalone=standalone)

    def to_dict(self) -> dict[str, Any]:
        """Every number of the result, JSON-ready, at full precision."""
        if dataclasses.is_dataclass(self):
            return _record_data(self)
        raise NotImplementedError(f"{type(self).__name__} has no to_dict")

    def to_json(self, indent: int | None = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False, allow_nan=False)

    def __repr__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        return self.to_html()


class View(Viewable):
    """A document shown as it is: part of a result (one order's clipping table, say), with the data it shows."""

    def __init__(self, document: Document, data: Any = None) -> None:
        self.document = document
        self.data = data

    def to_document(self) -> Document:
        return self.document

    def to_dict(self) -> dict[str, Any]:
        return {"type": "View", "data": plain_data(self.data)}


def render(result: Viewable, format: str, standalone: bool = False) -> str:
    """``result`` in one of :data:`FORMATS` (the CLI's ``--format``)."""
    if format == "text":
        return result.to_text()
    if format == "html":
        return result.to_html()
    if format == "markdown":
        return result.to_markdown()
    if format == "latex":
        return result.to_latex(standalone=standalone)
    if format == "json":
        return result.to_json()
    raise ValueError(f"format must be one of {', '.join(FORMATS)}; not {format!r}.")
