"""The text report of a ``seqform.resolve/1`` document (:mod:`seqform.documents.road.resolve`):
the blueprint's exploitability and the re-solved profile's, the margins and each gadget LP's
certificate."""

from __future__ import annotations

from typing import Any

from seqform.documents.layout.parts import unit_of

__all__ = ["resolve_text"]

_PATHS = {
    "tree": "tree (gadget games as trees)",
    "structured": "structured (gadget LPs on the public tree × hands, no tree)",
}


def _number(value: float | None, digits: str = ".6g") -> str:
    return "-" if value is None else format(value, digits)


def _suit_lines(built: dict[str, Any]) -> list[str]:
    """Whether the re-solve ran on canonical boards, or why not (documents without either
    ran on the game itself)."""
    reduction = built.get("suit_isomorphism")
    lines = [f"note: {note}" for note in built.get("notes", [])]
    if reduction is None:
        return lines
    return [
        f"suit isomorphism: on canonical boards and hand classes, {reduction['subgames']} "
        f"subgames (one per orbit of boards under {reduction['permutations']} suit "
        "permutations); certified and written as the game's",
        *lines,
    ]


def resolve_text(built: dict[str, Any]) -> str:
    """The report ``seqform resolve GAME --blueprint FILE`` prints."""
    blueprint, resolved = built["blueprint"], built["resolved"]
    refined = ", gadget games refined (quasi-perfect)" if built["refined"] else ""
    path = _PATHS[built.get("path", "tree")]  # documents without one ran on the tree
    unit, meaning = unit_of(built)
    lines = [
        f"{built['game']['name']}: the {built['gadget']} gadget on the "
        f"{len(built['subgames'])} subgames of round {built['round']}{refined}",
        f"path: {path}",
        *_suit_lines(built),
        *(
            [
                "exact: every gadget LP's basis re-solved in fractions, both profiles certified "
                "exactly (a gadget's NashConv is its proven gap to the LP's optimum)"
            ]
            if built.get("exact")
            else []
        ),
        "",
        f"exploitability (NashConv / 2, chips per game; {meaning}):",
        f"  blueprint:  {_number(blueprint['exploitability'], '.6g'):>12}  "
        f"({_number(blueprint['milli_exploitability'], '.4g')} {unit})",
        f"  re-solved:  {_number(resolved['exploitability'], '.6g'):>12}  "
        f"({_number(resolved['milli_exploitability'], '.4g')} {unit})",
        f"smallest margin (T_J - cbv(J), counterfactual): {_number(built['min_margin'], '.3g')}",
        "largest NashConv of a gadget LP's answer: "
        f"{_number(built['max_gadget_nash_conv'], '.3g')}",
        "",
        f"{'subgame':<16} {'player':>6} {'nodes':>8} {'NashConv':>10} {'min margin':>11}",
    ]
    for run in built["gadgets"]:
        player = "both" if run["player"] is None else str(run["player"])
        lines.append(
            f"{run['subgame']:<16} {player:>6} {run['nodes']:>8,} "
            f"{_number(run['nash_conv'], '.3g'):>10} {_number(run['min_margin'], '.3g'):>11}"
            + ("" if run["verified"] else "  (refinement not verified)")
        )
    for name in built["skipped"]:
        lines.append(f"{name:<16} kept: the blueprint never reaches it")
    lines.append(f"\n{built['seconds']:.2f} s")
    return "\n".join(lines) + "\n"
