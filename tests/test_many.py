"""``solve-many``: a folder of spots solved in parallel.

Each row is checked against an independent computation in the same test: the EVs against the
tree route's LP on the spot's explicit tree (:func:`seqform.game.public.explicit.
explicit_game`), the action frequencies against a loop over every deal written here from the
spot's combos (not the structured route's clash matrix).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import seqform
from seqform.cli.main import main
from seqform.game.public.explicit import explicit_game
from seqform.holdem.cards import combo_text
from seqform.holdem.game import spot_game
from seqform.holdem.report import action_frequencies
from seqform.holdem.spot import read_spot
from seqform.io.documents import validate_document
from seqform.routes import many
from seqform.routes.many import (
    WORKER_BYTES,
    TooManyWorkersError,
    solve_many,
    spot_files,
    worker_limit,
)

RIVER = """\
board = "{board}"
pot = 10
effective_stack = 30
oop_range = "AA,AKs,QQ:0.5,JhTh,99"
ip_range = "KK:0.25,AQo,QJs,77"
bet_sizes = [0.5]
raise_sizes = [1]
max_raises = 1
"""
BOARDS = ("Ks7h2d9c4s", "Qd8s3c2h7d")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for board in BOARDS:
        (tmp_path / f"river_{board}.toml").write_text(RIVER.format(board=board))
    (tmp_path / "broken.toml").write_text('board = "Ks7h"\n')
    (tmp_path / "notes.txt").write_text("not a spot")
    return tmp_path


def _tree_value(path: Path) -> float:
    """The tree route's LP value of the spot's explicit tree (independent of the structured
    LP the workers solve)."""
    return float(seqform.solve(explicit_game(spot_game(read_spot(path)))).value)


def test_a_folder_of_spots_on_a_local_pool(folder: Path) -> None:
    report = solve_many(folder, workers=2)
    names = [Path(row.path).name for row in report.rows]
    assert names == ["broken.toml", *(f"river_{board}.toml" for board in BOARDS)]
    broken, *solved = report.rows
    assert broken.error is not None and "missing pot" in broken.error
    assert report.failed == (broken,)
    for row in solved:
        assert row.pot == 10 and row.oop_ev is not None and row.ip_ev is not None
        assert row.oop_ev + row.ip_ev == pytest.approx(10)
        # the payoff of spot_game is OOP's EV less half the pot (seqform.game.holdem)
        assert row.oop_ev - 5 == pytest.approx(_tree_value(Path(row.path)), abs=1e-7)
        assert row.exploitability is not None and row.exploitability <= 1e-8
        first, after_check = row.frequencies
        assert (first.player, first.history, after_check.player, after_check.history) == (
            0,
            "",
            1,
            "x",
        )
        for found in row.frequencies:
            assert sum(found.frequencies) == pytest.approx(1)


def _brute_frequencies(path: Path, strategy: seqform.BehaviouralStrategy) -> list[float]:
    """OOP's first-decision frequencies by a loop over every deal of the two ranges."""
    spot = read_spot(path)
    oop, ip = spot.ranges
    index = strategy.table.index_of_infoset()
    totals = [0.0] * 3  # x, b5, b30
    mass = 0.0
    for combo0, weight0 in zip(oop.combos, oop.weights, strict=True):
        label = combo_text(combo0)
        for combo1, weight1 in zip(ip.combos, ip.weights, strict=True):
            if set(combo0) & set(combo1):
                continue
            weight = float(weight0 * weight1)
            behaviour = strategy.at(index[f"{label}|"])
            shares = [float(p) for p in behaviour.values()]
            totals = [t + weight * s for t, s in zip(totals, shares, strict=True)]
            mass += weight
    return [t / mass for t in totals]


def test_action_frequencies_are_the_range_weighted_by_the_deal(folder: Path) -> None:
    path = folder / f"river_{BOARDS[1]}.toml"
    game = spot_game(read_spot(path))
    solution = seqform.solve(game, method="structured")
    found = action_frequencies(game, solution.strategies[0], "")
    assert found is not None and found.actions == ("x", "b5", "b30")
    assert list(found.frequencies) == pytest.approx(
        _brute_frequencies(path, solution.strategies[0])
    )
    assert action_frequencies(game, solution.strategies[0], "x") is None  # IP acts there


def test_folders_that_are_not_spot_folders(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no such folder"):
        spot_files(tmp_path / "missing")
    (tmp_path / "a.toml").write_text("")
    with pytest.raises(NotADirectoryError, match="not a folder"):
        spot_files(tmp_path / "a.toml")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no spot files"):
        spot_files(tmp_path / "empty")
    with pytest.raises(ValueError, match="unknown executor"):
        solve_many(tmp_path, executor="spark")
    with pytest.raises(ValueError, match="not the local pool"):
        solve_many(tmp_path, address="tcp://somewhere:8786")


@pytest.mark.slow
def test_a_local_two_worker_dask_cluster_gives_the_same_rows(folder: Path) -> None:
    pytest.importorskip("distributed")
    local = solve_many(folder, workers=2)
    dask = solve_many(folder, executor="dask", workers=2)
    assert dask.executor == "dask"
    for mine, theirs in zip(local.rows, dask.rows, strict=True):
        assert (mine.path, mine.error) == (theirs.path, theirs.error)
        if mine.oop_ev is not None:
            assert theirs.oop_ev == pytest.approx(mine.oop_ev, abs=1e-9)


@pytest.mark.slow
def test_a_local_ray_cluster_gives_the_same_rows(folder: Path) -> None:
    pytest.importorskip("ray")
    local = solve_many(folder, workers=2)
    ray = solve_many(folder, executor="ray", workers=2)
    for mine, theirs in zip(local.rows, ray.rows, strict=True):
        assert (mine.path, mine.error) == (theirs.path, theirs.error)
        if mine.oop_ev is not None:
            assert theirs.oop_ev == pytest.approx(mine.oop_ev, abs=1e-9)


def test_cli_report_and_document(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve-many", str(folder), "--workers", "2", "--quiet"]) == 1  # a spot failed
    text = capsys.readouterr().out
    assert "broken.toml  FAILED: " in text and "1 spot(s) failed" in text
    assert "OOP first: x " in text and "IP after x: x " in text
    (folder / "broken.toml").unlink()
    assert main(["solve-many", str(folder), "--format", "json", "--quiet"]) == 0
    document = json.loads(capsys.readouterr().out)
    validate_document(document)
    assert [spot["board"] for spot in document["spots"]] == list(BOARDS)


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["--dask", "local", "--ray", "local"], 2, "not allowed with argument"),
        (["--workers", "0"], 2, "--workers"),
    ],
)
def test_cli_usage_errors(
    folder: Path, argv: list[str], code: int, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["solve-many", str(folder), *argv])
    assert stopped.value.code == code
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("first", "second"), [("--output", "--csv"), ("--csv", "--plot"), ("--output", "--plot")]
)
def test_cli_two_outputs_in_one_file_are_refused_before_solving(
    tmp_path: Path, first: str, second: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # the folder does not exist: the refusal comes before anything is read or solved
    same = str(tmp_path / "out.png")
    assert main(["solve-many", str(tmp_path / "nowhere"), first, same, second, same]) == 2
    err = capsys.readouterr().err
    assert f"{first} and {second} both name" in err and err.count("\n") == 1
    assert not Path(same).exists()


def test_cli_not_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve-many", str(tmp_path / "nowhere")]) == 1
    assert capsys.readouterr().err == f"seqform: error: {tmp_path / 'nowhere'}: no such folder\n"


WIDE = """\
board = "Ks7h2d9c4s"
pot = 10
effective_stack = 100
oop_range = "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+"
ip_range = "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+"
bet_sizes = [0.5, 1]
raise_sizes = [1]
max_raises = 2
"""


@pytest.mark.slow
def test_ctrl_c_stops_the_workers(tmp_path: Path) -> None:
    for number in range(4):  # spots of several seconds each: still running at the signal
        (tmp_path / f"wide{number}.toml").write_text(WIDE)
    environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "seqform", "solve-many", str(tmp_path), "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment,
    )
    time.sleep(3)
    assert process.poll() is None, "the spots were solved before the signal"
    process.send_signal(signal.SIGINT)
    sent = time.perf_counter()
    _, err = process.communicate(timeout=30)
    assert time.perf_counter() - sent < 5
    assert process.returncode == 130
    assert "Traceback" not in err and "seqform: interrupted" in err


def test_one_bad_spot_is_one_row_and_the_others_are_solved(folder: Path) -> None:
    (folder / "deep.toml").write_text("bet_sizes = " + "[" * 5000 + "]" * 5000 + "\n")
    (folder / "huge_pot.toml").write_text(RIVER.format(board=BOARDS[0]).replace("10", "1e308"))
    (folder / "infinite.toml").write_text(RIVER.format(board=BOARDS[0]).replace("10", "inf"))
    report = solve_many(folder, workers=2)
    errors = {Path(row.path).name: row.error for row in report.rows}
    assert errors["deep.toml"] is not None and "nested too deeply" in errors["deep.toml"]
    assert errors["huge_pot.toml"] is not None and "at most" in errors["huge_pot.toml"]
    assert errors["infinite.toml"] is not None and "finite" in errors["infinite.toml"]
    assert all(errors[f"river_{board}.toml"] is None for board in BOARDS)


def test_an_unexpected_failure_in_a_spot_is_its_row(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_solve(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a solver's own failure")

    monkeypatch.setattr("seqform.routes.solve.solve", broken_solve)
    row = many.solve_spot_file(str(folder / f"river_{BOARDS[0]}.toml"))
    assert row.error == "a solver's own failure" and row.board == BOARDS[0]


def test_the_worker_limit_is_per_core_and_per_memory() -> None:
    assert worker_limit(cores=2, memory=2**40).workers == 2 * many.WORKERS_PER_CORE
    assert worker_limit(cores=64, memory=3 * WORKER_BYTES).workers == 3
    assert worker_limit(cores=1, memory=0).workers == 1  # one worker is always allowed


def test_too_many_workers_are_refused_before_any_starts(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_pool(*args: object, **kwargs: object) -> None:
        raise AssertionError("a pool was started")

    monkeypatch.setattr("seqform.base.pool.ProcessPoolExecutor", no_pool)
    limit = worker_limit()
    with pytest.raises(TooManyWorkersError, match=f"--workers 100,000: at most {limit.workers}"):
        solve_many(folder, workers=100_000)


def test_cli_too_many_workers_is_a_usage_error(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve-many", str(folder), "--workers", "100000"]) == 2
    assert "at most" in capsys.readouterr().err


@pytest.mark.slow
def test_an_unreachable_dask_scheduler_fails_within_the_connect_limit(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(many, "CONNECT_SECONDS", 0.5)  # Dask's own default is 30 s
    with pytest.raises(OSError, match=r"no Dask scheduler answered at tcp://127.0.0.1:1 within"):
        solve_many(folder, executor="dask", address="tcp://127.0.0.1:1")
