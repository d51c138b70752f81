"""The gadget LPs solved exactly: HiGHS's optimal basis re-solved in rationals.

A re-solved subgame is an LP, so its answer can be proven, not estimated.  The gadget LP of
:func:`seqform.resolving.public_gadgets.gadget_lp` is written a second time with ``Fraction``
coefficients (:func:`exact_gadget_program`): the subgame's structured LP from the one builder
(:func:`seqform.structured.lp_model.build_exact_structured_lp`), with the gadget's rows and
columns added exactly as the float LP adds them, from exact weights ``W_J`` and exact
alternatives ``T_J (+ g_J)``.  HiGHS solves the float path's own LP (its entries are the
exact program's rounded, row for row), so the two paths stand on the same vertex and its
optimal basis is a basis of the exact program;
:func:`seqform.lp.exact.basis.resolve_basis` re-solves it in rationals and checks exact
primal and dual feasibility, which proves the basis optimal (the route of ``solve --exact``
on a structured game, :mod:`seqform.routes.structured_exact`).

A degenerate gadget LP's basis, optimal to HiGHS's tolerances, can miss exact optimality
(plan entries of −1e-17, or reduced costs of the wrong sign by as little): it then takes
exact simplex pivots to an exactly optimal basis (:func:`seqform.lp.exact.pivots.repair_basis`,
the method of QSopt_ex and SoPlex).  Should that fail while the basis is exactly dual
feasible, dual feasibility alone proves its objective an upper bound on the gadget's
optimum; the plan's negative entries are set to 0, and the strategy's own exact value in
the gadget (its smallest margin per unit of weight, or ``−Σ_J max(cbv(J), T_J)``) is
measured: the difference is the answer's proven *gap* to the optimum, 0 when the basis
was exactly optimal.

The re-solving player's plan is read from the exact columns, its strategy is exact, and the
answer's margins ``T_J − cbv(J)`` are computed exactly from it by the structured best
response (:func:`seqform.resolving.public_gadgets.counterfactual_values`), independently of
the LP.  ``unsafe`` needs no gadget: the subgame with both ranges is a structured game,
solved by :func:`seqform.routes.structured_exact.solve_structured_exact` itself.

On canonical boards (:mod:`seqform.resolving.subgame_classes`) the gadget LP is on hand
classes: its exact program is the subgame's exact LP merged on classes by
:func:`~seqform.structured.reductions.suit_reduction.reduce_exact_lp` (the float merge's rows
and columns in the same order), the basis's class plan is lifted to the subgame's hands,
and ``unsafe`` re-solves the subgame's LP on classes the same way, its answer certified on
classes in Fractions.  The blueprint is made exactly the same on each class first
(:func:`exact_class_blueprint`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_plan
from seqform.game.public.numbering import structured_tables
from seqform.game.public.tree import StructuredGame
from seqform.lp.exact.basis import ExactBasicSolution, InvalidBasisError, resolve_basis
from seqform.lp.exact.linear_solver import ExactSolveError
from seqform.lp.exact.pivots import RepairError, repair_basis
from seqform.lp.exact.program import Bound, LinearProgram
from seqform.lp.exact.rational import RationalMatrix
from seqform.lp.run import run_lp
from seqform.resolving.public_gadgets import GadgetLP, gadget_solver
from seqform.resolving.subgame_classes import SubgameClasses
from seqform.resolving.subgames import ResolveError
from seqform.routes.structured_exact import solve_structured_exact
from seqform.structured.lp_model import (
    StructuredLP,
    build_exact_structured_lp,
    build_structured_lp,
)
from seqform.structured.lp_solve import structured_problem
from seqform.structured.reductions.suit_classes import (
    CanonicalBoards,
    certify_on_classes,
    first_members,
)
from seqform.structured.reductions.suit_reduction import reduce_exact_lp, reduce_lp

__all__ = [
    "DUST",
    "ExactGadgetAnswer",
    "exact_blueprint",
    "exact_class_blueprint",
    "exact_gadget_program",
    "exact_gadget_value",
    "solve_exact_gadget",
    "solve_exact_unsafe",
]


DUST = 2.0**-30
"""A float blueprint's probabilities below this (about 9.3e-10) are taken as 0 by
:func:`exact_blueprint`: they are a float solver's rounding, not play.  The 52-card Rhode
Island blueprint (HiGHS's answer of the 2,2,2-bucket abstraction) has 230,000 probabilities
of player 1 and 760,000 of player 2 between 1e-18 and 1e-10, fewer than 160 each between
1e-10 and 1e-8, and the rest above.  Taken exactly, such a probability puts entries
of 1e-17 beside entries of 1 in a gadget LP's rows, which no float solver resolves: HiGHS's
basis of player 1's gadget LP on ``c c 3s r c`` then broke 403 bounds and reduced-cost
signs (by up to 5e-14), and reached an exactly optimal basis only after 756 exact
pivots (873 s).  With them at 0 its basis was exactly optimal after one refinement
(13 s, the whole subgame)."""


def exact_blueprint(strategy: BehaviouralStrategy) -> BehaviouralStrategy:
    """A float strategy as Fractions: each probability the float's exact value, or 0 below
    :data:`DUST`, except each information set's largest, which takes what makes the set
    sum to exactly 1.  The numbers stay dyadic (denominators powers of two), so sums over
    many hands do not grow their denominators; an exact strategy is returned as it is.

    The exact re-solve, its blueprint's exploitability and its theorem (a safe gadget never
    does worse than the blueprint) are all of this strategy; it differs from the float one
    by less than ``DUST`` in each probability but the largest, which takes their sum."""
    if strategy.exact:
        return strategy
    table = strategy.table
    floats = np.where(strategy.probabilities < DUST, 0.0, strategy.probabilities)
    probabilities = np.asarray([Fraction(float(p)) for p in floats], dtype=object)
    probabilities[0] = Fraction(1)
    for index in range(table.num_infosets):
        sequences = list(table.sequences_of(index))
        largest = max(sequences, key=lambda s: floats[s])
        rest = sum((probabilities[s] for s in sequences if s != largest), Fraction(0))
        probabilities[largest] = 1 - rest
    return BehaviouralStrategy(table, probabilities, strategy.unreached)


def exact_gadget_program(
    built: GadgetLP, weights: np.ndarray, alternatives: np.ndarray
) -> tuple[LinearProgram, slice, Fraction]:
    """The gadget LP ``built`` with exact coefficients, row for row and column for column
    (module docstring; on hand classes for a ``built`` on classes), where player 0's plan
    is in its columns, and its ``scale``; ``weights``, ``alternatives``: ``built``'s, exact."""
    base = build_exact_structured_lp(built.sub)
    if built.classes is not None:
        base = reduce_exact_lp(base, built.classes.hand_classes)
    program = base.program
    rows, columns = program.matrix.shape
    scale, empty, objective = base.scale, base.payoff_rows.start, base.objective
    n_x = base.x_columns.stop
    first = built.lp.matrix.shape  # the float LP's shape, which the exact one must have
    matrix = program.matrix
    own_rows = built.rows
    q_columns, q_rows = built.first_columns, own_rows[built.first_owners]
    in_q = np.zeros(columns, dtype=bool)
    in_q[q_columns] = True
    keep = ~((matrix.rows == empty) & in_q[matrix.cols])
    if built.gadget != "resolve":
        keep &= ~((matrix.rows == empty) & (matrix.cols == objective))
    count = len(built.hands)
    r = [matrix.rows[keep], q_rows]
    c = [matrix.cols[keep], q_columns]
    v: list[Fraction] = [value for value, kept in zip(matrix.values, keep, strict=True) if kept]
    v += [Fraction(-1)] * len(q_rows)
    row_lower: list[Bound] = [*program.row_lower, *[None] * count]
    row_upper: list[Bound] = list(program.row_upper)
    col_lower: list[Bound] = list(program.col_lower)
    if built.gadget == "resolve":
        z = columns + np.arange(count)
        take = built.take_rows
        r += [np.full(count, empty), own_rows, take]
        c += [z, z, z]
        v += [Fraction(-1)] * count + [Fraction(1)] * (2 * count)
        row_lower += [None] * count
        row_upper += [Fraction(0)] * count + [-scale * a for a in alternatives]
        col_lower += [None] * count
        shape = (rows + 2 * count, columns + count)
    else:
        r.append(own_rows)
        c.append(np.full(count, objective))
        v += [scale * w for w in weights]
        row_upper += [scale * a for a in alternatives]
        shape = (rows + count, columns)
    if shape != first:
        raise ResolveError(f"the exact gadget LP has shape {shape}, the float one {first}")
    total = shape[1]
    goal = [Fraction(0)] * total
    goal[objective] = Fraction(1)
    exact = LinearProgram(
        matrix=RationalMatrix.from_triples(shape, np.concatenate(r), np.concatenate(c), v),
        objective=tuple(goal),
        col_lower=tuple(col_lower),
        col_upper=(None,) * total,
        row_lower=tuple(row_lower),
        row_upper=tuple(row_upper),
    )
    return exact, slice(0, n_x), scale


@dataclass(frozen=True)
class ExactGadgetAnswer:
    """A gadget LP's optimal basis re-solved exactly.

    strategy : the re-solving player's exact strategy in the subgame (player 0 of ``sub``),
        from the basis's plan (its entries below 0, if any, set to 0)
    objective : the basis's exact objective (``scale`` times the gadget's value for
        ``resolve``, the margin per unit of weight ``m`` for ``maxmargin`` and ``reach``):
        the basis is exactly dual feasible, so no answer does better (weak duality)
    optimal : the exact re-solve passed the exact primal and dual feasibility checks (the
        objective is then the LP's optimum and ``strategy`` attains it)
    scale : the LP's payoff scale, exactly (:class:`~seqform.structured.lp_model.ExactStructuredLP`)
    pivots : exact simplex pivots taken from HiGHS's basis to an exactly optimal one
        (:func:`seqform.lp.exact.pivots.repair_basis`; 0 when it was optimal already)
    """

    strategy: BehaviouralStrategy
    objective: Fraction
    optimal: bool
    scale: Fraction
    pivots: int = 0


def solve_exact_gadget(
    built: GadgetLP, weights: np.ndarray, alternatives: np.ndarray
) -> ExactGadgetAnswer:
    """Solve the gadget LP by HiGHS (the float path's solver,
    :func:`~seqform.resolving.public_gadgets.gadget_solver`) on its exact program rounded,
    and re-solve the optimal basis in rationals (module docstring).

    Raises
    ------
    seqform.lp.exact.linear_solver.ExactSolveError
        If the basis cannot be re-solved, or gives a plan with a negative entry.
    seqform.lp.solvers.SolverError
        If HiGHS does not prove the float LP optimal.
    """
    program, x_columns, scale = exact_gadget_program(built, weights, alternatives)
    exact, pivots = _exact_vertex(program, built.lp)
    plan = _clamped(exact.values[x_columns], built.classes, 0)
    strategy = _normalised(behaviour_from_plan(structured_tables(built.sub)[0], plan))
    objective = exact.values[built.lp.objective]
    return ExactGadgetAnswer(strategy, objective, exact.optimal, scale, pivots)


def exact_gadget_value(
    solved: ExactGadgetAnswer,
    gadget: str,
    cbv: np.ndarray,
    weights: np.ndarray,
    alternatives: np.ndarray,
) -> tuple[Fraction, Fraction]:
    """The exact strategy's own value in the gadget (``−Σ_J max(cbv(J), T_J) / W`` for
    ``resolve``, ``min_J (T_J − cbv(J)) / W_J`` for the others, from its counterfactual
    values ``cbv``) and the basis's proven bound on the optimum, in the tree gadget's units
    (:mod:`seqform.resolving.public_gadgets`); their difference is the answer's gap."""
    if gadget == "resolve":
        total = sum(weights, Fraction(0))
        bound = solved.objective / solved.scale / total
        return -sum(map(max, cbv, alternatives), Fraction(0)) / total, bound
    achieved = min((a - c) / w for a, c, w in zip(alternatives, cbv, weights, strict=True))
    return achieved, solved.objective


def _exact_vertex(program: LinearProgram, lp: StructuredLP) -> tuple[ExactBasicSolution, int]:
    """HiGHS's optimal basis of ``lp`` (``program`` rounded; the float path's own solver)
    re-solved in rationals, after exact pivots where it is not exactly optimal, and the
    pivots taken (module docstring).

    Raises
    ------
    seqform.lp.exact.linear_solver.ExactSolveError
        If the basis cannot be re-solved, or is not exactly dual feasible after the pivots.
    """
    # the float path's own LP and solver, so that both paths stand on the same vertex
    solution = run_lp(structured_problem(lp), solver=gadget_solver(lp), basis=True)
    if solution.basis is None:
        raise ExactSolveError("HiGHS returned no basis to re-solve exactly")
    try:
        repaired = repair_basis(program, solution.basis)
        return repaired.solution, repaired.pivots
    except InvalidBasisError as exc:
        raise ExactSolveError(f"the optimal basis could not be re-solved exactly: {exc}") from None
    except RepairError as exc:
        exact = resolve_basis(program, solution.basis)
        if not exact.dual_feasible:
            raise ExactSolveError(
                f"the optimal basis is not exactly dual feasible and exact pivots did not "
                f"repair it ({exc}): no exact bound"
            ) from None
        return exact, 0


def _clamped(values: Sequence[Fraction], classes: SubgameClasses | None, player: int) -> np.ndarray:
    """A basis's plan of ``player`` with its negative entries set to 0; on hand classes, each
    member of a class takes the class's value."""
    plan = np.asarray([max(value, Fraction(0)) for value in values], dtype=object)
    return plan if classes is None else classes.lift(player, plan)


def _normalised(strategy: BehaviouralStrategy) -> BehaviouralStrategy:
    """Each information set's probabilities divided by their sum (uniform where it is 0):
    a plan whose tiny negative entries were set to 0 gives a strategy again."""
    table = strategy.table
    probabilities = strategy.probabilities.copy()
    for index in range(table.num_infosets):
        sequences = table.sequences_of(index)
        total = sum((probabilities[s] for s in sequences), Fraction(0))
        for s in sequences:
            probabilities[s] = probabilities[s] / total if total else Fraction(1, len(sequences))
    return BehaviouralStrategy(table, probabilities, strategy.unreached)


def solve_exact_unsafe(
    sub: StructuredGame, classes: SubgameClasses | None = None
) -> tuple[tuple[BehaviouralStrategy, BehaviouralStrategy], Fraction, Fraction, int]:
    """The subgame with both ranges solved exactly: both exact strategies, their exact
    value to player 0 and exact NashConv in the subgame (unnormalised; 0 when certified an
    equilibrium, else the proven gap of the basis's or the rounded strategies) and the
    subgame's tree nodes.  With ``classes`` (a subgame of the game on canonical boards), on
    hand classes: the reduced LP's basis re-solved exactly (:func:`_exact_vertex`), its
    plans lifted to ``sub`` and certified on classes, and the LP's columns for the nodes.

    Raises
    ------
    seqform.lp.exact.linear_solver.ExactSolveError
        If no exact strategy can be formed.
    """
    if classes is None:
        solved = solve_structured_exact(sub, solver=gadget_solver(build_structured_lp(sub)))
        value = Fraction(solved.certificate.value)
        gap = Fraction(solved.certificate.nash_conv)
        return solved.strategies, value, gap, solved.tree_nodes
    lp = reduce_exact_lp(build_exact_structured_lp(sub), classes.hand_classes)
    float_lp = reduce_lp(build_structured_lp(sub), classes.hand_classes)
    exact, _ = _exact_vertex(lp.program, float_lp)
    tables = structured_tables(sub)
    plans = lp.exact_plans(exact.values, exact.row_duals)
    strategies = tuple(
        _normalised(behaviour_from_plan(tables[p], _clamped(plans[p], classes, p))) for p in (0, 1)
    )
    certificate = certify_on_classes(classes.boards, strategies[0], strategies[1])
    value, gap = Fraction(certificate.value), Fraction(certificate.nash_conv)
    return (strategies[0], strategies[1]), value, gap, float_lp.shape[1]


def exact_class_blueprint(
    boards: CanonicalBoards | None, player: int, strategy: BehaviouralStrategy
) -> BehaviouralStrategy:
    """:func:`exact_blueprint` of ``player``'s ``strategy``; on canonical ``boards``, of a
    strategy of ``boards.canonical`` that is the same on each hand class up to rounding,
    made exactly the same: each information set plays as the first member of its class.
    The re-solve on canonical boards is the game's only for such a blueprint
    (:mod:`seqform.resolving.subgame_classes`)."""
    exact = exact_blueprint(strategy)
    if boards is None:
        return exact
    table, classes = exact.table, boards.classes[player]
    lead = first_members(classes.infosets, classes.num_infosets)[classes.infosets]
    infosets = table.sequence_infoset[1:]
    offsets = np.arange(1, table.num_sequences) - table.first_sequence[infosets]
    source = table.first_sequence[lead[infosets]] + offsets
    probabilities = exact.probabilities.copy()
    probabilities[1:] = exact.probabilities[source]
    return BehaviouralStrategy(table, probabilities, exact.unreached[lead])
