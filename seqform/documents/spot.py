"""A hold'em spot in documents: the ``"spot"`` object of ``seqform.structured/2`` (``solve
SPOT.toml``) and the main action frequencies, which ``seqform.solve-many/2`` writes for each
spot too (:mod:`seqform.documents.many`)::

    "spot": {"pot": float, "combos": [int, int],
             "ev": {"oop": float, "ip": float}, "ev_share": {"oop": float, "ip": float},
             "exploitability": float, "exploitability_pot": float,
             "frequencies": [{"player": "OOP" | "IP", "history": str,
                              "actions": {str: float}}],
             "opening_grid": {"player": "OOP", "history": "", "actions": [str],
                              "frequency": [[float | null] × 13] × 13}}

``"opening_grid"`` is OOP's first decision as the grid of hand classes (rows and columns
A to 2; pairs on the diagonal, suited above, offsuit below): each class's share taking
``"actions"`` (every bet), ``null`` for a class not in the range; ``solve-many`` does not
write it.

Conventions (EV in chips, exploitability as NashConv / 2, shares of the pot as fractions)
are :mod:`seqform.holdem.report`'s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from seqform.holdem import WHO, ActionFrequencies, ClassGrid, SpotSummary

__all__ = ["frequencies_json", "grid_json", "spot_json"]


def frequencies_json(frequencies: Sequence[ActionFrequencies]) -> list[dict[str, Any]]:
    """The ``"frequencies"`` list: per decision, the player, where, each action's share."""
    return [
        {
            "player": WHO[found.player],
            "history": found.history,
            "actions": dict(zip(found.actions, found.frequencies, strict=True)),
        }
        for found in frequencies
    ]


def grid_json(grid: ClassGrid) -> dict[str, Any]:
    """The ``"opening_grid"`` object: the decision, the actions and the 13 × 13 shares."""
    return {
        "player": WHO[grid.player],
        "history": grid.history,
        "actions": list(grid.actions),
        "frequency": [
            [None if math.isnan(value) else float(value) for value in row] for row in grid.frequency
        ],
    }


def spot_json(summary: SpotSummary) -> dict[str, Any]:
    """The ``"spot"`` object: EVs, shares, exploitability, main action frequencies and,
    when the summary has it, OOP's opening grid."""
    found = {
        "pot": summary.pot,
        "combos": list(summary.combos),
        "ev": {"oop": summary.oop_ev, "ip": summary.ip_ev},
        "ev_share": {"oop": summary.share(0), "ip": summary.share(1)},
        "exploitability": summary.exploitability,
        "exploitability_pot": summary.exploitability_pot,
        "frequencies": frequencies_json(summary.frequencies),
    }
    if summary.opening is not None:
        found["opening_grid"] = grid_json(summary.opening)
    return found
