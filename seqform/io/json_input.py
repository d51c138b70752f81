"""The core of the strategy-file reader (:mod:`seqform.io.strategy_files`): a JSON document
read strictly, and one probability parsed exactly.

A file given by a user may hold anything; whatever it holds, reading it either returns plain
JSON data or raises :class:`StrategyFileError` naming the file.  The classes of input closed
here, each by one rule rather than by one case:

* **Encoding.**  The file is UTF-8 (a leading byte-order mark is allowed); any other byte
  sequence is refused with the file named and the offset of the first bad byte.
* **Depth.**  Brackets nested deeper than :data:`MAX_DEPTH` are refused before parsing, by a
  linear scan (Python's parser would otherwise recurse until ``RecursionError``).  No accepted
  document is deeper than 8.
* **Duplicate keys.**  One object giving a key twice is refused with the key named (JSON
  leaves the meaning open; Python's parser silently keeps the last).
* **Numbers.**  ``NaN`` and ``Infinity`` are not JSON and are refused; an integer of more than
  :data:`MAX_NUMBER_CHARS` digits is refused (Python refuses to convert it anyway).

A probability (:func:`parse_probability`) is a JSON number, read as the decimal it prints as
(``0.1`` is 1/10), or a string such as ``"1/3"``, ``"0.25"`` or ``"1e-3"``; it is parsed exactly
into a :class:`~fractions.Fraction` and must lie in [0, 1].  So that parsing stays cheap, a
number is at most :data:`MAX_NUMBER_CHARS` characters and its decimal exponent at most
:data:`MAX_EXPONENT` in size (``"1e100000"`` is refused as above 1 without computing 10^100000;
``"1e-100000"`` is refused as too small to tell from 0, with the advice to write 0).
"""

from __future__ import annotations

import json
import os
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from seqform.base.limits import LIMITS

__all__ = [
    "MAX_DEPTH",
    "MAX_EXPONENT",
    "MAX_JSON_BYTES",
    "MAX_NUMBER_CHARS",
    "StrategyFileError",
    "load_json",
    "parse_json",
    "parse_probability",
    "read_text",
    "shown",
]

MAX_DEPTH = LIMITS.json_depth  # why: seqform.base.limits
MAX_JSON_BYTES = LIMITS.json_bytes  # why: seqform.base.limits
"""How deeply brackets may nest in a strategy or restriction file."""
MAX_NUMBER_CHARS = LIMITS.json_number_characters  # why: seqform.base.limits
MAX_EXPONENT = LIMITS.json_exponent  # why: seqform.base.limits

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_EXPONENT = re.compile(r"^(?P<mantissa>[^eE]*)[eE](?P<exponent>[+-]?\d+)$")


class StrategyFileError(ValueError):
    """A strategy or restriction that cannot be read; the message names the file (or the
    option) and the information set."""


def shown(value: object, limit: int = 40) -> str:
    """``repr(value)`` cut to about ``limit`` characters, for messages."""
    if isinstance(value, list | dict) and value:
        text = f"a {'list' if isinstance(value, list) else 'object'} of {len(value)}"
        return text
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**limit:
        return "a very large integer"
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 5]}…{text[-4:]}"


# --- JSON ---------------------------------------------------------------------------------------


def load_json(path: str | Path, where: str) -> Any:
    """The JSON document in the file ``path``, read strictly (module docstring).

    Raises
    ------
    StrategyFileError
        If the file is not UTF-8, not JSON, nested deeper than :data:`MAX_DEPTH`, gives a key
        twice in one object, or holds ``NaN``, ``Infinity`` or an overlong integer; the
        message starts with ``where``.
    OSError
        If the file cannot be read.
    """
    return parse_json(read_text(path, where), where)


def read_text(path: str | Path, where: str) -> str:
    """The UTF-8 text of the file ``path`` (a leading byte-order mark dropped).

    Raises
    ------
    StrategyFileError
        If the file is not UTF-8 or larger than :data:`MAX_JSON_BYTES` (before it is read);
        the message starts with ``where``.
    OSError
        If the file cannot be read.
    """
    size = os.stat(path).st_size
    if size > MAX_JSON_BYTES:
        raise StrategyFileError(
            f"{where} is {size:,} bytes; seqform reads files of at most {MAX_JSON_BYTES:,} bytes"
        )
    data = Path(path).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise StrategyFileError(
            f"{where} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            "save it as UTF-8"
        ) from None


def parse_json(text: str, where: str) -> Any:
    """The JSON document ``text``, parsed strictly (see :func:`load_json`)."""
    depth = _depth(text)
    if depth > MAX_DEPTH:
        raise StrategyFileError(
            f"{where}: brackets nested {depth} deep (at most {MAX_DEPTH}; a strategy file "
            "needs fewer than 10)"
        )
    try:
        return json.loads(
            text,
            object_pairs_hook=lambda pairs: _object(pairs, where),
            parse_constant=lambda name: _refuse_constant(name, where),
            parse_int=lambda digits: _integer(digits, where),
            parse_float=lambda digits: _float(digits, where),
        )
    except json.JSONDecodeError as exc:
        raise StrategyFileError(f"{where}: not JSON ({exc.msg}, line {exc.lineno})") from None
    except RecursionError:  # the scan above bounds the depth; this is the last guard
        raise StrategyFileError(f"{where}: brackets nested too deep") from None


def _depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in ``text`` outside strings, in one pass."""
    depth = deepest = 0
    for match in re.finditer(r"[\[\]{}]", _STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _object(pairs: list[tuple[str, Any]], where: str) -> dict[str, Any]:
    """One JSON object, refusing a key given twice."""
    read: dict[str, Any] = {}
    for key, value in pairs:
        if key in read:
            raise StrategyFileError(f"{where}: the key {shown(key)} is given twice in one object")
        read[key] = value
    return read


def _refuse_constant(name: str, where: str) -> Any:
    raise StrategyFileError(f"{where}: {name} is not a JSON number")


def _integer(digits: str, where: str) -> int:
    if len(digits) > MAX_NUMBER_CHARS:
        raise StrategyFileError(
            f"{where}: an integer of {len(digits)} digits (at most {MAX_NUMBER_CHARS})"
        )
    return int(digits)


def _float(digits: str, where: str) -> float:
    number = float(digits)
    if number in (float("inf"), float("-inf")):
        raise StrategyFileError(f"{where}: the number {digits[:40]} is beyond a float's range")
    return number


# --- probabilities ------------------------------------------------------------------------------


def parse_probability(value: object, where: str) -> Fraction:
    """``value`` (a JSON number, or a string such as ``"1/3"``) as an exact probability.

    A float is read as the decimal it prints as (``0.1`` -> ``1/10``).

    Raises
    ------
    StrategyFileError
        If ``value`` is not a number (booleans are not), is longer than
        :data:`MAX_NUMBER_CHARS` or has an exponent beyond :data:`MAX_EXPONENT`, or is not in
        [0, 1]; the message starts with ``where``.
    """
    wrong = f"{where}: {shown(value)} is not a number (write 1/3 or 0.25)"
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise StrategyFileError(wrong)
    text = str(value).strip()
    if len(text) > MAX_NUMBER_CHARS:
        raise StrategyFileError(
            f"{where}: a number of {len(text)} characters (at most {MAX_NUMBER_CHARS})"
        )
    try:
        probability = _exact(text, where)
    except (ValueError, ZeroDivisionError) as exc:
        if isinstance(exc, StrategyFileError):
            raise
        raise StrategyFileError(wrong) from None
    if not 0 <= probability <= 1:
        raise _out_of_range(text, where)
    return probability


def _exact(text: str, where: str) -> Fraction:
    """``Fraction(text)``, without building a power of ten beyond :data:`MAX_EXPONENT`."""
    match = _EXPONENT.match(text)
    if match is None or abs(int(match["exponent"])) <= MAX_EXPONENT:
        return Fraction(text)
    mantissa = Fraction(match["mantissa"])
    if mantissa == 0:
        return mantissa
    if mantissa < 0 or int(match["exponent"]) > 0:
        raise _out_of_range(text, where)
    raise StrategyFileError(
        f"{where}: {shown(text)} is too small to tell from 0 (exponent below -{MAX_EXPONENT}); "
        "write 0"
    )


def _out_of_range(text: str, where: str) -> StrategyFileError:
    return StrategyFileError(
        f"{where}: probability {shown(text).strip(chr(39))} is not between 0 and 1 "
        "(it must be a number >= 0 and <= 1)"
    )
