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
is certified in exact arithmetic by the tree walk (NashConv exactly 0).

Fallback (marked unverified).  If no basis is proven optimal for all small ``ε`` within
the budget, the answer is an exact equilibrium (:mod:`seqform.analyses.exact`) in which, at the
information sets its own player never reaches, the player best responds (with optimal
own play below) to the opponent's perturbed strategy at the last ``ε`` tried.  It is
still an exact equilibrium and leaves no information set arbitrary, but it is not
proven quasi-perfect.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.certify import Certificate, best_response, certify
from seqform.forms.exact_strategies import ExactStrategy
from seqform.forms.sequence_form import SequenceForm, build_sequence_form
from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_plan, infoset_depths
from seqform.game.compiled import PlayerSequences
from seqform.game.model import Game
from seqform.lp.exact.basis import InvalidBasisError
from seqform.lp.exact.minmax import MinmaxProgram, minmax_program
from seqform.lp.exact.parametric import (
    ParametricLP,
    ParametricSolution,
    lex_sign,
    lexicographic_optimum,
)
from seqform.lp.exact.program import HighsModel
from seqform.lp.exact.rational import ExactSolveError
from seqform.lp.solvers import SolverError, SolverStats, optimal_stats

__all__ = ["RefinedSolution", "refine", "sequence_lengths"]

logger = logging.getLogger(__name__)

Polynomial = list[Fraction]  # coefficients of ε^0, ε^1, ...

FLOAT_BOUND_FLOOR = 1e-12  # smallest perturbation ε^D handed to the float solver


@dataclass(frozen=True)
class RefinedSolution:
    """A quasi-perfect equilibrium (Miltersen and Sørensen 2010) and its certificate.

    value : the value to player 0 (a Fraction when verified)
    strategies : the exact strategies
    behaviour : the strategies in floating point (all information sets defined)
    refined : per player, the information sets the player's own limit plan does not
        reach, where the behaviour comes from the refinement rather than from the plan
    certificate : of the limit strategies in the original game (exact when verified)
    verified : a basis passed the exact lexicographic optimality check, so the strategies
        are the quasi-perfect limit; False for the fallback (module docstring)
    epsilon : the ε at which HiGHS found the starting basis
    degree : the longest sequence, the highest power of ε in the perturbation
    pivots : exact simplex pivots from HiGHS's basis to the basis optimal for all small ε
    """

    game: Game
    form: SequenceForm
    value: Fraction | float
    strategies: tuple[ExactStrategy, ExactStrategy] | None
    behaviour: tuple[BehaviouralStrategy, BehaviouralStrategy]
    refined: tuple[tuple[str, ...], tuple[str, ...]]
    certificate: Certificate
    verified: bool
    epsilon: Fraction
    degree: int
    pivots: int
    stats: SolverStats
    seconds: float

    @property
    def exploitability(self) -> float:
        return float(self.certificate.exploitability)


def sequence_lengths(table: PlayerSequences) -> np.ndarray:
    """``|σ|`` per sequence: the number of the player's own moves (0 for the empty one)."""
    lengths = np.zeros(table.num_sequences, dtype=np.int64)
    if table.num_infosets:
        lengths[1:] = infoset_depths(table)[table.sequence_infoset[1:]] + 1
    return lengths


def _candidate_epsilons(degree: int, max_actions: int) -> list[Fraction]:
    """Powers of 1/2 below ``1 / max_actions`` (so the bounds are feasible) while ``ε^degree``
    stays above :data:`FLOAT_BOUND_FLOOR`: at most four, spread evenly, largest first."""
    first = 1
    while Fraction(1, 2**first) * max_actions >= 1:
        first += 1
    last = first
    while float(Fraction(1, 2 ** (last + 1))) ** max(degree, 1) >= FLOAT_BOUND_FLOOR:
        last += 1
    exponents = list(range(first, last + 1))
    step = max(1, -(-len(exponents) // 4))
    return [Fraction(1, 2**k) for k in exponents[::step]]


def _perturbed_lp(
    form: SequenceForm, lengths: tuple[np.ndarray, np.ndarray], degree: int
) -> tuple[MinmaxProgram, ParametricLP]:
    """The perturbed LP with ``ε`` symbolic: bounds ``ε^|σ|``, objective ``(A m)x + (f − F m)q``."""
    minmax = minmax_program(form)
    program = minmax.program
    size = degree + 1

    def monomial(power: int) -> tuple[Fraction, ...]:
        return tuple(Fraction(int(k == power)) for k in range(size))

    def constant(value: Fraction | None) -> tuple[Fraction, ...] | None:
        return None if value is None else (value, *([Fraction(0)] * degree))

    x_cols, q_cols = minmax.x_columns, minmax.q_columns
    objective = [[Fraction(0)] * size for _ in range(program.num_cols)]
    objective[q_cols.start][0] = Fraction(1)  # f = (1, 0, ..., 0)
    pay_rows, pay_cols, pay_values = form.payoff_entries
    for s, t, a in zip(pay_rows.tolist(), pay_cols.tolist(), pay_values, strict=True):
        if t:
            objective[x_cols.start + s][int(lengths[1][t])] += a
    f_coo = form.F.tocoo()
    for h, t, v in zip(f_coo.row.tolist(), f_coo.col.tolist(), f_coo.data.tolist(), strict=True):
        if t:
            objective[q_cols.start + h][int(lengths[1][t])] -= int(v)
    col_lower: list[tuple[Fraction, ...] | None] = [constant(b) for b in program.col_lower]
    for s in range(1, form.players[0].num_sequences):
        col_lower[x_cols.start + s] = monomial(int(lengths[0][s]))
    parametric = ParametricLP(
        program=program,
        degree=degree,
        objective=tuple(tuple(c) for c in objective),
        col_lower=tuple(col_lower),
        col_upper=tuple(constant(b) for b in program.col_upper),
        row_lower=tuple(constant(b) for b in program.row_lower),
        row_upper=tuple(constant(b) for b in program.row_upper),
    )
    return minmax, parametric


def _limit_plans(
    minmax: MinmaxProgram, solution: ParametricSolution, lengths: np.ndarray
) -> tuple[list[Polynomial], list[Polynomial]]:
    """Player 0's plan (columns) and player 1's, ``y = m + w`` (duals), as polynomials."""
    x = [list(solution.values[j]) for j in minmax.x_columns]
    y = []
    for t, row in enumerate(minmax.best_reply_rows):
        w = list(solution.row_duals[row])
        if t:
            w[int(lengths[t])] += 1
        y.append(w)
    return x, y


def _limit_strategy(table: PlayerSequences, plan: list[Polynomial]) -> tuple[ExactStrategy, bool]:
    """Behaviour as the limit of ``x_ε[h, a] / x_ε[parent]`` (lowest-order coefficients)."""
    probabilities = [Fraction(1)] * table.num_sequences
    unreached = [False] * table.num_infosets
    consistent = True
    for infoset in range(table.num_infosets):
        parent = plan[int(table.parent_sequence[infoset])]
        order = next((k for k, c in enumerate(parent) if c), None)
        if order is None:
            return ExactStrategy(table, tuple(probabilities), tuple(unreached)), False
        unreached[infoset] = order > 0
        for sequence in table.sequences_of(infoset):
            child = plan[sequence]
            if any(child[:order]):
                consistent = False
            probabilities[sequence] = child[order] / parent[order]
    strategy = ExactStrategy(
        table=table, probabilities=tuple(probabilities), unreached=tuple(unreached)
    )
    return strategy, consistent


def refine(
    game: Game,
    *,
    form: SequenceForm | None = None,
    algorithm: str = "simplex",
    time_limit: float | None = None,
    max_pivots: int = 1000,
    max_seconds: float = 600.0,
) -> RefinedSolution:
    """Compute a quasi-perfect equilibrium by the perturbed LP (module docstring).

    Parameters
    ----------
    game
        The game.
    form
        Its sequence form, if already built.
    algorithm, time_limit
        For HiGHS on the numeric perturbed LPs.
    max_pivots
        Exact simplex pivots allowed from each starting basis.
    max_seconds
        Time for the exact pivoting, over all starting bases; after it the fallback of
        the module docstring is returned, marked unverified.

    Raises
    ------
    seqform.lp.solvers.SolverError
        If HiGHS fails on every perturbed LP.
    """
    start = time.perf_counter()
    form = form or build_sequence_form(game)
    lengths = (sequence_lengths(form.players[0]), sequence_lengths(form.players[1]))
    degree = int(max(lengths[0].max(), lengths[1].max()))
    max_actions = max((len(a) for table in form.players for a in table.actions), default=1)
    last = None
    iterations = 0
    minmax_symbolic, parametric = _perturbed_lp(form, lengths, degree)
    for epsilon in _candidate_epsilons(degree, max_actions):
        if last is not None and time.perf_counter() > start + max_seconds:
            break
        x_lower = [epsilon ** int(n) if n else Fraction(0) for n in lengths[0]]
        y_lower = [epsilon ** int(n) if n else Fraction(0) for n in lengths[1]]
        minmax = minmax_program(form, x_lower=x_lower, y_lower=y_lower)
        model = HighsModel(minmax.program, algorithm=algorithm, time_limit=time_limit)
        model.set_tolerances(1e-10)
        try:
            result = model.maximise()
        except SolverError as exc:
            logger.info("perturbed LP at ε = %s failed: %s", epsilon, exc)
            continue
        iterations += result.iterations
        last = (epsilon, minmax, result)
        if result.basis is None:
            continue
        try:
            found = lexicographic_optimum(
                parametric, result.basis, max_pivots=max_pivots, deadline=start + max_seconds
            )
        except (InvalidBasisError, ExactSolveError, ArithmeticError) as exc:
            logger.info("basis at ε = %s not usable: %s", epsilon, exc)
            continue
        if found is None:
            logger.info("no basis optimal for all small ε from ε = %s; trying smaller", epsilon)
            continue
        x_poly, y_poly = _limit_plans(minmax_symbolic, found, lengths[1])
        if any(lex_sign(p) < 0 for p in y_poly):
            continue
        value = found.values[minmax_symbolic.q_columns.start][0]
        first, ok0 = _limit_strategy(form.players[0], x_poly)
        second, ok1 = _limit_strategy(form.players[1], y_poly)
        if not (ok0 and ok1):
            continue
        certificate = certify(game, first.as_behaviour(), second.as_behaviour())
        return RefinedSolution(
            game=game,
            form=form,
            value=value,
            strategies=(first, second),
            behaviour=(first.to_float(), second.to_float()),
            refined=_refined_sets(first, second),
            certificate=certificate,
            verified=certificate.exploitability == 0,
            epsilon=epsilon,
            degree=degree,
            pivots=found.pivots,
            stats=_stats(minmax, algorithm, iterations, time.perf_counter() - start),
            seconds=time.perf_counter() - start,
        )
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
    first, second = _fill_in(game, form, trembling)
    certificate = certify(game, first.as_behaviour(), second.as_behaviour())
    return RefinedSolution(
        game=game,
        form=form,
        value=certificate.value,
        strategies=(first, second),
        behaviour=(first.to_float(), second.to_float()),
        refined=_refined_sets(first, second),
        certificate=certificate,
        verified=False,
        epsilon=epsilon,
        degree=degree,
        pivots=0,
        stats=_stats(minmax, algorithm, iterations, time.perf_counter() - start),
        seconds=time.perf_counter() - start,
    )


def _fill_in(
    game: Game, form: SequenceForm, trembling: tuple[BehaviouralStrategy, BehaviouralStrategy]
) -> tuple[ExactStrategy, ExactStrategy]:
    """The fallback: an exact equilibrium (:func:`seqform.analyses.exact.solve_exact`) whose play at
    the information sets its own player never reaches is a best response (with optimal own
    play below) to the opponent's perturbed strategy.  Those sets change no payoff, so the
    profile is still an exact equilibrium; it is not proven quasi-perfect."""
    from seqform.analyses.exact import solve_exact

    exact = solve_exact(game, form=form)
    out = []
    for player, strategy in enumerate(exact.strategies):
        response = best_response(game, player, trembling[1 - player])
        table = strategy.table
        probabilities = list(strategy.probabilities)
        for index, name in enumerate(table.infosets):
            if strategy.unreached[index]:
                chosen = response.actions.get(name, 0)
                for offset, sequence in enumerate(table.sequences_of(index)):
                    probabilities[sequence] = Fraction(int(offset == chosen))
        out.append(ExactStrategy(table, tuple(probabilities), strategy.unreached))
    return out[0], out[1]


def _refined_sets(
    first: ExactStrategy, second: ExactStrategy
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(  # type: ignore[return-value]
        tuple(name for name, flag in zip(s.table.infosets, s.unreached, strict=True) if flag)
        for s in (first, second)
    )


def _stats(minmax: MinmaxProgram, algorithm: str, iterations: int, seconds: float) -> SolverStats:
    program = minmax.program
    return optimal_stats(
        "highs",
        algorithm,
        seconds=seconds,
        iterations=iterations,
        shape=(program.num_rows, program.num_cols),
        nonzeros=program.matrix.nnz,
    )
