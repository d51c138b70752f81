"""``solve``: the ``seqform.solve/2`` document of a solution on the tree or normal-form
route (:func:`seqform.documents.solve.solution_document`) as text for people.

The text is read off the document alone, so that it shows what ``--format json`` writes.
Players are numbered 1 and 2 in every output (index 0 and 1 in the library).
"""

from __future__ import annotations

from typing import Any

from seqform.base.counts import about_text, count_text
from seqform.documents.layout.blocks import (
    document_certificate_lines,
    document_constant_sum_lines,
    document_value_lines,
    header,
)
from seqform.documents.layout.strategies import document_strategy_sections, document_tables
from seqform.documents.layout.tables import aligned_table

__all__ = ["player_names", "sequence_form_lines", "solution_text"]


def player_names(document: dict[str, Any]) -> tuple[str, str]:
    """The two players' names, as the document's ``"sizes"`` give them."""
    players = document["sizes"]["players"]
    return players[0]["name"], players[1]["name"]


def _count(count: dict[str, Any]) -> str:
    """A document's COUNT (``{"exact": str | null, "log10": float}``) as :func:`count_text`
    writes the integer."""
    if count["exact"] is not None:
        return count_text(int(count["exact"]))
    return about_text(count["log10"])


def _shape(shape: list[int]) -> str:
    return f"{count_text(shape[0])}×{count_text(shape[1])}"


def _normal_form_lines(normal: dict[str, Any], names: tuple[str, str]) -> list[str]:
    kind = "reduced" if normal["reduced"] else "full"
    counts = normal["players"]
    checks = normal["kuhn_theorem"]
    residuals = checks["constraint_residuals"]
    lines = ["", "Normal form (Kuhn 1953), solved as a matrix game"]
    lines += aligned_table(
        [
            ("", names[0], names[1]),
            ("pure strategies", *(_count(c["pure_strategies"]) for c in counts)),
            ("reduced pure strategies", *(_count(c["reduced_pure_strategies"]) for c in counts)),
        ]
    )
    lines += [
        f"  payoff matrix ({kind}): {_shape(normal['matrix_shape'])}, "
        f"{count_text(normal['matrix_entries'])} entries, "
        f"{count_text(normal['matrix_nonzeros'])} non-zeros; "
        f"built in {normal['build_seconds']:.3f} s",
        f"  Kuhn's theorem: mixed strategies → realization plans, max |Ex − e| "
        f"{residuals[0]:.1e}, max |Fy − f| {residuals[1]:.1e};",
        f"    behavioural vs mixed payoff against every opponent sequence differs by "
        f"≤ {max(checks['payoff_gaps']):.1e}",
    ]
    return lines


def sequence_form_lines(document: dict[str, Any]) -> list[str]:
    """The ``Sequence form (KMvS 1996)`` block: each player's sizes, then ``A``'s."""
    sizes = document["sizes"]
    p0, p1 = sizes["players"]
    lines = ["Sequence form (KMvS 1996)"]
    lines += aligned_table(
        [
            ("", p0["name"], p1["name"]),
            ("information sets", count_text(p0["infosets"]), count_text(p1["infosets"])),
            ("sequences", count_text(p0["sequences"]), count_text(p1["sequences"])),
            ("E, F shape", _shape(p0["constraint_shape"]), _shape(p1["constraint_shape"])),
            (
                "E, F non-zeros",
                count_text(p0["constraint_nonzeros"]),
                count_text(p1["constraint_nonzeros"]),
            ),
        ]
    )
    lines.append(
        f"  payoff matrix A: {_shape(sizes['payoff_shape'])}, "
        f"{count_text(sizes['payoff_nonzeros'])} non-zeros; "
        f"{count_text(document['game']['terminals'])} terminal histories"
    )
    return lines


def solution_text(document: dict[str, Any], strategies: str = "auto") -> str:
    """A human-readable report of a ``seqform.solve/2`` document: value, sizes, solver,
    certificate, strategies.

    A solution through the normal form adds the normal form's sizes and checks;
    ``strategies`` is ``--strategies``
    (:func:`seqform.documents.layout.strategies.document_strategy_sections`).
    """
    game, stats = document["game"], document["solver"]
    names = player_names(document)
    certificate = document["certificate"]
    lines = [
        header(game["name"], game["description"]),
        *document_value_lines(f"Value to {names[0]}", document["value"], certificate),
        *document_constant_sum_lines(document, names),
        "",
        *sequence_form_lines(document),
    ]
    if "normal_form" in document:
        lines += _normal_form_lines(document["normal_form"], names)
    lines += [
        "",
        f"Solver: HiGHS {stats['solver']} via {stats['backend']}, {stats['status']} after "
        f"{count_text(stats['iterations'])} iterations",
        f"  LP {count_text(stats['variables'])} variables × {count_text(stats['constraints'])} "
        "constraints; "
        f"solve {stats['seconds']:.3f} s, total {document['timings']['total']:.3f} s",
        *document_certificate_lines(certificate, names, "best responses on the game tree"),
    ]
    tables = document_tables(document["strategies"])
    lines += document_strategy_sections(document, tables, strategies)
    return "\n".join(lines)
