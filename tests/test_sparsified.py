"""The sparsified LP against the plain sequence-form LP on the tree, in the same test."""

import numpy as np
import pytest
from gametrees import raise_poker

from seqform.analyses.showdown import solve_showdown
from seqform.analyses.solve import solve
from seqform.game.builtin.kuhn import kuhn_poker, kuhn_showdown
from seqform.game.builtin.showdown_poker import showdown_game
from seqform.lp.solvers import SolverLimitError
from seqform.structured.showdown import card_matrix
from seqform.structured.sparsified import build_sparsified_lp
from seqform.structured.sparsified_solve import solve_sparsified_lp

KUHN_VALUE = -1 / 18  # Kuhn (1950); Wikipedia "Kuhn poker"


def _constraints_hold(poker, x, y, atol):
    """E x = e and F y = f, checked card by card on the betting tree."""
    for player, plan in ((0, x), (1, y)):
        table = poker.betting_table
        matrix = card_matrix(poker, player, plan)
        assert plan[0] == pytest.approx(1.0, abs=atol)
        for node, sequences in enumerate(table.node_sequences[player]):
            parent = matrix[:, table.node_parent[player][node]]
            np.testing.assert_allclose(matrix[:, sequences].sum(axis=1), parent, atol=atol)


@pytest.mark.parametrize("solver", ["clarabel", "simplex", "ipm"])
def test_kuhn_value_and_player_two(solver):
    kuhn = kuhn_showdown()
    solution = solve_showdown(kuhn, solver=solver)
    assert solution.value == pytest.approx(KUHN_VALUE, abs=1e-8)
    assert solution.exploitability <= 1e-8
    # Kuhn (1950): player 2's equilibrium is unique; probabilities of betting/calling.
    p2 = card_matrix(kuhn, 1, solution.behaviour[1].probabilities)  # columns: -, p:p, p:b, b:p, b:b
    np.testing.assert_allclose(p2[:, 2], [1 / 3, 0, 1], atol=1e-6)  # bet after a check
    np.testing.assert_allclose(p2[:, 4], [0, 1 / 3, 1], atol=1e-6)  # call a bet
    p1 = card_matrix(kuhn, 0, solution.behaviour[0].probabilities)  # columns: -, p, b, pb:p, pb:b
    alpha = p1[0, 2]  # Kuhn's family: J bets α ∈ [0, 1/3], K bets 3α, Q calls α + 1/3
    assert -1e-6 <= alpha <= 1 / 3 + 1e-6
    assert p1[2, 2] == pytest.approx(3 * alpha, abs=1e-6)
    assert p1[1, 4] == pytest.approx(alpha + 1 / 3, abs=1e-6)


@pytest.mark.parametrize("poker", [kuhn_showdown(7), kuhn_showdown(40), raise_poker(6)])
def test_value_equals_the_tree_lp(poker):
    # The reference is the plain sequence-form LP on the explicit tree (HiGHS simplex).
    reference = solve(showdown_game(poker)).value
    for solver, tolerance in (("clarabel", 1e-8), ("simplex", 1e-11)):
        solution = solve_showdown(poker, solver=solver)
        assert solution.value == pytest.approx(reference, abs=tolerance)
        assert float(solution.certificate.value) == pytest.approx(reference, abs=tolerance)
        assert solution.exploitability <= 10 * tolerance
        _constraints_hold(poker, *solution.plans, atol=1e-7)


def test_lp_size_is_linear_in_the_deck():
    sizes = [build_sparsified_lp(kuhn_showdown(n)).matrix.nnz for n in (1000, 4000)]
    assert sizes[1] < 4.2 * sizes[0]  # the plain LP's A alone grows 16-fold


def test_large_deck_is_solved_and_certified():
    # 5,000 cards: 20,001 sequences per player; the tree would have 225 million nodes.
    poker = kuhn_showdown(5000)
    solution = solve_showdown(poker)
    assert poker.tree_nodes > 2 * 10**8
    assert solution.exploitability <= 1e-6
    # The certificate pins the value down: a profile with NashConv ε has expected value
    # within ε of the game's value, so the LP's optimum must agree with it to 1e-6.
    assert float(solution.certificate.value) == pytest.approx(solution.value, abs=1e-6)
    # Sanity, not a reference: N-card Kuhn's value stays near Kuhn's -1/18 (the tree LP in
    # test_value_equals_the_tree_lp gives -0.0580 at N = 40).
    assert solution.value == pytest.approx(KUHN_VALUE, abs=2e-3)
    _constraints_hold(poker, *solution.plans, atol=1e-6)


def test_time_limit_is_an_error_not_an_answer():
    lp = build_sparsified_lp(kuhn_showdown(20_000))
    with pytest.raises(SolverLimitError, match="Clarabel stopped"):
        solve_sparsified_lp(lp, time_limit=1e-3)


def test_limit_message_measures_the_last_point():
    with pytest.raises(SolverLimitError, match="exploitability"):
        solve_showdown(kuhn_showdown(20_000), time_limit=1e-3)


def test_unknown_solver_is_refused():
    with pytest.raises(ValueError, match="unknown solver"):
        solve_sparsified_lp(build_sparsified_lp(kuhn_showdown()), solver="pdlp")


def test_kuhn_tree_refuses_a_huge_deck():
    with pytest.raises(ValueError, match="--method structured"):
        kuhn_poker(cards=250_000)
