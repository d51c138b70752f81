"""Exact equilibria: rational strategies and a value proven in exact arithmetic.

The float LP (:mod:`seqform.lp.minmax`) gives strategies good to about 1e-9.  Here they become
exact rational strategies whose equilibrium property is *proven*:

1. Rounding, the fast first try: each behaviour probability becomes the simplest nearby
   fraction (:func:`seqform.forms.strategies.round_strategy`).  Small denominators (Kuhn's
   1/3) come back exactly.
2. The optimal basis, re-solved exactly: HiGHS's optimal simplex basis of the merged LP
   (KMvS 1996, eq. 11; :mod:`seqform.lp.exact.minmax`) determines a vertex; its square
   system is solved in rationals (:mod:`seqform.lp.exact.linear_solver`: numeric–symbolic
   refinement, Wan 2006, or python-flint), giving ``x``, ``q`` and the duals ``y`` exactly,
   with primal and dual feasibility checked exactly
   (:func:`seqform.lp.exact.basis.resolve_basis`); a basis that misses exact optimality is
   continued by at most ``LIMITS.exact_pivots`` exact simplex pivots
   (:func:`seqform.lp.exact.pivots.repair_basis`), as the re-solving's gadgets are.
   No assumption is made on the size of denominators (Leduc's value has 32 digits).

Certificate.  For a candidate profile, both best responses are computed by the one best
response of :mod:`seqform.certify` in Fractions.  Player 0's plan ``x`` guarantees
``L(x) = −BR_1(x)`` and player 1's ``y`` holds player 0 to ``U(y) = BR_0(y)``, so
``L(x) <= v <= U(y)`` for the value ``v``.  The best ``x`` and the best ``y`` over all
candidates are kept; when ``L = U`` the value is proven to be that fraction and the pair
is an exact equilibrium (NashConv exactly 0).  Otherwise the result says so and gives the
exact bounds ``[L, U]``.

Restricted games (:mod:`seqform.routes.restrict`) are solved the same way, with the restricted
best responses of :func:`seqform.routes.restrict.restricted_certificate` in the certificate and
the bounds checked exactly on the strategies.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from seqform.certify import Certificate, certify
from seqform.forms.provenance import sequence_form_of
from seqform.forms.sequence_form import SequenceForm
from seqform.forms.strategies import (
    BehaviouralStrategy,
    behaviour_from_plan,
    round_strategy,
)
from seqform.game.model import Game
from seqform.lp.exact.basis import InvalidBasisError
from seqform.lp.exact.linear_solver import ExactSolveError
from seqform.lp.exact.minmax import MinmaxProgram, minmax_program, solve_minmax_program
from seqform.lp.exact.repair import ExactBasisOutcome, repair_or_resolve
from seqform.lp.problem import FloatSolution
from seqform.lp.solvers import SolverStats
from seqform.routes.restrict import (
    ActionBound,
    Restrictions,
    default_choice,
    obey_bounds_where_unreached,
    plan_constraints,
    resolve_restrictions,
    violations,
)
from seqform.routes.result import ExactOutcome, PhaseClock, Timings, Value

__all__ = ["ExactSolution", "ValueBounds", "basis_notes", "exact_certificate", "solve_exact"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class ValueBounds:
    """Exact bounds on the value to player 0: ``lower <= v <= upper``."""

    lower: Fraction
    upper: Fraction


@dataclass(frozen=True)
class ExactSolution(ExactOutcome):
    """An exact equilibrium, or exact bounds when none could be certified.

    value : the value to player 0: the proven ``Fraction`` when certified, else the LP's
        float optimum (:data:`seqform.routes.result.Value`; ``bounds`` then holds what is
        proven)
    bounds : exact bounds from the best candidates (``lower == upper == value`` if certified)
    strategies : the exact strategies of players 0 and 1 (the best candidates)
    certificate : expected value, best-response values and NashConv of ``strategies``,
        all exact (restricted best responses for a restricted game)
    found_by : how the certified strategies were found: "rounding", "basis" or "mixed"
        (one player's from each); "none" if not certified
    basis_verified : the exact re-solve of HiGHS's basis passed the exact LP optimality
        checks (None when the basis was not needed or not available)
    float_value : the LP's float optimum
    stats : what HiGHS did on the float LP
    timings : seconds per phase: ``sequence_form``, ``lp``, ``rounding`` and ``basis`` (the
        stage ``behaviour``), ``certificate``
    restrictions : the restrictions of a restricted game, else None
    """

    game: Game
    form: SequenceForm
    value: Value
    bounds: ValueBounds
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy]
    certificate: Certificate
    found_by: str
    basis_verified: bool | None
    float_value: float
    stats: SolverStats
    timings: Timings
    restrictions: Restrictions | None
    notes: tuple[str, ...] = ()

    @property
    def route(self) -> str:
        """The route (:mod:`seqform.routes.policy`): ``"tree"``."""
        return "tree"


def exact_certificate(
    game: Game,
    first: BehaviouralStrategy,
    second: BehaviouralStrategy,
    restrictions: Restrictions | None = None,
) -> Certificate:
    """The exact certificate of a profile, with restricted best responses if restricted."""
    bounds = restrictions.by_player if restrictions is not None else None
    return certify(game, first, second, bounds)


def _exact(value: float | Fraction) -> Fraction:
    """A value of the exact certificate of exact strategies, which is a Fraction."""
    if not isinstance(value, Fraction):
        raise TypeError(f"an exact certificate holds Fractions, not {value!r}")
    return value


@dataclass(frozen=True)
class _Candidate:
    strategy: BehaviouralStrategy
    guarantee: Fraction  # L(x) for player 0, U(y) for player 1
    source: str


@dataclass
class _Candidates:
    """The exact strategies tried so far, each with the bound on the value it proves, and
    notes on what went wrong."""

    game: Game
    restrictions: Restrictions | None
    players: tuple[list[_Candidate], list[_Candidate]] = field(default_factory=lambda: ([], []))
    notes: list[str] = field(default_factory=list)  # what went wrong along the way

    def consider(
        self, first: BehaviouralStrategy, second: BehaviouralStrategy, source: str
    ) -> None:
        """Certify a profile and keep each strategy that obeys the restrictions."""
        certificate = exact_certificate(self.game, first, second, self.restrictions)
        best_first, best_second = (_exact(value) for value in certificate.best_response_values)
        if self._obeys(first):  # L(x) = −(player 1's best against x)
            self.players[0].append(_Candidate(first, -best_second, source))
        if self._obeys(second):  # U(y) = player 0's best against y
            self.players[1].append(_Candidate(second, best_first, source))

    def _obeys(self, strategy: BehaviouralStrategy) -> bool:
        if self.restrictions is None:
            return True
        return not violations(self.game, strategy.player, strategy.probabilities, self.restrictions)

    def best(self) -> tuple[_Candidate, _Candidate] | None:
        """Player 0's candidate of highest guarantee and player 1's of lowest."""
        if not (self.players[0] and self.players[1]):
            return None
        return (
            max(self.players[0], key=lambda c: c.guarantee),
            min(self.players[1], key=lambda c: c.guarantee),
        )

    def proven(self) -> bool:
        best = self.best()
        return best is not None and best[0].guarantee == best[1].guarantee


def _strategy_from_plan(
    form: SequenceForm, player: int, plan: Sequence[Fraction], restrictions: Restrictions | None
) -> BehaviouralStrategy:
    """Behaviour of an exact plan; unreached restricted sets get a choice within bounds."""
    table = form.players[player]
    local_bounds = restrictions.by_player[player] if restrictions else {}

    def unreached(infoset: int) -> list[Fraction]:
        local = local_bounds.get(infoset)
        if local is None:
            count = len(table.actions[infoset])
            return [Fraction(1, count)] * count
        return default_choice(local)

    return behaviour_from_plan(table, plan, unreached_behaviour=unreached)


def _try_rounding(
    candidates: _Candidates, form: SequenceForm, float_solution: FloatSolution
) -> None:
    """Step 1: round the float LP's behaviour to nearby fractions and certify it."""
    restrictions = candidates.restrictions
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
        candidates.consider(rounded[0], rounded[1], "rounding")


def _try_basis(
    candidates: _Candidates,
    form: SequenceForm,
    minmax: MinmaxProgram,
    float_solution: FloatSolution,
    notes: list[str],
) -> bool | None:
    """Step 2: re-solve HiGHS's optimal basis exactly, continued by exact pivots where it
    is not exactly optimal, and certify its strategies.

    Returns whether the exact basis passed the LP optimality checks (None if there was
    no basis to re-solve); what went wrong, or the pivots taken, is appended to ``notes``.
    """
    basis = float_solution.basis
    if basis is None:
        notes.append("the LP solver returned no basis to re-solve exactly")
        return None
    try:
        outcome = repair_or_resolve(minmax.program, basis)
    except (InvalidBasisError, ExactSolveError) as exc:
        notes.append(f"the optimal basis could not be re-solved exactly: {exc}")
        return None
    exact = outcome.solution
    notes += basis_notes(outcome)
    x_plan, y_plan = minmax.exact_plans(exact.values, exact.row_duals)
    if min(x_plan) >= 0 and min(y_plan) >= 0:
        candidates.consider(
            _strategy_from_plan(form, 0, x_plan, candidates.restrictions),
            _strategy_from_plan(form, 1, y_plan, candidates.restrictions),
            "basis",
        )
    else:
        notes.append("the exact basic solution has negative plan entries")
    return exact.optimal


def basis_notes(outcome: ExactBasisOutcome) -> list[str]:
    """What an exact route notes of HiGHS's basis re-solved exactly (nothing if optimal)."""
    exact, repair = outcome.solution, outcome.repair()
    if exact.optimal:
        return [f"HiGHS's basis was not exactly optimal; {repair} fixed it"] if repair else []
    return [
        "the exact re-solve of HiGHS's basis is not exactly optimal "
        f"(primal feasible: {exact.primal_feasible}, dual feasible: {exact.dual_feasible}) "
        f"and exact pivots did not repair it: {outcome.failure}"
    ]


def _resolved(
    form: SequenceForm, restrictions: Restrictions | Sequence[ActionBound] | None
) -> Restrictions | None:
    """Validated restrictions, or None when they restrict nobody."""
    if restrictions is not None and not isinstance(restrictions, Restrictions):
        restrictions = resolve_restrictions(form, restrictions)
    if restrictions is not None and not restrictions.players():
        return None
    return restrictions


def solve_exact(
    game: Game,
    *,
    restrictions: Restrictions | Sequence[ActionBound] | None = None,
    form: SequenceForm | None = None,
    solver: str = "simplex",
    time_limit: float | None = None,
    try_rounding: bool = True,
) -> ExactSolution:
    """Solve ``game`` (optionally restricted) exactly and certify it in exact arithmetic.

    Parameters
    ----------
    game
        The game.
    restrictions
        Bounds on behaviour (:mod:`seqform.routes.restrict`), validated against the game.
    form
        Its sequence form, if already built.
    solver
        HiGHS's ``"simplex"`` or ``"ipm"`` (with crossover): both give the optimal basis.
    time_limit
        Seconds for the float LP.
    try_rounding
        Try rounded float strategies before re-solving the basis.

    Raises
    ------
    seqform.lp.solvers.SolverError
        If the float LP is not solved to optimality.
    ValueError
        For invalid restrictions.
    """
    clock = PhaseClock()
    with clock.phase("sequence_form"):
        form = sequence_form_of(game, form)
        restrictions = _resolved(form, restrictions)
    with clock.phase("lp"):
        minmax, float_solution = _float_lp(form, restrictions, solver, time_limit)
    candidates = _Candidates(game, restrictions)
    basis_verified = _find(candidates, minmax.form, minmax, float_solution, clock, try_rounding)
    with clock.phase("certificate"):
        first, second = _best(candidates)
        certificate = exact_certificate(game, first.strategy, second.strategy, restrictions)
    float_value = minmax.form.unscaled(float_solution.value)
    return ExactSolution(
        game=game,
        form=form,
        value=first.guarantee if first.guarantee == second.guarantee else float_value,
        bounds=ValueBounds(lower=first.guarantee, upper=second.guarantee),
        strategies=(first.strategy, second.strategy),
        certificate=certificate,
        found_by=_found_by(first, second),
        basis_verified=basis_verified,
        float_value=float_value,
        stats=float_solution.stats,
        timings=clock.timings(),
        restrictions=restrictions,
        notes=tuple(candidates.notes),
    )


def _float_lp(
    form: SequenceForm,
    restrictions: Restrictions | None,
    solver: str,
    time_limit: float | None,
) -> tuple[MinmaxProgram, FloatSolution]:
    """The merged min-max LP (with the restrictions' rows) and HiGHS's float optimum.

    The LP is that of ``form.scaled_for_floats()``: ``A / s`` when ``A`` is too large for
    floats, with the same optimal plans and bases (``minmax.form.unscaled`` undoes ``s``).
    """
    form = form.scaled_for_floats()
    x_rows, y_rows = plan_constraints(form, restrictions) if restrictions else ([], [])
    minmax = minmax_program(form, x_constraints=x_rows, y_constraints=y_rows)
    return minmax, solve_minmax_program(minmax, solver=solver, time_limit=time_limit)


def _find(
    candidates: _Candidates,
    form: SequenceForm,
    minmax: MinmaxProgram,
    float_solution: FloatSolution,
    clock: PhaseClock,
    try_rounding: bool,
) -> bool | None:
    """Steps 1 and 2 (module docstring), timed as the phases ``rounding`` and ``basis``;
    whether the basis passed the exact checks (None if it was not needed or not there)."""
    with clock.phase("rounding", stage="behaviour"):
        if try_rounding:
            _try_rounding(candidates, form, float_solution)
    with clock.phase("basis", stage="behaviour"):
        if candidates.proven():
            return None
        verified = _try_basis(candidates, form, minmax, float_solution, candidates.notes)
    if not candidates.proven() and form.payoff_scale != 1:
        candidates.notes.append(form.scaling_note())
    return verified


def _best(candidates: _Candidates) -> tuple[_Candidate, _Candidate]:
    """The best candidates of both players; an error when there is none."""
    best = candidates.best()
    if best is None:
        reasons = "; ".join(candidates.notes) or "rounding failed"
        raise ExactSolveError(f"no exact strategy could be formed: {reasons}")
    return best


def _found_by(first: _Candidate, second: _Candidate) -> str:
    """How the certified strategies were found (``"none"``, with a warning, if not)."""
    if first.guarantee == second.guarantee:
        return first.source if first.source == second.source else "mixed"
    logger.warning(
        "exact certification failed; the value lies in [%s, %s]", first.guarantee, second.guarantee
    )
    return "none"
