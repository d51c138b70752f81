"""The pieces of a text report read from a JSON document (the dict ``seqform.document``
returns and ``--format json`` prints), so that the text shows what the JSON holds: the
header, counts and limits.  Strategy tables are
:mod:`seqform.documents.layout.strategies`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from seqform.base.counts import about_text, count_text
from seqform.documents.layout.blocks import header
from seqform.holdem import unit_meaning

__all__ = ["Document", "count_of", "header_of", "limit_of", "unit_of"]

Document = Mapping[str, Any]
"""A JSON document or one of its objects, as parsed (``json.loads``) or built."""


def header_of(game: Document) -> str:
    """The report's first line from the document's ``"game"`` object."""
    return header(game["name"], game["description"])


def unit_of(document: Document) -> tuple[str, str]:
    """The unit of the document's ``milli_exploitability`` numbers and its words
    (:func:`~seqform.holdem.units.unit_meaning`): ``("mbb/g", "mbb/g: thousandths of the big
    blind (10 chips) per game")``.  A document written before it held ``"unit"`` gave
    thousandths of a chip."""
    name = document.get("unit", "mchip/g")
    return name, unit_meaning(name, float(document.get("unit_chips", 1.0)))


def count_of(count: Document) -> str:
    """A COUNT object (``{"exact": str | null, "log10": float}``) as
    :func:`~seqform.base.counts.count_text` writes the count."""
    exact = count["exact"]
    return about_text(count["log10"]) if exact is None else count_text(int(exact))


def limit_of(value: int | None, log10: float) -> str:
    """An integer limit written as ``json_int`` with its ``log10`` beside it (``null`` when
    over 1 000 digits), as :func:`~seqform.base.counts.count_text` writes it."""
    return about_text(log10) if value is None else count_text(value)
