"""The float min-max LP handed to HiGHS and the exact program are the same program.

Both come from :func:`seqform.lp.merged.merged_lp` (KMvS 1996, eq. 11); these tests compare
what each path finally produces — the ``highspy.HighsLp`` of :mod:`seqform.lp.minmax` and
the :class:`~seqform.lp.exact.program.LinearProgram` of :mod:`seqform.lp.exact.minmax` —
row by row, column by column, coefficient by coefficient, bound by bound.
"""

from fractions import Fraction

import numpy as np
import pytest
from gametrees import games, random_game
from hypothesis import given, settings

from seqform.forms.sequence_form import build_sequence_form
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.builtin.leduc import leduc_poker
from seqform.lp.exact.minmax import minmax_program, solve_minmax_program
from seqform.lp.minmax import highs_model, solve_minmax

# A's float entries sum float chance probabilities, the exact ones sum Fractions
# (seqform.forms.sequence_form): they agree to round-off, nothing more.
COEFFICIENT_TOLERANCE = 1e-12


def float_entries(lp):
    """``{(row, column): value}`` of a column-wise ``HighsLp``."""
    start = np.asarray(lp.a_matrix_.start_)
    index = np.asarray(lp.a_matrix_.index_)
    value = np.asarray(lp.a_matrix_.value_)
    return {
        (int(index[k]), column): float(value[k])
        for column in range(lp.num_col_)
        for k in range(start[column], start[column + 1])
    }


def as_floats(bounds, infinity):
    """Exact bounds as HiGHS takes them: ``infinity`` (signed) where None."""
    return [infinity if b is None else float(b) for b in bounds]


def assert_same_program(lp, program):
    assert (lp.num_row_, lp.num_col_) == program.matrix.shape
    matrix = program.matrix
    exact = {
        (int(r), int(c)): v for r, c, v in zip(matrix.rows, matrix.cols, matrix.values, strict=True)
    }
    floats = {key: value for key, value in float_entries(lp).items() if value != 0.0}
    # An entry of A whose terminals cancel exactly may survive in floats as round-off.
    assert all(abs(floats[key]) <= COEFFICIENT_TOLERANCE for key in floats.keys() - exact.keys())
    assert exact.keys() <= floats.keys()
    for key, value in exact.items():
        assert floats[key] == pytest.approx(float(value), rel=COEFFICIENT_TOLERANCE), key
    assert list(lp.col_cost_) == [float(c) for c in program.objective]
    assert list(lp.col_lower_) == as_floats(program.col_lower, -np.inf)
    assert list(lp.col_upper_) == as_floats(program.col_upper, np.inf)
    assert list(lp.row_lower_) == as_floats(program.row_lower, -np.inf)
    assert list(lp.row_upper_) == as_floats(program.row_upper, np.inf)


def float_lp(form, player=0):
    if player == 0:
        return highs_model(form.E, form.e, form.F, form.f, form.A)
    return highs_model(form.F, form.f, form.E, form.e, -form.A.T)


@pytest.mark.parametrize(
    "game",
    [
        pytest.param(kuhn_poker(), id="kuhn"),
        pytest.param(leduc_poker(), id="leduc"),
        pytest.param(random_game(7), id="random-7"),
    ],
)
@pytest.mark.parametrize("player", [0, 1], ids=["player-0", "player-1"])
def test_float_lp_and_exact_program_are_the_same_program(game, player):
    form = build_sequence_form(game)
    assert_same_program(float_lp(form, player), minmax_program(form, player=player).program)


@settings(max_examples=30, deadline=None)
@given(game=games)
def test_random_games_give_the_same_program(game):
    form = build_sequence_form(game)
    assert_same_program(float_lp(form), minmax_program(form).program)


@pytest.mark.parametrize(
    ("game", "value"),
    [
        pytest.param(kuhn_poker(), Fraction(-1, 18), id="kuhn"),  # Kuhn (1950)
        # Lanctot et al. (2017), App. E.2; OpenSpiel's sequence_form_lp test
        pytest.param(leduc_poker(), -0.085606424078, id="leduc"),
    ],
)
def test_both_paths_reach_the_known_value(game, value):
    form = build_sequence_form(game)
    direct = solve_minmax(form.E, form.e, form.F, form.f, form.A)
    program = solve_minmax_program(minmax_program(form))
    assert direct.value == pytest.approx(float(value), abs=1e-9)
    assert program.value == pytest.approx(float(value), abs=1e-9)
