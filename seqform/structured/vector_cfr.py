"""The CFR family on the public tree × private hands: vector CFR, without the game tree.

Tree CFR (:mod:`seqform.iterative.cfr`) gets each sequence's payoff against the others by
summing its terminals: ``v(σ) = Σ_z chance(z) · reach_{−i}(z) · u_i(z)``, which for two
players is the sequence form's ``A y`` for player 0 and ``−Aᵀ x`` for player 1 (KMvS 1996).
Here those two vectors come from the structured products (:mod:`seqform.structured.products`):
at each public leaf the opponent's range vector is summed by hand strength (a running sum
over sorted levels, with card removal), ``O(H)`` per leaf instead of ``O(H²)`` deals — the
range-vector form of CFR of Johanson, Bard, Lanctot, Gibson and Bowling (AAMAS 2012,
"Efficient Nash equilibrium approximation through Monte Carlo counterfactual regret
minimization", public-chance sampling without sampling), which DeepStack and Libratus also
use on the public tree.  Everything after those vectors — the bottom-up pass to
counterfactual values, the regrets, the variant's rule, regret matching, the average — is the
tree's own code on the same sequence tables (:func:`~seqform.iterative.layout.sequence_layout`),
so the iterates are the tree's, in the same order (alternating updates, player 0 first), up to
the summation order of floating point.

NashConv of the average is measured by the structured best response
(:func:`seqform.structured.responses.certify`), also without the tree.  The algorithms are the
deterministic rules of :data:`seqform.iterative.rules.RULES` (cfr, cfr+, dcfr, lcfr, pcfr+,
dcfr+, pdcfr+ and the hyperparameter schedules hs-*); XFP, RCFR and MCCFR run on the tree
only.

A game invariant under suit permutations runs on its canonical boards ``G'``
(:func:`canonical_vector_cfr`; :mod:`seqform.structured.reductions.suit_reduction`), a structured
game
itself, and its average is lifted to ``G``.  Why the lift is ``G``'s answer:

* ``G'`` alone is not ``G`` (the members of a hand class see different canonical boards:
  :mod:`~seqform.structured.reductions.suit_reduction`), so plain CFR on ``G'`` would solve another
  game.  The members of each hand class therefore share one regret, the class's sum (the
  regret of the quotient game whose information sets are the classes, which the reduced
  LP solves), and so one behaviour.
* Those iterates are CFR's on ``G`` lifted.  CFR on ``G`` from the uniform strategy keeps
  every suit permutation ``G`` is invariant under (each step — the payoffs ``A y`` and
  ``−Aᵀ x``, counterfactual values, regrets, the rule's discounts and clipping, regret
  matching, the average weighted by the own reach — commutes with relabelling the
  information sets), so its iterates are the same on each orbit.  For such a profile a
  class's counterfactual value on ``G'`` is the sum over its orbit of ``G``'s, ``m`` times
  one member's, ``m`` fixed by the class; the rules are positively homogeneous, so the
  class's regrets are ``m`` times ``G``'s and regret matching picks the same behaviour.
  Up to the order of floating-point sums (ties are cleared relative to the largest
  regret, a rounding level) the average on ``G'`` lifts to ``G``'s average.
* For class-symmetric plans ``x' A' y'`` on ``G'`` is ``x A y`` of their lifts on ``G``;
  a best response on ``G`` to a lifted strategy can be averaged over the suit
  permutations, so it is the lift of a class plan.  The run is measured on ``G'`` by best
  responses over class plans
  (:func:`~seqform.structured.reductions.suit_classes.certify_on_classes`),
  which give the lift's values and NashConv on ``G``, at ``G'``'s size.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

from seqform.certify import LocalBounds
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.public.tree import StructuredGame
from seqform.iterative.cfr import FullTreeRegrets
from seqform.iterative.layout import TreeLayout, sequence_layout, to_table_order
from seqform.iterative.passes import (
    TIE_TOLERANCE,
    largest_magnitude,
    realization_plan,
    sequence_counterfactual_values,
    ties_cleared,
)
from seqform.iterative.rules import LAST_ITERATE, RULES
from seqform.iterative.run import IterativeResult, OnSample, Stopping, run_iterations
from seqform.structured.reductions.class_certificate import certify_run_on_classes
from seqform.structured.reductions.suit_classes import (
    CanonicalBoards,
    canonical_boards,
    certify_on_classes,
    lift_behaviour,
)
from seqform.structured.responses import (
    certify,
    certify_run,
    leaf_payoffs,
    payoff_range,
    sequence_tables,
)

if TYPE_CHECKING:
    from seqform.structured.compiled_cfr import CompiledRegrets

__all__ = [
    "ENGINES",
    "VECTOR_ALGORITHMS",
    "CanonicalRun",
    "VectorRegrets",
    "canonical_vector_cfr",
    "structured_nash_conv",
    "vector_cfr",
]

VECTOR_ALGORITHMS = tuple(RULES)
"""The algorithms vector CFR runs: every deterministic rule of the CFR family."""


class VectorRegrets(FullTreeRegrets):
    """:class:`~seqform.iterative.cfr.FullTreeRegrets` whose sequence payoffs come from the
    structured products instead of the tree's terminals (module docstring); ``classes``:
    per player, each sequence's hand class (table order) when the members of a class share
    one regret, their sum (canonical boards, :func:`canonical_vector_cfr`)."""

    def __init__(
        self,
        game: StructuredGame,
        rule_name: str,
        horizon: int | None = None,
        locks: Sequence[Mapping[int, Sequence[Fraction]]] | None = None,
        classes: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> None:
        tables = sequence_tables(game)
        layout = TreeLayout(players=tuple(sequence_layout(table) for table in tables))
        rules = [RULES[rule_name]] * 2
        super().__init__(layout, rules, tie_tolerance=TIE_TOLERANCE, horizon=horizon, locks=locks)
        self.game = game
        self.table_plan = [np.zeros(player.num_sequences) for player in layout.players]
        self.classes = None
        if classes is not None:  # in the internal order
            pairs = zip(layout.players, classes, strict=True)
            self.classes = [table[player.order] for player, table in pairs]

    def _accumulate(self, player: int, iteration: int) -> None:
        own, other = self.layout.players[player], self.layout.players[1 - player]
        reach = realization_plan(other, self.behaviour[1 - player], self.work[1 - player])
        plan = to_table_order(other, reach, out=self.table_plan[1 - player])
        payoffs = leaf_payoffs(self.game, player, plan)  # A y, or −Aᵀ x, in table order
        own_payoffs = np.take(payoffs, own.order, out=self.work[player])  # internal order
        values = sequence_counterfactual_values(
            own, self.behaviour[player], own_payoffs, in_place=True
        )
        self.scale[player] = largest_magnitude(values.sequences)
        instant = values.regrets(own, out=self.instant[player])
        if self.classes is not None:
            members = self.classes[player]
            instant[:] = np.bincount(members, weights=instant)[members]
        ties_cleared(instant, self.scale[player], TIE_TOLERANCE, out=instant)
        self._average(player, iteration)


def _stepper(
    game: StructuredGame,
    algorithm: str,
    horizon: int | None,
    engine: str,
    storage: str,
    locks: Sequence[Mapping[int, Sequence[Fraction]]] | None = None,
    classes: tuple[np.ndarray, np.ndarray] | None = None,
) -> FullTreeRegrets:
    """The stepper of ``engine`` (:func:`vector_cfr`'s checks); node locks are kept by the
    numpy stepper only, so a locked run takes it under ``"auto"``."""
    from seqform.structured.compiled_cfr import STORAGE, CompiledRegrets, compiled_available

    if engine not in ENGINES:
        raise ValueError(f"engine is one of {', '.join(ENGINES)}, not {engine!r}")
    if storage not in STORAGE:
        raise ValueError(f"storage is one of {', '.join(STORAGE)}, not {storage!r}")
    available = compiled_available() and locks is None
    if engine == "compiled" and locks is not None:
        raise ValueError("node locks run on the numpy engine (engine='numpy' or 'auto')")
    if engine == "compiled" and not available:
        raise ValueError(
            "the compiled vector CFR needs numba: pip install 'seqform[fast]' (or engine='numpy')"
        )
    if engine == "numpy" or not available:
        if storage != "float64":
            raise ValueError("float32 storage needs the compiled engine (numba)")
        return VectorRegrets(game, algorithm, horizon=horizon, locks=locks, classes=classes)
    rule = RULES[algorithm]
    return CompiledRegrets(game, rule, horizon=horizon, storage=storage, classes=classes)


def structured_nash_conv(
    game: StructuredGame,
    strategies: tuple[BehaviouralStrategy, ...],
    bounds: tuple[Mapping[int, LocalBounds], Mapping[int, LocalBounds]] | None = None,
) -> float:
    """NashConv of a profile by the structured best responses (no tree); ``bounds``: the
    behaviour each player's best response keeps (locked nodes)."""
    return float(certify(game, strategies[0], strategies[1], bounds).nash_conv)


ENGINES = ("auto", "compiled", "numpy")
"""How vector CFR steps: ``"compiled"`` by the numba kernels
(:mod:`seqform.structured.compiled_cfr`), ``"numpy"`` by :class:`VectorRegrets`, ``"auto"``
the compiled kernels where numba is installed, else numpy."""


def vector_cfr(
    game: StructuredGame,
    algorithm: str,
    stopping: Stopping,
    on_sample: OnSample | None = None,
    locks: Sequence[Mapping[int, Sequence[Fraction]]] | None = None,
    *,
    engine: str = "auto",
    storage: str = "float64",
    measure: Callable[[tuple[BehaviouralStrategy, ...]], float] | None = None,
    measure_run: Callable[[CompiledRegrets], float] | None = None,
) -> IterativeResult:
    """Run ``algorithm`` (a key of :data:`~seqform.iterative.rules.RULES`) on ``game``'s
    public tree × hands under ``stopping``, measured by the structured certificate; the
    predictive rules (pcfr+, pdcfr+) also measure their last iterate.  ``locks``: per
    player, locked information sets' probabilities, kept by every iterate and by the
    certificate's best responses (NashConv of the locked game).

    ``engine`` is one of :data:`ENGINES`; ``storage`` (``"float64"`` or ``"float32"``) the
    compiled engine's storage of the regrets, the average's weights and the behaviour
    (float32: half the memory, every sum still in float64; the certificate is float64
    either way).  ``measure``: a profile's NashConv in place of the structured certificate
    (a caller that keeps the certificate it measures, to report the last one unmeasured
    again); without locks, where the certificate needs no bounds.  A compiled run without
    locks measures its average from its own arrays
    (:func:`~seqform.structured.responses.certify_run`: the same certificate up to
    the order of the sums, without building the strategies at every measurement), by
    ``measure_run`` where it is given, else by that certificate unless ``measure`` is
    given; ``measure`` (by default the structured certificate) still measures the last
    iterate of the predictive rules.

    Raises
    ------
    ValueError
        For an algorithm vector CFR does not run (XFP, RCFR, MCCFR: the tree only), an
        engine not in :data:`ENGINES`, float32 storage on the numpy engine, or the compiled
        engine without numba (install the ``fast`` extra).
    """
    return _run(
        game,
        algorithm,
        stopping,
        on_sample,
        locks,
        engine,
        storage,
        measure=measure,
        measure_run=measure_run,
    )


def _run(
    game: StructuredGame,
    algorithm: str,
    stopping: Stopping,
    on_sample: OnSample | None,
    locks: Sequence[Mapping[int, Sequence[Fraction]]] | None,
    engine: str,
    storage: str,
    classes: tuple[np.ndarray, np.ndarray] | None = None,
    measure: Callable[[tuple[BehaviouralStrategy, ...]], float] | None = None,
    measure_run: Callable[[CompiledRegrets], float] | None = None,
) -> IterativeResult:
    """:func:`vector_cfr`, the members of each of ``classes`` sharing one regret, NashConv
    measured by ``measure`` (default: the structured certificate of ``game``), or on a
    compiled run by ``measure_run`` from the run's own arrays (the last iterate of a
    predictive rule by ``measure`` all the same)."""
    if algorithm not in RULES:
        raise ValueError(
            f"{algorithm} runs on the game tree only; on the public tree (--method "
            f"structured): {', '.join(VECTOR_ALGORITHMS)}"
        )
    stepper = _stepper(game, algorithm, stopping.iterations, engine, storage, locks, classes)
    bounds = None
    if locks is not None:
        bounds = tuple({i: tuple((p, p) for p in mix) for i, mix in own.items()} for own in locks)
    average = _average_measure(game, stepper, locks is None, measure, measure_run)
    if measure is None:
        measure = lambda strategies: structured_nash_conv(game, strategies, bounds)  # type: ignore[arg-type]  # noqa: E731
    return run_iterations(
        None,
        stepper,
        stopping,
        algorithm,
        on_sample,
        last_iterate=algorithm in LAST_ITERATE,
        nash_conv=measure,
        average_nash_conv=average,
    )


def _average_measure(
    game: StructuredGame,
    stepper: FullTreeRegrets,
    unlocked: bool,
    measure: Callable[[tuple[BehaviouralStrategy, ...]], float] | None,
    measure_run: Callable[[CompiledRegrets], float] | None,
) -> Callable[[], float] | None:
    """How a compiled, unlocked run measures its average from its own arrays: by
    ``measure_run``, else by :func:`~seqform.structured.responses.certify_run` where
    no ``measure`` is given; None (the average measured as strategies) otherwise."""
    from seqform.structured.compiled_cfr import CompiledRegrets

    if not (unlocked and isinstance(stepper, CompiledRegrets)):
        return None
    if measure_run is None:
        if measure is not None:
            return None
        scale = float(payoff_range(game))
        measure_run = lambda run: float(certify_run(run, scale).nash_conv)  # noqa: E731
    compiled, by_run = stepper, measure_run
    return lambda: by_run(compiled)


@dataclass(frozen=True)
class CanonicalRun:
    """Vector CFR run on a game's canonical boards ``G'`` (module docstring).

    boards : ``G`` and ``G'`` with the node map that lifts strategies
    result : the run on ``G'``: its strategies are ``G'``'s, its NashConv samples are the
        lifted strategies' NashConv on ``G`` as well
    """

    boards: CanonicalBoards
    result: IterativeResult

    def lifted(self) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
        """The average strategies as strategies of ``G`` (:func:`lift_behaviour`)."""
        first, second = self.result.strategies
        return lift_behaviour(self.boards, first), lift_behaviour(self.boards, second)


def canonical_vector_cfr(
    game: StructuredGame | CanonicalBoards,
    algorithm: str,
    stopping: Stopping,
    on_sample: OnSample | None = None,
    *,
    engine: str = "auto",
    storage: str = "float64",
) -> CanonicalRun | None:
    """:func:`vector_cfr` on ``game``'s canonical boards ``G'``, or None when ``game`` is
    invariant under no suit permutation but the identity (then run :func:`vector_cfr` on
    it).  ``game`` may be :func:`~seqform.structured.reductions.suit_classes.canonical_boards`'
    answer, built once.  Node locks are not taken: a lock breaks the suit symmetry the
    reduction relies on, so a locked game runs unreduced (:func:`vector_cfr`).

    Raises
    ------
    ValueError
        As :func:`vector_cfr`.
    """
    boards = canonical_boards(game) if isinstance(game, StructuredGame) else game
    if boards is None:
        return None

    def measure(strategies: tuple[BehaviouralStrategy, ...]) -> float:
        return float(certify_on_classes(boards, strategies[0], strategies[1]).nash_conv)

    def measure_run(run: CompiledRegrets) -> float:  # the same, without table-order copies
        return float(certify_run_on_classes(boards, run).nash_conv)

    classes = boards.sequence_classes()
    result = _run(
        boards.canonical,
        algorithm,
        stopping,
        on_sample,
        None,
        engine,
        storage,
        classes,
        measure,
        measure_run,
    )
    return CanonicalRun(boards, result)
