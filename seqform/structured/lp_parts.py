"""The pieces :mod:`seqform.structured.lp_model` assembles its LP from: the blocked chain
of prefix sums over levels, the triplets of a block of rows, and a leaf's payoff rule read
on levels (:func:`aggregate_rule` as slots of the chain, :func:`rule_values` pair by pair), in
floats or Fractions, and the power of two the payoffs are divided by (:func:`payoff_unit`).

Why the chain is blocked: a chain of ``L`` equalities ``P_m = P_{m-1} + u_{m-1}`` has a
condition that grows with ``L`` (interior-point methods returned wrong values at
``L = 5·10^4``), so above :data:`UNBLOCKED_LEVELS` levels it is cut into blocks of
``~sqrt(L)`` (see the module docstring of :mod:`seqform.structured.lp_model`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import scipy.sparse as sp

from seqform.game.public.numbering import PublicNumbering
from seqform.game.public.tree import Constant, PayoffRule, Sign
from seqform.lp.minmax import payoff_normaliser

__all__ = [
    "UNBLOCKED_LEVELS",
    "Chain",
    "Entries",
    "Triplets",
    "aggregate_rule",
    "exact_value",
    "level_chain",
    "numbers",
    "payoff_unit",
    "rule_values",
]

UNBLOCKED_LEVELS = 64
"""Chains of prefix sums up to this many levels are written unblocked."""


def numbers(values: Iterable[Any], exact: bool) -> np.ndarray:
    """float64, or an ``object`` array of Fractions when ``exact``."""
    if not exact:
        return np.asarray([float(v) for v in values], dtype=float)
    items = [Fraction(v) for v in values]
    array = np.empty(len(items), dtype=object)
    array[:] = items
    return array


_SMALL = {value: Fraction(value) for value in range(-2, 3)}
"""The small integers as Fractions, shared by :func:`exact_value`."""


def exact_value(value: Any) -> Fraction:
    """An exact entry: a Fraction, an integer, or an integral float (the chains' ±1);
    any other float means an inexact number slipped into the exact build.  A Fraction is
    returned as it is (immutable): copying the entries took a sixth of an exact gadget
    LP's CPU time on the 52-card Rhode Island."""
    if type(value) is Fraction:
        return value
    small = _SMALL.get(value) if type(value) in (int, float) else None
    if small is not None:  # the chains' ±1, most entries of the build
        return small
    if isinstance(value, float) and not value.is_integer():
        raise TypeError(f"inexact entry {value!r} in the exact structured LP")
    return Fraction(value)


@dataclass(frozen=True)
class Chain:
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


def level_chain(levels: int) -> Chain:
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
    return Chain(prefix, rows[keep], columns[keep], values[keep], level_row, len(own))


Triplets = tuple[np.ndarray, np.ndarray, np.ndarray]


class Entries:
    """Triplets of one block of the LP, appended array by array (float, or Fractions when
    ``exact``)."""

    def __init__(self, exact: bool) -> None:
        self.exact = exact
        self.parts: list[Triplets] = []

    def add(self, rows: np.ndarray, columns: np.ndarray, values: np.ndarray) -> None:
        """Entries ``M[rows, columns] += values`` (broadcast together), skipping columns
        -1 and zero values."""
        r, c, v = np.broadcast_arrays(rows, columns, values)
        keep = np.asarray((c >= 0) & (v != 0), dtype=bool)
        kept = v[keep].ravel()
        if self.exact:
            kept = numbers((exact_value(value) for value in kept), exact=True)
        else:
            kept = kept.astype(float)
        self.parts.append((r[keep].ravel(), c[keep].ravel(), kept))

    def triplets(self, first_row: int = 0) -> Triplets:
        """All entries, rows shifted by ``first_row``."""
        if not self.parts:
            empty = np.zeros(0, np.int64)
            return empty, empty, np.zeros(0, dtype=object if self.exact else float)
        rows, columns, values = (np.concatenate(part) for part in zip(*self.parts, strict=True))
        return rows + first_row, columns, values

    def matrix(self, shape: tuple[int, int], first_row: int = 0) -> sp.coo_array:
        """The float entries as a matrix of ``shape``, duplicates summed."""
        rows, columns, values = self.triplets(first_row)
        matrix = sp.coo_array((values.astype(float), (rows, columns)), shape=shape)
        matrix.sum_duplicates()
        return matrix


def aggregate_rule(
    numbering: PublicNumbering,
    leaves: np.ndarray,
    distinct: np.ndarray,
    level1: np.ndarray,
    chain: Chain,
    exact: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Per (leaf, hand of player 1), the rule's sum over all live hands of player 0 as at
    most five (local variable, weight) slots: shapes (leaves, hands1, 5); -1 unused.
    Weights are floats, or Fractions when ``exact``."""
    count = len(distinct)
    shape = (len(leaves), len(level1), 5)
    slots = np.full(shape, -1, dtype=np.int64)
    weights = np.zeros(shape, dtype=object if exact else float)
    rules = [numbering.leaf_rules[z] for z in leaves]
    slots[..., 0] = chain.prefix[count, 0]
    rule = rules[0]
    if isinstance(rule, Constant):
        weights[..., 0] = numbers((r.payoff for r in rules), exact)[:, None]
    elif isinstance(rule, Sign):
        stake = numbers((r.stake for r in rules), exact)[:, None, None]
        below = np.searchsorted(distinct, level1, side="left")
        upto = np.searchsorted(distinct, level1, side="right")
        slots[..., 1:3] = chain.prefix[below]
        slots[..., 3:5] = chain.prefix[upto]
        weights[...] = stake * np.asarray([1, -1, -1, -1, -1], dtype=weights.dtype)
    else:
        reached = numbers((r.if_reached for r in rules), exact)[:, None]
        otherwise = numbers((r.otherwise for r in rules), exact)[:, None]
        quantity = np.asarray([r.quantity for r in rules])[:, None]
        needed = np.searchsorted(distinct, quantity - level1[None, :], side="left")
        slots[..., 1:3] = chain.prefix[needed]
        weights[..., 0] = reached
        weights[..., 1:3] = -(reached - otherwise)[..., None]
    weights[slots < 0] = 0
    return slots, weights


def rule_values(
    numbering: PublicNumbering,
    leaves: np.ndarray,
    level0: np.ndarray,
    level1: np.ndarray,
    exact: bool = False,
) -> np.ndarray:
    """``rule_z(level0[i], level1[i])`` per leaf ``z`` and pair ``i``, shape (leaves, pairs);
    Fractions when ``exact``."""
    rules = [numbering.leaf_rules[z] for z in leaves]
    dtype = object if exact else float
    out = np.empty((len(leaves), len(level0)), dtype=dtype)
    for row, rule in enumerate(rules):
        if isinstance(rule, Constant):
            out[row] = numbers([rule.payoff], exact)[0]
        elif isinstance(rule, Sign):
            (stake,) = numbers([rule.stake], exact)
            out[row] = stake * np.sign(level0 - level1).astype(dtype)
        else:
            reached = level0 + level1 >= rule.quantity
            high, low = numbers([rule.if_reached, rule.otherwise], exact)
            out[row] = np.where(reached, high, low)
    return out


def payoff_unit(rules: Iterable[PayoffRule]) -> Fraction:
    """The power of two the structured LP divides the payoffs of ``rules`` by: the one
    :func:`~seqform.lp.minmax.payoff_normaliser` divides a payoff matrix with these
    entries by (1 for the usual games; else the largest ``|payoff|`` is brought into
    ``[1, 2)``).

    The LP's coefficients are the payoffs times the chance of the deal and of the public
    cards, which the LP's ``scale`` already brings near ``1 / H``; its solvers' tolerances
    are absolute (Clarabel's and HiGHS's), so the same game in other units was a different
    LP to them: ``rhode_island`` with ante 5·10^8 stopped Clarabel with a numerical error
    and with ante 5·10^9 HiGHS called the LP unbounded.  A power of two changes no digit
    of a float and keeps the exact LP exact.
    """
    payoffs = [
        abs(float(value))
        for rule in rules
        for value in (
            (rule.payoff,)
            if isinstance(rule, Constant)
            else (rule.stake,)
            if isinstance(rule, Sign)
            else (rule.if_reached, rule.otherwise)
        )
    ]
    return Fraction(payoff_normaliser(sp.csr_array(np.asarray([payoffs], dtype=float))))
