"""The strategies of a play session: the bot's equilibrium and what plays for the human
(``auto``).

On Kuhn poker a strategy is a :data:`Behaviour`, information set -> float probabilities in the
set's action order (``p`` then ``b``), which is what sampling a move needs; ``auto`` is a
name of :data:`STRATEGY_NAMES` or a strategy file.  On a hold'em spot, Leduc and Rhode Island
hold'em it is a float :class:`~seqform.forms.strategies.BehaviouralStrategy` on the public
tree's information sets, and ``auto`` a name of :data:`SPOT_STRATEGY_NAMES` or a strategy
file.  A file is read by :mod:`seqform.io.strategy_files` (any strategy document seqform
writes: solve, iterate, resolve with or without ``--off-tree``, an abstraction's lifted
strategies), and a document of another game than the one played is refused
(:func:`~seqform.io.document_game.check_document_game`).

Which ``auto`` is a file (:func:`names_a_file`): a strategy's name first; otherwise one with
a path separator, a suffix (``.json``, ``.txt``) or naming something that exists is a file,
and one that cannot be read (missing, a directory) is refused as a file is, with the
``OSError`` that ``exploit --strategy`` meets (``cannot read 'x.json': No such file or
directory``, exit 1); anything else is an unknown name (:class:`UnknownStrategyError`, a
usage error).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from seqform.forms.strategies import BehaviouralStrategy, behaviour_from_mapping
from seqform.game.model import Game
from seqform.game.public.tree import StructuredGame
from seqform.game.sequences import PlayerSequences
from seqform.io.strategy_files import check_strategy_file_game, read_strategy_file
from seqform.routes.options import OptionsError

__all__ = [
    "SPOT_STRATEGY_NAMES",
    "STRATEGY_NAMES",
    "Behaviour",
    "UnknownStrategyError",
    "behaviour_from_file",
    "behaviour_table",
    "check_auto_game",
    "check_spot_strategy",
    "check_strategy",
    "load_strategy",
    "named_strategy",
    "names_a_file",
    "spot_strategy",
]


class UnknownStrategyError(OptionsError):
    """``auto`` names no strategy this game has: a usage error (exit 2 on the command line),
    as every bad option is, with the known names in the message."""


Behaviour = dict[str, tuple[float, ...]]
"""Information-set name -> action probabilities, in the information set's action order."""

STRATEGY_NAMES: dict[str, str] = {
    "equilibrium": "the LP's equilibrium for your seat (the bot plays the other half)",
    "always-bet": "bets, and calls every bet",
    "check-fold": "checks, and folds to every bet",
    "random": "every action with equal probability",
    # The named opponents of seqform.questions.exploit (3-card Kuhn only), defined there:
    "never-bluff": "bets only with K; calls with Q and K (seqform.questions.exploit)",
    "always-bluff": "bets with every card; calls with Q and K (seqform.questions.exploit)",
    "calling-station": "never bets, always calls (seqform.questions.exploit)",
}
_EXPLOIT_NAMES = ("never-bluff", "always-bluff", "calling-station")

SPOT_STRATEGY_NAMES: dict[str, str] = {
    "equilibrium": "the LP's equilibrium for your seat (the bot plays the other half)",
    "always-bet": "bets the smallest size, and calls every bet",
    "check-fold": "checks, and folds to every bet",
    "calling-station": "never bets or raises, always calls",
    "random": "every action with equal probability",
}
"""The strategies ``auto`` names on a hold'em spot."""


def behaviour_table(strategy: BehaviouralStrategy) -> Behaviour:
    """A strategy as :data:`Behaviour`: float probabilities in each set's action order."""
    table = strategy.table
    return {
        name: tuple(float(strategy.probabilities[s]) for s in table.sequences_of(index))
        for index, name in enumerate(table.infosets)
    }


def names_a_file(spec: str) -> bool:
    """Whether ``auto``, when it is no strategy's name, names a file: it has a path
    separator (``/``, or the system's), a suffix (``x.json``, ``profile.txt``), or names
    something that exists (a file; a directory, which cannot be read).  A strategy's name
    has none of these, so such a ``spec`` that cannot be read is refused as a file, never
    as an unknown name (module docstring)."""
    if not spec:
        return False
    separators = {"/", os.sep} | ({os.altsep} if os.altsep else set())
    path = Path(spec)
    return any(mark in spec for mark in separators) or path.suffix != "" or path.exists()


def _check_readable(path: str) -> None:
    """Raise the ``OSError`` reading the file ``path`` meets (missing, a directory, not
    permitted), naming ``path``; the file is read in full later."""
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    with open(path, "rb"):
        pass


def check_strategy(spec: str) -> None:
    """Raise unless ``spec`` is one of :data:`STRATEGY_NAMES` or a file that can be opened
    (:func:`names_a_file`; read later, by :func:`behaviour_from_file`).

    Raises
    ------
    UnknownStrategyError
        For a ``spec`` that is neither a name nor a file (a usage error).
    OSError
        For a file (:func:`names_a_file`) that cannot be read, naming it.
    """
    if spec in STRATEGY_NAMES:
        return
    if not names_a_file(spec):
        raise _unknown(spec)
    _check_readable(spec)


def _unknown(name: str) -> UnknownStrategyError:
    return UnknownStrategyError(
        f"unknown strategy {name!r}; choose one of {', '.join(STRATEGY_NAMES)} or give a JSON file"
    )


def check_auto_game(spec: str, game: Game | StructuredGame) -> None:
    """Refuse a strategy file ``spec`` that is a document of another game than ``game``
    (:func:`~seqform.io.document_game.check_strategy_file_game`), before the game is
    solved; a strategy's name passes (it is checked by :func:`check_strategy` or
    :func:`check_spot_strategy`), and the file is read in full once the game is solved.

    Raises
    ------
    StrategyFileError
        (a ``ValueError``) If the file is not JSON, or is a document of another game.
    OSError
        If the file cannot be read.
    """
    if spec in STRATEGY_NAMES or spec in SPOT_STRATEGY_NAMES or not names_a_file(spec):
        return
    check_strategy_file_game(spec, game, "played")


def named_strategy(
    name: str, game: Game, table: PlayerSequences, equilibrium: Behaviour
) -> Behaviour:
    """The strategy called ``name`` (a key of :data:`STRATEGY_NAMES`) on ``table``'s infosets.

    ``never-bluff``, ``always-bluff`` and ``calling-station`` are the named opponents of
    :func:`seqform.questions.exploit.named_opponent`, so that ``play`` and ``exploit`` mean the same
    player by the same name; they exist for 3-card Kuhn only.

    Raises
    ------
    UnknownStrategyError
        (a ``ValueError``) For an unknown name (the message lists the known ones), or one of
        the exploit names in a Kuhn game with other than 3 cards.
    """
    if name not in STRATEGY_NAMES:
        raise _unknown(name)
    if name in _EXPLOIT_NAMES:
        from seqform.questions.exploit import named_opponent

        try:
            exact = named_opponent(game, name, table.player)
        except ValueError as exc:
            raise UnknownStrategyError(
                f"strategy {name!r} is defined for Kuhn poker with 3 cards only; "
                "give a JSON file instead"
            ) from exc
        return behaviour_table(exact)
    strategy: Behaviour = {}
    for index, infoset in enumerate(table.infosets):
        actions = table.actions[index]
        if name == "equilibrium":
            strategy[infoset] = equilibrium[infoset]
        elif name == "always-bet":
            strategy[infoset] = tuple(float(a == "b") for a in actions)
        elif name == "check-fold":
            strategy[infoset] = tuple(float(a == "p") for a in actions)
        else:  # random
            strategy[infoset] = tuple(1.0 / len(actions) for _ in actions)
    return strategy


def behaviour_from_file(path: str | Path, game: Game, table: PlayerSequences) -> Behaviour:
    """The strategy of ``table``'s player in a strategy file (:mod:`seqform.io.strategy_files`:
    ``{infoset: {action: probability}}`` with actions as labels or words, or a solve JSON
    document); the other player's information sets are ignored.

    Raises
    ------
    StrategyFileError
        (a ``ValueError``) If the file is not a complete, valid strategy of that player.
    OSError
        If the file cannot be read.
    """
    read = read_strategy_file(path, game, table.player, same_game="played")
    return {
        name: tuple(float(p) for p in read.probabilities[name].values()) for name in table.infosets
    }


def load_strategy(
    spec: str, game: Game, table: PlayerSequences, equilibrium: Behaviour
) -> Behaviour:
    """A strategy by name (:data:`STRATEGY_NAMES`) or, if ``spec`` is a file
    (:func:`names_a_file`), from JSON; an ``OSError`` when that file cannot be read."""
    if spec in STRATEGY_NAMES:
        return named_strategy(spec, game, table, equilibrium)
    if names_a_file(spec):
        return behaviour_from_file(spec, game, table)
    return named_strategy(spec, game, table, equilibrium)  # raises, listing the names


def _named_row(name: str, actions: tuple[str, ...]) -> dict[str, float]:
    """One information set's probabilities under the named strategy ``name``."""
    sized = [a for a in actions if a[0] in "br"]
    if name == "random":
        pick = list(actions)
    elif name == "always-bet":
        pick = [a for a in actions if a == "c"] or sized[:1] or ["x"]
    elif name == "check-fold":
        pick = [a for a in actions if a in ("x", "f")]
    else:  # calling-station
        pick = [a for a in actions if a in ("x", "c")]
    return {a: (1.0 / len(pick) if a in pick else 0.0) for a in actions}


def check_spot_strategy(spec: str) -> None:
    """Raise unless ``spec`` is one of :data:`SPOT_STRATEGY_NAMES` or a file that can be
    opened (:func:`names_a_file`; read later, by :func:`spot_strategy`).

    Raises
    ------
    UnknownStrategyError
        For a ``spec`` that is neither a name nor a file (a usage error).
    OSError
        For a file (:func:`names_a_file`) that cannot be read, naming it.
    """
    if spec in SPOT_STRATEGY_NAMES:
        return
    if names_a_file(spec):
        _check_readable(spec)
    else:
        raise UnknownStrategyError(
            f"unknown strategy {spec!r} for a spot, Leduc or Rhode Island; choose one of "
            f"{', '.join(SPOT_STRATEGY_NAMES)} or give a strategy file"
        )


def spot_strategy(
    spec: str, game: StructuredGame, table: PlayerSequences, equilibrium: BehaviouralStrategy
) -> BehaviouralStrategy:
    """The strategy called ``spec`` (a key of :data:`SPOT_STRATEGY_NAMES`) on ``table``, or
    read from the strategy file ``spec`` (a document of ``game``, or ``{infoset: {action:
    probability}}`` naming ``table``'s information sets).

    Raises
    ------
    UnknownStrategyError
        For another name (:func:`check_spot_strategy`).
    OSError
        For a file (:func:`names_a_file`) that cannot be read.
    StrategyFileError
        (a ``ValueError``) For a file that is not a complete strategy of ``table``'s player
        in ``game``, or a document of another game.
    OSError
        If the file cannot be read.
    """
    check_spot_strategy(spec)
    name = spec
    if name not in SPOT_STRATEGY_NAMES:
        read = read_strategy_file(spec, game, table.player, same_game="played")
        return behaviour_from_mapping(
            table,
            {
                infoset: {action: float(p) for action, p in row.items()}
                for infoset, row in read.probabilities.items()
            },
        )
    if name == "equilibrium":
        return equilibrium
    mapping = {
        infoset: _named_row(name, actions)
        for infoset, actions in zip(table.infosets, table.actions, strict=True)
    }
    return behaviour_from_mapping(table, mapping)
