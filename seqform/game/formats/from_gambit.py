"""A pygambit extensive game as a seqform :class:`~seqform.game.model.Game`, exactly.

Gambit's rationals and decimals become :class:`fractions.Fraction`.  The file side (reading
``.efg``, locating parse errors) is :mod:`seqform.game.formats.efg`; the other direction is
:mod:`seqform.game.formats.to_gambit`.

Conventions of the conversion
-----------------------------
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
strategic-form (table) game, is neither zero-sum nor constant-sum (the message names a
terminal node by its path of action labels and gives its payoffs), or lacks perfect recall.
Constant-sum games (every terminal's payoffs sum to the same ``c``, as in several games of
Gambit's catalogue) are read as they are and solved as such
(:mod:`seqform.game.requirements`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

import pygambit

from seqform.base.progress import Step, report
from seqform.game.errors import InvalidGameError
from seqform.game.model import Game
from seqform.game.nodes import Chance, Decision, Node, Terminal, history_text

__all__ = ["KeptLabels", "distinct_labels", "game_from_gambit"]

_Payoffs = tuple[Fraction, Fraction]  # (to player 0, to player 1)
_REPORT_EVERY = (1 << 14) - 1  # progress every 16,384 nodes


def _same(label: str) -> str:
    return label


@dataclass(frozen=True)
class KeptLabels:
    """Labels that a file reader kept aside from pygambit, put back by the conversion.

    pygambit 16.7 refuses labels that are not printable ASCII, takes time proportional
    to the tree for each node or information-set label its reader sets, and time
    proportional to the outcomes for each outcome, so :mod:`seqform.game.formats.efg_scan`
    hands it placeholders, blank labels and null outcomes instead.

    Attributes
    ----------
    text : applied to every label, title and description that pygambit returns
    nodes : every node's label in pre-order (the order of an ``.efg`` file), or ``None``
        to take pygambit's
    infosets : (player index, pygambit's information-set number) → label, or ``None`` to
        take pygambit's
    outcomes : every node's outcome number in pre-order (0 for none), or ``None`` to take
        pygambit's outcomes
    payoffs : outcome number → (player 1's payoff, player 2's), for ``outcomes``
    """

    text: Callable[[str], str] = _same
    nodes: Sequence[str] | None = None
    infosets: Mapping[tuple[int, int], str] | None = None
    outcomes: Sequence[int] | None = None
    payoffs: Mapping[int, tuple[Fraction, Fraction]] = field(default_factory=dict)

    def infoset(self, player_index: int, infoset: pygambit.Infoset) -> str:
        if self.infosets is None:
            return self.text(infoset.label)
        return self.infosets.get((player_index, infoset.number), "")


def distinct_labels(labels: Sequence[str]) -> tuple[str, ...]:
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


def _infoset_names(
    players: Sequence[pygambit.Player], labels: KeptLabels
) -> dict[tuple[int, int], str]:
    """Name each player's information sets, keyed by (player index, Gambit infoset number)."""
    infosets = [
        (player_index, infoset.number, labels.infoset(player_index, infoset).strip())
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


def _exact(number: Fraction | Decimal | int) -> Fraction:
    """A Gambit number as a Fraction, exactly.

    ``pygambit.Rational`` is a :class:`~fractions.Fraction` and ``pygambit.Decimal`` a
    :class:`~decimal.Decimal`, both of which Fraction converts without rounding.
    """
    return Fraction(number)


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


def _constant_sum_error(
    first: tuple[tuple[str, ...], _Payoffs], other: tuple[tuple[str, ...], _Payoffs]
) -> InvalidGameError:
    """Terminal ``other``'s payoffs sum to another total than the first terminal's."""
    (history, payoffs), (first_history, first_payoffs) = other, first
    return InvalidGameError(
        f"not zero-sum: terminal node {history_text(history)!r} has payoffs "
        f"({payoffs[0]}, {payoffs[1]}), which sum to {payoffs[0] + payoffs[1]}, but terminal "
        f"node {history_text(first_history)!r} has ({first_payoffs[0]}, {first_payoffs[1]}), "
        f"which sum to {first_payoffs[0] + first_payoffs[1]}; seqform solves zero-sum and "
        "constant-sum games"
    )


def game_from_gambit(
    gambit_game: pygambit.Game, *, name: str | None = None, labels: KeptLabels | None = None
) -> Game:
    """Convert a two-player zero-sum extensive game of pygambit into a seqform Game.

    Parameters
    ----------
    gambit_game
        An extensive-form ``pygambit.Game``; it is only read.
    name
        Name of the result; defaults to the Gambit title (or ``"gambit"`` when blank).
    labels
        Labels a file reader kept aside from pygambit (:class:`KeptLabels`); by default
        pygambit's labels are taken as they are.

    Returns
    -------
    Game
        The same tree with exact numbers; see the module docstring for the conventions.

    Raises
    ------
    InvalidGameError
        If the game does not have exactly two players (``"3 players; seqform solves
        two-player games"``), is a strategic-form game, is not constant-sum (naming a
        terminal node by its path and its payoffs), or lacks perfect recall (naming the information
        set).
    """
    _check_shape(gambit_game)
    kept = labels or KeptLabels()
    text = kept.text
    players = list(gambit_game.players)
    entries = _preorder(gambit_game, players, kept)
    root = _assemble(entries, _infoset_names(players, kept))
    # Game's validation checks perfect recall (Kuhn 1953) and names the information set;
    # pygambit's is_perfect_recall agrees on the whole catalogue (tests/test_efg.py) and
    # costs more than the conversion on large trees, so it is not consulted.
    return Game(
        name=name if name is not None else (text(gambit_game.title).strip() or "gambit"),
        root=root,
        player_names=(text(players[0].label) or "Player 1", text(players[1].label) or "Player 2"),
        description=_first_line(text(gambit_game.description)),
    )


def _preorder(
    gambit_game: pygambit.Game, players: list[pygambit.Player], labels: KeptLabels
) -> list[Terminal | _Inner]:
    """One entry per node in pre-order, each terminal with its payoffs summed along its path.

    The walk keeps a stack (no recursion); :func:`_assemble` then builds the tree from the
    entries in reverse.  The first terminal whose payoffs do not sum to the same total as
    the first terminal's is reported once the walk is over (constant-sum games pass:
    :mod:`seqform.game.requirements`).
    """
    zero: _Payoffs = (Fraction(0), Fraction(0))
    outcome_payoffs = {
        outcome.number: (_exact(outcome[players[0]]), _exact(outcome[players[1]]))
        for outcome in gambit_game.outcomes
    }
    moves = _Moves({player.number: index for index, player in enumerate(players)}, labels.text)
    node_labels = iter(labels.nodes) if labels.nodes is not None else None
    node_outcomes = iter(labels.outcomes) if labels.outcomes is not None else None
    entries: list[Terminal | _Inner] = []
    first: tuple[_Path, _Payoffs] | None = None
    violation: tuple[_Path, _Payoffs] | None = None
    stack: list[tuple[pygambit.Node, _Path, _Payoffs]] = [(gambit_game.root, None, zero)]
    total = len(labels.nodes) if labels.nodes is not None else None
    while stack:
        if len(entries) & _REPORT_EVERY == 0:
            report(Step("converting the tree", len(entries), total, "nodes"))
        node, history, accrued = stack.pop()
        label = labels.text(node.label) if node_labels is None else next(node_labels)
        if node_outcomes is None:
            outcome = node.outcome
            own = outcome_payoffs[outcome.number] if outcome else None
        else:
            number = next(node_outcomes)
            own = labels.payoffs[number] if number else None
        if own is not None:
            accrued = own if accrued is zero else (accrued[0] + own[0], accrued[1] + own[1])
        children = list(node.children)
        if not children:
            if first is None:
                first = (history, accrued)
            elif violation is None and sum(accrued) != sum(first[1]):
                violation = (history, accrued)
            entries.append(Terminal(accrued, label))
            continue
        entry = moves.inner(node.infoset, len(children), label)
        entries.append(entry)
        for action_label, child in zip(reversed(entry.actions), reversed(children), strict=True):
            stack.append((child, (action_label, history), accrued))
    report(Step("converting the tree", len(entries), total, "nodes", finished=True))
    if first is not None and violation is not None:
        raise _constant_sum_error(
            (_unwind(first[0]), first[1]), (_unwind(violation[0]), violation[1])
        )
    return entries


# The actions from the root to a node, last first, as a linked list: each node's entry
# shares its parent's (a tuple per node would copy the path, quadratic in the depth).
_Path = tuple[str, "_Path"] | None


def _unwind(path: _Path) -> tuple[str, ...]:
    """The actions from the root, root first."""
    actions: list[str] = []
    while path is not None:
        action, path = path
        actions.append(action)
    return tuple(reversed(actions))


@dataclass(frozen=True, slots=True)
class _Inner:
    """A chance or decision node met by the walk, before its children are built."""

    arity: int
    label: str
    actions: tuple[str, ...]
    probabilities: tuple[Fraction, ...] | None  # None for a decision node
    infoset: tuple[int, int] = (-1, -1)  # (player index, Gambit number) of a decision node


@dataclass
class _Moves:
    """The labelled actions of each information set, worked out once per set, not per node.

    ``player_index`` maps Gambit's player numbers to seqform's 0 and 1; ``labels`` turns
    pygambit's action labels into the game's.
    """

    player_index: dict[int, int]
    labels: Callable[[str], str]
    decisions: dict[tuple[int, int], tuple[str, ...]] = field(default_factory=dict)
    chances: dict[int, tuple[tuple[str, ...], tuple[Fraction, ...]]] = field(default_factory=dict)

    def inner(self, infoset: pygambit.Infoset, arity: int, label: str) -> _Inner:
        """The walk's entry for a node of ``infoset`` with ``arity`` children."""
        if infoset.is_chance:
            move = self.chances.get(infoset.number)
            if move is None:
                actions = list(infoset.actions)
                move = (
                    distinct_labels([self.labels(action.label).strip() for action in actions]),
                    tuple(_exact(action.prob) for action in actions),
                )
                self.chances[infoset.number] = move
            return _Inner(arity, label, *move)
        key = (self.player_index[infoset.player.number], infoset.number)
        labels = self.decisions.get(key)
        if labels is None:
            labels = distinct_labels(
                [self.labels(action.label).strip() for action in infoset.actions]
            )
            self.decisions[key] = labels
        return _Inner(arity, label, labels, None, key)


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
