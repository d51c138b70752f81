"""The exact certificate on the structured route: ``solve --method
structured --exact``.

Independent computations: the tree's exact route (:func:`seqform.routes.exact.solve_exact`,
the explicit tree's merged LP re-solved in rationals) for the exact values, the tree's best
response (:func:`seqform.certify.certify` on the explicit game) for the structured route's
exact strategies carried over by name, and the float structured LP
(:func:`seqform.structured.lp_model.build_structured_lp`) for the exact LP's entries.
"""

from __future__ import annotations

import json
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from seqform.certify import certify
from seqform.cli.main import main
from seqform.forms.strategies import BehaviouralStrategy, plan_from_behaviour
from seqform.game.builtin.kuhn import kuhn_poker, kuhn_structured
from seqform.game.builtin.leduc import leduc_poker, leduc_structured
from seqform.game.builtin.liars_dice import liars_dice, liars_dice_structured
from seqform.lp.exact.linear_solver import ExactSolveError
from seqform.routes import structured_exact
from seqform.routes.exact import solve_exact
from seqform.routes.structured_exact import solve_structured_exact
from seqform.structured.lp_model import build_exact_structured_lp, build_structured_lp
from seqform.structured.responses import sequence_tables
from tests.structured_helpers import SMALL, tree_to_structured
from tests.test_exact_pivots import _pushed_off

# (structured game, its explicit tree): the small instances of the brief.
PAIRS = {
    "kuhn3": (lambda: kuhn_structured(3), lambda: kuhn_poker(3)),
    "kuhn4": (lambda: kuhn_structured(4), lambda: kuhn_poker(4)),
    "kuhn5": (lambda: kuhn_structured(5), lambda: kuhn_poker(5)),
    "leduc": (lambda: leduc_structured(3, 2), lambda: leduc_poker(3, 2)),
    "leduc-2x3": (lambda: leduc_structured(2, 3), lambda: leduc_poker(2, 3)),
    "liars-dice-3": (lambda: liars_dice_structured(3), lambda: liars_dice(3)),
}


@pytest.mark.parametrize("name", sorted(SMALL))
def test_exact_lp_is_the_float_lp_in_fractions(name):
    # One builder, two number types: the same rows, columns, pattern and bounds, and the
    # float entries are the exact ones rounded (to a few ulps: products taken in floats).
    game = SMALL[name]()
    floats, exact = build_structured_lp(game), build_exact_structured_lp(game)
    program = exact.program
    assert (program.num_rows, program.num_cols) == floats.shape
    assert all(isinstance(v, Fraction) for v in program.matrix.values)
    rounded = program.matrix.to_float().tocsc()
    assert (abs(rounded - floats.matrix) > 1e-15).nnz == 0
    assert rounded.nnz == floats.matrix.nnz
    bound = [np.inf if b is None else float(b) for b in program.row_upper]
    assert np.array_equal(bound, floats.row_upper)
    bound = [-np.inf if b is None else float(b) for b in program.row_lower]
    assert np.array_equal(bound, floats.row_lower)
    bound = [-np.inf if b is None else float(b) for b in program.col_lower]
    assert np.array_equal(bound, floats.col_lower)
    assert (exact.x_columns, exact.payoff_rows) == (floats.x_columns, floats.payoff_rows)
    assert program.objective[exact.objective] == 1 and sum(program.objective) == 1
    assert float(exact.scale) == floats.scale
    assert exact.payoff_nonzeros == floats.payoff_nonzeros


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_exact_value_equals_the_tree_routes_exact_value(name):
    structured, tree = PAIRS[name]
    solution = solve_structured_exact(structured())
    reference = solve_exact(tree())  # the explicit tree's LP, re-solved in rationals
    assert reference.certified and solution.certified
    assert isinstance(solution.value, Fraction)
    assert solution.value == reference.value
    assert solution.bounds.lower == solution.bounds.upper == solution.value
    assert solution.certificate.nash_conv == 0
    assert isinstance(solution.certificate.nash_conv, Fraction)
    assert (solution.found_by, solution.basis_verified, solution.notes) == ("basis", True, ())


def test_kuhn_value_is_minus_one_eighteenth():
    # Kuhn (1950): the value of 3-card Kuhn poker to player 1 is -1/18 (KUHN_FACTS.md).
    solution = solve_structured_exact(kuhn_structured(3))
    assert solution.value == Fraction(-1, 18)


def test_leduc_value_matches_openspiel():
    # Leduc hold'em value -0.085606424078 to player 1 (Lanctot et al. 2017, App. E.2;
    # OpenSpiel's sequence-form test), here as an exact fraction.
    solution = solve_structured_exact(leduc_structured(3, 2))
    assert float(solution.value) == pytest.approx(-0.085606424078, abs=1e-11)


def _on_tree(strategy: BehaviouralStrategy, table, mapping: np.ndarray) -> BehaviouralStrategy:
    """The strategy on the tree's table: sequence by sequence, through the labels."""
    probabilities = np.empty(table.num_sequences, dtype=object)
    probabilities[:] = [strategy.probabilities[i] for i in mapping]
    return BehaviouralStrategy(table, probabilities, np.zeros(table.num_infosets, bool))


@pytest.mark.parametrize("name", ["kuhn3", "leduc", "liars-dice-3"])
def test_exact_strategies_are_an_exact_equilibrium_of_the_tree(name):
    # Carried over to the explicit tree by name, the strategies' NashConv by the tree's own
    # best response (not the public-tree walk) is exactly 0, at the same value.
    structured, tree_of = PAIRS[name]
    game, tree = structured(), tree_of()
    solution = solve_structured_exact(game)
    maps = tree_to_structured(game, tree)
    tables = tree.flat.tables
    first, second = (_on_tree(solution.strategies[p], tables[p], maps[p]) for p in (0, 1))
    on_tree = certify(tree, first, second)
    assert on_tree.nash_conv == 0
    assert on_tree.value == solution.value


def _perturbed_basis(monkeypatch, game):
    """Make the re-solved basis give player 0 the uniform plan and fail its checks."""
    uniform = plan_from_behaviour(_uniform(sequence_tables(game)[0]))
    real = structured_exact.repair_or_resolve

    def resolve(program, basis):
        outcome = real(program, basis)
        exact = outcome.solution
        values = (*uniform.tolist(), *exact.values[len(uniform) :])
        perturbed = replace(exact, values=values, primal_feasible=False)
        return replace(outcome, solution=perturbed, failure="simulated")

    monkeypatch.setattr(structured_exact, "repair_or_resolve", resolve)


def _uniform(table) -> BehaviouralStrategy:
    probabilities = np.empty(table.num_sequences, dtype=object)
    probabilities[0] = Fraction(1)
    for infoset in range(table.num_infosets):
        span = table.sequences_of(infoset)
        probabilities[span.start : span.stop] = Fraction(1, len(span))
    return BehaviouralStrategy(table, probabilities, np.zeros(table.num_infosets, bool))


def test_a_basis_failing_its_checks_gives_bounds_and_says_so(monkeypatch):
    game = kuhn_structured(3)
    _perturbed_basis(monkeypatch, game)
    solution = solve_structured_exact(game)
    assert not solution.certified and solution.found_by == "none"
    assert solution.basis_verified is False
    assert "not exactly optimal" in solution.notes[0]
    # The bounds are proven all the same: the uniform plan guarantees less than -1/18.
    assert solution.bounds.lower < Fraction(-1, 18) == solution.bounds.upper
    assert isinstance(solution.value, float)


def test_an_unsolvable_basis_falls_back_to_rounding(monkeypatch):
    def fail(program, basis):
        raise ExactSolveError("singular")

    monkeypatch.setattr(structured_exact, "repair_or_resolve", fail)
    solution = solve_structured_exact(kuhn_structured(3))
    assert solution.certified and solution.found_by == "rounding"
    assert solution.value == Fraction(-1, 18)  # Kuhn (1950)
    assert "could not be re-solved exactly: singular" in solution.notes[0]


# --- through main() -------------------------------------------------------------------------


def _json(argv, capsys) -> tuple[int, dict]:
    code = main([*argv, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_method_structured_exact_through_main_json(capsys):
    code, document = _json(
        ["solve", "liars_dice(sides=3)", "--method", "structured", "--exact"], capsys
    )
    assert code == 0
    _, tree = _json(["solve", "liars_dice(sides=3)", "--method", "tree", "--exact"], capsys)
    assert document["schema"] == "seqform.structured/2" and document["route"] == "structured"
    exact = document["exact"]
    assert set(exact) == set(tree["exact"])  # the tree's exact block, key for key
    assert exact["value"] == tree["exact"]["value"] == document["value_fraction"]
    assert exact["certificate"] == tree["exact"]["certificate"]
    assert exact["certificate"]["nash_conv"] == "0"
    assert (exact["found_by"], exact["basis_verified"]) == ("basis", True)
    names = {infoset["name"] for infoset in exact["strategies"][1]["infosets"]}
    assert names == {infoset["name"] for infoset in tree["exact"]["strategies"][1]["infosets"]}


def test_method_structured_exact_through_main_text(capsys):
    assert main(["solve", "kuhn", "--method", "structured", "--exact"]) == 0
    out = capsys.readouterr().out
    # Kuhn (1950): value -1/18.
    assert "Value to Player 1: -0.0555555556 (= -1/18), exact and certified" in out
    assert "Solved on the structured route" in out
    assert "public tree × hands walk in exact arithmetic" in out
    assert "exactly 0: an exact equilibrium" in out
    assert "Qpb      fold 2/3  call 1/3" in out


def test_uncertified_exact_exits_3_with_the_bounds(monkeypatch, capsys):
    _perturbed_basis(monkeypatch, kuhn_structured(3))
    assert main(["solve", "kuhn", "--method", "structured", "--exact"]) == 3
    captured = capsys.readouterr()
    assert "NOT certified" in captured.out and "NOT exactly optimal" in captured.out
    assert "not certified" in captured.err and captured.err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--solver", "clarabel"], "--exact needs a simplex basis"),
        (["--fix", "K:b=1"], "--fix works on the game tree only"),
        (["--backend", "cvxpy"], "drop --backend"),
    ],
)
def test_structured_exact_refuses_what_it_cannot_do(argv, says, capsys):
    assert main(["solve", "kuhn", "--method", "structured", "--exact", *argv]) != 0
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_ipm_with_crossover_gives_a_basis_too(capsys):
    argv = ["solve", "kuhn", "--method", "structured", "--exact", "--solver", "ipm"]
    code, document = _json(argv, capsys)
    assert code == 0 and document["exact"]["value"] == "-1/18"  # Kuhn (1950)


def test_auto_exact_takes_the_structured_route_when_the_tree_is_large(capsys):
    # kuhn(cards=200)'s tree would have about 4 10^5 nodes, above the auto threshold
    # (seqform.cli.commands.solve.AUTO_TREE_NODES), so plain --exact goes without the tree and
    # gives the same exact answer as --method structured --exact (value and certificate).
    from seqform.cli.commands.solve import AUTO_TREE_NODES
    from seqform.game.public.explicit import tree_nodes

    assert tree_nodes(kuhn_structured(200)) > AUTO_TREE_NODES
    documents = []
    for extra in ([], ["--method", "structured"]):
        assert main(["solve", "kuhn(cards=200)", "--exact", "--format", "json", *extra]) == 0
        documents.append(json.loads(capsys.readouterr().out))
    auto, forced = documents
    assert auto["schema"] == forced["schema"] == "seqform.structured/2"
    assert auto["exact"]["value"] == forced["exact"]["value"]
    assert auto["exact"]["certificate"]["nash_conv"] == "0"


def test_a_float_basis_off_its_optimum_is_repaired_by_exact_pivots(monkeypatch):
    # As on the tree's exact route (tests/test_exact_pivots.py): no game was found whose HiGHS
    # basis misses exact optimality, so the route is handed Kuhn's structured LP's optimal
    # basis pushed one pivot off its optimum; exact pivots bring it back to -1/18 (Kuhn 1950).
    # The dual refinement would repair it by HiGHS; the pivots are tested alone.
    from seqform.lp.exact import pivots

    monkeypatch.setattr(pivots, "REFINEMENT_PASSES", 0)
    built = []
    real_build, real_run = structured_exact.build_exact_structured_lp, structured_exact.run_lp

    def build(game):
        built.append(real_build(game))
        return built[-1]

    def pushed_off(problem, **options):
        solved = real_run(problem, **options)
        return replace(solved, basis=_pushed_off(built[-1].program, solved.basis))

    monkeypatch.setattr(structured_exact, "build_exact_structured_lp", build)
    monkeypatch.setattr(structured_exact, "run_lp", pushed_off)
    solution = solve_structured_exact(kuhn_structured(3))
    assert (solution.found_by, solution.basis_verified) == ("basis", True)
    assert solution.value == Fraction(-1, 18) and solution.certificate.nash_conv == 0
    assert "exact simplex pivot" in solution.notes[0]
