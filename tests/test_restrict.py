"""Restricted players: behaviour fixed or bounded at some information sets."""

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
from gametrees import random_behaviour, random_game, seeds
from hypothesis import given, settings
from scipy.optimize import linprog

from seqform.certify import best_response, expected_value
from seqform.cli.main import main
from seqform.forms.sequence_form import build_sequence_form
from seqform.forms.strategies import uniform_behaviour
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.routes.exact import solve_exact
from seqform.routes.restrict import (
    load_fix_file,
    parse_fix,
    resolve_restrictions,
    solve_restricted,
    violations,
)


def _local_options(actions, bounds):
    """Vertices of {b : sum b = 1, lo <= b <= hi} for a two-action set, or pure actions."""
    if bounds is None:
        return [
            tuple(Fraction(int(k == a)) for k in range(len(actions))) for a in range(len(actions))
        ]
    assert len(actions) == 2, "the test helper handles two-action information sets"
    (first_lo, first_hi), (second_lo, second_hi) = bounds
    low, high = max(second_lo, 1 - first_hi), min(second_hi, 1 - first_lo)
    return sorted({(1 - low, low), (1 - high, high)})


def _vertex_strategies(table, local_bounds):
    """Every choice of one local vertex per information set (Kuhn's theorem for the
    restricted strategy set: its plans are mixtures of these)."""
    options = [
        _local_options(table.actions[i], local_bounds.get(i)) for i in range(table.num_infosets)
    ]
    for choice in itertools.product(*options):
        yield {name: list(choice[i]) for i, name in enumerate(table.infosets)}


def _normal_form_value(game, restrictions) -> float:
    """The value of the restricted game as a matrix game, independent of seqform's LPs."""
    form = build_sequence_form(game)
    rows = list(_vertex_strategies(form.players[0], restrictions.by_player[0]))
    cols = list(_vertex_strategies(form.players[1], restrictions.by_player[1]))
    matrix = np.array([[float(expected_value(game, r, c)) for c in cols] for r in rows])
    m, n = matrix.shape
    # max v  s.t.  p @ matrix >= v for every column,  sum p = 1,  p >= 0.
    result = linprog(
        c=np.r_[np.zeros(m), -1.0],
        A_ub=np.c_[-matrix.T, np.ones(n)],
        b_ub=np.zeros(n),
        A_eq=np.r_[np.ones(m), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * m + [(None, None)],
        method="highs",
    )
    assert result.status == 0
    return -result.fun


CASES = [
    pytest.param(["K:b=1", "J:b=0"], id="p1-bets-K-never-bluffs"),
    pytest.param(["Qb:b=1"], id="p2-always-calls-with-Q"),
    pytest.param(["Qpb:b<=1/5", "J:b>=1/2"], id="p1-bounds"),
    pytest.param(["Jp:b=0", "K:b=1/2"], id="both-players"),
]


@pytest.mark.parametrize("specs", CASES)
def test_restricted_kuhn_value_matches_the_restricted_normal_form(specs):
    game = kuhn_poker()
    form = build_sequence_form(game)
    restrictions = resolve_restrictions(form, [parse_fix(s) for s in specs])
    expected = _normal_form_value(game, restrictions)
    solution = solve_restricted(game, restrictions, form=form)
    assert solution.value == pytest.approx(expected, abs=1e-9)
    assert solution.nash_conv <= 1e-9
    for player in (0, 1):
        probabilities = solution.strategies[player].probabilities
        assert not violations(game, player, probabilities, restrictions, tol=1e-9)
    exact = solve_exact(game, restrictions=restrictions, form=form)
    assert exact.certified and exact.certificate.nash_conv == 0
    assert float(exact.value) == pytest.approx(expected, abs=1e-9)


def test_never_bluffing_player_one_value_is_exact():
    # Player 1 bets K always and never bluffs with J; player 2 can adapt: value -1/9.
    solution = solve_exact(kuhn_poker(), restrictions=[parse_fix("K:b=1"), parse_fix("J:b=0")])
    assert solution.value == Fraction(-1, 9)


def test_restricting_to_the_equilibrium_family_keeps_the_value():
    # α = 1/6 is in Kuhn's family (bet J 1/6, K 1/2): the value stays -1/18.
    solution = solve_exact(kuhn_poker(), restrictions=[parse_fix("J:b=1/6"), parse_fix("K:b=1/2")])
    assert solution.value == Fraction(-1, 18)


@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_unrestricted_best_response_matches_the_tree_walk(seed):
    from treewalk import walk_best_response

    game = random_game(seed)
    form = build_sequence_form(game)
    for player in (0, 1):
        other = random_behaviour(form.players[1 - player], seed + player)
        ours = best_response(game, player, other, bounds={})
        assert ours.value == pytest.approx(walk_best_response(game, player, other)[0], abs=1e-9)


@pytest.mark.parametrize("player", [0, 1], ids=["player-1", "player-2"])
def test_restricted_best_response_is_the_best_restricted_vertex(player):
    # Against a fixed exact opponent, the restricted best response (backward induction with
    # the knapsack) equals the best of the restricted vertex strategies, each walked.
    game = kuhn_poker()
    form = build_sequence_form(game)
    specs = ["K:b>=1/3", "Qpb:b<=1/2", "J:b=1/5"] if player == 0 else ["Kb:b<=2/3", "Jp:b>=1/4"]
    restrictions = resolve_restrictions(form, [parse_fix(s) for s in specs])
    opponent = uniform_behaviour(form.players[1 - player], exact=True)
    response = best_response(game, player, opponent, restrictions.by_player[player])
    sign = 1 if player == 0 else -1
    best = max(
        sign
        * (
            expected_value(game, mine, opponent)
            if player == 0
            else expected_value(game, opponent, mine)
        )
        for mine in _vertex_strategies(form.players[player], restrictions.by_player[player])
    )
    assert response.value == best
    assert not violations(game, player, response.strategy.probabilities, restrictions)


def test_parse_fix_forms():
    assert parse_fix("K:b=1").lower == parse_fix("K:b=1").upper == 1
    bound = parse_fix("Qpb:b<=1/2")
    assert (bound.lower, bound.upper) == (0, Fraction(1, 2))
    bound = parse_fix(" J:b >= 0.25 ")
    assert (bound.infoset, bound.action, bound.lower, bound.upper) == ("J", "b", Fraction(1, 4), 1)
    assert parse_fix("1|1-1,1-2:liar=0").infoset == "1|1-1,1-2"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("K=1", "INFOSET:ACTION"),
        ("K:b=2", "not between 0 and 1"),
        ("K:b=x", "not a number"),
        ("K:b", "write INFOSET:ACTION=P"),
    ],
)
def test_parse_fix_errors(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_fix(spec)


@pytest.mark.parametrize(
    ("specs", "message"),
    [
        (["X:b=1"], "no information set 'X'"),
        (["K:c=1"], "has no action 'c'"),
        (["K:b=1", "K:p=1"], "cannot be met"),
        (["K:b>=1/2", "K:b<=1/3"], "leave no probability"),
    ],
)
def test_resolve_errors(specs, message):
    form = build_sequence_form(kuhn_poker())
    with pytest.raises(ValueError, match=message):
        resolve_restrictions(form, [parse_fix(s) for s in specs])


def test_fix_file(tmp_path):
    path = tmp_path / "fix.json"
    path.write_text(json.dumps({"K": {"b": 1}, "Qpb": {"b": ["1/3", 0.5]}}))
    bounds = load_fix_file(path)
    assert [(b.infoset, b.action, b.lower, b.upper) for b in bounds] == [
        ("K", "b", 1, 1),
        ("Qpb", "b", Fraction(1, 3), Fraction(1, 2)),
    ]
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match="expected an object"):
        load_fix_file(path)


def test_cli_fix_text(capsys):
    assert main(["solve", "kuhn", "--fix", "K:b=1", "--fix", "J:b=0"]) == 0
    out = capsys.readouterr().out
    assert "Value of the restricted game to Player 1: -0.1111111111 (= -1/9)" in out
    assert "K:b = 1" in out
    assert "equilibrium of the restricted game" in out


def test_cli_fix_exact_json(capsys, tmp_path):
    path = tmp_path / "fix.json"
    path.write_text(json.dumps({"K": {"b": 1}, "J": {"b": 0}}))
    assert main(["solve", "kuhn", "--exact", "--fix-file", str(path), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["exact"]["value"] == "-1/9"
    assert document["restrictions"]["restricted_players"] == [1]


def test_cli_fix_error_is_one_line(capsys):
    assert main(["solve", "kuhn", "--fix", "Z:b=1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("seqform: error: no information set 'Z'") and err.count("\n") == 1
