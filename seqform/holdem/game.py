"""A hold'em spot as a structured game: the public betting tree × both players' combos.

A river spot is one street of betting (:mod:`seqform.holdem.betting`) over the five-card
board; a turn spot is the turn's betting, then the river card as a public chance node (each
card not on the board and not in either hand with probability 1/44: 52 cards less 4 on the
board and 4 in the hands), then the river's betting.  Each player's private hands are the
combos of its range (labels ``"AhKh"``, weights the range's), each holding two cards: a deal
``(h0, h1)`` has probability ``w0[h0] w1[h1] / Z`` when the combos share no card (``Z`` the
sum of ``w0 w1`` over such pairs, exact) — the card removal of every river solver.

Payoffs.  A spot is *constant-sum* in the convention players use: with ``P`` the pot at the
start of the spot, OOP's EV plus IP's EV is ``P`` (each player's EV is the share of the pot
it wins, less what it puts in during the spot).  seqform solves the zero-sum game whose
payoff to OOP is that EV less ``P/2``, so the game's value ``v`` gives OOP's EV
``P/2 + v`` and IP's ``P/2 − v``.  With ``c0, c1`` what each player has put in since the
spot began:

* OOP folds: ``−c0 − P/2``; IP folds: ``P/2 + c1`` (:class:`~seqform.game.public.tree.Constant`);
* a showdown (``c0 = c1 = c``): ``(P/2 + c) · sign(l0 − l1)``
  (:class:`~seqform.game.public.tree.Sign` over the combos' levels on the final board, from
  :func:`~seqform.holdem.strength.showdown_levels`).
"""

from __future__ import annotations

import os
from fractions import Fraction

import numpy as np

from seqform.base.limits import LIMITS
from seqform.game.model import Game
from seqform.game.public.explicit import explicit_game, ordered_deal
from seqform.game.public.tree import (
    Constant,
    Hands,
    PublicChance,
    PublicDecision,
    PublicLeaf,
    PublicNode,
    Sign,
    StructuredGame,
)
from seqform.holdem.betting import Bet, StreetEnd, street_tree
from seqform.holdem.cards import card_text, combo_text
from seqform.holdem.ranges import HandRange
from seqform.holdem.spot import Spot, read_spot
from seqform.holdem.strength import showdown_levels

__all__ = [
    "SPOT_TREE_NODES",
    "deal_total",
    "is_spot_file",
    "load_spot_game",
    "load_spot_tree",
    "spot_game",
]

UNSEEN_RIVER_CARDS = 44  # 52 cards less 4 on a turn board and 4 in the two hands


def _hands(hand_range: HandRange) -> Hands:
    return Hands(
        labels=tuple(combo_text(combo) for combo in hand_range.combos),
        weights=tuple(hand_range.weights),
        cards=np.asarray(hand_range.combos, dtype=np.int64).reshape(-1, 2),
    )


def deal_total(first: HandRange, second: HandRange) -> Fraction:
    """``Z = sum of w0[h0] w1[h1]`` over the pairs of combos that share no card, exact, by
    inclusion and exclusion over cards: all pairs, less the pairs sharing each card, plus
    the pairs that are the same two cards (counted once per card above)."""
    total = sum(first.weights, Fraction(0)) * sum(second.weights, Fraction(0))
    by_card = [Fraction(0)] * 52, [Fraction(0)] * 52
    for side, hand_range in enumerate((first, second)):
        for combo, weight in zip(hand_range.combos, hand_range.weights, strict=True):
            for card in combo:
                by_card[side][card] += weight
    total -= sum(a * b for a, b in zip(*by_card, strict=True))
    twins = dict(zip(second.combos, second.weights, strict=True))
    pairs = zip(first.combos, first.weights, strict=True)
    total += sum(weight * twins[combo] for combo, weight in pairs if combo in twins)
    return total


class _Builder:
    """Writes the public tree of a spot (module docstring)."""

    def __init__(self, spot: Spot) -> None:
        self.spot = spot
        self.half_pot = spot.pot / 2
        self.levels: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}

    def street(
        self, board: tuple[int, ...], before: Fraction, prefix: str, last: bool
    ) -> PublicDecision:
        """One street's betting from ``before`` chips each already put in; ``prefix`` is
        the public history so far (for the information sets' names)."""
        spot = self.spot
        tree = street_tree(
            spot.pot + 2 * before,
            spot.effective_stack - before,
            spot.bet_sizes,
            spot.raise_sizes,
            spot.max_raises,
            all_in=spot.all_in,
        )
        return self._decision(tree, board, before, prefix, last)

    def _decision(
        self, node: Bet, board: tuple[int, ...], before: Fraction, prefix: str, last: bool
    ) -> PublicDecision:
        children: list[PublicNode] = []
        for action, child in zip(node.actions, node.children, strict=True):
            if isinstance(child, Bet):
                children.append(self._decision(child, board, before, prefix, last))
            else:
                history = "-".join(filter(None, (node.history, action)))
                children.append(self._end(child, board, before, f"{prefix}{history}", last))
        return PublicDecision(node.player, node.actions, tuple(children), f"{prefix}{node.history}")

    def _end(
        self, end: StreetEnd, board: tuple[int, ...], before: Fraction, history: str, last: bool
    ) -> PublicNode:
        put_in = (before + end.put_in[0], before + end.put_in[1])
        if end.folded == 0:
            return PublicLeaf(Constant(-put_in[0] - self.half_pot))
        if end.folded == 1:
            return PublicLeaf(Constant(self.half_pot + put_in[1]))
        if last or len(board) == 5:
            return self._showdown(board, put_in[0])
        return self._river(board, put_in[0], history, end.all_in)

    def _river(
        self, board: tuple[int, ...], before: Fraction, history: str, all_in: bool
    ) -> PublicChance:
        cards = tuple(card for card in range(52) if card not in board)
        children: list[PublicNode] = []
        for card in cards:
            river = (*board, card)
            if all_in:
                children.append(self._showdown(river, before))
            else:
                children.append(self.street(river, before, f"{history}|{card_text(card)}|", True))
        return PublicChance(
            label="river",
            outcomes=tuple(card_text(card) for card in cards),
            cards=cards,
            probability=Fraction(1, UNSEEN_RIVER_CARDS),
            children=tuple(children),
        )

    def _showdown(self, board: tuple[int, ...], put_in: Fraction) -> PublicLeaf:
        return PublicLeaf(Sign(self.half_pot + put_in), self._levels(board))

    def _levels(self, board: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Both players' levels on a five-card board, one array pair per board (shared by
        its leaves); combos that hold a board card get level 0 (they never reach it)."""
        key = tuple(sorted(board))
        if key not in self.levels:
            public = set(board)
            live = [
                [i for i, combo in enumerate(r.combos) if public.isdisjoint(combo)]
                for r in self.spot.ranges
            ]
            ranges = self.spot.ranges
            found = showdown_levels(
                board, *([r.combos[i] for i in rows] for r, rows in zip(ranges, live, strict=True))
            )
            pair = []
            for hand_range, rows, levels in zip(self.spot.ranges, live, found, strict=True):
                full = np.zeros(len(hand_range), dtype=np.int64)
                full[rows] = levels
                pair.append(full)
            self.levels[key] = (pair[0], pair[1])
        return self.levels[key]


def spot_game(spot: Spot) -> StructuredGame:
    """The structured game of a spot (module docstring)."""
    root = _Builder(spot).street(spot.board, Fraction(0), "|", len(spot.board) == 5)
    return StructuredGame(
        name=spot.name,
        hands=(_hands(spot.ranges[0]), _hands(spot.ranges[1])),
        deal_scale=1 / deal_total(*spot.ranges),
        root=root,
        write_deal=ordered_deal("deal", ","),
        description=f"{spot.street} spot on {''.join(card_text(c) for c in spot.board)}",
    )


SPOT_TREE_NODES = LIMITS.spot_tree_nodes  # why: seqform.base.limits


def is_spot_file(spec: object) -> bool:
    """Whether ``spec`` names a spot file (``*.toml``)."""
    return isinstance(spec, str | os.PathLike) and os.fspath(spec).lower().endswith(".toml")


def load_spot_game(path: str | os.PathLike[str]) -> StructuredGame:
    """The structured game of the spot file at ``path`` (:func:`read_spot`, :func:`spot_game`).

    Raises
    ------
    SpotFileError, CardError
        For a file that is not a spot, naming the file and the key.
    OSError
        For a file that cannot be read.
    """
    return spot_game(read_spot(path))


def load_spot_tree(path: str | os.PathLike[str]) -> Game:
    """The explicit game tree of the spot file at ``path``, refused beyond
    :data:`SPOT_TREE_NODES` nodes (``solve`` takes the structured route without it)."""
    return explicit_game(
        load_spot_game(path), max_nodes=SPOT_TREE_NODES, instead="solve (the structured route)"
    )
