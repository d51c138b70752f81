"""``json.dumps(document, indent=2)``, the same text, several times faster on big documents.

Python's JSON encoder is written in C only for compact output: with ``indent`` it falls back
to a generator per value in Python, and a strategy of a million sequences
(``iterate "liars_dice(sides=8)" --format json``, 220 MB) then takes longer to write out than
a hundred iterations of CFR+.  Here the containers that hold only scalars — most of a
strategy: each action's ``{"action", "words", "probability"}`` — go to the C encoder, told
to put the newline and the indentation of their level between items; only the containers
above them are walked in Python.  A list of such flat objects (one information set's actions)
is one call: the C encoder separates every item with ``",\\x01"`` and the separators are
then given their indentation by two string replacements.  That is safe because the C
encoder writes every control character inside a string as an escape (``\\u0001``, ``\\n``),
so a raw ``\\x01`` or newline in its output is always a separator, and ``"},\\x01{"`` always
a boundary between two objects of the list (inside a flat object a separator follows a
scalar, never ``}``).  A list of objects with the same keys whose values are scalars or such
lists (a strategy's information sets) goes column by column: each column one C call, the
objects then put together by one ``%`` formatting each (:func:`_records`).

A value that knows its own text (a :class:`Prewritten`: the information sets of a strategy,
:class:`seqform.documents.layout.infosets_json.InfosetObjects`) is written by its
:meth:`~Prewritten.json_parts` at its level, which gives the text ``json.dumps`` would write
for the plain value it stands for; such a value is for this writer only, not ``json.dumps``.

:func:`seqform.io.documents.document_text` writes every JSON document through it.  The output
equals ``json.dumps(document, indent=2)`` character for character (the tests
compare them on random documents): same separators, ``ensure_ascii``, float ``repr``,
``NaN``/``Infinity``, ``{}`` and ``[]`` for empty containers, keys in insertion order.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable
from itertools import chain, repeat
from json.encoder import encode_basestring_ascii
from typing import Any

__all__ = ["INDENT", "Prewritten", "indented_json", "indented_parts", "pad", "scalar_texts"]

INDENT = 2
_SCALARS = (str, int, float, bool, type(None))
_MARK = "\x01"  # never raw in the C encoder's output (module docstring)

Encoder = Callable[[Any, int], Any]


def pad(level: int) -> str:
    """The newline and indentation before an item at ``level`` (the document is level 0)."""
    return "\n" + " " * (INDENT * level)


class Prewritten(ABC):
    """A value of a document that writes its own indented JSON (module docstring)."""

    @abstractmethod
    def json_parts(self, level: int) -> list[str]:
        """The pieces of this value's text at ``level``, in order: their concatenation is
        ``json.dumps`` of the plain value it stands for, indented as at ``level``."""


def _c_encoder(separator: str) -> Encoder:
    """The C encoder with ``separator`` between items and ``": "`` after keys."""
    encoder = json.encoder.c_make_encoder  # type: ignore[attr-defined]
    if encoder is None:  # a Python without the C accelerator: the plain encoder
        plain = json.JSONEncoder(separators=(separator, ": "))
        return lambda value, _level: plain.iterencode(value)
    return encoder(None, None, encode_basestring_ascii, None, ": ", separator, False, False, True)


_ENCODERS: dict[str, Encoder] = {}


def _encoder(separator: str) -> Encoder:
    encoder = _ENCODERS.get(separator)
    if encoder is None:
        encoder = _ENCODERS[separator] = _c_encoder(separator)
    return encoder


def _flat(value: dict[Any, Any] | list[Any], level: int) -> str:
    """A non-empty container of scalars at ``level``, indented."""
    text = "".join(_encoder("," + pad(level + 1))(value, 0))
    return text[0] + pad(level + 1) + text[1:-1] + pad(level) + text[-1]


def _flat_objects(items: list[dict[Any, Any]], level: int) -> str:
    """A non-empty list of non-empty flat objects at ``level``, in one C call (module
    docstring)."""
    text = "".join(_encoder("," + _MARK)(items, 0))
    inner, item = pad(level + 2), pad(level + 1)
    body = text[2:-2].replace("}," + _MARK + "{", item + "}," + item + "{" + inner)
    body = body.replace("," + _MARK, "," + inner)
    return "[" + item + "{" + inner + body + item + "}" + pad(level) + "]"


def _records(items: list[Any] | tuple[Any, ...], level: int) -> str | None:
    """A list of objects with the same keys, each key's values all scalars or all non-empty
    lists of non-empty flat objects (a strategy's information sets and their actions), at
    ``level``, column by column in a few C calls; None if ``items`` is not such a list.

    Each scalar column is one C call, split at its raw separators; each column of lists is
    one C call as :func:`_flat_objects` makes it, with ``"],\x01["`` (a list closing after an
    object, the next opening) the boundary between two lists; every check is ``map`` over
    the items, so no Python code runs per item but one ``%`` formatting.
    """
    first = items[0]
    if not isinstance(first, dict) or not first:
        return None
    keys = list(first)
    if not all(map(isinstance, items, repeat(dict))) or any(list(item) != keys for item in items):
        return None
    columns: list[list[str]] = []
    for key in keys:
        column = [item[key] for item in items]
        if all(map(isinstance, column, repeat(_SCALARS))):
            text = "".join(_encoder("," + _MARK)(column, 0))
            columns.append(text[1:-1].split("," + _MARK))
        elif _lists_of_flat_objects(column):
            columns.append(_object_lists(column, level + 2))
        else:
            return None
    item, inner = pad(level + 1), pad(level + 2)
    fields = ("," + inner).join(_key(key).replace("%", "%%") + ": %s" for key in keys)
    template = "{" + inner + fields + item + "}"
    rows = [template % row for row in zip(*columns, strict=True)]
    return "[" + item + ("," + item).join(rows) + pad(level) + "]"


def scalar_texts(values: list[Any]) -> list[str]:
    """Each scalar of ``values`` as ``json.dumps`` writes it, all in one C call."""
    if not values:
        return []
    text = "".join(_encoder("," + _MARK)(values, 0))
    return text[1:-1].split("," + _MARK)


def _lists_of_flat_objects(column: list[Any]) -> bool:
    """Whether every value is a non-empty list of non-empty objects of scalars."""
    if not all(map(isinstance, column, repeat(list))) or not all(map(len, column)):
        return False
    objects = list(chain.from_iterable(column))
    if not all(map(isinstance, objects, repeat(dict))) or not all(map(len, objects)):
        return False
    values = chain.from_iterable(map(dict.values, objects))
    return all(map(isinstance, values, repeat(_SCALARS)))


def _object_lists(column: list[list[dict[Any, Any]]], level: int) -> list[str]:
    """Each non-empty list of non-empty flat objects of ``column`` at ``level``, as
    :func:`_flat_objects` writes it, all in one C call."""
    text = "".join(_encoder("," + _MARK)(column, 0))
    boundary = "\x02"  # never raw in the C encoder's output either
    item, inner = pad(level + 1), pad(level + 2)
    body = text[3:-3].replace("}]," + _MARK + "[{", boundary)
    body = body.replace("}," + _MARK + "{", item + "}," + item + "{" + inner)
    body = body.replace("," + _MARK, "," + inner)
    opening, closing = "[" + item + "{" + inner, item + "}" + pad(level) + "]"
    return [opening + one + closing for one in body.split(boundary)]


def _is_flat(values: Any) -> bool:
    return all(isinstance(value, _SCALARS) for value in values)


def _key(key: Any) -> str:
    if isinstance(key, str):
        return encode_basestring_ascii(key)
    return json.dumps({key: 0})[1:-4]  # json's own reading of a non-string key


def _encode(value: Any, level: int, parts: list[str]) -> None:
    if isinstance(value, Prewritten):
        parts.extend(value.json_parts(level))
    elif isinstance(value, dict):
        if not value:
            parts.append("{}")
        elif _is_flat(value.values()):
            parts.append(_flat(value, level))
        else:
            separator = pad(level + 1)
            opening = "{" + separator
            for key, item in value.items():
                parts.append(opening + _key(key) + ": ")
                opening = "," + separator
                if isinstance(item, _SCALARS):
                    parts.append(_scalar(item))
                else:
                    _encode(item, level + 1, parts)
            parts.append(pad(level) + "}")
    elif isinstance(value, list | tuple):
        if not value:
            parts.append("[]")
        elif _is_flat(value):
            parts.append(_flat(list(value), level))
        elif all(isinstance(item, dict) and item and _is_flat(item.values()) for item in value):
            parts.append(_flat_objects(list(value), level))
        elif (records := _records(value, level)) is not None:
            parts.append(records)
        else:
            separator = pad(level + 1)
            for position, item in enumerate(value):
                parts.append(("[" if position == 0 else ",") + separator)
                _encode(item, level + 1, parts)
            parts.append(pad(level) + "]")
    else:
        parts.append(_scalar(value))


def _scalar(value: Any) -> str:
    """One value that is not a container, as ``json.dumps`` writes it."""
    if isinstance(value, str):
        return encode_basestring_ascii(value)
    if value is True or value is False or value is None:
        return "true" if value is True else "false" if value is False else "null"
    return json.dumps(value)


def indented_parts(document: Any) -> list[str]:
    """The pieces of :func:`indented_json`'s text, in order, not yet joined (a turn spot's
    document is a gigabyte: written piece by piece, it is never one string)."""
    parts: list[str] = []
    _encode(document, 0, parts)
    return parts


def indented_json(document: Any) -> str:
    """``json.dumps(document, indent=2)``, character for character (module docstring)."""
    return "".join(indented_parts(document))
