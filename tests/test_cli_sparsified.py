"""``solve --method sparsified``: the command line of the tree-free path."""

import json

import pytest

from seqform.cli.main import main


def test_sparsified_kuhn_text(capsys):
    assert main(["solve", "kuhn", "--method", "sparsified"]) == 0
    out = capsys.readouterr().out
    assert "Value to Player 1: -0.0555555" in out and "(= -1/18)" in out  # Kuhn (1950)
    assert "game tree, not built: 55 nodes, 30 terminal histories" in out
    assert "Solver: Clarabel interior point, optimal" in out
    assert "equilibrium (≤ 1e-09)" in out
    assert "Kb       fold 0.0000  call 1.0000" in out  # player 2 always calls with K


def test_sparsified_large_deck_summarises_by_card_range(capsys):
    assert main(["solve", "kuhn(cards=2000)", "--method", "sparsified", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    out = captured.out
    assert "sequences                8,001         8,001" in out
    assert "behavioural strategy by card (1 = lowest … 2000 = highest)" in out
    assert "call   always 1002–2000" in out  # player 2 calls a bet with the top half


def test_sparsified_json(capsys):
    argv = ["solve", "kuhn(cards=30)", "--method", "sparsified", "--format", "json"]
    assert main([*argv, "--solver", "simplex"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["schema"] == "seqform.sparsified/1"
    assert document["game"]["cards"] == 30
    assert document["solver"]["backend"] == "highs"
    assert document["certificate"]["equilibrium"] is True
    first = document["strategies"][0]["nodes"][0]
    assert first["history"] == "" and len(first["probabilities"]) == 30
    assert main(["solve", "kuhn(cards=30)", "--format", "json"]) == 0  # the tree LP
    tree = json.loads(capsys.readouterr().out)
    assert document["value"] == pytest.approx(tree["value"], abs=1e-12)


def test_progress_goes_to_stderr(capsys):
    assert main(["solve", "kuhn(cards=200)", "--method", "sparsified", "--verbose"]) == 0
    err = capsys.readouterr().err
    assert "sparsified LP of kuhn(cards=200): 801 + 801 sequences" in err
    assert "done: value" in err


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["solve", "leduc", "--method", "sparsified"], 2, "not a one-card showdown game"),
        (["solve", "kuhn", "--solver", "clarabel"], 2, "--method structured"),
        (["solve", "kuhn", "--method", "sparsified", "--solver", "pdlp"], 1, "not pdlp"),
        (["solve", "kuhn", "--method", "sparsified", "--backend", "cvxpy"], 1, "--backend"),
        (
            ["solve", "kuhn(cards=1)", "--method", "sparsified"],
            1,
            "cards must be an integer >= 2, got 1",
        ),
        (["solve", "kuhn(decks=2)", "--method", "sparsified"], 1, "no parameter 'decks'"),
        (
            ["solve", "kuhn(cards=250000)", "--method", "tree"],
            1,
            "solve it with --method structured",
        ),
        (["solve", "kuhn", "--method", "sparsified", "--exact"], 1, "(--method tree)"),
    ],
)
def test_bad_requests_are_one_line(argv, code, message, capsys):
    assert main(argv) == code
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_time_limit_is_reported_as_a_limit(capsys):
    argv = ["solve", "kuhn(cards=20000)", "--method", "sparsified", "--quiet"]
    assert main([*argv, "--time-limit", "0.001"]) == 1
    err = capsys.readouterr().err
    assert "Clarabel stopped" in err and "exploitability" in err
