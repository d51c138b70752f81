"""Turning a :class:`~seqform.analyses.solve.Solution` into text for people and JSON for programs.

JSON schema ``seqform.solve/1`` (stable; new keys may be added, none removed or renamed)::

    {
      "schema": "seqform.solve/1",
      "game": {"name": str, "description": str, "terminals": int},
      "method": "sequence" | "normal",
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
      "normal_form": {                      # only when "method" is "normal"
        "reduced": bool,                    # the reduced normal form was solved
        "players": [{"pure_strategies": COUNT, "reduced_pure_strategies": COUNT}, ×2],
        "matrix_shape": [rows, cols], "matrix_entries": int, "matrix_nonzeros": int,
        "build_seconds": float,
        "kuhn_theorem": {"constraint_residuals": [float, float],
                         "payoff_gaps": [float, float]}
      }
    }

A COUNT is ``{"exact": str, "log10": float}``: the exact integer as a string.  For the
normal method, "solver" describes the matrix-game LP and "timings.sequence_form" includes
building the normal form.

Players are numbered 1 and 2 in every output (index 0 and 1 in the library).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from seqform.analyses.normal import NormalFormSummary
from seqform.analyses.solve import Solution, Timings
from seqform.certify import Certificate
from seqform.forms.normal_counts import count_json, count_text
from seqform.forms.strategies import BehaviouralStrategy
from seqform.lp.minmax import SolverStats

__all__ = [
    "EQUILIBRIUM_TOLERANCE",
    "SCHEMA",
    "certificate_json",
    "fraction_text",
    "matching_fraction",
    "solution_json",
    "solution_text",
    "solver_json",
    "strategy_json",
    "strategy_table",
    "timings_json",
]

SCHEMA = "seqform.solve/1"
EQUILIBRIUM_TOLERANCE = 1e-9
FRACTION_TOLERANCE = 1e-9
MAX_DENOMINATOR = 1000


def matching_fraction(
    value: float, max_denominator: int = MAX_DENOMINATOR, tol: float = FRACTION_TOLERANCE
) -> Fraction | None:
    """The fraction with denominator ``<= max_denominator`` within ``tol`` of ``value``."""
    candidate = Fraction(value).limit_denominator(max_denominator)
    return candidate if abs(float(candidate) - value) <= tol else None


def fraction_text(value: float) -> str | None:
    """``"-1/18"`` for -0.0555…, ``"0"`` for 0.0, ``None`` when no small fraction matches."""
    fraction = matching_fraction(value)
    return None if fraction is None else str(fraction)


def strategy_json(strategy: BehaviouralStrategy, name: str, words: Any) -> dict[str, Any]:
    """One entry of ``"strategies"``: a player's behaviour, information set by set."""
    table = strategy.table
    infosets = []
    for index, infoset in enumerate(table.infosets):
        actions = [
            {
                "action": action,
                "words": words(infoset, action),
                "probability": float(strategy.probabilities[sequence]),
            }
            for action, sequence in zip(
                table.actions[index], table.sequences_of(index), strict=True
            )
        ]
        infosets.append(
            {"name": infoset, "unreached": bool(strategy.unreached[index]), "actions": actions}
        )
    return {"player": table.player + 1, "name": name, "infosets": infosets}


def solver_json(stats: SolverStats) -> dict[str, Any]:
    """The ``"solver"`` object of the JSON schemas."""
    return {
        "backend": stats.backend,
        "algorithm": stats.algorithm,
        "status": stats.status,
        "iterations": stats.iterations,
        "seconds": stats.seconds,
        "solver_seconds": stats.solver_seconds,
        "variables": stats.variables,
        "constraints": stats.constraints,
        "nonzeros": stats.nonzeros,
    }


def timings_json(timings: Timings) -> dict[str, float]:
    """The ``"timings"`` object of the JSON schemas (seconds per stage, and their total)."""
    return {
        "sequence_form": timings.sequence_form,
        "lp": timings.lp,
        "behaviour": timings.behaviour,
        "certificate": timings.certificate,
        "total": timings.total,
    }


def certificate_json(certificate: Certificate) -> dict[str, Any]:
    """The ``"certificate"`` object of the JSON schemas."""
    exploitability = float(certificate.exploitability)
    return {
        "expected_value": float(certificate.value),
        "best_response_values": [float(v) for v in certificate.best_response_values],
        "gains": [float(v) for v in certificate.gains],
        "exploitability": exploitability,
        "tolerance": EQUILIBRIUM_TOLERANCE,
        "equilibrium": exploitability <= EQUILIBRIUM_TOLERANCE,
    }


def solution_json(
    solution: Solution,
    method: str = "sequence",
    normal_form: NormalFormSummary | None = None,
) -> dict[str, Any]:
    """The solution as a JSON-ready dict in schema ``seqform.solve/1``.

    ``normal_form`` (for ``method="normal"``) adds the normal-form sizes and checks.
    """
    form, game = solution.form, solution.game
    certificate = solution.certificate
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
    document = {
        "schema": SCHEMA,
        "game": {
            "name": game.name,
            "description": game.description,
            "terminals": form.num_terminals,
        },
        "method": method,
        "value": solution.value,
        "value_fraction": fraction_text(solution.value),
        "sizes": {
            "players": players,
            "payoff_shape": list(form.A.shape),
            "payoff_nonzeros": int(form.A.nnz),
        },
        "solver": solver_json(solution.stats),
        "timings": timings_json(solution.timings),
        "certificate": certificate_json(certificate),
        "strategies": [
            strategy_json(
                solution.behaviour[player], game.player_names[player], game.describe_action
            )
            for player in (0, 1)
        ],
    }
    if normal_form is not None:
        document["normal_form"] = _normal_form_json(normal_form)
    return document


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
        "kuhn_theorem": {
            "constraint_residuals": list(summary.constraint_residuals),
            "payoff_gaps": list(summary.payoff_gaps),
        },
    }


def _normal_form_lines(summary: NormalFormSummary, names: tuple[str, str]) -> list[str]:
    counts = summary.counts
    rows = [
        ("", names[0], names[1]),
        ("pure strategies", count_text(counts.pure[0]), count_text(counts.pure[1])),
        ("reduced pure strategies", count_text(counts.reduced[0]), count_text(counts.reduced[1])),
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(3)]
    kind = "reduced" if summary.reduced else "full"
    lines = ["", "Normal form (Kuhn 1953), solved as a matrix game"]
    for label, first, second in rows:
        lines.append(
            f"  {label:<{widths[0]}}  {first:>{widths[1]}}  {second:>{widths[2]}}".rstrip()
        )
    lines += [
        f"  payoff matrix ({kind}): {summary.shape[0]}×{summary.shape[1]}, "
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
    return f"{matrix.shape[0]}×{matrix.shape[1]}"


def strategy_table(strategy: BehaviouralStrategy, name: str, words: Any) -> list[str]:
    """Lines of a table: one row per information set, its actions in words with odds."""
    table = strategy.table
    width = max((len(n) for n in table.infosets), default=4)
    width = max(width, len("infoset"))
    lines = [f"{name} — behavioural strategy", f"  {'infoset':<{width}}  action probabilities"]
    for index, infoset in enumerate(table.infosets):
        parts = []
        for action, sequence in zip(table.actions[index], table.sequences_of(index), strict=True):
            probability = float(strategy.probabilities[sequence])
            exact = matching_fraction(probability, max_denominator=100)
            shown = f" ({exact})" if exact is not None and exact.denominator > 1 else ""
            parts.append(f"{words(infoset, action)} {probability:.4f}{shown}")
        flag = "   (unreached by own play: see docs)" if strategy.unreached[index] else ""
        lines.append(f"  {infoset:<{width}}  {'  '.join(parts)}{flag}")
    return lines


def solution_text(solution: Solution, normal_form: NormalFormSummary | None = None) -> str:
    """A human-readable report: value, sizes, solver, certificate, strategies.

    ``normal_form`` (a solution found through the normal form) adds its sizes and checks.
    """
    form, game = solution.form, solution.game
    certificate = solution.certificate
    fraction = fraction_text(solution.value)
    value_line = f"Value to {game.player_names[0]}: {solution.value:+.10f}"
    if fraction is not None:
        value_line += f"  (= {fraction})"
    p0, p1 = form.players
    rows = [
        ("", game.player_names[0], game.player_names[1]),
        ("information sets", str(p0.num_infosets), str(p1.num_infosets)),
        ("sequences", str(p0.num_sequences), str(p1.num_sequences)),
        ("E, F shape", _shape(form.E), _shape(form.F)),
        ("E, F non-zeros", str(form.E.nnz), str(form.F.nnz)),
    ]
    widths = [max(len(row[column]) for row in rows) for column in range(3)]
    lines = [
        f"Game: {game.name}" + (f" — {game.description}" if game.description else ""),
        value_line,
        "",
        "Sequence form (KMvS 1996)",
    ]
    for label, first, second in rows:
        lines.append(
            f"  {label:<{widths[0]}}  {first:>{widths[1]}}  {second:>{widths[2]}}".rstrip()
        )
    lines.append(
        f"  payoff matrix A: {_shape(form.A)}, {form.A.nnz} non-zeros; "
        f"{form.num_terminals} terminal histories"
    )
    if normal_form is not None:
        lines += _normal_form_lines(normal_form, game.player_names)
    stats = solution.stats
    lines += [
        "",
        f"Solver: HiGHS {stats.algorithm} via {stats.backend}, {stats.status} after "
        f"{stats.iterations} iterations",
        f"  LP {stats.variables} variables × {stats.constraints} constraints; "
        f"solve {stats.seconds:.3f} s, total {solution.timings.total:.3f} s",
    ]
    exploitability = float(certificate.exploitability)
    verdict = (
        f"equilibrium (≤ {EQUILIBRIUM_TOLERANCE:g})"
        if exploitability <= EQUILIBRIUM_TOLERANCE
        else f"NOT an equilibrium within {EQUILIBRIUM_TOLERANCE:g}"
    )
    lines += [
        "Certificate (best responses on the game tree, independent of the LP):",
        f"  expected value {float(certificate.value):+.10f}; best response of "
        f"{game.player_names[0]} {float(certificate.best_response_values[0]):+.10f}, "
        f"of {game.player_names[1]} {float(certificate.best_response_values[1]):+.10f}",
        f"  exploitability (NashConv) {exploitability:.3g}: {verdict}",
    ]
    for player in (0, 1):
        lines.append("")
        lines += strategy_table(
            solution.behaviour[player], game.player_names[player], game.describe_action
        )
    if any(s.unreached.any() for s in solution.behaviour):
        lines += [
            "",
            "Unreached: the player's own strategy never reaches that information set, so",
            "its probabilities there do not affect any payoff "
            "(the rule in seqform.forms.strategies).",
        ]
    return "\n".join(lines)
