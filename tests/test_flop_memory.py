"""What a flop-sized vector CFR run builds, measured on small games: no index or temporary
as long as the sequence table beyond the arrays kept, and float64 sums of float32 storage.

The full flop (221 million sequences, ``benchmarks/flop.py``) is sized by these: there
every byte per sequence is 221 MB, so the tests bound the peak of each build in bytes per
sequence, with the slice length (:data:`~seqform.iterative.layout.CHUNK`) made small so
that a small game shows what a flop does.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from seqform.game.builtin.registry import load_structured_game
from seqform.iterative import layout as layout_module
from seqform.iterative.layout import sequence_layout
from seqform.iterative.passes import average_strategy
from seqform.structured import flat_tables
from seqform.structured.responses import sequence_tables

GAME = "leduc(ranks=6, suits=4)"


def _traced(call):
    """``call()``'s answer, the bytes it keeps and its peak above the start (tracemalloc
    sees numpy's allocations)."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        answer = call()
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return answer, kept - before, peak - before


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(layout_module, "CHUNK", 256, raising=False)
    monkeypatch.setattr(flat_tables, "CHUNK", 256, raising=False)


def test_the_layout_is_built_in_int32_without_table_long_temporaries(small_chunks) -> None:
    table = sequence_tables(load_structured_game(GAME))[1]
    layout, kept, peak = _traced(lambda: sequence_layout(table))
    assert layout.order.dtype == np.int32
    assert layout.sequence_parent.dtype == np.int32
    # measured on this table (19,489 sequences, 8,352 information sets): 16 bytes a
    # sequence pass through memory beyond what is kept, most of them the information
    # sets' depths; with each sequence's information set built whole, 22, and built in
    # int64 and then narrowed, 63
    assert peak - kept <= 20 * table.num_sequences
    assert "sequence_infoset" not in vars(layout)  # built when a numpy pass reads it


def test_the_layout_numbers_the_table_as_before() -> None:
    # the internal order: by depth, each information set's actions side by side, and
    # every parent before its children (the invariants the passes read)
    table = sequence_tables(load_structured_game("leduc(ranks=3, suits=2)"))[0]
    layout = sequence_layout(table)
    assert sorted(layout.order.tolist()) == list(range(table.num_sequences))
    infoset = table.sequence_infoset[layout.order[1:]]
    assert np.array_equal(
        infoset,
        np.repeat(infoset[layout.infoset_first - 1], layout.action_count[layout.infoset_first]),
    )
    assert (layout.sequence_parent[1:] < np.arange(1, table.num_sequences)).all()


def test_the_flat_index_is_built_a_hand_at_a_time(small_chunks) -> None:
    game = load_structured_game(GAME)
    sequences = sum(table.num_sequences for table in sequence_tables(game))
    layout = flat_tables._node_major(game)
    _, kept, peak = _traced(lambda: flat_tables._flat_game(game))
    # measured on this game: 4.4 bytes a sequence beyond what is kept (the int32 index
    # and the layout built again inside); the gather of an int64 position per (hand,
    # public sequence), its mask and its transposed copy made it 27.5
    assert peak - kept <= 12 * sequences
    assert layout.players[0].order.dtype == np.int32


def test_the_average_of_float32_weights_is_summed_in_float64() -> None:
    table = sequence_tables(load_structured_game("kuhn(cards=3)"))[0]
    layout = sequence_layout(table)
    # 2^24 + 1 is not a float32: summed in float32, an information set with weights
    # (2^24, 1) sums to 2^24 and its probabilities to 1 + 2^-24
    cumulative = np.ones(layout.num_sequences, dtype=np.float32)
    cumulative[0] = 2.0**24
    cumulative[layout.infoset_first] = 2.0**24
    strategy = average_strategy(layout, cumulative)
    sums = np.bincount(
        table.sequence_infoset[1:], weights=strategy.probabilities[1:], minlength=table.num_infosets
    )
    assert np.abs(sums - 1.0).max() <= 1e-15


@pytest.mark.slow  # 3 s: numba's compilation
def test_a_compiled_run_is_certified_on_classes_without_the_numpy_leaf_index(
    monkeypatch,
) -> None:
    # on a flop the numpy products' leaf index (leaves × hands, both players) is
    # gigabytes; a compiled run's certificate on the hand classes takes the kernel's
    # product from the tables the run built
    pytest.importorskip("numba")
    from seqform.iterative.run import Stopping
    from seqform.structured import products
    from seqform.structured.reductions.suit_classes import certify_on_classes
    from seqform.structured.vector_cfr import canonical_vector_cfr

    game = load_structured_game("leduc(ranks=4, suits=2)")
    run = canonical_vector_cfr(game, "dcfr", Stopping(5, None, None, 5), engine="compiled")
    assert run is not None

    def refused(*_):
        raise AssertionError("the numpy leaf index was built")

    monkeypatch.setattr(products, "leaf_index", refused)
    certificate = certify_on_classes(run.boards, *run.result.strategies)
    # the run's own sample, the same certificate before the index was refused
    assert float(certificate.nash_conv) == pytest.approx(run.result.nash_conv, abs=1e-9)


def test_the_plan_is_built_without_table_long_temporaries(monkeypatch) -> None:
    from seqform.forms import strategies
    from seqform.forms.strategies import BehaviouralStrategy, plan_from_behaviour

    monkeypatch.setattr(strategies, "PLAN_CHUNK", 64, raising=False)
    table = sequence_tables(load_structured_game(GAME))[1]
    probabilities = np.random.default_rng(0).random(table.num_sequences)
    strategy = BehaviouralStrategy(table, probabilities, np.zeros(table.num_infosets, bool))
    plan, kept, peak = _traced(lambda: plan_from_behaviour(strategy))
    # measured on this table: 22 bytes a sequence beyond the plan, most of them the
    # information sets' depths; with a mask and int64 indices per sequence, as before, 50
    assert peak - kept <= 32 * table.num_sequences
    parent = plan[table.parent_sequence[table.sequence_infoset[1:]]]
    assert np.allclose(plan[1:], parent * probabilities[1:], rtol=0.0, atol=0.0)


def test_the_hand_classes_are_int32() -> None:
    # a flop run keeps these, one number per sequence of G' (135 million) and a copy in
    # the run's order: in int64 they were 2.2 GB of its resident memory
    from seqform.structured.reductions.suit_classes import canonical_boards

    boards = canonical_boards(load_structured_game("leduc(ranks=3, suits=2)"))
    assert boards is not None
    for classes in boards.classes:
        assert classes.sequences.dtype == np.int32
        assert classes.infosets.dtype == np.int32


def test_the_average_plan_is_the_plan_of_the_average_bit_for_bit(small_chunks) -> None:
    from seqform.forms.strategies import plan_from_behaviour
    from seqform.iterative.passes import average_plan

    table = sequence_tables(load_structured_game(GAME))[0]
    layout = sequence_layout(table)
    cumulative = np.random.default_rng(1).random(layout.num_sequences).astype(np.float32)
    cumulative[layout.infoset_first[::7]] = 0.0  # some information sets without weight
    plan = average_plan(layout, cumulative)
    assert plan.dtype == np.float64
    expected = plan_from_behaviour(average_strategy(layout, cumulative))
    assert np.array_equal(plan, expected[layout.order])


@pytest.mark.slow  # 3 s: numba's compilation
def test_a_compiled_run_is_certified_from_its_own_arrays(monkeypatch) -> None:
    # the certificate of a flop's run on hand classes ran out of a 20.5 GB cap in its
    # table-order copies (benchmarks/results/flop_memory.md); from the run's own arrays it
    # is the same certificate to rounding, in a quarter of the memory, and the run goes on
    # as if it had not been measured
    pytest.importorskip("numba")
    from seqform.iterative.rules import RULES
    from seqform.structured.compiled_cfr import CompiledRegrets
    from seqform.structured.reductions.class_certificate import certify_run_on_classes
    from seqform.structured.reductions.suit_classes import canonical_boards, certify_on_classes

    boards = canonical_boards(load_structured_game("leduc(ranks=6, suits=4)"))
    assert boards is not None
    runs = [
        CompiledRegrets(
            boards.canonical, RULES["dcfr"], storage="float32", classes=boards.sequence_classes()
        )
        for _ in range(2)
    ]
    for iteration in range(1, 6):
        for run in runs:
            run.step(iteration)
    sequences = sum(player.num_sequences for player in runs[0].layout.players)
    certify_run_on_classes(boards, runs[0])  # numba compiles (or loads) its kernels untraced
    old, _, old_peak = _traced(lambda: certify_on_classes(boards, *runs[0].average()))
    new, _, new_peak = _traced(lambda: certify_run_on_classes(boards, runs[0]))
    assert float(new.nash_conv) == pytest.approx(float(old.nash_conv), rel=1e-12)
    assert float(new.value) == pytest.approx(float(old.value), rel=1e-12)
    # measured on this game (9,998 sequences of G', 4,706 classes): a peak of 17 bytes a
    # sequence, against 98 for the average's strategies and plans in the table's order,
    # the product's copies between the orders, and the class tables' best responses
    # with their strategies and level indices
    assert new_peak <= 24 * sequences < old_peak
    # the average plans a slice at a time (as on a flop, where a slice is a few percent of
    # a player's sequences) and the best responses in place: the one array added is A ȳ,
    # float64 per sequence of player 1; measured 4.5 bytes a sequence against A ȳ's 4.0,
    # where ȳ beside the information sets' sums whole, then the class sums and the class
    # tables' indices, made it 6.7
    from seqform.iterative import passes

    monkeypatch.setattr(passes, "CHUNK", 256)
    again, _, lean_peak = _traced(lambda: certify_run_on_classes(boards, runs[0]))
    assert float(again.nash_conv) == float(new.nash_conv)
    assert lean_peak <= 8 * runs[0].layout.players[0].num_sequences + sequences
    for iteration in range(6, 9):
        for run in runs:
            run.step(iteration)
    for first, second in zip(runs[0].cumulative, runs[1].cumulative, strict=True):
        assert np.array_equal(first, second)


def test_a_run_on_other_boards_is_refused() -> None:
    from seqform.structured.reductions.class_certificate import certify_run_on_classes
    from seqform.structured.reductions.suit_classes import canonical_boards

    pytest.importorskip("numba")
    from seqform.iterative.rules import RULES
    from seqform.structured.compiled_cfr import CompiledRegrets

    boards = canonical_boards(load_structured_game("leduc(ranks=3, suits=2)"))
    assert boards is not None
    run = CompiledRegrets(boards.canonical, RULES["dcfr"])
    with pytest.raises(ValueError, match="hand classes"):
        certify_run_on_classes(boards, run)


@pytest.mark.slow  # 2 s: numba's compilation
def test_a_compiled_canonical_run_measures_itself_from_its_arrays(monkeypatch) -> None:
    # iterate --method structured on a suit-symmetric spot: its samples take the lean
    # certificate too, and give the same NashConv as the average's certificate
    pytest.importorskip("numba")
    from seqform.iterative.run import Stopping
    from seqform.structured import vector_cfr
    from seqform.structured.reductions.suit_classes import certify_on_classes

    def refused(*_):
        raise AssertionError("the average was certified in the table's order")

    game = load_structured_game("leduc(ranks=4, suits=2)")
    with monkeypatch.context() as patched:
        patched.setattr(vector_cfr, "certify_on_classes", refused)
        run = vector_cfr.canonical_vector_cfr(
            game, "dcfr", Stopping(5, None, None, 5), engine="compiled", storage="float32"
        )
    assert run is not None
    expected = certify_on_classes(run.boards, *run.result.strategies)
    assert run.result.nash_conv == pytest.approx(float(expected.nash_conv), rel=1e-12)


def test_a_released_numbering_is_freed_and_the_tables_stay() -> None:
    # a flop run releases its numbering's grids (about a gigabyte) once its flat tables
    # are built: nothing else may hold them, the sequence tables included
    import gc
    import weakref

    from seqform.game.public.numbering import (
        number_public_tree,
        release_numbering,
        structured_tables,
    )

    game = load_structured_game("leduc(ranks=3, suits=2)")
    tables = structured_tables(game)
    numbering = weakref.ref(number_public_tree(game))
    release_numbering(game)
    gc.collect()
    assert numbering() is None
    assert structured_tables(game) is tables
    assert number_public_tree(game).num_sequences(0) == tables[0].num_sequences


def _run_bytes(run) -> int:
    """The bytes of every per-sequence or per-information-set array a compiled run keeps
    beside its layout and flat tables (its own state and scratch)."""
    arrays = [*run.regrets, *run.cumulative, *run.behaviour, *run.instant, *run.work]
    arrays += [*run.values, *run.plans, *vars(run).get("infoset_values", [])]
    arrays += [*run.class_offset]
    buffers = {id(a if a.base is None else a.base): a if a.base is None else a.base for a in arrays}
    return sum(array.nbytes for array in buffers.values())


def test_a_compiled_run_keeps_no_matching_scratch_or_infoset_values_and_shares_values() -> None:
    # the kernel writes each regret over its sequence's value and what is matched over
    # the behaviour it has read: on a flop the matching scratch (float32 per sequence)
    # and the information sets' values (float64) were 7.4 of the 85 bytes a sequence
    # that python -m benchmarks.flop_bytes counts
    pytest.importorskip("numba")
    from seqform.iterative.rules import RULES
    from seqform.structured.compiled_cfr import CompiledRegrets

    run = CompiledRegrets(load_structured_game("leduc(ranks=3, suits=2)"), RULES["dcfr"])
    sequences = sum(player.num_sequences for player in run.layout.players)
    assert all(len(array) == 0 for array in (*run.instant, *run.work))
    assert not hasattr(run, "infoset_values")
    longest = max(player.num_sequences for player in run.layout.players)
    # float64 storage: regrets, the average's weights, the behaviour and the plan, and
    # one value array as long as the longer player's (both players' are views of it)
    assert _run_bytes(run) == 4 * 8 * sequences + 8 * longest
    assert run.values[0].base is run.values[1].base is not None


def test_a_run_on_hand_classes_keeps_one_number_a_sequence_for_them() -> None:
    # on a flop the classes in the run's order (int32 per sequence) beside the boards'
    # own in the table's order, and a float64 regret per class as scratch, were 11 of the
    # 85 bytes a sequence of python -m benchmarks.flop_bytes, and then each sequence's
    # class's first member (int32) 4; the run now keeps the boards' arrays as they are
    # and, per sequence, how far before it its class's first member is, in the narrowest
    # unsigned type (a class's members are the hands of one public node: uint16 on a flop)
    pytest.importorskip("numba")
    from seqform.iterative.rules import RULES
    from seqform.structured.compiled_cfr import CompiledRegrets
    from seqform.structured.reductions.suit_classes import canonical_boards

    boards = canonical_boards(load_structured_game("leduc(ranks=3, suits=2)"))
    assert boards is not None
    classes = boards.sequence_classes()
    run = CompiledRegrets(boards.canonical, RULES["dcfr"], storage="float32", classes=classes)
    assert run.classes is not None
    assert all(mine is given for mine, given in zip(run.classes, classes, strict=True))
    sequences = sum(player.num_sequences for player in run.layout.players)
    longest = max(player.num_sequences for player in run.layout.players)
    # float32 regrets, average's weights, behaviour and plan, one-byte distances (this
    # game's classes are a few hands), the shared float64 values
    assert all(offset.dtype == np.uint8 for offset in run.class_offset)
    assert _run_bytes(run) == (4 * 4 + 1) * sequences + 8 * longest
    for player, table, offset in zip(run.layout.players, classes, run.class_offset, strict=True):
        internal = table[player.order]
        positions = np.arange(player.num_sequences)
        first = positions - offset
        assert (first >= 0).all()
        assert np.array_equal(internal[first], internal)
        # the first member: no member of the class comes before it
        assert np.array_equal(first, np.unique(internal, return_index=True)[1][internal])


def test_the_class_offsets_take_the_narrowest_type_that_holds_them() -> None:
    from seqform.structured.compiled_cfr import _offset_type

    assert [_offset_type(n) for n in (0, 255, 256, 65_536, 2**32)] == [
        np.uint8,
        np.uint8,
        np.uint16,
        np.uint32,
        np.int64,
    ]


def test_the_action_counts_are_one_byte_a_sequence() -> None:
    # one number per sequence of the layout: int32 on a flop it was 4 bytes a sequence
    # (0.5 GB); no information set of a spot has 256 actions
    table = sequence_tables(load_structured_game("leduc(ranks=3, suits=2)"))[0]
    layout = sequence_layout(table)
    assert layout.action_count.dtype == np.uint8
    per_infoset = layout.action_count[layout.infoset_first]
    assert np.array_equal(np.sort(per_infoset), np.sort(table.action_counts()))
    # a game with wider information sets keeps them whole
    assert layout_module._count_type(np.array([2, 300])) == np.uint16


def test_the_average_plan_copies_no_float64_weights(monkeypatch) -> None:
    # np.add.reduceat into float64 of a float32 run's weights copied them whole into
    # float64 first: on a flop 8 bytes a sequence more at every certificate's peak
    from seqform.iterative import passes
    from seqform.iterative.passes import average_plan

    monkeypatch.setattr(passes, "CHUNK", 256, raising=False)
    table = sequence_tables(load_structured_game(GAME))[0]
    layout = sequence_layout(table)
    cumulative = np.random.default_rng(2).random(layout.num_sequences).astype(np.float32)
    plan, kept, peak = _traced(lambda: average_plan(layout, cumulative))
    # measured on this table (19,489 sequences, 8,352 information sets): 0.2 bytes a
    # sequence beyond the plan, a slice's sums; with the information sets' float64 sums
    # whole, 3.9, and with the copy, 16.6
    assert plan.dtype == np.float64
    assert peak - kept <= layout.num_sequences


@pytest.mark.slow  # 2 s: numba's compilation
def test_a_compiled_run_builds_no_per_sequence_index_of_the_information_sets() -> None:
    # read by the numpy passes alone: on a flop 4 bytes a sequence of resident memory
    # (0.5 GB), and the levels' offsets of their information sets about 2 (0.25 GB), that
    # a compiled run, its certificate, its average and its state never read
    pytest.importorskip("numba")
    from seqform.iterative.rules import RULES
    from seqform.structured.compiled_cfr import CompiledRegrets
    from seqform.structured.reductions.class_certificate import certify_run_on_classes
    from seqform.structured.reductions.suit_classes import canonical_boards

    boards = canonical_boards(load_structured_game("leduc(ranks=3, suits=2)"))
    assert boards is not None
    run = CompiledRegrets(
        boards.canonical, RULES["dcfr"], storage="float32", classes=boards.sequence_classes()
    )
    for iteration in range(1, 4):
        run.step(iteration)
    certify_run_on_classes(boards, run)
    run.average()
    run.state()
    for player in run.layout.players:
        assert "sequence_infoset" not in vars(player)
        assert "level_starts" not in vars(player)
        assert not any(hasattr(level, "starts") for level in player.levels)
        # built when a numpy pass asks: each internal sequence's information set
        infoset = player.sequence_infoset
        assert infoset[0] == -1 and infoset.dtype == player.order.dtype
        assert np.array_equal(player.infoset_first, np.flatnonzero(np.diff(infoset)) + 1)
        assert np.array_equal(player.sequence_parent[1:], player.infoset_parent[infoset[1:]])
        for level, starts in zip(player.levels, player.level_starts, strict=True):
            within = infoset[level.sequences] - level.infosets.start
            assert np.array_equal(starts, np.flatnonzero(np.diff(within, prepend=-1)))
