"""``qre``: logit quantal response equilibria as text, read from the ``seqform.qre/2``
document (:func:`seqform.documents.qre.qre_result_document`), so that the text shows what
the JSON holds.
"""

from __future__ import annotations

from collections.abc import Sequence

from seqform.documents.layout.parts import Document, header_of
from seqform.documents.layout.strategies import StrategySection, document_sections

__all__ = ["qre_text"]


def _without_segment(dimension: int | None) -> str:
    """What ``ranges`` found for a player whose optimal plans are not a segment."""
    if dimension == 0:
        return "one optimal realization plan (ranges: the set of optimal plans is a point)"
    if dimension is None or dimension == 1:
        return "the optimal plans found by ranges were not parametrised as a segment"
    return (
        f"the optimal plans form a {dimension}-dimensional set (ranges), not a segment: "
        "the limit is not placed by one parameter"
    )


def _comparison_lines(names: Sequence[str], comparison: Document) -> list[str]:
    lines = []
    skipped = comparison["ranges_skipped"]
    if skipped is not None:
        lines.append(f"ranges skipped: {skipped}")
    for entry in comparison["players"]:
        name = names[entry["player"] - 1]
        if entry["parameter"] is None and skipped is not None:
            continue
        if entry["parameter"] is None:
            lines.append(f"{name}: {_without_segment(entry['dimension'])}")
            continue
        lines.append(
            f"{name}: selects {entry['parameter']} = {entry['t']:.6g} in the family "
            f"[{entry['low']:.6g}, {entry['high']:.6g}] "
            f"(ranges; off the segment by {entry['segment_distance']:.2g})"
        )
    differences = ", ".join(
        f"{names[entry['player'] - 1]} {entry['refined_difference']:.3g}"
        for entry in comparison["players"]
    )
    lines.append(f"largest difference from the quasi-perfect equilibrium (refine): {differences}")
    return lines


def _reason(trace: Document) -> str:
    """Why a trace ended before its stop rule: an interrupted one names its signal."""
    received = trace.get("interrupted_by")
    if trace["reason"] != "interrupted" or received is None:
        return str(trace["reason"])
    by = "Ctrl-C" if received == "SIGINT" else received
    return f"interrupted ({by}): the branch so far, its last point not the limit"


_CUT_SHORT = {
    "comparison": "during the comparison with all equilibria: the finished branch without it",
    "points": "during the trace: the points at the λ it crossed before",
    "fit": "during the trace: the best point of the branch so far, not refined",
}


def _interrupted_line(document: Document) -> str | None:
    """What an interrupt cut short, where the trace's own line does not say it."""
    interrupted = document.get("interrupted")
    if interrupted is None or interrupted["during"] not in _CUT_SHORT:
        return None
    received = interrupted["signal"]
    by = "" if received is None else f" ({'Ctrl-C' if received == 'SIGINT' else received})"
    return f"Interrupted{by} {_CUT_SHORT[interrupted['during']]}"


def qre_text(document: Document, strategies: str = "auto") -> str:
    """The report of a ``seqform.qre/2`` document: what was computed, each point's values
    and strategies; ``strategies`` is ``--strategies``."""
    points = document["points"]
    names = [strategy["name"] for strategy in points[0]["strategies"]]
    labels = document["game"].get("labels")
    lines = [header_of(document["game"])]
    fit = document["fit"]
    if fit is not None:
        bound = " (a lower bound: the best point is the end of the trace)" if fit["at_end"] else ""
        lines.append(
            f"Maximum-likelihood logit QRE: λ = {fit['lambda']:.6g}{bound}, log-likelihood "
            f"{fit['log_likelihood']:.6g} over {fit['observations']} observations"
        )
    trace = document["trace"]
    if trace is not None:
        # The trace's last point is the limit: the first point of a trace document.
        state = (
            f"NashConv {trace['nash_conv']:.3g} and agent regret {trace['agent_regret']:.3g} "
            f"<= {trace['tolerance']:g} × payoff range {trace['payoff_range']:g}"
            if trace["converged"]
            else f"not converged: {_reason(trace)}; NashConv {trace['nash_conv']:.3g}"
        )
        lines.append(
            f"Principal logit branch traced to λ = {trace['final_lambda']:.6g} in "
            f"{trace['steps']} steps ({state})"
        )
    cut_short = _interrupted_line(document)
    if cut_short is not None:
        lines.append(cut_short)
    if document["comparison"] is not None:
        lines += [
            "",
            "The limit among all equilibria:",
            *_comparison_lines(names, document["comparison"]),
        ]
    for point in points:
        values = ", ".join(f"{names[p]} {v:.6g}" for p, v in enumerate(point["values"]))
        lines += [
            "",
            f"Logit QRE at λ = {point['lambda']:.6g}: values {values}; "
            f"NashConv {point['nash_conv']:.3g}",
        ]
        tables = [
            StrategySection(strategy, f"{strategy['name']} — logit QRE behaviour")
            for strategy in point["strategies"]
        ]
        lines += document_sections(labels, tables, strategies)
    return "\n".join(lines)
