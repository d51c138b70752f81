"""The pieces of a hold'em spot's hand that need no console: the setup, the deal, the
strategies that play for ``--auto``, the words of the actions, and the expectations.

A spot is played on its public tree × combos (:mod:`seqform.holdem.spot_game`), never
on the explicit tree, so ``play`` runs on any spot the structured route solves.  Results are
in chips as players count them: a hand's *net* is the share of the pot won less the chips
put in during the spot (the zero-sum payoff of the spot plus half the pot), so a seat expects
its EV of the ``solve`` summary a hand.

Expectations (as :mod:`seqform.cli.play` explains them for Kuhn poker): for the human's combo
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
from itertools import accumulate

import numpy as np

from seqform.forms.strategies import (
    BehaviouralStrategy,
    behaviour_from_mapping,
    plan_from_behaviour,
)
from seqform.game.public.tree import StructuredGame, hands_clash_free
from seqform.game.sequences import PlayerSequences
from seqform.holdem.spot import Spot
from seqform.structured.products import payoff_to_first, payoff_to_second

__all__ = [
    "SPOT_STRATEGY_NAMES",
    "Deals",
    "SpotExpectations",
    "SpotSetup",
    "action_word",
    "check_spot_strategy",
    "net_of",
    "spot_strategy",
]

SPOT_STRATEGY_NAMES: dict[str, str] = {
    "equilibrium": "the LP's equilibrium for your seat (the bot plays the other half)",
    "always-bet": "bets the smallest size, and calls every bet",
    "check-fold": "checks, and folds to every bet",
    "calling-station": "never bets or raises, always calls",
    "random": "every action with equal probability",
}


@dataclass(frozen=True)
class SpotSetup:
    """Everything fixed during a session on a spot.

    seat : the human's player index (0 is OOP, first to act)
    bot, equilibrium : the equilibrium strategies of the bot's and the human's seats (float)
    value : the spot's value to OOP (its EV less half the pot)
    auto : the strategy that plays for the human with ``--auto``, else None
    """

    spot: Spot
    game: StructuredGame
    seat: int
    bot: BehaviouralStrategy
    equilibrium: BehaviouralStrategy
    value: float
    auto: BehaviouralStrategy | None = None
    auto_name: str = ""

    @property
    def seat_value(self) -> float:
        """The human's seat's EV a hand, in chips (the ``solve`` summary's)."""
        half = float(self.spot.pot) / 2
        return half + self.value if self.seat == 0 else half - self.value


class Deals:
    """Draws a deal ``(h0, h1)`` with probability ``w0[h0] w1[h1]`` over the pairs of combos
    that share no card (the spot's deal, :func:`~seqform.holdem.spot_game.spot_game`),
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


def _named_row(name: str, actions: tuple[str, ...]) -> dict[str, float]:
    """One information set's probabilities under the named strategy ``name``."""
    sized = [a for a in actions if a[0] in "br"]
    if name == "random":
        pick = list(actions)
    elif name == "always-bet":
        pick = [a for a in actions if a == "c"] or sized[:1] or ["x"]
    elif name == "check-fold":
        pick = [a for a in actions if a in ("x", "f")]
    else:  # calling-station
        pick = [a for a in actions if a in ("x", "c")]
    return {a: (1.0 / len(pick) if a in pick else 0.0) for a in actions}


def check_spot_strategy(name: str) -> None:
    """Raise ``ValueError`` unless ``name`` is one of :data:`SPOT_STRATEGY_NAMES` (strategy
    files play Kuhn poker only: a spot's tables come from its public tree, not a game file)."""
    if name not in SPOT_STRATEGY_NAMES:
        raise ValueError(
            f"unknown strategy {name!r} for a spot; choose one of {', '.join(SPOT_STRATEGY_NAMES)}"
        )


def spot_strategy(
    name: str, table: PlayerSequences, equilibrium: BehaviouralStrategy
) -> BehaviouralStrategy:
    """The strategy called ``name`` (a key of :data:`SPOT_STRATEGY_NAMES`) on ``table``.

    Raises
    ------
    ValueError
        For another name (:func:`check_spot_strategy`).
    """
    check_spot_strategy(name)
    if name == "equilibrium":
        return equilibrium
    mapping = {
        infoset: _named_row(name, actions)
        for infoset, actions in zip(table.infosets, table.actions, strict=True)
    }
    return behaviour_from_mapping(table, mapping)


class SpotExpectations:
    """The per-hand expectations of the module docstring, each computed once."""

    def __init__(self, setup: SpotSetup) -> None:
        self.setup = setup
        game, seat = setup.game, setup.seat
        self.table = setup.equilibrium.table
        plan = plan_from_behaviour(setup.bot)
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
        self.filler = setup.auto if setup.auto is not None else setup.equilibrium
        self.cache: dict[tuple[int, tuple[tuple[str, str], ...] | None], float] = {}

    def _expected(self, hand: int, strategy: BehaviouralStrategy) -> float:
        plan = plan_from_behaviour(strategy)
        rows = self.sequences[hand]
        total = float(plan[rows] @ self.payoff[rows])
        return total / self.deal[hand] + float(self.setup.spot.pot) / 2

    def equilibrium(self, hand: int) -> float:
        """The equilibrium's expected net with the combo ``hand``."""
        key = (hand, None)
        if key not in self.cache:
            self.cache[key] = self._expected(hand, self.setup.equilibrium)
        return self.cache[key]

    def choices(self, hand: int, chosen: Mapping[str, str]) -> float:
        """The expected net of the human's ``chosen`` actions (information set -> action)
        with ``hand``; the decisions not met are filled in by ``--auto``'s strategy or the
        equilibrium."""
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


def net_of(payoff_to_oop: Fraction, seat: int, pot: Fraction) -> Fraction:
    """A leaf's zero-sum payoff to OOP as the seat's net in chips (module docstring)."""
    return (payoff_to_oop if seat == 0 else -payoff_to_oop) + pot / 2
