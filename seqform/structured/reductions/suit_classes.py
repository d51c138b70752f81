"""The canonical boards and hand classes of lossless suit isomorphism, and the lifts from
them back to the game.

Let ``S`` be the suit permutations the game ``G`` is invariant under
(:func:`seqform.game.public.symmetry.game_symmetries`); optima averaged over ``S`` are the
same on each orbit of sequences, so nothing is lost by restricting both players to such
plans (:mod:`seqform.structured.reductions.suit_reduction` for the LP argument).  Two steps:

1. *canonical boards* ``G'`` (:func:`~seqform.game.public.symmetry.canonical_game`): one
   public card per orbit of the stabilizer of the cards before it, its probability times the
   orbit's size;
2. *hand classes*: in ``G'`` the sequence ``(h, s)`` is tied to ``(τh, s)`` for ``τ`` in the
   stabilizer of ``s``'s public cards (:func:`canonical_boards` numbers them).

A plan or behaviour of ``G'`` (symmetric on hand classes) is lifted to ``G``: the sequence
``(h, s)`` of ``G`` takes the value of ``(σh, s')`` in ``G'``, where ``σ`` maps ``s``'s
board to its canonical form ``s'`` (:func:`~seqform.game.public.symmetry.node_map`; any such
``σ`` gives the same class): :func:`sequence_images`, :func:`lift_behaviour`.

``G'`` alone is not ``G``: a hand of ``G'`` sees only the canonical boards it does not block,
each with its orbit's weight, so the members of a hand class see different boards (with two
suits, before the board ``Qs`` never meets the board ``Qs`` and ``Qh`` does); only a class's
sum is ``G``'s.  Best responses and regrets on ``G'`` are therefore taken on the classes
(:func:`class_tables`, :func:`certify_on_classes`): for a class-symmetric profile they give
the lifted profile's values and NashConv on ``G``.  Vector CFR runs on ``G'`` this way
(:func:`seqform.structured.vector_cfr.canonical_vector_cfr`), the LP on its hand classes
(:func:`seqform.structured.reductions.suit_reduction.reduce_by_suits`).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.certify import Certificate, respond
from seqform.forms.strategies import BehaviouralStrategy, plan_from_behaviour
from seqform.game.public.numbering import PublicNumbering, number_public_tree, structured_tables
from seqform.game.public.symmetry import (
    NodeMap,
    Symmetries,
    canonical_game,
    game_symmetries,
    node_map,
)
from seqform.game.public.table_labels import PickedLabels
from seqform.game.public.tree import StructuredGame
from seqform.game.sequences import PlayerSequences
from seqform.iterative.layout import CHUNK
from seqform.structured.responses import certified_payoffs, payoff_range, sequence_tables

__all__ = [
    "CanonicalBoards",
    "GameSize",
    "HandClasses",
    "ReductionSizes",
    "canonical_boards",
    "canonical_sizes",
    "certify_on_classes",
    "class_of",
    "class_strategy_on_boards",
    "class_sums",
    "class_tables",
    "dense_ranks",
    "first_members",
    "game_size",
    "lift_behaviour",
    "lift_plan",
    "sequence_images",
    "with_nodes",
]


@dataclass(frozen=True)
class GameSize:
    """Sequences and information sets per player at one step of the reduction, and the
    sequence-form LP's rows (``E``'s and the payoff rows: ``1 + infosets[0] +
    sequences[1]``) and columns (``sequences[0] + 1 + infosets[1]``), before the level sums
    of the structured LP are added."""

    sequences: tuple[int, int]
    infosets: tuple[int, int]

    @property
    def rows(self) -> int:
        return 1 + self.infosets[0] + self.sequences[1]

    @property
    def columns(self) -> int:
        return self.sequences[0] + 1 + self.infosets[1]


@dataclass(frozen=True, eq=False)
class CanonicalBoards:
    """The game ``G``, its game on canonical boards ``G'`` (module docstring, step 1) and what
    lifts an answer of ``G'`` to ``G``: the suit permutations and each public node's map.

    group_order : the suit permutations ``G`` is invariant under
    classes : per player, the hand classes of ``G'`` (module docstring, step 2)
    nodes : each public node of ``G`` sent to ``G'``, numbered when first asked for (it
        numbers ``G``'s public tree, which a run on ``G'`` does not need until it lifts)
    """

    game: StructuredGame
    canonical: StructuredGame
    symmetries: Symmetries
    classes: tuple[HandClasses, HandClasses]

    @property
    def group_order(self) -> int:
        return self.symmetries.group.order

    @property
    def nodes(self) -> NodeMap:
        found = _NODES.get(self)
        if found is None:
            found = _NODES[self] = node_map(self.game, self.canonical, self.symmetries)
        return found

    def sequence_classes(self) -> tuple[np.ndarray, np.ndarray]:
        """Per player, each sequence of ``G'``'s hand class (0: the empty sequence)."""
        return self.classes[0].sequences, self.classes[1].sequences


_NODES: weakref.WeakKeyDictionary[CanonicalBoards, NodeMap] = weakref.WeakKeyDictionary()


def with_nodes(boards: CanonicalBoards, nodes: NodeMap) -> CanonicalBoards:
    """``boards`` with its node map already known (a reduction that numbered it)."""
    _NODES[boards] = nodes
    return boards


def canonical_boards(game: StructuredGame) -> CanonicalBoards | None:
    """``G'`` of ``game`` with its node map, or None when ``game`` is invariant under no suit
    permutation but the identity (:func:`reduce_by_suits` without the LP)."""
    symmetries = game_symmetries(game)
    if symmetries.group.trivial:
        return None
    canonical = canonical_game(game, symmetries)
    numbering = number_public_tree(canonical)
    classes = (_classes(numbering, symmetries, 0), _classes(numbering, symmetries, 1))
    return CanonicalBoards(game, canonical, symmetries, classes)


@dataclass(frozen=True)
class HandClasses:
    """One player's hand classes in ``G'``: per sequence and per information set, its class
    (0 is the empty sequence's; int32 where the numbers fit), and how many there are."""

    sequences: np.ndarray
    infosets: np.ndarray
    num_sequences: int
    num_infosets: int


@dataclass(frozen=True)
class ReductionSizes:
    """What a result reports of the reduction (:class:`SuitReduction` less its arrays).

    group_order : the suit permutations the game is invariant under
    full, canonical, reduced : sequences and information sets at each step
    canonical_lp, reduced_lp : the structured LP's (rows, columns, non-zeros) on canonical
        boards and on hand classes (the one solved); None when no LP was built (vector CFR
        on canonical boards, :func:`canonical_sizes`)
    """

    group_order: int
    full: GameSize
    canonical: GameSize
    reduced: GameSize
    canonical_lp: tuple[int, int, int] | None = None
    reduced_lp: tuple[int, int, int] | None = None


def canonical_sizes(boards: CanonicalBoards) -> ReductionSizes:
    """The sizes of ``G``, ``G'`` and the hand classes, without an LP."""
    first, second = boards.classes
    return ReductionSizes(
        group_order=boards.group_order,
        full=game_size(boards.game),
        canonical=game_size(boards.canonical),
        reduced=GameSize(
            (first.num_sequences, second.num_sequences), (first.num_infosets, second.num_infosets)
        ),
    )


def game_size(game: StructuredGame) -> GameSize:
    """The sizes of ``game``'s sequence tables."""
    first, second = structured_tables(game)
    return GameSize(
        (first.num_sequences, second.num_sequences), (first.num_infosets, second.num_infosets)
    )


def _representatives(
    numbering: PublicNumbering, symmetries: Symmetries, player: int, keys: np.ndarray
) -> np.ndarray:
    """Shape (H, len(keys)): per hand and public card key, the smallest hand of its orbit
    under the stabilizer of those public cards."""
    group = symmetries.group
    maps = np.stack([pair[player] for pair in symmetries.hand_maps])  # (elements, H)
    found: dict[int, np.ndarray] = {}
    out = np.empty((maps.shape[1], len(keys)), dtype=np.int64)
    for column, key in enumerate(keys.tolist()):
        if key not in found:
            fixing = set(group.stabilizer(numbering.public_cards[key]).elements)
            kept = [i for i, element in enumerate(group.elements) if element in fixing]
            found[key] = maps[kept].min(axis=0)
        out[:, column] = found[key]
    return out


def class_of(index: np.ndarray, representative: np.ndarray, size: int, skip: bool) -> np.ndarray:
    """Per numbered entry of ``index`` (shape (H, columns)), its class: the classes are the
    distinct representatives' numbers, in order (the empty sequence is class 0).  In int32
    where every number fits: a run keeps these arrays, one number per sequence of ``G'``
    (a flop: 135 million), beside its own state."""
    kind = np.int32 if size < 2**31 else np.int64
    columns = np.arange(index.shape[1])[None, :]
    target = index[representative, np.broadcast_to(columns, index.shape)]
    owner = np.full(size, -1, dtype=kind)
    mask = index >= 0
    if skip:
        mask[:, 0] = False
        owner[0] = 0
    owner[index[mask]] = target[mask]
    del target, mask
    return dense_ranks(owner, size, kind)


def dense_ranks(values: np.ndarray, bound: int, kind: type = np.int64) -> np.ndarray:
    """Per entry of ``values`` (integers in ``-1 .. bound - 1``), the rank of its value among
    the distinct values, in ``kind``: ``np.unique(values, return_inverse=True)[1]`` by
    counting instead of sorting (a flop's sequences are tens of millions, and the sort's
    permutation alone took 8 bytes each)."""
    shift = 1 if len(values) and int(values.min()) < 0 else 0
    present = np.zeros(bound + shift, dtype=bool)
    where = values + shift if shift else values
    present[where] = True
    rank: np.ndarray = np.cumsum(present, dtype=kind)
    rank -= 1
    return np.take(rank, where).astype(kind, copy=False)


def _classes(numbering: PublicNumbering, symmetries: Symmetries, player: int) -> HandClasses:
    sequence_keys = numbering.sequence_cards[player]
    node_keys = numbering.node_cards[player]
    sequence_index = numbering.sequence_index[player]
    infoset_index = numbering.infoset_index[player]
    sequences = class_of(
        sequence_index,
        _representatives(numbering, symmetries, player, sequence_keys),
        numbering.num_sequences(player),
        skip=True,
    )
    infosets = class_of(
        infoset_index,
        _representatives(numbering, symmetries, player, node_keys),
        numbering.num_infosets(player),
        skip=False,
    )
    return HandClasses(
        sequences, infosets, int(sequences.max(initial=0)) + 1, int(infosets.max(initial=-1)) + 1
    )


def first_members(classes: np.ndarray, count: int) -> np.ndarray:
    """Per class (numbered ``0 .. count - 1``), its first member: ``np.unique``'s
    ``return_index`` without its sort, a slice at a time (a flop's classes are tens of
    millions)."""
    first = np.full(count, len(classes), dtype=np.int64)
    for low in range(0, len(classes), CHUNK):
        high = min(low + CHUNK, len(classes))
        np.minimum.at(first, classes[low:high], np.arange(low, high))
    return first


def class_tables(boards: CanonicalBoards) -> tuple[PlayerSequences, PlayerSequences]:
    """Per player, the sequence table of the hand classes of ``G'`` (the reduced LP's
    ``x̄``, ``ȳ``): an information set and a sequence per class, named after the class's
    first member; a class's parent is its members' parents' class (module docstring)."""
    first, second = (
        _class_table(table, classes)
        for table, classes in zip(sequence_tables(boards.canonical), boards.classes, strict=True)
    )
    return first, second


def _class_table(table: PlayerSequences, classes: HandClasses) -> PlayerSequences:
    """One player's table of :func:`class_tables`."""
    sequence_member = first_members(classes.sequences, classes.num_sequences)
    infoset_member = first_members(classes.infosets, classes.num_infosets)
    sequence_infoset = np.full(classes.num_sequences, -1, dtype=classes.infosets.dtype)
    sequence_infoset[1:] = classes.infosets[table.sequence_infoset[sequence_member[1:]]]
    return PlayerSequences(
        player=table.player,
        infosets=PickedLabels(table.infosets, infoset_member),
        actions=PickedLabels(table.actions, infoset_member),
        parent_sequence=classes.sequences[table.parent_sequence[infoset_member]],
        first_sequence=classes.sequences[table.first_sequence[infoset_member]],
        sequence_infoset=sequence_infoset,
        sequence_action=PickedLabels(table.sequence_action, sequence_member),
    )


def class_strategy_on_boards(
    boards: CanonicalBoards, player: int, strategy: BehaviouralStrategy
) -> BehaviouralStrategy:
    """A strategy of ``player``'s hand classes (on :func:`class_tables`) as one of ``G'``:
    each sequence and information set of ``G'`` plays as its class."""
    classes = boards.classes[player]
    return BehaviouralStrategy(
        sequence_tables(boards.canonical)[player],
        strategy.probabilities[classes.sequences],
        strategy.unreached[classes.infosets],
    )


def class_sums(classes: np.ndarray, values: np.ndarray, count: int) -> np.ndarray:
    """Per class (numbered ``0 .. count - 1``), the sum of ``values`` over its members:
    ``np.bincount``'s, in Fractions for an object array."""
    if values.dtype != object:
        return np.bincount(classes, weights=values, minlength=count)
    sums = np.full(count, Fraction(0), dtype=object)
    np.add.at(sums, classes, values)
    return sums


def certify_on_classes(
    boards: CanonicalBoards, first: BehaviouralStrategy, second: BehaviouralStrategy
) -> Certificate:
    """The certificate of a class-symmetric profile of ``G'`` (module docstring): its value,
    and each player's best response over the plans of hand classes, whose leaf payoffs are
    the class sums of ``G'``'s ``A' y'`` and ``−A'ᵀ x'``.  Equal, up to rounding, to the
    certificate of the lifted profile on ``G`` (:func:`lift_behaviour`), at ``G'``'s size;
    exact (Fractions), and then equal to it exactly, when both strategies are exact."""
    game = boards.canonical
    if not (first.exact and second.exact):
        first, second = first.to_float(), second.to_float()
    x, y = plan_from_behaviour(first), plan_from_behaviour(second)
    tables = class_tables(boards)
    to_first = certified_payoffs(game, 0, y)
    to_second = certified_payoffs(game, 1, x)
    best = [
        respond(table, class_sums(classes.sequences, payoffs, classes.num_sequences)).value
        for table, classes, payoffs in zip(
            tables, boards.classes, (to_first, to_second), strict=True
        )
    ]
    exact = Fraction if first.exact else float
    scale = exact(payoff_range(boards.game))
    return Certificate.from_best_responses(exact(x @ to_first), best[0], best[1], scale)


def sequence_images(boards: CanonicalBoards, player: int) -> np.ndarray:
    """Per sequence of ``G``, its image in ``G'``: ``(h, s)`` goes to ``(σh, s')`` with
    ``σ`` the node map's permutation of ``s``'s node (module docstring); the empty sequence
    goes to the empty sequence."""
    full = number_public_tree(boards.game)
    small = number_public_tree(boards.canonical)
    nodes = boards.nodes
    public = np.arange(1, full.num_public_sequences(player))
    node = full.sequence_node[player][public]
    offset = public - full.node_first[player][node]
    target = small.node_first[player][nodes.node[player][node]] + offset
    maps = np.stack([pair[player] for pair in boards.symmetries.hand_maps])
    image = maps[nodes.element[player][node]].T  # (H, public sequences)
    index = full.sequence_index[player][:, public]
    valid = index >= 0
    source = small.sequence_index[player][image, np.broadcast_to(target, image.shape)]
    if (source[valid] < 0).any():
        raise AssertionError("a sequence of the game has no image on canonical boards")
    kind = np.int32 if small.num_sequences(player) < 2**31 else np.int64
    images = np.zeros(full.num_sequences(player), dtype=kind)
    images[index[valid]] = source[valid]
    return images


def lift_plan(boards: CanonicalBoards, player: int, canonical_plan: np.ndarray) -> np.ndarray:
    """A plan of ``G'`` (symmetric on hand classes) as the plan of ``G``."""
    return canonical_plan[sequence_images(boards, player)]


def lift_behaviour(boards: CanonicalBoards, strategy: BehaviouralStrategy) -> BehaviouralStrategy:
    """A behavioural strategy of ``G'`` as one of ``G``: each information set ``(h, k)``
    plays as its image ``(σh, k')`` does (module docstring).  The lift is the strategy's on
    ``G`` when the strategy is the same on each hand class of ``G'`` (vector CFR's average
    is: :func:`seqform.structured.vector_cfr.canonical_vector_cfr`); then it has the same
    value against any lifted opponent, and the same NashConv, as on ``G'``."""
    player = strategy.player
    table = sequence_tables(boards.game)[player]
    images = sequence_images(boards, player)
    probabilities = strategy.probabilities[images]
    image_infosets = strategy.table.sequence_infoset[images[table.first_sequence]]
    unreached = strategy.unreached[image_infosets]
    return BehaviouralStrategy(table=table, probabilities=probabilities, unreached=unreached)
