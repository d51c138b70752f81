"""Vector CFR on flat tables, stepped by compiled kernels: the same iterates, at compiled speed.

:class:`~seqform.structured.vector_cfr.VectorRegrets` runs each iteration as numpy calls per
leaf group and per depth; between them Python and the arrays they allocate cost more than
the arithmetic (a full-range river spends most of an iteration sorting card incidences and
gathering rows).  Here the public tree and the sequence tables are flattened once per game
(:class:`~seqform.structured.flat_tables.FlatGame`).  An iteration is then, per player, four
calls into :mod:`seqform.structured.cfr_kernels` (the opponent's plan, the leaf product,
the update's two halves), so the time is the kernels' and nothing is done per public node
in Python; the loop returns to Python after every iteration, where Ctrl-C is seen
(:func:`~seqform.iterative.run.run_iterations`).

On a large game (:func:`run_threads`) the product runs on threads
(:mod:`seqform.structured.leaf_threads`), and so do the plan and the update's second half:
each depth's information sets cut into parts, one thread each, the depths one after the
other (:class:`DepthParts`).  Every number is computed as on one thread, so the iterates
are the same bit for bit whatever the count.  On the full-range turn of
``benchmarks/vcfr_speed.py`` the update's second half took 14.6 ms on one thread and 8.0
on two (``benchmarks/results/measurements.md``).

:class:`CompiledRegrets` is a :class:`~seqform.iterative.cfr.FullTreeRegrets` on the same
:class:`~seqform.iterative.layout.TreeLayout` as vector CFR's, so its average, last iterate,
:meth:`state` and :meth:`restore` are that class's; only :meth:`step` differs.  In float64
(the default) it computes the numpy path's iterates up to the order of floating-point sums;
``storage="float32"`` keeps the regrets, the average's weights and the behaviour in float32
(half the memory) while every sum is taken in float64 and the certificate reads the average
in float64.

A compiled run's certificate takes its products from the same kernel
(:func:`compiled_leaf_payoffs`), on as many threads as the run
(:mod:`seqform.structured.leaf_threads`).

Needs numba (the ``fast`` extra); :func:`compiled_available` says whether it is installed.

Size: the stepper and the certificate's product share the product's threads, scratch and
the rule's numbers; apart, each would re-derive them.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from seqform.game.public.tree import StructuredGame
from seqform.iterative.cfr import FullTreeRegrets, RegretState
from seqform.iterative.layout import (
    PlayerLayout,
    to_table_order,
)
from seqform.iterative.passes import TIE_TOLERANCE, realization_plan
from seqform.iterative.rules import Discount, RegretRule, ScheduledRule
from seqform.structured.flat_tables import FlatGame, built_flat_game, flat_game
from seqform.structured.leaf_threads import (
    THREADED_PAIRS,
    BatchParts,
    batch_parts,
    default_threads,
    run_parts,
)

__all__ = [
    "STORAGE",
    "CompiledRegrets",
    "DepthParts",
    "RuleStep",
    "ThreadedProduct",
    "compiled_available",
    "compiled_leaf_payoffs",
    "depth_parts",
    "rule_step",
    "run_threads",
    "threaded_product",
]

STORAGE = ("float64", "float32")
"""The storage of the regrets, the average's weights and the behaviour."""


def compiled_available() -> bool:
    """Whether numba, which the compiled kernels need, is installed (the ``fast`` extra)."""
    return importlib.util.find_spec("numba") is not None


Scratch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _scratch(flat: FlatGame, player: int) -> Scratch:
    """The leaf product's scratch for ``player``: the opponent's range, the payoffs per own
    hand (a row per leaf of a batch), the opponent's sums whole and per card (a column per
    leaf of a batch), the range and the cards each with a row of zeros at the end
    (:func:`~seqform.structured.cfr_kernels.leaf_product`)."""
    hands = [len(flat.players[p].twin) for p in (0, 1)]
    return (
        np.zeros((hands[1 - player] + 1, flat.width)),
        np.zeros((flat.width, hands[player])),
        np.zeros((3, flat.width)),
        np.zeros((3, flat.num_cards + 1, flat.width)),
    )


@dataclass(frozen=True)
class ThreadedProduct:
    """What one player's product needs to run on several threads: the batches cut into
    parts that write disjoint sequences (:func:`~seqform.structured.leaf_threads.
    batch_parts`) and a scratch per part."""

    parts: BatchParts
    scratch: tuple[Scratch, ...]


def run_threads(flat: FlatGame, threads: int | None = None) -> int:
    """How many threads a run on ``flat`` uses for its products and updates: ``threads``
    where given; by default the cores this process may use
    (:func:`~seqform.structured.leaf_threads.default_threads`) when a product visits at
    least :data:`~seqform.structured.leaf_threads.THREADED_PAIRS` (leaf, hand) pairs,
    else one."""
    if threads is not None:
        return threads
    pairs = len(flat.sequences) * sum(len(side.twin) for side in flat.players)
    return default_threads() if pairs >= THREADED_PAIRS else 1


def threaded_product(flat: FlatGame, player: int, threads: int | None = None) -> ThreadedProduct:
    """Player ``player``'s product cut for ``threads`` threads (:func:`run_threads`)."""
    hands = sum(len(side.twin) for side in flat.players)
    sizes = np.diff(flat.batch_start)
    work = (sizes + 1.0) * hands
    parts = batch_parts(
        flat.batch_start, flat.sequences[:, player], work, run_threads(flat, threads)
    )
    return ThreadedProduct(parts, tuple(_scratch(flat, player) for _ in parts.parts))


@dataclass(frozen=True)
class DepthParts:
    """One player's information sets cut for the passes on threads, per depth.

    infosets : ``parts + 1`` boundaries of the depth's sets, cut where their sequences
        divide evenly: for the top-down passes, whose sets read only their parents' plans
        (at shallower depths), so the parts of a depth run at once
    upward : boundaries of the depth's sets for the bottom-up pass, whose sets add into
        their parent sequences: cut only where no parent has a set on both sides (as near
        the even cut as there is such a place; one part where there is none), so that each
        parent's sum is taken by one thread in the order of one

    The depths run one after the other.  With one part, one range covers every set (the
    root's sequence 0, in no set, the caller sets): one call.
    """

    infosets: tuple[tuple[int, ...], ...]
    upward: tuple[tuple[int, ...], ...]


def depth_parts(layout: PlayerLayout, parts: int) -> DepthParts:
    """``layout`` cut into ``parts`` per depth (:class:`DepthParts`)."""
    if parts <= 1 or not layout.levels:
        whole = ((0, layout.num_infosets),)
        return DepthParts(whole, whole)
    infosets, upward = [], []
    for level in layout.levels:
        low, high = level.sequences.start, level.sequences.stop
        cuts = [low + (high - low) * k // parts for k in range(1, parts)]
        firsts = layout.infoset_first[level.infosets]
        at = np.searchsorted(firsts, cuts) + level.infosets.start
        infosets.append((level.infosets.start, *map(int, at), level.infosets.stop))
        upward.append(_disjoint_cuts(layout.infoset_parent[level.infosets], at, level.infosets))
    return DepthParts(tuple(infosets), tuple(upward))


def _disjoint_cuts(parents: np.ndarray, wanted: np.ndarray, sets: range | slice) -> tuple[int, ...]:
    """The boundaries of ``sets`` (whose parent sequences are ``parents``) at the places
    nearest to ``wanted`` where no parent sequence has a set on both sides.

    A cut before the ``k``-th set is such a place when every set before it has its
    parent's last set before it too: the running maximum of the parents' last positions
    (``np.maximum.at``: the last occurrence, whatever numpy's order of assignment) is below
    ``k``.  Memory: three integer arrays as long as the depth's sets, once per run.
    """
    start, stop = int(sets.start), int(sets.stop)
    count = stop - start
    if count < 2:
        return (start, stop)
    lowest = int(parents.min())
    position = np.arange(count, dtype=np.int32)
    last = np.zeros(int(parents.max()) - lowest + 1, dtype=np.int32)
    np.maximum.at(last, parents - lowest, position)
    reach = np.maximum.accumulate(last[parents - lowest])
    valid = np.flatnonzero(reach[:-1] < position[1:]) + 1  # cuts inside the depth
    if valid.size == 0:
        return (start, stop)
    wanted = np.asarray(wanted) - start
    nearest = np.clip(np.searchsorted(valid, wanted), 1, valid.size) - 1
    later = np.minimum(nearest + 1, valid.size - 1)
    pick = np.where(np.abs(valid[later] - wanted) < np.abs(valid[nearest] - wanted), later, nearest)
    chosen = sorted({int(valid[i]) + start for i in pick})
    return (start, *chosen, stop)


def _leaf_product(
    kernels: ModuleType,
    flat: FlatGame,
    player: int,
    plan: np.ndarray,
    out: np.ndarray,
    threaded: ThreadedProduct,
) -> np.ndarray:
    """The player's own payoff, ``A y`` (player 0, ``plan`` = player 1's) or ``−Aᵀ x``
    (player 1), into ``out``, both in the internal order (the compiled
    :func:`~seqform.structured.cfr_kernels.leaf_product`), a thread per part of
    ``threaded``: the same sums as one thread, bit for bit."""
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
    flat = built_flat_game(game)
    if flat is None or opponent_plan.dtype == object or not compiled_available():
        return None
    from seqform.structured import cfr_kernels  # numba: imported only for a run

    own, other = flat.layout.players[player], flat.layout.players[1 - player]
    plan = np.take(np.asarray(opponent_plan, dtype=float), other.order)
    payoffs = _leaf_product(
        cfr_kernels, flat, player, plan, np.zeros(own.num_sequences), threaded_product(flat, player)
    )
    return to_table_order(own, payoffs)


@dataclass(frozen=True)
class RuleStep:
    """A rule's steps 1–6 (:mod:`seqform.iterative.rules`) at one ``t``, as the numbers and
    flags :func:`~seqform.structured.cfr_kernels.update_infosets` reads.

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


def _class_offset(kernels: ModuleType, layout: PlayerLayout, classes: np.ndarray) -> np.ndarray:
    """Per internal sequence, how far before it the first internal sequence of its hand
    class is (``classes``: per table sequence), in the narrowest unsigned type that holds
    the largest distance: what the update reads to share one regret per class
    (:func:`~seqform.structured.cfr_kernels.update_infosets`).  A class's members are the
    hands of one public node, which sit side by side in the internal order, so the
    distances are below a node's sequences (uint16 on a flop: 2 bytes a sequence, where
    the first members' own numbers took 4)."""
    count = int(classes.max(initial=0)) + 1
    scratch = np.full(count, -1, dtype=layout.order.dtype)
    largest = kernels.class_first_members(classes, layout.order, scratch, np.zeros(0, np.uint8))
    offset = np.empty(layout.num_sequences, dtype=_offset_type(int(largest)))
    scratch.fill(-1)
    kernels.class_first_members(classes, layout.order, scratch, offset)
    return offset


def _offset_type(largest: int) -> np.dtype:
    """The narrowest of uint8, uint16 and uint32 that holds ``largest``, else int64 (which
    a compiled index minus it stays: an unsigned 64-bit one would make it a float)."""
    for dtype in (np.uint8, np.uint16, np.uint32):
        if largest <= np.iinfo(dtype).max:
            return np.dtype(dtype)
    return np.dtype(np.int64)


class CompiledRegrets(FullTreeRegrets):
    """Vector CFR stepped by the compiled kernels (module docstring); ``storage`` one of
    :data:`STORAGE`; ``classes``: per player, each sequence's hand class (table order) when
    the members of a class share one regret (canonical boards,
    :func:`~seqform.structured.vector_cfr.canonical_vector_cfr`), kept as :attr:`classes`
    as given (the boards' own arrays, not copied into the internal order: the update and the
    certificate read per sequence how far before it its class's first member is,
    :attr:`class_offset`).  ``threads``: how many threads run the leaf product (default the
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
        # one scratch for both players' values: the product's values are read by that
        # half-step's update alone (on a flop, 4 bytes a sequence); each player's plan of
        # its current behaviour is kept from its update, which writes it, to the
        # opponent's product and its own next update, which read it
        longest = max(player.num_sequences for player in layout.players)
        values = np.zeros(longest)
        self.values = [values[: player.num_sequences] for player in layout.players]
        self.plans = [np.zeros(player.num_sequences, dtype=dtype) for player in layout.players]
        self.classes = classes
        self.class_offset = [np.zeros(0, np.uint8)] * 2
        if classes is not None:
            self.class_offset = [
                _class_offset(cfr_kernels, player, table)
                for player, table in zip(layout.players, classes, strict=True)
            ]
        self._threaded = [threaded_product(flat, player, threads) for player in (0, 1)]
        count = run_threads(flat, threads)
        self._depths = [depth_parts(player, count) for player in layout.players]
        for player in (0, 1):  # the uniform behaviour's: the first updates add it
            self.plan_of(player)

    def step(self, iteration: int) -> None:
        self.iteration = iteration
        for player in (0, 1):
            self._half_step(player, iteration)

    def product(self, player: int, plan: np.ndarray, out: np.ndarray) -> np.ndarray:
        """The player's own payoff, ``A y`` (player 0, ``plan`` = player 1's) or ``−Aᵀ x``
        (player 1), into ``out``, both in the internal order (the compiled
        :func:`~seqform.structured.cfr_kernels.leaf_product`)."""
        return _leaf_product(self._kernels, self.flat, player, plan, out, self._threaded[player])

    def plan_of(self, player: int) -> np.ndarray:
        """``player``'s realization plan of its current behaviour, computed again into
        ``plans[player]`` (internal order), where each update leaves it: at the start and
        after :meth:`restore`, which set the behaviour without an update.  By the numpy
        path's :func:`~seqform.iterative.passes.realization_plan`, a depth at a time: the
        same products as the update's, and no kernel to load for a pass that runs once
        (0.06 s on the full-range turn, where loading a compiled one took 0.2 s)."""
        layout = self.layout.players[player]
        return realization_plan(layout, self.behaviour[player], self.plans[player])

    def _upward(self, player: int, values: np.ndarray) -> float:
        """The update's bottom-up pass (:func:`~seqform.structured.cfr_kernels.
        counterfactual_regrets`) by depth, deepest first, each depth in parts on the run's
        threads (:class:`DepthParts`' ``upward``), then the class sums; the largest
        ``|v(s)|``, the root's included."""
        own, kernels = self.layout.players[player], self._kernels
        tables = (own.infoset_first, own.infoset_parent, own.action_count)
        arrays = (values, self.behaviour[player], *tables)
        scales: list[float] = []
        regrets = kernels.counterfactual_regrets
        for cuts in reversed(self._depths[player].upward):
            run_parts(
                lambda p, c=cuts: scales.append(regrets(*arrays, c[p], c[p + 1])),  # type: ignore[misc]
                len(cuts) - 1,
            )
        if self.class_offset[player].size:
            kernels.class_regrets(values, self.class_offset[player])
        return max(*scales, abs(float(values[0])))

    def restore(self, state: RegretState) -> None:
        super().restore(state)
        for player in (0, 1):
            self.plan_of(player)

    def _half_step(self, player: int, iteration: int) -> None:
        """Player ``player``'s accumulate and update (:class:`FullTreeRegrets`' order): the
        product against the opponent's plan, then the update's two kernels, its second half
        by depth in parts on the run's threads (:class:`DepthParts`), which leaves the
        player's new plan in ``plans[player]``."""
        kernels = self._kernels
        values = self.product(player, self.plans[1 - player], self.values[player])
        step = rule_step(self.rules[player], iteration)  # type: ignore[arg-type]
        own, offset = self.layout.players[player], self.class_offset[player]
        behaviour, infoset_first = self.behaviour[player], own.infoset_first
        bound = self.tie_tolerance * self._upward(player, values)
        arrays = (
            values,
            behaviour,
            self.regrets[player],
            self.cumulative[player],
            self.plans[player],
            own.infoset_parent,
            infoset_first,
            own.action_count,
            step.numbers,
            bound,
            offset,
        )
        self.plans[player][0] = 1.0  # the root's sequence, in no information set
        self.cumulative[player][0] += step.numbers[0]
        update = kernels.update_infosets(*step.flags)
        for cuts in self._depths[player].infosets:
            run_parts(lambda p, c=cuts: update(*arrays, c[p], c[p + 1]), len(cuts) - 1)  # type: ignore[misc]
