"""The benchmark harness, run as the README runs it: ``python -m benchmarks.run``.

Nothing here asserts a time: timings belong to the benchmark's results, not to tests.  The
tests check that the harness writes its table, JSON and plot, that the peers agree on the
values (Kuhn's −1/18 is Kuhn 1950; Liar's Dice with 4 sides is worth 1/16 to the opener,
as seqform and OpenSpiel both find), and that a peer stopped at its time limit is recorded
as a time-out without stopping the run.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parent.parent
KUHN_VALUE = -1 / 18  # Kuhn (1950)
LIARS_DICE_4_VALUE = 1 / 16
TOLERANCE = 1e-6  # the harness's own agreement tolerance between peers


def run_benchmarks(*arguments: str) -> subprocess.CompletedProcess[str]:
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


def test_quick_run_on_kuhn_writes_table_json_and_plot_and_the_peers_agree(tmp_path):
    finished = run_benchmarks("--quick", "--games", "kuhn", "--repeat", "1", "--out", str(tmp_path))

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
    }
    expected_ok = {"seqform-highs", "seqform-cvxpy", "gambit"}
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


def test_results_render_again_from_their_json(tmp_path):
    measured = run_benchmarks(
        "--games", "kuhn", "--peers", "seqform-highs", "--repeat", "1", "--out", str(tmp_path)
    )
    assert measured.returncode == 0, measured.stderr
    again = tmp_path / "again"
    rendered = run_benchmarks("--from-json", str(tmp_path / "results.json"), "--out", str(again))

    assert rendered.returncode == 0, rendered.stderr
    assert (again / "results.md").read_text(encoding="utf-8") == (
        tmp_path / "results.md"
    ).read_text(encoding="utf-8")


def test_a_peer_past_its_time_limit_is_recorded_and_the_run_goes_on(tmp_path):
    # pygambit's lp_solve takes minutes on 4-sided Liar's Dice; one second stops it.
    finished = run_benchmarks(
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
