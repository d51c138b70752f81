"""Gambit ``.efg`` files in and out, through pygambit (the format's own library).

Reading turns any extensive-form game that pygambit reads into a :class:`~seqform.game.Game`;
writing builds a ``pygambit.Game`` from a seqform game and lets pygambit's writer
serialise it.  Numbers stay exact: Gambit's rationals and decimals become
:class:`fractions.Fraction`, and seqform's fractions are handed to Gambit as rationals.

Conventions of the conversion from Gambit
-----------------------------------------
* **Payoffs.**  In Gambit an outcome may be attached to any node, not only to a terminal
  one; a player's payoff at a terminal node is the sum of the outcomes on the path from
  the root to it, the terminal node's own outcome included (Gambit's documentation of
  the ``.efg`` format).  A node without an outcome contributes nothing.
* **Information sets** are named by their Gambit label when it is non-empty and used by no
  other information set, otherwise ``"P<player>:<number>"`` with Gambit's one-based
  numbers, e.g. ``"P1:3"`` for the third information set of the first player (the line
  ``p "" 1 3 ...`` of the file).  A label given only at the first node of an information
  set applies to all of its nodes, as pygambit reads it.
* **Actions and chance outcomes** keep their Gambit labels; a blank or repeated label is
  made distinct (``"#3"`` for a blank third action, ``"a#2"`` for the second ``"a"``).
  pygambit 16.7's reader already renames blank and repeated labels (``"_1"``, ``"a_1"``);
  the renaming here covers games built in memory.
* **Players** are seqform's players 0 and 1 in Gambit's order; their labels become the
  game's ``player_names``.

A game is refused, with the reason, when it has other than two players, is a
strategic-form (table) game, is not zero-sum (the message names a terminal node by its
path of action labels and gives its payoffs), or lacks perfect recall.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pygambit

from seqform.game.errors import GameFormatError, InvalidGameError
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal, history_text

__all__ = ["game_from_gambit", "game_to_gambit", "read_efg", "write_efg"]


_PARSE_PREFIX = "Parse error in game file:"
_POSITION = re.compile(r"^line (?P<line>\d+):(?P<column>\d+):\s*")


def _format_error(path: str, exc: ValueError) -> GameFormatError:
    """Turn pygambit's ``ValueError("Parse error in game file: line 7:16: ...")``."""
    reason = str(exc).strip()
    if reason.startswith(_PARSE_PREFIX):
        reason = reason[len(_PARSE_PREFIX) :].strip()
    match = _POSITION.match(reason)
    if match is None:
        return GameFormatError(path, reason or "pygambit could not parse it")
    line = int(match["line"])
    # If the file went away since pygambit read it, pygambit's number stays.
    with contextlib.suppress(OSError):
        line = _file_line(Path(path).read_text(encoding="latin-1"), line)
    return GameFormatError(path, reason[match.end() :], line=line, column=int(match["column"]))


def _file_line(text: str, reported: int) -> int:
    """The line of the file where pygambit's reported line starts.

    pygambit 16.7's reader does not count line breaks inside quoted strings (a game's
    description often spans lines), so its line numbers run short after such a string.
    This counts them, following only the quoting of strings (``"`` with ``\\`` escapes).
    """
    outside, actual = 1, 1
    in_string = escaped = False
    for char in text:
        if outside >= reported:
            return actual
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        if char == "\n":
            actual += 1
            if not in_string:
                outside += 1
    return actual + (reported - outside)


def read_efg(path: str | os.PathLike[str]) -> Game:
    """Read a Gambit ``.efg`` file into a seqform :class:`~seqform.game.Game`.

    Parameters
    ----------
    path
        The file.  The game is named by its Gambit title, or by the file name when the
        title is blank.

    Returns
    -------
    Game
        The game, with exact probabilities and payoffs (see the module docstring for how
        outcomes, information sets and labels are converted).

    Raises
    ------
    OSError
        If the file cannot be opened (missing, unreadable, a directory).
    GameFormatError
        If pygambit cannot parse the file; the message gives the file, pygambit's reason
        and, when pygambit reports one, the line and column.  pygambit itself refuses
        chance probabilities that are negative or do not sum to exactly one.
    InvalidGameError
        If the game has other than two players, is not zero-sum or lacks perfect recall;
        the message starts with the file name.
    """
    name = os.fspath(path)
    try:
        gambit_game = pygambit.read_efg(name)
    except OSError as exc:
        raise type(exc)(exc.errno, f"cannot read Gambit file: {exc.strerror}", name) from exc
    except ValueError as exc:
        raise _format_error(name, exc) from exc
    try:
        return game_from_gambit(gambit_game, name=gambit_game.title.strip() or Path(name).stem)
    except InvalidGameError as exc:
        raise InvalidGameError(f"{name}: {exc}") from exc


# ---------------------------------------------------------------------------------------------
# Gambit -> seqform


def _distinct(labels: Sequence[str]) -> tuple[str, ...]:
    """Keep unique non-blank labels; rename blanks and repeats.

    A blank label becomes ``#k`` with ``k`` its one-based position, the ``k``-th
    occurrence of a repeated label becomes ``label#k``; primes are added in the unlikely
    case that the new name is already taken.
    """
    counts = Counter(labels)
    taken = {label for label in labels if label and counts[label] == 1}
    occurrences: Counter[str] = Counter()
    result = []
    for position, label in enumerate(labels, start=1):
        if label and counts[label] == 1:
            result.append(label)
            continue
        occurrences[label] += 1
        candidate = f"{label}#{occurrences[label]}" if label else f"#{position}"
        while candidate in taken:
            candidate += "'"
        taken.add(candidate)
        result.append(candidate)
    return tuple(result)


def _infoset_names(players: Sequence[pygambit.Player]) -> dict[tuple[int, int], str]:
    """Name each player's information sets, keyed by (player index, Gambit infoset number)."""
    infosets = [
        (player_index, infoset.number, infoset.label.strip())
        for player_index, player in enumerate(players)
        for infoset in player.infosets
    ]
    counts = Counter(label for _, _, label in infosets if label)
    names: dict[tuple[int, int], str] = {}
    used: set[str] = set()
    # Labels that are present and unique first, so that a fallback name never takes them.
    for player_index, number, label in infosets:
        if label and counts[label] == 1:
            names[player_index, number] = label
            used.add(label)
    for player_index, number, _ in infosets:
        if (player_index, number) in names:
            continue
        candidate = f"P{player_index + 1}:{number + 1}"
        while candidate in used:
            candidate += "'"
        names[player_index, number] = candidate
        used.add(candidate)
    return names


def _exact(number: object) -> Fraction:
    """A Gambit number (``pygambit.Rational``, ``pygambit.Decimal``, int) as a Fraction."""
    return Fraction(number)  # type: ignore[arg-type]  # exact for Fraction and Decimal


def _players_text(count: int) -> str:
    return f"{count} player" if count == 1 else f"{count} players"


def _check_shape(gambit_game: pygambit.Game) -> None:
    players = len(gambit_game.players)
    if players != 2:
        raise InvalidGameError(f"{_players_text(players)}; seqform solves two-player games")
    if not gambit_game.is_tree:
        raise InvalidGameError(
            "strategic-form (table) game; seqform solves extensive-form (tree) games"
        )


def _zero_sum_error(
    gambit_game: pygambit.Game, history: tuple[str, ...], payoffs: tuple[Fraction, Fraction]
) -> InvalidGameError:
    total = payoffs[0] + payoffs[1]
    message = (
        f"not zero-sum: terminal node {history_text(history)!r} has payoffs "
        f"({payoffs[0]}, {payoffs[1]}), which sum to {total}"
    )
    if gambit_game.is_const_sum:
        message += (
            f"; the game is constant-sum, so subtracting {total} from the second player's "
            "payoffs gives an equivalent zero-sum game"
        )
    return InvalidGameError(message)


def game_from_gambit(gambit_game: pygambit.Game, *, name: str | None = None) -> Game:
    """Convert a two-player zero-sum extensive game of pygambit into a seqform Game.

    Parameters
    ----------
    gambit_game
        An extensive-form ``pygambit.Game``; it is only read.
    name
        Name of the result; defaults to the Gambit title (or ``"gambit"`` when blank).

    Returns
    -------
    Game
        The same tree with exact numbers; see the module docstring for the conventions.

    Raises
    ------
    InvalidGameError
        If the game does not have exactly two players (``"3 players; seqform solves
        two-player games"``), is a strategic-form game, is not zero-sum (naming a terminal
        node by its path and its payoffs), or lacks perfect recall (naming the information
        set).
    """
    _check_shape(gambit_game)
    players = list(gambit_game.players)
    infoset_names = _infoset_names(players)
    zero = (Fraction(0), Fraction(0))
    outcome_payoffs = {
        outcome.number: (_exact(outcome[players[0]]), _exact(outcome[players[1]]))
        for outcome in gambit_game.outcomes
    }
    # Labels and probabilities are per information set, so they are computed once each.
    decision_actions: dict[tuple[int, int], tuple[str, ...]] = {}
    chance_moves: dict[int, tuple[tuple[str, ...], tuple[Fraction, ...]]] = {}
    player_index = {player.number: index for index, player in enumerate(players)}

    # Pre-order walk recording one entry per node; the tree is then assembled in reverse
    # pre-order with a stack of finished subtrees (no recursion, linear time).
    entries: list[Terminal | _Inner] = []
    violation: tuple[tuple[str, ...], tuple[Fraction, Fraction]] | None = None
    stack: list[tuple[pygambit.Node, tuple[str, ...], tuple[Fraction, Fraction]]] = [
        (gambit_game.root, (), zero)
    ]
    while stack:
        node, history, accrued = stack.pop()
        outcome = node.outcome
        if outcome:
            own = outcome_payoffs[outcome.number]
            accrued = own if accrued is zero else (accrued[0] + own[0], accrued[1] + own[1])
        children = list(node.children)
        if not children:
            if violation is None and accrued[0] + accrued[1] != 0:
                violation = (history, accrued)
            entries.append(Terminal(accrued, node.label))
            continue
        infoset = node.infoset
        if infoset.is_chance:
            move = chance_moves.get(infoset.number)
            if move is None:
                actions = list(infoset.actions)
                move = (
                    _distinct([action.label.strip() for action in actions]),
                    tuple(_exact(action.prob) for action in actions),
                )
                chance_moves[infoset.number] = move
            labels, probabilities = move
            entries.append(_Inner(len(children), node.label, labels, probabilities))
        else:
            key = (player_index[infoset.player.number], infoset.number)
            labels = decision_actions.get(key)
            if labels is None:
                labels = _distinct([action.label.strip() for action in infoset.actions])
                decision_actions[key] = labels
            entries.append(_Inner(len(children), node.label, labels, None, key))
        for action_label, child in zip(reversed(labels), reversed(children), strict=True):
            stack.append((child, (*history, action_label), accrued))

    if violation is not None:
        raise _zero_sum_error(gambit_game, *violation)
    root = _assemble(entries, infoset_names)
    # Game's validation checks perfect recall (Kuhn 1953) and names the information set;
    # pygambit's is_perfect_recall agrees on the whole catalogue (tests/test_efg.py) and
    # costs more than the conversion on large trees, so it is not consulted.
    return Game(
        name=name if name is not None else (gambit_game.title.strip() or "gambit"),
        root=root,
        player_names=(players[0].label or "Player 1", players[1].label or "Player 2"),
        description=_first_line(gambit_game.description),
    )


@dataclass(frozen=True, slots=True)
class _Inner:
    """A chance or decision node met by the walk, before its children are built."""

    arity: int
    label: str
    actions: tuple[str, ...]
    probabilities: tuple[Fraction, ...] | None  # None for a decision node
    infoset: tuple[int, int] = (-1, -1)  # (player index, Gambit number) of a decision node


def _assemble(entries: list[Terminal | _Inner], infoset_names: dict[tuple[int, int], str]) -> Node:
    """Build the tree from pre-order entries, children before parents."""
    finished: list[Node] = []
    for entry in reversed(entries):
        if isinstance(entry, Terminal):
            finished.append(entry)
            continue
        children = tuple(finished.pop() for _ in range(entry.arity))
        if entry.probabilities is not None:
            finished.append(Chance(entry.actions, entry.probabilities, children, entry.label))
        else:
            player, _ = entry.infoset
            name = infoset_names[entry.infoset]
            finished.append(Decision(player, name, entry.actions, children, entry.label))
    (root,) = finished
    return root


def _first_line(text: str) -> str:
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


# ---------------------------------------------------------------------------------------------
# seqform -> Gambit

_WHITESPACE = re.compile(r"\s+")


def _gambit_label(text: str) -> str:
    """Make ``text`` a label pygambit accepts and writes back faithfully.

    pygambit 16.7 accepts only printable ASCII without leading, trailing or doubled
    spaces, and its writer does not escape backslashes (a label ending in ``\\`` makes an
    unreadable file).  So whitespace runs become one space, a backslash becomes ``/``
    and any other character outside printable ASCII becomes ``U+XXXX``.
    """
    text = _WHITESPACE.sub(" ", text).strip().replace("\\", "/")
    if text.isascii() and text.isprintable():
        return text
    return "".join(
        char if char.isascii() and char.isprintable() else f"U+{ord(char):04X}" for char in text
    )


def _gambit_labels(labels: Iterable[str]) -> list[str]:
    """Labels made acceptable to Gambit and distinct (Gambit wants them unique)."""
    converted = [_gambit_label(label) for label in labels]
    return list(_distinct(converted))


def _payoff_label(payoffs: tuple[Fraction, ...]) -> str:
    return "(" + ", ".join(str(payoff) for payoff in payoffs) + ")"


def game_to_gambit(game: Game) -> pygambit.Game:
    """Build a ``pygambit.Game`` with the same tree, exact numbers and information sets.

    Players are labelled by ``game.player_names``, the title is ``game.name`` and the
    description ``game.description``.  Each chance node is its own chance information
    set with exact rational probabilities; decision nodes sharing an information-set name
    share one Gambit information set, labelled by that name.  Terminal payoffs become
    outcomes, one per distinct payoff vector, labelled by the payoffs (``"(1, -1)"``).
    Labels are made acceptable to Gambit (printable ASCII, see :func:`_gambit_label`).

    Parameters
    ----------
    game
        A seqform game.

    Returns
    -------
    pygambit.Game
        A new extensive game.
    """
    gambit_game = pygambit.Game.new_tree(
        players=[_gambit_label(name) for name in game.player_names],
        title=_gambit_label(game.name) or "Untitled extensive game",
    )
    gambit_game.description = _gambit_label(game.description)
    players = list(gambit_game.players)
    outcomes: dict[tuple[Fraction, ...], pygambit.Outcome] = {}
    first_member: dict[str, pygambit.Node] = {}
    labelled: list[tuple[pygambit.Node, str]] = []
    stack: list[tuple[Node, pygambit.Node]] = [(game.root, gambit_game.root)]
    while stack:
        node, gambit_node = stack.pop()
        if node.label:
            labelled.append((gambit_node, node.label))
        if isinstance(node, Terminal):
            outcome = outcomes.get(node.payoffs)
            if outcome is None:
                outcome = gambit_game.add_outcome(
                    _payoff_label(node.payoffs), [_rational(payoff) for payoff in node.payoffs]
                )
                outcomes[node.payoffs] = outcome
            gambit_game.set_outcome(gambit_node, outcome)
            continue
        if isinstance(node, Chance):
            gambit_game.append_move(
                gambit_node, gambit_game.players.chance, _gambit_labels(node.outcomes)
            )
            gambit_game.set_chance_probs(
                gambit_node.infoset, [_rational(p) for p in node.probabilities]
            )
        else:
            first = first_member.get(node.infoset)
            if first is None:
                gambit_game.append_move(
                    gambit_node, players[node.player], _gambit_labels(node.actions)
                )
                first_member[node.infoset] = gambit_node
            else:
                gambit_game.append_infoset(gambit_node, first.infoset)
        stack.extend(reversed(list(zip(node.children, gambit_node.children, strict=True))))
    # Labels are set once the tree is complete: pygambit 16.7 makes a label change right
    # after a change of the tree cost time proportional to the tree, and node labels must
    # be unique within the game.
    for name, member in first_member.items():
        member.infoset.label = _gambit_label(name)
    node_labels = _distinct([_gambit_label(label) for _, label in labelled])
    for (gambit_node, _), label in zip(labelled, node_labels, strict=True):
        gambit_node.label = label
    return gambit_game


def _rational(number: Fraction) -> pygambit.Rational:
    return pygambit.Rational(number.numerator, number.denominator)


def write_efg(game: Game, path: str | os.PathLike[str]) -> None:
    """Write ``game`` as a Gambit ``.efg`` file, by pygambit's writer.

    See :func:`game_to_gambit` for the conversion.  Reading the file back with
    :func:`read_efg` gives the same tree when every label is already acceptable to Gambit
    (printable ASCII, single spaces, no backslash) and node labels are unique; otherwise
    labels come back in their Gambit-safe form.

    Raises
    ------
    OSError
        If the file cannot be written.
    """
    game_to_gambit(game).to_efg(os.fspath(path))
