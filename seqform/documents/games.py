"""The ``seqform.games/1`` document: the built-in games and their label grammars
(:func:`seqform.game.builtin.catalogue.builtin_games`).

Schema ``seqform.games/1`` (``seqform/io/schemas/games.schema.json``)::

    {
      "schema": "seqform.games/1",
      "games": [{"name": str, "summary": str, "parameters": [str],   # "cards=3"
                 "parameter_help": [str],      # "cards: how many cards ..."
                 "labels": str, "example": {"label": str, "meaning": str},
                 "actions": str}]
    }
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from seqform.game.builtin.catalogue import BuiltinGame
from seqform.io.documents import GAMES

__all__ = ["games_document"]


def games_document(games: Sequence[BuiltinGame]) -> dict[str, Any]:
    """The ``seqform.games/1`` document of ``games``."""
    return {
        "schema": GAMES,
        "games": [
            {
                "name": game.name,
                "summary": game.summary,
                "parameters": list(game.parameters),
                "parameter_help": list(game.parameter_help),
                "labels": game.grammar.grammar,
                "example": {
                    "label": game.grammar.example,
                    "meaning": game.grammar.explain(game.grammar.example),
                },
                "actions": game.grammar.actions,
            }
            for game in games
        ],
    }
