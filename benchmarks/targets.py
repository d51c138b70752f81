"""The performance targets seqform holds itself to, each checked against one benchmark run.

Speed against OpenSpiel's sequence-form LP (Leduc, Liar's Dice), memory, the cvxpy backend's
overhead over direct HiGHS, a game of 10^6 sequences per player solved and certified, the time
outside the LP solver on large games, and games too big for a tree on the structured route.
:func:`check_targets` gives each target with what the run measured and a verdict (met, missed,
or not measured when the game was not run or a peer failed).
"""

from __future__ import annotations

from dataclasses import dataclass

from benchmarks.cells import (
    megabytes_text,
    seconds_text,
    sequences_text,
    short_status,
    status_cell,
)
from benchmarks.peers import SPARSIFIED
from benchmarks.records import NOT_APPLICABLE, BenchmarkRun, GameResult, PeerResult

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
        return Ratio(None, note=f"{faster.peer} {short_status(faster)}")
    if slower.median is not None:
        return Ratio(slower.median / faster.median)
    if slower.status == "timeout":
        return Ratio(slower.timeout / faster.median, lower_bound=True)
    return Ratio(None, note=f"{slower.peer} {short_status(slower)}")


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
            f"{seconds_text(median)} s" if median is not None else result.status,
            None if median is None else median < seconds,
        ),
        TargetCheck(
            memory_target,
            f"{megabytes_text(peak)} MiB" if peak is not None else result.status,
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
    sequences = f"`{game.game}` ({sequences_text(game)} sequences)"
    if result.median is None:
        return f"{sequences}: {status_cell(result)}"
    exploitability = result.exploitability
    return (
        f"{sequences}: {seconds_text(result.median)} s, {megabytes_text(result.peak_rss_mb)} MiB, "
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
            parts.append(f"`{game.game}`: {status_cell(result)}")
            verdicts.append(None)
            continue
        parts.append(
            f"`{game.game}`: {seconds_text(outside)} s outside, "
            f"{seconds_text(solver)} s in the solver"
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
        return TargetCheck(target, status_cell(result), False if failed else None)
    met = (
        median < seconds
        and (megabytes is None or peak < megabytes)
        and exploitability <= STRUCTURED_EXPLOITABILITY
    )
    tree = game.peer("seqform-highs")
    beside = f"; tree route: {status_cell(tree)}" if tree is not None else ""
    measured = (
        f"{seconds_text(median)} s, {megabytes_text(peak)} MiB, "
        f"exploitability {exploitability:.1e}{beside}"
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
    measured = f"{seconds_text(structured.median)} s against {seconds_text(tree.median)} s"
    return TargetCheck(target, measured, structured.median <= tree.median)


def _sparsity_target(run: BenchmarkRun) -> TargetCheck:
    """nnz of the sparsified payoff against nnz(A) on Leduc with 13 ranks: sizes, computed
    here from the game (never forming ``A``), not timed."""
    target = f"Leduc, 13 ranks: sparsified payoff ≥ {SPARSITY_FACTOR:g}× sparser than A"
    if _find(run, "leduc", ranks=13) is None:
        return TargetCheck(target, "not run", None)
    from seqform.game.builtin.registry import load_structured_game
    from seqform.structured.lp_model import build_structured_lp
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
