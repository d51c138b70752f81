"""Rhode Island hold'em's parameters and its sizes by formula, before anything is built.

The rules are the module docstring of :mod:`seqform.game.builtin.rhode_island`.  The sizes
(:func:`rhode_island_sizes`) follow from the shape of one betting round, which is the same
in all three (:func:`_round_shape` counts it), and the deck: the full game's 91,224,226 LP
rows (Gilpin and Sandholm 2007) and 6.7 billion tree nodes are counted here without the
minutes that numbering its public tree takes.
"""

from __future__ import annotations

from dataclasses import dataclass

from seqform.base.limits import LIMITS
from seqform.base.node_counts import dealt_tree_nodes
from seqform.game.builtin.three_card_hands import FACES

__all__ = [
    "ANTE",
    "BET_SIZES",
    "MAX_BETS_PER_ROUND",
    "MAX_TREE_NODES",
    "ROUNDS",
    "RhodeIslandSizes",
    "check_parameters",
    "rhode_island_sizes",
    "rhode_island_tree_nodes",
]

ANTE = 5
BET_SIZES = (10, 20, 20)  # in rounds 1, 2 and 3, a bet or raise puts in the call plus this
MAX_BETS_PER_ROUND = 3  # the opening bet and two raises
MAX_TREE_NODES = LIMITS.rhode_island_tree_nodes  # why: seqform.base.limits
ROUNDS = 3

_MAX_SUITS = 4
_MAX_BETS = 20  # beyond any limit game; a round ends in 2·max_bets + 1 ways, cubed over 3 rounds


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
