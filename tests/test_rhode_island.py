"""Rhode Island hold'em (Shi and Littman 2001; rules of Gilpin and Sandholm, EC 2006 and
JACM 2007): the three-card ranking, the sizes by formula, the two routes on small decks."""

import json
import math
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from seqform.base.counts import count_log10
from seqform.cli.main import main
from seqform.forms.normal_counts import strategy_counts
from seqform.forms.sequence_form import build_sequence_form
from seqform.game.builtin.catalogue import builtin_games
from seqform.game.builtin.labels import grammar_name
from seqform.game.builtin.registry import GAMES, STRUCTURED_GAMES, builtin_tree_nodes
from seqform.game.builtin.rhode_island import (
    card_labels,
    rhode_island,
    rhode_island_structured,
    rhode_island_words,
)
from seqform.game.builtin.rhode_island_sizes import (
    rhode_island_counts,
    rhode_island_sizes,
    rhode_island_suit_reduced_sizes,
)
from seqform.game.builtin.three_card_hands import hand_category, hand_level
from seqform.game.errors import TreeTooLargeError
from seqform.game.public.numbering import number_public_tree
from seqform.io.documents import validate_document
from seqform.io.loader import load_game
from seqform.routes.sizing.planned import planned_size
from seqform.routes.solve import solve
from seqform.structured.reductions.suit_reduction import reduce_by_suits

SMALLEST = "rhode_island(ranks=2, suits=2, max_bets=1)"  # 4 cards: every card is dealt


def _level(*cards: str) -> int:
    faces = tuple("23456789TJQKA".index(card[0]) for card in cards)
    suits = tuple("shdc".index(card[1]) for card in cards)
    return hand_level(faces, suits)  # type: ignore[arg-type]


def test_three_card_frequencies_of_a_52_card_deck():
    counts = Counter(
        hand_category(hand_level(tuple(c // 4 for c in hand), tuple(c % 4 for c in hand)))
        for hand in combinations(range(52), 3)
    )
    # Wikipedia, "Three card poker", hand frequencies (also Wizard of Odds, "Three Card
    # Poker"): 22,100 hands.
    assert counts == {
        "straight flush": 48,
        "three of a kind": 52,
        "straight": 720,
        "flush": 1_096,
        "pair": 3_744,
        "high card": 16_440,
    }


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        (("2s", "3s", "4s"), ("As", "Ah", "Ad")),  # straight flush > trips
        (("2s", "2h", "2d"), ("Qs", "Kh", "Ad")),  # trips > straight
        (("2s", "3h", "4d"), ("2s", "7s", "9s")),  # straight > flush (not Texas hold'em's)
        (("2s", "7s", "9s"), ("As", "Ah", "Kd")),  # flush > pair
        (("2s", "2h", "3d"), ("As", "Kh", "Jd")),  # pair > high card
        (("2s", "3h", "4d"), ("As", "2h", "3d")),  # A-2-3 is the lowest straight
        (("Qs", "Kh", "Ad"), ("Js", "Qh", "Kd")),  # Q-K-A the highest
        (("As", "Kh", "2d"), ("As", "Qh", "Jd")),  # K-A-2 is no straight: ace-king high
        (("5s", "5h", "3d"), ("5s", "5h", "2d")),  # the odd card breaks a pair's tie
        (("As", "8s", "3s"), ("Ah", "7h", "6h")),  # flushes: from the highest card down
    ],
)
def test_hands_are_ranked_by_category_then_cards(better, worse):
    assert _level(*better) > _level(*worse)


def test_equal_hands_split():
    assert _level("As", "Kh", "7d") == _level("Ad", "Kc", "7s")
    assert _level("As", "2h", "3d") == _level("Ah", "2s", "3c")


def test_a_short_deck_keeps_the_highest_ranks_and_numbers_cards_as_leduc():
    assert card_labels(3, 2) == ("Qs", "Qh", "Ks", "Kh", "As", "Ah")  # rank · suits + suit
    game = rhode_island_structured(ranks=3, suits=2)
    assert game.hands[0].labels == card_labels(3, 2)
    assert game.hands[0].cards.tolist() == list(range(6))


def test_full_game_lp_rows_match_gilpin_and_sandholm():
    sizes = rhode_island_sizes()
    # Gilpin and Sandholm, "Lossless abstraction of imperfect information games", JACM 54(5)
    # 2007, section 6 (and EC 2006): the sequence-form LP of Rhode Island hold'em has
    # 91,224,226 rows (one player's sequences + the other's information sets + 1).
    assert sizes.lp_rows(0) == sizes.lp_rows(1) == 91_224_226
    assert sizes.sequences == (65_160_161, 65_160_161)
    assert sizes.infosets == (26_064_064, 26_064_064)
    # Gilpin and Sandholm: "over 3.1 billion nodes"; the tree as seqform writes it (chance
    # nodes and terminals included) has more.
    assert sizes.tree_nodes > 3_100_000_000
    assert builtin_tree_nodes("rhode_island") == sizes.tree_nodes


@pytest.mark.parametrize(
    "parameters",
    [
        pytest.param({"ranks": 2, "suits": 2, "max_bets": 1}, id="4-cards-1-bet"),
        pytest.param({"ranks": 4, "suits": 1, "max_bets": 2}, id="1-suit-2-bets"),
    ],
)
def test_formula_sizes_are_the_built_trees(parameters):
    sizes = rhode_island_sizes(**parameters)
    game = rhode_island(**parameters)
    assert game.flat.num_nodes == sizes.tree_nodes
    assert tuple(t.num_infosets for t in game.flat.tables) == sizes.infosets
    assert tuple(t.num_sequences for t in game.flat.tables) == sizes.sequences
    numbering = number_public_tree(rhode_island_structured(**parameters))
    assert (numbering.num_sequences(0), numbering.num_sequences(1)) == sizes.sequences
    assert (numbering.num_infosets(0), numbering.num_infosets(1)) == sizes.infosets


def test_the_public_walk_skips_the_card_already_dealt():
    """spot_size's walk (seqform.holdem.lp_work) counts the public tree the game reaches, as
    the numbering does.  By hand, with 4 cards and one bet a round: round one ends without a
    fold 3 ways (cc, crc, rc), each dealing the first card of 4, and each of those 12 rounds
    ends without a fold 3 ways: 3 + 36 public chance nodes.  Each of the 36 second-card
    chance nodes lists the first card again, with a leaf standing for a round never reached
    (rhode_island's _Betting.round): the walk counted those 36 leaves (602, the numbering
    566); on 3 ranks of 2 suits, 32,067 public nodes against the numbering's 31,773."""
    from seqform.game.public.explicit import nodes_per_deal
    from seqform.holdem.lp_work import spot_size

    game = rhode_island_structured(ranks=2, suits=2, max_bets=1)
    numbering = number_public_tree(game)
    counted = spot_size(game)
    assert counted.public_chances == numbering.num_public_chance == 3 + 36
    assert counted.public_leaves == numbering.num_leaves
    assert counted.public_decisions == sum(numbering.num_public_nodes(p) for p in (0, 1))
    for player in (0, 1):
        assert counted.sequences[player] + 1 == numbering.num_sequences(player)
        assert counted.infosets[player] == numbering.num_infosets(player)
    larger = rhode_island_structured(ranks=3, suits=2)
    walked = spot_size(larger)
    nodes = walked.public_decisions + walked.public_chances + walked.public_leaves
    assert nodes == nodes_per_deal(larger) == 31_773


def test_information_sets_and_words():
    game = load_game(SMALLEST)
    names = set(game.flat.tables[0].infosets) | set(game.flat.tables[1].infosets)
    assert {"As|", "As|c", "As|cc|Kh|", "As|cc|Kh|r", "As|cc|Kh|cc|Ks|", "As|rc|Kh|rc|Ah|r"} <= (
        names
    )
    assert grammar_name(game) == "rhode_island"
    assert rhode_island_words("As|cc|Kh|r", "c") == "call"
    assert rhode_island_words("As|cc|Kh|", "r") == "bet"


def test_tree_and_structured_routes_agree_and_are_certified():
    spec = "rhode_island(ranks=4, suits=1, max_bets=1)"  # J Q K A of one suit
    tree = solve(spec, method="tree")
    structured = solve(spec, method="structured")
    assert tree.value == pytest.approx(structured.value, abs=1e-9)
    # seqform's exact LP (solve --exact) on this deck: -1/6, certified by exact best responses.
    assert tree.value == pytest.approx(float(Fraction(-1, 6)), abs=1e-9)
    assert tree.nash_conv == pytest.approx(0, abs=1e-9)
    assert structured.nash_conv == pytest.approx(0, abs=1e-9)


def test_registered_and_listed():
    assert GAMES["rhode_island"] is rhode_island
    assert STRUCTURED_GAMES["rhode_island"] is rhode_island_structured
    assert load_game(SMALLEST).name == SMALLEST
    listed = {game.name: game for game in builtin_games()}["rhode_island"]
    assert listed.parameters == (
        "ranks=13",
        "suits=4",
        "ante=5",
        "bets=(10, 20, 20)",
        "max_bets=3",
    )


@pytest.mark.parametrize(
    ("parameters", "message"),
    [
        ({"ranks": 1}, "ranks must be between 2 and 13, got 1"),
        ({"ranks": 14}, "ranks must be between 2 and 13, got 14"),
        ({"suits": 5}, "suits must be between 1 and 4, got 5"),
        ({"ranks": 3, "suits": 1}, "has 3 cards; two private cards and two public cards"),
        ({"ante": -1}, "ante must be >= 0, got -1"),
        ({"max_bets": 0}, "max_bets must be between 1 and 20, got 0"),
        ({"bets": (10, 20)}, "bets must be three positive integers"),
        ({"bets": (10, 0, 20)}, "bets must be three positive integers"),
        ({"ranks": "3"}, "ranks must be an integer"),
    ],
)
def test_invalid_parameters(parameters, message):
    with pytest.raises(ValueError, match=message):
        rhode_island_sizes(**parameters)
    with pytest.raises(ValueError, match=message):
        rhode_island_structured(**parameters)


def test_cli_refuses_bad_parameters_as_usage_errors(capsys):
    assert main(["solve", "rhode_island(suits=5)"]) == 2
    assert "suits must be between 1 and 4" in capsys.readouterr().err
    assert main(["solve", "rhode_island(bet=3)"]) == 2
    assert "did you mean bets?" in capsys.readouterr().err


def test_full_tree_is_refused_from_the_formula():
    # Numbering the full game's public tree takes minutes: the refusal must come first.
    with pytest.raises(TreeTooLargeError, match=r"6,705,372,545 nodes.*--method structured"):
        rhode_island()


def test_full_game_is_sized_by_formula_and_refused_at_once(capsys):
    size = planned_size("rhode_island")
    assert size is not None
    assert size.sequences == 2 * 65_160_161  # the formula, not minutes of numbering
    assert main(["solve", "rhode_island"]) == 1
    assert "130,320,322 sequences" in capsys.readouterr().err


@pytest.mark.parametrize(
    "parameters",
    [
        {"ranks": 4, "suits": 1, "max_bets": 1},
        {"ranks": 2, "suits": 2, "max_bets": 1, "ante": 0},  # folds and showdowns that pay 0
        {"ranks": 2, "suits": 3, "max_bets": 2},
    ],
)
def test_counts_by_formula_are_the_built_games(parameters):
    counts = rhode_island_counts(**parameters)
    form = build_sequence_form(rhode_island(**parameters))
    built = strategy_counts(form)
    for formula, exact in zip(
        counts.pure + counts.reduced, built.pure + built.reduced, strict=True
    ):
        assert count_log10(formula) == pytest.approx(count_log10(exact), abs=1e-9)
    assert counts.payoff_nonzeros == form.A.nnz


@pytest.mark.slow
def test_compare_no_solve_sizes_the_full_game_by_formula(capsys):
    assert main(["compare", "rhode_island", "--no-solve", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    validate_document(document)
    assert document["counted_by"] == "formula"
    sizes = rhode_island_sizes()
    assert [p["sequences"] for p in document["players"]] == list(sizes.sequences)
    # Gilpin and Sandholm (EC 2006, JACM 2007): 91,224,226 LP rows unabstracted,
    # 1,237,238 after GameShrink.
    assert document["sequence_form"]["lp"]["variables"] == 91_224_226
    lossless = document["lossless_abstraction"]
    assert lossless["steps"][0]["lp_rows"] == [91_224_226, 91_224_226]
    assert lossless["published_lp_rows"][1] == {"step": "GameShrink", "rows": 1_237_238}
    # A round (at most 3 bets) has 4 betting nodes per player, 2 of them facing a bet that
    # may be raised (3 actions), 2 with 2 actions, and ends in 7 ways (cc, rc, crc, rrc,
    # crrc, rrrc, crrrc); each node is an information set once per own card and board
    # seen, so each player has 2^(2v) 3^(2v) = 36^v pure strategies.
    views = 52 * (1 + 7 * 51 * (1 + 7 * 50))
    assert 4 * views == 26_064_064
    for player in document["players"]:
        assert player["pure_strategies"]["exact"] is None
        assert player["pure_strategies"]["log10"] == pytest.approx(views * math.log10(36))
    assert main(["compare", "rhode_island", "--no-solve"]) == 0
    out = capsys.readouterr().out
    assert "pure strategies          ≈ 10^10,140,892.0" in out
    assert "GameShrink (Gilpin and Sandholm 2007)        1,237,238" in out


@pytest.mark.parametrize(
    "parameters",
    [
        {"ranks": 2, "suits": 2, "max_bets": 1},
        {"ranks": 2, "suits": 3, "max_bets": 1},
        pytest.param({"ranks": 3, "suits": 4, "max_bets": 1}, marks=pytest.mark.slow),
    ],
)
def test_suit_reduced_sizes_by_formula_are_the_reductions(parameters):
    reduction = reduce_by_suits(rhode_island_structured(**parameters))
    assert reduction is not None
    formula = rhode_island_suit_reduced_sizes(**parameters)
    for built, counted in (
        (reduction.full, formula.full),
        (reduction.canonical_size, formula.canonical),
        (reduction.reduced, formula.reduced),
    ):
        assert (built.infosets, built.sequences) == (counted.infosets, counted.sequences)


@pytest.mark.slow
def test_exported_efg_solves_to_the_same_value_in_openspiel(tmp_path, monkeypatch):
    # An independent solver: OpenSpiel reads the exported file with its own .efg parser
    # (efg_game) and solves it with its own sequence-form LP
    # (open_spiel.python.algorithms.sequence_form_lp.solve_zero_sum_game).  pygambit 16.7's
    # lp_solve (also with rational=False, use_strategic=False) did not finish within 5
    # minutes on this 2,705-node file.  OpenSpiel's default LP solver, ECOS, may be missing:
    # its LinearProgram passes ECOS's options to any solver, so none are passed and cvxpy
    # is asked for HiGHS (as tests/test_liars_dice.py does).
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import lp_solver, sequence_form_lp

    solve_lp = lp_solver.LinearProgram.solve
    monkeypatch.setattr(
        lp_solver.LinearProgram,
        "solve",
        lambda self, solver: solve_lp(self, solver=solver, solver_kwargs={}),
    )
    spec = "rhode_island(ranks=4, suits=1, max_bets=1)"
    path = tmp_path / "rhode_island.efg"
    assert main(["export", spec, "--to", "efg", str(path)]) == 0
    game = pyspiel.load_game(f"efg_game(filename={path})")
    value = sequence_form_lp.solve_zero_sum_game(game, solver="HIGHS")[0]
    assert value == pytest.approx(solve(load_game(spec)).value, abs=1e-7)


def test_the_suit_reduced_lp_is_sized_by_its_own_size(monkeypatch) -> None:
    # rhode_island(ranks=6): 11,978,882 sequences, 867,842 after the suit reduction (both by
    # rhode_island_sizes' formulas, checked against the built reductions above).  With 8 GB
    # the unreduced LP (27 GB at 2,250 bytes a sequence) is refused, the reduced one (about
    # 3.5 GB: the game's tables and the reduced LP) is not; the full game is refused either way.
    from seqform.routes.policy import choose_route
    from seqform.routes.sizing import memory
    from seqform.routes.sizing.memory import MemoryAvailable, MemoryRefusedError

    monkeypatch.setattr(memory, "available_memory", lambda: MemoryAvailable(8 * 2**30, "a test"))
    size = planned_size("rhode_island(ranks=6)")
    assert size is not None and size.reduced_sequences == 867_842
    with pytest.raises(MemoryRefusedError, match="11,978,882 sequences"):
        choose_route("rhode_island(ranks=6)", "structured", suit_isomorphism=False)
    with pytest.raises(MemoryRefusedError, match="after suit isomorphism"):
        choose_route("rhode_island", "structured")
    small = rhode_island_structured(2, 2, max_bets=1)  # stands in for the 10-second build
    monkeypatch.setattr("seqform.routes.policy._structured_route", lambda game: small)
    assert choose_route("rhode_island(ranks=6)", "structured").structured is small
