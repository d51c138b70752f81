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
same square system (:class:`~seqform.lp.exact.program.BasisSystem`),

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
from seqform.forms.sequence_form import SequenceForm, build_sequence_form
from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_plan, infoset_depths
from seqform.game.compiled import PlayerSequences
from seqform.game.model import Game
from seqform.lp.exact.minmax import MinmaxProgram, minmax_program
from seqform.lp.exact.parametric import (
    ParametricLP,
    ParametricSolution,
    lex_sign,
    lexicographic_optimum,
)
from seqform.lp.exact.program import FloatLPResult, HighsModel, InvalidBasisError
from seqform.lp.exact.rational import ExactSolveError
from seqform.lp.minmax import SolverError, SolverStats

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
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy] | None
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


def _limit_strategy(table: PlayerSequences, plan: list[Polynomial]) -> BehaviouralStrategy | None:
    """Behaviour as the limit of ``x_ε[h, a] / x_ε[parent]`` (lowest-order coefficients);
    None where that limit is not a strategy (a zero parent, or a child of lower order)."""
    probabilities = np.empty(table.num_sequences, dtype=object)
    probabilities[0] = Fraction(1)
    unreached = np.zeros(table.num_infosets, dtype=bool)
    for infoset in range(table.num_infosets):
        parent = plan[int(table.parent_sequence[infoset])]
        order = next((k for k, c in enumerate(parent) if c), None)
        if order is None:
            return None
        unreached[infoset] = order > 0
        for sequence in table.sequences_of(infoset):
            child = plan[sequence]
            if any(child[:order]):
                return None
            probabilities[sequence] = Fraction(child[order]) / parent[order]
    return BehaviouralStrategy(table=table, probabilities=probabilities, unreached=unreached)


@dataclass(frozen=True)
class _Perturbed:
    """The problem of the module docstring, ``ε`` symbolic, and its numeric instances."""

    game: Game
    form: SequenceForm
    lengths: tuple[np.ndarray, np.ndarray]
    degree: int
    symbolic: MinmaxProgram
    parametric: ParametricLP

    def numeric(self, epsilon: Fraction) -> MinmaxProgram:
        """The perturbed LP at one numeric ``ε``: bounds ``ε^|σ|`` on both plans."""
        x_lower = [epsilon ** int(n) if n else Fraction(0) for n in self.lengths[0]]
        y_lower = [epsilon ** int(n) if n else Fraction(0) for n in self.lengths[1]]
        return minmax_program(self.form, x_lower=x_lower, y_lower=y_lower)

    def limit(
        self, found: ParametricSolution
    ) -> tuple[Fraction, BehaviouralStrategy, BehaviouralStrategy] | None:
        """The value and limit strategies of a basis optimal for all small ``ε``, or None
        when its plans are not strategies in the limit."""
        x_poly, y_poly = _limit_plans(self.symbolic, found, self.lengths[1])
        if any(lex_sign(p) < 0 for p in y_poly):
            return None
        first = _limit_strategy(self.form.players[0], x_poly)
        second = _limit_strategy(self.form.players[1], y_poly)
        if first is None or second is None:
            return None
        return found.values[self.symbolic.q_columns.start][0], first, second


def _perturbed(game: Game, form: SequenceForm) -> _Perturbed:
    lengths = (sequence_lengths(form.players[0]), sequence_lengths(form.players[1]))
    degree = int(max(lengths[0].max(), lengths[1].max()))
    symbolic, parametric = _perturbed_lp(form, lengths, degree)
    return _Perturbed(game, form, lengths, degree, symbolic, parametric)


def _solve_numeric(
    minmax: MinmaxProgram, epsilon: Fraction, algorithm: str, time_limit: float | None
) -> FloatLPResult | None:
    """HiGHS on the perturbed LP at ``ε`` with tight tolerances; None if it fails."""
    model = HighsModel(minmax.program, algorithm=algorithm, time_limit=time_limit)
    model.set_tolerances(1e-10)
    try:
        return model.maximise()
    except SolverError as exc:
        logger.info("perturbed LP at ε = %s failed: %s", epsilon, exc)
        return None


def _lexicographic(
    problem: _Perturbed, epsilon: Fraction, basis, max_pivots: int, deadline: float
) -> ParametricSolution | None:
    """Exact pivots from HiGHS's basis at ``ε`` to one optimal for all small ``ε``."""
    try:
        found = lexicographic_optimum(
            problem.parametric, basis, max_pivots=max_pivots, deadline=deadline
        )
    except (InvalidBasisError, ExactSolveError, ArithmeticError) as exc:
        logger.info("basis at ε = %s not usable: %s", epsilon, exc)
        return None
    if found is None:
        logger.info("no basis optimal for all small ε from ε = %s; trying smaller", epsilon)
    return found


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
    seqform.lp.minmax.SolverError
        If HiGHS fails on every perturbed LP.
    """
    start = time.perf_counter()
    form = form or build_sequence_form(game)
    problem = _perturbed(game, form)
    max_actions = max((len(a) for table in form.players for a in table.actions), default=1)
    last: tuple[Fraction, MinmaxProgram, FloatLPResult] | None = None
    iterations = 0
    for epsilon in _candidate_epsilons(problem.degree, max_actions):
        if last is not None and time.perf_counter() > start + max_seconds:
            break
        minmax = problem.numeric(epsilon)
        result = _solve_numeric(minmax, epsilon, algorithm, time_limit)
        if result is None:
            continue
        iterations += result.iterations
        last = (epsilon, minmax, result)
        if result.basis is None:
            continue
        found = _lexicographic(problem, epsilon, result.basis, max_pivots, start + max_seconds)
        limit = None if found is None else problem.limit(found)
        if limit is None:
            continue
        value, first, second = limit
        stats = _stats(minmax, algorithm, iterations, time.perf_counter() - start)
        return _result(problem, value, (first, second), epsilon, found.pivots, stats, start)
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
    strategies = _fill_in(game, form, trembling)
    stats = _stats(minmax, algorithm, iterations, time.perf_counter() - start)
    return _result(problem, None, strategies, epsilon, 0, stats, start)


def _result(
    problem: _Perturbed,
    value: Fraction | None,
    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy],
    epsilon: Fraction,
    pivots: int,
    stats: SolverStats,
    start: float,
) -> RefinedSolution:
    """Certify the strategies; verified iff found by the lexicographic basis (``value``
    given) and NashConv is exactly 0."""
    first, second = strategies
    certificate = certify(problem.game, first, second)
    return RefinedSolution(
        game=problem.game,
        form=problem.form,
        value=certificate.value if value is None else value,
        strategies=(first, second),
        behaviour=(first.to_float(), second.to_float()),
        refined=_refined_sets(first, second),
        certificate=certificate,
        verified=value is not None and certificate.exploitability == 0,
        epsilon=epsilon,
        degree=problem.degree,
        pivots=pivots,
        stats=stats,
        seconds=time.perf_counter() - start,
    )


def _fill_in(
    game: Game, form: SequenceForm, trembling: tuple[BehaviouralStrategy, BehaviouralStrategy]
) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
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


def _stats(minmax: MinmaxProgram, algorithm: str, iterations: int, seconds: float) -> SolverStats:
    program = minmax.program
    return SolverStats(
        backend="highs",
        algorithm=algorithm,
        status="optimal",
        seconds=seconds,
        solver_seconds=seconds,
        iterations=iterations,
        variables=program.num_cols,
        constraints=program.num_rows,
        nonzeros=program.matrix.nnz,
    )
