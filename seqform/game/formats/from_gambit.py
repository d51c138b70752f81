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
* **Players** are seqform's players 0, 1, ... in Gambit's order; their labels become the
  game's ``player_names``.

Any number of players and any payoffs are read: the CFR family and the logit QRE run on
them.  The routes that need two players and zero-sum (or constant-sum) payoffs, the LP
routes, refuse other games at their own entry, naming a terminal node and its payoffs
(:func:`seqform.game.requirements.require_two_player_zero_sum`), so the reader does not
refuse for them.  A game is refused here, with the reason, when it has fewer than two
players, is a strategic-form (table) game, or lacks perfect recall.
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
from seqform.game.nodes import Chance, Decision, Node, Terminal

__all__ = ["KeptLabels", "distinct_labels", "game_from_gambit"]

_Payoffs = tuple[Fraction, ...]  # to players 0, 1, ... in order
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


def _outcome_payoffs(
    outcome: pygambit.Outcome, players: list[pygambit.Player], labels: KeptLabels
) -> tuple[Fraction, ...]:
    """An outcome's payoffs, exactly; a payoff pygambit keeps but cannot read as a number (a
    lone ``-``) is refused naming the outcome."""
    try:
        return tuple(_exact(outcome[player]) for player in players)
    except (ValueError, ArithmeticError) as exc:
        raise InvalidGameError(
            f"outcome {outcome.number} ({labels.text(outcome.label)!r}) has a payoff that is "
            f"not a number: {exc}"
        ) from None


def _players_text(count: int) -> str:
    return f"{count} player" if count == 1 else f"{count} players"


def _check_shape(gambit_game: pygambit.Game) -> None:
    players = len(gambit_game.players)
    if players < 2:
        raise InvalidGameError(
            f"{_players_text(players)}; seqform reads games of two or more players"
        )
    if not gambit_game.is_tree:
        raise InvalidGameError(
            "strategic-form (table) game; seqform solves extensive-form (tree) games"
        )


def game_from_gambit(
    gambit_game: pygambit.Game, *, name: str | None = None, labels: KeptLabels | None = None
) -> Game:
    """Convert an extensive game of pygambit (any number of players, any payoffs) into a
    seqform Game.

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
        If the game has fewer than two players, is a strategic-form game, or lacks perfect
        recall (naming the information set).
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
        player_names=tuple(
            text(player.label) or f"Player {index}" for index, player in enumerate(players, 1)
        ),
        description=_first_line(text(gambit_game.description)),
    )


def _preorder(
    gambit_game: pygambit.Game, players: list[pygambit.Player], labels: KeptLabels
) -> list[Terminal | _Inner]:
    """One entry per node in pre-order, each terminal with its payoffs summed along its path.

    The walk keeps a stack (no recursion); :func:`_assemble` then builds the tree from the
    entries in reverse.
    """
    zero: _Payoffs = tuple(Fraction(0) for _ in players)
    outcome_payoffs = {
        outcome.number: _outcome_payoffs(outcome, players, labels)
        for outcome in gambit_game.outcomes
    }
    moves = _Moves({player.number: index for index, player in enumerate(players)}, labels.text)
    node_labels = iter(labels.nodes) if labels.nodes is not None else None
    node_outcomes = iter(labels.outcomes) if labels.outcomes is not None else None
    entries: list[Terminal | _Inner] = []
    stack: list[tuple[pygambit.Node, _Payoffs]] = [(gambit_game.root, zero)]
    total = len(labels.nodes) if labels.nodes is not None else None
    while stack:
        if len(entries) & _REPORT_EVERY == 0:
            report(Step("converting the tree", len(entries), total, "nodes"))
        node, accrued = stack.pop()
        label = labels.text(node.label) if node_labels is None else next(node_labels)
        if node_outcomes is None:
            outcome = node.outcome
            own = outcome_payoffs[outcome.number] if outcome else None
        else:
            number = next(node_outcomes)
            own = labels.payoffs[number] if number else None
        if own is not None:
            accrued = (
                own if accrued is zero else tuple(a + b for a, b in zip(accrued, own, strict=True))
            )
        children = list(node.children)
        if not children:
            entries.append(Terminal(accrued, label))
            continue
        entry = moves.inner(node.infoset, len(children), label)
        entries.append(entry)
        for child in reversed(children):
            stack.append((child, accrued))
    report(Step("converting the tree", len(entries), total, "nodes", finished=True))
    return entries


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
