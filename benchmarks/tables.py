"""The text of ``results.md``: the summary table, the targets, what is timed, one table per game,
the machine.

Written for readers who were not there: how to reproduce the run, a summary table (median time
of each peer per game, the ratios OpenSpiel / seqform and cvxpy / HiGHS), the performance
targets with whether this run met them (:mod:`benchmarks.targets`), a table per game (median
[min–max], solver time, peak memory, status, value and its difference from seqform's), the
iterative peers' section (:mod:`benchmarks.convergence_report`) and the machine.
"""

from __future__ import annotations

from benchmarks.cells import (
    LABELS,
    lp_peers,
    megabytes_text,
    seconds_text,
    sequences_text,
    status_cell,
    value_text,
)
from benchmarks.convergence_report import convergence_markdown
from benchmarks.records import ITERATIVE, VALUE_TOLERANCE, BenchmarkRun, GameResult, PeerResult
from benchmarks.targets import check_targets, ratio


def _verdict(met: bool | None) -> str:
    return {True: "met", False: "**missed**", None: "not measured"}[met]


def _agreement(game: GameResult) -> str:
    disagreeing = game.disagreeing
    if disagreeing:
        parts = [f"{peer} Δ {game.difference(peer):.2g}" for peer in disagreeing]
        return "**DISAGREE**: " + ", ".join(parts)
    compared = [r for r in game.peers if r.outcomes]
    return "agree" if len(compared) > 1 else ("one peer" if compared else "—")


def _summary(run: BenchmarkRun) -> list[str]:
    peers = lp_peers(run)
    header = ["game", "sequences per player", *(LABELS.get(p, p) + ", s" for p in peers)]
    header += ["OpenSpiel / seqform", "cvxpy / HiGHS", f"values (\\|Δ\\| ≤ {VALUE_TOLERANCE:g})"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for game in run.games:
        cells = [f"`{game.game}`", sequences_text(game)]
        for peer in peers:
            result = game.peer(peer)
            cells.append(status_cell(result) if result is not None else "—")
        highs = game.peer("seqform-highs")
        cells.append(str(ratio(game.peer("openspiel"), highs)))
        cells.append(str(ratio(game.peer("seqform-cvxpy"), highs)))
        cells.append(_agreement(game))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _notes(result: PeerResult) -> str:
    outcomes = result.outcomes
    notes: list[str] = []
    failure = result.failure
    if failure is not None and failure.detail:
        notes.append(failure.detail)
    if outcomes:
        last = outcomes[-1]
        if last.iterations is not None:
            notes.append(f"{last.iterations:,} LP iterations")
        if last.exploitability is not None:
            notes.append(f"exploitability {last.exploitability:.1e}")
        if last.route == "efg":
            notes.append("loaded by OpenSpiel's efg_game from a .efg file")
        if result.convert_median is not None:
            notes.append(
                f"seqform game + conversion {seconds_text(result.convert_median)} s, not counted"
            )
        if last.stages:
            stages = ", ".join(f"{k} {seconds_text(v)}" for k, v in last.stages.items())
            notes.append(f"stages (s): {stages}")
    return "; ".join(notes).replace("|", "\\|")


def _game_table(game: GameResult) -> list[str]:
    title = f"### `{game.game}`"
    if game.sizes is not None:
        sizes = game.sizes
        title += (
            f" — {sequences_text(game)} sequences, "
            f"{sizes.infosets[0]:,} / {sizes.infosets[1]:,} information sets, "
            f"{sizes.terminals:,} terminal histories"
        )
    elif game.sizes_detail:
        title += f" — size not measured ({game.sizes_detail})"
    reference = game.reference
    lines = [
        title,
        "",
        "| peer | time s, median [min–max] | runs | solver s | peak RSS MiB | status | value "
        "| \\|Δ\\| | notes |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for result in game.peers:
        if result.peer in ITERATIVE:
            continue
        times = result.seconds
        spread = (
            f" [{seconds_text(min(times))}–{seconds_text(max(times))}]" if len(times) > 1 else ""
        )
        timed = f"{seconds_text(result.median)}{spread}" if result.median is not None else "—"
        difference = game.difference(result.peer)
        if reference is not None and result.peer == reference.peer:
            delta = "reference"
        elif difference is None:
            delta = "—"
        else:
            flag = " **DISAGREES**" if difference > VALUE_TOLERANCE else ""
            delta = f"{difference:.1e}{flag}"
        status = (
            result.status if result.status != "timeout" else f"timeout (> {result.timeout:g} s)"
        )
        cells = [
            LABELS.get(result.peer, result.peer),
            timed,
            str(len(times)),
            seconds_text(result.solver_median),
            megabytes_text(result.peak_rss_mb),
            status,
            value_text(result.value),
            delta,
            _notes(result),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _machine(run: BenchmarkRun) -> list[str]:
    machine = run.machine
    packages = ", ".join(f"{name} {version}" for name, version in machine.packages.items())
    environment = ", ".join(f"{k}={v}" for k, v in machine.environment.items()) or "—"
    return [
        "| | |",
        "|---|---|",
        f"| processor | {machine.cpu} |",
        f"| cores | {machine.usable_cores} usable of {machine.logical_cores} |",
        f"| memory | {machine.memory_gb:g} GiB |",
        f"| system | {machine.system} |",
        f"| Python | {machine.python} |",
        f"| packages | {packages} |",
        f"| environment | {environment} |",
        f"| seqform commit | {machine.commit} |",
    ]


def _load_note(run: BenchmarkRun) -> list[str]:
    if not run.load_at_start or not run.load_at_end:
        return []
    start = " / ".join(f"{load:g}" for load in run.load_at_start)
    end = " / ".join(f"{load:g}" for load in run.load_at_end)
    cores = run.machine.usable_cores
    return [
        f"Load average (1 / 5 / 15 min) {start} at the start and {end} at the end, on "
        f"{cores} core(s): a load near or above the core count means other work shared the "
        "machine and slowed every peer alike.",
        "",
    ]


def render_markdown(
    run: BenchmarkRun,
    *,
    plot_name: str | None = "scaling.png",
    convergence_plot: str | None = None,
) -> str:
    """The whole ``results.md``."""
    settings, machine = run.settings, run.machine
    lines = [
        "# seqform benchmarks",
        "",
        f"Run {run.started} to {run.finished} on {machine.cpu} ({machine.usable_cores} cores, "
        f"{machine.memory_gb:g} GiB), {machine.python}, seqform {machine.commit}.  "
        f"{settings.repeat} run(s) per peer and game, each in a fresh process capped at "
        f"{settings.timeout:g} s ({settings.gambit_timeout:g} s for Gambit, "
        f"{settings.sparsified_timeout:g} s for the sparsified LP) and "
        f"{settings.memory_gb:g} GiB of address space"
        + (", after a warm-up solve of Kuhn poker in the same process." if settings.warmup else ".")
        + "  The machine is described at the end.",
        "",
        *_load_note(run),
        *_reproduce(),
        "## Summary",
        "",
        "Each game solved by each peer (the programs compared): median wall-clock seconds "
        "of the whole pipeline, from the game's name to a certified answer (see *What is "
        "timed*); ratios are of medians (`>` when the slower peer timed out, so the ratio "
        "is at least that); n/a: the peer cannot take the game. The last column says "
        "whether all peers found the same value.",
        "",
        *_summary(run),
        "",
    ]
    if plot_name is not None:
        lines += [f"![time against sequences per player]({plot_name})", ""]
    lines += [
        *_targets_section(run),
        *_what_is_timed(),
        "## Per game",
        "",
        "One table per game, in increasing size: every run of every peer (median and "
        "range of the wall-clock seconds), the solver's own seconds, the peak memory of "
        "the process, the value found and its distance from seqform's (HiGHS), and notes "
        "(iterations, exploitability, seconds per stage, why a peer stopped).",
        "",
    ]
    for game in run.games:
        lines += [*_game_table(game), ""]
    lines += convergence_markdown(run, plot_name=convergence_plot)
    lines += ["## Machine", "", "The computer and software of this run.", "", *_machine(run), ""]
    return "\n".join(lines)


def _targets_section(run: BenchmarkRun) -> list[str]:
    """The performance targets of :mod:`benchmarks.targets`, each with this run's verdict."""
    return [
        "## Performance targets",
        "",
        "The goals seqform holds itself to: faster than OpenSpiel's sequence-form LP on the "
        "same games, little memory, a cvxpy backend close to direct HiGHS, and a game of a "
        "million sequences per player solved and certified. Each with what this run "
        "measured; *not measured* when the game was not in the run or a peer failed.",
        "",
        "| target | measured | verdict |",
        "|---|---|---|",
        *(f"| {c.target} | {c.measured} | {_verdict(c.met)} |" for c in check_targets(run)),
        "",
    ]


def _what_is_timed() -> list[str]:
    """What each peer's time covers, and how values are compared."""
    return [
        "## What is timed",
        "",
        "- **seqform** (both backends): the whole pipeline from the game's name — "
        "`load_game` (build and validate the tree) and `solve` (sequence form, LP, behavioural "
        "strategies, certificate by best response). *solver s* is HiGHS's own time "
        "(`Solution.stats.solver_seconds`).",
        "- **OpenSpiel**: `pyspiel.load_game` and `sequence_form_lp.solve_zero_sum_game` with "
        "its default solver (ECOS through cvxpy). Games OpenSpiel lacks (Kuhn with other than "
        "3 cards) are written as `.efg` (not timed) and loaded with its `efg_game`. "
        "*with HiGHS*: the same, solving its two LPs with HiGHS through cvxpy instead of ECOS.",
        "- **Gambit**: `pygambit.nash.lp_solve(game, rational=False)` only; building the game "
        "in seqform and converting it with `seqform.game.formats.to_gambit.game_to_gambit` is "
        "timed apart and not counted.",
        "- **seqform structured route**: games with a public tree × private hands description "
        "(kuhn, leduc, liars_dice), the whole pipeline from the game's name without ever "
        "building the tree — `load_structured_game` and `solve_structured` (sparsified "
        "sequence-form LP through level sums, Clarabel's interior point, behavioural "
        "strategies, certificate by best response on the public tree × hands). *solver s* is "
        "Clarabel's time. The tree-based peers are n/a on games whose tree (9 N² nodes for N "
        "Kuhn cards) seqform refuses to build; the structured peer is n/a on games without "
        "a structured description.",
        "- **peak RSS**: the worker process's `ru_maxrss`, interpreter and libraries "
        "included (about 100–250 MiB before any game is loaded).",
        f"- **values**: each peer's value to player 1, compared with seqform (HiGHS); "
        f"peers disagree when they differ by more than {VALUE_TOLERANCE:g} (absolute, on "
        "values of order 0.1 to 1; the sparsified LP's Clarabel stops at a relative gap of 1e-10, "
        "well inside it).",
        "",
    ]


def _reproduce() -> list[str]:
    """How a reader runs the benchmark again."""
    return [
        "## Reproducing",
        "",
        "```",
        'pip install -e ".[dev,openspiel]"      # OpenSpiel and ecos, its default LP solver',
        "python -m benchmarks.run               # a new folder in benchmarks/scratch/",
        "python -m benchmarks.run --out benchmarks/results   # replace these results",
        "python -m benchmarks.run --from-json benchmarks/results/results.json --out DIR",
        "```",
        "",
        "The whole run takes about 17 minutes on the machine below; `--quick` is a smoke "
        "test of a few seconds. Without `--out` the results go to a new, git-ignored folder "
        "in `benchmarks/scratch/`, so the committed page changes only when asked. "
        "`--from-json` measures nothing and draws the tables and plots again from a "
        "`results.json`.",
        "",
    ]
