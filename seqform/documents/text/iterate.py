"""``iterate``: an iterative run (:class:`~seqform.questions.iterate.IterativeRun`) as text.

Its JSON document, ``seqform.iterate/1``, is :func:`seqform.documents.iterate.iterate_document`.

Players are numbered from 1 in every output (index 0 in the library).
"""

from __future__ import annotations

import numpy as np

from seqform.base.numbers import count_text, value_text
from seqform.documents.layout.blocks import certificate_lines, header
from seqform.documents.layout.strategies import behaviour_tables, strategy_sections
from seqform.documents.layout.tables import aligned_table
from seqform.game.public.tree import StructuredGame
from seqform.questions.iterate import IterativeRun

__all__ = ["ALGORITHM_TEXT", "iterate_text", "stopped_text"]

ALGORITHM_TEXT = {
    "cfr": "CFR (Zinkevich et al. 2007: regret matching, alternating updates, uniform average)",
    "cfr+": "CFR+ (Tammelin 2014: regret matching+, alternating updates, linear average)",
    "dcfr": "DCFR (Brown and Sandholm 2019: α = 1.5, β = 0, γ = 2)",
    "lcfr": "Linear CFR (Brown and Sandholm 2019: DCFR with α = β = γ = 1)",
    "pcfr+": "predictive CFR+ (Farina, Kroer and Sandholm 2021: quadratic average)",
    "dcfr+": "DCFR+ (Xu et al. 2024: α = 1.5, γ = 4)",
    "pdcfr+": "PDCFR+ (Xu et al. 2024: α = 2.3, γ = 5)",
    "hs-dcfr30": "HS-DCFR(30) (Zhang et al. 2024: α = 1 + 3t/n, β = −1 − 2t/n, weight t^(30−5t/n))",
    "hs-dcfr15": "HS-DCFR(15) (Zhang et al. 2024: α = 1 + 3t/n, β = −1 − 2t/n, weight t^(15−5t/n))",
    "hs-pcfr+30": "HS-PCFR+(30) (Zhang et al. 2024: predictive CFR+, weight t^(30−5t/n))",
    "hs-pcfr+15": "HS-PCFR+(15) (Zhang et al. 2024: predictive CFR+, weight t^(15−5t/n))",
    "xfp": "extensive-form fictitious play (Heinrich, Lanctot and Silver 2015)",
    "rcfr": "regression CFR (Waugh et al. 2015: least-squares regrets over features)",
    "mccfr": "external-sampling MCCFR (Lanctot et al. 2009, simple average)",
}

HISTORY_ROWS = 25  # the text shows at most about this many samples; JSON has them all


def stopped_text(run: IterativeRun) -> str:
    """Which rule stopped the run, in words."""
    result, stopping = run.result, run.stopping
    if result.stopped == "target":
        return (
            f"the target: exploitability (NashConv / 2) {result.nash_conv / 2:.3g} "
            f"≤ {stopping.target:g}"
        )
    if result.stopped == "time limit":
        return f"the time limit of {stopping.time_limit:g} s of solver time"
    if result.stopped == "interrupted":
        return "an interrupt (Ctrl-C), at an iteration boundary"
    if result.stopped == "iterations":
        return f"the iteration limit of {count_text(stopping.iterations or result.iterations)}"
    if result.stopped == "measurement failed":
        return "a NashConv measurement that failed (no target can be checked without it)"
    return result.stopped


def _measurement_lines(run: IterativeRun) -> list[str]:
    """Each player's value estimate, best response and gain; the certificate if 2p0s."""
    profile, names = run.profile, run.game.player_names
    failed = run.certificate_failed or run.result.failure
    if profile is None:
        return [f"Average strategies: certificate failed: {failed}"]
    rows = [("", "value estimate", "best response", "gain")]
    rows += [
        (names[i], value_text(v), value_text(b), f"{g:.3e}")
        for i, (v, b, g) in enumerate(
            zip(profile.values, profile.best_response_values, profile.gains, strict=True)
        )
    ]
    where = "the public tree × hands" if isinstance(run.game, StructuredGame) else "the game tree"
    lines = [f"Average strategies, measured by best responses on {where}"]
    lines += aligned_table(rows)
    if run.certificate is None:
        lines.append(f"  NashConv (the sum of the gains) {profile.nash_conv:.3g}")
        return lines
    on = "the public tree × hands" if isinstance(run.game, StructuredGame) else "the tree"
    return [*lines, "", *certificate_lines(run.certificate, names, f"best responses on {on}")]


def _reference_lines(run: IterativeRun) -> list[str]:
    reference, names = run.reference, run.game.player_names
    if reference.skipped is not None:
        return [f"LP reference {reference.status}: {reference.skipped}"]
    assert reference.value is not None and reference.value_distance is not None
    exact = value_text(reference.value)
    lines = [
        "Against the sequence-form LP",
        f"  exact value to {names[0]} {exact}; the estimate is {reference.value_distance:.3g} away",
    ]
    if reference.uniqueness_skipped is not None:
        lines.append(f"  equilibrium strategies: not compared ({reference.uniqueness_skipped})")
        return lines
    for player in reference.players:
        name = names[player.player]
        if player.distance is None:
            lines.append(
                f"  {name}: many equilibrium strategies (a set of dimension {player.dimension}); "
                "no single one to compare with"
            )
        else:
            lines.append(
                f"  {name}: unique equilibrium strategy; largest probability difference at "
                f"the {player.infosets} information sets it reaches: {player.distance:.3g}"
            )
    return lines


def _history_lines(run: IterativeRun) -> list[str]:
    """The NashConv samples: all of them, or about :data:`HISTORY_ROWS` spread evenly on a
    log scale of the iteration (always the first and the last)."""
    history = run.result.history
    shown = list(range(len(history)))
    if len(history) > HISTORY_ROWS:
        spread = np.geomspace(1, len(history), HISTORY_ROWS).round().astype(int) - 1
        shown = sorted(set(spread.tolist()) | {0, len(history) - 1})
    every = run.stopping.every
    title = "NashConv history (every " + (
        f"{count_text(every)} iterations" if every > 1 else "iteration"
    )
    title += " and at the end" if every > 1 else ""
    title += (
        ")"
        if len(shown) == len(history)
        else f"; {len(shown)} of {count_text(len(history))} shown)"
    )
    rows = [("", "iteration", "solver s", "NashConv")]
    rows += [
        ("", f"{count_text(sample.iteration)}", f"{sample.seconds:.3f}", f"{sample.nash_conv:.3e}")
        for sample in (history[i] for i in shown)
    ]
    lines = [title, *aligned_table(rows, indent="")]
    if run.result.failure is not None:
        lines.append(f"NashConv not measured (nan): {run.result.failure}")
    return lines


def _last_iterate_lines(run: IterativeRun) -> list[str]:
    last = run.result.last_nash_conv
    if last is None:
        return []
    return [f"Last iterate: NashConv {last:.3e} (the average's: {run.result.nash_conv:.3e})"]


def iterate_text(run: IterativeRun, strategies: str = "auto") -> str:
    """The run for people: what ran and why it stopped, the measurements, the LP beside
    them, the NashConv history and the average strategies."""
    game, result = run.game, run.result
    algorithm = ALGORITHM_TEXT.get(result.algorithm, result.algorithm)
    seed = "" if result.seed is None else f", seed {result.seed}"
    lines = [
        header(game.name, game.description),
        f"Algorithm: {algorithm}{seed}",
        f"Run: {count_text(result.iterations)} iterations in {result.seconds:.3f} s of solver "
        "time; "
        f"stopped by {stopped_text(run)}",
        *_last_iterate_lines(run),
        "",
        *_measurement_lines(run),
        "",
        *_reference_lines(run),
        "",
        *_history_lines(run),
    ]
    tables = behaviour_tables(result.strategies, game.player_names)
    lines += strategy_sections(game, tables, strategies)
    return "\n".join(lines)
