"""The ``seqform.structured/2`` document of a solution on the structured route (public
tree × private hands, no game tree; :func:`seqform.documents.structured.structured_document`)
as text, with the players' summary of a hold'em spot file when the document has it.

The text is read off the document alone, so that it shows what ``--format json`` writes.
"""

from __future__ import annotations

from typing import Any

from seqform.base.counts import count_text
from seqform.documents.layout.blocks import (
    document_certificate_lines,
    document_value_lines,
    header,
)
from seqform.documents.layout.strategies import document_strategy_sections, document_tables
from seqform.documents.layout.tables import aligned_table
from seqform.documents.text.spots.spot import ev_text, spot_block

__all__ = ["NAMES", "route_line", "structured_text", "suit_lines"]

NAMES = ("Player 1", "Player 2")


def route_line(document: dict[str, Any]) -> str:
    """``"Solved on the structured route: public tree × private hands; the tree would have
    at most N nodes"``."""
    return (
        "Solved on the structured route: public tree × private hands; the tree would have "
        f"at most {count_text(document['game']['tree_nodes_at_most'])} nodes (not built)"
    )


def suit_lines(reduction: dict[str, Any] | None) -> list[str]:
    """The sizes of the reduction by suit isomorphism, step by step, and by the ordered
    game isomorphism after it when it ran (none when not reduced)."""
    if reduction is None:
        return []
    steps = []
    for step in reduction["steps"]:
        sequences = " + ".join(count_text(n) for n in step["sequences"])
        lp = step["lp"]
        built = (
            ""
            if lp is None
            else f", LP {count_text(lp['rows'])} rows, {count_text(lp['nonzeros'])} non-zeros"
        )
        steps.append(f"    {step['step']}: {sequences} sequences{built}")
    merged = " merged by the ordered game isomorphism" if len(reduction["steps"]) > 3 else ""
    return [
        f"  suit isomorphism: the LP solved on canonical boards and hand classes{merged} "
        f"({reduction['permutations']} suit permutations), its answer certified on the game:",
        *steps,
    ]


def _solver_name(backend: str, solver: str) -> str:
    return "Clarabel interior point" if backend == "clarabel" else f"HiGHS {solver}"


def structured_text(document: dict[str, Any], strategies: str = "auto") -> str:
    """Value, sizes (with nnz of ``A`` beside the structured LP's), solver, certificate and
    strategies (``strategies`` is ``--strategies``); for a hold'em spot (the ``"spot"``
    key), the value line is followed by the seats' EV in chips and share of the pot, and the
    report ends with the players' summary and OOP's opening grid
    (:mod:`seqform.holdem.report` defines value and EV)."""
    game, stats, timings = document["game"], document["solver"], document["timings"]
    sizes = document["sizes"]
    first, second = sizes["players"]
    spot = document.get("spot")
    matrix = sizes["payoff_nonzeros"]
    structured = sizes["structured_payoff_nonzeros"]
    beside = f"instead of {count_text(matrix)} in A (ratio {matrix / max(structured, 1):.1f})"
    lines = [
        header(game["name"], game["description"]),
        *document_value_lines(f"Value to {NAMES[0]}", document["value"], document["certificate"]),
        *([] if spot is None else [f"  on the spot: {ev_text(spot)}; value = EV OOP − pot / 2"]),
        route_line(document),
        "",
        "Structured LP (Zhang and Sandholm 2020; Farina and Sandholm 2022)",
        *aligned_table(
            [
                ("", NAMES[0], NAMES[1]),
                ("hands", count_text(first["hands"]), count_text(second["hands"])),
                ("information sets", count_text(first["infosets"]), count_text(second["infosets"])),
                ("sequences", count_text(first["sequences"]), count_text(second["sequences"])),
            ]
        ),
        f"  payoff: {count_text(structured)} non-zeros through level sums "
        f"({count_text(sizes['auxiliary_variables'])} "
        f"auxiliary variables) {beside}",
        *suit_lines(document.get("suit_isomorphism")),
        "",
        f"Solver: {_solver_name(stats['backend'], stats['solver'])}, {stats['status']} after "
        f"{count_text(stats['iterations'])} iterations",
        f"  LP {count_text(stats['variables'])} variables × {count_text(stats['constraints'])} "
        f"constraints, {count_text(stats['nonzeros'])} non-zeros; solve {stats['seconds']:.3f} s, "
        f"total {timings['total']:.3f} s (LP build {timings['sequence_form']:.3f} s, "
        f"certificate {timings['certificate']:.3f} s)",
        *document_certificate_lines(
            document["certificate"], NAMES, "best responses on the public tree × hands"
        ),
    ]
    lines += document_strategy_sections(
        document, document_tables(document["strategies"]), strategies
    )
    if spot is not None:
        lines += spot_block(spot)
    return "\n".join(lines)
