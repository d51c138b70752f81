"""The perturbed sequence-form LP of Miltersen and Sørensen (2010), with ``ε`` symbolic.

Every non-empty sequence ``σ`` of either player gets the lower bound ``ε^|σ|`` (``|σ|`` =
the player's own moves in it); :mod:`seqform.routes.refine` explains the method.  This
module builds the problem once with ``ε`` symbolic (:class:`PerturbedProblem`: the
:class:`~seqform.lp.exact.parametric.ParametricLP` and its numeric instances at
``ε = 2^-k``), runs HiGHS and the exact lexicographic pivoting on it, and reads the limit
strategies off a basis optimal for all small ``ε``: the behaviour at ``h`` is the limit of
``x_ε[h, a] / x_ε[parent(h)]``, the ratio of the lowest-order coefficients.

Units.  HiGHS's tolerances are absolute, and the exact pivoting refines its solves in
floats, so the problem is written on the payoffs divided by a power of two ``s`` into
``[1, 2)`` where they lie outside ``[1/16, 2^20)``
(:meth:`~seqform.forms.sequence_form.SequenceForm.normalised_for_floats`): Kuhn in
billionths of a chip gave HiGHS a basis from which no exact pivoting reached one optimal for
all small ``ε``, and in units of 1e-300 the exact solves overflowed, where Kuhn in chips was
verified.  The LP of ``A / s`` is, exactly, that of ``A`` with its rows
``Fᵀ q − Aᵀ x <= 0`` and its objective divided by ``s`` and ``q`` multiplied by it: the same
bases, the same plans in every ``ε``, the value divided by ``s`` (multiplied back by
:meth:`PerturbedProblem.limit`).  The limit strategies are certified on the game itself.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.forms.sequence_form import SequenceForm
from seqform.forms.strategies import BehaviouralStrategy, infoset_depths
from seqform.game.model import Game
from seqform.game.sequences import PlayerSequences
from seqform.lp.exact.basis import InvalidBasisError
from seqform.lp.exact.linear_solver import ExactSolveError
from seqform.lp.exact.minmax import MinmaxProgram, minmax_program
from seqform.lp.exact.parametric import (
    ParametricLP,
    ParametricSolution,
    lex_sign,
    lexicographic_optimum,
)
from seqform.lp.exact.program import Basis
from seqform.lp.problem import FloatSolution
from seqform.lp.run import run_lp
from seqform.lp.solvers import SolverError, SolverLimitError

__all__ = [
    "PerturbedProblem",
    "candidate_epsilons",
    "lexicographic_basis",
    "perturbed_problem",
    "sequence_lengths",
    "solve_numeric",
]

logger = logging.getLogger(__name__)

Polynomial = list[Fraction]  # coefficients of ε^0, ε^1, ...

FLOAT_BOUND_FLOOR = 1e-12  # smallest perturbation ε^D handed to the float solver


def sequence_lengths(table: PlayerSequences) -> np.ndarray:
    """``|σ|`` per sequence: the number of the player's own moves (0 for the empty one)."""
    lengths = np.zeros(table.num_sequences, dtype=np.int64)
    if table.num_infosets:
        lengths[1:] = infoset_depths(table)[table.sequence_infoset[1:]] + 1
    return lengths


def candidate_epsilons(degree: int, max_actions: int) -> list[Fraction]:
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
class PerturbedProblem:
    """The problem of the module docstring, ``ε`` symbolic, and its numeric instances.

    form : the game's sequence form
    scaled : ``form`` with its payoffs divided by a power of two (module docstring,
        Units; ``scaled.payoff_scale``), on which the problem is written
    """

    game: Game
    form: SequenceForm
    scaled: SequenceForm
    lengths: tuple[np.ndarray, np.ndarray]
    degree: int
    symbolic: MinmaxProgram
    parametric: ParametricLP

    def numeric(self, epsilon: Fraction) -> MinmaxProgram:
        """The perturbed LP at one numeric ``ε``: bounds ``ε^|σ|`` on both plans (payoffs
        divided by ``scaled.payoff_scale``, as the symbolic problem's)."""
        x_lower = [epsilon ** int(n) if n else Fraction(0) for n in self.lengths[0]]
        y_lower = [epsilon ** int(n) if n else Fraction(0) for n in self.lengths[1]]
        return minmax_program(self.scaled, x_lower=x_lower, y_lower=y_lower)

    def limit(
        self, found: ParametricSolution
    ) -> tuple[Fraction, BehaviouralStrategy, BehaviouralStrategy] | None:
        """The value (in the game's payoffs) and limit strategies of a basis optimal for
        all small ``ε``, or None when its plans are not strategies in the limit."""
        x_poly, y_poly = _limit_plans(self.symbolic, found, self.lengths[1])
        if any(lex_sign(p) < 0 for p in y_poly):
            return None
        first = _limit_strategy(self.form.players[0], x_poly)
        second = _limit_strategy(self.form.players[1], y_poly)
        if first is None or second is None:
            return None
        value = found.values[self.symbolic.q_columns.start][0] * self.scaled.payoff_scale
        return value, first, second


def perturbed_problem(game: Game, form: SequenceForm) -> PerturbedProblem:
    lengths = (sequence_lengths(form.players[0]), sequence_lengths(form.players[1]))
    degree = int(max(lengths[0].max(), lengths[1].max()))
    scaled = form.normalised_for_floats()
    symbolic, parametric = _perturbed_lp(scaled, lengths, degree)
    return PerturbedProblem(game, form, scaled, lengths, degree, symbolic, parametric)


def solve_numeric(
    minmax: MinmaxProgram, epsilon: Fraction, solver: str, time_limit: float | None
) -> FloatSolution | None:
    """HiGHS on the perturbed LP at ``ε`` with tight tolerances; None if it fails.

    Raises
    ------
    SolverLimitError
        At the time limit: a smaller ``ε`` would meet the same limit, so it is reported as
        the limit, not as a failure at this ``ε``.
    """
    try:
        return run_lp(
            minmax.float_problem(),
            solver=solver,
            time_limit=time_limit,
            tolerance=1e-10,
            basis=True,
        )
    except SolverLimitError as exc:
        raise SolverLimitError(f"the perturbed LP at ε = {epsilon}: {exc}", None) from exc
    except SolverError as exc:
        logger.info("perturbed LP at ε = %s failed: %s", epsilon, exc)
        return None


def lexicographic_basis(
    problem: PerturbedProblem, epsilon: Fraction, basis: Basis, max_pivots: int, deadline: float
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
