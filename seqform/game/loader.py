"""Built-in games and the loader that turns a name on the command line into a :class:`Game`.

A game is named as ``NAME`` or ``NAME(key=value, ...)`` (``kuhn``, ``kuhn(cards=5)``); a path
ending in ``.efg`` is read as a Gambit file, and ``openspiel:SPEC`` converts an OpenSpiel
game (with the ``openspiel`` extra).
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable
from pathlib import Path

from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.builtin.leduc import leduc_poker
from seqform.game.builtin.liars_dice import (
    liars_dice as liars_dice_game,  # keeps the module name free
)
from seqform.game.model import Game
from seqform.structured.showdown import ShowdownPoker, kuhn_showdown

__all__ = [
    "GAMES",
    "SHOWDOWN_GAMES",
    "GameParameterError",
    "UnknownGameError",
    "known_names",
    "load_game",
    "load_showdown_game",
    "parse_game_spec",
]


class UnknownGameError(ValueError):
    """The name does not denote a built-in game, a ``.efg`` file or an OpenSpiel game."""


class GameParameterError(ValueError):
    """A built-in game was given a parameter it does not have, or an unreadable one."""


GAMES: dict[str, Callable[..., Game]] = {
    "kuhn": kuhn_poker,
    "leduc": leduc_poker,
    "liars_dice": liars_dice_game,
}

# Games that also exist as one-card showdown games (seqform.structured.showdown),
# for --method sparsified.
SHOWDOWN_GAMES: dict[str, Callable[..., ShowdownPoker]] = {"kuhn": kuhn_showdown}

_SPEC = re.compile(r"^\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*(?:\((?P<args>.*)\))?\s*$")


def known_names() -> list[str]:
    """The names of the built-in games, sorted."""
    return sorted(GAMES)


def parse_game_spec(spec: str) -> tuple[str, dict[str, object]]:
    """Split ``"kuhn(cards=5)"`` into ``("kuhn", {"cards": 5})``.

    Raises
    ------
    GameParameterError
        If the text is not of the form ``NAME`` or ``NAME(key=value, ...)`` with literal
        values.
    """
    match = _SPEC.match(spec)
    if match is None:
        raise GameParameterError(f"cannot read game {spec!r}: write NAME or NAME(key=value, ...)")
    name, text = match["name"], match["args"]
    if not text or not text.strip():
        return name, {}
    try:
        call = ast.parse(f"f({text})", mode="eval").body
    except SyntaxError as exc:
        raise GameParameterError(f"cannot read the parameters of game {spec!r}: {exc.msg}") from exc
    assert isinstance(call, ast.Call)
    if call.args:
        raise GameParameterError(f"game {spec!r}: parameters must be named (key=value)")
    parameters: dict[str, object] = {}
    for keyword in call.keywords:
        try:
            parameters[str(keyword.arg)] = ast.literal_eval(keyword.value)
        except ValueError as exc:
            raise GameParameterError(
                f"game {spec!r}: the value of {keyword.arg!r} must be a number or a string"
            ) from exc
    return name, parameters


def _check_parameters(name: str, constructor: Callable[..., object], parameters: dict) -> None:
    accepted = inspect.signature(constructor).parameters
    for key in parameters:
        if key not in accepted:
            known = ", ".join(f"{p.name}={p.default!r}" for p in accepted.values())
            raise GameParameterError(
                f"game {name!r} has no parameter {key!r}; its parameters (with defaults): "
                f"{known or 'none'}"
            )


def load_showdown_game(spec: str) -> ShowdownPoker:
    """The one-card showdown game named by ``spec`` (``kuhn``, ``kuhn(cards=250000)``).

    Raises
    ------
    UnknownGameError
        For a name that is not a showdown game (the message lists those that are).
    GameParameterError
        For unknown or unreadable parameters; ``ValueError`` for values out of range.
    """
    name, parameters = parse_game_spec(spec)
    constructor = SHOWDOWN_GAMES.get(name)
    if constructor is None:
        raise UnknownGameError(
            f"{spec!r} is not a one-card showdown game, which --method sparsified needs; "
            f"those are: {', '.join(sorted(SHOWDOWN_GAMES))} (e.g. kuhn(cards=250000))"
        )
    _check_parameters(name, constructor, parameters)
    return constructor(**parameters)


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
    name, parameters = parse_game_spec(spec)
    constructor = GAMES.get(name)
    if constructor is None:
        raise UnknownGameError(
            f"unknown game {name!r}; known games: {', '.join(known_names())} "
            "(or a path to a .efg file, or openspiel:NAME)"
        )
    _check_parameters(name, constructor, parameters)
    from seqform.game.compiled import gc_paused

    with gc_paused():
        return constructor(**parameters)
