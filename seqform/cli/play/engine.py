"""The pieces of a hand that need no console: the draws, the setup, a hand's record and the
expectations a session reports (see :mod:`seqform.cli.play`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from seqform.cli.play.cards import actions_by_infoset, deal_cards
from seqform.cli.play.strategies import Behaviour
from seqform.game.model import Game
from seqform.game.nodes import Chance, Node, Terminal

__all__ = ["Expectations", "HandRecord", "PlaySetup", "hand_expectation", "sample_index"]


def sample_index(probabilities: Sequence[float], rng: random.Random) -> int:
    """Index ``i`` with probability ``probabilities[i]`` (one draw of ``rng.random()``)."""
    draw = rng.random() * sum(probabilities)
    cumulative = 0.0
    last = 0
    for index, probability in enumerate(probabilities):
        if probability <= 0:
            continue
        cumulative += probability
        last = index
        if draw < cumulative:
            return index
    return last


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
class PlaySetup:
    """Everything fixed during a session: the game, the seats and the strategies.

    seat : the human's player index (0 acts first)
    bot : the bot's strategy (the equilibrium)
    equilibrium : the equilibrium strategy of the human's seat
    auto : the strategy that plays for the human with ``--auto``, else None
    auto_name : how to call it in the transcript
    value : the game's value to player 0
    """

    game: Game
    seat: int
    bot: Behaviour
    equilibrium: Behaviour
    value: float
    auto: Behaviour | None = None
    auto_name: str = ""

    @property
    def seat_value(self) -> float:
        return self.value if self.seat == 0 else -self.value


@dataclass(frozen=True)
class HandRecord:
    """One finished hand, seen from the human's seat.

    cards : (player 0's card, player 1's card)
    actions : the betting, as action labels (``("p", "b", "b")``)
    payoff : to the human
    choices_expectation : expected payoff of the human's choices given the human's card
    equilibrium_expectation : expected payoff of equilibrium play given the human's card
    """

    cards: tuple[str, str]
    actions: tuple[str, ...]
    payoff: Fraction
    choices_expectation: float
    equilibrium_expectation: float


class Expectations:
    """Cached per-hand expectations of :class:`HandRecord` (a session meets few distinct
    (card, choices) pairs, so each is computed once)."""

    def __init__(self, setup: PlaySetup) -> None:
        self.setup = setup
        self.actions = actions_by_infoset(setup.game)
        self.filler = setup.auto if setup.auto is not None else setup.equilibrium
        self.cache: dict[tuple[str, tuple[tuple[str, str], ...] | None], float] = {}

    def _profile(self, human: Mapping[str, Sequence[float]]) -> tuple[Mapping, Mapping]:
        bot = self.setup.bot
        return (human, bot) if self.setup.seat == 0 else (bot, human)

    def equilibrium(self, card: str) -> float:
        key = (card, None)
        if key not in self.cache:
            self.cache[key] = hand_expectation(
                self.setup.game, self.setup.seat, card, self._profile(self.setup.equilibrium)
            )
        return self.cache[key]

    def choices(self, card: str, chosen: Mapping[str, str]) -> float:
        key = (card, tuple(sorted(chosen.items())))
        if key not in self.cache:
            line = dict(self.filler)
            for infoset, action in chosen.items():
                line[infoset] = tuple(float(a == action) for a in self.actions[infoset])
            self.cache[key] = hand_expectation(
                self.setup.game, self.setup.seat, card, self._profile(line)
            )
        return self.cache[key]
