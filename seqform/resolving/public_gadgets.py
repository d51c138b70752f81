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

Solver.  A gadget LP is solved by HiGHS, ending at a vertex (the exact re-solve needs its
basis): dual simplex up to :data:`SIMPLEX_COLUMNS` columns, where it is as fast as the
interior point, and the interior point with crossover above, where simplex grows much
faster (:func:`gadget_solver`).  The LP's build is a fraction of a second at every size; the
solve is the time.  Measured on one ``maxmargin`` gadget LP of an abstraction 3,9
blueprint, in one run each (``benchmarks/gadget_solvers.py``,
``benchmarks/results/gadget_solvers.md``): at Leduc 4×4 (2,786 columns) interior point and
crossover take 0.49 times simplex's time, at 6×4 (6,338) 0.18, at 13×4 (30,110) a small
fraction of its minutes.  Clarabel is faster still at 6×4 but ends inside the face, with a
gadget NashConv near 1e-10, and at 13×4 stops "AlmostSolved".  Every answer is certified by
the gadget game's best responses whatever the solver.

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
from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_plan, plan_from_behaviour
from seqform.game.public.numbering import number_public_tree, structured_tables
from seqform.game.public.tree import StructuredGame, hands_clash_free
from seqform.lp.problem import FloatSolution
from seqform.lp.solvers import StructuredSolver
from seqform.resolving.subgame_classes import SubgameClasses
from seqform.resolving.subgames import ResolveError
from seqform.structured.lp_model import StructuredLP, build_structured_lp
from seqform.structured.lp_solve import solve_structured_lp
from seqform.structured.reductions.suit_classes import certify_on_classes, class_sums
from seqform.structured.reductions.suit_reduction import reduce_lp
from seqform.structured.responses import best_response, certify, leaf_payoffs

__all__ = [
    "SIMPLEX_COLUMNS",
    "GadgetAnswer",
    "GadgetLP",
    "UnsafeAnswer",
    "counterfactual_values",
    "gadget_lp",
    "gadget_solver",
    "root_weights",
    "solve_gadget",
    "solve_unsafe",
]


SIMPLEX_COLUMNS = 2_000
"""The largest gadget LP solved by HiGHS's dual simplex; larger ones by its interior point
with crossover (module docstring: the two are even at Leduc 3×4's 1,550 columns)."""


def gadget_solver(lp: StructuredLP) -> StructuredSolver:
    """HiGHS's ``"simplex"`` for a gadget LP of at most :data:`SIMPLEX_COLUMNS` columns,
    ``"ipm"`` (interior point with crossover: a vertex and its basis too) above."""
    return "simplex" if lp.shape[1] <= SIMPLEX_COLUMNS else "ipm"


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


def counterfactual_values(
    sub: StructuredGame, strategy: BehaviouralStrategy, classes: SubgameClasses | None = None
) -> np.ndarray:
    """Per hand of player 1, ``cbv(J)``: its best-response value against player 0's
    ``strategy`` in ``sub``, counterfactual (the full game's units); Fractions for an exact
    ``strategy``.  With ``classes`` (a subgame of the game on canonical boards), per root
    class: the sum of its hands' values, the best response taken on hand classes
    (:mod:`seqform.resolving.subgame_classes`)."""
    kind = object if strategy.exact else float
    if classes is not None:
        payoffs = leaf_payoffs(sub, 1, plan_from_behaviour(strategy))
        values = respond(classes.tables[1], classes.on_classes(1, payoffs)).infoset_values
        owner, infosets = _root_infosets(sub, classes)
        return class_sums(owner, np.asarray(values, dtype=kind)[infosets], len(classes.root_sizes))
    values = np.asarray(best_response(sub, 1, strategy).infoset_values, dtype=kind)
    first = _first_infosets(sub)
    zero = np.asarray(Fraction(0) if strategy.exact else 0.0, dtype=kind)
    return np.where(first >= 0, values[np.maximum(first, 0)], zero).sum(axis=1)


def _root_infosets(sub: StructuredGame, classes: SubgameClasses) -> tuple[np.ndarray, np.ndarray]:
    """Each pair (root class, class of player 1's first information sets) once: a class of
    first information sets belongs to one root class (its stabilizer fixes the path's
    cards and more)."""
    first = _first_infosets(sub)
    hands, _ = np.nonzero(first >= 0)
    infosets = classes.hand_classes[1].infosets[first[first >= 0]]
    count = classes.hand_classes[1].num_infosets
    pairs = np.unique(classes.root[hands].astype(np.int64) * count + infosets)
    return pairs // count, pairs % count


def _gadget_infosets(
    sub: StructuredGame, hands: np.ndarray, classes: SubgameClasses | None
) -> tuple[np.ndarray, np.ndarray]:
    """Per first information set of player 1 (or class of them) in the gadget, the index in
    ``hands`` of its hand (or root class) and its column among the ``q``."""
    if classes is None:
        first = _first_infosets(sub)[hands]
        owner = np.repeat(np.arange(len(hands)), first.shape[1])[first.ravel() >= 0]
        return owner, first.ravel()[first.ravel() >= 0]
    owner, infosets = _root_infosets(sub, classes)
    position = np.full(len(classes.root_sizes), -1, dtype=np.int64)
    position[hands] = np.arange(len(hands))
    inside = position[owner] >= 0
    return position[owner[inside]], infosets[inside]


@dataclass(frozen=True)
class GadgetLP:
    """A gadget's structured LP (module docstring) and where its rows are.

    hands : ``O``'s hands in the gadget (``W_J > 0``); weights : their ``W_J``
    alternatives : per hand, ``T_J`` (``resolve``) or ``T_J + g_J`` (the others)
    rows : per hand, its enter row (``resolve``) or its margin row; take_rows : per hand,
        its take row (``resolve`` only, else empty)
    first_columns, first_owners : the columns ``q_I`` of ``O``'s first information sets and
        the hand (index into ``hands``) of each: the entries ``−q_I`` of the hand's row
    classes : for a subgame of the game on canonical boards, its hand classes: the LP is
        on classes (:func:`~seqform.structured.reductions.suit_reduction.reduce_lp`),
        ``hands`` are root classes and ``q_I`` are classes of first information sets
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
    classes: SubgameClasses | None = None


def gadget_lp(
    sub: StructuredGame,
    gadget: str,
    hands: np.ndarray,
    weights: np.ndarray,
    alternatives: np.ndarray,
    classes: SubgameClasses | None = None,
) -> GadgetLP:
    """The ``resolve``, ``maxmargin`` or ``reach`` gadget LP of ``sub`` (module docstring);
    ``weights`` and ``alternatives`` per hand of ``hands``, in the full game's units.  With
    ``classes``, on hand classes: ``hands`` are root classes, with their hands' summed
    weights and targets (:mod:`seqform.resolving.subgame_classes`)."""
    base = build_structured_lp(sub)
    if classes is not None:
        base = reduce_lp(base, classes.hand_classes)
    n_x, scale = base.x_columns.stop, base.scale
    empty = base.payoff_rows.start
    count = len(hands)
    owner, infosets = _gadget_infosets(sub, hands, classes)
    q = n_x + 1 + infosets
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
    return GadgetLP(sub, gadget, lp, hands, weights, alternatives, own, take, q, owner, classes)


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


def solve_gadget(built: GadgetLP, solver: StructuredSolver | None = None) -> GadgetAnswer:
    """Solve the gadget LP and certify its answer by both players' best responses in the
    gadget game; ``solver`` None lets :func:`gadget_solver` choose by the LP's size."""
    solution = solve_structured_lp(built.lp, solver=solver or gadget_solver(built.lp))
    lp, sub, classes = built.lp, built.sub, built.classes
    tables = structured_tables(sub)
    x, y = _plans(lp, solution, classes)
    strategy = behaviour_from_plan(tables[0], x)
    rows = np.maximum(solution.duals[built.rows], 0.0)
    cbv = counterfactual_values(sub, strategy, classes)[built.hands]
    alternatives, weights = built.alternatives, built.weights
    if built.gadget == "resolve":
        total = float(weights.sum())
        value = solution.objective / lp.scale / total
        takes = np.maximum(solution.duals[built.take_rows], 0.0)
        against_o = _best_first(sub, y, classes)
        best_p = (against_o - float(takes @ alternatives)) / total
        best_o = float(np.maximum(cbv, alternatives).sum()) / total
    else:
        value = solution.objective
        scaled = lp.scale * y
        best_p = _best_first(sub, scaled, classes)
        best_p += lp.scale * float(rows @ alternatives)
        best_o = float(((cbv - alternatives) / weights).max())
    return GadgetAnswer(strategy, value, best_p + best_o, lp.shape[1], solution)


def _plans(
    lp: StructuredLP, solution: FloatSolution, classes: SubgameClasses | None
) -> tuple[np.ndarray, np.ndarray]:
    """Player 0's plan (the LP's columns) and player 1's (its payoff rows' multipliers) in
    ``sub``: on classes, each member of a class takes the class's value."""
    x = np.maximum(solution.primal[lp.x_columns], 0.0)
    y = np.maximum(solution.duals[lp.payoff_rows], 0.0)
    if classes is None:
        return x, y
    return classes.lift(0, x), classes.lift(1, y)


def _best_first(sub: StructuredGame, plan: np.ndarray, classes: SubgameClasses | None) -> float:
    """Player 0's best-response value in ``sub`` against player 1's ``plan`` (on hand
    classes with ``classes``)."""
    payoffs = leaf_payoffs(sub, 0, plan)
    if classes is None:
        return float(respond(structured_tables(sub)[0], payoffs).value)
    return float(respond(classes.tables[0], classes.on_classes(0, payoffs)).value)


@dataclass(frozen=True)
class UnsafeAnswer:
    """The subgame alone with both blueprint ranges, solved: both strategies, the value to
    player 0 and NashConv, normalised by the subgame's total weight as the tree's
    ``unsafe`` game is."""

    strategies: tuple[BehaviouralStrategy, BehaviouralStrategy]
    value: float
    nash_conv: float
    columns: int


def solve_unsafe(
    sub: StructuredGame,
    solver: StructuredSolver | None = None,
    classes: SubgameClasses | None = None,
) -> UnsafeAnswer:
    """Solve ``sub`` (both players' ranges in its weights) by its structured LP (``solver``
    None: :func:`gadget_solver`'s choice); with ``classes``, on hand classes, certified
    there (:func:`~seqform.structured.reductions.suit_classes.certify_on_classes`)."""
    lp = build_structured_lp(sub)
    if classes is not None:
        lp = reduce_lp(lp, classes.hand_classes)
    solution = solve_structured_lp(lp, solver=solver or gadget_solver(lp))
    tables = structured_tables(sub)
    x, y = _plans(lp, solution, classes)
    strategies = (behaviour_from_plan(tables[0], x), behaviour_from_plan(tables[1], y))
    total = float(root_weights(sub).sum())
    if classes is None:
        certificate = certify(sub, *strategies)
    else:
        certificate = certify_on_classes(classes.boards, *strategies)
    nash_conv = float(certificate.nash_conv) / total
    return UnsafeAnswer(strategies, solution.objective / lp.scale / total, nash_conv, lp.shape[1])
