"""The built-in games by name, and the ``NAME(key=value, ...)`` text that names them.

A built-in game is written ``NAME`` or ``NAME(key=value, ...)`` (``kuhn``,
``kuhn(cards=5)``): :data:`GAMES` maps each name to the function that builds its tree, and
:data:`STRUCTURED_GAMES` the names that also exist as public tree × private hands (for
``--method structured``, which never builds the tree) to their description.

Names are read in any case (``Kuhn`` is ``kuhn``).  Mistakes get a message that says what to
write: an unknown name the closest known one (:mod:`difflib`), an unknown parameter the
closest one in any case (``kuhn(Cards=5)``: did you mean cards?), a value that is not a
Python literal what the parameter takes (from the constructor's annotation and default), and
``**{...}``, a parameter given twice or a number too long for Python to read are refused by
name.  Every such mistake, and a value out of range, is a :class:`GameParameterError` (the
command line's usage error, exit 2).

OpenSpiel's spellings of the same games are read too, for users who arrive from it:
``kuhn_poker`` is ``kuhn``, ``kuhn_poker(players=3)`` and ``kuhn(players=3)`` are ``kuhn3``,
``leduc_poker`` is ``leduc``, and ``liars_dice(dice_sides=4, numdice=2)`` is
``liars_dice(sides=4, dice=2)``; OpenSpiel's ``true``/``false`` are ``True``/``False``.
OpenSpiel's parameters that seqform's games take at its default only (``players=2``,
``bidding_rule="reset-face"``, Leduc's ``action_mapping=false`` and ``starting_player=0``)
are accepted at that value; another value is refused with the ``openspiel:`` spelling that
loads OpenSpiel's own game.

Size: a little over 400 lines: the games' tables (their trees' node counts and limits among
them) and the one reader of their names, whose every message about a mistake is kept beside
the grammar it explains.
"""

from __future__ import annotations

import ast
import difflib
import inspect
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace

from seqform.base.collector import gc_paused
from seqform.base.node_counts import dealt_tree_nodes
from seqform.game.builtin.kuhn import kuhn_poker, kuhn_structured
from seqform.game.builtin.kuhn3 import kuhn3_poker
from seqform.game.builtin.leduc import (
    leduc_poker,
    leduc_sized_tree_nodes,
    leduc_structured,
    leduc_tree_nodes,
)
from seqform.game.builtin.liars_dice import check_tree_bids, liars_dice_structured
from seqform.game.builtin.liars_dice import (
    liars_dice as liars_dice_game,  # keeps the module name free
)
from seqform.game.builtin.rhode_island import rhode_island, rhode_island_structured
from seqform.game.builtin.rhode_island_sizes import rhode_island_tree_nodes
from seqform.game.errors import (
    GameParameterError,
    InvalidGameError,
    ParameterLimitError,
    UnknownGameError,
)
from seqform.game.model import Game
from seqform.game.public.explicit import nodes_per_deal
from seqform.game.public.tree import StructuredGame

__all__ = [
    "GAMES",
    "OPENSPIEL_NAMES",
    "STRUCTURED_GAMES",
    "build_builtin_game",
    "builtin_tree_nodes",
    "check_tree_parameters",
    "known_names",
    "load_structured_game",
    "parse_game_spec",
]

GAMES: dict[str, Callable[..., Game]] = {
    "kuhn": kuhn_poker,
    "kuhn3": kuhn3_poker,
    "leduc": leduc_poker,
    "liars_dice": liars_dice_game,
    "rhode_island": rhode_island,
}

STRUCTURED_GAMES: dict[str, Callable[..., StructuredGame]] = {
    "kuhn": kuhn_structured,
    "leduc": leduc_structured,
    "liars_dice": liars_dice_structured,
    "rhode_island": rhode_island_structured,
}
"""The built-in games that also exist as public tree × private hands (the structured route,
``--method structured``), by name: their description, without building the tree."""

OPENSPIEL_NAMES: dict[str, str] = {"kuhn_poker": "kuhn", "leduc_poker": "leduc"}
"""OpenSpiel's names of the built-in games that seqform names otherwise (``liars_dice`` is
spelled alike): the same games with the same defaults (tests/test_openspiel.py walks them
node for node)."""

_OPENSPIEL_PARAMETERS: dict[str, dict[str, str]] = {
    "liars_dice": {"dice_sides": "sides", "numdice": "dice"},
}
"""OpenSpiel's parameter names that seqform's games spell otherwise."""

_OPENSPIEL_SETTINGS: dict[str, dict[str, object]] = {
    "kuhn": {"players": 2},
    "kuhn3": {"players": 3},
    "leduc": {"players": 2, "action_mapping": False, "starting_player": 0},
    "liars_dice": {"players": 2, "bidding_rule": "reset-face"},
}
"""OpenSpiel parameters that a built-in game takes at one value only (OpenSpiel's default,
or ``kuhn3``'s three players): dropped at that value, refused at another."""

_BY_PLAYERS: dict[tuple[str, object], str] = {("kuhn", 3): "kuhn3"}
"""Built-in games that another one is with OpenSpiel's ``players=N``."""

_SPEC = re.compile(r"^\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*(?:\((?P<args>.*)\))?\s*$")
_SHOWN = 60  # characters of a name or value quoted in a message; longer ones are cut
_TAKES = {"int": "an integer", "bool": "True or False", "float": "a number", "str": "a string"}


@dataclass(frozen=True)
class _Written:
    """A spec read as Python call syntax: the name (lower case), its keywords and the text."""

    name: str
    keywords: tuple[ast.keyword, ...]
    source: str  # ``f(...)``, the text the keywords' positions refer to


def known_names() -> list[str]:
    """The names of the built-in games, sorted."""
    return sorted(GAMES)


def _shown(text: str) -> str:
    """``text`` quoted for a message, cut to :data:`_SHOWN` characters with its length."""
    if len(text) <= _SHOWN:
        return repr(text)
    return f"{text[:_SHOWN]!r}… ({len(text)} characters)"


def _did_you_mean(name: str, names: list[str]) -> str:
    close = difflib.get_close_matches(name.lower(), names, n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def _unknown_game(name: str) -> UnknownGameError:
    return UnknownGameError(
        f"unknown game {_shown(name)}{_did_you_mean(name, known_names())}; "
        f"known games: {', '.join(known_names())} (or a path to a .efg file, or openspiel:NAME)"
    )


def _huge_number(text: str) -> str | None:
    """A run of digits longer than Python reads as an integer (4300 by default), if any."""
    limit = sys.get_int_max_str_digits()
    run = max((len(m) for m in re.findall(r"\d+", text)), default=0)
    return (
        f"a number of {run} digits is too large for any parameter"
        if limit and run > limit
        else None
    )


def _read(spec: str) -> _Written:
    """Read ``NAME`` or ``NAME(key=value, ...)`` as call syntax; the values are not yet read.

    Raises
    ------
    UnknownGameError
        For text without parentheses that is not a name (``no/such/game``).
    GameParameterError
        For parentheses that do not hold ``key=value, ...``.
    """
    match = _SPEC.match(spec)
    if match is None:
        if "(" not in spec:
            raise _unknown_game(spec)
        raise GameParameterError(
            f"cannot read game {_shown(spec)}: write NAME or NAME(key=value, ...)"
        )
    name, text = match["name"].lower(), match["args"]
    if not text or not text.strip():
        return _from_openspiel(_Written(name, (), ""))
    source = f"f({text})"
    try:
        call = ast.parse(source, mode="eval").body
    except SyntaxError as exc:
        reason = _huge_number(text) or exc.msg
        raise GameParameterError(f"game {name!r}: cannot read the parameters: {reason}") from exc
    assert isinstance(call, ast.Call)
    if not isinstance(call.func, ast.Name):  # "kuhn(cards=7)()": one call of another
        raise GameParameterError(
            f"cannot read game {_shown(spec)}: write NAME or NAME(key=value, ...)"
        )
    if call.args:
        raise GameParameterError(f"game {name!r}: parameters must be named (key=value)")
    return _from_openspiel(_Written(name, tuple(call.keywords), source))


def _openspiel_text(value: object) -> str:
    """A parameter value as OpenSpiel writes it: ``true``, ``reset-face``, ``3``."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _from_openspiel(written: _Written) -> _Written:
    """OpenSpiel's spelling of a built-in game read as seqform's (module docstring):
    ``kuhn_poker(players=3)`` is ``kuhn3``, ``liars_dice(dice_sides=4)`` is
    ``liars_dice(sides=4)``.

    Raises
    ------
    GameParameterError
        For an OpenSpiel setting that no built-in game has (``kuhn_poker(players=4)``),
        naming the ``openspiel:`` game that has it.
    """
    name = OPENSPIEL_NAMES.get(written.name, written.name)
    settings = _OPENSPIEL_SETTINGS.get(name, {})
    renames = _OPENSPIEL_PARAMETERS.get(name, {})
    keywords: list[ast.keyword] = []
    for keyword in written.keywords:
        key = renames.get(keyword.arg, keyword.arg) if keyword.arg is not None else None
        if key not in settings:
            keywords.append(keyword if key == keyword.arg else ast.keyword(key, keyword.value))
            continue
        value = _value(keyword.value)
        if value == settings[key] and type(value) is type(settings[key]):
            continue
        if key == "players" and (name, value) in _BY_PLAYERS:
            name = _BY_PLAYERS[(name, value)]
            continue
        openspiel = {"kuhn3": "kuhn_poker", **{v: k for k, v in OPENSPIEL_NAMES.items()}}
        raise GameParameterError(
            f"game {written.name!r}: seqform's {name} is OpenSpiel's with "
            f"{key}={_openspiel_text(settings[key])}"
            + (" (kuhn3 with players=3)" if name.startswith("kuhn") and key == "players" else "")
            + f"; for {key}={_openspiel_text(value)} convert OpenSpiel's game: "
            f"'openspiel:{openspiel.get(name, name)}({key}={_openspiel_text(value)})'"
        )
    return replace(written, name=name, keywords=tuple(keywords))


_UNREADABLE = object()


def _value(node: ast.expr) -> object:
    """The literal ``node`` holds (OpenSpiel's ``true`` and ``false`` are booleans), or
    :data:`_UNREADABLE`."""
    if isinstance(node, ast.Name) and node.id in ("true", "false"):
        return node.id == "true"
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, RecursionError):  # TypeError: {[1]: 2}
        return _UNREADABLE


def _takes(parameter: inspect.Parameter) -> str:
    """What a parameter takes, from its annotation and default: ``an integer (default 3)``."""
    annotation = parameter.annotation
    kind = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", "")
    return f"{_TAKES.get(kind, 'a literal value')} (default {parameter.default!r})"


def _example(name: str, accepted: Mapping[str, inspect.Parameter] | None) -> str:
    """``kuhn(cards=3)``: the game with its first parameter at its default."""
    first = next(iter(accepted.values()), None) if accepted else None
    return f"{name}({first.name}={first.default!r})" if first else f"{name}(key=value)"


def _parameters(written: _Written, constructor: Callable[..., object] | None) -> dict[str, object]:
    """The keywords' values; with ``constructor``, only the parameters it accepts.

    Raises
    ------
    GameParameterError
        For ``**{...}``, a parameter given twice, a parameter ``constructor`` does not have,
        or a value that is not a Python literal (the message says what the parameter takes).
    """
    name = written.name
    accepted = inspect.signature(constructor).parameters if constructor else None
    parameters: dict[str, object] = {}
    for keyword in written.keywords:
        key = keyword.arg
        if key is None:
            raise GameParameterError(
                f"game {name!r}: write each parameter as key=value, e.g. "
                f"{_example(name, accepted)}, not **{{...}}"
            )
        if key in parameters:
            raise GameParameterError(f"game {name!r}: parameter {key!r} is given twice")
        if accepted is not None and key not in accepted:
            known = ", ".join(f"{p.name}={p.default!r}" for p in accepted.values())
            raise GameParameterError(
                f"game {name!r} has no parameter {key!r}{_closest(key, list(accepted))}; "
                f"its parameters (with defaults): {known or 'none'}"
            )
        parameters[key] = _value(keyword.value)
        if parameters[key] is _UNREADABLE:
            value = ast.get_source_segment(written.source, keyword.value) or "?"
            takes = _takes(accepted[key]) if accepted else "a number, a string, True or False"
            raise GameParameterError(f"game {name!r}: {key} takes {takes}, not {_shown(value)}")
    return parameters


def _closest(key: str, names: list[str]) -> str:
    """`` (did you mean cards?)`` for ``Cards`` or ``card``: the name equal in any case,
    else the closest by :mod:`difflib` in lower case; empty if none is close."""
    lower = {name.lower(): name for name in names}
    close = lower.get(key.lower()) or next(
        iter(difflib.get_close_matches(key.lower(), list(lower), n=1)), None
    )
    return f" (did you mean {lower.get(close, close)}?)" if close else ""


def parse_game_spec(spec: str) -> tuple[str, dict[str, object]]:
    """Split ``"kuhn(cards=5)"`` into ``("kuhn", {"cards": 5})``; the name in lower case.

    Raises
    ------
    UnknownGameError
        For text without parentheses that is not a name.
    GameParameterError
        If the text is not of the form ``NAME`` or ``NAME(key=value, ...)`` with literal
        values, each given once.
    """
    written = _read(spec)
    return written.name, _parameters(written, None)


def build_builtin_game(spec: str) -> Game:
    """Build the built-in game named by ``spec`` (``kuhn``, ``Leduc``, ``kuhn(cards=5)``).

    The name is read in any case; parameters are checked against the game's constructor
    before their values are read, so a message can say what each takes.

    Raises
    ------
    UnknownGameError
        For an unknown name (the message lists the known ones, and the closest).
    GameParameterError
        For unknown, repeated or unreadable parameters, and values out of range.
    """
    written = _read(spec)
    constructor = GAMES.get(written.name)
    if constructor is None:
        raise _unknown_game(written.name)
    parameters = _parameters(written, constructor)
    with gc_paused(), _out_of_range():
        return constructor(**parameters)


@contextmanager
def _out_of_range() -> Iterator[None]:
    """A constructor's ``ValueError`` for a parameter out of range (``leduc(ranks=0)``; an
    :class:`InvalidGameError` for ``kuhn(cards=1)``, as the built-in games are valid for
    every parameter in range) raised as :class:`GameParameterError`; other errors (a tree
    over seqform's size limits) as they are."""
    try:
        yield
    except ValueError as exc:
        if type(exc) in (ValueError, InvalidGameError):
            raise GameParameterError(str(exc)) from exc
        raise


TREE_NODES: dict[str, Callable[..., int]] = {
    "kuhn": lambda cards=3: _kuhn_tree_nodes(cards),
    "leduc": lambda ranks=3, suits=2, suit_isomorphism=False, bets=None: (
        leduc_tree_nodes(ranks, suits, suit_isomorphism)
        if bets is None
        else leduc_sized_tree_nodes(ranks, suits, bets)
    ),
    "rhode_island": rhode_island_tree_nodes,
}
"""Built-in games that can say their tree's node count from their parameters alone."""


def _kuhn_tree_nodes(cards: int) -> int:
    """N-card Kuhn's nodes, exactly: one chance node deals, then the public betting tree
    once per ordered deal (:func:`~seqform.base.node_counts.dealt_tree_nodes`).  The betting
    is the same for every deck, so it is counted on 3 cards: counted on ``cards`` it built a
    billion cards' hands to count nine nodes (``compare kuhn(cards=10**9) --no-solve`` took
    19 GB before its refusal)."""
    return dealt_tree_nodes(
        deal_nodes=1,
        deals=cards * (cards - 1),
        nodes_per_deal=nodes_per_deal(kuhn_structured(3)),
    )


TREE_LIMITS: dict[str, Callable[..., None]] = {"liars_dice": check_tree_bids}
"""Built-in games whose trees are limited by their parameters, whatever the memory: the
check each one's tree builder makes first."""


def check_tree_parameters(spec: str) -> None:
    """Refuse, from its parameters alone, a built-in game whose tree they ask more of than
    seqform builds (Liar's Dice beyond its bids, :data:`TREE_LIMITS`), with the build's own
    message; any other spec passes, the build saying what is wrong with it.

    Raises
    ------
    ParameterLimitError
        For parameters beyond the tree's limit.
    """
    try:
        written = _read(spec)
        check = TREE_LIMITS.get(written.name)
        if check is None:
            return
        parameters = _parameters(written, GAMES[written.name])
        check(**parameters)
    except ParameterLimitError:
        raise
    except (ValueError, TypeError):  # the build reports a bad spec with its own message
        return


def builtin_tree_nodes(spec: str) -> int | None:
    """The node count of the built-in game ``spec`` before building it; None for a game
    that cannot tell (or a spec that is not a built-in game: building it will say why)."""
    try:
        written = _read(spec)
        count = TREE_NODES.get(written.name)
        if count is None:
            return None
        return int(count(**_parameters(written, GAMES[written.name])))
    except (ValueError, TypeError):  # the build reports a bad spec with its own message
        return None


def load_structured_game(spec: str) -> StructuredGame:
    """The structured description of the built-in game named by ``spec`` (``leduc``,
    ``leduc(ranks=13, suits=4)``, ``liars_dice(sides=8)``), without building its tree.

    Raises
    ------
    UnknownGameError
        For a name without a structured description (the message lists those with one).
    GameParameterError
        For unknown or unreadable parameters (``leduc(suit_isomorphism=True)`` has a tree
        only; ``suit_isomorphism=False``, the tree's default, is the same game and is taken)
        and values out of range.
    """
    written = _read(spec)
    constructor = STRUCTURED_GAMES.get(written.name)
    if constructor is None:
        names = sorted(STRUCTURED_GAMES)
        raise UnknownGameError(
            f"{_shown(spec)} has no public tree × private hands description, which "
            f"--method structured needs{_did_you_mean(written.name, names)}; those that do: "
            f"{', '.join(names)} (e.g. leduc(ranks=13, suits=4))"
        )
    tree_parameters = inspect.signature(GAMES[written.name]).parameters
    tree_only = set(tree_parameters) - set(inspect.signature(constructor).parameters)
    defaults = [  # the tree's default (suit_isomorphism=False) describes the same game
        keyword
        for keyword in written.keywords
        if keyword.arg in tree_only
        and _value(keyword.value) is tree_parameters[keyword.arg].default
    ]
    written = replace(written, keywords=tuple(k for k in written.keywords if k not in defaults))
    for keyword in written.keywords:
        if keyword.arg in tree_only:  # "has no parameter" contradicted `seqform games`
            suits = (
                "; the structured route merges suits itself where that is exact, unless "
                "told --no-suit-isomorphism (suit_isomorphism=False from Python)"
            )
            raise GameParameterError(
                f"game {written.name!r}: {keyword.arg!r} is a parameter of its tree only "
                f"(method tree){suits if keyword.arg == 'suit_isomorphism' else ''}"
            )
    parameters = _parameters(written, constructor)
    with _out_of_range():
        return constructor(**parameters)
