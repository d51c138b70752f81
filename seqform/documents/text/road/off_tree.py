"""The text report of a ``seqform.off-tree/1`` document (:mod:`seqform.documents.road.off_tree`):
the full and abstract games, the method, the full-game exploitability, the untranslated
decisions and each nested re-solve's gadget LP."""

from __future__ import annotations

from typing import Any

from seqform.documents.layout.parts import unit_of

__all__ = ["off_tree_text"]


def _number(value: float | None, digits: str) -> str:
    return "-" if value is None else format(value, digits)


def _method(built: dict[str, Any]) -> str:
    if built["method"] == "translate":
        return f"translate (the {built['mapping']} mapping)"
    return (
        f"nested (the {built['gadget']} gadget, T_J from the {built['alternative']} "
        f"alternative; the {built['mapping']} mapping where no re-solve reaches)"
    )


def off_tree_text(built: dict[str, Any]) -> str:
    """The report ``seqform resolve GAME --off-tree METHOD --abstract GAME`` prints."""
    full, blueprint = built["full_game"], built["blueprint"]
    unit, meaning = unit_of(built)
    first, second = built["untranslated"]
    lines = [
        f"full game:     {built['game']['name']}",
        f"abstract game: {built['abstract_game']['name']}",
        f"method:        {_method(built)}",
        f"{built['off_tree_decisions']:,} public decisions of the full game are off the "
        "abstract tree",
        "",
        f"exploitability (NashConv / 2, chips per game; {meaning}):",
        f"  full game:             {_number(full['exploitability'], '.6g'):>12}  "
        f"({_number(full['milli_exploitability'], '.4g')} {unit})",
        f"  blueprint in abstract: {_number(blueprint['exploitability'], '.6g'):>12}  "
        f"({_number(blueprint['milli_exploitability'], '.4g')} {unit})",
        f"untranslated public decisions, played uniformly: player 1 {first}, player 2 {second}",
    ]
    if built["method"] == "nested":
        lines += [
            f"smallest margin (T_J - cbv(J), counterfactual): "
            f"{_number(built['min_margin'], '.3g')}",
            "",
            f"{'subgame':<20} {'player':>6} {'nodes':>8} {'NashConv':>10} {'min margin':>11}",
        ]
        for run in built["gadgets"]:
            player = "both" if run["player"] is None else str(run["player"])
            lines.append(
                f"{run['subgame']:<20} {player:>6} {run['nodes']:>8,} "
                f"{_number(run['nash_conv'], '.3g'):>10} {_number(run['min_margin'], '.3g'):>11}"
            )
        if not built["gadgets"]:
            lines.append("(no off-tree bet is reached: nothing re-solved)")
    lines.append(f"\n{built['seconds']:.2f} s")
    return "\n".join(lines) + "\n"
