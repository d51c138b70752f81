"""The iterative peers in the results: time to reach NashConv targets, CFR+ speed, a figure.

``results.md`` gets, for each game the iterative peers ran on, the LP's time to its
certified answer beside each iterative method's time to reach NashConv 1e-3 and 1e-6 (the
first sample at or below it, :func:`time_to_reach`), or its best NashConv when the budget
ran out; a table of seconds per CFR+ iteration against OpenSpiel's C++ and python
solvers; and the speed targets on Leduc and Liar's Dice with 5 sides (seqform's
CFR+ at least 10× faster per iteration than OpenSpiel's python ``CFRPlusSolver``, no
slower than its C++ one, the same NashConv after the same iterations).
``convergence.png`` plots NashConv against solver time and against iterations, log-log,
one row of two panels per game, every method on it, the LP as a point.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.convergence import ITERATIVE_PEERS, SPEED_PEER, TARGETS
from benchmarks.harness import BenchmarkRun, GameResult, PeerResult
from benchmarks.outcome import Outcome
from seqform.io.atomic import replacing

__all__ = [
    "Reached",
    "SpeedCheck",
    "check_speed",
    "convergence_markdown",
    "iterative_games",
    "plot_convergence",
    "time_to_reach",
]

LP_PEER = "seqform-highs"
LABELS: dict[str, str] = {
    "seqform-cfr": "CFR",
    "seqform-cfr+": "CFR+",
    "seqform-dcfr": "DCFR(1.5, 0, 2)",
    "seqform-mccfr": "ES-MCCFR",
}
SPEED_GAMES: tuple[tuple[str, str], ...] = (
    ("leduc", "Leduc"),
    ("liars_dice(sides=5)", "Liar's Dice, 5 sides"),
)
SPEEDUP_OVER_PYTHON = 10.0
SAME_NASH_CONV = 1e-9  # |NashConv of seqform − NashConv of OpenSpiel| after the same iterations
_FLOOR = 1e-17  # NashConv drawn at this height when it is 0 (a log axis has no 0)


@dataclass(frozen=True)
class Reached:
    """The first sample of a run at or below a NashConv target."""

    iteration: int
    seconds: float
    nash_conv: float


def time_to_reach(outcome: Outcome, target: float) -> Reached | None:
    """The first sample of ``outcome.history`` with NashConv ≤ ``target``, or ``None``."""
    for iteration, seconds, nash_conv in outcome.history:
        if nash_conv <= target:
            return Reached(int(iteration), float(seconds), float(nash_conv))
    return None


def iterative_games(run: BenchmarkRun) -> list[GameResult]:
    """The games on which some iterative peer ran."""
    return [game for game in run.games if any(p.peer in ITERATIVE_PEERS for p in game.peers)]


def _seconds(value: float) -> str:
    return f"{value:.3g}" if value >= 0.001 else f"{value:.2g}"


def _iterations(value: int) -> str:
    return f"{value:,}"


def _reached_cell(outcome: Outcome, target: float) -> str:
    reached = time_to_reach(outcome, target)
    if reached is not None:
        return f"{_seconds(reached.seconds)} s ({_iterations(reached.iteration)} it.)"
    best = min(outcome.history, key=lambda sample: sample[2])
    return (
        f"not reached in {_seconds(outcome.seconds)} s "
        f"(best {best[2]:.1e} at {_iterations(int(best[0]))} it.)"
    )


def _lp_row(game: GameResult) -> list[str]:
    lp = game.peer(LP_PEER)
    if lp is None or lp.median is None:
        status = "not run" if lp is None else lp.status
        return [f"| LP, seqform (HiGHS) | {status} | | | | |"]
    nash_conv = lp.exploitability
    shown = "—" if nash_conv is None else f"{nash_conv:.1e}"
    cell = f"{_seconds(lp.median)} s, NashConv {shown} (certified)"
    return [f"| LP, seqform (HiGHS) | {cell} | {cell} | {shown} | — | — |"]


def _method_row(result: PeerResult) -> str:
    label = LABELS.get(result.peer, result.peer)
    outcomes = result.outcomes
    if not outcomes:
        failure = result.failure
        detail = f" ({failure.detail})" if failure is not None and failure.detail else ""
        return f"| {label} | {result.status}{detail} | | | | |"
    outcome = outcomes[0]
    seed = f", seed {outcome.seed}" if outcome.seed is not None else ""
    iterations = outcome.iterations or 0
    per_iteration = outcome.seconds / iterations if iterations else float("nan")
    cells = [
        f"{label}{seed}",
        *(_reached_cell(outcome, target) for target in TARGETS),
        f"{outcome.exploitability:.1e}" if outcome.exploitability is not None else "—",
        f"{_iterations(iterations)} in {_seconds(outcome.seconds)} s ({outcome.stopped})",
        f"{per_iteration:.2e}",
    ]
    return "| " + " | ".join(cells) + " |"


def _reach_table(game: GameResult) -> list[str]:
    header = [
        "method",
        *(f"time to NashConv {target:g}" for target in TARGETS),
        "final NashConv",
        "iterations in solver s (stopped by)",
        "s / iteration",
    ]
    lines = [f"### `{game.game}`", "", "| " + " | ".join(header) + " |", "|---" * len(header) + "|"]
    lines += _lp_row(game)
    lines += [_method_row(result) for result in game.peers if result.peer in ITERATIVE_PEERS]
    return lines


def _speed(game: GameResult) -> dict[str, dict[str, float]] | None:
    result = game.peer(SPEED_PEER)
    outcomes = result.outcomes if result is not None else []
    return outcomes[0].speed if outcomes and outcomes[0].speed else None


def _speed_table(run: BenchmarkRun) -> list[str]:
    rows = []
    for game in run.games:
        speed = _speed(game)
        if speed is None:
            continue
        ours, cpp = speed["seqform"], speed["openspiel-cpp"]
        short, python = speed["seqform-short"], speed["openspiel-python"]
        ours_seconds = ours["seconds_per_iteration"]
        cells = [
            f"`{game.game}`",
            f"{ours_seconds:.2e}",
            f"{cpp['seconds_per_iteration']:.2e}",
            f"{python['seconds_per_iteration']:.2e}",
            f"{python['seconds_per_iteration'] / ours_seconds:,.0f}×",
            f"{cpp['seconds_per_iteration'] / ours_seconds:.3g}×",
            f"{ours['nash_conv']:.6e} / {cpp['nash_conv']:.6e} ({int(ours['iterations'])} it.)",
            f"{short['nash_conv']:.6e} / {python['nash_conv']:.6e} "
            f"({int(short['iterations'])} it.)",
        ]
        rows.append("| " + " | ".join(cells) + " |")
    if not rows:
        return []
    header = [
        "game",
        "seqform s / it.",
        "OpenSpiel C++ s / it.",
        "OpenSpiel python s / it.",
        "python / seqform",
        "C++ / seqform",
        "NashConv seqform / C++",
        "NashConv seqform / python",
    ]
    return [
        "### CFR+ seconds per iteration against OpenSpiel",
        "",
        "The same CFR+ iterations run by seqform and by OpenSpiel's C++ and python "
        "`CFRPlusSolver` on each game OpenSpiel has: seconds per iteration, their ratios, "
        "and the NashConv each reaches after the same number of iterations (equal when the "
        "two compute the same thing).",
        "",
        "| " + " | ".join(header) + " |",
        "|---" * len(header) + "|",
        *rows,
        "",
    ]


@dataclass(frozen=True)
class SpeedCheck:
    """One speed target of the CFR family and what was measured (``met`` None: not
    measured)."""

    target: str
    measured: str
    met: bool | None


def _speed_checks_of(title: str, speed: dict[str, dict[str, float]] | None) -> list[SpeedCheck]:
    targets = [
        f"{title}: CFR+ ≥ {SPEEDUP_OVER_PYTHON:g}× faster per iteration than OpenSpiel's "
        "python CFRPlusSolver",
        f"{title}: CFR+ no slower per iteration than OpenSpiel's C++ CFRPlusSolver",
        f"{title}: the same NashConv as OpenSpiel after the same iterations "
        f"(\\|Δ\\| ≤ {SAME_NASH_CONV:g})",
    ]
    if speed is None:
        return [SpeedCheck(target, "not run", None) for target in targets]
    ours = speed["seqform"]["seconds_per_iteration"]
    over_python = speed["openspiel-python"]["seconds_per_iteration"] / ours
    over_cpp = speed["openspiel-cpp"]["seconds_per_iteration"] / ours
    gaps = [
        abs(speed["seqform"]["nash_conv"] - speed["openspiel-cpp"]["nash_conv"]),
        abs(speed["seqform-short"]["nash_conv"] - speed["openspiel-python"]["nash_conv"]),
    ]
    return [
        SpeedCheck(
            targets[0],
            f"python / seqform = {over_python:,.0f}×",
            over_python >= SPEEDUP_OVER_PYTHON,
        ),
        SpeedCheck(targets[1], f"C++ / seqform = {over_cpp:.3g}×", over_cpp >= 1),
        SpeedCheck(
            targets[2],
            f"\\|Δ\\| = {gaps[0]:.1e} (C++), {gaps[1]:.1e} (python)",
            max(gaps) <= SAME_NASH_CONV,
        ),
    ]


def check_speed(run: BenchmarkRun) -> list[SpeedCheck]:
    """The CFR+ speed targets on Leduc and Liar's Dice with 5 sides."""
    checks: list[SpeedCheck] = []
    for spec, title in SPEED_GAMES:
        game = next((g for g in run.games if g.game == spec), None)
        checks += _speed_checks_of(title, _speed(game) if game is not None else None)
    return checks


def _verdict(met: bool | None) -> str:
    return {True: "met", False: "**missed**", None: "not measured"}[met]


def convergence_markdown(run: BenchmarkRun, *, plot_name: str | None) -> list[str]:
    """The section of ``results.md`` on the iterative peers (empty if none ran)."""
    games = iterative_games(run)
    speed = _speed_table(run)
    if not games and not speed:
        return []
    budget = run.settings.iterative_budget
    lines = [
        "## The CFR family beside the LP",
        "",
        "Each method runs once per game, on the compiled tree, until NashConv of its "
        "average strategies is at most "
        f"{min(TARGETS):g} or its solver time reaches the budget "
        + (f"({budget:g} s)" if budget is not None else "(3 to 15 s by game)")
        + ". Time to reach a NashConv: the solver time at the first NashConv sample at or "
        "below it (about ten samples a decade of iterations, then evenly spaced; loading "
        "the game, building its layout and measuring NashConv not counted). The LP's time "
        "is its median whole pipeline, certificate included, from the same run.",
        "",
    ]
    if plot_name is not None:
        lines += [f"![NashConv against time and iterations]({plot_name})", ""]
    for game in games:
        lines += [*_reach_table(game), ""]
    lines += speed
    checks = check_speed(run)
    lines += [
        "### Speed targets of CFR+",
        "",
        "seqform's CFR+ against OpenSpiel's on the two games where speed matters most: "
        "many times faster per iteration than OpenSpiel's python solver, no slower than "
        "its C++ one, and the same NashConv after the same iterations (the same algorithm, "
        "not merely a similar one).",
        "",
        "| target | measured | verdict |",
        "|---|---|---|",
        *(f"| {c.target} | {c.measured} | {_verdict(c.met)} |" for c in checks),
        "",
    ]
    return lines


def _draw_game(axes: Sequence, game: GameResult, colours: Sequence[str]) -> None:
    by_time, by_iterations = axes
    for index, peer in enumerate(ITERATIVE_PEERS):
        result = game.peer(peer)
        if result is None or not result.outcomes or not result.outcomes[0].history:
            continue
        history = result.outcomes[0].history
        iterations = [sample[0] for sample in history]
        seconds = [max(sample[1], 1e-7) for sample in history]
        nash_conv = [max(sample[2], _FLOOR) for sample in history]
        colour = colours[index % len(colours)]
        by_time.plot(seconds, nash_conv, color=colour, label=LABELS[peer])
        by_iterations.plot(iterations, nash_conv, color=colour, label=LABELS[peer])
    lp = game.peer(LP_PEER)
    if lp is not None and lp.median is not None and lp.exploitability is not None:
        by_time.scatter(
            [lp.median],
            [max(lp.exploitability, _FLOOR)],
            marker="*",
            s=150,
            color="black",
            zorder=3,
            label="LP (seqform, HiGHS)",
        )
    time_label = "seconds (methods: solver time; LP: whole pipeline)"
    for panel, xlabel in ((by_time, time_label), (by_iterations, "iterations")):
        for target in TARGETS:
            panel.axhline(target, color="grey", linestyle=":", linewidth=0.8)
        panel.set_xscale("log")
        panel.set_yscale("log")
        panel.set_xlabel(xlabel)
        panel.set_ylabel("NashConv")
        panel.set_title(game.game, fontsize=9)
        panel.grid(True, which="major", alpha=0.3)


def plot_convergence(run: BenchmarkRun, path: Path) -> Path | None:
    """NashConv against solver time and iterations, one row per game; ``None`` if no data.

    The LP is a star at its median time and NashConv (a NashConv of 0 drawn at 1e-17);
    the dotted lines are the targets 1e-3 and 1e-6.
    """
    games = iterative_games(run)
    if not games:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    figure, grid = plt.subplots(len(games), 2, figsize=(10, 2.8 * len(games)), squeeze=False)
    for row, game in zip(grid, games, strict=True):
        _draw_game(row, game, colours)
    height = figure.get_figheight()  # inches; the title and legend take the top 0.6
    handles, labels = grid[0][0].get_legend_handles_labels()
    figure.legend(
        handles,
        labels,
        loc="upper center",
        bbox_to_anchor=(0.5, 1 - 0.35 / height),
        ncol=5,
        fontsize=8,
        frameon=False,
    )
    figure.suptitle(
        f"NashConv of the average strategies ({run.machine.cpu}, "
        f"{run.machine.usable_cores} cores; dotted: 1e-3 and 1e-6)",
        fontsize=10,
        y=1 - 0.08 / height,
    )
    figure.tight_layout(rect=(0, 0, 1, 1 - 0.6 / height))
    with replacing(path) as temporary:  # a reader sees the old figure or the new one
        figure.savefig(temporary, dpi=110)
    plt.close(figure)
    return path
