"""One number, one cell: how the benchmark pages write a peer, a time, a memory peak, a status.

Every table of ``results.md`` (:mod:`benchmarks.tables`), the performance targets
(:mod:`benchmarks.targets`) and the scaling plot (:mod:`benchmarks.scaling_plot`) write times,
memory and failures the same way, so they read these functions rather than format their own.
"""

from __future__ import annotations

from benchmarks.records import ITERATIVE, NOT_APPLICABLE, BenchmarkRun, GameResult, PeerResult

LABELS: dict[str, str] = {
    "seqform-highs": "seqform (HiGHS)",
    "seqform-cvxpy": "seqform (cvxpy)",
    "openspiel": "OpenSpiel sequence_form_lp",
    "openspiel-highs": "OpenSpiel sequence_form_lp with HiGHS",
    "gambit": "pygambit lp_solve",
    "seqform-sparsified": "seqform sparsified LP (Clarabel)",  # results before the merge
    "seqform-structured": "seqform structured route (Clarabel)",
}

SHORT_STATUS: dict[str, str] = {
    "out of memory": "out of memory",
    "timeout": "timed out",
    "error": "error",
    "refused": "refused (tree too large)",
}


def short_status(result: PeerResult) -> str:
    """A failed peer's status in a few words: ``refused`` for a tree seqform will not build."""
    return "refused" if refused(result) else result.status


def seconds_text(value: float | None) -> str:
    if value is None:
        return "—"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}" if value >= 0.001 else f"{value:.2g}"


def megabytes_text(value: float | None) -> str:
    return "—" if value is None else f"{value:,.0f}"


def status_cell(result: PeerResult) -> str:
    """The summary cell of a peer: its median time, or why there is none."""
    if result.median is not None:
        return seconds_text(result.median)
    failure = result.failure
    if result.status == "timeout":
        return f"timeout (> {result.timeout:g} s)"
    if result.status == "skipped" and failure is not None:
        return f"skipped ({failure.detail})"
    if result.status == NOT_APPLICABLE:
        return "n/a"
    if refused(result):
        return "refused (tree too large)"
    return result.status


def refused(result: PeerResult) -> bool:
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


def value_text(value: float | None) -> str:
    return "—" if value is None else f"{value:+.10f}"


def sequences_text(game: GameResult) -> str:
    if game.sizes is None:
        return "—"
    first, second = game.sizes.sequences
    return f"{first:,}" if first == second else f"{first:,} / {second:,}"


def lp_peers(run: BenchmarkRun) -> list[str]:
    return [peer for peer in run.settings.peers if peer not in ITERATIVE]
