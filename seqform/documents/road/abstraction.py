"""The ``seqform.abstraction/1`` document: a card abstraction solved and its strategies
measured in the full game (:class:`~seqform.abstraction.solve.AbstractionResult`).

Schema ``seqform.abstraction/1`` (``seqform/io/schemas/abstraction.schema.json``)::

    {
      "schema": "seqform.abstraction/1",
      "game": {"name": str, "description": str},
      "unit": "mbb/g" | "mpot/g" | "mchip/g", "unit_chips": float,
      "card_buckets": [int, ...],          # asked, per round
      "features": "ehs" | "ehs2" | "histogram",
      "buckets": [[int, ...], ×2],         # per player, per round: the most at a deal path
      "abstract_game": {"value": float, "sequences": [int, int], "infosets": [int, int],
                        "payoff_nonzeros": int, "certificate": {...}},
      "full_game": {"sequences": [int, int], "exploitability": float,
                    "milli_exploitability": float, "certificate": {...}},
      "strategies": [{...}, {...}],       # the lifted full-game profile, as solve's
      "solver": {...}, "timings": {...}
    }

``strategies`` are the lifted strategies of the full game (every hand plays its bucket's
behaviour) in the shape of ``seqform.solve/2``'s, so ``resolve --blueprint``,
``exploit --strategy`` and ``play --auto`` read the file: an abstraction is a blueprint.
The certificates are :func:`~seqform.documents.objects.certificate_json`'s; exploitability is
in chips per game, ``milli_exploitability`` in thousandths of ``unit`` per game
(:func:`seqform.holdem.units.report_unit`: mbb/g with Leduc's ante, 1 chip, or Rhode
Island's first bet, 10 chips, as the big blind).
"""

from __future__ import annotations

from typing import Any

from seqform.abstraction.solve import AbstractionResult
from seqform.base.numbers import json_float
from seqform.documents.objects import (
    action_words,
    certificate_json,
    game_json,
    solver_json,
    strategy_json,
    timings_json,
)
from seqform.documents.registry import builds
from seqform.holdem import report_unit
from seqform.io.documents import ABSTRACTION

__all__ = ["abstraction_document"]


@builds(AbstractionResult)
def abstraction_document(result: AbstractionResult) -> dict[str, Any]:
    """The ``seqform.abstraction/1`` document of ``result`` (module docstring)."""
    abstraction = result.abstraction
    tables = result.abstract.tables
    strategies = result.game_strategies()  # on the game's tables, also when built on G'
    full = [strategy.table for strategy in strategies]
    rounds = range(len(abstraction.counts))
    words = action_words(result.game)
    unit = report_unit(result.game)
    return {
        "schema": ABSTRACTION,
        "game": game_json(result.game.name, result.game.description),
        "unit": unit.name,
        "unit_chips": json_float(float(unit.chips)),
        "card_buckets": list(abstraction.counts),
        "features": abstraction.features,
        "buckets": [[abstraction.largest(p, r) for r in rounds] for p in (0, 1)],
        "abstract_game": {
            "value": json_float(result.value),
            "sequences": [t.num_sequences for t in tables],
            "infosets": [t.num_infosets for t in tables],
            "payoff_nonzeros": int(result.abstract.A.nnz),
            "certificate": certificate_json(result.abstract_certificate),
        },
        "full_game": {
            "sequences": [t.num_sequences for t in full],
            "exploitability": json_float(result.exploitability),
            "milli_exploitability": json_float(unit.milli(result.exploitability)),
            "certificate": certificate_json(result.certificate),
        },
        "strategies": [
            strategy_json(strategy, result.game.player_names[strategy.player], words)
            for strategy in strategies
        ],
        "solver": solver_json(result.stats),
        "timings": timings_json(result.timings),
    }
