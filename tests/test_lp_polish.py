"""Polishing an interior point on its active set (:mod:`seqform.lp.polish`), and the
structured route polishing a near miss before it solves again.

Each case stops Clarabel early on purpose (a loose tolerance) so that its point misses
the certificate; the certificate by best response is the judge throughout."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from seqform.certify import is_certified
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.builtin.liars_dice import liars_dice_structured
from seqform.lp.polish import CLEAR_RATIOS, polish_interior_point, polished_points
from seqform.lp.problem import LPProblem
from seqform.lp.run import run_lp
from seqform.routes import structured
from seqform.structured.lp_model import build_structured_lp
from seqform.structured.lp_solve import solve_structured_lp, structured_problem
from seqform.structured.responses import certify


def _certificate(game, solution):
    return certify(game, *structured._strategies(game, solution.x, solution.y, True))


@pytest.mark.parametrize(
    ("game", "tolerance"),
    [
        # at these tolerances Clarabel stops with relative exploitability 1.9e-6 and
        # 2.9e-9 (measured, clarabel 0.11), both above the 1e-9 bar
        (liars_dice_structured(4), 1e-6),
        (leduc_structured(ranks=5, suits=2), 1e-7),
    ],
    ids=["liars_dice(sides=4)", "leduc(ranks=5)"],
)
def test_polish_certifies_a_near_miss(game, tolerance):
    lp = build_structured_lp(game)
    loose = solve_structured_lp(
        lp, refinement=False, almost=True, presolve=True, tolerance=tolerance
    )
    assert not is_certified(_certificate(game, loose))
    offered = list(polished_points(structured_problem(lp), loose))
    assert [p.status for p in offered] == ["polished"] * len(CLEAR_RATIOS)
    certified = [p for p in offered if is_certified(_certificate(game, p))]
    assert certified
    polished = certified[0]
    # the same LP solved to Clarabel's full tolerance by the route's own settings
    full = solve_structured_lp(lp, refinement=False, almost=True, presolve=True)
    assert polished.value == pytest.approx(full.value, abs=1e-9)


def test_polish_leaves_bounds_it_does_not_cover_alone():
    # a column with an upper bound is outside the form the polish projects on
    problem = LPProblem(
        matrix=sp.csc_array(np.array([[1.0, 1.0]])),
        objective=np.array([1.0, 0.0]),
        col_lower=np.zeros(2),
        col_upper=np.array([np.inf, 1.0]),
        row_lower=np.array([1.0]),
        row_upper=np.array([1.0]),
    )
    solution = run_lp(problem, solver="simplex")
    assert polish_interior_point(problem, solution) is None


def _loosened(monkeypatch, tolerance):
    """The route's Clarabel stopped at ``tolerance`` instead of its own."""
    real = structured.solve_structured_lp

    def loose(lp, *, solver, **options):
        if solver == "clarabel":
            options["tolerance"] = tolerance
        return real(lp, solver=solver, **options)

    monkeypatch.setattr(structured, "solve_structured_lp", loose)


def test_the_route_polishes_a_near_miss_instead_of_solving_again(monkeypatch):
    _loosened(monkeypatch, 1e-6)  # relative exploitability 1.9e-6 (above)
    said: list[str] = []
    solution = structured.solve_structured(liars_dice_structured(4), progress=said.append)
    assert (solution.stats.solver, solution.stats.status) == ("interior point", "polished")
    assert is_certified(solution.certificate)
    assert any("polishing the LP's answer" in line for line in said)
    assert not any("solving again" in line for line in said)


def test_a_polish_that_fails_falls_back_to_highs(monkeypatch):
    # at 1e-2 Clarabel stops after 7 iterations with relative exploitability 2.5e-2, its
    # active set misread at every ratio: polished, 1.6e-2 to 1.9e-2 (measured, clarabel
    # 0.11); the route keeps the unpolished answer and solves again with HiGHS
    _loosened(monkeypatch, 1e-2)
    said: list[str] = []
    solution = structured.solve_structured(liars_dice_structured(4), progress=said.append)
    assert any("polishing the LP's answer" in line for line in said)
    assert any("solving again with HiGHS simplex" in line for line in said)
    assert (solution.stats.solver, solution.stats.status) == ("simplex", "optimal")
    assert is_certified(solution.certificate)


def test_the_dense_lps_interior_point_is_not_polished(monkeypatch):
    # HiGHS's interior point without crossover is the default only on the dense LPs, whose
    # factor fills in: a miss there goes straight to the second solve
    monkeypatch.setattr(structured, "default_solver", lambda lp: structured.LPChoice("ipm", False))
    monkeypatch.setattr(
        structured, "IPX_TOLERANCE", 1e-5
    )  # 7.9e-8 of the range (measured, highspy 1.16)
    said: list[str] = []
    solution = structured.solve_structured(liars_dice_structured(4), progress=said.append)
    assert any("solving again with HiGHS simplex" in line for line in said)
    assert not any("polishing" in line for line in said)
    assert is_certified(solution.certificate)
