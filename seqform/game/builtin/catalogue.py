"""The built-in games as ``seqform games`` lists them: each game's name, its parameters with
their defaults, what it is in words for readers (:data:`ABOUT`) and how it names information
sets and actions (:mod:`seqform.game.builtin.labels`).

The rules in full are in each game's module of :mod:`seqform.game.builtin`.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass

from seqform.game.builtin.labels import LABEL_GRAMMARS, LabelGrammar
from seqform.game.builtin.registry import GAMES, known_names

__all__ = ["ABOUT", "About", "BuiltinGame", "builtin_games"]


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
            "bets: each round's bet sizes in chips, e.g. ((1, 2), (4, 8)) (default 2, then 4; "
            "more sizes for off-tree actions)",
        ),
    ),
    "rhode_island": About(
        "Rhode Island hold'em (Shi and Littman 2001), as Gilpin and Sandholm (2007) state it: "
        "antes 5, one private card each, a betting round (bets of 10), a public card, a "
        "round (bets of 20), a second public card, a round (bets of 20), at most 3 bets per "
        "round; the best three-card hand wins (straight flush, trips, straight, flush, pair, "
        "high card). The full game's LP has 91,224,226 rows: solve small decks.",
        (
            "ranks: card ranks, 2 to 13, the highest of 2 … A (3 are Q, K, A); A-2-3 is a "
            "straight only with all 13",
            "suits: suits, 1 to 4",
            "ante: each player's ante (5)",
            "bets: the bet of rounds 1, 2 and 3, e.g. (10, 20, 20)",
            "max_bets: bets and raises per round, the opening bet included (3)",
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
