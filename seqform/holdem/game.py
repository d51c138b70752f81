"""A hold'em spot as a structured game: the public betting tree × both players' combos.

A river spot is one street of betting (:mod:`seqform.holdem.betting`) over the five-card
board; a turn spot is the turn's betting, then the river card as a public chance node (each
card not on the board and not in either hand with probability 1/44: 52 cards less 4 on the
board and 4 in the hands), then the river's betting; a flop spot is the flop's betting, the
turn card (1/45: 52 less 3 and 4), the turn's betting, the river card and the river's.  Each
street bets with its own sizes (:meth:`~seqform.holdem.spot.Spot.sizes`); OOP's first bet on
the turn or river takes the street's donk sizes when OOP called on the street before.  After
an all-in is called, the cards still to come are dealt to the showdown with no betting.
Each player's private hands are the combos of its range (labels ``"AhKh"``, weights the
range's), each holding two cards: a deal ``(h0, h1)`` has probability ``w0[h0] w1[h1] / Z``
when the combos share no card (``Z`` the sum of ``w0 w1`` over such pairs, exact) —
the card removal of every river solver.

Payoffs.  A spot is *constant-sum* in the convention players use: with ``P`` the pot at the
start of the spot, OOP's EV plus IP's EV is ``P`` (each player's EV is the share of the pot
it wins, less what it puts in during the spot).  seqform solves the zero-sum game whose
payoff to OOP is that EV less ``P/2``, so the game's value ``v`` gives OOP's EV
``P/2 + v`` and IP's ``P/2 − v``.  With ``c0, c1`` what each player has put in since the
spot began:

* OOP folds: ``−c0 − P/2``; IP folds: ``P/2 + c1`` (:class:`~seqform.game.public.tree.Constant`);
* a showdown (``c0 = c1 = c``): ``(P/2 + c) · sign(l0 − l1)``
  (:class:`~seqform.game.public.tree.Sign` over the combos' levels on the final board, from
  :func:`~seqform.holdem.strength.showdown_levels`).

Sizes before the build.  The public tree is counted from the betting alone
(:func:`public_counts`, :func:`spot_tree_nodes`): a street's count depends on its betting
line and on how many cards are left to deal, not on which, so each line is counted once.
The commands that run on the explicit tree refuse a spot beyond :data:`SPOT_TREE_NODES` by
that count (:func:`load_spot_tree`), before its public tree is built.

Size: a little over 400 lines, as the count reads the builder's own betting lines
(:class:`_Line`), so that the tree counted and the tree built cannot differ.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from seqform.base.limits import LIMITS
from seqform.game.errors import TreeTooLargeError
from seqform.game.model import Game
from seqform.game.public.explicit import (
    explicit_game,
    ordered_deal,
    refuse_tree_nodes,
    tree_nodes_of,
)
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
from seqform.holdem.betting import Bet, street_tree
from seqform.holdem.cards import SUITS, card_text, combo_text
from seqform.holdem.ranges import HandRange
from seqform.holdem.spot import Spot, read_spot
from seqform.holdem.strength import showdown_levels

__all__ = [
    "SPOT_TREE_NODES",
    "PublicCounts",
    "deal_total",
    "is_spot_file",
    "load_spot_game",
    "load_spot_tree",
    "public_counts",
    "spot_combos",
    "spot_game",
    "spot_tree_nodes",
]

HAND_CARDS = 4  # the two players' hole cards, never dealt to the board
STREET_NAMES = {3: "flop", 4: "turn", 5: "river"}  # by the board's length


def _hands(hand_range: HandRange) -> Hands:
    return Hands(
        labels=tuple(combo_text(combo) for combo in hand_range.combos),
        weights=tuple(hand_range.weights),
        cards=np.asarray(hand_range.combos, dtype=np.int64).reshape(-1, 2),
    )


def deal_total(first: HandRange, second: HandRange) -> Fraction:
    """``Z = sum of w0[h0] w1[h1]`` over the pairs of combos that share no card, exact, by
    inclusion and exclusion over cards: all pairs, less the pairs sharing each card, plus
    the pairs that are the same two cards (counted once per card above)."""
    total = sum(first.weights, Fraction(0)) * sum(second.weights, Fraction(0))
    by_card = [Fraction(0)] * 52, [Fraction(0)] * 52
    for side, hand_range in enumerate((first, second)):
        for combo, weight in zip(hand_range.combos, hand_range.weights, strict=True):
            for card in combo:
                by_card[side][card] += weight
    total -= sum(a * b for a, b in zip(*by_card, strict=True))
    twins = dict(zip(second.combos, second.weights, strict=True))
    pairs = zip(first.combos, first.weights, strict=True)
    total += sum(weight * twins[combo] for combo, weight in pairs if combo in twins)
    return total


@dataclass(frozen=True, slots=True)
class _Line:
    """A street's betting decision made ready to be copied under every board card: its
    payoffs are computed once, as they depend on the chips, not on the cards."""

    player: int
    actions: tuple[str, ...]
    history: str  # the street's actions before it, joined by "-"
    children: tuple[_Line | _Close, ...]


@dataclass(frozen=True, slots=True)
class _Close:
    """The street is over: ``rule`` pays a fold, or a showdown at ``put_in``; ``put_in``
    is what each player has put in since the spot began (after a call), ``history`` the
    street's actions; ``donk`` whether OOP called (IP was the street's aggressor)."""

    folded: bool
    rule: Constant | Sign
    put_in: Fraction
    all_in: bool
    donk: bool
    history: str


class _Builder:
    """Writes the public tree of a spot (module docstring)."""

    def __init__(self, spot: Spot) -> None:
        self.spot = spot
        self.half_pot = spot.pot / 2
        self.levels: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] = {}
        # A flop holds about 2,000 copies of each turn and river line, which differ only in
        # the cards: each is worked out once (exact fractions are slow), then copied.
        self.lines: dict[tuple[str, Fraction, bool], _Line] = {}
        self.rules: dict[tuple[int | None, Fraction], Constant | Sign] = {}

    def street(
        self, board: tuple[int, ...], before: Fraction, prefix: str, donk: bool = False
    ) -> PublicDecision:
        """One street's betting from ``before`` chips each already put in; ``prefix`` is
        the public history so far (for the information sets' names); ``donk`` whether OOP
        called on the street before (its lead is then a donk bet)."""
        return self._public(self.line(STREET_NAMES[len(board)], before, donk), board, prefix)

    def line(self, street: str, before: Fraction, donk: bool) -> _Line:
        """The betting of ``street`` from ``before`` chips each, worked out once (its
        payoffs depend on the chips, not on the cards)."""
        key = (street, before, donk)
        if key not in self.lines:
            spot = self.spot
            sizes = spot.sizes(key[0])
            bets = sizes.bet_sizes
            if donk and sizes.donk_sizes is not None:
                bets = (sizes.donk_sizes, bets[1])
            try:
                tree = street_tree(
                    spot.pot + 2 * before,
                    spot.effective_stack - before,
                    bets,
                    sizes.raise_sizes,
                    spot.max_raises,
                    all_in=sizes.all_in,
                    all_in_threshold=spot.all_in_threshold,
                )
            except TreeTooLargeError as error:
                raise TreeTooLargeError(f"{spot.name}: the {street}: {error}") from None
            self.lines[key] = self._line(tree, before)
        return self.lines[key]

    def _line(self, node: Bet, before: Fraction) -> _Line:
        children: list[_Line | _Close] = []
        for action, child in zip(node.actions, node.children, strict=True):
            if isinstance(child, Bet):
                children.append(self._line(child, before))
                continue
            first, second = before + child.put_in[0], before + child.put_in[1]
            if child.folded == 0:
                rule = self._rule(0, first)
            elif child.folded == 1:
                rule = self._rule(1, second)
            else:
                rule = self._rule(None, first)
            donk = action == "c" and node.player == 0  # OOP called: IP was the aggressor
            history = "-".join(filter(None, (node.history, action)))
            folded = child.folded is not None
            children.append(_Close(folded, rule, first, child.all_in, donk, history))
        return _Line(node.player, node.actions, node.history, tuple(children))

    def _public(self, line: _Line, board: tuple[int, ...], prefix: str) -> PublicDecision:
        children: list[PublicNode] = []
        for child in line.children:
            if isinstance(child, _Line):
                children.append(self._public(child, board, prefix))
            elif child.folded:
                children.append(PublicLeaf(child.rule))
            elif len(board) == 5:
                children.append(PublicLeaf(child.rule, self._levels(board)))
            else:
                history = f"{prefix}{child.history}"
                children.append(self._deal(board, child.put_in, history, child.all_in, child.donk))
        return PublicDecision(line.player, line.actions, tuple(children), f"{prefix}{line.history}")

    def _rule(self, folded: int | None, put_in: Fraction) -> Constant | Sign:
        """The payoff rule of a leaf (module docstring), one object per amount: ``folded``
        the player who folded (``put_in`` what it put in during the spot) or None at a
        showdown (``put_in`` what each put in)."""
        key = (folded, put_in)
        if key not in self.rules:
            if folded == 0:
                self.rules[key] = Constant(-put_in - self.half_pot)
            elif folded == 1:
                self.rules[key] = Constant(self.half_pot + put_in)
            else:
                self.rules[key] = Sign(self.half_pot + put_in)
        return self.rules[key]

    def _deal(
        self, board: tuple[int, ...], before: Fraction, history: str, all_in: bool, donk: bool
    ) -> PublicChance:
        """The next board card, then its street's betting (or, all-in, the rest of the
        board to the showdown)."""
        cards = tuple(card for card in range(52) if card not in board)
        children: list[PublicNode] = []
        for card in cards:
            dealt = (*board, card)
            if all_in and len(dealt) == 5:
                children.append(self._showdown(dealt, before))
            elif all_in:
                children.append(self._deal(dealt, before, history, True, False))
            else:
                where = f"{history}|{card_text(card)}|"
                children.append(self.street(dealt, before, where, donk))
        return PublicChance(
            label=STREET_NAMES[len(board) + 1],
            outcomes=tuple(card_text(card) for card in cards),
            cards=cards,
            probability=Fraction(1, 52 - len(board) - HAND_CARDS),
            children=tuple(children),
        )

    def _showdown(self, board: tuple[int, ...], put_in: Fraction) -> PublicLeaf:
        return PublicLeaf(self._rule(None, put_in), self._levels(board))

    def _levels(self, board: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
        """Both players' levels on a five-card board, one array pair per board (shared by
        its leaves); combos that hold a board card get level 0 (they never reach it)."""
        key = tuple(sorted(board))
        if key not in self.levels:
            public = set(board)
            live = [
                [i for i, combo in enumerate(r.combos) if public.isdisjoint(combo)]
                for r in self.spot.ranges
            ]
            ranges = self.spot.ranges
            found = showdown_levels(
                board, *([r.combos[i] for i in rows] for r, rows in zip(ranges, live, strict=True))
            )
            pair = []
            for hand_range, rows, levels in zip(self.spot.ranges, live, found, strict=True):
                full = np.zeros(len(hand_range), dtype=np.int64)
                full[rows] = levels
                pair.append(full)
            self.levels[key] = (pair[0], pair[1])
        return self.levels[key]


@dataclass(frozen=True)
class PublicCounts:
    """A spot's public tree counted from its betting, before it is built
    (:func:`public_counts`).

    decisions, chances, leaves : its public decisions, public chance nodes and leaves
    sequences : per player, its public sequences (an action at one of the player's public
        decisions), as :attr:`seqform.holdem.lp_work.SpotSize.public_sequences` counts them
    """

    decisions: int
    chances: int
    leaves: int
    sequences: tuple[int, int] = (0, 0)

    @property
    def nodes(self) -> int:
        return self.decisions + self.chances + self.leaves

    def __add__(self, other: PublicCounts) -> PublicCounts:
        return PublicCounts(
            self.decisions + other.decisions,
            self.chances + other.chances,
            self.leaves + other.leaves,
            (self.sequences[0] + other.sequences[0], self.sequences[1] + other.sequences[1]),
        )

    def dealt(self, cards: int) -> PublicCounts:
        """One chance node over ``cards`` cards, each followed by these counts."""
        first, second = self.sequences
        return PublicCounts(
            cards * self.decisions,
            1 + cards * self.chances,
            cards * self.leaves,
            (cards * first, cards * second),
        )


_LEAF = PublicCounts(0, 0, 1)


class _Counter:
    """Counts the public tree :class:`_Builder` writes, without writing it: a street's
    count depends on its betting (the builder's :meth:`_Builder.line`) and on how many cards
    are left to deal, not on which, so each street is counted once per betting line."""

    def __init__(self, spot: Spot) -> None:
        self.builder = _Builder(spot)
        self.streets: dict[tuple[int, Fraction, bool], PublicCounts] = {}

    def street(self, board: int, before: Fraction, donk: bool) -> PublicCounts:
        """As :meth:`_Builder.street` on a board of ``board`` cards."""
        key = (board, before, donk)
        if key not in self.streets:
            line = self.builder.line(STREET_NAMES[board], before, donk)
            self.streets[key] = self._line(line, board)
        return self.streets[key]

    def _line(self, line: _Line, board: int) -> PublicCounts:
        actions = len(line.actions)
        counted = PublicCounts(1, 0, 0, (0, actions) if line.player else (actions, 0))
        for child in line.children:
            if isinstance(child, _Line):
                counted += self._line(child, board)
            elif child.folded or board == 5:
                counted += _LEAF
            else:
                counted += self._deal(board, child.put_in, child.all_in, child.donk)
        return counted

    def _deal(self, board: int, before: Fraction, all_in: bool, donk: bool) -> PublicCounts:
        """As :meth:`_Builder._deal`: one chance node over the cards not on the board."""
        dealt = board + 1
        if all_in and dealt == 5:
            below = _LEAF
        elif all_in:
            below = self._deal(dealt, before, True, False)
        else:
            below = self.street(dealt, before, donk)
        return below.dealt(52 - board)


def public_counts(spot: Spot) -> PublicCounts:
    """The nodes of :func:`spot_game`'s public tree, counted from the spot's betting alone
    in milliseconds: building the public tree of TexasSolver's benchmark flop (379,031
    decisions, 2,759 chance nodes, 651,175 leaves) takes 10 s to 73 s."""
    return _Counter(spot).street(len(spot.board), Fraction(0), False)


def spot_tree_nodes(spot: Spot) -> int:
    """At most the nodes of the spot's explicit tree, as
    :func:`~seqform.game.public.explicit.tree_nodes` counts them on :func:`spot_game`, from
    :func:`public_counts` and the ranges, before the public tree is built."""
    hands = (_hands(spot.ranges[0]), _hands(spot.ranges[1]))
    return tree_nodes_of(hands, public_counts(spot).nodes)


def spot_combos(spot: Spot) -> tuple[int, int]:
    """Each player's combos in the spot's range, as :func:`spot_game`'s hands hold them."""
    return (len(spot.ranges[0].combos), len(spot.ranges[1].combos))


def spot_game(spot: Spot) -> StructuredGame:
    """The structured game of a spot (module docstring).

    It declares its cards' suits (``4 · rank + suit``) and the board as fixed cards, so the
    structured route merges suits where the whole spot is proven invariant
    (:func:`~seqform.game.public.symmetry.game_symmetries`: the board mapped onto itself as
    a set, each range onto itself weight for weight, the public tree and showdowns onto
    themselves) and certifies the lifted answer on the spot itself.  Its ``origin`` is
    ``spot``, which its description (street and board) does not give in full: a strategy
    document of another pot or other range weights is refused by it."""
    root = _Builder(spot).street(spot.board, Fraction(0), "|")
    return StructuredGame(
        name=spot.name,
        hands=(_hands(spot.ranges[0]), _hands(spot.ranges[1])),
        deal_scale=1 / deal_total(*spot.ranges),
        root=root,
        write_deal=ordered_deal("deal", ","),
        description=f"{spot.street} spot on {''.join(card_text(c) for c in spot.board)}",
        suits=len(SUITS),
        fixed_cards=tuple(spot.board),
        origin=spot,
    )


SPOT_TREE_NODES = LIMITS.spot_tree_nodes  # why: seqform.base.limits


def is_spot_file(spec: object) -> bool:
    """Whether ``spec`` names a spot file (``*.toml``)."""
    return isinstance(spec, str | os.PathLike) and os.fspath(spec).lower().endswith(".toml")


def load_spot_game(path: str | os.PathLike[str]) -> StructuredGame:
    """The structured game of the spot file at ``path`` (:func:`read_spot`, :func:`spot_game`).

    Raises
    ------
    SpotFileError, CardError
        For a file that is not a spot, naming the file and the key.
    OSError
        For a file that cannot be read.
    """
    return spot_game(read_spot(path))


def load_spot_tree(path: str | os.PathLike[str]) -> Game:
    """The explicit game tree of the spot file at ``path``, refused beyond
    :data:`SPOT_TREE_NODES` nodes (``solve`` takes the structured route without it) before
    the spot's public tree is built, by :func:`spot_tree_nodes`: TexasSolver's benchmark
    flop (65 billion nodes) is refused in a second, where building its public tree and
    numbering it to count took 40 s (``compare``, ``ranges``, ``exploit`` on it).

    Raises
    ------
    TreeTooLargeError
        Beyond :data:`SPOT_TREE_NODES` nodes.
    SpotFileError, CardError, OSError
        As :func:`load_spot_game`.
    """
    spot = read_spot(path)
    refuse_tree_nodes(
        spot.name, spot_tree_nodes(spot), SPOT_TREE_NODES, "solve (the structured route)"
    )
    return explicit_game(spot_game(spot))  # its size checked above: the same count
