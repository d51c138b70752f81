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

DEFAULT_MAX_ENTRIES = 10**7
EXACT_DIGITS = 30  # counts with more digits are printed as 10^k
JSON_EXACT_DIGITS = 1000  # counts with more digits have no "exact" string in JSON


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


def count_log10(count: int) -> float:
    """``log10(count)`` for an arbitrarily large positive integer (0 gives ``-inf``)."""
    return math.log10(count) if count > 0 else float("-inf")


def is_short(count: int, max_digits: int = EXACT_DIGITS) -> bool:
    """Whether ``count`` has at most ``max_digits`` digits (never converts it to a string,
    which Python refuses above 4 300 digits)."""
    return abs(count) < 10**max_digits


def count_text(count: int, max_digits: int = EXACT_DIGITS) -> str:
    """Any count, however large: exact with thousands separated by commas (``"4,096"``), or
    ``"≈ 10^190.3"`` when it has more than ``max_digits`` digits.

    The one format of a count in every output (the CLI reaches it through
    :mod:`seqform.cli.render.numbers`); it never writes the digits of a huge integer, so
    Leduc with 13 ranks (about ``10^6000`` pure strategy profiles) prints like Kuhn.

    Parameters
    ----------
    count
        A non-negative integer.
    max_digits
        Counts with more digits than this are written as a power of ten.
    """
    if not is_short(count, max_digits):
        return f"≈ 10^{count_log10(count):.1f}"
    return f"{count:,}"


def count_json(count: int) -> dict[str, str | float | None]:
    """A count for JSON: ``{"exact": str | null, "log10": float}``.

    ``"exact"`` is the integer's digits as a string, or ``null`` when it has more than
    :data:`JSON_EXACT_DIGITS` digits; ``"log10"`` is always given.
    """
    exact = str(count) if is_short(count, JSON_EXACT_DIGITS) else None
    return {"exact": exact, "log10": count_log10(count)}


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
