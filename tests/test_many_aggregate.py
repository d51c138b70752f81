"""``solve-many``'s aggregate report: board texture labels, each range's equity and equity
realisation, the EV of each of OOP's first actions, the CSV beside the JSON and the plot.

Each number is checked against a computation that shares no code with the aggregate: the EVs
and frequencies against ``solve SPOT.toml``'s own document, the per-action EVs against a walk
of the spot's explicit tree (:func:`seqform.game.public.explicit.explicit_game`), the
equities against eval7's hand evaluator over every pair of combos, the texture labels
against boards labelled by hand from the definitions in :mod:`seqform.holdem.texture`.
"""

from __future__ import annotations

import csv
import json
from fractions import Fraction
from pathlib import Path

import pytest
from spot_files import RIVER

import seqform
from seqform.cli.main import main
from seqform.documents.text.spots.many import many_csv
from seqform.game.nodes import Chance, Decision, Terminal
from seqform.game.public.explicit import explicit_game
from seqform.holdem.aggregate import range_equity, spot_aggregate
from seqform.holdem.cards import card_text, parse_board
from seqform.holdem.game import spot_game
from seqform.holdem.spot import read_spot
from seqform.holdem.texture import board_texture
from seqform.io.documents import validate_document

BOARDS = ("Ks7h2d9c4s", "7h7d2cJs9d")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    """``solve-many`` on two river spots and a broken file, once for the module: the JSON
    with ``--output``, the CSV written beside it, the plot."""
    folder = tmp_path_factory.mktemp("spots")
    for board in BOARDS:
        (folder / f"river_{board}.toml").write_text(RIVER.replace("Ks7h2d9c4s", board))
    (folder / "broken.toml").write_text('board = "Ks7h"\n')
    out = tmp_path_factory.mktemp("out")
    argv = ["solve-many", str(folder), "--workers", "1", "--quiet", "--format", "json"]
    argv += ["--output", str(out / "report.json"), "--plot", str(out / "bets.png")]
    assert main(argv) == 1  # the broken file's row
    document = json.loads((out / "report.json").read_text())
    return {"folder": folder, "out": out, "document": document}


def _row(run: dict, board: str) -> dict:
    return next(row for row in run["document"]["spots"] if row["board"] == board)


@pytest.mark.parametrize(
    ("board", "pairing", "suits", "connectedness", "high", "height"),
    [
        ("AsKsQs", "unpaired", "monotone", "connected", "A", "A"),
        ("7h7d2c", "paired", "rainbow", "disconnected", "7", "M"),
        ("Ks7h2d", "unpaired", "rainbow", "disconnected", "K", "H"),
        ("JhTh8c", "unpaired", "two-tone", "connected", "J", "H"),
        ("Ah2d3c", "unpaired", "rainbow", "connected", "A", "A"),  # the wheel: A low
        ("Kd9h4c", "unpaired", "rainbow", "semi-connected", "K", "H"),  # K and 9 within 5
        ("5c4d2h", "unpaired", "rainbow", "connected", "5", "L"),
        ("7h7d7c", "trips", "rainbow", "disconnected", "7", "M"),
        ("7h7d2c2s", "two-pair", "rainbow", "disconnected", "7", "M"),
        ("KsKhKd7c7h", "full-house", "two-tone", "disconnected", "K", "H"),
        ("9s9h9d9c2s", "quads", "two-tone", "disconnected", "9", "M"),
        ("Ks7h2d9c4s", "unpaired", "two-tone", "semi-connected", "K", "H"),
        ("AsKsQs7h2c", "unpaired", "three-flush", "connected", "A", "A"),
        ("Qs8s3s2s7h", "unpaired", "four-flush", "semi-connected", "Q", "H"),  # 8-7, 3-2
    ],
)
def test_texture_labels_of_hand_picked_boards(
    board: str, pairing: str, suits: str, connectedness: str, high: str, height: str
) -> None:
    texture = board_texture(parse_board(board))
    found = (texture.pairing, texture.suits, texture.connectedness)
    assert found == (pairing, suits, connectedness)
    assert (texture.high_card, texture.height, texture.board) == (high, height, board)
    assert texture.group == ("paired" if pairing != "unpaired" else suits)


def test_the_aggregate_is_the_spot_documents_numbers(
    run: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The EVs and OOP's frequencies of a row against ``solve SPOT.toml``'s document."""
    validate_document(run["document"])
    for board in BOARDS[1:]:
        path = run["folder"] / f"river_{board}.toml"
        assert main(["solve", str(path), "--format", "json", "--output", str(tmp_path / "s")]) == 0
        spot = json.loads((tmp_path / "s").read_text())["spot"]
        row = _row(run, board)
        assert row["ev"] == pytest.approx(spot["ev"], abs=1e-7)
        actions = row["aggregate"]["actions"]
        first = spot["frequencies"][0]["actions"]
        assert [a["action"] for a in actions] == list(first)
        assert [a["frequency"] for a in actions] == pytest.approx(list(first.values()), abs=1e-7)
        bets = sum(share for action, share in first.items() if action != "x")
        assert row["aggregate"]["bet_frequency"] == pytest.approx(bets, abs=1e-7)
        assert [a["name"] for a in actions] == ["check", "bet 50%", "all-in"]  # b5, b30
    capsys.readouterr()


def _walk(node, strategies, indexes, pot: float) -> tuple[dict[str, float], dict[str, float]]:
    """OOP's first-action frequencies and, per action, its payoff mass ``Σ chance × reach ×
    payoff``, by a walk of the explicit tree's nodes."""
    mass: dict[str, float] = {}
    frequency: dict[str, float] = {}
    stack = [(node, 1.0, None)]
    while stack:
        node, probability, first = stack.pop()
        if isinstance(node, Terminal):
            mass[first] = mass.get(first, 0.0) + probability * float(node.payoffs[0])
        elif isinstance(node, Chance):
            for p, child in zip(node.probabilities, node.children, strict=True):
                stack.append((child, probability * float(p), first))
        else:
            assert isinstance(node, Decision)
            behaviour = strategies[node.player].at(indexes[node.player][node.infoset])
            for action, child in zip(node.actions, node.children, strict=True):
                p = float(behaviour[action])
                if first is None:
                    frequency[action] = frequency.get(action, 0.0) + probability * p
                stack.append((child, probability * p, action if first is None else first))
    return frequency, mass


def test_action_evs_against_a_walk_of_the_explicit_tree(run: dict) -> None:
    path = run["folder"] / f"river_{BOARDS[1]}.toml"
    spot = read_spot(path)
    game = spot_game(spot)
    solution = seqform.solve(game, method="structured")
    aggregate = spot_aggregate(game, spot, float(solution.value), solution.strategies)
    indexes = [s.table.index_of_infoset() for s in solution.strategies]
    frequency, mass = _walk(explicit_game(game).root, solution.strategies, indexes, 10)
    for found in aggregate.actions:
        assert found.frequency == pytest.approx(frequency[found.action], abs=1e-9)
        if found.ev is None:
            assert frequency[found.action] < 1e-9
        else:  # EV in chips: half the pot plus the payoff (seqform.holdem.report.seat_ev)
            assert found.ev == pytest.approx(5 + mass[found.action] / found.frequency)
    # the frequencies times the EVs add up to OOP's EV
    total = sum(f.frequency * f.ev for f in aggregate.actions if f.ev is not None)
    assert total == pytest.approx(aggregate.ev[0], abs=1e-7)
    assert sum(1 for f in aggregate.actions if f.ev is not None) >= 2  # a real mix


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # eval7's range parser, pyparsing 3.2
def test_range_equity_against_eval7_over_every_pair_of_combos(run: dict) -> None:
    from seqform.holdem.strength import load_eval7

    eval7 = load_eval7()
    spot = read_spot(run["folder"] / f"river_{BOARDS[0]}.toml")
    game = spot_game(spot)
    board = [eval7.Card(card_text(card)) for card in spot.board]
    won = total = Fraction(0)
    for mine, weight in zip(spot.ranges[0].combos, spot.ranges[0].weights, strict=True):
        for theirs, other in zip(spot.ranges[1].combos, spot.ranges[1].weights, strict=True):
            if set(mine) & set(theirs):
                continue
            ours = eval7.evaluate(board + [eval7.Card(card_text(c)) for c in mine])
            their = eval7.evaluate(board + [eval7.Card(card_text(c)) for c in theirs])
            share = 1 if ours > their else Fraction(1, 2) if ours == their else 0
            won += weight * other * share
            total += weight * other
    assert range_equity(game, 0) == pytest.approx(float(won / total), abs=1e-12)
    assert range_equity(game, 0) + range_equity(game, 1) == pytest.approx(1, abs=1e-12)
    found = _row(run, BOARDS[0])["aggregate"]
    assert found["equity"]["oop"] == pytest.approx(float(won / total), abs=1e-12)
    # EQR = EV / (equity × pot) (GTO Wizard's and PioSOLVER's definition)
    ev = _row(run, BOARDS[0])["ev"]["oop"]
    assert found["eqr"]["oop"] == pytest.approx(ev / (float(won / total) * 10))


def test_the_csv_beside_the_json_has_a_row_per_spot(run: dict) -> None:
    text = (run["out"] / "report.csv").read_text()
    assert text == many_csv(run["document"])
    rows = list(csv.DictReader(text.splitlines()))
    spots = run["document"]["spots"]
    assert [row["board"] for row in rows] == [spot["board"] for spot in spots]
    documented = ["file", "board", "pot", "pairing", "suits", "connectedness", "high_card"]
    documented += ["height", "group", "oop_ev", "oop_ev_pct_pot", "ip_ev", "ip_ev_pct_pot"]
    documented += ["oop_equity_pct", "ip_equity_pct", "oop_eqr_pct", "ip_eqr_pct"]
    documented += ["bet_freq_pct"]
    for action in ("check", "bet50", "allin"):
        documented += [f"{action}_freq_pct", f"{action}_ev", f"{action}_ev_pct_pot"]
    documented += ["exploitability", "exploitability_pct_pot", "oop_combos", "ip_combos"]
    assert list(rows[0]) == [*documented, "seconds", "error"]
    broken, *solved = rows
    assert broken["error"] and broken["oop_ev"] == "" and broken["check_freq_pct"] == ""
    for row in solved:
        spot = _row(run, row["board"])
        found = spot["aggregate"]
        assert float(row["oop_ev"]) == spot["ev"]["oop"]
        assert float(row["ip_equity_pct"]) == pytest.approx(100 * found["equity"]["ip"])
        assert float(row["oop_eqr_pct"]) == pytest.approx(100 * found["eqr"]["oop"])
        assert row["group"] == found["texture"]["group"] and row["error"] == ""
        for action in found["actions"]:
            slug = action["name"].replace(" ", "").replace("%", "").replace("-", "")
            assert float(row[f"{slug}_freq_pct"]) == pytest.approx(100 * action["frequency"])
            assert row[f"{slug}_ev"] == ("" if action["ev"] is None else repr(action["ev"]))


def test_the_plot_and_the_text_tables(run: dict, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    assert (run["out"] / "bets.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    from seqform.documents.text.spots.many import many_text

    text = many_text(run["document"])
    assert "Aggregate report: EV in chips (% of the pot)" in text
    assert "7h7d2cJs9d  paired, two-tone, connected, J-high" in text
    assert "OOP's first decision: each action's frequency" in text


def test_a_plot_of_nothing_and_a_csv_that_cannot_be_written(
    run: dict, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "broken.toml").write_text('board = "Ks7h"\n')
    argv = ["solve-many", str(folder), "--workers", "1", "--quiet"]
    assert main([*argv, "--plot", str(tmp_path / "p.png")]) == 1
    assert "--plot: no spot was solved" in capsys.readouterr().err
    assert main([*argv, "--csv", str(tmp_path / "missing" / "x.csv")]) == 1
    assert "cannot write" in capsys.readouterr().err
    assert main([*argv, "--plot", str(tmp_path / "p.txt")]) == 2  # before solving
    assert "--plot" in capsys.readouterr().err and not (tmp_path / "p.txt").exists()
