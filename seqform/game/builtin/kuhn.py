"""Kuhn poker (Kuhn 1950), with the labels of the seeds.

Rules: two players ante 1 each and receive one card from J < Q < K; the third card is
unseen.  Player 1 checks (``p``) or bets 1 (``b``).  After a check, player 2 checks
(showdown for 1) or bets; player 1 then folds (``p``) or calls (``b``, showdown for 2).
After a bet, player 2 folds or calls (showdown for 2).  Terminal histories: ``pp``,
``pbp``, ``pbb``, ``bp``, ``bb``.

Information sets are named by the owner's card and the betting history it has seen:
player 1 has ``J Q K Jpb Qpb Kpb``, player 2 has ``Jp Jb Qp Qb Kp Kb``.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal

__all__ = ["CARDS", "MAX_TREE_NODES", "kuhn_poker", "poker_words"]

CARDS = ("J", "Q", "K")
MAX_TREE_NODES = 30_000_000  # beyond this, the tree is refused: --method sparsified needs none


def poker_words(infoset: str, action: str) -> str:
    """Say a ``p``/``b`` action in poker words: after a bet, p folds and b calls."""
    facing_bet = infoset.endswith("b")
    if action == "p":
        return "fold" if facing_bet else "check"
    if action == "b":
        return "call" if facing_bet else "bet"
    return action


# Player 0 wins 1 or 2, or loses them: four terminal payoffs, shared by the whole tree.
_OUTCOMES = {won: Terminal((Fraction(won), Fraction(-won))) for won in (-2, -1, 1, 2)}


def _showdown(card0: int, card1: int, pot_share: int) -> Terminal:
    """Terminal where each player has put ``pot_share`` in; the higher card wins it."""
    return _OUTCOMES[pot_share if card0 > card1 else -pot_share]


def _fold(loser: int, stake: int) -> Terminal:
    return _OUTCOMES[-stake if loser == 0 else stake]


def _deal_subtree(names: tuple[str, str], ranks: tuple[int, int]) -> Node:
    """The betting after a deal; ``names`` are the cards' labels, ``ranks`` their order."""
    first, second = names
    r0, r1 = ranks
    after_check_bet = Decision(
        0,
        f"{first}pb",
        ("p", "b"),
        (_fold(0, 1), _showdown(r0, r1, 2)),
    )
    after_check = Decision(1, f"{second}p", ("p", "b"), (_showdown(r0, r1, 1), after_check_bet))
    after_bet = Decision(1, f"{second}b", ("p", "b"), (_fold(1, 1), _showdown(r0, r1, 2)))
    return Decision(0, first, ("p", "b"), (after_check, after_bet))


def kuhn_poker(cards: int = 3) -> Game:
    """Kuhn poker with ``cards`` cards (default 3: J, Q, K; otherwise ranks 1..cards).

    Every ordered pair of distinct cards is dealt with probability 1 / (cards (cards - 1)).

    Raises
    ------
    ValueError
        If ``cards`` is not an integer of at least 2.
    """
    if isinstance(cards, bool) or not isinstance(cards, int) or cards < 2:
        raise ValueError(f"kuhn: cards must be an integer >= 2, got {cards!r}")
    nodes = 1 + 9 * cards * (cards - 1)  # the deal, then 4 decisions and 5 leaves per deal
    if nodes > MAX_TREE_NODES:
        raise ValueError(
            f"kuhn(cards={cards}): the game tree would have {nodes:,} nodes, more than the "
            f"{MAX_TREE_NODES:,} seqform builds; solve it with --method sparsified, which "
            "never builds the tree"
        )
    names = CARDS if cards == 3 else tuple(str(rank) for rank in range(1, cards + 1))
    deals = list(permutations(range(cards), 2))
    probability = Fraction(1, len(deals))
    separator = "" if cards == 3 else ","
    root = Chance(
        outcomes=tuple(f"{names[a]}{separator}{names[b]}" for a, b in deals),
        probabilities=(probability,) * len(deals),
        children=tuple(_deal_subtree((names[a], names[b]), (a, b)) for a, b in deals),
        label="deal",
    )
    title = "kuhn" if cards == 3 else f"kuhn(cards={cards})"
    return Game(
        name=title,
        root=root,
        describe_action=poker_words,
        description=f"Kuhn poker (Kuhn 1950) with {cards} cards",
    )
