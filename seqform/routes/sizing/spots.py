"""A hold'em spot's public numbering sized before it is built: the memory its dense tables
take (:func:`~seqform.holdem.lp_work.numbering_bytes`), from the walk of a built public tree
(:func:`~seqform.holdem.lp_work.spot_size`) or, for a spot file, from its betting and ranges
alone (:func:`~seqform.holdem.game.public_counts`), so that the route policy refuses a spot
that will not fit before its public tree is built (TexasSolver's benchmark flop: 2 s,
where building its public tree takes 17 s and more)."""

from __future__ import annotations

from seqform.holdem import Spot, numbering_bytes, public_counts, spot_combos
from seqform.routes.sizing.memory import BASE_BYTES, MemoryEstimate

__all__ = ["numbering_estimate", "spot_numbering_estimate"]


def numbering_estimate(
    combos: tuple[int, int], public_sequences: tuple[int, int], public_decisions: int
) -> MemoryEstimate:
    """The memory a spot's public numbering takes while it is built, with the process's
    base, described for the refusal's message."""
    return MemoryEstimate(
        BASE_BYTES + numbering_bytes(combos, public_sequences, public_decisions),
        f"the public numbering ({public_decisions:,} public decisions × {combos[0]:,} and "
        f"{combos[1]:,} combos)",
    )


def spot_numbering_estimate(spot: Spot) -> MemoryEstimate:
    """:func:`numbering_estimate` of a spot read from its file, before its public tree is
    built; the same as on the built tree's walk (tests/test_holdem_flop.py)."""
    counted = public_counts(spot)
    return numbering_estimate(spot_combos(spot), counted.sequences, counted.decisions)
