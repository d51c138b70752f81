"""Text and JSON for a :class:`~seqform.analyses.structured.StructuredSolution` (the
structured route: public tree × private hands, no game tree).

JSON schema ``seqform.structured/1`` (new keys may be added, none removed or renamed)::

    {
      "schema": "seqform.structured/1",
      "game": {"name": str, "description": str, "tree_nodes_at_most": int},
      "method": "structured", "route": "structured",
      "value": float, "value_fraction": str | null,
      "sizes": {"players": [{"name": str, "hands": int, "infosets": int,
                             "sequences": int}, ×2],
                "payoff_nonzeros": int | null,     # of the explicit A, counted not formed
                                                   # (null above 10^7 pairs of hands)
                "sparsified_payoff_nonzeros": int, # the LP's entries standing for Aᵀ x
                "auxiliary_variables": int},
      "solver": {...as in seqform.solve/1...},
      "timings": {"sequence_form", "lp", "behaviour", "certificate", "total"},
      "certificate": {...as in seqform.solve/1...},
      "strategies": [...as in seqform.solve/1...]
    }

``solve --method structured --exact`` writes this document (an exact value gives
``value_fraction`` exactly) with the ``"exact"`` key of :mod:`seqform.cli.render.exact`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol

from seqform.analyses.result import Result
from seqform.analyses.structured import StructuredSolution
from seqform.cli.render.blocks import (
    certificate_json,
    certificate_lines,
    game_json,
    header,
    solver_json,
    strategy_json,
    timings_json,
    value_lines,
)
from seqform.cli.render.numbers import count_text, fraction_text
from seqform.cli.render.strategies import behaviour_tables, strategy_sections
from seqform.cli.render.tables import aligned_table
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.public_tree import StructuredGame
from seqform.io.documents import STRUCTURED
from seqform.structured.responses import sequence_tables

__all__ = [
    "NAMES",
    "SCHEMA",
    "StructuredResult",
    "route_line",
    "structured_json",
    "structured_text",
]

SCHEMA = STRUCTURED
NAMES = ("Player 1", "Player 2")


class StructuredResult(Result[BehaviouralStrategy], Protocol):
    """A :class:`~seqform.analyses.result.Result` found on the structured route, float
    (:class:`~seqform.analyses.structured.StructuredSolution`) or exact
    (:class:`~seqform.analyses.structured_exact.StructuredExactSolution`)."""

    @property
    def game(self) -> StructuredGame: ...

    @property
    def payoff_nonzeros(self) -> int: ...

    @property
    def matrix_nonzeros(self) -> int: ...

    @property
    def tree_nodes(self) -> int: ...


def route_line(solution: StructuredResult) -> str:
    """``"Solved on the structured route: public tree × private hands; the tree would have
    at most N nodes"``."""
    return (
        "Solved on the structured route: public tree × private hands; the tree would have "
        f"at most {count_text(solution.tree_nodes)} nodes (not built)"
    )


def _solver_name(backend: str, algorithm: str) -> str:
    return "Clarabel interior point" if backend == "clarabel" else f"HiGHS {algorithm}"


def structured_text(solution: StructuredSolution, strategies: str = "auto") -> str:
    """Value, sizes (with nnz of ``A`` beside the sparsified LP's), solver, certificate and
    strategies (``strategies`` is ``--strategies``)."""
    game, stats, timings = solution.game, solution.stats, solution.timings
    first, second = sequence_tables(game)
    matrix = solution.matrix_nonzeros
    beside = (
        f"instead of {count_text(matrix)} in A "
        f"(ratio {matrix / max(solution.payoff_nonzeros, 1):.1f})"
    )
    lines = [
        header(game.name, game.description),
        *value_lines(f"Value to {NAMES[0]}", solution.value, solution.certificate),
        route_line(solution),
        "",
        "Sparsified sequence form (Zhang and Sandholm 2020; Farina and Sandholm 2022)",
        *aligned_table(
            [
                ("", NAMES[0], NAMES[1]),
                ("hands", count_text(game.num_hands(0)), count_text(game.num_hands(1))),
                ("information sets", *(count_text(t.num_infosets) for t in (first, second))),
                ("sequences", *(count_text(t.num_sequences) for t in (first, second))),
            ]
        ),
        f"  payoff: {count_text(solution.payoff_nonzeros)} non-zeros through level sums "
        f"({count_text(stats.variables - first.num_sequences - second.num_infosets - 1)} "
        f"auxiliary variables) {beside}",
        "",
        f"Solver: {_solver_name(stats.backend, stats.algorithm)}, {stats.status} after "
        f"{count_text(stats.iterations)} iterations",
        f"  LP {count_text(stats.variables)} variables × {count_text(stats.constraints)} "
        f"constraints, {count_text(stats.nonzeros)} non-zeros; solve {stats.seconds:.3f} s, "
        f"total {timings.total:.3f} s (LP build {timings.sequence_form:.3f} s, "
        f"certificate {timings.certificate:.3f} s)",
        *certificate_lines(
            solution.certificate, NAMES, "best responses on the public tree × hands"
        ),
    ]
    lines += strategy_sections(game, behaviour_tables(solution.strategies, NAMES), strategies)
    return "\n".join(lines)


def structured_json(solution: StructuredResult) -> dict[str, Any]:
    """The ``seqform.structured/1`` document of the module docstring."""
    game, stats, value = solution.game, solution.stats, solution.value
    tables = sequence_tables(game)
    words = game.describe_action or (lambda _infoset, action: action)
    return {
        "schema": SCHEMA,
        "game": game_json(game.name, game.description, tree_nodes_at_most=solution.tree_nodes),
        "method": "structured",
        "route": "structured",
        "value": float(value),
        "value_fraction": str(value) if isinstance(value, Fraction) else fraction_text(value),
        "sizes": {
            "players": [
                {
                    "name": NAMES[p],
                    "hands": game.num_hands(p),
                    "infosets": tables[p].num_infosets,
                    "sequences": tables[p].num_sequences,
                }
                for p in (0, 1)
            ],
            "payoff_nonzeros": solution.matrix_nonzeros,
            "sparsified_payoff_nonzeros": solution.payoff_nonzeros,
            "auxiliary_variables": stats.variables
            - tables[0].num_sequences
            - tables[1].num_infosets
            - 1,
        },
        "solver": solver_json(stats),
        "timings": timings_json(solution.timings),
        "certificate": certificate_json(solution.certificate),
        "strategies": [
            strategy_json(solution.strategies[p].to_float(), NAMES[p], words) for p in (0, 1)
        ],
    }
