"""A seqform :class:`~seqform.game.model.Game` as a ``pygambit.Game``, exactly.

Each chance node becomes its own chance information set with rational probabilities;
decision nodes that share an information-set name share one Gambit information set; each
distinct payoff vector becomes one outcome.  Labels are made acceptable to Gambit
(printable ASCII, single spaces, no backslash), in a form a file reads back from
(:func:`~seqform.game.formats.efg_labels.gambit_label`, also used by
:func:`seqform.io.export.efg_text`, which writes the same game as ``.efg`` text without
pygambit); the other direction is :mod:`seqform.game.formats.from_gambit`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pygambit

from seqform.game.formats.efg_labels import gambit_label
from seqform.game.formats.from_gambit import distinct_labels
from seqform.game.model import Game
from seqform.game.nodes import Chance, Node, Terminal

__all__ = [
    "gambit_labels",
    "game_to_gambit",
    "payoff_label",
    "sequence_probabilities",
]


def gambit_labels(labels: Iterable[str]) -> list[str]:
    """Labels made acceptable to Gambit and distinct (Gambit wants them unique)."""
    converted = [gambit_label(label) for label in labels]
    return list(distinct_labels(converted))


def payoff_label(payoffs: tuple[Fraction, ...]) -> str:
    """The label of the outcome with these payoffs, e.g. ``"(1, -1)"``."""
    return "(" + ", ".join(str(payoff) for payoff in payoffs) + ")"


def _rational(number: Fraction) -> pygambit.Rational:
    return pygambit.Rational(number.numerator, number.denominator)


def game_to_gambit(game: Game) -> pygambit.Game:
    """Build a ``pygambit.Game`` with the same tree, exact numbers and information sets.

    Players are labelled by ``game.player_names``, the title is ``game.name`` and the
    description ``game.description``.  Each chance node is its own chance information
    set with exact rational probabilities; decision nodes sharing an information-set name
    share one Gambit information set, labelled by that name.  Terminal payoffs become
    outcomes, one per distinct payoff vector, labelled by the payoffs (``"(1, -1)"``).
    Labels are made acceptable to Gambit (printable ASCII,
    :func:`~seqform.game.formats.efg_labels.gambit_label`).

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
        players=[gambit_label(name) for name in game.player_names],
        title=gambit_label(game.name) or "Untitled extensive game",
    )
    gambit_game.description = gambit_label(game.description)
    builder = _Builder(gambit_game)
    stack: list[tuple[Node, pygambit.Node]] = [(game.root, gambit_game.root)]
    while stack:
        node, gambit_node = stack.pop()
        builder.add(node, gambit_node)
        if not isinstance(node, Terminal):
            stack.extend(reversed(list(zip(node.children, gambit_node.children, strict=True))))
    builder.set_labels()
    return gambit_game


@dataclass
class _Builder:
    """The Gambit tree under construction, with what is shared between its nodes.

    ``outcomes`` holds one Gambit outcome per payoff vector, ``first_member`` the first
    Gambit node of each information set (the others join its information set), and
    ``labelled`` the node labels, set only once the tree is complete.
    """

    gambit_game: pygambit.Game
    players: list[pygambit.Player] = field(init=False)
    outcomes: dict[tuple[Fraction, ...], pygambit.Outcome] = field(default_factory=dict)
    first_member: dict[str, pygambit.Node] = field(default_factory=dict)
    labelled: list[tuple[pygambit.Node, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.players = list(self.gambit_game.players)

    def add(self, node: Node, gambit_node: pygambit.Node) -> None:
        """Give the leaf ``gambit_node`` the move (or outcome) of ``node``."""
        game = self.gambit_game
        if node.label:
            self.labelled.append((gambit_node, node.label))
        if isinstance(node, Terminal):
            game.set_outcome(gambit_node, self._outcome(node.payoffs))
        elif isinstance(node, Chance):
            game.append_move(gambit_node, game.players.chance, gambit_labels(node.outcomes))
            game.set_chance_probs(gambit_node.infoset, [_rational(p) for p in node.probabilities])
        else:
            first = self.first_member.get(node.infoset)
            if first is None:
                player = self.players[node.player]
                game.append_move(gambit_node, player, gambit_labels(node.actions))
                self.first_member[node.infoset] = gambit_node
            else:
                game.append_infoset(gambit_node, first.infoset)

    def _outcome(self, payoffs: tuple[Fraction, ...]) -> pygambit.Outcome:
        outcome = self.outcomes.get(payoffs)
        if outcome is None:
            rationals = [_rational(payoff) for payoff in payoffs]
            outcome = self.gambit_game.add_outcome(payoff_label(payoffs), rationals)
            self.outcomes[payoffs] = outcome
        return outcome

    def set_labels(self) -> None:
        """Label the information sets and nodes, made acceptable to Gambit and distinct.

        Labels are set once the tree is complete: pygambit 16.7 makes a label change right
        after a change of the tree cost time proportional to the tree, and node labels must
        be unique within the game.
        """
        for name, member in self.first_member.items():
            member.infoset.label = gambit_label(name)
        node_labels = distinct_labels([gambit_label(label) for _, label in self.labelled])
        for (gambit_node, _), label in zip(self.labelled, node_labels, strict=True):
            gambit_node.label = label


def sequence_probabilities(
    game: Game, gambit_game: pygambit.Game, profile: Sequence[float]
) -> np.ndarray:
    """A pygambit behaviour profile (indexed by action, in ``gambit_game.actions``' order) in
    the order of ``game``'s sequences, both players' empty sequences left out: each action
    matched by player, information-set label
    (:func:`~seqform.game.formats.efg_labels.gambit_label`) and position, so it does not
    rest on the two programs numbering information sets alike."""
    position = {}
    for index, action in enumerate(gambit_game.actions):
        infoset = action.infoset
        player = list(gambit_game.players).index(infoset.player)
        rank = list(infoset.actions).index(action)
        position[(player, infoset.label, rank)] = index
    found = []
    for player, table in enumerate(game.flat.tables):
        for sequence in range(1, table.num_sequences):
            infoset = int(table.sequence_infoset[sequence])
            rank = sequence - int(table.first_sequence[infoset])
            found.append(profile[position[(player, gambit_label(table.infosets[infoset]), rank)]])
    return np.array(found)
