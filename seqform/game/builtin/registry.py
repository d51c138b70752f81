"""The built-in games by name, and the ``NAME(key=value, ...)`` text that names them.

A built-in game is written ``NAME`` or ``NAME(key=value, ...)`` (``kuhn``,
``kuhn(cards=5)``): :data:`GAMES` maps each name to the function that builds its tree, and
:data:`SHOWDOWN_GAMES` the names that also exist as one-card showdown games (for
``--method sparsified``, which never builds the tree) to their description.
"""

from __future__ import annotations

import ast
import inspect
import re
from collections.abc import Callable

from seqform.game.builtin.kuhn import kuhn_poker, kuhn_showdown
from seqform.game.builtin.kuhn3 import kuhn3_poker
from seqform.game.builtin.leduc import leduc_poker
from seqform.game.builtin.liars_dice import (
    liars_dice as liars_dice_game,  # keeps the module name free
)
from seqform.game.builtin.showdown_poker import ShowdownPoker
from seqform.game.compiled import gc_paused
from seqform.game.errors import GameParameterError, UnknownGameError
from seqform.game.model import Game

__all__ = [
    "GAMES",
    "SHOWDOWN_GAMES",
    "build_builtin_game",
    "known_names",
    "load_showdown_game",
    "parse_game_spec",
]

GAMES: dict[str, Callable[..., Game]] = {
    "kuhn": kuhn_poker,
    "kuhn3": kuhn3_poker,
    "leduc": leduc_poker,
    "liars_dice": liars_dice_game,
}

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


def build_builtin_game(spec: str) -> Game:
    """Build the built-in game named by ``spec`` (``kuhn``, ``leduc``, ``kuhn(cards=5)``).

    Raises
    ------
    UnknownGameError
        For an unknown name (the message lists the known ones).
    GameParameterError
        For unknown or unreadable parameters; ``ValueError`` for values out of range.
    """
    name, parameters = parse_game_spec(spec)
    constructor = GAMES.get(name)
    if constructor is None:
        raise UnknownGameError(
            f"unknown game {name!r}; known games: {', '.join(known_names())} "
            "(or a path to a .efg file, or openspiel:NAME)"
        )
    _check_parameters(name, constructor, parameters)
    with gc_paused():
        return constructor(**parameters)


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
