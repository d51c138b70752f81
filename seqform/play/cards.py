"""Leduc and Rhode Island hold'em at the table: one private card each, public cards dealt
mid-hand, and :class:`CardGameTable`, the engine's view of the game
(:class:`seqform.play.state.Table`).

The games are played on their public tree × private cards
(:func:`seqform.game.builtin.leduc.leduc_structured`, Rhode Island's likewise), as a spot is
(:mod:`seqform.play.spot`: the deal, the public cards, a leaf's payoff and the per-hand
expectations are the spot's, with no pot before the hand), never on the explicit tree.

The pot is read off the payoffs, so the public tree carries nothing new.  Where the bets are
matched (no fold possible), following ``c`` (check) to a showdown wins ``stake`` to each
side, so each player has put in ``stake`` (a :class:`~seqform.game.public.tree.Sign` leaf's
stake is what each side put in: the antes and the matched bets).  Facing a bet, the player
to act has put in what folding loses (the ``f`` leaf's payoff), and the bettor what the
``c`` child's matched line puts in.  A payoff here is already the net of the hand (the
antes are in it), so a hand's net is its payoff, and the seat expects the game's value.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.public.tree import (
    Constant,
    PublicChance,
    PublicDecision,
    PublicLeaf,
    Sign,
    StructuredGame,
)
from seqform.play.spot import PublicTreeMoves, SpotExpectations, leaf_payoff
from seqform.play.state import Chips, Deal, HandState

__all__ = ["CARD_GAMES", "CardGameTable", "put_in"]

CARD_GAMES = ("leduc", "rhode_island")
"""The built-in games ``play`` deals one private card each, by the name of their spec."""


def _matched(node: Any) -> Fraction:
    """What each player has put in at ``node`` where the bets are matched: the stake of the
    showdown reached by checking down."""
    while not isinstance(node, PublicLeaf):
        if isinstance(node, PublicChance):
            node = next(c for c in node.children if not isinstance(c, PublicLeaf))
        else:
            node = node.children[node.actions.index("c")]
    assert isinstance(node.rule, Sign)
    return Fraction(node.rule.stake)


def put_in(node: PublicDecision) -> tuple[Fraction, Fraction]:
    """What each player has put into the pot when ``node`` is reached (module docstring)."""
    if "f" not in node.actions:
        both = _matched(node)
        return both, both
    fold = node.children[node.actions.index("f")]
    assert isinstance(fold, PublicLeaf) and isinstance(fold.rule, Constant)
    mine = abs(Fraction(fold.rule.payoff))
    theirs = _matched(node.children[node.actions.index("c")])
    return (mine, theirs) if node.player == 0 else (theirs, mine)


@dataclass(frozen=True)
class CardGameTable(PublicTreeMoves):
    """Leduc or Rhode Island hold'em as the engine plays it, on its public tree × cards.

    game : the structured game (the one the LP solved)
    seat : the human's player index (0 acts first)
    bot, equilibrium : the equilibrium strategies (float) of the bot's and the human's seats
    auto : the strategy that plays for the human, else None
    """

    game: StructuredGame
    seat: int
    bot: BehaviouralStrategy
    equilibrium: BehaviouralStrategy
    auto: BehaviouralStrategy | None = None

    @cached_property
    def expectations(self) -> SpotExpectations:
        """The per-card expectations (:mod:`seqform.play.spot`; no pot before the hand)."""
        filler = self.auto if self.auto is not None else self.equilibrium
        return SpotExpectations(self.game, self.seat, self.bot, filler, Fraction(0))

    @cached_property
    def card_names(self) -> dict[int, str]:
        """Each card's name (``"Js"``), as the game labels the private cards."""
        hands = self.game.hands[0]
        return {int(card): label for card, label in zip(hands.cards, hands.labels, strict=True)}

    def card_name(self, card: int) -> str:
        return self.card_names[card]

    def word(self, state: HandState, action: str) -> str:
        """``action`` in poker words (fold, check, call, bet, raise), as the game says it."""
        describe = self.game.describe_action
        return action if describe is None else describe(self.infoset(state), action)

    def pot(self, node: Any) -> Fraction:
        """The chips in the pot at a decision (both players' :func:`put_in`)."""
        first, second = put_in(node)
        return first + second

    def to_call(self, node: Any) -> Fraction:
        """What the player to act must put in to call."""
        amounts = put_in(node)
        return amounts[1 - node.player] - amounts[node.player]

    def deal(self, rng: random.Random) -> Deal:
        index = self.deals.draw(rng)
        labels = (self.game.hands[0].labels[index[0]], self.game.hands[1].labels[index[1]])
        cards = (
            (int(self.game.hands[0].cards[index[0]]),),
            (int(self.game.hands[1].cards[index[1]]),),
        )
        return Deal(labels, index, cards, self.game.root)

    def board(self) -> tuple[int, ...]:
        return ()

    def chips(self) -> Chips | None:
        return None

    def payoff(self, state: HandState) -> Fraction:
        to_first = leaf_payoff(state.node, state.deal.index)
        return to_first if self.seat == 0 else -to_first

    def net(self, payoff: Fraction) -> Fraction:
        return payoff

    def equilibrium_expectation(self, hand: int) -> float:
        return self.expectations.equilibrium(hand, self.equilibrium)

    def choices_expectation(self, hand: int, chosen: dict[str, str]) -> float:
        return self.expectations.choices(hand, chosen)
