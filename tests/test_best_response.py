"""Best responses and the certificate: the flat path (float and exact) against the node walk."""

from fractions import Fraction

import numpy as np
import pytest
from gametrees import games, random_behaviour, random_exact_behaviour
from hypothesis import given, settings
from treewalk import walk_best_response, walk_expected_value

from seqform.certify import best_response, certify, expected_value, leaf_payoffs, respond
from seqform.forms.strategies import plan_from_behaviour, uniform_behaviour
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Terminal


@settings(max_examples=80, deadline=None)
@given(game=games)
def test_flat_certificate_equals_walk(game):
    tables = game.flat.tables
    b0, b1 = random_behaviour(tables[0], 3), random_behaviour(tables[1], 4)
    flat = certify(game, b0, b1)
    assert flat.value == pytest.approx(walk_expected_value(game, b0, b1), abs=1e-10)
    walked = (walk_best_response(game, 0, b1)[0], walk_best_response(game, 1, b0)[0])
    for fast, slow in zip(flat.best_response_values, walked, strict=True):
        assert fast == pytest.approx(slow, abs=1e-10)
    assert flat.nash_conv >= -1e-12


@settings(max_examples=60, deadline=None)
@given(game=games)
def test_exact_certificate_equals_exact_walk(game):
    tables = game.flat.tables
    b0, b1 = random_exact_behaviour(tables[0], 5), random_exact_behaviour(tables[1], 6)
    flat = certify(game, b0, b1)
    assert isinstance(flat.value, Fraction) and isinstance(flat.nash_conv, Fraction)
    assert flat.value == walk_expected_value(game, b0, b1)
    assert flat.best_response_values == (
        walk_best_response(game, 0, b1)[0],
        walk_best_response(game, 1, b0)[0],
    )
    assert flat.nash_conv >= 0


@settings(max_examples=60, deadline=None)
@given(game=games)
def test_exact_best_response_picks_the_walks_actions(game):
    # In exact arithmetic ties are real ties, so both take the first best action.
    tables = game.flat.tables
    for player in (0, 1):
        opponent = random_exact_behaviour(tables[1 - player], 7 + player)
        response = best_response(game, player, opponent)
        assert response.actions == walk_best_response(game, player, opponent)[1]


@settings(max_examples=40, deadline=None)
@given(game=games)
def test_best_response_strategy_achieves_its_value(game):
    tables = game.flat.tables
    b1 = random_behaviour(tables[1], 6)
    response = best_response(game, 0, b1)
    assert response.value == pytest.approx(walk_best_response(game, 0, b1)[0], abs=1e-10)
    # Playing the chosen actions purely achieves the best-response value.
    assert expected_value(game, response.strategy, b1) == pytest.approx(response.value, abs=1e-10)


def test_leaf_payoffs_are_a_times_y():
    # The responder's per-sequence leaf payoffs are A y (player 0) and -A^T x (player 1).
    from seqform.forms.sequence_form import build_sequence_form

    game = kuhn_poker()
    form = build_sequence_form(game)
    x, y = (plan_from_behaviour(uniform_behaviour(table)) for table in form.players)
    np.testing.assert_allclose(leaf_payoffs(game, 0, y), form.A @ y, atol=1e-15)
    np.testing.assert_allclose(leaf_payoffs(game, 1, x), -(form.A.T @ x), atol=1e-15)


def test_bounds_force_the_responders_mixture():
    # Fixing player 1's K bet at 1/2 makes the best response mix there, and worse.
    game = kuhn_poker()
    table = game.flat.tables[0]
    second = uniform_behaviour(game.flat.tables[1], exact=True)
    leaf = leaf_payoffs(game, 0, plan_from_behaviour(second))
    free = respond(table, leaf)
    k = table.index_of_infoset()["K"]
    half = Fraction(1, 2)
    bounded = respond(table, leaf, {k: ((half, half), (half, half))})
    assert bounded.strategy.at("K") == {"p": half, "b": half}
    assert free.strategy.at("K") in ({"p": 0, "b": 1}, {"p": 1, "b": 0})
    assert bounded.value <= free.value


def test_exact_certificate_on_matching_pennies_with_chance():
    # Nature flips a fair coin that only player 1 sees; player 1 guesses, player 2 (blind)
    # guesses too; player 1 wins 1 if both guesses equal the coin... a small game whose
    # best responses are found by hand: against a uniform player 2, player 1 earns 0
    # whatever she does, and player 2 against a uniform player 1 also earns 0.
    def leaves(coin: str) -> tuple:
        return tuple(
            Decision(
                1,
                "guess2",
                ("h", "t"),
                tuple(
                    Terminal((Fraction(1), Fraction(-1)))
                    if mine == theirs
                    else Terminal((Fraction(-1), Fraction(1)))
                    for theirs in "ht"
                ),
            )
            for mine in "ht"
        )

    root = Chance(
        ("h", "t"),
        (Fraction(1, 2), Fraction(1, 2)),
        tuple(Decision(0, f"saw-{c}", ("h", "t"), leaves(c)) for c in "ht"),
    )
    game = Game("pennies", root)
    uniform0 = {"saw-h": [Fraction(1, 2)] * 2, "saw-t": [Fraction(1, 2)] * 2}
    uniform1 = {"guess2": [Fraction(1, 2)] * 2}
    certificate = certify(game, uniform0, uniform1)
    assert certificate.value == 0
    assert certificate.best_response_values == (0, 0)
    assert certificate.nash_conv == 0


def test_kuhn_uniform_nashconv_float_and_exact():
    game = kuhn_poker()
    tables = game.flat.tables
    flat = certify(game, uniform_behaviour(tables[0]), uniform_behaviour(tables[1]))
    exact = certify(
        game, uniform_behaviour(tables[0], exact=True), uniform_behaviour(tables[1], exact=True)
    )
    # OpenSpiel's exploitability test: NashConv of uniform Kuhn play is 11/12.
    assert flat.nash_conv == pytest.approx(11 / 12, abs=1e-12)
    assert exact.nash_conv == Fraction(11, 12)
