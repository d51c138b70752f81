"""Leduc hold'em (Southey et al. 2005), with the rules of OpenSpiel's ``leduc_poker``.

Rules (two players, OpenSpiel's defaults):

* The deck has ``ranks × suits`` cards (default 3 × 2: J, Q, K in two suits).  Both players
  ante 1.  Chance deals one private card to player 1, then one to player 2.
* Round 1: player 1 acts first.  A player not facing a bet checks (``c``) or bets (``r``);
  a player facing a bet folds (``f``), calls (``c``) or raises (``r``).  At most two
  bets/raises are made per round (a bet and one raise), so the round's betting histories are
  ``cc``, ``crc``, ``crrc``, ``rc``, ``rrc`` (the round ends) and ``crf``, ``crrf``, ``rf``,
  ``rrf`` (the game ends).  Each bet or raise in round 1 is 2 more than the amount to call.
* A fold ends the game at once: the other player wins what the folder has put in.
* After round 1, chance turns one public card from the remaining deck.
* Round 2 has the same betting with bets of 4; player 1 again acts first.
* Showdown: a private card of the public card's rank (a pair) beats any card that is not;
  otherwise the higher private rank wins; equal ranks split the pot (payoff 0).  (OpenSpiel
  compares (higher card, lower card) of private and public card, which is the same order.)

Each card is a chance outcome of probability 1 / (cards left), as in OpenSpiel; with
``suit_isomorphism=True`` (OpenSpiel's parameter of that name) the outcomes are ranks with
probability (cards of that rank left) / (cards left) and players no longer see suits.

Labels.  Ranks are the ``ranks`` letters ending at ``K`` of ``23456789TJQK`` (``J Q K`` by
default, ``2 … K`` for 12), or ``23456789TJQKA`` for 13; suits are ``s h d c`` in that order,
so the default deck is ``Js Jh Qs Qh Ks Kh``, ordered as OpenSpiel's cards 0 to 5.  A card is
named rank then suit (``Qh``), or by its rank alone under suit isomorphism.

Information sets are named by what their owner has seen, fields separated by ``|``::

    CARD|ROUND1                     in round 1, e.g. "Ks|" (player 1 opens), "Ks|cr"
    CARD|ROUND1|PUBLIC|ROUND2       in round 2, e.g. "Ks|rc|Qh|" (player 1 opens), "Ks|rc|Qh|cr"

where ``CARD`` is the owner's private card, ``PUBLIC`` the public card and ``ROUND1``,
``ROUND2`` the betting so far in ``f``/``c``/``r``.  The player to act follows from the
length of the current round's betting (player 1 at even lengths), so names are unique across
the whole game.  Actions are ``f``, ``c``, ``r``; :func:`leduc_words` says fold, check, call,
bet or raise.

Sizes of the default game, checked against OpenSpiel in ``tests/test_leduc.py``: 5,520
terminal histories, 468 information sets and 1,093 sequences per player (144 and 337 with
suit isomorphism, 1,116 terminal histories).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction

from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal

__all__ = ["ANTE", "BET_SIZES", "MAX_BETS_PER_ROUND", "leduc_poker", "leduc_words"]

ANTE = 1
BET_SIZES = (2, 4)  # in rounds 1 and 2, a bet or raise puts in the amount to call plus this
MAX_BETS_PER_ROUND = 2  # a bet and one raise

_MAX_RANKS = 13
_MAX_SUITS = 4
_RANKS_TO_KING = "23456789TJQK"
_RANKS_TO_ACE = "23456789TJQKA"
_SUITS = "shdc"

Card = tuple[str, int]  # (label, rank index); rank 0 is the lowest
Deck = tuple[tuple[Card, int], ...]  # each card (or, under suit isomorphism, rank) and copies left
RoundOver = Callable[[tuple[int, int], str], Node]  # (amounts put in, round's betting) -> next


def leduc_poker(ranks: int = 3, suits: int = 2, suit_isomorphism: bool = False) -> Game:
    """Leduc hold'em with ``ranks`` ranks in ``suits`` suits (default 3 × 2, as OpenSpiel).

    Parameters
    ----------
    ranks
        Number of card ranks, 2 to 13 (default 3: J, Q, K).
    suits
        Number of suits, 1 to 4 (default 2); with one suit no pair is possible.
    suit_isomorphism
        If true, chance deals ranks and players do not see suits (OpenSpiel's
        ``suit_isomorphism=true``); the value of the game is unchanged.

    Raises
    ------
    ValueError
        If ``ranks`` or ``suits`` is not an integer in range, if the deck has fewer than 3
        cards, or if ``suit_isomorphism`` is not a bool.
    """
    _check_parameters(ranks, suits, suit_isomorphism)
    root = _deal(_deck(ranks, suits, suit_isomorphism), (), _Leaves())
    settings = [] if (ranks, suits) == (3, 2) else [f"ranks={ranks}", f"suits={suits}"]
    if suit_isomorphism:
        settings.append("suit_isomorphism=True")
    return Game(
        name=f"leduc({', '.join(settings)})" if settings else "leduc",
        root=root,
        describe_action=leduc_words,
        description=(
            f"Leduc hold'em (Southey et al. 2005) with {ranks} ranks × {suits} suits, "
            "following OpenSpiel's leduc_poker"
        ),
    )


def leduc_tree_nodes(ranks: int = 3, suits: int = 2, suit_isomorphism: bool = False) -> int:
    """Nodes of :func:`leduc_poker`'s tree without building it (an upper bound under suit
    isomorphism, which merges deals).

    With a deck of ``D = ranks * suits`` cards: the root, ``D`` chance nodes dealing the
    second private card, and for each of the ``D (D - 1)`` private deals a first betting
    round of 15 nodes (decisions, folds, and the 5 chance nodes where the hand goes on to
    the public card) and, below each of those 5, ``D - 2`` public cards each followed by
    a second round of 15 nodes (decisions, folds, showdowns):
    ``1 + D + D (D - 1) (15 + 5 * 15 (D - 2))``.  Checked against built trees in the tests.
    """
    _check_parameters(ranks, suits, suit_isomorphism)
    deck = ranks * suits
    return 1 + deck + deck * (deck - 1) * (15 + 75 * (deck - 2))


def leduc_words(infoset: str, action: str) -> str:
    """Say an ``f``/``c``/``r`` action in poker words: fold, check, call, bet or raise.

    The betting of the current round is the last ``|`` field of the information set's name;
    the player faces a bet if it contains a bet (``r``).
    """
    facing_bet = "r" in infoset.rsplit("|", 1)[-1]
    if action == "f":
        return "fold"
    if action == "c":
        return "call" if facing_bet else "check"
    if action == "r":
        return "raise" if facing_bet else "bet"
    return action


def _check_parameters(ranks: int, suits: int, suit_isomorphism: bool) -> None:
    """Raise ValueError for parameters out of range (they may come from a command line)."""
    for name, value, least, largest in (
        ("ranks", ranks, 2, _MAX_RANKS),
        ("suits", suits, 1, _MAX_SUITS),
    ):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"leduc: {name} must be an integer, got {value!r}")
        if not least <= value <= largest:
            raise ValueError(f"leduc: {name} must be between {least} and {largest}, got {value}")
    cards = ranks * suits
    if cards < 3:
        raise ValueError(
            f"leduc: a deck of {ranks} ranks × {suits} suits has {cards} cards; "
            "two private cards and a public card need at least 3"
        )
    if not isinstance(suit_isomorphism, bool):
        raise ValueError(f"leduc: suit_isomorphism must be True or False, got {suit_isomorphism!r}")


def _deck(ranks: int, suits: int, suit_isomorphism: bool) -> Deck:
    """The deck in OpenSpiel's card order: by rank, then by suit."""
    labels = _RANKS_TO_ACE if ranks == _MAX_RANKS else _RANKS_TO_KING[-ranks:]
    if suit_isomorphism:
        return tuple(((labels[rank], rank), suits) for rank in range(ranks))
    return tuple(
        ((labels[rank] + _SUITS[suit], rank), 1) for rank in range(ranks) for suit in range(suits)
    )


def _draws(deck: Deck) -> Iterator[tuple[int, Card, Fraction]]:
    """Each card that can be drawn from ``deck``: its position, the card, its probability."""
    left = sum(copies for _, copies in deck)
    for position, (card, copies) in enumerate(deck):
        if copies:
            yield position, card, Fraction(copies, left)


def _without(deck: Deck, position: int) -> Deck:
    """The deck after drawing the card at ``position``."""
    card, copies = deck[position]
    return (*deck[:position], (card, copies - 1), *deck[position + 1 :])


def _chance(draws: Sequence[tuple[str, Fraction, Node]], label: str) -> Chance:
    outcomes, probabilities, children = zip(*draws, strict=True)
    return Chance(outcomes, probabilities, children, label=label)


def _deal(deck: Deck, dealt: tuple[Card, ...], leaves: _Leaves) -> Chance:
    """Chance deals a private card to the next player; after both, round 1 begins."""
    draws = []
    for position, card, probability in _draws(deck):
        after = _without(deck, position)
        subtree: Node
        if dealt:
            cards = (dealt[0], card)
            prefixes = (f"{cards[0][0]}|", f"{cards[1][0]}|")
            over = _public_card(after, cards, leaves)
            subtree = _betting(0, "", (ANTE, ANTE), prefixes, over, leaves)
        else:
            subtree = _deal(after, (card,), leaves)
        draws.append((card[0], probability, subtree))
    return _chance(draws, f"deal to player {len(dealt) + 1}")


def _public_card(deck: Deck, cards: tuple[Card, Card], leaves: _Leaves) -> RoundOver:
    """What follows round 1: chance turns the public card from ``deck``, then round 2."""

    def after_round_one(put_in: tuple[int, int], round_one: str) -> Node:
        draws = []
        for _, public, probability in _draws(deck):
            prefixes = (
                f"{cards[0][0]}|{round_one}|{public[0]}|",
                f"{cards[1][0]}|{round_one}|{public[0]}|",
            )
            over = _showdown(cards, public, leaves)
            draws.append((public[0], probability, _betting(1, "", put_in, prefixes, over, leaves)))
        return _chance(draws, "public card")

    return after_round_one


def _showdown(cards: tuple[Card, Card], public: Card, leaves: _Leaves) -> RoundOver:
    """What follows round 2: the better hand wins what the other player has put in."""
    sign = _showdown_sign(cards[0][1], cards[1][1], public[1])
    return lambda put_in, _round_two: leaves.won(sign * put_in[0])


def _showdown_sign(rank0: int, rank1: int, public_rank: int) -> int:
    """+1 if player 1's hand wins, -1 if player 2's wins, 0 for a split.

    A pair with the public card beats any unpaired card; otherwise the higher rank wins.
    """
    strength0 = (rank0 == public_rank, rank0)
    strength1 = (rank1 == public_rank, rank1)
    return (strength0 > strength1) - (strength0 < strength1)


class _Leaves:
    """The terminal nodes, one per payoff: leaves are immutable, so subtrees share them."""

    def __init__(self) -> None:
        self._by_payoff: dict[int, Terminal] = {}

    def won(self, amount: int) -> Terminal:
        """The leaf where player 1 wins ``amount`` from player 2 (negative: loses)."""
        leaf = self._by_payoff.get(amount)
        if leaf is None:
            leaf = self._by_payoff[amount] = Terminal((Fraction(amount), Fraction(-amount)))
        return leaf


def _betting(
    round_index: int,
    betting: str,
    put_in: tuple[int, int],
    prefixes: tuple[str, str],
    round_over: RoundOver,
    leaves: _Leaves,
) -> Decision:
    """The rest of a betting round after ``betting``, each player having ``put_in`` the pot.

    ``prefixes`` start the two players' information-set names in this round.  A call that
    ends the round (after a bet, or a second check) leads to ``round_over(put_in, betting)``.
    """
    player = len(betting) % 2
    to_call = put_in[1 - player] - put_in[player]
    actions: list[str] = []
    children: list[Node] = []
    if to_call > 0:
        actions.append("f")
        children.append(leaves.won(put_in[1] if player == 1 else -put_in[0]))
    actions.append("c")
    called = _add(put_in, player, to_call)
    if to_call > 0 or betting:
        children.append(round_over(called, betting + "c"))
    else:
        children.append(_betting(round_index, "c", called, prefixes, round_over, leaves))
    if betting.count("r") < MAX_BETS_PER_ROUND:
        actions.append("r")
        raised = _add(put_in, player, to_call + BET_SIZES[round_index])
        children.append(_betting(round_index, betting + "r", raised, prefixes, round_over, leaves))
    return Decision(player, prefixes[player] + betting, tuple(actions), tuple(children))


def _add(put_in: tuple[int, int], player: int, amount: int) -> tuple[int, int]:
    return (put_in[0] + amount, put_in[1]) if player == 0 else (put_in[0], put_in[1] + amount)
