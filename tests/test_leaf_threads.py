"""The compiled leaf product and update on several threads: parts that write apart, the
same iterates.

Claims: :func:`~seqform.structured.leaf_threads.batch_parts` keeps batches that share a
public sequence in one part and packs the parts by work; on a turn spot (an all-in's
runouts share one public sequence across every river card) the batches split into more
than one part, no two parts write the same public sequence;
:func:`~seqform.structured.compiled_cfr.depth_parts` cuts each depth's information sets
and sequences into consecutive ranges that cover the depth; and a run on two threads has
the one-thread run's regrets and average bit for bit, in float64 and float32, on the game
and on canonical boards' hand classes (each entry computed by one thread in the same
order: the module's claim, checked with ``array_equal``, no tolerance).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from seqform.holdem.game import spot_game
from seqform.holdem.spot import spot_from_mapping
from seqform.iterative.rules import RULES
from seqform.structured.leaf_threads import batch_parts

TURN = {
    "board": "Ks7h2d9c",
    "pot": 4,
    "effective_stack": 8,  # a bet and a raise put both all in: runouts share a sequence
    "oop_range": "AhAd,KhQh,Qc9d",
    "ip_range": "Tc8c,AsKs,7c7d",
    "bet_sizes": [0.75],
    "raise_sizes": [1.0],
    "max_raises": 1,
}


def test_batches_sharing_a_sequence_stay_in_one_part() -> None:
    # five batches of one leaf each; batches 0 and 3 share public sequence 7
    batch_start = np.arange(6)
    sequences = np.array([7, 1, 2, 7, 3])
    work = np.array([5.0, 4.0, 3.0, 5.0, 1.0])
    parts = batch_parts(batch_start, sequences, work, threads=2)
    owner = {int(b): p for p, part in enumerate(parts.parts) for b in part}
    assert sorted(owner) == [0, 1, 2, 3, 4]
    assert owner[0] == owner[3]
    # longest first: {0, 3} (10) alone, then 4, 3 and 1 go to the other part (8)
    assert sorted(len(part) for part in parts.parts) == [2, 3]
    assert parts.balance == pytest.approx(10 / 9)


def test_one_thread_is_one_part_in_order() -> None:
    parts = batch_parts(np.arange(4), np.array([0, 1, 2]), np.ones(3), threads=1)
    assert [part.tolist() for part in parts.parts] == [[0, 1, 2]]


@pytest.mark.slow  # compiles the kernels once per machine (numba's cache)
@pytest.mark.parametrize("storage", ["float64", "float32"])
def test_two_threads_step_as_one_bit_for_bit(storage: str) -> None:
    pytest.importorskip("numba")  # the fast extra
    from seqform.structured.compiled_cfr import CompiledRegrets

    game = spot_game(spot_from_mapping(TURN, "turn"))
    runs = [
        CompiledRegrets(game, RULES["dcfr"], storage=storage, threads=threads) for threads in (1, 2)
    ]
    for player in (0, 1):  # the update's second half is cut at some depth into two ranges
        cut = [c for c in runs[1]._depths[player].infosets if c[0] < c[1] < c[2]]
        assert cut, "no depth was cut for two threads"
        threaded = runs[1]._threaded[player]
        assert len(threaded.parts.parts) == 2
        written = [
            set(np.unique(_leaf_sequences(runs[1], part, player)).tolist())
            for part in threaded.parts.parts
        ]
        assert not written[0] & written[1]
    _assert_same_steps(runs)


def _assert_same_steps(runs: list) -> None:  # type: ignore[type-arg]
    """Five steps of each run, then their regrets, averages and behaviours equal bit for bit."""
    for iteration in range(1, 6):
        for run in runs:
            run.step(iteration)
    for name in ("regrets", "cumulative", "behaviour"):
        for one, two in zip(getattr(runs[0], name), getattr(runs[1], name), strict=True):
            assert np.array_equal(one, two), name


def _leaf_sequences(run, batches: np.ndarray, player: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    start = run.flat.batch_start
    leaves = np.concatenate([np.arange(start[b], start[b + 1]) for b in batches])
    return run.flat.sequences[leaves, player]


def test_each_depth_is_cut_into_consecutive_ranges() -> None:
    from seqform.structured.compiled_cfr import depth_parts
    from seqform.structured.flat_tables import flat_game

    game = spot_game(spot_from_mapping(TURN, "turn"))
    for layout in flat_game(game).layout.players:
        one = depth_parts(layout, 1)
        assert one.infosets == ((0, layout.num_infosets),)
        three = depth_parts(layout, 3)
        assert len(three.infosets) == len(layout.levels)
        for level, sets in zip(layout.levels, three.infosets, strict=True):
            assert (sets[0], sets[-1]) == (level.infosets.start, level.infosets.stop)
            assert list(sets) == sorted(sets)
            # each part holds about a third of the depth's sequences: at most one set more
            starts = [int(layout.infoset_first[i]) for i in sets[:-1]] + [level.sequences.stop]
            widest = int(layout.action_count[layout.infoset_first[level.infosets]].max())
            count = level.sequences.stop - level.sequences.start
            assert max(np.diff(starts)) <= -(-count // 3) + widest


def test_the_upward_cuts_share_no_parent() -> None:
    # The bottom-up pass adds each set's value into its parent sequence: two parts run at
    # once must not write one parent, or its sum would depend on the threads' timing.
    from seqform.structured.compiled_cfr import depth_parts
    from seqform.structured.flat_tables import flat_game

    game = spot_game(spot_from_mapping(TURN, "turn"))
    interior = 0
    for layout in flat_game(game).layout.players:
        assert depth_parts(layout, 1).upward == ((0, layout.num_infosets),)
        parts = depth_parts(layout, 2)
        for level, cuts in zip(layout.levels, parts.upward, strict=True):
            assert (cuts[0], cuts[-1]) == (level.infosets.start, level.infosets.stop)
            assert list(cuts) == sorted(set(cuts))
            sides = [set(layout.infoset_parent[a:b].tolist()) for a, b in itertools.pairwise(cuts)]
            for one, other in itertools.combinations(sides, 2):
                assert not one & other
            interior += len(cuts) - 2
    assert interior >= 3  # the turn's chance node splits its depths: the pass runs on two


@pytest.mark.slow  # compiles the kernels once per machine (numba's cache)
def test_two_threads_step_as_one_on_hand_classes() -> None:
    pytest.importorskip("numba")  # the fast extra
    from seqform.game.builtin.registry import load_structured_game
    from seqform.structured.compiled_cfr import CompiledRegrets
    from seqform.structured.reductions.suit_classes import canonical_boards

    boards = canonical_boards(load_structured_game("leduc(ranks=4, suits=2)"))
    assert boards is not None
    classes = boards.sequence_classes()
    runs = [
        CompiledRegrets(boards.canonical, RULES["pcfr+"], classes=classes, threads=threads)
        for threads in (1, 2)
    ]
    _assert_same_steps(runs)
