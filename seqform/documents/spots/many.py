"""The ``seqform.solve-many/2`` document: a folder of hold'em spots solved
(:class:`~seqform.routes.many.ManySpots`), one entry per spot file.

Schema ``seqform.solve-many/2`` (``seqform/io/schemas/many.schema.json``)::

    {"schema": "seqform.solve-many/2", "directory": str, "executor": str,
     "workers": int, "seconds": float,
     "spots": [{"path": str, "board": str, "pot": float | null,
                "error": str | null, "combos": [int, int],
                "ev": {"oop": float, "ip": float} | null,
                "ev_share": {"oop": float, "ip": float} | null,
                "exploitability": float | null, "exploitability_pot": float | null,
                "frequencies": FREQUENCIES, "seconds": float,
                "aggregate": AGGREGATE | null}]}

    AGGREGATE = {"texture": {"pairing": str, "suits": str, "connectedness": str,
                             "high_card": str, "height": str, "group": str},
                 "equity": {"oop": float, "ip": float},
                 "eqr": {"oop": float | null, "ip": float | null},
                 "bet_frequency": float,
                 "actions": [{"action": str, "name": str, "size": float | null,
                              "all_in": bool, "frequency": float,
                              "ev": float | null, "ev_pot": float | null}]}

with ``FREQUENCIES`` as in the ``"spot"`` object (:mod:`seqform.documents.spots.spot`).
``"aggregate"`` is what aggregate reports show per board
(:mod:`seqform.holdem.aggregate`, :mod:`seqform.holdem.texture`): the board's texture
labels, each player's range equity and equity realisation (``EV / (equity × pot)``), the
share of OOP's range that bets at its first decision, and each action there with its
frequency and the EV of the combos taking it (in chips and as a share of the pot; null where
no combo takes it); null for a spot that failed.  Equities, EQRs, frequencies and shares are
fractions, as everywhere in the documents.
"""

from __future__ import annotations

from typing import Any

from seqform.documents.registry import builds
from seqform.documents.spots.spot import frequencies_json
from seqform.holdem import SpotAggregate
from seqform.io.documents import SOLVE_MANY
from seqform.routes.many import ManySpots, SpotRow

__all__ = ["many_document"]


def _row_json(row: SpotRow) -> dict[str, Any]:
    return {
        "path": row.path,
        "board": row.board,
        "pot": row.pot,
        "error": row.error,
        "combos": list(row.combos),
        "ev": None if row.error else {"oop": row.oop_ev, "ip": row.ip_ev},
        "ev_share": None if row.error else {"oop": row.share(0), "ip": row.share(1)},
        "exploitability": row.exploitability,
        "exploitability_pot": row.exploitability_pot,
        "frequencies": frequencies_json(row.frequencies),
        "seconds": row.seconds,
        "aggregate": None if row.aggregate is None else _aggregate_json(row.aggregate),
    }


def _aggregate_json(aggregate: SpotAggregate) -> dict[str, Any]:
    texture = aggregate.texture
    return {
        "texture": {
            "pairing": texture.pairing,
            "suits": texture.suits,
            "connectedness": texture.connectedness,
            "high_card": texture.high_card,
            "height": texture.height,
            "group": texture.group,
        },
        "equity": {"oop": aggregate.equity[0], "ip": aggregate.equity[1]},
        "eqr": {"oop": aggregate.eqr(0), "ip": aggregate.eqr(1)},
        "bet_frequency": aggregate.bet_frequency,
        "actions": [
            {
                "action": found.action,
                "name": found.name,
                "size": found.size,
                "all_in": found.all_in,
                "frequency": found.frequency,
                "ev": found.ev,
                "ev_pot": None if found.ev is None else found.ev / aggregate.pot,
            }
            for found in aggregate.actions
        ],
    }


@builds(ManySpots)
def many_document(report: ManySpots) -> dict[str, Any]:
    """The ``seqform.solve-many/2`` document of ``report``."""
    return {
        "schema": SOLVE_MANY,
        "directory": report.directory,
        "executor": report.executor,
        "workers": report.workers,
        "seconds": report.seconds,
        "spots": [_row_json(row) for row in report.rows],
    }
