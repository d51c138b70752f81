"""``qre``: logit quantal response equilibria as text.

Its JSON document, ``seqform.qre/1``, is :func:`seqform.documents.qre.qre_document`.
"""

from __future__ import annotations

from seqform.cli.render.blocks import header
from seqform.cli.render.strategies import behaviour_tables, strategy_sections
from seqform.game.model import Game
from seqform.qre.equilibria import LimitComparison, LogitBranch, QREPoint
from seqform.qre.fit import LogitFit

__all__ = ["qre_text"]


def _without_segment(dimension: int | None) -> str:
    """What ``ranges`` found for a player whose optimal plans are not a segment."""
    if dimension == 0:
        return "one optimal realization plan (ranges: the set of optimal plans is a point)"
    if dimension is None or dimension == 1:
        return "the optimal plans found by ranges were not parametrised as a segment"
    return (
        f"the optimal plans form a {dimension}-dimensional set (ranges), not a segment: "
        "the limit is not placed by one parameter"
    )


def _comparison_lines(game: Game, comparison: LimitComparison) -> list[str]:
    lines = []
    if comparison.ranges_skipped is not None:
        lines.append(f"ranges skipped: {comparison.ranges_skipped}")
    for player, (parameter, distance, dimension) in enumerate(
        zip(
            comparison.parameters,
            comparison.segment_distance,
            comparison.dimensions,
            strict=True,
        )
    ):
        name = game.player_names[player]
        if parameter is None and comparison.ranges_skipped is not None:
            continue
        if parameter is None:
            lines.append(f"{name}: {_without_segment(dimension)}")
            continue
        label, t, low, high = parameter
        lines.append(
            f"{name}: selects {label} = {t:.6g} in the family [{low:.6g}, {high:.6g}] "
            f"(ranges; off the segment by {distance:.2g})"
        )
    differences = ", ".join(
        f"{game.player_names[p]} {d:.3g}" for p, d in enumerate(comparison.refined_difference)
    )
    lines.append(f"largest difference from the quasi-perfect equilibrium (refine): {differences}")
    return lines


def qre_text(
    game: Game,
    points: tuple[QREPoint, ...],
    choice: str,
    *,
    branch: LogitBranch | None = None,
    comparison: LimitComparison | None = None,
    fit: LogitFit | None = None,
) -> str:
    """The report: what was computed, each point's certificate and strategies."""
    lines = [header(game.name, game.description)]
    if fit is not None:
        bound = " (a lower bound: the best point is the end of the trace)" if fit.at_end else ""
        lines.append(
            f"Maximum-likelihood logit QRE: λ = {fit.lam:.6g}{bound}, log-likelihood "
            f"{fit.log_likelihood:.6g} over {fit.observations} observations"
        )
    if branch is not None:
        state = (
            f"NashConv {branch.limit.nash_conv:.3g} and agent regret {branch.agent_regret:.3g} "
            f"<= {branch.tolerance:g} × payoff range {branch.payoff_range:g}"
            if branch.converged
            else f"not converged: {branch.reason}; NashConv {branch.limit.nash_conv:.3g}"
        )
        lines.append(
            f"Principal logit branch traced to λ = {branch.lambdas[-1]:.6g} in "
            f"{len(branch.lambdas) - 1} steps ({state})"
        )
    if comparison is not None:
        lines += ["", "The limit among all equilibria:", *_comparison_lines(game, comparison)]
    for point in points:
        values = ", ".join(
            f"{game.player_names[p]} {v:.6g}" for p, v in enumerate(point.certificate.values)
        )
        lines += [
            "",
            f"Logit QRE at λ = {point.lam:.6g}: values {values}; NashConv {point.nash_conv:.3g}",
        ]
        tables = behaviour_tables(point.strategies, game.player_names, "logit QRE behaviour")
        lines += strategy_sections(game, tables, choice)
    return "\n".join(lines)
