"""CFR, CFR+ and DCFR: full-tree counterfactual regret minimisation on the sequence form.

One iteration ``t`` updates the players in turn (alternating updates), player 0 first,
each against the others' *current* behaviour — so player 1 already sees player 0's
behaviour of iteration ``t + 1``.  For player ``i`` (see :mod:`seqform.iterative.layout`
for the passes):

1. ``y`` = the others' reach at each terminal, the product of their realization plans
   there (for two players the opponent's plan; for ``n`` players Zinkevich's
   counterfactual reach, chance times ``prod_{j != i} x_j``); counterfactual values ``v``
   of ``i``'s sequences against it;
2. cumulative regrets ``R(h, a) += v(h, a) - v(h)``;
3. cumulative plan ``S += w_t * x_i`` (``x_i``: ``i``'s own realization plan of the
   current behaviour; its parent entry is the own reach of each information set);
4. the variant's regret rule (:mod:`seqform.iterative.rules`) — CFR: none; CFR+:
   ``R = max(R, 0)`` (regret matching+); DCFR: ``R *= t^α / (t^α + 1)`` where ``R >= 0``
   and ``t^β / (t^β + 1)`` elsewhere; the other variants of that module likewise;
5. the new behaviour of ``i`` by regret matching of ``R`` (predictive rules: of ``R``
   plus the last instantaneous regret).

The average strategy is ``S(h, a) / sum_b S(h, b)`` (uniform where that is 0).  Weights
``w_t``: CFR 1, CFR+ ``t`` (linear averaging), DCFR ``t^γ``.

Between two iterations a run is ``R``, ``S`` and the current behaviour ``b`` of every player
(the number of iterations done beside them): :meth:`FullTreeRegrets.state` reads them as a
:class:`RegretState` in the sequence tables' numbering, and :meth:`FullTreeRegrets.restore`
writes one back, so that a run can be inspected, or carried to another layout of the same
game (:meth:`RegretState.renumbered`; vector CFR, :mod:`seqform.structured.vector_cfr`,
numbers the same sequences differently).

This is, step for step and in this order, what OpenSpiel's python ``cfr.CFRSolver``,
``cfr.CFRPlusSolver`` and ``discounted_cfr.DCFRSolver`` do with their default
parameters (alternating updates; DCFR α = 1.5, β = 0, γ = 2, Brown and Sandholm 2019);
they walk the histories and add regrets history by history, which sums to the same
numbers.  ``cfr(..., alternating=False)`` is the original simultaneous CFR of Zinkevich
et al. (2007).

Size: the run's state, its renumbering and the one stepper of the CFR family (node locks
included) are read together; the rules are in :mod:`seqform.iterative.rules`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

import numpy as np

from seqform.certify import certify
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.game.sequences import PlayerSequences
from seqform.iterative.layout import PlayerLayout, TreeLayout, build_layout, to_table_order
from seqform.iterative.passes import (
    average_profile,
    counterfactual_values,
    largest_magnitude,
    others_reach,
    realization_plan,
    regret_matching,
    ties_cleared,
)
from seqform.iterative.rules import CFR, CFR_PLUS, DCFR, Discount, Rule, for_run
from seqform.iterative.run import (
    DEFAULT_EVERY,
    IterativeResult,
    OnSample,
    Stopping,
    run_iterations,
)

__all__ = [
    "FullTreeRegrets",
    "RegretState",
    "cfr",
    "cfr_plus",
    "dcfr",
    "sequence_positions",
    "solve_with_rule",
]


@dataclass(frozen=True, eq=False)
class RegretState:
    """A run of :class:`FullTreeRegrets` between two iterations, every array per player in
    the numbering of that player's sequence table (index 0: the empty sequence).

    iteration : iterations done; the next step is ``iteration + 1``
    tables : per player, the sequence table the arrays are numbered by
    regrets : cumulative regrets ``R`` after the rule's steps 1-4 of
        :mod:`seqform.iterative.rules` (0 at index 0)
    cumulative : the average's weights ``S = sum_t w_t x_t`` (step 3 of the module
        docstring; ``S[0]`` is the sum of the weights)
    behaviour : the current behaviour ``b(a | h)`` (1 at index 0), regret matching of step 5
        -- for a predictive rule of ``R + m``, so the prediction ``m`` (the last
        instantaneous regret) is in it and needs no array of its own

    These are everything an iteration reads of the past: the instantaneous regrets and the
    payoff scale of the ties are recomputed by each step.  A rule with a state of its own
    (regression CFR's regressor, :mod:`seqform.iterative.rcfr`) keeps it outside.
    """

    iteration: int
    tables: tuple[PlayerSequences, ...]
    regrets: tuple[np.ndarray, ...]
    cumulative: tuple[np.ndarray, ...]
    behaviour: tuple[np.ndarray, ...]

    def renumbered(
        self,
        tables: Sequence[PlayerSequences],
        positions: Sequence[np.ndarray] | None = None,
    ) -> RegretState:
        """The same state numbered by ``tables``: each sequence found by its label
        (information-set name and action), as the tree and the public tree × hands name
        the same sequences (:mod:`seqform.structured.responses`).  ``positions``: per player,
        :func:`sequence_positions` from this state's tables to ``tables``, when the caller
        keeps them (finding them reads every label).

        Raises
        ------
        ValueError
            If a player's tables do not hold the same labels.
        """
        if positions is None:
            positions = [
                sequence_positions(own, other)
                for own, other in zip(self.tables, tables, strict=True)
            ]

        def moved(arrays: tuple[np.ndarray, ...]) -> tuple[np.ndarray, ...]:
            return tuple(array[where] for array, where in zip(arrays, positions, strict=True))

        return RegretState(
            iteration=self.iteration,
            tables=tuple(tables),
            regrets=moved(self.regrets),
            cumulative=moved(self.cumulative),
            behaviour=moved(self.behaviour),
        )


def sequence_positions(source: PlayerSequences, target: PlayerSequences) -> np.ndarray:
    """Per sequence of ``target``, the index of the sequence with the same label in
    ``source`` (``array[positions]`` renumbers an array of ``source``'s onto ``target``).

    Raises
    ------
    ValueError
        If the two tables do not hold the same labels.
    """
    if source is target:
        return np.arange(target.num_sequences)
    index = {label: sequence for sequence, label in enumerate(source.labels())}
    labels = target.labels()
    missing = [label for label in labels if label not in index]
    if missing or len(labels) != len(index):
        raise ValueError(
            f"player {target.player + 1}: the tables number different sequences "
            f"({source.num_sequences:,} and {target.num_sequences:,}; e.g. {missing[:1]})"
        )
    return np.fromiter((index[label] for label in labels), dtype=np.int64, count=len(labels))


class FullTreeRegrets:
    """Cumulative regrets, cumulative plans and current behaviour of every player, moved
    by one :class:`~seqform.iterative.rules.RegretRule` per player (the module
    docstring's steps; the rule's own steps are in :mod:`seqform.iterative.rules`).
    ``horizon``: the run's number of iterations, which a hyperparameter schedule needs
    (:func:`~seqform.iterative.rules.for_run`).  ``locks``: per player, information set →
    fixed action probabilities (node locks, :mod:`seqform.forms.locks`); there the current
    behaviour stays the locked mix and no regret is kept, so the average is the locked mix
    too.  ``scratch=False``: no ``instant`` or ``work`` arrays, for a subclass whose
    :meth:`step` keeps no per-sequence scratch of these passes (the compiled kernels)."""

    def __init__(
        self,
        layout: TreeLayout,
        rules: Sequence[Rule],
        tie_tolerance: float = 0.0,
        horizon: int | None = None,
        locks: Sequence[Mapping[int, Sequence[Any]]] | None = None,
        *,
        storage: str = "float64",
        scratch: bool = True,
    ) -> None:
        self.layout = layout
        self.tie_tolerance = tie_tolerance  # ties_cleared: 0 clears nothing
        self.rules = tuple(for_run(rule, horizon) for rule in rules)
        self.alternating = self.rules[0].alternating
        self.iteration = 0  # iterations done
        sizes = [player.num_sequences if scratch else 0 for player in layout.players]
        self.regrets = [np.zeros(player.num_sequences, storage) for player in layout.players]
        self.instant = [np.zeros(size, storage) for size in sizes]  # instantaneous regrets
        self.cumulative = [np.zeros(player.num_sequences, storage) for player in layout.players]
        self.scale = [0.0 for _ in layout.players]  # the largest sequence value, for ties
        self.work = [np.zeros(size, storage) for size in sizes]  # scratch of the numpy passes
        self.behaviour = [
            regret_matching(player, regrets, out=np.zeros_like(regrets))
            for player, regrets in zip(layout.players, self.regrets, strict=True)
        ]
        self.locked = [
            _locked_positions(player, locks[index] if locks else {})
            for index, player in enumerate(layout.players)
        ]
        for player in range(len(layout.players)):
            self._keep_locks(player)

    def _keep_locks(self, player: int) -> None:
        """The locked information sets' behaviour back to the locked mix, their regrets 0."""
        positions, values = self.locked[player]
        if len(positions):
            self.behaviour[player][positions] = values
            self.regrets[player][positions] = 0.0

    def step(self, iteration: int) -> None:
        self.iteration = iteration
        players = range(len(self.layout.players))
        if self.alternating:
            for player in players:
                self._accumulate(player, iteration)
                self._update(player, iteration)
        else:
            for player in players:
                self._accumulate(player, iteration)
            for player in players:
                self._update(player, iteration)

    def _accumulate(self, player: int, iteration: int) -> None:
        layout = self.layout
        own = layout.players[player]
        plans = [
            realization_plan(other, behaviour) if index != player else behaviour
            for index, (other, behaviour) in enumerate(
                zip(layout.players, self.behaviour, strict=True)
            )
        ]
        weights = own.terminal_utility * others_reach(layout, plans, player)
        values = counterfactual_values(own, self.behaviour[player], weights)
        self.scale[player] = largest_magnitude(values.sequences)
        instant = values.regrets(own, out=self.instant[player])
        ties_cleared(instant, self.scale[player], self.tie_tolerance, out=instant)
        self._average(player, iteration)

    def _average(self, player: int, iteration: int) -> None:
        """Step 3: ``S += w_t x_i``, through a work array kept between iterations."""
        own_plan = realization_plan(
            self.layout.players[player], self.behaviour[player], self.work[player]
        )
        own_plan *= self.rules[player].weight(iteration)
        self.cumulative[player] += own_plan

    def _update(self, player: int, iteration: int) -> None:
        rule, regrets, instant = self.rules[player], self.regrets[player], self.instant[player]
        rule.accumulate(regrets, instant, iteration)
        scale, tolerance = self.scale[player], self.tie_tolerance
        ties_cleared(regrets, scale, tolerance, out=regrets)  # a sum that cancels is 0
        matched = rule.matched(regrets, instant, iteration)
        if matched is not regrets:  # regrets are cleared already
            matched = ties_cleared(matched, scale, tolerance, out=self.work[player])
        regret_matching(self.layout.players[player], matched, out=self.behaviour[player])
        self._keep_locks(player)

    def average(self) -> tuple[BehaviouralStrategy, ...]:
        return average_profile(self.layout, self.cumulative)

    def state(self) -> RegretState:
        """The run so far, copied out in the tables' numbering (:class:`RegretState`)."""
        players = self.layout.players

        def table_order(arrays: list[np.ndarray]) -> tuple[np.ndarray, ...]:
            return tuple(
                to_table_order(player, array) for player, array in zip(players, arrays, strict=True)
            )

        return RegretState(
            iteration=self.iteration,
            tables=tuple(player.table for player in players),
            regrets=table_order(self.regrets),
            cumulative=table_order(self.cumulative),
            behaviour=table_order(self.behaviour),
        )

    def restore(self, state: RegretState) -> None:
        """Continue from ``state`` (copied in): the next step is ``state.iteration + 1``.

        Raises
        ------
        ValueError
            If ``state`` is numbered by other tables (see :meth:`RegretState.renumbered`).
        """
        players = self.layout.players
        for player, table in zip(players, state.tables, strict=True):
            own = player.table
            if table is not own and (
                table.infosets != own.infosets or table.sequence_action != own.sequence_action
            ):
                raise ValueError(
                    f"player {own.player + 1}: the state is numbered by another table "
                    "(renumber it with RegretState.renumbered)"
                )
        for index, player in enumerate(players):
            np.take(state.regrets[index], player.order, out=self.regrets[index])
            np.take(state.cumulative[index], player.order, out=self.cumulative[index])
            np.take(state.behaviour[index], player.order, out=self.behaviour[index])
            self._keep_locks(index)
        self.iteration = state.iteration

    def current(self) -> tuple[BehaviouralStrategy, ...]:
        """The last iterate: every player's current behaviour."""
        return tuple(
            BehaviouralStrategy(
                table=player.table,
                probabilities=to_table_order(player, behaviour),
                unreached=np.zeros(player.table.num_infosets, dtype=bool),
            )
            for player, behaviour in zip(self.layout.players, self.behaviour, strict=True)
        )


def _locked_positions(
    player: PlayerLayout, fixed: Mapping[int, Sequence[Any]]
) -> tuple[np.ndarray, np.ndarray]:
    """The internal positions of the locked sequences and their probabilities."""
    table = player.table
    inverse = np.empty(len(player.order), dtype=np.int64)
    inverse[player.order] = np.arange(len(player.order))
    sequences = [s for index in sorted(fixed) for s in table.sequences_of(index)]
    values = [float(p) for index in sorted(fixed) for p in fixed[index]]
    return inverse[np.asarray(sequences, dtype=np.int64)], np.asarray(values, dtype=float)


def solve_with_rule(
    game: Game,
    rule: Rule,
    algorithm: str,
    stopping: Stopping,
    on_sample: OnSample | None = None,
    *,
    last_iterate: bool = False,
    tie_tolerance: float = 0.0,
    locks: Sequence[Mapping[int, Sequence[Fraction]]] | None = None,
) -> IterativeResult:
    """Run the loop of the module docstring with ``rule`` for every player.

    ``last_iterate`` also measures NashConv of the current behaviour at each sample
    (:attr:`~seqform.iterative.run.Sample.last_nash_conv`); ``tie_tolerance`` clears ties
    (:func:`~seqform.iterative.passes.ties_cleared`; 0, the default, clears none).
    ``locks`` (two players): per player, the locked information sets' probabilities; the
    behaviour stays there (:class:`FullTreeRegrets`) and NashConv is that of the locked
    game (best responses keep the locked behaviour).
    """
    stepper = FullTreeRegrets(
        build_layout(game),
        [rule] * game.flat.num_players,
        tie_tolerance=tie_tolerance,
        horizon=stopping.iterations,
        locks=locks,
    )
    measure = None
    if locks is not None:
        bounds = tuple({i: tuple((p, p) for p in mix) for i, mix in own.items()} for own in locks)

        def measure(strategies: tuple[BehaviouralStrategy, ...]) -> float:
            return float(certify(game, strategies[0], strategies[1], bounds).nash_conv)  # type: ignore[arg-type]

    return run_iterations(
        game,
        stepper,
        stopping,
        algorithm,
        on_sample,
        last_iterate=last_iterate,
        nash_conv=measure,
    )


def cfr(
    game: Game,
    iterations: int | None = None,
    *,
    alternating: bool = True,
    target: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    on_sample: OnSample | None = None,
) -> IterativeResult:
    """Vanilla CFR (Zinkevich et al. 2007): regret matching, uniform averaging.

    Alternating updates by default, as OpenSpiel's ``CFRSolver``; ``alternating=False``
    updates both players from the same profile.  Stops after ``iterations``, once a
    measured NashConv is at most ``target``, after ``time_limit`` seconds of solver time,
    or when ``on_sample`` returns True, whichever comes first.
    """
    stopping = Stopping(iterations, target, time_limit, every)
    rule = replace(CFR, alternating=alternating)
    return solve_with_rule(game, rule, "cfr", stopping, on_sample)


def cfr_plus(
    game: Game,
    iterations: int | None = None,
    *,
    target: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    on_sample: OnSample | None = None,
) -> IterativeResult:
    """CFR+ (Tammelin 2014): regret matching+, alternating updates, linear averaging."""
    stopping = Stopping(iterations, target, time_limit, every)
    return solve_with_rule(game, CFR_PLUS, "cfr+", stopping, on_sample)


def dcfr(
    game: Game,
    iterations: int | None = None,
    *,
    alpha: float = 1.5,
    beta: float = 0.0,
    gamma: float = 2.0,
    target: float | None = None,
    time_limit: float | None = None,
    every: int = DEFAULT_EVERY,
    on_sample: OnSample | None = None,
) -> IterativeResult:
    """Discounted CFR (Brown and Sandholm 2019), by default DCFR(1.5, 0, 2).

    Positive cumulative regrets are multiplied by ``t^α / (t^α + 1)`` and negative ones by
    ``t^β / (t^β + 1)`` after each update; iteration ``t`` weighs ``t^γ`` in the average.
    """
    stopping = Stopping(iterations, target, time_limit, every)
    rule = replace(DCFR, discount=Discount(alpha, beta), gamma=gamma)
    return solve_with_rule(game, rule, "dcfr", stopping, on_sample)
