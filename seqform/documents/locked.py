"""The document of a node-locked solve (:class:`~seqform.routes.locked.LockedSolution`):
the locked game's own ``seqform.solve/2`` or ``seqform.structured/2`` document, with a
``"locks"`` object beside its keys::

    "locks": {
      "locks": ["IP@x: b30=1; hands=KK"],       # as the compact notation writes them
      "locked_players": [2], "locked_infosets": 6,
      "certificate": "...",                      # what NashConv measures here
      "unlocked": {"value": 2.58, "exploitability": 3.5e-12},
      "seats": [{"player": 1, "ev_before": 7.58, "ev_after": 7.63, "ev_change": 0.05,
                 "share_before": 0.758, "share_after": 0.763, "share_change": 0.005}, ...],
      "changes": [{"player": 1, "node": "x-b5", "actions": ["f", "c", "r25", "r30"],
                   "before": [...], "after": [...], "change": [...],
                   "reach_before": 0.27, "reach_after": 0.20}, ...]
    }

EVs are in chips on a spot (shares of the pot as fractions), else the game's payoffs; the
changes are listed largest first (:mod:`seqform.routes.locked`).
"""

from __future__ import annotations

from typing import Any

from seqform.base.numbers import json_float
from seqform.documents.build import document
from seqform.documents.registry import builds
from seqform.routes.locked import LockedSolution

__all__ = ["CERTIFICATE_NOTE", "locked_document", "locks_json"]

CERTIFICATE_NOTE = (
    "NashConv of the locked game: the locked player's best response keeps the locked "
    "behaviour and deviates only at unlocked information sets"
)


def _numbers(values: Any) -> list[Any]:
    return [json_float(float(v)) for v in values]


def locks_json(result: LockedSolution) -> dict[str, Any]:
    """The ``"locks"`` object of the module docstring."""
    seats = []
    for seat in result.seats:
        entry: dict[str, Any] = {
            "player": seat.player + 1,
            "ev_before": json_float(seat.before),
            "ev_after": json_float(seat.after),
            "ev_change": json_float(seat.change),
        }
        if seat.before_share is not None and seat.after_share is not None:
            entry["share_before"] = json_float(seat.before_share)
            entry["share_after"] = json_float(seat.after_share)
            entry["share_change"] = json_float(seat.after_share - seat.before_share)
        seats.append(entry)
    changes = []
    for change in result.changes:
        entry = {
            "player": change.player + 1,
            "node": change.node,
            "actions": list(change.actions),
            "before": _numbers(change.before),
            "after": _numbers(change.after),
            "change": _numbers(a - b for a, b in zip(change.after, change.before, strict=True)),
        }
        if change.reach_before is not None and change.reach_after is not None:
            entry["reach_before"] = json_float(change.reach_before)
            entry["reach_after"] = json_float(change.reach_after)
        changes.append(entry)
    unlocked = result.unlocked
    return {
        "locks": [lock.text() for lock in result.locks.locks],
        "locked_players": [p + 1 for p in result.locks.players()],
        "locked_infosets": result.locks.count,
        "certificate": CERTIFICATE_NOTE,
        "pot": None if result.pot is None else json_float(result.pot),
        "unlocked": {
            "value": json_float(float(unlocked.value)),
            "exploitability": json_float(float(unlocked.certificate.exploitability)),
        },
        "seats": seats,
        "changes": changes,
    }


@builds(LockedSolution)
def locked_document(result: LockedSolution) -> dict[str, Any]:
    """The locked solution's document with its ``"locks"`` object (module docstring)."""
    built = document(result.locked)
    built["locks"] = locks_json(result)
    return built
