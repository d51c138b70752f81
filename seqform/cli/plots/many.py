"""``solve-many --plot FILE``: OOP's bet frequency at its first decision by board texture,
drawn from the ``seqform.solve-many/2`` document (so the picture shows what the JSON holds).

Two panels, as aggregate reports chart a spot family: on the left a bar per texture group
(:attr:`seqform.holdem.texture.BoardTexture.group`: ``paired``, or the suits of an unpaired
board), the height the mean bet frequency of its boards, each board a dot on its bar; on the
right each board's bet frequency against its high card, coloured by group.  Frequencies are
in % (the document's fractions × 100).

matplotlib is imported inside :func:`plot_bet_frequency` (an optional, heavy package); the
file is written by :func:`seqform.cli.plots.files.write_figure`, in the format its suffix
names (``.png``, ``.svg``, ``.pdf``, ...: ``solve-many`` checks it before solving with
:func:`~seqform.cli.plots.files.plot_format`).
"""

from __future__ import annotations

from typing import Any

from seqform.cli.plots.files import write_figure
from seqform.holdem import RANKS

__all__ = ["GROUPS", "plot_bet_frequency"]

GROUPS = ("rainbow", "two-tone", "monotone", "three-flush", "four-flush", "paired")
"""The texture groups in the order their bars are drawn."""

LABELLED_BOARDS = 40  # up to this many boards, each dot of the scatter is named


def plot_bet_frequency(document: dict[str, Any], path: str) -> int:
    """Draw the ``seqform.solve-many/2`` ``document``'s bet frequencies to ``path`` (module
    docstring); the number of boards drawn (the spots solved).

    Raises
    ------
    ImportError
        If matplotlib is not installed (``pip install matplotlib``).
    ValueError
        When no spot of the document was solved (nothing to draw).
    seqform.cli.errors.CommandError
        If the file cannot be written (:func:`~seqform.cli.plots.files.write_figure`).
    """
    boards = [
        (row["board"], row["aggregate"])
        for row in document["spots"]
        if row["error"] is None and row.get("aggregate") is not None
    ]
    if not boards:
        raise ValueError("no spot was solved: there is no bet frequency to plot")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError("solve-many --plot needs matplotlib: pip install matplotlib") from exc
    figure, (bars, scatter) = plt.subplots(1, 2, figsize=(11, 4.5), width_ratios=(2, 3))
    _bars(bars, boards)
    _scatter(scatter, boards)
    figure.suptitle(f"OOP's bet frequency at its first decision: {len(boards)} boards")
    figure.tight_layout()
    write_figure(figure, path)
    return len(boards)


def _colour(group: str) -> str:
    return f"C{GROUPS.index(group)}"


def _bars(axis: Any, boards: list[tuple[str, dict[str, Any]]]) -> None:
    """A bar per texture group: its boards' mean bet frequency, each board a dot."""
    groups = [g for g in GROUPS if any(found["texture"]["group"] == g for _, found in boards)]
    for position, group in enumerate(groups):
        values = [100 * f["bet_frequency"] for _, f in boards if f["texture"]["group"] == group]
        axis.bar(position, sum(values) / len(values), color=_colour(group), alpha=0.6)
        axis.scatter([position] * len(values), values, color="black", s=12, zorder=3)
        axis.annotate(f"{len(values)}", (position, 0), ha="center", va="bottom", fontsize=8)
    axis.set_xticks(range(len(groups)), groups, rotation=20)
    axis.set_ylabel("OOP bets (% of its range)")
    axis.set_ylim(0, 100)
    axis.set_title("mean by texture (boards per bar at its foot)", fontsize=10)


def _scatter(axis: Any, boards: list[tuple[str, dict[str, Any]]]) -> None:
    """Each board's bet frequency against its high card, coloured by its group."""
    for board, found in boards:
        rank = RANKS.index(found["texture"]["high_card"])
        share = 100 * found["bet_frequency"]
        group = found["texture"]["group"]
        axis.scatter(rank, share, color=_colour(group), s=30, label=group)
        if len(boards) <= LABELLED_BOARDS:
            axis.annotate(
                board, (rank, share), fontsize=7, xytext=(4, 2), textcoords="offset points"
            )
    handles, labels = axis.get_legend_handles_labels()
    unique = dict(zip(labels, handles, strict=True))
    axis.legend(unique.values(), unique.keys(), fontsize=8, loc="best")
    axis.set_xticks(range(len(RANKS)), list(RANKS))
    axis.set_xlim(-0.5, len(RANKS) + 0.5)  # room for the names at A
    axis.set_ylim(0, 100)
    axis.set_xlabel("high card")
    axis.set_title("by high card, coloured by texture", fontsize=10)
