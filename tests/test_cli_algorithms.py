"""``iterate --algorithm`` for the newer algorithms: the help names them, each runs on
two- and three-player games, stops by target and time, and writes strategy files."""

import json

import pytest

from seqform.cli.main import main

NEW = ["lcfr", "pcfr+", "dcfr+", "pdcfr+", "xfp", "rcfr"]


def _json(capsys, *argv: str) -> dict:
    assert main(["iterate", *argv, "--format", "json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


def test_help_names_every_algorithm(capsys):
    with pytest.raises(SystemExit):
        main(["iterate", "--help"])
    text = capsys.readouterr().out
    for name in NEW:
        assert name in text


@pytest.mark.parametrize("algorithm", NEW)
def test_each_runs_on_kuhn_and_on_three_player_kuhn(algorithm, capsys):
    document = _json(capsys, "kuhn", "--algorithm", algorithm, "--iterations", "100")
    assert document["algorithm"] == algorithm and document["iterations"] == 100
    assert document["certificate"]["nash_conv"] == pytest.approx(document["nash_conv"])
    last = document["last_iterate_nash_conv"]
    assert (last is not None) == (algorithm in {"pcfr+", "pdcfr+"})
    three = _json(capsys, "kuhn3", "--algorithm", algorithm, "--iterations", "20")
    assert len(three["strategies"]) == 3


def test_last_iterate_is_in_the_history_and_the_progress(capsys):
    assert main(["iterate", "kuhn", "--algorithm", "pcfr+", "--iterations", "200"]) == 0
    captured = capsys.readouterr()
    assert "Last iterate: NashConv" in captured.out
    assert all(" last " in line for line in captured.err.splitlines() if "iteration" in line)


def test_target_and_time_limit_stop_the_new_algorithms(capsys):
    document = _json(
        capsys, "kuhn", "--algorithm", "pdcfr+", "--target-exploitability", "1e-4", "--every", "10"
    )
    # the target is the exploitability, NashConv / 2
    assert document["stopped"] == "target" and document["nash_conv"] / 2 <= 1e-4
    assert main(["iterate", "leduc", "--algorithm", "xfp", "--time-limit", "0.05", "--quiet"]) == 0
    assert "stopped by the time limit" in capsys.readouterr().out


def test_an_xfp_document_is_a_strategy_file_for_exploit(tmp_path, capsys):
    path = tmp_path / "xfp.json"
    argv = ["--algorithm", "xfp", "--iterations", "200", "--quiet", "--output", str(path)]
    assert main(["iterate", "kuhn", *argv, "--format", "json"]) == 0
    capsys.readouterr()
    assert (
        main(["exploit", "kuhn", "--strategy", str(path), "--player", "1", "--format", "json"]) == 0
    )
    gain = float(json.loads(capsys.readouterr().out)["gain"])
    assert 0 <= gain < 0.05  # XFP after 200 Kuhn iterations: NashConv about 0.035
