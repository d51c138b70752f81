"""Which game a sequence form or a behavioural strategy belongs to, checked in one place.

A :class:`~seqform.forms.sequence_form.SequenceForm` and a
:class:`~seqform.forms.strategies.BehaviouralStrategy` are numbered by the sequences of the
game they were built from (:mod:`seqform.game.compiled`).  Handed to another game, their
indices still fit into arrays of the right type, so the numbers come out, wrong, without an
error: Leduc's form solved "for Kuhn" gives Leduc's value.  Every entry point that accepts a
form or strategies asks here first.

The fingerprint compared is what the numbering depends on: per player, the information-set
labels and their action labels, in index order (the label tables,
:class:`~seqform.game.sequences.PlayerSequences`); for a form also the number of players and
the terminals' chance probabilities and payoffs, since two trees with the same labels and
other payoffs have other matrices.  A form or strategy built from the very same game object
passes at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_mapping
from seqform.game.model import Game
from seqform.game.sequences import PlayerSequences

if TYPE_CHECKING:
    from seqform.forms.sequence_form import SequenceForm

__all__ = ["require_strategy_of", "sequence_form_of"]


def _table_difference(given: PlayerSequences, expected: PlayerSequences) -> str | None:
    """How ``given``'s labels differ from ``expected``'s, or ``None`` if they agree."""
    if given is expected:
        return None
    if given.infosets == expected.infosets and given.actions == expected.actions:
        return None
    known = expected.index_of_infoset()
    for name, actions in zip(given.infosets, given.actions, strict=False):
        if name not in known:
            return (
                f"it has information set {name!r}, which the game's player {expected.player} lacks"
            )
        wanted = expected.actions[known[name]]
        if actions != wanted:
            return (
                f"at information set {name!r} it has actions {list(actions)}, the game "
                f"{list(wanted)}"
            )
    return (
        f"it has {given.num_infosets} information sets, the game's player {expected.player} "
        f"{expected.num_infosets}"
    )


def _same_terminals(first: Game, second: Game) -> bool:
    one, other = first.flat, second.flat
    return (
        np.array_equal(one.terminal_reach, other.terminal_reach)
        and np.array_equal(one.terminal_payoff, other.terminal_payoff)
        and one.terminal_payoffs_exact == other.terminal_payoffs_exact
    )


def sequence_form_of(game: Game, form: Any = None, argument: str = "form") -> SequenceForm:
    """``form`` once checked to be ``game``'s sequence form; built from ``game`` if ``None``.

    Raises
    ------
    TypeError
        If ``form`` is neither ``None`` nor a :class:`SequenceForm`, naming ``argument``.
    ValueError
        If ``form`` was built from another game (module docstring), naming ``argument``,
        both games and the first difference.
    """
    # imported here: ``import seqform`` loads this module (through ``certify``) and must
    # not pay for scipy before a form is needed
    from seqform.forms.sequence_form import SequenceForm, build_sequence_form

    if form is None:
        return build_sequence_form(game)
    if not isinstance(form, SequenceForm):
        raise TypeError(
            f"{argument} must be a SequenceForm (build_sequence_form(game)), not "
            f"{type(form).__name__}"
        )
    if form.game is game:
        return form
    problem = _form_difference(form, game)
    if problem is not None:
        raise ValueError(
            f"{argument} is the sequence form of {form.game.name!r}, not of {game.name!r}: "
            f"{problem}; build it with build_sequence_form(game)"
        )
    return form


def _form_difference(form: SequenceForm, game: Game) -> str | None:
    tables = game.flat.tables
    if len(tables) != 2:
        return f"{game.name!r} has {len(tables)} players"
    for player in (0, 1):
        difference = _table_difference(form.players[player], tables[player])
        if difference is not None:
            return f"for player {player}, {difference}"
    if not _same_terminals(form.game, game):
        return "the labels agree but the terminals' probabilities or payoffs differ"
    return None


def require_strategy_of(
    game: Game, strategy: Any, argument: str, player: int | None = None
) -> BehaviouralStrategy:
    """``strategy`` once checked to be a strategy of ``player`` (by default its own player)
    in ``game``; refused naming ``argument`` otherwise.

    Raises
    ------
    TypeError
        If ``strategy`` is not a :class:`BehaviouralStrategy`.
    ValueError
        If it is another player's strategy (players swapped) or its information sets or
        actions are not those of the player in ``game``.
    """
    if isinstance(strategy, Mapping):
        strategy = _from_mapping(game, strategy, argument, player)
    if not isinstance(strategy, BehaviouralStrategy):
        raise TypeError(
            f"{argument} must be a BehaviouralStrategy or a mapping "
            f"{{infoset: {{action: probability}}}}, not {type(strategy).__name__}"
        )
    tables = game.flat.tables
    own = strategy.player
    if player is None and not 0 <= own < len(tables):
        raise ValueError(
            f"{argument} is a strategy of player {own}, but {game.name!r} has players "
            f"0 to {len(tables) - 1}"
        )
    wanted = own if player is None else player
    expected = tables[wanted]
    if strategy.table is expected:
        return strategy
    if own != wanted:
        raise ValueError(
            f"{argument} is a strategy of player {own}, but it is used for player {wanted} "
            f"of {game.name!r}: are the players swapped?"
        )
    difference = _table_difference(strategy.table, expected)
    if difference is not None:
        raise ValueError(
            f"{argument} is not a strategy of player {wanted} in {game.name!r}: {difference}"
        )
    return strategy


def _from_mapping(
    game: Game, mapping: Mapping[Any, Any], argument: str, player: int | None
) -> BehaviouralStrategy:
    """A mapping ``{infoset: {action: probability}}`` as the strategy of ``player``, or of the
    one player whose information sets it names."""
    tables = game.flat.tables
    if player is None:
        owners = [
            p
            for p, table in enumerate(tables)
            if any(k in table.index_of_infoset() for k in mapping)
        ]
        if len(owners) != 1:
            whose = "no player's" if not owners else "more than one player's"
            raise ValueError(f"{argument}: a mapping of {whose} information sets in {game.name!r}")
        player = owners[0]
    return behaviour_from_mapping(tables[player], mapping)
