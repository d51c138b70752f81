"""The sequence form of a two-player zero-sum game (Koller, Megiddo and von Stengel 1996).

A *sequence* of player ``i`` is the list of ``i``'s own (information set, action) choices
on the path to a node; with perfect recall it is named by its last choice, so player
``i`` has ``1 + sum_h |A(h)|`` sequences (the empty one plus one per action). A
*realization plan* ``x`` gives each sequence the probability that the player's own choices
follow it.  It is characterised by linear constraints (KMvS 1996, eq. 8):

    E x = e,  x >= 0,

where row 0 of ``E`` says ``x[empty] = 1`` and row ``1 + h`` says that the sequences
extending information set ``h`` sum to the sequence leading to it:
``sum_a x[h,a] - x[parent(h)] = 0``.  So ``e = (1, 0, ..., 0)``.  Likewise ``F y = f``
for player 1.  The payoff matrix ``A`` (eq. 9) has, for each pair of sequences
``(s, t)``, the sum over terminal nodes ``z`` reached by ``s`` and ``t`` of the chance
probability of ``z`` times player 0's payoff there; then ``x @ A @ y`` is player 0's
expected payoff.

Ordering of sequences
---------------------
Index 0 is the empty sequence.  The tree is walked depth first, children in order; the
first time a walk meets an information set of player ``i``, the information set receives
the next information-set index of ``i`` and its actions receive the next
``len(actions)`` consecutive sequence indices, in action order.  So the sequence leading
to an information set always has a smaller index than the information set's own
sequences, and information set ``h`` owns sequences
``first_sequence[h] : first_sequence[h] + len(actions[h])``.

The numbering is made by the one walk of the tree in :func:`seqform.game.compiled.compile_tree`;
this module only turns its arrays into matrices.

Sparse throughout: ``E``, ``F`` and ``A`` are ``scipy.sparse.csr_array``.  ``A`` sums, in
floats, each terminal's float chance probability (of the exact product) times its payoff;
``payoff_entries`` gives the same entries in exact arithmetic, computed on first use.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cached_property

import numpy as np
import scipy.sparse as sp

from seqform.base.numbers import float_of
from seqform.game.model import Game
from seqform.game.requirements import number_text, require_two_player_zero_sum
from seqform.game.sequences import EMPTY, PlayerSequences

__all__ = [
    "EMPTY",
    "FLOAT_LP_LARGEST",
    "FLOAT_LP_NORMAL_HIGH",
    "FLOAT_LP_SMALLEST",
    "PlayerSequences",
    "SequenceForm",
    "build_sequence_form",
    "constraint_matrix",
]

FLOAT_LP_LARGEST = 2**40
"""Payoff-matrix entries from here up are scaled down for a float LP of the exact route."""

FLOAT_LP_NORMAL_HIGH = 2**20
"""From this largest payoff-matrix entry on, :meth:`SequenceForm.normalised_for_floats`
scales ``A`` down to ``[1, 2)``."""

FLOAT_LP_SMALLEST = Fraction(1, 16)
"""Payoff matrices whose entries are all below this are scaled up for a float LP of the
exact route (the lower end of :func:`seqform.lp.minmax.payoff_normaliser`'s window)."""


@dataclass(frozen=True)
class SequenceForm:
    """Sequence form of a two-player zero-sum game (KMvS 1996, eq. 8-9).

    Realization plans satisfy ``E @ x == e`` and ``F @ y == f`` with ``x, y >= 0``;
    player 0 expects ``x @ A @ y``.

    E : csr_array, shape (1 + infosets of player 0, sequences of player 0)
    F : csr_array, shape (1 + infosets of player 1, sequences of player 1)
    e, f : float arrays, ``(1, 0, ..., 0)``
    A : csr_array, shape (sequences of player 0, sequences of player 1), floats
    players : the label tables of players 0 and 1
    num_terminals : terminal nodes of the tree (histories, chance outcomes included)
    game : the game it was built from
    payoff_scale : ``A`` and ``payoff_entries`` are the game's divided by this (1 unless
        made by :meth:`scaled_for_floats`)
    """

    E: sp.csr_array
    e: np.ndarray
    F: sp.csr_array
    f: np.ndarray
    A: sp.csr_array
    players: tuple[PlayerSequences, PlayerSequences]
    num_terminals: int
    game: Game
    payoff_scale: Fraction = Fraction(1)

    def constraints(self, player: int) -> tuple[sp.csr_array, np.ndarray]:
        """``(E, e)`` for player 0, ``(F, f)`` for player 1."""
        return (self.E, self.e) if player == 0 else (self.F, self.f)

    @cached_property
    def payoff_entries(self) -> tuple[np.ndarray, np.ndarray, tuple[Fraction, ...]]:
        """The non-zero entries of ``A`` in exact arithmetic: rows, columns, Fractions.

        Entry ``(s, t)`` is the exact sum over terminals ``z`` reached by ``s`` and ``t`` of
        chance probability × player 0's payoff (KMvS 1996, eq. 9).
        """
        flat = self.game.flat
        rows, cols = flat.terminal_sequences
        sums: dict[tuple[int, int], Fraction] = {}
        for row, col, reach, payoff in zip(
            rows.tolist(),
            cols.tolist(),
            flat.terminal_reach_exact,
            flat.terminal_payoff_exact,
            strict=True,
        ):
            if reach and payoff:
                key = (row, col)
                sums[key] = sums.get(key, 0) + reach * payoff
        scale = self.payoff_scale
        kept = sorted((key, Fraction(value) / scale) for key, value in sums.items() if value != 0)
        return (
            np.fromiter((key[0] for key, _ in kept), dtype=np.int64, count=len(kept)),
            np.fromiter((key[1] for key, _ in kept), dtype=np.int64, count=len(kept)),
            tuple(value for _, value in kept),
        )

    def scaled_for_floats(self) -> SequenceForm:
        """This form with ``A`` divided by a power of two ``s`` when an entry is too large
        for a float LP (:data:`FLOAT_LP_LARGEST`, ``2**40``, or more) or every entry too
        small (below :data:`FLOAT_LP_SMALLEST`, then brought to ``[1, 2)``: HiGHS's
        tolerances are absolute, so a game in millionths was solved to a point its
        certificate refused); else this form.

        ``s`` brings the largest entry just below ``2**40``, well inside HiGHS's range (it
        refuses entries of ``1e15`` or more and drops those below ``1e-9``), so the small
        entries keep as many digits as the float LP can use.  The LP of ``A / s`` has the
        same optimal plans and optimal bases as that of ``A`` (its value and its best-reply
        variables ``q`` are divided by ``s``), so the exact route solves the scaled LP in
        floats, re-solves its basis exactly and certifies the plans on the game itself.
        """
        exact = self.payoff_entries[2]
        largest = max((abs(value) for value in exact), default=Fraction(0))
        if largest == 0 or FLOAT_LP_SMALLEST <= largest < FLOAT_LP_LARGEST:
            return self
        if largest < FLOAT_LP_SMALLEST:  # up to [1, 2): HiGHS's tolerances are absolute
            scale = Fraction(1)
            while largest / scale < 1:
                scale /= 2
        else:
            exponent = largest.numerator.bit_length() - largest.denominator.bit_length() - 39
            scale = Fraction(2) ** exponent
        while largest / scale >= FLOAT_LP_LARGEST:
            scale *= 2
        return self._divided(scale)

    def normalised_for_floats(self) -> SequenceForm:
        """This form with ``A`` divided by the power of two that brings its largest entry
        into ``[1, 2)`` when that entry is below :data:`FLOAT_LP_SMALLEST` or from
        :data:`FLOAT_LP_NORMAL_HIGH` on; else this form.

        For float LPs that compare a value with HiGHS's absolute tolerances (the faces of
        :mod:`seqform.questions.ranges`, whose value row is met within ``1e-7``): at payoffs
        of ``1e-9`` every plan met it, at ``1e9`` the value's round-off did not.  The
        window is :func:`seqform.lp.minmax.payoff_normaliser`'s.
        """
        exact = self.payoff_entries[2]
        largest = max((abs(value) for value in exact), default=Fraction(0))
        if largest == 0 or FLOAT_LP_SMALLEST <= largest < FLOAT_LP_NORMAL_HIGH:
            return self
        scale = Fraction(2) ** (largest.numerator.bit_length() - largest.denominator.bit_length())
        while largest / scale >= 2:
            scale *= 2
        while largest / scale < 1:
            scale /= 2
        return self._divided(scale)

    def _divided(self, scale: Fraction) -> SequenceForm:
        """This form with ``A`` divided by ``scale`` (exactly; a power of two keeps every
        digit of the floats)."""
        rows, cols, exact = self.payoff_entries
        scaled = tuple(value / scale for value in exact)
        data = np.fromiter((float(value) for value in scaled), dtype=float, count=len(scaled))
        A = sp.csr_array((data, (rows, cols)), shape=self.A.shape)
        form = replace(self, A=A, payoff_scale=self.payoff_scale * scale)
        form.__dict__["payoff_entries"] = (rows, cols, scaled)
        return form

    def unscaled(self, value: float) -> float:
        """A float optimum of this form's LP in the game's payoffs (``±inf`` beyond the
        floats)."""
        if self.payoff_scale == 1:
            return value
        return float_of(Fraction(value) * self.payoff_scale)

    def scaling_note(self) -> str:
        """Why the LP of a scaled form may have lost the small payoffs: HiGHS drops entries
        below 1e-9 once the largest is scaled to about 1e12."""
        smallest = min((abs(value) for value in self.payoff_entries[2]), default=Fraction(0))
        return (
            f"the payoffs were divided by {number_text(self.payoff_scale)} for the float LP, "
            f"leaving entries as small as {number_text(smallest)}; HiGHS ignores entries "
            "below 1e-9, so payoffs spanning more than about 21 orders of magnitude lose "
            "the small ones"
        )


def constraint_matrix(table: PlayerSequences) -> tuple[sp.csr_array, np.ndarray]:
    """``E`` and ``e`` of KMvS eq. 8 for one player (see the module docstring).

    Row 0 is ``x[empty] = 1``; row ``1 + h`` is ``sum_a x[h, a] - x[parent(h)] = 0``.
    """
    sequences = np.arange(1, table.num_sequences)
    infosets = np.arange(table.num_infosets)
    rows = np.concatenate([[0], infosets + 1, table.sequence_infoset[1:] + 1])
    cols = np.concatenate([[EMPTY], table.parent_sequence, sequences])
    vals = np.concatenate([[1.0], -np.ones(table.num_infosets), np.ones(table.num_sequences - 1)])
    shape = (table.num_infosets + 1, table.num_sequences)
    matrix = sp.csr_array((vals, (rows, cols)), shape=shape)
    rhs = np.zeros(shape[0])
    rhs[0] = 1.0
    return matrix, rhs


def build_sequence_form(game: Game) -> SequenceForm:
    """Build ``E, e, F, f, A`` (KMvS 1996, eq. 8-9) from the game's compiled tree.

    Parameters
    ----------
    game
        A validated game; its tree was numbered by :func:`seqform.game.compiled.compile_tree`.

    Returns
    -------
    SequenceForm
        Sparse matrices and the label tables; see the module docstring for the ordering.

    Raises
    ------
    InvalidGameError
        If the game is not two-player zero-sum (the message names a terminal node).
    """
    require_two_player_zero_sum(game, "the sequence-form LP")
    flat = game.flat
    players = (flat.tables[0], flat.tables[1])
    E, e = constraint_matrix(players[0])
    F, f = constraint_matrix(players[1])
    rows, cols = flat.terminal_sequences
    values = flat.terminal_reach * flat.terminal_payoff
    shape = (players[0].num_sequences, players[1].num_sequences)
    A = sp.coo_array((values, (rows, cols)), shape=shape).tocsr()  # sums duplicates
    A.eliminate_zeros()
    return SequenceForm(
        E=E, e=e, F=F, f=f, A=A, players=players, num_terminals=len(flat.terminals), game=game
    )
