"""The structured LP: the min-max LP of a structured game, made sparse by writing ``Aᵀ x``
through level sums.

The min-max LP of the sequence form (KMvS 1996, eq. 11; :mod:`seqform.lp.minmax`),

    maximise f·q   s.t.   Fᵀ q − Aᵀ x <= 0,   E x = e,   x >= 0,

has one row per sequence ``(h1, s1)`` of player 1 (their multipliers are player 1's plan
``y``, ``F y = f``), and through ``A`` each row reads every hand of player 0: ``A`` has up
to ``H0 H1`` non-zeros per public leaf.  For a structured game (:mod:`seqform.game.public.tree`)
``A = sum_z M_z ⊗ e_{s0(z)} e_{s1(z)}ᵀ`` with

    M_z[h0, h1] = chance_z · w0[h0] w1[h1] · valid_z(h0) valid_z(h1) · [no card clash]
                  · rule_z(l0[h0], l1[h1]),

and ``rule_z`` depends on the hands only through their *levels*.  Zhang and Sandholm
("Sparsified linear programming for zero-sum equilibrium finding", ICML 2020) write such an
``A`` as a product of sparse factors and add the intermediate products as variables; for
rank-ordered hands the factor is the bidiagonal differencing of Farina and Sandholm (AAAI
2022): running sums over levels.  Here, per *group* of leaves sharing player 0's public
sequence ``s0``, the levels object and the public cards (the same levels and validity for
every leaf in it), with ``u_l = sum_{live h0 of level l} w0[h0] x[h0, s0]`` and the prefix
sums ``P_m = sum_{l < m} u_l`` over the group's ``L`` distinct levels (``T = P_L``):

    Constant c          :  c T
    Sign k, level l1    :  k (T − P_a − P_b)   a = #levels < l1,  b = #levels <= l1
    Threshold (q, a, b) :  a T − (a − b) P_m   m = #levels < q − l1

so the row ``(h1, s1(z))`` gets ``− chance_z w1[h1]`` times at most five auxiliary
variables of its group, minus the one clashing hand ``x[partner(h1), s0]`` (the hand of
player 0 holding ``h1``'s card, with weight ``rule(l0, l1) w0``; 0 in a showdown of equal
levels, so never written there).  The prefix sums are defined by a chain of equalities;
a chain of ``L`` equalities has a condition that grows with ``L`` (interior-point methods
returned wrong values at ``L = 5·10^4``), so above :data:`UNBLOCKED_LEVELS` levels they are
cut into blocks of ``~sqrt(L)``: ``p_m`` the running sum inside ``m``'s block, ``Q_b`` the
running sum of whole blocks, ``P_m = Q_{m // B} + p_m`` and ``T = Q_last`` — chains of
length ``sqrt(L)``.  Each live hand enters its group's chain once, so a group costs
``O(H0 + L)`` non-zeros and a leaf ``O(H1)``: ``O(|Z| H)`` in all instead of ``O(|Z| H²)``.

Groups that share levels and public cards (a *family*) have the same chain, so the chain is
laid out once and repeated per ``s0`` with numpy; the cost of building is linear in the LP's
size.  Payoffs are multiplied by ``scale = 1 / (deal_scale · sum w1 · unit)`` (the
probability of the opponent's hand, not of the deal, so coefficients stay near ``1 / H``;
``unit`` a power of two that brings payoffs outside ``[1/16, 2^20)`` into ``[1, 2)``,
:func:`~seqform.structured.lp_parts.payoff_unit`, so the float solvers' absolute
tolerances see the same numbers in any units); the optimum is ``scale`` times the game's
value and the plans are unchanged.  Solved by :mod:`seqform.structured.lp_solve`.

Numbers.  The one builder is generic in its numbers, as :mod:`seqform.lp.merged` is for the
tree's LP: :func:`build_structured_lp` writes float64 arrays (numpy throughout) for the
float solvers, :func:`build_exact_structured_lp` the same LP, entry for entry, with
``Fraction`` coefficients (numpy ``object`` arrays) as a
:class:`~seqform.lp.exact.program.LinearProgram`, whose optimal basis
:mod:`seqform.lp.exact.basis` re-solves in rationals (the exact certificate of
:mod:`seqform.routes.structured_exact`).

Size: the LP's layout, its chains and the three rule kinds' aggregates are one construction,
written once for floats and Fractions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from seqform.forms.sequence_form import constraint_matrix
from seqform.game.public.numbering import PublicNumbering, number_public_tree, structured_tables
from seqform.game.public.tree import Constant, PayoffRule, Sign, StructuredGame
from seqform.lp.exact.program import Bound, LinearProgram
from seqform.lp.exact.rational import RationalMatrix
from seqform.structured.lp_parts import (
    UNBLOCKED_LEVELS,
    Chain,
    Entries,
    Triplets,
    aggregate_rule,
    exact_value,
    level_chain,
    numbers,
    payoff_unit,
    rule_values,
)

__all__ = [
    "UNBLOCKED_LEVELS",
    "ExactStructuredLP",
    "StructuredLP",
    "build_exact_structured_lp",
    "build_structured_lp",
]


@dataclass(frozen=True)
class StructuredLP:
    """The LP ``maximise v[objective]`` s.t. ``row_lower <= M v <= row_upper``,
    ``col_lower <= v``.

    matrix : csc_array, shape (rows, columns); columns are ``x`` (player 0's sequences,
        ``>= 0``), then ``q`` (one per row of ``F``: the root, then player 1's information
        sets), then the auxiliary sums (free)
    payoff_rows : the slice of the rows ``Fᵀ q − Aᵀ x <= 0``, one per sequence of player 1
        (their multipliers are ``y``)
    scale : the LP's optimum is ``scale`` times the game's value
    payoff_nonzeros : the non-zeros that stand for ``Aᵀ x``: the payoff rows' entries on
        ``x`` and the auxiliary variables, and the rows defining those variables
    auxiliaries : the auxiliary variables
    """

    matrix: sp.csc_array
    row_lower: np.ndarray
    row_upper: np.ndarray
    col_lower: np.ndarray
    objective: int
    x_columns: slice
    payoff_rows: slice
    scale: float
    payoff_nonzeros: int = 0
    auxiliaries: int = 0

    @property
    def shape(self) -> tuple[int, int]:
        rows, columns = self.matrix.shape
        return int(rows), int(columns)


@dataclass(frozen=True)
class ExactStructuredLP:
    """The structured LP of :class:`StructuredLP` with exact coefficients: the same rows
    and columns in the same order (so a basis of one is a basis of the other).

    program : ``maximise v[objective]`` with ``Fraction`` data (``None`` bounds infinite)
    scale : the LP's optimum is ``scale`` times the game's value, exactly
    payoff_nonzeros : as in :class:`StructuredLP`
    """

    program: LinearProgram
    objective: int
    x_columns: slice
    payoff_rows: slice
    scale: Fraction
    payoff_nonzeros: int

    def exact_plans(
        self, values: Sequence[Fraction], row_duals: Sequence[Fraction]
    ) -> tuple[list[Fraction], list[Fraction]]:
        """``(x, y)``: player 0's plan from the columns, player 1's from the duals of the
        payoff rows (KMvS 1996, eq. 11)."""
        return list(values[self.x_columns]), list(row_duals[self.payoff_rows])


@dataclass(frozen=True)
class _Family:
    """Leaves with one rule kind, levels object and public cards (module docstring)."""

    leaves: np.ndarray
    levels: tuple[np.ndarray, np.ndarray]
    cards: int


def _kind(rule: PayoffRule) -> int:
    return 0 if isinstance(rule, Constant) else 1 if isinstance(rule, Sign) else 2


def _families(game: StructuredGame, numbering: PublicNumbering) -> Iterator[_Family]:
    members: dict[tuple[int, int, int, int], list[int]] = {}
    levels_of: dict[tuple[int, int, int, int], tuple[np.ndarray, np.ndarray]] = {}
    zeros = (np.zeros(game.num_hands(0), np.int64), np.zeros(game.num_hands(1), np.int64))
    for leaf, (rule, levels) in enumerate(
        zip(numbering.leaf_rules, numbering.leaf_levels, strict=True)
    ):
        pair = zeros if levels is None else levels
        key = (_kind(rule), id(pair[0]), id(pair[1]), int(numbering.leaf_cards[leaf]))
        members.setdefault(key, []).append(leaf)
        levels_of[key] = pair
    for key, leaves in members.items():
        yield _Family(np.asarray(leaves, dtype=np.int64), levels_of[key], key[3])


def _partner(game: StructuredGame) -> np.ndarray:
    """Per hand of player 1, player 0's hand holding the same card (one-card hands) or the
    same two cards (two-card hands: the *twin*), or -1."""
    keys = [np.sort(game.hands[p].card_matrix, axis=1).tolist() for p in (0, 1)]
    holder = {tuple(cards): h for h, cards in enumerate(keys[0]) if min(cards) >= 0}
    return np.asarray([holder.get(tuple(cards), -1) for cards in keys[1]], dtype=np.int64)


class _Builder:
    """Writes the payoff block: the payoff rows' entries and the chains' definitions."""

    def __init__(
        self, game: StructuredGame, payoff_base: int, aux_base: int, exact: bool = False
    ) -> None:
        self.game = game
        self.exact = exact
        self.numbering = number_public_tree(game)
        self.weights = tuple(numbers(game.hands[p].weights, exact) for p in (0, 1))
        total1 = sum((Fraction(w) for w in game.hands[1].weights), Fraction(0))
        unit = payoff_unit(self.numbering.leaf_rules)
        self.scale = 1 / (Fraction(game.deal_scale) * total1 * unit)
        self.partner = _partner(game)
        # one-card hands: take out the one clashing hand; two-card hands: the hands sharing
        # each card are taken out card by card (family), the twin twice, so it is put back
        self.two_cards = game.hands[0].card_matrix.shape[1] == 2
        self.clash_sign = 1 if self.two_cards else -1
        self.payoff_base = payoff_base
        self.next_column = aux_base
        self.next_row = 0  # definition rows, numbered after the payoff rows later
        self.payoff = Entries(exact)
        self.definitions = Entries(exact)
        self.chains: dict[int, Chain] = {}

    def chain(self, levels: int) -> Chain:
        if levels not in self.chains:
            self.chains[levels] = level_chain(levels)
        return self.chains[levels]

    def family(self, family: _Family, card: int | None = None) -> None:
        """Lay out the family's chains (one per ``s0``) and write its leaves' rows.

        With two-card hands the family is laid out again for each ``card`` held by a live
        hand of both players, over only the hands holding it, with the opposite sign: the
        sum over the opponent hands that clash, card by card (inclusion and exclusion)."""
        if self.two_cards and card is None:
            cards = [self.game.hands[p].card_matrix for p in (0, 1)]
            for shared in np.intersect1d(cards[0], cards[1]).tolist():
                self.family(family, int(shared))
        numbering = self.numbering
        live0 = numbering.hand_valid[0][family.cards] & np.asarray(self.weights[0] != 0, bool)
        if card is not None:
            live0 &= (self.game.hands[0].card_matrix == card).any(axis=1)
        hands0 = np.flatnonzero(live0)
        if not len(hands0):
            return
        distinct, hand_level = np.unique(family.levels[0][hands0], return_inverse=True)
        chain = self.chain(len(distinct))
        sequences = numbering.leaf_sequences[family.leaves]
        groups, leaf_group = np.unique(sequences[:, 0], return_inverse=True)
        base_column = self.next_column + chain.count * np.arange(len(groups))[:, None]
        base_row = self.next_row + chain.count * np.arange(len(groups))[:, None]
        self.next_column += chain.count * len(groups)
        self.next_row += chain.count * len(groups)
        self.definitions.add(base_row + chain.rows, base_column + chain.columns, chain.values)
        x = numbering.sequence_index[0][hands0][:, groups].T  # (groups, live hands)
        self.definitions.add(
            base_row + chain.level_row[hand_level], x, -self.weights[0][hands0][None, :]
        )
        columns = base_column[leaf_group]
        self._leaves(family, chain, distinct, hands0, columns, x[leaf_group], card)

    def _leaves(
        self,
        family: _Family,
        chain: Chain,
        distinct: np.ndarray,
        hands0: np.ndarray,
        columns: np.ndarray,
        x: np.ndarray,
        card: int | None = None,
    ) -> None:
        """The rows ``(h1, s1(z))`` of the family's leaves: ``− chance_z w1[h1]`` times the
        rule's aggregate in the group's variables, less the clashing hand (or, restricted to
        the hands holding ``card``, ``+ chance_z w1[h1]`` times it: :meth:`family`).

        columns : per leaf, its group's first auxiliary column, shape (leaves, 1)
        x : per leaf, the columns ``x[h0, s0]`` of the live hands ``hands0``
        """
        numbering = self.numbering
        leaves = family.leaves
        live1 = numbering.hand_valid[1][family.cards] & np.asarray(self.weights[1] != 0, bool)
        if card is not None:
            live1 &= (self.game.hands[1].card_matrix == card).any(axis=1)
        hands1 = np.flatnonzero(live1)
        if not len(hands1):
            return
        level1 = family.levels[1][hands1]
        seconds = numbering.leaf_sequences[leaves, 1]
        rows = self.payoff_base + numbering.sequence_index[1][hands1][:, seconds].T
        chance = numbers((numbering.leaf_chance[z] * self.scale for z in leaves), self.exact)
        factor = -chance[:, None] * self.weights[1][hands1][None, :]  # (leaves, hands1)
        if card is not None:
            factor = -factor
        slots, weights = aggregate_rule(numbering, leaves, distinct, level1, chain, self.exact)
        local = np.where(slots >= 0, columns[..., None] + slots, -1)
        self.payoff.add(rows[..., None], local, factor[..., None] * weights)
        if card is None:
            self._clash(leaves, hands0, hands1, rows, factor, x, family)

    def _clash(
        self,
        leaves: np.ndarray,
        hands0: np.ndarray,
        hands1: np.ndarray,
        rows: np.ndarray,
        factor: np.ndarray,
        x: np.ndarray,
        family: _Family,
    ) -> None:
        """Take out ``rule(l0, l1) w0 x[partner, s0]`` where ``h1``'s card is in a live
        hand of player 0 (two-card hands: put the twin's back, :meth:`family`)."""
        position = np.full(self.game.num_hands(0), -1, dtype=np.int64)
        position[hands0] = np.arange(len(hands0))
        partner = self.partner[hands1]
        at = np.where(partner >= 0, position[np.maximum(partner, 0)], -1)
        clash = np.flatnonzero(at >= 0)
        if not len(clash):
            return
        mate = hands0[at[clash]]
        values = rule_values(
            self.numbering,
            leaves,
            family.levels[0][mate],
            family.levels[1][hands1[clash]],
            self.exact,
        )
        self.payoff.add(
            rows[:, clash],
            x[:, at[clash]],
            self.clash_sign * factor[:, clash] * values * self.weights[0][mate][None, :],
        )


@dataclass(frozen=True)
class _Parts:
    """The LP of :func:`build_structured_lp` before assembly, in floats or Fractions.

    shape : (rows, columns); constraints : ``E`` and ``Fᵀ`` at their places (±1)
    payoff, definitions : the builder's entries (definition rows not yet shifted)
    e : the right-hand side of ``E x = e``; n_x, n_y : the players' sequences; n_q : the
    columns ``q`` (rows of ``F``)
    definition_base : the first definition row
    """

    shape: tuple[int, int]
    constraints: Triplets
    builder: _Builder
    e: np.ndarray
    n_x: int
    n_q: int
    n_y: int
    definition_base: int

    @property
    def payoff_rows(self) -> slice:
        base = self.definition_base - self.n_y
        return slice(base, self.definition_base)


def _parts(game: StructuredGame, exact: bool) -> _Parts:
    """Number the LP's rows and columns (as :func:`build_structured_lp` says) and write
    its entries."""
    first, second = structured_tables(game)
    E, e = constraint_matrix(first)
    F, _ = constraint_matrix(second)
    n_x, n_q, n_y = first.num_sequences, F.shape[0], second.num_sequences
    payoff_base = E.shape[0]
    builder = _Builder(game, payoff_base, n_x + n_q, exact)
    for family in _families(game, builder.numbering):
        builder.family(family)
    definition_base = payoff_base + n_y
    shape = (definition_base + builder.next_row, builder.next_column)
    E_part, F_part = sp.coo_array(E), sp.coo_array(F.T)
    constraints = (
        np.concatenate([E_part.row, F_part.row + payoff_base]).astype(np.int64),
        np.concatenate([E_part.col, F_part.col + n_x]).astype(np.int64),
        np.concatenate([E_part.data, F_part.data]),
    )
    return _Parts(shape, constraints, builder, e, n_x, n_q, n_y, definition_base)


def build_structured_lp(game: StructuredGame) -> StructuredLP:
    """The structured LP of the module docstring, with ``O(|Z| H + S_0 + S_1)`` non-zeros.

    Columns: ``x`` (player 0's game sequences), ``q`` (root, then player 1's information
    sets), then the auxiliary sums; rows: ``E x = e``, the payoff rows ``Fᵀ q − Aᵀ x <= 0``
    (player 1's sequences, in order), then the definitions of the sums (``= 0``).
    """
    parts = _parts(game, exact=False)
    builder, shape = parts.builder, parts.shape
    columns = shape[1]
    payoff = builder.payoff.matrix(shape)
    definitions = builder.definitions.matrix(shape, parts.definition_base)
    r, c, v = parts.constraints
    blocks = sp.coo_array((v, (r, c)), shape=shape)
    matrix = sp.csc_array(blocks + payoff + definitions)
    lower = np.concatenate([parts.e, np.full(parts.n_y, -np.inf), np.zeros(builder.next_row)])
    upper = np.concatenate([parts.e, np.zeros(parts.n_y), np.zeros(builder.next_row)])
    col_lower = np.full(columns, -np.inf)
    col_lower[: parts.n_x] = 0.0
    return StructuredLP(
        matrix=matrix,
        row_lower=lower,
        row_upper=upper,
        col_lower=col_lower,
        objective=parts.n_x,
        x_columns=slice(0, parts.n_x),
        payoff_rows=parts.payoff_rows,
        scale=float(builder.scale),
        payoff_nonzeros=int(payoff.nnz + definitions.nnz),
        auxiliaries=columns - parts.n_x - parts.n_q,
    )


def build_exact_structured_lp(game: StructuredGame) -> ExactStructuredLP:
    """The LP of :func:`build_structured_lp` with exact coefficients (module docstring):
    the same builder, writing Fractions; the same rows, columns and entries (the float LP's
    entries are these rounded), so HiGHS's basis of either is a basis of this one."""
    parts = _parts(game, exact=True)
    builder, shape = parts.builder, parts.shape
    pieces = [
        parts.constraints,
        builder.payoff.triplets(),
        builder.definitions.triplets(parts.definition_base),
    ]
    matrix = RationalMatrix.from_triples(
        shape,
        np.concatenate([rows for rows, _, _ in pieces]),
        np.concatenate([columns for _, columns, _ in pieces]),
        [exact_value(value) for _, _, values in pieces for value in values.tolist()],
    )
    keys = [rows * shape[1] + columns for rows, columns, _ in pieces[1:]]
    payoff_nonzeros = len(np.unique(np.concatenate(keys)))
    rhs: list[Bound] = [Fraction(int(value)) for value in parts.e]
    zeros: list[Bound] = [Fraction(0)] * (parts.n_y + builder.next_row)
    frees: list[Bound] = [None] * parts.n_y
    columns = shape[1]
    objective = [Fraction(0)] * columns
    objective[parts.n_x] = Fraction(1)
    program = LinearProgram(
        matrix=matrix,
        objective=tuple(objective),
        col_lower=(*[Fraction(0)] * parts.n_x, *[None] * (columns - parts.n_x)),
        col_upper=(None,) * columns,
        row_lower=(*rhs, *frees, *zeros[parts.n_y :]),
        row_upper=(*rhs, *zeros),
    )
    return ExactStructuredLP(
        program=program,
        objective=parts.n_x,
        x_columns=slice(0, parts.n_x),
        payoff_rows=parts.payoff_rows,
        scale=builder.scale,
        payoff_nonzeros=payoff_nonzeros,
    )
