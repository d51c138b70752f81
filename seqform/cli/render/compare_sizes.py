"""``compare --no-solve`` on a game too large for its tree: both formulations' sizes counted
from the public tree × private hands (:class:`~seqform.questions.compare.StructuredSizes`),
as text; its ``seqform.compare-sizes/2`` document is
:func:`seqform.documents.compare.sizes_document`."""

from __future__ import annotations

from seqform.cli.render.blocks import header
from seqform.cli.render.numbers import count_text
from seqform.cli.render.tables import aligned_table
from seqform.questions.compare import StructuredSizes

__all__ = ["sizes_text"]

_NAMES = ("Player 1", "Player 2")


def _entries_line(label: str, rows: int, columns: int, limit: int) -> tuple[str, ...]:
    entries = rows * columns
    shape = " × ".join(count_text(side).removeprefix("≈ ") for side in (rows, columns))
    verdict = "over the limit, not built" if entries > limit else "within the limit"
    return (f"  {label}", shape, f"{count_text(entries)} entries: {verdict}")


def sizes_text(sizes: StructuredSizes) -> str:
    """The counts table, the normal form's and the sequence form's sizes, the structured
    LP's payoff non-zeros."""
    game, counts, (first, second) = sizes.game, sizes.counts, sizes.tables
    lines = [
        header(game.name, game.description),
        f"Sizes from the public tree × private hands; the tree (at most "
        f"{count_text(sizes.tree_nodes)} nodes) is not built",
        "",
    ]

    def row(label: str, one: int, two: int) -> tuple[str, ...]:
        return (label, count_text(one), count_text(two), count_text(one + two))

    lines += aligned_table(
        [
            ("", *_NAMES, "overall"),
            row("information sets", first.num_infosets, second.num_infosets),
            row("sequences", first.num_sequences, second.num_sequences),
            (
                "pure strategies",
                *(count_text(c) for c in counts.pure),
                count_text(counts.profiles),
            ),
            (
                "reduced pure strategies",
                *(count_text(c) for c in counts.reduced),
                count_text(counts.reduced_profiles),
            ),
        ],
        indent="",
    )
    variables, constraints, nonzeros = sizes.sequence_lp
    lines += [
        "",
        f"Normal form (Kuhn 1953), limit {count_text(sizes.max_entries)} entries",
        *aligned_table(
            [
                _entries_line("full matrix M", *counts.pure, sizes.max_entries),
                _entries_line("reduced matrix M", *counts.reduced, sizes.max_entries),
            ],
            indent="",
        ),
        "Sequence form (KMvS 1996)",
        f"  E {1 + first.num_infosets:,} × {first.num_sequences:,}, "
        f"{sizes.constraint_nonzeros(0):,} non-zeros; F {1 + second.num_infosets:,} × "
        f"{second.num_sequences:,}, {sizes.constraint_nonzeros(1):,} non-zeros",
        f"  A {first.num_sequences:,} × {second.num_sequences:,}, "
        f"{count_text(sizes.payoff_nonzeros)} non-zeros (counted, not built)",
        f"  LP: {variables:,} variables, {constraints:,} constraints, "
        f"{count_text(nonzeros)} non-zeros",
        f"Structured route: the structured LP writes A's {count_text(sizes.payoff_nonzeros)} "
        f"non-zeros as {count_text(sizes.structured_payoff_nonzeros)} (level sums, no tree)",
    ]
    return "\n".join(lines) + "\n"
