"""Where two spots differ: the first key of a spot file in which they are not the same game.

A spot's description ("river spot on Ks7h2d9c4s") names its street and board only, and its
information sets are named by combo and betting history; two spots with the same labels can
still differ in pot, stacks, sizes or range weights, and a strategy of one is then not a
strategy of the other.  :func:`spot_difference` compares two :class:`~seqform.holdem.spot.Spot`
objects as games, key by key in about the order of a spot file's keys
(:data:`~seqform.holdem.spot.KEYS`), and names the first difference as a spot file writes it:

* ``board``, ``pot``, ``effective_stack``, and after the sizes ``max_raises`` and
  ``all_in_threshold`` (``none`` when not given);
* ``oop_range``, ``ip_range``: by weight, not by text (``AA,KK`` and ``KK,AA`` are one range);
  the first combo group (``AA``, ``AKs``, ``AKo``, high cards first) whose weights differ,
  named as a group when each spot weighs all its combos alike, else by its first combo
  that differs (``AhAd``); a combo not in a range weighs 0;
* the sizes of each street the spot plays (:meth:`~seqform.holdem.spot.Spot.sizes`), so that
  a street written as a table and the same sizes written at the top level agree: per player
  ``oop_bet_sizes``, ``ip_raise_sizes``, ..., ``donk_sizes``, and ``all_in``
  (``oop_all_in``/``ip_all_in`` when the players differ), prefixed by the street's table
  (``[turn] oop_bet_sizes``) when either spot has one for that street.

The spots' names (their files) are not compared: the same spot saved under another name is
the same game.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from seqform.holdem.betting import amount_text
from seqform.holdem.cards import RANKS, all_combos, card_text, combo_text
from seqform.holdem.ranges import HandRange
from seqform.holdem.spot import Spot, StreetSizes

__all__ = ["SpotDifference", "spot_difference"]


@dataclass(frozen=True)
class SpotDifference:
    """The first key in which two spots differ.

    key : the spot file's key (``"pot"``, ``"oop_range"``, ``"[turn] oop_bet_sizes"``)
    item : in a range, what weighs differently and the verb (``"AA weighs "``,
        ``"AhAd weighs "``); ``""`` for the other keys
    first, second : the value in the first and in the second spot, as a spot file writes it
    """

    key: str
    item: str
    first: str
    second: str


def spot_difference(first: Spot, second: Spot) -> SpotDifference | None:
    """The first key (module docstring) in which ``first`` and ``second`` differ, or None
    when they are the same game: the board, pot and stack, the ranges, each street's sizes,
    then ``max_raises`` and ``all_in_threshold``, as a spot file orders its keys."""
    for key, one, other in (
        ("board", _board_text(first.board), _board_text(second.board)),
        ("pot", _amount(first.pot), _amount(second.pot)),
        ("effective_stack", _amount(first.effective_stack), _amount(second.effective_stack)),
    ):
        if one != other:
            return SpotDifference(key, "", one, other)
    for index, key in enumerate(("oop_range", "ip_range")):
        found = _range_difference(key, first.ranges[index], second.ranges[index], first.board)
        if found is not None:
            return found
    for street in _played(first):
        tabled = any(street == name for spot in (first, second) for name, _ in spot.tables)
        prefix = f"[{street}] " if tabled else ""
        found = _sizes_difference(prefix, first.sizes(street), second.sizes(street))
        if found is not None:
            return found
    for key, one, other in (
        ("max_raises", str(first.max_raises), str(second.max_raises)),
        ("all_in_threshold", _amount(first.all_in_threshold), _amount(second.all_in_threshold)),
    ):
        if one != other:
            return SpotDifference(key, "", one, other)
    return None


def _played(spot: Spot) -> tuple[str, ...]:
    """The streets ``spot`` plays, from its own to the river."""
    streets = ("flop", "turn", "river")
    return streets[streets.index(spot.street) :]


def _amount(value: Fraction | None) -> str:
    """An exact number as a spot file writes it; ``none`` for a key not given."""
    return "none" if value is None else amount_text(value)


def _board_text(board: tuple[int, ...]) -> str:
    return "".join(card_text(card) for card in board)


def _sizes_text(sizes: tuple[Fraction, ...] | None) -> str:
    if sizes is None:
        return "none"
    return "[" + ", ".join(amount_text(size) for size in sizes) + "]"


def _sizes_difference(
    prefix: str, first: StreetSizes, second: StreetSizes
) -> SpotDifference | None:
    """The first of one street's sizes in which ``first`` and ``second`` differ."""
    for kind, one, other in (
        ("bet", first.bet_sizes, second.bet_sizes),
        ("raise", first.raise_sizes, second.raise_sizes),
    ):
        for player, who in enumerate(("oop", "ip")):
            if one[player] != other[player]:
                key = f"{prefix}{who}_{kind}_sizes"
                return SpotDifference(key, "", _sizes_text(one[player]), _sizes_text(other[player]))
    if first.donk_sizes != second.donk_sizes:
        return SpotDifference(
            f"{prefix}donk_sizes", "", _sizes_text(first.donk_sizes), _sizes_text(second.donk_sizes)
        )
    if first.all_in != second.all_in:
        if len(set(first.all_in)) == len(set(second.all_in)) == 1:
            return SpotDifference(
                f"{prefix}all_in", "", _flag(first.all_in[0]), _flag(second.all_in[0])
            )
        player = 0 if first.all_in[0] != second.all_in[0] else 1
        key = f"{prefix}{('oop', 'ip')[player]}_all_in"
        return SpotDifference(key, "", _flag(first.all_in[player]), _flag(second.all_in[player]))
    return None


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _group(combo: tuple[int, int]) -> tuple[int, int, int]:
    """A combo's group as a sort key, high cards first: pairs, then suited before offsuit."""
    high, low = max(combo) // 4, min(combo) // 4
    suited = high != low and combo[0] % 4 == combo[1] % 4
    return (-high, -low, 0 if high == low or suited else 1)


def _group_text(group: tuple[int, int, int]) -> str:
    high, low, offsuit = RANKS[-group[0]], RANKS[-group[1]], group[2]
    return high + low if high == low else high + low + ("o" if offsuit else "s")


def _range_difference(
    key: str, first: HandRange, second: HandRange, board: tuple[int, ...]
) -> SpotDifference | None:
    """The first combo group whose weights differ in ``first`` and ``second`` (ranges on the
    same ``board``, without the combos that hold a board card)."""
    one = dict(zip(first.combos, first.weights, strict=True))
    other = dict(zip(second.combos, second.weights, strict=True))
    if one == other:
        return None
    public = set(board)
    groups: dict[tuple[int, int, int], list[tuple[int, int]]] = {}
    for combo in all_combos():
        if combo[0] not in public and combo[1] not in public:
            groups.setdefault(_group(combo), []).append(combo)
    zero = Fraction(0)
    for group in sorted(groups):
        combos = groups[group]
        weights = [(one.get(c, zero), other.get(c, zero)) for c in combos]
        if all(a == b for a, b in weights):
            continue
        if len({a for a, _ in weights}) == 1 and len({b for _, b in weights}) == 1:
            first_weight, second_weight = weights[0]
            item = _group_text(group)
        else:
            index = next(i for i, (a, b) in enumerate(weights) if a != b)
            first_weight, second_weight = weights[index]
            item = combo_text(combos[index])
        return SpotDifference(
            key, f"{item} weighs ", amount_text(first_weight), amount_text(second_weight)
        )
    raise AssertionError(f"{key}: the ranges differ only in combos that hold a board card")
