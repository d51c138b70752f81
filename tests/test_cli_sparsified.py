"""``solve --method structured`` on N-card Kuhn."""

import json

import numpy as np
import pytest

from seqform.cli.main import main
from seqform.game.builtin.kuhn import kuhn_structured
from seqform.routes.structured import solve_structured
from seqform.structured.products import hand_matrix


def test_kuhn_on_the_structured_route(capsys):
    assert main(["solve", "kuhn", "--method", "structured"]) == 0
    out = capsys.readouterr().out
    assert "Value to Player 1: -0.0555555" in out and "(= -1/18)" in out  # Kuhn (1950)
    assert "Solved on the structured route" in out
    assert "Solver: Clarabel interior point, optimal" in out
    assert "equilibrium (≤ 1e-09)" in out
    assert main(["solve", "kuhn", "--method", "structured"]) == 0

    def untimed(text):
        return [line for line in text.splitlines() if " s (LP build " not in line]

    assert untimed(capsys.readouterr().out) == untimed(out)


def test_large_deck_player_two_calls_with_the_top_half(capsys):
    assert main(["solve", "kuhn(cards=2000)", "--method", "structured", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert "sequences            8,001     8,001" in captured.out
    # Player 2 calls a bet with cards 1002-2000 and never below 1000 (the summary the old
    # route printed: "call always 1002–2000"), read from the strategy itself.
    game = kuhn_structured(2000)
    solution = solve_structured(game)
    calls = hand_matrix(game, 1, solution.strategies[1].probabilities)[:, 4]  # b:b
    np.testing.assert_allclose(calls[1001:], 1.0, atol=1e-6)
    assert calls[:1000].max() < 1.0 - 1e-3


def test_the_structured_json_document(capsys):
    argv = ["solve", "kuhn(cards=30)", "--method", "structured", "--format", "json"]
    assert main([*argv, "--solver", "simplex"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["schema"] == "seqform.structured/2"
    assert document["method"] == "structured"
    assert document["solver"]["backend"] == "highs"
    assert document["certificate"]["equilibrium"] is True
    assert document["sizes"]["payoff_nonzeros"] == 5 * 30 * 29  # 5 betting leaves × deals
    assert main(["solve", "kuhn(cards=30)", "--method", "tree", "--format", "json"]) == 0
    tree = json.loads(capsys.readouterr().out)
    assert document["value"] == pytest.approx(tree["value"], abs=1e-12)


def test_progress_goes_to_stderr(capsys):
    assert main(["solve", "kuhn(cards=200)", "--method", "structured", "--verbose"]) == 0
    err = capsys.readouterr().err
    assert "structured LP of kuhn(cards=200): 801 + 801 sequences" in err
    assert "done: value" in err


@pytest.mark.parametrize(
    ("argv", "code", "message"),
    [
        (["solve", "texas", "--method", "structured"], 2, "no public tree × private hands"),
        (["solve", "kuhn", "--solver", "clarabel"], 2, "--method structured"),
        # flag combinations that cannot run are usage errors, exit 2
        (["solve", "kuhn", "--method", "structured", "--solver", "pdlp"], 2, "not pdlp"),
        (["solve", "kuhn", "--method", "structured", "--backend", "cvxpy"], 2, "--backend"),
        (
            ["solve", "kuhn(cards=1)", "--method", "structured"],
            2,
            "cards must be an integer >= 2, got 1",
        ),
        (["solve", "kuhn(decks=2)", "--method", "structured"], 2, "no parameter 'decks'"),
        (
            ["solve", "kuhn(cards=250000)", "--method", "tree"],
            1,
            "--method structured', which never builds the tree",
        ),
        (["solve", "kuhn", "--method", "structured", "--refine"], 2, "(--method tree)"),
    ],
)
def test_bad_requests_are_one_line(argv, code, message, capsys):
    assert main(argv) == code
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_time_limit_is_reported_as_a_limit(capsys):
    argv = ["solve", "kuhn(cards=20000)", "--method", "structured", "--quiet"]
    assert main([*argv, "--solver", "clarabel", "--time-limit", "0.001"]) == 1
    err = capsys.readouterr().err
    assert "Clarabel stopped" in err and "exploitability" in err
