"""Kuhn poker with every payoff multiplied by a scale, as a ``.efg`` file, for the tests that
a game's verdicts and texts are the same at any scale (the brief: a certificate is judged
relative to the game's payoff range, never in absolute units).

Kuhn poker as Gambit writes it has the payoffs -2, -1, 1 and 2 (Kuhn 1950): payoff range 4.
The scaled payoffs are written exactly (integers, or fractions such as ``1/1000000000``), and
the reader takes them exactly.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from seqform.io.export import efg_text
from seqform.io.loader import load_game

TERMINAL = re.compile(r"\{ (-?\d+), (-?\d+) \}")
"""A terminal's payoffs in Kuhn's ``.efg`` text."""


def scaled_kuhn(folder: Path, scale: Fraction | int) -> Path:
    """Kuhn poker with every payoff multiplied by ``scale``, written to a file of ``folder``
    named after the scale (so that several scales can share a folder)."""
    text = efg_text(load_game("kuhn"))
    scaled = TERMINAL.sub(
        lambda m: f"{{ {Fraction(m.group(1)) * scale}, {Fraction(m.group(2)) * scale} }}", text
    )
    assert scaled != text or scale == 1
    shown = str(scale) if len(str(scale)) <= 40 else f"{len(str(scale))}_digits"
    path = folder / f"kuhn_{shown}.efg".replace("/", "_")
    path.write_text(scaled)
    return path
