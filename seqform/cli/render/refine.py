"""``solve --refine``: a quasi-perfect equilibrium as text.

Its JSON document is :func:`seqform.documents.refine.refined_document` (``seqform.solve/2``
with the ``"refinement"`` key).
"""

from __future__ import annotations

from fractions import Fraction

from seqform.cli.render.blocks import constant_sum_lines, header, value_lines
from seqform.cli.render.numbers import value_text
from seqform.cli.render.strategies import StrategyTable, strategy_sections
from seqform.cli.render.tables import label_rows
from seqform.routes.refine import RefinedSolution

__all__ = ["refined_text"]


def _refinement_lines(solution: RefinedSolution) -> list[str]:
    lines = [
        "Refinement: a quasi-perfect equilibrium (van Damme 1984), as in Miltersen and",
        "Sørensen (2010): the limit as ε → 0 of equilibria of the sequence form perturbed by",
        "x_σ, y_σ >= ε^|σ|.",
    ]
    if solution.verified:
        return [
            *lines,
            f"  HiGHS gave a basis at ε = {solution.epsilon}; after {solution.pivots} exact "
            "pivot(s) it is",
            f"  proven optimal for all small ε (polynomials of degree {solution.degree} in ε).",
        ]
    return [
        *lines,
        "  NOT verified: no basis was proven optimal for all small ε (none of the starting",
        "  bases was feasible for small ε, or the pivoting ran out of time).",
        "  Shown instead: an exact equilibrium in which, where a player's own play never",
        "  arrives, the player best responds to the opponent's perturbed strategy at",
        f"  ε = {solution.epsilon} (not proven quasi-perfect).",
    ]


def _certificate_lines(solution: RefinedSolution) -> list[str]:
    names = solution.game.player_names
    certificate = solution.certificate
    exploitability = certificate.exploitability
    shown = (
        "exactly 0"
        if isinstance(exploitability, Fraction) and exploitability == 0
        else f"{float(exploitability):.3g}"
    )
    rows = [
        (f"best response of {names[0]}", value_text(certificate.best_response_values[0])),
        (f"best response of {names[1]}", value_text(certificate.best_response_values[1])),
        ("exploitability (NashConv / 2)", shown),
    ]
    return [
        "Certificate (tree walk in the unperturbed game, independent of the LP):",
        *label_rows(rows),
    ]


def _strategy_table(solution: RefinedSolution, player: int) -> StrategyTable:
    name = solution.game.player_names[player]
    kind = "(quasi-perfect)" if solution.verified else "(refined, not proven quasi-perfect)"
    return StrategyTable(
        solution.strategies[player],
        f"{name} — behavioural strategy {kind}",
        flag="unreached by own play: set by the refinement",
    )


def refined_text(solution: RefinedSolution, strategies: str = "auto") -> str:
    """Value, how the refinement was found and verified, certificate, strategies."""
    game = solution.game
    name = game.player_names[0]
    value = value_text(solution.value, exact=isinstance(solution.value, Fraction))
    lines = [
        header(game.name, game.description),
        *value_lines(f"Value to {name}", solution.value, solution.certificate, value),
        *constant_sum_lines(game, solution.value),
        "",
        *_refinement_lines(solution),
        "",
        *_certificate_lines(solution),
    ]
    lines += strategy_sections(game, [_strategy_table(solution, p) for p in (0, 1)], strategies)
    refined = [infoset for infosets in solution.refined for infoset in infosets]
    lines += [
        "",
        "Every information set has a considered action: where a player's own equilibrium",
        "play never arrives, the refinement chooses what is best against the opponent's",
        f"trembles ({len(refined)} such information set(s)).",
    ]
    return "\n".join(lines)
