"""Rhode Island hold'em's parameters and its sizes by formula, before anything is built.

The rules are the module docstring of :mod:`seqform.game.builtin.rhode_island`.  The sizes
(:func:`rhode_island_sizes`) follow from the shape of one betting round, which is the same
in all three (:func:`_round_shape` counts it), and the deck: the full game's 91,224,226 LP
rows (Gilpin and Sandholm 2007) and 6.7 billion tree nodes are counted here without the
minutes that numbering its public tree takes.

Size: a little over 400 lines: the game, its strategies, its non-zeros and its lossless
abstractions (suits, ordered classes) are formulas over the one round shape, kept together
so that they change together.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from seqform.base.counts import Count, count_power, count_product
from seqform.base.limits import LIMITS
from seqform.base.node_counts import dealt_tree_nodes
from seqform.game.builtin.three_card_hands import FACES, hand_levels

__all__ = [
    "ANTE",
    "BET_SIZES",
    "GAMESHRINK_LP_ROWS",
    "MAX_BETS_PER_ROUND",
    "MAX_TREE_NODES",
    "PUBLISHED_LP_ROWS",
    "ROUNDS",
    "RhodeIslandCounts",
    "RhodeIslandSizes",
    "SuitReducedSizes",
    "check_parameters",
    "published_lp_rows",
    "rhode_island_counts",
    "rhode_island_sizes",
    "rhode_island_suit_reduced_sizes",
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


@dataclass(frozen=True)
class RhodeIslandCounts:
    """What ``compare --no-solve`` reports of Rhode Island hold'em, by formula.

    sizes : information sets, sequences and tree nodes (:func:`rhode_island_sizes`)
    pure, reduced : per player, pure and reduced pure strategies: exact while at most 1,000
        digits, else by their logarithm (:class:`~seqform.base.counts.LogCount`)
    payoff_nonzeros : ``nnz(A)``: the leaves that pay something (one per pair of sequences)
    """

    sizes: RhodeIslandSizes
    pure: tuple[Count, Count]
    reduced: tuple[Count, Count]
    payoff_nonzeros: int


def _round_children(betting: str, max_bets: int) -> list[str | None]:
    """The actions at a round's node ``betting``: the next node's betting, or None for the
    call or second check that ends the round, or ``"f"`` for a fold."""
    if betting.endswith("r"):
        raises = [betting + "r"] if betting.count("r") < max_bets else []
        return ["f", None, *raises]
    return ["c" if betting == "" else None, betting + "r"]


def _round_reduced(player: int, max_bets: int, after: int, betting: str = "") -> int:
    """Reduced strategies of ``player`` in one round's betting from ``betting`` on, with
    ``after`` of them below each end of the round: a sum over the player's own actions, a
    product over the other's (:func:`seqform.forms.normal_counts.count_reduced_strategies`)."""
    ways = [
        1
        if child == "f"
        else after
        if child is None
        else _round_reduced(player, max_bets, after, child)
        for child in _round_children(betting, max_bets)
    ]
    mine = len(betting) % 2 == player
    return sum(ways) if mine else int(np.prod(np.array(ways, dtype=object)))


def _reduced_strategies(player: int, deck: int, max_bets: int) -> Count:
    """``R(empty)``: per own card (a product over the ``deck`` cards), round 1 with, below
    each of its ends, a product over the ``deck - 1`` first public cards of round 2's
    count, and below round 2's ends one over the ``deck - 2`` second public cards of
    round 3's."""
    last = _round_reduced(player, max_bets, 1)
    second = _round_reduced(player, max_bets, last ** (deck - 2))
    first = _round_reduced(player, max_bets, second ** (deck - 1))
    return count_power(first, deck)


def _pure_strategies(player: int, deck: int, max_bets: int) -> Count:
    """``prod_h |A(h)|``: ``2`` at an information set not facing a bet or facing the last
    raise, ``3`` otherwise; each betting node is an information set once per own card and
    board the player can see (:func:`rhode_island_sizes`)."""
    shape = _round_shape(max_bets)
    nodes, actions = shape.nodes[player], shape.sequences[player]
    three = actions - 2 * nodes  # nodes with 3 actions; the others have 2
    ends = shape.continuations
    views = deck * (1 + ends * (deck - 1) * (1 + ends * (deck - 2)))
    return count_product(count_power(2, (nodes - three) * views), count_power(3, three * views))


def _ties(ranks: int, suits: int) -> int:
    """Ordered (private, private, public, public) deals of distinct cards whose two hands
    have the same level: per unordered board, the pairs of remaining cards of equal level."""
    deck = ranks * suits
    cards = np.arange(deck)
    faces, card_suits = cards // suits + (FACES - ranks), cards % suits
    ties = 0
    for first in range(deck):
        for second in range(first + 1, deck):
            public = (
                (int(faces[first]), int(card_suits[first])),
                (int(faces[second]), int(card_suits[second])),
            )
            levels = np.delete(hand_levels(faces, card_suits, public), [first, second])
            ties += sum(n * (n - 1) for n in Counter(levels.tolist()).values())
    return 2 * ties  # both orders of the board


def _payoff_nonzeros(ranks: int, suits: int, ante: int, max_bets: int) -> int:
    """Leaves that pay something: every fold but, without an ante, those by a player who has
    put nothing in (``rf`` and ``crf`` of a round reached by checks only), and every
    showdown of unequal hands but, without an ante, those after checks only."""
    deck = ranks * suits
    shape = _round_shape(max_bets)
    ends = shape.continuations
    rounds_per_deal = 1 + ends * (deck - 2) * (1 + ends * (deck - 3))
    free_folds = 2 * (1 + (deck - 2) + (deck - 2) * (deck - 3)) if ante == 0 else 0
    deals = deck * (deck - 1)
    showdowns = ends**3 - (1 if ante == 0 else 0)
    boards_dealt = deals * (deck - 2) * (deck - 3)
    return deals * (shape.folds * rounds_per_deal - free_folds) + showdowns * (
        boards_dealt - _ties(ranks, suits)
    )


def rhode_island_counts(
    ranks: int = 13,
    suits: int = 4,
    ante: int = ANTE,
    bets: tuple[int, int, int] = BET_SIZES,
    max_bets: int = MAX_BETS_PER_ROUND,
) -> RhodeIslandCounts:
    """:class:`RhodeIslandCounts` by formula, in about a second for the full deck (the
    showdowns' ties are counted over the ``C(n, 2)`` boards, nothing else is enumerated).

    Raises
    ------
    ValueError
        As :func:`rhode_island`.
    """
    sizes = rhode_island_sizes(ranks, suits, ante, bets, max_bets)
    deck = ranks * suits
    return RhodeIslandCounts(
        sizes=sizes,
        pure=(_pure_strategies(0, deck, max_bets), _pure_strategies(1, deck, max_bets)),
        reduced=(_reduced_strategies(0, deck, max_bets), _reduced_strategies(1, deck, max_bets)),
        payoff_nonzeros=_payoff_nonzeros(ranks, suits, ante, max_bets),
    )


@dataclass(frozen=True)
class SuitReducedSizes:
    """The sequence form's size at each step of the lossless suit reduction
    (:mod:`seqform.structured.reductions.suit_reduction`): the game, on canonical boards, then on
    hand classes, and the hand classes merged by the ordered game isomorphism
    (:mod:`seqform.structured.reductions.ordered_isomorphism`; None where it is not counted).  Each
    is
    a :class:`RhodeIslandSizes` without tree nodes (0)."""

    full: RhodeIslandSizes
    canonical: RhodeIslandSizes
    reduced: RhodeIslandSizes
    ordered: RhodeIslandSizes | None = None


def _views_sizes(shape: _RoundShape, views: int) -> RhodeIslandSizes:
    """Information sets and sequences when each betting node is seen in ``views`` ways."""
    return RhodeIslandSizes(
        infosets=(shape.nodes[0] * views, shape.nodes[1] * views),
        sequences=(1 + shape.sequences[0] * views, 1 + shape.sequences[1] * views),
        tree_nodes=0,
    )


def rhode_island_suit_reduced_sizes(
    ranks: int = 13,
    suits: int = 4,
    ante: int = ANTE,
    bets: tuple[int, int, int] = BET_SIZES,
    max_bets: int = MAX_BETS_PER_ROUND,
) -> SuitReducedSizes:
    """The sizes of :class:`SuitReducedSizes` by formula, for any deck (the reduction itself
    builds the game: minutes for the full deck).

    A betting node of round ``t`` is an information set once per own card and board the
    player sees (``n``, ``k n (n-1)``, ``k² n (n-1) (n-2)`` views for ``k`` round ends).
    The game is invariant under all ``s!`` suit permutations.  On canonical boards a public
    card is one per orbit of the cards under the permutations fixing the cards before it:
    ``r`` first cards (one per rank), and after one the other ``r - 1`` ranks' card of its
    suit, their cards of other suits, and its own rank's other suits (``2r - 1``).  Hand
    classes are the orbits of the cards off the board under the permutations fixing the
    board's suits: with ``u`` suits fixed, ``r (u + [s > u])`` orbits less the board's
    cards (``r``; ``2r - 1``; ``2r - 2`` on a board of one suit, else
    ``r (2 + [s > 2]) - 2``).  With one suit nothing is reduced.
    """
    check_parameters(ranks, suits, ante, bets, max_bets)
    full = rhode_island_sizes(ranks, suits, ante, bets, max_bets)
    if suits == 1:
        return SuitReducedSizes(full, full, full)
    shape = _round_shape(max_bets)
    k, n, r = shape.continuations, ranks * suits, ranks
    second_cards = 2 * r - 1  # canonical second public cards after each canonical first
    canonical = _views_sizes(shape, n + k * r * (n - 1) + k * k * r * second_cards * (n - 2))
    two_suits = r * (2 + (suits > 2)) - 2  # hand classes on a board of two suits
    last_classes = (r - 1) * (2 * r - 2) + r * two_suits  # over one first card's boards
    reduced = _views_sizes(shape, r + k * r * (2 * r - 1) + k * k * r * last_classes)
    ordered = rhode_island_signal_sizes(_ordered_signals(ranks, suits), max_bets)
    return SuitReducedSizes(full=full, canonical=canonical, reduced=reduced, ordered=ordered)


def _ordered_signals(ranks: int, suits: int) -> tuple[int, int, int]:
    """A player's signal classes per round after the ordered game isomorphism (module
    docstring of :mod:`seqform.structured.reductions.ordered_isomorphism`), summed over the
    canonical
    boards: one per rank before the public cards and ``2r - 1`` per first card after one,
    as by suits.  After the second card, over one first card's boards: with three suits or
    more the cards of a rank off the first card's suit are one class, ``(r - 1)(2r - 2) +
    r (2r - 1)``; with two suits nothing merges beyond the suits, ``(r - 1)(2r - 2) +
    r (2r - 2)``.  Two ranks, where no flush or straight exists, are no exception: a swap at
    the first public card moves cards still to be dealt, which the isomorphism does not
    merge by (its condition 4)."""
    r = ranks
    last = (r - 1) * (2 * r - 2) + r * (2 * r - 1 if suits > 2 else 2 * r - 2)
    return r, r * (2 * r - 1), r * last


PUBLISHED_LP_ROWS = 91_224_226
"""The full game's sequence-form LP rows, unabstracted (Gilpin and Sandholm, EC 2006 and
JACM 2007, §"Rhode Island Hold'em")."""

GAMESHRINK_LP_ROWS = 1_237_238
"""Its LP rows after GameShrink's lossless abstraction (Gilpin and Sandholm, same place)."""


def published_lp_rows(ranks: int, suits: int, max_bets: int) -> tuple[tuple[str, int], ...]:
    """The LP rows Gilpin and Sandholm give for this game, named by their step: for the
    full deck and betting (the ante and bet sizes change no size), else none."""
    if (ranks, suits, max_bets) != (13, 4, MAX_BETS_PER_ROUND):
        return ()
    return (("unabstracted", PUBLISHED_LP_ROWS), ("GameShrink", GAMESHRINK_LP_ROWS))


def rhode_island_signal_sizes(
    signals: tuple[int, int, int], max_bets: int = MAX_BETS_PER_ROUND
) -> RhodeIslandSizes:
    """The sequence form's size when a player's signals — private card; with the first
    public card; with both — fall into ``signals`` classes per round (summed over the
    classes of the round before), each class seeing the betting of its round once per
    history before it: the sizes of a lossless abstraction that merges signals (suit
    isomorphism, ordered game isomorphism, GameShrink) without the game."""
    shape = _round_shape(max_bets)
    k = shape.continuations
    return _views_sizes(shape, signals[0] + k * signals[1] + k * k * signals[2])
