"""``python -m seqform iterate``: bad input, the JSON schema, Kuhn against the LP, three
players, the stopping rules, --output and Ctrl-C."""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from seqform.cli.main import main

ROOT = Path(__file__).resolve().parents[1]


def _json(capsys, *argv: str) -> dict:
    assert main(["iterate", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("argv", "option", "message"),
    [
        (["--iterations", "0"], "--iterations", "must be at least 1, got '0'"),
        (["--iterations", "-3"], "--iterations", "must be at least 1, got '-3'"),
        (["--iterations", "ten"], "--iterations", "expected a whole number, got 'ten'"),
        (["--iterations", "1.5"], "--iterations", "expected a whole number, got '1.5'"),
        (["--every", "0"], "--every", "must be at least 1, got '0'"),
        (["--target-exploitability", "0"], "--target-exploitability", "must be a positive"),
        (["--target-exploitability", "-0.001"], "--target-exploitability", "must be a positive"),
        (["--target-exploitability", "inf"], "--target-exploitability", "must be a positive"),
        (["--seed", "-1"], "--seed", "must be at least 0"),
        (["--time-limit", "0"], "--time-limit", "must be a positive, finite number"),
        (["--algorithm", "cfr++"], "--algorithm", "invalid choice: 'cfr++'"),
    ],
)
def test_bad_options_are_usage_errors(argv, option, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["iterate", "kuhn", "--algorithm", "cfr", *argv])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    (last,) = [line for line in err.splitlines() if line.startswith("seqform iterate: error:")]
    assert f"argument {option}: " in last and message in last
    assert "Traceback" not in err


def test_a_missing_algorithm_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["iterate", "kuhn"])
    assert stopped.value.code == 2
    assert "--algorithm" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("rules", "stopped"),
    [
        ({"iterations": 10, "target_exploitability": 1e-3}, "iterations"),
        ({"iterations": 100_000, "target_exploitability": 1e-2}, "target"),
        ({"iterations": 10, "target_exploitability": 1e-3, "time_limit": 60.0}, "iterations"),
        ({"target_exploitability": 1e-2, "time_limit": 60.0}, "target"),
    ],
    ids=["iterations-first", "target-first", "three-rules", "target-and-time"],
)
def test_stopping_rules_combine_as_in_python(rules, stopped, capsys):
    # The command line refused --iterations with --target-exploitability (argparse's
    # "not allowed with"), while seqform.iterate took both, whichever fires first.
    from seqform.questions.iterate import iterate

    argv = ["kuhn", "--algorithm", "cfr+", "--every", "10", "--quiet", "--no-reference"]
    for name, value in rules.items():
        argv += [f"--{name.replace('_', '-')}", str(value)]
    document = _json(capsys, *argv)
    python = iterate("kuhn", "cfr+", every=10, reference=False, **rules).result
    assert document["stopped"] == python.stopped == stopped
    assert document["iterations"] == python.iterations
    assert document["stopping"]["iterations"] == rules.get("iterations")
    assert document["stopping"]["target_exploitability"] == rules["target_exploitability"]


def test_a_time_limit_with_many_iterations_stops_at_the_time_limit(capsys):
    argv = ["leduc", "--algorithm", "cfr", "--iterations", "1000000", "--time-limit", "0.05"]
    document = _json(capsys, *argv, "--quiet", "--no-reference")
    assert document["stopped"] == "time limit" and document["iterations"] < 1_000_000


def test_a_schedule_with_a_target_runs_over_its_iterations(capsys):
    # hs-* need --iterations (their schedule's length); with it a target may stop them early
    argv = ["kuhn", "--algorithm", "hs-dcfr30", "--iterations", "10000"]
    document = _json(capsys, *argv, "--target-exploitability", "1e-2", "--every", "10",
                     "--quiet", "--no-reference")  # fmt: skip
    assert document["stopped"] == "target" and document["iterations"] < 10_000


def test_a_seed_for_a_deterministic_algorithm_is_one_line(capsys):
    assert main(["iterate", "kuhn", "--algorithm", "cfr+", "--seed", "3"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "seqform: error: --seed applies to --algorithm mccfr only (cfr+ is deterministic)\n"
    )


@pytest.mark.parametrize(
    ("game", "code", "start"),
    [
        ("texas", 2, "seqform: error: unknown game 'texas'; known games: "),
        ("kuhn(cards=1)", 2, "seqform: error: kuhn: cards must be an integer >= 2, got 1"),
        ("no/such/file.efg", 1, "seqform: error: cannot read"),
    ],
)
def test_a_game_that_cannot_be_built_is_one_line(game, code, start, capsys):
    assert main(["iterate", game, "--algorithm", "cfr"]) == code
    err = capsys.readouterr().err
    assert err.startswith(start) and err.count("\n") == 1


def test_kuhn_cfr_plus_against_the_lp(capsys):
    document = _json(capsys, "kuhn", "--algorithm", "cfr+", "--iterations", "1000")
    assert document["schema"] == "seqform.iterate/2"
    assert document["game"] == {
        "name": "kuhn",
        "description": document["game"]["description"],
        "players": 2,
        "labels": "kuhn",  # the legend under the text's strategy tables explains them
    }
    assert (document["method"], document["measures_last_iterate"]) == ("tree", False)
    assert (document["algorithm"], document["seed"], document["stopped"]) == (
        "cfr+",
        None,
        "iterations",
    )
    assert document["stopping"] == {
        "iterations": 1000,
        "target_exploitability": None,
        "time_limit": None,
        "every": 100,
    }
    assert document["iterations"] == 1000
    assert [s["iteration"] for s in document["history"]] == list(range(100, 1001, 100))
    # measured: NashConv 1.75e-4 after 1000 CFR+ iterations (deterministic)
    assert document["nash_conv"] < 2e-4
    assert document["nash_conv"] == document["history"][-1]["nash_conv"]
    assert document["certificate"]["nash_conv"] == pytest.approx(document["nash_conv"])
    gains = [player["gain"] for player in document["players"]]
    assert sum(gains) == pytest.approx(document["nash_conv"])
    values = [player["value"] for player in document["players"]]
    # the value of Kuhn poker is -1/18 (Kuhn 1950); measured distance 3.6e-7
    assert values[0] == pytest.approx(-1 / 18, abs=1e-6)
    assert values[1] == pytest.approx(-values[0])
    reference = document["reference"]
    assert reference["skipped"] is None and reference["value_fraction"] == "-1/18"
    assert reference["value_distance"] == pytest.approx(abs(values[0] + 1 / 18), abs=1e-12)
    first, second = reference["players"]
    # player 1 has a one-parameter family of equilibria, player 2 a unique one (Kuhn 1950),
    # which the ranges decide
    assert (first["dimension"], first["unique"], first["distance"]) == (1, False, None)
    assert (second["dimension"], second["unique"]) == (0, True)
    assert 0 < second["distance"] < 2e-4  # measured 9.9e-5
    strategies = document["strategies"]
    assert [s["player"] for s in strategies] == [1, 2]
    kb = next(i for i in strategies[1]["infosets"] if i["name"] == "Kb")
    assert kb["actions"][1]["words"] == "call"
    assert kb["actions"][1]["probability"] == pytest.approx(1, abs=1e-3)


def test_kuhn_text_says_what_ran_and_why_it_stopped(capsys):
    assert main(["iterate", "kuhn", "--algorithm", "dcfr", "--iterations", "200", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert err == ""  # --quiet: no progress
    assert "Algorithm: DCFR (Brown and Sandholm 2019: α = 1.5, β = 0, γ = 2)" in out
    assert "stopped by the iteration limit of 200" in out
    assert "exact value to Player 1 -0.0555555556 (= -1/18)" in out
    assert "Player 2: unique equilibrium strategy" in out
    assert "Player 1 — behavioural strategy" in out and "Player 2 — behavioural strategy" in out
    assert "NashConv history (every 100 iterations and at the end)" in out


def test_progress_is_one_line_per_sample_on_stderr(capsys):
    assert (
        main(["iterate", "kuhn", "--algorithm", "cfr", "--iterations", "250", "--every", "100"])
        == 0
    )
    err = capsys.readouterr().err.splitlines()
    lines = [line for line in err if not line.startswith("seqform: LP reference: ")]
    assert [line.split()[2] for line in lines] == ["100", "200", "250"]
    assert all(line.startswith("seqform: iteration") and "NashConv" in line for line in lines)
    # then the reference's stages, one line each: piped, they were not shown at all
    assert err[3:] == [
        "seqform: LP reference: solving kuhn on the tree route",
        "seqform: LP reference: deciding uniqueness (ranges)",
    ]


def test_kuhn3_reports_three_values_and_skips_the_lp(capsys):
    document = _json(capsys, "kuhn3", "--algorithm", "cfr", "--iterations", "200")
    assert document["game"]["players"] == 3
    players = document["players"]
    assert [p["player"] for p in players] == [1, 2, 3]
    assert sum(p["value"] for p in players) == pytest.approx(0, abs=1e-12)  # zero-sum
    assert document["nash_conv"] == pytest.approx(sum(p["gain"] for p in players))
    assert document["certificate"] is None
    assert "3 players" in document["reference"]["skipped"]
    assert len(document["strategies"]) == 3


def test_target_stops_early_and_says_so(capsys):
    document = _json(
        capsys, "kuhn", "--algorithm", "cfr+", "--target-exploitability", "1e-2", "--every", "10"
    )
    assert document["stopped"] == "target"
    assert document["nash_conv"] / 2 <= 1e-2  # the target is the exploitability, NashConv / 2
    assert document["certificate"]["exploitability"] <= 1e-2
    # measured every 10 and, once or twice, where the last two measurements' trend met the
    # target (a forecast that missed is followed by one more)
    measured = [sample["iteration"] for sample in document["history"]]
    assert document["iterations"] < 1000 and document["iterations"] == measured[-1]
    assert [t for t in measured if t % 10] in ([], measured[-1:], measured[-2:])
    assert document["stopping"]["iterations"] is None


def test_time_limit_stops_and_says_so(capsys):
    assert main(["iterate", "leduc", "--algorithm", "cfr", "--time-limit", "0.05", "--quiet"]) == 0
    assert "stopped by the time limit of 0.05 s of solver time" in capsys.readouterr().out


def test_mccfr_prints_its_default_seed_and_repeats(capsys):
    argv = ["kuhn", "--algorithm", "mccfr", "--iterations", "300"]
    assert main(["iterate", *argv, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert "mccfr: seed 0 (the default; choose one with --seed)" in err
    assert json.loads(out)["seed"] == 0
    again = _json(capsys, *argv, "--seed", "0")
    assert again["strategies"] == json.loads(out)["strategies"]
    assert _json(capsys, *argv, "--seed", "7")["seed"] == 7


def test_efg_input(tmp_path, capsys):
    efg = tmp_path / "kuhn.efg"
    assert main(["export", "kuhn", "--to", "efg", str(efg)]) == 0
    capsys.readouterr()
    document = _json(capsys, str(efg), "--algorithm", "cfr+", "--iterations", "100")
    assert document["reference"]["value_fraction"] == "-1/18"


def test_output_is_written_atomically(tmp_path, capsys):
    target = tmp_path / "run.json"
    target.write_text("old")
    argv = ["iterate", "kuhn", "--algorithm", "cfr", "--iterations", "10", "--quiet"]
    assert main([*argv, "--format", "json", "--output", str(target)]) == 0
    assert capsys.readouterr().out == ""
    assert json.loads(target.read_text())["schema"] == "seqform.iterate/2"
    assert [p.name for p in tmp_path.iterdir()] == ["run.json"]  # no temporary file left
    assert main([*argv, "--output", str(tmp_path / "missing" / "run.txt")]) == 1
    assert capsys.readouterr().err.startswith("seqform: error: cannot write ")


@pytest.mark.slow
def test_ctrl_c_stops_at_an_iteration_boundary_and_exits_130(tmp_path):
    output = tmp_path / "run.json"
    command = [sys.executable, "-m", "seqform", "iterate", "kuhn", "--algorithm", "cfr+",
               "--iterations", "100000000", "--every", "200", "--format", "json",
               "--output", str(output)]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env)
    assert process.stderr is not None
    first = process.stderr.readline()  # the first sample: the run is under way
    assert first.startswith("seqform: iteration")
    process.send_signal(signal.SIGINT)
    err = process.stderr.read()
    assert process.wait(timeout=60) == 130
    assert "seqform: interrupted after" in err and "Traceback" not in err
    document = json.loads(output.read_text())
    assert document["stopped"] == "interrupted"
    assert document["history"][-1]["iteration"] == document["iterations"]


@pytest.mark.parametrize(
    ("game", "algorithm", "unique"),
    [
        ("kuhn(cards=4)", "cfr", [True, False]),  # N-card Kuhn, N = 4: player 1 unique
        ("liars_dice(sides=2)", "mccfr", [False, False]),
        ("leduc", "cfr+", None),  # over the ranges limit: uniqueness not decided
        pytest.param("liars_dice", "dcfr", None, marks=pytest.mark.slow),
    ],
)
def test_every_builtin_game_runs_beside_the_lp(game, algorithm, unique, capsys):
    document = _json(capsys, game, "--algorithm", algorithm, "--iterations", "20", "--quiet")
    reference = document["reference"]
    assert reference["skipped"] is None and reference["value_distance"] >= 0
    assert [p["unique"] for p in reference["players"]] == (unique or [None, None])
    assert (reference["uniqueness_skipped"] is None) == (unique is not None)


def test_an_iterate_document_is_a_strategy_file_for_exploit(tmp_path, capsys):
    # The average strategies of a run go to `exploit --strategy` unchanged: a best response
    # against CFR+'s player 1 gains little, and never less than nothing.
    path = tmp_path / "cfr_plus.json"
    argv = ["--algorithm", "cfr+", "--iterations", "300", "--quiet", "--output", str(path)]
    assert main(["iterate", "kuhn", *argv, "--format", "json"]) == 0
    capsys.readouterr()
    assert (
        main(["exploit", "kuhn", "--strategy", str(path), "--player", "1", "--format", "json"]) == 0
    )
    gain = float(json.loads(capsys.readouterr().out)["gain"])
    assert 0 <= gain < 1e-2  # measured 2.8e-4 after 300 iterations
