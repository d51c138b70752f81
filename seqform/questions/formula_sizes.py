"""A built-in game's or a hold'em spot's sizes without its tree, for ``compare --no-solve``
(:func:`known_sizes`): by the game's formulas where it has them (Rhode Island hold'em, whose
full deck's public tree takes minutes to number), else from its public tree × private hands
(:func:`seqform.questions.compare.compare_sizes`; a spot by :func:`spot_sizes`).

The text and JSON (schema ``seqform.compare-sizes/2``) are written by
:mod:`seqform.documents.compare` and :mod:`seqform.documents.text.compare_sizes`.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

from seqform.base.arguments import require_count
from seqform.base.counts import Count, count_at_most, count_product
from seqform.forms.normal_counts import DEFAULT_MAX_ENTRIES
from seqform.game.builtin.rhode_island_sizes import SuitReducedSizes
from seqform.questions.compare import StructuredSizes, compare_sizes

__all__ = ["SMALL_TREE_NODES", "FormulaSizes", "known_sizes", "sizes_without_tree", "spot_sizes"]

SMALL_TREE_NODES = 50_000
"""A built-in game whose tree has at most this many nodes (by its formula,
:func:`~seqform.game.builtin.registry.builtin_tree_nodes`) is sized from its tree by
``compare --no-solve``: it builds in well under a second (``leduc(ranks=4)``, 26,049 nodes,
0.25 s), and the tree's report has what the public tree's has not (its terminal histories,
the build's time): Kuhn and Leduc as a course shows them."""


@dataclass(frozen=True)
class FormulaSizes:
    """Both formulations' sizes of a built-in game counted by its formulas, with neither its
    tree nor its public tree built (:mod:`seqform.game.builtin.rhode_island_sizes`: the full
    Rhode Island hold'em in a second, where numbering its public tree takes minutes).

    name, description, player_names : the game's, as its structured description has them
    infosets, sequences : per player, exact
    pure, reduced : per player, pure and reduced pure strategies, exact up to 1,000 digits,
        else by their logarithm (:class:`~seqform.base.counts.LogCount`)
    payoff_nonzeros : ``nnz(A)``, exact
    tree_nodes : the tree's nodes, exact
    max_entries : the normal-form size limit used
    suit_reduction : the sizes at each step of the lossless suit reduction
        (:mod:`seqform.structured.reductions.suit_reduction`), by formula
    published_rows : the LP rows a paper gives for this game, named by its step
        (Gilpin and Sandholm's for the full game), else empty
    """

    name: str
    description: str
    player_names: tuple[str, str]
    infosets: tuple[int, int]
    sequences: tuple[int, int]
    pure: tuple[Count, Count]
    reduced: tuple[Count, Count]
    payoff_nonzeros: int
    tree_nodes: int
    max_entries: int
    suit_reduction: SuitReducedSizes | None = None
    published_rows: tuple[tuple[str, int], ...] = ()

    def constraint_nonzeros(self, player: int) -> int:
        """``nnz(E)`` (player 0) or ``nnz(F)``, as :meth:`StructuredSizes.constraint_nonzeros`."""
        return 1 + self.infosets[player] + (self.sequences[player] - 1)

    @property
    def sequence_lp(self) -> tuple[int, int, int]:
        """Variables, constraints and non-zeros of the merged min-max LP."""
        variables = self.sequences[0] + self.infosets[1] + 1
        constraints = self.sequences[1] + self.infosets[0] + 1
        nonzeros = self.payoff_nonzeros + self.constraint_nonzeros(0) + self.constraint_nonzeros(1)
        return variables, constraints, nonzeros

    def shape(self, reduced: bool) -> tuple[Count, Count]:
        """The normal-form matrix shape, full or reduced."""
        return self.reduced if reduced else self.pure

    def entries(self, reduced: bool) -> Count:
        """The normal-form matrix entries, full or reduced (exact or by logarithm)."""
        return count_product(*self.shape(reduced))

    def fits(self, reduced: bool) -> bool:
        """Whether the normal form, full or reduced, is within :attr:`max_entries`."""
        return count_at_most(self.entries(reduced), self.max_entries)


def _rhode_island_formula_sizes(parameters: dict[str, Any], max_entries: int) -> FormulaSizes:
    """:class:`FormulaSizes` of ``rhode_island(**parameters)``."""
    from seqform.game.builtin.rhode_island import rhode_island_description, rhode_island_name
    from seqform.game.builtin.rhode_island_sizes import (
        published_lp_rows,
        rhode_island_counts,
        rhode_island_suit_reduced_sizes,
    )

    try:
        bound = inspect.signature(rhode_island_counts).bind(**parameters)
    except TypeError as error:
        raise ValueError(f"rhode_island: {error}") from None
    bound.apply_defaults()
    given = bound.arguments
    counts = rhode_island_counts(**given)
    ranks, suits, max_bets = given["ranks"], given["suits"], given["max_bets"]
    return FormulaSizes(
        name=rhode_island_name(**{**given, "bets": tuple(given["bets"])}),
        description=rhode_island_description(ranks, suits),
        player_names=("Player 1", "Player 2"),
        infosets=counts.sizes.infosets,
        sequences=counts.sizes.sequences,
        pure=counts.pure,
        reduced=counts.reduced,
        payoff_nonzeros=counts.payoff_nonzeros,
        tree_nodes=counts.sizes.tree_nodes,
        max_entries=max_entries,
        suit_reduction=None if suits == 1 else rhode_island_suit_reduced_sizes(**given),
        published_rows=published_lp_rows(ranks, suits, max_bets),
    )


def sizes_without_tree(
    spec: str, *, max_entries: int = DEFAULT_MAX_ENTRIES, force: bool = False
) -> StructuredSizes | FormulaSizes:
    """The sizes of the built-in game ``spec`` without its tree (``compare --no-solve``,
    :func:`known_sizes`): by formula where the game has one (Rhode Island hold'em:
    :class:`FormulaSizes`, in a second for the full deck), else counted from its public tree
    × private hands (:func:`compare_sizes`), refused first when those tables would not fit
    in memory.

    Raises
    ------
    ValueError
        If ``spec`` is not a built-in game with a structured description, or its parameters
        are out of range.
    seqform.routes.sizing.memory.MemoryRefusedError
        If numbering its public tree would not fit in memory and not ``force``.
    """
    from seqform.game.builtin.registry import load_structured_game, parse_game_spec
    from seqform.routes.policy import refuse_structured_beyond_memory

    max_entries = require_count("max_entries", max_entries, minimum=1)
    name, parameters = parse_game_spec(spec)
    if name == "rhode_island":
        return _rhode_island_formula_sizes(parameters, max_entries)
    if not force:
        refuse_structured_beyond_memory(spec)
    return compare_sizes(load_structured_game(spec), max_entries=max_entries)


def spot_sizes(
    path: str, *, max_entries: int = DEFAULT_MAX_ENTRIES, force: bool = False
) -> StructuredSizes:
    """The sizes of the hold'em spot file ``path`` from its public tree × combos, without
    its tree (``compare --no-solve``; a flop's tree has billions of nodes).

    As ``solve`` does, a spot whose public numbering would not fit is refused from its
    betting's counts before its public tree is built, unless ``force``; and its structured
    LP is built, for the non-zeros of its payoff part, only where ``solve`` would build it
    (:func:`~seqform.structured.lp_size.estimate_lp_size` within
    :data:`~seqform.holdem.lp_work.SPOT_LP_VARIABLES`, or ``force``): a narrow flop's took
    over 150 s and 4.9 GB, the rest of its sizes about 30 s.  The counts are the
    structured route's: equal to the tree's but where a turn and river leave one player no
    live combo (ranges of two combos), whose opponent's sets there the tree does not have.

    Raises
    ------
    SpotFileError, CardError
        For a file that is not a spot, naming the file and the key.
    seqform.routes.sizing.memory.MemoryRefusedError
        If its public numbering would not fit in memory and not ``force``.
    """
    from seqform.holdem import SPOT_LP_VARIABLES, read_spot, spot_game
    from seqform.routes.policy import NUMBERING_WAY_OUT
    from seqform.routes.sizing.memory import MemoryRefusedError, check_memory
    from seqform.routes.sizing.spots import spot_numbering_estimate
    from seqform.structured.lp_size import estimate_lp_size

    max_entries = require_count("max_entries", max_entries, minimum=1)
    spot = read_spot(path)
    if not force:
        try:
            check_memory(spot_numbering_estimate(spot), NUMBERING_WAY_OUT)
        except MemoryRefusedError as refused:
            raise MemoryRefusedError(f"{path}: {refused}") from None
    game = spot_game(spot)
    built = force or estimate_lp_size(game).variables <= SPOT_LP_VARIABLES
    return compare_sizes(game, max_entries=max_entries, structured_lp=built)


def known_sizes(
    spec: str, *, max_entries: int = DEFAULT_MAX_ENTRIES, force: bool = False
) -> StructuredSizes | FormulaSizes | None:
    """The sizes of ``spec`` without its tree where they are known (``compare --no-solve``):
    a hold'em spot file, by :func:`spot_sizes`; a built-in game with a structured
    description that takes its parameters, by :func:`sizes_without_tree` (Leduc 13×4 in 4 s
    and 130 MB, where its tree takes minutes and 3.4 GB); None for any other game (a file, a
    game with a tree only, parameters only its tree takes: ``leduc(suit_isomorphism=True)``),
    whose sizes need its tree, and for a game whose tree is small
    (:data:`SMALL_TREE_NODES`), whose tree's report says more.

    Raises
    ------
    seqform.routes.sizing.memory.MemoryRefusedError
        As :func:`sizes_without_tree`.
    """
    from seqform.game.builtin.registry import (
        STRUCTURED_GAMES,
        builtin_tree_nodes,
        parse_game_spec,
    )
    from seqform.game.errors import GameParameterError, UnknownGameError
    from seqform.holdem import is_spot_file

    max_entries = require_count("max_entries", max_entries, minimum=1)
    if is_spot_file(spec):
        return spot_sizes(spec, max_entries=max_entries, force=force)
    try:
        name, _ = parse_game_spec(spec)
    except ValueError:  # not a built-in game's name: a file, or a spec the tree reads
        return None
    if name not in STRUCTURED_GAMES:
        return None
    nodes = builtin_tree_nodes(spec)
    if nodes is not None and nodes <= SMALL_TREE_NODES:
        return None
    try:
        return sizes_without_tree(spec, max_entries=max_entries, force=force)
    except (GameParameterError, UnknownGameError):  # the tree's parameters, or its refusal
        return None
