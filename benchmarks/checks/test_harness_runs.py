"""The benchmark harness run end to end, as the README runs it (``python -m benchmarks.run``):
big cases, run by ``pytest benchmarks/checks`` and by ``.ci/run``, not by plain ``pytest``
(each run starts the peers' processes: a minute of the suite's eight between them).

Nothing here asserts a time: timings belong to the benchmark's results, not to tests.  The
checks: the harness writes its table, JSON and plot, the peers agree on the values (Kuhn's
−1/18 is Kuhn 1950; Liar's Dice with 4 sides is worth 1/16 to the opener, as seqform and
OpenSpiel both find), a run without ``--out`` leaves the committed results alone, the
results render again from their JSON, a peer stopped at its time limit is recorded as a
time-out without stopping the run, the sparsified peer runs only on showdown games, a tree
too large to build is recorded as refused, and the iterative peers write well-formed
records on Kuhn in quick mode.  The harness's parts on made-up results are in
tests/test_benchmarks.py.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from benchmarks.convergence import ITERATIVE_PEERS, SPEED_PEER
from benchmarks.harness import VALUE_TOLERANCE
from benchmarks.peers import LP_PEERS, PEERS, SPARSIFIED

KUHN_VALUE = -1 / 18  # Kuhn (1950)
TOLERANCE = 1e-6  # the harness's own agreement tolerance between peers
LIARS_DICE_4_VALUE = 1 / 16  # to the opener, as seqform and OpenSpiel both find
REPOSITORY = Path(__file__).resolve().parents[2]


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
