"""Kuhn poker for more than two players; ``kuhn3`` is Abou Risk and Szafron's (2010).

Rules, for ``n`` players (those of OpenSpiel's ``kuhn_poker(players=n)``, which the tests
walk node for node): a deck of ``n + 1`` cards (three players: T < J < Q < K), one dealt
to each player in turn (players 1, 2, ..., each card equally likely among those left);
each player antes 1.  One betting round, bet size 1: players act in order, each checking
(``p``) or betting (``b``) while nobody has bet; after the first bet, each of the other
players, in order from the bettor on, folds (``p``) or calls (``b``).  The hand ends when
all have checked (showdown among all, pot ``n``) or when everyone after the bettor has
answered (showdown among the bettor and the callers).  The highest card in the showdown
wins the pot; every player's payoff is what they win minus what they put in.

Information sets are named by the owner's card and the betting history it has seen
(``"Q"``, ``"Jpb"``, ``"Kpbp"``); the player to act is fixed by the history's length, so
the names are unique across players.  Chance outcomes are the card names, one chance
node per dealt card, as in OpenSpiel.

Sizes of ``kuhn3`` (OpenSpiel's ``kuhn_poker(players=3)`` has the same): 24 deals, 13
betting histories ending the hand, so 312 terminals; 16 information sets per player
(4 cards × 4 histories: player 1 at ``""``, ``ppb``, ``pbp``, ``pbb``; player 2 at ``p``,
``b``, ``ppbp``, ``ppbb``; player 3 at ``pp``, ``pb``, ``bp``, ``bb``).

Three-player Kuhn is zero-sum in the n-player sense (the payoffs sum to 0) but not a
two-player game, so the sequence-form LP refuses it; CFR (:mod:`seqform.iterative`) and
:func:`seqform.certify.certify_profile` work on it.  Szafron, Gibson and Sturtevant (2013)
give a family of equilibria in which player 1 always checks first and player 2 expects
−1/48 per hand.
"""

from __future__ import annotations

from fractions import Fraction

from seqform.game.errors import InvalidGameError
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal

__all__ = ["kuhn3_poker", "multiplayer_kuhn", "multiplayer_poker_words"]

CARD_NAMES = {2: ("J", "Q", "K"), 3: ("T", "J", "Q", "K")}


def multiplayer_poker_words(infoset: str, action: str) -> str:
    """``p``/``b`` in poker words: fold/call once anybody has bet, else check/bet."""
    facing_bet = "b" in infoset  # card names never contain a "b"
    if action == "p":
        return "fold" if facing_bet else "check"
    if action == "b":
        return "call" if facing_bet else "bet"
    return action


def _payoffs(cards: tuple[int, ...], history: str) -> tuple[Fraction, ...]:
    """Each player's winnings minus stake at the end of ``history`` (turn ``t`` is player
    ``t % n``'s: the answers to a bet wrap around to the players before the bettor)."""
    players = len(cards)
    stakes = [1] * players
    for turn, action in enumerate(history):
        if action == "b":
            stakes[turn % players] = 2
    if "b" in history:
        showdown = [player for player in range(players) if stakes[player] == 2]
    else:
        showdown = list(range(players))
    winner = max(showdown, key=lambda player: cards[player])
    pot = sum(stakes)
    return tuple(
        Fraction(pot - stakes[player] if player == winner else -stakes[player])
        for player in range(players)
    )


def _betting(cards: tuple[int, ...], names: tuple[str, ...], history: str) -> Node:
    """The betting subtree after ``history`` for one deal (depth at most ``2n - 1``)."""
    players = len(cards)
    bet = history.find("b")
    if (bet < 0 and len(history) == players) or (bet >= 0 and len(history) == bet + players):
        return Terminal(_payoffs(cards, history))
    player = len(history) % players
    children = tuple(_betting(cards, names, history + action) for action in ("p", "b"))
    return Decision(player, names[cards[player]] + history, ("p", "b"), children)


def _deal(dealt: tuple[int, ...], players: int, names: tuple[str, ...]) -> Node:
    """Deal the next player's card (one chance node per card), then bet."""
    if len(dealt) == players:
        return _betting(dealt, names, "")
    left = [card for card in range(players + 1) if card not in dealt]
    probability = Fraction(1, len(left))
    return Chance(
        tuple(names[card] for card in left),
        (probability,) * len(left),
        tuple(_deal((*dealt, card), players, names) for card in left),
    )


def multiplayer_kuhn(players: int = 3) -> Game:
    """Kuhn poker for ``players`` players with ``players + 1`` cards (see the module).

    Cards are named T J Q K for three players, J Q K for two, else ``"1"`` to
    ``str(players + 1)``.

    Raises
    ------
    InvalidGameError
        If ``players`` is not an integer from 2 to 6 (seven players already make a tree
        of about 40 million deals' nodes).
    """
    if type(players) is not int or not 2 <= players <= 6:
        raise InvalidGameError(f"kuhn3: players must be an integer from 2 to 6, not {players!r}")
    names = CARD_NAMES.get(players, tuple(str(rank) for rank in range(1, players + 2)))
    return Game(
        name="kuhn3" if players == 3 else f"multiplayer_kuhn(players={players})",
        root=_deal((), players, names),
        player_names=tuple(f"Player {number}" for number in range(1, players + 1)),
        describe_action=multiplayer_poker_words,
        description=f"{players}-player Kuhn poker (Abou Risk and Szafron 2010) with "
        f"{players + 1} cards, as OpenSpiel's kuhn_poker(players={players})",
    )


def kuhn3_poker() -> Game:
    """Three-player Kuhn poker (Abou Risk and Szafron 2010): four cards T < J < Q < K."""
    return multiplayer_kuhn(3)
