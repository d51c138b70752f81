"""The results of a run as files: a markdown table, the raw JSON and a log-log plot.

``results.md`` is written for readers who were not there: how to reproduce the run, a
summary table (median time of each peer per game, the ratios OpenSpiel / seqform and
cvxpy / HiGHS), the performance targets seqform holds itself to with whether this run met
them, a table per game (median [min–max], solver time, peak memory, status, value and
its difference from seqform's) and the machine.  ``results.json`` holds every measurement
(:class:`benchmarks.harness.BenchmarkRun` as :func:`dataclasses.asdict` gives it), and
``scaling.png`` plots median time against sequences per player, one line per peer (the
sparsified peer's Kuhn games among them, up to 10^6 sequences per player), with the
failures marked where they stopped.  The iterative peers have their own section and
``convergence.png`` (:mod:`benchmarks.convergence_report`); the tables and plot here are
the LP peers'.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from benchmarks.convergence_report import convergence_markdown, plot_convergence
from benchmarks.harness import (
    ITERATIVE,
    NOT_APPLICABLE,
    VALUE_TOLERANCE,
    BenchmarkRun,
    GameResult,
    PeerResult,
)
from benchmarks.peers import SPARSIFIED
from seqform.io.atomic import replacing, write_atomically

__all__ = [
    "Ratio",
    "ResultFiles",
    "TargetCheck",
    "check_targets",
    "plot_scaling",
    "ratio",
    "read_run",
    "render_markdown",
    "write_results",
]

_LABELS: dict[str, str] = {
    "seqform-highs": "seqform (HiGHS)",
    "seqform-cvxpy": "seqform (cvxpy)",
    "openspiel": "OpenSpiel sequence_form_lp",
    "openspiel-highs": "OpenSpiel sequence_form_lp with HiGHS",
    "gambit": "pygambit lp_solve",
    "seqform-sparsified": "seqform sparsified LP (Clarabel)",  # results before the merge
    "seqform-structured": "seqform structured route (Clarabel)",
}
_MARKERS: dict[str, str] = {
    "seqform-highs": "o",
    "seqform-cvxpy": "s",
    "openspiel": "^",
    "openspiel-highs": "v",
    "gambit": "D",
    "seqform-sparsified": "*",
    "seqform-structured": "*",
}
_SHORT_STATUS: dict[str, str] = {
    "out of memory": "out of memory",
    "timeout": "timed out",
    "error": "error",
    "refused": "refused (tree too large)",
}

# The scale target: a game this large per player, solved and certified within these bounds.
SCALE_SEQUENCES = 10**6
SCALE_SECONDS = 120.0
SCALE_MEGABYTES = 8 * 1024.0  # 8 GiB of peak resident memory
SCALE_EXPLOITABILITY = 1e-6
# Above this many sequences per player, the time outside the LP solver (building the LP,
# behavioural strategies, certificate) should be at most this share of the solver's time.
OUTSIDE_SEQUENCES = 10**5
OUTSIDE_SHARE = 0.5
# Games too big for a tree, on the structured route (public tree × private hands):
# (title, seconds, peak MiB or None, game name, parameters), certified as solve certifies.
STRUCTURED_TARGETS: tuple[tuple[str, float, float | None, str, dict[str, int]], ...] = (
    ("Leduc, 13 ranks", 20.0, None, "leduc", {"ranks": 13}),
    ("Leduc, 13 ranks × 4 suits", 60.0, 2 * 1024.0, "leduc", {"ranks": 13, "suits": 4}),
    ("Liar's Dice, 8 sides", 120.0, 8 * 1024.0, "liars_dice", {"sides": 8}),
)
STRUCTURED_EXPLOITABILITY = 1e-9  # the certificate's threshold (seqform solve)
SPARSITY_FACTOR = 10.0  # the sparsified payoff's non-zeros at least this far below nnz(A)


@dataclass(frozen=True)
class ResultFiles:
    """The files :func:`write_results` wrote."""

    markdown: Path
    json: Path
    plot: Path | None
    convergence: Path | None = None


@dataclass(frozen=True)
class Ratio:
    """How many times slower one peer was than another on a game.

    value : the ratio of the median times, or its lower bound (``None`` if unknown)
    lower_bound : the slower peer timed out, so the true ratio is at least ``value``
    note : why there is no ratio (e.g. ``"openspiel out of memory"``)
    """

    value: float | None
    lower_bound: bool = False
    note: str = ""

    def __str__(self) -> str:
        if self.value is None:
            return f"— ({self.note})" if self.note else "—"
        text = f"{self.value:.3g}×" if self.value < 100 else f"{self.value:,.0f}×"
        return f"> {text}" if self.lower_bound else text


@dataclass(frozen=True)
class TargetCheck:
    """One performance target, and what was measured against it.

    met : ``None`` when it could not be measured (the game was not run, or a peer failed)
    """

    target: str
    measured: str
    met: bool | None


def ratio(slower: PeerResult | None, faster: PeerResult | None) -> Ratio:
    """``slower``'s median time over ``faster``'s, or a lower bound if ``slower`` timed out."""
    if slower is None or faster is None:
        return Ratio(None)
    if NOT_APPLICABLE in (slower.status, faster.status):
        return Ratio(None)
    if faster.median is None:
        return Ratio(None, note=f"{faster.peer} {_short_status(faster)}")
    if slower.median is not None:
        return Ratio(slower.median / faster.median)
    if slower.status == "timeout":
        return Ratio(slower.timeout / faster.median, lower_bound=True)
    return Ratio(None, note=f"{slower.peer} {_short_status(slower)}")


def _short_status(result: PeerResult) -> str:
    """A failed peer's status in a few words: ``refused`` for a tree seqform will not build."""
    return "refused" if _refused(result) else result.status


def _seconds(value: float | None) -> str:
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}" if value >= 0.001 else f"{value:.2g}"


def _megabytes(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}"


def _status_cell(result: PeerResult) -> str:
    """The summary cell of a peer: its median time, or why there is none."""
    if result.median is not None:
        return _seconds(result.median)
    failure = result.failure
    if result.status == "timeout":
        return f"timeout (> {result.timeout:g} s)"
    if result.status == "skipped" and failure is not None:
        return f"skipped ({failure.detail})"
    if result.status == NOT_APPLICABLE:
        return "n/a"
    if _refused(result):
        return "refused (tree too large)"
    return result.status


def _refused(result: PeerResult) -> bool:
    """Whether the peer's tree route refused the game as too large to build: status
    ``"refused"`` (a :class:`~seqform.game.errors.TreeTooLargeError`), or, in results written
    before that status existed, the error it raised then (its message names the limit)."""
    failure = result.failure
    if result.status == "refused":
        return True
    return (
        result.status == "error"
        and failure is not None
        and "seqform builds at most" in failure.detail
    )


def _value(value: float | None) -> str:
    return "—" if value is None else f"{value:+.10f}"


def _same_game(spec: str, name: str, **parameters: object) -> bool:
    from seqform.game.builtin.registry import parse_game_spec

    try:
        parsed, given = parse_game_spec(spec)
    except ValueError:
        return False
    defaults = {"liars_dice": {"dice": 1}}.get(name, {})
    return parsed == name and {**defaults, **given} == {**defaults, **parameters}


def _find(run: BenchmarkRun, name: str, **parameters: object) -> GameResult | None:
    return next((g for g in run.games if _same_game(g.game, name, **parameters)), None)


def _speedup_target(
    run: BenchmarkRun, title: str, factor: float, name: str, **parameters: object
) -> TargetCheck:
    target = f"{title}: seqform ≥ {factor:g}× faster than OpenSpiel (whole pipeline)"
    game = _find(run, name, **parameters)
    if game is None:
        return TargetCheck(target, "not run", None)
    measured = ratio(game.peer("openspiel"), game.peer("seqform-highs"))
    if measured.value is None:
        return TargetCheck(target, str(measured), None)
    return TargetCheck(target, str(measured), measured.value >= factor)


def _backend_target(
    run: BenchmarkRun, title: str, factor: float, name: str, **parameters: object
) -> TargetCheck:
    target = f"{title}: cvxpy backend within {factor:g}× of the HiGHS backend"
    game = _find(run, name, **parameters)
    if game is None:
        return TargetCheck(target, "not run", None)
    measured = ratio(game.peer("seqform-cvxpy"), game.peer("seqform-highs"))
    if measured.value is None:
        return TargetCheck(target, str(measured), None)
    met = measured.value <= factor and not measured.lower_bound
    return TargetCheck(target, f"cvxpy / HiGHS = {measured}", met)


def _absolute_targets(
    run: BenchmarkRun, title: str, seconds: float, megabytes: float, name: str, **parameters: object
) -> list[TargetCheck]:
    time_target = f"{title}: seqform (HiGHS) under {seconds:g} s"
    memory_target = f"{title}: seqform (HiGHS) under {megabytes:,.0f} MiB peak RSS"
    game = _find(run, name, **parameters)
    result = game.peer("seqform-highs") if game is not None else None
    if result is None:
        return [
            TargetCheck(time_target, "not run", None),
            TargetCheck(memory_target, "not run", None),
        ]
    median, peak = result.median, result.peak_rss_mb
    return [
        TargetCheck(
            time_target,
            f"{_seconds(median)} s" if median is not None else result.status,
            None if median is None else median < seconds,
        ),
        TargetCheck(
            memory_target,
            f"{_megabytes(peak)} MiB" if peak is not None else result.status,
            None if peak is None else peak < megabytes,
        ),
    ]


def _sparsified_runs(run: BenchmarkRun, sequences: int) -> list[tuple[GameResult, PeerResult]]:
    """The sparsified peer on the games with at least ``sequences`` per player, largest first."""
    found = [
        (min(game.sizes.sequences), game, result)
        for game in run.games
        if game.sizes is not None
        and min(game.sizes.sequences) >= sequences
        and (result := game.peer(SPARSIFIED)) is not None
        and result.status != NOT_APPLICABLE
    ]
    found.sort(key=lambda entry: -entry[0])
    return [(game, result) for _, game, result in found]


def _scale_met(result: PeerResult) -> bool | None:
    """Whether one sparsified result meets the scale target; ``None`` if it cannot tell."""
    median, peak, exploitability = result.median, result.peak_rss_mb, result.exploitability
    if median is not None and peak is not None and exploitability is not None:
        return (
            median < SCALE_SECONDS
            and peak < SCALE_MEGABYTES
            and exploitability <= SCALE_EXPLOITABILITY
        )
    if result.status == "timeout" and result.timeout >= SCALE_SECONDS:
        return False
    if result.status == "out of memory":
        return False  # it needed more than the cap, which is at most the target's memory
    return None


def _scale_measured(game: GameResult, result: PeerResult) -> str:
    sequences = f"`{game.game}` ({_sequences(game)} sequences)"
    if result.median is None:
        return f"{sequences}: {_status_cell(result)}"
    exploitability = result.exploitability
    return (
        f"{sequences}: {_seconds(result.median)} s, {_megabytes(result.peak_rss_mb)} MiB, "
        f"exploitability {'—' if exploitability is None else f'{exploitability:.1e}'}"
    )


def _scale_target(run: BenchmarkRun) -> TargetCheck:
    target = (
        f"10^6 sequences per player solved and certified in < {SCALE_SECONDS:g} s and "
        f"< {SCALE_MEGABYTES / 1024:g} GiB peak, exploitability ≤ {SCALE_EXPLOITABILITY:g} "
        "(seqform sparsified LP)"
    )
    found = _sparsified_runs(run, SCALE_SEQUENCES)
    if not found:
        return TargetCheck(target, "not run", None)
    verdicts = [_scale_met(result) for _, result in found]
    if True in verdicts:  # some game of 10^6 or more sequences met it: show that one
        return TargetCheck(target, _scale_measured(*found[verdicts.index(True)]), True)
    missed = all(verdict is False for verdict in verdicts)
    return TargetCheck(target, _scale_measured(*found[0]), False if missed else None)


def _outside_target(run: BenchmarkRun) -> TargetCheck:
    target = (
        f"seqform sparsified LP above {OUTSIDE_SEQUENCES:,} sequences per player: time "
        f"outside the LP solver ≤ {OUTSIDE_SHARE:g} × the solver's time (medians)"
    )
    found = _sparsified_runs(run, OUTSIDE_SEQUENCES + 1)
    if not found:
        return TargetCheck(target, "not run", None)
    parts: list[str] = []
    verdicts: list[bool | None] = []
    for game, result in reversed(found):
        outside, solver = result.outside_solver_median, result.solver_median
        if outside is None or solver is None:
            parts.append(f"`{game.game}`: {_status_cell(result)}")
            verdicts.append(None)
            continue
        parts.append(
            f"`{game.game}`: {_seconds(outside)} s outside, {_seconds(solver)} s in the solver"
        )
        verdicts.append(outside <= OUTSIDE_SHARE * solver)
    if False in verdicts:
        met: bool | None = False
    else:
        met = None if None in verdicts else True
    return TargetCheck(target, "; ".join(parts), met)


def _structured_target(
    run: BenchmarkRun, title: str, seconds: float, megabytes: float | None, name: str, **kw: int
) -> TargetCheck:
    memory = "" if megabytes is None else f" and < {megabytes / 1024:g} GiB peak"
    target = f"{title}: structured route, solved and certified in < {seconds:g} s{memory}"
    game = _find(run, name, **kw)
    result = game.peer(SPARSIFIED) if game is not None else None
    if game is None or result is None:
        return TargetCheck(target, "not run", None)
    median, peak, exploitability = result.median, result.peak_rss_mb, result.exploitability
    if median is None or peak is None or exploitability is None:
        failed = result.status in ("timeout", "out of memory")
        return TargetCheck(target, _status_cell(result), False if failed else None)
    met = (
        median < seconds
        and (megabytes is None or peak < megabytes)
        and exploitability <= STRUCTURED_EXPLOITABILITY
    )
    tree = game.peer("seqform-highs")
    beside = f"; tree route: {_status_cell(tree)}" if tree is not None else ""
    measured = (
        f"{_seconds(median)} s, {_megabytes(peak)} MiB, exploitability {exploitability:.1e}{beside}"
    )
    return TargetCheck(target, measured, met)


def _structured_small_target(run: BenchmarkRun) -> TargetCheck:
    target = "Leduc (3 ranks × 2 suits): structured route not slower than the tree route"
    game = _find(run, "leduc")
    if game is None:
        return TargetCheck(target, "not run", None)
    structured, tree = game.peer(SPARSIFIED), game.peer("seqform-highs")
    if structured is None or tree is None or structured.median is None or tree.median is None:
        return TargetCheck(target, "not measured", None)
    measured = f"{_seconds(structured.median)} s against {_seconds(tree.median)} s"
    return TargetCheck(target, measured, structured.median <= tree.median)


def _sparsity_target(run: BenchmarkRun) -> TargetCheck:
    """nnz of the sparsified payoff against nnz(A) on Leduc with 13 ranks: sizes, computed
    here from the game (never forming ``A``), not timed."""
    target = f"Leduc, 13 ranks: sparsified payoff ≥ {SPARSITY_FACTOR:g}× sparser than A"
    if _find(run, "leduc", ranks=13) is None:
        return TargetCheck(target, "not run", None)
    from seqform.game.builtin.registry import load_structured_game
    from seqform.structured.factored_lp import build_structured_lp
    from seqform.structured.payoff_matrix import payoff_nnz

    game = load_structured_game("leduc(ranks=13)")
    sparsified, explicit = build_structured_lp(game).payoff_nonzeros, payoff_nnz(game)
    factor = explicit / sparsified
    measured = f"{sparsified:,} against {explicit:,} non-zeros ({factor:.1f}×)"
    return TargetCheck(target, measured, factor >= SPARSITY_FACTOR)


def check_targets(run: BenchmarkRun) -> list[TargetCheck]:
    """seqform's performance targets (speed against OpenSpiel, memory, the cvxpy backend's
    overhead, 10^6 sequences per player, games too big for a tree on the structured route),
    each with its measurement and verdict."""
    return [
        _speedup_target(run, "Leduc", 3, "leduc"),
        _speedup_target(run, "Liar's Dice, 5 sides", 20, "liars_dice", sides=5),
        *_absolute_targets(run, "Liar's Dice, 6 sides", 5, 1024, "liars_dice", sides=6),
        _backend_target(run, "Leduc", 2, "leduc"),
        _backend_target(run, "Liar's Dice, 6 sides", 2, "liars_dice", sides=6),
        _scale_target(run),
        _outside_target(run),
        *(_structured_target(run, *target[:4], **target[4]) for target in STRUCTURED_TARGETS),
        _structured_small_target(run),
        _sparsity_target(run),
    ]


def _verdict(met: bool | None) -> str:
    return {True: "met", False: "**missed**", None: "not measured"}[met]


def _sequences(game: GameResult) -> str:
    if game.sizes is None:
        return "—"
    first, second = game.sizes.sequences
    return f"{first:,}" if first == second else f"{first:,} / {second:,}"


def _agreement(game: GameResult) -> str:
    disagreeing = game.disagreeing
    if disagreeing:
        parts = [f"{peer} Δ {game.difference(peer):.2g}" for peer in disagreeing]
        return "**DISAGREE**: " + ", ".join(parts)
    compared = [r for r in game.peers if r.outcomes]
    return "agree" if len(compared) > 1 else ("one peer" if compared else "—")


def _lp_peers(run: BenchmarkRun) -> list[str]:
    return [peer for peer in run.settings.peers if peer not in ITERATIVE]


def _summary(run: BenchmarkRun) -> list[str]:
    peers = _lp_peers(run)
    header = ["game", "sequences per player", *(_LABELS.get(p, p) + ", s" for p in peers)]
    header += ["OpenSpiel / seqform", "cvxpy / HiGHS", f"values (\\|Δ\\| ≤ {VALUE_TOLERANCE:g})"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for game in run.games:
        cells = [f"`{game.game}`", _sequences(game)]
        for peer in peers:
            result = game.peer(peer)
            cells.append(_status_cell(result) if result is not None else "—")
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
                f"seqform game + conversion {_seconds(result.convert_median)} s, not counted"
            )
        if last.stages:
            stages = ", ".join(f"{k} {_seconds(v)}" for k, v in last.stages.items())
            notes.append(f"stages (s): {stages}")
    return "; ".join(notes).replace("|", "\\|")


def _game_table(game: GameResult) -> list[str]:
    title = f"### `{game.game}`"
    if game.sizes is not None:
        sizes = game.sizes
        title += (
            f" — {_sequences(game)} sequences, "
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
        spread = f" [{_seconds(min(times))}–{_seconds(max(times))}]" if len(times) > 1 else ""
        timed = f"{_seconds(result.median)}{spread}" if result.median is not None else "—"
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
            _LABELS.get(result.peer, result.peer),
            timed,
            str(len(times)),
            _seconds(result.solver_median),
            _megabytes(result.peak_rss_mb),
            status,
            _value(result.value),
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
        "in seqform and converting it with `seqform.game.to_gambit.game_to_gambit` is timed "
        "apart and not counted.",
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
        elif result.status in _SHORT_STATUS:
            failure = result.failure
            stopped = result.timeout if result.status == "timeout" else None
            if stopped is None and failure is not None:
                stopped = failure.elapsed
            if stopped is not None and stopped > 0:
                short = (
                    "refused (tree too large)" if _refused(result) else _SHORT_STATUS[result.status]
                )
                points.append(_Point(family, size, stopped, stopped, stopped, short))
    return sorted(points, key=lambda point: (point.family, point.size))


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
    for index, peer in enumerate(_lp_peers(run)):
        points = _points(run, peer)
        if not points:
            continue
        colour, marker = colours[index % len(colours)], _MARKERS.get(peer, "o")
        peer_handles.append(
            Line2D([], [], color=colour, marker=marker, label=_LABELS.get(peer, peer))
        )
        for family in families:
            solved = [p for p in points if p.family == family and not p.failure]
            if solved:
                axes.errorbar(
                    [p.size for p in solved],
                    [p.seconds for p in solved],
                    yerr=[
                        [p.seconds - p.low for p in solved],
                        [p.high - p.seconds for p in solved],
                    ],
                    color=colour,
                    marker=marker,
                    linestyle=style_of[family],
                    capsize=3,
                )
        labelled: set[str] = set()
        for point in points:
            if not point.failure:
                continue
            axes.scatter([point.size], [point.seconds], marker="x", s=80, color=colour, zorder=3)
            if point.failure not in labelled:
                labelled.add(point.failure)
                failures.append((_LABELS.get(peer, peer), point, colour))
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


def _json_default(value: object) -> object:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def write_results(run: BenchmarkRun, directory: Path, *, plot: bool = True) -> ResultFiles:
    """Write ``results.md``, ``results.json`` and, if ``plot``, ``scaling.png`` and (if an
    iterative peer ran) ``convergence.png`` in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    json_path = directory / "results.json"
    write_atomically(json_path, json.dumps(asdict(run), indent=1, default=_json_default) + "\n")
    plot_path = plot_scaling(run, directory / "scaling.png") if plot else None
    convergence = plot_convergence(run, directory / "convergence.png") if plot else None
    markdown_path = directory / "results.md"
    write_atomically(
        markdown_path,
        render_markdown(
            run,
            plot_name=plot_path.name if plot_path else None,
            convergence_plot=convergence.name if convergence else None,
        ),
    )
    return ResultFiles(
        markdown=markdown_path, json=json_path, plot=plot_path, convergence=convergence
    )


def read_run(path: Path) -> BenchmarkRun:
    """Read a ``results.json`` back (to render it again without measuring)."""
    return BenchmarkRun.from_dict(json.loads(path.read_text(encoding="utf-8")))
