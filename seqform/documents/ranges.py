"""The ``seqform.ranges/2`` document: the set of all equilibria
(:class:`~seqform.questions.ranges.EquilibriumRanges`).

Schema ``seqform.ranges/2`` (``seqform/io/schemas/ranges.schema.json``)::

    {"schema": "seqform.ranges/2", "game": {"name", "description", "labels": str | null},
     "exact": bool, "value": float, "value_exact": str | null,
     "constant_sum": null | CONSTANT_SUM,    # a constant-sum game, solved as zero-sum
     "players": [{"player": 1 | 2, "name": str, "value": float, "value_exact": str | null,
                  "unique": bool, "dimension": int, "verified": bool,
                  "linear_programs": int, "vertex_count": int,
                  "vertices": [[NUMBER]] | null,    # the plans found; null if > 50
                  "parametrisation": null | {"parameter": str, "low": NUMBER,
                                             "high": NUMBER, "entries": [{"sequence": str,
                                             "constant": NUMBER, "slope": NUMBER}]},
                  "infosets": [{"name": str, "actions": [{"action": str, "words": str,
                                "probability": null | {"low": NUMBER, "high": NUMBER},
                                "plan": {"low": NUMBER, "high": NUMBER}}]}]}, ×2],
     "seconds": float}

where a NUMBER is a float, or in exact mode a string fraction, and ``CONSTANT_SUM`` is
``common.schema.json``'s ``{"total", "value_to_player_2", "value_to_player_2_exact",
"treated_as"}``.  The text report (:mod:`seqform.documents.text.ranges`) is rendered from this
document.
"""

from __future__ import annotations

from typing import Any

from seqform.base.numbers import json_number
from seqform.documents.objects import constant_sum_json, game_json
from seqform.documents.registry import builds
from seqform.game.builtin.labels import grammar_name
from seqform.io.documents import RANGES
from seqform.questions.ranges import EquilibriumRanges, Parametrisation, PlayerRanges, Range

__all__ = ["MAX_JSON_VERTICES", "ranges_document"]

MAX_JSON_VERTICES = 50
"""Larger vertex lists are left out of the document (``"vertices": null``)."""


def _range_json(value: Range) -> dict[str, Any]:
    return {"low": json_number(value.low), "high": json_number(value.high)}


def _parametrisation_json(parametrisation: Parametrisation | None) -> dict[str, Any] | None:
    if parametrisation is None:
        return None
    return {
        "parameter": parametrisation.parameter,
        "low": json_number(parametrisation.low),
        "high": json_number(parametrisation.high),
        "entries": [
            {
                "sequence": e.label,
                "constant": json_number(e.constant),
                "slope": json_number(e.slope),
            }
            for e in parametrisation.entries
        ],
    }


def _player_json(player: PlayerRanges, exact: bool) -> dict[str, Any]:
    infosets: dict[str, list[dict[str, Any]]] = {}
    for action in player.actions:
        infosets.setdefault(action.infoset, []).append(
            {
                "action": action.action,
                "words": action.words,
                "probability": None
                if action.probability is None
                else _range_json(action.probability),
                "plan": _range_json(action.plan),
            }
        )
    return {
        "player": player.player + 1,
        "name": player.name,
        "value": float(player.value),
        "value_exact": str(player.value) if exact else None,
        "unique": player.unique,
        "dimension": player.dimension,
        "verified": player.verified,
        "linear_programs": player.linear_programs,
        "vertex_count": len(player.vertices),
        "vertices": [[json_number(v) for v in vertex] for vertex in player.vertices]
        if len(player.vertices) <= MAX_JSON_VERTICES
        else None,
        "parametrisation": _parametrisation_json(player.parametrisation),
        "infosets": [{"name": name, "actions": acts} for name, acts in infosets.items()],
    }


@builds(EquilibriumRanges)
def ranges_document(ranges: EquilibriumRanges) -> dict[str, Any]:
    """The ``seqform.ranges/2`` document of ``ranges``."""
    game = ranges.game
    return {
        "schema": RANGES,
        "game": game_json(game.name, game.description, labels=grammar_name(game)),
        "exact": ranges.exact,
        "value": float(ranges.value),
        "value_exact": str(ranges.value) if ranges.exact else None,
        "constant_sum": constant_sum_json(game, ranges.value),
        "players": [_player_json(p, ranges.exact) for p in ranges.players],
        "seconds": ranges.seconds,
    }
