"""The benchmark harness's parts on made-up results and small inputs.

Nothing here asserts a time: timings belong to the benchmark's results, not to tests.  The
harness run end to end as the README runs it (``python -m benchmarks.run``: its table, JSON
and plot, the peers' agreement, time-outs, refusals, the iterative peers' records) is in
``benchmarks/checks/test_harness_runs.py``, run by ``pytest benchmarks/checks`` and by
``.ci/run``.  Here: the scratch folders' names, which peer takes which game, the scale
targets on made-up results (the 10^6-sequence game itself takes a minute: the benchmark's
job), the sampling schedule on a made-up solver, the time-to-reach and speed verdicts on
made-up results, and the sizes without the tree.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

import pytest

from benchmarks import run as benchmarks_run
from benchmarks.convergence import SPEED_PEER, TARGETS, run_in_phases
from benchmarks.convergence_report import check_speed, convergence_markdown, time_to_reach
from benchmarks.harness import (
    VALUE_TOLERANCE,
    BenchmarkRun,
    GameResult,
    Limits,
    Measurement,
    PeerResult,
    Settings,
    run_benchmarks,
)
from benchmarks.machine import Machine
from benchmarks.peers import PEERS, SPARSIFIED, STRUCTURED, Outcome, Sizes, not_applicable
from benchmarks.report import check_targets, read_run, render_markdown

KUHN_VALUE = -1 / 18  # Kuhn (1950)
TOLERANCE = 1e-6  # the harness's own agreement tolerance between peers


def test_scratch_folders_of_one_second_do_not_collide(monkeypatch, tmp_path):
    monkeypatch.setattr(benchmarks_run, "SCRATCH", tmp_path / "scratch")
    now = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)

    first, second = benchmarks_run.scratch_folder(now), benchmarks_run.scratch_folder(now)

    assert (first.name, second.name) == ("20260102-030405", "20260102-030405-2")
    assert first.is_dir() and second.is_dir()


def test_the_tree_peers_are_not_applicable_beyond_the_largest_tree_and_start_no_worker():
    tree_peers = [peer for peer in PEERS if peer not in (SPARSIFIED, STRUCTURED)]
    limits = Limits(timeout=60, gambit_timeout=60, memory_bytes=2 * 2**30)

    (game,) = run_benchmarks(["kuhn(cards=10000)"], tree_peers, repeat=3, limits=limits)

    assert game.sizes == Sizes(
        sequences=(40_001, 40_001), infosets=(20_000, 20_000), terminals=10_000 * 9_999 * 5
    )
    for result in game.peers:
        (measurement,) = result.measurements
        assert measurement.status == "not applicable"
        assert "999,900,001 nodes" in measurement.detail  # at most: tree_nodes' bound
        assert measurement.elapsed is None  # no worker was started


@pytest.mark.parametrize(
    ("peer", "game", "applicable"),
    [
        pytest.param(STRUCTURED, "kuhn", True, id="structured-kuhn"),
        pytest.param(STRUCTURED, "kuhn(cards=250000)", True, id="structured-kuhn-250000"),
        pytest.param(STRUCTURED, "leduc(ranks=13, suits=4)", True, id="structured-leduc-13x4"),
        pytest.param(STRUCTURED, "kuhn3", False, id="structured-kuhn3"),
        pytest.param("seqform-highs", "kuhn(cards=100)", True, id="highs-kuhn-100"),
        pytest.param("seqform-highs", "kuhn(cards=10000)", False, id="highs-kuhn-10000"),
        pytest.param("openspiel", "kuhn(cards=250000)", False, id="openspiel-kuhn-250000"),
        pytest.param("gambit", "leduc", True, id="gambit-leduc"),
    ],
)
def test_which_peer_can_take_which_game(peer, game, applicable):
    assert (not_applicable(peer, game) == "") == applicable


# Made-up results, to check the verdicts without a minute-long solve.


def made_up_machine() -> Machine:
    return Machine(
        cpu="made up",
        logical_cores=2,
        usable_cores=2,
        memory_gb=16.0,
        system="test",
        python="CPython",
        packages={},
        environment={},
        commit="0" * 12,
    )


def sparsified_result(
    seconds: float, solver_seconds: float, peak_mb: float, exploitability: float
) -> PeerResult:
    outcome = Outcome(
        seconds=seconds,
        value=-1 / 18,
        solver_seconds=solver_seconds,
        exploitability=exploitability,
    )
    measurement = Measurement(status="ok", elapsed=seconds, outcome=outcome, peak_rss_mb=peak_mb)
    return PeerResult(peer=SPARSIFIED, measurements=(measurement,) * 3, timeout=300)


def made_up_run(*games: tuple[str, int, PeerResult]) -> BenchmarkRun:
    return BenchmarkRun(
        machine=made_up_machine(),
        settings=Settings(
            games=tuple(name for name, _, _ in games),
            peers=(SPARSIFIED,),
            repeat=3,
            timeout=120,
            gambit_timeout=60,
            memory_gb=8,
            warmup=True,
        ),
        started="then",
        finished="later",
        games=tuple(
            GameResult(
                game=name,
                sizes=Sizes(sequences=(sequences, sequences), infosets=(1, 1), terminals=1),
                sizes_detail="",
                peers=(result,),
            )
            for name, sequences, result in games
        ),
    )


def scale_checks(run: BenchmarkRun) -> dict[str, tuple[str, bool | None]]:
    found = {}
    for check in check_targets(run):
        if "10^6 sequences" in check.target:
            found["scale"] = (check.measured, check.met)
        if "outside the LP solver" in check.target:
            found["outside"] = (check.measured, check.met)
    return found


@pytest.mark.parametrize(
    ("seconds", "peak_mb", "exploitability", "met"),
    [
        pytest.param(66.0, 4_400.0, 1.7e-9, True, id="as-measured"),
        pytest.param(130.0, 4_400.0, 1.7e-9, False, id="too-slow"),
        pytest.param(66.0, 9_000.0, 1.7e-9, False, id="too-much-memory"),
        pytest.param(66.0, 4_400.0, 1e-3, False, id="not-certified"),
    ],
)
def test_the_scale_target_reads_the_largest_sparsified_game(seconds, peak_mb, exploitability, met):
    run = made_up_run(
        ("kuhn(cards=50000)", 200_001, sparsified_result(12.0, 11.0, 900.0, 1e-9)),
        (
            "kuhn(cards=250000)",
            1_000_001,
            sparsified_result(seconds, 60.0, peak_mb, exploitability),
        ),
    )

    measured, verdict = scale_checks(run)["scale"]

    assert verdict is met
    assert "kuhn(cards=250000)" in measured and "1,000,001" in measured
    assert f"{run.games[1].peers[0].exploitability:.1e}" in measured


def test_the_scale_targets_are_not_measured_without_a_large_enough_game():
    run = made_up_run(("kuhn(cards=10000)", 40_001, sparsified_result(2.0, 1.9, 200.0, 3e-8)))

    assert scale_checks(run) == {
        "scale": ("not run", None),
        "outside": ("not run", None),
    }


def test_a_timeout_on_the_largest_game_misses_the_scale_target():
    stopped = PeerResult(
        peer=SPARSIFIED,
        measurements=(Measurement(status="timeout", detail="stopped after 300 s", elapsed=300),),
        timeout=300,
    )
    run = made_up_run(("kuhn(cards=250000)", 1_000_001, stopped))

    assert scale_checks(run)["scale"] == (
        "`kuhn(cards=250000)` (1,000,001 sequences): timeout (> 300 s)",
        False,
    )


@pytest.mark.parametrize(
    ("solver_seconds", "met"),
    [
        pytest.param(60.0, True, id="a-tenth-outside"),
        pytest.param(40.0, False, id="a-third-outside"),
    ],
)
def test_time_outside_the_solver_is_at_most_half_the_solvers(solver_seconds, met):
    run = made_up_run(
        ("kuhn(cards=10000)", 40_001, sparsified_result(2.0, 0.5, 200.0, 1e-8)),  # not counted
        ("kuhn(cards=250000)", 1_000_001, sparsified_result(66.0, solver_seconds, 4_400.0, 1e-9)),
    )

    measured, verdict = scale_checks(run)["outside"]

    assert verdict is met
    assert "kuhn(cards=10000)" not in measured
    assert f"{66.0 - solver_seconds:.3g} s outside" in measured


def test_an_interior_point_value_a_hundred_millionth_off_agrees_and_a_larger_gap_does_not():
    def solved(peer: str, value: float) -> PeerResult:
        outcome = Outcome(seconds=0.01, value=value)
        return PeerResult(peer, (Measurement(status="ok", outcome=outcome),), timeout=120)

    exact = -1 / 18

    def game(sparsified_value: float) -> GameResult:
        peers = (solved("seqform-highs", exact), solved(SPARSIFIED, sparsified_value))
        return GameResult(game="kuhn", sizes=None, sizes_detail="", peers=peers)

    assert game(exact * (1 + 1e-8)).disagreeing == []
    assert game(exact + 10 * VALUE_TOLERANCE).disagreeing == [SPARSIFIED]


def test_the_sparsified_peer_is_its_own_column_and_series_in_the_table():
    run = made_up_run(
        ("kuhn(cards=250000)", 1_000_001, sparsified_result(66.0, 60.0, 4_400.0, 1.7e-9))
    )

    table = render_markdown(run, plot_name=None)

    assert "seqform structured route (Clarabel), s" in table
    assert "| `kuhn(cards=250000)` | 1,000,001 | 66 |" in table
    assert "300 s for the sparsified LP" in table


def test_a_results_json_from_before_the_sparsified_peer_still_renders(tmp_path):
    run = made_up_run(("kuhn", 13, sparsified_result(0.002, 0.0003, 50.0, 1e-10)))
    document = asdict(run)
    del document["settings"]["sparsified_timeout"]
    path = tmp_path / "results.json"
    path.write_text(json.dumps(document), encoding="utf-8")

    again = read_run(path)

    assert again.settings.sparsified_timeout == 300
    assert render_markdown(again, plot_name=None) == render_markdown(run, plot_name=None)


# The iterative peers.


class _Run:
    """A made-up deterministic solver: NashConv 1/t after t iterations of 1 ms each."""

    def __init__(self) -> None:
        self.calls: list[dict] = []

    def __call__(self, *, iterations=None, every, target, time_limit):
        from seqform.iterative.run import IterativeResult, Sample

        self.calls.append({"iterations": iterations, "every": every})
        history, t = [], 0
        stopped = "iterations"
        while iterations is None or t < iterations:
            t += 1
            if t % every == 0 or t == iterations:
                history.append(Sample(iteration=t, seconds=t * 1e-3, nash_conv=1 / t))
                if 1 / t / 2 <= target:  # the target is an exploitability, NashConv / 2
                    stopped = "target"
                    break
            if t * 1e-3 >= time_limit:
                stopped = "time limit"
                break
        if history[-1].iteration != t:
            history.append(Sample(iteration=t, seconds=t * 1e-3, nash_conv=1 / t))
        return IterativeResult("made up", (), t, t * 1e-3, tuple(history), stopped)


def test_the_phases_sample_every_iteration_then_each_decade_ten_times_and_join():
    solve = _Run()

    result, samples = run_in_phases(solve, budget=20.0)  # 20,000 iterations of 1 ms

    assert [call["every"] for call in solve.calls] == [1, 10, 100]
    assert solve.calls[-1]["iterations"] is None  # the last run goes to the budget
    iterations = [sample.iteration for sample in samples]
    assert iterations[:100] == list(range(1, 101))
    assert iterations[100:190] == list(range(110, 1001, 10))
    assert iterations[190:] == list(range(1100, 20001, 100))
    assert result.stopped == "time limit" and result.iterations == 20_000


def test_a_phase_that_reaches_the_target_is_the_last():
    solve = _Run()

    result, samples = run_in_phases(solve, budget=1000.0)  # 1/t <= 1e-6 at t = 10^6

    assert result.stopped == "target"
    assert samples[-1].iteration == 1_000_000 and samples[-1].nash_conv <= min(TARGETS)


class _SlowerLater(_Run):
    """As :class:`_Run`, but from the second call each iteration costs 10 ms: the machine
    got busy, so a phase restarted from the first iteration runs out of time sooner."""

    def __call__(self, *, iterations=None, every, target, time_limit):
        if not self.calls:
            return super().__call__(
                iterations=iterations, every=every, target=target, time_limit=time_limit
            )
        return super().__call__(
            iterations=iterations, every=every, target=target, time_limit=time_limit / 10
        )


def test_a_phase_that_stops_short_of_the_last_keeps_the_earlier_run():
    # Budget 0.5 s: the first phase's 100 iterations take 0.1 s, so a second is made; on the
    # busy machine it stops at the time limit after 50 iterations, short of the first's 100.
    solve = _SlowerLater()

    result, samples = run_in_phases(solve, budget=0.5)

    assert len(solve.calls) == 2
    assert result.iterations == 100 and result.stopped == "iterations"
    assert samples[-1].iteration == 100 and samples[-1].nash_conv == result.nash_conv


def iterative_outcome(history, **fields) -> Outcome:
    last = history[-1]
    return Outcome(
        seconds=last[1],
        value=KUHN_VALUE + last[2] / 2,
        iterations=last[0],
        exploitability=last[2],
        history=tuple(history),
        stopped=fields.pop("stopped", "time limit"),
        budget=1.0,
        **fields,
    )


def test_time_to_reach_is_the_first_sample_at_or_below_the_target():
    outcome = iterative_outcome([(1, 0.1, 0.5), (10, 0.2, 1e-3), (20, 0.3, 2e-3), (30, 0.4, 1e-4)])

    reached = time_to_reach(outcome, 1e-3)

    assert (reached.iteration, reached.seconds) == (10, 0.2)
    assert time_to_reach(outcome, 1e-6) is None


def made_up_iterative_run(outcomes: dict[str, Outcome], game: str = "kuhn") -> BenchmarkRun:
    def solved(peer: str, outcome: Outcome) -> PeerResult:
        return PeerResult(peer, (Measurement(status="ok", outcome=outcome),), timeout=120)

    lp = Outcome(seconds=0.002, value=KUHN_VALUE, exploitability=5.6e-17)
    peers = (solved("seqform-highs", lp), *(solved(p, o) for p, o in outcomes.items()))
    run = made_up_run()
    return BenchmarkRun(
        machine=run.machine,
        settings=Settings(
            games=(game,),
            peers=tuple(p.peer for p in peers),
            repeat=1,
            timeout=120,
            gambit_timeout=60,
            memory_gb=8,
            warmup=True,
            iterative_games=(game,),
        ),
        started="then",
        finished="later",
        games=(GameResult(game=game, sizes=None, sizes_detail="", peers=peers),),
    )


def test_the_section_reports_time_to_reach_or_the_best_nash_conv_and_the_lp_beside():
    reached = iterative_outcome([(1, 1e-4, 0.9), (100, 0.01, 8e-4), (5000, 0.2, 9e-7)])
    stuck = iterative_outcome([(1, 1e-4, 0.9), (100, 0.5, 2e-3), (200, 1.0, 3e-3)], seed=0)
    run = made_up_iterative_run({"seqform-cfr+": reached, "seqform-mccfr": stuck})

    table = "\n".join(convergence_markdown(run, plot_name=None))

    assert "| LP, seqform (HiGHS) | 0.002 s, NashConv 5.6e-17 (certified) |" in table
    assert "| CFR+ | 0.01 s (100 it.) | 0.2 s (5,000 it.) |" in table
    assert (
        "| ES-MCCFR, seed 0 | not reached in 1 s (best 2.0e-03 at 100 it.) "
        "| not reached in 1 s (best 2.0e-03 at 100 it.) |"
    ) in table
    assert render_markdown(run, plot_name=None).count("| LP, seqform (HiGHS) |") == 1


def test_an_iterative_value_agrees_within_its_nash_conv():
    near = iterative_outcome([(10, 0.1, 1e-3)])  # value 5e-4 from the LP's
    assert made_up_iterative_run({"seqform-cfr": near}).games[0].disagreeing == []
    far = Outcome(**{**asdict(near), "value": KUHN_VALUE + 2e-3})
    assert made_up_iterative_run({"seqform-cfr": far}).games[0].disagreeing == ["seqform-cfr"]


def speed_outcome(ours: float, cpp: float, python: float, gap: float) -> Outcome:
    def entry(iterations: int, seconds: float, nash_conv: float) -> dict[str, float]:
        return {"iterations": iterations, "seconds_per_iteration": seconds, "nash_conv": nash_conv}

    return Outcome(
        seconds=cpp * 100,
        value=KUHN_VALUE,
        speed={
            "seqform": entry(100, ours, 1e-2),
            "openspiel-cpp": entry(100, cpp, 1e-2 + gap),
            "seqform-short": entry(3, ours, 0.3),
            "openspiel-python": entry(3, python, 0.3),
        },
    )


@pytest.mark.parametrize(
    ("python", "cpp", "gap", "met"),
    [
        pytest.param(0.12, 0.016, 0.0, [True, True, True], id="as-hoped"),
        pytest.param(0.005, 0.016, 0.0, [False, True, True], id="not-ten-times-python"),
        pytest.param(0.12, 0.0005, 0.0, [True, False, True], id="slower-than-cpp"),
        pytest.param(0.12, 0.016, 1e-6, [True, True, False], id="another-nash-conv"),
    ],
)
def test_the_speed_targets_read_the_cfr_plus_peer_on_leduc(python, cpp, gap, met):
    run = made_up_iterative_run({SPEED_PEER: speed_outcome(0.001, cpp, python, gap)}, "leduc")

    leduc = [check for check in check_speed(run) if check.target.startswith("Leduc")]
    others = [check for check in check_speed(run) if not check.target.startswith("Leduc")]

    assert [check.met for check in leduc] == met
    assert [check.met for check in others] == [None, None, None]  # Liar's Dice 5: not run


def test_the_speed_peer_needs_a_game_openspiel_has():
    assert not_applicable(SPEED_PEER, "leduc") == ""
    assert not_applicable(SPEED_PEER, "kuhn(cards=10)") == "not a game OpenSpiel has itself"


@pytest.mark.parametrize(
    "spec", ["kuhn", "kuhn(cards=7)", "leduc", "leduc(ranks=4, suits=3)", "liars_dice(sides=4)"]
)
def test_sizes_without_the_tree_equal_the_trees(spec):
    # The structured numbering's sizes (used where the tree is refused, e.g.
    # liars_dice(sides=8)) against the sequence form built from the tree itself.
    from benchmarks.peers import _structured_sizes, measure_sizes

    assert _structured_sizes(spec) == measure_sizes(spec)


def test_the_committed_results_judge_the_structured_targets():
    # The committed run (benchmarks/results/results.json) has the structured targets' games: each
    # structured target gets a verdict, none is left "not run".
    from benchmarks.harness import BenchmarkRun
    from benchmarks.report import check_targets

    path = Path(__file__).resolve().parent.parent / "benchmarks" / "results" / "results.json"
    run = BenchmarkRun.from_dict(json.loads(path.read_text(encoding="utf-8")))
    checks = {check.target: check for check in check_targets(run)}
    structured = [check for target, check in checks.items() if "structured route" in target]
    assert len(structured) == 4
    assert all(check.met is not None for check in structured)
    sparsity = next(check for target, check in checks.items() if "sparser than A" in target)
    assert "689,000" in sparsity.measured  # nnz(A) of leduc(ranks=13), tests/test_structured_lp.py
