"""``games``: the built-in games and their label grammars, as text and JSON.

JSON schema ``seqform.games/1``::

    {
      "schema": "seqform.games/1",
      "games": [{"name": str, "summary": str, "parameters": [str],   # "cards=3"
                 "parameter_help": [str],      # "cards: how many cards ..."
                 "labels": str, "example": {"label": str, "meaning": str},
                 "actions": str}]
    }

The words about each game (:data:`ABOUT`) are written here for readers of ``seqform games``;
the rules in full are in each game's module of :mod:`seqform.game.builtin`.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from seqform.game.builtin.labels import LabelGrammar
from seqform.io.documents import GAMES

__all__ = ["ABOUT", "SCHEMA", "About", "BuiltinGame", "games_json", "games_text"]

SCHEMA = GAMES
WIDTH = 100  # text lines are wrapped here


@dataclass(frozen=True)
class About:
    """What a built-in game is, for a reader: the game in a sentence or two, then one line
    per parameter (``"cards: ..."``)."""

    summary: str
    parameters: tuple[str, ...] = ()


ABOUT: dict[str, About] = {
    "kuhn": About(
        "Kuhn poker (Kuhn 1950): each player antes 1 and is dealt one card; player 1 checks "
        "or bets 1, player 2 answers, and a check then a bet gives player 1 the last word; "
        "the higher card wins at showdown. The value is -1/18 to player 1 with 3 cards.",
        ("cards: how many cards in the deck, at least 2 (3 are J, Q, K; more are 1 … N)",),
    ),
    "kuhn3": About(
        "Kuhn poker for three players (Abou Risk and Szafron 2010), as OpenSpiel's "
        "kuhn_poker(players=3): four cards T < J < Q < K, one betting round. Not a "
        "two-player game, so solve refuses it; iterate (CFR) solves it.",
    ),
    "leduc": About(
        "Leduc hold'em (Southey et al. 2005), as OpenSpiel's leduc_poker: one private card "
        "each, a betting round (bets of 2), a public card, a second round (bets of 4), at "
        "most a bet and a raise per round; a pair with the public card wins, else the "
        "higher card.",
        (
            "ranks: card ranks, 2 to 13 (3 are J, Q, K)",
            "suits: suits, 1 to 4 (with one suit no pair is possible)",
            "suit_isomorphism: True deals ranks only and hides suits (OpenSpiel's parameter; "
            "fewer information sets, the same value)",
        ),
    ),
    "liars_dice": About(
        "Liar's Dice for two players, as OpenSpiel's liars_dice: each rolls dice in secret, "
        "then they bid in turn 'at least q dice show face f', each bid higher than the last, "
        "until one calls the last bid a lie; the highest face is wild. The winner gets 1.",
        (
            "sides: faces per die, at least 2",
            "dice: dice per player, at least 1",
        ),
    ),
}


@dataclass(frozen=True)
class BuiltinGame:
    """One built-in game as ``seqform games`` lists it.

    name : the name to write (``kuhn``)
    summary : what the game is, in words for readers (:data:`ABOUT`)
    parameters : ``key=default`` for each parameter
    grammar : how it names information sets and actions
    parameter_help : one line per parameter, what it means and its range
    """

    name: str
    summary: str
    parameters: tuple[str, ...]
    grammar: LabelGrammar
    parameter_help: tuple[str, ...] = ()


def games_json(games: list[BuiltinGame]) -> dict[str, Any]:
    """The games as a JSON-ready dict in schema ``seqform.games/1``."""
    return {
        "schema": SCHEMA,
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


def games_text(games: list[BuiltinGame]) -> str:
    """Each game: name and parameters, what it is, its information-set labels and actions."""
    lines = ['Built-in games (write parameters inside the name, quoted: "kuhn(cards=5)")']
    for game in games:
        parameters = ", ".join(game.parameters)
        grammar = game.grammar
        example = f"e.g. {grammar.example} = {grammar.explain(grammar.example)}"
        lines += ["", f"{game.name}({parameters})" if parameters else game.name]
        texts = (
            game.summary,
            *(f"parameter {text}" for text in game.parameter_help),
            f"information sets: {grammar.grammar}",
            example,
        )
        for text in texts:
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
