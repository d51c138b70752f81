"""``solve --lock``: the ``"locks"`` object of a locked solve's document
(:mod:`seqform.documents.locked`) as text; :func:`seqform.documents.text.render.document_report`
puts it after the locked game's own report."""

from __future__ import annotations

from typing import Any

from seqform.base.numbers import scaled_text, value_text

__all__ = ["LARGEST_SHOWN", "lock_lines"]

LARGEST_SHOWN = 10
"""The strategy changes the text lists (the JSON document has them all)."""

_WHO = ("OOP", "IP")


def _who(player: int, spot: bool) -> str:
    return _WHO[player - 1] if spot else f"Player {player}"


def _ev(value: float, share: float | None, scale: float | None, sign: bool = False) -> str:
    """An EV to four places beside its scale (:func:`scaled_text`), and its share of the pot
    on a spot."""
    text = scaled_text(value, scale, 4, sign)
    if share is None:
        return text
    return f"{text} ({share * 100:+.2f}%)" if sign else f"{text} ({share * 100:.2f}%)"


def lock_lines(locks: dict[str, Any], payoff_range: float | None = None) -> list[str]:
    """The locks, the unlocked solution beside, the EV changes and the largest strategy
    changes, from a document's ``"locks"`` object; the EVs are written beside the spot's pot,
    or else the game's ``payoff_range`` (the document's certificate's), so that they read
    alike in any unit; the unlocked solution's value and exploitability, certificate
    quantities, beside the payoff range (round-off as ``≈ 0``)."""
    spot = locks["pot"] is not None
    scale = locks["pot"] if spot else payoff_range
    unit = "chips, share of the pot" if spot else "the game's payoffs"
    unlocked = locks["unlocked"]
    count = locks["locked_infosets"]
    lines = [
        f"Node locks ({count:,} information set{'' if count == 1 else 's'} locked):",
        *(f"  {lock}" for lock in locks["locks"]),
        f"  certificate above: {locks['certificate']}",
        f"  without the locks: value {value_text(unlocked['value'], scale=payoff_range)}, "
        f"exploitability {scaled_text(unlocked['exploitability'], payoff_range, digits=3)}",
        "",
        f"EV without and with the locks ({unit}):",
    ]
    for seat in locks["seats"]:
        who = _who(seat["player"], spot)
        before = _ev(seat["ev_before"], seat.get("share_before"), scale)
        after = _ev(seat["ev_after"], seat.get("share_after"), scale)
        change = _ev(seat["ev_change"], seat.get("share_change"), scale, sign=True)
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
