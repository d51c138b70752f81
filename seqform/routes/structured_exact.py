"""The exact certificate on the structured route: rational strategies and a proven value
for a game given as public tree × private hands, without its tree.

The tree's exact route (:mod:`seqform.routes.exact`) re-solves HiGHS's optimal simplex
basis of the merged LP (KMvS 1996, eq. 11) in rationals.  Here the LP is the structured
one of :mod:`seqform.structured.lp_model` (Zhang and Sandholm 2020; Farina and Sandholm
2022), written by its one builder with ``Fraction`` coefficients
(:func:`~seqform.structured.lp_model.build_exact_structured_lp`):

1. HiGHS (simplex, or ipm with crossover) solves it in floats and returns an optimal basis
   (:func:`seqform.lp.run.run_lp`, the one float LP path).
2. The basis is re-solved in rationals and checked for exact primal and dual feasibility
   (:func:`seqform.lp.exact.basis.resolve_basis`): player 0's plan ``x`` is read from the
   columns, player 1's ``y`` from the exact duals of the payoff rows
   ``Fᵀ q − scale Aᵀ x <= 0`` (the auxiliary level sums are free columns and leave ``y`` a
   plan of player 1: ``F y = f``).  Their behavioural strategies are exact.  A basis that
   misses exact optimality is continued by exact simplex pivots, at most
   ``LIMITS.exact_pivots`` of them (:func:`seqform.lp.exact.repair.repair_or_resolve`), as
   on the tree's exact route.
3. Should the basis give no exact strategies (singular, negative plan entries), the float
   strategies rounded to nearby fractions (:func:`seqform.forms.strategies.round_strategy`)
   are tried instead.

Certificate.  Both best responses are computed in Fractions by the public-tree walk with
vectorised hands (:func:`seqform.structured.responses.certify`, Johanson et al. IJCAI 2011),
independently of the LP: ``L(x) = −BR_1(x) <= v <= BR_0(y) = U(y)``.  When ``L = U`` the
value is proven and NashConv is exactly 0; otherwise the result gives the exact bounds and
says why (the CLI exits 3), never an unproven "exact" value.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from seqform.certify import Certificate
from seqform.forms.strategies import (
    BehaviouralStrategy,
    behaviour_from_plan,
    round_strategy,
)
from seqform.game.public.explicit import tree_nodes
from seqform.game.public.tree import StructuredGame
from seqform.lp.exact.basis import InvalidBasisError
from seqform.lp.exact.linear_solver import ExactSolveError
from seqform.lp.exact.program import float_problem
from seqform.lp.exact.repair import repair_or_resolve
from seqform.lp.problem import FloatSolution, PlanLayout
from seqform.lp.run import run_lp
from seqform.lp.solvers import SolverStats
from seqform.routes.exact import ValueBounds, basis_notes
from seqform.routes.result import ExactOutcome, PhaseClock, Timings, Value
from seqform.structured.lp_model import ExactStructuredLP, build_exact_structured_lp
from seqform.structured.payoff_matrix import payoff_nnz
from seqform.structured.responses import certify, sequence_tables

__all__ = ["StructuredExactSolution", "solve_structured_exact"]

Profile = tuple[BehaviouralStrategy, BehaviouralStrategy]


@dataclass(frozen=True)
class StructuredExactSolution(ExactOutcome):
    """An exact equilibrium of a structured game, or exact bounds when none is certified
    (the fields of :class:`~seqform.routes.exact.ExactSolution` that do not need a tree,
    and the sizes of :class:`~seqform.routes.structured.StructuredSolution`).

    value : the proven ``Fraction`` when certified, else the LP's float optimum
    bounds : exact bounds from the certificate (``lower == upper == value`` if certified)
    strategies : exact behavioural strategies of players 0 and 1 on the tree-free tables
    certificate : expected value, best-response values and NashConv, all exact
    found_by : "basis", "rounding" (the basis gave no exact strategies) or "none"
    basis_verified : the exact re-solve passed the exact optimality checks (None when it
        could not be re-solved)
    float_value : HiGHS's float optimum, as the game's value
    stats : what HiGHS did on the float LP; timings : ``sequence_form`` (building the exact
        LP), ``lp``, ``basis`` and ``rounding`` (stage ``behaviour``), ``certificate``
    payoff_nonzeros, matrix_nonzeros, tree_nodes : as in ``StructuredSolution``
    notes : what went wrong along the way
    """

    game: StructuredGame
    value: Value
    bounds: ValueBounds
    strategies: Profile
    certificate: Certificate
    found_by: str
    basis_verified: bool | None
    float_value: float
    stats: SolverStats
    timings: Timings
    payoff_nonzeros: int
    matrix_nonzeros: int
    tree_nodes: int
    notes: tuple[str, ...] = ()

    @property
    def route(self) -> str:
        """The route (:mod:`seqform.routes.policy`): ``"structured"``."""
        return "structured"


def _from_basis(
    game: StructuredGame, lp: ExactStructuredLP, result: FloatSolution, notes: list[str]
) -> tuple[Profile | None, bool | None]:
    """Step 2: the exact strategies of HiGHS's basis (None if it gives none) and whether
    the exact re-solve passed the optimality checks; what went wrong goes to ``notes``."""
    if result.basis is None:
        notes.append("the LP solver returned no basis to re-solve exactly")
        return None, None
    try:
        outcome = repair_or_resolve(lp.program, result.basis)
    except (InvalidBasisError, ExactSolveError) as exc:
        notes.append(f"the optimal basis could not be re-solved exactly: {exc}")
        return None, None
    exact = outcome.solution
    notes += basis_notes(outcome)
    x, y = lp.exact_plans(exact.values, exact.row_duals)
    if min(x) < 0 or min(y) < 0:
        notes.append("the exact basic solution has negative plan entries")
        return None, exact.optimal
    tables = sequence_tables(game)
    return (behaviour_from_plan(tables[0], x), behaviour_from_plan(tables[1], y)), exact.optimal


def _rounded(game: StructuredGame, lp: ExactStructuredLP, result: FloatSolution) -> Profile | None:
    """Step 3: the float LP's strategies rounded to nearby fractions, if that keeps sums."""
    tables = sequence_tables(game)
    first = round_strategy(behaviour_from_plan(tables[0], result.x))
    second = round_strategy(behaviour_from_plan(tables[1], result.y))
    return None if first is None or second is None else (first, second)


def _exact_profile(
    clock: PhaseClock, game: StructuredGame, lp: ExactStructuredLP, result: FloatSolution
) -> tuple[Profile, str, bool | None, list[str]]:
    """Steps 2 and 3, timed as ``basis`` and ``rounding``: the exact strategies, how they
    were found, whether the basis passed the exact checks, and notes."""
    notes: list[str] = []
    found_by = "basis"
    resolving = "re-solving the optimal basis in exact arithmetic"
    with clock.phase("basis", resolving, stage="behaviour"):
        profile, verified = _from_basis(game, lp, result, notes)
    with clock.phase("rounding", stage="behaviour"):
        if profile is None:
            profile, found_by = _rounded(game, lp, result), "rounding"
    if profile is None:
        raise ExactSolveError("no exact strategy could be formed: " + "; ".join(notes))
    return profile, found_by, verified, notes


def _exact(value: float | Fraction) -> Fraction:
    if not isinstance(value, Fraction):
        raise TypeError(f"an exact certificate holds Fractions, not {value!r}")
    return value


def solve_structured_exact(
    game: StructuredGame,
    *,
    solver: str = "simplex",
    time_limit: float | None = None,
    progress: Callable[[str], None] | None = None,
) -> StructuredExactSolution:
    """Solve ``game`` on the structured route and certify it in exact arithmetic (module
    docstring).

    ``solver`` is HiGHS's ``"simplex"`` or ``"ipm"`` (with crossover); both give a basis.

    Raises
    ------
    seqform.lp.solvers.SolverError
        If HiGHS does not prove the float LP optimal (``SolverLimitError`` at the limit).
    seqform.lp.exact.linear_solver.ExactSolveError
        If neither the basis nor rounding gives exact strategies.
    """
    clock = PhaseClock(progress)
    with clock.phase("sequence_form", f"exact structured LP of {game.name} (no game tree)"):
        lp = build_exact_structured_lp(game)
    program = lp.program
    rows, columns = program.num_rows, program.num_cols
    with clock.phase("lp", f"solving with HiGHS {solver}: {columns:,} variables, {rows:,} rows"):
        layout = PlanLayout(lp.x_columns, lp.payoff_rows, scale=float(lp.scale))
        problem = float_problem(program, layout)
        result = run_lp(problem, solver=solver, time_limit=time_limit, basis=True)
    profile, found_by, verified, notes = _exact_profile(clock, game, lp, result)
    with clock.phase("certificate", "exact certificate on the public tree × hands"):
        certificate = certify(game, *profile)
    best_first, best_second = (_exact(v) for v in certificate.best_response_values)
    bounds = ValueBounds(lower=-best_second, upper=best_first)
    float_value = result.value
    return StructuredExactSolution(
        game=game,
        value=bounds.lower if bounds.lower == bounds.upper else float_value,
        bounds=bounds,
        strategies=profile,
        certificate=certificate,
        found_by=found_by if bounds.lower == bounds.upper else "none",
        basis_verified=verified,
        float_value=float_value,
        stats=result.stats,
        timings=clock.timings(),
        payoff_nonzeros=lp.payoff_nonzeros,
        matrix_nonzeros=payoff_nnz(game),
        tree_nodes=tree_nodes(game),
        notes=tuple(notes),
    )
