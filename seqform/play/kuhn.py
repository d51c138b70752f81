"""Kuhn poker at the table: its cards read from the game (deals, information sets, their
order), the expectations of a hand, and :class:`KuhnTable`, the engine's view of the game
(:class:`seqform.play.state.Table`).

The expectations (:mod:`seqform.play`) are walks of the subtree below the deals that give
the human's card, weighted by chance and both players' behaviour.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal
from seqform.play.state import Chips, Deal, HandState, sample_index
from seqform.play.strategies import Behaviour
from seqform.routes.options import OptionsError

__all__ = [
    "KuhnTable",
    "NotPlayableError",
    "actions_by_infoset",
    "card_of_infoset",
    "card_order",
    "check_kuhn",
    "deal_cards",
    "hand_expectation",
    "not_playable",
]


class NotPlayableError(OptionsError):
    """The game is not one ``play`` plays (Kuhn poker, Leduc or Rhode Island hold'em, or a
    hold'em spot file): a usage error, exit 2 on the command line."""


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
    """Raise :class:`NotPlayableError` unless ``game`` is Kuhn poker (``kuhn`` or
    ``kuhn(cards=N)``)."""
    if game.name != "kuhn" and not game.name.startswith("kuhn("):
        raise not_playable(game.name)


def not_playable(name: str) -> NotPlayableError:
    """The error for the game ``name``, which ``play`` does not play."""
    return NotPlayableError(
        "play: only Kuhn poker (kuhn or kuhn(cards=N)), Leduc and Rhode Island hold'em "
        f"(leduc(...), rhode_island(...)) and hold'em spot files (*.toml) are playable, "
        f"not {name!r}"
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


def hand_expectation(
    game: Game, seat: int, card: str, behaviours: tuple[Mapping[str, Sequence[float]], ...]
) -> float:
    """Expected payoff to ``seat`` given that it holds ``card``, both players following
    ``behaviours`` (indexed by player): the deals with that card, weighted by chance."""
    root = game.root
    assert isinstance(root, Chance)
    total = 0.0
    weight = 0.0
    for outcome, probability, child in zip(
        root.outcomes, root.probabilities, root.children, strict=True
    ):
        if deal_cards(outcome)[seat] != card:
            continue
        weight += float(probability)
        stack: list[tuple[Node, float]] = [(child, float(probability))]
        while stack:
            node, reach = stack.pop()
            if isinstance(node, Terminal):
                total += reach * float(node.payoffs[seat])
            elif isinstance(node, Chance):
                for p, grandchild in zip(node.probabilities, node.children, strict=True):
                    stack.append((grandchild, reach * float(p)))
            else:
                odds = behaviours[node.player][node.infoset]
                for odd, grandchild in zip(odds, node.children, strict=True):
                    if odd:
                        stack.append((grandchild, reach * odd))
    return total / weight


@dataclass(frozen=True)
class KuhnTable:
    """Kuhn poker as the engine plays it (:class:`seqform.play.state.Table`).

    game : the Kuhn tree
    seat : the human's player index
    bot : the bot's strategy (the other seat's equilibrium)
    equilibrium : the equilibrium strategy of the human's seat
    auto : the strategy that plays for the human, else None
    memo : the expectations computed so far, (card, choices) -> float; a session meets few
        distinct pairs, so each is computed once (a cache, not state: it never changes an
        answer)
    """

    game: Game
    seat: int
    bot: Behaviour
    equilibrium: Behaviour
    auto: Behaviour | None = None
    memo: dict[tuple[int, tuple[tuple[str, str], ...] | None], float] = field(
        default_factory=dict, compare=False, repr=False
    )

    @property
    def has_auto(self) -> bool:
        return self.auto is not None

    @cached_property
    def order(self) -> tuple[str, ...]:
        """The cards, lowest first (:func:`card_order`)."""
        return card_order(self.game)

    @cached_property
    def _actions(self) -> dict[str, tuple[str, ...]]:
        return actions_by_infoset(self.game)

    def deal(self, rng: random.Random) -> Deal:
        root = self.game.root
        assert isinstance(root, Chance)
        outcome = sample_index([float(p) for p in root.probabilities], rng)
        labels = deal_cards(root.outcomes[outcome])
        index = (self.order.index(labels[0]), self.order.index(labels[1]))
        return Deal(labels, index, ((), ()), root.children[outcome])

    def board(self) -> tuple[int, ...]:
        return ()

    def chips(self) -> Chips | None:
        return None

    def player(self, node: Any) -> int | None:
        return node.player if isinstance(node, Decision) else None

    def actions(self, node: Any) -> tuple[str, ...]:
        return tuple(node.actions)

    def infoset(self, state: HandState) -> str:
        return str(state.node.infoset)

    def child(self, node: Any, action: str) -> Any:
        return node.children[node.actions.index(action)]

    def is_fold(self, state: HandState, action: str) -> bool:
        return self.game.describe_action(state.node.infoset, action) == "fold"

    def draw_card(self, state: HandState, rng: random.Random) -> int:
        raise ValueError("Kuhn poker deals no card after the deal")

    def card_child(self, node: Any, card: int) -> Any:
        raise ValueError("Kuhn poker deals no card after the deal")

    def odds(self, who: str, infoset: str) -> list[float]:
        strategy = {"bot": self.bot, "auto": self.auto}[who]
        assert strategy is not None
        return list(strategy[infoset])

    def payoff(self, state: HandState) -> Fraction:
        return Fraction(state.node.payoffs[self.seat])

    def net(self, payoff: Fraction) -> Fraction:
        return payoff

    def _profile(self, human: Mapping[str, Sequence[float]]) -> tuple[Mapping, Mapping]:
        return (human, self.bot) if self.seat == 0 else (self.bot, human)

    def _card(self, hand: int) -> str:
        return self.order[hand]

    def equilibrium_expectation(self, hand: int) -> float:
        key = (hand, None)
        if key not in self.memo:
            self.memo[key] = hand_expectation(
                self.game, self.seat, self._card(hand), self._profile(self.equilibrium)
            )
        return self.memo[key]

    def choices_expectation(self, hand: int, chosen: dict[str, str]) -> float:
        key = (hand, tuple(sorted(chosen.items())))
        if key not in self.memo:
            line = dict(self.auto if self.auto is not None else self.equilibrium)
            for infoset, action in chosen.items():
                line[infoset] = tuple(float(a == action) for a in self._actions[infoset])
            self.memo[key] = hand_expectation(
                self.game, self.seat, self._card(hand), self._profile(line)
            )
        return self.memo[key]
