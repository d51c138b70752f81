"""The lossless eliminations of :mod:`seqform.lp.presolve` before Clarabel: the reduced LP
is smaller, has the same optimum, and its answer maps back to an optimal point of the LP
with duals under the one sign rule of :mod:`seqform.lp.problem`."""

import numpy as np
import pytest
import scipy.sparse as sp

from seqform.game.builtin.kuhn import kuhn_structured
from seqform.game.builtin.liars_dice import liars_dice_structured
from seqform.lp.presolve import reduce_problem
from seqform.lp.problem import LPProblem
from seqform.lp.run import run_lp
from seqform.structured.lp_model import build_structured_lp
from seqform.structured.lp_solve import solve_structured_lp, structured_problem
from seqform.structured.responses import certify


def small_lp() -> LPProblem:
    """maximise q0 s.t. v_a − v_p = 0 (a doubleton), v_p + v_b = 1, q0 − q1 <= 2 v_b,
    q1 <= 1 − v_a (q1 free: a free doubleton), v >= 0: q0 = 2 v_b + 1 − v_a with v_a = v_p
    = 1 − v_b, so the optimum is 3 at v_b = 1."""
    # columns: v_a, v_p, v_b, q0, q1
    dense = np.array(
        [
            [1.0, -1.0, 0.0, 0.0, 0.0],
            [0.0, 1.0, 1.0, 0.0, 0.0],
            [0.0, 0.0, -2.0, 1.0, -1.0],
            [1.0, 0.0, 0.0, 0.0, 1.0],
        ]
    )
    inf = np.inf
    return LPProblem(
        matrix=sp.csc_array(dense),
        objective=np.array([0.0, 0.0, 0.0, 1.0, 0.0]),
        col_lower=np.array([0.0, 0.0, 0.0, -inf, -inf]),
        col_upper=np.full(5, inf),
        row_lower=np.array([0.0, 1.0, -inf, -inf]),
        row_upper=np.array([0.0, 1.0, 0.0, 1.0]),
    )


def test_both_eliminations_keep_the_optimum_and_map_an_optimal_point_back():
    problem = small_lp()
    reduction = reduce_problem(problem)
    assert reduction.eliminated == (2, 2)  # the doubleton row and v_a; row 3 and q1
    reduced = run_lp(reduction.problem)
    assert reduced.objective == pytest.approx(3.0)
    primal, duals = reduction.primal(reduced.primal), reduction.duals(reduced.duals)
    # feasible in the LP itself, with the same objective
    activity = problem.matrix @ primal
    assert np.all(activity <= problem.row_upper + 1e-9)
    assert np.all(activity >= problem.row_lower - 1e-9)
    assert np.all(primal[:3] >= -1e-9)
    assert problem.objective @ primal == pytest.approx(3.0)
    # dual feasible and complementary: c = M.T π + d, d = 0 on free columns, d <= 0 on
    # the columns >= 0 and zero where they are positive; π >= 0 on the '<=' rows
    direct = run_lp(problem)
    np.testing.assert_allclose(duals, direct.duals, atol=1e-9)
    d = problem.objective - problem.matrix.T @ duals
    np.testing.assert_allclose(d[3:], 0.0, atol=1e-9)
    assert np.all(d[:3] <= 1e-9)
    np.testing.assert_allclose(d[:3] * primal[:3], 0.0, atol=1e-9)


def test_liars_dice_loses_its_one_action_information_sets():
    # After the highest bid the only action is "liar": with 4 sides, 2^7 public nodes
    # follow bid 2-4, each with 4 hands, half of them each player's, so 256 sets of each
    # player (512 of 1,024 information sets: sizes in seqform.game.builtin.liars_dice)
    lp = build_structured_lp(liars_dice_structured(4))
    reduction = reduce_problem(structured_problem(lp))
    assert reduction.eliminated == (512, 512)


def test_an_lp_without_doubletons_is_left_as_it_is():
    problem = structured_problem(build_structured_lp(kuhn_structured(cards=13)))
    reduction = reduce_problem(problem)
    assert reduction.eliminated == (0, 0)


def test_clarabel_on_the_reduced_lp_gives_a_certified_answer():
    game = liars_dice_structured(4)
    lp = build_structured_lp(game)
    plain = solve_structured_lp(lp, refinement=False)
    reduced = solve_structured_lp(lp, refinement=False, presolve=True)
    assert reduced.value == pytest.approx(plain.value, abs=1e-9)
    assert reduced.primal.shape == plain.primal.shape
    assert reduced.duals.shape == plain.duals.shape
    first, second = (reduced.x, reduced.y)
    from seqform.routes.structured import _strategies

    certificate = certify(game, *_strategies(game, first, second, True))
    assert float(certificate.exploitability) < 1e-9


def test_the_structured_route_hands_clarabel_the_reduced_lp(monkeypatch):
    import seqform.lp.run as lp_run
    from seqform.routes.structured import solve_structured

    asked: list[bool] = []
    real = lp_run.run_clarabel

    def recorded(problem, **options):
        asked.append(options["presolve"])
        return real(problem, **options)

    monkeypatch.setattr(lp_run, "run_clarabel", recorded)
    solution = solve_structured(liars_dice_structured(3))
    assert asked == [True]
    assert float(solution.certificate.exploitability) < 1e-9
