"""The min-max LP layer: both backends, statuses, and the properties of its solutions."""

import numpy as np
import pytest
import scipy.sparse as sp
from gametrees import games
from hypothesis import given, settings

from seqform.forms.sequence_form import build_sequence_form
from seqform.lp.minmax import solve_minmax
from seqform.lp.solvers import SolverError, SolverLimitError
from seqform.routes.solve import solve


def matrix_game(payoffs):
    A = sp.csr_array(np.asarray(payoffs, dtype=float))
    E = sp.csr_array(np.ones((1, A.shape[0])))
    F = sp.csr_array(np.ones((1, A.shape[1])))
    return E, np.ones(1), F, np.ones(1), A


@pytest.mark.parametrize("backend", ["highs", "cvxpy"])
def test_matching_pennies(backend):
    # Matching pennies: value 0, both mix 1/2 (von Neumann and Morgenstern 1944).
    result = solve_minmax(*matrix_game([[1, -1], [-1, 1]]), backend=backend)
    assert result.value == pytest.approx(0, abs=1e-9)
    np.testing.assert_allclose(result.x, [0.5, 0.5], atol=1e-9)
    np.testing.assert_allclose(result.y, [0.5, 0.5], atol=1e-9)
    assert result.stats.status == "optimal"


@pytest.mark.parametrize("backend", ["highs", "cvxpy"])
def test_rock_paper_scissors_asymmetric(backend):
    # A 2×3 game solved by hand: row mixes (1/2, 1/2) against columns 1 and 2; value 1/2.
    # max_x min(x1*1 + x2*0, x1*0 + x2*1, x1*2 + x2*2) → x = (1/2, 1/2), value 1/2.
    result = solve_minmax(*matrix_game([[1, 0, 2], [0, 1, 2]]), backend=backend)
    assert result.value == pytest.approx(0.5, abs=1e-9)
    np.testing.assert_allclose(result.y, [0.5, 0.5, 0], atol=1e-9)


def test_unknown_backend_and_solver():
    with pytest.raises(ValueError, match="unknown backend 'gurobi'"):
        solve_minmax(*matrix_game([[1]]), backend="gurobi")
    with pytest.raises(ValueError, match="unknown solver 'barrier'"):
        solve_minmax(*matrix_game([[1]]), solver="barrier")


def test_shape_mismatch():
    E, e, F, f, _ = matrix_game([[1, 2]])
    with pytest.raises(ValueError, match="A has shape"):
        solve_minmax(E, e, F, f, sp.csr_array(np.ones((3, 3))))


@pytest.mark.parametrize("backend", ["highs", "cvxpy"])
def test_infeasible_constraints_raise_solver_error(backend):
    # E x = e with e = (1, 1) on one column equal to both 1 and 2: no plan exists.
    E = sp.csr_array(np.array([[1.0], [1.0]]))
    e = np.array([1.0, 2.0])
    F = sp.csr_array(np.ones((1, 1)))
    with pytest.raises(SolverError, match="did not prove optimality"):
        solve_minmax(E, e, F, np.ones(1), sp.csr_array(np.ones((1, 1))), backend=backend)


def test_time_limit_is_reported_not_returned():
    # A zero time limit stops HiGHS before it can prove anything.
    with pytest.raises(SolverLimitError, match="time limit"):
        from seqform.game.builtin.kuhn import kuhn_poker

        form = build_sequence_form(kuhn_poker(cards=30))
        solve_minmax(form.E, form.e, form.F, form.f, form.A, time_limit=0.0)


@settings(max_examples=40, deadline=None)
@given(game=games)
def test_random_games_solve_to_equilibria_with_both_backends(game):
    highs = solve(game, backend="highs")
    cvx = solve(game, backend="cvxpy")
    assert highs.nash_conv <= 1e-7
    assert cvx.nash_conv <= 1e-7
    assert highs.value == pytest.approx(cvx.value, abs=1e-7)
    assert float(highs.certificate.value) == pytest.approx(highs.value, abs=1e-7)


@pytest.mark.parametrize("backend", ["highs", "cvxpy"])
def test_pdlp_is_selectable_and_approximately_right(backend):
    # PDLP is a first-order method: optimal at its own tolerance (relative gap 1e-7), so
    # the value is close to Kuhn's -1/18 (Kuhn 1950) and the certificate measures how close.
    from seqform.game.builtin.kuhn import kuhn_poker

    solution = solve(kuhn_poker(), backend=backend, solver="pdlp")
    assert solution.stats.status == "optimal"
    assert solution.value == pytest.approx(-1 / 18, abs=1e-6)
    assert solution.nash_conv <= 1e-5
