"""Lossless suit isomorphism: the structured LP on canonical boards and hand classes, and
its answer lifted back to the game.

Let ``S`` be the suit permutations the game ``G`` is invariant under
(:func:`seqform.game.public.symmetry.game_symmetries`).  The min-max LP of ``G`` is convex
and ``S`` maps its feasible set and objective onto themselves, so averaging an optimum over
``S`` gives an optimum whose plans are the same on each orbit of sequences: restricting both
players to such plans loses nothing.  Two steps reduce the LP to those plans:

1. *canonical boards* ``G'`` (:func:`~seqform.game.public.symmetry.canonical_game`): one
   public card per orbit of the stabilizer of the cards before it, its probability times the
   orbit's size.  For symmetric plans ``x' A' y'`` on ``G'`` is ``x A y`` on ``G`` (the
   leaves of one orbit pay the same) and ``E' x' = e'`` holds exactly when ``E x = e`` does.
2. *hand classes*: in ``G'`` the sequence ``(h, s)`` is tied to ``(τh, s)`` for ``τ`` in the
   stabilizer of ``s``'s public cards; the plans are ``x' = P0 x̄``, ``y' = P1 ȳ`` with
   ``P`` the 0/1 class matrices.  In the structured LP (:mod:`seqform.structured.lp_model`)
   the columns ``x`` of a class are added (``x' = P0 x̄``), player 1's payoff rows of a
   class are added (their multiplier is ``ȳ``; the rows are ``P1ᵀ (F'ᵀ q − A'ᵀ x') <= 0``),
   the rows of ``E' P0`` of one class, being equal, are kept once, and the columns ``q`` of
   one class of player 1's information sets, being equal after the rows are added, are
   added.  The level sums and their definitions stay as ``G'`` has them.  The rows of ``E'``
   for ``(h, k)`` and ``(τh, k)`` are equal after the merge because the stabilizer of ``k``'s
   cards is inside the stabilizer of its parent sequence's cards (fewer cards are fixed).

The canonical boards, the hand classes and the lifts are
:mod:`seqform.structured.reductions.suit_classes`'s, shared with vector CFR on ``G'``.

The answer ``(x̄, ȳ)`` is lifted to ``G'`` by ``P``, then to ``G``: the sequence ``(h, s)``
of ``G`` takes the value of ``(σh, s')`` in ``G'``, where ``σ`` maps ``s``'s board to its
canonical form ``s'`` (:func:`~seqform.game.public.symmetry.node_map`; any such ``σ`` gives
the same class).  The route certifies that lifted pair on ``G`` itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from seqform.game.public.symmetry import NodeMap, Symmetries
from seqform.game.public.tree import StructuredGame
from seqform.lp.exact.program import Bound, LinearProgram
from seqform.lp.exact.rational import RationalMatrix
from seqform.structured.lp_model import ExactStructuredLP, StructuredLP, build_structured_lp
from seqform.structured.reductions.suit_classes import (
    CanonicalBoards,
    GameSize,
    HandClasses,
    ReductionSizes,
    canonical_boards,
    game_size,
    lift_plan,
    with_nodes,
)

__all__ = [
    "SuitReduction",
    "lift_plans",
    "reduce_by_suits",
    "reduce_exact_lp",
    "reduce_lp",
    "reduce_on_classes",
    "reduction_sizes",
]


@dataclass(frozen=True)
class SuitReduction:
    """The game ``G``, its canonical-board game ``G'``, the hand classes and the reduced LP.

    group_order : the suit permutations ``G`` is invariant under
    full, canonical, reduced : the sizes at each step (:class:`GameSize`)
    lp : the reduced structured LP (solved as the structured route solves its LP)
    canonical_lp_shape, canonical_lp_nonzeros : the structured LP of ``G'`` before the
        hand classes are merged
    """

    game: StructuredGame
    canonical: StructuredGame
    group_order: int
    full: GameSize
    canonical_size: GameSize
    reduced: GameSize
    lp: StructuredLP
    canonical_lp_shape: tuple[int, int]
    canonical_lp_nonzeros: int
    classes: tuple[HandClasses, HandClasses]
    nodes: NodeMap
    symmetries: Symmetries

    @property
    def boards(self) -> CanonicalBoards:
        """``G'`` and its node map, as :func:`canonical_boards` gives them."""
        boards = CanonicalBoards(self.game, self.canonical, self.symmetries, self.classes)
        return with_nodes(boards, self.nodes)


def reduction_sizes(reduction: SuitReduction) -> ReductionSizes:
    """The sizes of ``reduction`` at each step."""
    return ReductionSizes(
        group_order=reduction.group_order,
        full=reduction.full,
        canonical=reduction.canonical_size,
        reduced=reduction.reduced,
        canonical_lp=(*reduction.canonical_lp_shape, reduction.canonical_lp_nonzeros),
        reduced_lp=(*reduction.lp.shape, int(reduction.lp.matrix.nnz)),
    )


@dataclass(frozen=True)
class _Merge:
    """Where the LP of ``G'``'s rows and columns go in the LP of hand classes: row
    ``row_source[i]`` is added into ``row_target[i]`` (rows not in ``row_source`` are
    dropped), column ``c`` into ``column_map[c]`` times ``column_weight[c]`` (1, or one over
    its class's size for the merged ``q``)."""

    row_source: np.ndarray
    row_target: np.ndarray
    column_map: np.ndarray
    column_weight: np.ndarray
    shape: tuple[int, int]
    e_rows: int
    auxiliaries: int


def _merge(
    shape: tuple[int, int], n_x: int, payoff_rows: slice, classes: tuple[HandClasses, HandClasses]
) -> _Merge:
    """The merge of the module docstring's step 2 for an LP of ``G'`` of ``shape``."""
    first, second = classes
    rows, columns = shape
    n_q = 1 + len(second.infosets)
    n_aux = columns - n_x - n_q
    e_rows = payoff_rows.start
    n_y = payoff_rows.stop - e_rows
    n_def = rows - e_rows - n_y
    column_map = np.concatenate(
        [
            first.sequences,
            first.num_sequences + np.concatenate([[0], 1 + second.infosets]),
            first.num_sequences + 1 + second.num_infosets + np.arange(n_aux),
        ]
    )
    new_columns = first.num_sequences + 1 + second.num_infosets + n_aux
    # E's rows: one per class (the first of each), payoff rows added by class, definitions kept
    _, first_members = np.unique(first.infosets, return_index=True)
    e_source = np.concatenate([[0], 1 + first_members])
    new_e = len(e_source)
    row_source = np.concatenate(
        [e_source, e_rows + np.arange(n_y), e_rows + n_y + np.arange(n_def)]
    )
    row_target = np.concatenate(
        [
            np.arange(new_e),
            new_e + second.sequences,
            new_e + second.num_sequences + np.arange(n_def),
        ]
    )
    new_rows = new_e + second.num_sequences + n_def
    # x' = P0 x̄ adds a class's columns; q's columns of a class are equal, so one is kept
    # (each weighted by 1 / class size)
    sizes = np.ones(columns, dtype=np.int64)
    q_classes = column_map[n_x : n_x + n_q]
    sizes[n_x : n_x + n_q] = np.bincount(q_classes)[q_classes]
    return _Merge(row_source, row_target, column_map, sizes, (new_rows, new_columns), new_e, n_aux)


def reduce_lp(lp: StructuredLP, classes: tuple[HandClasses, HandClasses]) -> StructuredLP:
    """The LP of hand classes (module docstring, step 2), from the LP of ``G'``."""
    first, second = classes
    rows, columns = lp.shape
    merge = _merge(lp.shape, lp.x_columns.stop, lp.payoff_rows, classes)
    new_rows, new_columns = merge.shape
    new_e = merge.e_rows
    select = sp.csr_array(
        (np.ones(len(merge.row_source)), (merge.row_target, merge.row_source)),
        shape=(new_rows, rows),
    )
    weights = 1.0 / merge.column_weight
    merged = sp.csr_array(
        (weights, (np.arange(columns), merge.column_map)), shape=(columns, new_columns)
    )
    matrix = sp.csc_array(select @ lp.matrix @ merged)
    matrix.eliminate_zeros()
    payoff = sp.csr_array(matrix)[new_e:, :]
    payoff_nonzeros = int(payoff.nnz) - int(
        payoff[:, first.num_sequences : first.num_sequences + 1 + second.num_infosets].nnz
    )
    return StructuredLP(
        matrix=matrix,
        row_lower=_moved(lp.row_lower, merge.row_source, merge.row_target, new_rows),
        row_upper=_moved(lp.row_upper, merge.row_source, merge.row_target, new_rows),
        col_lower=_moved(lp.col_lower, np.arange(columns), merge.column_map, new_columns),
        objective=first.num_sequences,
        x_columns=slice(0, first.num_sequences),
        payoff_rows=slice(new_e, new_e + second.num_sequences),
        scale=lp.scale,
        payoff_nonzeros=payoff_nonzeros,
        auxiliaries=merge.auxiliaries,
    )


def reduce_exact_lp(
    lp: ExactStructuredLP, classes: tuple[HandClasses, HandClasses]
) -> ExactStructuredLP:
    """:func:`reduce_lp` with exact coefficients: the same merge of rows and columns, in
    the same order, on the exact LP of ``G'`` (so HiGHS's basis of the float reduced LP is
    a basis of this one).  ``payoff_nonzeros`` is kept as ``G'``'s (a size, not data)."""
    first, second = classes
    program = lp.program
    merge = _merge((program.num_rows, program.num_cols), lp.x_columns.stop, lp.payoff_rows, classes)
    target = np.full(program.num_rows, -1, dtype=np.int64)
    target[merge.row_source] = merge.row_target
    matrix = program.matrix
    rows = target[matrix.rows]
    kept = np.flatnonzero(rows >= 0)
    sizes = merge.column_weight[matrix.cols[kept]].tolist()
    values = [matrix.values[i] / size for i, size in zip(kept.tolist(), sizes, strict=True)]
    new_rows, new_columns = merge.shape
    objective = [Fraction(0)] * new_columns
    objective[first.num_sequences] = Fraction(1)
    reduced = LinearProgram(
        matrix=RationalMatrix.from_triples(
            merge.shape, rows[kept], merge.column_map[matrix.cols[kept]], values
        ),
        objective=tuple(objective),
        col_lower=tuple(
            _moved_bounds(
                program.col_lower, np.arange(program.num_cols), merge.column_map, new_columns
            )
        ),
        col_upper=(None,) * new_columns,
        row_lower=tuple(
            _moved_bounds(program.row_lower, merge.row_source, merge.row_target, new_rows)
        ),
        row_upper=tuple(
            _moved_bounds(program.row_upper, merge.row_source, merge.row_target, new_rows)
        ),
    )
    return ExactStructuredLP(
        program=reduced,
        objective=first.num_sequences,
        x_columns=slice(0, first.num_sequences),
        payoff_rows=slice(merge.e_rows, merge.e_rows + second.num_sequences),
        scale=lp.scale,
        payoff_nonzeros=lp.payoff_nonzeros,
    )


def _moved_bounds(
    bounds: Sequence[Bound], source: np.ndarray, target: np.ndarray, size: int
) -> list[Bound]:
    """:func:`_moved` for exact bounds (None infinite)."""
    out: list[Bound] = [None] * size
    for s, t in zip(source.tolist(), target.tolist(), strict=True):
        out[t] = bounds[s]
    return out


def _moved(bounds: np.ndarray, source: np.ndarray, target: np.ndarray, size: int) -> np.ndarray:
    """Bounds of the merged rows or columns: each takes a member's (they are equal)."""
    out = np.empty(size)
    out[target] = bounds[source]
    return out


def reduce_by_suits(
    game: StructuredGame, boards: CanonicalBoards | None = None
) -> SuitReduction | None:
    """The reduction of the module docstring, or None when ``game`` is invariant under no
    suit permutation but the identity (no suits declared, or asymmetric hands or payoffs).
    ``boards``: :func:`canonical_boards` of ``game``, when already found."""
    boards = canonical_boards(game) if boards is None else boards
    if boards is None:
        return None
    return reduce_on_classes(game, boards, boards.classes)


def reduce_on_classes(
    game: StructuredGame, boards: CanonicalBoards, classes: tuple[HandClasses, HandClasses]
) -> SuitReduction:
    """The LP of ``G'`` with each player's plans merged on ``classes`` (module docstring,
    step 2): the hand classes, or a coarser partition of them whose merge is as lossless
    (:mod:`seqform.structured.reductions.ordered_isomorphism`), with the sizes at each step."""
    canonical_lp = build_structured_lp(boards.canonical)
    return SuitReduction(
        game=game,
        canonical=boards.canonical,
        group_order=boards.group_order,
        full=game_size(game),
        canonical_size=game_size(boards.canonical),
        reduced=GameSize(
            (classes[0].num_sequences, classes[1].num_sequences),
            (classes[0].num_infosets, classes[1].num_infosets),
        ),
        lp=reduce_lp(canonical_lp, classes),
        canonical_lp_shape=canonical_lp.shape,
        canonical_lp_nonzeros=int(canonical_lp.matrix.nnz),
        classes=classes,
        nodes=boards.nodes,
        symmetries=boards.symmetries,
    )


def lift_plans(
    reduction: SuitReduction, x: np.ndarray, y: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The reduced LP's plans ``(x̄, ȳ)`` as realization plans of the game (module
    docstring): ``x' = P0 x̄``, ``y' = P1 ȳ`` on ``G'``, then each sequence of the game from
    its image on canonical boards."""
    first, second = reduction.classes
    boards = reduction.boards
    return lift_plan(boards, 0, x[first.sequences]), lift_plan(boards, 1, y[second.sequences])
