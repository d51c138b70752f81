"""How much memory a route will need, estimated before anything is built, against what
the process may have: a game too large is refused with the estimate and the way out,
instead of being killed by the kernel or aborted by a solver's failed allocation (SIGABRT,
no message).

Estimates (bytes), each a measured slope on this project's runs plus a fixed base:

* the tree route (sequence form, any LP method): ``nodes x TREE_BYTES_PER_NODE``.  The
  slope is the peak resident size of ``solve`` (tree, compiled arrays, sequence form, HiGHS
  simplex or interior point) over the node count, fitted on Leduc with 9 to 13 ranks and
  rounded up (measurements in ``benchmarks/results/measurements.md``).
  Built-in games say their node count from their parameters
  (:func:`~seqform.game.builtin.registry.builtin_tree_nodes`); other games (``.efg``,
  OpenSpiel, Liar's Dice) are not estimated.
* the structured route (public tree × private hands, the structured LP):
  ``(sequences of both players) x STRUCTURED_BYTES_PER_SEQUENCE``, Clarabel's sparse LDL
  factor dominating; the slope fitted on the peaks of ``kuhn(cards=20000…100000)``,
  ``leduc(ranks=13, suits=4)`` and ``liars_dice(sides=8)`` and rounded up (measurements in
  ``benchmarks/results/measurements.md``).

* vector CFR (``iterate --method structured``, which never builds the LP):
  ``(sequences of both players) x VECTOR_CFR_BYTES_PER_SEQUENCE``: the numbering's grids and
  the sequence tables (int32 indices, labels made on demand), the iteration layout and the
  compiled engine's flat tables, the regrets, the average's weights and the behaviour, and
  the certificate's plans and best responses; the slope fitted on the peaks of one compiled
  iteration and its certificate on Rhode Island hold'em (``docs/benchmarks.md``).

* card abstraction (``solve --card-buckets``, :func:`seqform.abstraction.solve.abstract`):
  ``(sequences of both players of the game abstracted) x GAME_BYTES_PER_SEQUENCE + (abstract
  sequences of both players) x ABSTRACT_LP_BYTES_PER_SEQUENCE``: the game's tables, buckets
  and best responses, and the abstract LP in Clarabel (:data:`ABSTRACT_LP_BYTES_PER_SEQUENCE`
  gives the measurements).

What the process may have (:func:`available_memory`) is the least of: ``MemAvailable`` in
``/proc/meminfo``; the address-space and data limits (``RLIMIT_AS``, ``RLIMIT_DATA``, as
``ulimit -v`` sets) less what the process already maps; a cgroup's ``memory.max`` less its
``memory.current``.
"""

from __future__ import annotations

import resource
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "ABSTRACT_LP_BYTES_PER_SEQUENCE",
    "BASE_BYTES",
    "GAME_BYTES_PER_SEQUENCE",
    "STRUCTURED_BYTES_PER_SEQUENCE",
    "TREE_BYTES_PER_NODE",
    "VECTOR_CFR_BYTES_PER_SEQUENCE",
    "MemoryAvailable",
    "MemoryEstimate",
    "MemoryRefusedError",
    "abstraction_estimate",
    "available_memory",
    "check_memory",
    "structured_estimate",
    "tree_estimate",
    "vector_cfr_estimate",
]

TREE_BYTES_PER_NODE = 450
STRUCTURED_BYTES_PER_SEQUENCE = 2_250
GAME_BYTES_PER_SEQUENCE = 120
"""What a sequence of the game costs when the LP solved is a suit-reduced one: the game's
sequence tables and the certificate's vectors, not the LP's factorisation.  Rhode Island
hold'em's ladder (``benchmarks/results/rhode_island.md``) measured about 60 bytes (the
peak less the interpreter and the reduced LP at :data:`STRUCTURED_BYTES_PER_SEQUENCE`);
twice that is the estimate."""
VECTOR_CFR_BYTES_PER_SEQUENCE = 300
"""What a sequence costs vector CFR (module docstring): one compiled iteration and its
certificate peaked at about 225 bytes per sequence of both players, above the interpreter,
on ``rhode_island_structured(ranks=8)`` and on the full game's suit-canonical game
(``docs/benchmarks.md``); a third more is the estimate.  About 1/7 of the structured LP's."""
ABSTRACT_LP_BYTES_PER_SEQUENCE = 2_500
"""What an abstract sequence costs a card abstraction (module docstring): its share of the
abstract game's build and of Clarabel's factorisation, beside the game's
:data:`GAME_BYTES_PER_SEQUENCE`.  Measured peaks (resident, in GiB as the messages' GB),
against the abstract sequences of both players (the bound of
:mod:`seqform.abstraction.sizes`):

* ``rhode_island(ranks=3, suits=4)`` (the game 1,312,322 sequences; ``VmHWM``, one run
  each): buckets 1,1,1 (131,062 abstract sequences) 0.38, 3,6,12 (1,303,742; 1,302,062
  made) 2.48: 1,920 bytes an abstract sequence between the two;
* the 52-card ``rhode_island`` with ``suit_isomorphism=True`` (16,018,862 sequences on
  canonical boards; ``ru_maxrss`` of ``benchmarks/abstraction_ladder.py``, rungs in one
  process, ``docs/abstraction.md``): 1,1,1 (320,342) 2.29, 2,2,2 (640,682) 3.53, 3,3,3
  (961,022) 3.72, 2,4,8 (2,555,322) 6.96, 3,6,12 (3,832,982) 9.06 alone and 10.78 in a
  ladder: 2,240 bytes an abstract sequence from 1,1,1 to 2,4,8;
* ``leduc(ranks=13, suits=4)`` (186,370 sequences): 1,1 (3,656) 0.19, 3,9 (32,804) 0.24.

2,500 is the larger slope rounded up.  With the game at 120 bytes a sequence the estimates
are 0.60 and 3.33 for the first two, 2.68, 3.43, 4.17, 7.89 and 10.86 for the 52-card rungs:
over every peak but 2,2,2's, which its ladder's process reached after 1,1,1 (3% under)."""
BASE_BYTES = 150 * 2**20  # the interpreter, numpy, scipy, HiGHS before any game


class MemoryRefusedError(ValueError):
    """The route's estimated memory exceeds what the process may have."""


@dataclass(frozen=True)
class MemoryEstimate:
    """The estimated peak memory of a route: ``bytes``, for ``what`` (the route and the
    size it was computed from, e.g. ``"the tree route (9,984,833 nodes)"``)."""

    bytes: int
    what: str


@dataclass(frozen=True)
class MemoryAvailable:
    """What the process may still allocate: ``bytes``, and the ``source`` that limits it."""

    bytes: int
    source: str


def tree_estimate(nodes: int) -> MemoryEstimate:
    """The tree route's estimate for a game of ``nodes`` nodes (module docstring)."""
    return MemoryEstimate(
        BASE_BYTES + nodes * TREE_BYTES_PER_NODE, f"the tree route ({nodes:,} nodes)"
    )


def structured_estimate(sequences: int, reduced: int | None = None) -> MemoryEstimate:
    """The structured route's estimate for a game of ``sequences`` sequences (both players);
    with ``reduced``, the sequences of the suit-reduced LP solved instead of the game's
    (the game's own tables at :data:`GAME_BYTES_PER_SEQUENCE`)."""
    if reduced is not None:
        return MemoryEstimate(
            BASE_BYTES
            + sequences * GAME_BYTES_PER_SEQUENCE
            + reduced * STRUCTURED_BYTES_PER_SEQUENCE,
            f"the structured LP after suit isomorphism ({reduced:,} of the game's "
            f"{sequences:,} sequences)",
        )
    return MemoryEstimate(
        BASE_BYTES + sequences * STRUCTURED_BYTES_PER_SEQUENCE,
        f"the structured LP ({sequences:,} sequences)",
    )


def vector_cfr_estimate(sequences: int) -> MemoryEstimate:
    """Vector CFR's estimate for a game of ``sequences`` sequences (both players; module
    docstring): its own arrays, not the LP's."""
    return MemoryEstimate(
        BASE_BYTES + sequences * VECTOR_CFR_BYTES_PER_SEQUENCE,
        f"vector CFR ({sequences:,} sequences)",
    )


def abstraction_estimate(sequences: int, abstract: int) -> MemoryEstimate:
    """A card abstraction's estimate (module docstring): ``sequences`` of the game
    abstracted and ``abstract`` sequences of its abstract game, both players'."""
    return MemoryEstimate(
        BASE_BYTES
        + sequences * GAME_BYTES_PER_SEQUENCE
        + abstract * ABSTRACT_LP_BYTES_PER_SEQUENCE,
        f"the card abstraction (at most {abstract:,} abstract sequences, the game {sequences:,})",
    )


def _meminfo_available() -> int | None:
    try:
        for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def _mapped_bytes(field: str) -> int:
    """``VmSize`` or ``VmData`` of this process (0 where /proc does not say)."""
    try:
        for line in Path("/proc/self/status").read_text(encoding="utf-8").splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return 0
    return 0


def _cgroup_room() -> int | None:
    root = Path("/sys/fs/cgroup")
    try:
        limit = (root / "memory.max").read_text(encoding="utf-8").strip()
        if limit == "max":
            return None
        return int(limit) - int((root / "memory.current").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def available_memory() -> MemoryAvailable:
    """What the process may still allocate (module docstring): the tightest limit."""
    candidates: list[MemoryAvailable] = []
    physical = _meminfo_available()
    if physical is not None:
        candidates.append(MemoryAvailable(physical, "available memory (/proc/meminfo)"))
    for name, field in (("RLIMIT_AS", "VmSize"), ("RLIMIT_DATA", "VmData")):
        soft, _ = resource.getrlimit(getattr(resource, name))
        if soft != resource.RLIM_INFINITY:
            room = max(soft - _mapped_bytes(field), 0)
            candidates.append(MemoryAvailable(room, f"the {name} limit (ulimit)"))
    cgroup = _cgroup_room()
    if cgroup is not None:
        candidates.append(MemoryAvailable(max(cgroup, 0), "the cgroup's memory.max"))
    if not candidates:
        return MemoryAvailable(2**62, "no limit found")
    return min(candidates, key=lambda candidate: candidate.bytes)


def _size(count: int) -> str:
    if count >= 100 * 2**30:
        return f"{count / 2**30:,.0f} GB"
    return f"{count / 2**30:.1f} GB" if count >= 2**30 else f"{count / 2**20:.0f} MB"


def check_memory(
    estimate: MemoryEstimate, way_out: str, available: MemoryAvailable | None = None
) -> None:
    """Raise :class:`MemoryRefusedError` if ``estimate`` exceeds ``available`` (by default
    :func:`available_memory`); the message gives both and ``way_out``.

    Example message: "the tree route (9,984,833 nodes) needs about 4.3 GB (estimated), more
    than the 3.9 GB that the RLIMIT_AS limit (ulimit) leaves; too large for the tree
    route: ..."
    """
    room = available_memory() if available is None else available
    if estimate.bytes <= room.bytes:
        return
    raise MemoryRefusedError(
        f"{estimate.what} needs about {_size(estimate.bytes)} (estimated), more than the "
        f"{_size(room.bytes)} that {room.source} leaves; {way_out}"
    )
