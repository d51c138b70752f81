"""The data of a play session: the session, a hand in progress, the chips on a spot, and the
one interface (:class:`Table`) through which the engine walks Kuhn poker's tree and a hold'em
spot's public tree alike.

A hand is a walk from the deal to a leaf.  At each step the node belongs to a player (0 or
1), to chance (:data:`CHANCE`: a spot's river card) or to nobody (the hand is over).  The
engine (:mod:`seqform.play.session`) asks the table only these questions, so one loop plays
both kinds of game; a table differs in how it deals, names an information set and scores a
leaf, not in the loop.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Protocol

__all__ = ["CHANCE", "Chips", "Deal", "HandState", "PlaySession", "Table", "sample_index"]

CHANCE = -1
"""The player of a chance node (a spot's river card)."""


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


@dataclass(frozen=True)
class Chips:
    """The chips of a hold'em spot's hand so far.

    start : the pot before the spot
    stack : the effective stack behind each player before the spot
    before : what each player put in on the spot's earlier streets (the same for both: a
        street ends with the bets matched)
    street : what each player has put in on this street
    """

    start: Fraction
    stack: Fraction
    before: Fraction = Fraction(0)
    street: tuple[Fraction, Fraction] = (Fraction(0), Fraction(0))

    def after(self, player: int, action: str) -> Chips:
        """The chips once ``player`` takes ``action`` (``c`` matches, ``b5``/``r20`` bets or
        raises to the amount on this street; the others put nothing in)."""
        street = list(self.street)
        if action == "c":
            street[player] = street[1 - player]
        elif action[0] in "br":
            street[player] = Fraction(action[1:])
        return replace(self, street=(street[0], street[1]))

    def next_street(self) -> Chips:
        """The chips when a new street is dealt: this street's bets join the earlier ones."""
        return replace(self, before=self.before + self.street[0], street=(Fraction(0),) * 2)

    @property
    def pot(self) -> Fraction:
        return self.start + 2 * self.before + self.street[0] + self.street[1]

    def behind(self, player: int) -> Fraction:
        """The chips ``player`` has left to bet."""
        return self.stack - self.before - self.street[player]

    def to_call(self, player: int) -> Fraction:
        return self.street[1 - player] - self.street[player]


@dataclass(frozen=True)
class Deal:
    """A hand's deal.

    labels : each player's private cards as the game names them (``"K"``, ``"AhKh"``)
    index : each player's private hand as the table numbers it (a Kuhn card's rank, a
        combo's index in the player's range)
    cards : each player's hole cards as card numbers (a spot; empty for Kuhn poker)
    node : the first node after the deal
    """

    labels: tuple[str, str]
    index: tuple[int, int]
    cards: tuple[tuple[int, ...], tuple[int, ...]]
    node: Any


class Table(Protocol):
    """A playable game with its solved strategies: what the engine asks of Kuhn poker
    (:class:`~seqform.play.kuhn.KuhnTable`) and of a spot (:class:`~seqform.play.spot.
    SpotTable`).  Strategies are of the human's seat (``equilibrium``, ``auto``) and of the
    bot's (the other seat's equilibrium)."""

    @property
    def seat(self) -> int: ...

    @property
    def has_auto(self) -> bool: ...

    def deal(self, rng: random.Random) -> Deal: ...

    def board(self) -> tuple[int, ...]: ...

    def chips(self) -> Chips | None: ...

    def player(self, node: Any) -> int | None: ...

    def actions(self, node: Any) -> tuple[str, ...]: ...

    def infoset(self, state: HandState) -> str: ...

    def child(self, node: Any, action: str) -> Any: ...

    def is_fold(self, state: HandState, action: str) -> bool: ...

    def draw_card(self, state: HandState, rng: random.Random) -> int: ...

    def card_child(self, node: Any, card: int) -> Any: ...

    def odds(self, who: str, infoset: str) -> list[float]: ...

    def payoff(self, state: HandState) -> Fraction: ...

    def net(self, payoff: Fraction) -> Fraction: ...

    def equilibrium_expectation(self, hand: int) -> float: ...

    def choices_expectation(self, hand: int, chosen: dict[str, str]) -> float: ...


@dataclass(frozen=True)
class PlaySession:
    """A game solved once, a seat, and the session's one source of randomness.

    table : the game as played, with the bot's and the human's strategies
    seat : the human's player index (0 acts first; on a spot, OOP)
    seat_value : what the seat expects a hand under equilibrium play: on Kuhn poker the
        game's value to the seat (−1/18 in seat 1, Kuhn 1950), on a spot the seat's EV in
        chips (:func:`seqform.holdem.report.seat_ev`)
    pot : the spot's starting pot (None for Kuhn poker), for the EV's share of the pot
    scale : what the session's chips are judged beside, so that they read alike in any unit
        (:func:`~seqform.base.numbers.scaled_text`): a spot's pot, else the game's payoff
        range (:func:`seqform.certify.payoff_range`)
    auto_name : the strategy that plays for the human, or ``""`` when the human plays
    rng : every draw of the session — deals, the bot's moves, ``auto``'s moves, river cards —
        in the order of play, so that a seed replays a session.  It is the one mutable part
        of the session (a ``random.Random`` advances as it draws); everything else is data.
    """

    table: Table
    seat: int
    seat_value: float
    pot: Fraction | None
    scale: Fraction | float
    auto_name: str
    rng: random.Random

    @property
    def is_spot(self) -> bool:
        return self.pot is not None


@dataclass(frozen=True)
class HandState:
    """A hand in progress: a node of the game and what led there.

    session : the session it is played in
    number : the hand's number in the session (1 for the first)
    deal : the private cards
    node : where the hand is
    history : the actions taken, as the game labels them (``("p", "b", "b")``, ``("x", "b5")``)
    chosen : the human's choices so far, information set -> action
    board : the public cards (a spot; empty for Kuhn poker)
    chips : the chips put in (a spot; None for Kuhn poker)
    folded : the player who folded, once one has
    """

    session: PlaySession
    number: int
    deal: Deal
    node: Any
    history: tuple[str, ...] = ()
    chosen: tuple[tuple[str, str], ...] = ()
    board: tuple[int, ...] = ()
    chips: Chips | None = None
    folded: int | None = None

    @property
    def player(self) -> int | None:
        """Who acts: 0 or 1, :data:`CHANCE`, or None once the hand is over."""
        return self.session.table.player(self.node)

    @property
    def over(self) -> bool:
        return self.player is None
