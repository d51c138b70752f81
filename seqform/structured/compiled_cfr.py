"""Vector CFR on flat tables, stepped by compiled kernels: the same iterates, at compiled speed.

:class:`~seqform.structured.vector_cfr.VectorRegrets` runs each iteration as numpy calls per
leaf group and per depth; between them Python and the arrays they allocate cost more than
the arithmetic (a full-range river spends most of an iteration sorting card incidences and
gathering rows).  Here the public tree and the sequence tables are flattened once per game
(:class:`FlatGame`): per player the internal sequence of each (hand, public sequence), each
hand's weight times validity per public-card key, the hands' cards and twins; per public
leaf its rule's numbers, its public sequences, card key and level set; per level set each
player's levels and the hands in level order.  An iteration is then, per player, three calls
into :mod:`seqform.structured.cfr_kernels` (the opponent's plan, the leaf product, the
update), so the time is the kernels' and nothing is done per public node in Python; the
loop returns to Python after every iteration, where Ctrl-C is seen
(:func:`~seqform.iterative.run.run_iterations`).

:class:`CompiledRegrets` is a :class:`~seqform.iterative.cfr.FullTreeRegrets` on the same
:class:`~seqform.iterative.layout.TreeLayout` as vector CFR's, so its average, last iterate,
:meth:`state` and :meth:`restore` are that class's; only :meth:`step` differs.  In float64
(the default) it computes the numpy path's iterates up to the order of floating-point sums;
``storage="float32"`` keeps the regrets, the average's weights and the behaviour in float32
(half the memory) while every sum is taken in float64 and the certificate reads the average
in float64.

The flat tables are built from the public numbering alone (not from the numpy products'
leaf index, which gathers the sequence index per leaf: on a flop, gigabytes), and a compiled
run's certificate takes its products from the same kernel (:func:`compiled_leaf_payoffs`).

Needs numba (the ``fast`` extra); :func:`compiled_available` says whether it is installed.

Size: the flat tables, the stepper and the certificate's product read the same tables with
the same scratch; apart, each would re-derive the tables' invariants.
"""

from __future__ import annotations

import importlib.util
import itertools
import weakref
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from seqform.game.public.numbering import number_public_tree, structured_tables
from seqform.game.public.tree import PayoffRule, StructuredGame
from seqform.iterative.cfr import FullTreeRegrets
from seqform.iterative.layout import (
    CHUNK,
    PlayerLayout,
    TreeLayout,
    sequence_layout,
    to_table_order,
)
from seqform.iterative.passes import TIE_TOLERANCE
from seqform.iterative.rules import Discount, RegretRule, ScheduledRule
from seqform.structured.leaf_groups import THRESHOLD, rule_numbers, twin_hands
from seqform.structured.leaf_threads import (
    THREADED_PAIRS,
    BatchParts,
    batch_parts,
    default_threads,
    run_parts,
)

__all__ = [
    "BATCH",
    "STORAGE",
    "CompiledRegrets",
    "FlatGame",
    "FlatPlayer",
    "RuleStep",
    "compiled_available",
    "compiled_leaf_payoffs",
    "flat_game",
    "rule_step",
]

BATCH = 32
"""The most leaves one walk over the hands serves (their sums sit side by side: a batch's
scratch is ``BATCH`` floats per opponent hand and per card)."""

STORAGE = ("float64", "float32")
"""The storage of the regrets, the average's weights and the behaviour."""


def compiled_available() -> bool:
    """Whether numba, which the compiled kernels need, is installed (the ``fast`` extra)."""
    return importlib.util.find_spec("numba") is not None


@dataclass(frozen=True, eq=False)
class FlatPlayer:
    """One player's side of a :class:`FlatGame`, in the layout's internal numbering.

    index : shape (S_public, H), int32: the internal sequence of (public sequence, hand), -1
        where the pair does not exist (a leaf reads one row)
    factor : shape (card keys, H): the hand's weight times its validity under the key
    levels, order : shape (level sets, H): each hand's level, and the hands in level order
    cards : shape (H, k), the cards each hand holds (-1: none)
    twin : per hand, the opponent's hand of the same two cards (two-card hands), else -1
    """

    index: np.ndarray
    factor: np.ndarray
    levels: np.ndarray
    order: np.ndarray
    cards: np.ndarray
    twin: np.ndarray


@dataclass(frozen=True, eq=False)
class FlatGame:
    """A structured game's public leaves and both players' tables as flat arrays (module
    docstring), numbered by ``layout``: information sets by depth, then by public node, so
    that the hands of one node sit side by side and a leaf reads and writes a few cache
    lines instead of one per hand.

    The leaves come in *batches* of at most :data:`BATCH` that share the rule kind, the
    public cards, the level set and a threshold's quantity: one walk over the hands in
    level order serves a whole batch (:func:`~seqform.structured.cfr_kernels.leaf_product`).

    batch_start : shape (B + 1,), where each batch starts among the leaves in batch order
    batch_kind, batch_key, batch_levels, batch_quantity : per batch, the rule kind (0
        constant, 1 sign, 2 threshold), the public cards' key, the level set and a
        threshold's quantity
    sequences : shape (Z, 2), per leaf in batch order its public sequences
    first : per leaf, ``chance_z`` times a constant's payoff, a sign's stake or a
        threshold's ``if_reached``
    step : per leaf, ``chance_z (if_reached − otherwise)`` for a threshold, else 0
    players : both players' tables (:class:`FlatPlayer`)
    num_cards : one more than the largest card a hand holds (at least 1)
    width : the largest batch
    layout : the numbering of the sequences
    """

    batch_start: np.ndarray
    batch_kind: np.ndarray
    batch_key: np.ndarray
    batch_levels: np.ndarray
    batch_quantity: np.ndarray
    sequences: np.ndarray
    first: np.ndarray
    step: np.ndarray
    players: tuple[FlatPlayer, FlatPlayer]
    num_cards: int
    width: int
    layout: TreeLayout


def _positions(layout: PlayerLayout) -> np.ndarray:
    """Per table sequence, its internal position (the inverse of ``layout.order``), in the
    order's integer type and filled a slice at a time (no table-long ``arange``)."""
    position = np.empty(layout.num_sequences, dtype=layout.order.dtype)
    for low in range(0, layout.num_sequences, CHUNK):
        high = min(low + CHUNK, layout.num_sequences)
        position[layout.order[low:high]] = np.arange(low, high, dtype=position.dtype)
    return position


def _internal_index(table: np.ndarray, position: np.ndarray) -> np.ndarray:
    """Shape (S_public, H), int32: the internal sequence of each (public sequence, hand) of
    the numbering's hand-major ``table``, -1 where the pair does not exist; one hand at a
    time, so no temporary is longer than a public sequence's row."""
    index = np.empty(table.shape[::-1], dtype=np.int32)
    for hand, row in enumerate(table):
        index[:, hand] = np.where(row >= 0, position[np.maximum(row, 0)], -1)
    return index


def _node_major(game: StructuredGame) -> TreeLayout:
    """Vector CFR's layout with each depth's information sets ordered by public node."""
    numbering = number_public_tree(game)
    players = []
    for player, table in enumerate(structured_tables(game)):
        # each information set's public node, in the table's (hand-major) order
        nodes = np.concatenate(
            [np.flatnonzero(row >= 0).astype(np.int32) for row in numbering.infoset_index[player]]
        )
        players.append(sequence_layout(table, within_depth=nodes))
    return TreeLayout(players=tuple(players))


def _leaf_numbers(
    rules: tuple[PayoffRule, ...],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per leaf its rule kind, first and second number (floats) and quantity: converted
    once per rule object (a spot's leaves share a few dozen), not per leaf, and without
    :func:`~seqform.structured.leaf_groups.leaf_index`, whose per-group gathers of the
    sequence index (leaves × hands, both players) the kernels never read."""
    code: dict[int, int] = {}
    distinct: list[tuple[int, float, float, int]] = []
    which = np.empty(len(rules), dtype=np.int64)
    for leaf, rule in enumerate(rules):
        found = code.get(id(rule))
        if found is None:
            kind, first, second, quantity = rule_numbers(rule)
            found = code[id(rule)] = len(distinct)
            distinct.append((kind, float(first), float(second), quantity))
        which[leaf] = found
    table = np.asarray(distinct, dtype=float).reshape(-1, 4)
    kinds, quantities = table[:, 0].astype(np.int64), table[:, 3].astype(np.int64)
    return kinds[which], table[which, 1], table[which, 2], quantities[which]


def _level_sets(
    game: StructuredGame, leaf_levels: tuple[tuple[np.ndarray, np.ndarray] | None, ...]
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """Per leaf the number of its level set (0 for a constant), and the distinct sets (the
    leaves of one public-card set share the same array objects)."""
    sets: dict[tuple[int, int], int] = {}
    pairs: list[tuple[np.ndarray, np.ndarray]] = []
    level_set = np.zeros(len(leaf_levels), dtype=np.int64)
    for leaf, pair in enumerate(leaf_levels):
        if pair is None:
            continue
        found = sets.setdefault((id(pair[0]), id(pair[1])), len(pairs))
        if found == len(pairs):
            pairs.append(pair)
        level_set[leaf] = found
    if not pairs:  # constants only: one level set of zeros keeps the arrays two-dimensional
        pairs.append((np.zeros(game.num_hands(0), np.int64), np.zeros(game.num_hands(1), np.int64)))
    return level_set, pairs


def _hub_leaves(leaf_sequences: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Per leaf, 1 where a player's public sequence at it also ends leaves under other
    public cards (an all-in's runouts, say), else 0.

    Such leaves are batched apart from the other leaves of their cards: a batch holding
    both would tie every card's subtree to the shared sequence, and the threads of
    :mod:`seqform.structured.leaf_threads` need subtrees that write apart."""
    hub = np.zeros(len(keys), dtype=np.int64)
    for player in (0, 1):
        sequences = leaf_sequences[:, player].astype(np.int64)
        pairs = np.unique(np.stack([sequences, keys], axis=1), axis=0)
        spread = np.bincount(pairs[:, 0], minlength=int(sequences.max(initial=-1)) + 1)
        hub |= spread[sequences] > 1
    return hub


def _flat_game(game: StructuredGame) -> FlatGame:
    numbering = number_public_tree(game)
    layout = _node_major(game)
    kinds, first, second, quantity = _leaf_numbers(numbering.leaf_rules)
    level_set, pairs = _level_sets(game, numbering.leaf_levels)
    cards = [game.hands[p].card_matrix.astype(np.int64) for p in (0, 1)]
    num_cards = max(1, int(max(c.max(initial=-1) for c in cards)) + 1)
    players = []
    for p in (0, 1):
        internal = _internal_index(numbering.sequence_index[p], _positions(layout.players[p]))
        weights = np.asarray([float(w) for w in game.hands[p].weights], dtype=float)
        two_cards = game.hands[p].card_matrix.shape[1] == 2
        levels = np.stack([both[p].astype(np.int64) for both in pairs])
        players.append(
            FlatPlayer(
                index=internal,
                factor=np.ascontiguousarray(numbering.hand_valid[p] * weights[None, :]),
                levels=levels,
                order=np.argsort(levels, axis=1, kind="stable"),
                cards=np.ascontiguousarray(cards[p]),
                twin=twin_hands(game, p) if two_cards else np.full(len(weights), -1),
            )
        )
    keys = numbering.leaf_cards.astype(np.int64)
    hub = _hub_leaves(numbering.leaf_sequences, keys)
    leaves = np.lexsort((quantity, keys, level_set, hub, kinds))  # batch order
    same = np.stack([kinds, hub, level_set, keys, quantity], axis=1)[leaves]
    starts = np.flatnonzero(np.any(same[1:] != same[:-1], axis=1)) + 1
    bounds = [0, *starts.tolist(), len(leaves)]
    cuts = sorted(
        {*bounds, *(c for a, b in itertools.pairwise(bounds) for c in range(a, b, BATCH))}
    )
    first_leaf = leaves[cuts[:-1]]
    chance = numbering.leaf_chance_float.astype(float)[leaves]
    return FlatGame(
        batch_start=np.asarray(cuts, dtype=np.int64),
        batch_kind=kinds[first_leaf],
        batch_key=keys[first_leaf],
        batch_levels=level_set[first_leaf],
        batch_quantity=quantity[first_leaf],
        sequences=np.ascontiguousarray(numbering.leaf_sequences[leaves], dtype=np.int64),
        first=chance * first[leaves],
        step=np.where(kinds[leaves] == THRESHOLD, chance * (first - second)[leaves], 0.0),
        players=(players[0], players[1]),
        num_cards=num_cards,
        width=int(np.diff(cuts).max(initial=1)),
        layout=layout,
    )


_FLAT: weakref.WeakKeyDictionary[StructuredGame, FlatGame] = weakref.WeakKeyDictionary()


def flat_game(game: StructuredGame) -> FlatGame:
    """The game's :class:`FlatGame`, built once per game."""
    flat = _FLAT.get(game)
    if flat is None:
        flat = _FLAT[game] = _flat_game(game)
    return flat


Scratch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _scratch(flat: FlatGame, player: int) -> Scratch:
    """The leaf product's scratch for ``player``: the opponent's range, the sums per own
    hand, the opponent's sums whole and per card (a column per leaf of a batch)."""
    hands = [len(flat.players[p].twin) for p in (0, 1)]
    return (
        np.zeros((hands[1 - player], flat.width)),
        np.zeros((hands[player], flat.width)),
        np.zeros((3, flat.width)),
        np.zeros((3, flat.num_cards, flat.width)),
    )


@dataclass(frozen=True)
class ThreadedProduct:
    """What one player's product needs to run on several threads: the batches cut into
    parts that write disjoint sequences (:func:`~seqform.structured.leaf_threads.
    batch_parts`) and a scratch per part."""

    parts: BatchParts
    scratch: tuple[Scratch, ...]


def threaded_product(flat: FlatGame, player: int, threads: int | None = None) -> ThreadedProduct:
    """Player ``player``'s product cut for ``threads`` threads; by default the cores this
    process may use (:func:`~seqform.structured.leaf_threads.default_threads`) when the
    product visits at least :data:`~seqform.structured.leaf_threads.THREADED_PAIRS`
    (leaf, hand) pairs, else one."""
    hands = sum(len(side.twin) for side in flat.players)
    sizes = np.diff(flat.batch_start)
    if threads is None:
        pairs = len(flat.sequences) * hands
        threads = default_threads() if pairs >= THREADED_PAIRS else 1
    parts = batch_parts(flat.batch_start, flat.sequences[:, player], (sizes + 1.0) * hands, threads)
    return ThreadedProduct(parts, tuple(_scratch(flat, player) for _ in parts.parts))


def _leaf_product(
    kernels: ModuleType,
    flat: FlatGame,
    player: int,
    plan: np.ndarray,
    out: np.ndarray,
    threaded: ThreadedProduct,
) -> np.ndarray:
    """``A y`` (player 0, ``plan`` = player 1's) or ``Aᵀ x`` (player 1) into ``out``, both in
    the internal order (the compiled :func:`~seqform.structured.cfr_kernels.leaf_product`),
    a thread per part of ``threaded``: the same sums as one thread, bit for bit."""
    mine, theirs = flat.players[player], flat.players[1 - player]
    out[:] = 0.0

    def part(p: int) -> None:
        kernels.leaf_product(
            player, plan, out, threaded.parts.parts[p], flat.batch_start, flat.batch_kind,
            flat.batch_key, flat.batch_levels, flat.batch_quantity, flat.sequences, flat.first,
            flat.step, mine.index, theirs.index, mine.factor, theirs.factor, mine.levels,
            theirs.levels, mine.order, theirs.order, mine.cards, theirs.cards, mine.twin,
            *threaded.scratch[p],
        )  # fmt: skip

    run_parts(part, len(threaded.parts.parts))
    return out


def compiled_leaf_payoffs(
    game: StructuredGame, player: int, opponent_plan: np.ndarray
) -> np.ndarray | None:
    """The responder's payoff per own sequence in the tables' order (``A y`` for player 0,
    ``−Aᵀ x`` for player 1, as :func:`~seqform.structured.responses.leaf_payoffs` gives
    it) by the compiled leaf product, where a compiled run has built the game's flat tables
    and the plan is float; else None.  The certificate of a compiled run takes it: the
    numpy products' leaf index (leaves × hands per player) would double such a run's
    memory on a flop, and its sums take minutes there."""
    flat = _FLAT.get(game)
    if flat is None or opponent_plan.dtype == object or not compiled_available():
        return None
    from seqform.structured import cfr_kernels  # numba: imported only for a run

    own, other = flat.layout.players[player], flat.layout.players[1 - player]
    plan = np.take(np.asarray(opponent_plan, dtype=float), other.order)
    payoffs = _leaf_product(
        cfr_kernels, flat, player, plan, np.zeros(own.num_sequences), threaded_product(flat, player)
    )
    if player == 1:
        np.negative(payoffs, out=payoffs)
    return to_table_order(own, payoffs)


@dataclass(frozen=True)
class RuleStep:
    """A rule's steps 1–6 (:mod:`seqform.iterative.rules`) at one ``t``, as the numbers and
    flags :func:`~seqform.structured.cfr_kernels.update_player` reads.

    numbers : the weight ``w_t``, then the (``>= 0``, ``< 0``) factors of the lagged
        discount at ``t − 1``, the discount at ``t`` and the prediction's lagged discount at
        ``t`` (1 where a discount does not apply)
    flags : plus, predictive, lagged, discounted, prediction lagged
    """

    numbers: np.ndarray
    flags: np.ndarray


def _factors(discount: Discount | None, tau: int) -> tuple[float, float]:
    if discount is None:
        return 1.0, 1.0
    both = np.broadcast_to(discount.factors(np.array([1.0, -1.0]), tau), (2,))
    return float(both[0]), float(both[1])


def rule_step(rule: RegretRule | ScheduledRule, iteration: int) -> RuleStep:
    """``rule`` at iteration ``t`` (:class:`RuleStep`)."""
    if isinstance(rule, ScheduledRule):
        horizon = rule.horizon
        discount = None
        if rule.alpha is not None and rule.beta is not None and horizon is not None:
            discount = Discount(rule.alpha.at(iteration, horizon), rule.beta.at(iteration, horizon))
        lagged = None
    else:
        discount, lagged = rule.discount, rule.lagged
    numbers = np.array(
        [
            rule.weight(iteration),
            *_factors(lagged, iteration - 1),
            *_factors(discount, iteration),
            *_factors(lagged, iteration),
        ]
    )
    flags = np.array(
        [rule.plus, rule.predictive, lagged is not None, discount is not None, lagged is not None]
    )
    return RuleStep(numbers=numbers, flags=flags)


def _class_first(kernels: ModuleType, layout: PlayerLayout, classes: np.ndarray) -> np.ndarray:
    """Per internal sequence, the first internal sequence of its hand class (``classes``:
    per table sequence), in the order's integer type: what the update reads to share one
    regret per class (:func:`~seqform.structured.cfr_kernels.update_player`)."""
    first = np.empty(layout.num_sequences, dtype=layout.order.dtype)
    count = int(classes.max(initial=0)) + 1
    kernels.class_first_members(classes, layout.order, count, first)
    return first


class CompiledRegrets(FullTreeRegrets):
    """Vector CFR stepped by the compiled kernels (module docstring); ``storage`` one of
    :data:`STORAGE`; ``classes``: per player, each sequence's hand class (table order) when
    the members of a class share one regret (canonical boards,
    :func:`~seqform.structured.vector_cfr.canonical_vector_cfr`), kept as :attr:`classes`
    as given (the boards' own arrays, not copied into the internal order: the update reads
    per sequence its class's first member instead, and the certificate reads the classes
    through the order).  ``threads``: how many threads run the leaf product (default the
    cores this process may use, :func:`~seqform.structured.leaf_threads.default_threads`);
    the iterates are the same bit for bit whatever the count
    (:mod:`seqform.structured.leaf_threads`).

    Raises
    ------
    ValueError
        For a storage not in :data:`STORAGE`, or a rule that updates both players at once.
    ModuleNotFoundError
        Without numba.
    """

    def __init__(
        self,
        game: StructuredGame,
        rule: RegretRule | ScheduledRule,
        horizon: int | None = None,
        storage: str = "float64",
        classes: tuple[np.ndarray, np.ndarray] | None = None,
        threads: int | None = None,
    ) -> None:
        if storage not in STORAGE:
            raise ValueError(f"storage is one of {', '.join(STORAGE)}, not {storage!r}")
        if not rule.alternating:
            raise ValueError("the compiled vector CFR updates the players in turn")
        from seqform.structured import cfr_kernels  # numba: imported only for a run

        self._kernels = cfr_kernels
        flat = flat_game(game)
        layout = flat.layout
        super().__init__(  # allocated in the storage: no float64 copy passes through memory
            layout,
            [rule, rule],
            tie_tolerance=TIE_TOLERANCE,
            horizon=horizon,
            storage=storage,
            scratch=False,  # the kernels' scratch is `values` and `plans`
        )
        dtype = np.dtype(storage)
        self.game = game
        self.flat = flat
        # one scratch for both players' values and one for their plans: a half-step's
        # opponent plan is read by its product before its update writes the own plan, and
        # the product's values are read by that update alone (on a flop, 6 bytes a sequence)
        longest = max(player.num_sequences for player in layout.players)
        values, plans = np.zeros(longest), np.zeros(longest, dtype=dtype)
        self.values = [values[: player.num_sequences] for player in layout.players]
        self.plans = [plans[: player.num_sequences] for player in layout.players]
        self.classes = classes
        self._class_first = [np.zeros(0, np.int32)] * 2
        if classes is not None:
            self._class_first = [
                _class_first(cfr_kernels, player, table)
                for player, table in zip(layout.players, classes, strict=True)
            ]
        self._threaded = [threaded_product(flat, player, threads) for player in (0, 1)]
        self._tables = [
            (
                player.sequence_parent,
                player.infoset_first,
                player.infoset_parent,
                player.action_count,
            )
            for player in layout.players
        ]

    def step(self, iteration: int) -> None:
        self.iteration = iteration
        for player in (0, 1):
            self._half_step(player, iteration)

    def product(self, player: int, plan: np.ndarray, out: np.ndarray) -> np.ndarray:
        """``A y`` (player 0, ``plan`` = player 1's) or ``Aᵀ x`` (player 1) into ``out``, both
        in the internal order (the compiled :func:`~seqform.structured.cfr_kernels.
        leaf_product`)."""
        return _leaf_product(self._kernels, self.flat, player, plan, out, self._threaded[player])

    def _half_step(self, player: int, iteration: int) -> None:
        """Player ``player``'s accumulate and update (:class:`FullTreeRegrets`' order)."""
        kernels, other = self._kernels, 1 - player
        plan = self.plans[other]
        kernels.own_plan(self.behaviour[other], self._tables[other][0], plan)
        values = self.product(player, plan, self.values[player])
        if player == 1:  # Aᵀ x is player 0's payoff: player 1's own is its negation
            np.negative(values, out=values)
        step = rule_step(self.rules[player], iteration)  # type: ignore[arg-type]
        sequence_parent, infoset_first, infoset_parent, counts = self._tables[player]
        kernels.update_player(
            values,
            self.behaviour[player],
            self.regrets[player],
            self.cumulative[player],
            self.plans[player],
            sequence_parent,
            infoset_first,
            infoset_parent,
            counts,
            step.numbers,
            step.flags,
            self.tie_tolerance,
            self._class_first[player],
        )
