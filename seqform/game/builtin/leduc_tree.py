"""Leduc hold'em written node by node: the hand-written tree builder.

:mod:`seqform.game.builtin.leduc` describes Leduc once, as public tree × private cards, and
writes its tree from that description; this builder stays for ``suit_isomorphism=True``
(where chance deals ranks with probabilities that do not factor into the players' hands)
and as the independent reference the tests compare the generated tree with, node for node.
The rules, labels and names are the module docstring of :mod:`seqform.game.builtin.leduc`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction

from seqform.game.nodes import Chance, Decision, Node, Terminal

__all__ = [
    "ANTE",
    "BET_SIZES",
    "MAX_BETS_PER_ROUND",
    "SUITS",
    "check_parameters",
    "leduc_tree",
    "rank_labels",
]

ANTE = 1
BET_SIZES = (2, 4)  # in rounds 1 and 2, a bet or raise puts in the amount to call plus this
MAX_BETS_PER_ROUND = 2  # a bet and one raise

_MAX_RANKS = 13
_MAX_SUITS = 4
_RANKS_TO_KING = "23456789TJQK"
_RANKS_TO_ACE = "23456789TJQKA"
SUITS = "shdc"

Card = tuple[str, int]  # (label, rank index); rank 0 is the lowest
Deck = tuple[tuple[Card, int], ...]  # each card (or, under suit isomorphism, rank) and copies left
RoundOver = Callable[[tuple[int, int], str], Node]  # (amounts put in, round's betting) -> next


def leduc_tree(ranks: int = 3, suits: int = 2, suit_isomorphism: bool = False) -> Node:
    """The root of Leduc's tree, written node by node (parameters as
    :func:`seqform.game.builtin.leduc.leduc_poker`'s, checked by :func:`check_parameters`)."""
    check_parameters(ranks, suits, suit_isomorphism)
    return _deal(_deck(ranks, suits, suit_isomorphism), (), _Leaves())


def rank_labels(ranks: int) -> str:
    """The ``ranks`` rank letters, lowest first: ending at ``K``, or ``2 … A`` for 13."""
    return _RANKS_TO_ACE if ranks == _MAX_RANKS else _RANKS_TO_KING[-ranks:]


def check_parameters(ranks: int, suits: int, suit_isomorphism: bool) -> None:
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
    labels = rank_labels(ranks)
    if suit_isomorphism:
        return tuple(((labels[rank], rank), suits) for rank in range(ranks))
    return tuple(
        ((labels[rank] + SUITS[suit], rank), 1) for rank in range(ranks) for suit in range(suits)
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
