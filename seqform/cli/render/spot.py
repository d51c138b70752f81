"""A hold'em spot's players' summary (:mod:`seqform.holdem.report`) as text lines;
its ``"spot"`` object of the ``seqform.structured/2`` document is
:func:`seqform.documents.spot.spot_json`'s."""

from __future__ import annotations

import math
import re

from seqform.holdem import (
    WHO,
    ActionFrequencies,
    ClassGrid,
    ComboStrategy,
    SpotSummary,
    amount_text,
)

__all__ = [
    "combo_lines",
    "ev_text",
    "frequencies_text",
    "grid_lines",
    "history_text",
    "spot_lines",
]


def frequencies_text(found: ActionFrequencies) -> str:
    """``"OOP first: x 78% b5 22%"``."""
    where = "first" if not found.history else f"after {found.history}"
    pairs = zip(found.actions, found.frequencies, strict=True)
    return f"{WHO[found.player]} {where}: " + " ".join(f"{a} {100 * f:.0f}%" for a, f in pairs)


def ev_text(summary: SpotSummary) -> str:
    """``"EV OOP 7.5818 chips (75.82% of the pot), IP 2.4182 (24.18%)"``: the shares,
    fractions in the library, as percentages."""
    return (
        f"EV OOP {summary.oop_ev:.4f} chips ({100 * summary.share(0):.2f}% of the pot), "
        f"IP {summary.ip_ev:.4f} ({100 * summary.share(1):.2f}%)"
    )


def spot_lines(summary: SpotSummary) -> list[str]:
    """The summary block of ``solve SPOT.toml``."""
    return [
        f"Spot (pot {summary.pot:g}, combos {summary.combos[0]} OOP / {summary.combos[1]} IP)",
        f"  {ev_text(summary)}",
        f"  exploitability {summary.exploitability:.3g} chips "
        f"({100 * summary.exploitability_pot:.4f}% of the pot; NashConv / 2)",
        *(f"  {frequencies_text(found)}" for found in summary.frequencies),
    ]


_RANKS = "AKQJT98765432"


def grid_lines(grid: ClassGrid) -> list[str]:
    """The 13 × 13 grid as text: pairs on the diagonal, suited above, offsuit below; each
    cell the class's percentage taking the grid's actions, ``.`` where the class is not in
    the range."""
    where = "first decision" if not grid.history else f"decision after {grid.history}"
    lines = [
        f"{WHO[grid.player]} {where}: % of each hand class that plays "
        f"{' or '.join(grid.actions)} (pairs on the diagonal, suited above, offsuit below)",
        "     " + "".join(f"{rank:>4}" for rank in _RANKS),
    ]
    for row, rank in enumerate(_RANKS):
        cells = [
            "   ." if math.isnan(value) else f"{100 * value:4.0f}" for value in grid.frequency[row]
        ]
        lines.append(f"  {rank}  " + "".join(cells))
    return lines


def history_text(history: str) -> str:
    """Where a decision is, as a line of the report: ``"first"``, ``"after x-b5"``; a turn
    spot's river card written out (``"x-x|8h|b10"`` -> ``"after x-x, river 8h, b10"``)."""
    if not history:
        return "first"
    shown = re.sub(r"\|([2-9TJQKA][cdhs])\|", r", river \1, ", history)
    return "after " + shown.rstrip(", ")


def combo_lines(found: ComboStrategy) -> list[str]:
    """The ``--hand`` block of one combo: its weight and equity, then one line per decision
    it reaches: where, how often it gets there, each action's probability."""
    other = WHO[1 - found.player]
    lines = [
        f"{found.combo} ({WHO[found.player]}, weight {amount_text(found.weight)}; showdown "
        f"equity {100 * found.equity:.1f}% against {other}'s range)"
    ]
    rows = [
        (
            history_text(decision.history),
            f"reach {100 * decision.reach:3.0f}%",
            "  ".join(
                f"{action} {100 * probability:.0f}%"
                for action, probability in zip(
                    decision.actions, decision.probabilities, strict=True
                )
            ),
        )
        for decision in found.decisions
    ]
    where = max((len(row[0]) for row in rows), default=0)
    lines += [f"  {row[0]:<{where}}  {row[1]}  {row[2]}" for row in rows]
    return lines
