"""What the two-player routes require of a game, checked in one place.

Every :class:`~seqform.game.model.Game` is a valid tree of ``n >= 2`` players with exact
payoffs (general-sum allowed): CFR and the n-player certificate solve such games.  The
sequence form and its LP (Koller, Megiddo and von Stengel 1996), the normal form and the
exact routes need two players whose payoffs sum to the same constant ``c`` at every terminal
(``c = 0``: zero-sum); they call :func:`require_two_player_zero_sum` at their entry, which
refuses any other game with :class:`~seqform.game.errors.InvalidGameError` naming a terminal
node and the reason.

Constant-sum games
------------------
When ``u_0(z) + u_1(z) = c`` at every terminal ``z``, player 1's payoff is ``c - u_0(z)``,
an affine function of the zero-sum payoff ``-u_0(z)``: the two games have the same best
responses and so the same equilibria, and player 0's value ``v`` is the same.  The routes
only ever read player 0's payoffs, so they solve such a game as it is; the reports give
player 1's value ``c - v`` and say that the game was treated as constant-sum
(:func:`constant_sum`).

Payoffs for the float routes
----------------------------
Payoffs are exact, so a ``.efg`` file may hold ``1e400``; the float routes need every
entry of the payoff matrix (chance probability × payoff) to be a float that HiGHS accepts,
below ``1e15`` in absolute value (HiGHS's ``large_matrix_value``: larger entries make it
stop with model status "Not Set").  :func:`require_float_payoffs` refuses other games,
naming the terminal, and points to the exact route, which scales the payoffs for its float
step (:meth:`seqform.forms.sequence_form.SequenceForm.scaled_for_floats`).
The iterative solvers (the CFR family, XFP, RCFR, MCCFR) and the logit QRE compute in floats
with every player's payoffs: :func:`require_finite_payoffs` refuses a game with a payoff
beyond the float range before they start, which would otherwise iterate ``inf`` and ``nan``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from seqform.base.counts import number_text
from seqform.base.numbers import float_of
from seqform.game.checks import count_word
from seqform.game.errors import InvalidGameError
from seqform.game.model import Game
from seqform.game.nodes import history_text

__all__ = [
    "HIGHS_LARGEST_ENTRY",
    "constant_sum",
    "is_two_player_zero_sum",
    "number_text",
    "require_finite_payoffs",
    "require_float_payoffs",
    "require_two_player_zero_sum",
    "second_player_value",
]

_LARGEST_FLOAT = "about 1.8e308"
"""The largest float, as messages name it."""

HIGHS_LARGEST_ENTRY = 1e15
"""HiGHS's ``large_matrix_value``: it refuses an LP with an entry this large or larger."""


def is_two_player_zero_sum(game: Game) -> bool:
    """True if the game has two players and every terminal's payoffs sum to zero."""
    return game.flat.num_players == 2 and game.flat.not_zero_sum < 0


def constant_sum(game: Game) -> Fraction | None:
    """The constant ``c`` that every terminal's payoffs sum to (0 for a zero-sum game), or
    ``None`` when the sums differ."""
    return game.flat.constant_sum


def second_player_value(total: Fraction, value: Any) -> Any:
    """Player 1's value ``c - v`` in a constant-sum game of total ``c`` where player 0's is
    ``v`` (module docstring): exact for an exact value, else a float."""
    return total - value if isinstance(value, Fraction) else float_of(total) - float(value)


def _terminal_text(game: Game, position: int) -> tuple[str, str]:
    """The history of terminal ``position`` and its payoffs, for messages."""
    flat = game.flat
    where = history_text(flat.history(int(flat.terminals[position])))
    payoffs = ", ".join(number_text(payoff) for payoff in flat.terminal_payoffs_exact[position])
    return where, payoffs


def _sum_text(game: Game, position: int) -> str:
    return number_text(sum(game.flat.terminal_payoffs_exact[position], Fraction(0)))


def require_two_player_zero_sum(game: Game, purpose: str = "the sequence-form LP") -> None:
    """Refuse a game that is not two-player constant-sum, saying why ``purpose`` needs it.

    Zero-sum games and constant-sum games (every terminal's payoffs sum to the same ``c``;
    see the module docstring) pass.

    Raises
    ------
    TypeError
        If ``game`` is not a :class:`~seqform.game.model.Game`.
    InvalidGameError
        For other than two players (``"the sequence-form LP needs two players, zero-sum:
        kuhn3 is a three-player game (terminal node 'T J Q p p p' has payoffs for 3
        players); ..."``) or for payoffs whose sum changes between terminals (``"not
        constant-sum: terminal node 'r' has payoffs (1, 1), which sum to 2, but terminal
        node 'l' ... to 0; ..."``).
    """
    if not isinstance(game, Game):
        raise TypeError(f"{purpose} needs a seqform Game, not {type(game).__name__}")
    flat = game.flat
    if flat.num_players != 2:
        where = history_text(flat.history(int(flat.terminals[0])))
        raise InvalidGameError(
            f"{purpose} needs two players, zero-sum: {game.name} is a "
            f"{count_word(flat.num_players)}-player game (terminal node {where!r} has payoffs "
            f"for {flat.num_players} players); the CFR family handles any number of players "
            "(python -m seqform iterate GAME --algorithm cfr)"
        )
    if flat.constant_sum is None:
        where, payoffs = _terminal_text(game, flat.not_constant_sum)
        first, first_payoffs = _terminal_text(game, 0)
        raise InvalidGameError(
            f"not zero-sum: terminal node {where!r} has payoffs ({payoffs}), which sum to "
            f"{_sum_text(game, flat.not_constant_sum)}, but terminal node {first!r} has "
            f"({first_payoffs}), which sum to {_sum_text(game, 0)}"
            f"; {purpose} needs two players, zero-sum or constant-sum (the CFR family runs on "
            "it: python -m seqform iterate GAME --algorithm cfr)"
        )


def require_float_payoffs(game: Game, purpose: str = "the float LP") -> None:
    """Refuse a game whose payoff-matrix entries are not floats that HiGHS accepts.

    Each terminal's chance probability × player 0's payoff must be finite as a float and
    below :data:`HIGHS_LARGEST_ENTRY` in absolute value (module docstring).

    Raises
    ------
    InvalidGameError
        Naming the first terminal beyond the limit, with the way out (``--exact``).
    """
    flat = game.flat
    with np.errstate(invalid="ignore", over="ignore"):
        entries = np.abs(flat.terminal_reach * flat.terminal_payoff)
        bad = ~np.isfinite(flat.terminal_payoff) | (entries >= HIGHS_LARGEST_ENTRY)
    if not bad.any():
        return
    position = int(np.argmax(bad))
    where, payoffs = _terminal_text(game, position)
    if not np.isfinite(flat.terminal_payoff[position]):
        why = f"which floating point cannot represent (the largest float is {_LARGEST_FLOAT})"
    else:
        why = (
            f"and an entry of the payoff matrix of {entries[position]:.3g} (chance × payoff); "
            f"HiGHS refuses LP entries of {HIGHS_LARGEST_ENTRY:g} or more"
        )
    raise InvalidGameError(
        f"terminal node {where!r} has payoffs ({payoffs}), {why}: {purpose} cannot solve "
        f"{game.name}; the exact route can (python -m seqform solve GAME --exact, or "
        "seqform.routes.exact.solve_exact), scaling the payoffs for its float step"
    )


def require_finite_payoffs(game: Game, purpose: str) -> None:
    """Refuse a game with a payoff (of any player) that is not a finite float, before
    ``purpose``, computing in floats, starts (module docstring).

    Raises
    ------
    InvalidGameError
        Naming the first such terminal, its payoffs and the float limit, with the ways out:
        payoffs scaled down, or, for a two-player zero-sum game, the exact route.
    """
    flat = game.flat
    bad = ~np.isfinite(flat.terminal_payoffs).all(axis=0)
    if not bad.any():
        return
    where, payoffs = _terminal_text(game, int(np.argmax(bad)))
    exact = (
        " or solve it exactly (python -m seqform solve GAME --exact)"
        if is_two_player_zero_sum(game)
        else ""
    )
    raise InvalidGameError(
        f"terminal node {where!r} has payoffs ({payoffs}), which floating point cannot "
        f"represent (the largest float is {_LARGEST_FLOAT}): {purpose} computes in floats and "
        f"cannot run on {game.name}; scale the payoffs down{exact}"
    )
