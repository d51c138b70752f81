"""The benchmark harness, run as the README runs it: ``python -m benchmarks.run``.

Nothing here asserts a time: timings belong to the benchmark's results, not to tests.  The
tests check that the harness writes its table, JSON and plot, that the peers agree on the
values (Kuhn's −1/18 is Kuhn 1950; Liar's Dice with 4 sides is worth 1/16 to the opener,
as seqform and OpenSpiel both find), that a peer stopped at its time limit is recorded
as a time-out without stopping the run, that the sparsified peer runs only on showdown
games and the tree peers only on games with a buildable tree, and the scale targets on
made-up results (the 10^6-sequence game itself takes a minute: the benchmark's job).  The
iterative peers: well-formed records on Kuhn in quick mode (a history of NashConv samples,
the value within NashConv of −1/18, CFR+ with OpenSpiel's NashConv after the same
iterations), the sampling schedule on a made-up solver, and the time-to-reach and speed
verdicts on made-up results.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest

from benchmarks import run as benchmarks_run
from benchmarks.convergence import ITERATIVE_PEERS, SPEED_PEER, TARGETS, run_in_phases
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
from benchmarks.peers import LP_PEERS, PEERS, SPARSIFIED, STRUCTURED, Outcome, Sizes, not_applicable
from benchmarks.report import check_targets, read_run, render_markdown

REPOSITORY = Path(__file__).resolve().parent.parent
KUHN_VALUE = -1 / 18  # Kuhn (1950)
LIARS_DICE_4_VALUE = 1 / 16
TOLERANCE = 1e-6  # the harness's own agreement tolerance between peers


def run_command(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "benchmarks.run", *arguments],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def openspiel_can_run(solver: str) -> bool:
    try:
        import cvxpy
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return solver in cvxpy.installed_solvers()


def peer_results(document: dict, game: str) -> dict[str, dict]:
    (entry,) = [g for g in document["games"] if g["game"] == game]
    return {peer["peer"]: peer for peer in entry["peers"]}


@dataclass(frozen=True)
class QuickRun:
    """A quick run of the harness on Kuhn and the folder it wrote."""

    finished: subprocess.CompletedProcess[str]
    folder: Path


@pytest.fixture(scope="module")
def quick_kuhn(tmp_path_factory: pytest.TempPathFactory) -> QuickRun:
    """One quick run on Kuhn with the LP peers, for the tests of what it writes: the
    iterative peers, half of such a run's time, have their own quick run below
    (test_the_iterative_peers_write_well_formed_records_on_kuhn_in_quick_mode)."""
    folder = tmp_path_factory.mktemp("quick")
    peers = ",".join(LP_PEERS)
    arguments = ["--quick", "--games", "kuhn", "--peers", peers, "--repeat", "1"]
    return QuickRun(run_command(*arguments, "--out", str(folder)), folder)


@pytest.mark.slow
def test_quick_run_on_kuhn_writes_table_json_and_plot_and_the_peers_agree(quick_kuhn):
    assert set(PEERS) == {*LP_PEERS, *ITERATIVE_PEERS, SPEED_PEER}  # --peers' default
    finished, tmp_path = quick_kuhn.finished, quick_kuhn.folder
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.strip() == str(tmp_path / "results.md")
    assert (tmp_path / "scaling.png").stat().st_size > 0
    table = (tmp_path / "results.md").read_text(encoding="utf-8")
    assert "| `kuhn` | 13 |" in table
    assert "## Machine" in table
    document = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert document["settings"]["games"] == ["kuhn"]
    (game,) = document["games"]
    assert game["sizes"]["sequences"] == [13, 13]
    peers = peer_results(document, "kuhn")
    assert set(peers) == {
        "seqform-highs",
        "seqform-cvxpy",
        "openspiel",
        "openspiel-highs",
        "gambit",
        "seqform-structured",
    }
    expected_ok = {"seqform-highs", "seqform-cvxpy", "gambit", "seqform-structured"}
    for peer, solver in [("openspiel", "ECOS"), ("openspiel-highs", "HIGHS")]:
        if openspiel_can_run(solver):
            expected_ok.add(peer)
        else:  # recorded as such, and the run goes on
            assert peers[peer]["measurements"][0]["status"] == "unavailable"
    for name in expected_ok:
        (measurement,) = peers[name]["measurements"]
        assert measurement["status"] == "ok", measurement["detail"]
        assert measurement["outcome"]["value"] == pytest.approx(KUHN_VALUE, abs=TOLERANCE)
        assert measurement["peak_rss_mb"] > 0


def file_hashes(folder: Path) -> dict[str, str]:
    return {
        str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.mark.slow
def test_a_run_without_out_writes_a_scratch_folder_and_leaves_the_committed_results_alone():
    committed = REPOSITORY / "benchmarks" / "results"
    before = file_hashes(committed)
    assert "results.md" in before and "results.json" in before

    finished = run_command(  # the quickest run: one game, one peer, once, no plot
        "--quick", "--games", "kuhn", "--peers", "seqform-highs", "--repeat", "1", "--no-plot"
    )

    written = Path(finished.stdout.strip()).parent
    try:
        assert finished.returncode == 0, finished.stderr
        assert written.parent == REPOSITORY / "benchmarks" / "scratch"
        assert (written / "results.json").is_file() and (written / "results.md").is_file()
        assert f"scratch folder {written}" in finished.stderr
        assert "change only with --out benchmarks/results" in finished.stderr
        assert file_hashes(committed) == before
    finally:
        if written.parent == REPOSITORY / "benchmarks" / "scratch":
            shutil.rmtree(written)


def test_scratch_folders_of_one_second_do_not_collide(monkeypatch, tmp_path):
    monkeypatch.setattr(benchmarks_run, "SCRATCH", tmp_path / "scratch")
    now = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)

    first, second = benchmarks_run.scratch_folder(now), benchmarks_run.scratch_folder(now)

    assert (first.name, second.name) == ("20260102-030405", "20260102-030405-2")
    assert first.is_dir() and second.is_dir()


@pytest.mark.slow
def test_results_render_again_from_their_json(quick_kuhn, tmp_path):
    measured = quick_kuhn.folder
    assert quick_kuhn.finished.returncode == 0, quick_kuhn.finished.stderr
    again = tmp_path / "again"
    rendered = run_command("--from-json", str(measured / "results.json"), "--out", str(again))

    assert rendered.returncode == 0, rendered.stderr
    assert (again / "results.md").read_text(encoding="utf-8") == (
        measured / "results.md"
    ).read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_peer_past_its_time_limit_is_recorded_and_the_run_goes_on(tmp_path):
    # pygambit's lp_solve takes minutes on 4-sided Liar's Dice; one second stops it.
    finished = run_command(
        "--games",
        "liars_dice(sides=4)",
        "--peers",
        "gambit,seqform-highs",
        "--repeat",
        "2",
        "--gambit-timeout",
        "1",
        "--out",
        str(tmp_path),
    )

    assert finished.returncode == 0, finished.stderr
    peers = peer_results(json.loads((tmp_path / "results.json").read_text()), "liars_dice(sides=4)")
    (stopped,) = peers["gambit"]["measurements"]  # no second repetition after a time-out
    assert stopped["status"] == "timeout"
    solved = peers["seqform-highs"]["measurements"]
    assert [m["status"] for m in solved] == ["ok", "ok"]
    assert solved[0]["outcome"]["value"] == pytest.approx(LIARS_DICE_4_VALUE, abs=TOLERANCE)
    table = (tmp_path / "results.md").read_text(encoding="utf-8")
    assert "timeout (> 1 s)" in table


@pytest.mark.slow
def test_the_structured_peer_agrees_on_kuhn_and_is_not_applicable_to_kuhn3(tmp_path):
    finished = run_command(
        "--games",
        "kuhn(cards=10),kuhn3",
        "--peers",
        f"seqform-highs,{SPARSIFIED}",
        "--repeat",
        "1",
        "--no-plot",
        "--out",
        str(tmp_path),
    )

    assert finished.returncode == 0, finished.stderr
    document = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    kuhn = peer_results(document, "kuhn(cards=10)")
    (exact,) = kuhn["seqform-highs"]["measurements"]
    (sparsified,) = kuhn[SPARSIFIED]["measurements"]
    assert sparsified["status"] == "ok", sparsified["detail"]
    assert sparsified["outcome"]["value"] == pytest.approx(
        exact["outcome"]["value"], abs=VALUE_TOLERANCE
    )
    assert 0 <= sparsified["outcome"]["exploitability"] <= 1e-6
    assert sparsified["outcome"]["solver_seconds"] <= sparsified["outcome"]["seconds"]
    assert sparsified["peak_rss_mb"] > 0
    (kuhn3,) = peer_results(document, "kuhn3")[SPARSIFIED]["measurements"]
    assert kuhn3["status"] == "not applicable"
    assert kuhn3["elapsed"] is None  # no worker was started
    table = (tmp_path / "results.md").read_text(encoding="utf-8")
    assert "| n/a |" in table


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


def pyspiel_installed() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.slow
def test_the_iterative_peers_write_well_formed_records_on_kuhn_in_quick_mode(tmp_path):
    peers = ",".join(["seqform-highs", *ITERATIVE_PEERS, SPEED_PEER])
    finished = run_command(
        "--quick",
        "--games",
        "kuhn",
        "--peers",
        peers,
        "--repeat",
        "1",
        "--iterative-budget",
        "0.3",
        "--out",
        str(tmp_path),
    )

    assert finished.returncode == 0, finished.stderr
    document = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert document["settings"]["iterative_games"] == ["kuhn"]
    assert document["settings"]["iterative_budget"] == 0.3
    found = peer_results(document, "kuhn")
    for peer in ITERATIVE_PEERS:
        (measurement,) = found[peer]["measurements"]  # run once, whatever --repeat says
        assert measurement["status"] == "ok", measurement["detail"]
        outcome = measurement["outcome"]
        history = outcome["history"]
        iterations = [sample[0] for sample in history]
        first = min(100, len(iterations))  # how many fit the budget depends on the machine
        assert iterations[:first] == list(range(1, first + 1))  # every iteration at first
        assert iterations == sorted(set(iterations)) and iterations[-1] == outcome["iterations"]
        assert all(seconds > 0 and nash_conv >= 0 for _, seconds, nash_conv in history)
        assert history[-1][2] == outcome["exploitability"]
        assert outcome["stopped"] in ("target", "time limit")
        # the budget is honoured: the run stops at the first check past it (one iteration and
        # its measurement late at most; generous, the machine is shared and loaded)
        assert outcome["budget"] == 0.3 and outcome["seconds"] < 0.3 + 2.0
        assert abs(outcome["value"] - KUHN_VALUE) <= outcome["exploitability"] + TOLERANCE
        assert outcome["seed"] == (0 if peer == "seqform-mccfr" else None)
    (speed,) = found[SPEED_PEER]["measurements"]
    if pyspiel_installed():
        assert speed["status"] == "ok", speed["detail"]
        compared = speed["outcome"]["speed"]
        assert set(compared) == {"seqform", "openspiel-cpp", "seqform-short", "openspiel-python"}
        for ours, theirs in [("seqform", "openspiel-cpp"), ("seqform-short", "openspiel-python")]:
            assert compared[ours]["iterations"] == compared[theirs]["iterations"]
            assert compared[ours]["nash_conv"] == pytest.approx(
                compared[theirs]["nash_conv"], abs=1e-12
            )
    else:
        assert speed["status"] == "unavailable"
    assert (tmp_path / "convergence.png").stat().st_size > 0
    table = (tmp_path / "results.md").read_text(encoding="utf-8")
    assert "## The CFR family beside the LP" in table
    assert "![NashConv against time and iterations](convergence.png)" in table
    assert "| ES-MCCFR, seed 0 |" in table


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


def test_a_tree_too_large_to_build_is_recorded_as_refused(tmp_path):
    # liars_dice(sides=8) has 16 bids, beyond the 14 the tree builds (TreeTooLargeError):
    # the tree peer is "refused", the structured peer is not asked here; sizes still come
    # from the structured numbering (524,281 sequences a player: seqform.game.public.numbering).
    finished = run_command(
        "--games",
        "liars_dice(sides=8)",
        "--peers",
        "seqform-highs",
        "--repeat",
        "1",
        "--no-plot",
        "--out",
        str(tmp_path),
    )
    assert finished.returncode == 0, finished.stderr
    document = json.loads((tmp_path / "results.json").read_text())
    (refused,) = peer_results(document, "liars_dice(sides=8)")["seqform-highs"]["measurements"]
    assert refused["status"] == "refused"
    table = (tmp_path / "results.md").read_text(encoding="utf-8")
    assert "refused (tree too large)" in table and "524,281" in table


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
