"""Bad input to the logit QRE: refused by the library with the argument named, and by the
CLI as the same refusal, never a traceback (campaign C found each of these)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from seqform.cli import main as cli
from seqform.io.action_counts import ActionCountsError, read_action_counts
from seqform.io.loader import load_game
from seqform.qre import trace as trace_module
from seqform.qre.equations import logit_equations
from seqform.qre.equilibria import logit_qre, trace_logit
from seqform.qre.fit import fit_logit
from seqform.qre.trace import TraceSettings, follow_branch


@pytest.fixture(scope="module")
def kuhn():
    return load_game("kuhn")


# -- singular matrices during the trace ---------------------------------------------------


def test_a_step_landing_where_the_matrix_is_singular_is_halved(kuhn):
    # A first step of 1e10 predicts λ ~ 1e10, where exp(β) underflows and SuperLU raised
    # "Factor is exactly singular" (as --max-accel 1e8 did after a few steps): now it is
    # a rejected step, halved until the corrector succeeds.
    branch = trace_logit(kuhn, settings=TraceSettings(first_step=1e10))
    assert branch.converged


def test_a_trace_that_cannot_get_past_a_singular_matrix_is_lost(kuhn):
    # Halving stops at min_step: the trace ends "lost" at its last point, as other losses.
    trace = follow_branch(
        logit_equations(kuhn), TraceSettings(first_step=1e10, min_step=1e9), targets=[1.0]
    )
    assert trace.reason.startswith("lost: the corrector failed at λ = 0")
    assert len(trace.points) == 1 and trace.found == ()


def test_cli_reports_a_singular_matrix_as_a_lost_trace_with_exit_3(monkeypatch, capsys):
    calls = 0
    real = trace_module.splu

    def singular_after_ten(matrix):
        nonlocal calls
        calls += 1
        if calls > 10:
            raise RuntimeError("Factor is exactly singular")
        return real(matrix)

    monkeypatch.setattr(trace_module, "splu", singular_after_ten)
    assert cli.main(["qre", "kuhn", "--no-compare", "--quiet"]) == 3
    captured = capsys.readouterr()
    assert "not converged: lost: the corrector failed" in captured.out
    assert "not certified: the trace ended at λ = " in captured.err
    assert len(captured.err.strip().splitlines()) == 1


@pytest.mark.parametrize("accel", ["1e9", "1e7", "1e300"])
def test_a_step_growth_beyond_the_bound_is_a_usage_error(accel, capsys):
    with pytest.raises(SystemExit) as raised:
        cli.main(["qre", "kuhn", "--max-accel", accel, "--no-compare", "--quiet"])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert "--max-accel: must be at least 1.05" in err and "at most 1e+06" in err


# -- TraceSettings ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("first_step", -1.0, "first_step must be a finite number > 0"),
        ("first_step", 0.0, "first_step must be a finite number > 0"),
        ("first_step", float("nan"), "first_step must be a finite number > 0"),
        ("min_step", 0.0, "min_step must be a finite number > 0"),
        ("min_step", float("inf"), "min_step must be a finite number > 0"),
        ("max_lambda", -1.0, "max_lambda must be a number > 0"),
        ("max_lambda", 0.0, "max_lambda must be a number > 0"),
        ("max_lambda", float("nan"), "max_lambda must be a number > 0"),
        ("max_steps", 0, "max_steps must be at least 1"),
        ("max_accel", 1e7, r"max_accel must be a number from 1\.05 to 1e\+06"),
        ("max_accel", 1.0, r"max_accel must be a number from 1\.05 to 1e\+06"),
    ],
)
def test_trace_settings_refuse_values_out_of_range(field, value, message):
    with pytest.raises(ValueError, match=message):
        TraceSettings(**{field: value})


@pytest.mark.parametrize(
    ("field", "value"),
    [("first_step", "x"), ("max_lambda", "x"), ("max_steps", 1.5), ("max_accel", True)],
)
def test_trace_settings_refuse_values_that_are_not_numbers(field, value):
    with pytest.raises(TypeError, match=f"{field} must be a "):
        TraceSettings(**{field: value})


def test_trace_settings_accept_an_unlimited_lambda():
    assert TraceSettings(max_lambda=float("inf"), max_steps=np.int64(5)).max_steps == 5


@pytest.mark.parametrize("value", ["0", "-1", "inf", "nan"])
def test_cli_max_lambda_is_refused_as_the_library_refuses_it(value, capsys):
    with pytest.raises(SystemExit) as raised:
        cli.main(["qre", "kuhn", "--max-lambda", value, "--no-compare", "--quiet"])
    assert raised.value.code == 2
    assert "--max-lambda" in capsys.readouterr().err


# -- fit_logit ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        pytest.param(-np.ones(24), "count -1 of player 1's action 'p' at 'J'", id="negative"),
        pytest.param(np.zeros(24), "no observations", id="zero"),
        pytest.param(np.full(24, 2.5), "count 2.5 .* not a whole number", id="fraction"),
        pytest.param(np.full(24, np.inf), "count inf .* not a whole number", id="inf"),
        pytest.param(np.ones(3), "expected 24 counts", id="short"),
        pytest.param(np.r_[1e308, 1e308, np.zeros(22)], "they add up past the float", id="sum"),
    ],
)
def test_fit_refuses_counts_the_cli_refuses(kuhn, counts, message):
    with pytest.raises(ValueError, match=f"counts: {message}"):
        fit_logit(kuhn, counts)


def test_fit_refuses_counts_that_are_not_numbers(kuhn):
    with pytest.raises(TypeError, match="counts must be numbers"):
        fit_logit(kuhn, ["x"] * 24)


def test_fit_refuses_a_max_lambda_that_is_not_positive(kuhn):
    with pytest.raises(ValueError, match="max_lambda must be a number > 0"):
        fit_logit(kuhn, np.ones(24), max_lambda=-1)


def test_fit_takes_max_lambda_beside_settings(kuhn):
    # Counts all on one action rise along the branch to its end: the fit stops where the
    # trace does, so its λ shows which limit the trace had.  max_lambda given with
    # settings used to be ignored.
    counts = np.zeros(24)
    counts[0] = 100
    alone = fit_logit(kuhn, counts, settings=TraceSettings(max_lambda=2.0))
    both = fit_logit(kuhn, counts, settings=TraceSettings(max_lambda=2.0), max_lambda=3.0)
    assert alone.at_end and both.at_end
    assert 2.0 <= alone.lam < 3.0 <= both.lam


@pytest.mark.parametrize(("count", "message"), [("-41", "'-41' is not a whole"), ("0", "every")])
def test_cli_fit_refuses_the_same_counts_in_one_line(tmp_path, capsys, count, message):
    data = tmp_path / "counts.csv"
    data.write_text(f"player,infoset,action,count\n1,J,p,{count}\n")
    assert cli.main(["qre", "kuhn", "--fit", str(data), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


# -- counts files: each entry exactly once, in its place ---------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # the extra column was dropped and the row counted as 4 (campaign)
        pytest.param("1,J,p,4,5\n", r"c\.csv, line 2: 5 fields, expected 4", id="extra-column"),
        pytest.param("1,J,b,2\n1,J,p\n", r"c\.csv, line 3: 3 fields, expected 4", id="short-row"),
        pytest.param("01,J,p,4\n", r"c\.csv, line 2: player '01' is not a player", id="01"),
        pytest.param(
            "1,J,p,4\n\n1,J,p,3\n",
            r"line 4: .* 'p' at 'J' is given again \(first at line 2\)",
            id="row-twice",
        ),
    ],
)
def test_csv_counts_refuse_rows_that_do_not_fit(tmp_path, text, message):
    path = tmp_path / "c.csv"
    path.write_text("player,infoset,action,count\n" + text)
    with pytest.raises(ActionCountsError, match=message):
        read_action_counts(load_game("kuhn"), path)


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        # "01" and " 1" were read as player 1, " 1" merged with "1" (campaign)
        pytest.param({"01": {"J": {"p": 4}}}, "player '01' is not a player of kuhn", id="01"),
        pytest.param(
            {" 1": {"J": {"p": 4}}, "1": {"J": {"b": 4}}}, "player ' 1' is not a", id="space"
        ),
        pytest.param(
            {"1": {" J": {"p": 4}}},
            "player 1 has no action 'p' at information set ' J'",
            id="infoset",
        ),
        pytest.param({"1": {"J": {"p": "4"}}}, "count '4' is not a number", id="text-count"),
        pytest.param({"1": {"J": {"p": True}}}, "count True is not a number", id="bool-count"),
        # each count a float, their sum not: it was "cannot convert float infinity" (campaign)
        pytest.param(
            {"1": {"J": {"b": 1e308, "p": 1e308}}}, "the counts add up past the float", id="sum"
        ),
    ],
)
def test_json_counts_refuse_keys_that_are_not_the_labels(tmp_path, counts, message):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"counts": counts}))
    with pytest.raises(ActionCountsError, match=f"^{re.escape(str(path))}: {message}"):
        read_action_counts(load_game("kuhn"), path)


def test_json_counts_refuse_a_key_given_twice(tmp_path):
    path = tmp_path / "c.json"
    path.write_text('{"counts": {"1": {"J": {"p": 4, "p": 5}}}}')
    with pytest.raises(ActionCountsError, match="'p' is given twice"):
        read_action_counts(load_game("kuhn"), path)


def test_cli_fit_names_the_line_of_a_row_with_an_extra_column(tmp_path, capsys):
    data = tmp_path / "counts.csv"
    data.write_text("player,infoset,action,count\n1,J,b,9\n1,J,p,4,5\n")
    assert cli.main(["qre", "kuhn", "--fit", str(data), "--quiet"]) == 1
    assert f"{data}, line 3: 5 fields" in capsys.readouterr().err


# -- arguments that are not numbers -------------------------------------------------------


def test_trace_refuses_a_tolerance_that_is_not_a_number(kuhn):
    with pytest.raises(TypeError, match="tolerance must be a number, not 'x'"):
        trace_logit(kuhn, tolerance="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="tolerance must be a finite number > 0"):
        trace_logit(kuhn, tolerance=float("inf"))


@pytest.mark.parametrize(
    ("lambdas", "message"),
    [(["x"], "lambdas: each λ must be a number, not 'x'"), (1.0, "lambdas must be a sequence")],
)
def test_points_refuse_lambdas_that_are_not_numbers(kuhn, lambdas, message):
    with pytest.raises(TypeError, match=message):
        logit_qre(kuhn, lambdas)


def test_points_accept_any_iterable_of_lambdas(kuhn):
    points = logit_qre(kuhn, (lam for lam in [1.0, 2.0]))
    assert [point.lam for point in points.points] == [1.0, 2.0]


def test_points_past_where_the_branch_is_lost_keep_the_points_reached(kuhn):
    """Kuhn's branch is lost near λ = 1.2e10 (the corrector no longer resolves it): the
    points before are finished work, kept in the error's result."""
    from seqform.qre.equilibria import LambdaNotReachedError

    with pytest.raises(LambdaNotReachedError, match=r"not reached: λ = 1e\+20") as raised:
        logit_qre(kuhn, [1.0, 1e20])
    reached = raised.value.result.points
    assert [point.lam for point in reached] == [1.0]
    alone = logit_qre(kuhn, [1.0]).points[0]
    assert reached[0].certificate.values == pytest.approx(alone.certificate.values, abs=1e-12)


def test_cli_writes_the_points_reached_and_exits_3(tmp_path, capsys):
    path = tmp_path / "points.json"
    argv = ["qre", "kuhn", "--lambda", "1,1e20", "--format", "json", "--output", str(path)]
    assert cli.main([*argv, "--quiet"]) == 3
    assert "not reached: λ = 1e+20; the 1 λ reached are written" in capsys.readouterr().err
    assert [point["lambda"] for point in json.loads(path.read_text())["points"]] == [1.0]
    assert cli.main(["qre", "kuhn", "--lambda", "1e20", "--quiet"]) == 1  # nothing reached


def test_trace_refuses_settings_of_another_type(kuhn):
    with pytest.raises(TypeError, match="settings must be a TraceSettings"):
        trace_logit(kuhn, settings={"max_lambda": 5})  # type: ignore[arg-type]


def test_points_take_a_game_file_given_as_a_path(kuhn, tmp_path):
    # A pathlib.Path reached the built-in games' regex ("expected string or bytes-like
    # object"); the file is read as load_game reads it, and gives the game's own points.
    from seqform.io.export import write_efg

    path = tmp_path / "kuhn.efg"
    write_efg(kuhn, path)
    from_file = logit_qre(path, [1.0]).points[0].strategies
    built = logit_qre(kuhn, [1.0]).points[0].strategies
    for ours, theirs in zip(from_file, built, strict=True):
        assert ours.table.infosets == theirs.table.infosets
        assert ours.probabilities == pytest.approx(theirs.probabilities, abs=1e-9)


# -- options the mode does not use ----------------------------------------------------------
# The trace to the limit uses every option; --lambda traces to its largest λ with --max-accel
# only, --fit stops its trace at --max-lambda or the default tolerance's limit
# (seqform/qre/fit.py); neither is compared with all equilibria.  With --plot both also trace
# the branch it draws, which --tolerance and --max-lambda stop.  Each was accepted and ignored.


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(
            ["--lambda", "2", "--max-lambda", "1"], "--lambda takes no --max-lambda (", id="points"
        ),
        pytest.param(
            ["--lambda", "2", "--tolerance", "0.9", "--no-compare", "--max-lambda", "1"],
            "--lambda takes no --tolerance, --max-lambda or --no-compare (the points are traced",
            id="points-three",
        ),
        pytest.param(
            ["--lambda", "2", "--plot", "{tmp}/p.png", "--no-compare"],
            "--lambda takes no --no-compare (",
            id="points-plot",
        ),
        pytest.param(
            ["--fit", "f.csv", "--tolerance", "0.5"], "--fit takes no --tolerance (", id="fit"
        ),
        pytest.param(
            ["--fit", "f.csv", "--max-lambda", "9", "--no-compare"],
            "--fit takes no --no-compare (the fit's trace stops at --max-lambda",
            id="fit-compare",
        ),
    ],
)
def test_options_the_mode_does_not_use_are_refused(argv, message, tmp_path, capsys):
    # refused before the data are read (f.csv does not exist) and before any trace
    argv = [option.format(tmp=tmp_path) for option in argv]
    assert cli.main(["qre", "kuhn", *argv]) == 2
    assert not list(tmp_path.iterdir())
    err = capsys.readouterr().err
    assert err.startswith(f"seqform: error: {message}")
    assert len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_the_branch_plot_draws_beside_points_takes_tolerance_and_max_lambda(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    picture = tmp_path / "branch.png"
    argv = ["qre", "kuhn", "--lambda", "2", "--plot", str(picture), "--tolerance", "1e-3"]
    assert cli.main([*argv, "--max-lambda", "3", "--quiet", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [point["lambda"] for point in document["points"]] == [2]
    trace = document["trace"]  # the drawn branch, stopped at λ = 3 before NashConv <= 1e-3
    assert trace["tolerance"] == 1e-3 and trace["reason"] == "max_lambda"
    assert picture.read_bytes().startswith(b"\x89PNG")
