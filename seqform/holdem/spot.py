"""A hold'em spot file: the river or turn subgame a player wants solved, in TOML.

::

    board = "Ks7h2d9c4s"          # 5 cards: a river spot; 4 cards: a turn spot
    pot = 10                      # chips already in the pot
    effective_stack = 100         # chips each player still has behind
    oop_range = "22+,A2s+,KQo,JdTd:0.5"
    ip_range = "QQ+,AK"
    bet_sizes = [0.5, 1.0]        # fractions of the pot; all-in is always allowed
    raise_sizes = [1.0]           # optional; fractions of the pot after the call
    max_raises = 3                # optional; raises per street after the first bet

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
    "Spot",
    "SpotFileError",
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
)
_REQUIRED = KEYS[:6]
DEFAULT_MAX_RAISES = 3
MAX_SPOT_BYTES = LIMITS.spot_bytes  # why: seqform.base.limits
MAX_CHIPS = LIMITS.chips  # why: seqform.base.limits


class SpotFileError(ValueError):
    """A spot file that cannot be read; the message names the file and the key."""


@dataclass(frozen=True)
class Spot:
    """A river or turn spot, read and checked.

    board : 4 (turn) or 5 (river) card numbers (:mod:`seqform.holdem.cards`)
    pot, effective_stack : exact chips
    ranges : OOP's and IP's ranges without the combos that hold a board card
    bet_sizes, raise_sizes : exact fractions of the pot (raises: of the pot after the call),
        each a pair (OOP's, IP's): ``oop_bet_sizes`` and the like replace the shared
        ``bet_sizes`` for one player (``oop_bet_sizes = []``: OOP never bets, as in the toy
        games of *The Mathematics of Poker*)
    max_raises : raises allowed per street after the first bet
    all_in : whether all-in is always a bet and a raise (key ``all_in``, default true)
    name : how seqform names the spot (the file's stem)
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

    @property
    def street(self) -> str:
        """``"river"`` or ``"turn"``."""
        return "river" if len(self.board) == 5 else "turn"


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


def _check_keys(data: dict[str, Any], prefix: str) -> None:
    for key in data:
        if key not in KEYS:
            close = difflib.get_close_matches(key, KEYS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise SpotFileError(f"{prefix}unknown key {key!r}{hint}; a spot has {', '.join(KEYS)}")
    both = "oop_bet_sizes" in data and "ip_bet_sizes" in data  # no shared sizes needed
    missing = [key for key in _REQUIRED if key not in data and not (both and key == "bet_sizes")]
    if missing:
        raise SpotFileError(f"{prefix}missing {', '.join(missing)}")


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
    bet_sizes = _player_sizes(data, "bet", prefix)
    all_in = data.get("all_in", True)
    if not isinstance(all_in, bool):
        raise SpotFileError(f"{prefix}all_in must be true or false, not {all_in!r}")
    return Spot(
        board=board,
        pot=_chips(data["pot"], f"{prefix}pot"),
        effective_stack=_chips(data["effective_stack"], f"{prefix}effective_stack"),
        ranges=ranges,
        bet_sizes=bet_sizes,
        raise_sizes=_player_sizes(data, "raise", prefix),
        max_raises=max_raises,
        name=name,
        all_in=all_in,
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
