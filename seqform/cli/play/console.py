"""The console of a ``play`` session: reading answers, and the words and numbers it writes."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TextIO

from seqform.base.numbers import is_round_off, scaled_text
from seqform.game.model import Game

__all__ = [
    "QUIT_KEYS",
    "Console",
    "SessionEnded",
    "ask_seat",
    "below_round_off",
    "choose_seat",
    "move_menu",
    "parse_choice",
    "parse_spot_choice",
    "plural",
    "signed",
]

QUIT_KEYS = frozenset({"q", "quit", "exit"})


class SessionEnded(Exception):
    """The human typed ``q`` or the input ended; ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Console:
    """Reads answers from one stream and writes the transcript to another."""

    def __init__(self, source: TextIO | None, out: TextIO, echo: bool, quiet: bool) -> None:
        self.source = source
        self.out = out
        self.echo = echo
        self.quiet = quiet

    def say(self, text: str) -> None:
        if not self.quiet:
            self.out.write(text + "\n")

    def ask(self, prompt: str) -> str:
        """One line of input after ``prompt``; :class:`SessionEnded` at end of input."""
        self.out.write(prompt)
        self.out.flush()
        line = self.source.readline() if self.source is not None else ""
        if line == "":
            self.out.write("\n")
            raise SessionEnded("end of input")
        if self.echo:
            self.out.write(line if line.endswith("\n") else line + "\n")
        return line


def signed(number: float | Fraction, scale: Fraction | float | None = None) -> str:
    """``+2`` for whole numbers (a total of chips), else three places beside ``scale`` (a
    spot's pot, a game's payoff range; :func:`~seqform.base.numbers.scaled_text`):
    ``-0.167``, and ``+1.000e-11`` in a pot of ``1e-11``, where three places wrote
    ``+0.000``."""
    if isinstance(number, Fraction) and number.denominator == 1:
        return f"{int(number):+d}"
    return scaled_text(number, scale, 3, sign=True)


def below_round_off(value: float, scale: Fraction | float | None) -> bool:
    """Whether the expectation ``value`` is round-off beside the session's ``scale`` (a
    spot's pot, a game's payoff range: :func:`~seqform.base.numbers.is_round_off`), in any
    unit: a fixed 1e-9 chips was every cost in a game of payoffs in millionths."""
    return is_round_off(value, scale)


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _keys(game: Game, infoset: str, actions: Sequence[str]) -> dict[str, str]:
    """Accepted input -> action: the action's word or its first letter, as the menu offers
    them (``(f)old or (c)all``).  Not the tree's labels: Kuhn's call is labelled ``b``, and
    ``b`` at that prompt must be asked again, not taken silently as a call."""
    keys: dict[str, str] = {}
    clashes: set[str] = set()
    for action in actions:
        word = game.describe_action(infoset, action)
        for key in {word.lower(), word[:1].lower()}:
            if keys.get(key, action) != action:
                clashes.add(key)
            keys[key] = action
    return {key: action for key, action in keys.items() if key not in clashes}


def parse_choice(text: str, game: Game, infoset: str, actions: Sequence[str]) -> str | None:
    """The action that ``text`` names at ``infoset`` (``"c"`` -> ``"p"`` for check), or None.

    Raises
    ------
    SessionEnded
        If ``text`` is ``q`` (or ``quit``, ``exit``).
    """
    key = text.strip().lower()
    if key in QUIT_KEYS:
        raise SessionEnded("quit")
    return _keys(game, infoset, actions).get(key)


def move_menu(game: Game, infoset: str, actions: Sequence[str]) -> str:
    words = [game.describe_action(infoset, action) for action in actions]
    return " or ".join(f"({word[0]}){word[1:]}" for word in words)


def ask_seat(source: TextIO | None, out: TextIO, echo: bool = False) -> int:
    """Ask which seat the human takes; return the player index (0 or 1).

    Raises
    ------
    SessionEnded
        If the human types ``q`` or the input ends.
    """
    console = Console(source, out, echo, quiet=False)
    while True:
        answer = console.ask("Choose your seat: 1 (act first) or 2 (act second)? ").strip().lower()
        if answer in QUIT_KEYS:
            raise SessionEnded("quit")
        if answer in ("1", "2"):
            return int(answer) - 1
        console.say("Please type 1 or 2 (q quits).")


def choose_seat(
    seat: int | None, auto: str | None, source: TextIO | None, out: TextIO, echo: bool
) -> int | None:
    """The human's player index: ``seat`` (1 or 2) less one; seat 1 when a strategy plays
    (``auto``); else asked (:func:`ask_seat`).  None if the human quit before sitting down."""
    if seat is not None:
        return seat - 1
    if auto is not None:
        return 0
    try:
        return ask_seat(source, out, echo)
    except SessionEnded:
        return None


def parse_spot_choice(text: str, actions: tuple[str, ...]) -> str | None:
    """The action ``text`` names on a spot: its label (``b5``), its word (check, call, fold;
    ``c`` checks where there is nothing to call, as in Kuhn's session), ``bet`` or ``raise``
    (``b``, ``r``) when there is one size; None otherwise.

    Raises
    ------
    SessionEnded
        If ``text`` is ``q`` (or ``quit``, ``exit``).
    """
    key = text.strip().lower().replace(" ", "")
    if key in QUIT_KEYS:
        raise SessionEnded("quit")
    if key in actions:
        return key
    words = {"check": "x", "call": "c", "fold": "f"}
    if words.get(key) in actions:
        return words[key]
    if key in ("c", "k") and "x" in actions:  # Kuhn's key: c checks when there is no call
        return "x"
    for kind, names in (("b", ("b", "bet")), ("r", ("r", "raise"))):
        sized = [a for a in actions if a.startswith(kind)]
        if key in names and len(sized) == 1:
            return sized[0]
    return None
