"""``compare``: the normal form beside the sequence form, as text and JSON.

JSON schema ``seqform.compare/1``.  A COUNT is ``{"exact": str | null, "log10": float}``:
the exact integer as a string, ``null`` when it has more than 1 000 digits (``log10`` is
always given; :func:`seqform.forms.normal_counts.count_json`)::

    {
      "schema": "seqform.compare/1",
      "game": {"name": str, "description": str, "terminals": int},
      "max_entries": int | null,            # null when over 1 000 digits (--max-entries 10^5000)
      "max_entries_log10": float,
      "players": [{"name": str, "infosets": int, "sequences": int,
                   "pure_strategies": COUNT, "reduced_pure_strategies": COUNT}, ×2],
      "overall": {"infosets": int, "sequences": int, "pure_strategy_profiles": COUNT,
                  "reduced_pure_strategy_profiles": COUNT},
      "sequence_form": {"E": MATRIX, "F": MATRIX, "A": MATRIX},   # {"shape", "nonzeros"}
      "normal_form": {"full": NF, "reduced": NF},
          # NF = {"shape": [COUNT, COUNT], "entries": COUNT, "fits": bool,
          #       "nonzeros": int | null (when built)}
      "formulations": [{"name": "sequence" | "normal" | "reduced_normal",
                        "variables": COUNT, "constraints": COUNT,
                        "nonzeros": COUNT | null, "fits": bool, "solved": bool,
                        "build_seconds": float | null, "lp_seconds": float | null,
                        "value": float | null, "value_fraction": str | null,
                        "exploitability": float | null,
                        "kuhn_theorem": {"constraint_residuals": [float, float],
                                         "payoff_gaps": [float, float]} | null}, ×3],
      "values_agree": bool | null,          # all solved values within 1e-9
      "strategies": {"sequence": [...], "normal": [...]}  # as in seqform.solve/1, if solved
    }
"""

from __future__ import annotations

from typing import Any

from seqform.analyses.compare import VALUE_TOLERANCE, Comparison, Formulation
from seqform.base.numbers import count_log10
from seqform.cli.render.blocks import (
    EQUILIBRIUM_TOLERANCE,
    constant_sum_lines,
    game_json,
    header,
    strategy_json,
)
from seqform.cli.render.numbers import count_json, count_text, fraction_text, json_int, value_text
from seqform.cli.render.report import kuhn_theorem_json
from seqform.cli.render.strategies import StrategyTable, strategy_sections
from seqform.cli.render.tables import aligned_table, left_table
from seqform.io.documents import COMPARE

__all__ = ["SCHEMA", "comparison_json", "comparison_text", "summary_line"]

SCHEMA = COMPARE


def _matrix_json(matrix: Any) -> dict[str, Any]:
    return {"shape": list(matrix.shape), "nonzeros": int(matrix.nnz)}


def _formulation_json(formulation: Formulation) -> dict[str, Any]:
    solution = formulation.solution
    normal = formulation.normal
    return {
        "name": formulation.name,
        "variables": count_json(formulation.variables),
        "constraints": count_json(formulation.constraints),
        "nonzeros": None if formulation.nonzeros is None else count_json(formulation.nonzeros),
        "fits": formulation.fits,
        "solved": solution is not None,
        "build_seconds": formulation.build_seconds,
        "lp_seconds": None if solution is None else solution.stats.seconds,
        "value": None if solution is None else solution.value,
        "value_fraction": None if solution is None else fraction_text(solution.value),
        "exploitability": None if solution is None else solution.exploitability,
        "kuhn_theorem": None if normal is None else kuhn_theorem_json(normal.summary),
    }


def _normal_form_json(comparison: Comparison) -> dict[str, Any]:
    counts = comparison.counts
    normal_form = {}
    for formulation, reduced in zip(comparison.formulations[1:], (False, True), strict=True):
        rows, columns = counts.shape(reduced)
        built = formulation.normal
        normal_form["reduced" if reduced else "full"] = {
            "shape": [count_json(rows), count_json(columns)],
            "entries": count_json(counts.entries(reduced)),
            "fits": formulation.fits,
            "nonzeros": None if built is None else built.summary.nonzeros,
        }
    return normal_form


def _strategies_json(comparison: Comparison) -> dict[str, Any]:
    game = comparison.game
    strategies = {}
    for formulation in comparison.formulations[:2]:
        if formulation.solution is not None:
            strategies[formulation.name] = [
                strategy_json(
                    formulation.solution.strategies[player],
                    game.player_names[player],
                    game.describe_action,
                )
                for player in (0, 1)
            ]
    return strategies


def comparison_json(comparison: Comparison) -> dict[str, Any]:
    """The comparison as a JSON-ready dict in schema ``seqform.compare/1``."""
    game, form, counts = comparison.game, comparison.form, comparison.counts
    players = [
        {
            "name": game.player_names[player],
            "infosets": form.players[player].num_infosets,
            "sequences": form.players[player].num_sequences,
            "pure_strategies": count_json(counts.pure[player]),
            "reduced_pure_strategies": count_json(counts.reduced[player]),
        }
        for player in (0, 1)
    ]
    return {
        "schema": SCHEMA,
        "game": game_json(game.name, game.description, terminals=form.num_terminals),
        "max_entries": json_int(comparison.max_entries),
        "max_entries_log10": count_log10(comparison.max_entries),
        "players": players,
        "overall": {
            "infosets": sum(p["infosets"] for p in players),
            "sequences": sum(p["sequences"] for p in players),
            "pure_strategy_profiles": count_json(counts.profiles),
            "reduced_pure_strategy_profiles": count_json(counts.reduced_profiles),
        },
        "sequence_form": {
            "E": _matrix_json(form.E),
            "F": _matrix_json(form.F),
            "A": _matrix_json(form.A),
        },
        "normal_form": _normal_form_json(comparison),
        "formulations": [_formulation_json(f) for f in comparison.formulations],
        "values_agree": comparison.values_agree,
        "strategies": _strategies_json(comparison),
    }


def _shape_text(rows: int, columns: int) -> str:
    """``"64 × 64"``; huge sides as ``"10^168.4"`` (the product is marked approximate)."""
    return " × ".join(count_text(side).removeprefix("≈ ") for side in (rows, columns))


def summary_line(comparison: Comparison) -> str:
    """``"30 terminal histories, 12 information sets (6 + 6), 4 096 pure strategy
    profiles (64 × 64)"``."""
    form, counts = comparison.form, comparison.counts
    infosets = [table.num_infosets for table in form.players]
    return (
        f"{count_text(form.num_terminals)} terminal histories, "
        f"{count_text(sum(infosets))} information sets "
        f"({count_text(infosets[0])} + {count_text(infosets[1])}), "
        f"{count_text(counts.profiles)} pure strategy profiles ({_shape_text(*counts.pure)})"
    )


def _count_lines(comparison: Comparison) -> list[str]:
    """Information sets, sequences, pure and reduced pure strategies, per player and overall."""
    names, counts = comparison.game.player_names, comparison.counts
    p0, p1 = comparison.form.players

    def row(label: str, first: int, second: int, overall: int) -> tuple[str, ...]:
        return (label, count_text(first), count_text(second), count_text(overall))

    return aligned_table(
        [
            ("", names[0], names[1], "overall"),
            row(
                "information sets",
                p0.num_infosets,
                p1.num_infosets,
                p0.num_infosets + p1.num_infosets,
            ),
            row(
                "sequences",
                p0.num_sequences,
                p1.num_sequences,
                p0.num_sequences + p1.num_sequences,
            ),
            row("pure strategies", *counts.pure, counts.profiles),
            row("reduced pure strategies", *counts.reduced, counts.reduced_profiles),
        ],
        indent="",
    )


def _matrix_lines(comparison: Comparison) -> list[str]:
    """The normal-form matrices and the sequence-form matrices, in one aligned table."""
    form, counts, names = comparison.form, comparison.counts, comparison.game.player_names
    rows = []
    for formulation, reduced in zip(comparison.formulations[1:], (False, True), strict=True):
        detail = f"{count_text(counts.entries(reduced))} entries"
        if formulation.normal is not None:
            detail += f", {count_text(formulation.normal.summary.nonzeros)} non-zeros"
        elif not formulation.fits:
            detail += ": over the limit, not built"
        kind = "reduced" if reduced else "full"
        rows.append((f"{kind} matrix M", _shape_text(*counts.shape(reduced)), detail))
    sequence_rows = [
        (f"{label} ({what})", _shape_text(*matrix.shape), f"{count_text(matrix.nnz)} non-zeros")
        for label, what, matrix in (
            ("E", f"{names[0]} constraints", form.E),
            ("F", f"{names[1]} constraints", form.F),
            ("A", "payoffs", form.A),
        )
    ]
    # One table for both blocks so that their columns line up.
    aligned = left_table(rows + sequence_rows)
    return [
        f"Normal form (Kuhn 1953), limit {count_text(comparison.max_entries)} entries",
        *aligned[: len(rows)],
        "Sequence form (KMvS 1996)",
        *aligned[len(rows) :],
    ]


def _strategy_lines(comparison: Comparison, strategies: str) -> list[str]:
    """Both formulations' strategies, shown only when the normal form was solved too."""
    if comparison.formulations[1].solution is None:
        return []
    game = comparison.game
    tables = []
    for formulation in comparison.formulations[:2]:
        if formulation.solution is None:
            continue
        source = (
            "sequence-form LP"
            if formulation.name == "sequence"
            else "normal-form LP, via Kuhn's theorem"
        )
        tables += [
            StrategyTable(
                formulation.solution.strategies[player],
                f"{game.player_names[player]} ({source}) — behavioural strategy",
            )
            for player in (0, 1)
        ]
    return strategy_sections(game, tables, strategies)


def comparison_text(comparison: Comparison, strategies: str = "auto") -> str:
    """A human-readable side-by-side report of both formulations; ``strategies`` is
    ``--strategies``."""
    game = comparison.game
    lines = [
        header(game.name, game.description),
        *constant_sum_lines(game),
        f"Summary: {summary_line(comparison)}",
        "",
        *_count_lines(comparison),
        "",
        *_matrix_lines(comparison),
        "",
        *_lp_lines(comparison),
        *_kuhn_lines(comparison),
        *_strategy_lines(comparison, strategies),
    ]
    return "\n".join(lines)


def _lp_row(formulation: Formulation) -> tuple[str, ...]:
    solution = formulation.solution
    if solution is None:
        value = "not solved" if formulation.fits else "over the limit"
        timing = ("", "")
        exploitability = ""
    else:
        value = value_text(solution.value)
        timing = (f"{formulation.build_seconds:.4f}", f"{solution.stats.seconds:.4f}")
        exploitability = f"{solution.exploitability:.1e}"
    nonzeros = "" if formulation.nonzeros is None else count_text(formulation.nonzeros)
    return (
        formulation.title,
        count_text(formulation.variables),
        count_text(formulation.constraints),
        nonzeros,
        *timing,
        value,
        exploitability,
    )


def _agreement_line(comparison: Comparison) -> list[str]:
    agree = comparison.values_agree
    if agree is None:
        return []
    solved = [f.solution for f in comparison.formulations if f.solution is not None]
    values = [solution.value for solution in solved]
    spread = max(values) - min(values)
    verdict = "agree" if agree else "DISAGREE"
    exploitabilities = (
        f"all exploitabilities ≤ {EQUILIBRIUM_TOLERANCE:g}"
        if all(s.exploitability <= EQUILIBRIUM_TOLERANCE for s in solved)
        else f"some exploitability above {EQUILIBRIUM_TOLERANCE:g}"
    )
    return [
        f"Values {verdict}: largest difference {spread:.1e} (tolerance {VALUE_TOLERANCE:g}); "
        + exploitabilities
    ]


def _lp_lines(comparison: Comparison) -> list[str]:
    header_row = (
        "LP",
        "variables",
        "constraints",
        "non-zeros",
        "build (s)",
        "LP (s)",
        "value",
        "exploitability",
    )
    rows = [header_row, *(_lp_row(f) for f in comparison.formulations)]
    lines = aligned_table(rows, indent="")
    solved = [f.solution for f in comparison.formulations if f.solution is not None]
    if solved:
        stats = solved[0].stats
        lines.append(
            f"(HiGHS {stats.algorithm} via {stats.backend}; exploitability is NashConv, "
            "measured by best response on the tree)"
        )
    return lines + _agreement_line(comparison)


def _kuhn_lines(comparison: Comparison) -> list[str]:
    rows: list[tuple[str, ...]] = [("", "max |Ex − e|", "max |Fy − f|", "payoff gap")]
    for formulation in comparison.formulations[1:]:
        if formulation.normal is None:
            continue
        summary = formulation.normal.summary
        rows.append(
            (
                formulation.title,
                f"{summary.constraint_residuals[0]:.1e}",
                f"{summary.constraint_residuals[1]:.1e}",
                f"{max(summary.payoff_gaps):.1e}",
            )
        )
    if len(rows) == 1:
        return []
    return [
        "",
        "Kuhn's theorem (Kuhn 1953): the mixed strategies as realization plans, and the largest",
        "payoff gap between each mixed strategy and its behavioural strategy against any",
        "opponent sequence",
        *aligned_table(rows),
    ]
