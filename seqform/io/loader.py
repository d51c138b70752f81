"""The loader: the name of a game on the command line turned into a :class:`Game`.

A name is a built-in game, ``NAME`` or ``NAME(key=value, ...)``
(:mod:`seqform.game.builtin.registry`); a path ending in ``.efg`` is read as a Gambit
file (:mod:`seqform.game.formats.efg`); ``openspiel:SPEC`` converts an OpenSpiel game
(:mod:`seqform.game.formats.openspiel`, with the ``openspiel`` extra).  The readers of files and
OpenSpiel are imported only when asked for, since they import pygambit or OpenSpiel.

Any other existing file is read as ``.efg`` too; a directory is refused as one (unless its
name is a built-in game's); a spec too long to be a file name is simply not a file.  A file
whose suffix names what seqform writes but does not read as a game (:data:`NOT_GAMES`:
``export --to npz``'s sequence form, an MPS LP, a JSON document) is refused by that name,
not parsed as ``.efg``.
"""

from __future__ import annotations

import errno
import os
import os.path

from seqform.game.builtin.registry import GAMES, build_builtin_game
from seqform.game.errors import GameParameterError, UnknownGameError
from seqform.game.model import Game

__all__ = ["NOT_GAMES", "as_game", "check_max_nodes", "load_game"]

NOT_GAMES: dict[str, str] = {
    ".npz": "a sequence form (export --to npz) or a strategy-arrays document",
    ".mps": "an LP (export --to mps)",
    ".json": "a JSON document (a result or a strategy; show RESULT reopens a saved spot result)",
}
"""The suffixes (case ignored) of files seqform writes or reads that are not games, and what
such a file holds: GAME is refused by it (:func:`load_game`)."""


def check_max_nodes(spec: object, max_nodes: int | None) -> None:
    """Refuse ``max_nodes`` (``--max-nodes``) for a game it would not limit.

    It bounds the histories converted from an ``openspiel:`` game; a built-in game, a
    ``.efg`` file or a spot is built whole whatever it says, so a limit given with one is a
    mistake to name, not an option to drop in silence.

    Raises
    ------
    GameParameterError
        When ``max_nodes`` is given and ``spec`` is not an ``openspiel:`` name.
    """
    if max_nodes is None or (isinstance(spec, str) and spec.startswith("openspiel:")):
        return
    shown = os.fspath(spec) if isinstance(spec, (str, os.PathLike)) else type(spec).__name__
    raise GameParameterError(
        f"--max-nodes (max_nodes) limits the histories converted from an openspiel: game; "
        f"{shown!r} is not one, and is built whole"
    )


def load_game(spec: str | os.PathLike[str], *, max_nodes: int | None = None) -> Game:
    """Build the game named by ``spec``: a built-in name, a ``.efg`` path or ``openspiel:...``.

    Parameters
    ----------
    spec
        A name (``"kuhn"``, ``"kuhn(cards=4)"``, ``"openspiel:leduc_poker"``) or a path, as
        a ``str`` or any ``os.PathLike`` (``pathlib.Path``); a path object is always read
        as a file.
    max_nodes
        For ``openspiel:`` games, the most histories to convert (default that of
        :func:`seqform.game.formats.openspiel.load_openspiel_game`); refused with any other
        game (:func:`check_max_nodes`), which it would not limit.

    Raises
    ------
    TypeError
        For a ``spec`` that is neither a ``str`` nor a path (``None``, a number, a
        :class:`~seqform.game.model.Game`).
    UnknownGameError
        For an unknown name (the message lists the known ones), and a path whose suffix
        names a file that is not a game (:data:`NOT_GAMES`).
    GameParameterError
        For unknown or unreadable parameters, and ``max_nodes`` given with a game that is
        not ``openspiel:``.
    ValueError
        For parameters out of range (e.g. ``kuhn(cards=1)``) and invalid games.
    OSError
        For a file that cannot be read; ``IsADirectoryError`` for a directory.
    """
    check_max_nodes(spec, max_nodes)
    _check_spec(spec)
    if isinstance(spec, os.PathLike) and os.fspath(spec).lower().endswith(".toml"):
        return load_game(os.fspath(spec), max_nodes=max_nodes)
    if isinstance(spec, os.PathLike):
        from seqform.game.formats.efg import read_efg

        return read_efg(spec)
    if spec.startswith("openspiel:"):
        from seqform.game.formats.openspiel import load_openspiel_game

        name = spec.removeprefix("openspiel:")
        if max_nodes is None:
            return load_openspiel_game(name)
        return load_openspiel_game(name, max_nodes=max_nodes)
    # os.path answers False, where pathlib raises, for names longer than the system allows
    if os.path.isdir(spec) and spec.lower() not in GAMES:
        raise IsADirectoryError(errno.EISDIR, "is a directory, not a game file", spec)
    if spec.lower().endswith(".toml"):  # a hold'em spot (seqform.game.holdem)
        from seqform.holdem import load_spot_tree

        return load_spot_tree(spec)
    if spec.lower().endswith(".efg") or os.path.isfile(spec):
        from seqform.game.formats.efg import read_efg

        return read_efg(spec)
    return build_builtin_game(spec)


def _check_spec(spec: object) -> None:
    """Refuse a ``spec`` that is neither a name nor a path (:class:`TypeError`), and a path
    whose suffix names no game (:data:`NOT_GAMES`; :class:`UnknownGameError`): ``solve
    r.npz`` said it could not read ``r.npz`` as a Gambit file."""
    if not isinstance(spec, str | os.PathLike):
        raise TypeError(
            f"load_game() takes a game name or a path (str or os.PathLike), not "
            f"{type(spec).__name__} {_short_repr(spec)}"
        )
    path = os.fspath(spec)
    holds = NOT_GAMES.get(os.path.splitext(path)[1].lower())
    if holds is not None and not path.startswith("openspiel:"):
        raise UnknownGameError(
            f"{path!r} is {holds}, not a game: GAME is a built-in name, a Gambit .efg file, "
            "a spot file (.toml) or openspiel:NAME"
        )


def _short_repr(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def as_game(game: Game | str | os.PathLike[str], caller: str) -> Game:
    """``game`` itself, or the game that :func:`load_game` makes of a name or path.

    Raises
    ------
    TypeError
        For anything else, naming ``caller`` (``"solve() takes a Game, a game name or a
        path, not int 5"``).
    """
    if isinstance(game, Game):
        return game
    if isinstance(game, str | os.PathLike):
        return load_game(game)
    raise TypeError(
        f"{caller}() takes a Game, a game name or a path (str or os.PathLike), not "
        f"{type(game).__name__} {_short_repr(game)}"
    )
