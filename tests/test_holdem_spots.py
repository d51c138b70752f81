"""Hold'em spots as games: the toy games of The Mathematics of Poker written as spots, solved
on the tree route, against their published equilibria."""

from __future__ import annotations

from fractions import Fraction

import pytest

from seqform.analyses.exact import solve_exact
from seqform.analyses.solve import solve
from seqform.game.holdem.ranges import parse_range
from seqform.game.holdem.spot import spot_from_mapping
from seqform.game.holdem.spot_game import deal_total, spot_game
from seqform.game.public_explicit import explicit_game
from seqform.game.public_tree import compatible_pairs

TOL = 1e-9

# A rainbow river with no straight or flush possible: KhKd (a set) is the nuts, QcQd beats
# JhTh (jack high) and loses to the set.
BOARD = "Ks7h2d9c4s"


def _behaviour(strategy, infoset, action):
    table = strategy.table
    at = table.infosets.index(infoset)
    first = table.first_sequence[at]
    return float(strategy.probabilities[first + table.actions[at].index(action)])


@pytest.mark.parametrize("bet", [Fraction(1, 2), Fraction(1), Fraction(2)], ids=str)
def test_clairvoyance_game(bet):
    """Chen and Ankenman, *The Mathematics of Poker* (2006), ch. 11, the clairvoyance game:
    the clairvoyant player (IP, the nuts or air, equally likely) bets every nut hand and
    bluffs so that bluffs : value bets = s / (1 + s) with ``s`` the bet as a fraction of
    the pot; the bluff-catcher (OOP, who checks) calls 1 / (1 + s) of the time.  IP's EV is
    then P (1 + s/(1 + s)) / 2 with the nuts' extra calls, OOP's P − that."""
    pot = Fraction(10)
    spot = spot_from_mapping(
        {
            "board": BOARD,
            "pot": 10,
            "effective_stack": float(bet * pot),  # the one bet is all-in
            "oop_range": "QcQd",
            "ip_range": "KhKd,JhTh",
            "bet_sizes": [float(bet)],
        },
        "clairvoyance",
    )
    game = explicit_game(spot_game(spot))
    exact = solve_exact(game)
    s = bet
    bluff_ratio = s / (1 + s)  # bluffs per value bet
    call = 1 / (1 + s)
    ip_ev = (pot + bet * pot * call) / 2 + 0  # nuts: P + B·call; air: 0 (indifferent)
    assert exact.value == pot / 2 - ip_ev  # zero-sum payoff to OOP: its EV less P/2
    solution = solve(game)
    amount = f"b{int(bet * pot)}" if (bet * pot).denominator == 1 else None
    assert amount is not None
    oop, ip = solution.strategies
    assert _behaviour(oop, f"QdQc|x-{amount}", "c") == pytest.approx(float(call), abs=TOL)
    assert _behaviour(ip, "KhKd|x", amount) == pytest.approx(1, abs=TOL)
    assert _behaviour(ip, "JhTh|x", amount) == pytest.approx(float(bluff_ratio), abs=TOL)


def test_deal_weights_with_card_removal():
    first, second = parse_range("AA,AKs"), parse_range("AhKh,KK:0.5")
    # by brute force over the pairs of combos that share no card
    brute = sum(
        w0 * w1
        for c0, w0 in zip(first.combos, first.weights, strict=True)
        for c1, w1 in zip(second.combos, second.weights, strict=True)
        if not set(c0) & set(c1)
    )
    assert deal_total(first, second) == brute
    spot = spot_from_mapping(
        {
            "board": BOARD[2:] + "3c",
            "pot": 4,
            "effective_stack": 4,
            "oop_range": "AA,AKs",
            "ip_range": "AhKh,KK:0.5",
            "bet_sizes": [1],
        }
    )
    game = spot_game(spot)
    pairs = sum(
        1 for c0 in spot.ranges[0].combos for c1 in spot.ranges[1].combos if not set(c0) & set(c1)
    )
    assert compatible_pairs(*game.hands) == pairs
