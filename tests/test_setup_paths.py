"""The set-up before a run, built faster with the same arrays: each new construction is
compared with the straightforward one it replaced (``np.unique``, ...), on small games whose
structure is the same as a flop's."""

from __future__ import annotations

from dataclasses import fields, replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from spot_files import RIVER

from seqform.forms.strategies import uniform_behaviour
from seqform.game.builtin.registry import load_structured_game
from seqform.game.errors import InvalidGameError
from seqform.game.public.numbering import number_public_tree
from seqform.game.public.suits import SuitGroup
from seqform.game.public.symmetry import canonical_game, game_symmetries
from seqform.game.public.tree import (
    Hands,
    PublicChance,
    PublicDecision,
    PublicLeaf,
    Sign,
    StructuredGame,
)
from seqform.holdem.game import spot_game
from seqform.holdem.spot import read_spot
from seqform.questions import iterate_structured
from seqform.questions.iterate import iterate
from seqform.structured.reductions import suit_classes
from seqform.structured.reductions.suit_classes import canonical_boards, dense_ranks
from seqform.structured.responses import sequence_tables

SYMMETRIC = ["leduc(ranks=3, suits=2)", "leduc(ranks=4, suits=3)"]


@pytest.fixture(scope="module")
def river(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("spots") / "river.toml"
    path.write_text(RIVER)  # all four suits on the board: no canonical boards
    return path


@pytest.mark.parametrize(
    ("size", "bound", "low"),
    [(0, 4, 0), (1, 1, 0), (12, 3, -1), (1000, 50, 0), (1000, 50, -1), (5000, 10**5, -1)],
)
def test_dense_ranks_are_unique_s_inverse(size: int, bound: int, low: int) -> None:
    values = np.random.default_rng(size + bound).integers(low, bound, size)
    expected = np.unique(values, return_inverse=True)[1]
    for kind in (np.int32, np.int64):
        found = dense_ranks(values, bound, kind)
        assert found.dtype == kind
        assert np.array_equal(found, expected)


def _class_of_by_sorting(
    index: np.ndarray, representative: np.ndarray, size: int, skip: bool
) -> np.ndarray:
    """:func:`~seqform.structured.reductions.suit_classes.class_of` as it was first written:
    the classes as ``np.unique``'s inverse of each entry's representative's number."""
    target = index[representative, np.arange(index.shape[1])[None, :]]
    owner = np.full(size, -1, dtype=np.int64)
    mask = index >= 0
    if skip:
        mask[:, 0] = False
        owner[0] = 0
    owner[index[mask]] = target[mask]
    return np.unique(owner, return_inverse=True)[1]


@pytest.mark.parametrize("spec", SYMMETRIC)
def test_the_hand_classes_are_those_sorting_found(spec: str) -> None:
    boards = canonical_boards(load_structured_game(spec))
    assert boards is not None
    numbering = number_public_tree(boards.canonical)
    for player, classes in enumerate(boards.classes):
        for keys, index, size, skip, found in (
            (
                numbering.sequence_cards[player],
                numbering.sequence_index[player],
                numbering.num_sequences(player),
                True,
                classes.sequences,
            ),
            (
                numbering.node_cards[player],
                numbering.infoset_index[player],
                numbering.num_infosets(player),
                False,
                classes.infosets,
            ),
        ):
            representative = suit_classes._representatives(
                numbering, boards.symmetries, player, keys
            )
            expected = _class_of_by_sorting(index, representative, size, skip)
            assert np.array_equal(found, expected)
            assert int(found.max()) + 1 < len(found)  # some classes have several members


def _leaf_chances_by_outcome(game: StructuredGame) -> list[Fraction]:
    """Each public leaf's chance, preorder, as the walk first wrote it: the path's product
    of :meth:`~seqform.game.public.tree.PublicChance.outcome_probability`, outcome by
    outcome."""
    found: list[Fraction] = []

    def visit(node: object, chance: Fraction, cards: tuple[int, ...]) -> None:
        if isinstance(node, PublicLeaf):
            found.append(chance)
        elif isinstance(node, PublicDecision):
            for child in node.children:
                visit(child, chance, cards)
        else:
            assert isinstance(node, PublicChance)
            for i, child in enumerate(node.children):
                if node.cards[i] not in cards:
                    visit(child, chance * node.outcome_probability(i), (*cards, node.cards[i]))

    visit(game.root, Fraction(game.deal_scale), ())
    return found


@pytest.mark.parametrize("spec", SYMMETRIC)
def test_the_leaf_chances_are_the_products_outcome_by_outcome(spec: str) -> None:
    # canonical boards weigh their outcomes by multiplicities: the walk's one product per
    # chance node, scaled per outcome, must give the same exact Fractions
    game = load_structured_game(spec)
    boards = canonical_boards(game)
    assert boards is not None
    for numbered in (game, boards.canonical):
        chances = number_public_tree(numbered).leaf_chance
        assert list(chances) == _leaf_chances_by_outcome(numbered)
    assert any(m > 1 for m in _multiplicities(boards.canonical.root))


def _multiplicities(node: object) -> list[int]:
    if isinstance(node, PublicLeaf):
        return []
    found = list(getattr(node, "multiplicity", None) or ())
    for child in node.children:  # type: ignore[attr-defined]
        found += _multiplicities(child)
    return found


def _toy(root: object, hands: int = 3) -> StructuredGame:
    own = Hands(tuple(str(h) for h in range(hands)), (Fraction(1),) * hands, np.arange(hands))
    return StructuredGame("toy", (own, own), Fraction(1, 6), root, lambda g, s: s(0, 1))


def test_levels_shared_by_leaves_are_checked_for_each_player() -> None:
    # the walk checks a level array once per player (ids): one array too short for a
    # player is still refused, at the first leaf that gives it to that player
    good, short = np.arange(3), np.arange(2)
    first = PublicLeaf(Sign(Fraction(1)), (good, good))
    second = PublicLeaf(Sign(Fraction(1)), (good, short))
    game = _toy(PublicDecision(0, ("a", "b"), (first, second), ""))
    with pytest.raises(InvalidGameError, match="levels of player 2 must be >= 0, one per hand"):
        number_public_tree(game)
    negative = np.array([0, -1, 2])
    third = PublicLeaf(Sign(Fraction(1)), (negative, good))
    game = _toy(PublicDecision(0, ("a", "b"), (first, third), ""))
    with pytest.raises(InvalidGameError, match=r"public leaf after '.*b'"):
        number_public_tree(game)


def _canonical_by_copy(node: object, group: SuitGroup, board: tuple[int, ...]) -> object:
    """:func:`~seqform.game.public.symmetry.canonical_game`'s node as first written: every
    decision copied, whether or not a chance node lies below it."""
    if isinstance(node, PublicLeaf):
        return node
    if isinstance(node, PublicDecision):
        children = tuple(_canonical_by_copy(child, group, board) for child in node.children)
        return replace(node, children=children)
    assert isinstance(node, PublicChance)
    stabilizer = group.stabilizer(board)
    kept = [
        i
        for i, card in enumerate(node.cards)
        if card not in board and stabilizer.canonical(card) == card
    ]
    return PublicChance(
        label=node.label,
        outcomes=tuple(node.outcomes[i] for i in kept),
        cards=tuple(node.cards[i] for i in kept),
        probability=node.probability,
        children=tuple(
            _canonical_by_copy(node.children[i], group, (*board, node.cards[i])) for i in kept
        ),
        multiplicity=tuple(len(stabilizer.orbit(node.cards[i])) for i in kept),
    )


def _same_tree(first: object, second: object) -> bool:
    """Equal public trees: the same kinds, fields and leaves (rules and levels the same
    objects), child by child."""
    if type(first) is not type(second):
        return False
    if isinstance(first, PublicLeaf):
        return first.rule is second.rule and first.levels is second.levels  # type: ignore[attr-defined]
    names = [f.name for f in fields(first) if f.name != "children"]  # type: ignore[arg-type]
    if any(getattr(first, name) != getattr(second, name) for name in names):
        return False
    pairs = zip(first.children, second.children, strict=True)  # type: ignore[attr-defined]
    return all(_same_tree(a, b) for a, b in pairs)


@pytest.mark.parametrize("spec", SYMMETRIC)
def test_the_canonical_tree_is_the_one_copied_node_by_node(spec: str) -> None:
    game = load_structured_game(spec)
    symmetries = game_symmetries(game)
    canonical = canonical_game(game, symmetries)
    expected = _canonical_by_copy(game.root, symmetries.group, ())
    assert _same_tree(canonical.root, expected)
    assert not _same_tree(canonical.root, game.root)  # some boards were merged


@pytest.mark.parametrize(
    ("algorithm", "every"),
    [("dcfr", 7), ("pcfr+", 5)],  # pcfr+ also measures its last iterate
)
def test_the_report_s_certificate_is_the_run_s_last(
    river: Path, monkeypatch: pytest.MonkeyPatch, algorithm: str, every: int
) -> None:
    calls = []
    certify = iterate_structured.structured_certify

    def counted(*arguments: object) -> object:
        calls.append(arguments)
        return certify(*arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(iterate_structured, "structured_certify", counted)
    run = iterate(str(river), algorithm, iterations=12, every=every, reference=False)
    # a compiled run (numba) measures its averages from its own arrays (certify_run), so
    # the certificate on strategies is called for pcfr+'s last iterates alone; the numpy
    # engine's run certifies its average's strategies too; none after the run: its last
    # measurement is the report's certificate
    from seqform.structured.compiled_cfr import compiled_available

    per_sample = (1 if algorithm == "pcfr+" else 0) + (0 if compiled_available() else 1)
    assert len(calls) == len(run.result.history) * per_sample
    assert run.certificate is not None
    assert float(run.certificate.nash_conv) == run.result.history[-1].nash_conv
    first, second = run.result.strategies
    again = certify(run.game, first, second)  # the same numbers but for the order of sums
    if not compiled_available():
        assert run.certificate == again  # the strategies' own certificate, bit for bit
    assert float(run.certificate.value) == pytest.approx(float(again.value), rel=1e-12)
    for ours, theirs in zip(
        run.certificate.best_response_values, again.best_response_values, strict=True
    ):
        assert float(ours) == pytest.approx(float(theirs), rel=1e-12)
    scale = float(again.payoff_range)
    assert float(run.certificate.nash_conv) == pytest.approx(
        float(again.nash_conv), rel=1e-9, abs=1e-12 * scale
    )


def test_a_certificate_of_another_profile_is_not_reused(river: Path) -> None:
    game = spot_game(read_spot(river))
    measured = iterate_structured._Measured(game)
    tables = sequence_tables(game)
    uniform = (uniform_behaviour(tables[0]), uniform_behaviour(tables[1]))
    assert measured.of(uniform) is None  # nothing measured yet
    measured(uniform)
    copied = tuple(replace(s, probabilities=s.probabilities.copy()) for s in uniform)
    assert measured.of(copied) is not None  # equal arrays: the same profile
    moved = list(copied)
    probabilities = moved[0].probabilities.copy()
    probabilities[1:3] += np.array([0.25, -0.25])  # another mix at the first set
    moved[0] = replace(moved[0], probabilities=probabilities)
    assert measured.of(tuple(moved)) is None
