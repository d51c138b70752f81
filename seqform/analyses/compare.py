"""The normal form beside the sequence form: sizes of both, and both LPs solved side by side.

Sizes (exact integers; see :mod:`seqform.forms.normal_form` for the counts):

* per player: information sets, sequences, pure strategies ``prod_h |A(h)|``, reduced pure
  strategies ``R(empty)``;
* normal form: the matrix ``M = P0.T @ A @ P1``, full and reduced, its shape and entries;
* sequence form (KMvS 1996, eq. 8-9): ``E``, ``F``, ``A``, their shapes and non-zeros;
* both min-max LPs (:mod:`seqform.lp.minmax`): the merged LP has ``cols(E) + rows(F)`` variables,
  ``cols(F) + rows(E)`` constraints and ``nnz(A) + nnz(E) + nnz(F)`` non-zeros; for a matrix
  game ``E = F = (1 ... 1)``, so ``m + 1`` variables and ``n + 1`` constraints for an
  ``m × n`` matrix.

Each formulation whose matrix fits the size limit is then solved, and the values,
exploitabilities and behavioural strategies are reported side by side (those of the normal
form mapped to the sequence form by Kuhn's theorem, Kuhn 1953).

JSON schema ``seqform.compare/1`` (COUNT is ``{"exact": str, "log10": float}``)::

    {
      "schema": "seqform.compare/1",
      "game": {"name": str, "description": str, "terminals": int},
      "max_entries": int,
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

import time
from dataclasses import dataclass
from typing import Any

from seqform.analyses.normal import NormalFormSolution, solve_normal_form
from seqform.analyses.solve import Solution, solve
from seqform.cli.render.report import (
    EQUILIBRIUM_TOLERANCE,
    fraction_text,
    strategy_json,
    strategy_table,
)
from seqform.forms.normal_counts import (
    DEFAULT_MAX_ENTRIES,
    StrategyCounts,
    count_json,
    count_text,
    strategy_counts,
)
from seqform.forms.sequence_form import SequenceForm, build_sequence_form
from seqform.game.model import Game
from seqform.lp.minmax import Algorithm, Backend

__all__ = [
    "SCHEMA",
    "Comparison",
    "Formulation",
    "compare",
    "comparison_json",
    "comparison_text",
]

SCHEMA = "seqform.compare/1"
VALUE_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Formulation:
    """One LP formulation of the game: its size and, if it was solved, its solution.

    name : ``"sequence"``, ``"normal"`` or ``"reduced_normal"``
    variables, constraints : of the merged min-max LP of :mod:`seqform.lp.minmax`
    nonzeros : of the LP's constraint matrix, ``None`` when the matrix was not built
    fits : whether the payoff matrix is within the size limit (always True for the
        sequence form)
    build_seconds : time to build the payoff matrix (and the sequence form, for it)
    solution : the certified solution, or ``None`` if not solved
    normal : the normal-form details (mixed strategies, Kuhn checks), normal forms only
    """

    name: str
    variables: int
    constraints: int
    nonzeros: int | None
    fits: bool
    build_seconds: float | None = None
    solution: Solution | None = None
    normal: NormalFormSolution | None = None

    @property
    def title(self) -> str:
        return {
            "sequence": "sequence form",
            "normal": "normal form",
            "reduced_normal": "reduced normal form",
        }[self.name]


@dataclass(frozen=True)
class Comparison:
    """Sizes of the sequence form and the normal form of one game, and their solutions.

    form : the sequence form
    counts : exact pure and reduced pure strategy counts
    max_entries : the normal-form size limit used
    formulations : sequence form, full normal form, reduced normal form, in that order
    """

    game: Game
    form: SequenceForm
    counts: StrategyCounts
    max_entries: int
    formulations: tuple[Formulation, Formulation, Formulation]

    @property
    def values_agree(self) -> bool | None:
        """Whether every solved formulation has the same value (to 1e-9); None if < 2."""
        values = [f.solution.value for f in self.formulations if f.solution is not None]
        if len(values) < 2:
            return None
        return max(values) - min(values) <= VALUE_TOLERANCE


def _normal_lp_size(rows: int, columns: int) -> tuple[int, int]:
    """Variables and constraints of the matrix-game LP (``E = F = ones``)."""
    return rows + 1, columns + 1


def compare(
    game: Game,
    *,
    max_entries: int = DEFAULT_MAX_ENTRIES,
    solve_lps: bool = True,
    backend: Backend = "highs",
    algorithm: Algorithm = "simplex",
    time_limit: float | None = None,
) -> Comparison:
    """Size up both formulations of ``game`` and solve those within the limit.

    Parameters
    ----------
    game
        The game.
    max_entries
        Normal-form matrices with more entries are sized (exactly) but not built.
    solve_lps
        Solve the LPs; if False only the sizes are computed (no enumeration at all).
    backend, algorithm, time_limit
        As for :func:`seqform.lp.minmax.solve_minmax`, used for every LP.

    Raises
    ------
    seqform.lp.minmax.SolverError
        If an LP solver does not prove optimality.
    """
    start = time.perf_counter()
    form = build_sequence_form(game)
    form_seconds = time.perf_counter() - start
    counts = strategy_counts(form)

    sequence_solution = None
    if solve_lps:
        sequence_solution = solve(game, backend=backend, algorithm=algorithm, time_limit=time_limit)
    sequence = Formulation(
        name="sequence",
        variables=form.E.shape[1] + form.F.shape[0],
        constraints=form.F.shape[1] + form.E.shape[0],
        nonzeros=int(form.A.nnz + form.E.nnz + form.F.nnz),
        fits=True,
        build_seconds=(
            sequence_solution.timings.sequence_form if sequence_solution else form_seconds
        ),
        solution=sequence_solution,
    )
    normals = []
    for reduced in (False, True):
        rows, columns = counts.shape(reduced)
        variables, constraints = _normal_lp_size(rows, columns)
        fits = rows * columns <= max_entries
        normal = None
        if fits and solve_lps:
            normal = solve_normal_form(
                game,
                reduced=reduced,
                max_entries=max_entries,
                backend=backend,
                algorithm=algorithm,
                time_limit=time_limit,
                form=form,
            )
        normals.append(
            Formulation(
                name="reduced_normal" if reduced else "normal",
                variables=variables,
                constraints=constraints,
                nonzeros=(None if normal is None else normal.summary.nonzeros + rows + columns),
                fits=fits,
                build_seconds=None if normal is None else normal.summary.build_seconds,
                solution=None if normal is None else normal.solution,
                normal=normal,
            )
        )
    return Comparison(
        game=game,
        form=form,
        counts=counts,
        max_entries=max_entries,
        formulations=(sequence, normals[0], normals[1]),
    )


# --- rendering ------------------------------------------------------------------------------


def _matrix_json(matrix: Any) -> dict[str, Any]:
    return {"shape": list(matrix.shape), "nonzeros": int(matrix.nnz)}


def _formulation_json(formulation: Formulation) -> dict[str, Any]:
    solution = formulation.solution
    kuhn = None
    if formulation.normal is not None:
        summary = formulation.normal.summary
        kuhn = {
            "constraint_residuals": list(summary.constraint_residuals),
            "payoff_gaps": list(summary.payoff_gaps),
        }
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
        "kuhn_theorem": kuhn,
    }


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
    strategies = {}
    for formulation in comparison.formulations[:2]:
        if formulation.solution is not None:
            strategies[formulation.name] = [
                strategy_json(
                    formulation.solution.behaviour[player],
                    game.player_names[player],
                    game.describe_action,
                )
                for player in (0, 1)
            ]
    return {
        "schema": SCHEMA,
        "game": {
            "name": game.name,
            "description": game.description,
            "terminals": form.num_terminals,
        },
        "max_entries": comparison.max_entries,
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
        "normal_form": normal_form,
        "formulations": [_formulation_json(f) for f in comparison.formulations],
        "values_agree": comparison.values_agree,
        "strategies": strategies,
    }


def _table(rows: list[tuple[str, ...]], indent: str = "  ") -> list[str]:
    """Left-align the first column, right-align the others."""
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [f"{row[0]:<{widths[0]}}"]
        cells += [f"{cell:>{width}}" for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append((indent + "  ".join(cells)).rstrip())
    return lines


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


def comparison_text(comparison: Comparison) -> str:
    """A human-readable side-by-side report of both formulations."""
    game, form, counts = comparison.game, comparison.form, comparison.counts
    names = game.player_names
    p0, p1 = form.players
    lines = [
        f"Game: {game.name}" + (f" — {game.description}" if game.description else ""),
        f"Summary: {summary_line(comparison)}",
        "",
    ]
    lines += _table(
        [
            ("", names[0], names[1], "overall"),
            (
                "information sets",
                count_text(p0.num_infosets),
                count_text(p1.num_infosets),
                count_text(p0.num_infosets + p1.num_infosets),
            ),
            (
                "sequences",
                count_text(p0.num_sequences),
                count_text(p1.num_sequences),
                count_text(p0.num_sequences + p1.num_sequences),
            ),
            (
                "pure strategies",
                count_text(counts.pure[0]),
                count_text(counts.pure[1]),
                count_text(counts.profiles),
            ),
            (
                "reduced pure strategies",
                count_text(counts.reduced[0]),
                count_text(counts.reduced[1]),
                count_text(counts.reduced_profiles),
            ),
        ],
        indent="",
    )
    lines += ["", f"Normal form (Kuhn 1953), limit {count_text(comparison.max_entries)} entries"]
    rows = []
    for formulation, reduced in zip(comparison.formulations[1:], (False, True), strict=True):
        entries = counts.entries(reduced)
        detail = f"{count_text(entries)} entries"
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
    aligned = _left_table(rows + sequence_rows)
    lines += aligned[: len(rows)]
    lines += ["Sequence form (KMvS 1996)", *aligned[len(rows) :]]
    lines += ["", *_lp_lines(comparison)]
    lines += _kuhn_lines(comparison)
    normal_solved = comparison.formulations[1].solution is not None
    for formulation in comparison.formulations[:2]:
        # Strategies are shown side by side only when the normal form was solved too.
        if formulation.solution is None or not normal_solved:
            continue
        source = (
            "sequence-form LP"
            if formulation.name == "sequence"
            else "normal-form LP, via Kuhn's theorem"
        )
        for player in (0, 1):
            lines.append("")
            lines += strategy_table(
                formulation.solution.behaviour[player],
                f"{names[player]} ({source})",
                game.describe_action,
            )
    return "\n".join(lines)


def _left_table(rows: list[tuple[str, str, str]]) -> list[str]:
    widths = [max(len(row[column]) for row in rows) for column in range(2)]
    return [f"  {a:<{widths[0]}}  {b:<{widths[1]}}  {c}".rstrip() for a, b, c in rows]


def _lp_lines(comparison: Comparison) -> list[str]:
    rows: list[tuple[str, ...]] = [
        (
            "LP",
            "variables",
            "constraints",
            "non-zeros",
            "build (s)",
            "LP (s)",
            "value",
            "exploitability",
        )
    ]
    for formulation in comparison.formulations:
        solution = formulation.solution
        if solution is None:
            value = "not solved" if formulation.fits else "over the limit"
            timing = ("", "")
            exploitability = ""
        else:
            value = f"{solution.value:+.10f}"
            fraction = fraction_text(solution.value)
            if fraction is not None:
                value += f" ({fraction})"
            timing = (f"{formulation.build_seconds:.4f}", f"{solution.stats.seconds:.4f}")
            exploitability = f"{solution.exploitability:.1e}"
        nonzeros = "" if formulation.nonzeros is None else count_text(formulation.nonzeros)
        rows.append(
            (
                formulation.title,
                count_text(formulation.variables),
                count_text(formulation.constraints),
                nonzeros,
                *timing,
                value,
                exploitability,
            )
        )
    lines = _table(rows, indent="")
    solved = [f for f in comparison.formulations if f.solution is not None]
    if solved:
        stats = solved[0].solution.stats
        lines.append(
            f"(HiGHS {stats.algorithm} via {stats.backend}; exploitability is NashConv, "
            "measured by best response on the tree)"
        )
    agree = comparison.values_agree
    if agree is not None:
        values = [f.solution.value for f in solved]
        spread = max(values) - min(values)
        verdict = "agree" if agree else "DISAGREE"
        lines.append(
            f"Values {verdict}: largest difference {spread:.1e} (tolerance {VALUE_TOLERANCE:g}); "
            + (
                f"all exploitabilities ≤ {EQUILIBRIUM_TOLERANCE:g}"
                if all(f.solution.exploitability <= EQUILIBRIUM_TOLERANCE for f in solved)
                else f"some exploitability above {EQUILIBRIUM_TOLERANCE:g}"
            )
        )
    return lines


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
        *_table(rows),
    ]
