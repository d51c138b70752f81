"""Exact counts of pure and reduced pure strategies, without enumerating them.

A *pure strategy* of player ``i`` picks one action at every information set of ``i``, so
player ``i`` has ``prod_h |A(h)|`` of them.  Its realization plan (KMvS 1996, §3) is 0/1 on
the player's sequences.  Pure strategies that differ only at information sets their own
earlier actions exclude have the same plan, hence the same payoff against everything;
merging them gives the *reduced* normal form, whose strategies are exactly the distinct 0/1
plans.  Their number is a recursion over the player's information-set tree:

    R(s) = prod over information sets h entered from sequence s of  sum_a R(h, a),

with ``R(s) = 1`` for a sequence after which the player never moves again; the reduced
count is ``R(empty)``.  Both counts are exact Python integers up to
:data:`JSON_EXACT_DIGITS` digits (Leduc's, about ``10^168`` per player, printed exactly or as
``10^k`` by :func:`count_text`), and beyond them known by their logarithm
(:class:`~seqform.base.counts.LogCount`), whose digits would take time quadratic in their
number to compute.

Size limit
----------
Nothing is enumerated before the counts are checked against ``max_entries`` (default
``10**7`` payoff entries): Leduc-sized normal forms are refused at once by
:class:`NormalFormTooLargeError`, a ``ValueError`` that states the size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# The one way a count is written (seqform.base.numbers); re-exported here for callers of old.
from seqform.base.counts import (
    EXACT_DIGITS,
    JSON_EXACT_DIGITS,
    Count,
    LogCount,
    count_at_most,
    count_json,
    count_log10,
    count_product,
    count_text,
    is_short,
)
from seqform.base.limits import LIMITS
from seqform.forms.sequence_form import SequenceForm
from seqform.game.sequences import PlayerSequences

__all__ = [
    "DEFAULT_MAX_ENTRIES",
    "EXACT_DIGITS",
    "JSON_EXACT_DIGITS",
    "NormalFormTooLargeError",
    "StrategyCounts",
    "check_normal_form_size",
    "count_json",
    "count_log10",
    "count_pure_strategies",
    "count_reduced_strategies",
    "count_text",
    "is_short",
    "strategy_counts",
]

DEFAULT_MAX_ENTRIES = LIMITS.normal_form_entries  # why: seqform.base.limits


class NormalFormTooLargeError(ValueError):
    """The normal form would exceed the size limit; the message gives its size."""


def count_pure_strategies(table: PlayerSequences) -> Count:
    """The number of pure strategies, ``prod_h |A(h)|``: exact while it has fewer than
    :data:`JSON_EXACT_DIGITS` digits, else a :class:`~seqform.base.counts.LogCount` (the sum
    of the sets' ``log10 |A(h)|``), since every text and JSON writes a larger count by its
    logarithm and the exact product of millions of factors takes time quadratic in its
    digits (a 20-million-sequence flop: over a minute).

    Parameters
    ----------
    table
        One player's sequence table (:class:`~seqform.forms.sequence_form.PlayerSequences`).
    """
    actions = table.action_counts()
    log10 = float(np.log10(actions).sum()) if len(actions) else 0.0
    if log10 < JSON_EXACT_DIGITS:
        return math.prod(actions.tolist())
    return LogCount(log10)


def count_reduced_strategies(table: PlayerSequences) -> Count:
    """The number of reduced pure strategies (distinct 0/1 realization plans): exact while
    it has fewer than :data:`JSON_EXACT_DIGITS` digits, else a
    :class:`~seqform.base.counts.LogCount`.

    The recursion ``R(s) = prod_{h after s} sum_a R(h, a)`` of the module docstring, run
    bottom up in logarithms (:func:`_log10_reduced`); where the count is short it is run
    again in exact integers: an information set is indexed after the one its parent
    sequence belongs to (see :mod:`seqform.forms.sequence_form`), so the reverse index
    order meets children first, and every ``R(s)`` is at most the count.
    """
    log10 = _log10_reduced(table)
    if log10 >= JSON_EXACT_DIGITS:
        return LogCount(log10)
    ways = [1] * table.num_sequences
    for infoset in reversed(range(table.num_infosets)):
        total = sum(ways[sequence] for sequence in table.sequences_of(infoset))
        ways[int(table.parent_sequence[infoset])] *= total
    return ways[0]


def _log10_reduced(table: PlayerSequences) -> float:
    """``log10 R(empty)``: the recursion over the sets by depth, deepest first, with each
    set's ``log10 sum_a R(h, a)`` summed stably (its largest term factored out)."""
    log_ways = np.zeros(table.num_sequences)
    if table.num_infosets == 0:
        return 0.0
    depths = table.infoset_depths()
    first = table.first_sequence.astype(np.int64)
    counts = table.action_counts()
    for depth in range(int(depths.max()), -1, -1):
        infosets = np.flatnonzero(depths == depth)
        sizes = counts[infosets]
        bounds = np.cumsum(sizes) - sizes  # each set's first term among ``terms``
        sequences = np.repeat(first[infosets] - bounds, sizes) + np.arange(int(sizes.sum()))
        terms = log_ways[sequences]
        largest = np.maximum.reduceat(terms, bounds)
        spread = np.add.reduceat(10.0 ** (terms - np.repeat(largest, sizes)), bounds)
        parents = table.parent_sequence[infosets].astype(np.int64)
        np.add.at(log_ways, parents, largest + np.log10(spread))
    return float(log_ways[0])


@dataclass(frozen=True)
class StrategyCounts:
    """Pure-strategy counts of both players, exact up to :data:`JSON_EXACT_DIGITS` digits
    (:func:`count_pure_strategies`).

    pure : per player, the number of pure strategies
    reduced : per player, the number of reduced pure strategies
    """

    pure: tuple[Count, Count]
    reduced: tuple[Count, Count]

    @property
    def profiles(self) -> Count:
        """Pure strategy profiles, the entries of the full normal-form matrix."""
        return count_product(*self.pure)

    @property
    def reduced_profiles(self) -> Count:
        """Entries of the reduced normal-form matrix."""
        return count_product(*self.reduced)

    def shape(self, reduced: bool) -> tuple[Count, Count]:
        """The normal-form matrix shape, full or reduced."""
        return self.reduced if reduced else self.pure

    def entries(self, reduced: bool) -> Count:
        """The normal-form matrix entries, full or reduced."""
        return self.reduced_profiles if reduced else self.profiles


def strategy_counts(form: SequenceForm) -> StrategyCounts:
    """Count both players' pure and reduced pure strategies without enumerating them."""
    return StrategyCounts(
        pure=(count_pure_strategies(form.players[0]), count_pure_strategies(form.players[1])),
        reduced=(
            count_reduced_strategies(form.players[0]),
            count_reduced_strategies(form.players[1]),
        ),
    )


def check_normal_form_size(
    counts: StrategyCounts, *, reduced: bool = False, max_entries: int = DEFAULT_MAX_ENTRIES
) -> Count:
    """Return the number of matrix entries, or refuse if it exceeds ``max_entries``.

    Raises
    ------
    NormalFormTooLargeError
        If ``rows × columns > max_entries``; the message states the size.
    """
    rows, columns = counts.shape(reduced)
    entries = count_product(rows, columns)
    if not count_at_most(entries, max_entries):
        kind = "reduced normal form" if reduced else "normal form"
        sizes = [count_text(count).removeprefix("≈ ") for count in (rows, columns, entries)]
        about = "" if is_short(entries) else "about "
        raise NormalFormTooLargeError(
            f"the {kind} is too large: {sizes[0]} × {sizes[1]} pure strategies = {about}"
            f"{sizes[2]} payoff entries, more than the limit of {count_text(max_entries)}"
        )
    return entries
