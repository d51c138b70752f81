"""The ``seqform.structured/2`` document: a solution found on the structured route (public
tree × private hands, no game tree), float
(:class:`~seqform.routes.structured.StructuredSolution`) or exact (which adds the
``"exact"`` key, :mod:`seqform.documents.exact`).

Schema ``seqform.structured/2`` (``seqform/io/schemas/structured.schema.json``; new keys may
be added, none removed or renamed)::

    {
      "schema": "seqform.structured/2",
      "game": {"name": str, "description": str, "tree_nodes_at_most": int,
               "labels": str | null},
      "method": "structured", "route": "structured",
      "value": float, "value_fraction": str | null,
      "sizes": {"players": [{"name": str, "hands": int, "infosets": int,
                             "sequences": int}, ×2],
                "payoff_nonzeros": int | null,     # of the explicit A, counted not formed
                                                   # (null above 10^7 pairs of hands)
                "structured_payoff_nonzeros": int, # the LP's entries standing for Aᵀ x
                "auxiliary_variables": int},
      "solver": {...as in seqform.solve/2...},
      "timings": {"sequence_form", "lp", "behaviour", "certificate", "total"},
      "certificate": {...as in seqform.solve/2...},
      "strategies": [...as in seqform.solve/2...],
      "suit_isomorphism": null | {"permutations": int,
                                  "steps": [{"step": "game" | "canonical boards"
                                                     | "hand classes" | "ordered classes",
                                             "sequences": [int, int],
                                             "infosets": [int, int],
                                             "lp": {"rows", "columns", "nonzeros"} | null},
                                            ×3 or ×4]},
      "spot": {...}                                # a hold'em spot file only
    }

``"suit_isomorphism"`` says how the float route reduced the LP by suit permutations
(:mod:`seqform.structured.reductions.suit_reduction`), and its fourth step, when there is one, how
the
hand classes were merged further by the ordered game isomorphism
(:mod:`seqform.structured.reductions.ordered_isomorphism`; the LP solved is then that step's and the
suit classes' LP is not built); ``"sizes"``, the strategies and the certificate are the
game's own either way.

The ``"spot"`` object is :func:`seqform.documents.spots.spot.spot_json`'s.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol

from seqform.base.numbers import fraction_text
from seqform.documents.objects import (
    action_words,
    certificate_json,
    game_json,
    solver_json,
    strategy_json,
    timings_json,
)
from seqform.documents.registry import builds
from seqform.documents.spots.spot import spot_json
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.builtin.labels import grammar_name
from seqform.game.public.tree import StructuredGame
from seqform.holdem import SpotSummary
from seqform.io.documents import STRUCTURED
from seqform.routes.result import Result
from seqform.routes.structured import StructuredSolution
from seqform.structured.reductions.ordered_isomorphism import OrderedStep
from seqform.structured.reductions.suit_classes import ReductionSizes
from seqform.structured.responses import sequence_tables

__all__ = [
    "StructuredResult",
    "auxiliary_variables",
    "structured_document",
    "suit_isomorphism_json",
]


class StructuredResult(Result[BehaviouralStrategy], Protocol):
    """A :class:`~seqform.routes.result.Result` found on the structured route, float
    (:class:`~seqform.routes.structured.StructuredSolution`) or exact
    (:class:`~seqform.routes.structured_exact.StructuredExactSolution`)."""

    @property
    def game(self) -> StructuredGame: ...

    @property
    def payoff_nonzeros(self) -> int: ...

    @property
    def matrix_nonzeros(self) -> int: ...

    @property
    def tree_nodes(self) -> int: ...


def auxiliary_variables(solution: StructuredResult) -> int:
    """The structured LP's variables beyond player 1's sequences, player 2's information
    sets and the value: the level sums standing for ``Aᵀ x`` (of the LP solved: the
    reduced one under suit isomorphism)."""
    reduction: ReductionSizes | None = getattr(solution, "suit_reduction", None)
    ordered: OrderedStep | None = getattr(solution, "ordered_isomorphism", None)
    if ordered is not None:
        return ordered.lp[1] - ordered.sizes.columns
    if reduction is not None and reduction.reduced_lp is not None:
        return reduction.reduced_lp[1] - reduction.reduced.columns
    first, second = sequence_tables(solution.game)
    return solution.stats.variables - first.num_sequences - second.num_infosets - 1


def suit_isomorphism_json(
    reduction: ReductionSizes | None, ordered: OrderedStep | None = None
) -> dict[str, Any] | None:
    """The ``"suit_isomorphism"`` object (module docstring), None when not reduced; with
    ``ordered``, its fourth step."""
    if reduction is None:
        return None
    steps = [
        ("game", reduction.full, None),
        ("canonical boards", reduction.canonical, reduction.canonical_lp),
        ("hand classes", reduction.reduced, reduction.reduced_lp),
    ]
    if ordered is not None:
        steps.append(("ordered classes", ordered.sizes, ordered.lp))
    return {
        "permutations": reduction.group_order,
        "steps": [
            {
                "step": step,
                "sequences": list(size.sequences),
                "infosets": list(size.infosets),
                "lp": None if lp is None else {"rows": lp[0], "columns": lp[1], "nonzeros": lp[2]},
            }
            for step, size, lp in steps
        ],
    }


@builds(StructuredSolution)
def structured_document(solution: StructuredResult) -> dict[str, Any]:
    """The ``seqform.structured/2`` document of the module docstring.

    A solution of a hold'em spot file carries its players' summary
    (:attr:`~seqform.routes.structured.StructuredSolution.spot`): the document then has the
    ``"spot"`` key, as ``solve SPOT.toml`` writes it.
    """
    game, stats, value = solution.game, solution.stats, solution.value
    tables = sequence_tables(game)
    names = game.player_names
    words = action_words(game)
    document = {
        "schema": STRUCTURED,
        "game": game_json(
            game.name,
            game.description,
            tree_nodes_at_most=solution.tree_nodes,
            labels=grammar_name(game),
        ),
        "method": "structured",
        "route": "structured",
        "value": float(value),
        "value_fraction": str(value) if isinstance(value, Fraction) else fraction_text(value),
        "sizes": {
            "players": [
                {
                    "name": names[p],
                    "hands": game.num_hands(p),
                    "infosets": tables[p].num_infosets,
                    "sequences": tables[p].num_sequences,
                }
                for p in (0, 1)
            ],
            "payoff_nonzeros": solution.matrix_nonzeros,
            "structured_payoff_nonzeros": solution.payoff_nonzeros,
            "auxiliary_variables": auxiliary_variables(solution),
        },
        "solver": solver_json(stats),
        "timings": timings_json(solution.timings),
        "certificate": certificate_json(solution.certificate),
        "strategies": [
            strategy_json(solution.strategies[p].to_float(), names[p], words) for p in (0, 1)
        ],
    }
    document["suit_isomorphism"] = suit_isomorphism_json(
        getattr(solution, "suit_reduction", None), getattr(solution, "ordered_isomorphism", None)
    )
    spot: SpotSummary | None = getattr(solution, "spot", None)  # an exact one has none
    if spot is not None:
        document["spot"] = spot_json(spot)
    return document
