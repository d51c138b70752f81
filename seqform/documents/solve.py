"""The ``seqform.solve/2`` document: a solution found on the game tree (the tree, normal-form
and restricted routes; the exact and refined documents, :mod:`seqform.documents.exact` and
:mod:`seqform.documents.refine`, start from it).

Schema ``seqform.solve/2`` (``seqform/io/schemas/solve.schema.json``; new keys may be added,
none removed or renamed)::

    {
      "schema": "seqform.solve/2",
      "game": {"name": str, "description": str, "terminals": int,
               "labels": str | null},       # the built-in game whose labels it uses
      "method": "tree" | "normal",         # the route that solved it
      "value": float,                       # to player 1 (index 0)
      "value_fraction": str | null,         # e.g. "-1/18" when one with denominator
                                            # <= 1000 matches to 1e-9
      "sizes": {
        "players": [{"name": str, "infosets": int, "sequences": int,
                     "constraint_shape": [rows, cols], "constraint_nonzeros": int}, ×2],
        "payoff_shape": [rows, cols], "payoff_nonzeros": int
      },
      "solver": {"backend", "solver", "status", "iterations", "seconds",
                 "solver_seconds", "variables", "constraints", "nonzeros"},
      "timings": {"sequence_form", "lp", "behaviour", "certificate", "total"},  # seconds
      "certificate": {"expected_value": float, "best_response_values": [float, float],
                      "gains": [float, float], "exploitability": float,
                      "tolerance": float, "equilibrium": bool},
      "strategies": [{"player": 1 | 2, "name": str,
                      "infosets": [{"name": str, "unreached": bool,
                                    "actions": [{"action": str, "words": str,
                                                 "probability": float}]}]}, ×2],
      "constant_sum": {                     # only for a constant-sum game, sum c != 0
        "total": str, "value_to_player_2": float, "value_to_player_2_exact": str | null,
        "treated_as": str
      },
      "normal_form": {                      # only when "method" is "normal"
        "reduced": bool,                    # the reduced normal form was solved
        "players": [{"pure_strategies": COUNT, "reduced_pure_strategies": COUNT}, ×2],
        "matrix_shape": [rows, cols], "matrix_entries": int, "matrix_nonzeros": int,
        "build_seconds": float,
        "kuhn_theorem": {"constraint_residuals": [float, float],
                         "payoff_gaps": [float, float]}
      },
      "restrictions": {                     # only for a restricted game (solve --fix)
        "bounds": [{"infoset": str, "action": str, "lower": str, "upper": str}],
        "restricted_players": [1 | 2], "certificate": "restricted best responses"
      }
    }

A COUNT is ``{"exact": str | null, "log10": float}``: the exact integer as a string, ``null``
when it has more than 1 000 digits (``log10`` is always given).  For the normal method,
"solver" describes the matrix-game LP and "timings.sequence_form" includes building the
normal form.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol

from seqform.base.counts import count_json
from seqform.base.numbers import fraction_text, json_float
from seqform.documents.objects import (
    certificate_json,
    constant_sum_json,
    float_strategies,
    game_json,
    solver_json,
    strategy_json,
    timings_json,
)
from seqform.documents.registry import builds
from seqform.forms.sequence_form import SequenceForm
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.builtin.labels import grammar_name
from seqform.game.model import Game
from seqform.io.documents import SOLVE
from seqform.routes.normal import NormalFormSolution, NormalFormSummary
from seqform.routes.restrict import RestrictedSolution, Restrictions
from seqform.routes.result import Result
from seqform.routes.tree import Solution

__all__ = [
    "TreeResult",
    "kuhn_theorem_json",
    "restrictions_json",
    "solution_document",
    "solve_document",
]


class TreeResult(Result[BehaviouralStrategy], Protocol):
    """A :class:`~seqform.routes.result.Result` found on the game tree: the sequence
    form, normal form, restricted, exact and refined routes."""

    @property
    def game(self) -> Game: ...

    @property
    def form(self) -> SequenceForm: ...


def solve_document(result: TreeResult, method: str = "tree") -> dict[str, Any]:
    """The keys every ``seqform.solve/2`` document has, for any result on the tree.

    Exact strategies are shown as floats and an exact value (a ``Fraction``) gives
    ``value_fraction`` exactly; the exact and refined documents add keys of their own.
    ``method`` is the route as the document names it (``"tree"`` or ``"normal"``).
    """
    game, form = result.game, result.form
    players = []
    for player in (0, 1):
        matrix, _ = form.constraints(player)
        table = form.players[player]
        players.append(
            {
                "name": game.player_names[player],
                "infosets": table.num_infosets,
                "sequences": table.num_sequences,
                "constraint_shape": list(matrix.shape),
                "constraint_nonzeros": int(matrix.nnz),
            }
        )
    value = result.value
    strategies = float_strategies(result.strategies)
    document = {
        "schema": SOLVE,
        "game": game_json(
            game.name,
            game.description,
            terminals=form.num_terminals,
            labels=grammar_name(game),
        ),
        "method": method,
        "value": json_float(value),
        "value_fraction": str(value) if isinstance(value, Fraction) else fraction_text(value),
        "sizes": {
            "players": players,
            "payoff_shape": list(form.A.shape),
            "payoff_nonzeros": int(form.A.nnz),
        },
        "solver": solver_json(result.stats),
        "timings": timings_json(result.timings),
        "certificate": certificate_json(result.certificate),
        "strategies": [
            strategy_json(strategies[player], game.player_names[player], game.describe_action)
            for player in (0, 1)
        ],
    }
    shifted = constant_sum_json(game, value)
    if shifted is not None:
        document["constant_sum"] = shifted
    return document


@builds(Solution, NormalFormSolution, RestrictedSolution)
def solution_document(solution: Solution) -> dict[str, Any]:
    """The ``seqform.solve/2`` document of a solution on the tree or normal-form route.

    A solution through the normal form adds the ``"normal_form"`` sizes and checks; one of
    a restricted game the ``"restrictions"``.
    """
    document = solve_document(solution, method=solution.route)
    if isinstance(solution, NormalFormSolution):
        document["normal_form"] = _normal_form_json(solution.normal.summary)
    if isinstance(solution, RestrictedSolution):
        document["restrictions"] = restrictions_json(solution.restrictions)
    return document


def restrictions_json(restrictions: Restrictions) -> dict[str, Any]:
    """The ``"restrictions"`` object of a restricted game (``solve --fix``)."""
    return {
        "bounds": [
            {"infoset": b.infoset, "action": b.action, "lower": str(b.lower), "upper": str(b.upper)}
            for b in restrictions.bounds
        ],
        "restricted_players": [p + 1 for p in restrictions.players()],
        "certificate": "restricted best responses",
    }


def kuhn_theorem_json(summary: NormalFormSummary) -> dict[str, list[float]]:
    """The ``"kuhn_theorem"`` checks of a solved normal form."""
    return {
        "constraint_residuals": list(summary.constraint_residuals),
        "payoff_gaps": list(summary.payoff_gaps),
    }


def _normal_form_json(summary: NormalFormSummary) -> dict[str, Any]:
    counts = summary.counts
    return {
        "reduced": summary.reduced,
        "players": [
            {
                "pure_strategies": count_json(counts.pure[player]),
                "reduced_pure_strategies": count_json(counts.reduced[player]),
            }
            for player in (0, 1)
        ],
        "matrix_shape": list(summary.shape),
        "matrix_entries": summary.entries,
        "matrix_nonzeros": summary.nonzeros,
        "build_seconds": summary.build_seconds,
        "kuhn_theorem": kuhn_theorem_json(summary),
    }
