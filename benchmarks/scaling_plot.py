"""``scaling.png``: median time against sequences per player, log-log, one line per LP peer.

Games of one family (``kuhn(cards=N)``, Liar's Dice with more sides) are joined by a line; a
failed run is an ``x`` where it stopped, labelled once per peer and kind of failure, each label
placed where it covers no line, no other label and not the legend.  matplotlib is imported
inside :func:`plot_scaling`, so reading or rendering a run needs none.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.cells import LABELS, SHORT_STATUS, lp_peers, refused
from benchmarks.records import BenchmarkRun
from seqform.io.atomic import replacing

_MARKERS: dict[str, str] = {
    "seqform-highs": "o",
    "seqform-cvxpy": "s",
    "openspiel": "^",
    "openspiel-highs": "v",
    "gambit": "D",
    "seqform-sparsified": "*",
    "seqform-structured": "*",
}


def _family(game: str) -> str:
    return game.split("(", 1)[0].strip()


@dataclass(frozen=True)
class _Point:
    """One peer on one game, as the plot draws it."""

    family: str
    size: int
    seconds: float  # the median, or where a failed run stopped
    low: float
    high: float
    failure: str  # "" when solved, else the short status


def _points(run: BenchmarkRun, peer: str) -> list[_Point]:
    points: list[_Point] = []
    for game in run.games:
        result = game.peer(peer)
        if game.sizes is None or result is None:
            continue
        family, size = _family(game.game), game.sizes.largest
        if result.median is not None:
            times = result.seconds
            points.append(_Point(family, size, result.median, min(times), max(times), ""))
        elif result.status in SHORT_STATUS:
            failure = result.failure
            stopped = result.timeout if result.status == "timeout" else None
            if stopped is None and failure is not None:
                stopped = failure.elapsed
            if stopped is not None and stopped > 0:
                short = (
                    "refused (tree too large)" if refused(result) else SHORT_STATUS[result.status]
                )
                points.append(_Point(family, size, stopped, stopped, stopped, short))
    return sorted(points, key=lambda point: (point.family, point.size))


def _draw_peer(
    axes: Any,
    points: list[_Point],
    colour: str,
    marker: str,
    style_of: dict[str, str],
    label: str,
) -> list[tuple[str, _Point, str]]:
    """One peer's solved games (a line per family, bars min–max) and failures (``x``); the
    failures to label, once per kind, as ``(label, where, colour)``."""
    for family, style in style_of.items():
        solved = [p for p in points if p.family == family and not p.failure]
        if solved:
            axes.errorbar(
                [p.size for p in solved],
                [p.seconds for p in solved],
                yerr=[[p.seconds - p.low for p in solved], [p.high - p.seconds for p in solved]],
                color=colour,
                marker=marker,
                linestyle=style,
                capsize=3,
            )
    failures: list[tuple[str, _Point, str]] = []
    labelled: set[str] = set()
    for point in points:
        if not point.failure:
            continue
        axes.scatter([point.size], [point.seconds], marker="x", s=80, color=colour, zorder=3)
        if point.failure not in labelled:
            labelled.add(point.failure)
            failures.append((label, point, colour))
    return failures


def plot_scaling(run: BenchmarkRun, path: Path) -> Path | None:
    """Plot median time against sequences per player, log-log; ``None`` if nothing to plot.

    One colour and marker per peer; games of one family (``kuhn(cards=N)``, Liar's Dice
    with more sides) are joined by a line, a line style per family.  A failed run is an
    ``x`` where it stopped (at the time limit for a timeout), labelled once per peer and
    kind of failure.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    styles = ("-", "--", ":", "-.")
    families = list(dict.fromkeys(_family(game.game) for game in run.games))
    style_of = {family: styles[i % len(styles)] for i, family in enumerate(families)}
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    figure, axes = plt.subplots(figsize=(8.5, 5.5))
    peer_handles: list[Line2D] = []
    failures: list[tuple[str, _Point, str]] = []  # (label, where, colour), labelled last
    for index, peer in enumerate(lp_peers(run)):
        points = _points(run, peer)
        if not points:
            continue
        colour, marker = colours[index % len(colours)], _MARKERS.get(peer, "o")
        peer_handles.append(
            Line2D([], [], color=colour, marker=marker, label=LABELS.get(peer, peer))
        )
        failures += _draw_peer(axes, points, colour, marker, style_of, LABELS.get(peer, peer))
    if not peer_handles:
        plt.close(figure)
        return None
    family_handles = [
        Line2D([], [], color="grey", linestyle=style_of[family], label=family)
        for family in families
    ]
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.margins(x=0.08, y=0.15)
    low, high = axes.get_ylim()
    axes.set_ylim(low, high * 30)  # headroom for the failure labels above the highest marks
    axes.set_xlabel("sequences per player (the larger of the two)")
    axes.set_ylabel("seconds (median; bars: min–max)")
    axes.set_title(
        f"Time against game size ({run.settings.repeat} run(s); × = failed where it stopped)\n"
        f"{run.machine.cpu}, {run.machine.usable_cores} cores, {run.machine.memory_gb:g} GiB",
        fontsize=10,
    )
    axes.grid(True, which="both", alpha=0.3)
    legend = axes.legend(handles=peer_handles + family_handles, fontsize=8, loc="lower right")
    figure.tight_layout()
    obstacles = [legend.get_window_extent(figure.canvas.get_renderer())]
    for text, at, colour in _failure_labels(failures):
        _label_clear_of_lines(axes, obstacles, text, at, colour)
    with replacing(path) as temporary:  # a reader sees the old figure or the new one
        figure.savefig(temporary, dpi=120)
    plt.close(figure)
    return path


# Where a failure's label may go, in points from its ``x``: beside it first, then further
# away with an arrow.  The first offset whose text crosses no line, label or legend wins.
_LABEL_OFFSETS: tuple[tuple[float, float], ...] = (
    (8, 6), (8, -16), (-8, 6), (-8, -16),
    (24, -36), (-24, -36), (24, 30), (-24, 30),
    (40, -64), (-40, -64), (40, 56), (-40, 56),
)  # fmt: skip


def _failure_labels(
    failures: list[tuple[str, _Point, str]],
) -> list[tuple[str, tuple[float, float], str]]:
    """One label per game size and kind of failure, naming every peer that failed so
    (in its colour if only one, else in grey)."""
    grouped: dict[tuple[int, str], list[tuple[str, _Point, str]]] = {}
    for failure in failures:
        grouped.setdefault((failure[1].size, failure[1].failure), []).append(failure)
    labels = []
    for (_, kind), members in grouped.items():
        point = members[0][1]
        if len(members) == 1:
            text, colour = f"{members[0][0]}: {kind}", members[0][2]
        else:
            text, colour = "\n".join([f"{kind}:", *(m[0] for m in members)]), "dimgrey"
        labels.append((text, (point.size, max(m[1].seconds for m in members)), colour))
    return labels


def _label_clear_of_lines(
    axes: Any, obstacles: list[Any], text: str, at: tuple[float, float], colour: str
) -> None:
    """Annotate ``at`` with ``text`` where it covers no drawn line and no box in
    ``obstacles`` (the legend, earlier labels), inside the axes; the last offset tried if
    none is clear.  Called after the layout is final, since it measures on the canvas."""
    renderer = axes.figure.canvas.get_renderer()
    inside = axes.get_window_extent(renderer)
    paths = [line.get_transform().transform_path(line.get_path()) for line in axes.get_lines()]
    label = None
    for dx, dy in _LABEL_OFFSETS:
        if label is not None:
            label.remove()
        far = abs(dy) > 20
        label = axes.annotate(
            text,
            at,
            textcoords="offset points",
            xytext=(dx, dy),
            horizontalalignment="left" if dx > 0 else "right",
            verticalalignment="bottom" if dy > 0 else "top",
            fontsize=8,
            color=colour,
            arrowprops={"arrowstyle": "-", "color": colour, "lw": 0.6} if far else None,
        )
        box = label.get_window_extent(renderer).padded(2)
        clear = not any(path.intersects_bbox(box, filled=False) for path in paths)
        clear = clear and not any(box.overlaps(other) for other in obstacles)
        if clear and inside.contains(box.x0, box.y0) and inside.contains(box.x1, box.y1):
            break
    obstacles.append(label.get_window_extent(renderer))
