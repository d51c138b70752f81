"""The sparsified min-max LP of a one-card showdown game, for decks of 10^5 cards and more.

The merged LP of :mod:`seqform.lp.minmax` (KMvS 1996, eq. 11),

    maximise f @ q   s.t.   F.T @ q - A.T @ x <= 0,   E @ x == e,   x >= 0,

has a row ``(j, t)`` per sequence of player 1 that reads all ``N`` cards ``i`` of player
0 through ``A``: ``N^2 |Z|`` non-zeros in all.  Zhang and Sandholm ("Sparsified linear
programming for zero-sum equilibrium finding", ICML 2020) write ``A`` as a product of
sparse factors and add the intermediate products as variables.  For a showdown game
(:mod:`seqform.structured.showdown`) the factors are sums over cards: with ``v = x[:, s]`` the
column of one betting sequence of player 0,

    sum_{i != j} v_i              = T - v_j                      (a fold)
    sum_{i != j} sign(i - j) v_i  = T - 2 P_j - v_j              (a showdown)

where ``P_j = sum_{i<j} v_i`` and ``T = sum_i v_i``.  A plain running sum ``P_{j+1} = P_j
+ v_j`` is a chain of ``N`` equalities that interior-point solvers handle badly (its
condition grows with ``N``; measured: wrong values at ``N = 5 10^4``).  Here the cards are
cut into ``B ~ sqrt(N)`` blocks: ``p_j`` is the running sum inside ``j``'s block, ``Q_b``
the running sum of whole blocks, ``P_j = Q_{b(j)} + p_j`` and ``T = Q_{last}``: chains of
length ``sqrt(N)``, ``O(N)`` non-zeros in all.

Scaling: the LP is written with payoffs weighted ``1 / (N-1)`` (the conditional
probability of the opponent's card) instead of ``1 / (N (N-1))``, so its optimum is ``N``
times the game's value; the plans are unchanged.  The rows ``F.T q - A.T x <= 0`` keep
their meaning, so their multipliers are player 1's plan ``y`` (``F y = f``).

Solvers: Clarabel (an interior-point method with a direct sparse LDL factorisation,
default; Goulart and Chen 2024) or HiGHS.  On this LP HiGHS's interior point (IPX,
iterative linear algebra) took 255 s at ``N = 5 10^4`` where Clarabel took 9 s, and dual
simplex grows quadratically (0.3 s at ``N = 10^3``, 20 s at ``N = 10^4``).  HiGHS still
gives a vertex, exact to the last digit, on small decks.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Literal

import numpy as np
import scipy.sparse as sp

from seqform.game.builtin.showdown_poker import ShowdownPoker
from seqform.lp.minmax import SolverError, SolverLimitError, SolverStats, highs_solver

__all__ = [
    "SPARSIFIED_SOLVERS",
    "SparsifiedLP",
    "SparsifiedSolution",
    "build_sparsified_lp",
    "solve_sparsified_lp",
]

SparsifiedSolver = Literal["clarabel", "simplex", "ipm"]
SPARSIFIED_SOLVERS: tuple[str, ...] = ("clarabel", "simplex", "ipm")


@dataclass(frozen=True)
class SparsifiedLP:
    """The LP ``maximise v[objective]`` s.t. ``row_lower <= M v <= row_upper``,
    ``col_lower <= v``.

    matrix : csc_array, shape (rows, columns); columns are ``x`` (player 0's sequences,
        ``>= 0``), then ``q`` (one per row of ``F``: the root, then player 1's information
        sets card by card), then the sums ``p`` and ``Q`` (free)
    payoff_rows : the slice of the rows ``F.T q - A.T x <= 0``, one per sequence of
        player 1 (their multipliers are ``y``)
    scale : the LP's optimum is ``scale`` times the game's value (``scale = N``)
    """

    matrix: sp.csc_array
    row_lower: np.ndarray
    row_upper: np.ndarray
    col_lower: np.ndarray
    objective: int
    x_columns: slice
    payoff_rows: slice
    scale: float

    @property
    def shape(self) -> tuple[int, int]:
        rows, columns = self.matrix.shape
        return int(rows), int(columns)


class _Triplets:
    """Rows, columns and values of a sparse matrix, collected as arrays."""

    def __init__(self) -> None:
        self.rows: list[np.ndarray] = []
        self.cols: list[np.ndarray] = []
        self.vals: list[np.ndarray] = []

    def add(self, rows: object, cols: object, values: object) -> None:
        r, c, v = np.broadcast_arrays(
            np.asarray(rows, dtype=np.int64),
            np.asarray(cols, dtype=np.int64),
            np.asarray(values, dtype=float),
        )
        self.rows.append(r.ravel())
        self.cols.append(c.ravel())
        self.vals.append(v.ravel())

    def matrix(self, shape: tuple[int, int]) -> sp.csc_array:
        return sp.csc_array(
            (np.concatenate(self.vals), (np.concatenate(self.rows), np.concatenate(self.cols))),
            shape=shape,
        )


def build_sparsified_lp(poker: ShowdownPoker) -> SparsifiedLP:
    """The sparsified LP of the module docstring, with ``O(N (S_0 + S_1 + |Z|))`` non-zeros."""
    table = poker.betting_table
    n = poker.cards
    cards = np.arange(n)
    width0 = table.num_sequences(0) - 1
    width1 = table.num_sequences(1) - 1
    nodes0, nodes1 = table.num_nodes(0), table.num_nodes(1)
    weight = 1.0 / (n - 1)

    def x_col(sequence: int) -> np.ndarray:
        """Column of ``x[(c, sequence)]`` for every card ``c`` (the empty one: column 0)."""
        if sequence == 0:
            return np.zeros(n, dtype=np.int64)
        return 1 + cards * width0 + (sequence - 1)

    n_x = poker.num_sequences(0)
    q_root = n_x
    n_q = 1 + n * nodes1

    def q_col(node: int) -> np.ndarray:
        return q_root + 1 + cards * nodes1 + node

    # The block sums, one set per betting sequence of player 0 that some leaf reads.
    block = max(1, math.isqrt(n))
    blocks = -(-n // block)
    card_block = cards // block
    read = sorted({int(s) for s in table.leaf_sequences[:, 0] if s != 0})
    sums_start = q_root + n_q
    inner_col: dict[int, np.ndarray] = {}
    outer_col: dict[int, np.ndarray] = {}
    column = sums_start
    for sequence in read:
        inner_col[sequence] = column + cards
        outer_col[sequence] = column + n + np.arange(blocks + 1)
        column += n + blocks + 1
    n_columns = column

    t = _Triplets()
    lower: list[np.ndarray] = []
    upper: list[np.ndarray] = []
    row = 0

    def rows(count: int, low: float, high: float) -> np.ndarray:
        nonlocal row
        lower.append(np.full(count, low))
        upper.append(np.full(count, high))
        row += count
        return np.arange(row - count, row)

    # E x = e: the root, then one row per (card, betting node) of player 0.
    t.add(rows(1, 1.0, 1.0), 0, 1.0)
    for node in range(nodes0):
        r = rows(n, 0.0, 0.0)
        for sequence in table.node_sequences[0][node]:
            t.add(r, x_col(int(sequence)), 1.0)
        t.add(r, x_col(int(table.node_parent[0][node])), -1.0)

    # The block sums: p_j = sum of v over j's block below j, Q_{b+1} = Q_b + block b's sum.
    first_in_block = cards % block == 0
    for sequence in read:
        v, inner, outer = x_col(sequence), inner_col[sequence], outer_col[sequence]
        t.add(rows(int(first_in_block.sum()), 0.0, 0.0), inner[first_in_block], 1.0)
        rest = cards[~first_in_block]
        r = rows(rest.size, 0.0, 0.0)
        t.add(r, inner[rest], 1.0)
        t.add(r, inner[rest - 1], -1.0)
        t.add(r, v[rest - 1], -1.0)
        t.add(rows(1, 0.0, 0.0), outer[0], 1.0)
        last = np.minimum((np.arange(blocks) + 1) * block, n) - 1
        r = rows(blocks, 0.0, 0.0)
        t.add(r, outer[1:], 1.0)
        t.add(r, outer[:-1], -1.0)
        t.add(r, inner[last], -1.0)
        t.add(r, v[last], -1.0)

    # F.T q - (1/(N-1)) A'.T x <= 0: the empty sequence of player 1, then (card, sequence).
    start = row
    empty_row = rows(1, -np.inf, 0.0)
    sequence_rows = rows(n * width1, -np.inf, 0.0)
    payoff_rows = slice(start, row)

    def p1_row(sequence: int) -> np.ndarray:
        if sequence == 0:
            return np.broadcast_to(empty_row, (n,))
        return sequence_rows[cards * width1 + (sequence - 1)]

    t.add(empty_row, q_root, 1.0)
    for node in range(nodes1):
        t.add(p1_row(int(table.node_parent[1][node])), q_col(node), -1.0)
        for sequence in table.node_sequences[1][node]:
            t.add(p1_row(int(sequence)), q_col(node), 1.0)

    for (s0, s1), showdown, payoff in zip(
        table.leaf_sequences, table.leaf_showdown, table.leaf_payoff, strict=True
    ):
        c = -weight * float(payoff)  # the row holds -A.T x
        target = p1_row(int(s1))
        if s0 == 0:  # player 0 never acted: v_i = x[empty] for every card
            per_card = (n - 1 - 2 * cards) if showdown else np.full(n, n - 1)
            t.add(target, 0, c * per_card)
            continue
        v, total = x_col(int(s0)), outer_col[int(s0)][blocks]
        if s1 == 0:  # summed over player 1's cards j
            per_card = (2 * cards - n + 1) if showdown else np.full(n, n - 1)
            t.add(empty_row, v, c * per_card)
            continue
        t.add(target, total, c)
        t.add(target, v, -c)
        if showdown:
            t.add(target, inner_col[int(s0)], -2 * c)
            t.add(target, outer_col[int(s0)][card_block], -2 * c)

    col_lower = np.full(n_columns, -np.inf)
    col_lower[:n_x] = 0.0
    matrix = t.matrix((row, n_columns))
    matrix.sum_duplicates()
    return SparsifiedLP(
        matrix=matrix,
        row_lower=np.concatenate(lower),
        row_upper=np.concatenate(upper),
        col_lower=col_lower,
        objective=q_root,
        x_columns=slice(0, n_x),
        payoff_rows=payoff_rows,
        scale=float(n),
    )


@dataclass(frozen=True)
class SparsifiedSolution:
    """The solved sparsified LP: the game's value and both plans (game sequence order)."""

    value: float
    x: np.ndarray
    y: np.ndarray
    stats: SolverStats


def solve_sparsified_lp(
    lp: SparsifiedLP,
    *,
    solver: SparsifiedSolver = "clarabel",
    time_limit: float | None = None,
    verbose: bool = False,
    tolerance: float = 1e-12,
) -> SparsifiedSolution:
    """Solve the sparsified LP with Clarabel (default) or HiGHS (``"simplex"``, ``"ipm"``).

    ``tolerance`` sets Clarabel's gap and feasibility tolerances (its default, 1e-8, left
    NashConv near 3e-8 at ``N = 10^4``; 1e-12 costs one or two iterations more and gives
    about 1e-11).  Only a solution the solver calls optimal is returned.

    Raises
    ------
    SolverLimitError
        At the time limit (``plans`` holds the solver's last point when it has one).
    SolverError
        For any other status than optimal.
    """
    if solver not in SPARSIFIED_SOLVERS:
        raise ValueError(
            f"unknown solver {solver!r} for the sparsified LP; use {SPARSIFIED_SOLVERS}"
        )
    if solver == "clarabel":
        return _solve_clarabel(lp, time_limit, verbose, tolerance)
    return _solve_highs(lp, solver, time_limit, verbose)


def _stats(lp: SparsifiedLP, backend: str, algorithm: str, seconds: float, iterations: int):
    rows, columns = lp.shape
    return SolverStats(
        backend=backend,
        algorithm=algorithm,
        status="optimal",
        seconds=seconds,
        solver_seconds=seconds,
        iterations=iterations,
        variables=columns,
        constraints=rows,
        nonzeros=int(lp.matrix.nnz),
    )


def _solve_clarabel(
    lp: SparsifiedLP, time_limit: float | None, verbose: bool, tolerance: float
) -> SparsifiedSolution:
    """Clarabel's form: ``min c v`` s.t. ``M v + s = b``, ``s`` in zero or non-negative cones."""
    import clarabel

    equal = lp.row_lower == lp.row_upper
    if not np.all(np.isneginf(lp.row_lower[~equal])):
        raise ValueError("the sparsified LP has only equality and '<=' rows")
    n_x = lp.x_columns.stop
    rows, columns = lp.shape
    matrix = lp.matrix.tocsr()
    equality_rows = np.flatnonzero(equal)
    inequality_rows = np.flatnonzero(~equal)
    bounds = sp.csr_array((-np.ones(n_x), (np.arange(n_x), np.arange(n_x))), shape=(n_x, columns))
    stacked = sp.vstack([matrix[equality_rows], matrix[inequality_rows], bounds], format="csc")
    b = np.concatenate([lp.row_upper[equality_rows], lp.row_upper[inequality_rows], np.zeros(n_x)])
    cost = np.zeros(columns)
    cost[lp.objective] = -1.0
    settings = clarabel.DefaultSettings()
    settings.verbose = verbose
    settings.tol_gap_abs = tolerance
    settings.tol_gap_rel = tolerance
    settings.tol_feas = tolerance
    settings.tol_ktratio = max(tolerance, 1e-10)
    if time_limit is not None:
        settings.time_limit = float(time_limit)
    start = time.perf_counter()
    solver = clarabel.DefaultSolver(
        sp.csc_matrix((columns, columns)),
        cost,
        sp.csc_matrix(stacked),
        b,
        [
            clarabel.ZeroConeT(equality_rows.size),
            clarabel.NonnegativeConeT(inequality_rows.size + n_x),
        ],
        settings,
    )
    result = solver.solve()
    seconds = time.perf_counter() - start
    status = str(result.status)
    primal = np.asarray(result.x, dtype=float)
    duals = np.asarray(result.z, dtype=float)
    # The payoff rows' multipliers, in the LP's row order (they are all '<=' rows).
    position = np.empty(rows, dtype=np.int64)
    position[inequality_rows] = equality_rows.size + np.arange(inequality_rows.size)
    y = np.maximum(duals[position[lp.payoff_rows]], 0.0)
    x = np.maximum(primal[lp.x_columns], 0.0)
    if status.endswith("MaxTime") or status.endswith("MaxIterations"):
        raise SolverLimitError(
            f"Clarabel stopped ({status}) after {seconds:.1f} s and {result.iterations} "
            "iterations; no proven solution",
            (x, y),
        )
    if not status.endswith("Solved") or status.endswith("AlmostSolved"):
        raise SolverError(
            f"Clarabel did not prove optimality: status {status} after {result.iterations} "
            "iterations"
        )
    return SparsifiedSolution(
        value=-float(result.obj_val) / lp.scale,
        x=x,
        y=y,
        stats=_stats(lp, "clarabel", "interior point", seconds, int(result.iterations)),
    )


def _solve_highs(
    lp: SparsifiedLP, algorithm: str, time_limit: float | None, verbose: bool
) -> SparsifiedSolution:
    import highspy

    rows, columns = lp.shape
    model = highspy.HighsLp()
    model.num_col_, model.num_row_ = columns, rows
    cost = np.zeros(columns)
    cost[lp.objective] = 1.0
    model.col_cost_ = cost
    model.col_lower_ = lp.col_lower
    model.col_upper_ = np.full(columns, np.inf)
    model.row_lower_ = lp.row_lower
    model.row_upper_ = lp.row_upper
    model.sense_ = highspy.ObjSense.kMaximize
    model.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    model.a_matrix_.start_ = lp.matrix.indptr
    model.a_matrix_.index_ = lp.matrix.indices
    model.a_matrix_.value_ = lp.matrix.data
    highs = highs_solver(algorithm, time_limit, verbose)
    highs.passModel(model)
    start = time.perf_counter()
    highs.run()
    seconds = time.perf_counter() - start
    status = highs.getModelStatus()
    info = highs.getInfo()
    solution = highs.getSolution()
    iterations = int(max(info.simplex_iteration_count, 0) + max(info.ipm_iteration_count, 0))
    text = highs.modelStatusToString(status)
    x = np.maximum(np.asarray(solution.col_value)[lp.x_columns], 0.0)
    y = np.maximum(np.asarray(solution.row_dual)[lp.payoff_rows], 0.0)
    if status in (highspy.HighsModelStatus.kTimeLimit, highspy.HighsModelStatus.kIterationLimit):
        plans = (x, y) if solution.value_valid and solution.dual_valid else None
        raise SolverLimitError(
            f"HiGHS ({algorithm}) stopped ({text.lower()}) after {seconds:.1f} s and "
            f"{iterations} iterations; no proven solution",
            plans,
        )
    if status != highspy.HighsModelStatus.kOptimal:
        raise SolverError(f"HiGHS ({algorithm}) did not prove optimality: model status {text!r}")
    return SparsifiedSolution(
        value=float(info.objective_function_value) / lp.scale,
        x=x,
        y=y,
        stats=_stats(lp, "highs", algorithm, seconds, iterations),
    )
