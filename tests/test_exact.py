"""Exact equilibria: rational strategies, exact values, certificates in exact arithmetic."""

import json
from fractions import Fraction

import numpy as np
import pytest
import scipy.sparse as sp

import seqform.routes.exact as exact_module
from seqform.certify import certify
from seqform.cli.main import main
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.io.loader import load_game
from seqform.lp.exact.basis import InvalidBasisError, resolve_basis
from seqform.lp.exact.linear_solver import ExactLinearSolver, ExactSolveError
from seqform.lp.exact.program import AT_LOWER, AT_UPPER, BASIC, Basis, HighsModel, LinearProgram
from seqform.lp.exact.rational import RationalMatrix
from seqform.routes.exact import solve_exact
from seqform.routes.solve import solve

KUHN_VALUE = Fraction(-1, 18)  # Kuhn (1950); Wikipedia "Kuhn poker"
LEDUC_VALUE = -0.085606424078  # Lanctot et al. (2017), App. E.2; OpenSpiel's sequence_form_lp test


def _all_fractions(solution) -> bool:
    return all(
        isinstance(p, Fraction) for strategy in solution.strategies for p in strategy.probabilities
    )


def test_kuhn_exact_value_is_certified_minus_one_eighteenth():
    solution = solve_exact(kuhn_poker())
    assert solution.certified
    assert solution.value == KUHN_VALUE
    assert solution.bounds.lower == solution.bounds.upper == KUHN_VALUE
    assert solution.certificate.nash_conv == 0
    assert solution.certificate.best_response_values == (KUHN_VALUE, -KUHN_VALUE)
    assert _all_fractions(solution)


def test_kuhn_certificate_is_reproduced_by_the_exact_tree_walk():
    solution = solve_exact(kuhn_poker())
    first, second = solution.strategies
    certificate = certify(solution.game, first, second)
    assert certificate.nash_conv == 0
    assert certificate.value == KUHN_VALUE


def test_kuhn_by_the_exact_basis_without_rounding():
    solution = solve_exact(kuhn_poker(), try_rounding=False)
    assert solution.found_by == "basis"
    assert solution.basis_verified is True
    assert solution.value == KUHN_VALUE


@pytest.mark.parametrize("cards", [4, 5, 7], ids=lambda c: f"{c}-cards")
def test_n_card_kuhn_is_certified_and_matches_the_float_lp(cards):
    game = kuhn_poker(cards=cards)
    solution = solve_exact(game)
    assert solution.certified and solution.certificate.nash_conv == 0
    assert float(solution.value) == pytest.approx(solve(game).value, abs=1e-9)


@pytest.mark.parametrize("cards", [4, 6], ids=lambda c: f"{c}-cards")
def test_n_card_kuhn_basis_path_agrees_with_rounding(cards):
    game = kuhn_poker(cards=cards)
    by_basis = solve_exact(game, try_rounding=False)
    assert by_basis.found_by == "basis" and by_basis.basis_verified
    assert by_basis.value == solve_exact(game).value


# The six-sided game (24,571 sequences a player, 17 s here) is proven by
# notebooks/04_scaling_up.ipynb's key numbers, exactly as solve_exact's rounding does it:
# value -7/258 with NashConv 0.  The suite runs that notebook; its size belongs there.
@pytest.mark.parametrize("sides", [3, 4], ids=lambda s: f"{s}-sides")
def test_small_liars_dice_is_certified_both_ways(sides):
    game = load_game(f"liars_dice(sides={sides})")
    rounded = solve_exact(game)
    by_basis = solve_exact(game, try_rounding=False)
    assert rounded.certified and by_basis.certified
    assert rounded.value == by_basis.value
    assert by_basis.certificate.nash_conv == 0


def test_leduc_exact_value_certified_with_a_large_denominator():
    solution = solve_exact(load_game("leduc"))
    assert solution.certified
    assert solution.certificate.nash_conv == 0
    assert float(solution.value) == pytest.approx(LEDUC_VALUE, abs=1e-12)
    # Not a small fraction: the exact value has a denominator of about 32 digits.
    assert solution.value.denominator > 10**30
    assert solution.found_by in ("basis", "mixed")
    assert solution.basis_verified is True


def test_failed_certification_reports_exact_bounds(monkeypatch):
    # Make both routes give a non-equilibrium: rounding returns the uniform strategy and
    # the basis cannot be re-solved.  The answer must then be bounds, not a value.
    from seqform.forms.strategies import behaviour_from_mapping

    def uniform(strategy, *args, **kwargs):
        table = strategy.table
        mapping = {
            name: {a: Fraction(1, len(table.actions[i])) for a in table.actions[i]}
            for i, name in enumerate(table.infosets)
        }
        return behaviour_from_mapping(table, mapping)

    def broken(*args, **kwargs):
        raise InvalidBasisError("simulated failure")

    monkeypatch.setattr(exact_module, "round_strategy", uniform)
    monkeypatch.setattr(exact_module, "repair_or_resolve", broken)
    solution = solve_exact(kuhn_poker())
    assert not solution.certified and solution.value == solution.float_value
    assert solution.found_by == "none"
    # Uniform play: player 1 guarantees -BR_2(uniform), player 2 concedes BR_1(uniform).
    assert solution.bounds.lower < KUHN_VALUE < solution.bounds.upper
    assert solution.certificate.nash_conv == solution.bounds.upper - solution.bounds.lower
    assert solution.certificate.nash_conv == Fraction(11, 12)  # OpenSpiel's NashConv
    assert any("simulated failure" in note for note in solution.notes)


# --- the exact linear algebra and the exact basis re-solve --------------------------------


def _random_system(seed: int, n: int):
    rng = np.random.default_rng(seed)
    dense = rng.integers(-4, 5, size=(n, n)) * (rng.random((n, n)) < 0.3) + 6 * np.eye(n, dtype=int)
    rows, cols = np.nonzero(dense)
    values = [
        Fraction(int(dense[r, c]), int(rng.integers(1, 7))) for r, c in zip(rows, cols, strict=True)
    ]
    matrix = RationalMatrix.from_triples((n, n), rows, cols, values)
    rhs = [Fraction(int(rng.integers(-9, 10)), int(rng.integers(1, 9))) for _ in range(n)]
    return matrix, rhs


@pytest.mark.parametrize("seed", range(5))
def test_exact_solver_solves_both_orientations(seed):
    matrix, rhs = _random_system(seed, 40)
    solver = ExactLinearSolver(matrix)
    assert matrix.matvec(solver.solve(rhs)) == rhs
    assert matrix.rmatvec(solver.solve_transpose(rhs)) == rhs


def test_exact_solver_handles_ill_conditioning():
    # Hilbert matrices: condition number ~1e10 (n = 8) and ~1e16 (n = 12), beyond doubles.
    for n in (8, 12):
        rows, cols = np.divmod(np.arange(n * n), n)
        values = [Fraction(1, int(r + c + 1)) for r, c in zip(rows, cols, strict=True)]
        matrix = RationalMatrix.from_triples((n, n), rows, cols, values)
        rhs = [Fraction(1)] * n
        assert matrix.matvec(ExactLinearSolver(matrix).solve(rhs)) == rhs


def test_exact_solver_refines_a_system_whose_integer_rows_exceed_int64(monkeypatch):
    # A gadget LP's margin row s W_J m - sum q_I: a dyadic reach weight of 65 bits beside
    # a 1 scales to integers beyond int64.  The dense solver is switched off so that the
    # answer must come from the sparse float LU and refinement, as for a 4,500-row basis.
    monkeypatch.setattr("seqform.lp.exact.linear_solver.DENSE_LIMIT", 0)
    weight = Fraction(2850033089160257, 2**66)  # as a Leduc 6x4 reach: 52-bit numerator
    n = 6
    rows, cols, values = [], [], []
    for i in range(n):
        rows += [i, i]
        cols += [i, (i + 1) % n]
        values += [Fraction(1) if i == 0 else weight * (i + 1), Fraction(-1, 3)]
    matrix = RationalMatrix.from_triples((n, n), rows, cols, values)
    assert not isinstance(matrix.integer_rows[0], sp.csr_array)  # Python-int entries
    rhs = [Fraction(i + 1, 7) for i in range(n)]
    # a resolve gadget's take row: -s T_J of 180 bits in a row of small integers, beside
    # rows of 2^66: the float error shows at each row's own scale
    rhs[0] = Fraction(3**110, 7)
    solver = ExactLinearSolver(matrix)
    assert matrix.matvec(solver.solve(rhs)) == rhs
    assert matrix.rmatvec(solver.solve_transpose(rhs)) == rhs


def test_exact_solver_refines_rows_of_2_to_the_60_beside_rows_of_small_integers(monkeypatch):
    # A gadget LP's margin row s W_J m - sum q_I with a 60-bit dyadic reach W_J scales to
    # integer entries near 2^60 (still int64) beside rows of small integers: the float LU of
    # the unscaled integer rows is accurate only at the big rows' scale, and the int64
    # product has no room left, so refinement failed on a 338-row Leduc 3x2 gadget basis.
    monkeypatch.setattr("seqform.lp.exact.linear_solver.DENSE_LIMIT", 0)
    matrix, rhs = _random_system(0, 40)
    rng = np.random.default_rng(1)
    rows, cols, values = list(matrix.rows), list(matrix.cols), list(matrix.values)
    for row in range(0, 40, 5):  # every fifth row becomes a margin row
        keep = [k for k, r in enumerate(rows) if r != row]
        rows, cols = [rows[k] for k in keep], [cols[k] for k in keep]
        values = [values[k] for k in keep]
        weight = Fraction(int(rng.integers(2**58, 2**59)) * 2 + 1, 2**60)
        rows += [row, row, row]
        cols += [row, (row + 1) % 40, (row + 3) % 40]
        values += [weight, Fraction(-1), Fraction(-1)]
    matrix = RationalMatrix.from_triples((40, 40), rows, cols, values)
    assert isinstance(matrix.integer_rows[0], sp.csr_array)  # int64 entries, up to 2^61
    solver = ExactLinearSolver(matrix)
    assert matrix.matvec(solver.solve(rhs)) == rhs
    assert matrix.rmatvec(solver.solve_transpose(rhs)) == rhs


def _integers_of(values: list[int]) -> np.ndarray:
    array = np.empty(len(values), dtype=object)
    array[:] = values
    return array


# integers where a float's exponent is not the bit length (2^k - 1 rounds up to 2^k past 53
# bits), exact powers, zero, signs, and sizes on both sides of 2^1000 (where the helpers
# fall back to the integers one by one) and past float's range
_EDGE_INTEGERS = [0, 1, -1, 2**53 - 1, 2**53, 2**53 + 1, 2**60 - 1, -(2**60 - 1), 2**64]
_EDGE_INTEGERS += [2**62 - 1, 3**100, -(3**100), 2**999 - 1, 2**999, 2**1000 - 1]
_LARGE_INTEGERS = [2**1000, -(2**1100) + 7, 2**1030 - 1]


@pytest.mark.parametrize("values", [_EDGE_INTEGERS, _EDGE_INTEGERS + _LARGE_INTEGERS])
def test_the_refinement_s_array_helpers_equal_their_integer_by_integer_forms(values):
    # bit_lengths, scaled_floats and python_integers replaced loops over Python integers in the
    # refinement (about half of an exact pivot's time); they must give the same numbers
    from seqform.lp.exact import rational

    array = _integers_of(values)
    assert rational.bit_lengths(array).tolist() == [abs(v).bit_length() for v in values]
    shifts = np.arange(len(values), dtype=np.int64) * 7
    expected = [rational.scaled_float(v, int(e)) for v, e in zip(values, shifts, strict=True)]
    assert rational.scaled_floats(array, shifts).tolist() == expected
    whole = np.asarray([0.0, -3.0, 2.0**61, -(2.0**61), 12345.0])
    assert rational.python_integers(whole).tolist() == [int(v) for v in whole]
    huge = np.asarray([2.0**70, -(2.0**90), 1.0])
    assert rational.python_integers(huge).tolist() == [int(v) for v in huge]


def test_the_row_bits_skip_empty_rows():
    from seqform.lp.exact.rational import ObjectCSR, row_bits_of

    data = _integers_of([5, 2**70, -(2**65), 1])
    rows = np.asarray([0, 0, 2, 4])
    cols = np.asarray([0, 3, 1, 2])
    matrix = ObjectCSR.build((5, 5), rows, cols, data)
    assert row_bits_of(matrix).tolist() == [71, 0, 66, 0, 1]


def test_exact_solver_rejects_a_singular_matrix():
    matrix = RationalMatrix.from_triples((2, 2), [0, 0, 1, 1], [0, 1, 0, 1], [1, 2, 2, 4])
    with pytest.raises(ExactSolveError):
        ExactLinearSolver(matrix).solve([Fraction(1), Fraction(0)])


def _small_lp() -> LinearProgram:
    # max 3a + 2b  s.t.  a + b <= 4,  a + 3b <= 6,  a <= 3,  a, b >= 0: optimum (3, 1) -> 11.
    matrix = RationalMatrix.from_triples((2, 2), [0, 0, 1, 1], [0, 1, 0, 1], [1, 1, 1, 3])
    zero = Fraction(0)
    return LinearProgram(
        matrix=matrix,
        objective=(Fraction(3), Fraction(2)),
        col_lower=(zero, zero),
        col_upper=(Fraction(3), None),
        row_lower=(None, None),
        row_upper=(Fraction(4), Fraction(6)),
    )


def test_resolve_basis_proves_the_optimum_of_a_small_lp():
    program = _small_lp()
    result = HighsModel(program).maximise()
    solution = resolve_basis(program, result.basis)
    assert solution.optimal
    assert solution.objective == 11
    assert solution.values == (3, 1)


def test_resolve_basis_detects_a_non_optimal_basis():
    program = _small_lp()
    # a at its lower bound 0 and b basic from the tight row 0 gives b = 4; then row 1
    # has a + 3b = 12 > 6, so the basic solution is infeasible.
    basis = Basis(col_status=np.array([AT_LOWER, BASIC]), row_status=np.array([AT_UPPER, BASIC]))
    solution = resolve_basis(program, basis)
    assert not solution.primal_feasible and not solution.optimal


# --- the command line ----------------------------------------------------------------------


def test_cli_solve_exact_text(capsys):
    assert main(["solve", "kuhn", "--exact"]) == 0
    out = capsys.readouterr().out
    assert "Value to Player 1: -0.0555555556 (= -1/18), exact and certified" in out
    assert "  exploitability (NashConv / 2)  exactly 0: an exact equilibrium" in out
    assert "Qb       fold 2/3  call 1/3" in out


def test_cli_solve_exact_json(capsys):
    assert main(["solve", "kuhn", "--exact", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["schema"] == "seqform.solve/2"
    assert document["value_fraction"] == "-1/18"
    exact = document["exact"]
    assert exact["certified"] is True and exact["value"] == "-1/18"
    assert exact["bounds"] == {"lower": "-1/18", "upper": "-1/18"}
    assert exact["certificate"]["nash_conv"] == "0"
    second = exact["strategies"][1]
    jp = next(i for i in second["infosets"] if i["name"] == "Jp")
    assert [a["probability"] for a in jp["actions"]] == ["2/3", "1/3"]


def test_cli_exact_refuses_the_normal_method(capsys):
    assert main(["solve", "kuhn", "--exact", "--method", "normal"]) == 2  # a usage error
    err = capsys.readouterr().err
    assert err.startswith("seqform: error: ") and err.count("\n") == 1
