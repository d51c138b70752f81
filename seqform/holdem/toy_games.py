"""The [0, 1] games of *The Mathematics of Poker* written as hold'em spots.

Chen and Ankenman (2006, ch. 11 onwards) deal each player a number uniform on [0, 1], the
lower number winning: a continuum of hands.  A spot has finitely many combos, so the
continuum is discretised: each player holds one of ``N`` hands of distinct strength, equally
likely, independently of the other, the ``i``-th strongest hand of one player tying the
``i``-th of the other — the [0, 1] game with both numbers rounded to the grid of ``N`` cells
(ties within a cell).  Written as hold'em, with no card removal between the players:

* the board is :data:`LADDER_BOARD` (``Ks7h2d9c4s``: at most two cards of a suit, so no
  flush, and the suits of the hole cards do not matter);
* OOP's combos use only clubs and diamonds, IP's only hearts and spades, so no OOP combo
  shares a card with an IP combo and the deal is uniform over all ``N × N`` pairs
  (:func:`seqform.holdem.game.deal_total`);
* eval7 (:mod:`seqform.holdem.strength`) values every combo of each player's cards;
  82 values are made by both players' cards, and :func:`ladder_ranges` picks ``N`` of them,
  evenly spread, with one combo per value for each player.

Only the order of the hands matters to the game, so any ``N`` such values give the same
discretised game.  :func:`zero_one_spot` writes the half-street [0, 1] game with one bet:
X (OOP) checks dark, Y (IP) bets 1 into a pot of ``P`` or checks, X calls or folds.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import combinations

from seqform.holdem.cards import combo_text, parse_board
from seqform.holdem.spot import Spot, spot_from_mapping
from seqform.holdem.strength import hand_values

__all__ = ["LADDER_BOARD", "LADDER_SUITS", "ladder_ranges", "zero_one_spot"]

LADDER_BOARD = "Ks7h2d9c4s"
LADDER_SUITS = ("cd", "hs")
"""The suits of OOP's and IP's cards: disjoint, so the players' combos never clash."""


def _by_value(board: tuple[int, ...], suits: str) -> dict[int, tuple[int, int]]:
    """eval7's value -> the first combo (in card order) of ``suits``' cards making it."""
    cards = [card for card in range(52) if card not in board and "cdhs"[card % 4] in suits]
    combos = [(high, low) for low, high in combinations(cards, 2)]
    found: dict[int, tuple[int, int]] = {}
    for combo, value in zip(combos, hand_values(board, combos), strict=True):
        found.setdefault(int(value), combo)
    return found


def ladder_ranges(hands: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """OOP's and IP's combos of the discretised [0, 1] game (module docstring): ``hands``
    combos each, strongest first; OOP's ``i``-th and IP's ``i``-th tie on the board.

    Raises
    ------
    ValueError
        For fewer than 2 hands or more than both players' cards make distinct values (82).
    """
    board = parse_board(LADDER_BOARD)
    first, second = (_by_value(board, suits) for suits in LADDER_SUITS)
    shared = sorted(set(first) & set(second), reverse=True)
    if not 2 <= hands <= len(shared):
        raise ValueError(
            f"a [0, 1] game as a spot has 2 to {len(shared)} hands a player, not {hands}"
        )
    picked = [shared[round(i * (len(shared) - 1) / (hands - 1))] for i in range(hands)]
    return (
        tuple(combo_text(first[value]) for value in picked),
        tuple(combo_text(second[value]) for value in picked),
    )


def zero_one_spot(hands: int, pot: Fraction | int) -> Spot:
    """The half-street [0, 1] game (Chen and Ankenman 2006, ch. 11) with ``hands`` hands a
    player: X (OOP) checks dark, Y (IP) may bet 1 into a pot of ``pot``, X calls or folds;
    no raise, no other size (module docstring)."""
    pot = Fraction(pot)
    if pot <= 0:
        raise ValueError(f"the pot must be greater than 0, not {pot}")
    oop, ip = ladder_ranges(hands)
    spot = spot_from_mapping(
        {
            "board": LADDER_BOARD,
            "pot": 1,
            "effective_stack": 1,
            "oop_range": ",".join(oop),
            "ip_range": ",".join(ip),
            "oop_bet_sizes": [],
            "ip_bet_sizes": [1],
            "max_raises": 0,
            "all_in": False,
        },
        f"zero_one(hands={hands}, pot={pot})",
    )
    # the pot and the bet of 1 (as a fraction of the pot) exact, whatever the pot
    return replace(spot, pot=pot, bet_sizes=((), (1 / pot,)))
