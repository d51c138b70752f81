"""Rhode Island hold'em (Shi and Littman 2001), with the rules Gilpin and Sandholm state.

Rules (Gilpin and Sandholm, EC 2006 and JACM 2007; the defaults are theirs):

* The deck has ``ranks × suits`` cards (52 by default).  Each player antes ``ante`` (5) and
  is dealt one private card: chance deals player 1's card, then player 2's.
* Three betting rounds, each opened by player 1, with bets of ``bets`` = (10, 20, 20):
  a player not facing a bet checks (``c``) or bets (``r``); a player facing a bet folds
  (``f``), calls (``c``) or raises (``r``); a bet or raise puts in the amount to call plus
  the round's bet.  At most ``max_bets`` (3) bets and raises are made per round, the opening
  bet included.  A fold ends the game: the other player wins what the folder put in.
* After round 1 chance turns a public card, after round 2 a second one, each from the cards
  neither hand nor the board holds.
* Showdown after round 3: each player's hand is the private card and both public cards,
  ranked straight flush > three of a kind > straight > flush > pair > high card
  (:mod:`seqform.game.builtin.three_card_hands`); the better hand wins what the other put
  in, equal hands split the pot (payoff 0).

Deck.  The ranks are the ``ranks`` highest of ``2 … A``, so that the deck always holds the
ace: ``Q K A`` for 3 ranks, ``2 … A`` for 13.  Straights are three consecutive ranks of
``2 … A``, plus A-2-3 (the lowest) when the deck holds a 2 and a 3, which only the full 13
ranks do; there is no wrap-around (K-A-2 is not a straight).  With fewer than 3 ranks there
are no straights, with fewer than 3 suits no three of a kind.  Suits are ``s h d c``, and a
card is numbered ``rank · suits + suit`` (rank 0 the lowest), as Leduc's are, and named rank
then suit (``Ah``).

Information sets are named by what their owner has seen, fields separated by ``|``::

    CARD|R1                     round 1, e.g. "Ks|" (player 1 opens), "Ks|cr"
    CARD|R1|PUB1|R2             round 2, e.g. "Ks|rc|Qh|"
    CARD|R1|PUB1|R2|PUB2|R3     round 3, e.g. "Ks|rc|Qh|cc|As|r"

the betting in ``f``/``c``/``r`` (:func:`rhode_island_words` says fold, check, call, bet
or raise, as :func:`~seqform.game.builtin.leduc.leduc_words` does for Leduc, whose labels
these extend).

Sizes of the full game, by formula
(:func:`~seqform.game.builtin.rhode_island_sizes.rhode_island_sizes`): 26,064,064
information sets and 65,160,161 sequences per player, so the sequence-form LP has
65,160,161 + 26,064,064 + 1 = 91,224,226 rows, the number Gilpin and Sandholm give (EC
2006, JACM 2007); the tree has 6,705,372,545 nodes (their "over 3.1 billion" matches none of
its counts: docs/games.md).  Building the structured game for the full deck takes 40 s and 240 MB;
numbering it (what the structured route and ``compare`` do first) over 5 minutes and 2.9 GB,
and its LP is far beyond memory: solve small decks.

The game is defined once, as public tree × private cards (:func:`rhode_island_structured`):
hands are the ``n`` cards with deal scale ``1/(n(n-1))``; the public tree is round 1, the
first public card (probability ``1/(n-2)``), round 2, the second public card (``1/(n-3)``),
round 3; a showdown is the :class:`~seqform.game.public.tree.Sign` of the hands' levels,
one pair of level arrays per unordered board, shared by every leaf after that board.
:func:`rhode_island` is its explicit tree, for small decks.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import numpy as np

from seqform.game.builtin.leduc import leduc_words
from seqform.game.builtin.leduc_tree import SUITS
from seqform.game.builtin.rhode_island_sizes import (
    ANTE,
    BET_SIZES,
    MAX_BETS_PER_ROUND,
    MAX_TREE_NODES,
    check_parameters,
    rhode_island_tree_nodes,
)
from seqform.game.builtin.three_card_hands import FACES, hand_levels
from seqform.game.errors import TreeTooLargeError
from seqform.game.model import Game
from seqform.game.public.explicit import card_by_card_deal, explicit_game
from seqform.game.public.tree import (
    Constant,
    Hands,
    PublicChance,
    PublicDecision,
    PublicLeaf,
    PublicNode,
    Sign,
    StructuredGame,
)

__all__ = [
    "card_labels",
    "rhode_island",
    "rhode_island_description",
    "rhode_island_name",
    "rhode_island_structured",
    "rhode_island_words",
]

_RANK_LETTERS = "23456789TJQKA"

RoundOver = Callable[[tuple[int, int], str], PublicNode]  # (put in, round's betting) -> next


def rhode_island_words(infoset: str, action: str) -> str:
    """Say an ``f``/``c``/``r`` action in poker words: fold, check, call, bet or raise.

    The words are Leduc's (:func:`~seqform.game.builtin.leduc.leduc_words`); the function is
    the game's own, since a game's label grammar is found by its ``describe_action``.
    """
    return leduc_words(infoset, action)


def card_labels(ranks: int, suits: int) -> tuple[str, ...]:
    """The cards' names in card order (``rank · suits + suit``): ``("Qs", "Qh", "Ks", …)``."""
    letters = _RANK_LETTERS[-ranks:]
    return tuple(letters[card // suits] + SUITS[card % suits] for card in range(ranks * suits))


def rhode_island(
    ranks: int = 13,
    suits: int = 4,
    ante: int = ANTE,
    bets: tuple[int, int, int] = BET_SIZES,
    max_bets: int = MAX_BETS_PER_ROUND,
) -> Game:
    """Rhode Island hold'em's tree (module docstring), for decks small enough to write it.

    Parameters
    ----------
    ranks
        Card ranks, 2 to 13: the highest ``ranks`` of ``2 … A`` (13, the default, all).
    suits
        Suits, 1 to 4 (default 4).
    ante
        What each player puts in before the deal (default 5).
    bets
        The bet of rounds 1, 2 and 3 (default ``(10, 20, 20)``).
    max_bets
        Bets and raises per round, the opening bet included (default 3).

    Raises
    ------
    ValueError
        For a parameter out of range (naming it), or a deck of fewer than 4 cards.
    TreeTooLargeError
        When the tree would have more than :data:`MAX_TREE_NODES` nodes (the full game has
        6.7 billion): the structured route (:func:`rhode_island_structured`) needs no tree.
    """
    nodes = rhode_island_tree_nodes(ranks, suits, ante, bets, max_bets)
    name = rhode_island_name(ranks, suits, ante, bets, max_bets)
    if nodes > MAX_TREE_NODES:  # refused from the formula: numbering the full game takes minutes
        raise TreeTooLargeError(
            f"{name}: the game tree would have {nodes:,} nodes, more than the "
            f"{MAX_TREE_NODES:,} seqform builds; solve it with --method structured, which "
            "never builds the tree"
        )
    return explicit_game(rhode_island_structured(ranks, suits, ante, bets, max_bets))


def rhode_island_name(
    ranks: int, suits: int, ante: int, bets: tuple[int, ...], max_bets: int
) -> str:
    """The game's name: ``rhode_island`` with the parameters that are not the defaults."""
    given = {"ranks": ranks, "suits": suits, "ante": ante, "bets": tuple(bets)}
    given["max_bets"] = max_bets
    defaults = {
        "ranks": 13,
        "suits": 4,
        "ante": ANTE,
        "bets": BET_SIZES,
        "max_bets": MAX_BETS_PER_ROUND,
    }
    settings = [f"{key}={value!r}" for key, value in given.items() if value != defaults[key]]
    return f"rhode_island({', '.join(settings)})" if settings else "rhode_island"


def rhode_island_description(ranks: int, suits: int) -> str:
    """The game's description in words, with its deck."""
    return (
        f"Rhode Island hold'em (Shi and Littman 2001) with {ranks} ranks × {suits} suits, "
        "following Gilpin and Sandholm (2007)"
    )


def rhode_island_structured(
    ranks: int = 13,
    suits: int = 4,
    ante: int = ANTE,
    bets: tuple[int, int, int] = BET_SIZES,
    max_bets: int = MAX_BETS_PER_ROUND,
) -> StructuredGame:
    """Rhode Island hold'em as public tree × private cards (module docstring).

    Cards are numbered ``rank · suits + suit``; the showdown levels of the board
    ``{a, b}`` are computed once and shared by every leaf after that board, whichever
    card came first.

    Raises
    ------
    ValueError
        As :func:`rhode_island`.
    """
    check_parameters(ranks, suits, ante, bets, max_bets)
    bets = (bets[0], bets[1], bets[2])
    cards = ranks * suits
    labels = card_labels(ranks, suits)
    hands = Hands(labels, (Fraction(1),) * cards, np.arange(cards, dtype=np.int64))
    rounds = _PublicRounds(labels, _BoardLevels(ranks, suits), _Betting(bets, max_bets))
    return StructuredGame(
        name=rhode_island_name(ranks, suits, ante, bets, max_bets),
        hands=(hands, hands),
        deal_scale=Fraction(1, cards * (cards - 1)),
        root=rounds.betting.round(0, "", (ante, ante), "|", rounds.first_card),
        write_deal=card_by_card_deal(),
        description=rhode_island_description(ranks, suits),
        describe_action=rhode_island_words,
        suits=suits,
    )


class _BoardLevels:
    """The hands' levels per unordered board, computed once and shared."""

    def __init__(self, ranks: int, suits: int) -> None:
        cards = np.arange(ranks * suits, dtype=np.int64)
        self.faces = cards // suits + (FACES - ranks)
        self.suits = cards % suits
        self._boards: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}

    def __call__(self, first: int, second: int) -> tuple[np.ndarray, np.ndarray]:
        board = (min(first, second), max(first, second))
        shared = self._boards.get(board)
        if shared is None:
            public = [(int(self.faces[card]), int(self.suits[card])) for card in board]
            level = hand_levels(self.faces, self.suits, (public[0], public[1]))
            shared = self._boards[board] = (level, level)
        return shared


class _PublicRounds:
    """The public cards and the rounds after them."""

    def __init__(self, labels: tuple[str, ...], levels: _BoardLevels, betting: _Betting) -> None:
        self.labels = labels
        self.levels = levels
        self.betting = betting

    def first_card(self, put_in: tuple[int, int], round_one: str) -> PublicNode:
        """After round 1: the first public card, then round 2."""
        children = []
        for card, label in enumerate(self.labels):
            prefix = f"|{round_one}|{label}|"
            after = self._second_card(card, prefix)
            children.append(self.betting.round(1, "", put_in, prefix, after))
        return self._chance("first public card", 2, children)

    def _second_card(self, first: int, prefix: str) -> RoundOver:
        def after_round_two(put_in: tuple[int, int], round_two: str) -> PublicNode:
            children = []
            for card, label in enumerate(self.labels):
                showdown = (
                    self.betting.showdown(self.levels(first, card)) if card != first else None
                )
                history = f"{prefix}{round_two}|{label}|"
                children.append(self.betting.round(2, "", put_in, history, showdown))
            return self._chance("second public card", 3, children)

        return after_round_two

    def _chance(self, label: str, dealt: int, children: list[PublicNode]) -> PublicChance:
        """A public card drawn uniformly from the cards left after ``dealt`` were dealt."""
        cards = len(self.labels)
        return PublicChance(
            label, self.labels, tuple(range(cards)), Fraction(1, cards - dealt), tuple(children)
        )


class _Betting:
    """Writes the betting rounds; folds and showdowns of equal payoffs are shared leaves."""

    def __init__(self, bets: tuple[int, int, int], max_bets: int) -> None:
        self.bets = bets
        self.max_bets = max_bets
        self._folds: dict[int, PublicLeaf] = {}
        self._showdowns: dict[tuple[int, int], PublicLeaf] = {}
        self._actions: dict[tuple[str, ...], tuple[str, ...]] = {}

    def showdown(self, levels: tuple[np.ndarray, np.ndarray]) -> RoundOver:
        """After round 3: the better hand wins what each player has put in (equal amounts)."""

        def leaf(put_in: tuple[int, int], _round_three: str) -> PublicNode:
            key = (id(levels[0]), put_in[0])
            found = self._showdowns.get(key)
            if found is None:
                found = self._showdowns[key] = PublicLeaf(Sign(Fraction(put_in[0])), levels)
            return found

        return leaf

    def fold(self, payoff: int) -> PublicLeaf:
        """A fold paying ``payoff`` to player 1."""
        found = self._folds.get(payoff)
        if found is None:
            found = self._folds[payoff] = PublicLeaf(Constant(Fraction(payoff)))
        return found

    def round(
        self,
        round_index: int,
        betting: str,
        put_in: tuple[int, int],
        prefix: str,
        round_over: RoundOver | None,
    ) -> PublicNode:
        """The rest of a round after ``betting`` (history ``prefix + betting``), each player
        having ``put_in`` the pot; a call that ends the round leads to ``round_over``.  A
        round after a second public card equal to the first (``round_over`` None) is never
        reached (the numbering skips it): a leaf stands for it."""
        if round_over is None:
            return self.fold(0)
        player = len(betting) % 2
        to_call = put_in[1 - player] - put_in[player]
        actions: list[str] = []
        children: list[PublicNode] = []
        if to_call > 0:
            actions.append("f")
            children.append(self.fold(put_in[1] if player == 1 else -put_in[0]))
        actions.append("c")
        called = _add(put_in, player, to_call)
        if to_call > 0 or betting:
            children.append(round_over(called, betting + "c"))
        else:
            children.append(self.round(round_index, "c", called, prefix, round_over))
        if betting.count("r") < self.max_bets:
            actions.append("r")
            raised = _add(put_in, player, to_call + self.bets[round_index])
            children.append(self.round(round_index, betting + "r", raised, prefix, round_over))
        key = tuple(actions)
        return PublicDecision(
            player, self._actions.setdefault(key, key), tuple(children), prefix + betting
        )


def _add(put_in: tuple[int, int], player: int, amount: int) -> tuple[int, int]:
    return (put_in[0] + amount, put_in[1]) if player == 0 else (put_in[0], put_in[1] + amount)
