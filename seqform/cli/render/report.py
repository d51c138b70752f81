"""``solve``: a :class:`~seqform.analyses.solve.Solution` as text for people and JSON for programs.

JSON schema ``seqform.solve/1`` (stable; new keys may be added, none removed or renamed)::

    {
      "schema": "seqform.solve/1",
      "game": {"name": str, "description": str, "terminals": int},
      "method": "tree" | "normal",         # "sequence" before 19.4 meant "tree"
      "value": float,                       # to player 1 (index 0)
      "value_fraction": str | null,         # e.g. "-1/18" when one with denominator
                                            # <= 1000 matches to 1e-9
      "sizes": {
        "players": [{"name": str, "infosets": int, "sequences": int,
                     "constraint_shape": [rows, cols], "constraint_nonzeros": int}, ×2],
        "payoff_shape": [rows, cols], "payoff_nonzeros": int
      },
      "solver": {"backend", "algorithm", "status", "iterations", "seconds",
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
      }
    }

A COUNT is ``{"exact": str | null, "log10": float}``: the exact integer as a string, ``null``
when it has more than 1 000 digits (``log10`` is always given).  For the
normal method, "solver" describes the matrix-game LP and "timings.sequence_form" includes
building the normal form.

Players are numbered 1 and 2 in every output (index 0 and 1 in the library).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol

from seqform.analyses.normal import NormalFormSolution, NormalFormSummary
from seqform.analyses.restrict import RestrictedSolution
from seqform.analyses.result import Result
from seqform.analyses.tree import Solution
from seqform.cli.render.blocks import (
    certificate_json,
    certificate_lines,
    constant_sum_json,
    constant_sum_lines,
    float_strategies,
    game_json,
    header,
    json_float,
    solver_json,
    strategy_json,
    timings_json,
    value_lines,
)
from seqform.cli.render.numbers import count_json, count_text, fraction_text
from seqform.cli.render.restrict import restrictions_json
from seqform.cli.render.strategies import behaviour_tables, strategy_sections
from seqform.cli.render.tables import aligned_table
from seqform.forms.sequence_form import SequenceForm
from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.io.documents import SOLVE

__all__ = ["SCHEMA", "TreeResult", "solution_json", "solution_text", "solve_document"]

SCHEMA = SOLVE


class TreeResult(Result[BehaviouralStrategy], Protocol):
    """A :class:`~seqform.analyses.result.Result` found on the game tree: the sequence
    form, normal form, restricted, exact and refined routes."""

    @property
    def game(self) -> Game: ...

    @property
    def form(self) -> SequenceForm: ...


def solve_document(result: TreeResult, method: str = "tree") -> dict[str, Any]:
    """The ``seqform.solve/1`` document of any result on the tree.

    Exact strategies are shown as floats and an exact value (a ``Fraction``) gives
    ``value_fraction`` exactly; the exact and refined reports add keys of their own.
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
        "schema": SCHEMA,
        "game": game_json(game.name, game.description, terminals=form.num_terminals),
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


def solution_json(solution: Solution) -> dict[str, Any]:
    """The solution as a JSON-ready dict in schema ``seqform.solve/1``.

    A solution through the normal form adds the ``"normal_form"`` sizes and checks; one of
    a restricted game the ``"restrictions"`` (:mod:`seqform.cli.render.restrict`).
    """
    # The library's "sequence" is the CLI's --method tree; documents say "tree" (issue 19.4).
    method = "tree" if solution.method == "sequence" else solution.method
    document = solve_document(solution, method=method)
    if isinstance(solution, NormalFormSolution):
        document["normal_form"] = _normal_form_json(solution.normal.summary)
    if isinstance(solution, RestrictedSolution):
        document["restrictions"] = restrictions_json(solution.restrictions)
    return document


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


def _normal_form_lines(summary: NormalFormSummary, names: tuple[str, str]) -> list[str]:
    counts = summary.counts
    kind = "reduced" if summary.reduced else "full"
    lines = ["", "Normal form (Kuhn 1953), solved as a matrix game"]
    lines += aligned_table(
        [
            ("", names[0], names[1]),
            ("pure strategies", count_text(counts.pure[0]), count_text(counts.pure[1])),
            (
                "reduced pure strategies",
                count_text(counts.reduced[0]),
                count_text(counts.reduced[1]),
            ),
        ]
    )
    lines += [
        f"  payoff matrix ({kind}): {count_text(summary.shape[0])}×{count_text(summary.shape[1])}, "
        f"{count_text(summary.entries)} entries, {count_text(summary.nonzeros)} non-zeros; "
        f"built in {summary.build_seconds:.3f} s",
        f"  Kuhn's theorem: mixed strategies → realization plans, max |Ex − e| "
        f"{summary.constraint_residuals[0]:.1e}, max |Fy − f| "
        f"{summary.constraint_residuals[1]:.1e};",
        f"    behavioural vs mixed payoff against every opponent sequence differs by "
        f"≤ {max(summary.payoff_gaps):.1e}",
    ]
    return lines


def _shape(matrix: Any) -> str:
    return f"{count_text(matrix.shape[0])}×{count_text(matrix.shape[1])}"


def _sequence_form_lines(form: SequenceForm, names: tuple[str, str]) -> list[str]:
    p0, p1 = form.players
    lines = ["Sequence form (KMvS 1996)"]
    lines += aligned_table(
        [
            ("", names[0], names[1]),
            ("information sets", count_text(p0.num_infosets), count_text(p1.num_infosets)),
            ("sequences", count_text(p0.num_sequences), count_text(p1.num_sequences)),
            ("E, F shape", _shape(form.E), _shape(form.F)),
            ("E, F non-zeros", count_text(form.E.nnz), count_text(form.F.nnz)),
        ]
    )
    lines.append(
        f"  payoff matrix A: {_shape(form.A)}, {count_text(form.A.nnz)} non-zeros; "
        f"{count_text(form.num_terminals)} terminal histories"
    )
    return lines


def solution_text(solution: Solution, strategies: str = "auto") -> str:
    """A human-readable report: value, sizes, solver, certificate, strategies.

    A solution through the normal form adds the normal form's sizes and checks;
    ``strategies`` is ``--strategies`` (:func:`seqform.cli.render.strategies.strategy_sections`).
    """
    game, stats = solution.game, solution.stats
    names = (game.player_names[0], game.player_names[1])  # a solved game has two players
    lines = [
        header(game.name, game.description),
        *value_lines(f"Value to {names[0]}", solution.value, solution.certificate),
        *constant_sum_lines(game, solution.value),
        "",
        *_sequence_form_lines(solution.form, names),
    ]
    if isinstance(solution, NormalFormSolution):
        lines += _normal_form_lines(solution.normal.summary, names)
    lines += [
        "",
        f"Solver: HiGHS {stats.algorithm} via {stats.backend}, {stats.status} after "
        f"{count_text(stats.iterations)} iterations",
        f"  LP {count_text(stats.variables)} variables × {count_text(stats.constraints)} "
        "constraints; "
        f"solve {stats.seconds:.3f} s, total {solution.timings.total:.3f} s",
        *certificate_lines(solution.certificate, names, "best responses on the game tree"),
    ]
    lines += strategy_sections(game, behaviour_tables(solution.strategies, names), strategies)
    return "\n".join(lines)
