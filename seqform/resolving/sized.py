"""Games whose bets have sizes: what an off-tree action is measured by.

Action translation and nested re-solving (:mod:`seqform.resolving.translation`,
:mod:`seqform.resolving.off_tree`) compare a full game with an *abstract* one that has fewer
bet sizes.  Both must be public tree × private hands (:mod:`seqform.game.public.tree`) with
the same hands, and every bet or raise must have a *size*, a fraction of the pot, read off
its public decision (Ganzfried and Sandholm, IJCAI 2013, measure sizes in pots):

* a bet of ``N`` chips into a pot of ``P`` is ``N / P``;
* a raise that adds ``N`` chips beyond the call is ``N / (P + call)``, a fraction of the pot
  after the call (the convention of the spot files' ``raise_sizes``).

Two families are read: hold'em spot files (:mod:`seqform.holdem.spot`: ``bN`` bets ``N`` on
the street, ``rN`` raises to ``N``), and Leduc hold'em with ``bets``
(:func:`seqform.game.builtin.leduc.leduc_poker`: ``r`` or ``rN`` adds the round's own size
or ``N`` beyond the call).  In both a history names each action by its amount, so the
abstract game's information sets keep their names in the full game, and a blueprint of the
abstract game is read into the full game by name.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from seqform.game.builtin.leduc import ANTE, BET_SIZES, leduc_structured
from seqform.game.builtin.registry import parse_game_spec
from seqform.game.model import Game
from seqform.game.public.explicit import explicit_game
from seqform.game.public.tree import PublicDecision, StructuredGame
from seqform.holdem import (
    ReportUnit,
    Spot,
    is_spot_file,
    read_spot,
    report_unit,
    spot_game,
    spot_unit,
)
from seqform.resolving.subgames import ResolveError

__all__ = ["SizeReader", "SizedGame", "leduc_sized", "load_sized_game", "spot_sized"]

SizeReader = Callable[[PublicDecision], tuple[Fraction | None, ...]]
"""Each action's size at a public decision, a fraction of the pot (None: not a bet)."""


@dataclass(frozen=True)
class SizedGame:
    """A structured game and the sizes of its bets (module docstring).

    report : the unit exploitability is reported in per thousand
        (:mod:`seqform.holdem.units`: mbb/g for Leduc, mpot/g for a spot)
    """

    structured: StructuredGame
    sizes: SizeReader = field(repr=False)
    report: ReportUnit

    @cached_property
    def game(self) -> Game:
        """The explicit tree (built once)."""
        return explicit_game(self.structured)

    @property
    def name(self) -> str:
        """The game's name."""
        return self.structured.name

    @property
    def unit(self) -> str:
        """The unit's name (``"mbb/g"``, ``"mpot/g"``)."""
        return self.report.name

    @property
    def unit_chips(self) -> Fraction:
        """Chips in one unit (the big blind, or the spot's pot)."""
        return self.report.chips


def _token_amount(token: str) -> Fraction:
    return Fraction(token[1:])


def spot_sized(spot: Spot) -> SizedGame:
    """A spot's game and its bets' sizes; exploitability in thousandths of the spot's pot."""

    def sizes(node: PublicDecision) -> tuple[Fraction | None, ...]:
        fields = node.history.split("|")
        pot = spot.pot
        streets = fields[1::2]  # "|x-x|8h|b10": the turn's betting, the card, the river's
        for street in streets[:-1]:
            closed = _spot_put_in(street)
            pot += closed[0] + closed[1]
        put_in = _spot_put_in(streets[-1])
        player = node.player
        facing, own = put_in[1 - player], put_in[player]
        now = pot + put_in[0] + put_in[1]
        found: list[Fraction | None] = []
        for action in node.actions:
            if action.startswith("b"):
                found.append(_token_amount(action) / now)
            elif action.startswith("r"):
                found.append((_token_amount(action) - facing) / (now + facing - own))
            else:
                found.append(None)
        return tuple(found)

    return SizedGame(spot_game(spot), sizes, spot_unit(spot))


def _spot_put_in(street: str) -> list[Fraction]:
    """What each player has put in on a street after its actions ``x-b5-r20``."""
    put_in = [Fraction(0), Fraction(0)]
    for position, token in enumerate(filter(None, street.split("-"))):
        player = position % 2
        if token[0] in "br":
            put_in[player] = _token_amount(token)
        elif token == "c":
            put_in[player] = put_in[1 - player]
    return put_in


_LEDUC_TOKEN = re.compile(r"r\d*|[cf]")


def _leduc_round(betting: str, round_index: int, put_in: list[int]) -> None:
    """Apply a round's actions (``cr8r``) to ``put_in``, in place."""
    for position, token in enumerate(_LEDUC_TOKEN.findall(betting)):
        player = position % 2
        call = put_in[1 - player] - put_in[player]
        if token == "c":
            put_in[player] += call
        elif token.startswith("r"):
            put_in[player] += call + (int(token[1:]) if token[1:] else BET_SIZES[round_index])


def leduc_sized(
    ranks: int = 3,
    suits: int = 2,
    bets: tuple[int | tuple[int, ...], int | tuple[int, ...]] | None = None,
) -> SizedGame:
    """Leduc hold'em with ``bets`` (:func:`~seqform.game.builtin.leduc.leduc_poker`) and its
    bets' sizes; exploitability in mbb/g with the ante (1 chip) as the big blind."""

    def sizes(node: PublicDecision) -> tuple[Fraction | None, ...]:
        fields = node.history.split("|")  # "|cr|Qh|r8": round 1, the public card, round 2
        put_in = [ANTE, ANTE]
        _leduc_round(fields[1], 0, put_in)
        round_index = 0
        if len(fields) > 2:
            _leduc_round(fields[3], 1, put_in)
            round_index = 1
        call = abs(put_in[0] - put_in[1])
        pot = put_in[0] + put_in[1] + call
        found: list[Fraction | None] = []
        for action in node.actions:
            if action.startswith("r"):
                added = int(action[1:]) if action[1:] else BET_SIZES[round_index]
                found.append(Fraction(added, pot))
            else:
                found.append(None)
        return tuple(found)

    structured = leduc_structured(ranks, suits, bets)
    return SizedGame(structured, sizes, report_unit(structured))


def load_sized_game(spec: str | os.PathLike[str]) -> SizedGame:
    """A spot file (``*.toml``) or ``leduc(...)`` as a :class:`SizedGame`.

    Raises
    ------
    ResolveError
        For any other game: off-tree actions need bets with sizes.
    SpotFileError, GameParameterError, OSError
        For a spot file or parameters that cannot be read.
    """
    if is_spot_file(spec):
        return spot_sized(read_spot(spec))
    text = os.fspath(spec)
    name, parameters = parse_game_spec(text)
    if name != "leduc" or "suit_isomorphism" in parameters:
        raise ResolveError(
            f"game {text!r}: off-tree actions need bets with sizes: a spot file (*.toml) or "
            "leduc(ranks=..., suits=..., bets=...)"
        )
    try:
        return leduc_sized(**parameters)  # type: ignore[arg-type]
    except TypeError as exc:
        raise ResolveError(f"game {text!r}: {exc}") from None
