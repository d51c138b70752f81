"""``solve --refine``: the ``seqform.solve/2`` document of a quasi-perfect equilibrium (its
``"refinement"`` key, :func:`seqform.documents.refine.refined_document`) as text.

The text is read off the document alone, so that it shows what ``--format json`` writes.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from seqform.base.numbers import scaled_text, value_text
from seqform.documents.layout.blocks import (
    document_constant_sum_lines,
    document_value_lines,
    document_value_text,
    header,
)
from seqform.documents.layout.strategies import StrategySection, document_strategy_sections
from seqform.documents.layout.tables import label_rows
from seqform.documents.text.solve import player_names

__all__ = ["refined_text"]


def _refinement_lines(refinement: dict[str, Any]) -> list[str]:
    lines = [
        "Refinement: a quasi-perfect equilibrium (van Damme 1984), as in Miltersen and",
        "Sørensen (2010): the limit as ε → 0 of equilibria of the sequence form perturbed by",
        "x_σ, y_σ >= ε^|σ|.",
    ]
    epsilon = refinement["epsilon"]
    if refinement["verified"]:
        return [
            *lines,
            f"  HiGHS gave a basis at ε = {epsilon}; after {refinement['pivots']} exact "
            "pivot(s) it is",
            f"  proven optimal for all small ε (polynomials of degree {refinement['degree']} "
            "in ε).",
        ]
    return [
        *lines,
        "  NOT verified: no basis was proven optimal for all small ε (none of the starting",
        "  bases was feasible for small ε, or the pivoting ran out of time).",
        "  Shown instead: an exact equilibrium in which, where a player's own play never",
        "  arrives, the player best responds to the opponent's perturbed strategy at",
        f"  ε = {epsilon} (not proven quasi-perfect).",
    ]


def _certificate_lines(document: dict[str, Any], names: tuple[str, str]) -> list[str]:
    """The certificate rows: the exact one's fractions as they are, or the float one's
    values judged beside the game's payoff range (round-off as ``≈ 0``)."""
    exact = document["refinement"]["certificate"]
    certificate = document["certificate"]
    scale = certificate["payoff_range"]
    if exact is not None:  # computed in exact arithmetic: the fractions as they are
        responses = [value_text(Fraction(v)) for v in exact["best_response_values"]]
        exploitability = Fraction(exact["exploitability"])
        shown = "exactly 0" if exploitability == 0 else scaled_text(exploitability, scale, digits=3)
    else:
        responses = [
            document_value_text(value, certificate) for value in certificate["best_response_values"]
        ]
        shown = scaled_text(float(certificate["exploitability"]), scale, digits=3)
    rows = [
        (f"best response of {names[0]}", responses[0]),
        (f"best response of {names[1]}", responses[1]),
        ("exploitability (NashConv / 2)", shown),
    ]
    return [
        "Certificate (tree walk in the unperturbed game, independent of the LP):",
        *label_rows(rows),
    ]


def _strategy_table(strategy: dict[str, Any], verified: bool) -> StrategySection:
    kind = "(quasi-perfect)" if verified else "(refined, not proven quasi-perfect)"
    return StrategySection(
        strategy,
        f"{strategy['name']} — behavioural strategy {kind}",
        flag="unreached by own play: set by the refinement",
    )


def refined_text(document: dict[str, Any], strategies: str = "auto") -> str:
    """Value, how the refinement was found and verified, certificate, strategies."""
    game, refinement = document["game"], document["refinement"]
    names = player_names(document)
    exact_value = refinement["value_exact"]
    value = (
        document_value_text(document["value"], document["certificate"])
        if exact_value is None
        else value_text(Fraction(exact_value), exact=True)
    )
    lines = [
        header(game["name"], game["description"]),
        *document_value_lines(
            f"Value to {names[0]}", document["value"], document["certificate"], value
        ),
        *document_constant_sum_lines(document, names),
        "",
        *_refinement_lines(refinement),
        "",
        *_certificate_lines(document, names),
    ]
    tables = [_strategy_table(s, refinement["verified"]) for s in refinement["strategies"]]
    lines += document_strategy_sections(document, tables, strategies)
    refined = [infoset for infosets in refinement["refined_infosets"] for infoset in infosets]
    lines += [
        "",
        "Every information set has a considered action: where a player's own equilibrium",
        "play never arrives, the refinement chooses what is best against the opponent's",
        f"trembles ({len(refined)} such information set(s)).",
    ]
    return "\n".join(lines)
