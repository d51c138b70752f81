"""Playing Leduc and Rhode Island hold'em against their equilibrium (``play leduc``): the pot
read off the payoffs, the expectations the session reports, scripted and automatic sessions
read back.

References: Leduc's rules (Southey et al. 2005: ante 1, bets of 2 then 4, two raises a
round) for the pot; the game's value -0.085606424078 to player 1 (OpenSpiel's
``leduc_poker``; the structured LP gives the same, tests/test_leduc.py) for the
expectations; a transcript's wins are checked against the pot it shows."""

from __future__ import annotations

import io
import json
import re
from fractions import Fraction

import numpy as np
import pytest

from seqform.cli.main import main
from seqform.cli.play.run import run_play
from seqform.game.public.tree import PublicDecision
from seqform.io.json_input import StrategyFileError
from seqform.play.cards import CardGameTable, put_in
from seqform.play.start import check_playable, start_session
from seqform.play.strategies import behaviour_table

LEDUC_VALUE = -0.085606424078  # to player 1: OpenSpiel's leduc_poker (module docstring)


@pytest.fixture(scope="module")
def leduc():
    return start_session("leduc", 1, seed=3)


def _node(table: CardGameTable, *actions: str):
    node = table.game.root
    for action in actions:
        if not isinstance(node, PublicDecision):
            node = next(c for c in node.children if isinstance(c, PublicDecision))
        node = node.children[node.actions.index(action)]
    return node


def test_the_pot_follows_leducs_bets(leduc):
    table = leduc.table
    assert isinstance(table, CardGameTable)
    # ante 1 each; a bet of 2 in the first round, 4 in the second; raises add the same
    assert put_in(_node(table)) == (1, 1)
    assert put_in(_node(table, "r")) == (3, 1)
    assert put_in(_node(table, "r", "r")) == (3, 5)
    assert put_in(_node(table, "c", "r")) == (1, 3)
    second = _node(table, "c", "c", "r")  # the public card dealt, player 1 bets 4
    assert isinstance(second, PublicDecision) and second.player == 1
    assert put_in(second) == (5, 1)
    assert table.pot(second) == 6 and table.to_call(second) == 4


def test_the_expectation_per_card_averages_to_the_value(leduc):
    """Σ_h P(h) EV(h) over the seat's cards is the seat's value (total expectation)."""
    table = leduc.table
    assert leduc.seat_value == pytest.approx(-LEDUC_VALUE, abs=1e-9)
    cards = len(table.game.hands[1].labels)
    per_card = np.array([table.equilibrium_expectation(h) for h in range(cards)])
    assert table.expectations.deal @ per_card == pytest.approx(-LEDUC_VALUE, abs=1e-9)
    # folding the best card at once costs: the equilibrium does better with a king
    king = table.game.hands[1].labels.index("Ks")
    assert table.choices_expectation(king, {"Ks|r": "f"}) < per_card[king] - 0.5


HAND = re.compile(r"Hand \d+: your card is ([JQK][sh]); pot 2 \(the antes\)\.$")
RESULT = re.compile(r"[Yy]ou (win|lose) (\d+)\.$")
POT = re.compile(r"pot (\d+)(?:, (\d+) to call)?\.$")


def test_a_scripted_leduc_session_reads_back(monkeypatch, capsys):
    """Seat 2 checks or calls everything (``c`` on stdin): the transcript shows the card, the
    public card, the pot and the amount to call in words, and each hand's result is what the
    pot before the last call says (a called hand wins or loses half the final pot)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("c\n" * 60))
    assert main(["play", "leduc", "--seat", "2", "--seed", "7", "--hands", "6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Leduc hold'em")
    assert sum(bool(HAND.search(line)) for line in lines) == 6
    assert not any("|" in line for line in lines)  # no information-set names
    assert any(re.search(r"Public card [JQK][sh]: public cards [JQK][sh]\.", x) for x in lines)
    assert any("(f)old or (c)all or (r)aise" in line for line in lines)
    results, pot = [], Fraction(0)
    for line in lines:
        if (shown := POT.search(line)) and "Your card" in line:
            pot = Fraction(shown.group(1)) + Fraction(shown.group(2) or 0)
        if found := RESULT.search(line):
            amount = Fraction(found.group(2))
            if "Showdown" in line and amount:  # not a split pot
                assert amount == pot / 2  # called down: each side put in half the pot
            results.append(amount if found.group(1) == "win" else -amount)
    assert len(results) == 6
    total = next(line for line in lines if line.startswith("  your total"))
    assert Fraction(total.split()[-1]) == sum(results)


def test_auto_plays_leduc_with_its_public_card():
    out = io.StringIO()
    summary = run_play(
        "leduc",
        seat=1,
        seed=5,
        hands=10,
        auto="calling-station",
        source=io.StringIO(""),
        out=out,
        echo=False,
    )
    assert summary is not None and len(summary.hands) == 10
    text = out.getvalue()
    moves = re.findall(r"You \(calling-station\) (\w+)", text)
    assert moves and set(moves) <= {"check", "call"}
    assert summary.total == sum(hand.payoff for hand in summary.hands)


@pytest.mark.slow
def test_a_scripted_rhode_island_session(monkeypatch, capsys):
    """rhode_island(ranks=3, suits=2, max_bets=1): two public cards, antes of 5 (Shi and
    Littman 2001), the value to player 1 -92/567 (the structured LP, which the report
    prints; tests/test_rhode_island.py checks it against OpenSpiel)."""
    spec = "rhode_island(ranks=3, suits=2, max_bets=1)"
    monkeypatch.setattr("sys.stdin", io.StringIO("c\n" * 60))
    assert main(["play", spec, "--seat", "1", "--seed", "2", "--hands", "4"]) == 0
    out = capsys.readouterr().out
    # "≈": the interior point's value is within 1e-9 of -92/567, not within 1e-12
    assert "worth -0.1622574956 (≈ -92/567) a hand to seat 1" in out
    assert re.search(r"your card is [QKA][sh]; pot 10 \(the antes\)", out)
    assert re.search(r"public cards [QKA][sh] [QKA][sh]\.", out)  # the second public card


def test_rhode_island_too_big_is_refused_like_solve(capsys):
    assert main(["play", "rhode_island", "--seat", "1"]) == main(["solve", "rhode_island"])
    err = capsys.readouterr().err
    assert err.count("needs about") == 2  # the same refusal, before anything is built


SMALL_LEDUC = "leduc(ranks=2, suits=2)"


@pytest.fixture(scope="module")
def small_leduc_documents(tmp_path_factory):
    """The JSON documents of ``solve`` and ``iterate`` on a small Leduc: strategy files."""
    folder = tmp_path_factory.mktemp("documents")
    solved, iterated = folder / "solve.json", folder / "iterate.json"
    assert main(["solve", SMALL_LEDUC, "--quiet", "--format", "json", "--output", str(solved)]) == 0
    run = ["iterate", SMALL_LEDUC, "--algorithm", "cfr", "--iterations", "7", "--quiet"]
    assert main([*run, "--format", "json", "--output", str(iterated)]) == 0
    return {"solve": solved, "iterate": iterated}


@pytest.mark.parametrize("kind", ["solve", "iterate"])
def test_auto_plays_a_strategy_document_of_leduc(kind, small_leduc_documents):
    # `play leduc --auto FILE` took Kuhn strategy files only: a spot name was required.
    path = small_leduc_documents[kind]
    session = start_session(SMALL_LEDUC, 1, seed=4, auto=str(path))
    table = session.table
    assert isinstance(table, CardGameTable) and table.auto is not None
    assert session.auto_name == path.name
    (entry,) = (e for e in json.loads(path.read_text())["strategies"] if e["player"] == 2)
    played = behaviour_table(table.auto)
    for infoset in entry["infosets"]:
        given = [a["probability"] for a in infoset["actions"]]
        assert played[infoset["name"]] == pytest.approx(given, abs=1e-9)


def test_auto_refuses_a_document_of_another_game(small_leduc_documents):
    # Leduc with 3 ranks is another game; its document must not be read as this one's.
    with pytest.raises(StrategyFileError, match="not of the game being played, 'leduc'"):
        start_session("leduc", 0, seed=1, auto=str(small_leduc_documents["solve"]))


def test_auto_refuses_another_games_document_before_the_solve(small_leduc_documents, monkeypatch):
    def never_solved(*args, **kwargs):
        raise AssertionError("leduc was solved before the strategy file was checked")

    monkeypatch.setattr("seqform.routes.solve.solve_on_route", never_solved)
    path = str(small_leduc_documents["solve"])
    with pytest.raises(StrategyFileError, match="not of the game being played, 'leduc'"):
        check_playable("leduc", auto=path)
    with pytest.raises(StrategyFileError, match="not of the game being played, 'leduc'"):
        start_session("leduc", 0, seed=1, auto=path)
