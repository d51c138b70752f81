"""Strategies as Gambit behaviour profiles (seqform/io/gambit_profile.py), both ways.

The cross-checks are pygambit's own: the ``.efg`` of ``export --to efg`` read by
``pygambit.read_efg``, the profile of ``export --to gambit-profile`` loaded into it as the
README shows, and Gambit's payoff and Lyapunov value computed on it by Gambit, independent
of seqform's LP and certificate (on Leduc the agent forms only: pygambit 16.7's
``max_regret`` and ``liap_value`` did not finish within minutes there).  The other way, an
equilibrium found by Gambit's ``lcp_solve`` and written as Gambit's solvers print it is read
by ``exploit --strategy``.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pygambit
import pytest

from seqform.cli.main import main
from seqform.io.export import write_efg
from seqform.io.gambit_profile import gambit_profile_text, is_gambit_profile
from seqform.io.loader import load_game
from seqform.io.strategy_files import StrategyFileError, read_strategy_file
from seqform.questions.exploit import exploit, load_strategy
from seqform.routes.solve import solve

KUHN_VALUE = -1 / 18  # Kuhn (1950)
LEDUC_VALUE = -0.085606424078  # Lanctot et al. (2017); OpenSpiel's sequence_form_lp_test.py
TOLERANCE = 1e-9  # seqform's certificate tolerance


def gambit_profile(efg, profile_file) -> pygambit.MixedBehaviorProfile:
    """The README's snippet: the profile line loaded into the game Gambit reads."""
    game = pygambit.read_efg(str(efg))
    text = profile_file.read_text(encoding="utf-8").strip()
    numbers = iter(float(Fraction(field)) for field in text.split(",")[1:])
    data = [
        [[next(numbers) for _ in infoset.actions] for infoset in player.infosets]
        for player in game.players
    ]
    assert next(numbers, None) is None
    return game.mixed_behavior_profile(data=data)


@pytest.mark.parametrize("name", ["kuhn", "leduc", "liars_dice(sides=3)"])
def test_the_profile_order_is_gambits_order_of_the_exported_efg(name, tmp_path):
    game = load_game(name)
    write_efg(game, tmp_path / "game.efg")

    gambit = pygambit.read_efg(str(tmp_path / "game.efg"))

    for table, player in zip(game.flat.tables, gambit.players, strict=True):
        assert [infoset.label for infoset in player.infosets] == list(table.infosets)
        assert [tuple(a.label for a in infoset.actions) for infoset in player.infosets] == [
            tuple(actions) for actions in table.actions
        ]


@pytest.mark.parametrize(("name", "value"), [("kuhn", KUHN_VALUE), ("leduc", LEDUC_VALUE)])
def test_gambit_finds_the_exported_profile_an_equilibrium_worth_the_value(name, value, tmp_path):
    efg, profile_file = tmp_path / "game.efg", tmp_path / "game.profile"
    assert main(["export", name, "--to", "efg", str(efg)]) == 0
    assert main(["export", name, "--to", "gambit-profile", str(profile_file)]) == 0

    profile = gambit_profile(efg, profile_file)

    first, second = profile.game.players
    assert profile.payoff(first) == pytest.approx(value, abs=TOLERANCE)
    assert profile.payoff(second) == pytest.approx(-value, abs=TOLERANCE)
    # No information set's player gains by changing its actions, by Gambit's own values.
    assert profile.agent_max_regret() <= TOLERANCE
    assert profile.agent_liap_value() <= TOLERANCE**2
    if name == "kuhn":  # whole-strategy deviations: pygambit 16.7 takes minutes on Leduc
        assert profile.max_regret() <= TOLERANCE
        assert profile.liap_value() <= TOLERANCE**2


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_a_profile_reads_back_as_the_strategies_that_were_written(name, tmp_path):
    game = load_game(name)
    solution = solve(game)
    path = tmp_path / "game.profile"
    path.write_text(gambit_profile_text(solution.strategies), encoding="utf-8")

    for player in (0, 1):
        read = read_strategy_file(path, game, player)
        written = solution.strategies[player].as_dict()
        assert read.player == player and list(read.probabilities) == list(written)
        for infoset, actions in written.items():
            for action, probability in actions.items():
                assert float(read.probabilities[infoset][action]) == pytest.approx(
                    probability, abs=1e-15
                )
    assert read_strategy_file(path, game).player == 0  # player 1's when none is named


def test_exploit_reads_a_profile_that_gambit_found(tmp_path, capsys):
    efg = tmp_path / "kuhn.efg"
    write_efg(load_game("kuhn"), efg)
    gambit = pygambit.read_efg(str(efg))
    (equilibrium, *_) = pygambit.nash.lcp_solve(gambit, rational=True).equilibria
    line = ",".join(["NE", *(str(equilibrium[action]) for action in gambit.actions)])
    profile_file = tmp_path / "gambit.profile"
    profile_file.write_text(line + "\n", encoding="utf-8")

    code = main(
        ["exploit", "kuhn", "--strategy", str(profile_file), "--player", "2", "--format", "json"]
    )

    assert code == 0
    document = json.loads(capsys.readouterr().out)
    assert document["fixed"]["player"] == 2
    assert document["value"] == pytest.approx(KUHN_VALUE, abs=TOLERANCE)
    assert abs(document["gain"]) <= TOLERANCE  # Gambit's equilibrium is not exploitable


def test_exploit_of_a_profile_is_exact_in_its_rationals(tmp_path):
    game = load_game("kuhn")
    path = tmp_path / "kuhn.profile"
    # Player 2 always calls and never bets: Kuhn's "calling station"; player 1's half uniform.
    player_1 = ["1/2"] * 12
    player_2 = ["1", "0", "0", "1"] * 3  # at Qp, Kp, Jp: check; at Qb, Kb, Jb: call
    path.write_text(",".join(player_1 + player_2), encoding="utf-8")

    fixed = load_strategy(game, path, 1)

    assert fixed.exact
    assert fixed.at("Qb") == {"p": 0, "b": 1} and fixed.at("Jp") == {"p": 1, "b": 0}
    assert exploit(game, fixed, exact=True).gain > 0


def test_a_profile_of_the_wrong_length_names_both_counts(tmp_path):
    path = tmp_path / "short.profile"
    path.write_text("NE,0.5,0.5,1,0\n", encoding="utf-8")

    with pytest.raises(StrategyFileError) as raised:
        read_strategy_file(path, load_game("kuhn"), 0)

    message = str(raised.value)
    assert str(path) in message and "24 probabilities" in message and "has 4" in message


def test_a_profile_whose_information_set_does_not_sum_to_one_is_named(tmp_path):
    path = tmp_path / "bad.profile"
    numbers = ["1", "0"] * 12
    numbers[2:4] = ["0.5", "0.4"]  # player 1's second information set, Jpb
    path.write_text(",".join(numbers), encoding="utf-8")

    with pytest.raises(StrategyFileError, match=r"information set 'Jpb': probabilities sum"):
        read_strategy_file(path, load_game("kuhn"), 0)


@pytest.mark.parametrize(
    ("text", "profile"),
    [
        ("NE,1,0,0.5,0.5\n", True),
        ("  1/3, 2/3 ,1\n\n", True),
        ('{"J": {"p": 1}}', False),
        ("[1, 0]", False),
        ("NE,1,0\nNE,0,1\n", False),  # two equilibria: pick one
        ("0.5", False),
        ("hello, world", False),
    ],
)
def test_what_counts_as_a_profile_line(text, profile):
    assert is_gambit_profile(text) is profile


def test_the_profile_s_note_names_a_command_that_writes_its_game(tmp_path, capsys):
    # for a game read from a file, the note named the game's own name ("base"), which no
    # command reads; it names the file as it was given, and that command works
    game_file = tmp_path / "kuhn game.efg"
    write_efg(load_game("kuhn"), game_file)
    assert main(["export", str(game_file), "--to", "gambit-profile", str(tmp_path / "p")]) == 0
    note = capsys.readouterr().err
    command = note.split("its game is ")[1].strip().strip("'")
    assert command == f"seqform export '{game_file}' --to efg"
    assert main(["export", str(game_file), "--to", "efg", str(tmp_path / "again.efg")]) == 0
