"""``compare``: the normal form beside the sequence form, as text.

Its JSON document, ``seqform.compare/2``, is
:func:`seqform.documents.compare.comparison_document`.
"""

from __future__ import annotations

from seqform.certify import EQUILIBRIUM_TOLERANCE, is_certified
from seqform.cli.render.blocks import constant_sum_lines, header
from seqform.cli.render.numbers import count_text, value_text
from seqform.cli.render.strategies import StrategyTable, strategy_sections
from seqform.cli.render.tables import aligned_table, left_table
from seqform.questions.compare import VALUE_TOLERANCE, Comparison, Formulation

__all__ = ["comparison_text", "summary_line"]


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
        f"all exploitabilities ≤ {EQUILIBRIUM_TOLERANCE:g} of the payoff range"
        if all(is_certified(s.certificate) for s in solved)
        else f"some exploitability above {EQUILIBRIUM_TOLERANCE:g} of the payoff range"
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
            f"(HiGHS {stats.solver} via {stats.backend}; exploitability is NashConv / 2, "
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
