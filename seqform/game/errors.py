"""The errors of the game room, in one low module that every reader and builder imports.

All are ``ValueError`` subclasses, so a caller that only wants "this input is bad" can catch
``ValueError``; the command line catches them by name to print the right advice.

* :class:`InvalidGameError` — a tree that is not a two-player zero-sum game with perfect
  recall (raised by the compiled tree, the file readers and the showdown description);
  :class:`GameTypeError`, also a ``TypeError``, when a node holds a value of the wrong type;
* :class:`UnknownGameError` — a name that denotes no built-in, ``.efg`` or OpenSpiel game;
* :class:`GameParameterError` — a built-in game given a parameter it does not have, or out
  of range; :class:`ParameterLimitError`, also a :class:`TreeTooLargeError`, beyond what
  seqform builds at all;
* :class:`GameFormatError` — a file that cannot be read as a Gambit ``.efg`` game.
"""

from __future__ import annotations

__all__ = [
    "GameFormatError",
    "GameParameterError",
    "GameTypeError",
    "InvalidGameError",
    "ParameterLimitError",
    "TreeTooLargeError",
    "UnknownGameError",
]


class InvalidGameError(ValueError):
    """The game is not a two-player zero-sum game with perfect recall."""


class GameTypeError(InvalidGameError, TypeError):
    """A node built with a value of the wrong type (a player ``1.0``, an unhashable
    information-set name): a :class:`TypeError` for the library's callers, and an
    :class:`InvalidGameError` for those who catch every invalid game."""


class TreeTooLargeError(ValueError):
    """The game's explicit tree is larger than seqform builds (a node or bid limit); the
    message names the limit and the route that needs no tree, where there is one."""


class UnknownGameError(ValueError):
    """The name does not denote a built-in game, a ``.efg`` file or an OpenSpiel game."""


class GameParameterError(ValueError):
    """A built-in game was given a parameter it does not have, or an unreadable one."""


class ParameterLimitError(TreeTooLargeError, GameParameterError):
    """A built-in game's parameters ask for more than seqform builds at any size limit
    (Liar's Dice beyond its bid limit): a parameter out of range, like ``leduc(suits=5)``,
    and a tree too large, so the commands that size a game without its tree still do."""


class GameFormatError(ValueError):
    """A file cannot be read as a Gambit ``.efg`` game.

    Attributes
    ----------
    path : the file
    line, column : where the pre-pass or pygambit's reader stopped (one-based), or
        ``None`` when pygambit's message gives no position;
        the line is the file's, pygambit's number corrected for line breaks inside
        quoted strings, which pygambit 16.7 does not count
    reason : the pre-pass's or pygambit's description of the problem
    """

    def __init__(
        self, path: str, reason: str, line: int | None = None, column: int | None = None
    ) -> None:
        self.path = path
        self.reason = reason
        self.line = line
        self.column = column
        where = "" if line is None else f"line {line}, column {column}: "
        super().__init__(f"cannot read {path} as a Gambit .efg file: {where}{reason}")
