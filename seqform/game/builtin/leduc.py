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

Bet sizes.  ``bets`` gives each round's bet and raise sizes, in chips added beyond the call
(default ``((2,), (4,))``: Leduc's own).  A bet or raise of a round's own size (2 in round
1, 4 in round 2) keeps the name ``r``; any other size ``N`` is ``rN`` (``r1``, ``r8``), so a
game with more sizes holds every information set of a game with fewer under the same name
(the blueprint of the few sizes reads straight into the many; :mod:`seqform.resolving.
translation`).  At most two bets or raises of any sizes are made per round.  ``leduc_poker``
with the default sizes is OpenSpiel's game, names and all; other sizes are seqform's.

The game is defined once, as public tree × private cards (:func:`leduc_structured`,
:mod:`seqform.game.public.tree`): hands are the ``n`` cards, the deal scale ``1/(n(n-1))``,
the public tree is round 1's betting, the public card (probability ``1/(n-2)`` among the
cards no hand holds) and round 2's betting; a fold pays a constant, a showdown is the sign
of the hands' levels ``rank`` (``rank + ranks`` for a pair with the public card), so
``leduc_poker`` is its explicit tree.  Under suit isomorphism chance deals ranks with
probabilities that do not factor into the two hands, so that game is written node by node
(:mod:`seqform.game.builtin.leduc_tree`, also the tests' independent reference).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.base.node_counts import dealt_tree_nodes
from seqform.game.builtin.leduc_tree import (
    ANTE,
    BET_SIZES,
    MAX_BETS_PER_ROUND,
    SUITS,
    check_parameters,
    leduc_tree,
    rank_labels,
)
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
    "ANTE",
    "BET_SIZES",
    "MAX_BETS_PER_ROUND",
    "check_bets",
    "leduc_poker",
    "leduc_structured",
    "leduc_words",
    "raise_token",
]

RoundOver = Callable[[tuple[int, int], str], PublicNode]  # (put in, round's betting) -> next


Bets = tuple[tuple[int, ...], tuple[int, ...]]


def leduc_poker(
    ranks: int = 3,
    suits: int = 2,
    suit_isomorphism: bool = False,
    bets: tuple[int | tuple[int, ...], int | tuple[int, ...]] | None = None,
) -> Game:
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
    bets
        Each round's bet and raise sizes in chips beyond the call, an integer or a tuple of
        them per round (module docstring); default ``((2,), (4,))``, Leduc's.

    Raises
    ------
    ValueError
        If ``ranks`` or ``suits`` is not an integer in range, if the deck has fewer than 3
        cards, if ``suit_isomorphism`` is not a bool, or if ``bets`` is not two rounds of
        positive whole sizes (other sizes than Leduc's need ``suit_isomorphism=False``).
    """
    check_parameters(ranks, suits, suit_isomorphism)
    sizes = check_bets(bets)
    if suit_isomorphism and sizes != _LEDUC_BETS:
        raise ValueError("leduc: bets other than Leduc's own need suit_isomorphism=False")
    if not suit_isomorphism:
        return explicit_game(leduc_structured(ranks, suits, bets))
    return Game(
        name=_name(ranks, suits, suit_isomorphism),
        root=leduc_tree(ranks, suits, suit_isomorphism),
        describe_action=leduc_words,
        description=_description(ranks, suits),
    )


_LEDUC_BETS: Bets = ((BET_SIZES[0],), (BET_SIZES[1],))


def check_bets(bets: object) -> Bets:
    """``bets`` (:func:`leduc_poker`) as two increasing tuples of sizes; None is Leduc's.

    Raises
    ------
    ValueError
        Naming the parameter, for anything but two rounds of distinct positive integers.
    """
    if bets is None:
        return _LEDUC_BETS
    shape = "two rounds of sizes, e.g. bets=((1, 2), (4, 8))"
    if not isinstance(bets, tuple | list) or len(bets) != 2:
        raise ValueError(f"leduc: bets must be {shape}, got {bets!r}")
    rounds = []
    for number, given in enumerate(bets, start=1):
        sizes = given if isinstance(given, tuple | list) else (given,)
        if not sizes or any(
            isinstance(size, bool) or not isinstance(size, int) or size < 1 for size in sizes
        ):
            raise ValueError(
                f"leduc: bets of round {number} must be positive integers (chips beyond the "
                f"call), got {given!r}"
            )
        if len(set(sizes)) != len(sizes):
            raise ValueError(f"leduc: bets of round {number} name a size twice: {given!r}")
        rounds.append(tuple(sorted(sizes)))
    return rounds[0], rounds[1]


def raise_token(round_index: int, size: int) -> str:
    """The action of a bet or raise of ``size`` chips beyond the call in round
    ``round_index`` (0 or 1): ``r`` for Leduc's own size, else ``r`` and the size."""
    return "r" if size == BET_SIZES[round_index] else f"r{size}"


def _name(ranks: int, suits: int, suit_isomorphism: bool, bets: Bets = _LEDUC_BETS) -> str:
    settings = [] if (ranks, suits) == (3, 2) else [f"ranks={ranks}", f"suits={suits}"]
    if suit_isomorphism:
        settings.append("suit_isomorphism=True")
    if bets != _LEDUC_BETS:
        settings.append(f"bets={bets!r}")
    return f"leduc({', '.join(settings)})" if settings else "leduc"


def _description(ranks: int, suits: int) -> str:
    return (
        f"Leduc hold'em (Southey et al. 2005) with {ranks} ranks × {suits} suits, "
        "following OpenSpiel's leduc_poker"
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
    check_parameters(ranks, suits, suit_isomorphism)
    deck = ranks * suits
    return dealt_tree_nodes(
        deal_nodes=1 + deck, deals=deck * (deck - 1), nodes_per_deal=15 + 75 * (deck - 2)
    )


def leduc_words(infoset: str, action: str) -> str:
    """Say an ``f``/``c``/``r`` action in poker words: fold, check, call, bet or raise (a
    sized ``r8``: ``bet 8`` or ``raise 8``, chips beyond the call).

    The betting of the current round is the last ``|`` field of the information set's name;
    the player faces a bet if it contains a bet (``r``).
    """
    facing_bet = "r" in infoset.rsplit("|", 1)[-1]
    if action == "f":
        return "fold"
    if action == "c":
        return "call" if facing_bet else "check"
    if action.startswith("r"):
        word = "raise" if facing_bet else "bet"
        return word if action == "r" else f"{word} {action[1:]}"
    return action


def leduc_structured(
    ranks: int = 3,
    suits: int = 2,
    bets: tuple[int | tuple[int, ...], int | tuple[int, ...]] | None = None,
) -> StructuredGame:
    """Leduc hold'em (suits seen) as public tree × private cards (module docstring), with
    ``bets`` as :func:`leduc_poker`'s.

    Cards are numbered in OpenSpiel's order, ``rank · suits + suit``; a showdown's levels
    given public card ``c`` are shared by every leaf after a public card of ``c``'s rank.

    Raises
    ------
    ValueError
        As :func:`leduc_poker`.
    """
    check_parameters(ranks, suits, False)
    sizes = check_bets(bets)
    cards = ranks * suits
    rank = np.arange(cards, dtype=np.int64) // suits
    letters = rank_labels(ranks)
    labels = tuple(letters[card // suits] + SUITS[card % suits] for card in range(cards))
    hands = Hands(labels, (Fraction(1),) * cards, np.arange(cards, dtype=np.int64))
    levels = [rank + ranks * (rank == public) for public in range(ranks)]
    shared = [(levels[public], levels[public]) for public in range(ranks)]

    def round_two(put_in: tuple[int, int], round_one: str) -> PublicNode:
        children = []
        for card in range(cards):
            prefix = f"|{round_one}|{labels[card]}|"
            showdown = _showdown(shared[card // suits])
            children.append(_betting(sizes, 1, (), put_in, prefix, showdown))
        return PublicChance(
            "public card", labels, tuple(range(cards)), Fraction(1, cards - 2), tuple(children)
        )

    return StructuredGame(
        name=_name(ranks, suits, False, sizes),
        hands=(hands, hands),
        deal_scale=Fraction(1, cards * (cards - 1)),
        root=_betting(sizes, 0, (), (ANTE, ANTE), "|", round_two),
        write_deal=card_by_card_deal(),
        description=_description(ranks, suits),
        describe_action=leduc_words,
        suits=suits,
    )


def leduc_sequences(
    ranks: int = 3,
    suits: int = 2,
    bets: tuple[int | tuple[int, ...], int | tuple[int, ...]] | None = None,
) -> int:
    """Both players' sequences in :func:`leduc_structured`'s numbering, counted from the
    betting alone, without building the public tree (whose lines grow as ``sizes^2`` a
    round: eight sizes a round made 167 million sequences and 78 s of building before the
    memory refusal).  With ``D`` cards and, per round and player, ``A`` the actions at the
    player's decisions of one betting line and ``C`` the round-one lines that end in a
    call: ``1 + D A1 + C D (D - 1) A2`` per player (every hand in round one; in round two
    the hands but the public card, under each of the ``D`` public cards).  Checked against
    the numbering in the tests."""
    deck, first, second = _counted(ranks, suits, bets)
    return sum(
        1 + deck * first.actions[p] + first.calls * deck * (deck - 1) * second.actions[p]
        for p in (0, 1)
    )


def leduc_sized_tree_nodes(
    ranks: int = 3,
    suits: int = 2,
    bets: tuple[int | tuple[int, ...], int | tuple[int, ...]] | None = None,
) -> int:
    """Nodes of :func:`leduc_poker`'s tree with bet sizes ``bets``, from its betting alone:
    :func:`leduc_tree_nodes`' count with each round's nodes per line counted
    (:func:`_round_counts`): ``1 + D + D (D - 1) (N1 + C (D - 2) N2)``."""
    deck, first, second = _counted(ranks, suits, bets)
    per_deal = first.nodes + first.calls * (deck - 2) * second.nodes
    return dealt_tree_nodes(deal_nodes=1 + deck, deals=deck * (deck - 1), nodes_per_deal=per_deal)


def _counted(
    ranks: int, suits: int, bets: tuple[int | tuple[int, ...], int | tuple[int, ...]] | None
) -> tuple[int, _RoundCounts, _RoundCounts]:
    """The deck's cards and both rounds' :class:`_RoundCounts`, the parameters checked."""
    check_parameters(ranks, suits, False)
    sizes = check_bets(bets)
    return ranks * suits, _round_counts(len(sizes[0])), _round_counts(len(sizes[1]))


@dataclass(frozen=True)
class _RoundCounts:
    actions: tuple[int, int]  # per player, the actions at its decisions of the round
    calls: int  # the lines that end in a call (the round is over, the hand goes on)
    nodes: int  # decisions, folds and calls: the round's nodes in the tree, per line


def _round_counts(sizes: int) -> _RoundCounts:
    """:class:`_RoundCounts` of one betting round with ``sizes`` bet sizes, as
    :func:`_betting` builds it (the same moves, counted)."""
    actions, calls, nodes = [0, 0], 0, 0
    stack = [(0, False, 0)]  # (actions so far, facing a bet, raises so far)
    while stack:
        length, facing, raises = stack.pop()
        player = length % 2
        opened = raises < MAX_BETS_PER_ROUND
        actions[player] += int(facing) + 1 + (sizes if opened else 0)
        nodes += 1 + int(facing)  # the decision, and a fold's leaf
        if facing or length:
            calls += 1
            nodes += 1  # the round is over: the next round's chance node, or a showdown
        else:
            stack.append((1, False, raises))
        if opened:
            stack.extend((length + 1, True, raises + 1) for _ in range(sizes))
    return _RoundCounts((actions[0], actions[1]), calls, nodes)


def _showdown(levels: tuple[np.ndarray, np.ndarray]) -> RoundOver:
    """After round 2: the better hand wins what each player has put in (equal amounts)."""
    return lambda put_in, _round_two: PublicLeaf(Sign(Fraction(put_in[0])), levels)


def _betting(
    sizes: Bets,
    round_index: int,
    betting: tuple[str, ...],
    put_in: tuple[int, int],
    prefix: str,
    round_over: RoundOver,
) -> PublicDecision:
    """The rest of a betting round after ``betting`` (history ``prefix`` and the actions
    joined), each player having ``put_in`` the pot; a call that ends the round leads to
    ``round_over``; each bet or raise is one of the round's ``sizes`` beyond the call."""
    player = len(betting) % 2
    to_call = put_in[1 - player] - put_in[player]
    actions: list[str] = []
    children: list[PublicNode] = []
    if to_call > 0:
        actions.append("f")
        children.append(PublicLeaf(Constant(Fraction(put_in[1] if player == 1 else -put_in[0]))))
    actions.append("c")
    called = _add(put_in, player, to_call)
    if to_call > 0 or betting:
        children.append(round_over(called, "".join(betting) + "c"))
    else:
        children.append(_betting(sizes, round_index, ("c",), called, prefix, round_over))
    if sum(action.startswith("r") for action in betting) < MAX_BETS_PER_ROUND:
        for size in sizes[round_index]:
            token = raise_token(round_index, size)
            raised = _add(put_in, player, to_call + size)
            actions.append(token)
            children.append(
                _betting(sizes, round_index, (*betting, token), raised, prefix, round_over)
            )
    return PublicDecision(player, tuple(actions), tuple(children), prefix + "".join(betting))


def _add(put_in: tuple[int, int], player: int, amount: int) -> tuple[int, int]:
    return (put_in[0] + amount, put_in[1]) if player == 0 else (put_in[0], put_in[1] + amount)
