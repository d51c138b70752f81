"""A built-in game's size from its parameters, before anything is built: what the route
policy (:mod:`seqform.routes.policy`) sizes the memory refusals and the ``auto`` route by.

Kuhn poker's size is computed from ``cards`` without building its deck (its public betting
tree does not depend on the deck: ``sequences = 1 + cards (S_p − 1)`` per player and
``1 + cards (cards − 1) k`` tree nodes, ``S_p`` and ``k`` read off the 2-card game);
Rhode Island hold'em's from its formula (:mod:`seqform.game.builtin.rhode_island_sizes`);
any other built-in game's from its structured description, numbered, and its node count.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from seqform.game.builtin.kuhn import kuhn_structured
from seqform.game.builtin.one_card import check_deck_size
from seqform.game.builtin.registry import (
    GAMES,
    STRUCTURED_GAMES,
    builtin_tree_nodes,
    check_tree_parameters,
    load_structured_game,
    parse_game_spec,
)
from seqform.game.builtin.rhode_island_sizes import (
    rhode_island_sizes,
    rhode_island_suit_reduced_sizes,
)
from seqform.game.errors import ParameterLimitError
from seqform.game.public.explicit import tree_nodes
from seqform.game.public.numbering import number_public_tree
from seqform.game.public.tree import StructuredGame

__all__ = ["PlannedSize", "planned_size"]


@dataclass(frozen=True)
class PlannedSize:
    """A built-in game's size, from its parameters, before its tree is built.

    tree_nodes : the tree's node count where the game can say it
        (:func:`~seqform.game.builtin.registry.builtin_tree_nodes`), else the structured
        description's bound; None when neither is known
    structured : whether the game has a structured description (the structured route)
    tree_bound : at most the tree's nodes, from the structured description
        (:func:`~seqform.game.public.explicit.tree_nodes`; the ``auto`` route compares
        :data:`~seqform.routes.policy.AUTO_TREE_NODES` with it); None without one, or when
        not asked for
    sequences : both players' sequences on the structured route; None as ``tree_bound``
    reduced_sequences : both players' sequences of the LP the structured route solves after
        the lossless suit reduction, where a formula says it without building the game
        (Rhode Island hold'em); None where unknown
    canonical_sequences : both players' sequences on canonical boards, the game vector CFR
        steps when it runs suit-reduced (:func:`~seqform.structured.reductions.suit_reduction.
        canonical_boards`), where a formula says it; None where unknown
    game : the structured description that was numbered to count ``sequences``, kept so
        that the route solves that one object rather than building and numbering a second
        (numbering is cached per game object); None when none was numbered
    """

    tree_nodes: int | None
    structured: bool = False
    tree_bound: int | None = None
    sequences: int | None = None
    reduced_sequences: int | None = None
    canonical_sequences: int | None = None
    game: StructuredGame | None = field(default=None, compare=False, repr=False)


def _kuhn_size(cards: int) -> PlannedSize:
    """Kuhn poker's sizes for ``cards`` cards, scaled from the 2-card game (module docstring)."""
    check_deck_size(cards, "kuhn")
    small = kuhn_structured(2)
    numbering = number_public_tree(small)
    pairs = cards * (cards - 1)
    public = numbering.num_public_nodes(0) + numbering.num_public_nodes(1) + numbering.num_leaves
    per_pair = (tree_nodes(small) - 1) // 2  # the 2-card game has 2 ordered deals
    sequences = sum(1 + cards * (numbering.num_public_sequences(p) - 1) for p in (0, 1))
    return PlannedSize(1 + pairs * public, True, 1 + pairs * per_pair, sequences)


def _leduc_beyond_memory(spec: str, parameters: dict[str, object]) -> PlannedSize | None:
    """Leduc's size by its formulas when its structured LP will not fit in memory, so that
    the route refuses it without numbering its public tree (eight bet sizes a round: 167
    million sequences, 78 s and 2.4 GB of building before the refusal); else None, and the
    game is built and numbered as the others are."""
    from seqform.game.builtin.leduc import leduc_sequences, leduc_sized_tree_nodes
    from seqform.routes.sizing.memory import MemoryRefusedError, check_memory, structured_estimate

    parameters = dict(parameters)  # suit_isomorphism=False, the tree's default: the same game
    if parameters.pop("suit_isomorphism", False) is not False:  # a tree only: its route
        return None
    sequences = leduc_sequences(**parameters)  # type: ignore[arg-type]
    try:
        check_memory(structured_estimate(sequences), "")
    except MemoryRefusedError:
        nodes = leduc_sized_tree_nodes(**parameters)  # type: ignore[arg-type]
        return PlannedSize(nodes, True, nodes, sequences)
    return None


def _rhode_island_size(parameters: dict[str, object]) -> PlannedSize:
    """Rhode Island hold'em's sizes by formula, the suit-reduced LP's too: numbering the full
    game's public tree alone takes minutes (:mod:`seqform.game.builtin.rhode_island_sizes`)."""
    sizes = rhode_island_sizes(**parameters)  # type: ignore[arg-type]
    suit_reduced = rhode_island_suit_reduced_sizes(**parameters)  # type: ignore[arg-type]
    nodes = sizes.tree_nodes
    return PlannedSize(
        nodes,
        True,
        nodes,
        sum(sizes.sequences),
        reduced_sequences=sum(suit_reduced.reduced.sequences),
        canonical_sequences=sum(suit_reduced.canonical.sequences),
    )


def planned_size(spec: str, *, numbered: bool = True) -> PlannedSize | None:
    """What a built-in game's parameters say of its size (:class:`PlannedSize`); None for a
    spec that is not a built-in game (a file, ``openspiel:``) or that the build will refuse
    with its own message.  ``numbered=False`` (the tree's size, for the tree route) skips
    numbering the structured description (``tree_bound`` and ``sequences`` are then None)
    where the node count is known without, and is None at once for parameters the tree
    refuses (:func:`~seqform.game.builtin.registry.check_tree_parameters`: Liar's Dice
    beyond its bids, whose public tree took 2 s to number first)."""
    try:
        name, parameters = parse_game_spec(spec)
    except ValueError:
        return None
    if name not in GAMES:
        return None
    if not numbered:
        try:
            check_tree_parameters(spec)
        except ParameterLimitError:
            return None
    try:
        if name == "kuhn" and set(parameters) <= {"cards"}:
            return _kuhn_size(parameters.get("cards", 3))  # type: ignore[arg-type]
        if name == "rhode_island":
            return _rhode_island_size(parameters)
        if name == "leduc" and numbered and (beyond := _leduc_beyond_memory(spec, parameters)):
            return beyond
        structured = load_structured_game(spec) if name in STRUCTURED_GAMES else None
    except (ValueError, TypeError):
        structured = None
    nodes = builtin_tree_nodes(spec)
    if structured is None:
        return PlannedSize(nodes)
    if not numbered and nodes is not None:
        return PlannedSize(nodes, True)
    numbering = number_public_tree(structured)
    bound = tree_nodes(structured)
    sequences = numbering.num_sequences(0) + numbering.num_sequences(1)
    return PlannedSize(bound if nodes is None else nodes, True, bound, sequences, game=structured)
