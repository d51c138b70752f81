"""A hold'em spot file: the river, turn or flop subgame a player wants solved, in TOML.

::

    board = "Ks7h2d9c4s"          # 5 cards: a river spot; 4: a turn spot; 3: a flop spot
    pot = 10                      # chips already in the pot
    effective_stack = 100         # chips each player still has behind
    oop_range = "22+,A2s+,KQo,JdTd:0.5"
    ip_range = "QQ+,AK"
    bet_sizes = [0.5, 1.0]        # fractions of the pot; all-in is always allowed
    raise_sizes = [1.0]           # optional; fractions of the pot after the call
    max_raises = 3                # optional; raises per street after the first bet

    all_in_threshold = 0.67       # optional: a bet or raise committing more than this share
                                  # of the starting stack is made all-in instead
    donk_sizes = [0.5]            # optional: OOP's lead after calling on the street before
    [turn]                        # optional, one table per street the spot plays:
    bet_sizes = [1.0]             #   the sizes of that street (the keys above), replacing the
    donk_sizes = [1.0]            #   top-level ones there; oop_all_in / ip_all_in for one
    ip_all_in = false             #   player's all-in

The rules of the sizes are :mod:`seqform.holdem.betting`'s.  A *donk bet* is OOP's lead on the
turn or river after OOP called a bet or raise on the street before (so IP was the last to bet
or raise there): with ``donk_sizes`` given, that lead takes those sizes instead of OOP's bet
sizes (TexasSolver's ``set_bet_sizes oop,turn,donk,...``: its game-tree builder marks the
chance node after OOP's call as a donk node and offers OOP's donk sizes at the decision below
it); after check-check, or after IP called, OOP leads with its bet sizes.  The
*all-in threshold* ``t`` is TexasSolver's ``set_allin_threshold``: a sized bet or raise after
which the player would have put in more than ``t`` times what it started with (its share
``pot / 2`` of the starting pot plus the effective stack) becomes the all-in; ``t >= 1``
changes nothing, since no bet exceeds the stack (TexasSolver's own default is 0.67; seqform's
is none).

These key names are the contract: spot files already written use them.  The file is
read with the standard library's :mod:`tomllib`; numbers stay exact (a TOML ``0.75`` is
3/4, read from its decimal text, not the float nearest it).  Every mistake is one line that
names the file and the key: a key that is not known (with the closest known one), a board
that is not 4 or 5 distinct cards, an unreadable range (its item), a size or pot that is not
positive, a number that is not finite (``nan``, ``inf``) or above :data:`MAX_CHIPS`, arrays
nested deeper than TOML needs, ranges that cannot be dealt together.  A file is refused before
it is read when it is larger than :data:`MAX_SPOT_BYTES`.  OOP (out of position) is player 1 in
seqform's numbering (index 0) and acts first on each street.
"""

from __future__ import annotations

import difflib
import math
import os
import tomllib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from seqform.base.limits import LIMITS
from seqform.holdem.cards import CardError, parse_board
from seqform.holdem.ranges import HandRange, parse_range, remove_board

__all__ = [
    "KEYS",
    "MAX_CHIPS",
    "MAX_SPOT_BYTES",
    "STREETS",
    "Spot",
    "SpotFileError",
    "StreetSizes",
    "read_spot",
    "spot_from_mapping",
]

KEYS = (
    "board",
    "pot",
    "effective_stack",
    "oop_range",
    "ip_range",
    "bet_sizes",
    "raise_sizes",
    "max_raises",
    "oop_bet_sizes",
    "ip_bet_sizes",
    "oop_raise_sizes",
    "ip_raise_sizes",
    "all_in",
    "donk_sizes",
    "all_in_threshold",
    "flop",
    "turn",
    "river",
)
STREETS = ("flop", "turn", "river")
STREET_KEYS = (
    "bet_sizes",
    "raise_sizes",
    "oop_bet_sizes",
    "ip_bet_sizes",
    "oop_raise_sizes",
    "ip_raise_sizes",
    "donk_sizes",
    "all_in",
    "oop_all_in",
    "ip_all_in",
)
_REQUIRED = KEYS[:6]
DEFAULT_MAX_RAISES = 3
MAX_SPOT_BYTES = LIMITS.spot_bytes  # why: seqform.base.limits
MAX_CHIPS = LIMITS.chips  # why: seqform.base.limits


class SpotFileError(ValueError):
    """A spot file that cannot be read; the message names the file and the key."""


@dataclass(frozen=True)
class StreetSizes:
    """The sizes of one street, as the betting tree reads them.

    bet_sizes, raise_sizes : exact pot fractions, a pair (OOP's, IP's)
    donk_sizes : OOP's lead after calling on the street before (module docstring), or None
        for OOP's bet sizes there too
    all_in : per player, whether all-in is always a bet and a raise
    """

    bet_sizes: tuple[tuple[Fraction, ...], tuple[Fraction, ...]]
    raise_sizes: tuple[tuple[Fraction, ...], tuple[Fraction, ...]]
    donk_sizes: tuple[Fraction, ...] | None
    all_in: tuple[bool, bool]


@dataclass(frozen=True)
class Spot:
    """A river, turn or flop spot, read and checked.

    board : 3 (flop), 4 (turn) or 5 (river) card numbers (:mod:`seqform.holdem.cards`)
    pot, effective_stack : exact chips
    ranges : OOP's and IP's ranges without the combos that hold a board card
    bet_sizes, raise_sizes : exact fractions of the pot (raises: of the pot after the call),
        each a pair (OOP's, IP's): ``oop_bet_sizes`` and the like replace the shared
        ``bet_sizes`` for one player (``oop_bet_sizes = []``: OOP never bets, as in the toy
        games of *The Mathematics of Poker*)
    max_raises : raises allowed per street after the first bet
    all_in : whether all-in is always a bet and a raise (key ``all_in``, default true)
    name : how seqform names the spot (the file's stem)
    donk_sizes : OOP's donk-bet sizes on every street without a table of its own, or None
    all_in_threshold : TexasSolver's all-in threshold (module docstring), or None
    tables : the streets with a table of their own (``[turn]``), each with its sizes (the
        top-level keys overlaid by the table's); :meth:`sizes` reads the others from the
        top-level fields
    """

    board: tuple[int, ...]
    pot: Fraction
    effective_stack: Fraction
    ranges: tuple[HandRange, HandRange]
    bet_sizes: tuple[tuple[Fraction, ...], tuple[Fraction, ...]]
    raise_sizes: tuple[tuple[Fraction, ...], tuple[Fraction, ...]]
    max_raises: int
    name: str
    all_in: bool = True
    donk_sizes: tuple[Fraction, ...] | None = None
    all_in_threshold: Fraction | None = None
    tables: tuple[tuple[str, StreetSizes], ...] = ()

    @property
    def street(self) -> str:
        """``"river"``, ``"turn"`` or ``"flop"``: the street the spot starts on."""
        return STREETS[len(self.board) - 3]

    def sizes(self, street: str) -> StreetSizes:
        """The sizes of ``street`` (``"flop"``, ``"turn"``, ``"river"``): its table's, or
        the top-level ones."""
        for name, sizes in self.tables:
            if name == street:
                return sizes
        return StreetSizes(
            self.bet_sizes, self.raise_sizes, self.donk_sizes, (self.all_in, self.all_in)
        )


def _number(value: Any, where: str, *, positive: bool = True) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SpotFileError(f"{where} must be a number, not {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise SpotFileError(f"{where} must be a finite number, not {value}")
    number = Fraction(str(value)) if isinstance(value, float) else Fraction(value)
    if positive and number <= 0:
        raise SpotFileError(f"{where} must be greater than 0, not {value}")
    return number


def _chips(value: Any, where: str) -> Fraction:
    number = _number(value, where)
    if number > MAX_CHIPS:
        raise SpotFileError(f"{where} must be at most {MAX_CHIPS:.0e} chips, not {value}")
    return number


def _sizes(value: Any, where: str) -> tuple[Fraction, ...]:
    if not isinstance(value, list):
        raise SpotFileError(f"{where} must be a list of pot fractions such as [0.5, 1.0]")
    sizes = tuple(_number(each, f"{where}[{i}]") for i, each in enumerate(value))
    return tuple(sorted(set(sizes)))


def _player_sizes(
    data: dict[str, Any], kind: str, prefix: str
) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """OOP's and IP's ``kind`` (``bet``/``raise``) sizes: ``oop_<kind>_sizes`` or
    ``ip_<kind>_sizes`` where given, else the shared ``<kind>_sizes`` (raises: none)."""
    shared = data.get(f"{kind}_sizes", [])
    return (
        _sizes(data.get(f"oop_{kind}_sizes", shared), f"{prefix}oop_{kind}_sizes"),
        _sizes(data.get(f"ip_{kind}_sizes", shared), f"{prefix}ip_{kind}_sizes"),
    )


def _range(value: Any, key: str, board: tuple[int, ...], prefix: str) -> HandRange:
    if not isinstance(value, str):
        raise SpotFileError(f'{prefix}{key} must be a range in quotes, such as "22+,AKs"')
    try:
        return remove_board(parse_range(value), board, key)
    except CardError as exc:
        raise SpotFileError(f"{prefix}{key}: {exc}") from None


def _unknown(key: str, known: tuple[str, ...], prefix: str, what: str) -> SpotFileError:
    close = difflib.get_close_matches(key, known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return SpotFileError(f"{prefix}unknown key {key!r}{hint}; {what} has {', '.join(known)}")


def _check_keys(data: dict[str, Any], prefix: str) -> None:
    for key in data:
        if key not in KEYS:
            raise _unknown(key, KEYS, prefix, "a spot")
    both = "oop_bet_sizes" in data and "ip_bet_sizes" in data  # no shared sizes needed
    tables = any(street in data for street in STREETS)  # checked per street instead
    missing = [
        key
        for key in _REQUIRED
        if key not in data and not ((both or tables) and key == "bet_sizes")
    ]
    if missing:
        raise SpotFileError(f"{prefix}missing {', '.join(missing)}")


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise SpotFileError(f"{where} must be true or false, not {value!r}")
    return value


def _street_sizes(data: dict[str, Any], street: str, prefix: str) -> StreetSizes:
    """The sizes of ``street``: its table's keys over the top-level ones."""
    table = data[street]
    where = f"{prefix}[{street}] "
    if not isinstance(table, dict):
        raise SpotFileError(f"{prefix}{street} must be a table, [{street}], of sizes")
    for key in table:
        if key not in STREET_KEYS:
            raise _unknown(key, STREET_KEYS, where, "a street's table")
    merged = {key: data[key] for key in STREET_KEYS if key in data} | table
    has_bets = "bet_sizes" in merged or ("oop_bet_sizes" in merged and "ip_bet_sizes" in merged)
    if not has_bets:
        raise SpotFileError(f"{where}missing bet_sizes (in the table or at the top level)")
    shared = _flag(merged.get("all_in", True), f"{where}all_in")
    donk = merged.get("donk_sizes")
    return StreetSizes(
        bet_sizes=_player_sizes(merged, "bet", where),
        raise_sizes=_player_sizes(merged, "raise", where),
        donk_sizes=None if donk is None else _sizes(donk, f"{where}donk_sizes"),
        all_in=(
            _flag(merged.get("oop_all_in", shared), f"{where}oop_all_in"),
            _flag(merged.get("ip_all_in", shared), f"{where}ip_all_in"),
        ),
    )


def _tables(
    data: dict[str, Any], board: tuple[int, ...], prefix: str
) -> tuple[tuple[str, StreetSizes], ...]:
    """The street tables of a spot starting on ``board``'s street, refusing a table of a
    street the spot does not play."""
    played = STREETS[len(board) - 3 :]
    for street in STREETS:
        if street in data and street not in played:
            raise SpotFileError(
                f"{prefix}[{street}]: a spot on a {len(board)}-card board plays "
                f"{', '.join(played)} only"
            )
    tables = tuple(
        (street, _street_sizes(data, street, prefix)) for street in played if street in data
    )
    if any(street not in data for street in played) and not (
        "bet_sizes" in data or ("oop_bet_sizes" in data and "ip_bet_sizes" in data)
    ):
        bare = [street for street in played if street not in data]
        raise SpotFileError(
            f"{prefix}missing bet_sizes (at the top level, for the {', '.join(bare)})"
        )
    return tables


def _threshold(data: dict[str, Any], prefix: str) -> Fraction | None:
    if "all_in_threshold" not in data:
        return None
    return _number(data["all_in_threshold"], f"{prefix}all_in_threshold")


def spot_from_mapping(data: dict[str, Any], name: str = "spot") -> Spot:
    """A :class:`Spot` from the keys of a spot file (module docstring).

    Raises
    ------
    SpotFileError
        Naming the key and what is wrong with it.
    """
    prefix = f"{name}: "
    _check_keys(data, prefix)
    board_text = data["board"]
    if not isinstance(board_text, str):
        raise SpotFileError(f'{prefix}board must be cards in quotes, such as "Ks7h2d9c4s"')
    try:
        board = parse_board(board_text)
    except CardError as exc:
        raise SpotFileError(f"{prefix}board: {exc}") from None
    ranges = (
        _range(data["oop_range"], "oop_range", board, prefix),
        _range(data["ip_range"], "ip_range", board, prefix),
    )
    if not any(
        set(first).isdisjoint(second) for first in ranges[0].combos for second in ranges[1].combos
    ):
        raise SpotFileError(f"{prefix}every pair of oop_range and ip_range combos shares a card")
    max_raises = data.get("max_raises", DEFAULT_MAX_RAISES)
    if isinstance(max_raises, bool) or not isinstance(max_raises, int) or max_raises < 0:
        raise SpotFileError(f"{prefix}max_raises must be a whole number >= 0, not {max_raises!r}")
    if max_raises > LIMITS.spot_raises:
        raise SpotFileError(
            f"{prefix}max_raises must be at most {LIMITS.spot_raises}, not {max_raises:,}"
        )
    tables = _tables(data, board, prefix)
    bet_sizes = _player_sizes(data, "bet", prefix)
    all_in = _flag(data.get("all_in", True), f"{prefix}all_in")
    donk = data.get("donk_sizes")
    pot = _chips(data["pot"], f"{prefix}pot")
    stack = _chips(data["effective_stack"], f"{prefix}effective_stack")
    if stack > LIMITS.stack_to_pot * pot:
        raise SpotFileError(
            f"{prefix}effective_stack must be at most {LIMITS.stack_to_pot:,} times the pot, "
            f"not {float(stack / pot):,.4g} times: a float solver resolves the pot's share to "
            "a fraction of the all-in's payoff, so past that a solve certified within its "
            "tolerance can be wrong by much of the pot"
        )
    return Spot(
        board=board,
        pot=pot,
        effective_stack=stack,
        ranges=ranges,
        bet_sizes=bet_sizes,
        raise_sizes=_player_sizes(data, "raise", prefix),
        max_raises=max_raises,
        name=name,
        all_in=all_in,
        donk_sizes=None if donk is None else _sizes(donk, f"{prefix}donk_sizes"),
        all_in_threshold=_threshold(data, prefix),
        tables=tables,
    )


def read_spot(path: str | os.PathLike[str]) -> Spot:
    """Read and check a spot file.

    Raises
    ------
    SpotFileError
        For a file that is not TOML or not a spot, naming the file, and the line or key; for
        a file larger than :data:`MAX_SPOT_BYTES` (before reading it).
    OSError
        For a file that cannot be read.
    """
    file = Path(path)
    size = file.stat().st_size
    if size > MAX_SPOT_BYTES:
        raise SpotFileError(
            f"{file}: {size:,} bytes; a spot file is at most {MAX_SPOT_BYTES:,} bytes"
        )
    text = file.read_bytes()
    try:
        data = tomllib.loads(text.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SpotFileError(f"{file}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise SpotFileError(f"{file}: not a TOML spot file: {exc}") from None
    except RecursionError:  # tomllib reads nested arrays recursively
        raise SpotFileError(f"{file}: arrays or tables nested too deeply") from None
    return spot_from_mapping(data, name=str(file))
