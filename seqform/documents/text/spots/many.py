"""``solve-many``'s report as text (one block per spot, then the aggregate tables) and as
CSV (one row per spot), read from the ``seqform.solve-many/2`` document
(:func:`seqform.documents.spots.many.many_document`), so that both show what the JSON holds.

The aggregate tables and the CSV write shares as percentages, as the solvers' aggregate
reports do (the JSON keeps fractions).  The CSV's columns, in this order (docs/spots.md):
``file, board, pot, pairing, suits, connectedness, high_card, height, group``, then
``oop_ev, oop_ev_pct_pot, ip_ev, ip_ev_pct_pot`` (chips, % of the pot), ``oop_equity_pct,
ip_equity_pct, oop_eqr_pct, ip_eqr_pct, bet_freq_pct``, then for each action of OOP's first
decision that any spot has (``check``, ``bet50``: half the pot, ..., ``allin``, in that order)
``<action>_freq_pct, <action>_ev, <action>_ev_pct_pot``, then ``exploitability,
exploitability_pct_pot`` (NashConv / 2, chips and % of the pot), ``oop_combos, ip_combos,
seconds, error``.  A cell with no number (an action a spot does not have or no combo takes, a
failed spot) is empty.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from seqform.base.numbers import scaled_text
from seqform.documents.layout.parts import Document
from seqform.documents.layout.tables import aligned_table

__all__ = ["many_csv", "many_text"]


def _row_text(row: Document) -> list[str]:
    name = row["path"].rsplit("/", 1)[-1]
    if row["error"] is not None:
        return [f"{name}  FAILED: {row['error']}"]
    ev, share, combos = row["ev"], row["ev_share"], row["combos"]
    lines = [
        f"{name}  board {row['board']}  pot {row['pot']:g}  combos {combos[0]}/{combos[1]}  "
        f"EV OOP {scaled_text(ev['oop'], row['pot'])} ({100 * share['oop']:.2f}%)  "
        f"IP {scaled_text(ev['ip'], row['pot'])} ({100 * share['ip']:.2f}%)  "
        f"exploitability {row['exploitability']:.2e} "
        f"({100 * row['exploitability_pot']:.4f}% pot)  {row['seconds']:.1f} s"
    ]
    lines += [f"    {_frequencies_text(found)}" for found in row["frequencies"]]
    return lines


def _frequencies_text(found: Document) -> str:
    """``"OOP first: x 78% b5 22%"`` from a ``"frequencies"`` entry (the line
    :func:`seqform.documents.text.spots.spot.frequencies_text` writes)."""
    where = "first" if not found["history"] else f"after {found['history']}"
    shares = " ".join(f"{a} {100 * f:.0f}%" for a, f in found["actions"].items())
    return f"{found['player']} {where}: {shares}"


def many_text(document: Document) -> str:
    """One block per spot of a ``seqform.solve-many/2`` document, then the totals."""
    spots = document["spots"]
    lines = [f"{len(spots)} spots in {document['directory']} ({document['executor']})"]
    for row in spots:
        lines += _row_text(row)
    solved = [row for row in spots if row["error"] is None]
    if solved:
        mean = sum(row["ev_share"]["oop"] or 0.0 for row in solved) / len(solved)
        worst = max(row["exploitability_pot"] or 0.0 for row in solved)
        lines.append(
            f"mean OOP share {100 * mean:.2f}% of the pot; worst exploitability "
            f"{100 * worst:.4f}% of the pot"
        )
    aggregated = [row for row in solved if row.get("aggregate") is not None]
    if aggregated:
        lines += ["", *_aggregate_lines(aggregated)]
    failed = len(spots) - len(solved)
    if failed:
        lines.append(f"{failed} spot(s) failed")
    lines.append(f"{document['seconds']:.1f} s in all")
    return "\n".join(lines) + "\n"


def _percent(share: float | None, digits: int = 1) -> str:
    return "-" if share is None else f"{100 * share:.{digits}f}"


def _texture_text(texture: Document) -> str:
    """``"paired, rainbow, disconnected, 7-high"`` (the pairing only when paired)."""
    parts = [texture["suits"], texture["connectedness"], f"{texture['high_card']}-high"]
    return ", ".join(parts if texture["pairing"] == "unpaired" else [texture["pairing"], *parts])


def _action_order(action: Document) -> tuple[int, float]:
    """Check first, then the bets by size, all-in last."""
    if action["size"] is None:
        return (0, 0.0)
    return (2, 0.0) if action["all_in"] else (1, float(action["size"]))


def _action_names(rows: list[Document]) -> list[str]:
    """Every action name of OOP's first decisions, check first, bets by size, all-in last."""
    found: dict[str, tuple[int, float]] = {}
    for row in rows:
        for action in (row.get("aggregate") or {}).get("actions", []):
            found.setdefault(action["name"], _action_order(action))
    return sorted(found, key=lambda name: found[name])


def _aggregate_lines(rows: list[Document]) -> list[str]:
    """The board table (EVs, equities, EQRs) and the action table (OOP's first decision)."""
    width = max(len(row["board"]) for row in rows)
    heading = f"{'board':<{width}}  texture"
    table = [[heading, "EV OOP", "EV IP", "equity OOP", "IP", "EQR OOP", "IP", "bets"]]
    for row in rows:
        found, ev, share = row["aggregate"], row["ev"], row["ev_share"]
        table.append(
            [
                f"{row['board']:<{width}}  {_texture_text(found['texture'])}",
                f"{_chips(ev['oop'], row['pot'])} ({_percent(share['oop'])}%)",
                f"{_chips(ev['ip'], row['pot'])} ({_percent(share['ip'])}%)",
                _percent(found["equity"]["oop"]),
                _percent(found["equity"]["ip"]),
                _percent(found["eqr"]["oop"]),
                _percent(found["eqr"]["ip"]),
                _percent(found["bet_frequency"]),
            ]
        )
    names = _action_names(rows)
    actions = [["board", *names]]
    for row in rows:
        by_name = {action["name"]: action for action in row["aggregate"]["actions"]}
        cells = (_action_cell(by_name.get(name), row["pot"]) for name in names)
        actions.append([row["board"], *cells])
    return [
        "Aggregate report: EV in chips (% of the pot); equity, EQR = EV / (equity × pot) "
        "and OOP's bet frequency in %",
        *aligned_table(table),
        "",
        "OOP's first decision: each action's frequency (%) and the EV of the combos taking it",
        *aligned_table(actions),
    ]


def _chips(value: float, pot: float) -> str:
    """Chips in the aggregate tables: two places beside the pot (``7.58``; ``7.6e-12`` in a
    pot of ``1e-11``: :func:`~seqform.base.numbers.scaled_text`)."""
    return scaled_text(value, pot, 2)


def _action_cell(action: Document | None, pot: float) -> str:
    if action is None:
        return ""
    if action["ev"] is None:
        return f"{_percent(action['frequency'])}%"
    ev = _chips(action["ev"], pot)
    return f"{_percent(action['frequency'])}% EV {ev} ({_percent(action['ev_pot'])}%)"


def _slug(name: str) -> str:
    """A CSV column prefix from an action's name: ``check``, ``bet50``, ``allin``."""
    return name.replace(" ", "").replace("%", "").replace("-", "")


def _number(value: float | None, scale: float = 1.0) -> str:
    return "" if value is None else repr(float(value) * scale)


def _csv_row(row: Document, names: list[str]) -> list[Any]:
    found = row.get("aggregate") if row["error"] is None else None
    texture = found["texture"] if found is not None else {}
    cells: list[Any] = [row["path"].rsplit("/", 1)[-1], row["board"], _number(row["pot"])]
    keys = ("pairing", "suits", "connectedness", "high_card", "height", "group")
    cells += [texture.get(key, "") for key in keys]
    for player in ("oop", "ip"):
        cells += [
            _number(row["ev"][player]) if row["ev"] else "",
            _number(row["ev_share"][player], 100) if row["ev_share"] else "",
        ]
    if found is not None:
        cells += [_number(found["equity"][p], 100) for p in ("oop", "ip")]
        cells += [_number(found["eqr"][p], 100) for p in ("oop", "ip")]
        cells.append(_number(found["bet_frequency"], 100))
    else:
        cells += [""] * 5
    by_name = {action["name"]: action for action in found["actions"]} if found else {}
    for name in names:
        action = by_name.get(name, {})
        cells += [
            _number(action.get("frequency"), 100),
            _number(action.get("ev")),
            _number(action.get("ev_pot"), 100),
        ]
    cells += [_number(row["exploitability"]), _number(row["exploitability_pot"], 100)]
    cells += [*row["combos"], _number(row["seconds"]), row["error"] or ""]
    return cells


def many_csv(document: Document) -> str:
    """The ``seqform.solve-many/2`` document as CSV: a header, then one row per spot
    (module docstring)."""
    rows = document["spots"]
    names = _action_names(rows)
    header = ["file", "board", "pot", "pairing", "suits", "connectedness", "high_card"]
    header += ["height", "group", "oop_ev", "oop_ev_pct_pot", "ip_ev", "ip_ev_pct_pot"]
    header += ["oop_equity_pct", "ip_equity_pct", "oop_eqr_pct", "ip_eqr_pct", "bet_freq_pct"]
    for name in names:
        slug = _slug(name)
        header += [f"{slug}_freq_pct", f"{slug}_ev", f"{slug}_ev_pct_pot"]
    header += ["exploitability", "exploitability_pct_pot", "oop_combos", "ip_combos"]
    header += ["seconds", "error"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(_csv_row(row, names) for row in rows)
    return buffer.getvalue()
