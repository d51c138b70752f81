"""Numba against JAX (CPU) on vector CFR's leaf product, the step that chose the compiler.

``python -m benchmarks.vcfr_engines [--repeat N]`` times one product ``A y`` (player 0's
payoff per sequence against player 1's plan, card removal included) on the full-range river
spot of :mod:`benchmarks.spots` and on ``leduc(ranks=13, suits=4)``, three ways, each
checked against the library's numpy product (:func:`seqform.structured.products.
payoff_to_first`) to 1e-9:

* ``numba``: :func:`seqform.structured.cfr_kernels.leaf_product`, the kernel the library
  runs, a loop per leaf with two pointers over the level orders and running sums per card;
* ``jax``: the same sums written for an array compiler (``jax.jit`` on the CPU): every leaf
  at once as ``(leaves, hands)`` arrays, the opponent's range gathered, sorted by level and
  by (card, level) with the orders built once, cumulative sums read at positions built
  once, and a scatter-add onto the sequences (JAX has no loop with data-dependent pointers
  that compiles to a plain loop, so this is the form it runs well);
* ``numpy``: that array form in numpy, to show what the array form costs without a compiler.

CPU seconds per product (``time.process_time``: on a shared machine the wall clock counts
other processes' time) are the median of ``--repeat`` calls after one warm-up; compile time
is printed apart.  Needs numba and jax (``pip install numba jax``); not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.spots import FULL_RIVER
from seqform.game.builtin.leduc import leduc_structured
from seqform.game.public.tree import StructuredGame
from seqform.holdem.game import spot_game
from seqform.holdem.spot import read_spot
from seqform.iterative.rules import RULES
from seqform.structured.compiled_cfr import CompiledRegrets
from seqform.structured.leaf_groups import CONSTANT, SIGN, THRESHOLD
from seqform.structured.products import payoff_to_first

__all__ = ["main"]


def _games() -> dict[str, StructuredGame]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "river.toml"
        path.write_text(FULL_RIVER)
        river = spot_game(read_spot(path))
    return {"full-range river": river, "leduc(ranks=13, suits=4)": leduc_structured(13, 4)}


def _array_form(stepper: CompiledRegrets) -> dict[str, np.ndarray]:
    """The gathers and positions of the array form for player 0 (built once, like the
    kernel's flat tables).

    Length: one straight build of the arrays the three engines' products share, so that the
    timing compares the products and not their set-up.
    """
    flat = stepper.flat
    mine, theirs = flat.players
    sizes = np.diff(flat.batch_start)  # the leaves in the flat tables' batch order
    kind, key, sets = (
        np.repeat(a, sizes) for a in (flat.batch_kind, flat.batch_key, flat.batch_levels)
    )
    assert not np.any(kind == THRESHOLD), "the array form here has no thresholds"
    leaves = len(kind)
    other_hands, columns = theirs.cards.shape
    own_hands = mine.cards.shape[0]
    dump = stepper.layout.players[1].num_sequences  # the padded plan's zero
    own_dump = stepper.layout.players[0].num_sequences
    other_index = theirs.index[flat.sequences[:, 1]]
    own_index = mine.index[flat.sequences[:, 0]]
    span = int(max(mine.levels.max(), theirs.levels.max())) + 2
    their_levels = theirs.levels[sets]  # (Z, Hx)
    own_levels = mine.levels[sets]  # (Z, Ho)
    sorted_levels = np.take_along_axis(their_levels, theirs.order[sets], 1)
    pairs = list(zip(sorted_levels, own_levels, strict=True))
    low = np.stack([np.searchsorted(s, o, "left") for s, o in pairs])
    high = np.stack([np.searchsorted(s, o, "right") for s, o in pairs])
    holders = np.repeat(np.arange(other_hands), columns)
    cards = theirs.cards.reshape(-1)
    keys = cards[None, :] * span + their_levels[:, holders]
    keys = np.where(cards[None, :] >= 0, keys, -1)  # no card: before every card's segment
    incidence = np.argsort(keys, axis=1, kind="stable")
    keys = np.take_along_axis(keys, incidence, 1)
    own_cards = mine.cards
    positions = {}
    for name in ("start", "low", "high", "end"):
        found = np.empty((leaves, own_hands, columns), dtype=np.int64)
        for z in range(leaves):
            level = own_levels[z][:, None]
            shift = {"start": 0, "end": span, "low": level, "high": level + 1}[name]
            found[z] = np.searchsorted(keys[z], own_cards * span + shift, "left")
        found[:, own_cards < 0] = 0  # no card: an empty segment
        positions[name] = found.reshape(leaves, -1)
    twin = mine.twin
    has_twin = twin >= 0
    twin_levels = np.take_along_axis(
        their_levels, np.maximum(twin, 0)[None, :].repeat(leaves, 0), 1
    )
    sign = np.where(kind == SIGN, 1.0, 0.0)[:, None]
    factor = mine.factor[key] * flat.first[:, None]
    return {
        "other_index": np.where(other_index >= 0, other_index, dump),
        "other_factor": theirs.factor[key],
        "order": theirs.order[sets],
        "incidence": holders[incidence],
        "low": low,
        "high": high,
        "start": positions["start"],
        "card_low": positions["low"],
        "card_high": positions["high"],
        "end": positions["end"],
        "twin": np.maximum(twin, 0),
        "has_twin": has_twin.astype(float),
        "twin_low": ((twin_levels < own_levels) & has_twin).astype(float),
        "twin_high": ((twin_levels <= own_levels) & has_twin).astype(float),
        "sign": sign,
        "constant": (kind == CONSTANT).astype(float)[:, None],
        "factor": factor,
        "own_index": np.where(own_index >= 0, own_index, own_dump),
        "size": np.zeros(own_dump + 1),
        "columns": np.zeros(columns),
    }


def _product(xp: Any, at: Callable[..., Any]) -> Callable[..., Any]:
    """The array form's ``A y`` in the array module ``xp`` (numpy or jax.numpy); ``at``
    scatter-adds ``values`` onto ``zeros`` at ``index``."""

    def product(plan: Any, a: dict[str, Any]) -> Any:
        padded = xp.concatenate([plan, xp.zeros(1)])
        v = padded[a["other_index"]] * a["other_factor"]
        leaves = v.shape[0]
        zero = xp.zeros((leaves, 1))
        running = xp.concatenate([zero, xp.cumsum(xp.take_along_axis(v, a["order"], 1), 1)], 1)
        total = running[:, -1:]
        cards = xp.concatenate([zero, xp.cumsum(xp.take_along_axis(v, a["incidence"], 1), 1)], 1)
        columns = a["columns"].shape[0]

        def card_sum(name: str) -> Any:
            found = xp.take_along_axis(cards, a[name], 1) - xp.take_along_axis(cards, a["start"], 1)
            return found.reshape(leaves, -1, columns).sum(axis=2)

        twin = xp.take(v, a["twin"], axis=1)
        excluded = total - card_sum("end") + twin * a["has_twin"]
        below = xp.take_along_axis(running, a["low"], 1) - card_sum("card_low")
        through = xp.take_along_axis(running, a["high"], 1) - card_sum("card_high")
        below = below + twin * a["twin_low"]
        through = through + twin * a["twin_high"]
        values = (a["sign"] * (below + through - excluded) + a["constant"] * excluded) * a["factor"]
        return at(a["size"], a["own_index"].reshape(-1), values.reshape(-1))[:-1]

    return product


def _numpy_at(zeros: np.ndarray, index: np.ndarray, values: np.ndarray) -> np.ndarray:
    return np.bincount(index, weights=values, minlength=len(zeros))


def _median_cpu(call: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        call()
        times.append(time.process_time() - start)
    return statistics.median(times)


def _row(name: str, game: StructuredGame, repeat: int) -> str:
    """One game's line of the table (checked against the numpy product first)."""
    import jax
    import jax.numpy as jnp

    stepper = CompiledRegrets(game, RULES["cfr+"])
    stepper.step(1)
    plan = stepper.plans[1].copy()  # player 1's plan after one step (internal order)
    reference = payoff_to_first(game, plan[np.argsort(stepper.layout.players[1].order)])
    expected = reference[stepper.layout.players[0].order]
    out = np.zeros(stepper.layout.players[0].num_sequences)
    arrays = _array_form(stepper)
    numpy_product = _product(np, _numpy_at)
    device = {key: jnp.asarray(value) for key, value in arrays.items()}
    jax_product = jax.jit(_product(jnp, lambda zeros, index, values: zeros.at[index].add(values)))
    jax_plan = jnp.asarray(plan)
    start = time.perf_counter()
    jax_product(jax_plan, device).block_until_ready()
    compile_seconds = time.perf_counter() - start
    calls = {
        "numba": lambda: stepper.product(0, plan, out),
        "jax": lambda: jax_product(jax_plan, device).block_until_ready(),
        "numpy": lambda: numpy_product(plan, arrays),
    }
    for label, call in calls.items():
        error = float(np.max(np.abs(np.asarray(call()) - expected)))
        if error > 1e-9:
            raise AssertionError(f"{name}: {label} is {error:.1e} from the numpy product")
    ms = {label: _median_cpu(call, repeat) * 1e3 for label, call in calls.items()}
    return (
        f"| {name} | {len(stepper.flat.first):,} | {game.num_hands(0):,} | {ms['numba']:.2f} | "
        f"{ms['jax']:.2f} | {ms['numpy']:.2f} | {compile_seconds:.1f} |"
    )


def main(argv: list[str] | None = None) -> int:
    """Time the three ways on both games and print a table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.vcfr_engines", description=__doc__)
    parser.add_argument("--repeat", type=int, default=20, help="calls timed per way (median)")
    args = parser.parse_args(argv)
    import jax
    import numba

    jax.config.update("jax_enable_x64", True)
    print(f"numba {numba.__version__}, jax {jax.__version__} ({jax.default_backend()})")
    print("| game | leaves | hands | numba ms | jax ms | numpy array form ms | jax compile s |")
    print("|---|---|---|---|---|---|---|")
    for name, game in _games().items():
        print(_row(name, game, args.repeat), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
