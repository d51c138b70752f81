"""Playing Kuhn poker against the equilibrium: the pieces, a scripted session, the command."""

import io
import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from seqform.base.numbers import value_text
from seqform.cli.main import main
from seqform.cli.play.console import SessionEnded, parse_choice
from seqform.cli.play.session import play_session
from seqform.io.json_input import StrategyFileError
from seqform.play.kuhn import card_of_infoset, deal_cards, hand_expectation
from seqform.play.start import check_playable, start_session
from seqform.play.state import sample_index
from seqform.play.strategies import (
    behaviour_from_file,
    behaviour_table,
    load_strategy,
    named_strategy,
)
from seqform.routes.solve import solve

EXPECTATION_TOLERANCE = 1e-9


@pytest.fixture(scope="module")
def solution(kuhn):
    return solve(kuhn)


behaviour = behaviour_table  # a solution's strategy as play's float tables


class ScriptedRandom:
    """Stands in for random.Random: returns the given draws in order."""

    def __init__(self, draws):
        self.draws = list(draws)

    def random(self):
        return self.draws.pop(0)


def deal_draw(outcome_index, outcomes=6):
    """The draw that makes sample_index pick outcome ``outcome_index`` of equal chances."""
    return (outcome_index + 0.5) / outcomes


# Kuhn's deal outcomes in order: JQ JK QJ QK KJ KQ (player 1's card first).
JQ, JK, QJ, QK, KJ, KQ = range(6)


def test_deal_cards_reads_both_labellings():
    assert deal_cards("KJ") == ("K", "J")
    assert deal_cards("3,12") == ("3", "12")


def test_card_of_infoset_strips_the_betting():
    assert card_of_infoset("Kpb") == "K"
    assert card_of_infoset("Q") == "Q"
    assert card_of_infoset("12b") == "12"


@pytest.mark.parametrize(
    ("infoset", "text", "action"),
    [
        pytest.param("K", "c", "p", id="c-checks"),
        pytest.param("K", "check", "p", id="check-checks"),
        pytest.param("K", "B", "b", id="B-bets"),
        pytest.param("Jb", "f", "p", id="f-folds"),
        pytest.param("Jb", "c", "b", id="c-calls-facing-a-bet"),
        pytest.param("Jb", " call\n", "b", id="call-with-spaces"),
        pytest.param("K", "f", None, id="no-fold-without-a-bet"),
        pytest.param("Jb", "b", None, id="no-bet-facing-a-bet"),  # call's label, not offered
        pytest.param("K", "p", None, id="labels-are-not-keys"),  # check's label
        pytest.param("K", "x", None, id="unknown-key"),
        pytest.param("K", "", None, id="empty-line"),
    ],
)
def test_parse_choice(kuhn, infoset, text, action):
    assert parse_choice(text, kuhn, infoset, ("p", "b")) == action


def test_q_ends_the_session(kuhn):
    with pytest.raises(SessionEnded) as ended:
        parse_choice("q\n", kuhn, "K", ("p", "b"))
    assert ended.value.reason == "quit"


def test_sample_index_follows_the_cumulative_odds():
    assert sample_index([0.25, 0.75], ScriptedRandom([0.2])) == 0
    assert sample_index([0.25, 0.75], ScriptedRandom([0.3])) == 1
    assert sample_index([0.0, 1.0], ScriptedRandom([0.0])) == 1  # zero-odds actions never


def test_equilibrium_expectation_by_card_matches_the_hand_derivation(kuhn, solution):
    # Player 1 with J loses 1 (checks and folds or loses the showdown); with Q, -1/3; with K,
    # +7/6 (bets are called by nobody at α = 0, but J bluffs 1/3 of the time into the K).
    # Averaged over the three cards: -1/18, the value (Kuhn 1950).
    profile = (behaviour(solution.strategies[0]), behaviour(solution.strategies[1]))
    by_card = {card: hand_expectation(kuhn, 0, card, profile) for card in "JQK"}
    assert by_card["J"] == pytest.approx(-1, abs=EXPECTATION_TOLERANCE)
    assert by_card["Q"] == pytest.approx(-1 / 3, abs=EXPECTATION_TOLERANCE)
    assert by_card["K"] == pytest.approx(7 / 6, abs=EXPECTATION_TOLERANCE)
    assert sum(by_card.values()) / 3 == pytest.approx(-1 / 18, abs=EXPECTATION_TOLERANCE)


def test_named_strategies(kuhn, solution):
    table = solution.form.players[0]
    equilibrium = behaviour(solution.strategies[0])
    always_bet = named_strategy("always-bet", kuhn, table, equilibrium)
    assert always_bet == dict.fromkeys(table.infosets, (0.0, 1.0))
    check_fold = named_strategy("check-fold", kuhn, table, equilibrium)
    assert check_fold == dict.fromkeys(table.infosets, (1.0, 0.0))
    second = solution.form.players[1]
    # never-bluff is seqform.questions.exploit's opponent: bets only with K, calls with Q and K.
    never_bluff = named_strategy("never-bluff", kuhn, second, behaviour(solution.strategies[1]))
    assert never_bluff["Jp"] == (1.0, 0.0)  # the equilibrium bluffs here 1/3 of the time
    assert never_bluff["Kp"] == (0.0, 1.0)
    assert never_bluff["Qb"] == (0.0, 1.0)
    random_play = named_strategy("random", kuhn, second, {})
    assert random_play == dict.fromkeys(second.infosets, (0.5, 0.5))
    with pytest.raises(ValueError, match="unknown strategy 'maniac'; choose one of"):
        named_strategy("maniac", kuhn, table, equilibrium)


def test_strategy_file_in_words_or_labels(kuhn, solution, tmp_path):
    table = solution.form.players[1]
    document = {name: {"p": 0.5, "b": 0.5} for name in table.infosets}
    document["Kb"] = {"fold": 0, "call": 1}
    document["K"] = {"bet": 1}  # player 1's: ignored for player 2
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(document))
    strategy = behaviour_from_file(path, kuhn, table)
    assert strategy["Kb"] == (0.0, 1.0)
    assert strategy["Jp"] == (0.5, 0.5)
    assert "K" not in strategy


@pytest.mark.parametrize(
    ("document", "message"),
    [
        pytest.param({"Kx": {"p": 1}}, "has no information set 'Kx'", id="unknown-infoset"),
        pytest.param({"K": {"p": 0.5, "b": 0.6}}, "sum to 1.1, not 1", id="bad-sum"),
        pytest.param({"K": {"raise": 1}}, "unknown action 'raise'", id="unknown-action"),
        pytest.param({"K": {"p": -1, "b": 2}}, "must be a number >= 0", id="negative"),
        pytest.param({"K": {"p": 1}}, "no entry for information set", id="missing"),
        pytest.param([1, 2], "must hold an object", id="not-an-object"),
    ],
)
def test_strategy_file_errors_name_the_problem(kuhn, solution, tmp_path, document, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    with pytest.raises(ValueError, match=re.escape(message)):
        behaviour_from_file(path, kuhn, solution.form.players[0])


def test_solve_output_is_a_strategy_file(kuhn, solution, tmp_path, capsys):
    from seqform.cli.main import main

    path = tmp_path / "kuhn.json"
    assert main(["solve", "kuhn", "--format", "json", "--output", str(path)]) == 0
    table = solution.form.players[1]
    strategy = load_strategy(str(path), kuhn, table, {})
    assert strategy["Qb"] == pytest.approx((2 / 3, 1 / 3), abs=EXPECTATION_TOLERANCE)


def test_a_kuhn_document_read_from_its_efg_plays_kuhn_and_another_deck_is_refused(
    kuhn, solution, tmp_path
):
    from seqform.cli.main import main
    from seqform.io.json_input import StrategyFileError

    efg, solved = tmp_path / "kuhn.efg", tmp_path / "efg.json"
    assert main(["export", "kuhn", "--to", "efg", "--output", str(efg)]) == 0
    assert main(["solve", str(efg), "--quiet", "--format", "json", "--output", str(solved)]) == 0
    strategy = load_strategy(str(solved), kuhn, solution.form.players[1], {})
    # player 2 calls a bet with Q 1/3 of the time in every equilibrium (Kuhn 1950)
    assert strategy["Qb"] == pytest.approx((2 / 3, 1 / 3), abs=EXPECTATION_TOLERANCE)
    four = tmp_path / "four.json"
    assert main(["solve", "kuhn(cards=4)", "--quiet", "--output", str(four)]) == 0
    with pytest.raises(StrategyFileError, match=r"is a strategy of 'kuhn\(cards=4\)'"):
        load_strategy(str(four), kuhn, solution.form.players[1], {})


def scripted_session(seat, draws):
    """A Kuhn session whose every random draw is scripted."""
    return start_session("kuhn", seat, rng=ScriptedRandom(draws))


def test_scripted_session_totals(kuhn, solution):
    # Three hands in seat 1, each with only sure moves by the bot (probability 0 or 1):
    #   K vs J: bet, the J folds          +1
    #   J vs K: bet (after a bad key), K calls   -2
    #   Q vs J: check, the J bluffs, we call     +2
    draws = [
        *(deal_draw(KJ), 0.5),  # the bot's J folds to a bet (calls with probability 0)
        *(deal_draw(JK), 0.5),  # the bot's K calls
        *(deal_draw(QJ), 0.9),  # the J's odds after a check are (2/3 check, 1/3 bet): it bets
        deal_draw(KQ),  # the fourth hand is dealt, then the input ends
    ]
    answers = io.StringIO("b\nzz\nb\nc\nc\n")
    out = io.StringIO()
    summary = play_session(scripted_session(0, draws), answers, out, echo=True)
    transcript = out.getvalue()
    assert [hand.payoff for hand in summary.hands] == [1, -2, 2]
    assert summary.total == Fraction(1)
    assert summary.ended_by == "end of input"
    assert "Please type c or b (q quits)." in transcript
    assert "Bot folds." in transcript and "Bot calls." in transcript and "Bot bets." in transcript
    assert "Showdown: your Q beats the bot's J. You win 2." in transcript
    assert re.search(r"your total\s+\+1\n", transcript)
    # value × hands, and equilibrium play with K, J, Q: 7/6 - 1 - 1/3
    assert summary.equilibrium_expectation == pytest.approx(-3 / 18)
    assert summary.cards_expectation == pytest.approx(7 / 6 - 1 - 1 / 3)
    # Betting the J is an equilibrium bluff (α may be up to 1/3), so no choice cost anything.
    assert summary.choices_expectation == pytest.approx(summary.cards_expectation)


def test_a_costly_choice_is_reported(kuhn, solution):
    # Seat 2 with K, checking behind after the bot's check.  The bot plays player 1's
    # equilibrium for some α in [0, 1/3] (Kuhn 1950: bet J with α, call Q after check-bet
    # with α + 1/3); the LP may return any vertex, so the cost is derived for every α.  Bot
    # with Q (always checks): checking behind wins 1, equilibrium play (bet) wins
    # 2(α + 1/3) + (2/3 − α) = 4/3 + α.  Bot with J: it checks and folds to a bet, so checking
    # behind also wins 1; when it bets, the choice is not reached.  Half each: 1/6 + α/2.
    alpha = float(solution.strategies[0].at("J")["b"])
    cost = 1 / 6 + alpha / 2
    draws = [deal_draw(QK), 0.5, deal_draw(JQ), 0.5]  # the bot's Q and J check
    out = io.StringIO()
    summary = play_session(scripted_session(1, draws), io.StringIO("c\n"), out)
    assert summary.total == 1
    assert summary.cards_expectation - summary.choices_expectation == pytest.approx(cost)
    transcript = out.getvalue()
    shown = value_text(summary.choices_expectation - summary.cards_expectation)
    line = f"Those choices expect {shown} compared with equilibrium play with a K."
    assert line in transcript
    assert re.search(
        r"your choices against equilibrium play\s+" + re.escape(shown) + "\n", transcript
    )


def test_the_summary_adds_up_to_the_total(kuhn, solution):
    # The skill-vs-luck split (seqform/cli/play/__init__.py) is an identity: equilibrium
    # expectation + luck of your cards + your choices + the bot's luck = your total.  Read
    # back from the printed fractions, it must hold exactly.
    draws = [deal_draw(QK), 0.5, deal_draw(JQ), 0.5]
    out = io.StringIO()
    summary = play_session(scripted_session(1, draws), io.StringIO("c\n"), out)
    transcript = out.getvalue()
    labels = (
        "equilibrium expectation (value × hands)",
        "luck of your cards",
        "your choices against equilibrium play",
        "luck of the bot's cards and coin flips",
    )
    parts = []
    for label in labels:
        match = re.search(
            re.escape(label) + r"\s+([+-][0-9.]+)(?: \(= (-?\d+/\d+)\))?\n", transcript
        )
        assert match is not None, label
        parts.append(Fraction(match[2]) if match[2] else Fraction(match[1]))
    assert sum(parts) == summary.total


def test_quit_mid_hand_does_not_count_the_hand(kuhn, solution):
    out = io.StringIO()
    session = scripted_session(0, [deal_draw(KJ), 0.5, deal_draw(QK)])
    summary = play_session(session, io.StringIO("b\nq\n"), out)
    assert len(summary.hands) == 1
    assert summary.ended_by == "quit"
    assert "Hand abandoned." in out.getvalue()


# --- the command, through standard input --------------------------------------------------


def run_play(*arguments, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "seqform", "play", *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


HAND = re.compile(r"^Hand (\d+): your card is (\w+)\.$")
RESULT = re.compile(r"the bot(?:'s| held) (\w+)\)?\. You (win|lose) (\d+)\.$")


def replay(kuhn, seat, transcript):
    """Replay each hand of a transcript on the game tree: (payoffs shown, payoffs by tree)."""
    shown, by_tree = [], []
    card = None
    actions = []
    words = {"check": "p", "fold": "p", "bet": "b", "call": "b"}
    for line in transcript.splitlines():
        line = line.strip()
        if match := HAND.match(line):
            card, actions = match[2], []
        elif line.startswith("Bot "):
            actions.append(words[line.removeprefix("Bot ").removesuffix("s.")])
        elif line.startswith("Your move:"):
            answer = line.rsplit("? ", 1)[1].strip().lower()
            facing_bet = bool(actions) and actions[-1] == "b"
            keys = {"f": "p", "c": "b"} if facing_bet else {"c": "p", "b": "b"}
            if answer in keys:
                actions.append(keys[answer])
        elif match := RESULT.search(line):
            other, verb, amount = match[1], match[2], int(match[3])
            shown.append(amount if verb == "win" else -amount)
            deal = card + other if seat == 0 else other + card
            node = kuhn.root.children[kuhn.root.outcomes.index(deal)]
            for action in actions:
                node = node.children[node.actions.index(action)]
            by_tree.append(int(node.payoffs[seat]))
    return shown, by_tree


def test_scripted_session_through_stdin_ends_with_the_right_totals(kuhn):
    answers = "b\nc\nc\nb\nc\nb\nb\nc\nf\nc\n" * 3
    result = run_play("kuhn", "--seat", "1", "--seed", "11", "--hands", "12", stdin=answers)
    assert result.returncode == 0, result.stderr
    shown, by_tree = replay(kuhn, 0, result.stdout)
    assert len(shown) == 12
    assert shown == by_tree
    total = re.search(r"your total\s+([+-]\d+)\n", result.stdout)
    assert total is not None and int(total[1]) == sum(shown)
    assert "Session over after 12 hands (all hands played)." in result.stdout
    last = re.findall(
        r"Total ([+-]\d+) after 12 hands; equilibrium expectation -0\.6666666667 \(= -2/3\)",
        result.stdout,
    )
    assert last == [total[1]]  # -1/18 × 12 = -2/3


def test_the_seed_makes_a_session_reproducible():
    first = run_play("--seat", "2", "--seed", "3", stdin="c\nb\nf\nc\nb\nc\n")
    second = run_play("--seat", "2", "--seed", "3", stdin="c\nb\nf\nc\nb\nc\n")
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout


def test_bad_keys_reprompt_and_end_of_input_exits_0():
    result = run_play("--seat", "1", "--seed", "5", stdin="x\n\nraise\n")
    assert result.returncode == 0
    assert result.stdout.count("Please type c or b (q quits).") == 3
    assert result.stdout.count("Your move:") == 4  # the first ask and three re-asks
    assert "Session over after 0 hands (end of input)." in result.stdout
    assert result.stderr == ""


def test_b_facing_a_bet_is_asked_again_not_taken_as_a_call():
    # Seed 1 deals Q in seat 2 and the bot bets; `b` (the call's label in the tree, not a
    # key the menu offers) called silently.
    result = run_play("--seat", "2", "--seed", "1", "--hands", "1", stdin="b\nc\n")
    assert result.returncode == 0
    assert "  Bot bets.\n  Your move: (f)old or (c)all? b\n  Please type f or c (q quits).\n" in (
        result.stdout
    )
    assert "Your move: (f)old or (c)all? c\n  Showdown" in result.stdout


def test_seat_is_asked_when_not_given():
    result = run_play("--seed", "5", stdin="3\n2\nq\n")
    assert result.returncode == 0
    assert "Please type 1 or 2 (q quits)." in result.stdout
    assert "You play seat 2 (the bot acts first)." in result.stdout
    assert "Session over after 0 hands (you quit)." in result.stdout


def test_empty_input_exits_0_without_a_traceback():
    result = run_play(stdin="")
    assert result.returncode == 0
    assert "Traceback" not in result.stderr


def test_auto_plays_a_named_strategy(kuhn):
    result = run_play("--hands", "6", "--auto", "always-bet", "--seed", "2", "--seat", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("You (always-bet) ") == 6
    assert "You (always-bet) check." not in result.stdout
    assert "Session over after 6 hands (all hands played)." in result.stdout


def test_auto_from_a_solve_json_file_plays_like_the_equilibrium(tmp_path):
    path = tmp_path / "kuhn.json"
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "seqform",
            "solve",
            "kuhn",
            "--format",
            "json",
            "--output",
            str(path),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    from_file = run_play("--hands", "20", "--auto", str(path), "--seed", "4", "--summary-only")
    named = run_play("--hands", "20", "--auto", "equilibrium", "--seed", "4", "--summary-only")
    assert from_file.returncode == named.returncode == 0
    assert from_file.stdout == named.stdout


@pytest.mark.parametrize(
    ("arguments", "code", "message"),
    [
        pytest.param(("--auto", "always-bet"), 2, "--auto needs --hands N", id="auto-no-hands"),
        # a strategy or a game that play does not have is a usage error: exit 2
        pytest.param(("--hands", "2", "--auto", "maniac"), 2, "unknown strategy", id="unknown"),
        pytest.param(
            ("liars_dice",), 2, "only Kuhn poker (kuhn or kuhn(cards=N)), Leduc", id="not-kuhn"
        ),
        pytest.param(
            ("kuhn(cards=4)", "--hands", "2", "--auto", "never-bluff"),
            2,
            "defined for Kuhn poker with 3 cards only",
            id="named-opponent-needs-3-cards",
        ),
    ],
)
def test_play_errors_are_one_line(arguments, code, message):
    result = run_play(*arguments)
    assert result.returncode == code
    assert message in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("spec", ["liars_dice", " Liars_Dice(sides=6) ", "kuhn3"])
def test_another_built_in_game_is_refused_before_its_tree_is_built(spec, monkeypatch):
    # `play liars_dice` built Liar's Dice's 294,883-node tree (3 s) to say it does not play it
    from seqform.io import loader
    from seqform.play.kuhn import NotPlayableError

    def built(spec: str) -> None:
        raise AssertionError(f"{spec} was built")

    monkeypatch.setattr(loader, "build_builtin_game", built)
    with pytest.raises(NotPlayableError, match=r"are playable, not '(?i:liars_dice|kuhn3)"):
        check_playable(spec)


@pytest.mark.parametrize("hands", ["0", "-1", "two"])
def test_a_bad_hand_count_is_a_usage_error(hands):
    # exit 2 as every usage error; it was 1, after the solve
    result = run_play("--hands", hands, "--auto", "random")
    assert result.returncode == 2
    assert "seqform play: error: argument --hands: " in result.stderr
    assert "Traceback" not in result.stderr


def test_the_docs_session_is_what_play_prints():
    readme = (Path(__file__).resolve().parent.parent / "docs" / "play.md").read_text(
        encoding="utf-8"
    )
    command = "$ python -m seqform play kuhn --seat 1 --seed 3 --hands 3\n"
    assert command in readme
    shown = readme.split(command, 1)[1].split("```", 1)[0]
    result = run_play("kuhn", "--seat", "1", "--seed", "3", "--hands", "3", stdin="b\nx\nc\nb\n")
    assert result.returncode == 0
    assert result.stdout == shown


def _never_solved(*args, **kwargs):
    raise AssertionError("the game was solved before the strategy file was checked")


@pytest.fixture
def kuhn4_document(tmp_path):
    """The head of a ``solve kuhn(cards=4) --format json`` document: it names its game."""
    path = tmp_path / "kuhn4.json"
    game = {"name": "kuhn(cards=4)", "description": "Kuhn poker (Kuhn 1950) with 4 cards"}
    path.write_text(json.dumps({"schema": "seqform.solve/2", "game": game, "strategies": []}))
    return path


def test_auto_file_of_another_game_is_refused_before_the_solve(kuhn4_document, monkeypatch):
    monkeypatch.setattr("seqform.routes.tree.solve_tree", _never_solved)
    with pytest.raises(StrategyFileError, match=r"not of the game being played, 'kuhn'"):
        check_playable("kuhn", auto=str(kuhn4_document))
    with pytest.raises(StrategyFileError, match=r"is a strategy of 'kuhn\(cards=4\)'"):
        start_session("kuhn", 0, seed=1, auto=str(kuhn4_document))


def test_play_refuses_another_games_file_before_the_solve(kuhn4_document, monkeypatch, capsys):
    monkeypatch.setattr("seqform.routes.tree.solve_tree", _never_solved)
    arguments = ["play", "kuhn", "--auto", str(kuhn4_document), "--hands", "2"]
    assert main(arguments) == 1  # a file's error, as when it was refused after the solve
    err = capsys.readouterr().err
    assert "not of the game being played, 'kuhn'" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize("game", ["kuhn", "leduc(ranks=2, suits=2)"])
@pytest.mark.parametrize(
    ("auto", "reason"),
    [
        pytest.param("missing.json", "No such file or directory", id="json-suffix"),
        pytest.param("sub/strategy", "No such file or directory", id="separator"),
        pytest.param("folder", "Is a directory", id="directory"),
    ],
)
def test_an_auto_file_that_cannot_be_read_is_refused_as_exploit_refuses_it(
    game, auto, reason, tmp_path, monkeypatch, capsys
):
    # It was "unknown strategy 'missing.json'; choose one of ...", exit 2, where exploit
    # --strategy says "cannot read 'missing.json': ...", exit 1; the library decides.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    expected = f"seqform: error: cannot read {auto!r}: {reason}\n"
    assert main(["play", game, "--seat", "1", "--hands", "2", "--auto", auto]) == 1
    assert capsys.readouterr().err == expected
    assert main(["exploit", "kuhn", "--strategy", auto]) == 1
    assert capsys.readouterr().err == expected
    for ask in (check_playable, lambda spec, auto: start_session(spec, 0, auto=auto)):
        with pytest.raises(OSError) as raised:
            ask(game, auto=auto)
        assert raised.value.filename == auto and not isinstance(raised.value, ValueError)


def test_a_bare_name_is_a_file_only_when_it_exists(tmp_path, monkeypatch, solution):
    from seqform.play.strategies import UnknownStrategyError, names_a_file

    monkeypatch.chdir(tmp_path)
    with pytest.raises(UnknownStrategyError, match="unknown strategy 'mine'"):
        check_playable("kuhn", auto="mine")
    table = solution.form.players[0]
    (tmp_path / "mine").write_text(json.dumps({name: {"p": 1} for name in table.infosets}))
    assert names_a_file("mine") and not names_a_file("maniac") and not names_a_file("")
    check_playable("kuhn", auto="mine")
    assert start_session("kuhn", 0, auto="mine").auto_name == "mine"


# --- Ctrl-C keeps the finished hands ---------------------------------------------------------


class InterruptedRandom(random.Random):
    """A seeded random source that raises KeyboardInterrupt (Ctrl-C) at draw ``at``."""

    def __init__(self, seed: int, at: int) -> None:
        super().__init__(seed)
        self.left = at

    def random(self) -> float:
        self.left -= 1
        if self.left == 0:
            raise KeyboardInterrupt
        return super().random()


def test_ctrl_c_writes_the_summary_of_the_finished_hands(kuhn):
    # Ctrl-C in play dropped every finished hand ("seqform: interrupted" alone); now the
    # summary is written, as at end of input, and the interrupt goes on to the command line.
    session = start_session("kuhn", 1, auto="random", rng=InterruptedRandom(1, at=200))
    out = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        play_session(session, None, out, hands=10**7, summary_only=True)
    text = out.getvalue()
    summary = re.search(r"^Session over after (\d+) hands \(interrupted\)\.$", text, re.M)
    assert summary is not None, text
    assert 10 < int(summary[1]) < 200  # each hand draws at least a deal and a move
    assert "your total" in text and "Hand abandoned" not in text  # quiet: the summary only


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_signal_during_play_prints_the_summary_and_exits_128_plus_it(number):
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    command = [sys.executable, "-m", "seqform", "play", "kuhn", "--seat", "1", "--seed", "1"]
    process = subprocess.Popen(
        [*command, "--hands", "10000000", "--auto", "random"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Python turns SIGINT into KeyboardInterrupt only if it is not ignored at start (a
        # shell's background job ignores it)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert process.stdout is not None
    seen = 0
    for line in process.stdout:  # the running total after each hand, until a few are done
        if found := re.match(r"  Total \S+ after (\d+) hands?;", line):
            seen = int(found[1])
            if seen >= 5:
                break
    assert process.poll() is None, "the session ended before it could be interrupted"
    sent = time.perf_counter()
    process.send_signal(number)
    try:
        rest, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail("the signal did not stop play within 60 s")
    assert time.perf_counter() - sent < 3.0  # the house's "within a second or two", with slack
    assert process.returncode == 128 + number, err
    summary = re.search(r"^Session over after (\d+) hands \(interrupted\)\.$", rest, re.M)
    assert summary is not None, rest[-500:]
    assert int(summary[1]) >= seen and "your total" in rest
    assert err.startswith("seqform: interrupted") and "Traceback" not in err
