"""The compiled vector CFR (numba) computes the numpy vector CFR's iterates.

The reference is :class:`~seqform.structured.vector_cfr.VectorRegrets`, itself checked step
by step against tree CFR in tests/test_vector_cfr.py.  Two claims:

* **lockstep, every rule**: before each of 10 iterations the numpy run's state is loaded into
  the compiled run, both take one step, and the states agree to 1e-10 (the products and the
  passes add in another order, nothing else differs); the three kinds of payoff rule and both
  kinds of card removal are covered: Kuhn (signs and folds, one card), Liar's Dice
  (thresholds, no cards), Leduc (a public card) and a hold'em river spot (two-card hands);
* **end to end**: free runs of 30 iterations end with the same average strategy and NashConv
  (the structured certificate) to 1e-9 in float64; float32 storage ends within 1e-5 of
  NashConv (single precision's relative 6e-8 over the sums of 30 iterations).
"""

from __future__ import annotations

import tomllib

import numpy as np
import pytest

from seqform.game.builtin.registry import load_structured_game
from seqform.holdem.game import spot_game
from seqform.holdem.spot import spot_from_mapping
from seqform.iterative.rules import RULES
from seqform.iterative.run import Stopping
from seqform.structured.compiled_cfr import CompiledRegrets, rule_step
from seqform.structured.responses import certify, certify_run, payoff_range
from seqform.structured.vector_cfr import VectorRegrets, structured_nash_conv, vector_cfr
from tests.spot_files import RIVER

pytest.importorskip("numba")  # the fast extra

ITERATIONS = 30
LOCKSTEP = 10
TOLERANCE = 1e-10


def _game(spec: str):
    if spec == "river":
        spot = tomllib.loads(RIVER)
        spot["ip_range"] += ",AA,AKs"  # combos both players hold: the twins of card removal
        return spot_game(spot_from_mapping(spot, "river"))
    return load_structured_game(spec)


GAMES = ["kuhn(cards=4)", "liars_dice(sides=3)", "leduc(ranks=3, suits=2)", "river"]


def _assert_states_close(first, second) -> None:
    for name in ("regrets", "cumulative", "behaviour"):
        for ours, theirs in zip(getattr(first, name), getattr(second, name), strict=True):
            scale = max(1.0, float(np.max(np.abs(theirs))))
            assert float(np.max(np.abs(ours - theirs))) <= TOLERANCE * scale, name


@pytest.mark.slow  # compiles the kernels once per machine (numba's cache), then about 1 s
@pytest.mark.parametrize("spec", GAMES)
def test_every_step_is_the_numpy_step(spec: str) -> None:
    game = _game(spec)
    for algorithm in RULES:
        numpy_run = VectorRegrets(game, algorithm, horizon=LOCKSTEP)
        compiled = CompiledRegrets(game, RULES[algorithm], horizon=LOCKSTEP)
        for iteration in range(1, LOCKSTEP + 1):
            compiled.restore(numpy_run.state())
            numpy_run.step(iteration)
            compiled.step(iteration)
            _assert_states_close(compiled.state(), numpy_run.state())


@pytest.mark.slow
@pytest.mark.parametrize("spec", GAMES)
def test_free_runs_end_with_the_same_average(spec: str) -> None:
    game = _game(spec)
    stopping = Stopping(ITERATIONS, None, None, ITERATIONS)
    runs = [vector_cfr(game, "cfr+", stopping, engine=engine) for engine in ("numpy", "compiled")]
    for ours, theirs in zip(runs[0].strategies, runs[1].strategies, strict=True):
        assert float(np.max(np.abs(ours.probabilities - theirs.probabilities))) <= 1e-9
    assert runs[1].nash_conv == pytest.approx(runs[0].nash_conv, abs=1e-9)
    single = vector_cfr(game, "cfr+", stopping, engine="compiled", storage="float32")
    assert single.nash_conv == pytest.approx(runs[0].nash_conv, abs=1e-5)
    # the run measured its average from its arrays (certify_run): the sums in another order
    assert structured_nash_conv(game, single.strategies) == pytest.approx(
        single.nash_conv, rel=1e-12, abs=1e-13
    )


@pytest.mark.slow  # compiles the kernels once per machine (numba's cache)
@pytest.mark.parametrize("spec", GAMES)
def test_a_run_certifies_its_average_from_its_arrays(spec: str) -> None:
    # certify_run (the run's internal order, compiled best responses) against the
    # structured certificate of the average's strategies (table order, numpy best
    # responses): the same numbers up to the order of the sums
    game = _game(spec)
    run = CompiledRegrets(game, RULES["dcfr"])
    for iteration in range(1, 8):
        run.step(iteration)
    average = run.average()
    ours = certify_run(run, float(payoff_range(game)))
    theirs = certify(game, *average)
    assert float(ours.value) == pytest.approx(float(theirs.value), rel=1e-12, abs=1e-13)
    for mine, other in zip(ours.best_response_values, theirs.best_response_values, strict=True):
        assert float(mine) == pytest.approx(float(other), rel=1e-12, abs=1e-13)
    assert float(ours.nash_conv) > 1e-6  # seven iterations: far from an equilibrium
    assert ours.payoff_range == float(payoff_range(game))
    # a run measures by it, and builds its average's strategies once, at the end
    calls = []
    average_of = CompiledRegrets.average

    def counted(self: CompiledRegrets) -> object:
        calls.append(self.iteration)
        return average_of(self)

    stopping = Stopping(9, None, None, 3)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(CompiledRegrets, "average", counted)
        result = vector_cfr(game, "dcfr", stopping, engine="compiled")
    assert calls == [9]
    assert [sample.iteration for sample in result.history] == [3, 6, 9]
    again = certify(game, *result.strategies)
    assert result.nash_conv == pytest.approx(float(again.nash_conv), rel=1e-9, abs=1e-13)


def test_a_rule_at_one_iteration_is_numbers() -> None:
    # DCFR (Brown and Sandholm 2019): t^1.5 / (t^1.5 + 1) on R >= 0, t^0 / (t^0 + 1) = 1/2
    # on R < 0, weight t^2; at t = 4: 8/9, 1/2 and 16.
    step = rule_step(RULES["dcfr"], 4)
    np.testing.assert_allclose(step.numbers, [16, 1, 1, 8 / 9, 1 / 2, 1, 1])
    assert step.flags.tolist() == [False, False, False, True, False]
    # PDCFR+ (Xu et al. 2024), α = 2.3: the lagged factor at t − 1 and at t, weight t^5.
    step = rule_step(RULES["pdcfr+"], 2)
    lag = (1.0, 2**2.3 / (2**2.3 + 1))
    np.testing.assert_allclose(step.numbers, [32, 0.5, 0.5, 1, 1, lag[1], lag[1]])
    assert step.flags.tolist() == [True, True, True, False, True]


def test_bad_engine_and_storage_are_refused() -> None:
    game = load_structured_game("kuhn")
    stopping = Stopping(2, None, None, 2)
    with pytest.raises(ValueError, match="engine is one of"):
        vector_cfr(game, "cfr+", stopping, engine="gpu")
    with pytest.raises(ValueError, match="storage is one of"):
        vector_cfr(game, "cfr+", stopping, storage="float16")
    with pytest.raises(ValueError, match="float32 storage needs the compiled engine"):
        vector_cfr(game, "cfr+", stopping, engine="numpy", storage="float32")


def test_float32_storage_keeps_no_float64_copy_per_sequence() -> None:
    # The flop's 221 million sequences: every float64 array per sequence is 1.8 GB, so the
    # stepper allocates its state in the storage and keeps no numpy-path scratch.
    stepper = CompiledRegrets(_game("river"), RULES["dcfr"], storage="float32")
    for name in ("regrets", "instant", "cumulative", "behaviour", "plans"):
        assert all(array.dtype == np.float32 for array in getattr(stepper, name)), name
    assert all(array.size == 0 for array in stepper.work)


def test_the_layout_indices_are_int32() -> None:
    # Index arrays per sequence or information set: int64 would be 5 GB on the flop
    # (sequence_infoset: built when a numpy pass reads it, in the same type).
    stepper = CompiledRegrets(_game("river"), RULES["dcfr"], storage="float32")
    for player in stepper.layout.players:
        for name in ("order", "sequence_infoset", "sequence_parent", "infoset_first"):
            assert getattr(player, name).dtype == np.int32, name


def test_the_flat_tables_do_not_build_the_leaf_index() -> None:
    # The leaf index gathers the sequence index per group (leaves × hands, both players:
    # 2.8 GB on the flop, kept with the game) for the numpy products; the kernels read the
    # flat tables only.
    from seqform.structured import leaf_groups
    from seqform.structured.flat_tables import flat_game

    game = _game("river")
    flat_game(game)
    assert game not in leaf_groups._INDEX


def test_a_compiled_runs_certificate_takes_the_compiled_products() -> None:
    # The same NashConv as the numpy products' (on a copy of the game without flat tables),
    # to round-off, without the leaf index that would double a flop's memory.
    from seqform.structured import leaf_groups

    game, fresh = _game("river"), _game("river")
    result = vector_cfr(game, "dcfr", Stopping(5, None, None, 5), engine="compiled")
    assert game not in leaf_groups._INDEX
    assert result.nash_conv == pytest.approx(
        structured_nash_conv(fresh, result.strategies), rel=1e-12, abs=1e-12
    )
    assert fresh in leaf_groups._INDEX  # the numpy products' path
