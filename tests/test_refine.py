"""Quasi-perfect equilibria (Miltersen and Sørensen 2010): sensible play after mistakes."""

import json
from fractions import Fraction

import numpy as np
import pytest

from seqform.certify import certify
from seqform.cli.main import main
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.lp.exact.parametric import ParametricLP, lex_sign, lexicographic_optimum
from seqform.lp.exact.program import AT_LOWER, AT_UPPER, BASIC, Basis, LinearProgram
from seqform.lp.exact.rational import RationalMatrix
from seqform.routes.refine import refine, sequence_lengths
from seqform.routes.solve import solve

KUHN_VALUE = Fraction(-1, 18)  # Kuhn (1950)


@pytest.fixture(scope="module")
def refined_kuhn(kuhn):
    return refine(kuhn)


def test_refined_kuhn_is_an_exact_equilibrium(refined_kuhn):
    assert refined_kuhn.verified
    assert refined_kuhn.value == KUHN_VALUE
    assert refined_kuhn.certificate.nash_conv == 0  # exact, so certainly <= 1e-9
    first, second = refined_kuhn.strategies
    assert certify(refined_kuhn.game, first, second).nash_conv == 0


def test_refined_kuhn_plays_sensibly_after_check_and_bet(refined_kuhn):
    # What sensible play means here: player 1 holding K facing a bet after checking always calls;
    # holding J always folds.  Player 2 likewise calls with K and folds with J.
    first, second = refined_kuhn.strategies
    assert first.at("Kpb") == {"p": 0, "b": 1}
    assert first.at("Jpb") == {"p": 1, "b": 0}
    assert second.at("Kb") == {"p": 0, "b": 1}
    assert second.at("Jb") == {"p": 1, "b": 0}


def test_refined_kuhn_leaves_no_information_set_arbitrary(refined_kuhn):
    # Every information set has exact probabilities summing to one, including those the
    # player's own limit plan never reaches, which are listed as refined.
    for strategy in refined_kuhn.strategies:
        table = strategy.table
        for index in range(table.num_infosets):
            probabilities = [strategy.probabilities[s] for s in table.sequences_of(index)]
            assert sum(probabilities) == 1 and min(probabilities) >= 0
    refined = {name for names in refined_kuhn.refined for name in names}
    own_unreached = {
        name
        for strategy in refined_kuhn.strategies
        for name, flag in zip(strategy.table.infosets, strategy.unreached, strict=True)
        if flag
    }
    assert refined == own_unreached


def test_nash_alone_allows_folding_k_where_the_refinement_calls(refined_kuhn):
    # Kuhn's family with α = 1/3 bets K always, so Kpb is never reached and folding K
    # there is still an exact equilibrium: the arbitrariness the refinement removes.
    third = Fraction(1, 3)
    first = {
        "J": [1 - third, third],
        "Jpb": [1, 0],
        "Q": [1, 0],
        "Qpb": [third, 1 - third],
        "K": [0, 1],
        "Kpb": [1, 0],
    }  # fold K after check-bet
    second = {
        "Qp": [1, 0],
        "Qb": [1 - third, third],
        "Kp": [0, 1],
        "Kb": [0, 1],
        "Jp": [1 - third, third],
        "Jb": [1, 0],
    }
    first = {k: [Fraction(p) for p in v] for k, v in first.items()}
    second = {k: [Fraction(p) for p in v] for k, v in second.items()}
    assert certify(refined_kuhn.game, first, second).nash_conv == 0
    assert refined_kuhn.strategies[0].at("Kpb")["b"] == 1


@pytest.mark.parametrize("cards", [4, 5], ids=lambda c: f"{c}-cards")
def test_refined_n_card_kuhn(cards):
    solution = refine(kuhn_poker(cards=cards))
    assert solution.verified and solution.certificate.nash_conv == 0
    assert float(solution.value) == pytest.approx(solve(kuhn_poker(cards=cards)).value, abs=1e-9)
    first, second = solution.strategies
    top, bottom = str(cards), "1"
    assert first.at(f"{top}pb")["b"] == 1  # the best card calls
    assert first.at(f"{bottom}pb")["b"] == 0  # the worst card folds
    assert second.at(f"{top}b")["b"] == 1
    assert second.at(f"{bottom}b")["b"] == 0


def test_sequence_lengths_count_own_moves():
    table = refine(kuhn_poker()).form.players[0]
    lengths = sequence_lengths(table)
    labels = table.labels()
    assert lengths[0] == 0
    assert lengths[labels.index("J:b")] == 1
    assert lengths[labels.index("Jpb:b")] == 2


# --- the lexicographic simplex over Q(ε) --------------------------------------------------


def _tiny() -> ParametricLP:
    # max b  s.t.  a + b <= 1,  a >= ε,  b >= 0: optimum a = ε, b = 1 - ε.
    matrix = RationalMatrix.from_triples((1, 2), [0, 0], [0, 1], [1, 1])
    zero, one = Fraction(0), Fraction(1)
    program = LinearProgram(
        matrix=matrix,
        objective=(zero, one),
        col_lower=(zero, zero),
        col_upper=(None, None),
        row_lower=(None,),
        row_upper=(one,),
    )
    return ParametricLP(
        program=program,
        degree=1,
        objective=((zero, zero), (one, zero)),
        col_lower=((zero, one), (zero, zero)),
        col_upper=(None, None),
        row_lower=(None,),
        row_upper=((one, zero),),
    )


def test_lexicographic_simplex_pivots_to_the_optimum_for_small_epsilon():
    # Start with a basic and b at 0: feasible (a = 1 >= ε) but b should enter.
    start = Basis(col_status=np.array([BASIC, AT_LOWER]), row_status=np.array([AT_UPPER]))
    solution = lexicographic_optimum(_tiny(), start)
    assert solution is not None and solution.pivots == 1
    assert solution.values == ((0, 1), (1, -1))  # a = ε, b = 1 - ε
    assert lex_sign(solution.row_duals[0]) > 0


def test_lexicographic_simplex_needs_a_feasible_start():
    # With a + b <= 0 and a at its lower bound ε, the basic b = -ε is infeasible.
    lp = _tiny()
    tight = LinearProgram(
        matrix=lp.program.matrix,
        objective=lp.program.objective,
        col_lower=lp.program.col_lower,
        col_upper=lp.program.col_upper,
        row_lower=(None,),
        row_upper=(Fraction(0),),
    )
    infeasible = ParametricLP(
        program=tight,
        degree=1,
        objective=lp.objective,
        col_lower=lp.col_lower,
        col_upper=lp.col_upper,
        row_lower=(None,),
        row_upper=((Fraction(0), Fraction(0)),),
    )
    start = Basis(col_status=np.array([AT_LOWER, BASIC]), row_status=np.array([AT_UPPER]))
    assert lexicographic_optimum(infeasible, start) is None


def test_lex_sign():
    assert lex_sign([0, 0, 2]) == 1
    assert lex_sign([0, -1, 5]) == -1
    assert lex_sign([0, 0]) == 0


# --- the command line ----------------------------------------------------------------------


def test_cli_refine_text(capsys):
    assert main(["solve", "kuhn", "--refine"]) == 0
    out = capsys.readouterr().out
    assert "quasi-perfect" in out
    assert "  exploitability (NashConv / 2)  exactly 0" in out
    assert "Jb       fold 1  call 0" in out


def test_cli_refine_json(capsys):
    assert main(["solve", "kuhn", "--refine", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    refinement = document["refinement"]
    assert refinement["verified"] is True and refinement["value_exact"] == "-1/18"
    assert document["certificate"]["exploitability"] <= 1e-9
    first = refinement["strategies"][0]
    kpb = next(i for i in first["infosets"] if i["name"] == "Kpb")
    assert [a["probability"] for a in kpb["actions"]] == ["0", "1"]


def test_cli_refine_with_fix_is_an_error(capsys):
    assert main(["solve", "kuhn", "--refine", "--fix", "K:b=1"]) == 2  # a usage error
    assert "cannot be combined" in capsys.readouterr().err


def test_fallback_is_an_exact_equilibrium_marked_unverified():
    # No time for exact pivoting: the answer is an exact equilibrium whose play where the
    # players' own strategies never arrive answers the perturbed opponent.
    solution = refine(kuhn_poker(), max_seconds=0)
    assert not solution.verified
    assert solution.certificate.nash_conv == 0
    for strategy in solution.strategies:
        for index in range(strategy.table.num_infosets):
            probabilities = [strategy.probabilities[s] for s in strategy.table.sequences_of(index)]
            assert sum(probabilities) == 1
