"""The tokens of a Gambit ``.efg`` file, read the way Gambit's lexer reads them.

Gambit's lexer (``src/games/file.cc``) knows numbers (``1``, ``-1/3``, ``2.5e-3``), quoted
labels with ``\\"`` escapes, ``{``, ``}``, ``,`` and bare symbols (``EFG``, ``R``, ``p``,
``c``, ``t``) separated by blanks.  :func:`tokenize` gives the same tokens with their offsets,
for the pre-pass of :mod:`seqform.game.formats.efg_scan`, a label's text read back from the
``U+XXXX`` codes seqform writes for what Gambit refuses
(:func:`~seqform.game.formats.efg_labels.label_from_gambit`); :func:`decode` reads the bytes
as UTF-8 and :func:`position` turns an offset into the line and column of an error message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal, NamedTuple

from seqform.game.errors import GameFormatError
from seqform.game.formats.efg_labels import label_from_gambit

__all__ = ["Token", "TokenKind", "decode", "position", "tokenize"]

TokenKind = Literal["number", "text", "symbol", "{", "}", ","]

# One token of Gambit's lexer, after blanks (C's isspace): a brace or comma; a number (a
# digit, sign or '.' first, then digits with a decimal part and exponent, or a '/' and a
# denominator); a string, which ends at the first '"' not preceded by '\'; an open string
# (the lexer's "End of file encountered"); or a bare symbol, up to the next blank.
_TOKEN = re.compile(
    r"""[ \t\n\v\f\r]*(?:
        (?P<brace>[{},])
      | (?P<number>[-+0-9][0-9]*(?:\.[0-9]*(?:[eE][-+0-9][0-9]*)?|/[0-9]*|[eE][-+0-9][0-9]*)?
                  |\.[0-9]*)
      | "(?P<text>(?>[^"\\]|\\+"?)*+)"
      | (?P<open>")
      | (?P<symbol>[^ \t\n\v\f\r]+)
    )""",
    re.VERBOSE,
)
_KINDS: dict[str, TokenKind] = {
    "number": "number",
    "symbol": "symbol",
    "{": "{",
    "}": "}",
    ",": ",",
}


class Token(NamedTuple):
    """One token of the file; ``value`` is a label's text with Gambit's escapes applied and
    seqform's ``U+XXXX`` codes read (:func:`~seqform.game.formats.efg_labels.label_from_gambit`).

    ``start`` and ``end`` are offsets into the decoded text (:func:`position` gives the
    line and column of an offset).  A named tuple, not a frozen dataclass: a file has
    twenty tokens a node, and a tuple is made three times faster.
    """

    kind: TokenKind
    value: str
    start: int
    end: int


def position(text: str, offset: int) -> tuple[int, int]:
    """The one-based line and column of ``offset`` in ``text``, counting every line break."""
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def decode(path: str, data: bytes) -> str:
    """The file's text, read as UTF-8 (a byte-order mark is dropped).

    Raises
    ------
    GameFormatError
        If the bytes are not UTF-8, naming the line, the column and the byte.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        byte = data[exc.start]
        raise GameFormatError(
            path, f"not UTF-8 text: byte 0x{byte:02x} ({exc.reason})", line, column
        ) from None


def tokenize(text: str, path: str = "") -> Iterator[Token]:
    """The tokens of ``text`` as Gambit's lexer reads them.

    A string left open at the end of the file ends the tokens (pygambit reports it); a
    bare symbol holding a character outside ASCII raises :class:`GameFormatError` naming
    ``path``.
    """
    index, size = 0, len(text)
    match_at = _TOKEN.match
    while index < size:
        match = match_at(text, index)
        kind = match.lastgroup if match is not None else None
        if match is None or kind is None or kind == "open":
            return  # only blanks left, or a string left open
        start, index = match.start(kind), match.end()
        if kind == "text":
            raw = match["text"]
            value = _unescape(raw) if "\\" in raw else raw
            yield Token("text", label_from_gambit(value), start - 1, index)
            continue
        value = match[kind]
        if kind == "symbol" and not value.isascii():
            line, column = position(text, start)
            reason = f"unexpected {value!r} (only quoted labels may hold non-ASCII text)"
            raise GameFormatError(path, reason, line, column)
        yield Token(_KINDS.get(kind) or _KINDS[value], value, start, index)


def _unescape(raw: str) -> str:
    """A string's value as Gambit's lexer builds it: ``\\"`` stands for ``"`` and any
    other character after a backslash keeps the backslash."""
    chars: list[str] = []
    after_slash = False
    for char in raw:
        if after_slash:
            chars.append('"' if char == '"' else "\\" + char)
        elif char != "\\":
            chars.append(char)
        after_slash = char == "\\"
    return "".join(chars)
