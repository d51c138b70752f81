"""Hold'em spots as games: the toy games of The Mathematics of Poker written as spots, solved
on the tree route, against their published equilibria."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from structured_helpers import tree_to_structured

from seqform.forms.sequence_form import build_sequence_form
from seqform.forms.strategies import behaviour_from_mapping
from seqform.game.public.explicit import deal_probabilities, explicit_game
from seqform.game.public.tree import compatible_pairs
from seqform.holdem.game import deal_total, spot_game
from seqform.holdem.ranges import parse_range
from seqform.holdem.spot import spot_from_mapping
from seqform.routes.exact import solve_exact
from seqform.routes.solve import solve
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
    # the explicit tree's deal: each pair's probability by brute force, the product taken
    # pair by pair where deal_probabilities takes it once per pair of distinct weights
    joint = deal_probabilities(game)
    cards = [[set(row[row >= 0].tolist()) for row in hands.card_matrix] for hands in game.hands]
    assert joint == [
        [
            0 if cards[0][h0] & cards[1][h1] else Fraction(game.deal_scale) * w0 * w1
            for h1, w1 in enumerate(game.hands[1].weights)
        ]
        for h0, w0 in enumerate(game.hands[0].weights)
    ]
    assert len(set(game.hands[1].weights)) == 2 and any(map(any, joint))  # 1 and 1/2, not all 0


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
    assert structured.nash_conv == pytest.approx(solution.nash_conv, abs=1e-9)


def test_structured_lp_equals_the_trees_value(spot_instance):
    """The structured LP with two-card removal (seqform.structured.lp_model) against the
    tree route's LP on the same spot, and its payoff non-zeros counted without A."""
    from seqform.routes.structured import solve_structured
    from seqform.structured.payoff_matrix import payoff_nnz

    game, tree, form, _maps = spot_instance
    structured = solve_structured(game)
    assert structured.value == pytest.approx(solve(tree).value, abs=1e-8)
    assert structured.nash_conv < 1e-8
    assert payoff_nnz(game) == form.A.nnz


CANCELLING_RIVERS = {
    "board": "Ks7h2d9c",
    "pot": 10,
    "effective_stack": 10,
    "oop_range": "3c2c,AhAd",
    "ip_range": "4c2h",
    "bet_sizes": [1],
}


def test_payoff_nnz_leaves_out_rivers_that_cancel():
    """On Ks7h2d9c, 3c2c and 4c2h both pair their deuce with K97 kickers: a three wins,
    a four loses, every other river ties, so after the turn's all-in is called the 44
    rivers' showdowns add up to 0 in A.  payoff_nnz sums the leaves that share (s0, s1) in
    integers and must not count that entry.  payoff_entries (exact, pair by pair) agrees,
    and so does the explicit tree's A (independent code) once its float round-off is
    dropped: there the two cancelled entries (bet-call and check-bet-call) are 5.6e-17."""
    from seqform.structured.payoff_matrix import payoff_entries, payoff_nnz

    game = spot_game(spot_from_mapping(CANCELLING_RIVERS, "cancel"))
    form = build_sequence_form(explicit_game(game))
    round_off = int(np.count_nonzero(np.abs(form.A.data) < 1e-12))
    assert round_off == 2
    assert payoff_nnz(game) == len(payoff_entries(game).values) == form.A.nnz - round_off


@pytest.mark.parametrize("width", [np.int16, np.int32, np.int64, object])
def test_payoff_nnz_sums_shared_leaves_alike_in_every_integer_width(monkeypatch, width):
    """The leaves sharing ``(s0, s1)`` are summed in the narrowest integer type their sum
    fits (int16 for the runouts of one stake); forced to any other width, the count is the
    same, the cancelled entries left out as :func:`payoff_entries` leaves them out."""
    from seqform.structured import payoff_matrix
    from seqform.structured.payoff_matrix import payoff_entries, payoff_nnz

    game = spot_game(spot_from_mapping(CANCELLING_RIVERS, "cancel"))
    monkeypatch.setattr(payoff_matrix, "_sum_type", lambda bound: width)
    assert payoff_nnz(game) == len(payoff_entries(game).values)


def test_the_sum_type_is_the_narrowest_that_cannot_overflow():
    from seqform.structured.payoff_matrix import _sum_type

    assert _sum_type(0) is np.int16
    assert _sum_type(2**15 - 2) is np.int16
    assert _sum_type(2**15 - 1) is np.int32
    assert _sum_type(2**62) is np.int64
    assert _sum_type(2**63 - 1) is object


def test_exact_solution_on_both_routes(spot_instance):
    """The exact rational value of a spot: the structured route's basis re-solved in
    rationals equals the tree route's exact solve (seqform.routes.exact)."""
    from seqform.routes.structured_exact import solve_structured_exact

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


# --- the [0, 1] game, discretised (Chen and Ankenman, ch. 11) -----------------------------------


def zero_one_closed_form(pot: Fraction) -> dict[str, Fraction]:
    """The half-street [0, 1] game with one bet of 1 into a pot of P (Chen and Ankenman,
    *The Mathematics of Poker*, 2006, ch. 11: X checks dark, Y bets or checks, X calls or
    folds; the lower number wins).  Derived here by the book's method of indifference at
    each threshold, hands in [0, 1] with 0 the best:

    * Y value-bets [0, y1], bluffs [y0, 1], X calls with [0, x1], y1 < x1 < y0;
    * Y at y1 is indifferent between betting and checking: against X's callers better than
      y1 it loses 1 more, against those worse it wins 1 more: (x1 − y1) − y1 = 0, y1 = x1/2;
    * Y at y0: a bet wins P when X folds and loses 1 when X calls, a check wins P against
      X's hands worse than y0: P (1 − x1) − x1 = P (1 − y0), so y0 = x1 (P + 1) / P;
    * X at x1 beats every bluff and loses to every value bet: calling wins P + 1 against a
      bluff and loses 1 against a value bet, (1 − y0)(P + 1) = y1;
    * so x1 = 2P(P + 1) / (2(P + 1)² + P), bluffs 1 − y0 = y1 / (P + 1) (the bluffs are
      α = 1/(P + 1) of the value bets, the book's bluffing ratio with a bet of 1), and Y's
      EV is P/2 (the check-down) plus its two gains, ∫₀^y1 (x1 − 2y) dy = x1²/4 and
      ∫_y0^1 P (y − y0) dy = P (1 − y0)² / 2.

    With P = 1: x1 = 4/9, y1 = 2/9, bluffs 1/9, Y's EV 5/9, i.e. Y gains 1/18 over the
    check-down."""
    x1 = 2 * pot * (pot + 1) / (2 * (pot + 1) ** 2 + pot)
    y1 = x1 / 2
    bluffs = y1 / (pot + 1)
    ip_ev = pot / 2 + x1**2 / 4 + pot * bluffs**2 / 2
    return {"call": x1, "value": y1, "bluff": bluffs, "ip_ev": ip_ev}


def test_the_zero_one_closed_form_at_pot_one():
    # the numbers of the docstring, so that the formula and its derivation agree
    assert zero_one_closed_form(Fraction(1)) == {
        "call": Fraction(4, 9),
        "value": Fraction(2, 9),
        "bluff": Fraction(1, 9),
        "ip_ev": Fraction(5, 9),
    }


def test_the_ladder_is_a_uniform_deal_of_ordered_hands():
    """The discretised [0, 1] game's hands (seqform.holdem.toy_games): the players'
    combos share no card (every pair can be dealt: N² pairs), each player's are strictly
    ordered, and the i-th of one ties the i-th of the other (eval7's values)."""
    from seqform.holdem.cards import parse_board, parse_cards
    from seqform.holdem.strength import hand_values
    from seqform.holdem.toy_games import LADDER_BOARD, ladder_ranges, zero_one_spot

    oop, ip = ladder_ranges(82)
    board = parse_board(LADDER_BOARD)
    values = [hand_values(board, [parse_cards(c) for c in side]) for side in (oop, ip)]
    assert (np.diff(values[0]) < 0).all() and (values[0] == values[1]).all()
    assert not {c for combo in oop for c in parse_cards(combo)} & {
        c for combo in ip for c in parse_cards(combo)
    }
    game = spot_game(zero_one_spot(82, 1))
    assert compatible_pairs(*game.hands) == 82 * 82
    with pytest.raises(ValueError, match="2 to 82 hands"):
        ladder_ranges(83)


@pytest.mark.parametrize("pot", [Fraction(1, 2), Fraction(1), Fraction(2)], ids=str)
def test_the_zero_one_game_converges_to_its_closed_form(pot):
    """The [0, 1] game with N hands a player, as a spot, against the continuum's closed form
    (zero_one_closed_form).  Bounds:

    * value: |EV_N − EV| <= (P/2 + 1) / N, proven: rounding both hands to the N cells
      changes only the showdowns of two hands in one cell (probability 1/N) from a win or
      loss to a tie, at most P/2 + 1 each, and in that game a hand's payoff depends only
      on its cell, so its value is the N-hand game's;
    * frequencies (X's calls, Y's value bets and bluffs, as shares of all hands): within
      1/N, one hand's width — the resolution of the grid; measured, not proven (a
      threshold falls inside a cell, whose hand then mixes).
    """
    from seqform.holdem.toy_games import ladder_ranges, zero_one_spot

    closed = {key: float(value) for key, value in zero_one_closed_form(pot).items()}
    for hands in (9, 27, 81):
        spot = zero_one_spot(hands, pot)
        solution = solve(spot_game(spot), method="structured")
        x, y = solution.strategies
        oop, ip = ladder_ranges(hands)  # strongest first (a spot's ranges are in card order)
        calls = sum(float(x.at(f"{combo}|x-b1")["c"]) for combo in oop) / hands
        bets = [float(y.at(f"{combo}|x")["b1"]) for combo in ip]  # strongest first
        half = hands // 2  # y1 < 1/2 < y0 for these pots: the value bets are the top half's
        measured = {
            "call": calls,
            "value": sum(bets[:half]) / hands,
            "bluff": sum(bets[half:]) / hands,
            "ip_ev": float(pot) / 2 - float(solution.value),
        }
        assert abs(measured["ip_ev"] - closed["ip_ev"]) <= (float(pot) / 2 + 1) / hands
        for key in ("call", "value", "bluff"):
            assert abs(measured[key] - closed[key]) <= 1 / hands, (hands, key)
