"""The text report of a ``seqform.abstraction/1`` document
(:mod:`seqform.documents.road.abstraction`): the buckets, the abstract game's value and
certificate, and the lifted strategies' exploitability in the full game beside it."""

from __future__ import annotations

from typing import Any

from seqform.documents.layout.parts import unit_of

__all__ = ["abstraction_text"]


def _number(value: float | None, digits: str = ".6g") -> str:
    return "beyond the floats" if value is None else format(value, digits)


def abstraction_text(built: dict[str, Any]) -> str:
    """The report ``seqform solve GAME --card-buckets ...`` prints."""
    abstract, full = built["abstract_game"], built["full_game"]
    counts = ",".join(str(count) for count in built["card_buckets"])
    made = " / ".join(",".join(str(count) for count in player) for player in built["buckets"])
    timings = built["timings"]
    unit, meaning = unit_of(built)
    lines = [
        f"{built['game']['name']}: card abstraction {counts} by {built['features']} "
        f"(perfect recall: each round's buckets split the previous round's)",
        f"  buckets made (player 1 / player 2, per round, most at one deal): {made}",
        f"  abstract game: {abstract['sequences'][0]:,} + {abstract['sequences'][1]:,} "
        f"sequences (full game: {full['sequences'][0]:,} + {full['sequences'][1]:,}), "
        f"{abstract['payoff_nonzeros']:,} payoff non-zeros",
        "",
        f"abstract game value (to player 1):     {_number(abstract['value'], '.9f')}",
        f"  its exploitability in the abstract game: "
        f"{_number(abstract['certificate']['exploitability'], '.3g')}",
        "lifted strategies in the full game:",
        f"  expected value (to player 1):        "
        f"{_number(full['certificate']['expected_value'], '.9f')}",
        f"  exploitability (NashConv / 2):       {_number(full['exploitability'], '.6g')} "
        f"chips per game = {_number(full['milli_exploitability'], '.4g')} {unit}",
        f"    ({meaning})",
        f"  NashConv:                            "
        f"{_number(full['certificate']['nash_conv'], '.6g')}",
        "",
        f"solver: {built['solver']['solver']} ({built['solver']['status']}); "
        f"{timings['total']:.2f} s in all",
    ]
    return "\n".join(lines) + "\n"
