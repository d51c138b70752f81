"""Rhode Island hold'em (Shi and Littman 2001), with the rules Gilpin and Sandholm state.

Rules (Gilpin and Sandholm, EC 2006 and JACM 2007; the defaults are theirs):

* The deck has ``ranks × suits`` cards (52 by default).  Each player antes ``ante`` (5) and
  is dealt one private card: chance deals player 1's card, then player 2's.
* Three betting rounds, each opened by player 1, with bets of ``bets`` = (10, 20, 20):
  a player not facing a bet checks (``c``) or bets (``r``); a player facing a bet folds
  (``f``), calls (``c``) or raises (``r``); a bet or raise puts in the amount to call plus
  the round's bet.  At most ``max_bets`` (3) bets and raises are made per round, the opening
  bet included.  A fold ends the game: the other player wins what the folder put in.
* After round 1 chance turns a public card, after round 2 a second one, each from the cards
  neither hand nor the board holds.
* Showdown after round 3: each player's hand is the private card and both public cards,
  ranked straight flush > three of a kind > straight > flush > pair > high card
  (:mod:`seqform.game.builtin.three_card_hands`); the better hand wins what the other put
  in, equal hands split the pot (payoff 0).

Deck.  The ranks are the ``ranks`` highest of ``2 … A``, so that the deck always holds the
ace: ``Q K A`` for 3 ranks, ``2 … A`` for 13.  Straights are three consecutive ranks of
``2 … A``, plus A-2-3 (the lowest) when the deck holds a 2 and a 3, which only the full 13
ranks do; there is no wrap-around (K-A-2 is not a straight).  With fewer than 3 ranks there
are no straights, with fewer than 3 suits no three of a kind.  Suits are ``s h d c``, and a
card is numbered ``rank · suits + suit`` (rank 0 the lowest), as Leduc's are, and named rank
then suit (``Ah``).

Information sets are named by what their owner has seen, fields separated by ``|``::

    CARD|R1                     round 1, e.g. "Ks|" (player 1 opens), "Ks|cr"
    CARD|R1|PUB1|R2             round 2, e.g. "Ks|rc|Qh|"
    CARD|R1|PUB1|R2|PUB2|R3     round 3, e.g. "Ks|rc|Qh|cc|As|r"

the betting in ``f``/``c``/``r`` (:func:`rhode_island_words` says fold, check, call, bet
or raise, as :func:`~seqform.game.builtin.leduc.leduc_words` does for Leduc, whose labels
these extend).

Sizes of the full game (:func:`rhode_island_sizes`, by formula): 26,064,064 information
sets and 65,160,161 sequences per player, so the sequence-form LP has
65,160,161 + 26,064,064 + 1 = 91,224,226 rows, the number Gilpin and Sandholm give (EC
2006, JACM 2007); the tree has 6,705,372,545 nodes (:func:`rhode_island_tree_nodes`; their
"over 3.1 billion" counts nodes otherwise).

The game is defined once, as public tree × private cards (:func:`rhode_island_structured`):
hands are the ``n`` cards with deal scale ``1/(n(n-1))``; the public tree is round 1, the
first public card (probability ``1/(n-2)``), round 2, the second public card (``1/(n-3)``),
round 3; a showdown is the :class:`~seqform.game.public.tree.Sign` of the hands' levels,
one pair of level arrays per unordered board, shared by every leaf after that board.
:func:`rhode_island` is its explicit tree, for small decks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.base.limits import LIMITS
from seqform.base.node_counts import dealt_tree_nodes
from seqform.game.builtin.leduc import leduc_words
from seqform.game.builtin.leduc_tree import SUITS
from seqform.game.builtin.three_card_hands import FACES, hand_levels
from seqform.game.errors import TreeTooLargeError
from seqform.game.model import Game
from seqform.game.public.explicit import card_by_card_deal, explicit_game
from seqform.game.public.tree import (
    Constant,
    Hands,
    PublicChance,
    PublicDecision,
    PublicLeaf,
    PublicNode,
    Sign,
    StructuredGame,
)

__all__ = [
    "ANTE",
    "BET_SIZES",
    "MAX_BETS_PER_ROUND",
    "MAX_TREE_NODES",
    "RhodeIslandSizes",
    "card_labels",
    "check_parameters",
    "rhode_island",
    "rhode_island_sizes",
    "rhode_island_structured",
    "rhode_island_tree_nodes",
    "rhode_island_words",
]

ANTE = 5
BET_SIZES = (10, 20, 20)  # in rounds 1, 2 and 3, a bet or raise puts in the call plus this
MAX_BETS_PER_ROUND = 3  # the opening bet and two raises
MAX_TREE_NODES = LIMITS.rhode_island_tree_nodes  # why: seqform.base.limits
ROUNDS = 3

_RANK_LETTERS = "23456789TJQKA"
_MAX_SUITS = 4
_MAX_BETS = 20  # a round's betting tree doubles with each: 2 ** max_bets histories

RoundOver = Callable[[tuple[int, int], str], PublicNode]  # (put in, round's betting) -> next


def rhode_island_words(infoset: str, action: str) -> str:
    """Say an ``f``/``c``/``r`` action in poker words: fold, check, call, bet or raise.

    The words are Leduc's (:func:`~seqform.game.builtin.leduc.leduc_words`); the function is
    the game's own, since a game's label grammar is found by its ``describe_action``.
    """
    return leduc_words(infoset, action)


def card_labels(ranks: int, suits: int) -> tuple[str, ...]:
    """The cards' names in card order (``rank · suits + suit``): ``("Qs", "Qh", "Ks", …)``."""
    letters = _RANK_LETTERS[-ranks:]
    return tuple(letters[card // suits] + SUITS[card % suits] for card in range(ranks * suits))


def check_parameters(
    ranks: int, suits: int, ante: int, bets: tuple[int, int, int], max_bets: int
) -> None:
    """Raise ValueError naming the parameter that is out of range (they may come from a
    command line)."""
    for name, value, least, largest in (
        ("ranks", ranks, 2, FACES),
        ("suits", suits, 1, _MAX_SUITS),
        ("ante", ante, 0, None),
        ("max_bets", max_bets, 1, _MAX_BETS),
    ):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"rhode_island: {name} must be an integer, got {value!r}")
        if value < least or (largest is not None and value > largest):
            bound = f"between {least} and {largest}" if largest is not None else f">= {least}"
            raise ValueError(f"rhode_island: {name} must be {bound}, got {value}")
    if (
        not isinstance(bets, tuple | list)
        or len(bets) != ROUNDS
        or any(isinstance(b, bool) or not isinstance(b, int) or b < 1 for b in bets)
    ):
        raise ValueError(
            f"rhode_island: bets must be three positive integers, one per round, got {bets!r}"
        )
    if ranks * suits < 4:
        raise ValueError(
            f"rhode_island: a deck of {ranks} ranks × {suits} suits has {ranks * suits} cards; "
            "two private cards and two public cards need at least 4"
        )


def rhode_island(
    ranks: int = 13,
    suits: int = 4,
    ante: int = ANTE,
    bets: tuple[int, int, int] = BET_SIZES,
    max_bets: int = MAX_BETS_PER_ROUND,
) -> Game:
    """Rhode Island hold'em's tree (module docstring), for decks small enough to write it.

    Parameters
    ----------
    ranks
        Card ranks, 2 to 13: the highest ``ranks`` of ``2 … A`` (13, the default, all).
    suits
        Suits, 1 to 4 (default 4).
    ante
        What each player puts in before the deal (default 5).
    bets
        The bet of rounds 1, 2 and 3 (default ``(10, 20, 20)``).
    max_bets
        Bets and raises per round, the opening bet included (default 3).

    Raises
    ------
    ValueError
        For a parameter out of range (naming it), or a deck of fewer than 4 cards.
    TreeTooLargeError
        When the tree would have more than :data:`MAX_TREE_NODES` nodes (the full game has
        6.7 billion): the structured route (:func:`rhode_island_structured`) needs no tree.
    """
    nodes = rhode_island_tree_nodes(ranks, suits, ante, bets, max_bets)
    name = _name(ranks, suits, ante, bets, max_bets)
    if nodes > MAX_TREE_NODES:  # refused from the formula: numbering the full game takes minutes
        raise TreeTooLargeError(
            f"{name}: the game tree would have {nodes:,} nodes, more than the "
            f"{MAX_TREE_NODES:,} seqform builds; solve it with --method structured, which "
            "never builds the tree"
        )
    return explicit_game(rhode_island_structured(ranks, suits, ante, bets, max_bets))


def _name(ranks: int, suits: int, ante: int, bets: tuple[int, ...], max_bets: int) -> str:
    given = {"ranks": ranks, "suits": suits, "ante": ante, "bets": tuple(bets)}
    given["max_bets"] = max_bets
    defaults = {
        "ranks": 13,
        "suits": 4,
        "ante": ANTE,
        "bets": BET_SIZES,
        "max_bets": MAX_BETS_PER_ROUND,
    }
    settings = [f"{key}={value!r}" for key, value in given.items() if value != defaults[key]]
    return f"rhode_island({', '.join(settings)})" if settings else "rhode_island"


def _description(ranks: int, suits: int) -> str:
    return (
        f"Rhode Island hold'em (Shi and Littman 2001) with {ranks} ranks × {suits} suits, "
        "following Gilpin and Sandholm (2007)"
    )


@dataclass(frozen=True)
class RhodeIslandSizes:
    """Rhode Island hold'em's sizes from its parameters, without building anything.

    infosets, sequences : per player (player 1 first), the empty sequence included
    tree_nodes : the explicit tree's nodes, exactly
    """

    infosets: tuple[int, int]
    sequences: tuple[int, int]
    tree_nodes: int

    def lp_rows(self, player: int) -> int:
        """Rows (and columns) of the sequence-form LP that ``player`` solves: its sequences,
        the other player's information sets and 1 (Gilpin and Sandholm's count)."""
        return self.sequences[player] + self.infosets[1 - player] + 1


@dataclass(frozen=True)
class _RoundShape:
    """One betting round's public tree, the same in every round but for the amounts."""

    nodes: tuple[int, int]  # decision nodes of each player
    sequences: tuple[int, int]  # their actions
    folds: int
    continuations: int  # calls that end the round and lead on


def _round_shape(max_bets: int) -> _RoundShape:
    """Count a round's betting histories: ``c``-``c`` and every bet sequence up to ``max_bets``."""
    nodes, sequences = [0, 0], [0, 0]
    folds = continuations = 0
    stack = [""]
    while stack:
        betting = stack.pop()
        player = len(betting) % 2
        facing = betting.endswith("r")
        nodes[player] += 1
        sequences[player] += (3 if facing else 2) - (betting.count("r") >= max_bets)
        folds += facing
        continuations += facing or betting == "c"  # a call after a bet, or the second check
        if betting == "":
            stack.append("c")
        if betting.count("r") < max_bets:
            stack.append(betting + "r")
    return _RoundShape((nodes[0], nodes[1]), (sequences[0], sequences[1]), folds, continuations)


def rhode_island_sizes(
    ranks: int = 13,
    suits: int = 4,
    ante: int = ANTE,
    bets: tuple[int, int, int] = BET_SIZES,
    max_bets: int = MAX_BETS_PER_ROUND,
) -> RhodeIslandSizes:
    """The game's information sets, sequences and tree nodes by formula (nothing is built).

    With ``n`` cards, ``k`` calls that end a round, and ``K_p``, ``S_p`` player ``p``'s
    decision nodes and actions in one round's betting, player ``p`` has per round the
    boards its own card allows, ``1``, ``k (n - 1)`` and ``k (n - 1) k (n - 2)`` (public
    cards in order), times ``n`` cards: information sets ``n K_p (1 + k (n-1) (1 + k (n-2)))``
    and sequences ``1 + n S_p (…)``.  The tree: the root and ``n`` chance nodes deal, then
    per ordered deal a round of ``r`` nodes (decisions, folds and the ``k`` nodes it ends
    at), and below each of its ``k`` ends ``n - 2`` first public cards, each a round whose
    ``k`` ends each have ``n - 3`` second public cards and a last round:
    ``r + k (n-2) (r + k (n-3) r)``.  Checked against built games in the tests.

    Raises
    ------
    ValueError
        As :func:`rhode_island`.
    """
    check_parameters(ranks, suits, ante, bets, max_bets)
    deck = ranks * suits
    shape = _round_shape(max_bets)
    ends = shape.continuations
    boards = 1 + ends * (deck - 1) * (1 + ends * (deck - 2))
    per_round = shape.nodes[0] + shape.nodes[1] + shape.folds + ends
    per_deal = per_round + ends * (deck - 2) * (per_round + ends * (deck - 3) * per_round)
    return RhodeIslandSizes(
        infosets=(deck * shape.nodes[0] * boards, deck * shape.nodes[1] * boards),
        sequences=(1 + deck * shape.sequences[0] * boards, 1 + deck * shape.sequences[1] * boards),
        tree_nodes=dealt_tree_nodes(
            deal_nodes=1 + deck, deals=deck * (deck - 1), nodes_per_deal=per_deal
        ),
    )


def rhode_island_tree_nodes(
    ranks: int = 13,
    suits: int = 4,
    ante: int = ANTE,
    bets: tuple[int, int, int] = BET_SIZES,
    max_bets: int = MAX_BETS_PER_ROUND,
) -> int:
    """Nodes of :func:`rhode_island`'s tree without building it (:func:`rhode_island_sizes`)."""
    return rhode_island_sizes(ranks, suits, ante, bets, max_bets).tree_nodes


def rhode_island_structured(
    ranks: int = 13,
    suits: int = 4,
    ante: int = ANTE,
    bets: tuple[int, int, int] = BET_SIZES,
    max_bets: int = MAX_BETS_PER_ROUND,
) -> StructuredGame:
    """Rhode Island hold'em as public tree × private cards (module docstring).

    Cards are numbered ``rank · suits + suit``; the showdown levels of the board
    ``{a, b}`` are computed once and shared by every leaf after that board, whichever
    card came first.

    Raises
    ------
    ValueError
        As :func:`rhode_island`.
    """
    check_parameters(ranks, suits, ante, bets, max_bets)
    bets = (bets[0], bets[1], bets[2])
    cards = ranks * suits
    labels = card_labels(ranks, suits)
    faces = np.arange(cards, dtype=np.int64) // suits + (FACES - ranks)
    card_suits = np.arange(cards, dtype=np.int64) % suits
    hands = Hands(labels, (Fraction(1),) * cards, np.arange(cards, dtype=np.int64))
    boards: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}
    betting = _Betting(bets, max_bets)

    def levels(first: int, second: int) -> tuple[np.ndarray, np.ndarray]:
        board = (min(first, second), max(first, second))
        shared = boards.get(board)
        if shared is None:
            public = tuple((int(faces[c]), int(card_suits[c])) for c in board)
            level = hand_levels(faces, card_suits, (public[0], public[1]))
            shared = boards[board] = (level, level)
        return shared

    def round_three(first: int, prefix: str) -> RoundOver:
        def after_round_two(put_in: tuple[int, int], round_two: str) -> PublicNode:
            children = []
            for card in range(cards):
                showdown = betting.showdown(levels(first, card)) if card != first else None
                history = f"{prefix}{round_two}|{labels[card]}|"
                children.append(betting.round(2, "", put_in, history, showdown))
            return PublicChance(
                "second public card",
                labels,
                tuple(range(cards)),
                Fraction(1, cards - 3),
                tuple(children),
            )

        return after_round_two

    def round_two(put_in: tuple[int, int], round_one: str) -> PublicNode:
        children = []
        for card in range(cards):
            prefix = f"|{round_one}|{labels[card]}|"
            children.append(betting.round(1, "", put_in, prefix, round_three(card, prefix)))
        return PublicChance(
            "first public card",
            labels,
            tuple(range(cards)),
            Fraction(1, cards - 2),
            tuple(children),
        )

    return StructuredGame(
        name=_name(ranks, suits, ante, bets, max_bets),
        hands=(hands, hands),
        deal_scale=Fraction(1, cards * (cards - 1)),
        root=betting.round(0, "", (ante, ante), "|", round_two),
        write_deal=card_by_card_deal(),
        description=_description(ranks, suits),
        describe_action=rhode_island_words,
    )


class _Betting:
    """Writes the betting rounds; folds and showdowns of equal payoffs are shared leaves."""

    def __init__(self, bets: tuple[int, int, int], max_bets: int) -> None:
        self.bets = bets
        self.max_bets = max_bets
        self._folds: dict[int, PublicLeaf] = {}
        self._showdowns: dict[tuple[int, int], PublicLeaf] = {}
        self._actions: dict[tuple[str, ...], tuple[str, ...]] = {}

    def showdown(self, levels: tuple[np.ndarray, np.ndarray]) -> RoundOver:
        """After round 3: the better hand wins what each player has put in (equal amounts)."""

        def leaf(put_in: tuple[int, int], _round_three: str) -> PublicNode:
            key = (id(levels[0]), put_in[0])
            found = self._showdowns.get(key)
            if found is None:
                found = self._showdowns[key] = PublicLeaf(Sign(Fraction(put_in[0])), levels)
            return found

        return leaf

    def fold(self, payoff: int) -> PublicLeaf:
        """A fold paying ``payoff`` to player 1."""
        found = self._folds.get(payoff)
        if found is None:
            found = self._folds[payoff] = PublicLeaf(Constant(Fraction(payoff)))
        return found

    def round(
        self,
        round_index: int,
        betting: str,
        put_in: tuple[int, int],
        prefix: str,
        round_over: RoundOver | None,
    ) -> PublicNode:
        """The rest of a round after ``betting`` (history ``prefix + betting``), each player
        having ``put_in`` the pot; a call that ends the round leads to ``round_over``.  A
        round after a second public card equal to the first (``round_over`` None) is never
        reached (the numbering skips it): a leaf stands for it."""
        if round_over is None:
            return self.fold(0)
        player = len(betting) % 2
        to_call = put_in[1 - player] - put_in[player]
        actions: list[str] = []
        children: list[PublicNode] = []
        if to_call > 0:
            actions.append("f")
            children.append(self.fold(put_in[1] if player == 1 else -put_in[0]))
        actions.append("c")
        called = _add(put_in, player, to_call)
        if to_call > 0 or betting:
            children.append(round_over(called, betting + "c"))
        else:
            children.append(self.round(round_index, "c", called, prefix, round_over))
        if betting.count("r") < self.max_bets:
            actions.append("r")
            raised = _add(put_in, player, to_call + self.bets[round_index])
            children.append(self.round(round_index, betting + "r", raised, prefix, round_over))
        key = tuple(actions)
        return PublicDecision(
            player, self._actions.setdefault(key, key), tuple(children), prefix + betting
        )


def _add(put_in: tuple[int, int], player: int, amount: int) -> tuple[int, int]:
    return (put_in[0] + amount, put_in[1]) if player == 0 else (put_in[0], put_in[1] + amount)
