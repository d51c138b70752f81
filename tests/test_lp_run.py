"""The one float LP path (:func:`seqform.lp.run.run_lp`): every solver's duals under the one
sign rule of :mod:`seqform.lp.problem`, and the three routes reading the opponent's plan
through it."""

import numpy as np
import pytest
import scipy.sparse as sp

import seqform.lp.problem as lp_problem
from seqform.forms.sequence_form import build_sequence_form
from seqform.game.builtin.kuhn import kuhn_poker, kuhn_structured
from seqform.lp.exact.minmax import minmax_program, solve_minmax_program
from seqform.lp.minmax import minmax_problem
from seqform.lp.problem import LPProblem
from seqform.lp.run import run_lp
from seqform.lp.solvers import InfeasibleError, SolverLimitError
from seqform.routes.solve import solve
from seqform.structured.lp_model import build_structured_lp
from seqform.structured.lp_solve import solve_structured_lp

KUHN_VALUE = -1 / 18  # Kuhn (1950)
SOLVERS = [
    pytest.param("simplex", "highs", id="highs-simplex"),
    pytest.param("ipm", "highs", id="highs-ipm"),
    pytest.param("simplex", "cvxpy", id="cvxpy-simplex"),
    pytest.param("clarabel", "highs", id="clarabel"),
]


@pytest.fixture(scope="module")
def kuhn_form():
    return build_sequence_form(kuhn_poker())


def one_variable(lower, upper, objective):
    """``maximise objective * v`` s.t. ``lower <= v <= upper`` as a row, ``v`` free."""
    return LPProblem(
        matrix=sp.csc_array(np.ones((1, 1))),
        objective=np.array([float(objective)]),
        col_lower=np.array([-np.inf]),
        col_upper=np.array([np.inf]),
        row_lower=np.array([float(lower)]),
        row_upper=np.array([float(upper)]),
    )


@pytest.mark.parametrize(("solver", "backend"), SOLVERS)
def test_duals_of_the_min_max_lp_follow_the_one_sign_rule(kuhn_form, solver, backend):
    # The rule: c = M.T π + d with d <= 0 on columns at their lower bound 0 and d = 0 on
    # free columns (stationarity of c @ v − π @ (M v − b)); π >= 0 on the '<=' rows.
    problem = minmax_problem(kuhn_form.E, kuhn_form.e, kuhn_form.F, kuhn_form.f, kuhn_form.A)
    solution = run_lp(problem, solver=solver, backend=backend, tolerance=1e-10)
    reduced = problem.objective - problem.matrix.T @ solution.duals
    free = np.isneginf(problem.col_lower)
    np.testing.assert_allclose(reduced[free], 0.0, atol=1e-7)
    assert np.all(reduced[~free] <= 1e-7)
    best_reply = problem.plans.y_rows
    assert np.all(solution.duals[best_reply] >= -1e-7)
    assert solution.value == pytest.approx(KUHN_VALUE, abs=1e-7)
    np.testing.assert_allclose(kuhn_form.F @ solution.y, kuhn_form.f, atol=1e-7)
    assert solution.x @ kuhn_form.A @ solution.y == pytest.approx(KUHN_VALUE, abs=1e-7)


def test_an_interior_point_without_crossover_says_so_and_follows_the_rule(kuhn_form):
    # crossover=False stops HiGHS's ipm at its interior point, tolerance its relative gap
    # (the structured route's default on dense LPs, seqform.routes.structured)
    problem = minmax_problem(kuhn_form.E, kuhn_form.e, kuhn_form.F, kuhn_form.f, kuhn_form.A)
    solution = run_lp(problem, solver="ipm", tolerance=1e-10, crossover=False)
    assert solution.stats.solver == "ipm without crossover"
    assert solution.value == pytest.approx(KUHN_VALUE, abs=1e-7)
    assert np.all(solution.duals[problem.plans.y_rows] >= -1e-7)
    assert run_lp(problem, solver="ipm").stats.solver == "ipm"


def test_clarabel_without_refinement_finds_the_same_optimum(kuhn_form, monkeypatch):
    # refinement=False turns Clarabel's iterative refinement off (the structured route's
    # choice on sparse LPs); the optimum and the duals stay those of the refined solve.
    import seqform.lp.clarabel as clarabel_lp

    chosen: list[bool] = []
    real = clarabel_lp._settings

    def recorded(*args):
        settings = real(*args)
        chosen.append(settings.iterative_refinement_enable)
        return settings

    monkeypatch.setattr(clarabel_lp, "_settings", recorded)
    problem = minmax_problem(kuhn_form.E, kuhn_form.e, kuhn_form.F, kuhn_form.f, kuhn_form.A)
    refined = run_lp(problem, solver="clarabel", tolerance=1e-10)
    plain = run_lp(problem, solver="clarabel", tolerance=1e-10, refinement=False)
    assert chosen == [True, False]
    assert (plain.stats.backend, plain.stats.solver) == ("clarabel", "interior point")
    assert plain.value == pytest.approx(KUHN_VALUE, abs=1e-9)
    np.testing.assert_allclose(plain.duals, refined.duals, atol=1e-7)


def test_every_solver_gives_the_same_duals_row_by_row(kuhn_form):
    problem = minmax_problem(kuhn_form.E, kuhn_form.e, kuhn_form.F, kuhn_form.f, kuhn_form.A)
    simplex = run_lp(problem).duals
    # Kuhn's min-max LP has a unique dual optimum at this vertex for every solver tried.
    for solver, backend in (("ipm", "highs"), ("simplex", "cvxpy"), ("clarabel", "highs")):
        other = run_lp(problem, solver=solver, backend=backend, tolerance=1e-10).duals
        np.testing.assert_allclose(other, simplex, atol=1e-6, err_msg=f"{solver}/{backend}")


@pytest.mark.parametrize("backend", ["highs", "cvxpy"])
@pytest.mark.parametrize(
    ("lower", "upper", "objective", "dual"),
    [
        # maximise -v s.t. v >= 1: the optimum -1 falls by 1 per unit the bound rises.
        pytest.param(1, np.inf, -1, -1.0, id="at-lower-bound"),
        # maximise v s.t. v <= 2: the optimum 2 rises by 1 per unit the bound rises.
        pytest.param(-np.inf, 2, 1, 1.0, id="at-upper-bound"),
        # maximise -2 v s.t. 1 <= v <= 3 (a ranged row): at v = 1, the rate is -2.
        pytest.param(1, 3, -2, -2.0, id="ranged"),
    ],
)
def test_a_rows_dual_is_the_optimums_rate_in_its_bound(backend, lower, upper, objective, dual):
    solution = run_lp(one_variable(lower, upper, objective), backend=backend)
    assert solution.duals == pytest.approx([dual], abs=1e-9)
    assert solution.status == "optimal"


@pytest.mark.parametrize("backend", ["highs", "cvxpy"])
def test_an_infeasible_lp_raises_infeasible_error(backend):
    problem = LPProblem(
        matrix=sp.csc_array(np.ones((2, 1))),
        objective=np.zeros(1),
        col_lower=np.zeros(1),
        col_upper=np.full(1, np.inf),
        row_lower=np.array([1.0, 2.0]),
        row_upper=np.array([1.0, 2.0]),
    )
    with pytest.raises(InfeasibleError, match="infeasible"):
        run_lp(problem, backend=backend)


def test_clarabel_refuses_rows_it_cannot_write():
    with pytest.raises(ValueError, match="equality and '<=' rows"):
        run_lp(one_variable(1, np.inf, -1), solver="clarabel")


def test_unknown_solver_is_refused():
    with pytest.raises(ValueError, match="unknown solver 'barrier'"):
        run_lp(one_variable(1, 1, 0), solver="barrier")


def test_a_limit_hands_over_the_plans_read_by_the_one_rule():
    form = build_sequence_form(kuhn_poker(cards=30))
    problem = minmax_problem(form.E, form.e, form.F, form.f, form.A)
    with pytest.raises(SolverLimitError, match="time limit") as caught:
        run_lp(problem, time_limit=0.0)
    if caught.value.plans is not None:  # HiGHS offers a point only when it has one
        x, y = caught.value.plans
        assert x.shape == (form.E.shape[1],) and y.shape == (form.F.shape[1],)


def tree_route():
    return solve(kuhn_poker(), method="tree").plans


def structured_route():
    solution = solve_structured_lp(build_structured_lp(kuhn_structured()), solver="simplex")
    return solution.x, solution.y


def exact_route():
    solution = solve_minmax_program(minmax_program(build_sequence_form(kuhn_poker())))
    return solution.x, solution.y


ROUTES = [
    pytest.param(tree_route, id="tree"),
    pytest.param(structured_route, id="structured"),
    pytest.param(exact_route, id="exact"),
]


@pytest.mark.parametrize("route", ROUTES)
def test_each_route_reads_the_other_players_plan_by_the_one_rule(route, monkeypatch):
    # F y = f puts mass 1 on player 1's empty sequence (index 0, KMvS 1996) ...
    _, y = route()
    assert y[0] == pytest.approx(1.0, abs=1e-9)
    assert np.all(y >= 0)
    # ... and with the one rule reversed (reading -π), every route's y loses it: a route
    # with its own sign rule would still find y[0] = 1 here and fail this test.
    real = lp_problem.plans_of

    def reversed_rule(layout, primal, duals):
        return real(layout, primal, -duals)

    monkeypatch.setattr(lp_problem, "plans_of", reversed_rule)
    _, flipped = route()
    assert flipped[0] == pytest.approx(0.0, abs=1e-9)
