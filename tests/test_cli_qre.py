"""``seqform qre``: the JSON validated against its schema, points, fit, picture, errors."""

from __future__ import annotations

import json

import pytest

from seqform.cli import main as cli
from seqform.cli.commands import qre as qre_command
from seqform.io.documents import validate_document


def _validate(document: dict) -> None:
    pytest.importorskip("jsonschema")
    validate_document(document)  # seqform.qre/2, through the registry of every schema


def _json(capsys, *argv: str) -> dict:
    assert cli.main(["qre", *argv, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_traced_limit_of_kuhn_is_certified_and_placed_in_the_family(capsys):
    document = _json(capsys, "kuhn", "--quiet")
    _validate(document)
    assert document["mode"] == "trace" and document["trace"]["converged"]
    limit = document["points"][0]
    # Kuhn (1950): the value is -1/18 for player 1 at every equilibrium.
    assert limit["values"][0] == pytest.approx(-1 / 18, abs=1e-4)
    first = document["comparison"]["players"][0]
    assert first["parameter"] == "J:b" and 0 < first["t"] < 1 / 3


def test_points_at_given_lambdas(capsys):
    document = _json(capsys, "kuhn", "--lambda", "0,2", "--lambda", "10")
    _validate(document)
    assert [p["lambda"] for p in document["points"]] == [0, 2, 10]
    uniform = document["points"][0]["strategies"][0]["infosets"][0]["actions"]
    assert [a["probability"] for a in uniform] == [0.5, 0.5]  # λ = 0 is uniform play
    nash_convs = [p["nash_conv"] for p in document["points"]]
    assert nash_convs == sorted(nash_convs, reverse=True)


@pytest.mark.slow
def test_fit_from_a_csv_file(capsys, tmp_path):
    data = tmp_path / "counts.csv"
    data.write_text("player,infoset,action,count\n1,J,p,80\n1,J,b,20\n1,K,b,70\n1,K,p,30\n")
    document = _json(capsys, "kuhn", "--fit", str(data))
    _validate(document)
    assert document["mode"] == "fit" and document["fit"]["observations"] == 200
    assert document["fit"]["lambda"] == pytest.approx(document["points"][0]["lambda"])


def test_text_report_names_the_points(capsys):
    assert cli.main(["qre", "kuhn", "--lambda", "3"]) == 0
    out = capsys.readouterr().out
    assert "Logit QRE at λ = 3" in out and "NashConv" in out


@pytest.mark.slow
def test_plot_writes_an_image(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    picture = tmp_path / "branch.png"
    assert cli.main(["qre", "kuhn", "--plot", str(picture), "--quiet"]) == 0
    assert picture.read_bytes().startswith(b"\x89PNG")


@pytest.mark.parametrize("mode", [[], ["--lambda", "1"]], ids=["trace", "points"])
@pytest.mark.parametrize("name", ["branch.xyz", "branch"], ids=["unknown-suffix", "no-suffix"])
def test_a_plot_name_matplotlib_cannot_write_is_refused_before_the_trace(
    mode, name, monkeypatch, capsys
):
    # it was refused by matplotlib after the whole trace, in words that did not name --plot
    pytest.importorskip("matplotlib")

    def no_trace(*args, **kwargs):
        raise AssertionError("traced before the --plot name was checked")

    monkeypatch.setattr(qre_command, "trace_logit", no_trace)
    monkeypatch.setattr(qre_command, "logit_qre", no_trace)
    assert cli.main(["qre", "kuhn", *mode, "--plot", name]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"seqform: error: --plot {name}: name a file ending in a format ")
    assert ".png, " in err and ".svg" in err and len(err.strip().splitlines()) == 1


def test_plot_formats_are_matplotlibs_by_suffix():
    pytest.importorskip("matplotlib")
    from seqform.cli.plots.files import plot_format

    assert plot_format("branch.SVG", "qre") == "svg"
    assert plot_format("branch.jpg", "qre") == "jpg"  # not only .png, .svg, .pdf


@pytest.mark.slow
def test_a_plot_that_cannot_be_written_is_refused_before_the_trace(tmp_path, capsys):
    # Written after the trace, a picture that could not be written lost the trace's
    # answer; every output is now checked before any work (seqform.cli.resolve.check_files).
    pytest.importorskip("matplotlib")
    picture = tmp_path / "branch.png"
    picture.write_bytes(b"kept")
    picture.chmod(0o444)  # refused, not replaced, by seqform.io.atomic (also as root)
    argv = ["qre", "kuhn", "--lambda", "1", "--plot", str(picture), "--max-lambda", "1"]
    assert cli.main([*argv, "--quiet"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"seqform: error: cannot write {str(picture)!r} (--plot): ")
    assert picture.read_bytes() == b"kept"


@pytest.mark.slow
def test_a_plot_into_a_missing_folder_names_the_file_not_a_temporary_one(capsys):
    pytest.importorskip("matplotlib")
    argv = ["qre", "kuhn", "--lambda", "1", "--max-lambda", "1", "--quiet"]
    assert cli.main([*argv, "--plot", "/nonexistent/folder/q.png"]) != 0
    err = capsys.readouterr().err
    assert "'/nonexistent/folder/q.png'" in err and ".tmp" not in err  # was .q.png.<hex>.tmp.png


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        pytest.param(["--lambda", "x"], 2, "not a number", id="lambda-word"),
        pytest.param(["--lambda", "-1"], 2, ">= 0", id="lambda-negative"),
        pytest.param(["--lambda", "1", "--fit", "f.csv"], 2, "cannot be combined", id="both"),
        pytest.param(["--fit", "missing.csv"], 1, "missing.csv", id="missing-file"),
    ],
)
def test_bad_input_is_one_line(argv, code, message, capsys):
    assert cli.main(["qre", "kuhn", *argv]) == code
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_trace_stopped_before_its_limit_is_written_and_exits_3(capsys):
    # --max-lambda 5 ends Kuhn's trace long before NashConv reaches 1e-6 of the payoff range
    # (at λ = 5 it is 0.086): the last point is reported, and the exit says not certified.
    assert cli.main(["qre", "kuhn", "--max-lambda", "5", "--no-compare", "--quiet"]) == 3
    captured = capsys.readouterr()
    assert "not converged: max_lambda" in captured.out
    assert "not certified: the trace ended at λ = " in captured.err
    assert len(captured.err.strip().splitlines()) == 1


def test_ctrl_c_exits_130(monkeypatch, capsys):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(qre_command, "trace_logit", interrupted)
    assert cli.main(["qre", "kuhn"]) == 130
    assert "interrupted" in capsys.readouterr().err


def test_a_lost_branch_is_one_error_line(monkeypatch, capsys):
    from seqform.qre.trace import BranchLostError

    def lost(*args, **kwargs):
        raise BranchLostError("Newton's method did not converge at λ = 1e+09")

    monkeypatch.setattr(qre_command, "logit_qre", lost)
    assert cli.main(["qre", "kuhn", "--lambda", "1e9"]) == 1
    err = capsys.readouterr().err
    assert "did not converge" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("dimension", "said"),
    [
        pytest.param(0, "Player 1: one optimal realization plan (ranges: ", id="point"),
        pytest.param(
            2, "Player 1: the optimal plans form a 2-dimensional set (ranges), not a", id="face"
        ),
    ],
)
def test_comparison_says_what_ranges_found_without_a_segment(dimension, said):
    from seqform.documents.qre import qre_document
    from seqform.documents.text.qre import qre_text
    from seqform.io.loader import load_game
    from seqform.qre.equilibria import logit_qre
    from seqform.qre.limit import LimitComparison

    game = load_game("kuhn")
    point = logit_qre(game, [1.0]).points[0]
    comparison = LimitComparison((None, None), (None, None), (0.0, 0.0), None, (dimension, 0))
    text = qre_text(qre_document(game, (point,), 0.0, comparison=comparison), "summary")
    assert said in text and "unique" not in text


@pytest.mark.parametrize("accel", ["0.5", "1", "1.0000001"])
def test_a_step_growth_that_cannot_end_is_a_usage_error(accel, capsys):
    # 0.5 ended in SciPy's "Factor is exactly singular"; 1 never grows the step: no end
    with pytest.raises(SystemExit) as raised:
        cli.main(["qre", "kuhn", "--max-accel", accel, "--no-compare"])
    assert raised.value.code == 2
    assert "--max-accel: must be at least 1.05" in capsys.readouterr().err


def test_the_library_refuses_the_same_growth():
    from seqform.qre.trace import TraceSettings

    with pytest.raises(ValueError, match=r"max_accel must be a number from 1\.05 to"):
        TraceSettings(max_accel=1.0)
