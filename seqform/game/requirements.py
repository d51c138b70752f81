"""What the two-player zero-sum routes require of a game, checked in one place.

Every :class:`~seqform.game.model.Game` is a valid tree of ``n >= 2`` players with exact
payoffs (general-sum allowed): CFR and the n-player certificate solve such games.  The
sequence form and its LP (Koller, Megiddo and von Stengel 1996), the normal form and the
exact routes need two players whose payoffs sum to zero at every terminal; they call
:func:`require_two_player_zero_sum` at their entry, which refuses any other game with
:class:`~seqform.game.errors.InvalidGameError` naming a terminal node and the reason.
"""

from __future__ import annotations

from seqform.game.checks import count_word
from seqform.game.errors import InvalidGameError
from seqform.game.model import Game
from seqform.game.nodes import history_text

__all__ = ["is_two_player_zero_sum", "require_two_player_zero_sum"]


def is_two_player_zero_sum(game: Game) -> bool:
    """True if the game has two players and every terminal's payoffs sum to zero."""
    return game.flat.num_players == 2 and game.flat.not_zero_sum < 0


def require_two_player_zero_sum(game: Game, purpose: str = "the sequence-form LP") -> None:
    """Refuse a game that is not two-player zero-sum, saying why ``purpose`` needs it.

    Raises
    ------
    InvalidGameError
        For other than two players (``"the sequence-form LP needs two players, zero-sum:
        kuhn3 is a three-player game (terminal node 'T J Q p p p' has payoffs for 3
        players); ..."``) or for a terminal whose payoffs do not sum to zero (``"not
        zero-sum: terminal node 'r' has payoffs (1, 1), which sum to 2; ..."``).
    """
    flat = game.flat
    if flat.num_players != 2:
        where = history_text(flat.history(int(flat.terminals[0])))
        raise InvalidGameError(
            f"{purpose} needs two players, zero-sum: {game.name} is a "
            f"{count_word(flat.num_players)}-player game (terminal node {where!r} has payoffs "
            f"for {flat.num_players} players); the CFR family handles any number of players "
            "(python -m seqform iterate GAME --algorithm cfr)"
        )
    if flat.not_zero_sum >= 0:
        payoffs = flat.terminal_payoffs_exact[flat.not_zero_sum]
        where = history_text(flat.history(int(flat.terminals[flat.not_zero_sum])))
        text = ", ".join(str(payoff) for payoff in payoffs)
        raise InvalidGameError(
            f"not zero-sum: terminal node {where!r} has payoffs ({text}), which sum to "
            f"{sum(payoffs)}; {purpose} needs two players, zero-sum (the CFR family runs on it: "
            "python -m seqform iterate GAME --algorithm cfr)"
        )
