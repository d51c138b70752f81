"""Exact simplex pivots from a basis that is not exactly optimal (seqform.lp.exact.pivots)."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from seqform.forms.sequence_form import build_sequence_form
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.builtin.leduc import leduc_poker
from seqform.lp.exact.basis import BasisSystem, resolve_basis, solve_system
from seqform.lp.exact.minmax import minmax_program, solve_minmax_program
from seqform.lp.exact.pivots import RepairError, _primal_pivot, repair_basis
from seqform.lp.exact.program import AT_LOWER, AT_UPPER, BASIC, Basis, HighsModel, LinearProgram
from seqform.lp.exact.rational import RationalMatrix
from seqform.lp.exact.refinement import (
    largest_dual_violation,
    largest_violation,
    refine_basis,
    refine_dual,
)
from seqform.lp.exact.repair import repair_or_resolve
from seqform.lp.solvers import InfeasibleError

ZERO = Fraction(0)


def _small_lp() -> LinearProgram:
    # max 3a + 2b  s.t.  a + b <= 4,  a + 3b <= 6,  0 <= a <= 3,  b >= 0: optimum (3, 1) -> 11
    # (by hand: the vertex where a = 3 and a + b = 4; it also has a + 3b = 6, degenerate).
    matrix = RationalMatrix.from_triples((2, 2), [0, 0, 1, 1], [0, 1, 0, 1], [1, 1, 1, 3])
    return LinearProgram(
        matrix=matrix,
        objective=(Fraction(3), Fraction(2)),
        col_lower=(ZERO, ZERO),
        col_upper=(Fraction(3), None),
        row_lower=(None, None),
        row_upper=(Fraction(4), Fraction(6)),
    )


def _basis(cols, rows) -> Basis:
    return Basis(col_status=np.asarray(cols), row_status=np.asarray(rows))


def test_a_primal_feasible_basis_one_pivot_from_optimal_is_repaired():
    # a = 0 non-basic, b basic on the tight row a + 3b = 6: (0, 2), objective 4; a's reduced
    # cost 3 - 2/3 > 0 makes it not dual feasible; a rises to its bound 3 and b falls to 1.
    program = _small_lp()
    start = _basis([AT_LOWER, BASIC], [BASIC, AT_UPPER])
    before = resolve_basis(program, start)
    assert before.primal_feasible and not before.dual_feasible
    repaired = repair_basis(program, start, refine=False)
    assert repaired.solution.optimal and repaired.pivots == 1
    assert repaired.solution.objective == 11 and repaired.solution.values == (3, 1)


def test_a_dual_feasible_basis_one_pivot_from_optimal_is_repaired():
    # a basic on the tight row a + b = 4 with b = 0: a = 4 breaks a <= 3, while the duals
    # (pi = 3, b's reduced cost 2 - 3 < 0 at its lower bound) are feasible.
    program = _small_lp()
    start = _basis([BASIC, AT_LOWER], [AT_UPPER, BASIC])
    before = resolve_basis(program, start)
    assert before.dual_feasible and not before.primal_feasible
    repaired = repair_basis(program, start, refine=False)
    assert repaired.solution.optimal and repaired.pivots == 1
    assert repaired.solution.objective == 11


def test_a_basis_forty_pivots_from_optimal_is_repaired_within_the_default_limit():
    # max sum x_i  s.t.  x_i <= 1 as 40 rows, x >= 0: from the slack basis (x = 0, feasible)
    # each x_i enters once, so 40 pivots (more than the 30 that used to be the limit: a
    # degenerate gadget basis on hand classes took up to 332, seqform.base.limits.exact_pivots)
    n = 40
    identity = RationalMatrix.from_triples((n, n), list(range(n)), list(range(n)), [1] * n)
    program = LinearProgram(
        matrix=identity,
        objective=(Fraction(1),) * n,
        col_lower=(ZERO,) * n,
        col_upper=(None,) * n,
        row_lower=(None,) * n,
        row_upper=(Fraction(1),) * n,
    )
    start = _basis([AT_LOWER] * n, [BASIC] * n)
    repaired = repair_basis(program, start, refine=False)
    assert repaired.solution.optimal and repaired.pivots == n
    assert repaired.solution.objective == n
    with pytest.raises(RepairError, match="after 30 exact simplex pivots"):
        repair_basis(program, start, refine=False, max_pivots=30)


def test_an_optimal_basis_takes_no_pivot():
    program = _small_lp()
    start = HighsModel(program).maximise().basis
    repaired = repair_basis(program, start)
    assert repaired.pivots == 0 and repaired.solution.objective == 11


def test_a_basis_neither_primal_nor_dual_feasible_is_repaired():
    # b basic on a + b = 4 with a = 0: b = 4 gives a + 3b = 12 > 6, and a's reduced cost
    # 3 - 2 > 0 at its lower bound: dual pivots for a shifted objective, then primal ones.
    program = _small_lp()
    start = _basis([AT_LOWER, BASIC], [AT_UPPER, BASIC])
    before = resolve_basis(program, start)
    assert not before.primal_feasible and not before.dual_feasible
    repaired = repair_basis(program, start, refine=False)
    assert repaired.solution.optimal and repaired.solution.objective == 11


def test_a_primal_infeasible_basis_is_repaired_by_refinement_without_pivots():
    # The dual feasible start above (a = 4 > 3): HiGHS, warm-started from it on the
    # refinement LP, reaches the optimum, which the exact re-solve then proves.
    program = _small_lp()
    start = _basis([BASIC, AT_LOWER], [AT_UPPER, BASIC])
    repaired = repair_basis(program, start, max_pivots=0)
    assert repaired.solution.optimal and repaired.solution.objective == 11
    assert repaired.pivots == 0 and repaired.refinements == 1


def test_refinement_sees_a_violation_below_float_resolution():
    # max a  s.t.  a + b = 1,  0 <= a <= 1 - 2^-70,  b >= 0.  With a basic and b at 0 the
    # basis puts a at 1, above its bound by 2^-70: in floats 1 - 2^-70 is 1.0, so HiGHS on
    # the LP itself sees an optimal basis; scaled by 2^50 it sees the violation.  Optimum (by
    # hand): a at its bound, b = 2^-70 basic.
    tiny = Fraction(1, 2**70)
    program = LinearProgram(
        matrix=RationalMatrix.from_triples((1, 2), [0, 0], [0, 1], [Fraction(1), Fraction(1)]),
        objective=(Fraction(1), ZERO),
        col_lower=(ZERO, ZERO),
        col_upper=(1 - tiny, None),
        row_lower=(Fraction(1),),
        row_upper=(Fraction(1),),
    )
    start = _basis([BASIC, AT_LOWER], [AT_LOWER])
    before = resolve_basis(program, start)
    assert before.dual_feasible and not before.primal_feasible
    assert largest_violation(program, before) == tiny
    refined = refine_basis(program, start)
    assert refined.rounds == 1 and refined.solution.optimal
    assert refined.solution.values == (1 - tiny, tiny)


def test_dual_refinement_removes_a_reduced_cost_of_the_wrong_sign_below_float_resolution():
    # max a + (1 + 2^-60) b  s.t.  a + b <= 1,  a, b >= 0.  With a basic on the tight row and
    # b at 0, b's reduced cost is 2^-60 > 0 at its lower bound: in floats 1 + 2^-60 is 1.0,
    # so HiGHS on the LP itself sees an optimal basis.  Optimum (by hand): b = 1, a = 0.
    tiny = Fraction(1, 2**60)
    program = LinearProgram(
        matrix=RationalMatrix.from_triples((1, 2), [0, 0], [0, 1], [Fraction(1), Fraction(1)]),
        objective=(Fraction(1), 1 + tiny),
        col_lower=(ZERO, ZERO),
        col_upper=(None, None),
        row_lower=(None,),
        row_upper=(Fraction(1),),
    )
    start = _basis([BASIC, AT_LOWER], [AT_UPPER])
    before = resolve_basis(program, start)
    assert before.primal_feasible and not before.dual_feasible
    assert largest_dual_violation(program, before) == tiny
    refined = refine_dual(program, start)
    assert refined.rounds == 1 and refined.solution.optimal
    assert refined.solution.values == (0, 1)
    repaired = repair_basis(program, start, max_pivots=0)
    assert repaired.solution.optimal and repaired.pivots == 0 and repaired.refinements == 1


def test_dual_refinement_sees_a_row_dual_of_the_wrong_sign():
    # max -2^-60 a  s.t.  0 <= a <= 1 (a row),  a free.  With the row tight at its upper
    # bound and a basic, the row's dual is -2^-60 < 0 away from its lower bound: the
    # activity must move down, which only an activity column in the refinement LP shows.
    # Optimum (by hand): a = 0, the row at its lower bound.
    tiny = Fraction(1, 2**60)
    program = LinearProgram(
        matrix=RationalMatrix.from_triples((1, 1), [0], [0], [Fraction(1)]),
        objective=(-tiny,),
        col_lower=(None,),
        col_upper=(None,),
        row_lower=(ZERO,),
        row_upper=(Fraction(1),),
    )
    start = _basis([BASIC], [AT_UPPER])
    before = resolve_basis(program, start)
    assert before.primal_feasible and not before.dual_feasible
    assert before.row_duals == (-tiny,)
    refined = refine_dual(program, start)
    assert refined.solution.optimal and refined.solution.values == (0,)


def test_too_few_pivots_are_refused():
    program = _small_lp()
    with pytest.raises(RepairError, match="after 0 exact simplex pivots"):
        start = _basis([AT_LOWER, BASIC], [BASIC, AT_UPPER])
        repair_basis(program, start, max_pivots=0, refine=False)


def _beale_lp() -> LinearProgram:
    # Beale's LP (E. M. L. Beale, "Cycling in the dual simplex algorithm", Naval Research
    # Logistics Quarterly 2 (1955) 269-275), on which the simplex method with Dantzig's rule
    # cycles through six degenerate bases from the slack basis:
    #   max 3/4 a - 20 b + 1/2 c - 6 d  s.t.  1/4 a - 8 b - c + 9 d <= 0,
    #   1/2 a - 12 b - 1/2 c + 3 d <= 0,  c <= 1,  all >= 0.
    # Optimum 5/4 at a = c = 1 (by hand: the third row binds c, then a = 1 makes the second
    # row tight).
    rows = [
        [Fraction(1, 4), Fraction(-8), Fraction(-1), Fraction(9)],
        [Fraction(1, 2), Fraction(-12), Fraction(-1, 2), Fraction(3)],
        [ZERO, ZERO, Fraction(1), ZERO],
    ]
    triples = [(i, j, x) for i, row in enumerate(rows) for j, x in enumerate(row) if x]
    r, c, values = (list(part) for part in zip(*triples, strict=True))
    return LinearProgram(
        matrix=RationalMatrix.from_triples((3, 4), r, c, values),
        objective=(Fraction(3, 4), Fraction(-20), Fraction(1, 2), Fraction(-6)),
        col_lower=(ZERO,) * 4,
        col_upper=(None,) * 4,
        row_lower=(None,) * 3,
        row_upper=(ZERO, ZERO, Fraction(1)),
    )


def test_a_cycling_lp_is_repaired_within_the_default_pivot_limit():
    # Dantzig's rule cycles here from the slack basis (every pivot of the cycle degenerate);
    # Bland's rule must take over within LIMITS.exact_pivots, however few pivots that is.
    program = _beale_lp()
    slack = _basis([AT_LOWER] * 4, [BASIC] * 3)
    assert resolve_basis(program, slack).primal_feasible
    repaired = repair_basis(program, slack, refine=False)
    assert repaired.solution.optimal
    assert repaired.solution.objective == Fraction(5, 4)
    assert repaired.solution.values == (1, 0, 1, 0)


def _random_lp(seed: int, rows: int, cols: int, *, start: str) -> LinearProgram:
    """Random LP whose all-slack basis (columns at 0, rows basic) is ``start``: "primal"
    feasible (rows ``M v <= b`` with ``b > 0``, objective of both signs), "dual" feasible
    (objective ``<= 0``, rows ``M v >= b``) or "neither" (rows ``M v >= b``, objective of
    both signs, every column bounded so that the LP is)."""
    rng = np.random.default_rng(seed)
    dense = rng.integers(0, 6, size=(rows, cols)) * (rng.random((rows, cols)) < 0.6)
    r, c = np.nonzero(dense)
    values = [
        Fraction(int(dense[i, j]), int(rng.integers(1, 4))) for i, j in zip(r, c, strict=True)
    ]
    matrix = RationalMatrix.from_triples((rows, cols), r, c, values)
    bounds = tuple(Fraction(int(rng.integers(1, 20)), int(rng.integers(1, 5))) for _ in range(rows))
    share = 1.0 if start == "neither" else 0.3
    uppers = tuple(
        Fraction(int(rng.integers(1, 9))) if rng.random() < share else None for _ in range(cols)
    )
    low = 1 if start == "dual" else -3
    signs = -1 if start == "dual" else 1
    objective = tuple(
        Fraction(signs * int(rng.integers(low, 9)), int(rng.integers(1, 4))) for _ in range(cols)
    )
    if start == "primal":
        row_lower, row_upper = (None,) * rows, bounds
    else:
        row_lower, row_upper = bounds, (None,) * rows
    return LinearProgram(matrix, objective, (ZERO,) * cols, uppers, row_lower, row_upper)


@pytest.mark.parametrize("start", ["primal", "dual", "neither"])
@pytest.mark.parametrize("seed", range(4))
def test_pivots_from_the_slack_basis_reach_highs_optimum(seed, start):
    # Many pivots from the all-slack basis: the exact optimum must match HiGHS's float one.
    program = _random_lp(seed, 8, 10, start=start)
    slack = _basis([AT_LOWER] * 10, [BASIC] * 8)
    try:
        reference = HighsModel(program).maximise().objective
    except InfeasibleError:  # an infeasible random LP: then so must the pivots say
        with pytest.raises(RepairError, match="infeasible"):
            repair_basis(program, slack, refine=False)
        return
    repaired = repair_basis(program, slack, refine=False)
    assert repaired.solution.optimal and repaired.pivots > 0
    assert float(repaired.solution.objective) == pytest.approx(reference, abs=1e-9)


def _pushed_off(program: LinearProgram, optimal: Basis) -> Basis:
    """One primal pivot from ``optimal`` that raises a non-basic column at 0 (the first
    whose pivot moves the vertex off the optimum): the pivot that maximises that column."""
    for column in np.flatnonzero(optimal.col_status != BASIC):
        if program.col_lower[column] != 0:
            continue
        goal = [ZERO] * program.num_cols
        goal[column] = Fraction(1)
        system = BasisSystem(program.with_objective(goal), optimal)
        pushed = _primal_pivot(system, solve_system(system), bland=False)
        if not resolve_basis(program, pushed).optimal:
            return pushed
    raise AssertionError("every pivot from the optimum is degenerate")


@pytest.mark.parametrize("game", ["kuhn", pytest.param("leduc", marks=pytest.mark.slow)])
def test_a_game_lp_basis_pushed_one_pivot_off_its_optimum_is_repaired(game):
    # The sequence-form LP of Kuhn poker and of Leduc 2x2: HiGHS's optimal basis, moved by
    # one primal pivot that raises a plan entry at 0, is primal feasible but not optimal;
    # exact pivots bring it back to the exact optimum.
    tree = kuhn_poker() if game == "kuhn" else leduc_poker(2, 2)
    minmax = minmax_program(build_sequence_form(tree))
    program = minmax.program
    optimal = solve_minmax_program(minmax).basis
    optimum = resolve_basis(program, optimal)
    assert optimum.optimal
    pushed = _pushed_off(program, optimal)
    assert resolve_basis(program, pushed).primal_feasible
    repaired = repair_basis(program, pushed, refine=False)
    assert repaired.solution.optimal and repaired.pivots >= 1
    assert repaired.solution.objective == optimum.objective


def _kuhn_from_a_pushed_off_basis(monkeypatch):
    """Kuhn solved by the exact route from its optimal basis pushed one pivot off."""
    from seqform.routes import exact as exact_route

    real = exact_route.solve_minmax_program

    def pushed_off(minmax, **options):
        solution = real(minmax, **options)
        return replace(solution, basis=_pushed_off(minmax.program, solution.basis))

    monkeypatch.setattr(exact_route, "solve_minmax_program", pushed_off)
    return exact_route.solve_exact(kuhn_poker(), try_rounding=False)


def test_solve_exact_repairs_a_float_basis_that_is_not_exactly_optimal(monkeypatch):
    # No game was found whose HiGHS basis misses exact optimality (Kuhn 3-13 cards, Leduc
    # 2x2 to 3x2, Liar's Dice 2 sides, simplex and ipm), so the exact route is handed Kuhn's
    # optimal basis pushed one pivot off its optimum: exact pivots bring it back, and the
    # basis gives the exact equilibrium, value -1/18 (Kuhn 1950).
    # The dual refinement would repair this basis by HiGHS; the pivots are tested alone.
    from seqform.lp.exact import pivots

    monkeypatch.setattr(pivots, "REFINEMENT_PASSES", 0)
    solution = _kuhn_from_a_pushed_off_basis(monkeypatch)
    assert (solution.found_by, solution.basis_verified) == ("basis", True)
    assert solution.value == Fraction(-1, 18) and solution.certificate.nash_conv == 0
    assert "exact simplex pivot" in solution.notes[0]


def test_a_basis_repaired_by_refinement_alone_is_noted(monkeypatch):
    # The same pushed-off basis with the refinement on: HiGHS, warm-started on the
    # refinement LP, repairs it before any exact pivot, and the note says so.
    solution = _kuhn_from_a_pushed_off_basis(monkeypatch)
    assert solution.value == Fraction(-1, 18) and solution.certificate.nash_conv == 0
    assert "HiGHS solve(s) of iterative refinement" in solution.notes[0]
    assert "fixed it" in solution.notes[0]


def test_a_failed_repair_gives_the_basis_as_it_is_and_why(monkeypatch):
    from seqform.lp.exact import pivots

    monkeypatch.setattr(pivots, "REFINEMENT_PASSES", 0)  # the pivots alone, as above
    program = _small_lp()
    start = _basis([AT_LOWER, BASIC], [BASIC, AT_UPPER])  # one primal pivot from optimal
    outcome = repair_or_resolve(program, start, max_pivots=0)
    assert outcome.solution == resolve_basis(program, start) and outcome.pivots == 0
    assert "after 0 exact simplex pivots" in (outcome.failure or "")
    repaired = repair_or_resolve(program, start)
    assert repaired.solution.optimal and repaired.pivots == 1 and repaired.failure is None


@pytest.mark.parametrize(
    "violation",
    [Fraction(1, 3), Fraction(1, 4), Fraction(3, 4), Fraction(1), Fraction(7), Fraction(3, 2**41)],
)
def test_the_refinement_scale_is_minus_floor_log2_of_the_violation(violation):
    from seqform.lp.exact.refinement import _LARGEST_SCALE_BITS, _scale_bits

    expected = min(_LARGEST_SCALE_BITS, max(0, -math.floor(math.log2(violation))))
    assert _scale_bits(violation) == expected


def test_the_refinement_scale_of_a_violation_beyond_floats():
    # payoffs of 1e400 (tests/test_inputs.py) give violations that are no float:
    # math.log2 raised "math domain error" on one below 1e-308
    from seqform.lp.exact.refinement import _LARGEST_SCALE_BITS, _scale_bits

    assert _scale_bits(Fraction(1, 10**400)) == _LARGEST_SCALE_BITS
    assert _scale_bits(Fraction(10**400)) == 0
