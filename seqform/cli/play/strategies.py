"""The strategies of a ``play`` session: the bot's equilibrium and what plays for ``--auto``.

A strategy here is a :data:`Behaviour`, information set -> float probabilities in the set's
action order (``p`` then ``b``), which is what sampling a move needs.  ``--auto`` takes a name
of :data:`STRATEGY_NAMES` or a strategy file, read by :mod:`seqform.io.strategy_files`.
"""

from __future__ import annotations

from pathlib import Path

from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.game.sequences import PlayerSequences
from seqform.io.strategy_files import read_strategy_file

__all__ = [
    "STRATEGY_NAMES",
    "Behaviour",
    "behaviour_from_file",
    "behaviour_table",
    "load_strategy",
    "named_strategy",
]

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


def behaviour_table(strategy: BehaviouralStrategy) -> Behaviour:
    """A strategy as :data:`Behaviour`: float probabilities in each set's action order."""
    table = strategy.table
    return {
        name: tuple(float(strategy.probabilities[s]) for s in table.sequences_of(index))
        for index, name in enumerate(table.infosets)
    }


def named_strategy(
    name: str, game: Game, table: PlayerSequences, equilibrium: Behaviour
) -> Behaviour:
    """The strategy called ``name`` (a key of :data:`STRATEGY_NAMES`) on ``table``'s infosets.

    ``never-bluff``, ``always-bluff`` and ``calling-station`` are the named opponents of
    :func:`seqform.questions.exploit.named_opponent`, so that ``play`` and ``exploit`` mean the same
    player by the same name; they exist for 3-card Kuhn only.

    Raises
    ------
    ValueError
        For an unknown name (the message lists the known ones), or one of the exploit names
        in a Kuhn game with other than 3 cards.
    """
    if name not in STRATEGY_NAMES:
        raise ValueError(
            f"unknown strategy {name!r}; choose one of {', '.join(STRATEGY_NAMES)} "
            "or give a JSON file"
        )
    if name in _EXPLOIT_NAMES:
        from seqform.questions.exploit import named_opponent

        try:
            exact = named_opponent(game, name, table.player)
        except ValueError as exc:
            raise ValueError(
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
    read = read_strategy_file(path, game, table.player)
    return {
        name: tuple(float(p) for p in read.probabilities[name].values()) for name in table.infosets
    }


def load_strategy(
    spec: str, game: Game, table: PlayerSequences, equilibrium: Behaviour
) -> Behaviour:
    """A strategy by name (:data:`STRATEGY_NAMES`) or, if ``spec`` is a file, from JSON."""
    if spec in STRATEGY_NAMES:
        return named_strategy(spec, game, table, equilibrium)
    if Path(spec).is_file():
        return behaviour_from_file(spec, game, table)
    return named_strategy(spec, game, table, equilibrium)  # raises, listing the names
