"""A hold'em spot's players' summary (:mod:`seqform.holdem.report`) as text lines, read
from the ``"spot"`` object of the ``seqform.structured/2`` document
(:func:`seqform.documents.spots.spot.spot_json`); and one combo's strategy (``--hand``)."""

from __future__ import annotations

import re
from typing import Any

from seqform.base.numbers import scaled_text
from seqform.holdem import WHO, ActionFrequencies, ComboStrategy, amount_text

__all__ = [
    "PASSIVE",
    "combo_lines",
    "decisions_line",
    "ev_text",
    "frequencies_text",
    "grid_lines",
    "history_text",
    "node_lines",
    "spot_block",
    "spot_lines",
]


def frequencies_text(found: ActionFrequencies) -> str:
    """``"OOP first: x 78% b5 22%"``."""
    where = "first" if not found.history else f"after {found.history}"
    pairs = zip(found.actions, found.frequencies, strict=True)
    return f"{WHO[found.player]} {where}: " + " ".join(f"{a} {100 * f:.0f}%" for a, f in pairs)


def _frequency_line(found: dict[str, Any]) -> str:
    """:func:`frequencies_text` of one entry of a document's ``"frequencies"``."""
    where = "first" if not found["history"] else f"after {found['history']}"
    shares = " ".join(f"{a} {100 * f:.0f}%" for a, f in found["actions"].items())
    return f"{found['player']} {where}: " + shares


def ev_text(spot: dict[str, Any]) -> str:
    """``"EV OOP 7.5818 chips (75.82% of the pot), IP 2.4182 (24.18%)"`` from a document's
    ``"spot"`` object: the shares, fractions there, as percentages; the chips to four places
    beside the pot (:func:`~seqform.base.numbers.scaled_text`: ``7.582e-12`` in a pot of
    ``1e-11``)."""
    ev, share, pot = spot["ev"], spot["ev_share"], spot["pot"]
    return (
        f"EV OOP {scaled_text(ev['oop'], pot)} chips ({100 * share['oop']:.2f}% of the pot), "
        f"IP {scaled_text(ev['ip'], pot)} ({100 * share['ip']:.2f}%)"
    )


def spot_lines(spot: dict[str, Any]) -> list[str]:
    """The summary block of ``solve SPOT.toml``, from a document's ``"spot"`` object."""
    return [
        f"Spot (pot {spot['pot']:g}, combos {spot['combos'][0]} OOP / {spot['combos'][1]} IP)",
        f"  {ev_text(spot)}",
        f"  exploitability {spot['exploitability']:.3g} chips "
        f"({100 * spot['exploitability_pot']:.4f}% of the pot; NashConv / 2)",
        *(f"  {_frequency_line(found)}" for found in spot["frequencies"]),
    ]


def spot_block(spot: dict[str, Any]) -> list[str]:
    """The spot's part of a report (``solve SPOT.toml``, ``iterate SPOT.toml``): a blank
    line, the summary, and OOP's opening grid when the document has it."""
    lines = ["", *spot_lines(spot)]
    if "opening_grid" in spot:
        lines += ["", *grid_lines(spot["opening_grid"])]
    return lines


_RANKS = "AKQJT98765432"


def grid_lines(grid: dict[str, Any]) -> list[str]:
    """A document's ``"opening_grid"`` (the 13 × 13 grid of hand classes) as text: pairs on
    the diagonal, suited above, offsuit below; each cell the class's percentage taking the
    grid's actions, ``.`` where the class is not in the range."""
    where = "first decision" if not grid["history"] else f"decision after {grid['history']}"
    lines = [
        f"{grid['player']} {where}: % of each hand class that plays "
        f"{' or '.join(grid['actions'])} (pairs on the diagonal, suited above, offsuit below)",
        "     " + "".join(f"{rank:>4}" for rank in _RANKS),
    ]
    for rank, row in zip(_RANKS, grid["frequency"], strict=True):
        cells = ["   ." if value is None else f"{100 * value:4.0f}" for value in row]
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


PASSIVE = ("x", "c", "f")
"""Check, call and fold: a decision's grid shows the share of its other actions (bets and
raises) unless asked for each action, as the opening grid does."""


def _node_grid(node: dict[str, Any], actions: list[str]) -> dict[str, Any]:
    """The grid (as a document's ``"opening_grid"``) of ``actions`` at a decision's view
    (:func:`seqform.documents.spots.spot.node_json`): each class's summed share."""
    chosen = [list(node["actions"]).index(action) for action in actions]
    frequency = [
        [None if cell is None else sum(cell[i] or 0.0 for i in chosen) for cell in row]
        for row in node["classes"]
    ]
    return {
        "player": node["player"],
        "history": node["history"],
        "actions": actions,
        "frequency": frequency,
    }


def node_lines(node: dict[str, Any], each_action: bool = False) -> list[str]:
    """A decision's view (``show --node``): the range's frequencies, then the 13 × 13 grid
    of its bets and raises (of every action but :data:`PASSIVE`; calls where there is no
    other), or one grid per action (``each_action``, ``show --grid``)."""
    where = history_text(node["history"])
    if not node["reached"]:
        return [f"{node['player']} {where}: never reached by {node['player']}'s own strategy"]
    reach = f"; {100 * node['reach']:.0f}% of {node['player']}'s range gets here"
    lines = [_frequency_line(node) + reach]
    actions = list(node["actions"])
    if each_action:
        groups = [[action] for action in actions]
    else:
        active = [action for action in actions if action not in PASSIVE]
        groups = [active or [action for action in actions if action == "c"] or actions[:1]]
    for group in groups:
        lines += ["", *grid_lines(_node_grid(node, group))]
    return lines


def decisions_line(histories: list[tuple[str, str]], limit: int = 40) -> str:
    """``"Decisions (show --node HISTORY): root (OOP), x (IP), ..."`` from ``(player,
    history)`` pairs in order; at most ``limit`` named."""
    named = [f"{history or 'root'} ({player})" for player, history in histories]
    more = f", … ({len(named)} in all)" if len(named) > limit else ""
    return "Decisions (show --node HISTORY): " + ", ".join(named[:limit]) + more
