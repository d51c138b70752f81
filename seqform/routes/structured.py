"""The structured route: a game as public tree × private hands, solved without its tree.

structured LP (:mod:`seqform.structured.lp_model`) → realization plans → behavioural
strategies on the tree-free sequence tables (:func:`seqform.structured.responses.sequence_tables`)
→ certificate by best response on the public tree with vectorised hands
(:func:`seqform.structured.responses.certify`, Johanson et al. IJCAI 2011) → a named result.

As on the tree route (:mod:`seqform.routes.solve`), no answer is returned unverified: the
certificate is computed from the behavioural strategies by the one backward induction
(:func:`seqform.certify.respond`), not read off the LP.

Size: a little over 400 lines: the LP to solve (unreduced, locked, reduced by suits and by
the ordered isomorphism), the default solver and its fallback, and the stages from plans to
the certificate are one route's policy, each part short.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from seqform.certify import EQUILIBRIUM_TOLERANCE, LocalBounds, is_certified
from seqform.forms.locks import ResolvedLocks
from seqform.forms.strategies import REACH_TOLERANCE, BehaviouralStrategy, behaviour_from_plan
from seqform.game.public.explicit import tree_nodes
from seqform.game.public.tree import StructuredGame
from seqform.lp.polish import polished_points
from seqform.lp.solvers import SolverError, SolverLimitError, StructuredSolver
from seqform.routes.result import Certified, PhaseClock, lp_stages
from seqform.structured.lp_locks import locked_lp
from seqform.structured.lp_model import StructuredLP, build_structured_lp
from seqform.structured.lp_solve import solve_structured_lp, structured_problem
from seqform.structured.payoff_matrix import payoff_nnz
from seqform.structured.reductions.ordered_isomorphism import (
    OrderedReduction,
    OrderedStep,
    reduce_by_ordered_isomorphism,
)
from seqform.structured.reductions.suit_classes import GameSize, ReductionSizes, canonical_boards
from seqform.structured.reductions.suit_reduction import (
    SuitReduction,
    lift_plans,
    reduce_by_suits,
    reduction_sizes,
)
from seqform.structured.responses import certify, sequence_tables

if TYPE_CHECKING:
    from seqform.holdem import SpotSummary

__all__ = [
    "LPChoice",
    "StructuredSolution",
    "clarabel_refinement",
    "default_solver",
    "solve_structured",
]


@dataclass(frozen=True)
class StructuredSolution(Certified[BehaviouralStrategy]):
    """An equilibrium of a structured game, with its certificate (a
    :class:`~seqform.routes.result.Result`).

    value : the LP optimum, the game's value to player 0
    plans : the LP's realization plans ``(x, y)`` on the game's sequence indices
    strategies : behavioural strategies of the plans on the tree-free tables (information
        set = hand and public node, named as the tree names it)
    certificate : expected value, best responses, NashConv and exploitability of ``strategies``
    stats : what the LP solver did (with the structured LP's size)
    timings : seconds per phase; ``timings.sequence_form`` is building the structured LP
    game : the structured game
    payoff_nonzeros : non-zeros of the LP's payoff part (``Aᵀ x`` through level sums)
    matrix_nonzeros : non-zeros of the explicit payoff matrix ``A``, counted from level
        histograms without forming it (:func:`~seqform.structured.payoff_matrix.payoff_nnz`)
    tree_nodes : at most the nodes of the explicit game tree (not built)
    spot : for a hold'em spot file, the players' summary (EVs, shares of the pot, main
        frequencies and OOP's opening grid, :mod:`seqform.holdem.report`); None otherwise
    suit_reduction : when the LP solved was reduced by suit isomorphism
        (:mod:`seqform.structured.reductions.suit_reduction`), its sizes at each step; ``plans``,
        ``strategies`` and ``certificate`` are then the lifted answer on the game itself
    ordered_isomorphism : when the LP solved was further merged by the ordered game
        isomorphism (:mod:`seqform.structured.reductions.ordered_isomorphism`), its classes' sizes
        and
        LP; ``suit_reduction.reduced`` are then the suit hand classes it started from
    """

    game: StructuredGame
    payoff_nonzeros: int
    matrix_nonzeros: int
    tree_nodes: int
    spot: SpotSummary | None = None
    suit_reduction: ReductionSizes | None = None
    ordered_isomorphism: OrderedStep | None = None

    @property
    def route(self) -> str:
        """The route (:mod:`seqform.routes.policy`): ``"structured"``."""
        return "structured"


DENSE_COLUMNS = 5.0
"""Non-zeros per column of the structured LP above which the default is HiGHS's interior
point rather than Clarabel (:func:`default_solver`).  The built-in games stay below (Kuhn
4.3, Leduc 3.9 to 4.4, Liar's Dice 3.1); hold'em spots with wide ranges are above (many
hands summed by level at every showdown: 7.2 for 192 × 210 combos, 9.1 for every combo)."""

IPX_TOLERANCE = 1e-10
"""HiGHS's interior point without crossover stops at this relative gap on the dense LPs.
At HiGHS's default, 1e-8, the full-range river spot (docs/spots.md) stops with NashConv
above 1e-9; 1e-10 costs two more iterations and brings it well below
(``benchmarks/results/measurements.md``)."""


@dataclass(frozen=True)
class LPChoice:
    """A solver for the structured LP: its name, and for HiGHS's ``"ipm"`` whether it ends
    at a vertex by crossover (``crossover=False`` stops at the interior point, at
    :data:`IPX_TOLERANCE`)."""

    solver: StructuredSolver
    crossover: bool = True

    def __str__(self) -> str:
        return self.solver if self.crossover else f"{self.solver} without crossover"


def default_solver(lp: StructuredLP) -> LPChoice:
    """Clarabel up to :data:`DENSE_COLUMNS` non-zeros per column, HiGHS's interior point
    without crossover above.

    Clarabel's direct factorisation is the fastest on the sparse LPs of the built-in games
    (against HiGHS's simplex and interior point, by a wide margin on the larger decks).  On
    hold'em spots the hands summed by level at every showdown fill Clarabel's LDL factor in:
    each iteration becomes slow and it may stop short of optimal ("AlmostSolved"), where
    HiGHS's interior point (IPX, iterative linear algebra) keeps its iterations cheap and
    finishes first; crossover to a vertex would add a third to its time, so it stops at the
    interior point.  So the choice is by the LP's density (measurements in
    ``benchmarks/results/measurements.md``).  Simplex still gives a vertex exact to the
    last digit (``--solver simplex``)."""
    if lp.matrix.nnz / max(1, lp.shape[1]) > DENSE_COLUMNS:
        return LPChoice("ipm", crossover=False)
    return LPChoice("clarabel")


def clarabel_refinement(lp: StructuredLP) -> bool:
    """Whether Clarabel refines its linear solves iteratively on ``lp``: only above
    :data:`DENSE_COLUMNS` non-zeros per column.

    Each of Clarabel's linear solves is refined against its regularised factor (static
    regularisation 1e-8) until the residual stalls, which on the sparse LPs of the built-in
    games costs a third or more of its time and changes neither its iterations nor the
    verdict: without it the certificate stays orders of magnitude inside the tolerance
    (``benchmarks/results/measurements.md``).  On the dense LPs, whose factor fills in
    (hold'em spots summed by level), the refinement is kept: unmeasured there.
    """
    return lp.matrix.nnz / max(1, lp.shape[1]) > DENSE_COLUMNS


def solve_structured(
    game: StructuredGame,
    *,
    solver: StructuredSolver | None = None,
    time_limit: float | None = None,
    verbose: bool = False,
    progress: Callable[[str], None] | None = None,
    suit_isomorphism: bool = True,
    locks: ResolvedLocks | None = None,
    ordered_isomorphism: bool = True,
) -> StructuredSolution:
    """Solve ``game`` by its structured sequence-form LP and certify it by best response.

    ``locks`` fixes behaviour at some information sets (:mod:`seqform.forms.locks`): their
    rows and columns join the LP (:mod:`seqform.structured.lp_locks`), the strategies keep
    the locked mix also where unreached, and the certificate's best responses keep it too
    (NashConv of the locked game).

    ``solver`` is ``"clarabel"``, ``"simplex"`` or ``"ipm"`` (with crossover); ``None``
    chooses by the LP (:func:`default_solver`) and solves again with HiGHS when that answer
    is not certified (:func:`fallback_solver`).  Clarabel's "AlmostSolved" point is
    certified like any other answer (:func:`_lp_stages`).

    ``suit_isomorphism`` (default): a game proven invariant under suit permutations
    (:func:`~seqform.game.public.symmetry.game_symmetries`) is solved on canonical boards
    and hand classes, losslessly (:mod:`seqform.structured.reductions.suit_reduction`), the
    lifted answer certified on the game itself; other games are solved unreduced.  With
    ``ordered_isomorphism`` (default) the classes are merged further where
    :mod:`seqform.structured.reductions.ordered_isomorphism` applies (leduc, rhode_island).

    Raises
    ------
    seqform.lp.solvers.SolverLimitError
        At the time limit; the message gives the exploitability of the solver's last point
        when it had one.
    seqform.lp.solvers.SolverError
        If the solver does not report an optimal solution.
    """
    clock = PhaseClock(progress)
    with clock.phase("sequence_form", _announce(game)):
        lp, reduction, ordered = _build(game, suit_isomorphism, ordered_isomorphism, locks)
    _say_reduction(clock, reduction, ordered)

    def run(choice: LPChoice) -> Certified[BehaviouralStrategy]:
        return _lp_stages(game, lp, clock, choice, time_limit, verbose, reduction, locks)

    chosen = None if solver is None else LPChoice(solver)
    result = run(chosen) if chosen is not None else _default_or_fallback(lp, clock, run)
    parts = result.parts()
    if reduction is not None:
        parts["plans"] = lift_plans(reduction, *result.plans)
    return StructuredSolution(
        game=game,
        payoff_nonzeros=lp.payoff_nonzeros,
        matrix_nonzeros=payoff_nnz(game),
        tree_nodes=tree_nodes(game),
        suit_reduction=None if reduction is None else _sizes(reduction, ordered),
        ordered_isomorphism=None if ordered is None else ordered.step(),
        **parts,
    )


def _announce(game: StructuredGame) -> str:
    first, second = sequence_tables(game)
    return (
        f"structured LP of {game.name}: {first.num_sequences:,} + {second.num_sequences:,} "
        "sequences, from the public tree × private hands (no game tree)"
    )


def _build(
    game: StructuredGame,
    suit_isomorphism: bool,
    ordered_isomorphism: bool,
    locks: ResolvedLocks | None,
) -> tuple[StructuredLP, SuitReduction | None, OrderedReduction | None]:
    """The LP to solve: reduced by suit isomorphism when asked and the game allows it, then
    by the ordered isomorphism when asked and the game is one it applies to, with the
    locks' rows and columns when there are locks (a lock breaks the suit symmetry the
    reduction relies on, so a locked game is not reduced)."""
    if locks is not None:
        locked = locked_lp(build_structured_lp(game), sequence_tables(game), locks.fixed)
        return locked, None, None
    boards = canonical_boards(game) if suit_isomorphism else None
    if boards is None:
        return build_structured_lp(game), None, None
    ordered = reduce_by_ordered_isomorphism(game, boards) if ordered_isomorphism else None
    if ordered is not None:
        return ordered.reduction.lp, ordered.reduction, ordered
    reduction = reduce_by_suits(game, boards)
    assert reduction is not None  # the boards were found
    return reduction.lp, reduction, None


def _sizes(reduction: SuitReduction, ordered: OrderedReduction | None) -> ReductionSizes:
    """The suit reduction's sizes; after the ordered step, its ``reduced`` are the suit
    hand classes (counted, their LP not built) and the LP solved is the ordered step's."""
    sizes = reduction_sizes(reduction)
    if ordered is None:
        return sizes
    return replace(sizes, reduced=ordered.suits, reduced_lp=None)


def _say_reduction(
    clock: PhaseClock, reduction: SuitReduction | None, ordered: OrderedReduction | None
) -> None:
    if reduction is None:
        return
    sizes = _sizes(reduction, ordered)
    merged = "" if ordered is None else f", {_sequences(ordered.ordered)} in ordered classes"
    clock.say(
        f"suit isomorphism ({sizes.group_order} suit permutations): "
        f"{_sequences(sizes.full)} sequences, {_sequences(sizes.canonical)} on canonical "
        f"boards, {_sequences(sizes.reduced)} in hand classes{merged}"
    )


def _sequences(size: GameSize) -> str:
    return f"{size.sequences[0]:,} + {size.sequences[1]:,}"


def _lp_stages(
    game: StructuredGame,
    lp: StructuredLP,
    clock: PhaseClock,
    choice: LPChoice,
    time_limit: float | None,
    verbose: bool,
    reduction: SuitReduction | None = None,
    locks: ResolvedLocks | None = None,
) -> Certified[BehaviouralStrategy]:
    """LP → strategies → certificate with the solver ``choice`` (:func:`lp_stages`); the
    plans of a reduced LP are lifted to the game first.

    Clarabel's point is taken also when it stops "AlmostSolved" (its reduced tolerances met,
    not the full ones), and the certificate judges it as any other.  On
    ``rhode_island(ranks=4)`` the tolerance of
    :func:`~seqform.structured.lp_solve.clarabel_tolerance` is out of float's reach, with
    iterative refinement too, while the point Clarabel stops at is certified (2.5e-10 of the
    payoff range); refusing it sent the route to HiGHS's simplex, which had not finished on
    ``rhode_island(ranks=3)`` after 10 minutes (``docs/benchmarks.md``, the Rhode Island
    ladder).

    Clarabel solves the LP without its one-action information sets
    (:mod:`seqform.lp.presolve`; HiGHS presolves on its own): half of Liar's Dice's
    information sets are such, and taking them out cuts Clarabel's iterations as well as
    its work per iteration; on the games without them the LP is solved as built
    (``benchmarks/results/measurements.md``).

    Clarabel's point, when it misses the certificate, is polished on its active set
    (:mod:`seqform.lp.polish`) and certified again before any second solve: seconds
    against a cold simplex's minute on ``liars_dice(sides=7)`` (``measurements.md``).
    IPX's is not: its LPs are the dense ones whose factor fills in."""
    rows, columns = lp.shape
    interior = choice.solver == "clarabel" or not choice.crossover
    bounds = None if locks is None else locks.bounds()
    return lp_stages(
        clock,
        lambda: solve_structured_lp(
            lp,
            solver=choice.solver,
            time_limit=time_limit,
            verbose=verbose,
            tolerance=None if choice.crossover else IPX_TOLERANCE,
            crossover=choice.crossover,
            refinement=clarabel_refinement(lp),
            almost=True,
            presolve=True,
        ),
        lambda x, y: _strategies(game, *_lifted(reduction, x, y), interior, bounds),
        lambda profile: certify(game, *profile, bounds),
        lp_message=(
            f"solving with {choice}: {columns:,} variables, {rows:,} constraints, "
            f"{lp.matrix.nnz:,} non-zeros"
        ),
        limit_point="its last point",
        repair=(lambda point: polished_points(structured_problem(lp), point))
        if choice.solver == "clarabel"
        else None,
    )


def _lifted(
    reduction: SuitReduction | None, x: np.ndarray, y: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    return (x, y) if reduction is None else lift_plans(reduction, x, y)


def _default_or_fallback(
    lp: StructuredLP,
    clock: PhaseClock,
    run: Callable[[LPChoice], Certified[BehaviouralStrategy]],
) -> Certified[BehaviouralStrategy]:
    """The default solver's certified answer, or HiGHS's (:func:`fallback_solver`) when the
    default stops without a solution or above the tolerance; a time limit is not retried."""
    first = default_solver(lp)
    try:
        result = run(first)
        failure = _uncertified(result, first)
    except SolverLimitError:
        raise
    except SolverError as exc:
        failure = f"{first} stopped without a solution ({exc})"
    if failure is None:
        return result
    fallback = fallback_solver(lp)
    clock.say(f"{failure}; solving again with HiGHS {fallback}")
    return run(LPChoice(fallback))


FALLBACK_SIMPLEX_DENSITY = 5.0
"""The default route's fallback is HiGHS simplex for an LP with at most this many non-zeros
per column, HiGHS ipm (with crossover, so still a vertex) above: simplex is about twice as
fast on the sparse LPs of Liar's Dice, while on a full-range river spot (hands summed by
level) ipm certifies in about a minute and a half and simplex had not finished after five
(measurements in ``benchmarks/results/measurements.md``)."""


def fallback_solver(lp: StructuredLP) -> StructuredSolver:
    """HiGHS simplex or ipm with crossover (:data:`FALLBACK_SIMPLEX_DENSITY`) when the
    default (:func:`default_solver`) fails or leaves its answer uncertified
    (:func:`seqform.certify.is_certified`)."""
    density = lp.matrix.nnz / max(1, lp.shape[1])
    return "simplex" if density <= FALLBACK_SIMPLEX_DENSITY else "ipm"


def _uncertified(result: Certified[BehaviouralStrategy], choice: LPChoice) -> str | None:
    """Why the default solver's answer needs a second solve, or None when it is certified.
    An interior point stops a little inside the optimal face: even Clarabel at gap 1e-12
    has left NashConv above 1e-9 on ``liars_dice`` (sides 6), within the tolerance only
    because it is relative to the payoff range.  Such a near miss is polished on its
    active set first (:func:`_lp_stages`); the second solve, for what that leaves
    uncertified, is a cold one: HiGHS's crossover from the point and a simplex
    warm-started from a basis read off it were each slower than starting afresh on these
    degenerate LPs (``benchmarks/results/measurements.md``)."""
    certificate = result.certificate
    if is_certified(certificate):
        return None
    return (
        f"{choice}'s answer has exploitability {float(certificate.exploitability):.3g}, "
        f"{float(certificate.relative_exploitability):.3g} of the payoff range "
        f"{float(certificate.payoff_range):g} > {EQUILIBRIUM_TOLERANCE:g}"
    )


INTERIOR_REACH_TOLERANCE = 1e-9
"""An interior point's plans (Clarabel, HiGHS's ipm without crossover): an information
set whose parent sequence has less mass than this is flagged unreached.  It stops with a
plan's zero entries near its complementarity (about 1e-11 here, where a vertex has exact
zeros), so on
``leduc(ranks=13)`` more than half the information sets had parent mass 3e-12 to 1e-9 and
showed as "reached" and "mixed" with noise for behaviour.  Such a set moves the value by
less than this times the largest payoff, the certificate's own scale (1e-9); the behaviour
there is kept (only the flag changes), so the certificate is the same."""


def _strategies(
    game: StructuredGame,
    x: np.ndarray,
    y: np.ndarray,
    interior: bool,
    bounds: tuple[Mapping[int, LocalBounds], Mapping[int, LocalBounds]] | None = None,
) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
    first, second = sequence_tables(game)
    tol = INTERIOR_REACH_TOLERANCE if interior else REACH_TOLERANCE
    strategies = behaviour_from_plan(first, x, tol=tol), behaviour_from_plan(second, y, tol=tol)
    if bounds is None:
        return strategies
    from seqform.routes.restrict import obey_bounds_where_unreached

    return (
        obey_bounds_where_unreached(strategies[0], bounds[0]),
        obey_bounds_where_unreached(strategies[1], bounds[1]),
    )
