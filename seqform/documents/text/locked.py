"""``solve --lock``: the ``"locks"`` object of a locked solve's document
(:mod:`seqform.documents.locked`) as text; :func:`seqform.documents.text.render.document_report`
puts it after the locked game's own report."""

from __future__ import annotations

from typing import Any

from seqform.base.numbers import decimal_text

__all__ = ["LARGEST_SHOWN", "lock_lines"]

LARGEST_SHOWN = 10
"""The strategy changes the text lists (the JSON document has them all)."""

_WHO = ("OOP", "IP")


def _who(player: int, spot: bool) -> str:
    return _WHO[player - 1] if spot else f"Player {player}"


def _ev(value: float, share: float | None, sign: bool = False) -> str:
    text = f"{value:+.4f}" if sign else f"{value:.4f}"
    if share is None:
        return text
    return f"{text} ({share * 100:+.2f}%)" if sign else f"{text} ({share * 100:.2f}%)"


def lock_lines(locks: dict[str, Any]) -> list[str]:
    """The locks, the unlocked solution beside, the EV changes and the largest strategy
    changes, from a document's ``"locks"`` object."""
    spot = locks["pot"] is not None
    unit = "chips, share of the pot" if spot else "the game's payoffs"
    unlocked = locks["unlocked"]
    count = locks["locked_infosets"]
    lines = [
        f"Node locks ({count:,} information set{'' if count == 1 else 's'} locked):",
        *(f"  {lock}" for lock in locks["locks"]),
        f"  certificate above: {locks['certificate']}",
        f"  without the locks: value {decimal_text(unlocked['value'])}, exploitability "
        f"{unlocked['exploitability']:.3g}",
        "",
        f"EV without and with the locks ({unit}):",
    ]
    for seat in locks["seats"]:
        who = _who(seat["player"], spot)
        before = _ev(seat["ev_before"], seat.get("share_before"))
        after = _ev(seat["ev_after"], seat.get("share_after"))
        change = _ev(seat["ev_change"], seat.get("share_change"), sign=True)
        lines.append(f"  {who:<9} {before}  ->  {after}   change {change}")
    changes = locks["changes"]
    lines.append("")
    if not changes:
        lines.append("No strategy changed at the unlocked nodes.")
        return lines
    what = "range frequencies at each public node" if spot else "probabilities at each infoset"
    lines.append(
        f"Largest strategy changes ({what}; {min(len(changes), LARGEST_SHOWN)} of {len(changes)}):"
    )
    for change in changes[:LARGEST_SHOWN]:
        who = _who(change["player"], spot)
        node = change["node"] or "root"
        reach = ""
        if "reach_after" in change:
            reach = f"  reached {change['reach_before']:.1%} -> {change['reach_after']:.1%}"
        moves = "  ".join(
            f"{action} {before:.1%}->{after:.1%}"
            for action, before, after in zip(
                change["actions"], change["before"], change["after"], strict=True
            )
        )
        lines.append(f"  {who} at {node}:{reach}")
        lines.append(f"    {moves}")
    return lines
