"""``solve``: a :class:`~seqform.routes.solve.Solution` as text for people.

Its JSON document, ``seqform.solve/2``, is :func:`seqform.documents.solve.solution_document`.

Players are numbered 1 and 2 in every output (index 0 and 1 in the library).
"""

from __future__ import annotations

from typing import Any

from seqform.cli.render.blocks import (
    certificate_lines,
    constant_sum_lines,
    header,
    value_lines,
)
from seqform.cli.render.numbers import count_text
from seqform.cli.render.strategies import behaviour_tables, strategy_sections
from seqform.cli.render.tables import aligned_table
from seqform.forms.sequence_form import SequenceForm
from seqform.routes.normal import NormalFormSolution, NormalFormSummary
from seqform.routes.tree import Solution

__all__ = ["solution_text"]


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
        f"Solver: HiGHS {stats.solver} via {stats.backend}, {stats.status} after "
        f"{count_text(stats.iterations)} iterations",
        f"  LP {count_text(stats.variables)} variables × {count_text(stats.constraints)} "
        "constraints; "
        f"solve {stats.seconds:.3f} s, total {solution.timings.total:.3f} s",
        *certificate_lines(solution.certificate, names, "best responses on the game tree"),
    ]
    lines += strategy_sections(game, behaviour_tables(solution.strategies, names), strategies)
    return "\n".join(lines)
