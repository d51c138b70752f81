"""A spot file as GAME: solved on the structured route with the players'
summary, run on its explicit tree by the commands that need one, refused with exit 2 when it
is not a spot.  Values are checked against the tree route's LP on the explicit tree
(:func:`seqform.game.public.explicit.explicit_game`), computed in the same test."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from spot_files import RIVER as SPOT

import seqform
from seqform.cli.main import main
from seqform.game.public.explicit import explicit_game
from seqform.holdem.game import spot_game
from seqform.holdem.spot import read_spot
from seqform.io.documents import validate_document


@pytest.fixture
def spot_file(tmp_path: Path) -> Path:
    path = tmp_path / "river.toml"
    path.write_text(SPOT)
    return path


def test_solve_a_spot_file(spot_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(spot_file), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    validate_document(document)
    assert document["route"] == "structured"
    spot = document["spot"]
    assert spot["ev"]["oop"] + spot["ev"]["ip"] == pytest.approx(10)
    assert spot["ev_share"]["oop"] + spot["ev_share"]["ip"] == pytest.approx(1)
    # the tree route's LP on the spot's explicit tree; the spot's payoff is OOP's EV less
    # half the pot (seqform.holdem.game)
    tree_value = float(seqform.solve(explicit_game(spot_game(read_spot(spot_file)))).value)
    assert spot["ev"]["oop"] == pytest.approx(5 + tree_value, abs=1e-7)
    assert spot["exploitability_pot"] <= 1e-9
    first = spot["frequencies"][0]
    assert first["player"] == "OOP" and first["history"] == ""
    assert sum(first["actions"].values()) == pytest.approx(1)
    assert main(["solve", str(spot_file)]) == 0
    text = capsys.readouterr().out
    assert "Spot (pot 10, combos " in text and "of the pot; NashConv / 2)" in text


def test_the_library_solves_a_spot_file_as_the_cli_does(spot_file: Path) -> None:
    solution = seqform.solve(str(spot_file))
    assert solution.route == "structured"
    assert solution.nash_conv <= 1e-9


def test_iterate_runs_on_the_spots_tree(spot_file: Path, capsys: pytest.CaptureFixture[str]):
    argv = ["iterate", str(spot_file), "--algorithm", "cfr+", "--iterations", "50", "--quiet"]
    assert main([*argv, "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["iterations"] == 50 and document["nash_conv"] < 1.0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('board = "Ks7h"\n', "missing pot"),
        (SPOT.replace('"AA,AKs', '"ZZ,AKs'), "oop_range: range item 'ZZ'"),
        (SPOT.replace("pot = 10", "pot = -1"), "pot"),
        (SPOT.replace('"Ks7h2d9c4s"', '"KsKs2d9c4s"'), "board"),
    ],
)
def test_a_bad_spot_file_is_a_usage_error(
    tmp_path: Path, text: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    assert main(["solve", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("seqform: error: ") and err.count("\n") == 1
    assert str(path) in err and message in err


def test_iterate_runs_vector_cfr_on_a_spot(spot_file: Path, capsys: pytest.CaptureFixture[str]):
    # vector CFR on the spot's public tree × two-card combos; its value estimate approaches
    # the structured LP's (the LP reference in the same document)
    argv = ["iterate", str(spot_file), "--algorithm", "cfr+", "--iterations", "300"]
    assert main([*argv, "--method", "structured", "--quiet", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    validate_document(document)
    assert document["nash_conv"] < 0.05
    reference = document["reference"]
    assert abs(document["players"][0]["value"] - reference["value"]) < 0.05


def test_the_class_grid(spot_file: Path) -> None:
    from seqform.holdem.report import class_grid

    game = spot_game(read_spot(spot_file))
    solution = seqform.solve(game, method="structured")
    strategy = solution.strategies[0]
    every = class_grid(game, strategy, "", ("x", "b5", "b30"))
    # AA, AKs, QQ, JhTh and 99 less the board's cards: five classes, each takes some action
    in_range = ~np.isnan(every.frequency)
    assert in_range.sum() == 5 and np.allclose(every.frequency[in_range], 1.0)
    bets = class_grid(game, strategy, "", ("b5", "b30"))
    # JTs is the one combo JhTh: its cell is that combo's betting probability
    jh_th = strategy.at("JhTh|")
    assert bets.frequency[3, 4] == pytest.approx(float(jh_th["b5"]) + float(jh_th["b30"]))
    assert np.isnan(bets.frequency[4, 3])  # JTo is not in the range
    with pytest.raises(ValueError, match="does not act"):
        class_grid(game, strategy, "x", ("x",))


def _json_strategy(document: dict, player: int, combo: str) -> dict[str, dict[str, float]]:
    """``history -> action -> probability`` of one combo, from the complete JSON document."""
    infosets = document["strategies"][player]["infosets"]
    return {
        entry["name"].partition("|")[2]: {a["action"]: a["probability"] for a in entry["actions"]}
        for entry in infosets
        if entry["name"].partition("|")[0] == combo
    }


def test_hand_prints_a_combos_strategy(spot_file: Path, capsys: pytest.CaptureFixture[str]):
    """``--hand``: each chosen combo's strategy at the decisions it
    reaches, as the complete JSON document of the same solve has it."""
    assert main(["solve", str(spot_file), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert main(["solve", str(spot_file), "--hand", "AhKh", "--hand", "77,JhTh"]) == 0
    text = capsys.readouterr().out
    blocks = {block.split(" ", 1)[0]: block for block in text.split("\n\n")}
    # AhKh: OOP; 77 is the class's three combos off the board (7h is on it): IP
    assert {"AhKh", "JhTh", "7d7c", "7s7c", "7s7d"} <= set(blocks)
    assert blocks["AhKh"].startswith("AhKh (OOP, weight 1; showdown equity ")
    assert blocks["7s7d"].startswith("7s7d (IP, weight 1; showdown equity ")
    for combo, player in (("AhKh", 0), ("7s7d", 1)):
        lines = blocks[combo].splitlines()[1:]
        first = lines[0].split()
        if player == 0:
            assert first[:3] == ["first", "reach", "100%"]  # OOP's root: always reached
        played = _json_strategy(document, player, combo)
        for line in lines:
            found = re.fullmatch(r"  (first|after (\S+))\s+reach\s+(\d+)%  (.*)", line)
            assert found is not None, line
            history = found.group(2) or ""
            shown = re.findall(r"(\S+) (\d+)%", found.group(4))
            assert [action for action, _ in shown] == list(played[history])
            for action, percent in shown:
                assert int(percent) == pytest.approx(100 * played[history][action], abs=0.5)


def test_hand_equity_is_the_showdown_equity(spot_file: Path, capsys):
    from seqform.holdem.equity import showdown_equities

    assert main(["solve", str(spot_file), "--hand", "AhKh"]) == 0
    text = capsys.readouterr().out
    game = spot_game(read_spot(spot_file))
    equity = showdown_equities(game, 0)[game.hands[0].labels.index("AhKh")]
    assert f"showdown equity {100 * equity:.1f}% against IP's range" in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--hand", "AhKs"], "--hand 'AhKs': Ks is on the board Ks7h2d9c4s"),
        (["--hand", "AhKh,A5s"], "--hand 'A5s' is in neither range"),
        (["--hand", "8h8d"], "--hand '8h8d' is in neither range"),
        (["--hand", "AhXh"], "--hand 'AhXh': 'Xh' is not a card"),
        (["--hand", "AKs:0.5"], "without a weight"),
        (["--hand", ""], "--hand '' has an empty item"),
        (["--hand", "AhKh,,QQ"], "--hand 'AhKh,,QQ' has an empty item"),
        (["--hand", "AhKh", "--method", "tree"], "--hand needs the structured route"),
    ],
)
def test_a_hand_outside_the_ranges_is_a_usage_error(
    spot_file: Path, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", str(spot_file), *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("seqform: error: ") and captured.err.count("\n") == 1
    assert message in captured.err


def test_hand_needs_a_spot(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "kuhn", "--hand", "AhKh"]) == 2
    assert "--hand needs a spot file (*.toml) as GAME" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("history", "text"),
    [
        ("", "first"),
        ("x-b5", "after x-b5"),
        ("x-x|8h|", "after x-x, river 8h"),
        ("b6-c|Td|x-b12", "after b6-c, river Td, x-b12"),
    ],
)
def test_where_a_decision_is(history: str, text: str) -> None:
    from seqform.documents.text.spots.spot import history_text

    assert history_text(history) == text


def test_a_combos_reach_on_the_river_is_its_turn_check(tmp_path: Path) -> None:
    """On a turn spot, OOP's AhKh reaches each river decision after check-check with the
    probability that it checked the turn (its own plan, KMvS 1996 §3; IP's check is not
    its own action), and every river card it can see is listed."""
    from seqform.holdem.hands import combo_strategies, select_combos

    path = tmp_path / "turn.toml"
    path.write_text(
        'board = "Ks7h2d9c"\npot = 6\neffective_stack = 12\noop_range = "AhAd,AhKh,Qc9d,Tc8c"\n'
        'ip_range = "AsKs,KhQh:0.5,9h8h,JsJc"\nbet_sizes = [1]\n'
    )
    spot = read_spot(path)
    game = spot_game(spot)
    solution = seqform.solve(game, method="structured")
    (found,) = combo_strategies(game, solution.strategies, select_combos(spot, ["AhKh"]))
    root = found.decisions[0]
    assert root.history == "" and root.reach == 1
    check = root.probabilities[root.actions.index("x")]
    rivers = [d for d in found.decisions if re.fullmatch(r"x-x\|..\|", d.history)]
    if check > 1e-9:
        # 52 cards less the 4 on the board, AhKh's 2: IP's combos do not hide a card
        assert len(rivers) == 46
    for decision in rivers:
        assert decision.reach == pytest.approx(check, abs=1e-12)


def test_a_spot_announces_the_tree_it_does_not_build(tmp_path) -> None:
    # the structured route's first progress line said "at most 0 nodes" for every spot file:
    # the route knew no size from parameters; it now counts the spot's deals × betting tree
    from seqform.game.public.explicit import tree_nodes
    from seqform.routes.policy import choose_route

    path = tmp_path / "river.toml"
    path.write_text(
        'board = "Ks7h2d9c4s"\npot = 10\neffective_stack = 20\noop_range = "AA,KQs"\n'
        'ip_range = "QQ,JTs"\nbet_sizes = [1]\n'
    )
    route = choose_route(str(path))
    assert route.structured is not None
    assert route.tree_bound == tree_nodes(route.structured) > 0
