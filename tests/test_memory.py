"""Memory refused early: the estimate of a route
before anything is built, the refusal with the estimate and the way out, and a real
``MemoryError`` as one line and exit 1, never SIGABRT."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from seqform.cli.main import main
from seqform.game.builtin.registry import builtin_tree_nodes
from seqform.io.loader import load_game
from seqform.routes.sizing import memory
from seqform.routes.sizing.memory import (
    MemoryAvailable,
    MemoryRefusedError,
    check_memory,
    structured_estimate,
    tree_estimate,
)

ROOT = Path(__file__).resolve().parents[1]
LIMIT_BYTES = 6_000_000 * 1024  # `ulimit -v 6000000`, under which the abort was reproduced


@pytest.mark.parametrize(
    "spec",
    ["kuhn", "kuhn(cards=7)", "leduc", "leduc(ranks=4, suits=3)", "leduc(ranks=5, suits=1)"],
)
def test_node_count_from_parameters_matches_the_built_tree(spec: str) -> None:
    assert builtin_tree_nodes(spec) == load_game(spec).flat.num_nodes


def test_kuhns_count_builds_no_hand_of_a_large_deck(monkeypatch) -> None:
    """The betting is the same for every deck, so a billion cards are counted by formula:
    1 + N (N - 1) · 9 (the deal, then nine public nodes per ordered deal, the count
    checked on the built tree above).  Counted on the deck itself, ``compare
    kuhn(cards=10**9) --no-solve`` took 19 GB before its refusal."""
    from seqform.game.builtin import registry

    built: list[int] = []
    real = registry.kuhn_structured
    monkeypatch.setattr(
        registry, "kuhn_structured", lambda cards: built.append(cards) or real(cards)
    )
    n = 10**9
    assert builtin_tree_nodes(f"kuhn(cards={n})") == 1 + n * (n - 1) * 9
    assert max(built) == 3


@pytest.mark.parametrize(
    ("ranks", "suits", "bets"),
    [(3, 2, None), (4, 3, None), (3, 2, ((1, 2), (4,))), (2, 2, ((1, 2, 3), (2, 5, 8)))],
)
def test_leducs_formulas_with_bet_sizes_match_the_built_games(ranks, suits, bets) -> None:
    from seqform.game.builtin.leduc import leduc_poker, leduc_sequences, leduc_structured
    from seqform.game.public.numbering import number_public_tree

    spec = f"leduc(ranks={ranks}, suits={suits}, bets={bets})"
    numbering = number_public_tree(leduc_structured(ranks, suits, bets))
    counted = numbering.num_sequences(0) + numbering.num_sequences(1)
    assert leduc_sequences(ranks, suits, bets) == counted
    assert builtin_tree_nodes(spec) == leduc_poker(ranks, suits, bets=bets).flat.num_nodes


def test_a_leduc_beyond_memory_is_sized_without_its_public_tree(monkeypatch) -> None:
    """Eight bet sizes a round on 13 × 4: 166,912,930 sequences (the count the numbering
    gave when it was built, in 78 s and 2.4 GB) from the formulas, the game not built."""
    from seqform.routes.sizing import planned

    def built(spec: str) -> None:
        raise AssertionError(f"{spec} was built")

    monkeypatch.setattr(planned, "load_structured_game", built)
    eight = tuple(range(1, 9))
    size = planned.planned_size(f"leduc(ranks=13, suits=4, bets=({eight}, {eight}))")
    assert size is not None and size.sequences == 166_912_930 and size.game is None


def test_games_that_cannot_tell_or_bad_specs_give_none() -> None:
    assert builtin_tree_nodes("liars_dice") is None
    assert builtin_tree_nodes("leduc(ranks=99)") is None  # the build reports it
    assert builtin_tree_nodes("nonsense") is None


def test_leduc_13_by_4_is_estimated_without_building() -> None:
    # 52 cards: 1 + 52 + 52 * 51 * (15 + 75 * 50) = 9 984 833 nodes, as the build counts
    # (seqform solve "leduc(ranks=13, suits=4)" --verbose: "built ...: 9,984,833 nodes")
    assert builtin_tree_nodes("leduc(ranks=13, suits=4)") == 9_984_833


def test_refused_with_the_estimate_and_the_way_out() -> None:
    small = MemoryAvailable(100 * 2**20, "a test limit")
    with pytest.raises(MemoryRefusedError) as refused:
        check_memory(tree_estimate(9_984_833), "use --method structured", small)
    message = str(refused.value)
    assert "9,984,833 nodes" in message
    assert "100 MB that a test limit leaves" in message
    assert message.endswith("use --method structured")
    check_memory(tree_estimate(1000), "unused", MemoryAvailable(2**40, "plenty"))


def test_estimates_grow_with_size() -> None:
    assert tree_estimate(10**6).bytes < tree_estimate(10**7).bytes
    # measured (benchmarks/results/measurements.md): about 2.1 kB a sequence;
    # 10^6 Kuhn cards = 8 10^6
    assert structured_estimate(8 * 10**6).bytes > 10 * 2**30


@pytest.mark.parametrize(
    ("args", "way_out"),
    [
        pytest.param(
            ["leduc(ranks=13, suits=4)", "--method", "tree"], "--method structured", id="leduc-tree"
        ),
        pytest.param(
            ["kuhn(cards=2000)", "--method", "tree"], "--method structured", id="kuhn-tree"
        ),
        pytest.param(
            ["kuhn(cards=1000000)", "--method", "structured"], "smaller game", id="structured"
        ),
    ],
)
def test_cli_refuses_before_building(args, way_out, monkeypatch, capsys) -> None:
    monkeypatch.setattr(memory, "available_memory", lambda: MemoryAvailable(2**30, "a test limit"))
    assert main(["solve", *args]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "(estimated), more than the 1.0 GB that a test limit leaves" in err
    assert way_out in err and "--force" in err


def test_force_goes_past_the_estimate(monkeypatch, capsys) -> None:
    monkeypatch.setattr(memory, "available_memory", lambda: MemoryAvailable(0, "a test limit"))
    assert main(["solve", "kuhn", "--quiet"]) == 1
    assert main(["solve", "kuhn", "--quiet", "--force"]) == 0


def _limited(args: list[str], limit: int = LIMIT_BYTES) -> subprocess.CompletedProcess[str]:
    """``python -m seqform ARGS`` with its address space capped at ``limit`` bytes."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "seqform", *args],
        preexec_fn=cap,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_a_million_cards_under_a_6_gb_limit_is_refused_not_aborted() -> None:
    # kuhn(cards=1000000) --method structured under a 6 GB limit aborted with SIGABRT and
    # no message
    done = _limited(["solve", "kuhn(cards=1000000)", "--method", "structured"])
    assert done.returncode == 1, done.stderr
    assert "RLIMIT_AS" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_memory_error_is_one_line_and_exit_1() -> None:
    # --force past the estimate: kuhn(cards=800)'s tree (5.7 million nodes) does not fit in
    # 560 MB of address space (numpy, scipy and HiGHS take about 0.4 GB of it before the
    # build; the smaller the room left, the sooner the build runs out: measured 2026-11 on
    # the 2-core machine, about 5 s under 450 to 560 MB, 9 to 15 s under 640 to 768 MB)
    done = _limited(
        ["solve", "kuhn(cards=800)", "--method", "tree", "--force", "--quiet"], 560 * 2**20
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().endswith("seqform: error: out of memory; try a smaller game")
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["compare", "ranges", "export", "exploit", "iterate"])
def test_every_command_refuses_a_tree_that_would_not_fit(command, monkeypatch, capsys) -> None:
    # Not only solve: each command that builds a built-in game's tree checks its estimate
    # first (9,984,833 nodes for leduc(ranks=13, suits=4): seqform.game.builtin.leduc).
    monkeypatch.setattr(memory, "available_memory", lambda: MemoryAvailable(2**30, "a test limit"))
    extra = {
        "export": ["--to", "npz", "unused.npz"],
        "exploit": ["--opponent", "uniform"],
        "iterate": ["--algorithm", "cfr+", "--method", "tree"],  # auto: vector CFR, no tree
    }.get(command, [])
    assert main([command, "leduc(ranks=13, suits=4)", *extra]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "9,984,833 nodes" in err
    assert "--method structured" in err and "--force" in err


# --- card abstraction: its estimate before the buckets, the abstract game and its LP -------


def test_abstraction_sizes_bound_the_built_abstract_game() -> None:
    # The bound of seqform.abstraction.sizes on Leduc 3x2 (6 cards): exact where every deal
    # path gets the buckets asked (2,3; 2,6, capped at the 5 hands left after the public
    # card), above where hands tie (2,4: Leduc's suits look alike); all 6 buckets are the
    # game itself, its 2,186 sequences.
    from seqform.abstraction.abstract_game import abstract_game
    from seqform.abstraction.buckets import card_abstraction
    from seqform.abstraction.sizes import counted_size
    from seqform.game.builtin.leduc import leduc_structured

    game = leduc_structured(3, 2)
    for counts, made in (((2, 3), 1_290), ((2, 6), 2_130), ((2, 4), 1_290), ((6, 6), 2_186)):
        built = abstract_game(game, card_abstraction(game, counts))
        assert sum(table.num_sequences for table in built.tables) == made
        bound = counted_size(game, counts)
        assert bound.abstract == made if counts != (2, 4) else bound.abstract == 1_710
        assert bound.sequences == 2_186


@pytest.mark.parametrize("suit_isomorphism", [False, True], ids=["deal-paths", "canonical"])
def test_rhode_islands_formula_is_the_count_on_its_public_tree(suit_isomorphism) -> None:
    # planned_size (formula, nothing built) against counted_size on the built description
    from seqform.abstraction.sizes import counted_size, planned_size
    from seqform.game.builtin.registry import load_structured_game
    from seqform.structured.reductions.suit_classes import canonical_boards

    spec, counts = "rhode_island(ranks=3, suits=2)", (2, 3, 6)
    game = load_structured_game(spec)
    played = canonical_boards(game).canonical if suit_isomorphism else game
    assert planned_size(spec, counts, suit_isomorphism) == counted_size(played, counts)


def test_the_52_card_abstraction_sizes_are_the_ladders() -> None:
    # docs/abstraction.md: 160,171 and 1,277,661 abstract sequences a player on canonical
    # boards (1,1,1 and 2,4,8); 1,303,131 public sequences a player on every deal path
    from seqform.abstraction.sizes import planned_size

    for counts, each in (((1, 1, 1), 160_171), ((2, 4, 8), 1_277_661)):
        assert planned_size("rhode_island", counts, True).abstract == 2 * each  # type: ignore[union-attr]
    assert planned_size("rhode_island", (1, 1, 1)).abstract == 2 * 1_303_131  # type: ignore[union-attr]


def test_card_buckets_on_the_52_card_game_are_refused_before_its_build(monkeypatch, capsys) -> None:
    # `solve rhode_island --card-buckets 3,6,12` ran with no word of memory (its ladder's
    # canonical-board run peaked at 9.5 GB, docs/abstraction.md); now the formula refuses it
    # before the description (a minute to build) is made.
    from seqform.abstraction import solve as abstraction_solve

    def not_built(*args, **kwargs):
        raise AssertionError("built before the refusal")

    monkeypatch.setattr(abstraction_solve, "_structured_game", not_built)
    monkeypatch.setattr(memory, "available_memory", lambda: MemoryAvailable(2**32, "a test limit"))
    assert main(["solve", "rhode_island", "--card-buckets", "3,6,12"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "31,231,262 abstract sequences" in err and "the game 130,320,322" in err
    assert "(estimated), more than the 4.0 GB that a test limit leaves" in err
    assert err.rstrip().endswith("--force (force=True) to try anyway")


def test_card_buckets_are_refused_before_the_buckets_are_made(monkeypatch) -> None:
    from seqform.abstraction import solve as abstraction_solve

    def not_made(*args, **kwargs):
        raise AssertionError("bucketed before the refusal")

    monkeypatch.setattr(abstraction_solve, "card_abstraction", not_made)
    monkeypatch.setattr(memory, "available_memory", lambda: MemoryAvailable(2**20, "a test limit"))
    with pytest.raises(MemoryRefusedError, match=r"^leduc\(ranks=13, suits=4\): the card abs"):
        abstraction_solve.abstract("leduc(ranks=13, suits=4)", "3,9")


def test_force_takes_card_buckets_past_the_estimate(monkeypatch, capsys) -> None:
    monkeypatch.setattr(memory, "available_memory", lambda: MemoryAvailable(0, "a test limit"))
    argv = ["solve", "leduc(ranks=2, suits=2)", "--card-buckets", "1,2", "--quiet"]
    assert main(argv) == 1
    assert main([*argv, "--force"]) == 0
