"""The loader: the name of a game on the command line turned into a :class:`Game`.

A name is a built-in game, ``NAME`` or ``NAME(key=value, ...)``
(:mod:`seqform.game.builtin.registry`); a path ending in ``.efg`` is read as a Gambit
file (:mod:`seqform.game.efg`); ``openspiel:SPEC`` converts an OpenSpiel game
(:mod:`seqform.game.openspiel`, with the ``openspiel`` extra).  The readers of files and
OpenSpiel are imported only when asked for, since they import pygambit or OpenSpiel.

Any other existing file is read as ``.efg`` too; a directory is refused as one (unless its
name is a built-in game's); a spec too long to be a file name is simply not a file.
"""

from __future__ import annotations

import errno
import os.path

from seqform.game.builtin.registry import GAMES, build_builtin_game
from seqform.game.model import Game

__all__ = ["load_game"]


def load_game(spec: str) -> Game:
    """Build the game named by ``spec``: a built-in name, a ``.efg`` path or ``openspiel:...``.

    Raises
    ------
    UnknownGameError
        For an unknown name (the message lists the known ones).
    GameParameterError
        For unknown or unreadable parameters.
    ValueError
        For parameters out of range (e.g. ``kuhn(cards=1)``) and invalid games.
    OSError
        For a file that cannot be read; ``IsADirectoryError`` for a directory.
    """
    if spec.startswith("openspiel:"):
        from seqform.game.openspiel import load_openspiel_game

        return load_openspiel_game(spec.removeprefix("openspiel:"))
    # os.path answers False, where pathlib raises, for names longer than the system allows
    if os.path.isdir(spec) and spec.lower() not in GAMES:
        raise IsADirectoryError(errno.EISDIR, "is a directory, not a game file", spec)
    if spec.lower().endswith(".efg") or os.path.isfile(spec):
        from seqform.game.efg import read_efg

        return read_efg(spec)
    return build_builtin_game(spec)
