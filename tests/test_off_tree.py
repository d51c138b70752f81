"""Off-tree actions: the mappings, Leduc with bet sizes, translation and nested re-solving."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from seqform.game.builtin.leduc import leduc_poker, leduc_structured
from seqform.holdem.spot import spot_from_mapping
from seqform.io.loader import load_game
from seqform.resolving.off_tree import off_tree
from seqform.resolving.sized import leduc_sized, load_sized_game, spot_sized
from seqform.resolving.subgames import ResolveError
from seqform.resolving.translation import map_size, pseudo_harmonic
from seqform.routes.tree import solve_tree
from tests.cli_runs import run_main

F = Fraction


def test_pseudo_harmonic_ends_and_a_worked_value() -> None:
    # f(A) = 1 and f(B) = 0: the mapping's definition (Ganzfried and Sandholm, IJCAI 2013).
    assert pseudo_harmonic(F(1, 2), F(1), F(1, 2)) == 1
    assert pseudo_harmonic(F(1, 2), F(1), F(1)) == 0
    # A half-pot and a pot bet, x = 3/4 pot: (1/4)(3/2) / ((1/2)(7/4)) = 3/7, worked by hand
    # from the paper's formula f(x) = (B - x)(1 + A) / ((B - A)(1 + x)).
    assert pseudo_harmonic(F(1, 2), F(1), F(3, 4)) == F(3, 7)
    # A = 0 (a check), B = 1 (a pot bet), x = 1/2: (1/2)(1) / ((1)(3/2)) = 1/3, the same formula.
    assert pseudo_harmonic(F(0), F(1), F(1, 2)) == F(1, 3)


def test_pseudo_harmonic_refuses_a_size_outside() -> None:
    with pytest.raises(ResolveError, match="A <= x <= B"):
        pseudo_harmonic(F(1), F(2), F(3))


def test_map_size_variants() -> None:
    sizes = [F(1), F(1, 2)]  # unsorted on purpose: indices refer to this list
    assert map_size(sizes, F(3, 4)) == ((1, F(3, 7)), (0, F(4, 7)))
    assert map_size(sizes, F(3, 4), "deterministic") == ((0, F(1)),)  # 3/7 < 1/2: to B
    assert map_size(sizes, F(3, 4), "arithmetic") == ((1, F(1, 2)), (0, F(1, 2)))
    assert map_size(sizes, F(1, 2)) == ((1, F(1)),)
    assert map_size(sizes, F(1, 4)) == ((1, F(1)),)  # below the smallest
    assert map_size(sizes, F(3)) == ((0, F(1)),)  # above the largest
    with pytest.raises(ResolveError, match="mapping"):
        map_size(sizes, F(3, 4), "nearest")


def test_leduc_bets_default_is_leduc() -> None:
    plain, sized = leduc_poker(2, 2), leduc_poker(2, 2, bets=((2,), (4,)))
    assert sized.name == plain.name == "leduc(ranks=2, suits=2)"
    assert sized.flat.tables[0].infosets == plain.flat.tables[0].infosets


def test_leduc_bets_keep_the_abstract_names() -> None:
    full = leduc_poker(2, 2, bets=((1, 2), 4))
    assert full.name == "leduc(ranks=2, suits=2, bets=((1, 2), (4,)))"
    assert load_game(full.name).flat.num_nodes == full.flat.num_nodes
    for player in (0, 1):
        names = set(full.flat.tables[player].infosets)
        assert set(leduc_poker(2, 2).flat.tables[player].infosets) <= names
    assert leduc_structured(2, 2, ((1, 2), (4, 8))).root.actions == ("c", "r1", "r")


@pytest.mark.parametrize(
    ("bets", "message"),
    [((2,), "two rounds"), (((0,), (4,)), "positive"), (((2, 2), (4,)), "twice")],
)
def test_leduc_bets_refused(bets: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        leduc_poker(2, 2, bets=bets)  # type: ignore[arg-type]


def test_sizes_are_pot_fractions() -> None:
    game = leduc_sized(2, 2, bets=((1, 2), (4, 8)))
    root = game.structured.root
    assert game.sizes(root) == (None, F(1, 2), F(1))  # 1 and 2 chips into a pot of 2
    after = root.children[2]  # facing a bet of 2: pot 4, 2 to call, pot after the call 6
    assert after.actions == ("f", "c", "r1", "r")
    assert game.sizes(after) == (None, None, F(1, 6), F(2, 6))


BASE = {
    "board": "Ks7h2d9c4s",
    "pot": 10,
    "effective_stack": 30,
    "oop_range": "AA,QQ,99",
    "ip_range": "KK:0.25,QJs,77",
    "bet_sizes": [0.5],
    "raise_sizes": [1],
    "max_raises": 1,
}


@pytest.fixture(scope="module")
def spots() -> tuple:
    full = spot_sized(spot_from_mapping({**BASE, "ip_bet_sizes": [0.5, 1, 2]}, "full"))
    abstract = spot_sized(spot_from_mapping(BASE, "abstract"))
    blueprint = [strategy.as_dict() for strategy in solve_tree(abstract.game).strategies]
    return full, abstract, blueprint


def test_spot_sizes(spots: tuple) -> None:
    full = spots[0]
    after_check = full.structured.root.children[0]
    assert after_check.actions == ("x", "b5", "b10", "b20", "b30")
    assert full.sizes(after_check) == (None, F(1, 2), F(1), F(2), F(3))
    facing = after_check.children[2]  # x-b10: raise to 30 adds 20 to a pot of 30 after the call
    assert full.sizes(facing)[2:] == (F(2, 3),)


def test_translation_is_a_strategy_of_the_full_game(spots: tuple) -> None:
    full, abstract, blueprint = spots
    result = off_tree(full, abstract, blueprint)
    assert result.off_tree > 0
    for strategy in result.strategies:
        table = full.game.flat.tables[strategy.player]
        totals = np.add.reduceat(
            np.asarray(strategy.probabilities[1:], dtype=float), table.first_sequence - 1
        )
        assert totals == pytest.approx(np.ones(table.num_infosets))
    for player in (0, 1):  # where the abstract game has the information set: the blueprint
        played = result.strategies[player].as_dict()
        for name, strategy in blueprint[player].items():
            extra = {action: 0.0 for action in played[name] if action not in strategy}
            assert played[name] == pytest.approx({**strategy, **extra})


def test_nested_is_no_worse_than_translation(spots: tuple) -> None:
    full, abstract, blueprint = spots
    translated = off_tree(full, abstract, blueprint)
    nested = off_tree(full, abstract, blueprint, method="nested")
    assert nested.runs  # one gadget LP per off-tree bet of IP after a check
    assert nested.certificate.nash_conv >= 0
    assert nested.exploitability <= translated.exploitability
    assert nested.milli_exploitability == pytest.approx(1000 * nested.exploitability / 10)


def test_off_tree_refusals(spots: tuple) -> None:
    full, abstract, blueprint = spots
    with pytest.raises(ResolveError, match="method"):
        off_tree(full, abstract, blueprint, method="guess")
    with pytest.raises(ResolveError, match="bets with sizes"):
        load_sized_game("kuhn")
    with pytest.raises(ResolveError, match="hands differ"):
        off_tree(full, leduc_sized(2, 2), blueprint)


@pytest.mark.parametrize("as_path", [str, Path], ids=["str", "pathlike"])
def test_a_blueprint_path_is_read_as_a_file(as_path, tmp_path: Path) -> None:
    # a str was taken for a sequence of strategies: "blueprint: need both players'
    # strategies, got 7" for 'ab.json' (its characters), and a Path had no len()
    from seqform.cli.main import main

    abstract, full = "leduc(ranks=2, suits=2)", "leduc(ranks=2, suits=2, bets=((1, 2), (4,)))"
    saved = tmp_path / "ab.json"
    assert main(["solve", abstract, "--quiet", "--format", "json", "--output", str(saved)]) == 0
    strategies = solve_tree(load_sized_game(abstract).game).strategies  # what solve wrote
    given = off_tree(full, abstract, [strategy.as_dict() for strategy in strategies])
    read = off_tree(full, abstract, as_path(saved), method="translate")
    for ours, theirs in zip(read.strategies, given.strategies, strict=True):
        assert np.asarray(ours.probabilities, dtype=float) == pytest.approx(
            np.asarray(theirs.probabilities, dtype=float), abs=1e-12
        )
    assert read.exploitability == pytest.approx(given.exploitability, abs=1e-12)


def test_a_blueprint_of_another_kind_is_refused(spots: tuple) -> None:
    full, abstract, blueprint = spots
    with pytest.raises(TypeError, match="blueprint must be both players' strategies"):
        off_tree(full, abstract, dict(enumerate(blueprint)))  # a mapping, not a pair


# --- the command line: seqform resolve FULL --off-tree METHOD --abstract ABSTRACT -----------

ABSTRACT = "leduc(ranks=3, suits=2)"
FULL = "leduc(ranks=3, suits=2, bets=((1, 2), (4,)))"  # docs/resolving.md's example


@pytest.mark.slow
def test_cli_off_tree_writes_documents_its_schema_accepts(tmp_path, capsys) -> None:
    import json

    from seqform.io.documents import validate_document

    blueprint = tmp_path / "abstract.json"
    assert run_main("solve", ABSTRACT, "--format", "json", "--output", str(blueprint)) == 0
    built = {}
    for method in ("translate", "nested"):
        written = tmp_path / f"{method}.json"
        argv = ("--abstract", ABSTRACT, "--blueprint", str(blueprint), "--off-tree", method)
        assert run_main("resolve", FULL, *argv, "--format", "json", "--output", str(written)) == 0
        built[method] = json.loads(written.read_text())
        validate_document(built[method])
        assert built[method]["method"] == method and built[method]["unit"] == "mbb/g"
    # an exact abstract equilibrium translated is exploitable in the full game (the library's
    # test_nested_is_no_worse_than_translation); nested re-solving is no worse
    assert built["translate"]["full_game"]["exploitability"] > 1e-3
    assert built["translate"]["gadgets"] == [] and built["nested"]["gadgets"]
    nested = built["nested"]["full_game"]["exploitability"]
    assert nested <= built["translate"]["full_game"]["exploitability"]
    argv = ("--abstract", ABSTRACT, "--blueprint", str(blueprint), "--off-tree", "translate")
    assert run_main("resolve", FULL, *argv) == 0
    report = capsys.readouterr().out
    assert "abstract game:" in report and "mbb/g" in report and "untranslated" in report


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(("--off-tree", "translate"), "needs --abstract", id="no-abstract"),
        pytest.param(("--abstract", ABSTRACT), "belongs to --off-tree", id="no-method"),
        pytest.param(("--mapping", "arithmetic"), "belongs to --off-tree", id="mapping"),
        pytest.param(
            ("--off-tree", "translate", "--abstract", ABSTRACT, "--alternative", "best"),
            "belongs to --off-tree nested",
            id="alternative",
        ),
        pytest.param(
            ("--off-tree", "nested", "--abstract", ABSTRACT, "--round", "2"),
            "--round belongs",
            id="round",
        ),
        pytest.param(
            ("--off-tree", "nested", "--abstract", ABSTRACT, "--refine"),
            "--refine belongs",
            id="refine",
        ),
        pytest.param(
            ("--off-tree", "nested", "--abstract", "kuhn"),
            "--abstract: game 'kuhn': off-tree actions need bets",
            id="abstract-kuhn",
        ),
        pytest.param(
            ("--off-tree", "sideways", "--abstract", ABSTRACT), "invalid choice", id="method"
        ),
    ],
)
def test_cli_off_tree_refuses_bad_options_with_exit_2(tmp_path, capsys, argv, message) -> None:
    missing = str(tmp_path / "never-read.json")  # refused before the blueprint is read
    assert run_main("resolve", FULL, "--blueprint", missing, *argv) == 2
    assert message in capsys.readouterr().err


def test_cli_off_tree_document_is_a_strategy_file_of_the_full_game(tmp_path, capsys) -> None:
    # `resolve --help` and docs/play.md promise any resolve output reads as a strategy file;
    # the seqform.off-tree/1 document was refused by exploit --strategy and play --auto.
    import json

    from seqform.io.strategy_files import read_strategy_file

    abstract, full = "leduc(ranks=2, suits=2)", "leduc(ranks=2, suits=2, bets=((1, 2), (4,)))"
    blueprint, written = tmp_path / "abstract.json", tmp_path / "nested.json"
    assert run_main("solve", abstract, "--format", "json", "--output", str(blueprint)) == 0
    argv = ("--abstract", abstract, "--blueprint", str(blueprint), "--off-tree", "nested")
    assert run_main("resolve", full, *argv, "--format", "json", "--output", str(written)) == 0
    capsys.readouterr()
    # the strategies are the full game's: every information set of each player, sizes
    # the abstract game lacks (r1, a bet of 1) among their actions
    game = leduc_poker(2, 2, bets=((1, 2), (4,)))
    for player in (0, 1):
        read = read_strategy_file(written, game, player, same_game="exploited")
        assert list(read.probabilities) == list(game.flat.tables[player].infosets)
        assert any("r1" in row for row in read.probabilities.values())
    document = json.loads(written.read_text())
    assert run_main("exploit", full, "--strategy", str(written), "--player", "1") == 0
    gain = document["full_game"]["certificate"]["gains"][1]  # player 2's against player 1
    shown = capsys.readouterr().out.split("Gain over the equilibrium:")[1].split("\n")[0]
    # a gain of round-off beside the payoff range is written "≈ 0" (base/numbers.value_text)
    assert float(shown.replace("≈ 0", "0")) == pytest.approx(gain, abs=1e-9)
    argv = ("--seat", "2", "--seed", "1", "--hands", "3", "--summary-only")
    assert run_main("play", full, *argv, "--auto", str(written)) == 0
    assert "Session over after 3 hands" in capsys.readouterr().out
    # and it is of the full game: exploiting the abstract game with it is refused
    assert run_main("exploit", abstract, "--strategy", str(written)) == 1
    assert "not of the game being exploited" in capsys.readouterr().err
