"""The public betting tree of one street of no-limit hold'em with fixed bet sizes.

OOP (player index 0) acts first.  Not facing a bet, a player checks (``x``) or bets (``bN``:
puts ``N`` chips in on this street) — each size of ``bet_sizes`` times the pot, and all-in;
facing a bet a player folds (``f``), calls (``c``) or raises (``rN``: raises *to* ``N`` on
this street) — each size of ``raise_sizes`` times the pot after the call, and all-in, while
fewer than ``max_raises`` raises have been made.  Rules, as the river solvers apply them:

* sizes are exact: ``b7.5`` with a pot of 10 and a size of 0.75; a size at or above the
  stack becomes the all-in, and sizes that coincide are one action;
* a raise must raise by at least the last bet or raise (the no-limit minimum raise); a size
  below it is raised to it (all-in is always allowed);
* a street ends after check–check or a call; a fold ends the hand; after an all-in is called
  nothing more is bet;
* with an all-in threshold ``t`` (TexasSolver's ``set_allin_threshold``), a sized bet or raise
  after which the player would have put in more than ``t`` times what it started the spot
  with becomes the all-in.  Counted from the street, that is ``pot / 2 + amount > t (pot / 2
  + stack)``, with ``pot`` and ``stack`` as the street starts: each player's share of the
  pot then is half of it, as both have put in the same.

Street payoffs are in :class:`StreetEnd` (what each player put in on the street, who folded);
:mod:`seqform.holdem.game` turns them into the structured game's payoff rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from seqform.base.limits import LIMITS
from seqform.game.errors import TreeTooLargeError

__all__ = ["Bet", "StreetEnd", "amount_text", "street_tree"]


@dataclass(frozen=True, slots=True)
class StreetEnd:
    """The street is over: ``folded`` is the player who folded (or ``None`` when the street
    closed by check–check or a call), ``put_in`` what each player put in on this street,
    ``all_in`` whether a player has no chips left."""

    folded: int | None
    put_in: tuple[Fraction, Fraction]
    all_in: bool


@dataclass(frozen=True, slots=True)
class Bet:
    """``player`` acts with ``actions`` (``x``, ``bN``, ``f``, ``c``, ``rN``) leading to
    ``children``; ``history`` is the street's actions so far, joined by ``-``."""

    player: int
    actions: tuple[str, ...]
    children: tuple[Bet | StreetEnd, ...]
    history: str


def amount_text(amount: Fraction) -> str:
    """Chips as an action writes them: ``10``, ``7.5``, ``10/3``."""
    if amount.denominator == 1:
        return str(amount.numerator)
    decimal = amount.numerator / amount.denominator
    if Fraction(str(decimal)) == amount and len(str(decimal)) <= 12:
        return str(decimal)
    return str(amount)


@dataclass(frozen=True)
class _Sizes:
    pot: Fraction  # in the middle before the street
    stack: Fraction  # each player's chips behind at the start of the street
    bets: tuple[tuple[Fraction, ...], tuple[Fraction, ...]]  # per player
    raises: tuple[tuple[Fraction, ...], tuple[Fraction, ...]]  # per player
    max_raises: int
    all_in: tuple[bool, bool] = (True, True)  # per player: all-in is always a bet and a raise
    threshold: Fraction | None = None  # the all-in threshold (module docstring)


def _per_player(
    sizes: tuple[Fraction, ...] | tuple[tuple[Fraction, ...], tuple[Fraction, ...]],
) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """``sizes`` for each player: a pair of tuples as it is, one tuple for both."""
    if len(sizes) == 2 and all(isinstance(each, tuple) for each in sizes):
        return (tuple(sizes[0]), tuple(sizes[1]))  # type: ignore[arg-type]
    shared = tuple(sizes)
    return (shared, shared)  # type: ignore[return-value]


def _targets(sizes: _Sizes, put_in: tuple[Fraction, Fraction], player: int) -> list[Fraction]:
    """The amounts ``player`` may bet or raise to on this street, increasing, all-in last."""
    facing, own = put_in[1 - player], put_in[player]
    pot = sizes.pot + put_in[0] + put_in[1]
    if facing == own:  # a bet
        wanted = [size * pot for size in sizes.bets[player]]
        least = Fraction(0)
    else:  # a raise: by a fraction of the pot after the call, at least the last increment
        after_call = pot + (facing - own)
        wanted = [facing + size * after_call for size in sizes.raises[player]]
        least = facing + (facing - min(put_in))
    amounts = {min(max(amount, least), sizes.stack) for amount in wanted}
    if sizes.threshold is not None:
        share, limit = sizes.pot / 2, sizes.threshold * (sizes.pot / 2 + sizes.stack)
        amounts = {sizes.stack if share + amount > limit else amount for amount in amounts}
    if sizes.all_in[player]:
        amounts.add(sizes.stack)
    return sorted(amount for amount in amounts if amount > facing)


_State = tuple[int, tuple[Fraction, Fraction], int]  # who acts, what each put in, raises


def _moves(sizes: _Sizes, state: _State) -> list[tuple[str, Fraction | None, _State | StreetEnd]]:
    """The actions open in ``state`` (``f``, ``c``, ``x``, or ``b``/``r`` with its amount),
    each with the state or street end it leads to."""
    player, put_in, raises = state
    facing = put_in[1 - player]
    moves: list[tuple[str, Fraction | None, _State | StreetEnd]] = []
    if facing > put_in[player]:
        moves.append(("f", None, StreetEnd(player, put_in, False)))
        moves.append(("c", None, StreetEnd(None, (facing, facing), facing == sizes.stack)))
        open_to_raise = raises < sizes.max_raises and facing < sizes.stack
    else:  # check; behind (IP), the street is over
        after_check = StreetEnd(None, put_in, False) if player == 1 else (1, put_in, raises)
        moves.append(("x", None, after_check))
        open_to_raise = True
    if open_to_raise:
        kind = "r" if facing > put_in[player] else "b"
        for amount in _targets(sizes, put_in, player):
            after = (amount, put_in[1]) if player == 0 else (put_in[0], amount)
            moves.append((kind, amount, (1 - player, after, raises + (kind == "r"))))
    return moves


def _node(sizes: _Sizes, state: _State, history: tuple[str, ...]) -> Bet:
    actions: list[str] = []
    children: list[Bet | StreetEnd] = []
    for kind, amount, move in _moves(sizes, state):
        token = kind if amount is None else f"{kind}{amount_text(amount)}"
        actions.append(token)
        if isinstance(move, StreetEnd):
            children.append(move)
        else:
            children.append(_node(sizes, move, (*history, token)))
    return Bet(state[0], tuple(actions), tuple(children), "-".join(history))


def _decisions(sizes: _Sizes, limit: int) -> int:
    """The street's decisions as :func:`_node` builds them, counted without building them
    and at most ``limit + 1``: depth first with an explicit stack, so that a tree of
    astronomical size (many small sizes and raises) is refused after ``limit`` steps."""
    count, stack = 0, [(0, (Fraction(0), Fraction(0)), 0)]
    while stack and count <= limit:
        count += 1
        moves = _moves(sizes, stack.pop())
        stack.extend(move for _, _, move in moves if isinstance(move, tuple))
    return count


def street_tree(
    pot: Fraction,
    stack: Fraction,
    bet_sizes: tuple[Fraction, ...] | tuple[tuple[Fraction, ...], tuple[Fraction, ...]],
    raise_sizes: tuple[Fraction, ...] | tuple[tuple[Fraction, ...], tuple[Fraction, ...]],
    max_raises: int,
    *,
    all_in: bool | tuple[bool, bool] = True,
    all_in_threshold: Fraction | None = None,
    max_decisions: int = LIMITS.street_decisions,
) -> Bet:
    """The betting of one street (module docstring), OOP first, from a pot of ``pot`` with
    ``stack`` chips behind each player.  ``bet_sizes`` and ``raise_sizes`` are one tuple of
    pot fractions for both players, or a pair (OOP's, IP's); ``all_in=False`` offers no
    all-in beyond the sizes (the toy games of *The Mathematics of Poker*), a pair per player;
    ``all_in_threshold`` turns a sized bet or raise past it into the all-in (module
    docstring).

    Raises
    ------
    TreeTooLargeError
        If the street would have more than ``max_decisions`` decisions (counted first, in
        at most that many steps): small sizes with many raises make trees of astronomical
        size.
    """
    sizes = _Sizes(
        Fraction(pot),
        Fraction(stack),
        _per_player(bet_sizes),
        _per_player(raise_sizes),
        max_raises,
        (all_in, all_in) if isinstance(all_in, bool) else all_in,
        None if all_in_threshold is None else Fraction(all_in_threshold),
    )
    if _decisions(sizes, max_decisions) > max_decisions:
        raise TreeTooLargeError(
            f"the street's betting would have more than {max_decisions:,} decisions, more "
            f"than seqform builds ({len(sizes.bets[0]) + len(sizes.bets[1])} bet and "
            f"{len(sizes.raises[0]) + len(sizes.raises[1])} raise sizes of the two players, up "
            f"to {max_raises:,} raises); fewer sizes or a lower max_raises make it smaller"
        )
    return _node(sizes, (0, (Fraction(0), Fraction(0)), 0), ())
