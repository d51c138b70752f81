"""The sparsified min-max LP of a structured game: ``Aᵀ x`` written through level sums.

The min-max LP of the sequence form (KMvS 1996, eq. 11; :mod:`seqform.lp.minmax`),

    maximise f·q   s.t.   Fᵀ q − Aᵀ x <= 0,   E x = e,   x >= 0,

has one row per sequence ``(h1, s1)`` of player 1 (their multipliers are player 1's plan
``y``, ``F y = f``), and through ``A`` each row reads every hand of player 0: ``A`` has up
to ``H0 H1`` non-zeros per public leaf.  For a structured game (:mod:`seqform.game.public_tree`)
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
size.  Payoffs are multiplied by ``scale = 1 / (deal_scale · sum w1)`` (the probability of
the opponent's hand, not of the deal, so coefficients stay near ``1 / H``); the optimum is
``scale`` times the game's value and the plans are unchanged.  Solved by
:mod:`seqform.structured.sparsified_solve`.

Size: the LP's layout, its chains and the three rule kinds' aggregates are one construction.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import scipy.sparse as sp

from seqform.forms.sequence_form import constraint_matrix
from seqform.game.public_numbering import PublicNumbering, number_public_tree, structured_tables
from seqform.game.public_tree import Constant, PayoffRule, Sign, StructuredGame

__all__ = ["UNBLOCKED_LEVELS", "SparsifiedLP", "build_structured_lp"]

UNBLOCKED_LEVELS = 64
"""Chains of prefix sums up to this many levels are written unblocked."""


@dataclass(frozen=True)
class SparsifiedLP:
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
class _Chain:
    """The blocked prefix sums over ``L`` levels, in local numbers (row ``i`` defines
    variable ``i``).

    prefix : shape (L + 1, 2), the (at most two) variables whose sum is ``P_m``; -1 unused
    rows, columns, values : the entries among the chain's own variables
    level_row : per level ``l``, the row in which ``u_l`` enters (with coefficient -1)
    count : the variables (and rows)
    """

    prefix: np.ndarray
    rows: np.ndarray
    columns: np.ndarray
    values: np.ndarray
    level_row: np.ndarray
    count: int


def _chain(levels: int) -> _Chain:
    """``p_m = p_{m-1} + u_{m-1}`` inside blocks, ``Q_b = Q_{b-1} + p_last + u_last``."""
    block = levels if levels <= UNBLOCKED_LEVELS else max(1, math.isqrt(levels))
    blocks = -(-levels // block)
    m = np.arange(levels + 1)
    inner = m[(m % block != 0) & (m < levels)]
    pvar = np.full(levels + 1, -1, dtype=np.int64)
    pvar[inner] = np.arange(len(inner))
    qvar = np.full(blocks + 1, -1, dtype=np.int64)
    qvar[1:] = len(inner) + np.arange(blocks)
    prefix = np.stack([np.where(m // block > 0, qvar[np.minimum(m // block, blocks)], -1), pvar])
    prefix = prefix.T.copy()
    prefix[levels] = (qvar[blocks], -1)
    b = np.arange(1, blocks + 1)
    last = np.minimum(b * block, levels) - 1
    own = np.concatenate([pvar[inner], qvar[b]])
    previous = np.concatenate([pvar[inner - 1], np.where(b > 1, qvar[b - 1], -1)])
    carried = np.where(last % block != 0, pvar[last], -1)
    rows = np.concatenate([own, own, qvar[b]])
    columns = np.concatenate([own, previous, carried])
    values = np.concatenate([np.ones(len(own)), -np.ones(len(own)), -np.ones(blocks)])
    keep = columns >= 0
    level = np.arange(levels)
    following = level + 1
    inside = (following % block != 0) & (following < levels)
    level_row = np.where(inside, pvar[np.minimum(following, levels)], qvar[level // block + 1])
    return _Chain(prefix, rows[keep], columns[keep], values[keep], level_row, len(own))


class _Entries:
    """Triplets of one block of the LP, appended array by array."""

    def __init__(self) -> None:
        self.parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def add(self, rows: np.ndarray, columns: np.ndarray, values: np.ndarray) -> None:
        """Entries ``M[rows, columns] += values`` (broadcast together), skipping columns
        -1 and zero values."""
        r, c, v = np.broadcast_arrays(rows, columns, values)
        keep = (c >= 0) & (v != 0)
        self.parts.append((r[keep].ravel(), c[keep].ravel(), v[keep].ravel().astype(float)))

    def matrix(self, shape: tuple[int, int]) -> sp.coo_array:
        if not self.parts:
            return sp.coo_array(shape)
        rows, columns, values = (np.concatenate(part) for part in zip(*self.parts, strict=True))
        matrix = sp.coo_array((values, (rows, columns)), shape=shape)
        matrix.sum_duplicates()
        return matrix


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
    """Per hand of player 1, player 0's hand holding the same card, or -1."""
    holder = {card: h for h, card in enumerate(game.hands[0].cards.tolist()) if card >= 0}
    cards = game.hands[1].cards.tolist()
    return np.asarray([holder.get(c, -1) if c >= 0 else -1 for c in cards], dtype=np.int64)


class _Builder:
    """Writes the payoff block: the payoff rows' entries and the chains' definitions."""

    def __init__(self, game: StructuredGame, payoff_base: int, aux_base: int) -> None:
        self.game = game
        self.numbering = number_public_tree(game)
        self.weights = tuple(np.asarray([float(w) for w in game.hands[p].weights]) for p in (0, 1))
        total1 = sum((Fraction(w) for w in game.hands[1].weights), Fraction(0))
        self.scale = 1 / (Fraction(game.deal_scale) * total1)
        self.partner = _partner(game)
        self.payoff_base = payoff_base
        self.next_column = aux_base
        self.next_row = 0  # definition rows, numbered after the payoff rows later
        self.payoff = _Entries()
        self.definitions = _Entries()
        self.chains: dict[int, _Chain] = {}

    def chain(self, levels: int) -> _Chain:
        if levels not in self.chains:
            self.chains[levels] = _chain(levels)
        return self.chains[levels]

    def family(self, family: _Family) -> None:
        """Lay out the family's chains (one per ``s0``) and write its leaves' rows."""
        numbering = self.numbering
        live0 = numbering.hand_valid[0][family.cards] & (self.weights[0] != 0)
        hands0 = np.flatnonzero(live0)
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
        self._leaves(family, chain, distinct, hands0, base_column[leaf_group], x[leaf_group])

    def _leaves(
        self,
        family: _Family,
        chain: _Chain,
        distinct: np.ndarray,
        hands0: np.ndarray,
        columns: np.ndarray,
        x: np.ndarray,
    ) -> None:
        """The rows ``(h1, s1(z))`` of the family's leaves: ``− chance_z w1[h1]`` times the
        rule's aggregate in the group's variables, less the clashing hand.

        columns : per leaf, its group's first auxiliary column, shape (leaves, 1)
        x : per leaf, the columns ``x[h0, s0]`` of the live hands ``hands0``
        """
        numbering = self.numbering
        leaves = family.leaves
        live1 = numbering.hand_valid[1][family.cards] & (self.weights[1] != 0)
        hands1 = np.flatnonzero(live1)
        level1 = family.levels[1][hands1]
        seconds = numbering.leaf_sequences[leaves, 1]
        rows = self.payoff_base + numbering.sequence_index[1][hands1][:, seconds].T
        chance = np.asarray([float(numbering.leaf_chance[z] * self.scale) for z in leaves])
        factor = -chance[:, None] * self.weights[1][hands1][None, :]  # (leaves, hands1)
        slots, weights = _aggregate(numbering, leaves, distinct, level1, chain)
        local = np.where(slots >= 0, columns[..., None] + slots, -1)
        self.payoff.add(rows[..., None], local, factor[..., None] * weights)
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
        hand of player 0."""
        position = np.full(self.game.num_hands(0), -1, dtype=np.int64)
        position[hands0] = np.arange(len(hands0))
        partner = self.partner[hands1]
        at = np.where(partner >= 0, position[np.maximum(partner, 0)], -1)
        clash = np.flatnonzero(at >= 0)
        if not len(clash):
            return
        mate = hands0[at[clash]]
        values = _rule_values(
            self.numbering, leaves, family.levels[0][mate], family.levels[1][hands1[clash]]
        )
        self.payoff.add(
            rows[:, clash],
            x[:, at[clash]],
            -factor[:, clash] * values * self.weights[0][mate][None, :],
        )


def _aggregate(
    numbering: PublicNumbering,
    leaves: np.ndarray,
    distinct: np.ndarray,
    level1: np.ndarray,
    chain: _Chain,
) -> tuple[np.ndarray, np.ndarray]:
    """Per (leaf, hand of player 1), the rule's sum over all live hands of player 0 as at
    most five (local variable, weight) slots: shapes (leaves, hands1, 5); -1 unused."""
    count = len(distinct)
    shape = (len(leaves), len(level1), 5)
    slots = np.full(shape, -1, dtype=np.int64)
    weights = np.zeros(shape)
    rules = [numbering.leaf_rules[z] for z in leaves]
    slots[..., 0] = chain.prefix[count, 0]
    rule = rules[0]
    if isinstance(rule, Constant):
        weights[..., 0] = np.asarray([float(r.payoff) for r in rules])[:, None]
    elif isinstance(rule, Sign):
        stake = np.asarray([float(r.stake) for r in rules])[:, None, None]
        below = np.searchsorted(distinct, level1, side="left")
        upto = np.searchsorted(distinct, level1, side="right")
        slots[..., 1:3] = chain.prefix[below]
        slots[..., 3:5] = chain.prefix[upto]
        weights[...] = stake * np.asarray([1.0, -1.0, -1.0, -1.0, -1.0])
    else:
        reached = np.asarray([float(r.if_reached) for r in rules])[:, None]
        otherwise = np.asarray([float(r.otherwise) for r in rules])[:, None]
        quantity = np.asarray([r.quantity for r in rules])[:, None]
        needed = np.searchsorted(distinct, quantity - level1[None, :], side="left")
        slots[..., 1:3] = chain.prefix[needed]
        weights[..., 0] = reached
        weights[..., 1:3] = -(reached - otherwise)[..., None]
    weights[slots < 0] = 0.0
    return slots, weights


def _rule_values(
    numbering: PublicNumbering, leaves: np.ndarray, level0: np.ndarray, level1: np.ndarray
) -> np.ndarray:
    """``rule_z(level0[i], level1[i])`` per leaf ``z`` and pair ``i``, shape (leaves, pairs)."""
    rules = [numbering.leaf_rules[z] for z in leaves]
    out = np.empty((len(leaves), len(level0)))
    for row, rule in enumerate(rules):
        if isinstance(rule, Constant):
            out[row] = float(rule.payoff)
        elif isinstance(rule, Sign):
            out[row] = float(rule.stake) * np.sign(level0 - level1)
        else:
            reached = level0 + level1 >= rule.quantity
            out[row] = np.where(reached, float(rule.if_reached), float(rule.otherwise))
    return out


def build_structured_lp(game: StructuredGame) -> SparsifiedLP:
    """The sparsified LP of the module docstring, with ``O(|Z| H + S_0 + S_1)`` non-zeros.

    Columns: ``x`` (player 0's game sequences), ``q`` (root, then player 1's information
    sets), then the auxiliary sums; rows: ``E x = e``, the payoff rows ``Fᵀ q − Aᵀ x <= 0``
    (player 1's sequences, in order), then the definitions of the sums (``= 0``).
    """
    first, second = structured_tables(game)
    E, e = constraint_matrix(first)
    F, _ = constraint_matrix(second)
    n_x, n_q, n_y = first.num_sequences, F.shape[0], second.num_sequences
    payoff_base = E.shape[0]
    builder = _Builder(game, payoff_base, n_x + n_q)
    for family in _families(game, builder.numbering):
        builder.family(family)
    columns = builder.next_column
    definition_base = payoff_base + n_y
    rows = definition_base + builder.next_row
    payoff = builder.payoff.matrix((rows, columns))
    definitions = builder.definitions.matrix((builder.next_row, columns))
    definitions = sp.coo_array(
        (definitions.data, (definitions.row + definition_base, definitions.col)),
        shape=(rows, columns),
    )
    E_part = sp.coo_array(E)
    F_part = sp.coo_array(F.T)
    blocks = sp.coo_array(
        (
            np.concatenate([E_part.data, F_part.data]),
            (
                np.concatenate([E_part.row, F_part.row + payoff_base]),
                np.concatenate([E_part.col, F_part.col + n_x]),
            ),
        ),
        shape=(rows, columns),
    )
    matrix = sp.csc_array(blocks + payoff + definitions)
    lower = np.concatenate([e, np.full(n_y, -np.inf), np.zeros(builder.next_row)])
    upper = np.concatenate([e, np.zeros(n_y), np.zeros(builder.next_row)])
    col_lower = np.full(columns, -np.inf)
    col_lower[:n_x] = 0.0
    return SparsifiedLP(
        matrix=matrix,
        row_lower=lower,
        row_upper=upper,
        col_lower=col_lower,
        objective=n_x,
        x_columns=slice(0, n_x),
        payoff_rows=slice(payoff_base, payoff_base + n_y),
        scale=float(builder.scale),
        payoff_nonzeros=int(payoff.nnz + definitions.nnz),
        auxiliaries=columns - n_x - n_q,
    )
