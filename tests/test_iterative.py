"""The CFR family on the compiled tree: OpenSpiel's solvers to 1e-12, convergence, stopping."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from openspiel_match import compare_with_openspiel

from seqform.certify import certify
from seqform.forms.strategies import plan_from_behaviour, uniform_behaviour
from seqform.io.loader import load_game
from seqform.iterative.cfr import cfr, cfr_plus, dcfr
from seqform.iterative.layout import build_layout, to_table_order
from seqform.iterative.mccfr import DEFAULT_SEED, external_sampling_mccfr
from seqform.iterative.passes import realization_plan
from seqform.iterative.run import Sample

KUHN_VALUE = Fraction(-1, 18)  # Kuhn (1950)
LEDUC_ACTIONS = {"Fold": "f", "Call": "c", "Raise": "r"}  # leduc_poker's ActionToString


def openspiel_solver(name: str):
    """OpenSpiel's python solver class for one of our algorithm names."""
    cfr_module = pytest.importorskip("open_spiel.python.algorithms.cfr")
    discounted = pytest.importorskip("open_spiel.python.algorithms.discounted_cfr")
    return {
        "cfr": cfr_module.CFRSolver,
        "cfr+": cfr_module.CFRPlusSolver,
        "dcfr": discounted.DCFRSolver,
    }[name]


def largest_difference(result, solver, openspiel_key) -> float:
    """Largest difference of action probabilities between our and OpenSpiel's averages."""
    average = solver.average_policy()
    worst = 0.0
    for strategy in result.strategies:
        for name, probabilities in strategy.as_dict().items():
            key = openspiel_key(name)
            legal = solver._info_state_nodes[key].legal_actions  # OpenSpiel's action order
            theirs = average.policy_for_key(key)
            for ours, action in zip(probabilities.values(), legal, strict=True):
                worst = max(worst, abs(ours - theirs[action]))
    return worst


SOLVERS = {"cfr": cfr, "cfr+": cfr_plus, "dcfr": dcfr}

# DCFR's discounting keeps cumulative regrets small, so the rounding of the two summation
# orders (ours by sequence, OpenSpiel's history by history) grows from 1e-16 to
# 1.1e-12 in 50 Kuhn iterations (measured); CFR and CFR+ stay below 1e-14.
KUHN_TOLERANCE = {"cfr": 1e-12, "cfr+": 1e-12, "dcfr": 1e-11}


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "dcfr"])
def test_kuhn_average_policies_match_openspiel(kuhn, algorithm):
    pyspiel = pytest.importorskip("pyspiel")
    solver = openspiel_solver(algorithm)(pyspiel.load_game("kuhn_poker"))
    for _ in range(50):
        solver.evaluate_and_update_policy()
    ours = SOLVERS[algorithm](kuhn, 50, every=50)
    # Our Kuhn names its information sets "Qpb"; OpenSpiel "1pb" (cards J, Q, K are 0, 1, 2).
    key = lambda name: str("JQK".index(name[0])) + name[1:]  # noqa: E731
    assert largest_difference(ours, solver, key) <= KUHN_TOLERANCE[algorithm]


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ["cfr", "cfr+", "dcfr"])
def test_leduc_average_policies_match_openspiel(algorithm):
    pyspiel = pytest.importorskip("pyspiel")
    leduc, theirs = load_game("leduc"), pyspiel.load_game("leduc_poker")
    ours_of = compare_with_openspiel(leduc, theirs, LEDUC_ACTIONS.__getitem__)
    key_of = {name: key for key, name in ours_of.items()}
    solver = openspiel_solver(algorithm)(theirs)
    for _ in range(10):
        solver.evaluate_and_update_policy()
    ours = SOLVERS[algorithm](leduc, 10, every=10)
    assert largest_difference(ours, solver, key_of.__getitem__) <= 1e-12


def test_layout_plan_is_the_realization_plan(kuhn):
    rng = np.random.default_rng(5)
    for player in build_layout(kuhn).players:
        uniform = uniform_behaviour(player.table)
        probabilities = uniform.probabilities * rng.uniform(0.5, 1.5, player.num_sequences)
        for index in range(player.table.num_infosets):
            sequences = list(player.table.sequences_of(index))
            probabilities[sequences] /= probabilities[sequences].sum()
        strategy = type(uniform)(
            table=player.table, probabilities=probabilities, unreached=uniform.unreached
        )
        internal = probabilities[player.order]
        ours = to_table_order(player, realization_plan(player, internal))
        assert ours == pytest.approx(plan_from_behaviour(strategy), abs=1e-15)


@pytest.mark.parametrize(
    ("algorithm", "target", "within"),
    [
        # Measured with every=10: CFR first below 1e-2 at 170 iterations, below 1e-3 at 1,380;
        # CFR+ below 1e-3 at 170 and below 1e-4 at 850; DCFR below 1e-3 at 270.
        pytest.param(cfr, 1e-2, 200, id="cfr-1e-2"),
        pytest.param(cfr_plus, 1e-3, 200, id="cfr+-1e-3"),
        pytest.param(dcfr, 1e-3, 300, id="dcfr-1e-3"),
    ],
)
def test_nash_conv_falls_below_target_on_kuhn(kuhn, algorithm, target, within):
    # the target is an exploitability, NashConv / 2: stop at NashConv <= 2 * target
    result = algorithm(kuhn, within, every=10, target=target / 2)
    assert result.stopped == "target"
    assert result.nash_conv / 2 <= target / 2
    assert result.history[0].nash_conv > result.history[-1].nash_conv


@pytest.mark.parametrize("algorithm", [cfr, cfr_plus, dcfr], ids=["cfr", "cfr+", "dcfr"])
def test_nash_conv_decreases_by_decades(kuhn, algorithm):
    samples = {s.iteration: s.nash_conv for s in algorithm(kuhn, 1000, every=10).history}
    assert samples[10] > samples[100] > samples[1000]


def test_cfr_plus_value_converges_to_minus_one_eighteenth(kuhn):
    # Measured: after 1,000 CFR+ iterations the value is within 3.7e-7 of -1/18.
    result = cfr_plus(kuhn, 1000, every=1000)
    assert certify(kuhn, *result.strategies).value == pytest.approx(float(KUHN_VALUE), abs=1e-6)


def test_mccfr_is_reproducible_and_its_nash_conv_falls(kuhn):
    first = external_sampling_mccfr(kuhn, 2000, seed=7, every=200)
    again = external_sampling_mccfr(kuhn, 2000, seed=7, every=200)
    other = external_sampling_mccfr(kuhn, 2000, seed=8, every=200)
    assert first.seed == 7
    assert [s.nash_conv for s in first.history] == [s.nash_conv for s in again.history]
    assert np.array_equal(first.strategies[0].probabilities, again.strategies[0].probabilities)
    assert first.history[-1].nash_conv != other.history[-1].nash_conv
    # Measured with seed 7: 0.13 after 200 iterations, 0.024 after 2,000.
    assert first.history[-1].nash_conv < first.history[0].nash_conv / 3


def test_mccfr_default_seed_is_recorded(kuhn):
    assert external_sampling_mccfr(kuhn, 10, every=10).seed == DEFAULT_SEED == 0


def test_callback_sees_every_sample_and_can_stop(kuhn):
    seen: list[Sample] = []

    def stop_at_thirty(sample: Sample) -> bool:
        seen.append(sample)
        return sample.iteration >= 30

    result = cfr(kuhn, 100, every=10, on_sample=stop_at_thirty)
    assert result.stopped == "callback"
    assert result.iterations == 30
    assert [s.iteration for s in seen] == [10, 20, 30]
    assert [s.iteration for s in result.history] == [10, 20, 30]


def test_last_iteration_is_always_measured(kuhn):
    result = cfr_plus(kuhn, 25, every=10)
    assert [s.iteration for s in result.history] == [10, 20, 25]
    assert result.nash_conv == pytest.approx(certify(kuhn, *result.strategies).nash_conv)


def test_time_limit_stops(kuhn):
    result = cfr(kuhn, time_limit=0.01, every=1_000_000)
    assert result.stopped == "time limit"
    assert result.seconds >= 0.01
    assert result.history[-1].iteration == result.iterations


@pytest.mark.parametrize(
    ("options", "message"),
    [
        pytest.param({"iterations": 0}, "iterations must be a positive integer", id="zero"),
        pytest.param({"iterations": -3}, "iterations must be a positive integer", id="negative"),
        pytest.param({"iterations": "9"}, "iterations must be a positive integer", id="text"),
        pytest.param({"iterations": 5, "every": 0}, "every must be", id="every"),
        pytest.param({"target": -1.0}, "target must be a positive number", id="target"),
        pytest.param({"time_limit": float("nan")}, "time_limit must be", id="time"),
        pytest.param({}, "give iterations, a target", id="no-stop"),
    ],
)
def test_bad_options_are_one_line_errors(kuhn, options, message):
    with pytest.raises(ValueError, match=message):
        cfr(kuhn, **options)


def test_bad_seed_is_refused(kuhn):
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        external_sampling_mccfr(kuhn, 10, seed=-1)


def test_unreached_information_sets_are_flagged(kuhn):
    result = cfr_plus(kuhn, 200, every=200)
    first, _ = result.strategies
    # The flags follow the own reach of the average strategy (its realization plan).
    plan = plan_from_behaviour(first)
    reach = plan[first.table.parent_sequence]
    assert np.array_equal(first.unreached, reach <= 1e-12)


def test_mccfr_runs_on_a_game_whose_root_is_terminal(tmp_path, capsys):
    # A one-node .efg: nothing to sample, every player's value is its payoff (1, -1).
    from seqform.cli.main import main

    path = tmp_path / "terminal.efg"
    path.write_text('EFG 2 R "terminal root" { "P1" "P2" } ""\nt "" 1 "end" { 1, -1 }\n')
    assert main(["iterate", str(path), "--algorithm", "mccfr", "--iterations", "3"]) == 0
    assert "P1   +1.0000000000" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("game", "method", "floor"),
    [("kuhn", "tree", 4e-14), ("leduc(ranks=4)", "structured", 2.6e-13)],
)
def test_a_target_float_nash_conv_cannot_measure_is_refused(game, method, floor):
    """``target_exploitability=1e-300`` alone ran until the process was killed (campaign):
    below 1e-14 of the payoff range (Kuhn's 4, Leduc's 26) a float NashConv never meets it.
    A target at the floor is a run like any other."""
    import seqform

    with pytest.raises(ValueError, match=f"smallest target is {floor:g}"):
        seqform.iterate(game, "cfr+", target_exploitability=1e-300, method=method)
    run = seqform.iterate(
        game, "cfr+", iterations=3, target_exploitability=floor, method=method, reference=False
    )
    assert run.result.iterations == 3
