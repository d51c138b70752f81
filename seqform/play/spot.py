"""A hold'em spot at the table: the deal, the words of the actions, a leaf's payoff, the
expectations, and :class:`SpotTable`, the engine's view of the spot
(:class:`seqform.play.state.Table`).

A spot is played on its public tree × combos (:mod:`seqform.holdem.game`), never
on the explicit tree, so ``play`` runs on any spot the structured route solves.  Results are
in chips as players count them: a hand's *net* is the share of the pot won less the chips
put in during the spot (the zero-sum payoff of the spot plus half the pot), so a seat expects
its EV in chips a hand (:func:`seqform.holdem.report.seat_ev`, the ``solve``
summary's "EV OOP ... chips").

Expectations (as :mod:`seqform.play` explains them for Kuhn poker): for the human's combo
``h``, the equilibrium's expected net given ``h`` is

    EV(h) = Σ_{s ∈ S(h)} x[s] (A y)[s] / P(h) + P / 2

over ``h``'s sequences ``S(h)`` (its information sets ``h|history``), with ``x`` the seat's
realization plan, ``A y`` the payoff per sequence against the bot's plan (for IP ``−Aᵀ x``;
:mod:`seqform.structured.products`, which already weigh each leaf by the deal and the
river card), ``P(h)`` the combo's probability in the deal and ``P`` the pot; *the
expectation of your choices* is the same with the human's choices put into the plan.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from itertools import accumulate
from typing import Any

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy, plan_from_behaviour
from seqform.game.public.tree import (
    Constant,
    PublicChance,
    PublicDecision,
    PublicLeaf,
    Sign,
    StructuredGame,
    hands_clash_free,
)
from seqform.holdem import Spot
from seqform.play.state import CHANCE, Chips, Deal, HandState, sample_index
from seqform.structured.products import payoff_to_first, payoff_to_second

__all__ = [
    "Deals",
    "PublicTreeMoves",
    "SpotExpectations",
    "SpotTable",
    "action_word",
    "leaf_payoff",
]


class Deals:
    """Draws a deal ``(h0, h1)`` with probability ``w0[h0] w1[h1]`` over the pairs of combos
    that share no card (the spot's deal, :func:`~seqform.holdem.game.spot_game`),
    by one ``rng.random()`` against the cumulative weights."""

    def __init__(self, game: StructuredGame) -> None:
        free = hands_clash_free(*game.hands)
        self.pairs = [(int(a), int(b)) for a, b in zip(*np.nonzero(free), strict=True)]
        weights = [tuple(float(w) for w in hands.weights) for hands in game.hands]
        self.cumulative = list(accumulate(weights[0][a] * weights[1][b] for a, b in self.pairs))

    def draw(self, rng: random.Random) -> tuple[int, int]:
        at = bisect_right(self.cumulative, rng.random() * self.cumulative[-1])
        return self.pairs[min(at, len(self.pairs) - 1)]


def action_word(action: str) -> str:
    """How a player says an action: ``x`` check, ``b5`` bet 5, ``f`` fold, ``c`` call,
    ``r20`` raise to 20 (:mod:`seqform.holdem.betting`'s labels)."""
    fixed = {"x": "check", "f": "fold", "c": "call"}
    if action in fixed:
        return fixed[action]
    return f"bet {action[1:]}" if action.startswith("b") else f"raise to {action[1:]}"


class SpotExpectations:
    """The per-hand expectations of the module docstring, each computed once."""

    def __init__(
        self,
        game: StructuredGame,
        seat: int,
        bot: BehaviouralStrategy,
        filler: BehaviouralStrategy,
        pot: Fraction,
    ) -> None:
        self.pot = pot
        self.table = filler.table
        plan = plan_from_behaviour(bot)
        if seat == 0:
            self.payoff = payoff_to_first(game, plan)
        else:
            self.payoff = -payoff_to_second(game, plan)
        free = hands_clash_free(*game.hands).astype(float)
        if seat == 1:
            free = free.T
        own = np.array([float(w) for w in game.hands[seat].weights])
        other = np.array([float(w) for w in game.hands[1 - seat].weights])
        self.deal = float(game.deal_scale) * own * (free @ other)
        labels = game.hands[seat].labels
        self.sequences: dict[int, list[int]] = {hand: [] for hand in range(len(labels))}
        position = {label: hand for hand, label in enumerate(labels)}
        for index, name in enumerate(self.table.infosets):
            self.sequences[position[name.partition("|")[0]]] += list(self.table.sequences_of(index))
        self.filler = filler
        self.cache: dict[tuple[int, tuple[tuple[str, str], ...] | None], float] = {}

    def _expected(self, hand: int, strategy: BehaviouralStrategy) -> float:
        plan = plan_from_behaviour(strategy)
        rows = self.sequences[hand]
        total = float(plan[rows] @ self.payoff[rows])
        return total / self.deal[hand] + float(self.pot) / 2

    def equilibrium(self, hand: int, equilibrium: BehaviouralStrategy) -> float:
        """The expected net of the seat's ``equilibrium`` with the combo ``hand``."""
        key = (hand, None)
        if key not in self.cache:
            self.cache[key] = self._expected(hand, equilibrium)
        return self.cache[key]

    def choices(self, hand: int, chosen: Mapping[str, str]) -> float:
        """The expected net of the human's ``chosen`` actions (information set -> action)
        with ``hand``; the decisions not met are filled in by the ``filler`` strategy
        (``auto``'s, or the equilibrium)."""
        key = (hand, tuple(sorted(chosen.items())))
        if key not in self.cache:
            probabilities = self.filler.probabilities.astype(float)
            index = self.table.index_of_infoset()
            for infoset, action in chosen.items():
                at = index[infoset]
                sequences = self.table.sequences_of(at)
                probabilities[sequences] = 0.0
                probabilities[sequences.start + self.table.actions[at].index(action)] = 1.0
            line = BehaviouralStrategy(self.table, probabilities, self.filler.unreached)
            self.cache[key] = self._expected(hand, line)
        return self.cache[key]


def leaf_payoff(leaf: PublicLeaf, deal: tuple[int, int]) -> Fraction:
    """The leaf's zero-sum payoff to OOP for the deal (:mod:`seqform.game.public.tree`)."""
    if isinstance(leaf.rule, Constant):
        return Fraction(leaf.rule.payoff)
    assert isinstance(leaf.rule, Sign) and leaf.levels is not None
    first, second = int(leaf.levels[0][deal[0]]), int(leaf.levels[1][deal[1]])
    return Fraction(leaf.rule.stake) * ((first > second) - (first < second))


class PublicTreeMoves:
    """How a hand moves on a public tree × hands, shared by the tables played on one
    (:class:`SpotTable`, :class:`~seqform.play.cards.CardGameTable`): whose turn it is, the
    actions, the information set (the acting hand's label and the public history), public
    cards dealt uniformly over those no hand or board holds, and the strategies' odds.
    A subclass has ``game`` (the structured game) and ``bot`` and ``auto`` (behavioural
    strategies, ``auto`` or None)."""

    game: Any
    bot: Any
    auto: Any

    @property
    def has_auto(self) -> bool:
        return self.auto is not None

    @cached_property
    def deals(self) -> Deals:
        return Deals(self.game)

    def player(self, node: Any) -> int | None:
        if isinstance(node, PublicLeaf):
            return None
        return CHANCE if isinstance(node, PublicChance) else int(node.player)

    def actions(self, node: Any) -> tuple[str, ...]:
        assert isinstance(node, PublicDecision)
        return tuple(node.actions)

    def infoset(self, state: HandState) -> str:
        """The acting player's hand label and the public history (``"AhKh|x-b5"``)."""
        return str(state.deal.labels[state.node.player] + state.node.history)

    def child(self, node: Any, action: str) -> Any:
        return node.children[node.actions.index(action)]

    def is_fold(self, state: HandState, action: str) -> bool:
        return action == "f"

    def draw_card(self, state: HandState, rng: random.Random) -> int:
        """A public card, uniform over the cards neither hand nor the board holds."""
        node = state.node
        assert isinstance(node, PublicChance)
        seen = set(state.deal.cards[0]) | set(state.deal.cards[1]) | set(state.board)
        cards = [card for card in node.cards if card not in seen]
        return int(cards[sample_index([1.0] * len(cards), rng)])

    def card_child(self, node: Any, card: int) -> Any:
        return node.children[list(node.cards).index(card)]

    def odds(self, who: str, infoset: str) -> list[float]:
        strategy = {"bot": self.bot, "auto": self.auto}[who]
        assert strategy is not None
        return [float(p) for p in strategy.at(infoset).values()]


@dataclass(frozen=True)
class SpotTable(PublicTreeMoves):
    """A hold'em spot as the engine plays it (:class:`seqform.play.state.Table`), on its
    public tree × combos.

    spot : the spot file's data (board, pot, stacks)
    game : its structured game
    seat : the human's player index (0 is OOP)
    bot, equilibrium : the equilibrium strategies (float) of the bot's and the human's seats
    auto : the strategy that plays for the human, else None
    """

    spot: Spot
    game: StructuredGame
    seat: int
    bot: BehaviouralStrategy
    equilibrium: BehaviouralStrategy
    auto: BehaviouralStrategy | None = None

    @cached_property
    def expectations(self) -> SpotExpectations:
        """The per-combo expectations (module docstring), each computed once (a cache: it
        never changes an answer)."""
        filler = self.auto if self.auto is not None else self.equilibrium
        return SpotExpectations(self.game, self.seat, self.bot, filler, self.spot.pot)

    def combo(self, player: int, hand: int) -> tuple[int, int]:
        """The hole cards of ``player``'s combo ``hand``."""
        cards = self.game.hands[player].cards[hand]
        return int(cards[0]), int(cards[1])

    def deal(self, rng: random.Random) -> Deal:
        index = self.deals.draw(rng)
        labels = (self.game.hands[0].labels[index[0]], self.game.hands[1].labels[index[1]])
        cards = (self.combo(0, index[0]), self.combo(1, index[1]))
        return Deal(labels, index, cards, self.game.root)

    def board(self) -> tuple[int, ...]:
        return tuple(self.spot.board)

    def chips(self) -> Chips | None:
        return Chips(self.spot.pot, self.spot.effective_stack)

    def payoff(self, state: HandState) -> Fraction:
        to_oop = leaf_payoff(state.node, state.deal.index)
        return to_oop if self.seat == 0 else -to_oop

    def net(self, payoff: Fraction) -> Fraction:
        return payoff + self.spot.pot / 2

    def equilibrium_expectation(self, hand: int) -> float:
        return self.expectations.equilibrium(hand, self.equilibrium)

    def choices_expectation(self, hand: int, chosen: dict[str, str]) -> float:
        return self.expectations.choices(hand, chosen)
