"""Bytes per canonical sequence of every array a flop run keeps, summed from ``.nbytes``.

``python -m benchmarks.flop_bytes [SPOT] [--storage float32]``

Builds the run of ``python -m benchmarks.flop`` (canonical boards, the hand classes' shared
regrets, :class:`~seqform.structured.compiled_cfr.CompiledRegrets`), steps it once so that
its scratch exists, and walks what it holds: the stepper's own arrays, its layout
(:class:`~seqform.iterative.layout.PlayerLayout`), its flat tables
(:class:`~seqform.structured.compiled_cfr.FlatGame`), the sequence tables of the canonical
game and the hand classes of the boards.  Every array is counted once (by its buffer, so a
view is not counted twice), under the first path that reaches it; the table is printed in
Markdown, largest first, in bytes per canonical sequence (both players' sequences summed),
with the resident and peak memory of the process after the step, then the peak after one
certificate on the hand classes (what ``python -m benchmarks.flop`` measures each curve
point by).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from benchmarks.flop import SPOTS
from seqform.holdem.game import spot_game
from seqform.holdem.spot import read_spot

__all__ = ["arrays_of", "main"]


def arrays_of(root: object, path: str, seen: set[int]) -> Iterator[tuple[str, np.ndarray]]:
    """Every numpy array reachable from ``root`` through dataclass fields, ``__dict__``,
    ``__slots__``, lists, tuples and dicts, once per buffer (``seen``: the buffers already
    counted), with the path that reached it."""
    if isinstance(root, np.ndarray):
        base = root
        while isinstance(base.base, np.ndarray):
            base = base.base
        if id(base) not in seen:
            seen.add(id(base))
            yield path, base
        return
    if id(root) in seen or isinstance(root, str | bytes | int | float | bool | type(None)):
        return
    seen.add(id(root))
    if isinstance(root, list | tuple):
        for index, item in enumerate(root):
            yield from arrays_of(item, f"{path}[{index}]", seen)
        return
    if isinstance(root, dict):
        for key, item in root.items():
            yield from arrays_of(item, f"{path}[{key!r}]", seen)
        return
    if isinstance(root, type) or not type(root).__module__.startswith("seqform"):
        return  # classes, modules, numba's functions: nothing a run allocates
    if dataclasses.is_dataclass(root):  # and what a cached_property has kept
        names = [field.name for field in dataclasses.fields(root)]
        names += [n for n in getattr(root, "__dict__", {}) if n not in names]
    else:
        names = list(getattr(root, "__dict__", {}))
        names += [n for n in getattr(type(root), "__slots__", ()) if hasattr(root, n)]
    for name in names:
        yield from arrays_of(getattr(root, name), f"{path}.{name}", seen)


def _gb(kib: float) -> str:
    return f"{kib / 2**20:.2f}"


def main(argv: list[str] | None = None) -> int:
    """Build, step once, and print the table (module docstring)."""
    from seqform.game.public.numbering import release_numbering
    from seqform.iterative.rules import RULES
    from seqform.structured.compiled_cfr import CompiledRegrets
    from seqform.structured.reductions.class_certificate import certify_run_on_classes
    from seqform.structured.reductions.suit_classes import canonical_boards
    from seqform.structured.responses import sequence_tables

    parser = argparse.ArgumentParser(prog="python -m benchmarks.flop_bytes", description=__doc__)
    parser.add_argument("spot", nargs="?", default=str(SPOTS / "flop_narrow.toml"))
    parser.add_argument("--storage", default="float32", choices=("float32", "float64"))
    args = parser.parse_args(argv)
    game = spot_game(read_spot(Path(args.spot)))
    boards = canonical_boards(game)
    if boards is None:
        print("the spot has no suit symmetry", file=sys.stderr)
        return 1
    classes = boards.sequence_classes()
    stepper = CompiledRegrets(
        boards.canonical, RULES["dcfr"], storage=args.storage, classes=classes
    )
    del classes
    release_numbering(boards.canonical)
    stepper.step(1)
    sequences = sum(int(p.num_sequences) for p in stepper.layout.players)
    seen: set[int] = {id(stepper.game), id(stepper.rules)}
    roots = [  # the stepper last: what it shares with the layout is the layout's
        ("layout", stepper.layout),
        ("flat", stepper.flat),
        ("tables", sequence_tables(boards.canonical)),
        ("boards.classes", boards.classes),
        ("stepper", stepper),
    ]
    rows = [row for name, root in roots for row in arrays_of(root, name, seen)]
    rows.sort(key=lambda row: -row[1].nbytes)
    total = sum(array.nbytes for _, array in rows)
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with open("/proc/self/statm") as handle:
        resident = int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1024
    print(
        f"{Path(args.spot).name}, {args.storage}: {sequences:,} canonical sequences; "
        f"arrays {total / sequences:.1f} bytes a sequence ({total / 2**30:.2f} GB); "
        f"resident {_gb(resident)} GB, peak {_gb(usage)} GB after one iteration\n"
    )
    print("| array | dtype | length | bytes a sequence |\n|---|---|---|---|")
    for path, array in rows:
        if array.nbytes >= sequences / 100:
            print(f"| {path} | {array.dtype} | {array.size:,} | {array.nbytes / sequences:.2f} |")
    certify_run_on_classes(boards, stepper)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        f"\nthe certificate on classes: peak {_gb(peak)} GB "
        f"({peak * 1024 / sequences:.1f} bytes a sequence)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
