"""Validation of game trees: every error class names the node or information set; and the
names of games (built-in specs, files) that are mistyped get a message saying what to write."""

from fractions import Fraction

import pytest

from seqform.forms.sequence_form import build_sequence_form
from seqform.game.builtin.kuhn import kuhn_poker
from seqform.game.builtin.registry import build_builtin_game, load_structured_game, parse_game_spec
from seqform.game.errors import GameParameterError, InvalidGameError, UnknownGameError
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Terminal, walk
from seqform.io.loader import load_game


def leaf(u: int) -> Terminal:
    return Terminal((Fraction(u), Fraction(-u)))


def test_kuhn_is_valid_and_walk_visits_every_node():
    game = kuhn_poker()
    nodes = list(walk(game.root))
    terminals = [n for n, _ in nodes if isinstance(n, Terminal)]
    assert len(terminals) == 30  # 6 deals × 5 terminal histories (Kuhn 1950)
    assert nodes[0][1] == ()
    assert nodes[1][1] == ("JQ",)


def test_invalid_game_error_is_a_value_error():
    assert issubclass(InvalidGameError, ValueError)


def test_chance_probabilities_must_sum_to_one():
    root = Chance(("h", "t"), (Fraction(1, 2), Fraction(1, 3)), (leaf(1), leaf(-1)))
    with pytest.raises(InvalidGameError, match=r"chance node 'root': probabilities sum to 5/6"):
        Game("bad", root)


def test_chance_probabilities_must_be_exact():
    root = Chance(("h", "t"), (0.5, 0.5), (leaf(1), leaf(-1)))
    with pytest.raises(InvalidGameError, match="not exact"):
        Game("bad", root)


def test_negative_probability_is_named():
    root = Chance(("h", "t"), (Fraction(3, 2), Fraction(-1, 2)), (leaf(1), leaf(-1)))
    with pytest.raises(InvalidGameError, match=r"outcome 't' has negative probability"):
        Game("bad", root)


def test_not_zero_sum_names_the_terminal():
    # A general-sum tree is a valid game (CFR runs on it): the sequence-form LP refuses it
    # at its entry, not the Game when it is made.
    root = Decision(0, "I", ("l", "r"), (leaf(1), Terminal((Fraction(1), Fraction(1)))))
    game = Game("general", root)
    assert game.flat.not_zero_sum == 1
    with pytest.raises(InvalidGameError, match=r"not zero-sum: terminal node 'r' .* sum to 2"):
        build_sequence_form(game)


def test_three_players_refused_at_a_terminal():
    # A three-player tree is a valid game; the LP entry refuses it, naming why.
    root = Decision(0, "I", ("l",), (Terminal((Fraction(1), Fraction(-1), Fraction(0))),))
    game = Game("three", root)
    assert game.num_players == 3
    assert game.player_names == ("Player 1", "Player 2", "Player 3")
    with pytest.raises(
        InvalidGameError,
        match=r"the sequence-form LP needs two players, zero-sum: three is a three-player "
        r"game \(terminal node 'l' has payoffs for 3 players\)",
    ):
        build_sequence_form(game)


def test_payoff_counts_must_agree():
    root = Decision(0, "I", ("l", "r"), (leaf(1), Terminal((Fraction(1),) * 3)))
    with pytest.raises(InvalidGameError, match=r"terminal node 'r' has payoffs for 3 players, "):
        Game("bad", root)


def test_one_payoff_is_not_a_game():
    with pytest.raises(InvalidGameError, match=r"at least two players"):
        Game("bad", Decision(0, "I", ("l",), (Terminal((Fraction(1),)),)))


def test_player_names_must_match_the_player_count():
    root = Decision(0, "I", ("l",), (Terminal((Fraction(1), Fraction(-1), Fraction(0))),))
    with pytest.raises(InvalidGameError, match=r"3 players but 2 player names"):
        Game("bad", root, player_names=("A", "B"))


def test_three_players_refused_at_a_decision():
    root = Decision(2, "I", ("l",), (leaf(0),))
    with pytest.raises(InvalidGameError, match=r"'root' belongs to player 3; .*two-player"):
        Game("bad", root)


def test_infoset_with_two_players_is_named():
    root = Chance(
        ("a", "b"),
        (Fraction(1, 2), Fraction(1, 2)),
        (
            Decision(0, "X", ("l", "r"), (leaf(1), leaf(2))),
            Decision(1, "X", ("l", "r"), (leaf(1), leaf(2))),
        ),
    )
    with pytest.raises(InvalidGameError, match=r"information set 'X' has nodes of player 1"):
        Game("bad", root)


def test_infoset_with_different_actions_is_named():
    root = Chance(
        ("a", "b"),
        (Fraction(1, 2), Fraction(1, 2)),
        (
            Decision(0, "X", ("l", "r"), (leaf(1), leaf(2))),
            Decision(0, "X", ("l", "m"), (leaf(1), leaf(2))),
        ),
    )
    with pytest.raises(InvalidGameError, match=r"information set 'X' offers actions"):
        Game("bad", root)


def test_imperfect_recall_is_named():
    # Player 1 forgets her first move: both of its results lead to information set 'Y'
    # (perfect recall as defined by Kuhn 1953 fails).
    second = Decision(0, "Y", ("l", "r"), (leaf(1), leaf(2)))
    root = Decision(0, "X", ("a", "b"), (second, second))
    with pytest.raises(
        InvalidGameError,
        match=r"imperfect recall: player 1 reaches information set 'Y' after different own "
        r"sequences \(X:a at 'a' and X:b at 'b'\)",
    ):
        Game("bad", root)


def test_forgetting_a_chance_outcome_is_allowed():
    # Not seeing chance is imperfect information, not imperfect recall.
    inner = Decision(0, "Y", ("l", "r"), (leaf(1), leaf(-1)))
    root = Chance(("a", "b"), (Fraction(1, 2), Fraction(1, 2)), (inner, inner))
    Game("fine", root)


def test_action_and_children_counts_must_match():
    root = Decision(0, "X", ("a", "b"), (leaf(1),))
    with pytest.raises(InvalidGameError, match=r"'root' .* has 2 actions but 1 children"):
        Game("bad", root)


def test_repeated_action_is_named():
    root = Decision(0, "X", ("a", "a"), (leaf(1), leaf(2)))
    with pytest.raises(InvalidGameError, match=r"information set 'X' repeats an action"):
        Game("bad", root)


def test_non_exact_payoff_is_refused():
    root = Decision(0, "X", ("a",), (Terminal((0.5, -0.5)),))
    with pytest.raises(InvalidGameError, match="payoffs must be exact"):
        Game("bad", root)


def test_deep_game_needs_no_recursion():
    node = leaf(1)
    for depth in range(5000):
        node = Decision(depth % 2, f"I{depth}", ("go",), (node,))
    Game("deep", node)


def test_game_spec_names_are_lower_case_and_values_literal():
    assert parse_game_spec("Leduc(ranks=4, suit_isomorphism=True)") == (
        "leduc",
        {"ranks": 4, "suit_isomorphism": True},
    )
    with pytest.raises(GameParameterError, match=r"'ranks' is given twice$"):
        parse_game_spec("leduc(ranks=4, ranks=5)")
    with pytest.raises(GameParameterError, match=r"x takes a number, a string, True or False"):
        parse_game_spec("anything(x=y)")
    with pytest.raises(GameParameterError, match=r"not '\{\[1\]: 2\}'$"):
        parse_game_spec("kuhn(cards={[1]: 2})")


@pytest.mark.parametrize(
    "spec",
    ["kuhn(cards=7)()", "kuhn(cards=3)(cards=4)", "kuhn()(cards=7)", "kuhn(cards=3) (cards=7)"],
)
def test_a_call_of_a_call_is_not_a_game(spec):
    """Read as Python, ``kuhn(cards=7)()`` is a call of a call: its inner parameters were
    dropped and 3-card Kuhn solved (found by a bad-input campaign)."""
    with pytest.raises(GameParameterError, match=r"cannot read game .*: write NAME or NAME\("):
        parse_game_spec(spec)


def test_a_tree_parameter_on_the_structured_route_says_whose_it_is():
    """``seqform games`` lists ``leduc(..., suit_isomorphism=False, ...)``; on the
    structured route the message said the game had no such parameter (campaign).  At the
    tree's default it is the same game, which the structured route describes."""
    with pytest.raises(GameParameterError, match=r"'suit_isomorphism' is a parameter of its tree"):
        load_structured_game("leduc(suit_isomorphism=True)")
    default = load_structured_game("leduc(ranks=4, suit_isomorphism=False)")
    assert default.name == load_structured_game("leduc(ranks=4)").name


def test_builtin_game_messages():
    with pytest.raises(UnknownGameError, match=r"did you mean liars_dice\?"):
        build_builtin_game("liarsdice")
    with pytest.raises(UnknownGameError, match=r"^unknown game 'texas'; known games"):
        build_builtin_game("texas")
    with pytest.raises(GameParameterError, match=r"True or False \(default False\), not 'yes'$"):
        build_builtin_game("leduc(suit_isomorphism=yes)")
    with pytest.raises(UnknownGameError, match=r"did you mean kuhn\?"):
        load_structured_game("kuhnn")


def test_loader_refuses_a_directory_and_ignores_over_long_names(tmp_path):
    with pytest.raises(IsADirectoryError, match="is a directory"):
        load_game(str(tmp_path))
    with pytest.raises(UnknownGameError, match=r"\(300 characters\)"):
        load_game("y" * 300)
