"""The unit a poker game's exploitability is reported in, per thousand: one place for every
report (abstraction, re-solving, off-tree play) and its JSON document.

The poker literature writes exploitability in **mbb/g**, thousandths of the big blind per
game.  Games without blinds take a stake of the game as the big blind:

=====================  ======================================================  ===========
game                   the unit                                                chips
=====================  ======================================================  ===========
``leduc(...)``         mbb/g, the ante (1 chip) as the big blind                1
``rhode_island(...)``  mbb/g, the first round's bet (10 chips) as the big       10
                       blind (Gilpin and Sandholm 2007; its ante is 5)
a spot (``*.toml``)    mpot/g, thousandths of the starting pot                  the pot
any other game         mchip/g, thousandths of a chip                           1
=====================  ======================================================  ===========

A spot has no blinds and its pot sets the scale, so it is measured in pots, as its reports
give exploitability in % of the pot.  :func:`report_unit` reads the game's name (and a
spot's pot off its checked-down showdown: each side has put in half the pot).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from seqform.game.builtin.leduc import ANTE as LEDUC_ANTE
from seqform.game.builtin.rhode_island_sizes import BET_SIZES as RHODE_ISLAND_BETS
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal
from seqform.game.public.tree import PublicChance, PublicLeaf, PublicNode, Sign, StructuredGame
from seqform.holdem.game import is_spot_file

if TYPE_CHECKING:
    from seqform.holdem.spot import Spot

__all__ = ["RHODE_ISLAND_BIG_BLIND", "ReportUnit", "report_unit", "spot_unit", "unit_meaning"]

RHODE_ISLAND_BIG_BLIND = Fraction(RHODE_ISLAND_BETS[0])
"""Rhode Island hold'em's first-round bet, taken as its big blind (Gilpin and Sandholm 2007:
ante 5, bets of 10, 20, 20)."""


@dataclass(frozen=True)
class ReportUnit:
    """The unit of ``milli_exploitability``: thousandths of ``chips`` chips per game.

    name : ``"mbb/g"``, ``"mpot/g"`` or ``"mchip/g"``
    chips : chips in one big blind, pot or chip
    """

    name: str
    chips: Fraction

    @property
    def meaning(self) -> str:
        """The unit in words, as every report says it (:func:`unit_meaning`)."""
        return unit_meaning(self.name, float(self.chips))

    def milli(self, chips: float) -> float:
        """``chips`` per game in thousandths of the unit per game."""
        return 1000 * float(chips) / float(self.chips)


def report_unit(game: Game | StructuredGame) -> ReportUnit:
    """The unit ``game``'s exploitability is reported in (module docstring)."""
    family = game.name.partition("(")[0].strip()
    if family == "leduc":
        return ReportUnit("mbb/g", Fraction(LEDUC_ANTE))
    if family == "rhode_island":
        return ReportUnit("mbb/g", RHODE_ISLAND_BIG_BLIND)
    if is_spot_file(game.name):
        pot = _starting_pot(game)
        if pot is not None:
            return ReportUnit("mpot/g", pot)
    return ReportUnit("mchip/g", Fraction(1))


def spot_unit(spot: Spot) -> ReportUnit:
    """The unit a spot's exploitability is reported in: mpot/g, thousandths of its pot.

    :func:`report_unit` knows a spot's game only by its file name (``*.toml``); a spot built
    in Python (:func:`~seqform.holdem.spot.spot_from_mapping`) may have any name, so code
    that holds the :class:`~seqform.holdem.spot.Spot` asks here.
    """
    return ReportUnit("mpot/g", spot.pot)


def unit_meaning(name: str, chips: float) -> str:
    """``"mbb/g: thousandths of the big blind (10 chips) per game"``: a unit in words, from
    what a document holds (its ``"unit"`` and ``"unit_chips"``)."""
    amount = f"{chips:g} chip" + ("" if chips == 1 else "s")
    what = {"mbb/g": f"the big blind ({amount})", "mpot/g": f"the starting pot ({amount})"}
    return f"{name}: thousandths of {what.get(name, amount)} per game"


def _starting_pot(game: Game | StructuredGame) -> Fraction | None:
    """A spot's pot before anyone acts: twice what a checked-down showdown wins (None if the
    game has no such showdown)."""
    if isinstance(game, StructuredGame):
        stake = _public_check_down(game.root)
    else:
        stake = _tree_check_down(game.root)
    return None if stake is None else 2 * stake


def _public_check_down(node: PublicNode) -> Fraction | None:
    while not isinstance(node, PublicLeaf):
        if isinstance(node, PublicChance):
            inner = [c for c in node.children if not isinstance(c, PublicLeaf)]
            if not inner:
                return None
            node = inner[0]
        elif "x" in node.actions:
            node = node.children[node.actions.index("x")]
        else:
            return None
    return Fraction(node.rule.stake) if isinstance(node.rule, Sign) else None


def _tree_check_down(root: Node) -> Fraction | None:
    """The first non-zero payoff of a showdown reached by checking (a tie pays 0)."""
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Terminal):
            if node.payoffs[0] != 0:
                return abs(Fraction(node.payoffs[0]))
        elif isinstance(node, Chance):
            stack.extend(reversed(node.children))
        elif isinstance(node, Decision) and "x" in node.actions:
            stack.append(node.children[node.actions.index("x")])
    return None
