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
                "frequencies": FREQUENCIES, "seconds": float}]}

with ``FREQUENCIES`` as in the ``"spot"`` object (:mod:`seqform.documents.spot`).
"""

from __future__ import annotations

from typing import Any

from seqform.documents.registry import builds
from seqform.documents.spot import frequencies_json
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
