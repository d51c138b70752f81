"""How long a hold'em spot's LP would take, judged before it is built: a spot whose LP will
not finish in minutes is refused with the estimate and the way out, instead of running for
hours in silence.

The LP's size is counted from the public tree (:func:`~seqform.structured.lp_size.
estimate_lp_size`: its variables exactly, its non-zeros from above).  A spot's LP is dense
(its showdowns sum many hands by level) and its interior point's time grows faster than its
size; beyond :data:`SPOT_LP_VARIABLES` variables the solve is refused, pointing to vector
CFR (``seqform iterate SPOT --method structured --algorithm cfr+``), unless forced.  Only
games with two-card hands (hold'em spots) are judged: the built-in games' LPs are sparser
and still solve quickly far beyond the limit (the measurements are in
``benchmarks/results/measurements.md``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from seqform.base.limits import LIMITS
from seqform.game.public.tree import StructuredGame

if TYPE_CHECKING:
    from seqform.structured.lp_size import LPSize

__all__ = ["SPOT_LP_VARIABLES", "LPWorkRefusedError", "refuse_slow_lp"]

SPOT_LP_VARIABLES = LIMITS.spot_lp_variables  # why: seqform.base.limits


class LPWorkRefusedError(ValueError):
    """The LP would take too long to be worth starting; the message has the estimate and
    the way out (vector CFR, or ``force``)."""


def refuse_slow_lp(game: StructuredGame, shown: str | None = None) -> LPSize | None:
    """Refuse, before building it, the LP of a hold'em spot (two-card hands) whose size
    (:func:`~seqform.structured.lp_size.estimate_lp_size`) exceeds
    :data:`SPOT_LP_VARIABLES`, naming the estimate and vector CFR as the way out; the size
    when it was estimated (a spot), else None.

    Raises
    ------
    LPWorkRefusedError
        With the estimate, the limit and the commands that run instead.
    """
    # Imported here: lp_size reads the LP's chain rules from lp_parts, which loads
    # scipy.sparse, and the route policy (this module's importer) is on the CLI's start-up
    # path, which loads numpy only (tests/test_startup.py).
    from seqform.structured.lp_size import estimate_lp_size

    if any(hands.card_matrix.shape[1] != 2 for hands in game.hands):
        return None
    size = estimate_lp_size(game)
    if size.variables <= SPOT_LP_VARIABLES:
        return size
    name = shown or game.name
    raise LPWorkRefusedError(
        f"{name}: the spot's LP would have {size.variables:,} variables and up to "
        f"{size.nonzeros:,} non-zeros (counted before building it), more than the "
        f"{SPOT_LP_VARIABLES:,} variables it solves in minutes (a full-range river: 66,562, "
        "about a minute on 2 cores; a turn does not finish); run vector CFR instead, "
        f"'seqform iterate {name} --method structured --algorithm cfr+' (0.1% of the pot on "
        "a full-range turn in about 9 minutes), or --force (force=True) to solve the LP "
        "anyway"
    )
