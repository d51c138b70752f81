"""A solved spot as one row of an aggregate report: what PioSOLVER's, GTO+'s and Desktop
Postflop's reports over many boards show for each board.

Per board: the board's texture (:mod:`seqform.holdem.texture`); per player the EV in chips
and as a share of the pot (:func:`seqform.holdem.report.seat_ev`: the chips a player expects
to take from the pot and the bets, less what it puts in on the street; the two add up to the
pot), the range's *equity* and its *equity realisation*; and OOP's first decision, each
action's frequency and the EV of the combos that take it.

Equity
    the range's showdown equity against the other range: each combo's
    (:func:`seqform.holdem.equity.showdown_equities`: the share of the pot it wins when both
    check down, ties counting one half, with card removal, by exact enumeration of the turn
    and river cards still to come) averaged with the combo's probability in the deal
    (:func:`range_equity`).  The two players' equities add up to 1.
EQR (equity realisation)
    ``EQR = EV / (equity × pot)``, the EV as a share of the pot over the equity: how much of
    its equity a range wins with the betting to come (GTO Wizard, "Equity Realization",
    blog.gtowizard.com/equity-realization: "multiplying a hand's equity times its EQR" gives
    its share of the pot; PioSOLVER's and GTO Wizard's aggregate reports print it beside EV
    and equity).  Over 1 the range wins more than its equity (position, fold equity), under
    1 less; undefined (None) for a range with no equity.
An action's EV
    the EV in chips of OOP's combos that take the action, each weighted by its probability
    in the deal times its probability of taking it, and each playing on by its own strategy:
    ``EV(a) = pot / 2 + Σ_h Σ_{s ⊒ (h, a)} x(s) (A y)(s) / f(a)``, with ``x`` OOP's
    realization plan, ``A y`` OOP's payoff per sequence against IP's plan (the leaf
    payoffs of the certificate, :func:`seqform.structured.responses.leaf_payoffs`; they
    carry the deal's probabilities), ``s ⊒ (h, a)`` the sequences that start with ``a``
    for combo ``h`` and ``f(a)`` the action's frequency
    (:func:`seqform.holdem.report.action_frequencies`).  The frequencies times these EVs
    add up to OOP's EV.  An action no combo takes has no EV (None): the solver leaves such
    an action's continuation unplayed, so no number would mean anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy, infoset_depths, plan_from_behaviour
from seqform.game.public.tree import StructuredGame, hands_clash_free
from seqform.holdem.equity import showdown_equities
from seqform.holdem.report import action_frequencies, seat_ev
from seqform.holdem.spot import Spot
from seqform.holdem.texture import BoardTexture, board_texture
from seqform.structured.responses import leaf_payoffs

__all__ = ["CHECK", "RootAction", "SpotAggregate", "range_equity", "spot_aggregate"]

CHECK = "x"
"""The check at OOP's first decision (:mod:`seqform.holdem.betting`); every other action there
is a bet."""

FREQUENCY_FLOOR = 1e-9
"""An action taken by less of the range than this has no EV (a float LP's zero is a few
1e-12)."""


@dataclass(frozen=True)
class RootAction:
    """One action of OOP's first decision.

    action : its label (``"x"``, ``"b5"``: a bet of 5 chips)
    size : the bet as a share of the pot (0.5 for half the pot), None for the check
    all_in : whether the bet is the whole effective stack
    frequency : the share of OOP's range taking it (deal-weighted, module docstring)
    ev : the EV in chips of the combos taking it, None when none does
    """

    action: str
    size: float | None
    all_in: bool
    frequency: float
    ev: float | None

    @property
    def name(self) -> str:
        """The action as aggregate reports head its column: ``"check"``, ``"bet 50%"`` (its
        size in % of the pot, four significant digits), ``"all-in"``."""
        if self.size is None:
            return "check"
        return "all-in" if self.all_in else f"bet {100 * self.size:.4g}%"


@dataclass(frozen=True)
class SpotAggregate:
    """A solved spot as an aggregate report's row (module docstring).

    pot : chips in the pot before the street
    ev : OOP's and IP's EV in chips (they add up to ``pot``)
    equity : OOP's and IP's range equity, fractions (they add up to 1)
    actions : OOP's first decision, action by action
    texture : the board's texture labels
    """

    pot: float
    ev: tuple[float, float]
    equity: tuple[float, float]
    actions: tuple[RootAction, ...]
    texture: BoardTexture

    def ev_pot(self, player: int) -> float:
        """A player's EV as a share of the pot (0: OOP, 1: IP)."""
        return self.ev[player] / self.pot

    def eqr(self, player: int) -> float | None:
        """A player's equity realisation, ``EV / (equity × pot)``; None without equity."""
        equity = self.equity[player]
        return None if equity <= 0 else self.ev[player] / (equity * self.pot)

    @property
    def bet_frequency(self) -> float:
        """The share of OOP's range that bets (any size) at its first decision."""
        return sum(found.frequency for found in self.actions if found.action != CHECK)


def range_equity(game: StructuredGame, player: int) -> float:
    """``player``'s range equity against the other range (module docstring), a fraction."""
    own, other = game.hands[player], game.hands[1 - player]
    free = hands_clash_free(own, other).astype(float)
    deal = np.array([float(w) for w in own.weights]) * (
        free @ np.array([float(w) for w in other.weights])
    )
    equities = showdown_equities(game, player)
    held = deal > 0
    return float(deal[held] @ equities[held] / deal[held].sum())


def _root_sequences(strategy: BehaviouralStrategy) -> np.ndarray:
    """Per sequence of the player's table, the sequence at its first decision it starts
    with (0 for the empty sequence)."""
    table = strategy.table
    depth = infoset_depths(table)
    root = np.arange(table.num_sequences)
    root[0] = 0
    for level in range(1, int(depth.max(initial=0)) + 1):
        sequences = 1 + np.flatnonzero(depth[table.sequence_infoset[1:]] == level)
        parents = table.parent_sequence[table.sequence_infoset[sequences]]
        root[sequences] = root[parents]
    return root


def _root_evs(
    game: StructuredGame, strategies: tuple[BehaviouralStrategy, BehaviouralStrategy]
) -> dict[str, float]:
    """Per action of OOP's first decision, ``Σ_h Σ_{s ⊒ (h, a)} x(s) (A y)(s)`` (module
    docstring), in the game's payoffs."""
    first, second = strategies[0].to_float(), strategies[1].to_float()
    x, y = plan_from_behaviour(first), plan_from_behaviour(second)
    weighted = x * leaf_payoffs(game, 0, y)
    root = _root_sequences(first)
    per_root = np.bincount(root, weights=weighted, minlength=first.table.num_sequences)
    totals: dict[str, float] = {}
    labels = first.table.sequence_action
    for sequence in np.flatnonzero(root == np.arange(len(root)))[1:]:
        totals[labels[sequence]] = totals.get(labels[sequence], 0.0) + per_root[sequence]
    return totals


def spot_aggregate(
    game: StructuredGame,
    spot: Spot,
    value: float,
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy],
) -> SpotAggregate:
    """The aggregate row of ``spot`` solved to ``value`` (OOP's, in the game's payoffs) with
    ``strategies`` (module docstring).

    Raises
    ------
    ValueError
        When OOP has no first decision (not a spot's game).
    """
    found = action_frequencies(game, strategies[0], "")
    if found is None:
        raise ValueError(f"{game.name}: OOP does not act first; not a spot's game")
    totals = _root_evs(game, strategies)
    pot = spot.pot
    actions = tuple(
        RootAction(
            action=action,
            size=None if action == CHECK else float(_amount(action) / pot),
            all_in=action != CHECK and _amount(action) == spot.effective_stack,
            frequency=frequency,
            ev=seat_ev(totals[action] / frequency, pot, 0) if frequency > FREQUENCY_FLOOR else None,
        )
        for action, frequency in zip(found.actions, found.frequencies, strict=True)
    )
    oop_equity = range_equity(game, 0)
    return SpotAggregate(
        pot=float(pot),
        ev=(seat_ev(value, pot, 0), seat_ev(value, pot, 1)),
        equity=(oop_equity, 1.0 - oop_equity),
        actions=actions,
        texture=board_texture(spot.board),
    )


def _amount(action: str) -> Fraction:
    """The chips of a bet label (``"b7.5"``, ``"b10/3"``: :func:`~seqform.holdem.betting.
    amount_text`)."""
    return Fraction(action[1:])
