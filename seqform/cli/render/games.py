"""``games``: the built-in games and their label grammars, as text and JSON.

JSON schema ``seqform.games/1``::

    {
      "schema": "seqform.games/1",
      "games": [{"name": str, "summary": str, "parameters": [str],   # "cards=3"
                 "labels": str, "example": {"label": str, "meaning": str},
                 "actions": str}]
    }
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from seqform.game.builtin.labels import LabelGrammar

__all__ = ["SCHEMA", "BuiltinGame", "games_json", "games_text"]

SCHEMA = "seqform.games/1"
WIDTH = 100  # text lines are wrapped here


@dataclass(frozen=True)
class BuiltinGame:
    """One built-in game as ``seqform games`` lists it.

    name : the name to write (``kuhn``)
    summary : the first line of its constructor's docstring
    parameters : ``key=default`` for each parameter
    grammar : how it names information sets and actions
    """

    name: str
    summary: str
    parameters: tuple[str, ...]
    grammar: LabelGrammar


def games_json(games: list[BuiltinGame]) -> dict[str, Any]:
    """The games as a JSON-ready dict in schema ``seqform.games/1``."""
    return {
        "schema": SCHEMA,
        "games": [
            {
                "name": game.name,
                "summary": game.summary,
                "parameters": list(game.parameters),
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


def games_text(games: list[BuiltinGame]) -> str:
    """Each game: name and parameters, what it is, its information-set labels and actions."""
    lines = ['Built-in games (write parameters inside the name, quoted: "kuhn(cards=5)")']
    for game in games:
        parameters = ", ".join(game.parameters)
        grammar = game.grammar
        example = f"e.g. {grammar.example} = {grammar.explain(grammar.example)}"
        lines += ["", f"{game.name}({parameters})" if parameters else game.name]
        for text in (game.summary, f"information sets: {grammar.grammar}", example):
            lines += textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="    ")
        lines += textwrap.wrap(
            f"actions: {grammar.actions}", WIDTH, initial_indent="  ", subsequent_indent="    "
        )
    lines += [
        "",
        "Also: a Gambit .efg file, or openspiel:NAME; these keep the labels of their source.",
        "Under every strategy table, a legend reads one of its labels aloud.",
    ]
    return "\n".join(lines)
