"""Gambit ``.efg`` files read, through pygambit (the format's own library).

Reading parses the file with pygambit and converts the game with
:func:`~seqform.game.from_gambit.game_from_gambit` (whose module docstring gives the
conventions: payoffs summed along the path, information-set names, labels); writing is
:func:`seqform.io.export.write_efg` (atomic, like every file seqform writes).  Numbers stay
exact both ways.  This module adds what belongs to files: pygambit's parse
errors turned into :class:`~seqform.game.errors.GameFormatError` with the file's own line.

A game is refused, with the reason, when it has other than two players, is a
strategic-form (table) game, is not zero-sum (the message names a terminal node by its
path of action labels and gives its payoffs), or lacks perfect recall.
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import pygambit

from seqform.game.errors import GameFormatError, InvalidGameError
from seqform.game.from_gambit import game_from_gambit
from seqform.game.model import Game

__all__ = ["read_efg"]


_PARSE_PREFIX = "Parse error in game file:"
_POSITION = re.compile(r"^line (?P<line>\d+):(?P<column>\d+):\s*")


def _format_error(path: str, exc: ValueError) -> GameFormatError:
    """Turn pygambit's ``ValueError("Parse error in game file: line 7:16: ...")``."""
    reason = str(exc).strip()
    if reason.startswith(_PARSE_PREFIX):
        reason = reason[len(_PARSE_PREFIX) :].strip()
    match = _POSITION.match(reason)
    if match is None:
        return GameFormatError(path, reason or "pygambit could not parse it")
    line = int(match["line"])
    # If the file went away since pygambit read it, pygambit's number stays.
    with contextlib.suppress(OSError):
        line = _file_line(Path(path).read_text(encoding="latin-1"), line)
    return GameFormatError(path, reason[match.end() :], line=line, column=int(match["column"]))


def _file_line(text: str, reported: int) -> int:
    """The line of the file where pygambit's reported line starts.

    pygambit 16.7's reader does not count line breaks inside quoted strings (a game's
    description often spans lines), so its line numbers run short after such a string.
    This counts them, following only the quoting of strings (``"`` with ``\\`` escapes).
    """
    outside, actual = 1, 1
    in_string = escaped = False
    for char in text:
        if outside >= reported:
            return actual
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        if char == "\n":
            actual += 1
            if not in_string:
                outside += 1
    return actual + (reported - outside)


def read_efg(path: str | os.PathLike[str]) -> Game:
    """Read a Gambit ``.efg`` file into a seqform :class:`~seqform.game.Game`.

    Parameters
    ----------
    path
        The file.  The game is named by its Gambit title, or by the file name when the
        title is blank.

    Returns
    -------
    Game
        The game, with exact probabilities and payoffs (see :mod:`seqform.game.from_gambit` for
        how outcomes, information sets and labels are converted).

    Raises
    ------
    OSError
        If the file cannot be opened (missing, unreadable, a directory).
    GameFormatError
        If pygambit cannot parse the file; the message gives the file, pygambit's reason
        and, when pygambit reports one, the line and column.  pygambit itself refuses
        chance probabilities that are negative or do not sum to exactly one.
    InvalidGameError
        If the game has other than two players, is not zero-sum or lacks perfect recall;
        the message starts with the file name.
    """
    name = os.fspath(path)
    try:
        gambit_game = pygambit.read_efg(name)
    except OSError as exc:
        raise type(exc)(exc.errno, f"cannot read Gambit file: {exc.strerror}", name) from exc
    except ValueError as exc:
        raise _format_error(name, exc) from exc
    try:
        return game_from_gambit(gambit_game, name=gambit_game.title.strip() or Path(name).stem)
    except InvalidGameError as exc:
        raise InvalidGameError(f"{name}: {exc}") from exc
