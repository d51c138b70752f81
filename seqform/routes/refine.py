"""A quasi-perfect equilibrium: an equilibrium that also plays well after mistakes.

A Nash equilibrium says nothing sensible at information sets its own player never
reaches: any behaviour there gives the same plan.  Kuhn player 1 may check K and then,
facing a bet, fold — harmless only because player 1 "never" checks K.  A quasi-perfect
equilibrium (van Damme 1984) rules this out: each player's choice at every information
set is a best response to the opponent's trembles, given the player's own future optimal
play.

Method (Miltersen and Sørensen 2010, "Computing a quasi-perfect equilibrium of a
two-player game", Econ. Theory 42).  Perturb the sequence form: every non-empty sequence
``σ`` of either player gets the lower bound ``ε^|σ|`` (``|σ|`` = the number of the
player's own moves in it), i.e.

    x >= l(ε),  y >= m(ε),  l_σ(ε) = m_σ(ε) = ε^|σ|,

and solve the perturbed min-max LP (:mod:`seqform.lp.exact.minmax`: ``x >= l`` as column
bounds, ``y = m + w`` with the objective ``(A m) @ x + (f − F m) @ q``).  Limit points of
its equilibria as ``ε → 0`` are quasi-perfect (their Lemma 1).

The limit is computed *exactly*, as they suggest, from one basis.  ``ε`` enters only the
bounds and the objective, so for a fixed basis ``B`` the basic solution is a polynomial in
``ε``: with ``l(ε) = Σ_k ε^k l_k`` and ``c(ε) = Σ_k ε^k c_k``, each coefficient solves the
same square system (:class:`~seqform.lp.exact.basis.BasisSystem`),

    M_TB v_k = b_k − M_TN l_{N,k},        M_TB.T π_k = c_{k,B},

for ``k = 0 .. D`` (``D`` the longest sequence).  The basis is optimal for *all*
sufficiently small ``ε > 0`` iff the primal slacks, the reduced costs and the row duals
have the right signs lexicographically (a polynomial is positive for small ``ε`` iff its
lowest non-zero coefficient is), with complementary slackness identically in ``ε``
(:mod:`seqform.lp.exact.parametric`).  HiGHS finds a starting basis at a numeric
``ε = 2^-3, 2^-6, …`` (tight tolerances); from the first one that is lexicographically
primal feasible, exact simplex pivots over ``Q(ε)`` reach a basis optimal for all small
``ε`` (Kuhn: one pivot; Leduc: about seventy, some seconds).  The pivoting has a time
budget (``max_seconds``) for large games.

The limit strategies: the plans are the degree-0 coefficients (an equilibrium of the
original game), and the behaviour at information set ``h`` is the limit of
``x_ε[h, a] / x_ε[parent(h)]`` — the ratio of the lowest-order coefficients — which is
defined everywhere, including where the limit plan gives ``h`` probability 0.  The result
is certified in exact arithmetic by best responses (NashConv exactly 0).

Fallback (marked unverified).  If no basis is proven optimal for all small ``ε`` within
the budget, the answer is an exact equilibrium (:mod:`seqform.routes.exact`) in which, at the
information sets its own player never reaches, the player best responds (with optimal
own play below) to the opponent's perturbed strategy at the last ``ε`` tried.  It is
still an exact equilibrium and leaves no information set arbitrary, but it is not
proven quasi-perfect.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.base.arguments import require_count, require_seconds, require_time_limit
from seqform.base.progress import Step, report
from seqform.certify import Certificate, best_response, certify
from seqform.forms.provenance import sequence_form_of
from seqform.forms.sequence_form import SequenceForm
from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_plan
from seqform.game.model import Game
from seqform.game.requirements import require_float_payoffs
from seqform.io.loader import as_game
from seqform.lp.exact.minmax import MinmaxProgram
from seqform.lp.problem import FloatSolution
from seqform.lp.solvers import SolverError, SolverStats, optimal_stats
from seqform.routes.options import check_options
from seqform.routes.perturbation import (
    PerturbedProblem,
    candidate_epsilons,
    lexicographic_basis,
    perturbed_problem,
    sequence_lengths,
    solve_numeric,
)
from seqform.routes.result import PhaseClock, Timings, Value

__all__ = ["RefinedSolution", "refine", "sequence_lengths"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RefinedSolution:
    """A quasi-perfect equilibrium (Miltersen and Sørensen 2010) and its certificate (a
    :class:`~seqform.routes.result.Result`).

    value : the value to player 0 (a Fraction when verified)
    strategies : the exact strategies
    refined : per player, the information sets the player's own limit plan does not
        reach, where the behaviour comes from the refinement rather than from the plan
    certificate : of the limit strategies in the original game (exact when verified)
    verified : a basis passed the exact lexicographic optimality check, so the strategies
        are the quasi-perfect limit; False for the fallback (module docstring)
    epsilon : the ε at which HiGHS found the starting basis
    degree : the longest sequence, the highest power of ε in the perturbation
    pivots : exact simplex pivots from HiGHS's basis to the basis optimal for all small ε
    stats : what HiGHS did on the perturbed LPs (iterations summed)
    timings : seconds per phase: ``sequence_form`` (with the perturbation), ``lp`` (the
        perturbed LPs, the exact pivots and the limit), ``certificate``
    """

    game: Game
    form: SequenceForm
    value: Value
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy]
    refined: tuple[tuple[str, ...], tuple[str, ...]]
    certificate: Certificate
    verified: bool
    epsilon: Fraction
    degree: int
    pivots: int
    stats: SolverStats
    timings: Timings

    @property
    def behaviour(self) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
        """The strategies in floating point (all information sets defined)."""
        return (self.strategies[0].to_float(), self.strategies[1].to_float())

    @property
    def nash_conv(self) -> float:
        """NashConv of ``strategies``, the sum of the best-response gains."""
        return float(self.certificate.nash_conv)

    @property
    def exploitability(self) -> float:
        """NashConv / 2 of ``strategies``."""
        return float(self.certificate.exploitability)

    @property
    def seconds(self) -> float:
        """Wall-clock seconds of the whole refinement."""
        return self.timings.total

    @property
    def route(self) -> str:
        """The route (:mod:`seqform.routes.policy`): ``"tree"``."""
        return "tree"


@dataclass(frozen=True)
class _Limit:
    """What the ε search found: the limit value (None for the fallback) and strategies."""

    value: Fraction | None
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy]
    epsilon: Fraction
    pivots: int
    stats: SolverStats


def refine(
    game: Game | str | os.PathLike[str],
    *,
    form: SequenceForm | None = None,
    solver: str = "simplex",
    time_limit: float | None = None,
    max_pivots: int = 1000,
    max_seconds: float = 600.0,
) -> RefinedSolution:
    """Compute a quasi-perfect equilibrium by the perturbed LP (module docstring).

    Length: the docstring documents each option and refusal; the body is short.

    Parameters
    ----------
    game
        The game.
    form
        Its sequence form, if already built.
    solver, time_limit
        For HiGHS on the numeric perturbed LPs: ``"simplex"`` or ``"ipm"``, the solvers
        that end at a simplex basis.
    max_pivots
        Exact simplex pivots allowed from each starting basis.
    max_seconds
        Time for the exact pivoting, over all starting bases; after it the fallback of
        the module docstring is returned, marked unverified.

    Raises
    ------
    OptionsError
        For a solver without a simplex basis (``"pdlp"``, ``"clarabel"``) or unknown, as
        :func:`~seqform.routes.options.check_options` says it for ``solve(refine=True)``.
    seqform.lp.solvers.SolverError
        If HiGHS fails on every perturbed LP.
    """
    check_options("tree", solver=solver, refine=True)  # as solve(refine=True) and --refine
    game = as_game(game, "refine")
    time_limit = require_time_limit("time_limit", time_limit)
    max_pivots = require_count("max_pivots", max_pivots, minimum=1)
    max_seconds = require_seconds("max_seconds", max_seconds)
    start = time.perf_counter()
    clock = PhaseClock()
    with clock.phase("sequence_form"):
        require_float_payoffs(game, "the refined (perturbed) LP")
        problem = perturbed_problem(game, sequence_form_of(game, form))
    with clock.phase("lp"):
        limit = _search(problem, solver, time_limit, max_pivots, start, start + max_seconds)
    with clock.phase("certificate"):
        first, second = limit.strategies
        certificate = certify(game, first, second)
    return RefinedSolution(
        game=game,
        form=problem.form,
        value=certificate.value if limit.value is None else limit.value,
        strategies=(first, second),
        refined=_refined_sets(first, second),
        certificate=certificate,
        verified=limit.value is not None and certificate.nash_conv == 0,
        epsilon=limit.epsilon,
        degree=problem.degree,
        pivots=limit.pivots,
        stats=limit.stats,
        timings=clock.timings(),
    )


def _search(
    problem: PerturbedProblem,
    solver: str,
    time_limit: float | None,
    max_pivots: int,
    start: float,
    deadline: float,
) -> _Limit:
    """Try ε = 2^-3, 2^-6, … until a basis is proven optimal for all small ε; after the
    deadline, the fallback at the last ε tried (module docstring)."""
    form = problem.form
    max_actions = max((len(a) for table in form.players for a in table.actions), default=1)
    last: tuple[Fraction, MinmaxProgram, FloatSolution] | None = None
    iterations = 0
    for tried, epsilon in enumerate(candidate_epsilons(problem.degree, max_actions)):
        report(Step("refine: perturbed LPs", tried, None, f"ε = {epsilon}"))
        if last is not None and time.perf_counter() > deadline:
            break
        minmax = problem.numeric(epsilon)
        result = solve_numeric(minmax, epsilon, solver, time_limit)
        if result is None:
            continue
        iterations += result.stats.iterations
        last = (epsilon, minmax, result)
        if result.basis is None:
            continue
        found = lexicographic_basis(problem, epsilon, result.basis, max_pivots, deadline)
        limit = None if found is None else problem.limit(found)
        if found is None or limit is None:
            continue
        value, first, second = limit
        stats = _stats(minmax, solver, iterations, time.perf_counter() - start)
        return _Limit(value, (first, second), epsilon, found.pivots, stats)
    if last is None:
        raise SolverError("HiGHS failed on every perturbed LP")
    epsilon, minmax, result = last
    logger.warning(
        "no basis verified for all small ε; an exact equilibrium with best responses to the "
        "trembles at ε = %s where the players' own play does not reach",
        epsilon,
    )
    x, y = minmax.float_plans(result)
    trembling = (
        behaviour_from_plan(form.players[0], x, tol=0.0),
        behaviour_from_plan(form.players[1], y, tol=0.0),
    )
    strategies = _fill_in(problem.game, form, trembling)
    stats = _stats(minmax, solver, iterations, time.perf_counter() - start)
    return _Limit(None, strategies, epsilon, 0, stats)


def _fill_in(
    game: Game, form: SequenceForm, trembling: tuple[BehaviouralStrategy, BehaviouralStrategy]
) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
    """The fallback: an exact equilibrium (:func:`seqform.routes.exact.solve_exact`) whose play at
    the information sets its own player never reaches is a best response (with optimal own
    play below) to the opponent's perturbed strategy.  Those sets change no payoff, so the
    profile is still an exact equilibrium; it is not proven quasi-perfect."""
    from seqform.routes.exact import solve_exact

    exact = solve_exact(game, form=form)
    out = []
    for player, strategy in enumerate(exact.strategies):
        response = best_response(game, player, trembling[1 - player])
        table = strategy.table
        probabilities = strategy.probabilities.copy()
        for index in np.flatnonzero(strategy.unreached).tolist():
            chosen = int(response.choice[index])
            for offset, sequence in enumerate(table.sequences_of(index)):
                probabilities[sequence] = Fraction(int(offset == chosen))
        out.append(BehaviouralStrategy(table, probabilities, strategy.unreached))
    return out[0], out[1]


def _refined_sets(
    first: BehaviouralStrategy, second: BehaviouralStrategy
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(  # type: ignore[return-value]
        tuple(name for name, flag in zip(s.table.infosets, s.unreached, strict=True) if flag)
        for s in (first, second)
    )


def _stats(minmax: MinmaxProgram, solver: str, iterations: int, seconds: float) -> SolverStats:
    program = minmax.program
    return optimal_stats(
        "highs",
        solver,
        seconds=seconds,
        iterations=iterations,
        shape=(program.num_rows, program.num_cols),
        nonzeros=program.matrix.nnz,
    )
