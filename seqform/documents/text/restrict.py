"""``solve --fix``: the ``seqform.solve/2`` document of a restricted game's solution (its
``"restrictions"`` key, :func:`seqform.documents.solve.solution_document`) as text.

The text is read off the document alone, so that it shows what ``--format json`` writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from seqform.base.counts import count_text
from seqform.documents.layout.blocks import (
    document_constant_sum_lines,
    document_exploitability_row,
    document_value_lines,
    document_value_text,
    header,
)
from seqform.documents.layout.strategies import document_strategy_sections, document_tables
from seqform.documents.layout.tables import label_rows
from seqform.documents.text.solve import player_names

__all__ = ["restricted_text", "restriction_lines"]


def _bound_text(bound: dict[str, str]) -> str:
    """``"K:b = 1"`` or ``"0 <= J:b <= 0.2"``, as :meth:`ActionBound.text` writes a bound."""
    where = f"{bound['infoset']}:{bound['action']}"
    if bound["lower"] == bound["upper"]:  # fractions in lowest terms: equal as strings
        return f"{where} = {bound['lower']}"
    return f"{bound['lower']} <= {where} <= {bound['upper']}"


def restriction_lines(restrictions: dict[str, Any], names: Sequence[str]) -> list[str]:
    """``Restricted game: Player 1 must obey`` and one line per bound, from a document's
    ``"restrictions"`` object."""
    players = " and ".join(names[p - 1] for p in restrictions["restricted_players"])
    lines = [f"Restricted game: {players} must obey"]
    lines += [f"  {_bound_text(bound)}" for bound in restrictions["bounds"]]
    return lines


def restricted_text(document: dict[str, Any], strategies: str = "auto") -> str:
    """Value of the restricted game, the bounds, the restricted certificate, strategies.

    Raises
    ------
    ValueError
        For a document without ``"restrictions"`` (not a restricted game's).
    """
    restrictions = document.get("restrictions")
    if restrictions is None:
        raise ValueError("not the solution of a restricted game")
    game, stats = document["game"], document["solver"]
    names = player_names(document)
    certificate = document["certificate"]
    responses = certificate["best_response_values"]
    rows = [
        ("expected value", document_value_text(certificate["expected_value"], certificate)),
        (f"best response of {names[0]}", document_value_text(responses[0], certificate)),
        (f"best response of {names[1]}", document_value_text(responses[1], certificate)),
        document_exploitability_row(certificate, what="equilibrium of the restricted game"),
    ]
    value = document["value"]
    lines = [
        header(game["name"], game["description"]),
        *document_value_lines(f"Value of the restricted game to {names[0]}", value, certificate),
        *document_constant_sum_lines(document, names),
        "",
        *restriction_lines(restrictions, names),
        "",
        "Certificate (best responses within the restrictions, from the tree, not the LP):",
        *label_rows(rows),
        "",
        f"Solver: HiGHS {stats['solver']}, {count_text(stats['iterations'])} iterations, LP "
        f"{count_text(stats['variables'])} variables × {count_text(stats['constraints'])} "
        "constraints",
    ]
    lines += document_strategy_sections(
        document, document_tables(document["strategies"]), strategies
    )
    return "\n".join(lines)
