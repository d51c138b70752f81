"""``compare --no-solve`` on a built-in game with a structured description: both
formulations' sizes counted from the public tree × private hands (or by formula), without
the tree, as text, read from the ``seqform.compare-sizes/2``
document (:func:`seqform.documents.compare.sizes_document`)."""

from __future__ import annotations

from seqform.base.counts import count_text
from seqform.documents.layout.parts import Document, count_of, header_of, limit_of
from seqform.documents.layout.tables import aligned_table

__all__ = ["sizes_text", "strategy_count_rows"]

_NAMES = ("Player 1", "Player 2")


def _entries_line(label: str, matrix: Document) -> tuple[str, ...]:
    """One normal-form matrix: its shape and entries, within the limit or not."""
    shape = " × ".join(count_of(side).removeprefix("≈ ") for side in matrix["shape"])
    verdict = "within the limit" if matrix["fits"] else "over the limit, not built"
    return (f"  {label}", shape, f"{count_of(matrix['entries'])} entries: {verdict}")


def _sequence_lines(document: Document) -> list[str]:
    """The sequence form's matrices and LP, and the structured LP beside them."""
    first, second = document["players"]
    sequence_form = document["sequence_form"]
    lp = sequence_form["lp"]
    payoffs = sequence_form["A_nonzeros"]
    lines = [
        "Sequence form (KMvS 1996)",
        f"  E {1 + first['infosets']:,} × {first['sequences']:,}, "
        f"{sequence_form['E_nonzeros']:,} non-zeros; F {1 + second['infosets']:,} × "
        f"{second['sequences']:,}, {sequence_form['F_nonzeros']:,} non-zeros",
        f"  A {first['sequences']:,} × {second['sequences']:,}, "
        f"{count_text(payoffs)} non-zeros (counted, not built)",
        f"  LP: {lp['variables']:,} variables, {lp['constraints']:,} constraints, "
        f"{count_text(lp['nonzeros'])} non-zeros",
    ]
    structured = document["structured_payoff_nonzeros"]
    if structured is not None:
        lines.append(
            f"Structured route: the structured LP writes A's {count_text(payoffs)} "
            f"non-zeros as {count_text(structured)} (level sums, no tree)"
        )
    elif document["counted_by"] == "public tree":
        lines.append(
            "Structured route: its LP is larger than seqform solves for a spot, so its "
            "non-zeros are not counted (--force builds it to count them)"
        )
    return lines


def _lossless_lines(lossless: Document | None) -> list[str]:
    """The LP rows at each step of the lossless suit reduction and the ordered game
    isomorphism after it, beside the published ones."""
    if lossless is None:
        return []
    rows = [
        (f"  {step['step']}", *(f"{rows:,}" for rows in step["lp_rows"]))
        for step in lossless["steps"]
    ]
    rows += [
        (f"  {published['step']} (Gilpin and Sandholm 2007)", f"{published['rows']:,}", "")
        for published in lossless["published_lp_rows"]
    ]
    return [
        "Lossless abstraction: LP rows (a player's sequences + the other's information sets + 1)",
        *aligned_table([("", "Player 1's LP", "Player 2's LP"), *rows], indent=""),
    ]


def strategy_count_rows(
    first: Document, second: Document, overall: Document
) -> list[tuple[str, str, str, str]]:
    """The rows of pure and reduced pure strategies, per player and overall (profiles)."""
    return [
        (
            "pure strategies",
            count_of(first["pure_strategies"]),
            count_of(second["pure_strategies"]),
            count_of(overall["pure_strategy_profiles"]),
        ),
        (
            "reduced pure strategies",
            count_of(first["reduced_pure_strategies"]),
            count_of(second["reduced_pure_strategies"]),
            count_of(overall["reduced_pure_strategy_profiles"]),
        ),
    ]


def sizes_text(document: Document) -> str:
    """The counts table, the normal form's and the sequence form's sizes, the structured
    LP's payoff non-zeros (counted from the public tree) or the LP rows at each step of the
    lossless suit reduction (by formula), from a ``seqform.compare-sizes/2`` document."""
    first, second = document["players"]
    overall = document["overall"]
    tree_nodes = limit_of(document["tree_nodes_at_most"], document["tree_nodes_at_most_log10"])
    if document.get("counted_by") == "formula":
        counted = (
            f"Sizes by formula; the tree ({tree_nodes} nodes) is not built, nor the public tree"
        )
    else:
        counted = (
            f"Sizes from the public tree × private hands; the tree (at most {tree_nodes} nodes) "
            "is not built"
        )
    lines = [header_of(document["game"]), counted, ""]

    def row(label: str, key: str) -> tuple[str, ...]:
        one, two = first[key], second[key]
        return (label, count_text(one), count_text(two), count_text(one + two))

    lines += aligned_table(
        [
            ("", *_NAMES, "overall"),
            row("information sets", "infosets"),
            row("sequences", "sequences"),
            *strategy_count_rows(first, second, overall),
        ],
        indent="",
    )
    limit = limit_of(document["max_entries"], document["max_entries_log10"])
    lines += [
        "",
        f"Normal form (Kuhn 1953), limit {limit} entries",
        *aligned_table(
            [
                _entries_line("full matrix M", document["normal_form"]["full"]),
                _entries_line("reduced matrix M", document["normal_form"]["reduced"]),
            ],
            indent="",
        ),
        *_sequence_lines(document),
        *_lossless_lines(document.get("lossless_abstraction")),
    ]
    return "\n".join(lines) + "\n"
