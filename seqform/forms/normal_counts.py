"""Exact counts of pure and reduced pure strategies, without enumerating them.

A *pure strategy* of player ``i`` picks one action at every information set of ``i``, so
player ``i`` has ``prod_h |A(h)|`` of them.  Its realization plan (KMvS 1996, §3) is 0/1 on
the player's sequences.  Pure strategies that differ only at information sets their own
earlier actions exclude have the same plan, hence the same payoff against everything;
merging them gives the *reduced* normal form, whose strategies are exactly the distinct 0/1
plans.  Their number is a recursion over the player's information-set tree:

    R(s) = prod over information sets h entered from sequence s of  sum_a R(h, a),

with ``R(s) = 1`` for a sequence after which the player never moves again; the reduced
count is ``R(empty)``.  Both counts are exact Python integers, so that Leduc's (about
``10^168`` per player) are printed exactly or as ``10^k`` (:func:`count_text`).

Size limit
----------
Nothing is enumerated before the counts are checked against ``max_entries`` (default
``10**7`` payoff entries): Leduc-sized normal forms are refused at once by
:class:`NormalFormTooLargeError`, a ``ValueError`` that states the size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# The one way a count is written (seqform.base.numbers); re-exported here for callers of old.
from seqform.base.counts import (
    EXACT_DIGITS,
    JSON_EXACT_DIGITS,
    count_json,
    count_log10,
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


def count_pure_strategies(table: PlayerSequences) -> int:
    """The number of pure strategies, ``prod_h |A(h)|``, exactly.

    Parameters
    ----------
    table
        One player's sequence table (:class:`~seqform.forms.sequence_form.PlayerSequences`).
    """
    return math.prod(len(actions) for actions in table.actions)


def count_reduced_strategies(table: PlayerSequences) -> int:
    """The number of reduced pure strategies (distinct 0/1 realization plans), exactly.

    The recursion ``R(s) = prod_{h after s} sum_a R(h, a)`` of the module docstring, run
    bottom up: an information set is indexed after the one its parent sequence belongs to
    (see :mod:`seqform.forms.sequence_form`), so the reverse index order meets children first.
    """
    ways = [1] * table.num_sequences
    for infoset in reversed(range(table.num_infosets)):
        total = sum(ways[sequence] for sequence in table.sequences_of(infoset))
        ways[int(table.parent_sequence[infoset])] *= total
    return ways[0]


@dataclass(frozen=True)
class StrategyCounts:
    """Exact pure-strategy counts of both players.

    pure : per player, the number of pure strategies
    reduced : per player, the number of reduced pure strategies
    """

    pure: tuple[int, int]
    reduced: tuple[int, int]

    @property
    def profiles(self) -> int:
        """Pure strategy profiles, the entries of the full normal-form matrix."""
        return self.pure[0] * self.pure[1]

    @property
    def reduced_profiles(self) -> int:
        """Entries of the reduced normal-form matrix."""
        return self.reduced[0] * self.reduced[1]

    def shape(self, reduced: bool) -> tuple[int, int]:
        """The normal-form matrix shape, full or reduced."""
        return self.reduced if reduced else self.pure

    def entries(self, reduced: bool) -> int:
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
) -> int:
    """Return the number of matrix entries, or refuse if it exceeds ``max_entries``.

    Raises
    ------
    NormalFormTooLargeError
        If ``rows × columns > max_entries``; the message states the size.
    """
    rows, columns = counts.shape(reduced)
    entries = rows * columns
    if entries > max_entries:
        kind = "reduced normal form" if reduced else "normal form"
        sizes = [count_text(count).removeprefix("≈ ") for count in (rows, columns, entries)]
        about = "" if is_short(entries) else "about "
        raise NormalFormTooLargeError(
            f"the {kind} is too large: {sizes[0]} × {sizes[1]} pure strategies = {about}"
            f"{sizes[2]} payoff entries, more than the limit of {count_text(max_entries)}"
        )
    return entries
