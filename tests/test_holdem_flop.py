"""Flop spots: street tables, donk bets and the all-in threshold in the spot file
(seqform.holdem.spot), the turn and river dealt as public chance (seqform.holdem.game), and
the flop's structured game against its explicit tree, on tiny flops only (the TexasSolver
benchmark flop is in benchmarks/spots/)."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from seqform.forms.strategies import behaviour_from_mapping
from seqform.game.public.explicit import explicit_game
from seqform.game.public.tree import PublicChance, PublicDecision
from seqform.holdem.betting import street_tree
from seqform.holdem.cards import card_text
from seqform.holdem.game import spot_game
from seqform.holdem.spot import SpotFileError, spot_from_mapping

# Two combos a side that share cards with each other, so the turn and river cards are
# removed against both hands; stacks of three pots, so the flop's bet can be called and the
# turn played.
TINY = {
    "board": "Ks7h2d",
    "pot": 2,
    "effective_stack": 6,
    "oop_range": "AhAd,KhQh",
    "ip_range": "AsKd,QdQc:0.5",
    "bet_sizes": [1],
    "max_raises": 0,
    "all_in": False,
}


@pytest.fixture(scope="module")
def donk_flop():
    """TINY with a turn donk of half the pot, and TINY as it is."""
    plain = spot_game(spot_from_mapping(TINY, "plain"))
    return spot_game(spot_from_mapping({**TINY, "turn": {"donk_sizes": [0.5]}}, "donk")), plain


def _child(node, *path):
    """The public node reached from ``node`` by actions and cards (card text)."""
    for step in path:
        if isinstance(node, PublicChance):
            node = node.children[node.outcomes.index(step)]
        else:
            assert isinstance(node, PublicDecision)
            node = node.children[node.actions.index(step)]
    return node


@pytest.mark.slow
def test_a_flop_spot_deals_turn_and_river_with_card_removal(donk_flop):
    game = donk_flop[1]
    turn = _child(game.root, "x", "x")
    assert isinstance(turn, PublicChance) and turn.label == "turn"
    assert turn.probability == Fraction(1, 45)  # 52 cards less 3 on the board and 4 held
    board = spot_from_mapping(TINY).board
    assert len(turn.cards) == 49 and set(turn.cards).isdisjoint(board)
    river = _child(turn, "9c", "x", "x")
    assert isinstance(river, PublicChance) and river.label == "river"
    assert river.probability == Fraction(1, 44)
    assert "9c" not in river.outcomes and len(river.outcomes) == 48
    assert spot_from_mapping(TINY).street == "flop"


@pytest.mark.slow
def test_flop_equity_is_the_average_over_every_turn_and_river(donk_flop):
    """Each combo's showdown equity (seqform.holdem.equity), read off the flop game's two
    chance nodes, against the average of eval7.evaluate over every turn-and-river pair the
    two hands leave (an enumeration that shares no code with the spot's builder)."""
    from seqform.holdem.equity import showdown_equities
    from seqform.holdem.strength import load_eval7

    eval7 = load_eval7()
    spot = spot_from_mapping(TINY)
    for player in (0, 1):
        ours = showdown_equities(donk_flop[1], player)
        for combo, equity in zip(spot.ranges[player].combos, ours, strict=True):
            won = total = Fraction(0)
            for other, weight in zip(
                spot.ranges[1 - player].combos, spot.ranges[1 - player].weights, strict=True
            ):
                if set(combo) & set(other):
                    continue
                seen = {*spot.board, *combo, *other}
                runouts = list(combinations([c for c in range(52) if c not in seen], 2))
                for runout in runouts:
                    board = [eval7.Card(card_text(c)) for c in (*spot.board, *runout)]
                    mine = eval7.evaluate(board + [eval7.Card(card_text(c)) for c in combo])
                    theirs = eval7.evaluate(board + [eval7.Card(card_text(c)) for c in other])
                    share = 1 if mine > theirs else Fraction(1, 2) if mine == theirs else 0
                    won += weight * share / len(runouts)
                total += weight
            assert equity == pytest.approx(float(won / total), abs=1e-12), combo


@pytest.mark.slow
def test_donk_sizes_replace_oops_lead_only_after_oop_called(donk_flop):
    game, plain = donk_flop
    # flop x-b2-c: OOP called IP's bet, so OOP leads the turn (pot 6) with a donk of half
    assert _child(game.root, "x", "b2", "c", "9c").actions == ("x", "b3")
    # flop x-x and b2-c: no donk, OOP's bet of the pot
    assert _child(game.root, "x", "x", "9c").actions == ("x", "b2")
    assert _child(game.root, "b2", "c", "9c").actions == ("x", "b4")  # the pot, all 4 left
    # IP's bet after OOP checks keeps IP's size
    assert _child(game.root, "x", "b2", "c", "9c", "x").actions == ("x", "b4")
    # the turn's donk called, the river (no table: the top-level sizes, no donk) is bet
    river = _child(game.root, "x", "b2", "c", "9c", "b3", "c", "3s")
    assert river.actions == ("x", "b1")
    # an all-in called: the river is dealt to the showdown with no betting
    runout = _child(game.root, "x", "b2", "c", "9c", "x", "b4", "c")
    assert isinstance(runout, PublicChance) and not isinstance(runout.children[0], PublicDecision)
    assert _child(plain.root, "x", "b2", "c", "9c").actions == ("x", "b4")


def test_street_tables_give_each_street_its_sizes():
    data = {
        **TINY,
        "board": "Ks7h2d9c",
        "effective_stack": 40,
        "turn": {"oop_bet_sizes": [1], "ip_bet_sizes": [2], "ip_all_in": True},
        "river": {"bet_sizes": [0.5]},
    }
    game = spot_game(spot_from_mapping(data, "tables"))
    assert game.root.actions == ("x", "b2")  # pot 2
    assert _child(game.root, "x").actions == ("x", "b4", "b40")  # IP's own size and all-in
    assert _child(game.root, "b2", "c", "3s").actions == ("x", "b3")  # river: pot 6, half
    flop = spot_from_mapping({**TINY, "flop": {"bet_sizes": [0.5]}})
    assert flop.sizes("flop").bet_sizes == ((Fraction(1, 2),),) * 2
    assert flop.sizes("turn").bet_sizes == ((Fraction(1),),) * 2  # no table: the top level


def test_the_all_in_threshold_turns_big_bets_into_all_in():
    """TexasSolver's set_allin_threshold (GameTree::get_possible_bets): a bet after which a
    player has put in more than the threshold times its starting chips becomes all-in."""
    # pot 10, stacks 100: each started with 5 + 100; a pot bet puts in 15 of 105
    plain = street_tree(Fraction(10), Fraction(100), (Fraction(1),), (Fraction(1),), 1)
    assert plain.actions == ("x", "b10", "b100")
    above = street_tree(
        Fraction(10), Fraction(100), (Fraction(1),), (), 0, all_in_threshold=Fraction(1, 10)
    )
    assert above.actions == ("x", "b100")  # 15 > 10.5
    below = street_tree(
        Fraction(10), Fraction(100), (Fraction(1),), (), 0, all_in_threshold=Fraction(1, 7)
    )
    assert below.actions == ("x", "b10", "b100")  # 15 = 15 is not more
    # TexasSolver's benchmark threshold of 1.0 changes nothing: no bet exceeds the stack
    whole = street_tree(
        Fraction(10), Fraction(100), (Fraction(1),), (Fraction(1),), 1, all_in_threshold=1
    )
    assert whole == plain
    # in a spot (pot 2, stacks 6): a pot bet puts in 1 + 2 of 1 + 6, on the turn and river too
    turn = spot_game(spot_from_mapping({**TINY, "board": "Ks7h2d9c", "all_in_threshold": 0.3}))
    assert turn.root.actions == ("x", "b6")  # 3 > 0.3 × 7: all-in, though all_in = false
    assert _child(turn.root, "x", "x", "3s").actions == ("x", "b6")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"turn": {"bet_size": [1]}}, r"\[turn\] unknown key 'bet_size' \(did you mean"),
        ({"river": 3}, "river must be a table"),
        ({"board": "Ks7h2d9c", "flop": {}}, r"\[flop\]: a spot on a 4-card board plays"),
        ({"turn": {"oop_all_in": 1}}, r"\[turn\] oop_all_in must be true or false"),
        ({"donk_sizes": [0]}, "donk_sizes\\[0\\] must be greater than 0"),
        ({"all_in_threshold": -1}, "all_in_threshold must be greater than 0"),
    ],
    ids=["key", "table", "street", "flag", "donk", "threshold"],
)
def test_street_table_mistakes_name_the_table_and_key(change, message):
    with pytest.raises(SpotFileError, match=message):
        spot_from_mapping({**TINY, **change}, "spot.toml")


def test_bet_sizes_may_live_in_the_tables_only():
    data = {key: value for key, value in TINY.items() if key != "bet_sizes"}
    with pytest.raises(SpotFileError, match=r"missing bet_sizes \(.*for the turn, river\)"):
        spot_from_mapping({**data, "flop": {"bet_sizes": [1]}}, "spot.toml")
    tables = {
        street: {"bet_sizes": [1 if street == "flop" else 2]}
        for street in ("flop", "turn", "river")
    }
    spot = spot_from_mapping({**data, **tables})
    assert [spot.sizes(street).bet_sizes[0] for street in ("flop", "turn", "river")] == [
        (Fraction(1),),
        (Fraction(2),),
        (Fraction(2),),
    ]


def test_the_texassolver_benchmark_reads_as_its_config_says():
    """benchmarks/spots/texassolver_flop.toml against TexasSolver's
    benchmark/benchmark_texassolver.txt: its sizes per street, and its ranges' combos on
    Qs Jh 2h (225 and 310, as docs/spots.md counts them)."""
    from pathlib import Path

    from seqform.holdem.spot import read_spot

    root = Path(__file__).resolve().parents[1]
    spot = read_spot(root / "benchmarks" / "spots" / "texassolver_flop.toml")
    assert spot.street == "flop" and (spot.pot, spot.effective_stack) == (10, 95)
    assert [len(r) for r in spot.ranges] == [225, 310]
    pot, half = (Fraction(1),), (Fraction(1, 2),)
    for street in ("flop", "turn", "river"):
        sizes = spot.sizes(street)
        assert sizes.bet_sizes == (pot, pot) and sizes.raise_sizes == (half, half)
        assert sizes.donk_sizes == (None if street == "flop" else pot)
        assert sizes.all_in == (True, street != "turn")  # no "ip,turn,allin" line
    assert spot.all_in_threshold == 1


@pytest.mark.slow
def test_vector_cfr_on_a_flop_is_certified_as_the_tree_measures_it():
    """iterate on the structured route (vector CFR+) on a flop: the value and NashConv it
    reports, measured by the structured best response through two chance nodes with card
    removal, are the explicit tree's certificate of the same strategies (seqform.certify,
    which shares no code with the structured products).  Stacks of one pot make every bet
    all-in, so the public tree is small (about 7,000 decisions, most under the 2,352
    turn-and-river pairs)."""
    from seqform.certify import certify as certify_on_tree
    from seqform.questions.iterate import iterate

    game = spot_game(spot_from_mapping({**TINY, "effective_stack": 2}, "tiny"))
    tree = explicit_game(game)
    run = iterate(game, "cfr+", iterations=1, method="structured", reference=False)
    assert run.certificate is not None
    first, second = run.result.strategies
    theirs = certify_on_tree(
        tree,
        behaviour_from_mapping(tree.flat.tables[0], first.as_dict()),
        behaviour_from_mapping(tree.flat.tables[1], second.as_dict()),
    )
    assert float(run.certificate.nash_conv) == pytest.approx(float(theirs.nash_conv), abs=1e-9)
    assert float(run.certificate.value) == pytest.approx(float(theirs.value), abs=1e-9)
    assert float(theirs.nash_conv) > 0.01  # one iteration is far from equilibrium: a real test


def test_the_walk_counts_the_numberings_sequences_and_infosets():
    """spot_size (one walk, nothing numbered) against the public numbering's own counts."""
    from seqform.game.public.numbering import number_public_tree
    from seqform.holdem.lp_work import spot_size
    from seqform.structured.responses import sequence_tables

    game = spot_game(spot_from_mapping({**TINY, "board": "Ks7h2d9c"}))
    counted = spot_size(game)
    numbering = number_public_tree(game)
    tables = sequence_tables(game)
    for player in (0, 1):
        assert counted.sequences[player] + 1 == numbering.num_sequences(player)
        assert counted.infosets[player] == len(tables[player].infosets)
    assert counted.combos == (2, 2)


def test_a_spot_too_big_to_number_is_refused_on_the_walks_count(monkeypatch):
    from seqform.holdem import lp_work

    game = spot_game(spot_from_mapping({**TINY, "board": "Ks7h2d9c"}))
    monkeypatch.setattr(lp_work, "NUMBERING_COUNTED_BYTES", 0)
    monkeypatch.setattr(lp_work, "SPOT_LP_VARIABLES", 10)
    with pytest.raises(lp_work.LPWorkRefusedError, match=r"at least [0-9,]+ variables \("):
        lp_work.refuse_slow_lp(game, "turn.toml")


@pytest.mark.parametrize(
    "mapping",
    [
        pytest.param({**TINY, "board": "Ks7h2d9c4s", "max_raises": 1}, id="river"),
        pytest.param({**TINY, "board": "Ks7h2d9c", "all_in": True}, id="turn"),
        pytest.param({**TINY, "effective_stack": 2}, id="flop-all-in-runouts"),
        pytest.param(
            {**TINY, "effective_stack": 4, "turn": {"donk_sizes": [0.25]}},
            id="flop-donk",
            marks=pytest.mark.slow,
        ),
    ],
)
def test_the_counted_public_tree_is_the_built_one(mapping):
    """public_counts and spot_tree_nodes (from the betting and ranges, nothing built)
    against the built public tree's numbering and tree_nodes on it."""
    from seqform.game.public.explicit import tree_nodes
    from seqform.game.public.numbering import number_public_tree
    from seqform.holdem.game import public_counts, spot_combos, spot_tree_nodes
    from seqform.holdem.lp_work import spot_size

    spot = spot_from_mapping(mapping, "counted")
    game = spot_game(spot)
    numbering = number_public_tree(game)
    counted = public_counts(spot)
    assert (counted.decisions, counted.chances, counted.leaves) == (
        numbering.num_public_nodes(0) + numbering.num_public_nodes(1),
        numbering.num_public_chance,
        numbering.num_leaves,
    )
    assert spot_tree_nodes(spot) == tree_nodes(game)
    walked = spot_size(game)  # what the numbering's memory estimate is made of
    assert counted.sequences == walked.public_sequences
    assert spot_combos(spot) == walked.combos


def _texassolver_flop() -> str:
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    return str(root / "benchmarks" / "spots" / "texassolver_flop.toml")


def _refuse_to_build(monkeypatch) -> None:
    """Building the spot's public tree raises: a refusal must come before it."""
    from seqform.holdem import game as holdem_game

    def built(*_args, **_kwargs):
        raise AssertionError("the spot's public tree was built before the refusal")

    monkeypatch.setattr(holdem_game, "spot_game", built)
    monkeypatch.setattr(holdem_game._Builder, "street", built)


def test_the_texassolver_flop_is_counted_without_building_it(monkeypatch):
    """Its public tree as docs/spots.md and lp_work's walk count it (379,031 decisions)."""
    from seqform.holdem.game import public_counts, spot_tree_nodes
    from seqform.holdem.spot import read_spot

    _refuse_to_build(monkeypatch)
    spot = read_spot(_texassolver_flop())
    counted = public_counts(spot)
    assert (counted.decisions, counted.chances, counted.leaves) == (379_031, 2_759, 651_175)
    assert spot_tree_nodes(spot) == 65_367_121_447


@pytest.mark.parametrize(
    "argv",
    [
        ["solve"],
        ["solve", "--method", "structured"],
        ["iterate", "--algorithm", "dcfr"],
        ["compare", "--no-solve"],
    ],
    ids=["solve", "solve-structured", "iterate", "compare-sizes"],
)
def test_a_flop_whose_numbering_will_not_fit_is_refused_before_its_tree_is_built(
    argv, monkeypatch, capsys
):
    """solve and iterate built the flop's public tree (17 s; iterate twice) before the
    numbering's memory refusal; its counts now come from the betting and ranges."""
    from seqform.cli.main import main
    from seqform.routes.sizing import memory

    room = memory.MemoryAvailable(8 * 2**30, "a test limit")
    monkeypatch.setattr(memory, "available_memory", lambda: room)
    _refuse_to_build(monkeypatch)
    assert main([argv[0], _texassolver_flop(), *argv[1:]]) == 1
    error = capsys.readouterr().err
    # 56 bytes × (225 × (450,038 + 379,031) + 310 × (450,479 + 379,031)) + 150 MiB, in GiB;
    # the public sequences as spot_size's walk of the built tree counted them (2026-11-28)
    assert "the public numbering (379,031 public decisions × 225 and 310 combos)" in error
    assert "needs about 23.3 GB (estimated), more than the 8.0 GB" in error
    assert "use narrower ranges or fewer sizes, or --force" in error


@pytest.mark.parametrize("command", ["compare", "ranges"])
def test_the_texassolver_flop_is_refused_before_its_tree_is_built(command, monkeypatch, capsys):
    """compare and ranges on the flop built its public tree and numbered it (40 s) before
    the 5,000,000-node refusal; the count now comes from its betting and ranges."""
    from seqform.cli.main import main

    _refuse_to_build(monkeypatch)
    assert main([command, _texassolver_flop()]) == 1
    error = capsys.readouterr().err
    assert "65,367,121,447 nodes, more than the 5,000,000 seqform builds" in error


# A turn spot of three combos a side, small enough to build its tree for the check.
TURN_SPOT = """\
board = "Ks7h2d3c"
pot = 2
effective_stack = 6
oop_range = "AhAd,KhQh,JcTc"
ip_range = "AsKd,QdQc,9s9h"
bet_sizes = [1]
max_raises = 0
all_in = false
"""


def _turn_file(folder) -> str:
    path = folder / "turn.toml"
    path.write_text(TURN_SPOT, encoding="utf-8")
    return str(path)


def test_compare_no_solve_sizes_a_spot_as_its_tree_does(tmp_path):
    """compare --no-solve on a spot file counted from its public tree × combos, checked
    against the sequence form of its tree, built here (834 information sets a player)."""
    from seqform.questions.compare import compare
    from seqform.questions.formula_sizes import known_sizes

    path = _turn_file(tmp_path)
    sizes = known_sizes(path)
    from_tree = compare(path, solve_lps=False)
    assert sizes is not None
    assert sizes.infosets == tuple(table.num_infosets for table in from_tree.form.players)
    assert sizes.sequences == tuple(table.num_sequences for table in from_tree.form.players)
    assert sizes.payoff_nonzeros == from_tree.form.A.nnz > 0
    assert sizes.counts == from_tree.counts
    assert sizes.structured_payoff_nonzeros is not None and sizes.structured_payoff_nonzeros > 0
    assert sizes.tree_nodes >= from_tree.game.flat.num_nodes


def test_compare_no_solve_leaves_a_spots_lp_unbuilt_past_the_limit(tmp_path, monkeypatch, capsys):
    """A spot whose LP solve would refuse (here a limit of 10 variables) is sized without
    its LP; the text says so and the JSON has null."""
    import json

    from seqform.cli.main import main
    from seqform.holdem import lp_work

    monkeypatch.setattr(lp_work, "SPOT_LP_VARIABLES", 10)
    path = _turn_file(tmp_path)
    assert main(["compare", path, "--no-solve"]) == 0
    assert "its LP is larger than seqform solves for a spot" in capsys.readouterr().out
    assert main(["compare", path, "--no-solve", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["structured_payoff_nonzeros"] is None
    assert document["counted_by"] == "public tree"
    assert main(["compare", path, "--no-solve", "--force", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["structured_payoff_nonzeros"] > 0
