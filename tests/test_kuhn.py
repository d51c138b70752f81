"""Kuhn poker solved: the value and the equilibria known since Kuhn (1950)."""

from fractions import Fraction

import numpy as np
import pytest

from seqform.certify import certify, expected_value
from seqform.forms.strategies import uniform_behaviour
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.routes.solve import solve

KUHN_VALUE = -1 / 18  # Kuhn (1950); Wikipedia "Kuhn poker"
SOLVERS = [("highs", "simplex"), ("highs", "ipm"), ("cvxpy", "simplex")]


@pytest.fixture(scope="module", params=SOLVERS, ids=["-".join(s) for s in SOLVERS])
def solution(request):
    backend, algorithm = request.param
    return solve(kuhn_poker(), backend=backend, solver=algorithm)


def test_value(solution):
    assert solution.value == pytest.approx(KUHN_VALUE, abs=1e-9)


def test_player_two_unique_equilibrium(solution):
    # Kuhn (1950); Wikipedia "Kuhn poker": player 2's equilibrium is unique.
    b = solution.strategies[1]
    assert b.at("Kp")["b"] == pytest.approx(1, abs=1e-6)  # K: always bet after a check
    assert b.at("Kb")["b"] == pytest.approx(1, abs=1e-6)  # K: always call
    assert b.at("Qp")["b"] == pytest.approx(0, abs=1e-6)  # Q: never bet after a check
    assert b.at("Qb")["b"] == pytest.approx(1 / 3, abs=1e-6)  # Q: call 1/3
    assert b.at("Jp")["b"] == pytest.approx(1 / 3, abs=1e-6)  # J: bluff 1/3 after a check
    assert b.at("Jb")["b"] == pytest.approx(0, abs=1e-6)  # J: never call


def test_player_one_in_kuhns_family(solution):
    # Kuhn (1950): bet J with α ∈ [0, 1/3], K with 3α, never Q; after check-bet fold J,
    # call K, call Q with α + 1/3.
    b, tol = solution.strategies[0], 1e-6
    alpha = b.at("J")["b"]
    assert -tol <= alpha <= 1 / 3 + tol
    assert b.at("Q")["b"] == pytest.approx(0, abs=tol)
    assert b.at("K")["b"] == pytest.approx(3 * alpha, abs=tol)
    assert b.at("Qpb")["b"] == pytest.approx(alpha + 1 / 3, abs=tol)
    assert b.at("Jpb")["b"] == pytest.approx(0, abs=tol)
    # Kpb is reached unless K always bets (α = 1/3); where reached, K calls.
    if not b.unreached[b.table.index_of_infoset()["Kpb"]]:
        assert b.at("Kpb")["b"] == pytest.approx(1, abs=tol)


def test_plans_are_feasible_and_consistent(solution):
    form = solution.form
    x, y = solution.plans
    np.testing.assert_allclose(form.E @ x, form.e, atol=1e-9)
    np.testing.assert_allclose(form.F @ y, form.f, atol=1e-9)
    assert (x >= 0).all() and (y >= 0).all()
    payoff = x @ form.A @ y
    assert payoff == pytest.approx(solution.value, abs=1e-9)
    walked = expected_value(solution.game, *solution.strategies)
    assert float(walked) == pytest.approx(solution.value, abs=1e-9)


def test_certificate(solution):
    assert solution.nash_conv <= 1e-9
    assert solution.certificate.best_response_values[0] == pytest.approx(KUHN_VALUE, abs=1e-9)
    assert solution.certificate.best_response_values[1] == pytest.approx(-KUHN_VALUE, abs=1e-9)


def test_uniform_random_nash_conv_is_eleven_twelfths():
    # OpenSpiel's exploitability test: NashConv of the uniform policy in Kuhn is 11/12
    # (open_spiel/python/algorithms/exploitability_test.py). Computed exactly here.
    from seqform.forms.sequence_form import build_sequence_form

    game = kuhn_poker()
    form = build_sequence_form(game)
    exact = [{name: [Fraction(1, 2)] * 2 for name in table.infosets} for table in form.players]
    assert certify(game, *exact).nash_conv == Fraction(11, 12)
    floats = [uniform_behaviour(table) for table in form.players]
    assert float(certify(game, *floats).nash_conv) == pytest.approx(11 / 12, abs=1e-12)


def test_n_card_kuhn_three_is_kuhn():
    assert solve(kuhn_poker(cards=3)).value == pytest.approx(KUHN_VALUE, abs=1e-9)


@pytest.mark.parametrize("cards", [1, 0, 2.5, "3"])
def test_bad_card_counts(cards):
    with pytest.raises(ValueError, match="cards must be an integer >= 2"):
        kuhn_poker(cards=cards)
