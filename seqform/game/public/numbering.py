"""A structured game numbered: public sequences, nodes and leaves, then the game's indices.

Public numbering (per player ``p``, one walk of the public tree in preorder)
---------------------------------------------------------------------------
Player ``p``'s public sequences are numbered ``0 .. S_p - 1`` (0 the empty one) and its
public decision nodes ``0 .. K_p - 1``: when the walk meets a decision of ``p``, the node
takes the next number and its actions the next ``len(actions)`` consecutive sequences.
Each node records the player's public sequence leading to it; each public leaf ``z`` its
sequences ``(s0(z), s1(z))``, ``chance_z`` (``deal_scale`` × the public chance
probabilities on its path), its rule and levels; each node and leaf the set of public
cards on its path, as a key into :attr:`PublicNumbering.public_cards`.  This generalises
the betting numbering of :mod:`seqform.game.builtin.showdown_poker` (same order).

Game indices (hand-major)
-------------------------
A hand ``h`` is *valid* at a public node when its card is not among the public cards
there; (hand, public sequence) pairs that are not valid do not exist in the game.  The
game sequences of player ``p`` are the valid pairs ``(h, s)``, ``s >= 1``, numbered in
row-major order of the ``(H_p, S_p)`` grid after the empty sequence 0:
``sequence_index[p][h, s]`` is that number (column 0 is 0, invalid pairs -1).  Information
sets likewise: ``infoset_index[p][h, k]`` numbers the valid (hand, public decision node)
pairs.  :func:`player_sequences` builds the :class:`~seqform.game.sequences.PlayerSequences`
of these indices with numpy; its names are the explicit tree's (hand label + history), so
strategies carry over by name.

Size: a few lines over the limit for :func:`release_numbering`, which empties the cache of
:func:`number_public_tree` and so belongs beside it.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from seqform.game.errors import InvalidGameError
from seqform.game.public.table_labels import (
    InfosetActions,
    InfosetNames,
    SequenceActions,
    index_dtype,
    narrow_index,
)
from seqform.game.public.tree import (
    Constant,
    PayoffRule,
    PublicChance,
    PublicDecision,
    PublicLeaf,
    PublicNode,
    Sign,
    StructuredGame,
    Threshold,
)
from seqform.game.sequences import PlayerSequences

__all__ = [
    "PublicNumbering",
    "number_public_tree",
    "player_sequences",
    "release_numbering",
    "structured_tables",
]


@dataclass(frozen=True, eq=False)
class PublicNumbering:
    """The public tree numbered, and the game's hand-major indices (module docstring).

    node_histories[p] : per public decision node of ``p``, its history
    node_actions[p] : per node, its action labels
    node_parent[p] : per node, the player's public sequence leading to it
    node_first[p] : per node, the public sequence of its first action
    node_cards[p] : per node, its key into ``public_cards``
    sequence_node[p] : per public sequence ``s >= 1``, its node (entry 0 is -1)
    sequence_action[p] : per public sequence, its action label (``""`` for 0)
    sequence_cards[p] : per public sequence, its node's key (0 for the empty sequence)
    leaf_sequences : shape (Z, 2), each public leaf's ``(s0, s1)``
    leaf_chance : per leaf, ``chance_z`` (exact); ``leaf_chance_float`` the same as floats
    leaf_rules, leaf_levels : per leaf, its rule and levels (``None`` for constants)
    leaf_cards : per leaf, its key into ``public_cards``
    public_cards : the distinct sets of public cards on paths, key 0 the empty set
    hand_valid[p] : shape (keys, H_p), whether each hand is valid under each key
    sequence_index[p] : shape (H_p, S_p), the game sequence of (hand, public sequence)
    infoset_index[p] : shape (H_p, K_p), the game information set of (hand, node)
    num_public_chance : the public chance nodes
    """

    node_histories: tuple[tuple[str, ...], tuple[str, ...]]
    node_actions: tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]
    node_parent: tuple[np.ndarray, np.ndarray]
    node_first: tuple[np.ndarray, np.ndarray]
    node_cards: tuple[np.ndarray, np.ndarray]
    sequence_node: tuple[np.ndarray, np.ndarray]
    sequence_action: tuple[tuple[str, ...], tuple[str, ...]]
    sequence_cards: tuple[np.ndarray, np.ndarray]
    leaf_sequences: np.ndarray
    leaf_chance: tuple[Fraction, ...]
    leaf_chance_float: np.ndarray
    leaf_rules: tuple[PayoffRule, ...]
    leaf_levels: tuple[tuple[np.ndarray, np.ndarray] | None, ...]
    leaf_cards: np.ndarray
    public_cards: tuple[tuple[int, ...], ...]
    hand_valid: tuple[np.ndarray, np.ndarray]
    sequence_index: tuple[np.ndarray, np.ndarray]
    infoset_index: tuple[np.ndarray, np.ndarray]
    num_public_chance: int

    def num_public_sequences(self, player: int) -> int:
        """``S_p``: the player's public sequences, the empty one included."""
        return len(self.sequence_action[player])

    def num_public_nodes(self, player: int) -> int:
        """``K_p``: the player's public decision nodes."""
        return len(self.node_histories[player])

    @property
    def num_leaves(self) -> int:
        """``|Z|``: the public leaves."""
        return len(self.leaf_rules)

    def num_sequences(self, player: int) -> int:
        """The player's game sequences (valid pairs and the empty sequence)."""
        return int(self.sequence_index[player].max(initial=0)) + 1

    def num_infosets(self, player: int) -> int:
        """The player's game information sets (valid (hand, node) pairs)."""
        return int(self.infoset_index[player].max(initial=-1)) + 1

    def leaf_valid(self, player: int) -> np.ndarray:
        """Shape (Z, H_p): which hands are valid at each public leaf."""
        return self.hand_valid[player][self.leaf_cards]


class _Pending(NamedTuple):
    """A public node on the walk's stack with what its path gives it (a named tuple: the
    walk makes one per public node, a flop's hundreds of thousands)."""

    node: PublicNode
    where: str  # the path, to name the node in messages
    last: tuple[int, int]  # each player's public sequence on the path
    chance: Fraction
    cards: tuple[int, ...]


class _Walk:
    """The lists one preorder walk fills (see :func:`number_public_tree`)."""

    def __init__(self, game: StructuredGame) -> None:
        self.game = game
        self.histories: list[list[str]] = [[], []]
        self.actions: list[list[tuple[str, ...]]] = [[], []]
        self.parents: list[list[int]] = [[], []]
        self.firsts: list[list[int]] = [[], []]
        self.node_cards: list[list[int]] = [[], []]
        self.sequence_node: list[list[int]] = [[-1], [-1]]
        self.sequence_action: list[list[str]] = [[""], [""]]
        self.leaves: list[tuple[int, int]] = []
        self.chance: list[Fraction] = []
        self.rules: list[PayoffRule] = []
        self.levels: list[tuple[np.ndarray, np.ndarray] | None] = []
        self.leaf_cards: list[int] = []
        self.card_keys: dict[tuple[int, ...], int] = {(): 0}
        self.chance_nodes = 0
        # the level arrays already checked, by id: a spot's leaves of one public-card set
        # share theirs, and ``levels`` keeps every checked array alive (ids stay unique)
        self.checked_levels: set[tuple[int, int]] = set()

    def key(self, cards: tuple[int, ...]) -> int:
        return self.card_keys.setdefault(cards, len(self.card_keys))

    def decision(self, pending: _Pending, node: PublicDecision) -> list[_Pending]:
        """Number a decision and its actions; return its children, last first."""
        player = node.player
        if player not in (0, 1):
            raise InvalidGameError(
                f"{self._at(node)}: player {player!r} acts; the players are 0 and 1"
            )
        if not node.actions or len(node.actions) != len(node.children):
            raise InvalidGameError(f"{self._at(node)}: needs one child per action, and an action")
        if len(set(node.actions)) != len(node.actions):
            raise InvalidGameError(f"{self._at(node)}: repeated action labels {node.actions}")
        first = len(self.sequence_action[player])
        number = len(self.histories[player])
        self.histories[player].append(node.history)
        self.actions[player].append(tuple(node.actions))
        self.parents[player].append(pending.last[player])
        self.firsts[player].append(first)
        self.node_cards[player].append(self.key(pending.cards))
        self.sequence_node[player].extend([number] * len(node.actions))
        self.sequence_action[player].extend(node.actions)
        children = []
        for offset in reversed(range(len(node.actions))):
            last = list(pending.last)
            last[player] = first + offset
            text = f"{node.history} {node.actions[offset]}"
            child = node.children[offset]
            children.append(
                _Pending(child, text, (last[0], last[1]), pending.chance, pending.cards)
            )
        return children

    def _at(self, node: PublicDecision) -> str:
        """A decision named in a message (made only for one)."""
        return f"{self.game.name}: public history {node.history!r}"

    def chance_node(self, pending: _Pending, node: PublicChance) -> list[_Pending]:
        """Check a public chance node; return its children, last first."""
        size = len(node.outcomes)
        if size == 0 or len(node.cards) != size or len(node.children) != size:
            raise InvalidGameError(
                f"{self.game.name}: public chance after {pending.where!r}: needs a card and a "
                "child per outcome"
            )
        if node.multiplicity is not None and len(node.multiplicity) != size:
            raise InvalidGameError(
                f"{self.game.name}: public chance after {pending.where!r}: needs a "
                "multiplicity per outcome"
            )
        self.chance_nodes += 1
        # the path's chance times the outcome's (PublicChance.outcome_probability), the
        # product taken once per node and scaled by each outcome's multiplicity: the same
        # exact Fractions, with one Fraction product per node rather than two per outcome
        reach = pending.chance * Fraction(node.probability)
        multiplicity = node.multiplicity
        return [
            _Pending(
                node.children[i],
                f"{pending.where} {node.outcomes[i]}",
                pending.last,
                reach if multiplicity is None or multiplicity[i] == 1 else reach * multiplicity[i],
                tuple(sorted((*pending.cards, node.cards[i]))),
            )
            for i in reversed(range(size))
            if node.cards[i] not in pending.cards
        ]

    def leaf(self, pending: _Pending, node: PublicLeaf) -> None:
        rule = node.rule

        def where() -> str:  # made only for a message
            return f"{self.game.name}: public leaf after {pending.where!r}"

        if not isinstance(rule, Constant | Sign | Threshold):
            raise InvalidGameError(f"{where()}: {type(rule).__name__} is not a payoff rule")
        if not isinstance(rule, Constant):
            if node.levels is None:
                raise InvalidGameError(f"{where()}: a {type(rule).__name__} rule needs levels")
            for player, levels in enumerate(node.levels):
                if (player, id(levels)) in self.checked_levels:
                    continue
                if levels.shape != (self.game.num_hands(player),) or levels.min() < 0:
                    raise InvalidGameError(
                        f"{where()}: levels of player {player + 1} must be >= 0, one per hand"
                    )
                self.checked_levels.add((player, id(levels)))
        self.leaves.append(pending.last)
        self.chance.append(pending.chance)
        self.rules.append(rule)
        self.levels.append(None if isinstance(rule, Constant) else node.levels)
        self.leaf_cards.append(self.key(pending.cards))


def _walk(game: StructuredGame) -> _Walk:
    """One preorder walk of the public tree (iterative), validating it on the way."""
    walk = _Walk(game)
    stack = [_Pending(game.root, "(root)", (0, 0), Fraction(game.deal_scale), ())]
    while stack:
        pending = stack.pop()
        node = pending.node
        if isinstance(node, PublicDecision):
            stack.extend(walk.decision(pending, node))
        elif isinstance(node, PublicChance):
            stack.extend(walk.chance_node(pending, node))
        elif isinstance(node, PublicLeaf):
            walk.leaf(pending, node)
        else:
            raise InvalidGameError(
                f"{game.name}: after {pending.where!r}: {type(node).__name__} is not a public node"
            )
    return walk


def _hand_valid(game: StructuredGame, keys: list[tuple[int, ...]], player: int) -> np.ndarray:
    """Shape (keys, H_p): hand ``h`` is valid under a key unless a card of it is public there."""
    cards = game.hands[player].card_matrix
    valid = np.ones((len(keys), len(cards)), dtype=bool)
    for key, public in enumerate(keys):
        if public:
            valid[key] = ~np.isin(cards, np.asarray(public, dtype=np.int64)).any(axis=1)
    return valid


def _numbered(valid: np.ndarray, skip_first_column: bool) -> np.ndarray:
    """Number the True entries of ``valid`` in row-major order (from 1 when the first
    column is the empty sequence 0, else from 0); -1 elsewhere.  int32 when the numbers
    fit (:func:`~seqform.game.public.table_labels.index_dtype`), else int64."""
    mask = np.array(valid, dtype=bool, order="C")
    if skip_first_column:
        mask[:, 0] = False
    bound = int(np.count_nonzero(mask)) + 1
    index = np.cumsum(mask.ravel(), dtype=index_dtype(bound)).reshape(mask.shape)
    if not skip_first_column:
        index -= 1
    np.logical_not(mask, out=mask)
    index[mask] = -1
    if skip_first_column:
        index[:, 0] = 0
    return index


def _pair(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    return (np.asarray(lists[0], dtype=np.int64), np.asarray(lists[1], dtype=np.int64))


def _freeze(game: StructuredGame, walk: _Walk) -> PublicNumbering:
    keys = list(walk.card_keys)
    hand_valid = (_hand_valid(game, keys, 0), _hand_valid(game, keys, 1))
    node_cards = _pair(walk.node_cards)
    sequence_node = _pair(walk.sequence_node)
    sequence_cards = tuple(
        np.concatenate([[0], node_cards[p][sequence_node[p][1:]]]).astype(np.int64) for p in (0, 1)
    )
    sequence_index = tuple(
        _numbered(hand_valid[p][sequence_cards[p]].T, skip_first_column=True) for p in (0, 1)
    )
    infoset_index = tuple(
        _numbered(hand_valid[p][node_cards[p]].T, skip_first_column=False) for p in (0, 1)
    )
    return PublicNumbering(
        node_histories=(tuple(walk.histories[0]), tuple(walk.histories[1])),
        node_actions=(tuple(walk.actions[0]), tuple(walk.actions[1])),
        node_parent=_pair(walk.parents),
        node_first=_pair(walk.firsts),
        node_cards=node_cards,
        sequence_node=sequence_node,
        sequence_action=(tuple(walk.sequence_action[0]), tuple(walk.sequence_action[1])),
        sequence_cards=(sequence_cards[0], sequence_cards[1]),
        leaf_sequences=np.asarray(walk.leaves, dtype=np.int64).reshape(-1, 2),
        leaf_chance=tuple(walk.chance),
        leaf_chance_float=np.asarray([float(c) for c in walk.chance], dtype=float),
        leaf_rules=tuple(walk.rules),
        leaf_levels=tuple(walk.levels),
        leaf_cards=np.asarray(walk.leaf_cards, dtype=np.int64),
        public_cards=tuple(keys),
        hand_valid=hand_valid,
        sequence_index=(sequence_index[0], sequence_index[1]),
        infoset_index=(infoset_index[0], infoset_index[1]),
        num_public_chance=walk.chance_nodes,
    )


_NUMBERINGS: weakref.WeakKeyDictionary[StructuredGame, PublicNumbering] = (
    weakref.WeakKeyDictionary()
)
_TABLES: weakref.WeakKeyDictionary[StructuredGame, tuple[PlayerSequences, PlayerSequences]] = (
    weakref.WeakKeyDictionary()
)


def number_public_tree(game: StructuredGame) -> PublicNumbering:
    """The game numbered (module docstring), computed once per game.

    Raises
    ------
    InvalidGameError
        For a malformed public tree, naming the public history.
    """
    numbering = _NUMBERINGS.get(game)
    if numbering is None:
        numbering = _NUMBERINGS[game] = _freeze(game, _walk(game))
    return numbering


def release_numbering(game: StructuredGame) -> None:
    """Drop ``game``'s numbering from :func:`number_public_tree`'s cache (the next call walks
    again): a run that has built its own tables from the dense grids frees them (a flop: a
    gigabyte).  :func:`structured_tables` stays cached; it does not hold the grids."""
    _NUMBERINGS.pop(game, None)


TABLE_BLOCK = 1 << 20
"""How many (hand, public sequence) entries :func:`player_sequences` reads at a time: a
block of hands, so its temporaries stay a few megabytes (a flop's 362,761 public sequences:
a hand a block) while a deck of many hands is not read one hand per numpy call (Kuhn poker
with 10^6 cards, 5 public sequences: 8.8 CPU s a hand at a time, 0.3 s by blocks)."""


def player_sequences(game: StructuredGame, player: int) -> PlayerSequences:
    """The sequence table of ``player`` in the game's hand-major numbering.

    Information set ``infoset_index[h, k]`` is named ``labels[h] + history[k]`` with the
    node's actions, made only when asked (:mod:`seqform.game.public.table_labels`); the
    arrays are gathered from the public numbering with numpy.
    """
    numbering = number_public_tree(game)
    sequence_index = numbering.sequence_index[player]
    infoset_index = numbering.infoset_index[player]
    num_sequences = numbering.num_sequences(player)
    hands, nodes = np.nonzero(infoset_index >= 0)  # row-major: infoset order
    hands = narrow_index(hands, sequence_index.shape[0])
    nodes = narrow_index(nodes, numbering.num_public_nodes(player))
    sequence_infoset = np.empty(num_sequences, dtype=infoset_index.dtype)
    sequence_infoset[0] = -1
    node_of = numbering.sequence_node[player]
    rows = max(1, TABLE_BLOCK // max(1, sequence_index.shape[1]))
    for start in range(0, sequence_index.shape[0], rows):  # no (H, S) temporaries
        block = sequence_index[start : start + rows]
        reached = block > 0  # node_of[0] is -1: column 0 (the empty sequence) is never read
        sequence_infoset[block[reached]] = infoset_index[start : start + rows][:, node_of][reached]
    first_sequence = narrow_index(
        sequence_index[hands, numbering.node_first[player][nodes]], num_sequences
    )
    return PlayerSequences(
        player=player,
        infosets=InfosetNames(
            game.hands[player].labels, numbering.node_histories[player], hands, nodes
        ),
        actions=InfosetActions(numbering.node_actions[player], nodes),
        parent_sequence=narrow_index(
            sequence_index[hands, numbering.node_parent[player][nodes]], num_sequences
        ),
        first_sequence=first_sequence,
        sequence_infoset=sequence_infoset,
        sequence_action=SequenceActions(
            numbering.sequence_action[player],
            numbering.node_first[player],
            nodes,
            first_sequence,
            sequence_infoset,
        ),
    )


def structured_tables(game: StructuredGame) -> tuple[PlayerSequences, PlayerSequences]:
    """Both players' sequence tables (:func:`player_sequences`), built once per game."""
    tables = _TABLES.get(game)
    if tables is None:
        tables = _TABLES[game] = (player_sequences(game, 0), player_sequences(game, 1))
    return tables
