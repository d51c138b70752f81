"""A blueprint matched onto a game's tables: the one check of a blueprint on both re-solving
paths (the tree's :func:`seqform.resolving.resolve.resolve` and the structured
:func:`seqform.resolving.structured_resolve.resolve_structured`, and the command line's
:mod:`seqform.resolving.paths`), so that both take the same blueprints and refuse the others
with the same message."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from seqform.forms.strategies import (
    BehaviouralStrategy,
    behaviour_from_mapping,
    behaviour_with_reach,
)
from seqform.game.model import Game
from seqform.game.public.numbering import structured_tables
from seqform.game.public.tree import StructuredGame
from seqform.game.sequences import PlayerSequences
from seqform.resolving.subgames import ResolveError

__all__ = ["blueprint_on"]


def blueprint_on(
    game: Game | StructuredGame, blueprint: Sequence[BehaviouralStrategy | Mapping[str, Any]]
) -> tuple[BehaviouralStrategy, BehaviouralStrategy]:
    """The blueprint as strategies of ``game``'s tables (a structured game's
    :func:`~seqform.game.public.numbering.structured_tables`), matched by information-set
    name; the one check of a blueprint on both re-solving paths.

    A strategy already on tables with the same information sets and actions is taken as it
    is (its unreached information sets marked again,
    :func:`~seqform.forms.strategies.behaviour_with_reach`): a structured game's tables
    compare as arrays, so a blueprint of millions of information sets is not read one by
    one.

    Raises
    ------
    ResolveError
        For a blueprint that is not both players' strategies of ``game``, naming the player.
    """
    if len(blueprint) != 2:
        raise ResolveError(f"blueprint: need both players' strategies, got {len(blueprint)}")
    tables = game.flat.tables if isinstance(game, Game) else structured_tables(game)
    strategies = []
    for player, given in enumerate(blueprint):
        table = tables[player]
        if isinstance(given, BehaviouralStrategy) and _same_labels(given.table, table):
            strategies.append(behaviour_with_reach(table, given.probabilities))
            continue
        mapping = given.as_dict() if isinstance(given, BehaviouralStrategy) else given
        try:
            strategies.append(behaviour_from_mapping(table, mapping))
        except (KeyError, ValueError) as exc:
            said = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc  # unquoted
            raise ResolveError(
                f"blueprint of player {player + 1} for {game.name}: {said}"
            ) from None
    return strategies[0], strategies[1]


def _same_labels(given: PlayerSequences, table: PlayerSequences) -> bool:
    """Whether ``given`` has ``table``'s information sets and actions, in its order."""
    if given is table:
        return True
    return (
        given.player == table.player
        and given.num_sequences == table.num_sequences
        and given.infosets == table.infosets
        and given.actions == table.actions
    )
