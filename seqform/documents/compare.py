"""``compare`` in documents: the normal form beside the sequence form
(:class:`~seqform.questions.compare.Comparison`, ``seqform.compare/2``), and on a game too
large for its tree both formulations' sizes counted from the public tree × private hands
(:class:`~seqform.questions.compare.StructuredSizes`, ``seqform.compare-sizes/2``).

Schema ``seqform.compare/2`` (``seqform/io/schemas/compare.schema.json``).  A COUNT is
``{"exact": str | null, "log10": float}``: the exact integer as a string, ``null`` when it
has more than 1 000 digits (``log10`` is always given;
:func:`seqform.base.counts.count_json`)::

    {
      "schema": "seqform.compare/2",
      "game": {"name": str, "description": str, "terminals": int, "labels": str | null},
      "constant_sum": null | {"total": str, "treated_as": str},
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
                        "nash_conv": float | null, "exploitability": float | null,
                        "equilibrium": bool | null,   # the certificate's verdict
                        "backend": str | null, "solver": str | null,  # the LP's, if solved
                        "kuhn_theorem": {"constraint_residuals": [float, float],
                                         "payoff_gaps": [float, float]} | null}, ×3],
      "values_agree": bool | null,          # all solved values within 1e-9 of the payoff range
      "payoff_range": float | null,         # what the text judges values and gaps by
      "strategies": {"sequence": [...], "normal": [...]},  # as in seqform.solve/2, if solved
      "structured_payoff_nonzeros": int     # a game with a structured description only
    }

Schema ``seqform.compare-sizes/2`` (``compare_sizes.schema.json``)::

    {"schema": "seqform.compare-sizes/2", "game": {"name", "description"},
     "counted_by": "public tree" | "formula",    # formula: neither tree is built
     "tree_nodes_at_most": int | null, "tree_nodes_at_most_log10": float,
     "max_entries": int | null, "max_entries_log10": float,
     "players": [{"name", "infosets", "sequences", "pure_strategies": COUNT,
                  "reduced_pure_strategies": COUNT}, ×2],
     "overall": {"pure_strategy_profiles": COUNT, "reduced_pure_strategy_profiles": COUNT},
     "normal_form": {"full": NF, "reduced": NF},   # NF = {"shape": [COUNT, COUNT],
                                                   #       "entries": COUNT, "fits": bool}
     "sequence_form": {"E_nonzeros": int, "F_nonzeros": int, "A_nonzeros": int,
                       "lp": {"variables": int, "constraints": int, "nonzeros": int}},
     "structured_payoff_nonzeros": int | null,      # null: by formula, or a spot's LP too large
     "lossless_abstraction": null | {               # by formula only
         "steps": [{"step": "unabstracted" | "canonical boards" | "hand classes"
                            | "ordered classes",
                    "infosets": [int, int], "sequences": [int, int],
                    "lp_rows": [int, int]}],        # sequences + other's infosets + 1
         "published_lp_rows": [{"step": str, "rows": int}]}}
"""

from __future__ import annotations

from typing import Any

from seqform.base.counts import count_json, count_log10
from seqform.base.numbers import fraction_text, json_float, json_int
from seqform.certify import is_certified, payoff_range
from seqform.documents.exploit import constant_sum_total
from seqform.documents.objects import game_json, strategy_json
from seqform.documents.registry import builds
from seqform.documents.solve import kuhn_theorem_json
from seqform.forms.normal_counts import StrategyCounts
from seqform.game.builtin.labels import grammar_name
from seqform.io.documents import COMPARE, COMPARE_SIZES
from seqform.questions.compare import Comparison, Formulation, StructuredSizes
from seqform.questions.formula_sizes import FormulaSizes

__all__ = ["comparison_document", "sizes_document"]


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
        "nash_conv": None if solution is None else solution.nash_conv,
        "exploitability": None if solution is None else solution.exploitability,
        "equilibrium": None if solution is None else is_certified(solution.certificate),
        "backend": None if solution is None else solution.stats.backend,
        "solver": None if solution is None else solution.stats.solver,
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


@builds(Comparison)
def comparison_document(comparison: Comparison) -> dict[str, Any]:
    """The ``seqform.compare/2`` document of ``comparison``; a comparison made with the
    game's structured description (``compare(game, structured=...)``, as ``compare`` does
    for the built-in games) has the key ``structured_payoff_nonzeros``."""
    game, form, counts = comparison.game, comparison.form, comparison.counts
    players: list[dict[str, Any]] = [
        {
            "name": game.player_names[player],
            "infosets": form.players[player].num_infosets,
            "sequences": form.players[player].num_sequences,
            "pure_strategies": count_json(counts.pure[player]),
            "reduced_pure_strategies": count_json(counts.reduced[player]),
        }
        for player in (0, 1)
    ]
    document = {
        "schema": COMPARE,
        "game": game_json(
            game.name,
            game.description,
            terminals=form.num_terminals,
            labels=grammar_name(game),
        ),
        "constant_sum": constant_sum_total(game),
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
        "payoff_range": json_float(payoff_range(comparison.game)),
        "strategies": _strategies_json(comparison),
    }
    if comparison.structured_payoff_nonzeros is not None:
        document["structured_payoff_nonzeros"] = comparison.structured_payoff_nonzeros
    return document


def _sized_players(
    sizes: StructuredSizes | FormulaSizes, counts: StrategyCounts | FormulaSizes
) -> list[dict[str, Any]]:
    """Per player: name, information sets, sequences, pure and reduced pure strategies."""
    names = sizes.game.player_names if isinstance(sizes, StructuredSizes) else sizes.player_names
    return [
        {
            "name": names[player],
            "infosets": sizes.infosets[player],
            "sequences": sizes.sequences[player],
            "pure_strategies": count_json(counts.pure[player]),
            "reduced_pure_strategies": count_json(counts.reduced[player]),
        }
        for player in (0, 1)
    ]


@builds(StructuredSizes, FormulaSizes)
def sizes_document(sizes: StructuredSizes | FormulaSizes) -> dict[str, Any]:
    """The ``seqform.compare-sizes/2`` document of ``sizes`` (module docstring), counted from
    the public tree or by the game's formulas."""
    by_formula = isinstance(sizes, FormulaSizes)
    counts = sizes if isinstance(sizes, FormulaSizes) else sizes.counts
    title = sizes if isinstance(sizes, FormulaSizes) else sizes.game
    variables, constraints, nonzeros = sizes.sequence_lp
    return {
        "schema": COMPARE_SIZES,
        "game": game_json(title.name, title.description),
        "counted_by": "formula" if by_formula else "public tree",
        "tree_nodes_at_most": json_int(sizes.tree_nodes),
        "tree_nodes_at_most_log10": count_log10(sizes.tree_nodes),
        "max_entries": json_int(sizes.max_entries),
        "max_entries_log10": count_log10(sizes.max_entries),
        "players": _sized_players(sizes, counts),
        "overall": {
            "pure_strategy_profiles": count_json(counts.entries(False)),
            "reduced_pure_strategy_profiles": count_json(counts.entries(True)),
        },
        "normal_form": {
            "reduced" if reduced else "full": {
                "shape": [count_json(side) for side in counts.shape(reduced)],
                "entries": count_json(counts.entries(reduced)),
                "fits": sizes.fits(reduced),
            }
            for reduced in (False, True)
        },
        "sequence_form": {
            "E_nonzeros": sizes.constraint_nonzeros(0),
            "F_nonzeros": sizes.constraint_nonzeros(1),
            "A_nonzeros": sizes.payoff_nonzeros,
            "lp": {"variables": variables, "constraints": constraints, "nonzeros": nonzeros},
        },
        "structured_payoff_nonzeros": (
            None if isinstance(sizes, FormulaSizes) else sizes.structured_payoff_nonzeros
        ),
        "lossless_abstraction": _lossless_json(sizes) if isinstance(sizes, FormulaSizes) else None,
    }


def _step_json(step: str, infosets: tuple[int, int], sequences: tuple[int, int]) -> dict[str, Any]:
    """One step's sizes, with the LP rows each player's LP has (its sequences, the other's
    information sets and 1: Gilpin and Sandholm's count)."""
    return {
        "step": step,
        "infosets": list(infosets),
        "sequences": list(sequences),
        "lp_rows": [sequences[p] + infosets[1 - p] + 1 for p in (0, 1)],
    }


def _lossless_json(sizes: FormulaSizes) -> dict[str, Any] | None:
    """The sizes at each step of the lossless suit reduction and of the ordered game
    isomorphism after it, and the published rows."""
    reduction = sizes.suit_reduction
    if reduction is None and not sizes.published_rows:
        return None
    steps = []
    if reduction is not None:
        named = [
            ("unabstracted", reduction.full),
            ("canonical boards", reduction.canonical),
            ("hand classes", reduction.reduced),
        ]
        if reduction.ordered is not None:
            named.append(("ordered classes", reduction.ordered))
        steps = [_step_json(step, size.infosets, size.sequences) for step, size in named]
    return {
        "steps": steps,
        "published_lp_rows": [{"step": step, "rows": rows} for step, rows in sizes.published_rows],
    }
