"""Hold'em spots as games: the toy games of The Mathematics of Poker written as spots, solved
on the tree route, against their published equilibria."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from structured_helpers import tree_to_structured

from seqform.analyses.exact import solve_exact
from seqform.analyses.solve import solve
from seqform.forms.sequence_form import build_sequence_form
from seqform.forms.strategies import behaviour_from_mapping
from seqform.game.holdem.ranges import parse_range
from seqform.game.holdem.spot import spot_from_mapping
from seqform.game.holdem.spot_game import deal_total, spot_game
from seqform.game.public_explicit import explicit_game
from seqform.game.public_tree import compatible_pairs
from seqform.structured.products import payoff_to_first, payoff_to_second
from seqform.structured.responses import certify as certify_structured
from seqform.structured.responses import sequence_tables

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


SPOTS = {
    # ranges that share cards, so card removal between two-card hands is exercised
    "river": {
        "board": BOARD,
        "pot": 10,
        "effective_stack": 30,
        "oop_range": "AA,AKs,QQ:0.5,JhTh",
        "ip_range": "AhKh,KK:0.25,AQo,QJs",
        "bet_sizes": [0.5],
        "raise_sizes": [1],
        "max_raises": 1,
    },
    "turn": {
        "board": "Ks7h2d9c",
        "pot": 6,
        "effective_stack": 6,
        "oop_range": "AA,AhKh,Qc9d",
        "ip_range": "AsKs,KhQh:0.5,9h8h",
        "bet_sizes": [1],
    },
}


@pytest.fixture(scope="module", params=list(SPOTS))
def spot_instance(request):
    game = spot_game(spot_from_mapping(SPOTS[request.param], request.param))
    tree = explicit_game(game)
    return game, tree, build_sequence_form(tree), tree_to_structured(game, tree)


def test_structured_products_equal_the_trees_matrix(spot_instance):
    """A y and Aᵀ x by running sums with two-card removal (seqform.structured.products)
    against the compiled tree's sequence form, which shares no code with them."""
    game, _tree, form, (rows, columns) = spot_instance
    sizes = [table.num_sequences for table in sequence_tables(game)]
    rng = np.random.default_rng(3)
    for _ in range(2):
        x, y = rng.normal(size=len(rows)), rng.normal(size=len(columns))
        # sequences the tree never reaches (every opponent combo blocked) are 0
        y_structured, x_structured = np.zeros(sizes[1]), np.zeros(sizes[0])
        y_structured[columns], x_structured[rows] = y, x
        np.testing.assert_allclose(
            payoff_to_first(game, y_structured)[rows], form.A @ y, atol=1e-12
        )
        np.testing.assert_allclose(
            payoff_to_second(game, x_structured)[columns], form.A.T @ x, atol=1e-12
        )


def test_structured_certificate_agrees_with_the_tree(spot_instance):
    """NashConv of the tree route's equilibrium measured without the tree
    (seqform.structured.responses) equals the tree's own certificate."""
    game, tree, _form, _maps = spot_instance
    solution = solve(tree)
    tables = sequence_tables(game)
    strategies = []
    for player in (0, 1):
        # information sets the tree never reaches (every opponent combo blocked) play uniform
        table, played = tables[player], solution.strategies[player].as_dict()
        mapping = {
            name: played.get(name, {a: 1 / len(actions) for a in actions})
            for name, actions in zip(table.infosets, table.actions, strict=True)
        }
        strategies.append(behaviour_from_mapping(table, mapping))
    structured = certify_structured(game, *strategies)
    assert structured.value == pytest.approx(solution.value, abs=1e-9)
    assert structured.exploitability == pytest.approx(solution.exploitability, abs=1e-9)


def test_structured_lp_equals_the_trees_value(spot_instance):
    """The sparsified LP with two-card removal (seqform.structured.factored_lp) against the
    tree route's LP on the same spot, and its payoff non-zeros counted without A."""
    from seqform.analyses.structured import solve_structured
    from seqform.structured.payoff_matrix import payoff_nnz

    game, tree, form, _maps = spot_instance
    structured = solve_structured(game)
    assert structured.value == pytest.approx(solve(tree).value, abs=1e-8)
    assert structured.exploitability < 1e-8
    assert payoff_nnz(game) == form.A.nnz


def test_exact_solution_on_both_routes(spot_instance):
    """The exact rational value of a spot: the structured route's basis re-solved in
    rationals equals the tree route's exact solve (seqform.analyses.exact)."""
    from seqform.analyses.structured_exact import solve_structured_exact

    game, tree, _form, _maps = spot_instance
    structured = solve_structured_exact(game)
    assert structured.certified
    assert structured.value == solve_exact(tree).value


# --- the AKQ game (Chen and Ankenman, The Mathematics of Poker, 2006, ch. 13) -----------------


@pytest.mark.parametrize("pot", [2, 3, 5])
def test_the_akq_half_street_game(pot):
    # One card each from {A, K, Q} (written as the pairs AhAd, KhKd, QhQd, which clash with
    # each other, on a board that pairs and connects with none of them); X (OOP) checks dark,
    # Y (IP) may bet 1 into a pot of P, X calls or folds.  The book's solution: Y bets A,
    # bluffs Q with frequency 1 / (P + 1) (X's K indifferent: q (P + 1) = 1) and checks K;
    # X calls with K with frequency (P − 1) / (P + 1) (Y's Q indifferent) and always with A.
    spot = spot_from_mapping(
        {
            "board": "2c3d7h8sJc",
            "pot": pot,
            "effective_stack": 1,
            "oop_range": "AhAd,KhKd,QhQd",
            "ip_range": "AhAd,KhKd,QhQd",
            "oop_bet_sizes": [],
            "ip_bet_sizes": [1],  # a pot-sized bet, capped at the stack of 1
            "max_raises": 0,
            "all_in": False,
        },
        "akq",
    )
    solution = solve(spot_game(spot), method="structured", exact=True)
    y, x = solution.strategies[1], solution.strategies[0]
    bet = "b1"
    assert y.at("AhAd|x")[bet] == 1
    assert y.at("QhQd|x")[bet] == Fraction(1, pot + 1)
    assert y.at("KhKd|x")[bet] == 0
    assert x.at("KhKd|x-b1")["c"] == Fraction(pot - 1, pot + 1)
    assert x.at("AhAd|x-b1")["c"] == 1
    assert x.at("AhAd|") == {"x": 1}  # X has no bet: it checks dark
