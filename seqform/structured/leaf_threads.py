"""The compiled leaf product on several cores: the batches cut into parts that write
disjoint sequences, one thread per part.

The compiled leaf product (:func:`~seqform.structured.cfr_kernels.leaf_product`) adds each
batch's sums onto the own sequences of its leaves, ``(public sequence, hand)`` pairs.  Two
batches *conflict* when a leaf of one and a leaf of the other share the writing player's
public sequence; batches joined by a chain of conflicts must run in one thread.  So the
parts are the connected components of the bipartite graph batches – public sequences, packed
into at most ``threads`` parts by their work with the longest-processing-time rule (Graham,
"Bounds on multiprocessing timing anomalies", SIAM J. Appl. Math. 1969: within 4/3 of the
best makespan), each part keeping its batches in increasing order.

Every output entry is then summed by one thread, over the same batches in the same order as
the one-thread walk, so the product is bit for bit the serial one: the thread count changes
the time, never the iterates.  The kernel releases the GIL (``nogil``), so Python threads
run it in parallel.  On a hold'em spot the components are the subtrees below each turn and
river card (and each all-in runout), so the parts balance; a game whose leaves all hang on
a few public sequences (Kuhn with many cards) has one component and runs in one thread.
"""

from __future__ import annotations

import concurrent.futures
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

__all__ = [
    "MAX_THREADS",
    "THREADED_PAIRS",
    "BatchParts",
    "batch_parts",
    "default_threads",
    "run_parts",
]

MAX_THREADS = 8
"""The most threads a product is cut into (the kernel is bound by memory beyond a few)."""

THREADED_PAIRS = 2_000_000
"""A product visiting fewer (leaf, hand) pairs runs on one thread by default: handing the
parts to threads costs more than it saves on small games (``leduc(ranks=13, suits=4)``,
244,000 pairs: 5.5 ms an iteration on two threads against 5.1 on one; the full-range
turn, 8.8 million: 179 against 195 ms; ``benchmarks/results/measurements.md``)."""


@dataclass(frozen=True)
class BatchParts:
    """One player's batches cut for threads.

    parts : per part, its batch numbers (int64, increasing); the parts write disjoint
        own sequences
    balance : the largest part's work over the mean part's (1.0 is a perfect cut; with one
        part, 1.0)
    """

    parts: tuple[np.ndarray, ...]
    balance: float


def default_threads() -> int:
    """The cores this process may run on, at most :data:`MAX_THREADS`."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_THREADS))


def batch_parts(
    batch_start: np.ndarray, leaf_sequences: np.ndarray, work: np.ndarray, threads: int
) -> BatchParts:
    """The batches cut into at most ``threads`` parts that write disjoint public sequences
    (module docstring).

    Parameters
    ----------
    batch_start : shape (B + 1,), where each batch starts among the leaves (batch order)
    leaf_sequences : shape (Z,), the writing player's public sequence of each leaf
    work : shape (B,), each batch's cost (leaves times hands, say)
    threads : the most parts wanted (>= 1)
    """
    batches = len(batch_start) - 1
    if threads <= 1 or batches <= 1:
        return BatchParts((np.arange(batches, dtype=np.int64),), 1.0)
    leaf_batch = np.repeat(np.arange(batches), np.diff(batch_start))
    sequences = int(leaf_sequences.max(initial=-1)) + 1
    graph = sp.coo_array(
        (np.ones(len(leaf_batch)), (leaf_batch, batches + leaf_sequences)),
        shape=(batches + sequences, batches + sequences),
    )
    _, label = connected_components(graph, directed=False)
    component = np.unique(label[:batches], return_inverse=True)[1]
    load = np.bincount(component, weights=work)
    bins = min(threads, len(load))
    totals = np.zeros(bins)
    owner = np.empty(len(load), dtype=np.int64)
    for c in np.argsort(-load, kind="stable"):  # longest processing time first
        target = int(np.argmin(totals))
        owner[c] = target
        totals[target] += load[c]
    part_of = owner[component]
    parts = tuple(np.flatnonzero(part_of == p).astype(np.int64) for p in range(bins))
    parts = tuple(part for part in parts if part.size)
    mean = totals.sum() / len(parts) if totals.sum() > 0 else 1.0
    return BatchParts(parts, float(totals.max() / mean) if totals.sum() > 0 else 1.0)


_POOL: concurrent.futures.ThreadPoolExecutor | None = None
_POOL_LOCK = threading.Lock()


def _pool() -> concurrent.futures.ThreadPoolExecutor:
    """One pool for every product of the process, as wide as :data:`MAX_THREADS`."""
    global _POOL
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = concurrent.futures.ThreadPoolExecutor(
                max_workers=MAX_THREADS, thread_name_prefix="seqform-leaves"
            )
        return _POOL


def run_parts(work: Callable[[int], None], parts: int) -> None:
    """``work(p)`` for each part ``p``, the first in this thread and the rest in the pool;
    returns when all are done, also when one raises or a KeyboardInterrupt arrives (no
    thread writes into the caller's arrays after it returns)."""
    if parts == 1:
        work(0)
        return
    futures = [_pool().submit(work, p) for p in range(1, parts)]
    try:
        work(0)
    finally:
        concurrent.futures.wait(futures)
    for future in futures:
        future.result()
