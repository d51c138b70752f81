"""``solve --fix``: the restricted game's solution as text.

Its JSON document is ``seqform.solve/2`` with the ``"restrictions"`` key
(:func:`seqform.documents.solve.solution_document`).
"""

from __future__ import annotations

from seqform.cli.render.blocks import (
    constant_sum_lines,
    exploitability_row,
    header,
    value_lines,
)
from seqform.cli.render.numbers import count_text, value_text
from seqform.cli.render.strategies import behaviour_tables, strategy_sections
from seqform.cli.render.tables import label_rows
from seqform.game.model import Game
from seqform.routes.restrict import RestrictedSolution, Restrictions

__all__ = ["restricted_text", "restriction_lines"]


def restriction_lines(restrictions: Restrictions, game: Game) -> list[str]:
    """``Restricted game: Player 1 must obey`` and one line per bound."""
    players = " and ".join(game.player_names[p] for p in restrictions.players())
    lines = [f"Restricted game: {players} must obey"]
    lines += [f"  {bound.text()}" for bound in restrictions.bounds]
    return lines


def restricted_text(solution: RestrictedSolution, strategies: str = "auto") -> str:
    """Value of the restricted game, the bounds, the restricted certificate, strategies.

    The JSON document is :func:`seqform.documents.solve.solution_document`, which adds the
    ``"restrictions"`` of a restricted solution.
    """
    restrictions = solution.restrictions
    if restrictions is None:
        raise ValueError("not the solution of a restricted game")
    game = solution.game
    names = game.player_names
    certificate = solution.certificate
    rows = [
        ("expected value", value_text(certificate.value)),
        (f"best response of {names[0]}", value_text(certificate.best_response_values[0])),
        (f"best response of {names[1]}", value_text(certificate.best_response_values[1])),
        exploitability_row(certificate, what="equilibrium of the restricted game"),
    ]
    stats = solution.stats
    lines = [
        header(game.name, game.description),
        *value_lines(
            f"Value of the restricted game to {names[0]}",
            solution.value,
            certificate,
            value_text(solution.value),
        ),
        *constant_sum_lines(game, solution.value),
        "",
        *restriction_lines(restrictions, game),
        "",
        "Certificate (best responses within the restrictions, from the tree, not the LP):",
        *label_rows(rows),
        "",
        f"Solver: HiGHS {stats.solver}, {count_text(stats.iterations)} iterations, LP "
        f"{count_text(stats.variables)} variables × {count_text(stats.constraints)} constraints",
    ]
    lines += strategy_sections(game, behaviour_tables(solution.strategies, names), strategies)
    return "\n".join(lines)
