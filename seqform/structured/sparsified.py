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

The LP is solved by :mod:`seqform.structured.sparsified_solve`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from seqform.game.builtin.showdown_poker import BettingTable, ShowdownPoker
from seqform.structured.factored_lp import SparsifiedLP

__all__ = ["SparsifiedLP", "build_sparsified_lp"]


class _Rows:
    """The LP's rows as they are written: triplets of the matrix and the row bounds."""

    def __init__(self) -> None:
        self.rows: list[np.ndarray] = []
        self.cols: list[np.ndarray] = []
        self.vals: list[np.ndarray] = []
        self.lower: list[np.ndarray] = []
        self.upper: list[np.ndarray] = []
        self.count = 0

    def new(self, count: int, low: float, high: float) -> np.ndarray:
        """``count`` new rows with bounds ``low <= . <= high``; their indices."""
        self.lower.append(np.full(count, low))
        self.upper.append(np.full(count, high))
        self.count += count
        return np.arange(self.count - count, self.count)

    def add(self, rows: object, cols: object, values: object) -> None:
        """Entries ``M[rows, cols] += values``, broadcast together."""
        r, c, v = np.broadcast_arrays(
            np.asarray(rows, dtype=np.int64),
            np.asarray(cols, dtype=np.int64),
            np.asarray(values, dtype=float),
        )
        self.rows.append(r.ravel())
        self.cols.append(c.ravel())
        self.vals.append(v.ravel())

    def matrix(self, columns: int) -> sp.csc_array:
        matrix = sp.csc_array(
            (np.concatenate(self.vals), (np.concatenate(self.rows), np.concatenate(self.cols))),
            shape=(self.count, columns),
        )
        matrix.sum_duplicates()
        return matrix


@dataclass(frozen=True)
class _Columns:
    """Where the variables sit.

    Player 0's sequence ``s`` for card ``c`` is column ``1 + c * width0 + (s − 1)`` (the
    empty sequence: column 0); ``q`` has the root at ``q_root``, then (card, node of
    player 1); ``inner[s]`` and ``outer[s]`` are the block sums ``p`` and ``Q`` of each
    betting sequence ``s`` of player 0 that some leaf reads.
    """

    cards: int
    width0: int
    nodes1: int
    block: int
    blocks: int
    q_root: int
    inner: dict[int, np.ndarray]
    outer: dict[int, np.ndarray]
    total: int

    def x(self, sequence: int) -> np.ndarray:
        """Column of ``x[(c, sequence)]`` for every card ``c``."""
        if sequence == 0:
            return np.zeros(self.cards, dtype=np.int64)
        return 1 + np.arange(self.cards) * self.width0 + (sequence - 1)

    def q(self, node: int) -> np.ndarray:
        return self.q_root + 1 + np.arange(self.cards) * self.nodes1 + node


def _columns(poker: ShowdownPoker) -> _Columns:
    table = poker.betting_table
    n = poker.cards
    q_root = poker.num_sequences(0)
    block = max(1, math.isqrt(n))
    blocks = -(-n // block)
    read = sorted({int(s) for s in table.leaf_sequences[:, 0] if s != 0})
    column = q_root + 1 + n * table.num_nodes(1)
    inner: dict[int, np.ndarray] = {}
    outer: dict[int, np.ndarray] = {}
    for sequence in read:
        inner[sequence] = column + np.arange(n)
        outer[sequence] = column + n + np.arange(blocks + 1)
        column += n + blocks + 1
    return _Columns(
        cards=n,
        width0=table.num_sequences(0) - 1,
        nodes1=table.num_nodes(1),
        block=block,
        blocks=blocks,
        q_root=q_root,
        inner=inner,
        outer=outer,
        total=column,
    )


def _plan_rows(rows: _Rows, columns: _Columns, table: BettingTable) -> None:
    """``E x = e``: the root, then one row per (card, betting node) of player 0."""
    rows.add(rows.new(1, 1.0, 1.0), 0, 1.0)
    for node in range(table.num_nodes(0)):
        r = rows.new(columns.cards, 0.0, 0.0)
        for sequence in table.node_sequences[0][node]:
            rows.add(r, columns.x(int(sequence)), 1.0)
        rows.add(r, columns.x(int(table.node_parent[0][node])), -1.0)


def _block_sum_rows(rows: _Rows, columns: _Columns) -> None:
    """``p_j`` = sum of ``v`` over ``j``'s block below ``j``; ``Q_{b+1} = Q_b`` + block ``b``."""
    n, block, blocks = columns.cards, columns.block, columns.blocks
    cards = np.arange(n)
    first_in_block = cards % block == 0
    rest = cards[~first_in_block]
    last = np.minimum((np.arange(blocks) + 1) * block, n) - 1
    for sequence, inner in columns.inner.items():
        v, outer = columns.x(sequence), columns.outer[sequence]
        rows.add(rows.new(int(first_in_block.sum()), 0.0, 0.0), inner[first_in_block], 1.0)
        r = rows.new(rest.size, 0.0, 0.0)
        rows.add(r, inner[rest], 1.0)
        rows.add(r, inner[rest - 1], -1.0)
        rows.add(r, v[rest - 1], -1.0)
        rows.add(rows.new(1, 0.0, 0.0), outer[0], 1.0)
        r = rows.new(blocks, 0.0, 0.0)
        rows.add(r, outer[1:], 1.0)
        rows.add(r, outer[:-1], -1.0)
        rows.add(r, inner[last], -1.0)
        rows.add(r, v[last], -1.0)


@dataclass(frozen=True)
class _Player1Rows:
    """The best-reply rows: ``empty_row`` for player 1's empty sequence, then
    ``sequence_rows`` by (card, sequence); ``span`` is all of them."""

    cards: int
    width1: int
    empty_row: np.ndarray
    sequence_rows: np.ndarray
    span: slice

    def __call__(self, sequence: int) -> np.ndarray:
        if sequence == 0:
            return np.broadcast_to(self.empty_row, (self.cards,))
        return self.sequence_rows[np.arange(self.cards) * self.width1 + (sequence - 1)]


def _best_reply_rows(rows: _Rows, columns: _Columns, table: BettingTable) -> _Player1Rows:
    """The rows ``F.T q − A.T x <= 0``, with their ``F.T q`` part."""
    n, width1 = columns.cards, table.num_sequences(1) - 1
    start = rows.count
    empty_row = rows.new(1, -np.inf, 0.0)
    sequence_rows = rows.new(n * width1, -np.inf, 0.0)
    player1 = _Player1Rows(n, width1, empty_row, sequence_rows, slice(start, rows.count))
    rows.add(empty_row, columns.q_root, 1.0)
    for node in range(table.num_nodes(1)):
        rows.add(player1(int(table.node_parent[1][node])), columns.q(node), -1.0)
        for sequence in table.node_sequences[1][node]:
            rows.add(player1(int(sequence)), columns.q(node), 1.0)
    return player1


def _payoff_entries(
    rows: _Rows, columns: _Columns, table: BettingTable, player1: _Player1Rows
) -> None:
    """``− (1/(N−1)) A'.T x`` in the best-reply rows, leaf by leaf, through the block sums."""
    n = columns.cards
    cards = np.arange(n)
    weight = 1.0 / (n - 1)
    for (s0, s1), showdown, payoff in zip(
        table.leaf_sequences, table.leaf_showdown, table.leaf_payoff, strict=True
    ):
        c = -weight * float(payoff)  # the row holds -A.T x
        target = player1(int(s1))
        if s0 == 0:  # player 0 never acted: v_i = x[empty] for every card
            per_card = (n - 1 - 2 * cards) if showdown else np.full(n, n - 1)
            rows.add(target, 0, c * per_card)
            continue
        v, total = columns.x(int(s0)), columns.outer[int(s0)][columns.blocks]
        if s1 == 0:  # summed over player 1's cards j
            per_card = (2 * cards - n + 1) if showdown else np.full(n, n - 1)
            rows.add(player1.empty_row, v, c * per_card)
            continue
        rows.add(target, total, c)
        rows.add(target, v, -c)
        if showdown:
            rows.add(target, columns.inner[int(s0)], -2 * c)
            rows.add(target, columns.outer[int(s0)][cards // columns.block], -2 * c)


def build_sparsified_lp(poker: ShowdownPoker) -> SparsifiedLP:
    """The sparsified LP of the module docstring, with ``O(N (S_0 + S_1 + |Z|))`` non-zeros."""
    table = poker.betting_table
    columns = _columns(poker)
    rows = _Rows()
    _plan_rows(rows, columns, table)
    _block_sum_rows(rows, columns)
    player1 = _best_reply_rows(rows, columns, table)
    _payoff_entries(rows, columns, table, player1)
    n_x = poker.num_sequences(0)
    col_lower = np.full(columns.total, -np.inf)
    col_lower[:n_x] = 0.0
    return SparsifiedLP(
        matrix=rows.matrix(columns.total),
        row_lower=np.concatenate(rows.lower),
        row_upper=np.concatenate(rows.upper),
        col_lower=col_lower,
        objective=columns.q_root,
        x_columns=slice(0, n_x),
        payoff_rows=player1.span,
        scale=float(poker.cards),
    )
