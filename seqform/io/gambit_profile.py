"""Behaviour profiles in Gambit's form: both players' strategies as one line of numbers.

Gambit's command-line solvers (``gambit-lcp``, ``gambit-lp``, ``gambit-enumpoly``, ...)
print each equilibrium of an extensive game as one line,

    NE,p1,p2,...,pn

the behaviour probability ``b(a | h)`` of every action of every information set: player 1's
information sets first, then player 2's, each player's in Gambit's order of the game, and
at each information set its actions in order (chance moves are not part of a profile).
pygambit builds the same profile from the nested list ``[player][infoset][action]``
(``Game.mixed_behavior_profile(data=...)``; the README shows the few lines).

The game is the ``.efg`` that ``seqform export GAME --to efg`` writes.  Gambit numbers a
player's information sets in the order a depth-first walk of that file's tree (children
in order) first meets them, which is the order of seqform's own information-set tables
(:mod:`seqform.game.compiled`), and a player's sequences follow their information sets
(:mod:`seqform.game.sequences`).  So the line is each player's behavioural probabilities in
sequence order, empty sequence left out; the tests check the order against pygambit's.

Numbers are written as Gambit prints them: a rational ``p/q`` for an exact strategy, a
decimal (Python's shortest round-trip form, 17 significant digits at most) otherwise.  A
line is read back by the one strategy-file reader (:mod:`seqform.io.strategy_files`), which
accepts the ``NE,`` prefix or a line of numbers alone, and checks and rescales each
information set as it does for every strategy file.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from seqform.forms.strategies import BehaviouralStrategy
from seqform.game.model import Game
from seqform.io.json_input import StrategyFileError

__all__ = ["PREFIX", "gambit_profile_text", "is_gambit_profile", "profile_mapping"]

PREFIX = "NE"
"""What Gambit's solvers print before the numbers of an equilibrium."""

_NUMBER = r"\s*[-+]?[0-9./eE+-]+\s*"
_LINE = re.compile(rf"^\s*(?:{PREFIX}\s*,)?{_NUMBER}(?:,{_NUMBER})+$")


def _number(value: float | Fraction) -> str:
    if isinstance(value, Fraction):
        return str(value)
    return repr(float(value))


def gambit_profile_text(strategies: Sequence[BehaviouralStrategy]) -> str:
    """Both players' behavioural strategies as Gambit's ``NE,p1,...,pn`` line.

    Parameters
    ----------
    strategies
        Player 1's and player 2's strategies, float or exact (as a solve returns them).

    Returns
    -------
    str
        One line, ending in a newline, for the ``.efg`` of ``seqform export --to efg``.
    """
    if [strategy.player for strategy in strategies] != [0, 1]:
        raise ValueError("a Gambit behaviour profile needs player 1's and player 2's strategies")
    numbers = [
        _number(strategy.probabilities[sequence])
        for strategy in strategies
        for index in range(strategy.table.num_infosets)
        for sequence in strategy.table.sequences_of(index)
    ]
    return ",".join([PREFIX, *numbers]) + "\n"


def is_gambit_profile(text: str) -> bool:
    """Whether ``text`` is one Gambit profile line (optionally ``NE,``; blank lines around)."""
    lines = [line for line in text.splitlines() if line.strip()]
    return len(lines) == 1 and _LINE.match(lines[0]) is not None


def profile_mapping(text: str, game: Game, player: int, where: str) -> dict[str, dict[str, str]]:
    """``{infoset: {action: number text}}`` of ``player`` (0 or 1) from a profile line of
    ``game`` (which holds both players' strategies).

    The numbers are left as text for :func:`seqform.io.json_input.parse_probability`, which
    the strategy-file reader applies with the information set named.

    Raises
    ------
    StrategyFileError
        If the line holds another count of numbers than ``game`` has actions at its
        information sets.
    """
    line = next(line for line in text.splitlines() if line.strip())
    fields = [field.strip() for field in line.split(",")]
    if fields[0] == PREFIX:
        fields = fields[1:]
    tables = game.flat.tables
    counts = [table.num_sequences - 1 for table in tables]
    if len(fields) != sum(counts):
        raise StrategyFileError(
            f"{where}: a Gambit behaviour profile of {game.name} has {sum(counts)} "
            f"probabilities ({counts[0]} of player 1, then {counts[1]} of player 2, in the order "
            f"of 'seqform export --to efg'), this one has {len(fields)}"
        )
    numbers = iter(fields[counts[0] :] if player == 1 else fields)
    table = tables[player]
    return {
        name: {action: next(numbers) for action in table.actions[index]}
        for index, name in enumerate(table.infosets)
    }
