"""The re-solving gadgets as structured LPs: the gadget game's LP without its tree.

Player ``P`` re-solves a public subgame (:mod:`seqform.resolving.public_subgames`), written
as a structured game ``G`` whose player 0 is ``P`` with its blueprint ranges as hand
weights and whose player 1 is the opponent ``O`` with its hands' own weights.  ``G``'s
structured LP (:mod:`seqform.structured.lp_model`) is ``max q_root`` over ``P``'s plan
``x`` and the multipliers ``q`` of ``O``'s information sets, with one payoff row
``Fᵀ q − s Aᵀ x <= 0`` per sequence of ``O`` (``s`` the LP's scale); the row of ``O``'s
empty sequence is ``q_root − Σ_I q_I <= 0`` over ``O``'s first information sets ``I``, and
``Σ_{I of hand h} q_I`` is ``−s cbv(h)``, minus ``s`` times ``O``'s counterfactual
best-response value with hand ``h`` (the root information set ``J = h``, weight ``W_J``).
The gadgets of :mod:`seqform.resolving.gadgets` are rows and columns added to it, with the
same ``T_J`` (targets), ``g_J`` (gifts) and margins ``T_J − cbv(J)``:

* ``resolve`` (Burch, Johanson and Bowling, AAAI 2014): a free column ``z_J`` per ``J``; the
  empty sequence's row becomes ``q_root − Σ_J z_J <= 0``, and two rows per ``J``,
  ``z_J − Σ_{I of J} q_I <= 0`` (enter) and ``z_J <= −s T_J`` (take): ``z_J`` is ``s``
  times ``min(−cbv(J), −T_J)``.  Their multipliers are ``O``'s gadget strategy: enter and
  take at ``J``; the payoff rows' multipliers are ``O``'s plan in the subgame, scaled by
  enter.  The optimum is ``s`` times ``−Σ_J max(cbv(J), T_J)``.
* ``maxmargin`` (Moravčík et al., AAAI 2016), and ``reach`` (Brown and Sandholm, NeurIPS
  2017) with ``T_J + g_J``: the objective column ``q_root`` becomes the margin per unit
  of weight ``m``, with one row per ``J``, ``s W_J m − Σ_{I of J} q_I <= s T_J``, so that
  ``m = min_J (T_J − cbv(J)) / W_J`` at the optimum.  The multiplier ``d_J`` of ``J``'s row
  is ``O``'s choice of ``J`` as the tree gadget has it, ``p_J = s W_J d_J``.

Gadget values and NashConv are reported in the tree gadget's units (the tree gadget game's
chance normalises the weights: ``resolve`` divides by ``W = Σ_J W_J``, ``maxmargin`` by
``W_J`` per ``J``), so the two versions can be compared number for number.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from seqform.certify import respond
from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_plan
from seqform.game.public.numbering import number_public_tree, structured_tables
from seqform.game.public.tree import StructuredGame, hands_clash_free
from seqform.lp.problem import FloatSolution
from seqform.lp.solvers import StructuredSolver
from seqform.resolving.subgames import ResolveError
from seqform.structured.lp_model import StructuredLP, build_structured_lp
from seqform.structured.lp_solve import solve_structured_lp
from seqform.structured.responses import best_response, certify, leaf_payoffs

__all__ = [
    "GadgetAnswer",
    "GadgetLP",
    "UnsafeAnswer",
    "counterfactual_values",
    "gadget_lp",
    "root_weights",
    "solve_gadget",
    "solve_unsafe",
]


def _floats(values: tuple[object, ...]) -> np.ndarray:
    return np.asarray([float(v) for v in values], dtype=float)  # type: ignore[arg-type]


def root_weights(sub: StructuredGame, exact: bool = False) -> np.ndarray:
    """Per hand ``h`` of player 1 (``O``), ``W_J``: the sum over the deals of ``chance ·
    reach_P``, with ``P``'s reach in player 0's hand weights (module docstring); Fractions
    (an object array) when ``exact``."""
    if exact:
        weights = [
            np.asarray([Fraction(w) for w in sub.hands[p].weights], dtype=object) for p in (0, 1)
        ]
        free = hands_clash_free(sub.hands[0], sub.hands[1]).astype(np.int64).astype(object)
        return Fraction(sub.deal_scale) * weights[1] * (weights[0] @ free)
    weights = [_floats(sub.hands[p].weights) for p in (0, 1)]
    free = hands_clash_free(sub.hands[0], sub.hands[1])
    return float(sub.deal_scale) * weights[1] * (weights[0] @ free)


def _first_infosets(sub: StructuredGame) -> np.ndarray:
    """Shape (H1, K): player 1's information sets at its first public decisions (those
    after its empty sequence), -1 where the hand is not valid; refuses a subgame with a
    leaf before player 1 acts (its payoff there is not the gadget's hand's)."""
    numbering = number_public_tree(sub)
    if (numbering.leaf_sequences[:, 1] == 0).any():
        raise ResolveError(
            f"{sub.name}: the subgame can end before the opponent acts in it; the structured "
            "gadget needs the opponent's hand to be asked first (re-solve on the tree)"
        )
    nodes = np.flatnonzero(numbering.node_parent[1] == 0)
    return numbering.infoset_index[1][:, nodes]


def counterfactual_values(sub: StructuredGame, strategy: BehaviouralStrategy) -> np.ndarray:
    """Per hand of player 1, ``cbv(J)``: its best-response value against player 0's
    ``strategy`` in ``sub``, counterfactual (the full game's units); Fractions for an exact
    ``strategy``."""
    kind = object if strategy.exact else float
    values = np.asarray(best_response(sub, 1, strategy).infoset_values, dtype=kind)
    first = _first_infosets(sub)
    zero = np.asarray(Fraction(0) if strategy.exact else 0.0, dtype=kind)
    return np.where(first >= 0, values[np.maximum(first, 0)], zero).sum(axis=1)


@dataclass(frozen=True)
class GadgetLP:
    """A gadget's structured LP (module docstring) and where its rows are.

    hands : ``O``'s hands in the gadget (``W_J > 0``); weights : their ``W_J``
    alternatives : per hand, ``T_J`` (``resolve``) or ``T_J + g_J`` (the others)
    rows : per hand, its enter row (``resolve``) or its margin row; take_rows : per hand,
        its take row (``resolve`` only, else empty)
    first_columns, first_owners : the columns ``q_I`` of ``O``'s first information sets and
        the hand (index into ``hands``) of each: the entries ``−q_I`` of the hand's row
    """

    sub: StructuredGame
    gadget: str
    lp: StructuredLP
    hands: np.ndarray
    weights: np.ndarray
    alternatives: np.ndarray
    rows: np.ndarray
    take_rows: np.ndarray
    first_columns: np.ndarray
    first_owners: np.ndarray


def gadget_lp(
    sub: StructuredGame,
    gadget: str,
    hands: np.ndarray,
    weights: np.ndarray,
    alternatives: np.ndarray,
) -> GadgetLP:
    """The ``resolve``, ``maxmargin`` or ``reach`` gadget LP of ``sub`` (module docstring);
    ``weights`` and ``alternatives`` per hand of ``hands``, in the full game's units."""
    base = build_structured_lp(sub)
    n_x, scale = base.x_columns.stop, base.scale
    empty = base.payoff_rows.start
    first = _first_infosets(sub)[hands]
    count = len(hands)
    owner = np.repeat(np.arange(count), first.shape[1])[first.ravel() >= 0]
    q = n_x + 1 + first.ravel()[first.ravel() >= 0]
    matrix = base.matrix.tocoo()
    keep = ~((matrix.row == empty) & np.isin(matrix.col, q))
    if gadget != "resolve":
        keep &= ~((matrix.row == empty) & (matrix.col == base.objective))
    rows, columns = base.shape
    own = rows + np.arange(count)
    triplets = [
        (matrix.row[keep], matrix.col[keep], matrix.data[keep]),
        (own[owner], q, -np.ones(len(q))),
    ]
    lower, upper = [base.row_lower, np.full(count, -np.inf)], [base.row_upper]
    col_lower = [base.col_lower]
    take = np.zeros(0, dtype=np.int64)
    if gadget == "resolve":
        z = columns + np.arange(count)
        take = rows + count + np.arange(count)
        ones = np.ones(count)
        triplets += [(np.full(count, empty), z, -ones), (own, z, ones), (take, z, ones)]
        lower.append(np.full(count, -np.inf))
        upper += [np.zeros(count), -scale * alternatives]
        col_lower.append(np.full(count, -np.inf))
        shape = (rows + 2 * count, columns + count)
    else:
        triplets.append((own, np.full(count, base.objective), scale * weights))
        upper.append(scale * alternatives)
        shape = (rows + count, columns)
    r, c, v = (np.concatenate(parts) for parts in zip(*triplets, strict=True))
    lp = StructuredLP(
        matrix=sp.csc_array(sp.coo_array((v, (r, c)), shape=shape)),
        row_lower=np.concatenate(lower),
        row_upper=np.concatenate(upper),
        col_lower=np.concatenate(col_lower),
        objective=base.objective,
        x_columns=base.x_columns,
        payoff_rows=base.payoff_rows,
        scale=scale,
        payoff_nonzeros=base.payoff_nonzeros,
        auxiliaries=base.auxiliaries,
    )
    return GadgetLP(sub, gadget, lp, hands, weights, alternatives, own, take, q, owner)


@dataclass(frozen=True)
class GadgetAnswer:
    """A gadget LP solved and certified in the gadget game (module docstring's units).

    strategy : ``P``'s strategy in the subgame (player 0 of ``sub``)
    value : the gadget game's value to ``P``
    nash_conv : NashConv of the answer in the gadget game: both best responses' gains
    columns : the LP's columns
    """

    strategy: BehaviouralStrategy
    value: float
    nash_conv: float
    columns: int
    solution: FloatSolution


def solve_gadget(built: GadgetLP, solver: StructuredSolver = "simplex") -> GadgetAnswer:
    """Solve the gadget LP and certify its answer by both players' best responses in the
    gadget game."""
    solution = solve_structured_lp(built.lp, solver=solver)
    lp, sub = built.lp, built.sub
    tables = structured_tables(sub)
    x = np.maximum(solution.primal[lp.x_columns], 0.0)
    strategy = behaviour_from_plan(tables[0], x)
    y = np.maximum(solution.duals[lp.payoff_rows], 0.0)
    rows = np.maximum(solution.duals[built.rows], 0.0)
    cbv = counterfactual_values(sub, strategy)[built.hands]
    alternatives, weights = built.alternatives, built.weights
    if built.gadget == "resolve":
        total = float(weights.sum())
        value = solution.objective / lp.scale / total
        takes = np.maximum(solution.duals[built.take_rows], 0.0)
        against_o = float(respond(tables[0], leaf_payoffs(sub, 0, y)).value)
        best_p = (against_o - float(takes @ alternatives)) / total
        best_o = float(np.maximum(cbv, alternatives).sum()) / total
    else:
        value = solution.objective
        scaled = lp.scale * y
        best_p = float(respond(tables[0], leaf_payoffs(sub, 0, scaled)).value)
        best_p += lp.scale * float(rows @ alternatives)
        best_o = float(((cbv - alternatives) / weights).max())
    return GadgetAnswer(strategy, value, best_p + best_o, lp.shape[1], solution)


@dataclass(frozen=True)
class UnsafeAnswer:
    """The subgame alone with both blueprint ranges, solved: both strategies, the value to
    player 0 and NashConv, normalised by the subgame's total weight as the tree's
    ``unsafe`` game is."""

    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy]
    value: float
    nash_conv: float
    columns: int


def solve_unsafe(sub: StructuredGame, solver: StructuredSolver = "simplex") -> UnsafeAnswer:
    """Solve ``sub`` (both players' ranges in its weights) by its structured LP."""
    lp = build_structured_lp(sub)
    solution = solve_structured_lp(lp, solver=solver)
    tables = structured_tables(sub)
    x = np.maximum(solution.primal[lp.x_columns], 0.0)
    y = np.maximum(solution.duals[lp.payoff_rows], 0.0)
    strategies = (behaviour_from_plan(tables[0], x), behaviour_from_plan(tables[1], y))
    total = float(root_weights(sub).sum())
    nash_conv = float(certify(sub, *strategies).nash_conv) / total
    return UnsafeAnswer(strategies, solution.objective / lp.scale / total, nash_conv, lp.shape[1])
