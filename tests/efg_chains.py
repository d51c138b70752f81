"""Deep ``.efg`` chains, for the tests and measurements of reading deep files.

A chain of ``depth`` decision nodes alternating the two players; each node stops (a terminal
child paying ``+1`` or ``-1`` to the mover) or goes on to the next node, and the last
continuation is a terminal paying 0.  Every node has its own information set, so the game has
perfect recall, and its tree has ``2 * depth + 1`` nodes and ``depth + 1`` levels.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path


def chain_lines(depth: int) -> Iterator[str]:
    """The lines of the chain's ``.efg`` file (see the module docstring)."""
    yield f'EFG 2 R "chain of {depth}" {{ "A" "B" }}'
    yield '""'
    yield ""
    for level in range(depth):
        player = level % 2 + 1
        sign = 1 if player == 1 else -1
        yield (f'p "n{level}" {player} {level // 2 + 1} "s{level}" {{ "stop" "go" }} 0')
        yield f't "" {level + 1} "o{level}" {{ {sign} {-sign} }}'
    yield f't "end" {depth + 1} "end" {{ 0 0 }}'


def write_chain(path: Path, depth: int) -> Path:
    """Write the chain of ``depth`` decisions to ``path``; return ``path``."""
    with path.open("w", encoding="ascii") as file:
        for line in chain_lines(depth):
            file.write(line + "\n")
    return path


if __name__ == "__main__":  # python tests/efg_chains.py DEPTH FILE
    import sys

    write_chain(Path(sys.argv[2]), int(sys.argv[1]))
