"""Labels in a Gambit ``.efg`` file: seqform's text made acceptable to Gambit, and back.

pygambit 16.7 takes only printable ASCII labels without leading, trailing or doubled
spaces (it cannot even return a title holding ``×``), and its writer does not escape a
backslash (a label ending in ``\\`` makes an unreadable file).  So a label is written
(:func:`gambit_label`) with every character outside printable ASCII, every backslash and
every space that starts, ends or follows a space as ``U+XXXX``, its
code point in four upper-case hexadecimal digits (a character beyond ``U+FFFF`` as its two
UTF-16 surrogates): Leduc's description ``3 ranks × 2 suits`` is written
``3 ranks U+00D7 2 suits``.  A ``U`` that would start such a code in the label's own text is
written ``U+0055``, so every label has exactly one reading, and a file seqform wrote reads
back (:func:`label_from_gambit`, applied to every quoted string by
:func:`seqform.game.formats.efg_tokens.tokenize`) to the game's own labels: the name and
description a strategy document names its game by (``resolve --blueprint``, ``exploit
--strategy``) match the exported game.  Another tool's file is read the same way; one
whose label holds ``U+`` and four upper-case hexadecimal digits meaning that text itself
has it read as the character.
"""

from __future__ import annotations

import re

__all__ = ["gambit_label", "label_from_gambit"]

_CODE = re.compile(r"U\+[0-9A-F]{4}")
# what label_from_gambit reads: a pair of surrogates, or a code that is not a surrogate (a
# lone one stays text: it is no character, and no UTF-8 output could hold it)
_CHARACTER = re.compile(
    r"U\+(?:(?P<high>D[89AB][0-9A-F]{2})U\+(?P<low>D[C-F][0-9A-F]{2})|(?P<code>(?!D[89A-F])[0-9A-F]{4}))"
)


def _kept(text: str, index: int) -> bool:
    """Whether the character at ``index`` is written as itself (module docstring)."""
    char = text[index]
    if char == " ":
        return 0 < index < len(text) - 1 and text[index - 1] != " "
    if char == "U":
        return _CODE.match(text, index) is None
    return char.isascii() and char.isprintable() and char != "\\"


def gambit_label(text: str) -> str:
    """``text`` as a label pygambit accepts and writes back faithfully, read back as
    ``text`` by :func:`label_from_gambit` (module docstring): ``"3 ranks × 2"`` is
    ``"3 ranks U+00D7 2"``."""
    plain = text.isascii() and text.isprintable() and "\\" not in text and "U+" not in text
    if plain and text == text.strip(" ") and "  " not in text:
        return text
    pieces = []
    for index, char in enumerate(text):
        if _kept(text, index):
            pieces.append(char)
        elif ord(char) > 0xFFFF:
            high, low = divmod(ord(char) - 0x10000, 0x400)
            pieces.append(f"U+{0xD800 + high:04X}U+{0xDC00 + low:04X}")
        else:
            pieces.append(f"U+{ord(char):04X}")
    return "".join(pieces)


def label_from_gambit(label: str) -> str:
    """The text of a label :func:`gambit_label` wrote: each ``U+XXXX`` the character it
    codes, two surrogates the character beyond ``U+FFFF`` they stand for (a lone
    surrogate's code is left as it is)."""
    if "U+" not in label:
        return label
    return _CHARACTER.sub(_character, label)


def _character(match: re.Match[str]) -> str:
    if match["code"] is not None:
        return chr(int(match["code"], 16))
    high, low = int(match["high"], 16), int(match["low"], 16)
    return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
