"""Playing a hold'em spot against its equilibrium (``play`` takes a spot file as
GAME): the deal, the expectations the session reports, and scripted sessions read back.

The references are the structured LP's value of the same spot, solved in each test, and the
spot's own payoff rules: a transcript's nets are recomputed from the cards it shows."""

from __future__ import annotations

import io
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from spot_files import RIVER

from seqform.cli.main import main
from seqform.cli.play.console import parse_spot_choice
from seqform.cli.play.run import run_play
from seqform.holdem.cards import parse_cards
from seqform.holdem.strength import hand_values
from seqform.play.spot import Deals, SpotTable
from seqform.play.start import start_session

EXPECTATION_TOLERANCE = 1e-9


TURN = """\
board = "Ks7h2d9c"
pot = 6
effective_stack = 12
oop_range = "AhAd,AhKh,Qc9d,Tc8c"
ip_range = "AsKs,KhQh:0.5,9h8h,JsJc"
bet_sizes = [1]
"""


@pytest.fixture(scope="module")
def spots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("spots")
    paths = {}
    for name, text in (("river", RIVER), ("turn", TURN)):
        path = folder / f"{name}.toml"
        path.write_text(text)
        paths[name] = str(path)
    return paths


@pytest.mark.parametrize("name", ["river", "turn"])
@pytest.mark.parametrize("seat", [0, 1])
def test_the_expectation_per_combo_averages_to_the_seats_ev(spots, name, seat):
    """Σ_h P(h) EV(h) over the seat's combos is the seat's EV (the law of total
    expectation): the LP's value plus or minus half the pot."""
    session = start_session(spots[name], seat)
    table = session.table
    assert isinstance(table, SpotTable)
    expectations = table.expectations
    combos = len(table.game.hands[seat].labels)
    per_combo = np.array([table.equilibrium_expectation(h) for h in range(combos)])
    assert expectations.deal.sum() == pytest.approx(1, abs=EXPECTATION_TOLERANCE)
    assert expectations.deal @ per_combo == pytest.approx(session.seat_value, abs=1e-7)
    # the equilibrium is a best response: no first action of any combo does better
    sequences = table.equilibrium.table
    for index, infoset in enumerate(sequences.infosets):
        if not infoset.endswith("|") and not infoset.endswith("|x"):
            continue
        hand = table.game.hands[seat].labels.index(infoset.partition("|")[0])
        for action in sequences.actions[index]:
            chosen = table.choices_expectation(hand, {infoset: action})
            assert chosen <= table.equilibrium_expectation(hand) + 1e-7


def test_deals_follow_the_weights_and_card_removal(spots):
    """Draws on an even grid of [0, 1) land on each compatible pair in proportion to
    w0 · w1 (QQ has weight 1/2 in the river spot; KK 1/4)."""
    table = start_session(spots["river"], 0).table
    assert isinstance(table, SpotTable)
    deals = Deals(table.game)
    draws = 200_000

    class Grid:
        def __init__(self) -> None:
            self.at = 0

        def random(self) -> float:
            self.at += 1
            return (self.at - 0.5) / draws

    grid = Grid()
    counts = Counter(deals.draw(grid) for _ in range(draws))  # type: ignore[arg-type]
    hands = table.game.hands
    total = sum(float(hands[0].weights[a] * hands[1].weights[b]) for a, b in deals.pairs)
    for (a, b), count in counts.items():
        assert not set(map(int, hands[0].cards[a])) & set(map(int, hands[1].cards[b]))
        expected = float(hands[0].weights[a] * hands[1].weights[b]) / total
        assert count / draws == pytest.approx(expected, abs=2 / draws)
    assert len(counts) == len(deals.pairs)


@pytest.mark.parametrize(
    ("text", "actions", "action"),
    [
        pytest.param("x", ("x", "b5", "b30"), "x", id="label"),
        pytest.param("check", ("x", "b5", "b30"), "x", id="check"),
        pytest.param("c", ("x", "b5", "b30"), "x", id="c-checks-without-a-bet"),
        pytest.param("c", ("f", "c", "r25"), "c", id="c-calls"),
        pytest.param(" Fold\n", ("f", "c", "r25"), "f", id="fold-word"),
        pytest.param("r", ("f", "c", "r25"), "r25", id="the-one-raise"),
        pytest.param("b", ("x", "b5", "b30"), None, id="two-bet-sizes"),
        pytest.param("b7", ("x", "b5", "b30"), None, id="not-a-size"),
        pytest.param("f", ("x", "b5"), None, id="no-fold-without-a-bet"),
    ],
)
def test_parse_spot_choice(text, actions, action):
    assert parse_spot_choice(text, actions) == action


HAND = re.compile(r"^Hand \d+: you hold ([2-9TJQKA][cdhs] [2-9TJQKA][cdhs])\.$")
SHOWDOWN = re.compile(
    r"^  Showdown on ((?:[2-9TJQKA][cdhs] ?){5}): your (.{5}) \(([a-z ]+)\) (beats|ties with|"
    r"loses to) the bot's (.{5}) \(([a-z ]+)\)\. Your net: ([+-][\d.]+)\.$"
)
NET = re.compile(r"Your net: ([+-][\d.]+)\.$")


def test_a_scripted_session_reads_back(spots, monkeypatch, capsys):
    """Seat 1 checks every hand it can and calls what it faces (answers on stdin); the
    transcript shows cards as players write them, each showdown's winner agrees with the
    evaluator on the cards shown, and the total is the sum of the nets."""
    answers = "\n".join(["c"] * 40) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    assert main(["play", spots["river"], "--seat", "1", "--seed", "7", "--hands", "8"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("A river spot on Ks 7h 2d 9c 4s against seqform's equilibrium bot.")
    assert sum(bool(HAND.match(line)) for line in lines) == 8
    assert not any("|" in line for line in lines)  # no information-set names
    nets = [Fraction(found.group(1)) for line in lines if (found := NET.search(line))]
    assert len(nets) == 8
    showdowns = [found for line in lines if (found := SHOWDOWN.match(line))]
    assert showdowns
    for found in showdowns:
        board = parse_cards(found.group(1))
        mine, theirs = (parse_cards(found.group(i)) for i in (2, 5))
        values = hand_values(board, [mine, theirs])  # type: ignore[list-item]
        relation = {1: "beats", 0: "ties with", -1: "loses to"}[int(np.sign(values[0] - values[1]))]
        assert found.group(4) == relation
    total = next(line for line in lines if line.startswith("  your total"))
    assert Fraction(total.split()[-1]) == sum(nets)


def test_auto_plays_a_turn_spot_with_its_river_card(spots):
    out = io.StringIO()
    summary = run_play(
        spots["turn"],
        seat=2,
        seed=5,
        hands=12,
        auto="calling-station",
        source=io.StringIO(""),
        out=out,
        echo=False,
    )
    assert summary is not None and len(summary.hands) == 12
    text = out.getvalue()
    moves = re.findall(r"You \(calling-station\) (\w+)", text)
    assert moves and set(moves) <= {"check", "call"}
    assert re.search(r"River [2-9TJQKA][cdhs]: board (?:[2-9TJQKA][cdhs] ?){5}\.", text)
    assert summary.total == sum(hand.payoff for hand in summary.hands)


def test_an_unknown_strategy_for_a_spot_is_a_usage_error(spots, capsys):
    assert main(["play", spots["river"], "--auto", "never-bluff", "--hands", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown strategy 'never-bluff' for a spot" in err


def test_a_bad_spot_file_is_a_usage_error(tmp_path: Path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text('board = "Ks7h"\n')
    assert main(["play", str(path), "--auto", "random", "--hands", "1"]) == 2
    assert "missing pot" in capsys.readouterr().err
