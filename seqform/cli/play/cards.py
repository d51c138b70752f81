"""Kuhn poker's cards as ``play`` reads them from a game: deals, information sets, their order."""

from __future__ import annotations

from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal

__all__ = ["actions_by_infoset", "card_of_infoset", "card_order", "check_kuhn", "deal_cards"]


def deal_cards(outcome: str) -> tuple[str, str]:
    """The two cards of a Kuhn deal outcome: ``"KJ" -> ("K", "J")``, ``"3,1" -> ("3", "1")``."""
    if "," in outcome:
        first, second = outcome.split(",")
        return first, second
    if len(outcome) != 2:
        raise ValueError(f"cannot read the deal {outcome!r} as two cards")
    return outcome[0], outcome[1]


def card_of_infoset(infoset: str) -> str:
    """The owner's card in a Kuhn information set name: ``"Kpb" -> "K"``, ``"12b" -> "12"``."""
    return infoset.rstrip("pb")


def card_order(game: Game) -> tuple[str, ...]:
    """The game's cards from lowest to highest, read from the deal's outcomes."""
    root = game.root
    if not isinstance(root, Chance):
        raise ValueError(f"play: {game.name!r} does not start with a deal")
    names: list[str] = []
    for outcome in root.outcomes:
        for card in deal_cards(outcome):
            if card not in names:
                names.append(card)
    if all(card.isdigit() for card in names):
        return tuple(sorted(names, key=int))
    order = "JQK"
    return tuple(sorted(names, key=order.index))


def check_kuhn(game: Game) -> None:
    """Raise ``ValueError`` unless ``game`` is Kuhn poker (``kuhn`` or ``kuhn(cards=N)``)."""
    if game.name != "kuhn" and not game.name.startswith("kuhn("):
        raise ValueError(
            "play: only Kuhn poker (kuhn or kuhn(cards=N)) and hold'em spot files (*.toml) "
            f"are playable, not {game.name!r}"
        )


def actions_by_infoset(game: Game) -> dict[str, tuple[str, ...]]:
    """Every information set of the game (both players) -> its action labels."""
    actions: dict[str, tuple[str, ...]] = {}
    stack: list[Node] = [game.root]
    while stack:
        node = stack.pop()
        if isinstance(node, Decision):
            actions[node.infoset] = node.actions
        if not isinstance(node, Terminal):
            stack.extend(node.children)
    return actions
