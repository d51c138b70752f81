"""The abstraction ladder's page: its rows as CSV, as a markdown table and as a plot
(``python -m benchmarks.abstraction_ladder`` runs the rungs and calls these)."""

from __future__ import annotations

import csv
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path

FIELDS = (
    "game",
    "buckets",
    "features",
    "abstract_sequences",
    "abstract_value",
    "full_value",
    "abstract_exploitability",
    "exploitability",
    "mbb_per_game",
    "percent_of_ante",
    "lp_seconds",
    "seconds",
    "load",
    "peak_rss_gb",
)


def _seconds(value: object) -> str:
    return "—" if value in ("", None) else f"{float(value):.1f}"  # type: ignore[arg-type]


def _full_value(row: dict[str, object], bounds: Mapping[str, tuple[float, float]]) -> str:
    """The LP's value, or the interval ``bounds`` give the row's game."""
    if row["full_value"] not in ("", None):
        return f"{float(row['full_value']):.6f}"  # type: ignore[arg-type]
    low, high = bounds.get(str(row["game"]), (float("nan"), float("nan")))
    return f"[{low:.6f}, {high:.6f}] (DCFR)"


def write_table(
    rows: list[dict[str, object]],
    stem: Path,
    header: Sequence[str],
    bounds: Mapping[str, tuple[float, float]],
) -> None:
    """The rows as CSV and as a markdown table under ``header``; ``bounds``: per game
    without an LP value, the interval its value is known to lie in."""
    with stem.with_suffix(".csv").open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(FIELDS))
        writer.writeheader()
        writer.writerows(rows)
    lines = [
        "| game | buckets | abstract sequences a player | abstract value | full value | "
        "exploitability in the abstract game | full-game exploitability (chips) | mbb/game | "
        "% of ante | abstract LP, s | all, s | load | peak RSS, GB |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row['game']} | {row['buckets']} | {row['abstract_sequences']:,} | "
            f"{row['abstract_value']:.6f} | {_full_value(row, bounds)} | "
            f"{row['abstract_exploitability']:.1e} | {row['exploitability']:.6f} | "
            f"{row['mbb_per_game']:.1f} | {row['percent_of_ante']:.2f} | "
            f"{_seconds(row['lp_seconds'])} | {_seconds(row['seconds'])} | "
            f"{_seconds(row['load'])} | {_seconds(row.get('peak_rss_gb', ''))} |"
        )
    stem.with_suffix(".md").write_text("\n".join([*header, *lines]) + "\n")


ZERO_AT = 1.0
"""The plot's floor: the lossless rungs' exploitability is the LP's tolerance (about 1e-5
mbb/game), drawn at 1 mbb/game so that the axis is not spent on decades of nothing."""


def plot(rows: list[dict[str, object]], path: Path, reduced: Collection[str]) -> None:
    """Full-game exploitability (mbb/game) against the abstract game's sequences, one line
    per game; the games in ``reduced`` are marked as abstracted on canonical boards."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7.5, 4.8))
    for game in dict.fromkeys(str(row["game"]) for row in rows):
        mine = [row for row in rows if row["game"] == game]
        sizes = [float(row["abstract_sequences"]) for row in mine]  # type: ignore[arg-type]
        values = [max(float(row["mbb_per_game"]), ZERO_AT) for row in mine]  # type: ignore[arg-type]
        axes.plot(
            sizes,
            values,
            marker="o",
            label=f"{game} (canonical boards)" if game in reduced else game,
        )
        for size, value, row in zip(sizes, values, mine, strict=True):
            axes.annotate(
                str(row["buckets"]).replace(" (full LP)", ""),
                (size, value),
                textcoords="offset points",
                xytext=(4, 4),
                fontsize=8,
            )
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("abstract game: sequences per player")
    axes.set_ylabel(f"full-game exploitability (mbb/game; below {ZERO_AT:g}: at {ZERO_AT:g})")
    axes.set_title(
        f"Card abstraction: lifted strategies measured in the full game ({rows[0]['features']})",
        fontsize=10,
    )
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3, fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
