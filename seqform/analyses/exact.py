"""Exact equilibria: rational strategies and a value proven in exact arithmetic.

The float LP (:mod:`seqform.lp.minmax`) gives strategies good to about 1e-9.  Here they become
exact rational strategies whose equilibrium property is *proven*:

1. Rounding, the fast first try: each behaviour probability becomes the simplest nearby
   fraction (:func:`seqform.forms.exact_strategies.round_strategy`).  Small denominators (Kuhn's
   1/3) come back exactly.
2. The optimal basis, re-solved exactly: HiGHS's optimal simplex basis of the merged LP
   (KMvS 1996, eq. 11; :mod:`seqform.lp.exact.minmax`) determines a vertex; its square
   system is solved in rationals (:mod:`seqform.lp.exact.rational`: numeric–symbolic refinement,
   Wan 2006, or python-flint), giving ``x``, ``q`` and the duals ``y`` exactly, with primal
   and dual feasibility checked exactly (:func:`seqform.lp.exact.basis.resolve_basis`).
   No assumption is made on the size of denominators (Leduc's value has 32 digits).

Certificate.  For a candidate profile, both best responses are computed by the exact tree
walk of :mod:`seqform.certify` in Fractions.  Player 0's plan ``x`` guarantees
``L(x) = −BR_1(x)`` and player 1's ``y`` holds player 0 to ``U(y) = BR_0(y)``, so
``L(x) <= v <= U(y)`` for the value ``v``.  The best ``x`` and the best ``y`` over all
candidates are kept; when ``L = U`` the value is proven to be that fraction and the pair
is an exact equilibrium (NashConv exactly 0).  Otherwise the result says so and gives the
exact bounds ``[L, U]``.

Restricted games (:mod:`seqform.analyses.restrict`) are solved the same way, with the restricted
best responses of :func:`seqform.analyses.restrict.restricted_certificate` in the certificate and
the bounds checked exactly on the strategies.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from seqform.analyses.restrict import (
    ActionBound,
    Restrictions,
    default_choice,
    obey_bounds_where_unreached,
    plan_constraints,
    resolve_restrictions,
    restricted_certificate,
    violations,
)
from seqform.certify import Certificate, certify
from seqform.forms.exact_strategies import (
    ExactStrategy,
    exact_plan,
    exact_strategy_from_plan,
    round_strategy,
)
from seqform.forms.sequence_form import SequenceForm, build_sequence_form
from seqform.forms.strategies import behaviour_from_plan
from seqform.game.model import Game
from seqform.lp.exact.basis import InvalidBasisError, resolve_basis
from seqform.lp.exact.minmax import minmax_program, solve_minmax_program
from seqform.lp.exact.rational import ExactSolveError
from seqform.lp.solvers import SolverStats

__all__ = ["ExactSolution", "ExactTimings", "ValueBounds", "exact_certificate", "solve_exact"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ValueBounds:
    """Exact bounds on the value to player 0: ``lower <= v <= upper``."""

    lower: Fraction
    upper: Fraction


@dataclass(frozen=True)
class ExactTimings:
    """Wall-clock seconds of each stage of :func:`solve_exact`."""

    sequence_form: float
    lp: float
    rounding: float
    basis: float
    certificate: float

    @property
    def total(self) -> float:
        return self.sequence_form + self.lp + self.rounding + self.basis + self.certificate


@dataclass(frozen=True)
class ExactSolution:
    """An exact equilibrium, or exact bounds when none could be certified.

    value : the proven value to player 0, or None if not certified
    bounds : exact bounds from the best candidates (``lower == upper == value`` if certified)
    strategies : the exact strategies of players 0 and 1 (the best candidates)
    certificate : expected value, best-response values and NashConv of ``strategies``,
        all exact (the tree walk, or restricted best responses for a restricted game)
    method : how the certified strategies were found: "rounding", "basis" or "mixed"
        (one player's from each); "none" if not certified
    basis_verified : the exact re-solve of HiGHS's basis passed the exact LP optimality
        checks (None when the basis was not needed or not available)
    float_value : the LP's float optimum
    restrictions : the restrictions of a restricted game, else None
    """

    game: Game
    form: SequenceForm
    value: Fraction | None
    bounds: ValueBounds
    strategies: tuple[ExactStrategy, ExactStrategy]
    certificate: Certificate
    method: str
    basis_verified: bool | None
    float_value: float
    stats: SolverStats
    timings: ExactTimings
    restrictions: Restrictions | None
    notes: tuple[str, ...] = ()

    @property
    def certified(self) -> bool:
        return self.value is not None

    @property
    def plans(self) -> tuple[list[Fraction], list[Fraction]]:
        """The exact realization plans of ``strategies``."""
        return exact_plan(self.strategies[0]), exact_plan(self.strategies[1])


def exact_certificate(
    game: Game,
    first: ExactStrategy,
    second: ExactStrategy,
    restrictions: Restrictions | None = None,
) -> Certificate:
    """The exact certificate of a profile: the Fraction tree walk, or restricted responses."""
    if restrictions is not None and restrictions.players():
        return restricted_certificate(
            game, (first.probabilities, second.probabilities), restrictions
        )
    return certify(game, first.as_behaviour(), second.as_behaviour())


@dataclass(frozen=True)
class _Candidate:
    strategy: ExactStrategy
    guarantee: Fraction  # L(x) for player 0, U(y) for player 1
    source: str


def _obeys(game: Game, strategy: ExactStrategy, restrictions: Restrictions | None) -> bool:
    if restrictions is None:
        return True
    return not violations(game, strategy.player, strategy.probabilities, restrictions)


def _strategy_from_plan(
    form: SequenceForm, player: int, plan: Sequence[Fraction], restrictions: Restrictions | None
) -> ExactStrategy:
    """Behaviour of an exact plan; unreached restricted sets get a choice within bounds."""
    table = form.players[player]
    local_bounds = restrictions.by_player[player] if restrictions else {}

    def unreached(infoset: int) -> list[Fraction]:
        local = local_bounds.get(infoset)
        if local is None:
            count = len(table.actions[infoset])
            return [Fraction(1, count)] * count
        return default_choice(local)

    return exact_strategy_from_plan(table, plan, unreached)


def solve_exact(
    game: Game,
    *,
    restrictions: Restrictions | Sequence[ActionBound] | None = None,
    form: SequenceForm | None = None,
    algorithm: str = "simplex",
    time_limit: float | None = None,
    try_rounding: bool = True,
) -> ExactSolution:
    """Solve ``game`` (optionally restricted) exactly and certify it in exact arithmetic.

    Parameters
    ----------
    game
        The game.
    restrictions
        Bounds on behaviour (:mod:`seqform.analyses.restrict`), validated against the game.
    form
        Its sequence form, if already built.
    algorithm
        HiGHS algorithm for the float LP: ``"simplex"`` or ``"ipm"`` (with crossover);
        both give the optimal basis.
    time_limit
        Seconds for the float LP.
    try_rounding
        Try rounded float strategies before re-solving the basis.

    Raises
    ------
    seqform.lp.minmax.SolverError
        If the float LP is not solved to optimality.
    ValueError
        For invalid restrictions.
    """
    start = time.perf_counter()
    form = form or build_sequence_form(game)
    if restrictions is not None and not isinstance(restrictions, Restrictions):
        restrictions = resolve_restrictions(form, restrictions)
    if restrictions is not None and not restrictions.players():
        restrictions = None
    built = time.perf_counter()
    x_rows, y_rows = plan_constraints(form, restrictions) if restrictions else ([], [])
    minmax = minmax_program(form, x_constraints=x_rows, y_constraints=y_rows)
    float_solution = solve_minmax_program(minmax, algorithm=algorithm, time_limit=time_limit)
    solved = time.perf_counter()

    candidates: tuple[list[_Candidate], list[_Candidate]] = ([], [])
    notes: list[str] = []

    def consider(first: ExactStrategy, second: ExactStrategy, source: str) -> Certificate:
        certificate = exact_certificate(game, first, second, restrictions)
        if _obeys(game, first, restrictions):
            candidates[0].append(_Candidate(first, -certificate.best_response_values[1], source))
        if _obeys(game, second, restrictions):
            candidates[1].append(_Candidate(second, certificate.best_response_values[0], source))
        return certificate

    def proven() -> bool:
        return bool(candidates[0] and candidates[1]) and max(
            c.guarantee for c in candidates[0]
        ) == min(c.guarantee for c in candidates[1])

    if try_rounding:
        floats = [
            behaviour_from_plan(form.players[p], plan)
            for p, plan in ((0, float_solution.x), (1, float_solution.y))
        ]
        if restrictions is not None:
            floats = [
                obey_bounds_where_unreached(strategy, restrictions.by_player[p])
                for p, strategy in enumerate(floats)
            ]
        rounded = [round_strategy(strategy) for strategy in floats]
        if rounded[0] is not None and rounded[1] is not None:
            consider(rounded[0], rounded[1], "rounding")
    rounded_at = time.perf_counter()

    basis_verified: bool | None = None
    if not proven():
        basis = float_solution.result.basis
        if basis is None:
            notes.append("the LP algorithm returned no basis to re-solve exactly")
        else:
            try:
                exact = resolve_basis(minmax.program, basis)
            except (InvalidBasisError, ExactSolveError) as exc:
                notes.append(f"the optimal basis could not be re-solved exactly: {exc}")
            else:
                basis_verified = exact.optimal
                if not exact.optimal:
                    notes.append(
                        "the exact re-solve of HiGHS's basis is not exactly optimal "
                        f"(primal feasible: {exact.primal_feasible}, dual feasible: "
                        f"{exact.dual_feasible})"
                    )
                x_plan, y_plan = minmax.exact_plans(exact.values, exact.row_duals)
                if min(x_plan) >= 0 and min(y_plan) >= 0:
                    consider(
                        _strategy_from_plan(form, 0, x_plan, restrictions),
                        _strategy_from_plan(form, 1, y_plan, restrictions),
                        "basis",
                    )
                else:
                    notes.append("the exact basic solution has negative plan entries")
    based_at = time.perf_counter()

    if not candidates[0] or not candidates[1]:
        raise ExactSolveError(
            "no exact strategy could be formed: " + ("; ".join(notes) or "rounding failed")
        )
    best_first = max(candidates[0], key=lambda c: c.guarantee)
    best_second = min(candidates[1], key=lambda c: c.guarantee)
    certificate = exact_certificate(game, best_first.strategy, best_second.strategy, restrictions)
    bounds = ValueBounds(lower=best_first.guarantee, upper=best_second.guarantee)
    certified = bounds.lower == bounds.upper
    if certified:
        method = best_first.source if best_first.source == best_second.source else "mixed"
    else:
        method = "none"
        logger.warning(
            "exact certification failed; the value lies in [%s, %s]", bounds.lower, bounds.upper
        )
    finished = time.perf_counter()
    return ExactSolution(
        game=game,
        form=form,
        value=bounds.lower if certified else None,
        bounds=bounds,
        strategies=(best_first.strategy, best_second.strategy),
        certificate=certificate,
        method=method,
        basis_verified=basis_verified,
        float_value=float_solution.value,
        stats=float_solution.stats,
        timings=ExactTimings(
            sequence_form=built - start,
            lp=solved - built,
            rounding=rounded_at - solved,
            basis=based_at - rounded_at,
            certificate=finished - based_at,
        ),
        restrictions=restrictions,
        notes=tuple(notes),
    )
