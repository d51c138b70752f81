"""``seqform games``: the built-in games, their parameters and how they name information
sets (the label grammar of :mod:`seqform.game.builtin.labels`)."""

from __future__ import annotations

import argparse
import inspect

from seqform.cli.errors import EXIT_OK
from seqform.cli.output import emit
from seqform.cli.render.games import ABOUT, About, BuiltinGame, games_json, games_text
from seqform.game.builtin.labels import LABEL_GRAMMARS
from seqform.game.builtin.registry import GAMES, known_names

__all__ = ["builtin_games", "run"]


def builtin_games() -> list[BuiltinGame]:
    """Every built-in game with its parameters (and defaults) and its label grammar."""
    games = []
    for name in known_names():
        constructor = GAMES[name]
        parameters = tuple(
            f"{p.name}={p.default!r}" for p in inspect.signature(constructor).parameters.values()
        )
        about = ABOUT.get(name)
        if about is None:  # a new game without words yet: its docstring's first line
            docstring = (inspect.getdoc(constructor) or name).splitlines()[0]
            about = About(docstring.replace("``", "'"))
        games.append(
            BuiltinGame(name, about.summary, parameters, LABEL_GRAMMARS[name], about.parameters)
        )
    return games


def run(args: argparse.Namespace) -> int:
    """List the built-in games."""
    games = builtin_games()
    emit(games_json(games), games_text(games), args)
    return EXIT_OK
