"""The structured route: the structured LP of public tree × private
hands, its pipeline, and ``solve --method auto|tree|structured``.

Independent computations: the tree route (the explicit tree's sequence-form LP, solved by
HiGHS) for values, and the explicit payoff matrix ``A`` (formed entry by entry from each
leaf's dense private matrix, :func:`seqform.structured.payoff_matrix.payoff_matrix`) for the
LP's payoff rows.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from seqform.cli.main import main
from seqform.game.builtin.kuhn import kuhn_poker, kuhn_structured
from seqform.game.builtin.leduc import leduc_poker, leduc_structured
from seqform.game.builtin.liars_dice import liars_dice, liars_dice_structured
from seqform.game.builtin.registry import load_structured_game
from seqform.game.errors import UnknownGameError
from seqform.routes.solve import solve
from seqform.routes.structured import solve_structured
from seqform.structured.lp_model import UNBLOCKED_LEVELS, build_structured_lp
from seqform.structured.payoff_matrix import payoff_matrix, payoff_nnz

KUHN = [(kuhn_structured, kuhn_poker, {"cards": n}) for n in (3, 4, 5, 6)]
# two private cards and a public one; 4 x 3 (the tree route's LP of 12 cards, the slowest
# case at about 8 s) adds no rule to 3 x 3 (three suits) and 4 x 2 (four ranks)
LEDUC = [
    (leduc_structured, leduc_poker, {"ranks": r, "suits": s})
    for r in (2, 3, 4)
    for s in (1, 2, 3)
    if r * s >= 3 and (r, s) != (4, 3)
]
# Two dice each with two sides (766 sequences) is the case of several dice: a roll's chance
# as its orderings over sides**dice fails the value against the tree's die-by-die rolls
# (checked: uniform weights do); three sides (24,571 sequences) took seconds for no rule
# that the one-die cases with three and four faces and this one do not cover.
LIARS = [(liars_dice_structured, liars_dice, {"sides": s}) for s in (2, 3, 4)] + [
    (liars_dice_structured, liars_dice, {"sides": 2, "dice": 2})
]


def _id(case) -> str:
    return f"{case[0].__name__}-" + "-".join(f"{k}{v}" for k, v in case[2].items())


def _cases() -> list:
    return list(_each_case())


def _each_case():
    for case in KUHN + LEDUC + LIARS:
        yield pytest.param(case, id=_id(case))


def _payoff_rows_times(lp, x: np.ndarray) -> np.ndarray:
    """The payoff rows' ``x``-and-auxiliary part at ``x``, the auxiliaries solved from their
    defining rows (a square system in them)."""
    matrix = sp.csr_array(lp.matrix)
    n_x = lp.x_columns.stop
    aux = np.arange(lp.shape[1] - lp.auxiliaries, lp.shape[1])
    definitions = matrix[lp.payoff_rows.stop :]
    values = spla.spsolve(sp.csc_array(definitions[:, aux]), -(definitions[:, :n_x] @ x))
    rows = matrix[lp.payoff_rows]
    return rows[:, :n_x] @ x + rows[:, aux] @ np.atleast_1d(values)


@pytest.mark.parametrize("case", _cases())
def test_payoff_rows_are_minus_a_transpose_x(case):
    structured, _, parameters = case
    game = structured(**parameters)
    lp = build_structured_lp(game)
    x = np.random.default_rng(13).random(lp.x_columns.stop)
    expected = -lp.scale * (payoff_matrix(game).T @ x)
    assert np.allclose(_payoff_rows_times(lp, x), expected, atol=1e-9)


@pytest.mark.parametrize("case", _cases())
def test_value_and_certificate_equal_the_tree_route(case):
    structured, tree, parameters = case
    ours = solve_structured(structured(**parameters))
    reference = solve(tree(**parameters))  # the explicit tree's LP
    assert ours.value == pytest.approx(reference.value, abs=1e-8)
    assert float(ours.certificate.value) == pytest.approx(
        float(reference.certificate.value), abs=1e-8
    )
    assert ours.nash_conv <= 1e-9


@pytest.mark.parametrize("solver", ["clarabel", "simplex", "ipm"])
def test_every_solver_finds_leducs_value(solver):
    # -0.085606424078: OpenSpiel's Leduc value (KUHN_FACTS.md and tests/test_leduc.py)
    solution = solve_structured(leduc_structured(), solver=solver)
    assert solution.value == pytest.approx(-0.085606424078, abs=1e-9)
    assert solution.nash_conv <= 1e-9


def test_blocked_chains_keep_kuhn_exact():
    # 2 UNBLOCKED_LEVELS cards: the running sums are cut into blocks; Kuhn-N's value is
    # checked against the tree route.
    cards = 2 * UNBLOCKED_LEVELS
    ours = solve_structured(kuhn_structured(cards))
    assert ours.value == pytest.approx(solve(kuhn_poker(cards)).value, abs=1e-9)
    assert ours.nash_conv <= 1e-9


def test_structured_payoff_of_leduc_13_is_several_times_below_a():
    # nnz(A) = 689,000 for leduc(ranks=13): the tree route's sequence form, as docs/structured.md
    # and benchmarks/results/results.md report it.
    game = leduc_structured(13)
    lp = build_structured_lp(game)
    assert payoff_nnz(game) == 689_000
    assert lp.payoff_nonzeros == 119_136  # measured; 5.8 times fewer
    assert lp.matrix.nnz < payoff_nnz(game) / 3


def test_load_structured_game_names_those_with_a_description():
    assert load_structured_game("Leduc(ranks=4)").name == leduc_structured(4).name
    with pytest.raises(UnknownGameError, match="kuhn, leduc, liars_dice"):
        load_structured_game("kuhn3")


def _json(argv, capsys):
    assert main([*argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_method_structured_through_main(capsys):
    document = _json(["solve", "leduc", "--method", "structured"], capsys)
    assert document["route"] == "structured" and document["method"] == "structured"
    assert document["value"] == pytest.approx(-0.085606424078, abs=1e-9)
    assert document["sizes"]["payoff_nonzeros"] == 4920  # tree route's nnz(A), below
    tree = _json(["solve", "leduc", "--method", "tree"], capsys)
    assert tree["sizes"]["payoff_nonzeros"] == 4920 and tree["method"] == "tree"
    assert tree["value"] == pytest.approx(document["value"], abs=1e-9)


def test_auto_takes_the_tree_for_small_games(capsys):
    assert main(["solve", "leduc"]) == 0
    out = capsys.readouterr().out
    assert "Sequence form (KMvS 1996)" in out and "structured route" not in out


def test_auto_takes_the_structured_route_for_large_trees_and_says_so(capsys):
    # at most 223,501 tree nodes, as public_explicit.tree_nodes counts them
    assert main(["solve", "kuhn(cards=150)"]) == 0
    out = capsys.readouterr().out
    assert "Solved on the structured route: public tree × private hands" in out
    assert "the tree would have at most 223,501 nodes" in out
    assert "Sequence form (KMvS 1996)" not in out


@pytest.mark.parametrize("method", ["tree", "structured"])
def test_both_routes_solve_kuhn(method, capsys):
    # Kuhn's value -1/18 (Kuhn 1950; KUHN_FACTS.md)
    document = _json(["solve", "kuhn", "--method", method], capsys)
    assert document["value"] == pytest.approx(-1 / 18, abs=1e-9)


def test_refine_is_refused_on_the_structured_route(capsys):
    # --exact works there (tests/test_structured_exact.py); --refine does not.
    # a flag combination that cannot run: a usage error, exit 2
    assert main(["solve", "leduc", "--method", "structured", "--refine"]) == 2
    err = capsys.readouterr().err
    assert "(--method tree)" in err and err.count("\n") == 1


def test_structured_route_refuses_a_game_without_a_description(capsys):
    assert main(["solve", "kuhn3", "--method", "structured"]) != 0
    assert "no public tree × private hands description" in capsys.readouterr().err


def test_compare_shows_the_structured_payoff_beside_a(capsys):
    document = _json(["compare", "leduc", "--no-solve"], capsys)
    assert (
        document["structured_payoff_nonzeros"]
        == build_structured_lp(leduc_structured()).payoff_nonzeros
    )
    assert main(["compare", "leduc", "--no-solve"]) == 0
    assert "writes A's 4,920 non-zeros as 5,296" in capsys.readouterr().out


def test_interior_point_noise_is_not_counted_as_reached():
    # Clarabel's plans carry ~1e-11 where a vertex has zeros (seqform.routes.structured,
    # INTERIOR_REACH_TOLERANCE); those sets are flagged unreached, exactly the sets whose
    # parent mass is below the tolerance, and the certificate still holds (NashConv <= 1e-9).
    from seqform.game.builtin.leduc import leduc_structured
    from seqform.routes.structured import INTERIOR_REACH_TOLERANCE, solve_structured

    solution = solve_structured(leduc_structured(6, 2), solver="clarabel")
    noise = 0
    for strategy, plan in zip(solution.strategies, solution.plans, strict=True):
        table = strategy.table
        parent_mass = np.asarray(plan)[np.asarray(table.parent_sequence)]
        assert np.array_equal(strategy.unreached, parent_mass <= INTERIOR_REACH_TOLERANCE)
        noise += int(((parent_mass > 1e-12) & (parent_mass <= INTERIOR_REACH_TOLERANCE)).sum())
    assert noise > 0  # sets a 1e-12 tolerance would have called reached
    assert solution.nash_conv <= 1e-9


@pytest.mark.slow
def test_liars_dice_default_route_is_certified(capsys):
    # Clarabel, the structured route's default, stops on liars_dice (sides 6) with NashConv
    # 1.56e-9: exploitability 7.8e-10, 3.9e-10 of the payoff range 2, within the tolerance.
    # The value is checked against the tree route's LP in tests/test_liars_dice.py
    # (OpenSpiel's LP there).
    assert main(["solve", "liars_dice", "--verbose"]) == 0
    captured = capsys.readouterr()
    assert "relative to the payoff range 2: " in captured.out
    assert "equilibrium (≤ 1e-09)" in captured.out


def test_clarabel_skips_its_refinement_on_sparse_lps_only(monkeypatch):
    # The built-in games' LPs (Kuhn 4.3 non-zeros a column) run Clarabel without iterative
    # refinement and still certify; above DENSE_COLUMNS the refinement is kept.
    from seqform.routes import structured

    game = kuhn_structured(5)
    lp = build_structured_lp(game)
    assert not structured.clarabel_refinement(lp)
    refinements: list[bool] = []
    real = structured.solve_structured_lp

    def recorded(lp, *, solver, refinement, **options):
        refinements.append(refinement)
        return real(lp, solver=solver, refinement=refinement, **options)

    monkeypatch.setattr(structured, "solve_structured_lp", recorded)
    solution = structured.solve_structured(game)
    assert refinements == [False]
    assert (solution.stats.backend, solution.stats.solver) == ("clarabel", "interior point")
    assert solution.nash_conv <= 1e-9
    monkeypatch.setattr(structured, "DENSE_COLUMNS", lp.matrix.nnz / lp.shape[1] - 0.1)
    assert structured.clarabel_refinement(lp)


def test_a_failing_default_solver_falls_back_to_highs(monkeypatch):
    # A Clarabel that stops without a solution (AlmostSolved on a full-range river spot):
    # the default route solves with HiGHS instead and says so; an explicit solver does not.
    from seqform.lp.solvers import SolverError
    from seqform.routes import structured

    real = structured.solve_structured_lp

    def clarabel_fails(lp, *, solver, **options):
        if solver == "clarabel":
            raise SolverError("Clarabel ended with status AlmostSolved")
        return real(lp, solver=solver, **options)

    monkeypatch.setattr(structured, "solve_structured_lp", clarabel_fails)
    game = kuhn_structured(5)
    said: list[str] = []
    solution = structured.solve_structured(game, progress=said.append)
    assert solution.stats.solver == "simplex"
    assert any("solving again with HiGHS simplex" in line for line in said)
    # the tree route's value of 5-card Kuhn, by the same library's tree LP
    assert solution.value == pytest.approx(float(solve(kuhn_poker(5)).value), abs=1e-9)
    with pytest.raises(SolverError):
        structured.solve_structured(game, solver="clarabel")


def test_clarabel_almost_solved_point_is_certified_not_refused():
    # Clarabel asked for gap 1e-16 on 50-card Kuhn stops "AlmostSolved" after 14 iterations
    # (measured, seqform 0.x with clarabel 0.11).  The structured route takes that point and
    # certifies it, as it does on rhode_island(ranks=4) (benchmarks/results/rhode_island.md),
    # instead of refusing it and falling back to a HiGHS solve; the LP layer still refuses it
    # unless asked.
    from seqform.lp.solvers import SolverError
    from seqform.routes import structured

    game = kuhn_structured(50)
    lp = build_structured_lp(game)
    with pytest.raises(SolverError, match="AlmostSolved"):
        structured.solve_structured_lp(lp, tolerance=1e-16, refinement=False)
    almost = structured.solve_structured_lp(lp, tolerance=1e-16, refinement=False, almost=True)
    assert almost.status == "almost solved"


def test_the_route_certifies_clarabel_almost_solved_point(monkeypatch):
    from seqform.routes import structured

    real = structured.solve_structured_lp
    asked: list[bool] = []

    def too_tight(lp, *, solver, tolerance, almost=False, **options):
        asked.append(almost)
        if solver == "clarabel":
            tolerance = 1e-16  # out of float's reach: Clarabel stops "AlmostSolved"
        return real(lp, solver=solver, tolerance=tolerance, almost=almost, **options)

    monkeypatch.setattr(structured, "solve_structured_lp", too_tight)
    solution = structured.solve_structured(kuhn_structured(50), solver="clarabel")
    assert asked == [True]
    assert (solution.stats.solver, solution.stats.status) == ("interior point", "almost solved")
    assert solution.nash_conv <= 1e-9
    # the tree route's LP on the same game
    assert solution.value == pytest.approx(float(solve(kuhn_poker(50)).value), abs=1e-9)
