"""The ``seqform.off-tree/1`` document: a blueprint of an abstract game played in the full
game by translation or nested re-solving
(:class:`~seqform.resolving.off_tree.OffTreeResult`).

Schema ``seqform.off-tree/1`` (``seqform/io/schemas/off_tree.schema.json``)::

    {
      "schema": "seqform.off-tree/1",
      "game": {"name": str, "description": str},          # the full game
      "abstract_game": {"name": str, "description": str},
      "method": "translate" | "nested", "mapping": str,
      "gadget": "resolve" | "maxmargin" | null, "alternative": "neighbours" | "best" | null,
      "unit": str, "unit_chips": float,
      "full_game": {"exploitability": float, "milli_exploitability": float,
                    "certificate": {...}},
      "blueprint": {...},                                  # the same, in the abstract game
      "off_tree_decisions": int, "untranslated": [int, int],
      "min_margin": float | null,
      "gadgets": [{...}, ...],                              # as seqform.resolve/1's
      "strategies": [{...}, {...}],                         # the full game's profile
      "seconds": float
    }

Exploitability is NashConv / 2 in chips per game; ``milli_exploitability`` in thousandths of
``unit`` per game (``unit_chips`` chips: Leduc's ante as the big blind, ``mbb/g``; a spot's
starting pot, ``mpot/g``), as :attr:`OffTreeResult.milli_exploitability` defines it.
"""

from __future__ import annotations

from typing import Any

from seqform.base.numbers import json_float
from seqform.certify import Certificate
from seqform.documents.objects import action_words, certificate_json, game_json, strategy_json
from seqform.documents.registry import builds
from seqform.documents.road.resolve import gadget_json
from seqform.io.documents import OFF_TREE
from seqform.resolving.off_tree import OffTreeResult

__all__ = ["off_tree_document"]


def _measured(certificate: Certificate, unit_chips: float) -> dict[str, Any]:
    exploitability = float(certificate.exploitability)
    return {
        "exploitability": json_float(exploitability),
        "milli_exploitability": json_float(1000 * exploitability / unit_chips),
        "certificate": certificate_json(certificate),
    }


@builds(OffTreeResult)
def off_tree_document(result: OffTreeResult) -> dict[str, Any]:
    """The ``seqform.off-tree/1`` document of ``result`` (module docstring)."""
    words = action_words(result.game)
    unit_chips = float(result.unit_chips)
    low = result.min_margin
    return {
        "schema": OFF_TREE,
        "game": game_json(result.game.name, result.game.description),
        "abstract_game": game_json(result.abstract.name, result.abstract.description),
        "method": result.method,
        "mapping": result.mapping,
        "gadget": result.gadget,
        "alternative": result.alternative,
        "unit": result.unit,
        "unit_chips": json_float(unit_chips),
        "full_game": _measured(result.certificate, unit_chips),
        "blueprint": _measured(result.blueprint_certificate, unit_chips),
        "off_tree_decisions": result.off_tree,
        "untranslated": list(result.untranslated),
        "min_margin": None if low is None else json_float(low),
        "gadgets": [gadget_json(run) for run in result.runs],
        "strategies": [
            strategy_json(strategy, result.game.player_names[strategy.player], words)
            for strategy in result.strategies
        ],
        "seconds": json_float(result.seconds),
    }
