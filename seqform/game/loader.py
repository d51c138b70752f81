"""The loader: the name of a game on the command line turned into a :class:`Game`.

A name is a built-in game, ``NAME`` or ``NAME(key=value, ...)``
(:mod:`seqform.game.builtin.registry`); a path ending in ``.efg`` is read as a Gambit
file (:mod:`seqform.game.efg`); ``openspiel:SPEC`` converts an OpenSpiel game
(:mod:`seqform.game.openspiel`, with the ``openspiel`` extra).  The readers of files and
OpenSpiel are imported only when asked for, since they import pygambit or OpenSpiel.
"""

from __future__ import annotations

from pathlib import Path

from seqform.game.builtin.registry import build_builtin_game
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
        For a file that cannot be read.
    """
    if spec.startswith("openspiel:"):
        from seqform.game.openspiel import load_openspiel_game

        return load_openspiel_game(spec.removeprefix("openspiel:"))
    if spec.lower().endswith(".efg") or Path(spec).is_file():
        from seqform.game.efg import read_efg

        return read_efg(spec)
    return build_builtin_game(spec)
