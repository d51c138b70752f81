"""OpenSpiel games converted by walking their trees, checked against OpenSpiel's own LP.

References: Kuhn poker −1/18 (Kuhn 1950); Leduc poker −0.085606424078 (Lanctot et al.
2017, the value OpenSpiel's tests use), and in the same test OpenSpiel's own sequence-form
LP ``open_spiel.python.algorithms.sequence_form_lp.solve_zero_sum_game``.
"""

from __future__ import annotations

import functools
import sys
from fractions import Fraction

import pytest

from seqform.forms.sequence_form import build_sequence_form
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.errors import InvalidGameError, UnknownGameError
from seqform.game.formats.efg import read_efg
from seqform.game.formats.openspiel import (
    OpenSpielUnavailableError,
    exact_number,
    exact_probabilities,
    load_openspiel_game,
)
from seqform.game.nodes import Chance, Decision, Terminal, walk
from seqform.io.export import write_efg
from seqform.io.loader import load_game
from seqform.routes.solve import solve

KUHN_VALUE = -1 / 18  # Kuhn (1950)
LEDUC_VALUE = -0.085606424078  # Lanctot et al. (2017); OpenSpiel's sequence_form_lp_test
TOLERANCE = 1e-9  # two LP solutions (HiGHS floats) of the same game


@pytest.fixture
def openspiel_value(pyspiel, monkeypatch):
    """OpenSpiel's own sequence-form LP value to player 0 of a game spec.

    OpenSpiel's LP defaults to the ECOS solver with ECOS-only options; ECOS is not in our
    environment, so the options are dropped and HiGHS is named instead.
    """
    from open_spiel.python.algorithms import lp_solver, sequence_form_lp

    plain = functools.partialmethod(lp_solver.LinearProgram.solve, solver_kwargs={})
    monkeypatch.setattr(lp_solver.LinearProgram, "solve", plain)

    def value(spec: str) -> float:
        result = sequence_form_lp.solve_zero_sum_game(pyspiel.load_game(spec), solver="HIGHS")
        return float(result[0])

    return value


def counts(game) -> tuple[list[int], list[int]]:
    form = build_sequence_form(game)
    return (
        [table.num_infosets for table in form.players],
        [table.num_sequences for table in form.players],
    )


def test_kuhn_poker_has_kuhns_value_and_shape(pyspiel):
    game = load_openspiel_game("kuhn_poker")
    assert solve(game).value == pytest.approx(KUHN_VALUE, abs=TOLERANCE)
    assert counts(game) == counts(kuhn_poker())  # 6 infosets, 13 sequences each


def test_kuhn_poker_is_exact_and_readable(pyspiel):
    game = load_openspiel_game("kuhn_poker")
    root = game.root
    assert isinstance(root, Chance)
    assert root.probabilities == (Fraction(1, 3),) * 3  # OpenSpiel's 0.333... made exact
    second_deal = root.children[0]
    assert isinstance(second_deal, Chance)
    assert second_deal.probabilities == (Fraction(1, 2),) * 2
    first_decision = second_deal.children[0]
    assert isinstance(first_decision, Decision)
    assert first_decision.infoset == "P1:0"  # OpenSpiel player 0 holding card 0
    assert first_decision.actions == ("Pass", "Bet")
    names = {node.infoset for node, _ in walk(root) if isinstance(node, Decision)}
    assert {"P1:0pb", "P2:1p", "P2:2b"} <= names
    assert game.player_names == ("Player 1", "Player 2")
    payoffs = {node.payoffs for node, _ in walk(root) if isinstance(node, Terminal)}
    assert payoffs == {(Fraction(u), Fraction(-u)) for u in (-2, -1, 1, 2)}


def test_leduc_poker_matches_openspiels_own_lp(openspiel_value):
    game = load_openspiel_game("leduc_poker")
    value = solve(game).value
    assert value == pytest.approx(openspiel_value("leduc_poker"), abs=TOLERANCE)
    assert value == pytest.approx(LEDUC_VALUE, abs=1e-9)
    assert counts(game) == ([468, 468], [1093, 1093])  # OpenSpiel's 936 infostates in all


def test_liars_dice_with_three_sides_matches_openspiels_own_lp(openspiel_value):
    spec = "liars_dice(dice_sides=3)"
    assert solve(load_openspiel_game(spec)).value == pytest.approx(
        openspiel_value(spec), abs=TOLERANCE
    )


@pytest.mark.slow
def test_leduc_poker_survives_a_gambit_round_trip(pyspiel, tmp_path):
    # pygambit's reader takes ~3 s on Leduc's 9,457 nodes; the conversion itself ~0.3 s.
    game = load_openspiel_game("leduc_poker")
    path = tmp_path / "leduc.efg"
    write_efg(game, path)
    assert read_efg(path).root == game.root


def test_simultaneous_game_made_turn_based_is_solved(pyspiel):
    # Rock-paper-scissors is symmetric: value 0 (von Neumann and Morgenstern 1944).
    game = load_openspiel_game("turn_based_simultaneous_game(game=matrix_rps())")
    assert solve(game).value == pytest.approx(0, abs=TOLERANCE)


def test_load_game_dispatches_openspiel_specs(pyspiel):
    game = load_game("openspiel:kuhn_poker")
    assert game.name == "openspiel:kuhn_poker"


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        pytest.param(
            "kuhn_poker(players=3)",
            r"3 players; seqform converts two-player OpenSpiel games only \(three-player Kuhn "
            r"poker is built in: kuhn3\)$",  # not "solves two-player": iterate runs kuhn3
            id="3p",
        ),
        pytest.param("trade_comm", r"general-sum, not zero-sum", id="general-sum"),
        pytest.param("tiny_bridge_2p", r"identical-interest, not zero-sum", id="identical"),
        pytest.param(
            "matrix_rps",
            r"simultaneous dynamics.*turn_based_simultaneous_game\(game=matrix_rps\(\)\)",
            id="simultaneous",
        ),
        pytest.param("backgammon", r"no information state strings", id="no-infostates"),
        pytest.param("liars_dice_ir(dice_sides=3)", r"imperfect recall", id="imperfect-recall"),
    ],
)
def test_games_seqform_cannot_solve_are_refused_with_the_reason(pyspiel, spec, reason):
    with pytest.raises(InvalidGameError, match=reason):
        load_openspiel_game(spec)


def test_unknown_game_is_named_without_the_whole_list(pyspiel):
    with pytest.raises(UnknownGameError, match=r"Unknown game 'no_such_game'$"):
        load_openspiel_game("no_such_game")


def test_too_many_histories_are_refused(pyspiel):
    with pytest.raises(InvalidGameError, match=r"more than 100 histories"):
        load_openspiel_game("leduc_poker", max_nodes=100)


def test_without_open_spiel_the_error_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # makes "import pyspiel" fail
    with pytest.raises(OpenSpielUnavailableError, match=r'pip install "seqform\[openspiel\]"'):
        load_openspiel_game("kuhn_poker")
    assert issubclass(OpenSpielUnavailableError, ImportError)


@pytest.mark.parametrize(
    ("number", "exact"),
    [
        pytest.param(1 / 3, Fraction(1, 3), id="third"),
        pytest.param(0.1, Fraction(1, 10), id="tenth"),
        pytest.param(-2.0, Fraction(-2), id="integer"),
        pytest.param(2.0**-30, Fraction(1, 2**30), id="tiny-binary"),  # denominator > 10**6
        pytest.param(1 / 7919 / 7907, Fraction(1 / 7919 / 7907), id="no-small-fraction"),
        pytest.param(1e-13, Fraction(1e-13), id="tiny-stays-non-zero"),
    ],
)
def test_exact_number(number, exact):
    assert exact_number(number) == exact


def test_exact_number_refuses_nan():
    with pytest.raises(ValueError, match="not a finite number"):
        exact_number(float("nan"))


def test_exact_probabilities_keep_simple_fractions():
    assert exact_probabilities([1 / 3] * 3) == (Fraction(1, 3),) * 3
    assert exact_probabilities([0.1] * 10) == (Fraction(1, 10),) * 10


def test_exact_probabilities_are_normalised_when_off_by_float_noise():
    tiny = 1 / 7919 / 7907  # no fraction with denominator <= 10**6 is near it
    probabilities = exact_probabilities([tiny, 1 - tiny])
    assert sum(probabilities) == 1
    assert float(probabilities[0]) == pytest.approx(tiny, rel=1e-9)


@pytest.mark.parametrize(
    ("values", "reason"),
    [
        pytest.param([0.5, 0.4], r"sum to 0.9", id="short"),
        pytest.param([1.5, -0.5], r"negative probability", id="negative"),
    ],
)
def test_exact_probabilities_refuse_what_is_not_a_distribution(values, reason):
    with pytest.raises(ValueError, match=reason):
        exact_probabilities(values)
