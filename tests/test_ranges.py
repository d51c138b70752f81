"""The set of all equilibria: ranges of every probability, dimension, parametrisation."""

import json
import re
from fractions import Fraction

import numpy as np
import pytest
from gametrees import random_game, seeds
from hypothesis import HealthCheck, given, settings

from seqform.certify import certify
from seqform.cli.main import main
from seqform.forms.strategies import behaviour_from_plan
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.questions.ranges import equilibrium_ranges
from seqform.routes.solve import solve

THIRD = Fraction(1, 3)


@pytest.fixture(scope="module")
def exact():
    return equilibrium_ranges(kuhn_poker(), exact=True)


@pytest.fixture(scope="module")
def floats():
    return equilibrium_ranges(kuhn_poker())


def _behaviour(player_ranges, infoset, action):
    found = next(a for a in player_ranges.actions if (a.infoset, a.action) == (infoset, action))
    return found.probability


def test_kuhn_player_two_is_unique(exact):
    # Kuhn (1950); Wikipedia "Kuhn poker": player 2's equilibrium strategy is unique.
    second = exact.players[1]
    assert second.unique and second.dimension == 0
    expected = {
        ("Kp", "b"): 1, ("Kb", "b"): 1, ("Qp", "b"): 0,
        ("Qb", "b"): THIRD, ("Jp", "b"): THIRD, ("Jb", "b"): 0,
    }  # fmt: skip
    for (infoset, action), value in expected.items():
        probability = _behaviour(second, infoset, action)
        assert probability.low == probability.high == value


def test_kuhn_player_one_family(exact):
    # Kuhn (1950); Wikipedia "Kuhn poker": bet J with α ∈ [0, 1/3], K with 3α, never Q;
    # after check-bet call Q with α + 1/3, call K, fold J.
    first = exact.players[0]
    assert first.dimension == 1
    assert _behaviour(first, "J", "b") == _range(0, THIRD)
    assert _behaviour(first, "K", "b") == _range(0, 1)
    assert _behaviour(first, "Qpb", "b") == _range(THIRD, 2 * THIRD)
    assert _behaviour(first, "Q", "b") == _range(0, 0)
    assert _behaviour(first, "Kpb", "b") == _range(1, 1)  # wherever Kpb is reached
    assert _behaviour(first, "Jpb", "b") == _range(0, 0)


def _range(low, high):
    from seqform.questions.ranges import Range

    return Range(Fraction(low), Fraction(high))


def test_kuhn_endpoints_are_exact_fractions(exact):
    for player in exact.players:
        assert player.verified
        for action in player.actions:
            assert isinstance(action.plan.low, Fraction) and isinstance(action.plan.high, Fraction)


def test_kuhn_player_one_parametrisation(exact):
    family = exact.players[0].parametrisation
    assert family.parameter == "J:b"
    assert (family.low, family.high) == (0, THIRD)
    entries = {e.label: (e.constant, e.slope) for e in family.entries}
    assert entries["K:b"] == (0, 3)  # K bets 3α
    assert entries["Qpb:b"] == (THIRD, 1)  # Q calls α + 1/3 (Q never bets, so x = b)
    assert entries["J:b"] == (0, 1)


def test_float_mode_agrees(floats, exact):
    assert floats.value == pytest.approx(float(exact.value), abs=1e-9)
    for float_player, exact_player in zip(floats.players, exact.players, strict=True):
        assert float_player.dimension == exact_player.dimension
        for a, b in zip(float_player.actions, exact_player.actions, strict=True):
            assert a.plan.low == pytest.approx(float(b.plan.low), abs=1e-7)
            assert a.plan.high == pytest.approx(float(b.plan.high), abs=1e-7)


def test_every_vertex_is_an_equilibrium_strategy(exact):
    # Pair each vertex of player 1's set with player 2's unique strategy: NashConv 0.
    form = exact.form
    second = exact.players[1].vertices[0]
    y = behaviour_from_plan(form.players[1], np.array([float(v) for v in second]))
    for vertex in exact.players[0].vertices:
        x = behaviour_from_plan(form.players[0], np.array([float(v) for v in vertex]))
        assert certify(exact.game, x, y).nash_conv <= 1e-9


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_ranges_contain_the_lp_solution_on_random_games(seed):
    game = random_game(seed, max_depth=3)
    ranges = equilibrium_ranges(game)
    solution = solve(game)
    for player, plan in zip(ranges.players, solution.plans, strict=True):
        table = ranges.form.players[player.player]
        for action in player.actions:
            index = table.index_of_infoset()[action.infoset]
            sequence = table.sequences_of(index)[table.actions[index].index(action.action)]
            assert action.plan.low - 1e-7 <= plan[sequence] <= action.plan.high + 1e-7
            if action.probability is not None:
                assert action.probability.low <= action.probability.high + 1e-9


def test_cli_ranges_exact_text(capsys):
    assert main(["ranges", "kuhn", "--exact"]) == 0
    out = capsys.readouterr().out
    assert "Player 2: the optimal strategy is unique" in out
    assert "Player 1: the optimal strategies form a 1-dimensional set" in out
    assert "t = x[J:b] ranges over [0, 1/3];" in out
    assert "x[K:b] = 3t" in out


def test_cli_ranges_json(capsys):
    assert main(["ranges", "kuhn", "--exact", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["schema"] == "seqform.ranges/2"
    assert document["value_exact"] == "-1/18"
    first = document["players"][0]
    assert first["dimension"] == 1 and first["parametrisation"]["parameter"] == "J:b"
    j = next(i for i in first["infosets"] if i["name"] == "J")
    bet = next(a for a in j["actions"] if a["action"] == "b")
    assert bet["probability"] == {"low": "0", "high": "1/3"}


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds)
def test_exact_vertices_are_exact_equilibria_on_random_games(seed):
    game = random_game(seed, max_depth=3)
    ranges = equilibrium_ranges(game, exact=True)
    tables = ranges.form.players
    partner = [behaviour_from_plan(tables[p], ranges.players[p].vertices[0]) for p in (0, 1)]
    for player in (0, 1):
        for vertex in ranges.players[player].vertices:
            mine = behaviour_from_plan(tables[player], vertex)
            pair = (mine, partner[1]) if player == 0 else (partner[0], mine)
            certificate = certify(game, pair[0], pair[1])
            assert certificate.nash_conv == 0
            assert certificate.value == ranges.value


# --- the work estimate ----------------------------------------------------------------------


def test_work_is_estimated_and_refused_past_the_limit(monkeypatch):
    from seqform.forms.sequence_form import build_sequence_form
    from seqform.io.loader import load_game
    from seqform.questions import ranges_work as ranges_module
    from seqform.questions.ranges_work import WorkRefusedError, work_estimate

    game = load_game("kuhn")
    # Kuhn: 12 non-empty sequences per player, so at most 4 × 24 = 96 LPs (module docstring:
    # two per plan entry, two per action probability)
    assert work_estimate(build_sequence_form(game), 0.5).lps == 96
    with pytest.raises(WorkRefusedError, match=r"up to 96 LPs .* --force"):
        equilibrium_ranges(game, max_seconds=0.0)
    said: list[str] = []
    monkeypatch.setattr(ranges_module, "ANNOUNCE_SECONDS", 0.0)
    equilibrium_ranges(game, max_seconds=None, progress=said.append)
    assert len(said) == 1 and said[0].startswith("ranges: started; up to 96 LPs")


@pytest.mark.slow
def test_cli_refuses_leduc_ranges_with_the_estimate_unless_forced(capsys):
    assert main(["ranges", "leduc"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("seqform: error: leduc: ranges would take up to 8,736 LPs of about ")
    assert err.count("\n") == 1 and "--force" in err


@pytest.mark.slow  # about 1 s: Leduc's tree and its value LP, before the refusal
def test_the_library_refuses_leduc_ranges_as_the_cli_does(monkeypatch):
    # equilibrium_ranges had no limit by default where `seqform ranges leduc` is refused (the
    # test above): Leduc's 8,736 LPs at about 0.2 s each are over the limit of 300 s
    from seqform.base.limits import LIMITS
    from seqform.questions import ranges as ranges_module
    from seqform.questions.ranges_work import WorkRefusedError

    def ran(*args, **kwargs):
        raise AssertionError("the ranges' LPs started past the work limit")

    monkeypatch.setattr(ranges_module, "_player_ranges", ran)
    limit = rf"more than the limit of {LIMITS.ranges_seconds:,.0f} s; --force \(max_seconds=None\)"
    with pytest.raises(
        WorkRefusedError, match=rf"^leduc: ranges would take up to 8,736 LPs .*{limit}"
    ):
        equilibrium_ranges("leduc")


@pytest.mark.parametrize(
    ("spec", "lps"),
    [
        # 4 LPs a non-empty sequence: 45,866 sequences (seqform compare "leduc(ranks=13)"
        # --no-solve), 229,364 for Liar's Dice with 7 sides
        pytest.param("leduc(ranks=13)", 183_456, id="leduc-13"),
        pytest.param("liars_dice(sides=7)", 917_448, id="liars-dice-7"),
    ],
)
def test_too_many_lps_are_refused_before_the_game_is_built(spec, lps, monkeypatch, capsys):
    # The refusal came after the build: 1.2 million nodes for leduc(ranks=13), a minute for
    # Liar's Dice with 7 sides; now the sequences its parameters give are counted first.
    from seqform.questions.ranges_work import WorkRefusedError

    def not_built(*args, **kwargs):
        raise AssertionError("built before the refusal")

    monkeypatch.setattr("seqform.cli.progress.load_game", not_built)
    monkeypatch.setattr("seqform.questions.ranges.as_game", not_built)
    assert main(["ranges", spec]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"seqform: error: {spec}: ranges would solve up to {lps:,} LPs, more than 20,000 "
        "(hours of work); --force (max_seconds=None) runs it anyway\n"
    )
    with pytest.raises(WorkRefusedError, match=f"up to {lps:,} LPs"):
        equilibrium_ranges(spec, max_seconds=300.0)


def test_work_beyond_the_time_limit_is_refused_from_the_counts_before_the_build(
    monkeypatch, capsys
):
    # ranges "kuhn(cards=500)" built its tree and solved its value LP (55 s) before its
    # estimate of hours was refused; 16,000 LPs (4 a non-empty sequence: 1 + 4 × 500 per
    # player), each at least 3e-7 s per non-zero: 1,247,500 of A (5 a deal: 500 × 499 deals;
    # Kuhn 1950's 5 betting lines) and 4,002 sequences
    from seqform.questions.ranges_work import WorkRefusedError

    def not_built(*args, **kwargs):
        raise AssertionError("built before the refusal")

    monkeypatch.setattr("seqform.cli.progress.load_game", not_built)
    monkeypatch.setattr("seqform.questions.ranges.as_game", not_built)
    says = (
        "kuhn(cards=500): ranges would take up to 16,000 LPs of at least 0.38 s each (their "
        "1,251,502 non-zeros at 3e-07 s each), at least 100 min, more than the limit of 300 s"
    )
    assert main(["ranges", "kuhn(cards=500)"]) == 1
    assert capsys.readouterr().err.startswith(f"seqform: error: {says}; --force")
    with pytest.raises(WorkRefusedError, match=f"^{re.escape(says)}"):
        equilibrium_ranges("kuhn(cards=500)")


def test_a_built_game_s_work_is_refused_from_its_counts_before_the_value_lp(monkeypatch):
    # a game the parameters do not size (here: built) is refused from its sequence form's
    # counts, before its value LP: Kuhn's 96 LPs of 68 non-zeros take at least 2 ms
    from seqform.questions import ranges as ranges_module
    from seqform.questions.ranges_work import WorkRefusedError

    def solved(*args, **kwargs):
        raise AssertionError("the value LP was solved before the refusal")

    monkeypatch.setattr(ranges_module, "_value", solved)
    with pytest.raises(WorkRefusedError, match=r"^kuhn: .* 96 LPs of at least .* 68 non-zeros"):
        equilibrium_ranges(kuhn_poker(), max_seconds=1e-3)
