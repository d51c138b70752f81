"""Hold'em spot inputs: cards, ranges in players' notation, spot files, the street's betting
tree and showdown strength from the evaluator."""

from __future__ import annotations

from fractions import Fraction

import pytest

from seqform.holdem.betting import Bet, StreetEnd, street_tree
from seqform.holdem.cards import CardError, all_combos, card_id, card_text, parse_board
from seqform.holdem.ranges import (
    MAX_RANGE_CHARACTERS,
    RangeError,
    parse_range,
    remove_board,
)
from seqform.holdem.spot import MAX_SPOT_BYTES, SpotFileError, read_spot, spot_from_mapping
from seqform.holdem.strength import hand_values, showdown_levels

RIVER = {
    "board": "Ks7h2d9c4s",
    "pot": 10,
    "effective_stack": 100,
    "oop_range": "22+,A2s+,KQo,JdTd:0.5",
    "ip_range": "QQ+,AK",
    "bet_sizes": [0.5, 1.0],
    "raise_sizes": [1.0],
    "max_raises": 3,
}


def test_cards_round_trip_and_count():
    assert [card_text(card_id(text)) for text in ("2c", "Ah", "Td", "ks")] == [
        "2c",
        "Ah",
        "Td",
        "Ks",
    ]
    assert len(all_combos()) == 1326  # C(52, 2)
    assert len({frozenset(c) for c in all_combos()}) == 1326


@pytest.mark.parametrize(
    ("text", "size"),
    [
        # combos per class: 6 per pair, 4 suited, 12 offsuit (C(4,2), 4, 4*3)
        pytest.param("22+", 13 * 6, id="pairs"),
        pytest.param("A2s+", 12 * 4, id="suited-aces"),
        pytest.param("KQo", 12, id="offsuit"),
        pytest.param("AK", 16, id="suited-and-offsuit"),
        pytest.param("TT-77", 4 * 6, id="pair-dash"),
        pytest.param("A2s-A5s", 4 * 4, id="suited-dash"),
        pytest.param("K9o+", 4 * 12, id="offsuit-plus"),  # K9o KTo KJo KQo
        pytest.param("AhKh", 1, id="combo"),
        pytest.param("any", 1326, id="any"),
        pytest.param("22+,A2s+,KQo,JdTd:0.5", 78 + 48 + 12 + 1, id="spot-file-example"),
    ],
)
def test_range_sizes(text, size):
    assert len(parse_range(text)) == size


def test_range_weights_are_exact_and_later_items_override():
    hand_range = parse_range("AKs, AhKh:0.1")
    weights = dict(zip(hand_range.labels(), hand_range.weights, strict=True))
    assert weights["AhKh"] == Fraction(1, 10)  # exact, not the float 0.1
    assert weights["AsKs"] == 1
    assert len(parse_range("QQ, QhQd:0")) == 5  # weight 0 removes the combo


@pytest.mark.parametrize(
    ("text", "words"),
    [
        pytest.param("AKx", "'AKx' is not range notation", id="notation"),
        pytest.param("AK:2", "not between 0 and 1", id="weight-range"),
        pytest.param("AK:x", "'x' is not a number", id="weight-text"),
        pytest.param("AK:", "a weight follows ':'", id="weight-missing"),
        pytest.param("AsAs", "As appears twice", id="same-card"),
        pytest.param("22+,,AK", "empty item", id="empty-item"),
        pytest.param("", "no combo", id="empty"),
        pytest.param("AA:0.1,AA", "'AA' repeats 'AA:0.1'", id="duplicate"),
        pytest.param("KK,AhKh,KhAh", "'KhAh' repeats 'AhKh'", id="duplicate-combo"),
    ],
)
def test_unreadable_ranges_name_the_item(text, words):
    with pytest.raises(RangeError, match=words):
        parse_range(text)


def test_a_range_too_long_is_refused_before_it_is_read():
    text = "AA," * (MAX_RANGE_CHARACTERS // 3 + 1)  # would be refused as duplicates if read
    with pytest.raises(RangeError, match=f"{len(text):,} characters; a range is at most"):
        parse_range(text)


def test_board_cards_remove_combos():
    board = parse_board("Ks7h2d9c4s")
    assert len(remove_board(parse_range("any"), board, "oop_range")) == 1081  # C(47, 2)
    with pytest.raises(RangeError, match="oop_range: every combo"):
        remove_board(parse_range("KsQs"), board, "oop_range")


@pytest.mark.parametrize(
    "board", ["Ks7h", "Ks7h2d9c4s3c", "Ks7h2dKs", "Ks7h2d9x"], ids=["2", "6", "twice", "bad"]
)
def test_impossible_boards_are_refused(board):
    with pytest.raises(CardError):
        parse_board(board)


def test_spot_file_reads_exact_numbers(tmp_path):
    path = tmp_path / "river.toml"
    path.write_text(
        'board = "Ks7h2d9c4s"\npot = 10\neffective_stack = 100\n'
        'oop_range = "22+,A2s+,KQo,JdTd:0.5"\nip_range = "QQ+,AK"\n'
        "bet_sizes = [0.75, 1.0]\nraise_sizes = [1.0]\nmax_raises = 2\n"
    )
    spot = read_spot(path)
    assert spot.street == "river"
    sizes = (Fraction(3, 4), Fraction(1))
    assert spot.bet_sizes == (sizes, sizes)  # OOP's and IP's: the shared bet_sizes
    assert spot.raise_sizes == ((Fraction(1),), (Fraction(1),))
    assert spot.max_raises == 2 and spot.all_in
    assert len(spot.ranges[1]) == 6 + 6 + 3 + 12  # QQ, AA, KK less Ks, AK less AKs-of-Ks


@pytest.mark.parametrize(
    ("change", "words"),
    [
        pytest.param({"pot": 0}, "pot must be greater than 0", id="pot"),
        pytest.param({"bet_sizes": [0.5, -1]}, r"bet_sizes\[1\] must be greater", id="size"),
        pytest.param({"board": "Ks7h"}, "board: board 'Ks7h' has 2 cards", id="board"),
        pytest.param({"oop_range": "AKx"}, "oop_range: range item 'AKx'", id="range"),
        pytest.param({"bet_size": [1]}, "did you mean 'bet_sizes'", id="unknown-key"),
        pytest.param({"max_raises": -1}, "max_raises must be a whole number", id="raises"),
        pytest.param({"max_raises": 51}, "max_raises must be at most 50, not 51", id="raises-cap"),
        pytest.param({"ip_range": "KsQs"}, "ip_range: every combo", id="blocked"),
        pytest.param({"pot": float("inf")}, "pot must be a finite number", id="inf"),
        pytest.param({"effective_stack": float("nan")}, "effective_stack must be a fin", id="nan"),
        pytest.param({"bet_sizes": [float("inf")]}, r"bet_sizes\[0\] must be a fin", id="size-inf"),
        pytest.param({"pot": 1e308}, "pot must be at most 1e.15 chips", id="pot-huge"),
        # a float LP certified within 1e-9 of the all-in's range was half a pot off here
        pytest.param(
            {"effective_stack": 1e10}, "at most 10,000 times the pot, not 1e.09 times", id="spr"
        ),
        pytest.param({"pot": 1e-12, "effective_stack": 30}, "not 3e.13 times", id="tiny-pot"),
    ],
)
def test_bad_spots_are_one_clear_line(change, words):
    data = {**RIVER, **change}
    with pytest.raises(SpotFileError, match=words):
        spot_from_mapping(data, "river.toml")


def test_a_stack_of_ten_thousand_pots_is_a_spot():
    spot = spot_from_mapping({**RIVER, "effective_stack": 100_000}, "deep.toml")
    assert spot.effective_stack == 10_000 * spot.pot


def test_spot_file_nested_too_deeply_is_one_line(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("bet_sizes = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(SpotFileError, match=r"deep\.toml: arrays or tables nested too deeply"):
        read_spot(path)


def test_spot_file_too_large_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.toml"
    with path.open("wb") as file:  # sparse: no disk used, and not TOML if it were read
        file.truncate(MAX_SPOT_BYTES + 1)
    with pytest.raises(SpotFileError, match=f"{MAX_SPOT_BYTES + 1:,} bytes; a spot file is"):
        read_spot(path)


def test_spot_file_that_is_not_toml_names_the_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('board = "Ks7h2d9c4s"\npot = = 10\n')
    with pytest.raises(SpotFileError, match=r"line 2"):
        read_spot(path)


def _lines(node, history=()):
    if isinstance(node, StreetEnd):
        yield history, node
        return
    for action, child in zip(node.actions, node.children, strict=True):
        yield from _lines(child, (*history, action))


def test_street_tree_sizes_and_payoff_bookkeeping():
    tree = street_tree(
        Fraction(10), Fraction(100), (Fraction(1, 2), Fraction(1)), (Fraction(1),), 3
    )
    assert isinstance(tree, Bet)
    assert tree.actions == ("x", "b5", "b10", "b100")  # half pot, pot, all-in
    ends = dict(_lines(tree))
    # b5 then a pot raise: to 5 + (10 + 5 + 5) = 25 (raise sizes are of the pot after the call)
    assert ("b5", "r25") in {line[:2] for line in ends}
    assert ends[("x", "x")] == StreetEnd(None, (0, 0), False)
    assert ends[("b10", "f")] == StreetEnd(1, (10, 0), False)
    assert ends[("b100", "c")] == StreetEnd(None, (100, 100), True)
    for line, end in ends.items():
        assert max(end.put_in) <= 100
        if end.folded is None:
            assert end.put_in[0] == end.put_in[1], line


def test_minimum_raise_and_raise_cap():
    # a tiny raise size is lifted to the minimum raise (by at least the last bet)
    tree = street_tree(Fraction(10), Fraction(100), (Fraction(1),), (Fraction(1, 100),), 1)
    after_bet = tree.children[tree.actions.index("b10")]
    assert isinstance(after_bet, Bet)
    assert after_bet.actions == ("f", "c", "r20", "r100")
    reraise = after_bet.children[after_bet.actions.index("r20")]
    assert isinstance(reraise, Bet)
    assert reraise.actions == ("f", "c")  # max_raises = 1 reached


def _decisions(node):
    return isinstance(node, Bet) and 1 + sum(_decisions(child) for child in node.children)


@pytest.mark.parametrize("limit", [15, 16])
def test_a_street_is_counted_before_it_is_built_and_refused_past_the_limit(limit):
    """The street's decisions are counted (seqform.holdem.betting._decisions) before the
    tree is built: a street of exactly the limit is built, one above it is refused."""
    from seqform.game.errors import TreeTooLargeError

    shape = (Fraction(10), Fraction(100), (Fraction(1, 2), Fraction(1)), (Fraction(1),), 1)
    if limit == 15:
        with pytest.raises(TreeTooLargeError, match="more than 15 decisions"):
            street_tree(*shape, max_decisions=limit)
    else:
        assert _decisions(street_tree(*shape, max_decisions=limit)) == 16


def test_many_small_sizes_and_raises_are_refused_naming_the_street(monkeypatch):
    """Three bet and two raise sizes of 1 to 3 % of the pot with 50 raises: the river's tree
    has more decisions than atoms in the universe, and building it ran until the machine's
    memory was gone.  It is refused from the count, naming the spot and the street (the
    limit lowered from LIMITS.street_decisions, whose count takes a few seconds)."""
    from seqform.game.errors import TreeTooLargeError
    from seqform.holdem.game import spot_game

    assert street_tree.__kwdefaults__["max_decisions"] == 100_000
    monkeypatch.setitem(street_tree.__kwdefaults__, "max_decisions", 1_000)
    data = {**RIVER, "bet_sizes": [0.01, 0.02, 0.03], "raise_sizes": [0.01, 0.02]}
    spot = spot_from_mapping({**data, "max_raises": 50}, "small.toml")
    with pytest.raises(TreeTooLargeError, match=r"small\.toml: the river: .* more than 1,000"):
        spot_game(spot)


def test_evaluator_orders_hands_like_an_independent_one():
    phevaluator = pytest.importorskip("phevaluator")
    board = parse_board("Ks7h2d9c4s")
    combos = remove_board(parse_range("any"), board, "range").combos
    values = hand_values(board, combos)
    texts = [card_text(card) for card in board]
    other = [phevaluator.evaluate_cards(*texts, card_text(a), card_text(b)) for a, b in combos]
    # eval7: higher is better; phevaluator: lower is better (a different evaluator agrees)
    for i in range(0, len(combos) - 1, 7):
        for j in range(i + 1, len(combos), 53):
            assert (values[i] > values[j]) == (other[i] < other[j])
            assert (values[i] == values[j]) == (other[i] == other[j])


def test_levels_compare_across_players():
    board = parse_board("Ks7h2d9c4s")
    first = remove_board(parse_range("KK,77"), board, "oop").combos
    second = remove_board(parse_range("AK,99"), board, "ip").combos
    levels0, levels1 = showdown_levels(board, first, second)
    # sets of kings beat nines, which beat a pair of kings with an ace kicker
    kings = levels0[[i for i, c in enumerate(first) if c[0] // 4 == 11]]
    nines = levels1[[i for i, c in enumerate(second) if c[0] // 4 == 7]]
    ace_king = levels1[[i for i, c in enumerate(second) if c[0] // 4 == 12]]
    assert kings.min() > nines.max() > ace_king.max()


MONTE_CARLO_SAMPLES = 400_000
MONTE_CARLO_TOLERANCE = 0.005  # over 6 standard deviations: sqrt(1/4 / 400,000) = 0.00079


@pytest.mark.parametrize(
    ("board", "oop_range", "ip_range"),
    [
        pytest.param("Ks7h2d9c4s", "AA,AKs,QQ,JhTh,99,87s", "KK,AQo,QJs,77,T8s", id="river"),
        pytest.param("Ks7h2d9c", "AA,AhKh,QJs,88,T8s", "AsKs,KhQh,9h8h,JJ,65s", id="turn"),
    ],
)
@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # eval7's range parser, pyparsing 3.2
def test_showdown_equities_match_the_evaluators_equity(board, oop_range, ip_range):
    """Each combo's equity read off the spot's game (its check-down showdowns, card removal
    and, on the turn, the 44 river cards) against eval7's own hand-versus-range equity,
    which enumerates the opponent's combos and deals the missing cards itself.  On the river
    that is its exact function; on the turn its Monte Carlo one, within a tolerance of six
    standard deviations: eval7 0.1.11's exact function does not enumerate a four-card board
    correctly (8d8c against AsKs,KhQh,9h8h,JJ,65s on Ks7h2d9c: it gives 1/3, while averaging
    eval7.evaluate over the 12 combos and 44 rivers gives 0.34659 and its Monte Carlo 0.347).
    Ranges are unweighted: eval7's equity treats every combo of a range alike."""
    from seqform.holdem.equity import showdown_equities
    from seqform.holdem.game import spot_game
    from seqform.holdem.spot import spot_from_mapping
    from seqform.holdem.strength import load_eval7

    eval7 = load_eval7()
    spot = spot_from_mapping(
        {
            "board": board,
            "pot": 10,
            "effective_stack": 10,
            "oop_range": oop_range,
            "ip_range": ip_range,
            "bet_sizes": [1],
        }
    )
    game = spot_game(spot)
    public = [eval7.Card(card_text(card)) for card in spot.board]
    river = len(spot.board) == 5
    for player in (0, 1):
        villain = eval7.HandRange((ip_range, oop_range)[player])
        ours = showdown_equities(game, player)
        for combo, equity in zip(spot.ranges[player].combos, ours, strict=True):
            hand = [eval7.Card(card_text(card)) for card in combo]
            if river:  # eval7 returns a C float (single precision)
                theirs = eval7.py_hand_vs_range_exact(hand, villain, public)
                assert equity == pytest.approx(theirs, abs=1e-6), combo
            else:
                theirs = eval7.py_hand_vs_range_monte_carlo(
                    hand, villain, public, MONTE_CARLO_SAMPLES
                )
                assert equity == pytest.approx(theirs, abs=MONTE_CARLO_TOLERANCE), combo
