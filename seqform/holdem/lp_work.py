"""How long a hold'em spot's LP would take, judged before it is built: a spot whose LP will
not finish in minutes is refused with the estimate and the way out, instead of running for
hours in silence.

The LP's size is counted from the public tree (:func:`~seqform.structured.lp_size.
estimate_lp_size`: its variables exactly, its non-zeros from above).  A spot's LP is dense
(its showdowns sum many hands by level) and its interior point's time grows faster than its
size; beyond :data:`SPOT_LP_VARIABLES` variables the solve is refused, pointing to vector
CFR (``seqform iterate SPOT --method structured --algorithm dcfr``), unless forced.  Only
games with two-card hands (hold'em spots) are judged: the built-in games' LPs are sparser
and still solve quickly far beyond the limit (the measurements are in
``benchmarks/results/measurements.md``).

A flop is counted first without numbering it (:func:`spot_size`, one walk of the public
tree): the public numbering that the exact count and every structured solver read holds
dense tables of combos × public sequences (:data:`NUMBERING_BYTES` per entry, with its
temporaries), which on TexasSolver's benchmark flop are tens of gigabytes.  A spot whose
numbering would pass :data:`NUMBERING_COUNTED_BYTES` and whose hand-sequence pairs alone pass
the limit is refused on that count, before the numbering.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from seqform.base.limits import LIMITS
from seqform.game.public.tree import PublicChance, PublicDecision, StructuredGame

if TYPE_CHECKING:
    from seqform.structured.lp_size import LPSize

__all__ = [
    "NUMBERING_BYTES",
    "SPOT_LP_VARIABLES",
    "LPWorkRefusedError",
    "SpotSize",
    "numbering_bytes",
    "refuse_slow_lp",
    "spot_size",
]

SPOT_LP_VARIABLES = LIMITS.spot_lp_variables  # why: seqform.base.limits
NUMBERING_BYTES = 56
"""Bytes per (combo, public sequence or information set) entry of the public numbering while
it is built: its int64 index and the int64 running count and boolean mask it is made from,
with the copies numpy takes (seqform.game.public.numbering._numbered).  Measured: solving
TexasSolver's benchmark flop (444 million entries) reached 23 GB before it was killed."""

NUMBERING_COUNTED_BYTES = 2**30
"""Above this (:attr:`SpotSize.numbering_bytes`), a spot's LP is judged on the walk's count
alone; below, the exact count is cheap and gives the non-zeros too."""


@dataclass(frozen=True)
class SpotSize:
    """A spot's size, counted by one walk of its public tree (nothing numbered).

    public_decisions, public_chances, public_leaves : the public tree's nodes
    public_sequences : per player, the public tree's sequences (an action at one of its
        public decisions), the empty one not counted
    sequences, infosets : per player, the (combo, public sequence) and (combo, public
        decision) pairs whose combo holds no public card there: the game's sequences and
        information sets, exactly
    combos : per player, the combos in the range
    """

    public_decisions: int
    public_chances: int
    public_leaves: int
    public_sequences: tuple[int, int]
    sequences: tuple[int, int]
    infosets: tuple[int, int]
    combos: tuple[int, int]

    @property
    def lp_variables_at_least(self) -> int:
        """The structured LP's columns are at least player 0's sequences, player 1's
        information sets and the value (:mod:`seqform.structured.lp_size`)."""
        return self.sequences[0] + self.infosets[1] + 1

    @property
    def numbering_bytes(self) -> int:
        """The public numbering's dense tables while they are built (:func:`numbering_bytes`)."""
        return numbering_bytes(self.combos, self.public_sequences, self.public_decisions)


def numbering_bytes(
    combos: tuple[int, int], public_sequences: tuple[int, int], public_decisions: int
) -> int:
    """The public numbering's dense tables of a spot while they are built:
    :data:`NUMBERING_BYTES` per combo and public sequence or decision, both players; from
    :func:`spot_size`'s walk or, before the public tree is built, from
    :func:`seqform.holdem.game.public_counts`."""
    return NUMBERING_BYTES * sum(
        hands * (sequences + public_decisions)
        for hands, sequences in zip(combos, public_sequences, strict=True)
    )


def spot_size(game: StructuredGame) -> SpotSize:
    """:class:`SpotSize` of ``game``, in one iterative walk of the public tree, counting the
    combos without a public card under each set of public cards once.

    A chance outcome whose card is already public is not walked: the game never deals it
    (:class:`~seqform.game.public.tree.PublicChance`), and the numbering and the explicit
    tree skip it.  A spot's public tree has none; Rhode Island hold'em's lists the first
    public card again at the second, with a leaf standing for it, which the walk counted
    (32,067 public nodes on ``rhode_island(ranks=3, suits=2)``, the numbering 31,773)."""
    cards = [hands.card_matrix for hands in game.hands]
    valid: dict[frozenset[int], tuple[int, int]] = {}
    counts = {"decision": 0, "chance": 0, "leaf": 0}
    public = [0, 0]
    sequences = [0, 0]
    infosets = [0, 0]
    stack: list[tuple[object, frozenset[int]]] = [(game.root, frozenset())]
    while stack:
        node, seen = stack.pop()
        if isinstance(node, PublicDecision):
            counts["decision"] += 1
            if seen not in valid:
                shown = list(seen)
                valid[seen] = tuple(  # type: ignore[assignment]
                    int((~np.isin(held, shown).any(axis=1)).sum()) for held in cards
                )
            live = valid[seen][node.player]
            public[node.player] += len(node.actions)
            sequences[node.player] += live * len(node.actions)
            infosets[node.player] += live
            stack.extend((child, seen) for child in node.children)
        elif isinstance(node, PublicChance):
            counts["chance"] += 1
            dealt = zip(node.cards, node.children, strict=True)
            stack.extend((child, seen | {card}) for card, child in dealt if card not in seen)
        else:
            counts["leaf"] += 1
    return SpotSize(
        public_decisions=counts["decision"],
        public_chances=counts["chance"],
        public_leaves=counts["leaf"],
        public_sequences=(public[0], public[1]),
        sequences=(sequences[0], sequences[1]),
        infosets=(infosets[0], infosets[1]),
        combos=(len(game.hands[0]), len(game.hands[1])),
    )


class LPWorkRefusedError(ValueError):
    """The LP would take too long to be worth starting; the message has the estimate and
    the way out (vector CFR, or ``force``)."""


def refuse_slow_lp(
    game: StructuredGame,
    shown: str | None = None,
    counted: SpotSize | None = None,
    *,
    reduced: bool = False,
) -> LPSize | None:
    """Refuse, before building it, the LP of a hold'em spot (two-card hands) whose size
    (:func:`~seqform.structured.lp_size.estimate_lp_size`) exceeds
    :data:`SPOT_LP_VARIABLES`, naming the estimate and vector CFR as the way out; the size
    when it was estimated (a spot), else None.

    ``reduced``: the solve runs suit-reduced, so the LP sized is the one it builds, on
    canonical boards and hand classes (:func:`~seqform.structured.lp_size.
    estimate_reduced_lp_size`; the unreduced LP of a spot without suit symmetry): a
    monotone turn's LP is a fraction of the unreduced one.  The first check, of the counted
    size before numbering, stays on the unreduced spot, whose numbering it bounds.

    Raises
    ------
    LPWorkRefusedError
        With the estimate, the limit and the commands that run instead.
    """
    # Imported here: lp_size reads the LP's chain rules from lp_parts, which loads
    # scipy.sparse, and the route policy (this module's importer) is on the CLI's start-up
    # path, which loads numpy only (tests/test_startup.py).
    from seqform.structured.lp_size import estimate_lp_size, estimate_reduced_lp_size

    if any(hands.card_matrix.shape[1] != 2 for hands in game.hands):
        return None
    name = shown or game.name
    counted = spot_size(game) if counted is None else counted
    heavy = counted.numbering_bytes > NUMBERING_COUNTED_BYTES
    if heavy and counted.lp_variables_at_least > SPOT_LP_VARIABLES:
        raise LPWorkRefusedError(
            f"{name}: the spot's LP would have at least {counted.lp_variables_at_least:,} "
            f"variables ({counted.public_decisions:,} public decisions × "
            f"{counted.combos[0]:,} and {counted.combos[1]:,} combos; counted before "
            f"numbering it, which alone needs about {counted.numbering_bytes / 2**30:.1f} GB), "
            f"more than the {SPOT_LP_VARIABLES:,} variables it solves in minutes; run vector "
            f"CFR instead, 'seqform iterate {name} --method structured --algorithm dcfr', "
            "or --force (force=True) to solve the LP anyway"
        )
    smaller = estimate_reduced_lp_size(game) if reduced else None
    size = estimate_lp_size(game) if smaller is None else smaller
    if size.variables <= SPOT_LP_VARIABLES:
        return size
    suits = "" if smaller is None else " on canonical boards and hand classes"
    raise LPWorkRefusedError(
        f"{name}: the spot's LP would have {size.variables:,} variables{suits} and up to "
        f"{size.nonzeros:,} non-zeros (counted before building it), more than the "
        f"{SPOT_LP_VARIABLES:,} variables it solves in minutes (a full-range river: 66,562, "
        "about a minute on 2 cores; a turn does not finish); run vector CFR instead, "
        f"'seqform iterate {name} --method structured --algorithm dcfr' (0.1% of the pot on "
        "a full-range turn in under a minute on 2 cores), or --force (force=True) to solve "
        "the LP anyway"
    )
