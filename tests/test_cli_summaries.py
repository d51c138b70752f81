"""`exploit` and `ranges` at any size: the same summary, legend and
`--strategies` as `solve`, through the one code path (documents/layout/strategies.py)."""

import json

import pytest

from seqform.base.numbers import value_text
from seqform.cli.main import main


def _run(argv, capsys):
    assert main(argv) == 0
    return capsys.readouterr().out


# --- exploit ---------------------------------------------------------------------------------


def test_exploit_on_kuhn_prints_both_tables_with_legends(capsys):
    out = _run(["exploit", "kuhn", "--opponent", "never-bluff"], capsys)
    lines = out.splitlines()
    assert "Pure best response of Player 2" in lines
    # never-bluff bets K always (questions/exploit.py), so its own play never reaches Kpb.
    (kpb,) = (line for line in lines if line.startswith("  Kpb "))
    assert "(unreached by own play: docs/output.md)" in kpb
    # Against never-bluff Player 1 never bets Q or J, so Player 2 never faces a bet with K.
    (kb,) = (line for line in lines if line.startswith("  Kb "))
    assert kb.endswith("(never reached against this strategy: any action is best)")
    assert sum(line.startswith("  Labels: ") for line in lines) == 2
    assert "summarised" not in out


def test_exploit_summary_on_kuhn(capsys):
    out = _run(["exploit", "kuhn", "--opponent", "never-bluff", "--strategies", "summary"], capsys)
    assert "Fixed: Player 1 plays never-bluff (summary)" in out
    # 6 information sets of player 2, Kb unreached against never-bluff (test above).
    assert "  6 information sets, 5 reached against this strategy; one action at each" in out
    assert "Strategies summarised (12 information sets): --strategies all prints every one;" in out
    # Kuhn (1950): the best response to never-bluff gains 1/9 over the value 1/18.
    assert "Gain over the equilibrium:               +0.1111111111 (= 1/9)" in out


@pytest.fixture(scope="module")
def leduc_strategy_file(tmp_path_factory):
    """`solve leduc --format json` written to a file, for `exploit --strategy`."""
    path = tmp_path_factory.mktemp("leduc") / "leduc.json"
    assert main(["solve", "leduc", "--format", "json", "--output", str(path)]) == 0
    return path


def test_exploit_on_leduc_is_a_summary(leduc_strategy_file, capsys):
    argv = ["exploit", "leduc", "--strategy", str(leduc_strategy_file), "--player", "1"]
    summary = _run(argv, capsys)
    document = json.loads(_run([*argv, "--format", "json"], capsys))
    full = _run([*argv, "--strategies", "all"], capsys)
    # Leduc: 468 information sets per player (Lanctot et al. 2017; tests/test_leduc.py).
    assert len(summary.splitlines()) <= 45
    assert len(full.splitlines()) >= 2 * 468
    reached = 468 - len(document["unreached"])  # from the JSON, independently of the text
    assert f"  468 information sets, {reached} reached against this strategy" in summary
    assert "Strategies summarised (936 information sets)" in summary
    assert len(document["best_response"]) == 468  # JSON stays complete
    # The solved strategy's unreached sets (solve's JSON) are flagged on the fixed side too.
    solved = json.loads(leduc_strategy_file.read_text())["strategies"][0]["infosets"]
    unreached = sum(i["unreached"] for i in solved)
    assert full.count("(unreached by own play: docs/output.md)") == unreached
    # An equilibrium strategy cannot be exploited (Leduc value −0.0856064241, OpenSpiel):
    # the float gain is round-off beside the payoff range, written as such ("≈ 0", or 0).
    gain = document["gain"]
    assert gain < 1e-12
    shown = value_text(gain, scale=document["payoff_range"])
    assert shown == ("≈ 0" if gain else "+0.0000000000")
    assert f"Gain over the equilibrium:               {shown}" in summary
    assert "cannot be exploited" in summary
    assert ("cannot be exploited beyond round-off" in summary) == (gain != 0)


# --- ranges ----------------------------------------------------------------------------------


def _section(out, start):
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(start))
    end = lines.index("", first)
    return lines[first:end]


def test_ranges_summary_on_kuhn_shows_where_behaviour_varies(capsys):
    out = _run(["ranges", "kuhn", "--strategies", "summary"], capsys)
    # Kuhn (1950): player 1 bets J with α ∈ [0, 1/3], K with 3α and calls Q with α + 1/3;
    # Kpb's behaviour is fixed (always call) wherever reached, only its plan entry varies.
    player1 = _section(out, "Player 1:")
    assert "  6 information sets: behaviour varies at 3, no optimal strategy reaches 0;" in player1
    assert "  the 3 that vary most:" in player1
    assert [line.split()[0] for line in player1 if line.startswith("  J ")] == ["J", "J"]
    assert {line.split()[0] for line in player1[-7:-1]} == {"J", "Qpb", "K"}
    # Player 2's equilibrium is unique (Kuhn 1950): it mixes at Jp (bluff 1/3), Qb (call 1/3).
    player2 = _section(out, "Player 2:")
    assert "  the 2 most mixed:" in player2
    assert {line.split()[0] for line in player2[4:8]} == {"Qb", "Jp"}
    assert player2[-1].startswith("  Labels: ")
    assert "Ranges summarised (12 information sets): --strategies all prints every one;" in out


def test_ranges_above_the_threshold_summarise(capsys):
    # kuhn(cards=11): 22 information sets per player, 44 in all, above SUMMARY_ABOVE = 40.
    summary = _run(["ranges", "kuhn(cards=11)"], capsys)
    full = _run(["ranges", "kuhn(cards=11)", "--strategies", "all"], capsys)
    document = json.loads(_run(["ranges", "kuhn(cards=11)", "--format", "json"], capsys))
    assert "Ranges summarised (44 information sets)" in summary
    assert "summarised" not in full
    actions = sum(len(i["actions"]) for p in document["players"] for i in p["infosets"])
    assert actions == 88  # two actions at each of the 44 information sets
    rows = [line for line in full.splitlines() if line.split()[1:2] in (["check"], ["bet"])]
    rows += [line for line in full.splitlines() if line.split()[1:2] in (["fold"], ["call"])]
    assert len(rows) == actions
    assert len(summary.splitlines()) < len(full.splitlines())


# --- games -----------------------------------------------------------------------------------


def test_games_describes_every_game_in_words_for_readers(capsys):
    import inspect

    from seqform.game.builtin.catalogue import ABOUT
    from seqform.game.builtin.registry import GAMES

    assert set(ABOUT) == set(GAMES)  # a new built-in game needs its words here
    assert main(["games", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    for game in document["games"]:
        # No docstring markup or quoted parameter names ("with 'cards' cards").
        assert "``" not in game["summary"] and "'cards'" not in game["summary"], game["name"]
        # One line of help per parameter, in the constructor's order.
        names = list(inspect.signature(GAMES[game["name"]]).parameters)
        assert [text.split(":")[0] for text in game["parameter_help"]] == names
    assert main(["games"]) == 0
    assert "  parameter cards: how many cards in the deck, at least 2" in capsys.readouterr().out


# --- --help ----------------------------------------------------------------------------------


def _help(command):
    from seqform.cli.parser import build_parser

    (subparsers,) = (a for a in build_parser()._actions if hasattr(a, "choices") and a.choices)
    return subparsers.choices[command].format_help()


@pytest.mark.parametrize(
    "command", ["solve", "compare", "export", "play", "ranges", "exploit", "iterate", "games"]
)
def test_every_command_help_ends_with_the_exit_codes(command):
    words = " ".join(_help(command).split())  # argparse wraps the epilog at the terminal's width
    assert words.endswith("130 interrupted (128 + the signal: 143 SIGTERM, 129 SIGHUP)")


def test_help_says_what_each_summary_shows():
    def one_line(text):
        return " ".join(text.split())

    assert "the 10 information sets that vary most" in one_line(_help("ranges"))
    assert "the best response's counts" in one_line(_help("exploit"))
    assert "the 10 most mixed per player" in one_line(_help("solve"))
    assert "summary above" not in one_line(_help("games"))  # games never summarises
