"""Text for a :class:`~seqform.routes.structured.StructuredSolution` (the structured
route: public tree × private hands, no game tree).

Its JSON document, ``seqform.structured/2``, is
:func:`seqform.documents.structured.structured_document`.
"""

from __future__ import annotations

from seqform.cli.render.blocks import certificate_lines, header, value_lines
from seqform.cli.render.numbers import count_text
from seqform.cli.render.spot import ev_text
from seqform.cli.render.strategies import behaviour_tables, strategy_sections
from seqform.cli.render.tables import aligned_table
from seqform.documents.structured import StructuredResult, auxiliary_variables
from seqform.holdem import SpotSummary
from seqform.routes.structured import StructuredSolution
from seqform.structured.responses import sequence_tables

__all__ = ["NAMES", "route_line", "structured_text"]

NAMES = ("Player 1", "Player 2")


def route_line(solution: StructuredResult) -> str:
    """``"Solved on the structured route: public tree × private hands; the tree would have
    at most N nodes"``."""
    return (
        "Solved on the structured route: public tree × private hands; the tree would have "
        f"at most {count_text(solution.tree_nodes)} nodes (not built)"
    )


def _solver_name(backend: str, solver: str) -> str:
    return "Clarabel interior point" if backend == "clarabel" else f"HiGHS {solver}"


def structured_text(
    solution: StructuredSolution, strategies: str = "auto", spot: SpotSummary | None = None
) -> str:
    """Value, sizes (with nnz of ``A`` beside the structured LP's), solver, certificate and
    strategies (``strategies`` is ``--strategies``); for a hold'em ``spot``, the value line is
    followed by the seats' EV in chips and share of the pot
    (:mod:`seqform.holdem.report` defines value and EV)."""
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
        *([] if spot is None else [f"  on the spot: {ev_text(spot)}; value = EV OOP − pot / 2"]),
        route_line(solution),
        "",
        "Structured LP (Zhang and Sandholm 2020; Farina and Sandholm 2022)",
        *aligned_table(
            [
                ("", NAMES[0], NAMES[1]),
                ("hands", count_text(game.num_hands(0)), count_text(game.num_hands(1))),
                ("information sets", *(count_text(t.num_infosets) for t in (first, second))),
                ("sequences", *(count_text(t.num_sequences) for t in (first, second))),
            ]
        ),
        f"  payoff: {count_text(solution.payoff_nonzeros)} non-zeros through level sums "
        f"({count_text(auxiliary_variables(solution))} "
        f"auxiliary variables) {beside}",
        "",
        f"Solver: {_solver_name(stats.backend, stats.solver)}, {stats.status} after "
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
