"""The pieces of a text report read from a JSON document (the dict ``seqform.document``
returns and ``--format json`` prints), so that the text shows what the JSON holds: the
header, counts and limits.  Strategy tables are
:mod:`seqform.documents.layout.strategies`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from seqform.base.numbers import about_text, count_text
from seqform.documents.layout.blocks import header

__all__ = ["Document", "count_of", "header_of", "limit_of"]

Document = Mapping[str, Any]
"""A JSON document or one of its objects, as parsed (``json.loads``) or built."""


def header_of(game: Document) -> str:
    """The report's first line from the document's ``"game"`` object."""
    return header(game["name"], game["description"])


def count_of(count: Document) -> str:
    """A COUNT object (``{"exact": str | null, "log10": float}``) as
    :func:`~seqform.base.numbers.count_text` writes the count."""
    exact = count["exact"]
    return about_text(count["log10"]) if exact is None else count_text(int(exact))


def limit_of(value: int | None, log10: float) -> str:
    """An integer limit written as ``json_int`` with its ``log10`` beside it (``null`` when
    over 1 000 digits), as :func:`~seqform.base.numbers.count_text` writes it."""
    return about_text(log10) if value is None else count_text(value)
